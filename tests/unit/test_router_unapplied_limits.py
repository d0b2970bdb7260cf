"""Constraints the system does not know or cannot apply are named, never dropped (no database).

Limits the data cannot apply (a department, a region, a plant, a buyer, an account, a matching result, a budget)
are split off and the rest answered as PARTIAL; unknown names (a product group after "spend", a supplier after
"pay", a lowercase company variant with a legal form, a product code outside the catalogue) stay clarifications;
supplier LIKE patterns resolve over the tenant's suppliers and aliases.
"""

from __future__ import annotations

from typing import Any

import pytest

from router.answer import Answer
from router.contract import clean_question
from router.entities import Company, Gazetteer, Product
from router.like_patterns import matching_suppliers, read_likes
from router.routing import RouterInputs, route
from router.unapplied_limits import split_limits, unapplied_limits, with_unapplied_limits
from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, GROUPS, METRICS, SUPPLIERS


def _route(question: str, gazetteer: Gazetteer = GAZETTEER) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS))


# -- limits the data cannot apply: split off, the rest answered -------------------------------------------------
@pytest.mark.parametrize(("question", "words", "rest"), [
    ("How much did Company B spend in Q3 2025, division Packaging only?", "division Packaging",
     "How much did Company B spend in Q3 2025?"),
    ("company a spend by supplier march 2026 for the Tyrol region", "the Tyrol region",
     "company a spend by supplier march 2026"),
    ("company b spend h1 2025 in region north", "region north", "company b spend h1 2025"),
    ("Company A spend Q1 2026 for the maintenance department", "the maintenance department",
     "Company A spend Q1 2026"),
    ("company a spend 2025 requester = k.meier", "requester = k.meier", "company a spend 2025"),
    ("company b spend q4 2025 ledger acct 6400", "ledger acct 6400", "company b spend q4 2025"),
    ("How many Company B invoices in H2 2025 did not pass the 3-way match?", "did not pass the 3-way match",
     "How many Company B invoices in H2 2025?"),
    ("Company A spend Q1 2026, plus the remaining budget?", "the remaining budget", "Company A spend Q1 2026?"),
    ("How does Company B's H1 2025 spend with Beta compare with the budget? If you cannot give the budget, "
     "just the spend.", "budget", "What was Company B's H1 2025 spend with Beta?"),
    ("Company B spend by month 2025, plant Augsburg only", "plant Augsburg", "Company B spend by month 2025"),
    ("Company A's total spend in H1 2025 approved by requester 'J. Brandt'.", "requester 'J. Brandt'",
     "Company A's total spend in H1 2025."),
])
def test_a_limit_the_data_cannot_apply_is_split_off(question: str, words: str, rest: str) -> None:
    split = split_limits(question)
    assert split is not None
    assert [x.words for x in split.limits] == [words]
    assert split.rest == rest


@pytest.mark.parametrize("question", [
    "which department asked for the spend by region?",
    "company a spend by region and supplier 2025",
    "company b spend per plant in 2025",
    "company a spend with Beta in Q1 2026",
    "the whole region spend of company a 2025",
])
def test_no_limit_without_a_value(question: str) -> None:
    assert unapplied_limits(question) == ()


def _answer(status: str) -> Answer:
    return Answer(status=status, text="Company A's total spend ... was 10.00 EUR.", result={"status": "ok"},
                  inputs={}, sources=(), clarification_question="Which?" if status == "clarification" else None)


def test_an_answer_without_the_limit_is_partial_and_names_it() -> None:
    split = split_limits("company a spend 2025, department Quality only")
    assert split is not None
    marked = with_unapplied_limits(_answer("answered"), split.limits)
    assert marked.status == "partial"
    assert "department Quality" in marked.text and marked.text.startswith("PARTIAL")
    assert marked.result["not_understood"] == ["department Quality"]


def test_a_clarification_keeps_its_status_and_names_the_limit() -> None:
    split = split_limits("company a spend 2025, department Quality only")
    assert split is not None
    marked = with_unapplied_limits(_answer("clarification"), split.limits)
    assert marked.status == "clarification" and "department Quality" in (marked.clarification_question or "")


# -- unknown names stay clarifications naming them ---------------------------------------------------------------
@pytest.mark.parametrize(("question", "unknown"), [
    ("company b spend valves 2025", "valves"),
    ("company a spend office chairs q1 2026", "office chairs"),
    ("company a spend it hardware h2 2025", "hardware"),
    ("how much did company b pay omega freight in 2025", "omega freight"),
])
def test_an_unknown_object_of_spend_or_pay_is_named(question: str, unknown: str) -> None:
    routing = _route(question)
    assert routing.requires_clarification and not routing.execution_plan
    assert unknown in (routing.clarification_question or "")


@pytest.mark.parametrize("question", [
    "company a spend sensors 2025", "company a spend total 2025", "how much did company a pay beta in 2025",
    "company a spend last year", "company a paid invoices q1 2026", "company a spend por proveedor 2025",
    "Which certificates must the supplier with the largest share of Company A's spend hold?",
])
def test_known_objects_and_vocabulary_after_spend_are_read(question: str) -> None:
    assert "I do not know" not in (_route(question).clarification_question or "")


def test_a_lowercase_company_variant_with_a_legal_form_is_asked_about() -> None:
    routing = _route("company a shipping gmbh spend 2025")
    assert routing.requires_clarification and "company a shipping gmbh" in (routing.clarification_question or "")
    assert not _route("how much did company a gmbh spend in 2025").requires_clarification


_WITH_PRODUCTS = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    GROUPS, products=[Product("PRD-482", "Differential pressure sensor DPS-482")])


@pytest.mark.parametrize("question", ["how many units of PRD-404 did company b buy",
                                      "Company B: average unit price of PRD-404?"])
def test_a_product_code_outside_the_catalogue_is_asked_about(question: str) -> None:
    routing = _route(question, _WITH_PRODUCTS)
    assert routing.requires_clarification and "PRD-404" in (routing.clarification_question or "")


# -- supplier LIKE patterns ----------------------------------------------------------------------------------------
def test_a_like_pattern_matching_one_supplier_is_that_supplier() -> None:
    assert matching_suppliers("delta%", GAZETTEER) == ("SUP-31",)
    assert matching_suppliers("%cable works%", GAZETTEER) == ("SUP-60",)
    liked = read_likes("where vendor_name ilike 'epsilon%' and company = 'Company A'", GAZETTEER)
    assert liked is not None and liked.problem is None
    assert "supplier_name = 'Supplier Epsilon'" in liked.text


def test_an_ambiguous_or_unmatched_pattern_is_asked_about() -> None:
    several = read_likes("where supplier_name like '%ta%'", GAZETTEER)
    assert several is not None and several.problem is not None and "SUP-31" in several.problem
    none = read_likes("where supplier_name like 'omega%'", GAZETTEER)
    assert none is not None and none.problem is not None and "omega%" in none.problem
    assert read_likes("company a spend with beta", GAZETTEER) is None


def test_a_bare_where_clause_is_the_spend() -> None:
    text = clean_question("where supplier_name = 'Supplier Delta' and company = 'Company B' and "
                          "invoice_date >= '2025-10-01' and invoice_date < '2026-01-01'")
    assert text.startswith("spend, ")
    routing = _route(text)
    assert not routing.requires_clarification, routing.clarification_reasons
    assert routing.entities.supplier_ids == ("SUP-31",)


def test_a_supplier_name_after_the_kind_noun_is_read_whole() -> None:
    routing = _route("spend company A supplier Gamma Controls from 2026-01-01 through 2026-03-15")
    assert not routing.requires_clarification, routing.clarification_reasons
    assert routing.entities.supplier_ids == ("SUP-27",)


def test_a_fallback_sentence_with_a_constraint_of_its_own_is_kept() -> None:
    split = split_limits("Company B spend in 2025 for department Maintenance only. If you can't apply the "
                         "department, only count paid invoices.")
    assert split is not None and "paid invoices" in split.rest
    plain = split_limits("Company B spend in 2025 for department Maintenance. If you can't, the spend alone is fine.")
    assert plain is not None and "fine" not in plain.rest


def test_a_tenant_name_before_a_dimension_noun_is_no_unapplied_limit() -> None:
    assert unapplied_limits("what did Company B spend in the sensors area in 2025?", ["Sensors"]) == ()
    assert unapplied_limits("spend for the Control Equipment division", ["Control Equipment"]) == ()
    assert unapplied_limits("spend for the Bavaria region", ["Sensors"]) != ()
