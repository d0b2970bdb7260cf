"""Metamorphic questions end to end: ``ask`` on the demo corpus equals the governed metric called directly.

Questions are generated from slot grammars (a supplier of the tenant by name, alias or short name in any case; a
period phrasing; a breakdown phrase; a made-up name) and asked through the real ask service as procura_app under
RLS. The figure in the answer must equal ``finance.aggregate_spend`` called directly with the slot values (same
status, same exact decimal, same per-group values), and a made-up name must come back as a clarification that
names it. Seeded (derandomized) and bounded (a fixed number of examples).
"""

from __future__ import annotations

import datetime as dt

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.entities import load_gazetteer, short_names
from router.names import MADE_UP, PgTrigramResolver
from router.reader import TrigramResolver
from tests.integration.conftest_ask import AS_OF, OTHER_TENANT, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

_PERIODS = [
    ("in Q1 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("last qtr", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in the last quarter of 2025", dt.date(2025, 10, 1), dt.date(2026, 1, 1)),
    ("in H1 2026", dt.date(2026, 1, 1), dt.date(2026, 7, 1)),
    ("YTD", dt.date(2026, 1, 1), dt.date(2026, 5, 16)),
    ("since February", dt.date(2026, 2, 1), dt.date(2026, 5, 16)),
    ("between 2026-02-01 and 2026-03-15", dt.date(2026, 2, 1), dt.date(2026, 3, 15)),
    ("in March 2026", dt.date(2026, 3, 1), dt.date(2026, 4, 1)),
    ("in FY2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
]
_BREAKDOWNS = [("", (), None), (", month by month", (), "month"), (" per product", ("product_code",), None),
               # a plain "product group" is each product's own catalog group; "top-level" the top of the tree
               (", by product group", ("product_group_id",), None),
               (", by top-level category", ("top_product_group_id",), None),
               (", by product group (lowest level)", ("product_group_id",), None)]
_SETTINGS = settings(max_examples=80, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))


@pytest.fixture
def spellings(world: World, app_conn: psycopg.Connection) -> list[tuple[str, str]]:
    """(spelling, supplier_id) for every supplier of the seed tenant: name, aliases and short names, unambiguous."""
    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    found: list[tuple[str, str]] = []
    for alias, ids in gazetteer.supplier_aliases.items():
        if len(ids) == 1:
            found.append((alias, next(iter(ids))))
    for sid, name in gazetteer.supplier_names.items():
        found.append((name, sid))
        found.extend((s, sid) for s in short_names(name) if len(gazetteer.supplier_aliases.get(s, ())) == 1)
    return sorted(set(found))


def _direct(world: World, conn: psycopg.Connection, sid: str, start: dt.date, end: dt.date,
            group_by: tuple[str, ...], grain: str | None) -> tuple[str, str | None, dict[str, str]]:
    """finance.aggregate_spend called directly: status, total and per-group totals."""
    service = world.service.env.metric_service
    params = {"company_id": "COMP-A", "supplier_ids": [sid], "start_date": start.isoformat(),
              "end_date": end.isoformat(), "invoice_statuses": ["posted", "paid"], "reporting_currency": "EUR"}
    total = service.query(conn, ctx(SEED_TENANT), "finance.aggregate_spend", params, route="api")
    value = str(total.rows[0].values["total_spend"]) if total.rows and total.status != "no_data" else None
    groups: dict[str, str] = {}
    if (group_by or grain) and total.status != "no_data":
        grouped = service.query(conn, ctx(SEED_TENANT), "finance.aggregate_spend", params, group_by=list(group_by),
                                grain=grain, route="api")
        keys = [*group_by, *(["period_start"] if grain else [])]
        groups = {" ".join(str(r.values.get(k)) for k in keys): str(r.values["total_spend"]) for r in grouped.rows}
    return total.status, value, groups


def test_a_generated_spend_question_equals_the_metric_called_directly(
    world: World, app_conn: psycopg.Connection, spellings: list[tuple[str, str]]
) -> None:
    @given(st.sampled_from(spellings), st.sampled_from(["as", "lower", "upper"]), st.sampled_from(_PERIODS),
           st.sampled_from(_BREAKDOWNS),
           st.sampled_from(["How much did Company A spend with {s} {p}{b}?", "Company A spend with {s} {p}{b}"]))
    @_SETTINGS
    def check(spelling: tuple[str, str], style: str, period: tuple[str, dt.date, dt.date],
              breakdown: tuple[str, tuple[str, ...], str | None], frame: str) -> None:
        name, sid = spelling
        name = {"as": name, "lower": name.lower(), "upper": name.upper()}[style]
        phrase, start, end = period
        words, group_by, grain = breakdown
        question = frame.format(s=name, p=phrase, b=words)
        out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
        status, value, groups = _direct(world, app_conn, sid, start, end, group_by, grain)
        assert out.answer.status in ("answered", "no_data", "partial"), (question, out.answer.text)
        assert out.answer.inputs.get("supplier_ids") == [sid], (question, out.answer.inputs)
        assert (out.answer.inputs["start_date"], out.answer.inputs["end_date"]) == (start.isoformat(),
                                                                                    end.isoformat()), question
        assert out.answer.result.get("total_spend") == value, (question, out.answer.result, value)
        if groups:
            got = {b["key"]: b["total_spend"] for b in out.answer.result.get("breakdown", [])}
            assert got == groups, (question, got, groups)
        assert status == ("no_data" if value is None else status)

    check()


@pytest.mark.parametrize("name", ["Omega Tech", "Acme Corp", "Supplier Omega", "Northwind"])
def test_a_made_up_supplier_is_a_clarification_naming_it(world: World, app_conn: psycopg.Connection,
                                                         name: str) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), f"How much did Company A spend with {name} in Q1 2026?",
                            as_of=AS_OF, interface="test")
    assert out.answer.status == "clarification", out.answer.text
    assert any(w in (out.answer.clarification_question or "") for w in name.split() if w != "Supplier")
    assert not out.steps


def test_pg_trgm_in_the_tenant_agrees_with_the_in_memory_resolver(app_conn: psycopg.Connection,
                                                                   world: World) -> None:
    """The production resolver (pg_trgm, RLS) and its in-memory twin give the same candidates and scores."""
    context = ctx(SEED_TENANT)
    gazetteer = load_gazetteer(app_conn, context)
    pg, memory = PgTrigramResolver(app_conn, context), TrigramResolver(gazetteer)
    spans = ["Monitring Prodcts", "Supplier Betta", "Gama Controls", "Company A", "Zeta Tech", *MADE_UP]
    for span in spans:
        got = [(m.canonical_id, round(m.score, 3)) for m in pg.similar(span)]
        assert got == [(m.canonical_id, round(m.score, 3)) for m in memory.similar(span)], span
    # Another tenant's names are never candidates (RLS): tenant-17 resolves in its own vocabulary only.
    other = PgTrigramResolver(app_conn, ctx(OTHER_TENANT))
    theirs = load_gazetteer(app_conn, ctx(OTHER_TENANT))
    own = ({c.company_id for c in theirs.companies} | set(theirs.supplier_names)
           | {g.product_group_id for g in theirs.product_groups})
    for span in spans:
        assert {m.canonical_id for m in other.similar(span)} <= own, span
