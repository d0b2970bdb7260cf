"""Replicated duplicates asked for: "which invoices were double-exported", "duplicate invoices (replicas) of
Kestrel", "how many invoices came in twice", German "welche Rechnungen kamen doppelt", "Dubletten", "Replikat".

Governed figures never count a replicated duplicate (the dedup policy: business key company + resolved supplier +
document type + invoice number with the same content, the first document in ingestion order kept). A question that
asks *which* documents had such a copy is answered from the one governed listing over exactly them,
``finance.duplicate_invoices`` (over ``marts.validated_invoice_lines``, RLS-bound), filtered by company (one, a
named set, or all the tenant's), supplier, document type and invoice-date period; never from passages or from
another invoice listing. A constraint the listing cannot take (a product group, an amount, a status, a value) is
a clarification naming it. "Spend excluding duplicates" is no such question: it is the policy itself.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from router.answer import AnswerStatus, _Draft, cite_lines, composer
from router.contract import PlanStep, TimeRange
from router.reader import Reading

#: The governed listing of the documents that had a replicated copy.
DUPLICATE_METRIC = "finance.duplicate_invoices"
#: A listing without a period covers the whole history up to the as-of date.
HISTORY_START = dt.date(1990, 1, 1)
#: How many documents the answer text names (the result carries every one).
LISTED = 40

#: Verbs a duplicate is said with ("received twice", "rcvd 2x", "got it two times", "posted more than once").
_TWICE_VERBS = (
    "exported", "imported", "loaded", "uploaded", "entered", "booked", "posted", "received", "rcvd", "recvd",
    "rec'd", "recd", "sent", "sent in", "submitted", "billed", "invoiced", "charged", "keyed", "captured", "came",
    "came in", "come in", "coming in", "arrived", "recorded", "ingested", "counted", "appear", "appears",
    "appeared", "listed", "got", "gotten", "showed up", "shows up", "turned up", "scanned", "processed", "logged",
    "filed", "registered", "delivered", "issued",
    # the present tense of a supplier's act ("did any supplier bill us more than once")
    "bill", "send", "charge", "invoice", "post", "book", "enter",
)
_VERB = "(?:" + "|".join(re.escape(v).replace("\\ ", r"\s+") for v in sorted(_TWICE_VERBS, key=len, reverse=True)) + ")"
#: "twice", "two times", "2x", "more than once", "double": how often the one document came.
_TWICE = r"(?:twice|two\s+times|2\s*x|2\s+times|more\s+than\s+once|double)"
#: Documents a "double" is said of ("double invoices", "doubled bills", "double entries").
_DOC_NOUN = (r"(?:invoices?|inv|invs|bills?|credit[- ]?notes?|cns?|documents?|docs?|entries|entry|postings?|"
             r"bookings?|exports?|imports?|records?)")
_DUPLICATE = re.compile(
    r"\b(?:duplicat(?:e|es|ed)|dupes?|dups?|replica(?:s|ted|tions?)?|replicat(?:e|es|ed)|"
    r"double[- ]?(?:exported|exports?|booked|bookings?|posted|entered|imported|loaded|counted|invoiced|billed|"
    r"submitted|sent|received|keyed|captured|ingested|recorded|entries|entry)|"
    # "double invoices", "doubled bills", "any doubles": the documents themselves said double
    r"doubled?\s+" + _DOC_NOUN + r"|doubles\b|"
    # "received twice", "rcvd 2x", "came in two times", "posted more than once", "entered double"
    + _VERB + r"(?:\s+(?:it|them|this|that|in|again|\w+ly))?\s+" + _TWICE + r"|"
    # ... with the addressee or the period between ("sent to company b two times", "billed Company A twice in
    # March", "invoiced us for it more than once"): a few words of one clause, no frequency of digits
    + _VERB + r"(?:\s+(?!(?:and|or|but)\b)[^\s?.!,;:]+){1,5}?\s+" + _TWICE + r"(?!\s*[- ]?digits?)|"
    r"twice[- ](?:exported|imported|loaded|entered|booked|posted|received|submitted|ingested|recorded|billed|"
    r"invoiced|sent)|"
    # German: "doppelt eingespielt", "doppelte Rechnungen", "Dubletten", "Duplikate", "Replikat", "zweimal"
    # ("zweimal ins System gelaufen": the system named in between is where they came twice, no name)
    r"(?:zweimal|mehrfach|doppelt)\s+(?:(?:ins|im|in\s+das)\s+System\s+)?"
    r"(?:eingespielt|exportiert|erfasst|gebucht|eingegangen|importiert|gekommen|berechnet|gestellt|erhalten|bekommen|"
    r"gelaufen|eingelaufen|eingelesen|eingestellt|angelegt)|"
    r"doppelt\w*|doppel(?:erfass|buchung|import|rechnung|export)\w*|dublette\w*|duplikat\w*|dupliziert\w*|"
    r"replikat\w*|"
    # French / Spanish / Italian: "en double", "doublons", "facturas duplicadas", "por duplicado", "fatture doppie"
    r"en\s+double|doublons?|duplicad[oa]s?|por\s+duplicado|dos\s+veces|doppi[eo]|due\s+volte|deux\s+fois)\b",
    re.I)
#: "spend excluding duplicates", "ohne Dubletten", "de-duplicated": the policy itself, not a listing of them.
_EXCLUDED_BEFORE = re.compile(
    r"\b(?:excluding|excluded|exclude|without|w/o|ex|net\s+of|less|minus|ignoring|not\s+counting|except|"
    r"ohne|exkl\.?|ausgenommen|abzüglich|bereinigt\s+um|de-?dup\w*|deduped)\s+(?:(?:the|any|all|of)\s+)?"
    r"(?:[\w-]+\s+){0,1}$", re.I)
_EXCLUDED_AFTER = re.compile(r"^\s*(?:\w+\s+)?(?:excluded|removed|left\s+out|out|dropped|ausgeschlossen|"
                             r"herausgerechnet|bereinigt)\b", re.I)
_DEDUPLICATED = re.compile(r"\bde-?dup\w*|\bdeduped\b"
                           # "total spend with each duplicate counted once": the governed dedup policy itself
                           r"|\bduplicates?\s+(?:(?:is|are|being)\s+)?(?:counted|included|taken)\s+(?:only\s+)?once\b",
                           re.I)
#: A duplicate of something else than a document ("duplicate suppliers", "duplicate payments").
_OTHER_NOUN = re.compile(r"^\s*(?:(?!(?:from|for|of|with|by|at|in|to|on|bei|von|für|mit)\b)[\w-]+\s+)?"
                         r"(?:suppliers?|vendors?|payments?|products?|lieferanten|zahlungen|artikel|names?|aliases|"
                         r"alias|master\s+data|stammdaten)\b"
                         # ("duplicated supplier invoices": the documents of a supplier, duplicated)
                         r"(?!\s+(?:invoices?|credit[- ]?notes?|documents?|bills?|rechnung\w*|gutschrift\w*)\b)", re.I)
_COUNT = re.compile(r"\b(?:how many|number of|count|counts|wie viele|anzahl|no\.\s+of)\b|(?<!\w)#", re.I)
_VALUE = re.compile(r"\b(?:value|worth|how much|amounts?|sum|spend|spent|wert|summe|betrag|volume)\b", re.I)
_CREDIT = re.compile(r"\bcredit[- ]?notes?\b|\bgutschrift\w*", re.I)
_INVOICE = re.compile(r"\binvoices?\b|\bbills?\b|\brechnung\w*", re.I)
_TENANT = re.compile(r"\btenant[- ]?(\d+)\b", re.I)
#: "invoice numbers pls", "which inv numbers", "audit", "check": what the listing shows or why it is asked.
_SPENT_WORDS = re.compile(
    r"\b(?:invoice|inv|document|doc)\.?\s*(?:numbers?|nos?|#s?|ids?)\b|\berp\b|\bexport\w*|\bprüfung\b|"
    r"\bcheck\b|\baudit\b|\bpls\b|\bplease\b|\bbitte\b|\bcopies\b|\bcopy\b", re.I)


@dataclass(frozen=True)
class DuplicateRequest:
    """A question about replicated duplicates: what is asked (listing, count, value) and the words that said it."""

    words: str
    count: bool
    value: bool
    spans: tuple[tuple[int, int], ...]


def duplicate_request(reading: Reading) -> DuplicateRequest | None:
    """The duplicate question ``reading`` asks, or ``None`` (spend "excluding duplicates" and every other question
    keep their own path)."""
    text = reading.text
    found = [m for m in _DUPLICATE.finditer(text)]
    if not found or _DEDUPLICATED.search(text):
        return None
    if reading.identifiers.invoice_numbers or reading.identifiers.document_ids or reading.identifiers.contract_ids:
        return None  # a named document: the lookup says whether it is a duplicate
    for m in found:
        if _EXCLUDED_BEFORE.search(text[max(0, m.start() - 40):m.start()]) or _EXCLUDED_AFTER.match(text[m.end():]):
            return None
        if _OTHER_NOUN.match(text[m.end():]):
            return None
    spans = tuple(m.span() for m in found)
    return DuplicateRequest(words=", ".join(dict.fromkeys(m.group(0) for m in found)),
                            count=bool(_COUNT.search(reading.cue_text)),
                            value=bool(_VALUE.search(reading.cue_text)), spans=spans)


#: Status words: "posted twice" / "booked twice" say how the copy came, not a status filter.
_STATUS_WORD = re.compile(r"\b(?:posted|booked|paid|unpaid|open|outstanding|settled|drafts?|cancel+ed|cancel+ations?|"
                          r"void(?:ed)?|storniert|bezahlt|gebucht|offen\w*|entw[uü]rfe?)\b", re.I)


def _status_named(text: str, spans: tuple[tuple[int, int], ...]) -> bool:
    """Whether a status word stands outside the duplicate words ("posted twice" names no status)."""
    masked = text
    for start, end in sorted(spans, reverse=True):
        masked = masked[:start] + " " * (end - start) + masked[end:]
    return _STATUS_WORD.search(masked) is not None


def _overlaps(span: tuple[int, int], spans: tuple[tuple[int, int], ...]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)


def route_duplicates(text: str, reading: Reading, inputs: Any, req: DuplicateRequest) -> Any:
    """The routing result of a duplicate question: the governed listing planned, or a clarification naming what
    it cannot take. The company is optional (none named: every company of the tenant; several named: that set)."""
    from router.extensions import _aggregate, _result
    from router.reader import interpretation, unread_clarifications

    gazetteer = inputs.gazetteer
    # the duplicate words and what the listing shows are read here: not unknown names
    unread = tuple(u for u in reading.not_understood
                   if not _overlaps((u.start, u.end), req.spans) and not _SPENT_WORDS.fullmatch(u.text.strip()))
    reasons, questions = unread_clarifications(unread)
    from router.company_set import resolves

    named = list(dict.fromkeys([*reading.identifiers.company_ids,
                                *(m.candidates[0] for m in reading.mentions.companies if len(m.candidates) == 1)]))
    for problem in reading.entity_problems:
        if len(named) > 1 and resolves(problem):
            continue  # several companies named: the listing takes the set
        reasons.append(f"entity: {problem}")
        questions.append(problem)
    tenant = _TENANT.search(reading.text)
    if tenant is not None and f"tenant-{tenant.group(1)}" != inputs.ctx.tenant_id:
        reasons.append(f"scope: 'tenant {tenant.group(1)}' is not the tenant of this key")
        questions.append(f"This key reads tenant {inputs.ctx.tenant_id} only; tenant {tenant.group(1)} cannot be "
                         "listed. Do you want the duplicates of your tenant?")
    period = reading.period
    if period.ambiguous:
        reasons.append(f"period: {period.reason}")
        questions.append(f"Which period do you mean ({period.reason})? For example 2026-Q1, March 2026 or between "
                         "2026-01-01 and 2026-04-01.")
    tr = period.time_range or TimeRange(start=HISTORY_START, end=inputs.as_of + dt.timedelta(days=1),
                                        label="all dates up to the as-of date", source_text="")
    e = reading.entities
    cannot = [*(["product group " + (e.product_group or "")] if e.product_group_id else []),
              *(["products " + ", ".join(e.product_codes)] if e.product_codes else []),
              # (a bare invoice listing reads as an amount bound of 0 with no words: no amount was named)
              *([f"the amount {reading.threshold_amount.text!r}"]
                if reading.threshold_amount is not None and reading.threshold_amount.text.strip() else []),
              *(["the status " + ", ".join(reading.asked_statuses or reading.analysis.statuses or ())]
                if (reading.asked_statuses or reading.analysis.statuses) and _status_named(text, req.spans) else []),
              *(["the exclusion of " + ", ".join([*reading.excluded_supplier_ids, *reading.excluded_group_ids])]
                if reading.excluded_supplier_ids or reading.excluded_group_ids else []),
              *(["their value (replicated copies are never counted in any amount)"] if req.value else [])]
    for what in cannot:
        reasons.append(f"duplicates: {what} cannot be applied to the replicated duplicates")
        questions.append(f"I can list (and count) the invoices that had a replicated copy by company, supplier, "
                         f"document type and invoice-date period, but not by {what}. Do you want them without it?")
    params: dict[str, Any] = {"start_date": tr.start.isoformat(), "end_date": tr.end.isoformat()}
    entities = e
    companies = ""
    if len(named) > 1:
        params["company_ids"] = named
        companies = ", ".join(named)
        entities = e.model_copy(update={"company_id": None, "company_name": None})
    elif e.company_id:
        params["company_id"] = e.company_id
    else:
        companies = "all companies of the tenant (" + ", ".join(c.company_id for c in gazetteer.companies) + ")"
    if e.supplier_ids:
        params["supplier_ids"] = list(e.supplier_ids)
    credit, invoice = bool(_CREDIT.search(reading.cue_text)), bool(_INVOICE.search(_CREDIT.sub(" ", reading.cue_text)))
    params["document_types"] = ["credit_note"] if credit and not invoice else \
        ["invoice", "credit_note"] if credit else ["invoice"]
    read_as = interpretation(entities, tr.start, tr.end)
    if companies:
        read_as = f"{companies}, {read_as}" if read_as else companies
    read_as += (f", document types {', '.join(params['document_types'])}; replicated duplicates under the dedup "
                "policy (company + resolved supplier + document type + invoice number, first in ingestion order "
                "kept)")
    intents = _aggregate()
    if reasons:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="duplicates:clarification")
    steps = (PlanStep(step_id="duplicate-listing", tool="metrics.query",
                      arguments={"metric": DUPLICATE_METRIC, "parameters": params, "group_by": [], "grain": None},
                      purpose=f"The documents that had a replicated copy ({DUPLICATE_METRIC})."),
             PlanStep(step_id="validate-result", tool="validation.check_completeness",
                      depends_on=("duplicate-listing",),
                      purpose="Completeness: the governed listing ran; no duplicate is said as such."))
    routed = _result(text, reading, inputs, workflow="duplicate_documents", entities=entities, steps=steps,
                     intents=intents, read_as=read_as, rule="duplicates:count" if req.count else "duplicates:list")
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": tr})})


@composer("duplicate_documents")
def _compose_duplicates(d: _Draft) -> None:
    """``duplicate_documents``: the documents that had a replicated copy, with how many there are."""
    from router.tools import MetricToolResponse

    o = d.run.outcomes.get("duplicate-listing")
    m = o.output if o is not None and o.status == "ok" and isinstance(o.output, MetricToolResponse) else None
    if m is None:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The replicated duplicates could not be listed; no answer is given." + d.failure_text
        return
    params = m.parameters
    rows = list(m.rows) or ([dict(m.values)] if m.values.get("invoice_number") else [])
    types = tuple(params.get("document_types") or ("invoice",))
    noun = "credit note" if types == ("credit_note",) else "invoice" if types == ("invoice",) else "document"
    who = d.routing.entities.company_name or d.routing.entities.company_id
    if params.get("company_ids"):
        who = ", ".join(params["company_ids"])
    who = who or "All companies of the tenant together"
    scope = f" from {', '.join(params['supplier_ids'])}" if params.get("supplier_ids") else ""
    numbers = list(dict.fromkeys(str(r.get("invoice_number")) for r in rows))
    status: AnswerStatus = "answered"
    result: dict[str, Any] = {"status": "complete", "metric": m.metric, "document_types": list(types)}
    if rows:
        shown = "; ".join(f"{r.get('invoice_number')} ({r.get('company_id')}, {r.get('supplier_id')}, "
                          f"{r.get('invoice_date')}, {r.get('replica_count')} replicated "
                          f"cop{'y' if str(r.get('replica_count')) == '1' else 'ies'})" for r in rows[:LISTED])
        more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
        plural = noun if len(numbers) == 1 else noun + "s"
        text = (f"{who}: {len(numbers)} {plural}{scope} dated in {d.period_text} had a replicated duplicate (exported "
                f"twice): {shown}{more}. A replicated duplicate is a later document with the same company, resolved "
                "supplier, document type and invoice number and the same content; the first in ingestion order is "
                "kept and every copy is left out of all figures.")
    else:
        status, result["status"] = "no_data", "no_data"
        text = (f"{who}: no {noun}{scope} dated in {d.period_text} had a replicated duplicate (none matches; a count "
                f"of 0).")
    result |= {"invoice_numbers": numbers, "duplicate_count": len(numbers),
               "duplicates": [{k: r.get(k) for k in ("invoice_number", "company_id", "supplier_id", "document_type",
                                                     "invoice_date", "replica_count")} for r in rows],
               "policy": m.policy}
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    cite_lines(d, m.source_line_ids, "invoice line of a replicated copy")
    result["line_count"] = sum(int(r.get("line_count") or 0) for r in rows)
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metric": m.metric, "parameters": params}


__all__ = ["DUPLICATE_METRIC", "DuplicateRequest", "duplicate_request", "route_duplicates"]
