"""Supplier-name normalization and identifier extraction (database-free)."""

from __future__ import annotations

import pytest

from ingest.errors import ParseError
from ingest.models import Supplier
from ingest.normalize import find_identifiers, normalize_identifier, normalize_supplier_name
from ingest.parsers import supplier_aliases


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Beta Supplies GmbH", "beta supplies"),
        ("BETA SUPPLIES", "beta supplies"),
        ("  Beta-Supplies,  G.m.b.H ", "beta supplies g m b h"),  # dotted forms are not the token "gmbh"
        ("Epsilon Instruments Inc", "epsilon instruments"),
        ("Epsilon Instr.", "epsilon instr"),
        ("Gamma Control Systems AG", "gamma control systems"),
        ("Delta Enclosures Ltd.", "delta enclosures"),
        ("Acme Co. Inc.", "acme"),  # repeated trailing legal forms all go
        ("Theta Präzision AG", "theta präzision"),
        ("AG", "ag"),  # the first token always stays (same as the SQL twin)
        ("Supplier   Beta", "supplier beta"),
        ("--", None),
    ],
)
def test_supplier_names_normalize_per_the_corpus_contract(raw: str, expected: str | None) -> None:
    assert normalize_supplier_name(raw) == expected


def test_aliases_collapse_to_one_row_per_normalized_name_and_include_the_canonical_name() -> None:
    supplier = Supplier(supplier_id="SUP-18", supplier_name="Supplier Beta",
                        aliases=("Beta Supplies GmbH", "BETA SUPPLIES", "Supplier Beta"))
    rows = supplier_aliases([supplier], "suppliers.json")
    assert [(r.alias, r.alias_normalized) for r in rows] == [
        ("Supplier Beta", "supplier beta"), ("Beta Supplies GmbH", "beta supplies")]


def test_an_alias_shared_by_two_suppliers_is_rejected_with_both_named() -> None:
    suppliers = [Supplier(supplier_id="SUP-18", supplier_name="Beta Supplies GmbH"),
                 Supplier(supplier_id="SUP-19", supplier_name="Other", aliases=("BETA SUPPLIES LTD",))]
    expected = r"\[1\]\.aliases\[0\]: 'BETA SUPPLIES LTD' normalizes to 'beta supplies'.*SUP-18"
    with pytest.raises(ParseError, match=expected):
        supplier_aliases(suppliers, "suppliers.json")


def test_identifiers_are_found_and_normalized_for_exact_match() -> None:
    text = ("Invoice inv-2026-0148 lists prd 482 and PRD-4821 from SUP-18 under agreement-2026-04 for COMP-A; "
            "group PG-PRES. Not identifiers: XPRD-482, PRD-48, INV-2026.")
    found = {(m.identifier_type, m.value, m.raw) for m in find_identifiers(text)}
    assert found == {
        ("invoice_number", "INV-2026-0148", "inv-2026-0148"),
        ("product_code", "PRD-482", "prd 482"),
        ("product_code", "PRD-4821", "PRD-4821"),
        ("supplier_id", "SUP-18", "SUP-18"),
        ("contract_id", "agreement-2026-04", "agreement-2026-04"),
        ("company_id", "COMP-A", "COMP-A"),
        ("product_group_id", "PG-PRES", "PG-PRES"),
    }


def test_normalize_identifier_rejects_partial_values() -> None:
    assert normalize_identifier("product_code", " prd_482 ") == "PRD-482"
    assert normalize_identifier("product_code", "PRD-482x") is None
    assert normalize_identifier("invoice_number", "INV 2026 0148") == "INV-2026-0148"
    with pytest.raises(ValueError, match="unknown identifier type"):
        normalize_identifier("iban", "DE89")
