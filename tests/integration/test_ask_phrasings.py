"""Analyst phrasings through the real ask service: the figure equals the governed metric called directly.

A small seeded sample of the slot grammar of ``tests/unit/test_router_phrasing_metamorphic.py`` (measure words,
status phrasings, credit notes, amount ranges) is asked as procura_app under RLS; each answer must carry the
figure (or the invoice list) the governed metric returns for the slot values the generator put in.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

_PERIODS = [("in Q1 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)), ("last qtr", dt.date(2026, 1, 1),
                                                                       dt.date(2026, 4, 1)),
            ("in 2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1))]
_SUPPLIERS = [("Supplier Beta", "SUP-18"), ("beta", "SUP-18"), ("gamma controls", "SUP-27"), ("Gamma", "SUP-27"),
              ("delta enclosures", "SUP-31"), ("Epsilon Instr.", "SUP-22")]
_SETTINGS = settings(max_examples=8, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))


def _ask(world: World, conn: psycopg.Connection, question: str) -> Any:
    return world.service.ask(conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")


def _direct(world: World, conn: psycopg.Connection, metric: str, params: dict[str, Any]) -> Any:
    return world.service.env.metric_service.query(conn, ctx(SEED_TENANT), metric, params, group_by=[], route="api")


def _spend(world: World, conn: psycopg.Connection, sid: str, period: tuple[str, dt.date, dt.date],
           **filters: Any) -> str | None:
    rows = _direct(world, conn, "finance.company_spend", {
        "company_id": "COMP-A", "reporting_currency": "EUR", "supplier_ids": [sid],
        "start_date": period[1].isoformat(), "end_date": period[2].isoformat(), **filters}).rows
    if not rows or rows[0].values.get("matched_line_count") == 0:
        return None
    return str(rows[0].values["total_spend"])


_FRAMES = [  # (frame, the filters it names)
    ("what's Company A's bill with {s} {p}", {}), ("amt paid to {s} by Company A {p}", {}),
    ("Company A expenses with {s} {p}", {}), ("Company A open amount with {s} {p}", {"invoice_statuses": ["posted"]}),
    ("how much do we still owe {s} {p} (Company A)", {"invoice_statuses": ["posted"]}),
    ("Company A open invoices with {s} {p}", {"invoice_statuses": ["posted"]}),
    ("cleared invoices from {s} {p} for Company A", {"invoice_statuses": ["paid"]}),
    ("Company A credits from {s} {p}", {"document_types": ["credit_note"]}),
]


def test_phrasings_equal_the_governed_spend(world: World, app_conn: psycopg.Connection) -> None:
    @given(st.sampled_from(_FRAMES), st.sampled_from(_SUPPLIERS), st.sampled_from(_PERIODS))
    @_SETTINGS
    def check(frame: tuple[str, dict[str, Any]], supplier: tuple[str, str],
              period: tuple[str, dt.date, dt.date]) -> None:
        question = frame[0].format(s=supplier[0], p=period[0])
        out = _ask(world, app_conn, question)
        want = _spend(world, app_conn, supplier[1], period, **frame[1])
        if want is None:
            assert out.answer.status == "no_data", (question, out.answer.text)
        else:
            assert out.answer.status == "answered", (question, out.answer.text)
            assert f"{Decimal(want).quantize(Decimal('0.01'))} EUR" in out.answer.text, (question, out.answer.text,
                                                                                          want)

    check()


def test_amount_ranges_equal_the_listing_filtered_by_both_bounds(world: World, app_conn: psycopg.Connection) -> None:
    frames = ["Company A invoices between {lo} and {hi} {p}", "which Company A invoices {p} were from {lo} to {hi}"]

    @given(st.sampled_from(frames), st.sampled_from([(1, 5), (2, 8), (5, 10), (3, 25)]),
           st.sampled_from(["{n}k EUR", "€{n},000"]), st.sampled_from(_PERIODS))
    @_SETTINGS
    def check(frame: str, bounds: tuple[int, int], notation: str, period: tuple[str, dt.date, dt.date]) -> None:
        low, high = bounds
        question = frame.format(lo=notation.format(n=low), hi=notation.format(n=high), p=period[0])
        out = _ask(world, app_conn, question)
        assert out.answer.status in ("answered", "no_data"), (question, out.answer.text)
        # Independently of the upper bound: the one-sided listing from the lower bound, cut at the upper one.
        rows = _direct(world, app_conn, "finance.invoices_above_threshold", {
            "company_id": "COMP-A", "reporting_currency": "EUR", "threshold": f"{low * 1000}.00", "inclusive": True,
            "start_date": period[1].isoformat(), "end_date": period[2].isoformat()}).rows
        want = [r.values["invoice_number"] for r in rows if Decimal(str(r.values["grand_total"])) <= high * 1000]
        text = out.answer.text
        assert all(f"{number} (" in text for number in want), (question, text, want)
        assert (f"{len(want)} invoices of" in text) if want else text.startswith("No invoices"), (question, text)

    check()


@pytest.mark.parametrize("question", [
    "How much did Company A spend with Supplier Theta on Cables and Connectors in 2025?",
    "Company A spend with Theta Präzision on Sensors YTD, per product",
])
def test_a_supplier_without_products_in_the_group_is_no_data(world: World, app_conn: psycopg.Connection,
                                                            question: str) -> None:
    # Every name resolved; the catalogue has no product of that supplier under that group. The governed metric
    # called with both filters matches no line: the answer is "no data", not an unknown entity.
    period = ("", dt.date(2025, 1, 1), dt.date(2026, 5, 16))
    assert _spend(world, app_conn, "SUP-52", period) is not None
    for group in (["PG-CABL"], ["PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]):
        assert _spend(world, app_conn, "SUP-52", period, product_group_ids=group) is None
    out = _ask(world, app_conn, question)
    assert out.answer.status == "no_data", out.answer.text
    assert "SUP-52" in out.answer.text and "not a zero total" in out.answer.text, out.answer.text
