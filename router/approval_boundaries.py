"""A supplier's approval window as the period of an invoice list, total or count.

Auditors ask about invoices against an approval's dates: "invoices from Epsilon dated after the expiry of their
approval (valid to 01.01.2026)", "spend with Helix before their approval start", "Delta invoices since their
approval start - list and total", "spend with Gamma during its approval window so far". Read word by word the
approval date became a one-day period, or the approved-vendor list was answered in place of the invoices (a silent
wrong). Here the approval clause is read as what it is, a boundary of the period:

* relation x edge: "before" / "prior to" / "vor" / "avant" the approval's *start* ends the period on the approval's
  ``valid_from``; "after" / "since" / "on/after" / "nach" / "seit" / "après" / "depuis" its *end* (expiry, lapse,
  "valid to") starts it on ``valid_to`` (the table's end is exclusive: the first day no longer approved), its
  start starts it on ``valid_from``; "during" / "within" / "während" / "pendant" the approval (window, validity)
  is ``[valid_from, valid_to)``; "outside" / "außerhalb" / "hors de" it is before its start and from its end on
  (two periods when both are non-empty: the reader asks one figure each or their total). The other side is the
  question's other period ("whole history from Jul-25", "through 15 May 2026 incl.") or, when none is named, all
  dates on file / up to the as-of date.
* the boundary is the supplier's row of the company's approval table (in the version in force on the as-of date);
  the date written in the question is the check: a date that differs from the table is said, and the table's date
  used. With no approval row found the question's own date is used and that is said.
* a remark ("their approval only starts 1.10.2026", "(not approved before 01/10/2026)", "note the approval ends
  ...") beside a period of its own is no boundary: the remark is set aside, checked against the table and said.

The result is the question written with the window as a period the reader knows ("from D1 through D2") and the
approval clause taken out, so the invoice list / total / count asked is answered, never the approval list. A clause
the reader cannot place (no supplier, no company, no date and no table row, several rows none of which matches)
is left to the general reader, which names it back.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from router.approval_dates import VENDOR_LIST_ASKED
from router.contract import TimeRange
from router.periods import HISTORY_START, resolve_period

Relation = Literal["before", "after", "during", "outside"]
Edge = Literal["start", "end", "window"]

_I = re.I

#: The vocabulary of an approval window, one table per kind (English, German, French, Spanish, Italian, Dutch).
#: The approval itself, as a noun or the participle the question states it with.
APPROVAL_NOUNS: tuple[str, ...] = (
    r"approv(?:al|als|ed)", r"authori[sz]ation", r"validity", r"vendor\s+approval", r"freigabe", r"zulassung",
    r"genehmigung", r"freigegeben", r"zugelassen", r"approbation", r"agr[ée]ment", r"homologation",
    r"r[ée]f[ée]rencement", r"validit[ée]", r"aprobaci[óo]n", r"homologaci[óo]n", r"vigencia", r"approvazione",
    r"validit[àa]", r"goedkeuring", r"g[üu]ltigkeit",
)
#: Words that name the approval's start.
START_WORDS: tuple[str, ...] = (
    r"start(?:s|ed|ing)?", r"begin(?:s|ning)?", r"began", r"commence(?:s|d|ment)?", r"valid\s+from",
    r"effective\s+from", r"became\s+(?:valid|effective)", r"becomes\s+(?:valid|effective)",
    r"took\s+effect", r"takes\s+effect", r"first\s+day", r"grant(?:ed)?", r"obtained", r"given", r"issued",
    r"beginn", r"g[üu]ltig\s+ab", r"start(?:datum)?",
    r"d[ée]but", r"valable\s+(?:[àa]\s+partir\s+du|d[eè]s\s+le)", r"inicio", r"comienzo", r"v[áa]lid[oa]\s+desde",
    r"inizio", r"valid[oa]\s+dal",
)
#: Words that name the approval's end.
END_WORDS: tuple[str, ...] = (
    r"expir(?:y|ation|ed|es|e|ing)", r"end(?:s|ed|ing)?", r"lapse[ds]?", r"ran\s+out", r"runs?\s+out",
    r"valid\s+(?:to|until|till|through|thru)", r"termination", r"terminated", r"withdrawn", r"revoked",
    r"last\s+day", r"finish(?:ed|es)?", r"stopp?(?:ed|s)?", r"ceased?", r"(?:was|is|got)\s+over",
    r"no\s+longer\s+valid", r"ablauf", r"abgelaufen", r"ende", r"endete", r"g[üu]ltig\s+bis", r"fin", r"expiration",
    r"[ée]ch[ée]ance", r"expir[ée]e?", r"valable\s+jusqu", r"vencimiento", r"caducidad", r"v[áa]lid[oa]\s+hasta",
    r"scadenza", r"scaduta", r"valid[oa]\s+fino",
)
#: Words that name the approval's whole window.
WINDOW_WORDS: tuple[str, ...] = (
    r"window", r"period", r"term", r"validity", r"span", r"zeitraum", r"laufzeit", r"p[ée]riode", r"dur[ée]e",
    r"periodo", r"vigencia",
)
#: The relation of the invoices asked to the approval (relation, pattern): before it, after it, inside it.
RELATIONS: tuple[tuple[Relation, str], ...] = (
    ("after", r"on\s*/\s*after|on\s+or\s+after|after|since|following|from|post|nach(?:\s+dem)?|seit(?:\s+dem)?|"
              r"ab(?:\s+dem)?|apr[èe]s|depuis|d[eè]s|despu[ée]s\s+de(?:l)?|desde|dopo|dal|na|sinds"),
    ("before", r"before|prior\s+to|ahead\s+of|(?:until|till|up\s+to)(?!\s+(?:when|what|which|wann))|vor(?:\s+dem)?|"
               r"bis\s+zum|avant|antes\s+de(?:l)?|"
               r"prima\s+d[ie]|voor"),
    ("outside", r"outside(?:\s+of)?|beyond|not\s+(?:within|during|in)|au[ßs]erhalb|hors|en\s+dehors\s+d[eu]|"
                r"fuera\s+de(?:l)?|al\s+di\s+fuori\s+d[ei]|buiten"),
    ("during", r"during|within|inside|while|in|throughout|w[äa]hrend|innerhalb|pendant|durant|dans|durante|"
               r"entro|tijdens|binnen"),
)

_WORDS = r"(?:\s+\w[\w'’/.-]*){0,5}?"
_APPROVAL = "(?:" + "|".join(APPROVAL_NOUNS) + ")"
_START = re.compile(r"\b(?:" + "|".join(START_WORDS) + r")\b", _I)
_END = re.compile(r"\b(?:" + "|".join(END_WORDS) + r")\b", _I)
_WINDOW = re.compile(r"\b(?:" + "|".join(WINDOW_WORDS) + r")\b", _I)
#: A relation word, a few words (the edge: "the expiry of their"), the approval noun and what follows it up to the
#: next separator (its edge verb and date: "lapsed on 1 Feb 2026", "start (01 Oct 2025)").
_BOUNDARY = re.compile(
    r"\b(?P<rel>" + "|".join(f"(?P<{r}>{p})" for r, p in RELATIONS) + r")"
    + _WORDS + r"\s+(?:the\s+|its\s+|their\s+|his\s+|her\s+|der\s+|die\s+|ihrer\s+|seiner\s+|l['’]\s*|d['’]\s*|"
    r"la\s+|le\s+|leur\s+|su\s+|sua\s+)?"
    + r"(?P<noun>" + _APPROVAL + r")\b(?P<tail>[^;?!\n]{0,60})", _I)
#: A remark about the approval: the approval (or "not approved") with a date, in a clause of its own.
_REMARK = re.compile(r"(?P<head>\b(?:not\s+|nicht\s+|pas\s+|no\s+)?(?:" + _APPROVAL + r"))\b"
                     r"(?P<tail>[^;?!()\n]{0,60})", _I)
#: A date as written: ISO, day.month.year, day/month/year, "1 Feb 2026", "Feb 1, 2026", "1. Juli 2026".
_DATE = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b"
    r"|\b\d{1,2}(?:st|nd|rd|th|er|\.)?\s+(?:of\s+)?[^\W\d_]{3,10}\.?,?\s+\d{4}\b"
    r"|\b[^\W\d_]{3,10}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}\b", _I)
#: Words that say a period runs up to today ("up to today", "to date", "bis heute", "à ce jour"): said by the
#: window written in their place when it ends on the as-of date.
TO_DATE_WORDS: tuple[str, ...] = (
    r"up\s+(?:to|until|till)\s+(?:today|now)", r"(?:until|till|through)\s+(?:today|now)", r"to\s+date",
    r"so\s+far", r"year[- ]to[- ]date", r"bis\s+(?:heute|dato|jetzt)", r"jusqu['’]\s*(?:[àa]\s+)?aujourd['’]hui",
    r"[àa]\s+ce\s+jour", r"hasta\s+(?:hoy|la\s+fecha)", r"fino\s+ad\s+oggi", r"finora", r"tot\s+nu",
    r"(?:whole|full|entire|complete)\s+history", r"incl\.?(?=\s*\))",
)
_TO_DATE = re.compile(r"\b(?:" + "|".join(TO_DATE_WORDS) + r")(?!\w)", _I)
#: Words that already ask for the documents themselves ("list", "which", "numbers", "welche", "quelles").
LIST_WORDS: tuple[str, ...] = (
    r"list\w*", r"show", r"which", r"what", r"numbers?", r"nos?\.?", r"ids?", r"itemi[sz]e\w*", r"liste\w*",
    r"welche\w*", r"auflisten", r"quel(?:le)?s?", r"lister", r"cu[aá]les", r"lista\w*", r"quali", r"elenc\w*",
)
_DOCUMENT_NOUN = re.compile(r"\b(?:invoices?|bills|credit[- ]?notes?|rechnung\w*|gutschrift\w*|factures?|"
                            r"facturas?|fatture)\b", _I)
_LIST_ASKED = re.compile(r"\b(?:" + "|".join(LIST_WORDS) + r")(?!\w)", _I)
#: A date that opens a range of its own ("1 Jan 2026 through 15 May 2026").
_RANGE_AFTER = re.compile(r"\s*(?:through|thru|to|until|till|[-–]|and|bis|au|al|hasta)\s+\d", _I)
_RELATION = re.compile(r"\b(?:" + "|".join(f"(?P<{r}>{p})" for r, p in RELATIONS) + r")\b", _I)
_SLASH = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{2,4})")
#: Where a clause ends: a sentence end, a dash between clauses, a semicolon, a colon.
_CLAUSE_END = re.compile(r"[.;:!?](?:\s|$)|\s[-–—]\s|\)|,\s+(?:and|so|but|whole|since|from|for|through|up)\b")
_CLAUSE_START = re.compile(r"(?:^|[.;:!?]\s|\s[-–—]\s|\(|,\s)")


@dataclass(frozen=True)
class Named:
    """What the reader found in the question without its approval clauses: the company, the suppliers, and whether
    documents or money are asked (invoices, a total, a count, spend): only then is the window a period of them."""

    company_id: str | None
    supplier_ids: tuple[str, ...]
    #: the documents named (invoices, credit notes)
    documents: bool
    #: a figure or count asked (spend, total, how many, above an amount)
    figure: bool

    @property
    def asks_documents(self) -> bool:
        return self.documents or self.figure


@dataclass(frozen=True)
class ApprovalRow:
    """One approval of the table: the supplier, its window ``[valid_from, valid_to)`` and its agreement."""

    supplier_id: str
    valid_from: dt.date
    valid_to: dt.date | None
    agreement_id: str


@dataclass(frozen=True)
class ApprovalClause:
    """An approval clause of the question: boundary (relation and edge) or remark, its span and the date named."""

    relation: Relation | None
    edge: Edge | None
    span: tuple[int, int]
    said: tuple[dt.date, ...]
    said_text: str


def _dates(text: str, as_of: dt.date) -> tuple[tuple[dt.date, ...], str, tuple[int, int] | None]:
    """The candidate days of the first date in ``text`` (two for an ambiguous day/month), its words and span."""
    m = _DATE.search(text)
    if m is None:
        return (), "", None
    words = m.group(0)
    slash = _SLASH.fullmatch(words)
    if slash:
        a, b, y = (int(g) for g in slash.groups())
        year = y + 2000 if y < 100 else y
        found = []
        for day, month in ((a, b), (b, a)):
            try:
                found.append(dt.date(year, month, day))
            except ValueError:
                continue
        return tuple(dict.fromkeys(found)), words, m.span()
    resolved = resolve_period(words, as_of).time_range
    if resolved is None or resolved.end - resolved.start != dt.timedelta(days=1):
        return (), "", None
    return (resolved.start,), words, m.span()


def _edge(words: str, relation: Relation) -> Edge | None:
    if relation in ("during", "outside"):
        return "window"
    if _END.search(words):
        return "end"
    if _START.search(words):
        return "start"
    if _WINDOW.search(words):
        return "window"
    # "before their approval": before it started; "after the approval" alone is left to the date
    return "start" if relation == "before" else None


def _clause_end(text: str, at: int) -> int:
    m = _CLAUSE_END.search(text, at)
    end = m.start() + (1 if m.group(0) == ")" else 0) if m else len(text)
    opened = text.rfind("(", at, end)
    if opened >= 0 and text.find(")", opened, end) < 0:
        # a bracket opened in the clause closes it ("(Sep 2025 - Feb 2026)": no clause end inside)
        close = text.find(")", end)
        end = close + 1 if close >= 0 else end
    return end


def approval_clauses(text: str, as_of: dt.date) -> tuple[ApprovalClause, ...]:
    """The approval clauses of ``text``: boundaries ("after the expiry of their approval (valid to D)") and remarks
    ("their approval only starts D"), each with its span and the date it names.

    >>> c = approval_clauses("Beta invoices after their approval lapsed on 1 Feb 2026, to date", dt.date(2026, 5, 1))
    >>> (c[0].relation, c[0].edge, c[0].said)
    ('after', 'end', (datetime.date(2026, 2, 1),))
    """
    found: list[ApprovalClause] = []
    taken: list[tuple[int, int]] = []
    for m in _BOUNDARY.finditer(text):
        # the relation word nearest the approval ("from Beta booked after their approval": "after")
        last = list(_RELATION.finditer(text, m.start(), m.start("noun")))[-1]
        relation: Relation = next(r for r, _ in RELATIONS if last.group(r))
        begin = last.start()
        end = _clause_end(text, m.start("tail"))
        tail = text[m.start("tail"):end]
        if relation == "during" and last.group(0).lower() in ("in", "dans") and not _WINDOW.search(
                text[begin:m.start("tail")] + " " + tail[:20]):
            continue  # "in their approval table": no window asked
        dates, words, at = _dates(tail, as_of)
        if at is None and "(" in tail:
            # "during its approval period (Sep 2025 - Feb 2026)": the bracket names a period, not the approval's
            # date: it stays the question's own period (the other side, or the window checked against the table)
            end = m.start("tail") + tail.index("(")
            tail = text[m.start("tail"):end]
        if relation == "outside" and not (dates or _WINDOW.search(text[begin:m.start("tail")] + " " + tail[:20])):
            continue  # "Orbis (outside the approved vendor list)": a remark on the list, no window (off_contract)
        if at is not None and _RANGE_AFTER.match(tail, at[1]):
            # "after approval expiry (from 1 Jan 2026 through 15 May)": the date opens a period of its own
            opening = tail.rfind("(", 0, at[0])
            end = m.start("tail") + (opening if opening >= 0 else at[0])
            tail = text[m.start("tail"):end]
            dates, words, at = (), "", None
        # the edge is said before the noun ("the expiry of their approval") or after it ("approval lapsed")
        edge = _edge(text[begin:m.start("noun")] + " " + (tail[:at[0]] if at else tail), relation)
        if edge is None and not dates:
            continue
        stop = m.start("tail") + at[1] if at else m.start("tail") + len(tail.rstrip(" ,("))
        # a closing bracket after the date belongs to the clause ("(valid to 01.01.2026)")
        close = re.match(r"\s*\)", text[stop:])
        if close and text[begin:stop].count("(") > text[begin:stop].count(")"):
            stop += close.end()
        found.append(ApprovalClause(relation, edge, (begin, stop), dates, words))
        taken.append((begin, stop))
    for m in _REMARK.finditer(text):
        if any(s <= m.start() < e for s, e in taken):
            continue
        dates, words, at = _dates(m.group("tail"), as_of)
        if not dates or at is None:
            continue
        start = max((s.end() for s in _CLAUSE_START.finditer(text, 0, m.start() + 1) if s.end() <= m.start()),
                    default=0)
        stop = _clause_end(text, m.start("tail") + at[1])
        # what follows the remark in the same sentence and says only that it applies ("so all of these are
        # outside validity") belongs to it
        more = re.match(r",\s*(?:so|thus|hence|i\.e\.|therefore)\b[^.;?!]*", text[stop:], _I)
        if more:
            stop += more.end()
        if text[start - 1:start] == "(" and text[stop - 1:stop] == ")":
            start -= 1
        found.append(ApprovalClause(None, None, (start, stop), dates, words))
    return tuple(sorted(found, key=lambda c: c.span))


@dataclass(frozen=True)
class ApprovalWindow:
    """The question written with the approval window as its period, and what the answer says about it."""

    text: str
    note: str


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _pick(rows: Sequence[ApprovalRow], edge: Edge, said: tuple[dt.date, ...]) -> ApprovalRow | None:
    """The approval row the clause speaks of: the one whose edge is the date named, else the only one."""
    def edge_date(r: ApprovalRow) -> dt.date | None:
        return r.valid_to if edge == "end" else r.valid_from
    matching = [r for r in rows if edge_date(r) in said]
    if matching:
        return matching[0]
    usable = [r for r in rows if edge_date(r) is not None]
    return usable[0] if len(usable) == 1 else None


def _row_words(row: ApprovalRow) -> str:
    until = f"valid to {row.valid_to} (end exclusive)" if row.valid_to else "open-ended"
    return f"{row.supplier_id}'s approval ({row.agreement_id}, valid from {row.valid_from}, {until})"


def _day(d: dt.date) -> str:
    return d.isoformat()


def read_approval_window(
    text: str,
    as_of: dt.date,
    company_and_suppliers: Callable[[str], Named],
    approvals: Callable[[str, str], Sequence[ApprovalRow]],
) -> ApprovalWindow | None:
    """``text`` with its approval clause read as the period, or ``None`` when it has none this reader places.

    ``company_and_suppliers`` reads the company and suppliers a text names; ``approvals(company, supplier)`` gives
    the supplier's rows of the company's approval table (in the version in force on the as-of date).
    """
    clauses = approval_clauses(text, as_of)
    if not clauses or VENDOR_LIST_ASKED.search(text):
        return None  # ("which vendors were approved on D, and the spend since ...": the list's day is its own)
    rest = _blank(text, [c.span for c in clauses])
    named = company_and_suppliers(text)
    # ("until when is Delta approved?": the approval itself asked, no documents in a window)
    if named.company_id is None or len(named.supplier_ids) != 1 or not company_and_suppliers(rest).asks_documents:
        return None
    company, supplier = named.company_id, named.supplier_ids[0]
    rows = approvals(company, supplier)
    boundaries = [c for c in clauses if c.relation is not None]
    remarks = [c for c in clauses if c.relation is None]
    other = resolve_period(rest, as_of)
    tomorrow = as_of + dt.timedelta(days=1)
    notes: list[str] = []
    for remark in remarks:
        said = " ".join(text[slice(*remark.span)].strip(" ()").split())
        notes.append(f"'{said}' read as a remark about the approval, not as the period" + _remark_check(
            rows, remark.said))
    if not boundaries:
        if other.time_range is None or other.ambiguous:
            return None  # the remark's date is the only period: left to the reader, which asks
        return ApprovalWindow(_listed(_tidy(rest), company_and_suppliers), "; ".join(notes))
    if len(boundaries) > 1:
        return None
    clause = boundaries[0]
    edge = clause.edge or _edge_from_table(rows, clause.said)
    if edge is None:
        return None
    row = _pick(rows, edge, clause.said) if rows else None
    words = " ".join(text[slice(*clause.span)].split())
    if row is not None:
        lo, hi = row.valid_from, row.valid_to
        check = _check(row, edge, clause)
    elif len(clause.said) == 1 and edge != "window":
        lo = hi = clause.said[0]
        check = (f"no approval of {supplier} for {company} found in the approval table, so the date named "
                 f"({clause.said_text}) is used")
    else:
        return None
    known = other.time_range if other.time_range is not None and not other.ambiguous else None
    known_spans = list(other.spans) if known is not None else []
    if known is not None and known.start == HISTORY_START:
        # "whole history from Jul-25": the history named, and where it is taken from
        left = _blank(rest, known_spans)
        for seg in re.finditer(r"(?:[^,;().]|\.(?=\S))+", left):
            again = resolve_period(seg.group(0), as_of)
            if again.time_range is not None and not again.ambiguous:
                known = again.time_range
                known_spans.extend((seg.start() + a, seg.start() + b) for a, b in again.spans)
                break
    if clause.relation == "outside":
        return _outside(text, clauses, known, known_spans, row, words, check, as_of, company_and_suppliers, notes)
    if clause.relation == "before":
        stop = lo if edge in ("start", "window") else hi
        if stop is None:
            return None
        begin = known.start if known is not None and known.start < stop else HISTORY_START
        end = stop
    elif clause.relation == "after" and edge == "end":
        if hi is None:
            return None
        begin, end = hi, (known.end if known is not None and known.end > hi else tomorrow)
    else:  # after / since the start, or during the window
        begin = max(lo, known.start) if known is not None else lo  # a period named beside it narrows it
        end = known.end if known is not None and known.end > begin else tomorrow
        if clause.relation == "during" or edge == "window":
            end = min(end, hi) if hi is not None else end
    end = min(end, tomorrow)  # (an approval starting after today: the invoices up to today)
    if begin >= end:
        return None
    spans = [*(c.span for c in clauses), *known_spans]
    if end == tomorrow:
        spans.extend(m.span() for m in _TO_DATE.finditer(text))
    spans.extend(_period_clauses(text, known_spans))
    blanked = _blank(text, spans)
    period = f"from {_day(begin)} through {_day(end - dt.timedelta(days=1))}"
    at = clause.span[0]
    written = _listed(_tidy(blanked[:at] + period + blanked[at:]), company_and_suppliers)
    how = {"before": "ends where the approval starts", "after": "starts where the approval "
           + ("ended" if edge == "end" else "started"), "during": "is the approval's window"}[clause.relation
                                                                                          if edge != "window"
                                                                                          else "during"]
    notes.insert(0, f"'{words}' read as the period boundary: the period {how}, [{begin}, {end}) (end exclusive); "
                 + check)
    return ApprovalWindow(written, "; ".join(notes))


def _outside(text: str, clauses: Sequence[ApprovalClause], known: TimeRange | None,
             known_spans: list[tuple[int, int]], row: ApprovalRow | None, words: str, check: str, as_of: dt.date,
             read: Callable[[str], Named], notes: list[str]) -> ApprovalWindow | None:
    """"Invoices outside its approval window": before the approval's start and from its end on, each part within
    the period the question names (else all dates on file up to the as-of date). Both parts non-empty are written
    as the two periods they are (the reader then asks whether one figure each or their total is wanted)."""
    if row is None:
        return None
    tomorrow = as_of + dt.timedelta(days=1)
    lo_all = known.start if known is not None else HISTORY_START
    hi_all = min(known.end, tomorrow) if known is not None else tomorrow
    parts = [(lo_all, min(row.valid_from, hi_all))]
    if row.valid_to is not None:
        parts.append((max(row.valid_to, lo_all), hi_all))
    parts = [(a, b) for a, b in parts if a < b]
    if not parts:
        return None
    spans = [*(c.span for c in clauses), *known_spans, *_period_clauses(text, known_spans)]
    if hi_all == tomorrow:
        spans.extend(m.span() for m in _TO_DATE.finditer(text))
    blanked = _blank(text, spans)
    period = " and ".join(f"from {_day(a)} through {_day(b - dt.timedelta(days=1))}" for a, b in parts)
    at = clauses[0].span[0] if len(clauses) == 1 else min(c.span[0] for c in clauses if c.relation == "outside")
    written = _listed(_tidy(blanked[:at] + period + blanked[at:]), read)
    said = " and ".join(f"[{a}, {b})" for a, b in parts)
    notes.insert(0, f"'{words}' read as the period boundary: the period is outside the approval's window, {said} "
                    f"(end exclusive); {check}")
    return ApprovalWindow(written, "; ".join(notes))


def _listed(text: str, read: Callable[[str], Named]) -> str:
    """The rewritten question with "list" said when it names the documents and asks nothing of them ("Helix
    invoices to Xenon before their approval start"): the invoices themselves are what is asked."""
    found = read(text)
    noun = _DOCUMENT_NOUN.search(text)
    # (a list word after the documents, "... Numbers pls.", is no verb the readers take: "list" is said first)
    bare = found.documents and not found.figure and not _LIST_ASKED.search(text, 0, noun.start() if noun else None)
    return f"list {text}" if bare else text


def _period_clauses(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The side clauses that only anchor a period replaced by the window (", since the agreement became effective
    (01.12.2025)"): a clause after a comma, dash or semicolon whose other words name nothing (no capital, no digit)."""
    found = []
    for start, end in spans:
        opening = max((m.end() for m in re.finditer(r"[,;]\s|\s[-–—]\s", text[:start])), default=0)
        closing = re.search(r"[,;?!]|\.(?:\s|$)|\s[-–—]\s", text[end:])
        stop = end + (closing.start() if closing else len(text) - end)
        words = text[opening:start] + text[end:stop]
        if opening and not re.search(r"[A-ZÄÖÜ\d]", words) and len(words.split()) <= 8:
            found.append((opening, stop))
    return found


def _edge_from_table(rows: Sequence[ApprovalRow], said: tuple[dt.date, ...]) -> Edge | None:
    """The edge a clause without an edge word speaks of: the approval date the date named is."""
    if any(r.valid_to in said for r in rows):
        return "end"
    if any(r.valid_from in said for r in rows):
        return "start"
    return None


def _check(row: ApprovalRow, edge: Edge, clause: ApprovalClause) -> str:
    table = row.valid_to if edge == "end" else row.valid_from
    where = f"{_row_words(row)} per the approval table"
    if not clause.said:
        return where
    if table in clause.said:
        return f"{where}, as the date named ({clause.said_text})"
    return (f"{where}: the date named ({clause.said_text}) differs from the approval table, whose date "
            f"({table}) is used")


def _remark_check(rows: Sequence[ApprovalRow], said: tuple[dt.date, ...]) -> str:
    if not rows:
        return " (no approval of the supplier for the company is in the approval table)"
    edges = {d for r in rows for d in (r.valid_from, r.valid_to) if d is not None}
    agree = "agrees with" if any(d in edges for d in said) else "differs from"
    return f" (the date named {agree} the approval table: " + "; ".join(_row_words(r) for r in rows) + ")"


def _tidy(text: str) -> str:
    """The rewritten question without the holes the blanked clauses left ("( )", doubled separators)."""
    text = re.sub(r"\(\s*\)", " ", text)
    # a period's opening word left without its date ("whole history from [Jul-25]")
    text = re.sub(r"\b(?:from|since|as\s+of|ab|seit|depuis|desde)\s*(?=[,.;?!)]|$)", " ", text, flags=_I)
    text = re.sub(r"\s+([,.;?!])", r"\1", text)
    text = re.sub(r"([,;:])(?:\s*[,;:])+", r"\1", text)
    text = re.sub(r"[,;:]\s*([.?!])", r"\1", text)
    text = re.sub(r"\s[-–—]\s*(?=[-–—,.?!]|$)", " ", text)
    return " ".join(text.split()).strip().rstrip(",;:-– ")


def with_window_note(answer_text: str, note: str) -> str:
    """An answer's text with how the approval window was read stated before its sources."""
    if not note:
        return answer_text
    head, sep, tail = answer_text.partition(" Sources:")
    return f"{head.rstrip()} Approval window: {note}.{sep}{tail}"


__all__ = [
    "APPROVAL_NOUNS",
    "END_WORDS",
    "LIST_WORDS",
    "RELATIONS",
    "START_WORDS",
    "TO_DATE_WORDS",
    "WINDOW_WORDS",
    "ApprovalClause",
    "ApprovalRow",
    "ApprovalWindow",
    "Named",
    "approval_clauses",
    "read_approval_window",
    "with_window_note",
]
