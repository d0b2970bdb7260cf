"""Golden cases of the ambiguous family."""

from __future__ import annotations

from typing import Any

from evaluation.golden_cases.common import CaseList


def ambiguous_cases(cases: CaseList) -> None:
    rows: tuple[tuple[str, str, str, dict[str, Any], list[str]], ...] = (
        ("what-did-we-spend", "What did we spend?", "period", {}, ["aggregate"]),
        ("total-spend-last-quarter-no-company", "What was the total spend last quarter?", "company", {},
         ["aggregate"]),
        ("spend-with-beta-no-period", "How much did Company A spend with Supplier Beta?", "period",
         {"company_ids": ["COMP-A"], "supplier_ids": ["SUP-18"]}, ["aggregate"]),
        ("company-a-spend-no-period", "What is Company A's spend?", "period", {"company_ids": ["COMP-A"]},
         ["aggregate"]),
        ("spend-recently", "What did Company B spend recently?", "period", {"company_ids": ["COMP-B"]},
         ["aggregate"]),
        ("the-company-q1", "How much did the company spend in Q1 2026?", "company", {}, ["aggregate"]),
        ("our-spend-with-gamma", "What was our spend with Supplier Gamma in 2026-Q1?", "company",
         {"supplier_ids": ["SUP-27"]}, ["aggregate"]),
        ("units-no-period", "How many units did we buy from Supplier Beta?", "period",
         {"supplier_ids": ["SUP-18"]}, ["aggregate"]),
        ("local-currency", "What did Company A spend in Q1 2026 in local currency?", "currency",
         {"company_ids": ["COMP-A"]}, ["aggregate"]),
        ("which-currency", "Give me Company C's Q4 2025 spend, in whatever currency the invoices were in.",
         "currency", {"company_ids": ["COMP-C"]}, ["aggregate"]),
        ("cash-or-accrual", "What was Company A's spend in Q1 2026? I'm not sure whether to count paid or "
         "posted invoices.", "basis", {"company_ids": ["COMP-A"]}, ["aggregate"]),
        ("including-drafts", "What did Company B spend in Q1 2026 on a committed basis, or should drafts count?",
         "basis", {"company_ids": ["COMP-B"]}, ["aggregate"]),
        ("approved-spend-no-company", "What did we spend with our approved vendors last quarter?", "company", {},
         ["relationship", "aggregate"]),
        ("monitoring-spend-no-period", "What was Company A's spend on monitoring products from its approved "
         "vendors?", "period", {"company_ids": ["COMP-A"], "product_group": "PG-MON"}, ["relationship", "aggregate"]),
        ("invoices-above-no-period", "Which invoices of Company A are above 5,000 EUR?", "period",
         {"company_ids": ["COMP-A"]}, ["aggregate"]),
        ("tax-total-no-scope", "What is the total tax amount?", "period", {}, ["aggregate"]),
    )
    for slug, text, topic, entities, intents in rows:
        cases.add(
            f"ambiguous-{slug}", "ambiguous", text, intents=intents, outcome="clarification", topic=topic,
            entities=entities,
        )
