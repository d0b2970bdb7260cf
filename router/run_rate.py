"""A monthly run-rate of spend: "monthly run-rate over Q1 2026", "average spend per month in H2 2025".

The run-rate is the governed total of the period divided by the number of calendar months it spans (months
without spend count: a run-rate is what the period cost per month, not the mean of the months that had
invoices). It is derived in the answer from the one governed total, exactly (Decimal, rounded half up to cents),
and the answer states the total and the divisor, so the figure can be checked. A period that is not whole calendar
months ("year to date" before the month is over) has no month count to divide by: the answer says so and gives
the total only.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal

#: Words that ask for the spend per month of a period (not a breakdown by month).
RUN_RATE = re.compile(
    r"\b(?:monthly\s+)?run[- ]?rates?\b"
    r"|\b(?:average|avg\.?|mean)\s+(?:monthly\s+)?(?:spend(?:ing)?\s+)?(?:per|a|each)\s+month\b"
    r"|\b(?:per|a)\s+month\s+on\s+average\b|\bon\s+average\s+(?:per|a|each)\s+month\b"
    r"|\bmonthly\s+average\b|\b(?:average|avg\.?|mean)\s+monthly\s+(?:spend(?:ing)?|run[- ]?rate)\b",
    re.I,
)


def whole_months(start: dt.date, end: dt.date) -> int | None:
    """How many calendar months ``[start, end)`` spans, or ``None`` when it does not start and end on a month's
    first day.

    >>> whole_months(dt.date(2026, 1, 1), dt.date(2026, 4, 1)), whole_months(dt.date(2026, 1, 1), dt.date(2026, 5, 16))
    (3, None)
    """
    if start.day != 1 or end.day != 1 or end <= start:
        return None
    return (end.year - start.year) * 12 + end.month - start.month


def run_rate(total: Decimal, months: int) -> Decimal:
    """``total`` per month, rounded half up to cents.

    >>> run_rate(Decimal("42192.59"), 3)
    Decimal('14064.20')
    """
    return (total / months).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def run_rate_sentence(question: str, start: dt.date | None, end: dt.date | None, total: object,
                      currency: str) -> tuple[str, dict[str, str | int] | None]:
    """The sentence (and result fields) of a monthly run-rate when ``question`` asks for one, else ``("", None)``."""
    if start is None or end is None or not RUN_RATE.search(question):
        return "", None
    months = whole_months(start, end)
    if months is None:
        return (" No monthly run-rate is given: the period is not whole calendar months, so there is no month "
                "count to divide the total by (name whole months, e.g. Q1 2026 or January to April 2026).", None)
    value = run_rate(Decimal(str(total)), months)
    return (f" Monthly run-rate: {value} {currency} per month (the total {total} {currency} over {months} calendar "
            f"month{'s' if months != 1 else ''}, months without spend included)."), {
                "monthly_run_rate": str(value), "months": months}
