"""An open (posted, not yet paid) total read both ways when the question does not say which.

"Unpaid invoice total for Kestrel in Q4" is read by some as the posted invoices alone and by others with the posted
credit notes netted in (as governed spend counts them). Neither reading is wrong, and the figures differ whenever
a posted credit note falls in the scope; picking one silently presents a different figure as complete. So an open
total whose question names no document type ("invoices only", "incl. credit notes", "net of credit notes") keeps
the governed figure (credit notes netted in) and adds the invoices-only figure from the same governed metric,
each labelled with its reading.

:func:`open_params` decides whether an answer is such a total and rebuilds the metric's parameters from its
inputs; the caller (router/service.py) re-runs the metric with them, checks that the rebuilt call reproduces the
answer (otherwise a filter was not carried over and nothing is added), then calls it invoices only and
:func:`with_invoices_only` writes both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

SPEND_METRIC = "finance.company_spend"
#: Any word that already says which documents count: the reader took it (a filter or the default), nothing to add.
_DOCUMENT_WORDS = re.compile(
    r"credit[- ]?(?:notes?|memos?)|gutschrift|\bCNs?\b|invoices?\s+only|only\s+invoices?|rechnungen\s+only|"
    r"nur\s+rechnungen|\bnet(?:ted)?\s+(?:of|in)\b|\bnetted\b|\bgross\s+of\b", re.I)
#: The parameters of the governed spend metric an answer's inputs carry (the rest are the answer's own).
_CARRIED = ("company_id", "start_date", "end_date", "supplier_ids", "product_codes", "product_group_ids",
            "exclude_supplier_ids", "exclude_product_group_ids", "exclude_product_codes", "document_currencies",
            "exclude_document_currencies", "invoice_statuses", "reporting_currency")


def open_params(question: str, status: str, inputs: Mapping[str, Any],
                result: Mapping[str, Any]) -> dict[str, Any] | None:
    """The governed spend parameters of an open total whose document types the question leaves open, or ``None``.

    >>> open_params("unpaid total Kestrel Q4 2025", "answered", {"metric": SPEND_METRIC, "company_id": "COMP-K",
    ...     "start_date": "2025-10-01", "end_date": "2026-01-01", "invoice_statuses": ["posted"],
    ...     "reporting_currency": "EUR", "supplier_ids": []}, {"total_spend": "1.00"})["company_id"]
    'COMP-K'
    >>> open_params("unpaid invoices only, Kestrel Q4 2025", "answered", {"metric": SPEND_METRIC,
    ...     "invoice_statuses": ["posted"]}, {"total_spend": "1.00"}) is None
    True
    """
    if status != "answered" or inputs.get("metric") != SPEND_METRIC or _DOCUMENT_WORDS.search(question):
        return None
    if list(inputs.get("invoice_statuses") or []) != ["posted"] or inputs.get("document_types"):
        return None
    # one total only: a breakdown, ranking or share carries more figures than the one re-run here
    if not result.get("total_spend") or any(k in result for k in ("breakdown", "by_supplier", "items", "share")):
        return None
    params = {k: inputs[k] for k in _CARRIED if inputs.get(k) not in (None, [], ())}
    if not {"company_id", "start_date", "end_date"} <= params.keys():
        return None
    return params


def with_invoices_only(text: str, total: str, lines: int, currency: str, invoices_total: str,
                       invoice_lines: int) -> tuple[str, dict[str, Any]] | None:
    """``text`` with the invoices-only reading added (``None`` when both readings give the same figure)."""
    if invoices_total == total and invoice_lines == lines:
        return None
    note = (f" An open (unpaid) total can be read two ways and the question does not say which: with the posted "
            f"credit notes netted in (the figure above: {total} {currency}, {lines} lines), or invoices only "
            f"(credit notes left out): {invoices_total} {currency} over {invoice_lines} invoice lines.")
    sources = text.find(" Sources:")
    merged = text[:sources] + note + text[sources:] if sources >= 0 else text + note
    return merged, {"total_spend": invoices_total, "matched_line_count": invoice_lines,
                    "document_types": ["invoice"], "reading": "invoices only (credit notes left out)"}


__all__ = ["open_params", "with_invoices_only"]
