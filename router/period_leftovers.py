"""The invariant of the period reading: every date-like token of the question is consumed.

A period read in part is the silent wrong of this area: "3. Qu. 2025" read as the year 2025, "zw. 15.09.25 und
15.12.2025" as its last day, "Jul 2025 - today" as July, "H2 2025 (Oct)" as the half. After the period reader has
read the question, a date-like token it left standing *beside* the period it read (joined to it by nothing but
spacing, punctuation or a range word: it was meant as part of it), or, anywhere, a fiscal period number ("P07")
or a full numeric date that no other reader takes (an approval's or an as-at date, a document number, an
amount), is named back instead of answering with the part that was read.

Date-like tokens: numeric dates and months ("15.09.25", "1/11", "08.2025", "2025-10"), years, quarter and half
codes in every order and language ("Q3", "H2", "3. Qu.", "5Q", "3S": router/period_family.py), fiscal period
numbers and years ("P07", "M8", "FY26"), month words of the languages the readers know, and "today" words.
"""

from __future__ import annotations

import datetime as dt
import re

from router.date_tokens import keyed_elsewhere
from router.fiscal_periods import M_SIZE
from router.period_family import COUNT_WORDS, JUST_GONE, PART_TOKEN, SPAN_UNITS
from router.period_grammar import DAY_MONTH_WORDS
from router.period_words import KNOWN_MONTHS as _KNOWN_MONTHS

_I = re.I | re.UNICODE

#: Month words that are everyday words too ("may", "march", "mar", "jan" as a name): never a token alone.
_WORD_TOO = {"may", "march", "mar", "jan", "mai", "set", "out", "ago", "mei", "marco", "sept", "dec", "nov"}
#: The month of each month word (router/period_grammar.py's table of every language the readers know).
_MONTH_NUMBERS = DAY_MONTH_WORDS
_MONTH_W = "|".join(sorted((re.escape(w) for w in _KNOWN_MONTHS if w not in _WORD_TOO), key=len, reverse=True))
_NUMERIC = (r"\d{1,2}[./]\d{1,2}[./](?:(?:19|20)\d{2}|\d{2})|\d{1,2}[./](?:19|20)\d{2}|(?:19|20)\d{2}-\d{2}(?:-\d{2})?"
            r"|\d{1,2}/\d{1,2}")
#: A fiscal period number ("P07", "M8", "P10-P12": router/fiscal_periods.py reads it with its year).
#: ("M12 connector set": an M number starting a noun phrase is a size of a product, router/fiscal_periods.M_SIZE)
_FISCAL_NUMBER = rf"(?:p|m(?!{M_SIZE}))\d{{1,2}}(?:\s?[-–]\s?[pm]?\d{{1,2}})?"
#: A period number with the P of the controllers' notation, anywhere: "M3" alone is as often a screw size, "P07"
#: alone is a fiscal period whose year nobody read (a figure without it would be the whole year's or none).
_PERIOD_NUMBER = re.compile(r"(?<![\w./-])p\d{1,2}(?:\s?[-–]\s?p?\d{1,2})?(?![\w/-]|[.,]\d)", _I)
#: One date-like token; not inside a code or number ("INV-2025-0503", "PRD-482", "1.000,50").
_TOKEN = (rf"(?<![\w./-])(?:{_NUMERIC}|(?:19|20)\d{{2}}|[qh][1-4]|{_FISCAL_NUMBER}|"
          rf"fy\s?['’-]?(?:\d{{4}}|\d{{2}})|[1-4]\.\s?(?:qu|quartal|q|hj|halbjahr)\.?|{PART_TOKEN}|"
          rf"(?:{_MONTH_W})\.?|today|heute|aujourd['’]hui)(?![\w/-]|[.,]\d)"
          r"(?!\s*(?:%|€|\$|£|eur\b|euros?\b|usd\b|chf\b|gbp\b|k\b|tsd\b|mio\b|units?\b|pcs\b|st(?:ü|ue)ck\b))")
#: What may stand between a period and a token meant as part of it: spacing, a bracket, a dash, a range word.
_GLUE = r"\s*(?:[-–—/,(~]|\b(?:to|through|until|till|and|bis|und|au|tot|a|al)\b)?\s*\(?\s*"
_AFTER = re.compile(rf"(?P<glue>{_GLUE})(?P<token>{_TOKEN})", _I)
_BEFORE = re.compile(rf"(?P<token>{_TOKEN})(?P<glue>{_GLUE})$", _I)
#: "today" is part of a period only as a range's end ("Jul 2025 - today"); "as of today (15 May 2026)" restates it.
_NOW = re.compile(r"today|heute|aujourd['’]hui", _I)
_RANGE_GLUE = re.compile(r"[-–—~]|\b(?:to|through|until|till|bis|au|tot|a|al)\b", _I)
#: A full dotted date anywhere ("01.04.2026"): a day nobody writes as anything else.
_DOTTED_DAY = re.compile(r"(?<![\w./-])\d{1,2}\.\d{1,2}\.(?:(?:19|20)\d{2}|\d{2})(?![\w/-]|[.,]\d)")
#: Words before a date that make it another reader's: an approval's or agreement's date, an as-at date.
_OTHER_READERS = re.compile(
    r"\b(?:approv\w*|valid\w*|expir\w*|laps\w*|effective|genehmig\w*|freigabe|freigegeben|g(?:ü|ue)ltig\w*|"
    r"agreement|contract|vertrag\w*|stichtag|stand|as\s+(?:of|at|per)|dated|sent|issued|due|f(?:ä|ae)llig\w*)\b"
    r"\W*(?:[\w/]+\W+){0,4}$"
    # an e-mail's header line ("Date: 12.05.2026", "Gesendet: ...")
    r"|\b(?:date|datum|sent|gesendet|envoy(?:é|e))\s*:\s*(?:\w+,?\s+)?$", _I)


def _covered(span: tuple[int, int], spans: tuple[tuple[int, int], ...]) -> bool:
    return any(start <= span[0] and span[1] <= end for start, end in spans)


def _restated(token: str, glue: str, period: tuple[dt.date, dt.date] | None) -> bool:
    """Whether ``token`` restates the period read: a year holding all of it ("Q1 (2026)"), a month word of the
    month holding all of it ("MTD Feb"), or, in brackets, a month word of a month inside it ("T4 2025 - T1 2026
    (oct→mars)", "Q3 2025 (Jul-Sep)"; "Okt. 2026" is a month left unread beside its year)."""
    if period is None:
        return False
    if re.fullmatch(r"(?:19|20)\d{2}", token):
        year = int(token)
        return dt.date(year, 1, 1) <= period[0] and period[1] <= dt.date(year + 1, 1, 1)
    month = _MONTH_NUMBERS.get(token.casefold().rstrip("."))
    if month is None:
        return False
    last = period[1] - dt.timedelta(days=1)
    if period[0].month == month == last.month and (period[0].year, period[0].month) == (last.year, last.month):
        return True  # "MTD Feb" as of 17 February: the period read lies in the month written
    if "(" not in glue:
        return False
    day = period[0]
    while day < period[1]:
        if day.month == month:
            return True
        day = dt.date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return False


def _left(found: re.Match[str] | None, spans: tuple[tuple[int, int], ...],
          period: tuple[dt.date, dt.date] | None) -> bool:
    """Whether ``found`` (an :data:`_AFTER` or :data:`_BEFORE` match) is a token the period reading left."""
    if found is None or _covered(found.span("token"), spans) \
            or _restated(found.group("token"), found.group("glue"), period):
        return False
    return not (_NOW.fullmatch(found.group("token")) and not _RANGE_GLUE.search(found.group("glue")))


def unconsumed_date_token(question: str, spans: tuple[tuple[int, int], ...],
                          period: tuple[dt.date, dt.date] | None = None) -> tuple[str, tuple[int, int]] | None:
    """The first date-like token of ``question`` the period reading (its consumed ``spans``, the ``period`` read)
    left beside a period it read, or a dotted date no reader takes, with its span; ``None`` when every one is
    consumed (a year holding the period read only restates it).

    >>> unconsumed_date_token("spend 3. Qu. 2025", ((13, 17),))
    ('3. Qu.', (6, 12))
    >>> unconsumed_date_token("spend Q3 2025", ((6, 13),)) is None
    True
    """
    for start, end in spans:
        after = _AFTER.match(question, end)
        if after is not None and _left(after, spans, period):
            return after.group("token"), after.span("token")
        before = _BEFORE.search(question, 0, start)
        if before is not None and _left(before, spans, period):
            return before.group("token"), before.span("token")
    for number in _PERIOD_NUMBER.finditer(question):
        if not any(number.start() < e and s < number.end() for s, e in spans) \
                and not keyed_elsewhere(question, number.start()):
            return number.group(0), number.span()
    for day in _DOTTED_DAY.finditer(question):
        if not _covered(day.span(), spans) and not any(day.start() < e and s < day.end() for s, e in spans) \
                and not _OTHER_READERS.search(question, 0, day.start()):
            return day.group(0), day.span()
    return None


# --- a duration left before one day, a relative unit left unread ------------------------------------------------

_COUNT_W = "|".join(re.escape(w).replace(r"\ ", r"\s+")
                    for w, n in sorted(COUNT_WORDS.items(), key=lambda i: -len(i[0])) if n > 1)
_FORTNIGHTS = {w for w, (_, days) in SPAN_UNITS.items() if days == 14}
_UNIT_W = "|".join(re.escape(w) for w in sorted(SPAN_UNITS, key=len, reverse=True))
_FORTNIGHT_W = "|".join(re.escape(w) for w in sorted(_FORTNIGHTS, key=len, reverse=True))
#: A duration ("2 weeks", "ten days", "the fortnight") and up to three words ("from", "starting on the") before a
#: period read as one day: the span the writer meant, of which only its first day was read.
_DURATION_BEFORE = re.compile(rf"(?<![\w.-])(?P<token>(?:\d{{1,3}}|{_COUNT_W})\s*[- ]?\s*(?:{_UNIT_W})|"
                              rf"(?:{_FORTNIGHT_W}))\s+(?:[^\W\d_]+\s+){{1,3}}$", _I)


def unread_duration(question: str, spans: tuple[tuple[int, int], ...],
                    period: tuple[dt.date, dt.date] | None) -> tuple[str, tuple[int, int]] | None:
    """The duration (and its span) left unread before a period read as one day ("the 2 weeks from 18/10/25" read
    as the 18th), or ``None``: one day's figure for a fortnight's question is a silent wrong.

    >>> unread_duration("spend 2 weeks from 18.10.2025", ((19, 29),), (dt.date(2025, 10, 18), dt.date(2025, 10, 19)))
    ('2 weeks', (6, 13))
    """
    if period is None or period[1] - period[0] != dt.timedelta(days=1):
        return None
    for start, _ in spans:
        found = _DURATION_BEFORE.search(question, 0, start)
        if found is not None and not _covered(found.span("token"), spans):
            return " ".join(found.group("token").split()), found.span("token")
    return None


_GONE_W = "|".join(JUST_GONE)
#: A unit named as a period ("the quarter", "this fortnight", "the financial year", "the month that was", "the week
#: gone") that no period reading took: with no period read, the question would be answered over every date on file
#: (a listing) or asked without naming what was not understood.
_UNIT_PHRASE = re.compile(
    # ("that quarter", "the quarter before": a period of the conversation, the follow-up reader's)
    # ("the next quarter", "the following quarter": a period counted from another one the question names, read by
    # the reader of that relation, e.g. the posting side of a cut-off)
    rf"\b(?:the|this|last|past|previous|prior|current|recent|latest)\s+"
    rf"(?:(?!(?:next|following|same|subsequent|later|earlier|preceding|prior|previous|other)\b)[^\W\d_]+\s+)?"
    rf"(?:quarter|qtr|fortnight|(?:financial|fiscal|fin\.?)\s+(?:year|yr)|fy|half[- ]year)\b"
    rf"(?!\s+(?:with|where|when|in\s+which|that\s+had|having|of\s+(?:19|20)\d{{2}}|before|after|prior|previous|"
    rf"earlier|later|anterior|following|preceding)\b)"
    rf"|\b(?:the|this)\s+(?:month|week|year)\s+(?:that\s+was|that['’]s\s+been|(?:just\s+)?(?:{_GONE_W}))\b",
    _I)


def unread_unit_phrase(question: str) -> tuple[str, tuple[int, int]] | None:
    """A unit named as a period that the reading left (``None`` when there is none), for a question where no
    period was read at all.

    >>> unread_unit_phrase("which invoices came in twice the quarter gone by")
    ('the quarter', (29, 40))
    >>> unread_unit_phrase("which quarter had the most spend") is None
    True
    """
    found = _UNIT_PHRASE.search(question)
    return (" ".join(found.group(0).split()), found.span()) if found else None
