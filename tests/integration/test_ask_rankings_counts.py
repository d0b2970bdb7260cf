"""Rankings and counts through ``ask`` against the governed metrics called directly: a ranking by the number of
invoices cut with its ties kept and said, the invoice-line count, and the shared ranking reading of spend
("the 2 suppliers with the highest spend")."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from router.counts import ranked_rows
from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

Q1 = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}


def _direct(world: World, conn: psycopg.Connection, metric: str, params: dict[str, Any],
            group_by: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    result = world.service.env.metric_service.query(conn, ctx(SEED_TENANT), metric, params, group_by=list(group_by),
                                                    route="api")
    return [dict(r.values) for r in result.rows]


@pytest.mark.parametrize(("question", "direction", "n"), [
    ("Which supplier sent Company A the fewest invoices in Q1 2026?", "bottom", 1),
    ("Top 2 suppliers by number of invoices for Company A in Q1 2026", "top", 2),
    ("Rank Company A's suppliers by invoice count in Q1 2026", "top", 100),
])
def test_a_count_ranking_keeps_and_says_the_ties_at_the_cut(
    world: World, app_conn: psycopg.Connection, question: str, direction: str, n: int
) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
    rows = _direct(world, app_conn, "finance.invoice_count", {**Q1, "document_types": ["invoice"]}, ("supplier_id",))
    kept, said = ranked_rows(rows, direction, n)
    assert out.answer.status == "answered", out.answer.text
    assert [r["supplier_id"] for r in out.answer.result["ranking"]] == [r["supplier_id"] for r in kept]
    if len(kept) > n:
        assert "tied" in out.answer.text and said.strip() in out.answer.text, out.answer.text


def test_invoice_lines_are_the_line_count_metric(world: World, app_conn: psycopg.Connection) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), "How many invoice lines did Company A have from Supplier "
                            "Beta in Q1 2026?", as_of=AS_OF, interface="test")
    # "invoice lines" with no document type named are the lines of invoices (credit notes are another document
    # type), as "how many invoices" counts invoices
    lines_of_invoices = {**Q1, "supplier_ids": ["SUP-18"], "document_types": ["invoice"]}
    rows = _direct(world, app_conn, "finance.invoice_line_count", lines_of_invoices)
    documents = _direct(world, app_conn, "finance.invoice_count", lines_of_invoices)
    assert out.answer.status == "answered", out.answer.text
    assert f" {rows[0]['line_count']}" in out.answer.text, out.answer.text
    assert rows[0]["line_count"] >= documents[0]["invoice_count"]


def test_the_two_suppliers_with_the_highest_spend_are_a_top_two(world: World, app_conn: psycopg.Connection) -> None:
    out = world.service.ask(app_conn, ctx(SEED_TENANT), "Which are the 2 suppliers with the highest spend at "
                            "Company A in Q1 2026?", as_of=AS_OF, interface="test")
    rows = _direct(world, app_conn, "finance.spend_ranking", {**Q1, "limit": 2, "direction": "top"},
                   ("supplier_id",))
    assert out.answer.status == "answered", out.answer.text
    assert all(r["supplier_id"] in out.answer.text and str(r["total_spend"]) in out.answer.text for r in rows)
    assert len(rows) == 2


@pytest.mark.parametrize(("question", "direction", "amount", "inclusive"), [
    ("Which suppliers did Company A spend more than 10k EUR with in Q1 2026?", "above", "10000", False),
    ("suppliers with less than 10.000 EUR spend at Company A in Q1 2026", "below", "10000", False),
    ("Company A: vendors with total spend of at least EUR 0.01m in Q1 2026", "above", "10000", True),
])
def test_an_amount_bounds_each_supplier_s_total_not_single_invoices(
    world: World, app_conn: psycopg.Connection, question: str, direction: str, amount: str, inclusive: bool
) -> None:
    from decimal import Decimal

    out = world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")
    rows = _direct(world, app_conn, "finance.spend_ranking", {**Q1, "limit": 100, "direction": "top"},
                   ("supplier_id",))
    bound = Decimal(amount)

    def ok(v: Decimal) -> bool:
        return (v >= bound if inclusive else v > bound) if direction == "above" else (
            v <= bound if inclusive else v < bound)

    want = {r["supplier_id"] for r in rows if ok(Decimal(str(r["total_spend"])))}
    assert out.routing.workflow == "spend_threshold" and out.answer.status == "answered", out.answer.text
    assert set(out.answer.result["supplier_ids"]) == want, (out.answer.text, rows)
    body = out.answer.text.split(" Read as:")[0]
    assert all(str(r["total_spend"]) in body for r in rows if r["supplier_id"] in want), out.answer.text
    assert not any(r["supplier_id"] in body for r in rows if r["supplier_id"] not in want), out.answer.text
    assert "not single invoices" in body
