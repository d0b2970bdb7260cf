"""``ask`` end to end on the ingested demo corpus, as procura_app under RLS: the seed question with the
ground truth, the partial case, identifier lookup, retrieval, clarification, mixed branches, injection and
tenant isolation."""

from __future__ import annotations

from dataclasses import replace

import psycopg
import pytest

from tests.integration.conftest_ask import (
    AS_OF,
    OTHER_TENANT,
    PARTIAL_QUESTION,
    SEED_QUESTION,
    SEED_TENANT,
    World,
    ctx,
    world,
)

pytestmark = pytest.mark.integration
__all__ = ["world"]  # the session fixture, imported so pytest registers it here


def ask(world: World, app_conn: psycopg.Connection, question: str, tenant: str = SEED_TENANT):  # type: ignore[no-untyped-def]
    return world.service.ask(app_conn, ctx(tenant), question, as_of=AS_OF, interface="test")


def test_seed_question_matches_ground_truth(world: World, app_conn: psycopg.Connection) -> None:
    expected = world.question("seed_monitoring_spend_2026q1")["expected"]
    out = ask(world, app_conn, SEED_QUESTION)
    answer = out.answer
    assert out.routing.workflow == "spend"
    assert [s["tool"] for s in out.steps] == [
        "entity.resolve_company", "graph.find_approved_vendors", "catalog.find_products",
        "finance.aggregate_spend", "documents.search", "validation.check_completeness",
    ]
    assert all(s["status"] == "ok" for s in out.steps), out.steps
    assert answer.status == "answered", answer.text
    assert answer.result["total_spend"] == expected["total_spend"]
    assert answer.result["currency"] == expected["currency"] == "EUR"
    assert answer.result["matched_line_count"] == expected["matched_line_count"]
    assert answer.result["missing_suppliers"] == []
    assert answer.inputs["supplier_ids"] == expected["approved_supplier_ids"]
    assert answer.inputs["product_codes"] == expected["product_codes"]
    assert (answer.inputs["start_date"], answer.inputs["end_date"]) == ("2026-01-01", "2026-04-01")
    assert set(expected["source_line_ids"]) <= set(answer.sources)
    assert any(s.startswith("agreement-2026-04-p12") for s in answer.sources), answer.sources
    assert f"{expected['total_spend']} EUR" in answer.text
    assert all(c.passed for c in answer.checks) and len(answer.checks) >= 5


def test_partial_case_is_reported_as_partial(world: World, app_conn: psycopg.Connection) -> None:
    expected = world.question("approved_vendor_spend_2026q1")["expected"]
    out = ask(world, app_conn, PARTIAL_QUESTION)
    answer = out.answer
    assert answer.status == "partial"
    assert answer.result["status"] == "partial"
    assert answer.result["missing_suppliers"] == expected["missing_supplier_ids"] == ["SUP-31"]
    assert answer.result["calculated_suppliers"] == expected["calculated_supplier_ids"]
    assert answer.result["total_spend"] == expected["total_spend"]
    assert answer.text.startswith("PARTIAL RESULT, not the complete total")
    assert "SUP-31" in answer.text


def test_no_data_is_not_zero(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "What did Company B spend with Supplier Eta in 2025-Q4?")
    assert out.answer.status == "no_data"
    assert out.answer.result["total_spend"] is None
    assert "0.00" not in out.answer.text and "not a zero total" in out.answer.text


def test_identifier_lookup_is_one_step(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "Invoice number INV-2026-0148")
    assert out.routing.workflow == "identifier_lookup"
    assert [(s["tool"], s["status"]) for s in out.steps] == [("documents.search", "ok")]
    assert out.answer.status == "answered"
    assert out.answer.sources and all(s.startswith("invoice-2026-0148") for s in out.answer.sources[:1])


def test_explanatory_question_is_routed_to_retrieval(world: World, app_conn: psycopg.Connection) -> None:
    passage = next(p for p in world.ground_truth["passages"] if p["tenant_id"] == SEED_TENANT)
    out = ask(world, app_conn, passage["query"])
    assert out.routing.workflow == "document_answer"
    assert {"semantic", "exact_lookup"} <= set(out.routing.selected_intents)
    assert [s["tool"] for s in out.steps] == ["documents.search", "validation.check_completeness"]
    top_documents = [e.document_id for e in out.answer.evidence[:3]]
    assert passage["document_id"] in top_documents, top_documents
    text = " ".join(e.snippet for e in out.answer.evidence)
    assert "every 12 months" in text or any(
        e.document_id == passage["document_id"] and e.page == passage["page"] for e in out.answer.evidence
    )
    assert "every 6 months" not in text  # tenant-17's version of the clause


def test_ambiguous_question_gets_a_clarification_and_runs_nothing(
    world: World, app_conn: psycopg.Connection
) -> None:
    out = ask(world, app_conn, "What did we spend?")
    assert out.answer.status == "clarification"
    assert out.routing.requires_clarification and out.routing.execution_plan == ()
    assert out.steps == []
    assert "Which company" in (out.answer.clarification_question or "")
    assert "period" in (out.answer.clarification_question or "")


def test_contract_summary_and_total_keep_both_branches(
    world: World, app_conn: psycopg.Connection
) -> None:
    out = ask(world, app_conn, "Summarize Company A's agreement with its approved vendors and give the total spend "
                               "with them in 2026-Q1")
    status = {s["step_id"]: s["status"] for s in out.steps}
    assert out.routing.workflow == "spend_with_documents"
    assert status["calculate-spend"] == "ok" and status["retrieve-documents"] == "ok"
    assert out.answer.result["total_spend"] is not None
    assert any(e.document_id.startswith("agreement-") for e in out.answer.evidence)


def test_injection_in_a_retrieved_chunk_changes_nothing(world: World, app_conn: psycopg.Connection) -> None:
    injection = world.ground_truth["prompt_injections"][0]
    # Asks for the page that carries the injected note, so the injection chunk is certainly among the retrieved.
    question = "What does the PS-Z1 quick start guide say about wiring, including its note for automated assistants?"
    out = ask(world, app_conn, question)
    # The injection chunk was retrieved (otherwise this test would prove nothing) and withheld.
    assert any(c.startswith(injection["document_id"]) for c in out.answer.withheld_chunk_ids), out.answer
    assert not any(e.chunk_id in out.answer.withheld_chunk_ids for e in out.answer.evidence)
    for leak in ("SUP-35", "Zeta", "IBAN", "Ignore previous"):
        assert leak not in out.answer.text
    for leak in ("Ignore previous", "automated assistants", "approved vendor"):
        assert all(leak not in e.snippet for e in out.answer.evidence)
    # Same plan and tools as routing alone decided; nothing was added by the retrieved text.
    assert [s["tool"] for s in out.steps] == [s.tool for s in out.routing.execution_plan]
    assert out.routing.authorization_context.tenant_id == SEED_TENANT
    # And the graph still says what the agreements say: SUP-35 is not approved for Company A in 2026-Q1.
    vendors = ask(world, app_conn, "Which suppliers are approved vendors of Company A in 2026-Q1?")
    assert vendors.answer.result["supplier_ids"] == ["SUP-18", "SUP-27", "SUP-31"]


def test_other_tenant_sees_only_its_own_data(world: World, app_conn: psycopg.Connection) -> None:
    # tenant-17 has a COMP-A too, named differently: tenant-42's "Company A" means nothing there.
    seed_named = ask(world, app_conn, SEED_QUESTION, tenant=OTHER_TENANT)
    assert seed_named.answer.status == "clarification"
    clarification = seed_named.answer.clarification_question or ""
    assert "COMP-A" in clarification and "Company B" not in clarification and "Company A" not in clarification
    seed = ask(world, app_conn, PARTIAL_QUESTION)
    other = ask(world, app_conn, "What was the total spend of COMP-A with its approved vendors in 2026-Q1?",
                tenant=OTHER_TENANT)
    assert other.routing.authorization_context.tenant_id == OTHER_TENANT
    assert other.answer.status in ("answered", "partial"), other.answer.text
    # Every cited source was re-read under tenant-17's RLS; tenant-42's agreement never appears.
    assert all(c.passed for c in other.answer.checks), other.answer.checks
    assert not any(s.startswith("agreement-2026-04") for s in other.answer.sources), other.answer.sources
    assert other.answer.inputs["supplier_ids"] == ["SUP-07", "SUP-18", "SUP-33"]
    assert other.answer.result["total_spend"] != seed.answer.result["total_spend"]


class _FixedText:
    """Stands in for a language model behind the synthesis plug-in interface (none ships with Procura)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def synthesize(self, question: str, structured: object, evidence: object) -> str:
        return self.text


def test_synthesis_plugin_is_off_by_default_and_validated_like_the_template(
    world: World, app_conn: psycopg.Connection
) -> None:
    question = "Which suppliers are approved vendors of Company A in 2026-Q1?"
    plain = ask(world, app_conn, question)
    assert world.service.synthesizer is None and not plain.answer.synthesized
    faithful = replace(world.service, synthesizer=_FixedText(
        "Company A's approved vendors in 2026-Q1 are SUP-18, SUP-27 and SUP-31."))
    out = faithful.ask(app_conn, ctx(), question, as_of=AS_OF, interface="test")
    assert out.answer.synthesized and out.answer.text.startswith("Company A's approved vendors")
    invented = replace(world.service, synthesizer=_FixedText(
        "Approved vendors: SUP-18, SUP-27, SUP-31 and SUP-35, with a total of 999.99 EUR."))
    out = invented.ask(app_conn, ctx(), question, as_of=AS_OF, interface="test")
    assert not out.answer.synthesized
    assert "SUP-35" not in out.answer.text and "999.99" not in out.answer.text
    assert out.answer.text == plain.answer.text
