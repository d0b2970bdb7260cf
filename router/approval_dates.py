"""The date an approval question asks about when the question also names a context period.

"For the Q3 planning round, which vendors will Company A be approved to buy from on 1 August 2026?", "I'm checking
the setup for Company C in the second half of the year. Which vendors are approved on 1 July 2026?": the approved
vendors are asked on the one explicit day; the wider period around it (the planning round's quarter, the half
year) says why the question is asked, it is no second constraint. Approved on that day already means approved at
some time in the wider period, so reading the day alone drops nothing the wider period could add.

Class rule: an approval question (approvals asked, no spend) whose periods are exactly one single day and wider
periods that each contain that day (a period named without its year, "Q3", may be taken in the day's year) is
asked on the day, and the answer says that the wider periods were read as context. Everything else stays two
periods to ask about: a day outside the other period ("in Q1 2026 and on 1 August 2026"), two days, two wider
periods, or any spend question (there a day and a quarter are two different figures).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from dataclasses import dataclass

from router.analysis import _CHANGE_WORDS, _COMPARE_WORDS
from router.contract import TimeRange
from router.periods import PeriodResolution, resolve_period
from router.reader import Reading

_MORE_THAN_ONE = "the question names more than one period"
_FOUR_DIGITS = re.compile(r"\b\d{4}\b")
_ONE_DAY = dt.timedelta(days=1)


@dataclass(frozen=True)
class ContextPeriods:
    """The day asked and the wider periods read as context (their words as written)."""

    day: TimeRange
    context: tuple[str, ...]


def _alone(question: str, spans: tuple[tuple[int, int], ...], keep: int, as_of: dt.date) -> TimeRange | None:
    """The period of mention ``keep`` read with every other mention blanked out (same offsets)."""
    text = question
    for i, (start, end) in enumerate(spans):
        if i != keep:
            text = text[:start] + " " * (end - start) + text[end:]
    resolved = resolve_period(text, as_of)
    return resolved.time_range if not resolved.ambiguous else None


def _contains(wide: TimeRange, day: TimeRange, words: str) -> bool:
    """Whether ``wide`` holds the day; a period named without a year may be taken in the day's year ("Q3")."""
    if wide.start <= day.start and day.end <= wide.end:
        return True
    if _FOUR_DIGITS.search(words):
        return False
    for years in (-1, 1):
        try:
            start, end = wide.start.replace(year=wide.start.year + years), wide.end.replace(year=wide.end.year + years)
        except ValueError:
            continue
        if start <= day.start and day.end <= end:
            return True
    return False


def context_periods(question: str, period: PeriodResolution, as_of: dt.date) -> ContextPeriods | None:
    """The day an approval question asks about beside context periods that contain it, or ``None``."""
    if not period.ambiguous or not (period.reason or "").startswith(_MORE_THAN_ONE) or period.point_in_time:
        return None
    spans = period.spans
    if len(spans) < 2 or len(spans) != len(period.mentions):
        return None
    read = [_alone(question, spans, i, as_of) for i in range(len(spans))]
    if any(r is None for r in read):
        return None
    ranges = [r for r in read if r is not None]
    days = [i for i, r in enumerate(ranges) if r.end - r.start == _ONE_DAY]
    if len(days) != 1:
        return None
    day = ranges[days[0]]
    others = [i for i in range(len(ranges)) if i != days[0]]
    if not all(_contains(ranges[i], day, question[slice(*spans[i])]) for i in others):
        return None
    return ContextPeriods(day, tuple(question[slice(*spans[i])] for i in others))


def approval_day_reading(reading: Reading, as_of: dt.date) -> tuple[Reading, ContextPeriods | None]:
    """The reading of an approval question with its one day as the period when the other periods are context."""
    cues = reading.cues
    if not cues.approved or cues.spend:
        return reading, None
    found = context_periods(reading.text, reading.period, as_of)
    if found is None:
        return reading, None
    period = dataclasses.replace(reading.period, time_range=found.day, ambiguous=False, reason=None)
    return dataclasses.replace(reading, period=period), found


def context_note(found: ContextPeriods) -> str:
    """What the answer says about the periods it did not apply."""
    words = ", ".join(repr(w) for w in found.context)
    return (f"asked on {found.day.start} (the date named); {words} read as the context of the question, not as a "
            "second period")


#: A sentence and where it ends ("?" asks; "." or nothing states).
_SENTENCE = re.compile(r"[^.!?]+(?:[.!?]+|$)")


def remark_comparison(reading: Reading) -> tuple[Reading, str | None]:
    """An approval question whose only change or comparison words stand in a sentence that states a remark ("I
    believe the approval picture changes on 1 July.") beside the sentence that asks: the remark is context, not a
    comparison asked (the approvals of the period asked already show any change inside it). Returns the reading
    without the comparison and the remark as written, or the reading unchanged and ``None``."""
    cues, analysis = reading.cues, reading.analysis
    if not cues.approved or _SPEND_WORDS.search(reading.text) or analysis.comparison is None:
        return reading, None
    sentences = [m for m in _SENTENCE.finditer(reading.text) if m.group(0).strip()]
    asking = [m for m in sentences if m.group(0).rstrip().endswith("?")]
    if not asking:
        return reading, None
    words = [*(_CHANGE_WORDS.finditer(reading.text)), *(_COMPARE_WORDS.finditer(reading.text))]
    if not words:
        return reading, None
    holders = {next((i for i, m in enumerate(sentences) if m.start() <= w.start() < m.end()), -1) for w in words}
    if any(i < 0 or sentences[i].group(0).rstrip().endswith("?") for i in holders):
        return reading, None
    if any(sentences[i].start() <= s < sentences[i].end() for i in holders for s, _ in reading.period.spans):
        return reading, None  # "I think that changed in Q2.": a second period named, asked about elsewhere
    remark = " ".join(" ".join(sentences[i].group(0).split()) for i in sorted(holders))
    return dataclasses.replace(reading, analysis=dataclasses.replace(analysis, comparison=None)), remark


#: An approved-vendor list asked ("which vendors are approved", "who is approved", "list the approved suppliers"),
#: not a document's statement about approvals ("what does the amendment change regarding approved vendors").
_VENDOR_LIST = re.compile(
    r"\b(?:which|what|who|list|name|show)\b[^?.;]{0,60}?\b(?:vendors?|suppliers?)\b[^?.;]{0,60}?\bapproved\b"
    r"|\b(?:which|what|list|name|show)\b[^?.;]{0,30}?\bapproved\s+(?:vendors?|suppliers?)\b"
    r"|\bwho\s+(?:is|are|was|were|will\s+be)\s+approved\b", re.I)
#: (public: router/approval_boundaries.py leaves a question that asks the approved vendors to their reader)
VENDOR_LIST_ASKED = _VENDOR_LIST
_SPEND_WORDS = re.compile(r"\b(?:spen[dt]|spending|paid|pay|bought|buy|purchas\w*|invoic\w*|costs?|how\s+much|"
                          r"totals?|amounts?|volume|figures?)\b", re.I)
_DOCUMENT_WORDS = re.compile(r"\b(?:agreements?|amendments?|contracts?|documents?|clauses?|versions?)\b", re.I)


def compared_approvals(reading: Reading) -> bool:
    """Whether an approved-vendor list is asked with a comparison between periods ("which vendors are approved in
    Q3 compared with Q2"): no governed figure compares approvals, and the spend comparison is another question (a
    silent wrong answer in its place), so it is asked about."""
    # (the reader takes a comparison as one of spend: the spend words are looked for in the question itself)
    return (reading.cues.approved and _SPEND_WORDS.search(reading.text) is None
            and reading.analysis.comparison is not None
            and _VENDOR_LIST.search(reading.text) is not None and _DOCUMENT_WORDS.search(reading.text) is None
            and not reading.identifiers.contract_ids)
