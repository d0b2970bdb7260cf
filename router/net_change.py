"""A change of net (tax-exclusive) spend between two periods: "net spend (ex VAT) Q4 vs Q3, %", "spend excluding
VAT this quarter compared with last quarter".

The governed period comparison (finance.spend_comparison) compares spend, which is net plus tax; the net figure of
one period is its own governed answer (finance.net_spend with finance.period_tax, router/invoice_facts.py). A change
asked on the net basis was therefore asked back ("do you want the gross figure?"), although both of its figures are
governed. Here it is read as two base questions, the net spend of each period with every other constraint of the
question kept (company, suppliers, groups, statuses), and the difference of the two answered figures is composed
by router/company_compare.py (current minus base, and the percent of the base), each side's answer stated.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from router.company_compare import CompanyAsk
from router.rules import mask

#: Words of the change itself, dropped from each side's question (each side asks one figure).
_CHANGE_WORDS = re.compile(
    r"(?:,\s*|\s+)(?:(?:in|as|and|&)\s+)*(?:%|percent(?:age)?|pct|change|delta|difference|variance|growth|"
    r"how\s+much\s+(?:more|less)|development|evolution)(?:\s+(?:in|and|&)\s+(?:%|percent(?:age)?|pct|euros?|eur))*"
    r"(?=[\s,.;:?!]|$)", re.I)
_NUMBER_ONLY = re.compile(r"[\s,;:.?!()%&+-]+")
#: A base named by a rule, not by its dates ("vs the previous quarter", "year over year"): said by the sides.
_RELATIVE_BASE = re.compile(
    r"\b(?:the\s+)?(?:previous|prior|last|preceding)\s+(?:quarter|month|year|half(?:[- ]year)?|period)\b|"
    r"\b(?:the\s+)?same\s+(?:period|quarter|month|half)\s+(?:of\s+)?(?:last|the\s+previous|the\s+prior)\s+year\b|"
    r"\byear[- ]over[- ]year\b|\by-?o-?y\b", re.I)
#: A preposition left with nothing after it once the periods and the comparison words are taken out.
_ORPHAN = re.compile(r"\b(?:in|with|to|for|during|over|of|from|vs\.?)\s*(?=(?:\b(?:in|with|to|for|during|over|of|from)"
                     r"\b|[,;:.?!)]|$))", re.I)


def _period_words(start: dt.date, end: dt.date, said: str | None) -> str:
    """A period as the reader reads it back: as written, or as its first and last day."""
    if said:
        return said
    return f"from {start.isoformat()} through {(end - dt.timedelta(days=1)).isoformat()}"


def _shifted(day: dt.date, years: int) -> dt.date:
    return day.replace(year=day.year + years)


def net_period_change(reading: Any) -> CompanyAsk | None:
    """The two net-spend questions of a period change asked on the net basis, or ``None`` when the question is
    not one (no net basis, no period comparison, or a comparison of other sides)."""
    comparison = reading.analysis.comparison
    current = reading.period.time_range
    if not reading.cues.net_basis or comparison is None or current is None:
        return None
    cues = reading.cues
    # (a net figure reads as no measure of the spend metrics, "unsupported": router/invoice_facts.py answers it)
    if (reading.measure not in (None, "unsupported") or cues.unit_price or cues.quantity or cues.invoice_count
            or reading.analysis.ranking is not None or reading.analysis.share
            or reading.breakdown.group_by or reading.breakdown.grain):
        # a unit price is net by definition (its own comparison answers it); a count, a ranking, a share or a
        # breakdown is no one net figure per period
        return None
    base = comparison.base
    if base is None:
        if comparison.compare_to == "same_period_last_year":
            start, end = _shifted(current.start, -1), _shifted(current.end, -1)
        else:
            length = current.end - current.start
            start, end = current.start - length, current.start
        base_words = _period_words(start, end, None)
    else:
        base_words = _period_words(base.start, base.end, base.source_text)
    current_words = _period_words(current.start, current.end, current.source_text)
    text = reading.text
    subject = mask(text, (*reading.period.spans, *reading.analysis.compare_words))
    subject = _RELATIVE_BASE.sub(" ", _CHANGE_WORDS.sub(" ", subject))
    subject = re.sub(r"\b(?:vs\.?|versus|compared\s+(?:with|to)|against|than)\b", " ", subject, flags=re.I)
    subject = " ".join(subject.split())
    while (pruned := _ORPHAN.sub("", subject).strip()) != subject:
        subject = " ".join(pruned.split())
    subject = re.sub(r"\s+([,;:.?!)])", r"\1", subject).strip(" ,;:.?!-")
    subject = re.sub(r"\(\s*\)", "", subject).strip()
    if not _NUMBER_ONLY.sub("", subject):
        return None
    sides = tuple(f"{subject} {'' if w.startswith('between ') else 'in '}{w}" for w in (current_words, base_words))
    words = text[slice(*reading.analysis.compare_words[0])] if reading.analysis.compare_words else "vs"
    return CompanyAsk(kind="difference", bases=sides, words=f"net spend {current_words} {words} {base_words}",
                      direction="top", sides=sides)


__all__ = ["net_period_change"]
