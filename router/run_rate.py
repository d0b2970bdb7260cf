"""A monthly run-rate of spend: "monthly run-rate over Q1 2026", "average spend per month in H2 2025".

The run-rate is the governed total of the period divided by the number of calendar months it spans (months
without spend count: a run-rate is what the period cost per month, not the mean of the months that had
invoices). It is derived in the answer from the one governed total (Decimal, rounded half up to cents), and the
answer states the total and the divisor, so the figure can be checked. The governed total is itself rounded to the
cent; when that leaves the rate's last cent open (the exact total could round either way once divided), both cents
are given as the range the rate lies in, never one of them picked. A period that is not whole calendar
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
    r"|\bmonthly\s+average\b|\b(?:average|avg\.?|mean)\s+monthly\s+(?:spend(?:ing)?|run[- ]?rate)\b"
    # "roughly what is Company A spending per month", "in a typical month": a rate, not the months one by one
    r"|\b(?:roughly|approximately|approx\.?|typically|usually|normally)\b[^?.!]*?\b(?:per|a|each)\s+month\b"
    r"|\b(?:a|an|the)\s+(?:typical|average|normal)\s+month\b"
    # "what's Company A spending per month": the going rate asked in the progressive (a hedge before it, "roughly",
    # is cut before the routing sees it); "spend per month" alone stays the months one by one
    r"|\bwhat(?:['’]?s|\s+(?:is|are))\s+(?:[\w'’.-]+\s+){1,5}?spending\s+(?:per|a|each)\s+month\b",
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


def run_rate_range(total: Decimal, months: int) -> tuple[Decimal, Decimal]:
    """The run-rates (to the cent) the exact total can give: the governed total is rounded to the cent, so the exact
    sum lies within half a cent of it and its rate within half a cent divided by the months; both ends of that
    interval rounded. One value when they agree.

    >>> run_rate_range(Decimal("42192.59"), 3)
    (Decimal('14064.20'), Decimal('14064.20'))
    >>> run_rate_range(Decimal("177059.19"), 6)
    (Decimal('29509.86'), Decimal('29509.87'))
    """
    half = Decimal("0.005")
    return run_rate(total - half, months), run_rate(total + half, months)


def run_rate_sentence(question: str, start: dt.date | None, end: dt.date | None, total: object,
                      currency: str) -> tuple[str, dict[str, str | int] | None]:
    """The sentence (and result fields) of a monthly run-rate when ``question`` asks for one, else ``("", None)``."""
    if start is None or end is None or not RUN_RATE.search(question):
        return "", None
    months = whole_months(start, end)
    if months is None:
        return (" No monthly run-rate is given: the period is not whole calendar months, so there is no month "
                "count to divide the total by (name whole months, e.g. Q1 2026 or January to April 2026).", None)
    low, high = run_rate_range(Decimal(str(total)), months)
    over = f"the total {total} {currency} over {months} calendar month{'s' if months != 1 else ''}, months without " \
           "spend included"
    if low == high:
        return f" Monthly run-rate: {low} {currency} per month ({over}).", {
            "monthly_run_rate": str(low), "months": months}
    # the rounded total cannot say which cent the exact rate rounds to: both are given, never one picked
    return (f" Monthly run-rate: between {low} and {high} {currency} per month ({over}; the governed total is "
            "rounded to the cent, so the rate is known to within this one cent)."), {
                "monthly_run_rate_low": str(low), "monthly_run_rate_high": str(high), "months": months}
