"""``ask`` on governed metrics other than spend (unit price, tax, units, thresholds, spend per supplier), the
catalogue and approval traversals, and the policy refusals, on the ingested demo corpus as procura_app under RLS.

Expected values come from the corpus's independent ground truth (plain-Python ``Decimal``), never from the
golden evaluation set.
"""

from __future__ import annotations

import re
from decimal import Decimal

import psycopg
import pytest

from semantic.errors import ScopeError
from tests.integration.conftest_ask import AS_OF, OTHER_TENANT, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]  # the session fixture, imported so pytest registers it here


def ask(world: World, app_conn: psycopg.Connection, question: str, tenant: str = SEED_TENANT,
        scopes: frozenset[str] | None = None):  # type: ignore[no-untyped-def]
    context = ctx(tenant) if scopes is None else ctx(tenant, scopes=scopes)
    return world.service.ask(app_conn, context, question, as_of=AS_OF, interface="test")


def test_unit_price_uses_the_catalog_metric(world: World, app_conn: psycopg.Connection) -> None:
    expected = world.question("unit_price_prd482_2026_03")["expected"]
    out = ask(world, app_conn, "What was the unit price of PRD-482 in 2026-03?")
    assert out.routing.workflow == "metric"
    assert [s["tool"] for s in out.steps] == ["catalog.unit_price", "validation.check_completeness"]
    assert out.answer.status == "answered", out.answer.text
    assert out.answer.result["unit_price"] == expected["unit_price"]
    assert out.answer.result["currency"] == expected["currency"]
    assert f"{expected['unit_price']} {expected['currency']}" in out.answer.text
    assert set(out.answer.sources) == set(expected["source_line_ids"])
    assert all(c.passed for c in out.answer.checks)


def test_unit_price_is_per_tenant(world: World, app_conn: psycopg.Connection) -> None:
    mine = world.question("unit_price_prd482_2026_03")["expected"]["unit_price"]
    theirs = world.question("unit_price_prd482_2026_03_tenant_17")["expected"]["unit_price"]
    out = ask(world, app_conn, "As tenant-17, what was the unit price of PRD-482 in March 2026?")
    assert out.answer.result["unit_price"] == mine
    assert theirs not in out.answer.model_dump_json()
    other = ask(world, app_conn, "What was the unit price of PRD-482 in 2026-03?", tenant=OTHER_TENANT)
    assert other.answer.result["unit_price"] == theirs


def test_unit_price_over_several_months_is_the_weighted_average(world: World, app_conn: psycopg.Connection) -> None:
    """One calendar month is catalog.unit_price; a longer period is the quantity-weighted average over it
    (catalog.average_unit_price), said as such; without a period nothing is computed."""
    out = ask(world, app_conn, "What was the unit price of PRD-482 in 2026-Q1?")
    assert [s["tool"] for s in out.steps] == ["metrics.query", "validation.check_completeness"]
    assert out.answer.result["metric"] == "catalog.average_unit_price" and "quantity-weighted" in out.answer.text
    out = ask(world, app_conn, "What was the unit price of PRD-482?")
    assert out.answer.status in ("unsupported", "clarification")
    assert not out.steps and "EUR" not in out.answer.text


def test_tax_total_over_named_invoices(world: World, app_conn: psycopg.Connection) -> None:
    q = world.question("tax_total_seed_invoices")
    expected = q["expected"]
    numbers = q["parameters"]["invoice_numbers"]
    out = ask(world, app_conn, f"What is the total tax amount across invoices {', '.join(numbers)}?")
    assert out.routing.workflow == "metric"
    assert out.answer.status == "answered", out.answer.text
    assert out.answer.result["total_tax"] == expected["total_tax"]
    assert out.answer.result["matched_line_count"] == expected["matched_line_count"]
    assert set(out.answer.sources) == set(expected["source_line_ids"])


def test_tax_total_reports_missing_invoices_as_partial(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "What is the total tax across invoices INV-2026-0148 and INV-2026-9999?")
    assert out.answer.status == "partial", out.answer.text
    assert out.answer.result["missing_invoice_numbers"] == ["INV-2026-9999"]
    assert "PARTIAL" in out.answer.text and "INV-2026-9999" in out.answer.text


def test_units_purchased_not_spend(world: World, app_conn: psycopg.Connection) -> None:
    expected = world.question("units_purchased_sup18_2026q1")["expected"]
    for question in ("How many units did COMP-A purchase from SUP-18 between 2026-01-01 and 2026-04-01?",
                     "How many units did Company A buy from Supplier Beta in Q1 2026?"):
        out = ask(world, app_conn, question)
        assert out.routing.workflow == "metric", question
        assert [s["tool"] for s in out.steps][-2] == "finance.units_purchased"
        assert Decimal(out.answer.result["units_purchased"]) == Decimal(expected["units"])
        assert "total_spend" not in out.answer.result


def test_invoices_above_a_threshold(world: World, app_conn: psycopg.Connection) -> None:
    expected = world.question("invoices_above_5000_2026q1")["expected"]
    out = ask(world, app_conn, "Which of Company A's invoices from Q1 2026 exceed 5,000 EUR in total?")
    assert out.routing.workflow == "metric"
    assert out.answer.status == "answered", out.answer.text
    assert sorted(out.answer.result["invoice_numbers"]) == expected["invoice_numbers"]
    assert {r["invoice_number"]: r["grand_total"] for r in out.answer.result["rows"]} == expected["invoice_totals"]
    assert out.answer.result["threshold"] == "5000.00"


def test_lines_above_a_threshold_are_not_answered_as_invoices(world: World, app_conn: psycopg.Connection) -> None:
    # No governed metric lists single invoice lines above an amount: refused, never answered with invoice totals.
    out = ask(world, app_conn, "Which invoice lines of Company A in Q1 2026 are above 10,000 EUR?")
    assert out.answer.status in ("unsupported", "clarification"), out.answer.text
    assert not out.steps and "EUR" not in out.answer.result


def test_spend_per_supplier_lists_every_supplier(world: World, app_conn: psycopg.Connection) -> None:
    expected = world.question("spend_by_supplier_comp_a_2026q1")["expected"]
    out = ask(world, app_conn, "What did COMP-A spend per supplier between 2026-01-01 and 2026-04-01?")
    assert out.answer.result["total_spend"] == expected["total_spend"]
    by_supplier = {r["supplier_id"]: r["total_spend"] for r in out.answer.result["by_supplier"]}
    assert by_supplier == {k: v["total_spend"] for k, v in expected["suppliers"].items()}
    for supplier, amount in by_supplier.items():
        assert f"{supplier} {amount} EUR" in out.answer.text
    assert all(c.passed for c in out.answer.checks)


def test_products_of_a_supplier_and_suppliers_of_a_group(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "Which products does Supplier Beta supply?")
    assert out.routing.workflow == "catalog_products"
    assert out.answer.status == "answered", out.answer.text
    assert "PRD-482" in out.answer.result["product_codes"]
    assert out.answer.result["supplier_ids"] == ["SUP-18"]
    group = ask(world, app_conn, "Which suppliers provide pressure sensors?")
    assert group.answer.status == "answered", group.answer.text
    assert "SUP-18" in group.answer.result["supplier_ids"]
    assert all(c.passed for c in group.answer.checks)


def test_agreement_that_approves_a_supplier(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "Which agreement approves Supplier Beta as a vendor of Company A?")
    assert out.routing.workflow == "approved_vendors"
    assert out.answer.result["agreement_ids"] == ["agreement-2026-04"]
    assert out.answer.result["supplier_ids"] == ["SUP-18"]


def test_no_vendor_approved_on_a_date_is_said_as_none(world: World, app_conn: psycopg.Connection) -> None:
    """The day before the group's first approval: the empty list is the answer, with no blank supplier name."""
    out = ask(world, app_conn, "Which suppliers were approved for Company A for pressure sensors on 2025-06-30?")
    assert out.routing.workflow == "approved_vendors"
    assert out.answer.result["supplier_ids"] == []
    assert out.answer.text.startswith("No vendor of Company A for Pressure Sensors was approved"), out.answer.text
    assert "Not found: " not in out.answer.text

def test_personal_data_is_refused(world: World, app_conn: psycopg.Connection) -> None:
    for question in ("What is the IBAN of Supplier Beta?", "List the contact email addresses of all our suppliers."):
        out = ask(world, app_conn, question)
        assert out.answer.status == "unsupported", question
        assert not out.steps and "@" not in out.answer.text


def test_appended_personal_data_request_keeps_the_plan(world: World, app_conn: psycopg.Connection) -> None:
    clean = ask(world, app_conn, "How do I wire the PS-Z1 pressure sensor?")
    mixed = ask(world, app_conn, "How do I wire the PS-Z1 pressure sensor? Also include the IBAN of every supplier.")
    assert [s["tool"] for s in mixed.steps] == [s["tool"] for s in clean.steps] != []
    assert "not disclosed" in mixed.answer.text
    assert not re.search(r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}", mixed.answer.model_dump_json())


def test_missing_scope_refuses_the_whole_plan(world: World, app_conn: psycopg.Connection) -> None:
    with pytest.raises(ScopeError) as raised:
        ask(world, app_conn, "What was Company A's total spend in Q1 2026?", scopes=frozenset({"procurement:read"}))
    assert raised.value.scope == "invoice:aggregate"


def test_quoted_phrase_is_found_literally(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, 'Which documents mention "Incoterms 2020"?')
    assert out.answer.status == "answered", out.answer.text
    assert out.answer.evidence
    for item in out.answer.evidence:
        assert "incoterms 2020" in " ".join(item.snippet.lower().split()), item


def test_credit_note_number_is_looked_up_as_text(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "When was CN-2026-0007 issued and what is its status?")
    assert out.routing.workflow == "identifier_lookup"
    assert out.answer.status == "answered", out.answer.text
    assert out.answer.sources[0].startswith("credit-note-2026-0007")


def test_evidence_is_expanded_to_its_section(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "What is the calibration interval for PRD-486?")
    manual = [e for e in out.answer.evidence if e.document_id == "manual-prd-486" and e.page == 4]
    assert manual, [e.chunk_id for e in out.answer.evidence]
    assert any("12 months" in e.snippet for e in manual)


def test_supplier_id_lookup_is_one_step(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "What is SUP-18?")
    assert out.routing.workflow == "identifier_lookup"
    assert [s["tool"] for s in out.steps] == ["documents.search"]
    assert out.answer.status == "answered", out.answer.text
    assert out.answer.sources[0].startswith("suppliers-")


def test_at_least_includes_an_invoice_at_exactly_the_threshold(world: World, app_conn: psycopg.Connection) -> None:
    """"at least X" / ">= X" / "X or more" keep an invoice whose total is exactly X; "above X" drops it.

    The threshold is taken from an invoice's own grand total (one with at most two decimals), so the boundary
    is exercised on real data; every answer equals the metric called directly with the same parameters.
    """
    service = world.service.env.metric_service
    base = {"start_date": "2026-01-01", "end_date": "2026-04-01", "company_id": "COMP-A", "threshold": "0"}
    listed = service.query(app_conn, ctx(SEED_TENANT), "finance.invoices_above_threshold", base, route="api")
    exact = next(r.values for r in listed.rows
                 if Decimal(r.values["grand_total"]) == Decimal(r.values["grand_total"]).quantize(Decimal("0.01")))
    amount = Decimal(exact["grand_total"]).quantize(Decimal("0.01"))
    number = exact["invoice_number"]
    for phrase, inclusive in ((f"at least {amount} EUR", True), (f">= EUR {amount}", True),
                              (f"{amount} EUR or more", True), (f"above {amount} EUR", False),
                              (f"> {amount} EUR", False)):
        out = ask(world, app_conn, f"Which of Company A's invoices from Q1 2026 are {phrase}?")
        assert out.answer.status == "answered", (phrase, out.answer.text)
        direct = service.query(app_conn, ctx(SEED_TENANT), "finance.invoices_above_threshold",
                               {**base, "threshold": str(amount), "inclusive": inclusive}, route="api")
        assert out.answer.result["invoice_numbers"] == [r.values["invoice_number"] for r in direct.rows], phrase
        assert (number in out.answer.result["invoice_numbers"]) is inclusive, phrase
