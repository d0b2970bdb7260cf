"""Golden cases of the aggregate family."""

from __future__ import annotations

import datetime as dt

from evaluation.golden_cases.common import CaseList, Period, _aggregate_constraints, _lines_to_sources, _money_answer
from evaluation.golden_cases.corpus import DEFAULT_STATUSES, SEED_TENANT


def aggregate_cases(cases: CaseList) -> None:
    corpus = cases.corpus
    t = corpus.tenants[SEED_TENANT]
    q1 = Period.quarter(2026, 1)
    q4 = Period.quarter(2025, 4)

    zero = corpus.question("zero_spend_comp_b_sup44_2026q1")
    for suffix, text in (
        ("gt", zero["question"]),
        ("q-year", f"What did Company B spend with Supplier Eta in {q1.q_year()}?"),
        ("alias", f"How much did Company B spend with Eta Industrial Supply GmbH in {q1.words()}?"),
    ):
        cases.add(
            f"agg-zero-spend-comp-b-eta-{suffix}", "aggregate", text, intents=["aggregate"],
            entities={"company_ids": ["COMP-B"], "supplier_ids": ["SUP-44"]},
            constraints=_aggregate_constraints(q1), tools=["finance.*"],
            answer=_money_answer(zero), sources=_lines_to_sources(zero["expected"]["source_line_ids"]),
            notes="credit notes cancel the invoices: a matched total of 0.00 with 4 lines, not no data",
        )
    nodata = corpus.question("no_data_comp_b_sup44_2025q4")
    for suffix, text, as_of in (
        ("gt", nodata["question"], None),
        ("q-year", f"What did Company B spend with Supplier Eta in {q4.q_year()}?", None),
        ("last-quarter", "What did Company B spend with Supplier Eta last quarter?", dt.date(2026, 2, 10)),
    ):
        cases.add(
            f"agg-no-data-comp-b-eta-{suffix}", "aggregate", text, intents=["aggregate"], as_of=as_of,
            entities={"company_ids": ["COMP-B"], "supplier_ids": ["SUP-44"]},
            constraints=_aggregate_constraints(q4), tools=["finance.*"], answer=_money_answer(nodata),
        )
    tax = corpus.question("tax_total_seed_invoices")
    numbers = tax["parameters"]["invoice_numbers"]
    for suffix, text in (
        ("gt", tax["question"]),
        ("sum", "Sum the tax on invoices " + ", ".join(numbers[:-1]) + " and " + numbers[-1] + "."),
    ):
        cases.add(
            f"agg-tax-total-seed-{suffix}", "aggregate", text, intents=["exact_lookup", "aggregate"],
            entities={"invoice_numbers": numbers}, constraints={"invoice_statuses": list(DEFAULT_STATUSES),
                                                                "reporting_currency": "EUR"},
            tools=["finance.*"], answer=_money_answer(tax, "expected.total_tax", status=False),
            sources=_lines_to_sources(tax["expected"]["source_line_ids"]),
        )
    price = corpus.question("unit_price_prd482_2026_03")
    march = Period.month(2026, 3)
    for suffix, text, as_of in (
        ("gt", price["question"], None),
        ("paid-per-unit", "What did we pay per unit for PRD-482 in March 2026?", None),
        ("in-march", "What was the average unit price of PRD-482 in March?", None),
        ("last-month", "What was the unit price of PRD-482 last month?", dt.date(2026, 4, 20)),
    ):
        cases.add(
            f"agg-unit-price-prd-482-{suffix}", "aggregate", text, intents=["exact_lookup", "aggregate"],
            as_of=as_of, entities={"product_codes": ["PRD-482"]},
            constraints=_aggregate_constraints(march), tools=["finance.*|catalog.unit_price"],
            answer={"kind": "unit_price", "value": price["expected"]["unit_price"], "currency": "EUR",
                    "ground_truth": {"question": price["name"], "field": "expected.unit_price"}},
            sources=_lines_to_sources(price["expected"]["source_line_ids"]),
            must_not=[corpus.question("unit_price_prd482_2026_03_tenant_17")["expected"]["unit_price"]],
        )
    units = corpus.question("units_purchased_sup18_2026q1")
    for suffix, text, entity_intent in (
        ("gt", units["question"], True),
        ("names", f"How many units did Company A buy from Supplier Beta in {q1.q_year()}?", False),
        ("alias", f"How many units did Company A purchase from Beta Supplies GmbH in {q1.iso_q()}?", False),
    ):
        cases.add(
            f"agg-units-sup-18-{suffix}", "aggregate", text,
            intents=["exact_lookup", "aggregate"] if entity_intent else ["aggregate"],
            entities={"company_ids": ["COMP-A"], "supplier_ids": ["SUP-18"]},
            constraints={"time_range": q1.as_dict(), "invoice_statuses": list(DEFAULT_STATUSES)},
            tools=["finance.*"],
            answer={"kind": "quantity", "value": units["expected"]["units"],
                    "ground_truth": {"question": units["name"], "field": "expected.units"}},
            sources=_lines_to_sources(units["expected"]["source_line_ids"]),
        )
    above = corpus.question("invoices_above_5000_2026q1")
    for suffix, text, entity_intent in (
        ("gt", above["question"], True),
        ("names", f"Which of Company A's invoices from {q1.q_year()} exceed 5,000 EUR in total?", False),
    ):
        cases.add(
            f"agg-invoices-above-5000-{suffix}", "aggregate", text,
            intents=["exact_lookup", "aggregate"] if entity_intent else ["aggregate"],
            entities={"company_ids": ["COMP-A"]}, constraints=_aggregate_constraints(q1), tools=["finance.*"],
            answer={"kind": "id_set", "ids": above["expected"]["invoice_numbers"],
                    "ground_truth": {"question": above["name"], "field": "expected.invoice_numbers"}},
        )
    for name, company_id, period in (
        ("spend_by_supplier_comp_a_2026q1", "COMP-A", q1),
        ("spend_by_supplier_comp_c_2025q4", "COMP-C", q4),
    ):
        question = corpus.question(name)
        company = t.companies[company_id]
        totals = question["expected"]["suppliers"]
        cases.add(
            f"agg-{name.replace('_', '-')}-gt", "aggregate", question["question"],
            intents=["exact_lookup", "aggregate"], entities={"company_ids": [company_id]},
            constraints=_aggregate_constraints(period), tools=["finance.*"],
            answer={**_money_answer(question, status=False),
                    "must_contain": [totals[s]["total_spend"] for s in sorted(totals)]},
        )
        cases.add(
            f"agg-{name.replace('_', '-')}-total", "aggregate",
            f"What was {company}'s total spend in {period.q_year()}?",
            intents=["aggregate"], entities={"company_ids": [company_id]},
            constraints=_aggregate_constraints(period), tools=["finance.*"],
            answer=_money_answer(question, status=False),
            sources=_lines_to_sources(question["expected"].get("source_line_ids", [])),
        )
        for supplier_id in sorted(totals):
            supplier = t.suppliers[supplier_id]["supplier_name"]
            cases.add(
                f"agg-{company_id.lower()}-{supplier_id.lower()}-{period.iso_q().lower()}", "aggregate",
                f"How much did {company} spend with {supplier} in {period.words()}?",
                intents=["aggregate"], entities={"company_ids": [company_id], "supplier_ids": [supplier_id]},
                constraints=_aggregate_constraints(period), tools=["finance.*"],
                answer=_money_answer(question, f"expected.suppliers.{supplier_id}.total_spend", status=False),
            )
