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
  reporting currency), one row per currency, never added across currencies;
* the invoice currencies and the reporting currency side by side ("in the original invoice currency and in EUR",
  "show GBP and EUR", "as billed, and converted to EUR", "per invoice currency (GBP, CHF, EUR amounts) plus EUR
  total", "invoice currency amounts vs reporting currency", "by invoice currency (in EUR)"): every invoice
  currency's row with the reporting total beside it. The reporting currency named there is no filter to its
  invoices (a silent "no data" or a partial figure), nor is "vs" a comparison of periods.
"""

from __future__ import annotations

import re
from dataclasses import replace

from router.analysis import _WHICH_CURRENCY
from router.currency_lists import CODE as _CODE
from router.currency_lists import CODE_LIST as _CODE_LIST
from router.currency_lists import CODES as _CODES
from router.currency_lists import ISSUED as _ISSUED
from router.currency_lists import NATIVE_LABEL as _NATIVE_LABEL
from router.currency_lists import example_spans, list_codes
from router.entities import Gazetteer
from router.reader import Reading
from router.reading import currency_code

#: The reporting currency asked for beside the invoice currencies (``{r}``: its code).
_BESIDE = (r"\b(?:converted|conversion|translated)\s+(?:to|into|in)\s+(?:the\s+)?(?:{r}|reporting[- ]currency)\b|"
           r"(?:\b(?:and|plus|vs\.?|versus|against|beside|alongside|as\s+well\s+as|with|und)\s+|\s*[+&/]\s*)(?:also\s+)?(?:the\s+|in\s+)?"
           r"(?:{r}|reporting[- ]currency)\b|\b{r}\s+(?:total|totals|equivalents?|sum)\b|\(\s*in\s+{r}\s*\)|"
           r"\bin\s+{r}\s*$|\breporting[- ]currency\b")
_VERSUS = re.compile(r"\b(?:vs\.?|versus|against|compared\s+(?:to|with))\s+(?:the\s+)?"
                     r"(?:[A-Z]{3}|reporting[- ]currency)\b", re.I)
#: Invoices issued in one currency ("invoices in GBP", "GBP invoices"): a filter, kept.
_ISSUED_IN = re.compile(rf"\b(?:invoiced|billed|denominated|issued)\s+in\s+(?P<a>{_CODES})\b|(?<![A-Za-z])(?P<b>"
                        rf"{_CODES})[- ](?:denominated\s+)?(?:invoices|invoiced|billed)\b|\binvoices\s+in\s+(?P<c>"
                        rf"{_CODES})\b", re.I)


#: A share asked with a share word: "how much of X was invoiced in GBP" is an amount without one.
_SHARE_WORD = re.compile(r"\b(?:share|shares|percentage|percent|per cent|proportion|fraction|portion|part|slice|"
                         r"Anteil|Prozent)\b|%", re.I)


def issued_currencies(text: str) -> set[str]:
    """The currencies the question names invoices as issued in ("CHF-invoiced", "billed in pounds")."""
    found = {currency_code(m.group("code")) for pattern in _ISSUED for m in pattern.finditer(text)}
    return {c for c in found if c}


def share_asked(text: str) -> bool:
    """Whether a share word asks for a part of the spend ("what fraction", "Anteil", "%")."""
    return _SHARE_WORD.search(text) is not None


def named_currency_set(text: str, reporting: str) -> tuple[str, ...]:
    """The invoice currencies listed together ("GBP and USD", "USD/GBP", "CHF, GBP and USD"), in the order named:
    two or more, none of them the reporting currency (listed with it, the reporting currency is the amounts' total
    beside every invoice currency, read by :func:`_side_by_side`); empty otherwise."""
    for m in _CODE_LIST.finditer(text):
        codes = list_codes(m.group(0))
        if len(codes) >= 2 and reporting not in codes:
            return codes
    return ()


def _side_by_side(reading: Reading, reporting: str) -> bool:
    """Whether the question asks for the invoice currencies with the reporting currency beside them."""
    text = reading.cue_text
    analysis = reading.analysis
    issued = {(m.group("a") or m.group("b") or m.group("c")).upper() for m in _ISSUED_IN.finditer(text)}
    codes = {c.upper() for c in _CODE.findall(text)}
    listed = any(reporting in list_codes(m.group(0)) for m in _CODE_LIST.finditer(text))
    if issued and not listed:
        return False  # the invoices of one currency (their reporting equivalent is beside them anyway)
    beside = re.search(_BESIDE.format(r=reporting), text, re.I) is not None
    if analysis.original_currency:
        return (analysis.document_currency in (None, reporting) and (beside or listed or len(codes) > 1)) or \
            (len(codes) > 1 and listed)
    return listed and len(codes) > 1


#: The spend of each invoice currency asked as a mix ("currency mix", "amounts in each currency", "split by
#: currency"): every currency's row as invoiced, with the reporting total beside them.
_MIX = re.compile(r"\b(?:currency|ccy|fx)\s+(?:mix|split|breakdown|composition)\b|"
                  r"\bmix\s+of\s+(?:invoice\s+)?currencies\b|"
                  r"\b(?:in|for)\s+each\s+(?:invoice\s+)?currency\b|\bW(?:ä|ae)hrungsmix\b|"
                  # "totals per currency", "which currency do they bill in", "currency + amounts": every invoice
                  # currency's row; a currency named beside it ("bills us in GBP? totals per currency") is one
                  # of the rows asked about, not a filter (a silent one-row answer that drops the EUR row)
                  r"\b(?:totals?|amounts?|spend|sums?)\s+(?:per|by|for\s+each|in\s+each)\s+(?:invoice\s+)?"
                  r"(?:currenc(?:y|ies)|ccys?)\b|" + _WHICH_CURRENCY + r"|"
                  r"\b(?:currenc(?:y|ies)|ccys?)\s*(?:\+|&|/|,|\band\b|\bplus\b)\s*(?:the\s+|their\s+)?"
                  r"(?:amounts?|totals?|figures?)\b|\b(?:amounts?|totals?)\s*(?:\+|&|/|,|\band\b|\bplus\b)\s*"
                  r"(?:the\s+|their\s+)?(?:currenc(?:y|ies)|ccys?)\b", re.I)


def currency_reading(reading: Reading, gazetteer: Gazetteer) -> Reading:
    """``reading`` with "in <currency>" and "foreign currency" resolved against the named company's reporting
    currency (unchanged without a company: the router asks for it first)."""
    analysis = reading.analysis
    # "GBP, CHF etc", "quid vs euros vs anything else", "e.g. GBP/USD": the currencies named are examples of the
    # rows, every invoice currency is asked (a filter to the listed ones is a silent partial answer)
    listed = example_spans(reading.cue_text)
    examples = bool(listed)
    mix = (_MIX.search(reading.cue_text) is not None or examples) and not share_asked(reading.cue_text) \
        and not analysis.ranking
    if mix and examples:
        # ("quid vs euros vs anything else": the "vs" between the currencies, no comparison of periods)
        kept = tuple(w for w in analysis.compare_words if not any(s <= w[0] and w[1] <= e for s, e in listed))
        comparison = analysis.comparison if kept or (analysis.comparison is not None
                                                     and analysis.comparison.base is not None) else None
        analysis = replace(analysis, comparison=comparison, compare_words=kept)
    if mix:
        # "currency mix (amounts in each currency + total in EUR)": the rows of every invoice currency; the
        # reporting currency named with them is the total's, no filter
        analysis = replace(analysis, original_currency=True, document_currency=None, named_currency=None,
                           excluded_currency=analysis.excluded_currency or None)
        reading = replace(reading, analysis=analysis, currencies=())
    if (analysis.named_currency is None and analysis.excluded_currency != "" and not analysis.original_currency
            and not _CODE_LIST.search(reading.cue_text) and not issued_currencies(reading.cue_text)):
        return reading
    company = gazetteer.company(reading.entities.company_id) if reading.entities.company_id else None
    # no company named: the figure is the tenant's companies', whose one reporting currency is the one asked in
    shared = {c.reporting_currency for c in gazetteer.companies}
    reporting = company.reporting_currency if company else (shared.pop() if len(shared) == 1 else None)
    if reporting is None:
        return reading
    codes = () if examples else named_currency_set(reading.cue_text, reporting)
    grouped = mix or "currency" in reading.breakdown.group_by
    if codes and grouped and _NATIVE_LABEL.search(reading.cue_text) and not issued_currencies(reading.cue_text):
        # "ccy breakdown (GBP/CHF/USD native, total EUR)": the codes label the native amounts of every invoice
        # currency's row beside the reporting total, no filter (a silent answer without the EUR invoices)
        codes = ()
        reading = replace(reading, currencies=tuple(c for c in reading.currencies if c == reporting))
        if not mix:
            analysis = replace(analysis, original_currency=True, document_currency=None, named_currency=None)
            reading = replace(reading, analysis=analysis)
    if codes and analysis.excluded_currency is None and not analysis.ranking:
        # "GBP and USD invoices", "in CHF, GBP and USD": only the currencies named, each as invoiced with the
        # reporting amounts beside it (their reporting total too), never one of them nor every currency
        share = analysis.share and share_asked(reading.cue_text)
        analysis = replace(analysis, original_currency=True, document_currency=None, document_currencies=codes,
                           named_currency=None, share=share)
        return replace(reading, analysis=analysis,
                       currencies=tuple(c for c in reading.currencies if c not in (*codes, reporting)))
    listed_all = [set(list_codes(m.group(0))) for m in _CODE_LIST.finditer(reading.cue_text)]
    if "currency" in reading.breakdown.group_by and any(reporting in c and len(c) > 1 for c in listed_all):
        # "split by currency - quid, francs, euros": the currencies listed with the reporting one name the rows
        # of the breakdown, no filter (every invoice currency's row, the reporting total beside them)
        analysis = replace(analysis, original_currency=True, document_currency=None, named_currency=None,
                           document_currencies=())
        return replace(reading, analysis=analysis, currencies=())
    if "currency" in reading.breakdown.group_by and analysis.document_currency == reporting:
        # "EUR spend by invoice currency": the reporting currency names the amounts of each invoice currency's
        # row, not a filter to the EUR invoices (a silent one-row answer)
        analysis = replace(analysis, original_currency=True, document_currency=None, named_currency=None)
        return replace(reading, analysis=analysis, currencies=())
    issued = issued_currencies(reading.cue_text)
    if len(issued) == 1 and analysis.excluded_currency is None and not analysis.ranking and not mix:
        (code,) = issued
        listed = [c for m in _CODE_LIST.finditer(reading.cue_text) for c in list_codes(m.group(0))]
        if not set(listed) - {code, reporting}:
            # one currency's invoices, with the reporting currency beside them whatever else is said of it
            share = analysis.share and share_asked(reading.cue_text)
            analysis = replace(analysis, original_currency=True, document_currency=code, named_currency=None,
                               share=share)
            return replace(reading, analysis=analysis,
                           currencies=tuple(c for c in reading.currencies if c not in (code, reporting)))
    if _side_by_side(reading, reporting):
        # every invoice currency's row and the reporting total beside them (router/planner.py)
        comparison = analysis.comparison
        drop_compare = _VERSUS.search(reading.cue_text) is not None and (comparison is None or comparison.base is None)
        # "non-EUR spend by currency, originals and EUR": the currency left out stays out of rows and total
        excluded = reporting if analysis.excluded_currency == "" else analysis.excluded_currency
        analysis = replace(analysis, original_currency=True, document_currency=None, named_currency=None,
                           excluded_currency=excluded)
        if drop_compare:
            analysis = replace(analysis, comparison=None, compare_words=())
        return replace(reading, analysis=analysis, currencies=())
    if analysis.excluded_currency == "":
        analysis = replace(analysis, excluded_currency=reporting, original_currency=True)
    named = analysis.named_currency
    if named and named != reporting and analysis.document_currency is None and not mix:
        analysis = replace(analysis, original_currency=True, document_currency=named)
    return replace(reading, analysis=analysis)


__all__ = ["currency_reading", "issued_currencies", "named_currency_set", "share_asked"]
