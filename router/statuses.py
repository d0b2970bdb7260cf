"""Invoices asked for by status: cancelled and draft documents ("the value of cancelled invoices", "how many drafts",
"which Beta invoices were cancelled", German "storniert" / "im Entwurf"), and the listing of open (posted, not yet
paid) or paid invoices ("open invoices in Q3 - which ones?").

Governed spend never counts cancelled or draft documents. A question that asks for them explicitly is answered
from the one governed metric over exactly those documents, ``finance.cancelled_draft_invoices`` (dbt model
``marts.cancelled_draft_invoice_lines``): their value (net + tax in the reporting currency, as the spend policy
computes an amount, but never called spend), how many documents, and which ones, labelled with the status asked.
A listing of posted or paid invoices is the governed invoice listing (``finance.invoices_above_threshold``) with
no amount bound: every invoice of the status, with its date, supplier and grand total.

:func:`status_request` maps a reading to a :class:`StatusRequest` (or ``None``: not a status question), the router
(``router/extensions.py``) checks its scope like any figure, :func:`status_steps` plans the governed calls and the
``status_documents`` composer writes the answer. A constraint the metric cannot take (an amount threshold, an
excluded supplier, a product) is a clarification naming it, never dropped.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from router.answer import AnswerStatus, _Draft, cite_lines, composer
from router.contract import PlanStep
from router.entities import Gazetteer
from router.reader import Reading
from router.reading import dimension_phrase

#: The governed metric over cancelled and draft documents.
STATUS_METRIC = "finance.cancelled_draft_invoices"
#: The governed invoice listing (every invoice of a status when its amount bound is 0, inclusive).
LISTING_METRIC = "finance.invoices_above_threshold"
#: The status metric's allow-listed breakdowns (config.meta.procura.group_by / grains).
STATUS_DIMENSIONS = ("supplier_id", "invoice_status", "document_type")
STATUS_GRAINS = ("month", "quarter", "year")
#: A listing without a period covers the whole history up to the as-of date (the metric's earliest date).
HISTORY_START = dt.date(1990, 1, 1)
#: The spend metric a status share divides (the status's spend by the period's).
SHARE_METRIC = "finance.company_spend"
#: How many documents the answer text names (the result carries every one).
LISTED = 30

#: Words asking which documents, not (only) their number or value.
_LISTING = re.compile(
    r"\b(?:which|list|listing|show(?:\s+me)?|name|itemi[sz]e|what\s+(?:are|were)\s+(?:they|those|these|the)|"
    r"welche)\b", re.I)
_COUNT = re.compile(r"\b(?:how many|number of|count|# of|wie viele|anzahl)\b|(?<!\w)#\s?(?:of\b)?(?=\s*[^\W\d])", re.I)
_VALUE = re.compile(r"\b(?:value|worth|total|totals|sum|how much|amount|amounts|volume|wert|summe)\b", re.I)
#: An invoice listing of a recognized status: "which open invoices", "open invoices - which ones?", "list the
#: unpaid invoices" (not "which suppliers have open invoices": the invoices must be what is asked for).
_INVOICE_LISTING = re.compile(
    r"\b(?:which|what)\s+(?:[\w.'’(),-]+\s+){0,5}?(?:invoices|bills)\b(?!\s+(?:total|totals|sum|amount|value))|"
    r"\b(?:invoices|bills)\b[^?.!;]{0,80}?\b(?:which ones|which are they|what are they|list them|name them)\b|"
    # "list the open (unpaid, posted) invoices": a parenthesis restating the status is one of the words between
    r"\b(?:list|show(?:\s+me)?|itemi[sz]e)\s+(?:(?:the|all|our|every)\s+)*(?:[\w.'’(),-]+\s+){0,5}?(?:invoices|bills)\b",
    re.I)
#: "open invoices dated April": documents named by their date are the documents themselves, not their total.
_DATED = re.compile(r"\b(?:invoices|bills)\b[^?.!;]{0,60}?\bdated\b", re.I)
#: "open invoices (posted, unpaid) from Delta for Company B": a bare noun phrase naming the documents, no verb and
#: no figure word, and no period (with a period, "open invoices with Beta in Q1" stays their total).
_BARE_LISTING = re.compile(
    r"^\W*(?:(?:all|the|our|any)\s+)*(?:open|unpaid|outstanding)\s+(?:invoices|bills)\b"
    r"(?![^?]*\b(?:is|are|was|were|do|does|did|has|have|had|how|what|much|total|totals|sum|amount|amounts|value|worth|"
    r"spend|spent|balance)\b)", re.I)
#: "spend including drafts": another figure (recognized spend plus drafts), which no governed metric computes.
_INCLUDING = re.compile(r"\b(?:including|incl\.?|plus|with|together with|along with|and)\s+(?:the\s+|any\s+|all\s+)?"
                        r"(?:draft|cancell?ed|void(?:ed)?)s?\b", re.I)
_SPEND_WORD = re.compile(r"\b(?:spend|spending|spent|purchases)\b", re.I)
_STATUS_WORDS = {("cancelled",): "cancelled", ("draft",): "draft", ("cancelled", "draft"): "cancelled or draft",
                 ("posted",): "open (posted, not yet paid)", ("paid",): "paid"}


@dataclass(frozen=True)
class StatusRequest:
    """A status question: which statuses, what is asked (value, count, listing), and what cannot be mapped."""

    kind: Literal["excluded", "listing", "share"]
    statuses: tuple[str, ...]
    listing: bool
    count: bool
    value: bool
    words: str


def status_request(reading: Reading) -> StatusRequest | None:
    """The status question ``reading`` asks, or ``None`` (every other question keeps its own path).

    Cancelled and draft documents are asked for by name; an open or paid invoice listing needs a listing word
    about the invoices themselves. A question naming a document id, an amount threshold with a recognized status,
    or recognized spend "including drafts" is not a status question here.
    """
    text = reading.cue_text
    if reading.identifiers.invoice_numbers or reading.identifiers.contract_ids or reading.identifiers.document_ids:
        return None
    asked = reading.asked_statuses
    metric = reading.catalog_metric
    if metric is not None and metric.name != STATUS_METRIC and any(
            status in phrase.lower() for phrase in metric.phrases for status in asked):
        return None  # a catalog metric named for this status ("draft spend") is its governed answer
    if asked:
        if _INCLUDING.search(text) and _SPEND_WORD.search(text):
            return None  # recognized spend plus drafts: the general path asks about it
        statuses = tuple(s for s in ("cancelled", "draft") if s in asked)
        return StatusRequest("excluded", statuses, listing=bool(_LISTING.search(text)),
                             count=bool(_COUNT.search(text)), value=bool(_VALUE.search(text)),
                             words=_STATUS_WORDS[statuses])
    recognized = reading.analysis.statuses
    listing = _INVOICE_LISTING.search(text)
    if listing is not None and re.match(r"what\b", listing.group(0), re.I) and _VALUE.search(listing.group(0)):
        listing = None  # "what is the total of open invoices": their value, not which ones
    listed = listing or (_DATED.search(text) and not _VALUE.search(text) and not _SPEND_WORD.search(text)) or (
        _BARE_LISTING.search(text) and reading.period.time_range is None and not reading.period.ambiguous)
    if recognized in (("posted",), ("paid",)) and listed and reading.threshold is None \
            and not _COUNT.search(text) and reading.analysis.ranking is None:
        assert recognized is not None
        return StatusRequest("listing", recognized, listing=True, count=False, value=False,
                             words=_STATUS_WORDS[recognized])
    a, e = reading.analysis, reading.entities
    if (a.share and recognized in (("posted",), ("paid",)) and not e.supplier_ids and not e.product_group_id
            and not e.product_codes and not a.document_currency and not a.original_currency
            and a.ranking is None and a.comparison is None and reading.threshold is None):
        # "what share of Q1 spend is already paid": the status is the part, the period's spend the whole
        assert recognized is not None
        return StatusRequest("share", recognized, listing=False, count=False, value=True,
                             words=_STATUS_WORDS[recognized])
    return None


def whole_history(req: StatusRequest) -> bool:
    """Whether ``req`` with no period named covers every document up to the as-of date: documents are asked for by
    the state they are in *now* ("how many invoices are still sitting in draft", "which invoices were cancelled",
    "open invoices - which ones?"), so the question needs no period; the answer states the range it took. Only a
    listing of paid or open invoices, a count of cancelled/draft documents and the value of the drafts qualify
    (a draft is a document still waiting to be posted: "the value of our drafts" is what waits now); the value of
    cancelled documents still asks for its period (an amount of the past is read per period, as spend is)."""
    return req.listing or (req.kind == "excluded" and (
        (req.count and not req.value) or req.statuses == ("draft",)))


def _breakdown(reading: Reading) -> tuple[tuple[str, ...], str | None, list[str]]:
    b = reading.breakdown
    unknown = [u for u in b.unknown if not re.fullmatch(r"(?:the\s+)?(?:invoice\s+)?status(?:es)?", u.strip(), re.I)]
    dims = (*b.group_by, *(("invoice_status",) if len(unknown) < len(b.unknown) else ()))
    unserved = [*unknown, *(d for d in dims if d not in STATUS_DIMENSIONS),
                *([b.grain] if b.grain and b.grain not in STATUS_GRAINS else [])]
    return tuple(d for d in dims if d in STATUS_DIMENSIONS), b.grain if b.grain in STATUS_GRAINS else None, unserved


def status_parameters(req: StatusRequest, reading: Reading, gazetteer: Gazetteer, company_id: str | None, start: str,
                      end: str, currency: str | None) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The governed call's parameters, and the constraints it cannot take as (reason, question) pairs."""
    e = reading.entities
    unmapped: list[tuple[str, str]] = []
    # (no company: every company of the tenant, bounded by its row-level security)
    params: dict[str, Any] = {**({"company_id": company_id} if company_id else {}), "start_date": start,
                              "end_date": end}
    if e.supplier_ids:
        params["supplier_ids"] = list(e.supplier_ids)
    if currency:
        params["reporting_currency"] = currency
    if req.kind == "share":
        if reading.analysis.document_types:
            params["document_types"] = list(reading.analysis.document_types)
        cannot = ["an amount"] if reading.threshold is not None else []
    elif req.kind == "listing":
        params |= {"threshold": "0", "direction": "above", "inclusive": True,
                   "invoice_statuses": list(req.statuses)}
        cannot = [*(["product group " + (e.product_group or "")] if e.product_group_id else []),
                  *(["products " + ", ".join(e.product_codes)] if e.product_codes else []),
                  # the listing is of invoices: credit notes asked for are named, never left out silently
                  *(["credit notes"] if "credit_note" in (reading.analysis.document_types or ()) else [])]
    else:
        params["invoice_statuses"] = list(req.statuses)
        if e.product_group_id:
            params["product_group_ids"] = list(gazetteer.subgroups(e.product_group_id))
        if reading.analysis.document_types:
            params["document_types"] = list(reading.analysis.document_types)
        cannot = ["products " + ", ".join(e.product_codes)] if e.product_codes else []
        if reading.threshold is not None:
            cannot.append(f"the amount {reading.threshold_amount.text!r}" if reading.threshold_amount else "an amount")
    if reading.excluded_supplier_ids or reading.excluded_group_ids:
        cannot.append("the exclusion of " + ", ".join([*reading.excluded_supplier_ids, *reading.excluded_group_ids]))
    for what in cannot:
        unmapped.append((f"status: {what} cannot be applied to {req.words} invoices",
                         f"I can list and total the {req.words} invoices by company, period, supplier"
                         f"{', product group and document type' if req.kind == 'excluded' else ''}, but not by "
                         f"{what}. Do you want them without it?"))
    return params, unmapped


def status_steps(req: StatusRequest, reading: Reading, params: dict[str, Any]) -> tuple[tuple[PlanStep, ...],
                                                                                         list[tuple[str, str]]]:
    """The governed calls (the total with its document count, the documents, a breakdown) and the completeness
    check; and the breakdowns the metric does not offer."""
    unmapped: list[tuple[str, str]] = []
    if req.kind == "share":
        # the part (spend of the status) and the whole (the period's spend, posted and paid), each governed
        steps = [PlanStep(step_id="status-share-part", tool="metrics.query",
                          arguments={"metric": SHARE_METRIC, "parameters": params | {
                              "invoice_statuses": list(req.statuses)}, "group_by": [], "grain": None},
                          purpose=f"Spend of the {req.words} invoices ({SHARE_METRIC}), the part."),
                 PlanStep(step_id="status-share-whole", tool="metrics.query",
                          arguments={"metric": SHARE_METRIC, "parameters": dict(params), "group_by": [],
                                     "grain": None},
                          purpose=f"Spend of the period, posted and paid ({SHARE_METRIC}), the whole.")]
    elif req.kind == "listing":
        steps = [PlanStep(step_id="status-listing", tool="metrics.query",
                          arguments={"metric": LISTING_METRIC, "parameters": dict(params), "group_by": [],
                                     "grain": None},
                          purpose=f"Every {req.words} invoice of the period ({LISTING_METRIC}, no amount bound).")]
    else:
        by_document = ["invoice_number", "invoice_status" if len(req.statuses) > 1 else "supplier_id"]
        steps = [
            PlanStep(step_id="status-total", tool="metrics.query",
                     arguments={"metric": STATUS_METRIC, "parameters": dict(params), "group_by": [], "grain": None},
                     purpose=f"Value and number of the {req.words} documents ({STATUS_METRIC}; never spend)."),
            PlanStep(step_id="status-documents", tool="metrics.query",
                     arguments={"metric": STATUS_METRIC, "parameters": dict(params), "group_by": by_document,
                                "grain": None},
                     purpose=f"The {req.words} documents one by one."),
        ]
        dims, grain, unserved = _breakdown(reading)
        if unserved:
            what = ", ".join(repr(dimension_phrase(u)) for u in unserved)
            unmapped.append((f"breakdown: {what} is not a grouping {STATUS_METRIC} offers",
                             f"I cannot break the {req.words} invoices down by {what}; they can be grouped by "
                             "supplier, status or document type, and by month, quarter or year. Which one do you "
                             "want?"))
        elif dims or grain:
            steps.append(PlanStep(step_id="status-breakdown", tool="metrics.query",
                                  arguments={"metric": STATUS_METRIC, "parameters": dict(params),
                                             "group_by": list(dims[:2]), "grain": grain},
                                  purpose="The same documents grouped as asked."))
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: the governed calls ran; no matching document is said as such."))
    return tuple(steps), unmapped


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _money(value: Any) -> str:
    return "0.00" if value in (None, "") else str(value)


@composer("status_documents")
def _compose_status(d: _Draft) -> None:
    """``status_documents``: the documents of the status asked, labelled as such (never spend)."""
    from router.tools import MetricToolResponse

    outcomes = d.run.outcomes
    company = d.routing.entities.company_name or d.routing.entities.company_id or "the company"

    def ran(step: str) -> MetricToolResponse | None:
        o = outcomes.get(step)
        return o.output if o is not None and o.status == "ok" and isinstance(o.output, MetricToolResponse) else None

    cutoff = ran("cutoff-listing")
    if cutoff is not None:
        from router.cutoff import compose_cutoff  # invoices dated in one period, posted in a later one

        compose_cutoff(d, cutoff)
        return
    part, whole = ran("status-share-part"), ran("status-share-whole")
    if part is not None and whole is not None:
        _compose_share(d, company, part, whole)
        return
    listing = ran("status-listing")
    total, documents = ran("status-total"), ran("status-documents")
    main = listing or total
    if main is None or (listing is None and documents is None):
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The invoices of that status could not be listed; no figure is given." + d.failure_text
        return
    params = main.parameters
    statuses = tuple(params.get("invoice_statuses") or ())
    words = _STATUS_WORDS.get(statuses, " or ".join(statuses))
    scope = f" from {', '.join(params['supplier_ids'])}" if params.get("supplier_ids") else ""
    currency = main.currency or params.get("reporting_currency") or "EUR"
    status: AnswerStatus = "answered"
    result: dict[str, Any] = {"status": "complete", "metric": main.metric, "invoice_statuses": list(statuses)}
    if listing is not None:
        # one listed invoice comes back as the values of the result, several as its rows
        rows = list(listing.rows) or ([dict(listing.values)] if listing.values.get("invoice_number") else [])
        numbers = [str(r.get("invoice_number")) for r in rows]
        shown = "; ".join(f"{r.get('invoice_number')} ({r.get('invoice_date')}, {r.get('supplier_id')}, "
                          f"{r.get('grand_total')} {currency})" for r in rows[:LISTED])
        more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
        if rows:
            text = (f"{company} has {_plural(len(rows), words + ' invoice')}{scope} dated in {d.period_text}: "
                    f"{shown}{more}. Invoices only (credit notes are not listed); grand total = net + tax in "
                    f"{currency}, converted at the corporate rate on each posting date; status {', '.join(statuses)}"
                    " (posted = not yet paid); cancelled invoices and replicated duplicates never count.")
        else:
            status, result["status"] = "no_data", "no_data"
            text = (f"{company} has no {words} invoice{scope} dated in {d.period_text}: none matches (no matching "
                    "invoice).")
        result |= {"invoice_numbers": numbers, "invoice_count": len(rows),
                   "invoices": [{k: r.get(k) for k in ("invoice_number", "invoice_date", "supplier_id", "grand_total")}
                                for r in rows]}
        lines = sum(int(r.get("line_count") or 0) for r in rows)
        source = listing
    else:
        assert total is not None and documents is not None
        count = int(total.values.get("document_count") or 0)
        amount = _money(total.values.get("total_amount"))
        rows = list(documents.rows)
        numbers = list(dict.fromkeys(str(r.get("invoice_number")) for r in rows))
        key = "invoice_status" if len(statuses) > 1 else "supplier_id"
        shown = "; ".join(f"{r.get('invoice_number')} ({r.get(key)}, {_money(r.get('total_amount'))} {currency})"
                          for r in rows[:LISTED])
        more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
        types = tuple(params.get("document_types") or ("invoice", "credit_note"))
        noun = "credit note" if types == ("credit_note",) else "invoice"
        lines = total.matched_line_count
        if count == 0:
            status, result["status"] = "no_data", "no_data"
            text = (f"{company} has no {words} {noun}{scope} dated in {d.period_text}: none matches (no matching "
                    f"{noun}; a count of 0).")
        else:
            text = (f"{company} has {_plural(count, words + ' ' + noun)}{scope} dated in {d.period_text}, worth "
                    f"{amount} {currency} in total (net + tax, converted at the corporate rate on each posting "
                    f"date), over {lines} invoice lines: {shown}{more}. {words.capitalize()} documents are not "
                    "recognized spend (governed spend counts posted and paid invoices only): this is their value as "
                    "invoiced"
                    f"{'' if types != ('invoice', 'credit_note') else '; credit notes of that status count negative'}"
                    "; replicated duplicates once.")
        breakdown = ran("status-breakdown")
        if breakdown is not None and count:
            keys = [k for k in (*STATUS_DIMENSIONS, "period_start") if any(k in r for r in breakdown.rows)]
            split = "; ".join(" ".join(str(r.get(k)) for k in keys) + f": {_money(r.get('total_amount'))} {currency} "
                              f"({_plural(int(r.get('document_count') or 0), 'document')})" for r in breakdown.rows)
            text += f" By {', '.join(dimension_phrase(k) if k != 'period_start' else 'period' for k in keys)}: " \
                    f"{split}."
            result["breakdown"] = [dict(r) for r in breakdown.rows]
        result |= {"total_amount": amount, "currency": currency, "invoice_count": count,
                   "document_types": list(types), "matched_line_count": lines, "invoice_numbers": numbers,
                   "documents": [dict(r) for r in rows], "policy": total.policy}
        source = total
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    cite_lines(d, source.source_line_ids, f"invoice line of a {words} document")
    result["line_count"] = lines
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metric": main.metric, "parameters": params}



def status_share(part: Any, whole: Any) -> Decimal | None:
    """``part`` as a percentage of ``whole``, rounded half up to two decimals (``None`` when the whole is zero).

    >>> status_share("54931.18", "76748.11")
    Decimal('71.57')
    """
    base = Decimal(str(whole))
    if base == 0:
        return None
    return (Decimal(str(part)) * 100 / base).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _compose_share(d: _Draft, company: str, part: Any, whole: Any) -> None:
    """The share of the period's spend in the status asked: both governed totals and their ratio."""
    statuses = tuple(part.parameters.get("invoice_statuses") or ())
    words = _STATUS_WORDS.get(statuses, " or ".join(statuses))
    currency = whole.currency or "EUR"
    part_total, whole_total = part.values.get("total_spend"), whole.values.get("total_spend")
    lines = int(whole.matched_line_count or 0)
    result: dict[str, Any] = {"status": "complete", "metric": SHARE_METRIC, "invoice_statuses": list(statuses),
                              "currency": currency}
    status: AnswerStatus = "answered"
    if whole_total is None or not lines:
        status, result["status"] = "no_data", "no_data"
        text = (f"No data: {company} has no counted spend in {d.period_text}, so no share of it can be given (no "
                "matching invoice line; no data, not zero).")
    else:
        share = status_share(part_total or "0", whole_total)
        if part_total is None:
            text = (f"None of {company}'s spend in {d.period_text} ({whole_total} {currency}, over {lines} validated "
                    f"invoice lines) is {words}: no {words} invoice line matches (a share of 0 %).")
            result |= {"share_percent": "0", "part": None, "whole": str(whole_total)}
        elif share is None:
            text = (f"{company}'s spend in {d.period_text} nets to 0.00 {currency}, so no share of it can be given "
                    f"({_money(part_total)} {currency} of it is {words}).")
        else:
            text = (f"{share} % of {company}'s spend in {d.period_text} is {words}: {_money(part_total)} {currency} "
                    f"of {whole_total} {currency} (statuses posted and paid; credit notes negative; cancelled, "
                    "draft and duplicate invoices never count; converted at the corporate rate on each posting "
                    f"date), over {lines} validated invoice lines.")
            result |= {"share_percent": str(share), "part": _money(part_total), "whole": str(whole_total)}
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    cite_lines(d, whole.source_line_ids, "invoice line of the period's spend")
    result["line_count"] = lines
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metric": SHARE_METRIC, "parameters": whole.parameters}


__all__ = [
    "HISTORY_START",
    "LISTING_METRIC",
    "SHARE_METRIC",
    "STATUS_METRIC",
    "StatusRequest",
    "status_parameters",
    "status_request",
    "status_share",
    "status_steps",
    "whole_history",
]
