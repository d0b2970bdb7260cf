"""A wildcard name in a formula criterion is every matching name of the tenant, never one picked silently."""

from __future__ import annotations

import pytest

from router.contract import clean_question
from router.entities import Company, Gazetteer, Product
from router.wildcard_names import matching_names, read_wildcards

GAZ = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [("SUP-18", "Beta Supplies GmbH"), ("SUP-19", "Betamax AG"), ("SUP-3", "Helix Ltd")],
    [], [], (), [Product("PRD-482", "Pressure Sensor 10 bar"), Product("PRD-483", "Pressure Sensor 25 bar")])


def test_probe_wildcard_supplier_is_every_match() -> None:
    text = clean_question('=SUMIFS(Gross, Co, "Company A", Vendor, "Beta*") for Q1 2026')
    out, notes = read_wildcards(text, GAZ)
    assert "Beta Supplies GmbH and Betamax AG" in out
    assert "*" not in out
    assert notes and "Beta Supplies GmbH" in notes[0] and "Betamax AG" in notes[0]


@pytest.mark.parametrize("pattern,expected", [
    ("Beta*", ("supplier", ("Beta Supplies GmbH", "Betamax AG"))),
    ("*GmbH", ("supplier", ("Beta Supplies GmbH",))),
    ("Hel?x*", ("supplier", ("Helix Ltd",))),
    ("Company*", ("company", ("Company A", "Company B"))),
    ("Pressure Sensor*", ("product", ("PRD-482", "PRD-483"))),
])
def test_wildcard_matches(pattern: str, expected: tuple[str, tuple[str, ...]]) -> None:
    assert matching_names(pattern, GAZ) == expected


def test_wildcard_without_match_is_left_for_the_unknown_name_question() -> None:
    out, notes = read_wildcards("spend, for COMP-A, supplier Zorblax* for Q1 2026", GAZ)
    assert "Zorblax*" in out and notes == ()


@pytest.mark.parametrize("text", [
    "Is Beta? approved for Company A",          # a question mark ends the question
    "spend of **Company A** in Q1",             # markdown emphasis
    "2 * 3 units",                              # arithmetic
    "GET /approved-suppliers?company=comp_a",   # a query string
])
def test_no_wildcard_read(text: str) -> None:
    assert read_wildcards(text, GAZ) == (text, ())
