"""The unused-span invariant: a span of the question that carries a number, a period or a breakdown is never
dropped silently.

The unread-word invariant (router/unread_words.py) checks the *words* of a question no reader consumed; it skips
every token with a digit, and a word it knows ("category", "by") passes as a general word. So the spans that decide
which figure is asked slipped through it: "Kestrel spend in 2025.10 only" was answered for all of 2025 (the period
reader took "2025" and left ".10"), "2026 1Q" for the year 2026 ("1Q" unread), "spend by L1 category" as a total
("by L1 category" unread, no grouping planned). Each reader records the spans it consumed; the question's figure is
the plan built from those readings. So the check is one of shape, after planning and before the answer is
presented complete:

* every token bearing a digit (ASCII or full-width: "2025.10", "1Q", "L1", "３", "20 mil") must have each of its
  digits inside a span some reader consumed. A reader that took part of a token ("2025" of "2025.10") did not
  account for the rest: the whole token is named. A token whose digits no reader took is named too.
* a breakdown phrase ("by X", "per X", "por X", "pro X", "par X", "nach X", "je X") whose preposition and noun no
  reader consumed, in a plan that groups nothing, asks for rows the answer does not give: a clarification, never
  the total as if it were the breakdown.

Named spans make the figure PARTIAL (router/unread_words.py's marking: the figure stays, with the spans it does
not apply); a breakdown asked but not planned is asked about (the figure would be of another kind). Sentences that
name nothing the readers read (a remark, a page reference of the writer's deck) are not checked, as for the words.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from router.edits import without_diacritics

#: A token with a digit: the run of non-space characters around it ("2025.10", "1Q", "Top3", "L1", "２０２５年").
_DIGIT_TOKEN = re.compile(r"[^\s]*\d[^\s]*")
#: Punctuation around a token that belongs to the sentence, not to the token ("(2025.10)", "1Q?", "2026,").
_EDGE = "()[]{}<>\"'“”‘’«»,;:!?¿¡.…。、，：；！？（）"


def _token_spans(text: str) -> Iterable[tuple[int, int]]:
    """The digit-bearing tokens of ``text`` as spans, sentence punctuation stripped from their edges."""
    for match in _DIGIT_TOKEN.finditer(text):
        start, end = match.span()
        while start < end and text[start] in _EDGE:
            start += 1
        while end > start and text[end - 1] in _EDGE:
            end -= 1
        if any(c.isdecimal() for c in text[start:end]):
            yield start, end


#: The CJK markers of a year, a month and a day ("2025年10月1日"): a date written with them is a date.
_DATE_MARKS = frozenset("年月日")


def _mappings(arguments: Iterable[Any]) -> Iterable[Mapping[str, Any]]:
    """Every mapping in the plan's argument trees, outer before inner (a step's own arguments, its
    ``parameters``, each metric's)."""
    stack = list(reversed(list(arguments)))
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            yield value
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, (list, tuple)):
            stack.extend(reversed(value))


def plan_periods(arguments: Iterable[Any]) -> tuple[tuple[dt.date, dt.date], ...]:
    """Every ``[start_date, end_date)`` pair in the plan's argument trees (a step's own or its ``parameters``)."""
    found: list[tuple[dt.date, dt.date]] = []
    for value in _mappings(arguments):
        start, end = value.get("start_date"), value.get("end_date")
        with contextlib.suppress(ValueError):  # (no dates here, or a reference to another step's output)
            found.append((dt.date.fromisoformat(str(start)), dt.date.fromisoformat(str(end))))
    return tuple(dict.fromkeys(found))


def _months(start: dt.date, end: dt.date) -> int:
    return (end.year - start.year) * 12 + end.month - start.month


def _aligned(start: dt.date, end: dt.date, months: int) -> bool:
    """Whether ``[start, end)`` is exactly one calendar block of ``months`` months (a quarter, a half)."""
    return (start.day == 1 and end.day == 1 and (start.month - 1) % months == 0
            and _months(start, end) == months)


def _boundaries(start: dt.date, end: dt.date) -> tuple[tuple[int, ...], ...]:
    """The digit groups a period's boundaries are written with: each boundary day (first, last, and the exclusive
    end) as year-month-day and year-month, in either order, with a four- or two-digit year."""
    last = end - dt.timedelta(days=1)
    forms: list[tuple[int, ...]] = []
    for day in (start, last, end):
        for year in (day.year, day.year % 100):
            forms += [(year, day.month, day.day), (day.day, day.month, year), (day.month, day.day, year),
                      (year, day.month), (day.month, year)]
    return tuple(forms)


#: Argument keys whose integer value is a count the question may write ("top 3", "2 productos con mayor gasto").
_COUNT_KEYS = frozenset({"limit", "top_n", "n", "top", "count"})
#: Argument keys naming the companies a figure is computed for (absent: every company of the tenant).
_COMPANY_KEYS = frozenset({"company_id", "company_ids"})


def plan_counts(arguments: Iterable[Any], companies: int) -> frozenset[int]:
    """The counts a plan accounts for: its ranking limits, the length of each list of ids it names, and the number
    of the tenant's ``companies`` when no step names a company ("all 3 companies": every company)."""
    counts: set[int] = set()
    named = False
    for value in _mappings(arguments):
        for key, item in value.items():
            if key in _COUNT_KEYS and isinstance(item, int) and not isinstance(item, bool):
                counts.add(item)
            elif str(key).endswith("_ids") and isinstance(item, (list, tuple)) and item:
                counts.add(len(item))
            named = named or (key in _COMPANY_KEYS and bool(item))
    return frozenset(counts | ({companies} if not named else set()))


def _explained(groups: Sequence[int], has_letters: bool, periods: Sequence[tuple[dt.date, dt.date]]) -> bool:
    """Whether the digit groups of one token are the numbers of a planned period as written: its years, its
    boundary dates or months (one boundary, or both in order: "2025/07～2025/12"), and for a number marked by
    letters (``has_letters``: "3T", "2H/2025", "12m") the number of its one quarter or half, or its length in
    months. A number of a
    broader period than the token names is not: "1Q" of a whole year, "10" of "2025.10" answered for 2025."""
    for start, end in periods:
        last = end - dt.timedelta(days=1)
        years = {start.year, last.year, start.year % 100, last.year % 100}
        if len(groups) == 1 and groups[0] in years and groups[0] >= 1000:
            return True  # "2026" of "2026 (Jan-Apr)": the year the period lies in
        forms = _boundaries(start, end) if not has_letters else ()
        if tuple(groups) in forms:
            return True
        if any(tuple(groups) == a + b for a in forms for b in forms):
            return True  # a range written as one token: "2025/07～2025/12", "2025/07/01～2025/12/31"
        if (not has_letters and start.year == last.year and tuple(groups) == (start.month, last.month)
                and start.day == end.day == 1):
            return True  # the months of one year, the year written apart: "2026 1~4月"
        rest = list(groups)
        for year in (start.year, start.year % 100, last.year, last.year % 100):
            if len(rest) > 1 and year in rest:
                rest.remove(year)  # "2H/2024", "Q4/25": the year beside the quarter's or half's number
        if len(rest) == 1 and has_letters:
            n = rest[0]
            if (_aligned(start, end, 3) and n == (start.month - 1) // 3 + 1) or (
                    _aligned(start, end, 6) and n == (start.month - 1) // 6 + 1) or n == _months(start, end):
                return True
    return False


#: What a plan's figure is, by the names of its tools and metrics: a percentage (a share, a change, a ranking with
#: each row's share of the ranked total) or a count or list of records. A number of that kind in the question is the
#: writer's guess at the answer ("= 5?", "up 18%", "the memo says 8 invoices"), checked by the answer itself, never
#: a constraint it dropped.
_PERCENT_FIGURE = re.compile(r"share|comparison|change|growth|ratio|percent|pareto|concentration|ranking", re.I)
_COUNT_FIGURE = re.compile(r"count|invoices|duplicate|vendors|suppliers|products|documents|lines", re.I)


def figure_kinds(steps: Iterable[tuple[str, Mapping[str, Any]]]) -> frozenset[str]:
    """The kinds of figure a plan computes (``steps``: each step's tool and arguments): ``percent``, ``count``."""
    names = [f"{tool} {arguments.get('metric', '')}" for tool, arguments in steps]
    return frozenset({*(["percent"] if any(_PERCENT_FIGURE.search(n) for n in names) else []),
                      *(["count"] if any(_COUNT_FIGURE.search(n) for n in names) else [])})


#: The sentence breaks a claim's verb is looked for within (the number's own sentence).
_SENTENCE_BREAK = re.compile(r"[.;!?\n。！？](?:\s|$)")


def guess_cue(text: str, start: int, end: int) -> bool:
    """Whether the number at ``[start, end)`` is marked as the writer's guess: "= 5", "≈ 62 %", "~5", "5?" (the
    number itself asked), a claim's verb before it in its sentence ("the memo says 8 invoices") or a verdict asked
    in its sentence ("up 31% June vs May, true?": router/claim_check.py's VERDICT_WORDS). A number without such a
    cue ("invoices that had 2 lines") is a constraint of the question, never a guess.

    >>> guess_cue("count = 5?", 8, 9), guess_cue("the memo says 8 invoices", 14, 15)
    (True, True)
    >>> guess_cue("how many invoices had 2 lines?", 22, 23)
    False
    """
    from router.claim_check import VERDICT_WORDS
    from router.metric_shape import CLAIM_VERBS

    token = text[start:end]
    if token[:1] in "~≈=" or re.search(r"[=≈~]\s*$", text[max(0, start - 4):start]):
        return True
    if re.match(r"\s*(?:%|percent\b|pct\b)?\s*\?", text[end:], re.I):
        return True
    breaks = [m.end() for m in _SENTENCE_BREAK.finditer(text, 0, start)]
    if CLAIM_VERBS.search(text, breaks[-1] if breaks else 0, start) is not None:
        return True
    after = _SENTENCE_BREAK.search(text, end)
    sentence = text[breaks[-1] if breaks else 0:after.end() if after else len(text)]
    return any(w.strip("'’\"") in VERDICT_WORDS for w in re.findall(r"[^\W\d_][\w'’-]*", sentence.casefold()))


def _guessed(text: str, start: int, end: int, kinds: frozenset[str]) -> bool:
    """Whether the number at ``[start, end)`` is the writer's guess at the figure the plan computes: marked as a
    guess (:func:`guess_cue`) and of the plan's kind, a percentage ("= 18%?", "~62 %", "says 72 percent") where a
    share or change is computed, a bare count ("= 5?", "says 10") where a count or a list is."""
    from router.figure_words import PERCENT

    if not guess_cue(text, start, end):
        return False
    token = text[start:end]
    percent = token.endswith("%") or PERCENT.match(text[end:].lstrip()) is not None
    bare = token.lstrip("~≈#=+-").rstrip("%").strip()
    if not bare.isdecimal() or len(bare) > 4:
        return False
    return ("percent" in kinds and percent) or ("count" in kinds and not percent and len(bare) <= 3)


@lru_cache(maxsize=1)
def _month_words() -> dict[str, int]:
    """Every month word of the period tables, by number, including those that are words too ("ago", "set", "mars"):
    inside a token with a year ("ago/25", "mars-26") a month word is a month."""
    from router.period_grammar import MONTH_WORDS
    from router.period_words import ALL_MONTHS
    from router.romance import ROMANCE_MONTHS

    return {without_diacritics(w.casefold()): n for w, n in {**ROMANCE_MONTHS, **ALL_MONTHS, **MONTH_WORDS}.items()}


def _numbers(token: str) -> tuple[list[int], bool]:
    """The numbers of a token in order, a month word read as its number ("oct/25" -> 10, 25), and whether letters
    other than month words and the CJK date marks remain (a quarter, half or length marker: "1Q", "2H", "12m")."""
    numbers: list[int] = []
    marked = False
    for part in re.finditer(r"\d+|[^\W\d_]+", token):
        text = part.group(0)
        if text.isdecimal():
            numbers.append(int(text))
        elif (month := _month_words().get(without_diacritics(text.casefold()).rstrip("."))) is not None:
            numbers.append(month)
        elif any(c not in _DATE_MARKS for c in text):
            marked = True
    return numbers, marked


def _dimension_level(text: str, start: int, end: int) -> bool:
    """Whether the token at ``[start, end)`` and the words after it name a dimension ("L1 category", "level 2
    group"): router/breakdown_words.py's dimension nouns."""
    from router.breakdown_words import dimension_noun

    following = re.match(r"((?:[\s-]+[^\W\d_]+)?)((?:[\s-]+[^\W\d_]+)?)", text[end:])
    one, two = following.groups() if following else ("", "")
    before = re.search(r"[^\W\d_]+[\s-]*$", text[:start])  # "level 1 group": the level word before the number
    return any(dimension_noun(lead + text[start:end] + words) is not None
               for lead in ("", *([before.group(0)] if before else [])) for words in (one, one + two) if words)


def _covered(position: int, consumed: Sequence[tuple[int, int]]) -> bool:
    return any(s <= position < e for s, e in consumed)


def unused_digit_tokens(text: str, consumed: Sequence[tuple[int, int]],
                        checked: Sequence[tuple[int, int]] | None = None,
                        periods: Sequence[tuple[dt.date, dt.date]] = (),
                        counts: frozenset[int] = frozenset(),
                        kinds: frozenset[str] = frozenset(), grouped: bool = False) -> tuple[str, ...]:
    """The digit-bearing tokens of ``text`` with a digit outside every ``consumed`` span, in order, each once,
    unless the token's numbers are those of a period the plan computes (``periods``: a reader that rewrote the
    token kept no span, but the plan says what it read) or, for a bare number, a count the plan holds (``counts``:
    "all 3 companies" over the tenant's three, "top 3" with a limit of 3), or a number of the kind of figure the
    plan computes (``kinds``, :func:`figure_kinds`: "= 5?" beside a count, "up 18%" beside a change: the writer's
    guess, which the answer checks), or the level of a dimension where the plan groups ("L1 category" with
    ``grouped``: the grouping the plan carries is the one named).

    ``checked``: the spans of ``text`` whose tokens are checked (default all of it).

    >>> unused_digit_tokens("Kestrel spend in 2025.10 only", [(0, 7), (14, 21)])
    ('2025.10',)
    >>> unused_digit_tokens("Alpenland spend for 2026 1Q?", [(0, 9), (16, 24)])
    ('1Q',)
    >>> unused_digit_tokens("Alpenland spend in Q1 2026", [(0, 9), (16, 26)])
    ()
    """
    spans = list(consumed)
    where = list(checked) if checked is not None else [(0, len(text))]
    found: list[str] = []
    for start, end in _token_spans(text):
        if not any(a <= start < b for a, b in where):
            continue
        digits = [i for i in range(start, end) if text[i].isdecimal()]
        if all(_covered(i, spans) for i in digits):
            continue
        token = text[start:end]
        # (a letter marks a quarter, a half or a length, "1Q2026", "2H", "12m"; a month word or a CJK date mark
        # marks a date: "oct/25", "2025年10月")
        if _explained(*_numbers(token), periods):
            continue
        if token.isdecimal() and int(token) in counts:
            continue
        if _guessed(text, start, end, kinds):
            continue
        if grouped and _dimension_level(text, start, end):
            continue
        after = text[end:].lstrip()
        if (len(token) == 2 and token.isdecimal() and not after[:1].isalpha()
                and any(int(token) in (a.year % 100, (b - dt.timedelta(days=1)).year % 100) for a, b in periods)):
            continue  # "Jul/Aug 25": the plan's year in two digits (a count is followed by its noun: "25 bills")
        found.append(text[start:end])
    return tuple(dict.fromkeys(found))


#: The workflows whose answer is one aggregate figure: a breakdown asked is rows the total does not give.
_AGGREGATE_WORKFLOWS = frozenset({"spend", "spend_with_documents", "metric", "document_amounts"})
#: Dimensions a plan of several governed steps already answers one row each of (a step per company or period).
_ROW_PER_STEP = frozenset({"company", "month", "quarter", "year", "week", "day"})


@lru_cache(maxsize=1)
def _grouping_pattern() -> re.Pattern[str]:
    """A grouping word and the up to three words after it, the dimension searched among them ("by L1 category",
    "por grupo de producto", "je Lieferant"); an article or "each" between them is skipped."""
    from router.breakdown_words import GROUPING_WORDS

    return re.compile(rf"(?<![\w-])(?:{GROUPING_WORDS})\s+(?:(?:the|each|every|le|la|les|el|los|das|den|die|der)\s+)?"
                      r"(?P<words>[^\s,;:!?()]+(?:[\s-]+[^\s,;:!?()]+){0,2})", re.I | re.UNICODE)


def unplanned_breakdown(text: str, consumed: Sequence[tuple[int, int]], workflow: str,
                        steps: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
    """The breakdown phrase of ``text`` ("by L1 category", "por proveedor") no reader consumed, where the plan
    (``steps``: each step's tool and arguments) answers one aggregate and groups nothing; ``None`` otherwise.

    >>> unplanned_breakdown("Kestrel Q3 spend by L1 category", [(0, 7), (8, 10)], "spend",
    ...                     [("finance.company_spend", {"start_date": "2025-07-01"})])
    'by L1 category'
    >>> unplanned_breakdown("Kestrel Q3 spend by L1 category", [(0, 7), (8, 10)], "spend",
    ...                     [("finance.company_spend", {"group_by": ["product_group_id"]})]) is None
    True
    >>> unplanned_breakdown("Kestrel Q3 spend por favor", [(0, 7), (8, 10)], "spend", [("finance.x", {})]) is None
    True
    """
    from router.breakdown_check import _AVERAGE, _groups
    from router.breakdown_words import dimension_noun

    if workflow not in _AGGREGATE_WORKFLOWS or any(_groups(dict(arguments)) for _, arguments in steps):
        return None
    if _AVERAGE.search(text):
        return None  # "average spend per month": the grain divides the total, it asks for no rows
    governed = [tool for tool, _ in steps if not tool.startswith(("entity.", "validation."))]
    spans = list(consumed)
    for match in _grouping_pattern().finditer(text):
        words = re.split(r"(?<=\S)(?=[\s-])", match.group("words"))
        for n in range(len(words), 0, -1):
            phrase = "".join(words[:n]).strip()
            noun = dimension_noun(phrase)
            if noun is None:
                continue
            start = match.start("words")
            end = start + len("".join(words[:n]))
            if any(s < end and start < e for s, e in spans):
                break  # a name or a grouping a reader took ("by Company A", "by supplier")
            if noun in _ROW_PER_STEP and len(governed) > 1:
                break  # (a step per company or per period: a row each)
            return " ".join(text[match.start():end].split())
    return None


def breakdown_question(phrase: str) -> str:
    """The clarification for a breakdown asked and not planned: the total would be a figure of another kind."""
    return (f"I did not read {phrase!r} in your question: the figure I could compute is one total without that "
            f"breakdown, so it is not answered as if it were the breakdown. Do you want the total only, or the "
            f"spend broken down as {phrase!r} asks?")


@lru_cache(maxsize=1)
def _comparison_pattern() -> re.Pattern[str]:
    """A comparison cue: a comparative and, within eight words, the word of the other side ("a mais ... do que"),
    or a word that compares by itself ("vs", "compared")."""
    from router.comparison_words import COMPARATIVES, THAN, VERSUS

    return re.compile(rf"(?<![\w-])(?:(?P<more>{COMPARATIVES})(?:\W+[^\W\d_][\w'’-]*){{0,8}}?\W+(?P<than>{THAN})|"
                      rf"(?P<versus>{VERSUS}))(?![\w-])", re.I | re.UNICODE)


#: Tools and metrics that compute a comparison or a change: the two sides are set against each other in the plan.
_COMPARING = re.compile(r"comparison|change|growth|difference|delta|trend|by_period", re.I)


def unplanned_comparison(text: str, consumed: Sequence[tuple[int, int]], workflow: str,
                         steps: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
    """The comparison cue of ``text`` no reader consumed ("quanto a mais ... do que", "vs") where the plan computes
    one aggregate and compares nothing; ``None`` otherwise. The sum or the total of both sides answered as the
    difference asked would be a figure of another kind.

    >>> unplanned_comparison("how much more with Nordwind than with Ostwind", [], "spend",
    ...                      [("finance.aggregate_spend", {"supplier_ids": ["S-1", "S-2"]})])
    'more ... than'
    >>> unplanned_comparison("how much more with Nordwind than with Ostwind", [(28, 32)], "spend",
    ...                      [("finance.aggregate_spend", {})]) is None
    True
    """
    if workflow not in _AGGREGATE_WORKFLOWS:
        return None
    governed = [f"{tool} {arguments.get('metric', '')}" for tool, arguments in steps
                if not tool.startswith(("entity.", "validation."))]
    if len(governed) != 1 or any(_COMPARING.search(g) for g in governed):
        return None  # (two figures, or a comparison planned: the sides are set against each other)
    spans = list(consumed)
    for match in _comparison_pattern().finditer(text):
        # (the cue words themselves: the sides between them are names a reader took)
        cues = [match.span(g) for g in ("more", "than", "versus") if match.group(g)]
        if not any(s < end and start < e for start, end in cues for s, e in spans):
            return " ... ".join(" ".join(text[a:b].split()) for a, b in cues)
    return None


def comparison_question(cue: str) -> str:
    """The clarification for a comparison asked and not planned."""
    return (f"I did not read the comparison {cue!r} in your question: the figure I could compute is one total of "
            "everything named, not the difference between the two sides, so it is not answered as if it were the "
            "comparison. Do you want each side's figure and their difference, or the total?")


def counted_phrase(text: str, unused: Sequence[str], workflow: str,
                   steps: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
    """The unused bare count and the noun after it ("2 productos", "3 vendors") where the plan computes one
    aggregate: N things were asked (a ranking, a list of N), one total would be a figure of another kind; ``None``
    otherwise.

    >>> counted_phrase("Nordwind: 2 productos con mayor gasto", ("2",), "spend", [("finance.company_spend", {})])
    '2 productos'
    >>> counted_phrase("Nordwind spend 2024.10", ("2024.10",), "spend", [("finance.company_spend", {})]) is None
    True
    """
    from router.breakdown_check import _groups
    from router.unread_words import FILLER_WORDS, FUNCTION_WORDS, RESTRICTION_WORDS

    if workflow not in _AGGREGATE_WORKFLOWS or len([t for t, _ in steps
                                                    if not t.startswith(("entity.", "validation."))]) != 1:
        return None
    if any(_groups(dict(arguments)) for _, arguments in steps):
        return None  # (rows are given: the N things may be among them)
    grammar = FUNCTION_WORDS | FILLER_WORDS | RESTRICTION_WORDS
    for token in unused:
        if not (token.isdecimal() and len(token) <= 2):
            continue
        following = re.search(rf"(?<![\w.,]){re.escape(token)}\s+(?P<noun>[^\W\d_]{{3,}})", text)
        if following is None or following.group("noun").casefold() in grammar or _dimension_level(
                text, following.start(), following.start() + len(token)):
            continue  # ("level 1 only", "L1 category": a word of grammar or a dimension's level, no things)
        return f"{token} {following.group('noun')}"
    return None


#: Units of time: "2 weeks", "3 Monate" are a length of period (a grain or a window), not N things to list.
_TIME_UNITS = re.compile(r"(?:days?|weeks?|months?|quarters?|years?|tage?n?|wochen?|monate?n?|jahren?|jours?|"
                         r"semaines?|mois|ans?|d[ií]as?|semanas?|mes(?:es)?|a[ñn]os?|giorni|settimane?|mesi|anni)",
                         re.I)


def counted_question(phrase: str) -> str:
    """The clarification for a count of things asked where one total was planned; for a length of time ("2
    weeks") the split into periods of that length, never a ranking or list of that many."""
    if _TIME_UNITS.fullmatch(phrase.split()[-1]):
        return (f"I did not read {phrase!r} in your question: the figure I could compute is one total for the whole "
                f"period, not split into periods of {phrase}, so it is not answered as if it were. Do you want the "
                f"total only, or the spend by month or by week?")
    return (f"I did not read {phrase!r} in your question: the figure I could compute is one total, not {phrase}, "
            "so it is not answered as if it were them. Do you want the total, or a ranking or list of that many?")


def unplanned_percent(text: str, consumed: Sequence[tuple[int, int]],
                      steps: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
    """The percent word of ``text`` ("%", "percent", "Prozent") no reader consumed where the plan computes a figure
    and no percentage (no share, change or ratio: :func:`figure_kinds`), or ``None``: a unit price or a count
    answered for "how many % of total" would be a figure of another kind.

    >>> unplanned_percent("shipping how many % of total", [], [("catalog.unit_price", {})])
    '%'
    >>> unplanned_percent("shipping how many % of total", [], [("finance.product_group_share", {})]) is None
    True
    """
    from router.figure_words import PERCENT

    if not any(not tool.startswith(("entity.", "validation.")) for tool, _ in steps) or "percent" in figure_kinds(
            steps):
        return None
    spans = list(consumed)
    for match in PERCENT.finditer(text):
        if not any(s < match.end() and match.start() < e for s, e in spans):
            return match.group(0)
    return None


#: Argument keys that carry no amount the question names (dates, ids, counts): an amount equal to one is no use.
_NOT_AMOUNT_KEYS = frozenset({"start_date", "end_date", "as_of", *_COUNT_KEYS})
#: Workflows that use the question's amounts after the plan ran (thresholds, the documents' own amounts).
_AMOUNT_USING_WORKFLOWS = frozenset({"spend_threshold", "document_amounts"})


def _plan_numbers(value: Any, key: str = "") -> set[float]:
    """Every number an argument tree holds outside :data:`_NOT_AMOUNT_KEYS` (numbers, numeric strings)."""
    if key in _NOT_AMOUNT_KEYS:
        return set()
    if isinstance(value, Mapping):
        return {n for k, item in value.items() for n in _plan_numbers(item, str(k))}
    if isinstance(value, (list, tuple)):
        return {n for item in value for n in _plan_numbers(item, key)}
    if isinstance(value, bool):
        return set()
    with contextlib.suppress(TypeError, ValueError):
        return {float(value)}
    return set()


def unplanned_amounts(text: str, amounts: Iterable[Any], workflow: str,
                      steps: Sequence[tuple[str, Mapping[str, Any]]]) -> tuple[str, ...]:
    """The money amounts of ``text`` (``amounts``: the reading's, each with ``start``, ``end`` and ``value``) that
    no parameter of the plan holds and no guess cue marks (:func:`guess_cue`): read by the amount reader, used by
    no step, they are named, never the figure of every amount presented as complete ("Company A spend 1.250 EUR
    Q1 2026").

    >>> class A: start, end, value = 16, 25, 1250
    >>> unplanned_amounts("Company A spend 1.250 EUR Q1 2026", [A], "spend", [("finance.company_spend", {})])
    ('1.250 EUR',)
    >>> unplanned_amounts("Company A spend 1.250 EUR Q1 2026", [A], "spend", [("x", {"min_amount": "1250"})])
    ()
    """
    if workflow in _AMOUNT_USING_WORKFLOWS or not steps:
        return ()
    used = {n for _, arguments in steps for n in _plan_numbers(dict(arguments))}
    found = [" ".join(text[a.start:a.end].split()) for a in amounts
             if float(a.value) not in used and not guess_cue(text, a.start, a.end)]
    return tuple(dict.fromkeys(f for f in found if f))


def checked_sentences(text: str, consumed: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The sentences of ``text`` whose spans are checked: those naming something a reader read (the unread-word
    invariant's own choice, router/unread_words.py: a remark or a page reference of the writer's deck is context)."""
    from router.unread_words import _sentences

    return _sentences(text, consumed)


__all__ = ["breakdown_question", "checked_sentences", "comparison_question", "counted_phrase", "counted_question",
           "figure_kinds", "guess_cue", "plan_counts", "plan_periods", "unplanned_amounts", "unplanned_breakdown",
           "unplanned_comparison", "unplanned_percent", "unused_digit_tokens"]
