"""Document counts per status: "number of invoices per status (draft, posted, paid, cancelled)", "count the
documents of Company B by status", "Status overview (how many per status) of the invoices", "invoices by status".

No governed metric groups counts by status, and none needs to: a document has exactly one status, so the count
per status is the governed count of each status called on its own, and the total their exact sum. Draft, posted
and paid documents are counted by ``finance.invoice_count`` (one call per status); cancelled documents, which
``finance.invoice_count`` never counts, by ``finance.cancelled_draft_invoices`` (its ``document_count``: distinct
documents, replicated duplicates once). Every call takes the same company, period (invoice date), suppliers,
product group and document types, so the rows partition one selection. Drafts and cancelled documents are
documents (a status table counts them) but never spend: the answer says so.

:func:`status_breakdown` says whether a question asks for such a table, :func:`status_table` which statuses it
has (those the question names, less those it excludes; every status when it names none),
:func:`status_count_steps` plans the calls and :func:`compose_status_counts` writes the table (called by the
``invoice_count`` composer).
"""

from __future__ import annotations

import re
from typing import Any

from router.answer import AnswerStatus, _Draft, cite_lines
from router.contract import PlanStep
from router.reader import Reading
from router.reading import dimension_phrase

#: The governed counts behind the table.
COUNT_METRIC = "finance.invoice_count"
CANCELLED_METRIC = "finance.cancelled_draft_invoices"
#: The document statuses, in the order a document passes through them (cancelled last).
STATUS_ORDER = ("draft", "posted", "paid", "cancelled")
#: The step ids of the per-status counts (the composer finds them by this prefix).
STEP_PREFIX = "count-by-status-"
#: Parameters of the count that ``finance.cancelled_draft_invoices`` takes as they are.
_CANCELLED_TAKES = ("company_id", "start_date", "end_date", "supplier_ids", "product_group_ids", "document_types")

#: How the parameters the cancelled documents' count cannot take are named to the user.
_PARAMETER_WORDS = {"exclude_supplier_ids": "an excluded supplier", "exclude_product_group_ids":
                    "an excluded product group", "product_codes": "products", "exclude_product_codes":
                    "excluded products"}

#: Documents grouped by status without a count word: "invoices by status", "documents per status".
_NOUN_BY_STATUS = re.compile(r"\b(?:invoices|documents|credit[- ]?notes|bills)\b[^?.;!]{0,60}?\b(?:by|per|in each|"
                             r"for each|each|across(?:\s+(?:the|all|their))?)\s+(?:invoice\s+|document\s+)?"
                             r"status(?:es)?\b|"
                             r"\bstatus\s+(?:overview|breakdown|split|distribution|summary)\b", re.I)
#: What makes a status breakdown a breakdown of an amount, not of the number of documents.
_AMOUNT = re.compile(r"\b(?:spend|spent|spending|value|values|worth|amounts?|totals?|sum|how much|eur|usd|net|"
                     r"gross|vat|tax)\b", re.I)


def status_breakdown(reading: Reading, counted: bool) -> bool:
    """Whether the question asks how many documents there are in each status (``counted``: a count question):
    the reader's breakdown by ``invoice_status`` with a count word, or documents "by status" with no amount
    (an amount per status is another figure)."""
    if "invoice_status" not in reading.breakdown.group_by:
        return False
    text = reading.cue_text
    if counted:
        return True
    # (no amount written: a listing of invoices reads a bound of 0, which is no amount asked about)
    return bool(_NOUN_BY_STATUS.search(text)) and not _AMOUNT.search(text) and not any(a.text for a in reading.amounts)


#: One status word of a status table's filter, with the status it means ("unpaid", "open", "not yet paid": posted, the
#: governed reading of an open invoice), or a status word no document has (group 2: asked about, never dropped).
_FILTER_WORD = (r"(?:not\s+(?:yet\s+)?paid|unpaid|open|outstanding|drafts?|posted|paid|settled|cancell?ed|voided?|"
                r"(overdue|past[- ]due|disputed|in\s+dispute|on\s+hold|blocked|rejected|approved|pending|booked|"
                r"archived|unposted)"
                # ("approved suppliers": a word of another noun, no status)
                r"(?!\s+(?:suppliers?|vendors?|contracts?|compan(?:y|ies)|products?|lists?|prices?)\b))")
#: A list of status words ("drafts and cancelled", "posted/paid"); credit notes or duplicates may stand in it.
_FILTER_LIST = re.compile(
    rf"\b{_FILTER_WORD}(?:\s+(?:invoices?|documents?|ones|bills))?"
    rf"(?:\s*(?:,|/|&|\+|\band\b|\bor\b|\bnor\b)\s*(?:(?:the|any|all)\s+)?"
    rf"(?:credit[- ]?notes?\s*(?:,|&|\band\b|\bor\b)\s*)?"
    rf"\b{_FILTER_WORD}(?:\s+(?:invoices?|documents?|ones|bills))?)*\b", re.I)
#: An exclusion cue right before a list ("excluding", "except drafts", "but not the cancelled ones", "no drafts").
_EXCLUDING_BEFORE = re.compile(
    r"\b(?:excluding|exclude|excludes|excl\.?|except(?:\s+for)?|without|other\s+than|apart\s+from|aside\s+from|"
    r"but\s+not|not|no|minus|leaving\s+out|leave\s+out|ignoring|ignore|ex)\s+(?:the\s+|any\s+|all\s+)?"
    r"(?:(?:credit[- ]?notes?|credits|duplicates?)\s*(?:,|&|\band\b|\bor\b)\s*(?:the\s+|any\s+)?)*$", re.I)
#: An exclusion cue right after a list ("drafts excluded", "cancelled ones left out").
_EXCLUDED_AFTER = re.compile(r"^\s*(?:(?:are|were|being|to\s+be|is)\s+)?(?:excluded|left\s+out|removed|omitted|"
                             r"not\s+counted|not\s+included|ignored|set\s+aside|out)\b", re.I)
#: An inclusion cue right before a list ("including drafts and cancelled ones", "drafts too", "also the cancelled"):
#: the statuses are counted beside the others, never the only columns.
_INCLUDING_BEFORE = re.compile(r"\b(?:including|include|includes|incl\.?|inclusive\s+of|also|as\s+well\s+as|plus|"
                               r"even|together\s+with|along\s+with)\s+(?:the\s+|any\s+|all\s+)?$", re.I)
_INCLUDED_AFTER = re.compile(r"^\s*(?:(?:ones\s+)?(?:too|as\s+well|included)|also\s+(?:included|counted))\b", re.I)
#: A statement about some documents right before a status word ("some are still drafts", "a few of them were
#: cancelled"): a remark on the data the table shows, never a filter of its columns.
_REMARK_BEFORE = re.compile(r"\b(?:some|a\s+few|several|many|most|one|two|three|a\s+couple)(?:\s+of\s+(?:them|these|"
                            r"those|the\s+\w+))?\s+(?:are|were|is|was|might\s+be|may\s+be|could\s+be)\s+"
                            r"(?:still\s+|already\s+|probably\s+)?(?:in\s+)?(?:status\s+)?$", re.I)
_FILTER_STATUS = {"unpaid": "posted", "open": "posted", "outstanding": "posted", "draft": "draft", "drafts": "draft",
                  "posted": "posted", "paid": "paid", "settled": "paid", "cancelled": "cancelled",
                  "canceled": "cancelled", "voided": "cancelled", "void": "cancelled"}


def status_table(text: str, named: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The columns of a status table and the status words that cannot be placed in it.

    The statuses the question names ("unpaid invoices per status", "(posted and paid only)", ``named``: a status
    after the word "status") are the columns, none named is every status; the statuses an exclusion leaves out
    ("excluding paid", "except drafts", "drafts excluded") are removed from them, in :data:`STATUS_ORDER` order. A
    status no document has ("overdue", "approved") is returned to be asked about: the table cannot apply it, and
    answering without it would drop it silently.

    >>> status_table("unpaid invoices of in 2025 per status"), status_table("invoices by status, excluding paid")
    ((('posted',), ()), (('draft', 'posted', 'cancelled'), ()))
    >>> status_table("invoices by status (posted and paid only)"), status_table("overdue invoices per status")
    ((('posted', 'paid'), ()), (('draft', 'posted', 'paid', 'cancelled'), ('overdue',)))
    >>> status_table("invoices by status, including drafts and cancelled ones")
    (('draft', 'posted', 'paid', 'cancelled'), ())
    """
    included: set[str] = set(named)
    excluded: set[str] = set()
    # "by status, including drafts and cancelled ones": those beside every other status (never the only columns)
    added: set[str] = set()
    unplaced: list[str] = []
    for listed in _FILTER_LIST.finditer(text):
        if _REMARK_BEFORE.search(text[max(0, listed.start() - 40):listed.start()]):
            continue  # "I'm told some are still drafts": a remark on the documents, no column of the table
        out = bool(_EXCLUDING_BEFORE.search(text[max(0, listed.start() - 60):listed.start()])
                   or _EXCLUDED_AFTER.match(text[listed.end():]))
        also = not out and bool(_INCLUDING_BEFORE.search(text[max(0, listed.start() - 30):listed.start()])
                                or _INCLUDED_AFTER.match(text[listed.end():]))
        for word in re.finditer(_FILTER_WORD, listed.group(0), re.I):
            if word.group(1):
                unplaced.append(word.group(1))
                continue
            w = word.group(0).lower()
            status = "posted" if w.startswith("not") else _FILTER_STATUS[w]
            (excluded if out else added if also else included).add(status)
    if included:
        included |= added
    columns = tuple(s for s in STATUS_ORDER if (not included or s in included) and s not in excluded)
    return columns, tuple(dict.fromkeys(unplaced))


def unmapped_for_status_counts(parameters: dict[str, Any], statuses: tuple[str, ...], currency: str | None,
                               group_by: tuple[str, ...], grain: str | None) -> list[tuple[str, str]]:
    """The constraints the per-status table cannot take, as (reason, question) pairs."""
    out: list[tuple[str, str]] = []
    if group_by or grain:
        what = ", ".join([*(dimension_phrase(g) for g in group_by), *([grain] if grain else [])])
        out.append((f"breakdown: the count per status with a further breakdown ({what})",
                    f"I can count the documents per status, or break the count down by {what}, not both at once. "
                    "Which one do you want?"))
    if "cancelled" in statuses:
        cannot = [_PARAMETER_WORDS.get(k, k) for k in parameters if k not in (*_CANCELLED_TAKES, "invoice_statuses")]
        if cannot:
            out.append((f"status: cancelled documents cannot be counted with {', '.join(cannot)}",
                        "Cancelled documents can be counted by company, period, supplier, product group and "
                        f"document type, but not with {', '.join(cannot)}. Do you want the table without it, or "
                        "without the cancelled documents?"))
        if currency is None:
            out.append(("status: cancelled documents of companies with different reporting currencies",
                        "The companies report in different currencies; which company's cancelled documents do you "
                        "mean?"))
    return out


def status_count_steps(parameters: dict[str, Any], statuses: tuple[str, ...],
                       currency: str | None) -> tuple[PlanStep, ...]:
    """One governed count per status, and the completeness check."""
    steps = []
    for status in statuses:
        if status == "cancelled":
            params = {k: v for k, v in parameters.items() if k in _CANCELLED_TAKES}
            params |= {"invoice_statuses": ["cancelled"], **({"reporting_currency": currency} if currency else {})}
            metric, purpose = CANCELLED_METRIC, "cancelled documents (their document_count; never spend)"
        else:
            params = {**parameters, "invoice_statuses": [status]}
            metric, purpose = COUNT_METRIC, f"documents in status {status}"
        steps.append(PlanStep(step_id=f"{STEP_PREFIX}{status}", tool="metrics.query",
                              arguments={"metric": metric, "parameters": params, "group_by": [], "grain": None},
                              purpose=f"Governed count of the {purpose} ({metric})."))
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: every status was counted; zero documents is a count of 0."))
    return tuple(steps)


def dated(period_text: str) -> str:
    """"dated in 2025 [...]", "dated since 2025-01-01 [...]" (an open start reads "since", not "in since").

    >>> dated("2025 [2025-01-01, 2026-01-01)"), dated("since 2025-01-01 [2025-01-01, 2026-04-09)")[:20]
    ('dated in 2025 [2025-01-01, 2026-01-01)', 'dated since 2025-01-')
    """
    return f"dated {period_text}" if period_text.startswith(("since ", "up to ", "until ")) else \
        f"dated in {period_text}"


def has_status_counts(outcomes: Any) -> bool:
    return any(str(k).startswith(STEP_PREFIX) for k in outcomes)


_TYPES = {("invoice",): "invoices (credit notes not included)", ("credit_note",): "credit notes",
          ("invoice", "credit_note"): "documents (invoices and credit notes)"}


def compose_status_counts(d: _Draft) -> None:
    """The table of document counts per status with its total (the exact sum: one status per document)."""
    from router.tools import MetricToolResponse

    outcomes = d.run.outcomes
    counts: dict[str, int] = {}
    failed: list[str] = []
    params: dict[str, Any] = {}
    cancelled_value = ""
    for key, outcome in outcomes.items():
        if not str(key).startswith(STEP_PREFIX):
            continue
        word = str(key)[len(STEP_PREFIX):]
        m = outcome.output if outcome.status == "ok" else None
        if not isinstance(m, MetricToolResponse):
            failed.append(word)
            continue
        value = m.values.get("invoice_count" if word != "cancelled" else "document_count")
        counts[word] = int(value or 0)
        if word == "cancelled" and m.values.get("total_amount") is not None:
            cancelled_value = f"{m.values['total_amount']} {m.currency or ''}".strip()
        if word != "cancelled" or not params:
            params = dict(m.parameters)
        cite_lines(d, m.source_line_ids, f"invoice line of a counted {word} document")
    company = d.routing.entities.company_name or d.routing.entities.company_id
    if not company:
        company = "All companies of the tenant together"
    if not counts:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The counts per status could not be calculated; no figure is given." + d.failure_text
        return
    types = tuple(params.get("document_types") or ("invoice", "credit_note"))
    what = _TYPES.get(types, ", ".join(types))
    scope = f" from {', '.join(params['supplier_ids'])}" if params.get("supplier_ids") else ""
    order = [s for s in STATUS_ORDER if s in counts]
    total = sum(counts.values())
    rows = "; ".join(f"{s}: {counts[s]}" for s in order)
    text = (f"{company}: number of {what}{scope} {dated(d.period_text)} per status (each document counted once, "
            f"in its current version; replicated duplicates excluded): {rows}; total: {total} documents.")
    if any(s in counts for s in ("draft", "cancelled")):
        text += (" Drafts and cancelled documents are counted here as documents, but they are never spend (governed "
                 "spend counts posted and paid invoices only).")
    if cancelled_value and counts.get("cancelled"):
        text += (f" The cancelled documents are worth {cancelled_value} as invoiced (net + tax, converted at the "
                 "corporate rate on each posting date; credit notes negative).")
    status: AnswerStatus = "answered"
    result: dict[str, Any] = {"status": "complete", "metrics": [COUNT_METRIC, CANCELLED_METRIC],
                              "by_status": [{"invoice_status": s, "document_count": counts[s]} for s in order],
                              "total_document_count": total, "document_types": list(types)}
    if failed:
        status, result["status"] = "partial", "partial"
        text = (f"PARTIAL RESULT: the count of status {', '.join(failed)} failed, so the total covers only the "
                f"statuses shown. {text}{d.failure_text}")
        result["missing_statuses"] = failed
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    d.status, d.text, d.result = status, text, result
    d.inputs = {"metrics": [COUNT_METRIC, CANCELLED_METRIC], "parameters": params}


__all__ = ["STATUS_ORDER", "compose_status_counts", "dated", "has_status_counts", "status_breakdown",
           "status_count_steps", "status_table", "unmapped_for_status_counts"]
