"""Counts, two-workflow plans, follow-ups and German names end to end: ``ask`` on the demo corpus as procura_app
under RLS, each figure compared with the governed metric called directly.

* Counts (Hypothesis, seeded, bounded): a supplier of the tenant by name, alias or short name, a period phrasing
  and a count phrasing (invoices, credit notes, unpaid, paid); the answer's count must equal
  ``finance.invoice_count`` called with the slot values, and 0 is an answer.
* A figure and a document fact: the payment terms of the top supplier and the spend with it; the supplier and the
  spend equal ``finance.spend_ranking`` called directly, the fact is a passage of the agreement that approves
  that supplier, and both are cited. A supplier no agreement approves makes the answer PARTIAL.
* A follow-up without context is a clarification naming its words; nothing runs.
* A German group name gives the English name's figure.
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procura.demo.masterdata import GROUP_SYNONYMS_DE
from router.entities import load_gazetteer, short_names
from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

_PERIODS = [
    ("in Q1 2026", "2026-01-01", "2026-04-01"),
    ("last qtr", "2026-01-01", "2026-04-01"),
    ("in H1 2026", "2026-01-01", "2026-07-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"),
    ("in March 2026", "2026-03-01", "2026-04-01"),
    ("in 2024", "2024-01-01", "2025-01-01"),  # before the corpus: a count of 0
]
_KINDS = [("invoices", ["invoice"], ["posted", "paid"]), ("credit notes", ["credit_note"], ["posted", "paid"]),
          ("unpaid invoices", ["invoice"], ["posted"]), ("paid invoices", ["invoice"], ["paid"])]
_SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))


def _direct_count(world: World, conn: psycopg.Connection, params: dict[str, Any]) -> int:
    result = world.service.env.metric_service.query(conn, ctx(SEED_TENANT), "finance.invoice_count", params,
                                                    route="api")
    return int(result.rows[0].values["invoice_count"]) if result.rows else 0


@pytest.fixture
def spellings(world: World, app_conn: psycopg.Connection) -> list[tuple[str, str]]:
    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    found = [(a, next(iter(ids))) for a, ids in gazetteer.supplier_aliases.items() if len(ids) == 1]
    for sid, name in gazetteer.supplier_names.items():
        found.append((name, sid))
        found.extend((s, sid) for s in short_names(name) if len(gazetteer.supplier_aliases.get(s, ())) == 1)
    return sorted({(s, sid) for s, sid in found if not any(ch.isdigit() for ch in s)})


def test_a_generated_count_question_equals_the_count_metric_called_directly(
    world: World, app_conn: psycopg.Connection, spellings: list[tuple[str, str]]
) -> None:
    @given(st.sampled_from(spellings), st.sampled_from(_PERIODS), st.sampled_from(_KINDS),
           st.sampled_from(["How many {k} did Company A receive from {s} {p}?", "Number of {k} from {s} for Company A "
                            "{p}", "company a: count of {k} from {s} {p}"]))
    @_SETTINGS
    def check(spelling: tuple[str, str], period: tuple[str, str, str], kind: tuple[str, list[str], list[str]],
              frame: str) -> None:
        (name, sid), (phrase, start, end), (words, types, statuses) = spelling, period, kind
        question = frame.format(k=words, s=name, p=phrase)
        out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
        expected = _direct_count(world, app_conn, {
            "company_id": "COMP-A", "start_date": start, "end_date": end, "supplier_ids": [sid],
            "document_types": types, "invoice_statuses": statuses})
        assert out.answer.status == "answered", (question, out.answer.text)
        assert out.answer.result["invoice_count"] == expected, (question, out.answer.result, expected)
        assert f" {expected} " in out.answer.text, out.answer.text  # zero is stated as 0, not "no data"

    check()


def test_a_count_with_a_group_and_breakdown_equals_the_metric(world: World, app_conn: psycopg.Connection) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), "How many invoices did Company A receive for Überwachungs"
                            "produkte in 2026-Q1, per supplier?", as_of=AS_OF, interface="test")
    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    params = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01",
              "product_group_ids": list(gazetteer.subgroups("PG-MON")), "document_types": ["invoice"]}
    assert out.answer.result["invoice_count"] == _direct_count(world, app_conn, params), out.answer.text
    grouped = world.service.env.metric_service.query(app_conn, ctx(SEED_TENANT), "finance.invoice_count", params,
                                                     group_by=["supplier_id"], route="api")
    assert {r["supplier_id"]: r["invoice_count"] for r in out.answer.result["breakdown"]} == {
        r.values["supplier_id"]: r.values["invoice_count"] for r in grouped.rows}


def test_the_top_suppliers_payment_terms_and_spend_are_both_answered_and_cited(
    world: World, app_conn: psycopg.Connection
) -> None:
    question = ("What are the payment terms of Company A's biggest supplier, and how much did we spend with it "
                "last quarter?")
    out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
    assert out.routing.workflow == "figure_with_document", out.answer.text
    ranking = world.service.env.metric_service.query(
        app_conn, ctx(SEED_TENANT), "finance.spend_ranking",
        {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "limit": 1},
        group_by=["supplier_id"], route="api")
    top = [r.values for r in ranking.rows if r.values["rank"] == 1]
    assert [s["supplier_id"] for s in out.answer.result["suppliers"]] == [t["supplier_id"] for t in top]
    assert [s["total_spend"] for s in out.answer.result["suppliers"]] == [str(t["total_spend"]) for t in top]
    steps = {s["step_id"]: s for s in out.steps}
    assert steps["find-agreement"]["status"] == "ok", steps
    kinds = {c.kind for c in out.answer.citations}
    assert {"invoice_line", "chunk"} <= kinds, out.answer.citations
    agreement_chunks = [c for c in out.answer.citations if c.kind == "chunk" and c.role == "retrieved evidence"]
    assert agreement_chunks and all(c.document_id.startswith("agreement-") for c in agreement_chunks)
    assert out.answer.status == "answered" and "Payment is due" in out.answer.text, out.answer.text


def test_a_selected_supplier_without_an_agreement_makes_the_answer_partial(
    world: World, app_conn: psycopg.Connection
) -> None:
    question = "What are the payment terms of Company A's smallest supplier, and what did we spend with it in FY2025?"
    out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
    assert out.routing.workflow == "figure_with_document"
    assert out.answer.result["suppliers"], out.answer.text  # the figure part is there either way
    if out.answer.status != "answered":
        assert out.answer.status == "partial" and out.answer.text.startswith("PARTIAL RESULT"), out.answer.text
        assert "Missing:" in out.answer.text


@pytest.mark.parametrize("question", ["and for the other one?", "What about last year?", "same for Beta?",
                                      "and the previous quarter?"])
def test_a_follow_up_without_context_asks_for_it_and_runs_nothing(
    world: World, app_conn: psycopg.Connection, question: str
) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
    assert out.answer.status == "clarification" and not out.steps
    assert "earlier question" in (out.answer.clarification_question or "")


@pytest.mark.parametrize(("english", "gid"), [("Monitoring Products", "PG-MON"), ("Pressure Sensors", "PG-PRES"),
                                              ("Control Modules", "PG-CMOD")])
def test_a_german_group_name_gives_the_english_names_figure(
    world: World, app_conn: psycopg.Connection, english: str, gid: str
) -> None:
    answers = {}
    for name in (english, *GROUP_SYNONYMS_DE[english]):
        out = world.service.ask(app_conn, ctx(SEED_TENANT), f"What was Company A's total spend on {name} in "
                                "2026-Q1?", as_of=AS_OF, interface="test")
        assert out.routing.entities.product_group_id == gid, (name, out.answer.text)
        answers[name] = out.answer.result.get("total_spend")
    assert len(set(answers.values())) == 1, answers


def test_spend_on_a_product_by_name_is_that_products_spend(world: World, app_conn: psycopg.Connection) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), "What was Company A's total spend on the Differential "
                            "pressure sensor DPS-482 in 2026-Q1?", as_of=AS_OF, interface="test")
    direct = world.service.env.metric_service.query(
        app_conn, ctx(SEED_TENANT), "finance.company_spend",
        {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "product_codes": ["PRD-482"]},
        route="api")
    assert out.answer.result.get("total_spend") == str(direct.rows[0].values["total_spend"]), out.answer.text
