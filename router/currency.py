"""The currency a figure is asked in, read against the company's reporting currency.

:func:`router.analysis.parse_currency_scope` reads "in USD" (the currency a figure is asked in) and "non-EUR" /
"foreign-currency" (the invoices of every currency but one) without knowing the company. Here they meet its
reporting currency:

* "spend in USD" where the company reports in EUR: a conversion of the whole spend into USD is no governed figure,
  while the invoices issued in USD are (``finance.document_currency_spend`` with ``document_currency`` USD, as
  invoiced and beside the same lines in EUR). The question is read as that figure and the answer says so, instead
  of a clarification about a conversion nobody can give. "in EUR" (the reporting currency) stays the reporting
  figure;
* "foreign-currency invoices", "non-EUR invoices": every invoice currency but the named one (none named: the
  reporting currency), one row per currency, never added across currencies.
"""

from __future__ import annotations

from dataclasses import replace

from router.entities import Gazetteer
from router.reader import Reading


def currency_reading(reading: Reading, gazetteer: Gazetteer) -> Reading:
    """``reading`` with "in <currency>" and "foreign currency" resolved against the named company's reporting
    currency (unchanged without a company: the router asks for it first)."""
    analysis = reading.analysis
    if analysis.named_currency is None and analysis.excluded_currency != "":
        return reading
    company = gazetteer.company(reading.entities.company_id) if reading.entities.company_id else None
    reporting = company.reporting_currency if company else None
    if reporting is None:
        return reading
    if analysis.excluded_currency == "":
        analysis = replace(analysis, excluded_currency=reporting, original_currency=True)
    named = analysis.named_currency
    if named and named != reporting and analysis.document_currency is None:
        analysis = replace(analysis, original_currency=True, document_currency=named)
    return replace(reading, analysis=analysis)


__all__ = ["currency_reading"]
