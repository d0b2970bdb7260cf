"""Invoices counted in one invoice currency: "how many invoices did Kestrel receive in CHF in 2025?".

``finance.invoice_count`` takes no invoice currency, so a count that dropped "in CHF" would count every invoice (a
silently wrong figure). The governed invoice listing (``finance.invoices_above_threshold`` at 0.00, inclusive)
does take it (``document_currency``): each counted (posted/paid) invoice of the company dated in the period, once.
Its number of rows is the count, each invoice named beside it; :func:`listing_question` writes the count as that
listing ("list the invoices billed in CHF of COMP-K from 2025-01-01 to 2025-12-31"), by ids and ISO dates so
that nothing is read twice.

A count the listing cannot carry (credit notes, a status table, a grouping, an exclusion, a product group or
product, statuses other than posted and paid, every company together) is asked about (:func:`unlisted_reason`),
never counted without the currency.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

#: The count's parameters the listing has no equivalent for.
_NOT_LISTED = ("exclude_supplier_ids", "product_group_ids", "exclude_product_group_ids", "product_codes",
               "exclude_product_codes")


def unlisted_reason(params: dict[str, Any], group_by: tuple[str, ...], by_status: tuple[str, ...]) -> str | None:
    """What keeps a count in one invoice currency from being the listing's number of rows, or ``None``."""
    if tuple(params.get("document_types") or ()) != ("invoice",):
        return "credit notes counted"
    if by_status or group_by:
        return "a count per status or grouping"
    if any(params.get(p) for p in _NOT_LISTED):
        return "an exclusion, product group or product"
    if sorted(params.get("invoice_statuses") or ()) != ["paid", "posted"]:
        return "statuses other than posted and paid"
    if not params.get("company_id"):
        return "no single company"
    return None


def listing_question(currency: str, params: dict[str, Any]) -> str:
    """The listing whose rows are the invoices the count in ``currency`` counts.

    >>> listing_question("CHF", {"company_id": "COMP-K", "start_date": "2025-01-01", "end_date": "2026-01-01",
    ...                          "supplier_ids": ["SUP-18"]})
    'list the invoices billed in CHF of COMP-K from SUP-18 from 2025-01-01 to 2025-12-31'
    """
    last = dt.date.fromisoformat(params["end_date"]) - dt.timedelta(days=1)  # "to" names the last day
    suppliers = " and ".join(params.get("supplier_ids") or ())
    return (f"list the invoices billed in {currency} of {params['company_id']}"
            f"{f' from {suppliers}' if suppliers else ''} from {params['start_date']} to {last.isoformat()}")


def currency_count_question(currency: str, why: str) -> str:
    """The clarification for a count in one invoice currency the listing cannot carry."""
    return (f"I can count the invoices billed in {currency} of one company (posted and paid invoices, listed one "
            f"by one), but not with {why}; the invoice count itself takes no invoice currency. Do you want that "
            "count, or the count over every invoice currency?")
