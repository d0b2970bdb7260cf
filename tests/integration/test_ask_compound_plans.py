"""Figure-plus-fact questions, generated: every way the figure selects a supplier x every fact an agreement carries
x period and company phrasings, on the demo corpus as procura_app under RLS.

For each generated question the figure must equal the governed metric called directly (``finance.spend_ranking``
for top/bottom/share/named, ``catalog.average_unit_price`` by supplier for the cheapest), the selected suppliers
must be the metric's (ties all kept), and the fact must equal the document tools' answer for *those* suppliers:
the approval rows of ``graph.find_approved_vendors`` (an approval fact), or the first passage that
``documents.search`` returns from the supplier's approving agreement (a clause). A supplier without an approving
agreement makes the answer PARTIAL, never complete. Seeded and bounded (Hypothesis, derandomized).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.compound import FACTS
from router.entities import load_gazetteer
from router.tools import TOOLS
from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

_PERIODS = [("in Q1 2026", "2026-01-01", "2026-04-01"), ("last quarter", "2026-01-01", "2026-04-01"),
            ("in March 2026", "2026-03-01", "2026-04-01"), ("in H1 2026", "2026-01-01", "2026-07-01"),
            ("in FY2025", "2025-01-01", "2026-01-01"), ("in 2025-Q4", "2025-10-01", "2026-01-01")]
#: How each fact is asked (the fact's label is what the router must read).
_FACT_WORDS = {"approval": "which product groups is {who} approved for", "payment terms": "what are the payment "
               "terms of {who}", "notice period": "what is the notice period for {who}", "term of the agreement":
               "what is the term of the agreement with {who}", "warranty": "what warranty period applies to {who}",
               "certificates": "which certificates must {who} hold", "liability and insurance": "what liability "
               "insurance must {who} carry", "delivery terms": "what are the delivery terms of {who}",
               "price adjustments": "what price adjustments apply to {who}", "confidentiality": "what does "
               "confidentiality cover for {who}", "audit rights": "what audit rights do we have over {who}"}
#: (kind, subject words, direction) of each selection.
_SELECTIONS = [("rank", "{c}'s biggest supplier", "top"), ("rank", "our smallest supplier of {c}", "bottom"),
               ("rank", "{c}'s top vendor of sensors", "top"), ("share", "the supplier with the largest share of "
                                                                "{c}'s spend", "top"),
               ("unit_price", "the cheapest supplier of PRD-482 for {c}", "bottom"),
               ("named", "Supplier Beta", "top"), ("named", "Gamma Control Systems for {c}", "top")]
_FRAMES = ["{fact}, and how much did we spend with it {p}?", "{p}: {fact}? Also the spend with it.",
           "{fact} and what was the figure {p}?"]
_SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))


def _tool(world: World, conn: psycopg.Connection, name: str, arguments: dict[str, Any]) -> Any:
    spec = TOOLS[name]
    assert spec.run is not None
    return spec.run(conn, ctx(SEED_TENANT), spec.request.model_validate(arguments), world.service.env,
                    spec.timeout_ms)


def _expected_selection(world: World, conn: psycopg.Connection, kind: str, direction: str, start: str, end: str,
                        groups: list[str]) -> tuple[list[str], dict[str, str]]:
    """The suppliers the governed metric selects and their figure, called directly."""
    service = world.service.env.metric_service
    base = {"company_id": "COMP-A", "start_date": start, "end_date": end}
    if kind == "unit_price":
        rows = service.query(conn, ctx(SEED_TENANT), "catalog.average_unit_price",
                             {**base, "product_code": "PRD-482"}, group_by=["supplier_id"], route="api").rows
        priced = {r.values["supplier_id"]: Decimal(str(r.values["unit_price"])) for r in rows
                  if r.values.get("unit_price") is not None}
        if not priced:
            return [], {}
        best = min(priced.values())
        return sorted(s for s, v in priced.items() if v == best), {s: str(v) for s, v in priced.items()}
    params: dict[str, Any] = {**base, "limit": 1, "direction": direction}
    if groups:
        params["product_group_ids"] = groups
    rows = service.query(conn, ctx(SEED_TENANT), "finance.spend_ranking", params, group_by=["supplier_id"],
                         route="api").rows
    return ([str(r.values["supplier_id"]) for r in rows if r.values["rank"] == 1],
            {str(r.values["supplier_id"]): str(r.values["total_spend"]) for r in rows})


def test_a_generated_figure_and_fact_question_equals_the_metric_and_the_document_tools(
    world: World, app_conn: psycopg.Connection
) -> None:
    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    sensors = list(gazetteer.subgroups("PG-SENS")) if any(g.product_group_id == "PG-SENS"
                                                          for g in gazetteer.product_groups) else []
    seen: set[tuple[str, str]] = set()

    @given(st.sampled_from(_SELECTIONS), st.sampled_from(FACTS), st.sampled_from(_PERIODS), st.sampled_from(_FRAMES),
           st.sampled_from(["Company A", "company a"]))
    @_SETTINGS
    def check(selection: tuple[str, str, str], fact: Any, period: tuple[str, str, str], frame: str,
              company: str) -> None:
        kind, subject, direction = selection
        phrase, start, end = period
        who = subject.format(c=company)
        fact_text = _FACT_WORDS[fact.label].format(who=who)
        question = frame.format(fact=fact_text[0].upper() + fact_text[1:], p=phrase)
        if kind == "named" and "{c}" not in subject:
            question += f" ({company})"
        out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
        assert out.routing.workflow == "figure_with_document", (question, out.answer.text)
        assert out.answer.result["fact"] == fact.label, (question, out.answer.result)
        seen.add((kind, fact.label))
        # The figure: the governed metric, called directly with the slot values.
        if kind == "named":
            sid = "SUP-18" if "Beta" in subject else "SUP-27"
            ranking = world.service.env.metric_service.query(
                app_conn, ctx(SEED_TENANT), "finance.spend_ranking",
                {"company_id": "COMP-A", "start_date": start, "end_date": end, "supplier_ids": [sid], "limit": 1},
                group_by=["supplier_id"], route="api").rows
            selected = [sid]
            figures = {str(r.values["supplier_id"]): str(r.values["total_spend"]) for r in ranking}
        else:
            groups = sensors if "sensors" in subject else []
            selected, figures = _expected_selection(world, app_conn, kind, direction, start, end, groups)
        got = out.answer.result.get("suppliers", [])
        assert [s["supplier_id"] for s in got] == selected, (question, out.answer.text)
        value = "unit_price" if kind == "unit_price" else "total_spend"
        for s in got:
            assert s[value] == figures.get(s["supplier_id"]), (question, s, figures)
        # The fact: the document tools' answer for the selected suppliers.
        if not selected:
            assert out.answer.status != "answered", out.answer.text
            return
        vendors = _tool(world, app_conn, "graph.find_approved_vendors",
                        {"company_id": "COMP-A", "start_date": start, "end_date": end, "supplier_ids": selected})
        facts = out.answer.result.get("facts", {})
        complete = True
        for sid in selected:
            mine = [a for a in vendors.approvals if a.supplier_id == sid]
            if not mine:
                assert sid not in facts and f"approves {sid}" in out.answer.text, out.answer.text
                complete = False
                continue
            if fact.kind == "approval":
                assert facts[sid] == [a.chunk_id or a.document_id for a in mine], (question, facts)
                continue
            agreements = sorted({a.agreement_id for a in vendors.approvals})
            found = _tool(world, app_conn, "documents.search", {
                "query_text": fact.query,
                "identifiers": {"product_codes": [], "invoice_numbers": [], "contract_ids": agreements},
                "retrieval_modes": ["exact", "bm25", "vector"],
                "filters": {"document_types": ["agreement"], "document_ids": agreements}, "limit": 6})
            own = {a.agreement_id for a in mine} | {a.document_id for a in mine}
            first = next((c.chunk_id for c in found.chunks if c.document_id in own), None)
            if first is None:
                assert sid not in facts
                complete = False
            else:
                assert facts.get(sid) == [first], (question, facts, first)
        figure_missing = any(s.get(value) is None for s in got)
        assert (out.answer.status == "answered") == (complete and not figure_missing), (question, out.answer.text)
        if out.answer.status == "partial":
            assert out.answer.text.startswith("PARTIAL RESULT") and "Missing:" in out.answer.text

    check()
    assert len({k for k, _ in seen}) >= 4 and len({f for _, f in seen}) >= 6, seen


@pytest.mark.parametrize(("question", "named"), [
    ("What are the payment terms of the cheapest supplier for Company A in Q1 2026, and its spend?", "cheapest"),
    ("Company A's biggest supplier in Q1 2026: its spend and the colour of its logo?", "its logo"),
])
def test_a_figure_or_fact_not_understood_is_a_clarification(world: World, app_conn: psycopg.Connection,
                                                            question: str, named: str) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
    assert out.answer.status == "clarification" and not out.steps, out.answer.text
    assert named in (out.answer.clarification_question or ""), out.answer.clarification_question
