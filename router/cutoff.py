"""Cut-off lists: invoices dated in one period but posted in a later one ("which invoices dated in December 2025
were only posted in January 2026?", "invoices of Q1 posted in the next quarter", "dated Q1 2026, posted after
31.03.2026").

Two periods in one question are a cut-off reading only when one is tied to the posting ("posted", "booked",
"posting date") and the other, written before it, to the invoice date; the posting period must start on or after
the end of the invoice period (a posting inside the invoice period is no cut-off question and keeps its own path).
The answer is the governed invoice listing (``finance.invoices_above_threshold``, no amount bound) with its
posting-date bounds ``posted_from`` / ``posted_before``: every invoice of the period with its invoice and posting
dates. With no posting period named ("posted later", "in the next quarter", "after 31.03.2026") the posting side
is open-ended from the day the invoice period ends, and the answer says so.

No company named reads as every company of the tenant (a listing names each invoice's company, so nothing is
summed across companies), when the companies share one reporting currency; otherwise the company is asked for.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from router.answer import AnswerStatus, _Draft, cite_lines
from router.contract import PlanStep
from router.periods import add_months, resolve_period
from router.reader import Reading

LISTING_METRIC = "finance.invoices_above_threshold"
#: How many invoices the answer text names (the result carries every one).
LISTED = 30

_POSTING = re.compile(r"\b(?:posted|posting(?:\s+dates?)?|booked|booking\s+dates?|gebucht|buchungsdatum)\b", re.I)
_INVOICES = re.compile(r"\b(?:invoices?|bills?|rechnungen|rechnung)\b", re.I)
#: Words that make the question about documents without naming them: "cut-off test: dated in Q4 but posted 2026"
#: (the invoice date and the posting date are the cut-off's two sides, whatever the noun).
_DOCUMENT_CUES = re.compile(r"\b(?:cut[- ]?off|dated|invoice[- ]dated?|datiert|rechnungsdatum|abgrenzung\w*)\b",
                            re.I)
#: "booked in the new year", "posted the following year": the calendar year after the invoice period's end.
_NEXT_YEAR = re.compile(r"^\S+(?:\s+(?:only|just|was|were|is|in|into|a|the|on|during))*\s+"
                        r"(?:new|next|following|subsequent)\s+(?:calendar\s+|fiscal\s+)?year\b|"
                        r"^\S+(?:\s+(?:only|just|was|were|is|in|on|during))*\s+(?:im\s+)?neuen\s+jahr\b", re.I)
#: A day written without its year ("after 31.03.", "after 31/03", "after 31 March"): its year is the one that puts
#: it first on or after the invoice period's last day (a cut-off posting is never before the period ends).
_DAY_NO_YEAR = re.compile(
    r"\b(\d{1,2})(?:\.(\d{1,2})\.?|/(\d{1,2}))(?![\d/.]*\d)|"
    r"\b(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
    r"(?!\s*,?\s*\d)|"
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?!\s*,?\s*\d)",
    re.I)
_MONTH_NUMBER = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                              "nov", "dec"), start=1)}


def _dated_day(posting_side: str, start: dt.date) -> str | None:
    """``posting_side`` with a day written without its year given the year that puts it first on or after
    ``start`` ("posted after 31.03." of Q1 2026 is 31.03.2026; "after 15/01" of 2025 is 2026-01-15), or ``None``
    when it writes no such day."""
    m = _DAY_NO_YEAR.search(posting_side)
    if m is None:
        return None
    if m.group(1):
        day, month = int(m.group(1)), int(m.group(2) or m.group(3))
    elif m.group(4):
        day, month = int(m.group(4)), _MONTH_NUMBER[m.group(5).lower()[:3]]
    else:
        day, month = int(m.group(7)), _MONTH_NUMBER[m.group(6).lower()[:3]]
    for year in (start.year, start.year + 1):
        try:
            when = dt.date(year, month, day)
        except ValueError:
            return None
        if when >= start:
            return posting_side[:m.start()] + when.isoformat() + posting_side[m.end():]
    return None
#: A posting side with no period of its own: "posted later", "in the next quarter", "in a following month".
_LATER = re.compile(r"^\S+(?:\s+dates?)?(?:\s+(?:only|just|was|were|is|in|into|a|the|on|during))*\s+"
                    r"(?:later|next|following|subsequent|afterwards|"
                    # "booked after period end", "only posted after the quarter end / the close / the cut-off": after
                    # the end of the invoice period itself
                    r"after\s+(?:the\s+|its\s+|their\s+)?(?:(?:period|quarter|month|year|fiscal\s+year|half[- ]year)"
                    r"[- ]?)?(?:end|close|closing|cut-?off)\b)", re.I)
#: Only these words may stand between the posting word and its period ("posted only in", "posting date in",
#: "booked after"): "posted but not paid as of 30.04." names no posting period.
_BETWEEN = re.compile(r"^\S+(?:\s+dates?)?(?:\s+(?:only|just|was|were|is|in|on|during|after|the|month|of|"
                      r"within|by|until))*\s*$", re.I)
#: "posted after 31.03.2026": the posting side starts the day after the date named.
_AFTER = re.compile(r"\b(?:after|nach)\s+(?:the\s+)?$", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: A ticket header before a colon ("cut-off Q3/Q4 2025:", "Kestrel/Alpenland:").
_HEADER = re.compile(r"^[^:?]{1,60}:\s*")
#: A figure about the invoices (how many, their total) is another question; only "which ones" is read here.
_FIGURE = re.compile(r"\b(?:how many|number of|count|total|sum|how much|value|worth|amount)\b", re.I)
#: Words of a cut-off question that no other slot reads; every other unread span is still asked about.
_OWN_WORDS = frozenset({
    "invoice", "invoices", "bill", "bills", "dated", "date", "dates", "posting", "posted", "booked", "booking",
    "one", "ones", "cut-off", "cutoff", "cut", "off", "check", "only", "later", "next", "following", "subsequent",
    "afterwards", "month", "quarter", "year", "period", "which", "list", "show", "were", "was", "are", "but", "and",
    "i", "mean", "of", "in", "the", "with", "that", "still", "after", "end", "close", "closing", "its", "their",
    "test", "testing", "review", "any", "new", "just",
    # the posting idioms (_POSTED_IDIOM): "hit the books", "went into the ledger"
    "hit", "reached", "landed", "books", "ledger", "gl", "went", "got", "came", "made", "it", "into", "to", "found",
    "way", "recorded", "entered", "verbucht"
})


def own_word(span: str) -> bool:
    """Whether an unread span is made only of cut-off words ("invoice dated", "posting", "ones")."""
    words = re.findall(r"[\w-]+", span.lower())
    return bool(words) and all(w in _OWN_WORDS for w in words)


@dataclass(frozen=True)
class CutoffRequest:
    """A cut-off list: the invoice period and the posting bounds (``posted_before`` ``None``: open-ended)."""

    start: dt.date
    end: dt.date
    posted_from: dt.date
    posted_before: dt.date | None
    invoice_words: str
    posting_words: str


def _later_than(period: tuple[dt.date, dt.date], end: dt.date, written: str) -> tuple[dt.date, dt.date]:
    """A posting period written without its year ("posted in may") is the first one on or after ``end``."""
    start, stop = period
    if _YEAR.search(written):
        return start, stop
    while start < end:
        start, stop = add_months(start, 12), add_months(stop, 12)
    return start, stop


#: Posting said without the posting word: "hit the books", "went into the ledger", "made it into the GL",
#: "verbucht": read as "posted" (the posting event, never a status).
_POSTED_IDIOM = re.compile(r"\b(?:hit|reached|landed\s+(?:in|on))\s+the\s+(?:books|ledger|gl)\b|"
                           r"\b(?:went|got|came|made\s+it|found\s+(?:its|their)\s+way)\s+(?:in)?to\s+the\s+"
                           r"(?:books|ledger|gl)\b|\b(?:recorded|entered)\s+in\s+the\s+(?:books|ledger|gl)\b|"
                           r"\bverbucht\b", re.I)


def cutoff_request(reading: Reading) -> CutoffRequest | None:
    """The cut-off list ``reading`` asks for, or ``None`` (not a cut-off question)."""
    text = _POSTED_IDIOM.sub("posted", reading.text)
    cues = list(_POSTING.finditer(text))
    if not cues or not (_INVOICES.search(text) or _DOCUMENT_CUES.search(text)) or _FIGURE.search(text):
        return None
    last = cues[-1]
    # the invoice side is written before the (last) posting word; a restatement ("... I mean dated october 2025
    # but posted november") is read from the words after the previous posting word
    begin = cues[-2].end() if len(cues) > 1 else 0
    invoice_side = text[begin:last.start()]
    invoiced = resolve_period(invoice_side, reading.as_of)
    header = _HEADER.match(invoice_side)
    if invoiced.ambiguous and header is not None:
        # "cut-off Q3/Q4 2025: invoices dated Q3 posted in Q4": the header names the two sides of the cut-off, not
        # a clash; the invoice side is read after it, in the header's one year when it names none of its own
        body, years = invoice_side[header.end():], set(_YEAR.findall(header.group(0)))
        if not _YEAR.search(body) and len(years) == 1:
            body = f"{body.rstrip()} {years.pop()} "
        invoiced = resolve_period(body, reading.as_of)
    posting_side = text[last.start():]
    if invoiced.time_range is None and not invoiced.ambiguous:
        # "which invoices were booked after quarter end, Q1 2026?": a posting side relative to the invoice period
        # names no period of its own, so the period written after it is the invoice period
        later = _LATER.search(posting_side)
        after = posting_side[later.end():] if later is not None else ""
        trailing = resolve_period(after, reading.as_of) if after.strip() else None
        if later is not None and trailing is not None and trailing.time_range is not None \
                and not trailing.ambiguous:
            t = trailing.time_range
            return CutoffRequest(t.start, t.end, t.end, None, after.strip(), posting_side[:later.end()].strip())
    if invoiced.ambiguous or invoiced.time_range is None:
        return None
    start, end = invoiced.time_range.start, invoiced.time_range.end
    posted = resolve_period(posting_side, reading.as_of)
    if posted.time_range is None and not posted.ambiguous:
        # "posted november": a bare month after the posting word is its period, as "posted in november" is
        bare = resolve_period("in " + posting_side[last.end() - last.start():], reading.as_of)
        if bare.time_range is not None:
            posting_side = "posted in " + posting_side[last.end() - last.start():].strip()
            posted = resolve_period(posting_side, reading.as_of)
    if posted.time_range is None or posted.ambiguous:
        # "posted after 31.03.", "posted after March 31": the day in the year of the invoice period
        dated = _dated_day(posting_side, end - dt.timedelta(days=1))
        if dated is not None:
            posting_side = dated
            posted = resolve_period(posting_side, reading.as_of)
    if posted.ambiguous:
        return None
    if posted.time_range is None and _NEXT_YEAR.search(posting_side):
        # "only booked in the new year": the calendar year after the one the invoice period ends in
        first = dt.date((end - dt.timedelta(days=1)).year + 1, 1, 1)
        return CutoffRequest(start, end, max(first, end), dt.date(first.year + 1, 1, 1), invoice_side.strip(),
                             posting_side.strip())
    if posted.time_range is None:
        if not _LATER.search(posting_side):
            return None
        return CutoffRequest(start, end, end, None, invoice_side.strip(), posting_side.strip())
    p_start, p_end = posted.time_range.start, posted.time_range.end
    span = posted.spans[0] if posted.spans else None
    if span is None or not _BETWEEN.match(posting_side[:span[0]]):
        return None  # the period written after the posting word is not its period
    if span is not None and _AFTER.search(posting_side[:span[0]]):
        # "posted after 31.03.2026": from the day after the date named, open-ended
        return CutoffRequest(start, end, max(p_end, end), None, invoice_side.strip(), posting_side.strip())
    p_start, p_end = _later_than((p_start, p_end), end, posting_side)
    if p_start < end:
        return None  # posted inside the invoice period: no cut-off question
    return CutoffRequest(start, end, p_start, p_end, invoice_side.strip(), posting_side.strip())


#: "open invoices dated March but posted in April": the status word, never the posting word, narrows the list.
_OPEN = re.compile(r"\b(?:open|unpaid|outstanding|not\s+(?:yet\s+)?paid)\b", re.I)
_PAID = re.compile(r"\b(?:(?<!not )(?<!not yet )paid|settled)\b", re.I)


def cutoff_statuses(reading: Reading) -> tuple[str, ...]:
    """The statuses listed: "posted" here is the posting event, not the open status; "open" / "unpaid" narrow to
    posted-not-paid, "paid" to paid, otherwise both counted statuses."""
    text = reading.text
    if _OPEN.search(text):
        return ("posted",)
    if _PAID.search(text):
        return ("paid",)
    return ("posted", "paid")


#: Statuses no invoice of which is ever posted: a cut-off list of them is empty by definition, never posted+paid.
NEVER_POSTED = ("draft", "cancelled")


def unposted_statuses(reading: Reading) -> tuple[str, ...]:
    """The never-posted statuses the question asks for ("draft invoices dated March posted in April"): the
    reader's asked statuses ("excluding drafts" leaves them out), so the listing is never silently posted+paid."""
    return tuple(s for s in reading.asked_statuses if s in NEVER_POSTED)


def currency_problem(reading: Reading) -> str | None:
    """An invoice-currency constraint the listing cannot apply (it takes one ``document_currency``): several
    currencies named together, or one left out ("non-EUR invoices"); ``None`` when there is none or one."""
    analysis = reading.analysis
    if len(analysis.document_currencies) > 1:
        return "the invoice currencies " + ", ".join(analysis.document_currencies) + " together"
    if analysis.excluded_currency is not None:
        return "the invoice currencies other than " + (analysis.excluded_currency or "the reporting currency")
    return None


def cutoff_companies(reading: Reading, gazetteer: Any) -> tuple[str, ...]:
    """The companies a cut-off list names together ("Kestrel/Alpenland", "COMP-A and COMP-B"): two or more, each
    resolved, sharing one reporting currency; empty otherwise (one company, none, or asked about)."""
    named = tuple(dict.fromkeys([*reading.identifiers.company_ids,
                                 *(m.candidates[0] for m in reading.mentions.companies if len(m.candidates) == 1)]))
    companies = [gazetteer.company(c) for c in named]
    if len(named) < 2 or any(c is None for c in companies) or len({c.reporting_currency for c in companies}) > 1:
        return ()
    if any(m for m in reading.mentions.companies if len(m.candidates) != 1):
        return ()  # a name that could be either company is asked about
    return named


def cutoff_parameters(req: CutoffRequest, reading: Reading, company_id: str | None, currency: str | None,
                      statuses: tuple[str, ...]) -> dict[str, Any]:
    """The governed listing's parameters: every invoice of the statuses dated in the period, posted in the bounds."""
    params: dict[str, Any] = {"threshold": "0", "direction": "above", "inclusive": True,
                              "start_date": req.start.isoformat(), "end_date": req.end.isoformat(),
                              "posted_from": req.posted_from.isoformat(), "invoice_statuses": list(statuses)}
    if req.posted_before is not None:
        params["posted_before"] = req.posted_before.isoformat()
    if company_id:
        params["company_id"] = company_id
    if reading.entities.supplier_ids:
        params["supplier_ids"] = list(reading.entities.supplier_ids)
    if currency:
        params["reporting_currency"] = currency
    if reading.analysis.document_currency and currency_problem(reading) is None:
        # "Company A USD invoices dated December posted in January": only invoices issued in USD
        params["document_currency"] = reading.analysis.document_currency
    return params


def cutoff_steps(params: dict[str, Any]) -> tuple[PlanStep, ...]:
    return (PlanStep(step_id="cutoff-listing", tool="metrics.query",
                     arguments={"metric": LISTING_METRIC, "parameters": dict(params), "group_by": [], "grain": None},
                     purpose=f"Every invoice dated in the period and posted after it ({LISTING_METRIC}, no amount "
                             "bound, posting-date bounds)."),
            PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("cutoff-listing",),
                     purpose="Completeness: the governed call ran; no matching invoice is said as such."))


def compose_cutoff(d: _Draft, listing: Any) -> None:
    """The cut-off list: each invoice with its company, supplier, invoice and posting dates and grand total."""
    params = listing.parameters
    currency = listing.currency or params.get("reporting_currency") or "EUR"
    company = (d.routing.entities.company_name or d.routing.entities.company_id
               or ", ".join(params.get("company_ids") or ()) or "All companies of the tenant")
    rows = list(listing.rows) or ([dict(listing.values)] if listing.values.get("invoice_number") else [])
    posted = (f"posted between {params['posted_from']} and {params['posted_before']} (end exclusive)"
              if params.get("posted_before") else f"posted on or after {params['posted_from']}")
    dated = f"dated between {params['start_date']} and {params['end_date']} (end exclusive)"
    if params.get("document_currency"):
        dated = f"issued in {params['document_currency']} {dated}"  # the invoice currency asked for
    statuses = ", ".join(params.get("invoice_statuses") or ())
    status: AnswerStatus = "answered"
    result: dict[str, Any] = {"status": "complete", "metric": LISTING_METRIC, "cutoff": True,
                              "invoice_period": [params["start_date"], params["end_date"]],
                              "posted_from": params["posted_from"], "posted_before": params.get("posted_before")}
    if rows:
        shown = "; ".join(f"{r.get('invoice_number')} ({r.get('company_id')}, {r.get('supplier_id')}, invoice date "
                          f"{r.get('invoice_date')}, posted {r.get('posting_date')}, {r.get('grand_total')} {currency})"
                          for r in rows[:LISTED])
        more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
        n = len(rows)
        text = (f"{company}: {n} invoice{'s' if n != 1 else ''} {dated} but {posted} (cut-off): {shown}{more}. "
                f"Invoices only (credit notes are not listed), statuses {statuses}; cancelled invoices and "
                f"replicated duplicates never count; grand total = net + tax in {currency}, converted at the "
                "corporate rate on each posting date.")
    else:
        status, result["status"] = "no_data", "no_data"
        text = f"{company}: no invoice {dated} was {posted} (no matching invoice; statuses {statuses})."
    if listing.truncated or listing.status == "partial":
        # the row cap (or a partial governed result) cut the list: the invoices shown are not all of them, so the
        # answer never says complete, and a count of the rows returned is no count of the cut-off invoices
        status, result["status"], result["truncated"] = "partial", "partial", True
        cut = ("the governed listing stopped at its row cap" if listing.truncated
               else "the governed listing returned a partial result")
        text = (f"PARTIAL RESULT, not the complete list: {cut}, so more invoices may match than the "
                f"{len(rows)} returned. " + text)
    result |= {"invoice_numbers": [str(r.get("invoice_number")) for r in rows], "invoice_count": len(rows),
               "invoices": [{k: r.get(k) for k in ("invoice_number", "company_id", "supplier_id", "invoice_date",
                                                   "posting_date", "grand_total")} for r in rows]}
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    cite_lines(d, listing.source_line_ids, "invoice line of a cut-off invoice")
    result["line_count"] = sum(int(r.get("line_count") or 0) for r in rows)
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metric": LISTING_METRIC, "parameters": params}


__all__ = [
    "NEVER_POSTED",
    "CutoffRequest",
    "compose_cutoff",
    "currency_problem",
    "cutoff_companies",
    "cutoff_parameters",
    "cutoff_request",
    "cutoff_statuses",
    "cutoff_steps",
    "own_word",
    "unposted_statuses",
]
