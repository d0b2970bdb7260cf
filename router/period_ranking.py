"""The months (or quarters) of a selection ranked by spend: "which month had the highest spend for Company C in
FY2025", "top 3 months by spend for Kestrel", "weakest quarter so far", "our two busiest months".

Read as a derived measure (router/derived.py): the ranking words leave the question, the rest is asked as the spend
of the selection broken down by month (quarter), and the governed breakdown's rows are ranked here. No figure is
computed: the ranked amounts are the governed rows themselves. A tie at the cut (or inside the ranking) is said and
asked about, never broken silently; periods of the range without any invoice are no data, not zero, and are named
apart from the ranking rather than ranked as zero.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

Grain = Literal["month", "quarter"]
Order = Literal["desc", "asc"]

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "twelve": 12}
_N = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
_HIGH = r"highest|most|largest|biggest|strongest|busiest|heaviest|peak|top|max(?:imum)?"
_LOW = r"lowest|least|smallest|weakest|quietest|slowest|lightest|bottom|min(?:imum)?"
#: Words that rank by a judgement, not a size: a spend ranking reads "best" as the highest spend and "worst" as the
#: lowest (the seasonality reading analysts mean), and the answer states that reading so it can be corrected.
_UNSURE = r"best|worst"
#: Every word that ranks periods (router/period_grammar.py keeps a range's unit after one: "peak month Jul-Dec").
RANK_WORDS = rf"{_HIGH}|{_LOW}|{_UNSURE}"
_PERIOD = r"(?P<grain>months?|quarters?|qtrs?)(?![- ](?:over|on)[- ](?:month|quarter))"
_SPEND = r"(?:total\s+)?(?:spend(?:ing)?|expenditure|costs?|purchases?|purchasing)"
_BY_SPEND = rf"(?:\s+(?:by|in\s+terms\s+of|for|of|on|ranked\s+by)\s+(?:the\s+)?{_SPEND})?"

#: "which month had the highest spend", "what quarter saw the lowest spending"
_WHICH = re.compile(
    # "which month in 2026 had ...": the scope between the period and the verb is kept for the base question
    rf"\b(?:which|what)\s+(?:(?P<n>{_N})\s+)?{_PERIOD}(?P<scope>\s+(?:in|of|during|for)\s+[^?!.;]{{1,60}}?)?"
    rf"\s+(?:had|has|have|was|were|saw|shows?|showed|is|are|did)\s+"
    rf"(?:the\s+|our\s+)?(?P<way>{_HIGH}|{_LOW}|{_UNSURE})(?:\s+{_SPEND})?"
    rf"(?:\s+(?:in|for|of|on)\s+{_SPEND})?(?:\s+(?:spend|spent))?", re.I)
#: "top 3 months by spend", "the two busiest months", "weakest quarter", "highest-spend month", "peak month"
_RANKED = re.compile(
    rf"\b(?:the\s+|our\s+)?(?:(?P<n1>{_N})\s+)?(?P<way>{_HIGH}|{_LOW}|{_UNSURE})(?:[- ](?P<n2>{_N}))?"
    rf"(?:[- ]{_SPEND})?[- ]{_PERIOD}{_BY_SPEND}", re.I)
#: "the month with the highest spend", "quarters with the lowest spending"
_WITH = re.compile(
    rf"\b(?:the\s+)?(?:(?P<n>{_N})\s+)?{_PERIOD}\s+with\s+(?:the\s+)?(?P<way>{_HIGH}|{_LOW}|{_UNSURE})"
    rf"(?:\s+{_SPEND})?", re.I)
#: "rank the months of Q1 by spend", "months ranked by spend", "quarters sorted by spending"
_RANK = re.compile(
    rf"\b(?:(?:rank(?:ing)?|sort|order)\s+(?:of\s+)?(?:the\s+|our\s+)?(?P<lead>))?{_PERIOD}"
    rf"(?(lead)(?=[^?.!]*?\bby\s+{_SPEND})|\s+(?:ranked|sorted|ordered)\s+by\s+{_SPEND})", re.I)
#: The criterion said apart from a "rank the months" ("... of Q1 by spend"): cut from the base with it.
_BY_SPEND_APART = re.compile(rf"\s*\b(?:ranked\s+|sorted\s+|ordered\s+)?by\s+{_SPEND}\b", re.I)
#: Which way an "every period ranked" goes when it says so.
_ASCENDING = re.compile(r"\b(?:lowest|smallest|least)\s+first\b|\bascending\b|\bfrom\s+(?:the\s+)?(?:lowest|"
                        r"smallest|least)\b", re.I)
#: What a ranking is by when it is not spend ("the most invoices", "busiest month by invoice count").
_NOT_SPEND = re.compile(
    r"\s*(?:(?:by|in|for|of|on)\s+)?(?:the\s+)?(?:number\s+of\s+|invoice\s+|document\s+)?"
    r"(?:invoices?|documents?|bills?|lines?|credit\s+notes?|orders?|suppliers?|vendors?|counts?|approvals?|"
    r"units?|quantit\w*|prices?|payments?|days?)\b", re.I)
#: Words the ranking leaves behind that only framed it.
_FRAME = re.compile(r"^(?:(?:what|which|show(?:\s+me)?|list|give\s+me|tell\s+me|were|was|are|is|of)\b\s*)+", re.I)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


@dataclass(frozen=True)
class PeriodRanking:
    """A ranking of the selection's periods by spend: how many, which way and of which grain."""

    n: int
    order: Order
    grain: Grain
    #: the question without the ranking words, asking for the selection's spend by month (quarter)
    base: str
    words: str
    #: why the ranking cannot be read ("best month": which way?); the answer is a clarification naming it
    refused: str | None = None


def _number(text: str | None) -> int:
    if not text:
        return 1
    return _NUMBERS.get(text.lower()) or int(text)


def _strip(question: str, span: tuple[int, int]) -> str:
    text = f"{question[:span[0]]} {question[span[1]:]}"
    text = " ".join(text.split())
    text = re.sub(r"\s+([,.;?!)])", r"\1", text)
    text = re.sub(r"^[,;:\s]+", "", text)
    text = _FRAME.sub("", text)
    return text.strip(" ,;:")


def _with_spend(base: str, grain: Grain) -> str:
    """The base question asking for the spend by ``grain`` (the ranking words may have held its only spend noun).

    The breakdown closes the ask's own sentence: a remark after its question mark ("... for Xenon? I think finance
    has it") stays after it, read as it would be without the ranking."""
    asked, mark, after = base.partition("?")
    if mark and after.strip():
        return f"{_with_spend(asked, grain)} {after.strip()}"
    body = base.rstrip("?.! ")
    if not re.search(r"\b(?:spend|spent|spending|expenditure|costs?|purchases?)\b", body, re.I):
        body = re.sub(r"(?<=\w)['’]s\b", "", body)  # "Alpenland's in H2 2025": its noun went with the ranking
        body = f"spend {body}" if re.match(r"(?:for|of|at|in|across|with|from|on)\b", body, re.I) or not body \
            else f"{body} spend"
    return f"{body} by {grain}?"


#: A count said apart, after the ranking's question ("which month had the highest spend ...? top 2", "..., top-3
#: pls", "(first 2)"): how many periods are ranked.
_COUNT_APART = re.compile(rf"(?:[?.!,;:]\s*|\s+|\(\s*)(?:top|first|bottom|best)[- ]?(?P<n>{_N})\s*\)?"
                          r"(?:\s+(?:please|pls|only|months?|quarters?))*\s*[?.!]*\s*$", re.I)


def detect(question: str) -> PeriodRanking | None:
    """The period ranking ``question`` asks for, or ``None``.

    >>> found = detect("which month had the highest spend in H2-25 for Kestrel? top 2")
    >>> found.n, found.base
    (2, 'spend in H2-25 for Kestrel by month?')
    """
    apart = _COUNT_APART.search(question)
    if apart is not None:
        found = _detect(question[:apart.start()] + ("?" if apart.group(0).lstrip()[:1] == "?" else ""))
        if found is not None and found.refused is None and found.n in (1, _number(apart.group("n"))):
            return dataclasses.replace(found, n=_number(apart.group("n")),
                                       words=f"{found.words} ({apart.group(0).strip(' ?.!,;:()')})")
    return _detect(question)


def _detect(question: str) -> PeriodRanking | None:
    for pattern in (_WHICH, _WITH, _RANKED, _RANK):
        found = pattern.search(question)
        if found is None:
            continue
        groups = found.groupdict()
        way = (groups.get("way") or "highest").lower()
        if groups.get("way") and re.search(r"\bat\s*$", question[:found.start("way")], re.I):
            continue  # "at least 3 months", "at most two quarters": a bound, not a ranking
        if _NOT_SPEND.match(question[found.end():]):
            return None  # "the month with the most invoices": ranked by a count, not by spend
        grain: Grain = "quarter" if groups["grain"].lower().startswith(("q", "Q")) else "month"
        n = _number(groups.get("n") or groups.get("n1") or groups.get("n2"))
        plural = groups["grain"].lower().endswith("s")
        if pattern is _RANK:
            n = 0  # every period, ranked
            rest = _BY_SPEND_APART.sub("", _ASCENDING.sub("", _strip(question, found.span())), count=1)
            return PeriodRanking(n, "asc" if _ASCENDING.search(question) else "desc", grain,
                                 _with_spend(rest.strip(" ,;:"), grain), found.group(0))
        elif plural and not (groups.get("n") or groups.get("n1") or groups.get("n2")):
            return None  # "the lowest months" without a count: not one ranking to give
        kept = _strip(question, found.span())
        if groups.get("scope"):
            kept = f"{kept.rstrip('?.! ')} {groups['scope'].strip()}".strip()
        base = _with_spend(kept, grain)
        if re.fullmatch(_UNSURE, way, re.I):
            worst = way.lower() == "worst"
            return PeriodRanking(n, "asc" if worst else "desc", grain, base,
                                 f"{found.group(0)}, read as the {'lowest' if worst else 'highest'} spend")
        order: Order = "asc" if re.fullmatch(_LOW, way, re.I) else "desc"
        return PeriodRanking(n, order, grain, base, found.group(0))
    return None


# -- the ranking of the governed breakdown -----------------------------------------------------------------------
@dataclass(frozen=True)
class Ranked:
    """The ranking of a breakdown: the ranked rows, the tie at the cut if any, the periods without data."""

    items: tuple[tuple[str, Decimal, int], ...]
    tie: tuple[str, ...] = ()
    without_data: tuple[str, ...] = ()
    periods_with_spend: int = 0


def period_key(start: str, grain: Grain) -> str:
    """``2025-10-01`` as ``2025-10`` (month) or ``2025-Q4`` (quarter)."""
    day = dt.date.fromisoformat(start[:10])
    return f"{day.year:04d}-{day.month:02d}" if grain == "month" else f"{day.year:04d}-Q{(day.month - 1) // 3 + 1}"


def period_label(key: str) -> str:
    """The name an analyst writes: ``October 2025``, ``Q4 2025``."""
    year, rest = key.split("-")
    return f"{rest} {year}" if rest.startswith("Q") else f"{_MONTHS[int(rest) - 1]} {year}"


def _periods(start: dt.date, end: dt.date, grain: Grain) -> list[str]:
    """The keys of the periods ``[start, end)`` touches."""
    keys: list[str] = []
    day = start.replace(day=1)
    while day < end:
        key = period_key(day.isoformat(), grain)
        if key not in keys:
            keys.append(key)
        day = dt.date(day.year + (day.month == 12), day.month % 12 + 1, 1)
    return keys


def rank(rows: list[Mapping[str, Any]], n: int, order: Order, grain: Grain,
         start: dt.date | None = None, end: dt.date | None = None) -> Ranked | None:
    """The ranking of ``rows`` (governed breakdown rows keyed by period start), or ``None`` when a row has no
    amount. Amounts are compared as presented (to the cent): two periods equal to the cent are a tie."""
    totals: dict[str, tuple[Decimal, int]] = {}
    for row in rows:
        try:
            amount = Decimal(str(row["total_spend"]))
        except (KeyError, InvalidOperation, ValueError):
            return None
        key = period_key(str(row["key"]), grain)
        old = totals.get(key, (Decimal(0), 0))
        totals[key] = (old[0] + amount, old[1] + int(str(row.get("matched_line_count") or 0)))
    ranked = sorted(totals.items(), key=lambda kv: (kv[1][0] if order == "asc" else -kv[1][0], kv[0]))
    take = len(ranked) if n <= 0 else min(n, len(ranked))
    items = tuple((k, v[0], v[1]) for k, (v) in ranked[:take])
    tie: tuple[str, ...] = ()
    if take < len(ranked) and ranked[take - 1][1][0] == ranked[take][1][0]:
        cut = ranked[take - 1][1][0]
        tie = tuple(k for k, v in ranked if v[0] == cut)
    without = tuple(k for k in _periods(start, end, grain) if k not in totals) if start and end else ()
    return Ranked(items, tie, without, len(ranked))


def ranking_text(ranked: Ranked, found: PeriodRanking, currency: str) -> str:
    """The sentence of the ranking: each ranked period with its amount, then what was not ranked."""
    way = "highest" if found.order == "desc" else "lowest"
    unit = f"{found.grain}s"
    listed = "; ".join(f"{i}. {period_label(k)} ({k}): {amount} {currency} ({lines} line{'s' if lines != 1 else ''})"
                       for i, (k, amount, lines) in enumerate(ranked.items, 1))
    head = (f"{unit.capitalize()} ranked by spend, {way} first" if found.n != 1
            else f"The {found.grain} with the {way} spend")
    text = f"{head} ('{found.words}'): {listed}."
    count = ranked.periods_with_spend
    if found.n <= 0:
        text += f" All {count} {unit if count != 1 else found.grain} with spend in the period are ranked."
    elif found.n >= count:
        # a "top 3" of three periods (or fewer) ranks every period there is: said, so it is not read as a cut
        text += (f" Only {count} {unit if count != 1 else found.grain} of the period had spend, so "
                 f"{'all of them are' if count != 1 else 'it is'} ranked.")
    else:
        text += f" Out of {count} {unit} with spend in the period."
    if ranked.without_data:
        text += (f" {unit.capitalize()} without any invoice (no data, not zero spend; not ranked): "
                 f"{', '.join(period_label(k) for k in ranked.without_data)}.")
    return text


__all__ = ["RANK_WORDS", "PeriodRanking", "Ranked", "detect", "period_key", "period_label", "rank", "ranking_text"]
