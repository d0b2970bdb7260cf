"""Document-type phrases through the real ask service (procura_app under RLS): line counts, vendor counts and
spend with "invoices only, no credit notes", "invoices and credit notes", "credit notes netted in", "leave the
credit notes out" and "credit notes only"; the figure must equal the governed metric called directly with the
document types the phrase means (never the credit notes alone when they are left out or taken along), and a
draft total is served over drafts only, labelled as such. Seeded and bounded."""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

_SETTINGS = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
_PHRASES = [("(invoices only, no credit notes)", ["invoice"]), (", leave the credit notes out", ["invoice"]),
            ("(invoices and credit notes)", ["invoice", "credit_note"]),
            (", credit notes netted in", ["invoice", "credit_note"]), ("- credit notes only", ["credit_note"]),
            ("ohne Gutschriften", ["invoice"])]
_MEASURES = [("How many invoice lines did Company A book {p} {d}?", "finance.invoice_line_count", "line_count"),
             ("Company A - number of distinct vendors {p} {d}", "finance.supplier_count", "supplier_count"),
             ("Company A spend {p} {d}", "finance.company_spend", "total_spend")]
_PERIODS = [("in FY2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
            ("in Q1 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1))]


def _ask(world: World, conn: psycopg.Connection, question: str) -> Any:
    return world.service.ask(conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")


def test_document_type_phrases_equal_the_governed_metric(world: World, app_conn: psycopg.Connection) -> None:
    @given(st.sampled_from(_MEASURES), st.sampled_from(_PHRASES), st.sampled_from(_PERIODS))
    @_SETTINGS
    def check(measure: tuple[str, str, str], phrase: tuple[str, list[str]],
              period: tuple[str, dt.date, dt.date]) -> None:
        frame, metric, output = measure
        question = frame.format(p=period[0], d=phrase[0])
        out = _ask(world, app_conn, question)
        assert out.answer.status in ("answered", "no_data"), (question, out.answer.text)
        params = {"company_id": "COMP-A", "start_date": period[1].isoformat(), "end_date": period[2].isoformat(),
                  "document_types": phrase[1]}
        rows = world.service.env.metric_service.query(app_conn, ctx(SEED_TENANT), metric, params, group_by=[],
                                                      route="api").rows
        value = rows[0].values.get(output) if rows else None
        if value is None or rows[0].values.get("matched_line_count") == 0:
            assert out.answer.status == "no_data" or str(value or 0) in out.answer.text, (question, out.answer.text)
        else:
            assert str(value) in out.answer.text, (question, out.answer.text)

    check()


def test_draft_total_is_over_drafts_and_says_so(world: World, app_conn: psycopg.Connection) -> None:
    out = _ask(world, app_conn, "Company A draft invoices total in FY2025")
    assert out.answer.status in ("answered", "no_data"), out.answer.text
    rows = world.service.env.metric_service.query(
        app_conn, ctx(SEED_TENANT), "finance.company_spend",
        {"company_id": "COMP-A", "start_date": "2025-01-01", "end_date": "2026-01-01", "invoice_statuses": ["draft"]},
        group_by=[], route="api").rows
    if out.answer.status == "answered":
        assert str(rows[0].values["total_spend"]) in out.answer.text
        assert "not recognized spend" in out.answer.text
