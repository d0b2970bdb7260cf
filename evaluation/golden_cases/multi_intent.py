"""Golden cases of the multi intent family."""

from __future__ import annotations

import datetime as dt

from evaluation.golden_cases.common import CaseList, Period, _aggregate_constraints, _lines_to_sources, _money_answer
from evaluation.golden_cases.corpus import SEED_TENANT
from evaluation.golden_cases.semantic import AGREEMENT_FACTS, MANUAL_FACTS, _fact_in_section


def multi_intent_cases(cases: CaseList) -> None:
    corpus = cases.corpus
    t = corpus.tenants[SEED_TENANT]
    q1 = Period.quarter(2026, 1)
    seed = corpus.question("seed_monitoring_spend_2026q1")
    seed_tools = ["graph.find_approved_vendors", "catalog.find_products", "finance.aggregate_spend",
                  "validation.check_completeness"]
    seed_ids = []
    for suffix, text, as_of in (
        ("gt", seed["question"], None),
        ("q-year", "What was Company A's total spend on monitoring products from its approved vendors in Q1 2026?",
         None),
        ("words", "How much did Company A spend in the first quarter of 2026 on monitoring products supplied by "
                  "approved vendors?", None),
        ("last-quarter-april", seed["question"], dt.date(2026, 4, 2)),
    ):
        seed_ids.append(cases.add(
            f"multi-seed-monitoring-spend-{suffix}", "multi_intent", text,
            intents=["relationship", "aggregate"], optional=["semantic", "exact_lookup"], as_of=as_of,
            entities={"company_ids": ["COMP-A"], "product_group": t.group_id("Monitoring Products")},
            constraints=_aggregate_constraints(q1), tools=seed_tools,
            answer=_money_answer(seed, ids_from="calculated_supplier_ids"),
            sources=_lines_to_sources(seed["expected"]["source_line_ids"]),
        ))
    partial = corpus.question("approved_vendor_spend_2026q1")
    partial_ids = []
    for suffix, text in (
        ("gt", partial["question"]),
        ("q-year", "How much did Company A spend with its approved vendors in Q1 2026?"),
        ("words", "What did Company A spend in the first quarter of 2026 with the vendors approved in its agreement?"),
    ):
        partial_ids.append(cases.add(
            f"multi-approved-vendor-spend-{suffix}", "multi_intent", text,
            intents=["relationship", "aggregate"], optional=["semantic"],
            entities={"company_ids": ["COMP-A"]}, constraints=_aggregate_constraints(q1),
            tools=["graph.find_approved_vendors", "finance.aggregate_spend", "validation.check_completeness"],
            answer=_money_answer(partial, ids_from="calculated_supplier_ids"),
            sources=_lines_to_sources(partial["expected"]["source_line_ids"]),
            notes="partial: SUP-31 is approved in Q1 but has no validated invoice; never presented as complete",
        ))
    agreement = t.markdown["agreement-2026-04"]
    cases.add(
        "multi-contract-summary-and-total", "multi_intent",
        "Summarize agreement-2026-04 and tell me Company A's total spend with its approved vendors in Q1 2026.",
        intents=["exact_lookup", "semantic", "relationship", "aggregate"],
        entities={"company_ids": ["COMP-A"], "contract_ids": ["agreement-2026-04"]},
        constraints=_aggregate_constraints(q1),
        tools=["documents.search", "graph.find_approved_vendors", "finance.aggregate_spend"],
        answer=_money_answer(partial, ids_from="calculated_supplier_ids"),
        sources=[{"document_id": agreement.document_id}],
        notes="both branches must survive: a correct summary without the total is incomplete",
    )
    passage = next(p for p in corpus.truth["passages"] if p["tenant_id"] == SEED_TENANT)
    cases.add(
        "multi-calibration-prd-482", "multi_intent", passage["query"],
        intents=["exact_lookup", "semantic"], optional=["lexical"], entities={"product_codes": ["PRD-482"]},
        tools=["documents.search"],
        answer={"kind": "passage", "ids": [passage["document_id"]], "must_contain": passage["must_contain"]},
        sources=[{"document_id": passage["document_id"], "page": passage["page"]}],
        must_not=[m for p in corpus.truth["passages"] if p["tenant_id"] != SEED_TENANT
                  for m in p["must_contain"] if m not in passage["must_contain"]],
    )
    price = corpus.question("unit_price_prd482_2026_03")
    cases.add(
        "multi-unit-price-and-calibration-prd-482", "multi_intent",
        "What was the unit price of PRD-482 in March 2026, and how often must it be calibrated?",
        intents=["exact_lookup", "aggregate", "semantic"], entities={"product_codes": ["PRD-482"]},
        constraints=_aggregate_constraints(Period.month(2026, 3)),
        tools=["finance.*|catalog.unit_price", "documents.search"],
        answer={"kind": "unit_price", "value": price["expected"]["unit_price"], "currency": "EUR",
                "must_contain": ["every 12 months"],
                "ground_truth": {"question": price["name"], "field": "expected.unit_price"}},
        sources=[{"document_id": "manual-prd-482", "page": passage["page"]}],
    )
    zero = corpus.question("zero_spend_comp_b_sup44_2026q1")
    warranty = t.markdown["agreement-2025-09"].find(AGREEMENT_FACTS[0][1])
    assert warranty is not None
    cases.add(
        "multi-warranty-and-spend-comp-b", "multi_intent",
        "What does agreement-2025-09 say about the warranty period, and what did Company B spend with "
        "Supplier Eta in Q1 2026?",
        intents=["exact_lookup", "semantic", "aggregate"],
        entities={"company_ids": ["COMP-B"], "supplier_ids": ["SUP-44"], "contract_ids": ["agreement-2025-09"]},
        constraints=_aggregate_constraints(q1), tools=["documents.search", "finance.*"],
        answer={**_money_answer(zero), "must_contain": [warranty[0].group(1)]},
        sources=[{"document_id": "agreement-2025-09", "page": warranty[1]}],
    )
    for document_id, doc in sorted(t.markdown.items()):
        if doc.document_type != "product_manual":
            continue
        code = doc.front["product_codes"].strip("[]").split(",")[0].strip()
        fact = _fact_in_section(doc, "calibration", MANUAL_FACTS[0][1])
        if fact is None:
            continue
        cases.add(
            f"multi-calibration-interval-{code.lower()}", "multi_intent",
            f"What is the calibration interval for {code}?",
            intents=["exact_lookup", "semantic"], optional=["lexical"], entities={"product_codes": [code]},
            tools=["documents.search"],
            answer={"kind": "passage", "ids": [document_id], "must_contain": [fact[0]]},
            sources=[{"document_id": document_id, "page": fact[1]}],
        )
    for document_id, doc in sorted(t.markdown.items()):
        if doc.document_type != "agreement":
            continue
        found = doc.find(AGREEMENT_FACTS[1][1])
        if found is None:
            continue
        cases.add(
            f"multi-payment-terms-{document_id}", "multi_intent", f"What does {document_id} say about payment terms?",
            intents=["exact_lookup", "semantic"], entities={"contract_ids": [document_id]},
            tools=["documents.search"],
            answer={"kind": "passage", "ids": [document_id], "must_contain": [found[0].group(1)]},
            sources=[{"document_id": document_id, "page": found[1]}],
        )
    cases.seed_ids = seed_ids  # type: ignore[attr-defined]
    cases.partial_ids = partial_ids  # type: ignore[attr-defined]
