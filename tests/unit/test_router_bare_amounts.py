"""A bare number bounded by a trailing cue after a word of documents or amounts is money ("invoices 5000 or more");
the same cue before a noun it counts is not ("10 or more invoices"). Before, the invoice listing dropped the
number and served every invoice of the period as the answer."""

from __future__ import annotations

from decimal import Decimal

import pytest

from router.reading import parse_amounts


@pytest.mark.parametrize("text, value", [
    ("Company A invoices 5000 or more in Q1 2026", "5000"),
    ("Company B invoices of 12500 or more, 2025", "12500"),
    ("list the bills 7,500 and up for Kestrel", "7500"),
    ("Xenon invoices 2500+ in March", "2500"),
    ("credit notes 300 or above in H1", "300"),
    ("amounts of 1000 and upwards", "1000"),
])
def test_bare_amount_with_trailing_cue_is_money(text: str, value: str) -> None:
    found = parse_amounts(text)
    assert [(a.value, a.comparator, a.inclusive) for a in found] == [(Decimal(value), "above", True)]


@pytest.mark.parametrize("text", [
    "10 or more invoices in Q1",
    "suppliers with 5 or more invoices",
    "invoices of 10 or more lines",
    "invoices with 3 or more credit notes",
    "products bought 4 or more times",
])
def test_trailing_cue_before_a_counted_noun_is_no_amount(text: str) -> None:
    assert parse_amounts(text) == ()
