"""How long a named supplier's approval runs: "until when is Gamma approved for Alpenland", "when does Beta's
data-logger approval end", "how long does the express-freight approval run - until which date?".

The answer is the supplier's row of the approval table of the company's agreement, in the version in force on the
as-of date (the graph tool's policy, router/approvals_in_force.py): its "Valid to" date, or open-ended. The
question asks about the approval itself, not about one day: every approval of the supplier is read (whatever
day it is valid), so an approval that already ended ("until when *was* Helix approved") is answered with its end
date instead of the vendors approved today. A question that names a period keeps it; one without a named
supplier is the approved-vendor list (nothing here applies).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Sequence

from router.contract import TimeRange
from router.periods import HISTORY_START, PeriodResolution
from router.reader import Reading
from router.tools import ApprovalRef

#: The end of an approval asked: "until when", "till when", "how long does ... run", "until which date", "when
#: did/does ... end/expire/run out/lapse", "end date", "expiry (date)", "valid until?".
_END_ASKED = re.compile(
    r"\b(?:until|till|til)\s+(?:when|which\s+date|what\s+date)\b"
    r"|\bhow\s+long\s+(?:does|do|did|will|is|was|has|have)\b"
    r"|\bwhen\s+(?:did|does|do|will|is|was)\b[^?.;]{0,120}?\b(?:end|ends|ending|expire|expires|expiring|run\s+out|"
    r"runs\s+out|lapse|lapses|stop|terminate)\b"
    r"|\b(?:end|expiry|expiration)\s+date\b|\bexpiry\b"
    # ("helix approval xenon valid to", "approval of Beta valid until?": the end asked, the question mark optional)
    r"|\bvalid\s+(?:until|till|through|thru|to)\s*(?:\?|[.!]?\s*$)",
    re.I,
)
_APPROVAL = re.compile(r"\b(?:approv\w*|authori[sz]\w*|freigabe|freigegeben)\b", re.I)
_POSSESSIVE = re.compile(r"['’]s?\s+(?:amendment|agreement|contract|version|renewal|update|revision)\b", re.I)
#: Far enough ahead that no approval's "Valid to" is beyond it (the window reads every approval of the supplier).
_FAR_END = dt.date(2100, 1, 1)


def asks_approval_end(text: str) -> bool:
    """Whether the question asks until when an approval runs."""
    return _END_ASKED.search(text) is not None and _APPROVAL.search(text) is not None


#: One approval meant, not named: "the approval", "this approval", "their authorisation", "die Freigabe" (a plural
#: "the approvals" or "approvals of Company B" is the approved-vendor list with its end dates).
_ONE_APPROVAL = re.compile(r"\b(?:the|this|that|its|their|his|her|die|diese)\s+(?:vendor\s+|supplier\s+)?"
                           r"(?:approval|authori[sz]ation|freigabe)\b(?!s)", re.I)


def approval_unnamed(text: str, supplier_ids: Sequence[str]) -> bool:
    """Whether the question asks until when one approval runs without naming whose ("When does the approval
    expire?"): the supplier is asked back first (the company alone would not say which approval).

    >>> approval_unnamed("When does the approval expire?", ())
    True
    >>> approval_unnamed("When does Beta's approval expire?", ("SUP-02",)), approval_unnamed(
    ...     "until when do the approvals of Company B run", ())
    (False, False)
    """
    return not supplier_ids and asks_approval_end(text) and _ONE_APPROVAL.search(text) is not None


#: Words that describe the approval asked about rather than constrain it: its role ("as compressor supplier"),
#: its subject before the word approval ("Beta's express-freight approval"), or what the question doubts about its
#: end ("without an end date"). The answer states the approval table's own scope beside them.
_DESCRIBED = re.compile(
    r"\bas\s+(?:an?\s+|the\s+|their\s+|its\s+)?(?P<role>[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:supplier|vendor|provider)\b"
    r"|['’]s?\s+(?P<subject>[\w-]+(?:\s+[\w-]+){0,2}?)\s+(?=approval\b)"
    r"|\b(?:without|with\s+no|has\s+no|had\s+no|no)\s+(?:an?\s+)?end\s+date\b|\bopen[- ]ended\b",
    re.I,
)


def described_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the words that describe the approval (never constraints of the answer)."""
    return tuple(m.span() for m in _DESCRIBED.finditer(text))


def validity_reading(reading: Reading) -> Reading:
    """The reading of an approval-end question about named suppliers over every date (no period named); the words
    that describe the approval are taken as read (the supplier's rows are the answer, with their scope)."""
    cues, period = reading.cues, reading.period
    # ("after this year's amendment": a period said of a document, the possessive, is no window of the approval)
    of_a_document = bool(period.spans) and all(_POSSESSIVE.match(reading.text, end) for _, end in period.spans)
    if (not cues.approved or cues.spend or not reading.entities.supplier_ids
            or (period.time_range is not None and not of_a_document)
            or (period.ambiguous and not of_a_document) or not asks_approval_end(reading.text)):
        return reading
    every = TimeRange(start=HISTORY_START, end=_FAR_END, label="every approval (any validity)", source_text="")
    spans = described_spans(reading.text)
    kept = tuple(u for u in reading.not_understood if not any(s <= u.start and u.end <= e for s, e in spans))
    cue_text = reading.cue_text
    if len(cue_text) == len(reading.text):
        for start, end in spans:
            cue_text = cue_text[:start] + " " * (end - start) + cue_text[end:]
    return dataclasses.replace(reading, period=PeriodResolution(every, False, None, period.mentions, period.spans),
                               not_understood=kept, cue_text=cue_text)


def validity_interpretation(interpretation: str) -> str:
    """The "Read as" of an approval-end answer: the window is every approval, not a period of spend."""
    last = _FAR_END - dt.timedelta(days=1)
    return interpretation.replace(
        f"all dates on file up to the as-of date {last} ({HISTORY_START} to {_FAR_END}, end exclusive)",
        "every approval of the supplier whatever its dates (no period named); the approval's end date asked")


def is_validity_window(start: dt.date, end: dt.date) -> bool:
    """Whether a plan's approval window is the one :func:`validity_reading` sets."""
    return start == HISTORY_START and end == _FAR_END


def validity_text(company: str, approvals: Sequence[ApprovalRef], named: Sequence[str], as_of: str) -> str:
    """The answer: each named supplier's approval rows with their end date (or open-ended)."""
    rows = []
    for a in approvals:
        valid_to = a.valid_to
        scope = a.scope
        last = (valid_to - dt.timedelta(days=1)) if isinstance(valid_to, dt.date) else None
        end = (f"is approved until {valid_to} (the table's 'valid to' date, end exclusive: last approved day "
               f"{last})" if valid_to else "is open-ended (no end date in the approval table)")
        rows.append(f"{a.supplier_id} ({a.supplier_name}) {end}; valid from "
                    f"{a.valid_from}"
                    + (f", scope {scope}" if scope else "") + f", per the approval table of {a.agreement_id}")
    if not rows:
        return (f"Not found: no approval of {', '.join(named)} as a vendor of {company} is in the approval tables "
                f"of its agreements (versions in force on {as_of}).")
    return (f"Approval of {', '.join(named)} for {company} (agreement version in force on {as_of}): "
            + "; ".join(rows) + ".")


#: A claim about an approval stated for checking ("Our records say Eta is approved for Company B without an end
#: date"): router/injection.py's claim shape, nothing else of an instruction.
_CLAIM = re.compile(r"\b(?:says?|claims?|states?|shows?|told\s+(?:me|us)|tells\s+(?:me|us)|heard|insists?)\b.{0,60}"
                    r"\b(?:is|are)\s+(?:an?\s+)?approved\b", re.I | re.S)


def checked_claims(question: str, aside: tuple[str, ...]) -> bool:
    """Whether every clause set aside is an approval claim the question asks to check against the approval's end
    ("... is approved without an end date. Is that still right - until when does the approval run?"): the claim
    names the supplier and company asked about; its content is never taken as true (the approval table answers)."""
    return bool(aside) and all(_CLAIM.search(a) for a in aside) and asks_approval_end(question)
