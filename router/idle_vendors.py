"""Approved vendors without spend in a period ("dormant vendors", "which approved vendors had no recognised spend
in Q1", "did every approved vendor have spend? name those that had none").

The answer is a list of suppliers: the company's approved vendors (approvals overlapping the period, in the
agreement versions in force on the as-of date; narrowed to the catalogue suppliers of a named product group) that
have no counted invoice line (posted or paid, cancelled and duplicates never count) in the period. It is derived
from two governed calls the spend-with-approved-vendors plan already makes: ``graph.find_approved_vendors`` gives
the set and ``finance.aggregate_spend`` over that set says which of them have lines (``missing_supplier_ids``:
requested, no line). An empty list ("every approved vendor had spend") is a real answer, said as such, never "no
data"; the question is routed as that plan, so a company or period left out is asked for exactly as there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from router.negation_scope import WITHOUT_ANY
from router.reader import Reading

#: What says the approved vendors *without* spend are asked for: "without spend", "had no (recognised) spend",
#: "did not invoice anything (we recognised)", "name those that had none", "dormant / idle / inactive vendors".
_IDLE = re.compile(
    r"\b(?:without|with\s+no|had\s+no|have\s+no|has\s+no|having\s+no|no)\s+(?:(?:recogni[sz]ed|counted|posted|"
    r"booked|actual|any)\s+)*(?:spend|spending|invoices?|invoicing|purchases|transactions|activity)\b"
    # "approved vendors with zero spend", "zero invoices", "0 spend": the same list (no counted line)
    r"|\b(?:with\s+|had\s+|have\s+|has\s+|having\s+)?(?:zero|nil|0)\s+(?:(?:recogni[sz]ed|counted|posted|booked|"
    r"actual)\s+)*(?:spend|spending|invoices|purchases|transactions|activity)\b"
    # ("did not buy from": no counted purchase from the vendor, the same list)
    r"|\b(?:did\s+not|didn['’]?t|never|do\s+not|don['’]?t|does\s+not|doesn['’]?t)\s+(?:invoice|bill|buy|bought|"
    r"purchas|order)\w*(?:\s+from)?(?:\s+(?:us\s+)?(?:anything|at\s+all))?(?:\s+(?:that\s+)?we\s+recogni[sz]ed)?"
    r"(?:\s+in\s+(?:that|the\s+same|this)\s+(?:quarter|month|period|year))?"
    r"|\b(?:name|list|show)\s+(?:those|the\s+ones|them|any)\s+(?:that|which|who)\s+(?:had|have|has)\s+none\b"
    r"|\b(?:dormant|idle|inactive|unused)(?:[- ](?:vendors?|suppliers?))?(?:[- ](?:review|check|list))?\b"
    # the negation of any writer before the spend noun a reader wrote in English ("sin ninguna compra" read as
    # "excluding ninguna spend", "sem nenhuma fatura", "sans aucun achat"): router/negation_scope.py
    rf"|{WITHOUT_ANY}(?:spend|spending|invoices?|purchases|transactions|activity)\b",
    re.I,
)
_APPROVED = re.compile(r"\bapproved\b", re.I)
#: "Did every approved vendor have spend?": the yes/no form of the same list (the names follow "name those").
_EVERY_HAD = re.compile(r"\b(?:did|do|does|has|have)\s+(?:every|each|all)\b[^?.;]{0,80}?\b(?:have|had)\s+"
                        r"(?:any\s+)?(?:spend|invoices?|purchases)\b", re.I)


def idle_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the words asking for approved vendors without spend (empty when none)."""
    if _APPROVED.search(text) is None:
        return ()
    spans = [m.span() for m in _IDLE.finditer(text)]
    if spans:
        spans.extend(m.span() for m in _EVERY_HAD.finditer(text))
    return tuple(spans)


#: The statuses every governed spend figure counts (a reading naming only these narrows nothing).
_DEFAULT_STATUSES = frozenset({"posted", "paid"})


def idle_narrowing(reading: Reading) -> tuple[str, ...]:
    """What the question narrows the spend by that the approved vendors' spend plan does not carry (a status, an
    amount, a currency, a product or company left out, an analysis filter), each named as read; empty when none.
    Only meaningful for a question :func:`idle_spans` finds."""
    a = reading.analysis
    named: list[str] = []
    statuses = tuple(dict.fromkeys((*(reading.statuses if frozenset(reading.statuses) != _DEFAULT_STATUSES else ()),
                                    *reading.asked_statuses, *(a.statuses or ()),
                                    *((reading.excluded_status,) if reading.excluded_status else ()))))
    if statuses:
        named.append(f"invoice status ({', '.join(statuses)})")
    if reading.amounts:
        named.append(f"amount ({', '.join(m.text for m in reading.amounts)})")
    currencies = tuple(dict.fromkeys((*reading.currencies, *a.document_currencies,
                                      *((a.document_currency,) if a.document_currency else ()),
                                      *((a.named_currency,) if a.named_currency else ()))))
    if currencies or a.original_currency or a.excluded_currency is not None:
        named.append(f"currency ({', '.join(currencies) or 'invoice currency'})")
    if reading.excluded_product_codes:
        named.append(f"products left out ({', '.join(reading.excluded_product_codes)})")
    if reading.excluded_company_ids:
        named.append(f"companies left out ({', '.join(reading.excluded_company_ids)})")
    if a.document_types is not None:
        named.append(f"document type ({', '.join(a.document_types)})")
    if a.average_price or a.price_by_supplier:
        named.append("unit price")
    return tuple(named)


def idle_clarification(company: str | None, narrowing: Sequence[str]) -> str:
    """The question asked when the approved vendors without spend are narrowed by what the list cannot carry."""
    who = f" of {company}" if company else ""
    return (f"I can list the approved vendors{who} with no counted spend in a period (posted and paid invoice "
            f"lines, any currency and amount); narrowed by {'; '.join(narrowing)} it is not a governed list, and "
            "answering without it would answer another question. Do you want the list without that narrowing?")


def idle_question(reading: Reading) -> str | None:
    """The question as the approved vendors' spend it is derived from ("What did Company C spend with approved
    vendors in Q1 2026?"), or ``None`` when it is no such question or has anything else to read (a named
    supplier, a ranking, a comparison, a word not understood outside the cue: the original path answers or asks)."""
    spans = idle_spans(reading.text)
    if not spans:
        return None
    e, a, period = reading.entities, reading.analysis, reading.period
    outside = [u for u in reading.not_understood if not any(s <= u.start and u.end <= t for s, t in spans)]
    if (e.supplier_ids or e.product_codes or a.ranking or a.comparison or a.share or outside
            or reading.excluded_supplier_ids or reading.excluded_group_ids):
        return None
    if idle_narrowing(reading):
        # the rebuilt question keeps company, group and period only: a status, amount, currency or product
        # narrowing would be dropped and the list answered over all counted lines (silently wider)
        return None
    if period.ambiguous or period.time_range is None or not period.time_range.source_text.strip():
        return None
    company = e.company_name or e.company_id
    if company is None:
        return None
    group = f" on {e.product_group}" if e.product_group else ""
    return f"What did {company} spend with approved vendors{group} in {period.time_range.source_text.strip()}?"


def idle_answer(company: str, scope: str, period_text: str, requested: Sequence[str],
                missing: Sequence[str], total: str | None, currency: str, lines: int) -> tuple[str, dict[str, Any]]:
    """The list of approved vendors without counted spend (an empty list said as one), and its result fields."""
    idle = sorted(missing)
    others = len(set(requested) - set(missing))
    basis = ("approvals overlapping the period in the agreement versions in force; counted spend: posted and paid "
             "invoice lines, cancelled and duplicate invoices never count")
    spent = (f"{total} {currency} over {lines} counted invoice line{'s' if lines != 1 else ''}" if total is not None
             else "no counted line")
    if idle:
        text = (f"Approved vendors of {company}{scope} without counted spend in {period_text}: {', '.join(idle)} "
                f"(no counted invoice line in the period; the {others} other approved vendor"
                f"{'s' if others != 1 else ''} had {spent}; {basis}).")
    else:
        # (counted, not listed: ids beside an empty answer read as the answer to a hurried reader)
        text = (f"None: every approved vendor of {company}{scope} in {period_text} ({others} approved) had counted "
                f"spend in the period ({spent} together), so no approved vendor was without spend ({basis}).")
    return text, {"status": "complete", "idle_supplier_ids": idle, "approved_vendor_count": len(set(requested))}
