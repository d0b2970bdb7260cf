"""An open (posted, not yet paid) total read both ways when the question does not say which.

"Unpaid invoice total for Kestrel in Q4" is read by some as the posted invoices alone and by others with the posted
credit notes netted in (as governed spend counts them). Neither reading is wrong, and the figures differ whenever
a posted credit note falls in the scope; picking one silently presents a different figure as complete. So an open
total whose question names no document type ("invoices only", "incl. credit notes", "net of credit notes") keeps
the governed figure (credit notes netted in) and adds the invoices-only figure from the same governed metric,
each labelled with its reading.

:func:`with_invoices_only_step` adds the invoices-only call to the plan: the governed spend step's own parameters
plus ``document_types`` [invoice], as a second typed step the executor runs like any other (traced, audited, under
row-level security), so no parameter is rebuilt from an answer and no filter can be lost on the way.
:func:`both_readings` words the two outcomes (router/answer.py calls it), :func:`with_invoices_only` writes both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from router.contract import PlanStep
from router.outcome_words import did_not_run

if TYPE_CHECKING:
    from router.executor import StepOutcome

SPEND_METRIC = "finance.company_spend"
#: The governed spend step a spend plan computes its total in, and the second reading's step beside it.
SPEND_STEP = "calculate-spend"
INVOICES_ONLY_STEP = "calculate-invoices-only"
#: Any word that already says which documents count: the reader took it (a filter or the default), nothing to add.
_DOCUMENT_WORDS = re.compile(
    r"credit[- ]?(?:notes?|memos?)|gutschrift|\bCNs?\b|invoices?\s+only|only\s+invoices?|rechnungen\s+only|"
    r"nur\s+rechnungen|\bnet(?:ted)?\s+(?:of|in)\b|\bnetted\b|\bgross\s+of\b", re.I)


def _names_documents(question: str) -> bool:
    """Whether the question says which documents count. "unpaid invoices only" restricts the status, not the
    document type (as router/analysis.py's document_type_scope reads it): no answer to which documents count."""
    return any(not (re.match(r"invoices?\s+only", m.group(0), re.I)
                    and re.search(r"\b(?:paid|unpaid|posted|open|outstanding|settled)\s*$", question[:m.start()], re.I))
               for m in _DOCUMENT_WORDS.finditer(question))


def scope_invoices_only_step(question: str, filters: Mapping[str, object]) -> PlanStep | None:
    """The invoices-only call beside an open total of several companies together (router/routing.py's scope
    steps: one governed spend call over the companies, ``filters`` its parameters), or ``None`` when the figure is
    no open total or the question says which documents count. Same rule as :func:`invoices_only_step`."""
    statuses = filters.get("invoice_statuses")
    if _names_documents(question) or not isinstance(statuses, list) or statuses != ["posted"] \
            or filters.get("document_types"):
        return None
    return PlanStep(
        step_id=INVOICES_ONLY_STEP, tool="metrics.query",
        arguments={"metric": SPEND_METRIC, "parameters": {**filters, "document_types": ["invoice"]},
                   "group_by": [], "grain": None},
        purpose="The same open total of the companies invoices only (credit notes left out): the question does "
                "not say which documents count (finance.company_spend with document_types [invoice]).")


def invoices_only_step(question: str, steps: Sequence[PlanStep]) -> PlanStep | None:
    """The invoices-only call of an open total whose document types the question leaves open, or ``None``.

    An open total is the governed company spend over posted invoices only, one figure (no breakdown): a breakdown
    carries more figures than the one read both ways.

    >>> spend = PlanStep(step_id="calculate-spend", tool=SPEND_METRIC, arguments={"company_id": "COMP-K",
    ...     "start_date": "2025-10-01", "end_date": "2026-01-01", "invoice_statuses": ["posted"],
    ...     "reporting_currency": "EUR"})
    >>> invoices_only_step("unpaid total Kestrel Q4 2025", [spend]).arguments["parameters"]["document_types"]
    ['invoice']
    >>> invoices_only_step("open amount Kestrel Q4 2025, invoices only", [spend]) is None
    True
    >>> invoices_only_step("unpaid invoices only, Kestrel Q4 2025", [spend]) is None  # the status, not the type
    False
    """
    spend = next((s for s in steps if s.step_id == SPEND_STEP), None)
    if spend is None or spend.tool != SPEND_METRIC or _names_documents(question):
        return None
    arguments = spend.arguments
    if list(arguments.get("invoice_statuses") or []) != ["posted"] or arguments.get("document_types") \
            or arguments.get("group_by") or arguments.get("grain"):
        return None
    parameters = {k: v for k, v in arguments.items() if k not in ("group_by", "grain") and v not in (None, [], ())}
    return PlanStep(
        step_id=INVOICES_ONLY_STEP, tool="metrics.query", depends_on=(*spend.depends_on, spend.step_id),
        arguments={"metric": SPEND_METRIC, "parameters": {**parameters, "document_types": ["invoice"]},
                   "group_by": [], "grain": None},
        purpose="The same open total invoices only (credit notes left out): the question does not say which "
                "documents count (finance.company_spend with document_types [invoice]).")


def with_invoices_only_step(question: str, steps: Sequence[PlanStep]) -> list[PlanStep]:
    """``steps`` with :func:`invoices_only_step` right after the spend step, when the plan has an open total."""
    second = invoices_only_step(question, steps)
    if second is None:
        return list(steps)
    at = next(i for i, s in enumerate(steps) if s.step_id == SPEND_STEP) + 1
    return [*steps[:at], second, *steps[at:]]


def both_readings(text: str, result: Mapping[str, Any],
                  outcome: StepOutcome | None) -> tuple[str, dict[str, Any]] | None:
    """The answer's text and result with the invoices-only reading of ``outcome`` (the second step) added, or
    ``None`` when the plan has no second reading or both readings give the same figure."""
    if outcome is None or result.get("total_spend") is None:
        return None
    total, lines = str(result["total_spend"]), int(result.get("matched_line_count") or 0)
    currency = str(result.get("currency") or "")
    values = getattr(outcome.output, "values", None) if outcome.status == "ok" else None
    if values is None:
        # the governed figure stands; the reading that did not run is said, never left out silently
        note = (" An open (unpaid) total can be read two ways and the question does not say which: the figure "
                "above nets the posted credit notes in; "
                + did_not_run("the invoices-only reading (credit notes left out)", outcome) + ".")
        return _before_sources(text, note), {**result, "invoices_only": {
            "status": outcome.status, "document_types": ["invoice"],
            "reading": "invoices only (credit notes left out)"}}
    invoices_total = values.get("total_spend")
    if invoices_total is None:
        # every posted line in scope is a credit note: the invoices-only reading has no data (not a zero)
        note = (f" An open (unpaid) total can be read two ways and the question does not say which: with the posted "
                f"credit notes netted in (the figure above: {total} {currency}, {lines} lines), or invoices only "
                f"(credit notes left out): no posted invoice line matched (no data, not a zero).")
        return _before_sources(text, note), {**result, "invoices_only": {
            "total_spend": None, "matched_line_count": 0, "document_types": ["invoice"],
            "reading": "invoices only (credit notes left out)"}}
    added = with_invoices_only(text, total, lines, currency, str(invoices_total),
                               int(getattr(outcome.output, "matched_line_count", 0) or 0))
    if added is None:
        return None
    merged, reading = added
    return merged, {**result, "invoices_only": reading}


def _before_sources(text: str, note: str) -> str:
    sources = text.find(" Sources:")
    return text[:sources] + note + text[sources:] if sources >= 0 else text + note


def with_invoices_only(text: str, total: str, lines: int, currency: str, invoices_total: str,
                       invoice_lines: int) -> tuple[str, dict[str, Any]] | None:
    """``text`` with the invoices-only reading added (``None`` when both readings give the same figure)."""
    if invoices_total == total and invoice_lines == lines:
        return None
    note = (f" An open (unpaid) total can be read two ways and the question does not say which: with the posted "
            f"credit notes netted in (the figure above: {total} {currency}, {lines} lines), or invoices only "
            f"(credit notes left out): {invoices_total} {currency} over {invoice_lines} invoice lines.")
    return _before_sources(text, note), {"total_spend": invoices_total, "matched_line_count": invoice_lines,
                                         "document_types": ["invoice"],
                                         "reading": "invoices only (credit notes left out)"}


__all__ = ["INVOICES_ONLY_STEP", "SPEND_METRIC", "both_readings", "invoices_only_step",
           "scope_invoices_only_step", "with_invoices_only", "with_invoices_only_step"]
