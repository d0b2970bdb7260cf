"""``ask`` on the classes that used to be answered silently wrong, on the ingested demo corpus as procura_app
under RLS: the new governed metrics (supplier count, largest invoices, a group's share of another group), period
lists with a gap, all companies, per-period rows of a catalog metric, figure questions the intent rules missed,
and measures no metric computes.

Expected values are computed here with plain SQL over the governed lines (sums, distinct counts), not through
the semantic layer.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import psycopg
import pytest

from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]  # the session fixture, imported so pytest registers it here

_COUNTED = ("tenant_id = %s and company_id = %s and is_counted and invoice_status in ('posted', 'paid') "
            "and reporting_currency = 'EUR' and invoice_date >= %s and invoice_date < %s")


def ask(world: World, app_conn: psycopg.Connection, question: str):  # type: ignore[no-untyped-def]
    return world.service.ask(app_conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")


def money(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def one(world: World, sql: str, *args: object) -> list[tuple[object, ...]]:
    with psycopg.connect(world.settings.owner_url) as conn:
        return conn.execute(sql, args).fetchall()


def total(world: World, company: str, start: str, end: str, extra: str = "", *args: object) -> Decimal:
    rows = one(world, f"select coalesce(sum(spend_reporting_amount), 0) from marts.validated_invoice_lines "
               f"where {_COUNTED} {extra}", SEED_TENANT, company, start, end, *args)
    return Decimal(str(rows[0][0]))


def test_how_many_suppliers(world: World, app_conn: psycopg.Connection) -> None:
    [(count,)] = one(world, f"select count(distinct supplier_id) from marts.validated_invoice_lines where {_COUNTED}",
                     SEED_TENANT, "COMP-A", "2026-01-01", "2026-04-01")
    out = ask(world, app_conn, "How many suppliers did Company A buy from in Q1 2026?")
    assert out.routing.workflow == "metric" and out.answer.status == "answered", out.answer.text
    assert f"supplier count {count}" in out.answer.text
    assert all(c.passed for c in out.answer.checks)


def test_the_biggest_invoice(world: World, app_conn: psycopg.Connection) -> None:
    rows = one(world, f"select invoice_number, sum(spend_reporting_amount) s from marts.validated_invoice_lines "
               f"where {_COUNTED} and document_type = 'invoice' group by invoice_number order by s desc limit 2",
               SEED_TENANT, "COMP-A", "2025-01-01", "2026-01-01")
    out = ask(world, app_conn, "What was Company A's biggest invoice in 2025?")
    assert out.answer.status == "answered", out.answer.text
    number, amount = rows[0]
    assert f"invoice_number {number}, grand_total {money(Decimal(str(amount)))}" in out.answer.text
    assert str(rows[1][0]) not in out.answer.text  # one invoice asked for, one given
    assert all(c.passed for c in out.answer.checks)


def test_a_period_list_with_a_gap_is_answered_per_part(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "What did Company A spend in Q3 2025 and Q1 2026?")
    assert out.answer.status == "answered", out.answer.text
    for start, end in (("2025-07-01", "2025-10-01"), ("2026-01-01", "2026-04-01")):
        assert f"[{start}, {end}) was {money(total(world, 'COMP-A', start, end))} EUR" in out.answer.text
    assert all(c.passed for c in out.answer.checks)


def test_all_companies_is_the_total_and_each_company(world: World, app_conn: psycopg.Connection) -> None:
    # Every company of the tenant together (one reporting currency): the total and each company's part.
    out = ask(world, app_conn, "Total spend of all companies in Q1 2026")
    assert out.answer.status == "answered", out.answer.text
    companies = [c for (c,) in one(world, "select company_id from marts.dim_companies where tenant_id = %s "
                                   "order by company_id", SEED_TENANT)]
    amounts = {company: total(world, company, "2026-01-01", "2026-04-01") for company in companies}
    assert f"({', '.join(companies)})'s spend in 2026-Q1 [2026-01-01, 2026-04-01) was " \
           f"{money(sum(amounts.values(), Decimal(0)))} EUR" in out.answer.text
    for company, amount in amounts.items():
        assert f"{company} {money(amount)} EUR" in out.answer.text
    assert ask(world, app_conn, "Company A spend across all companies in Q1 2026").answer.status == "clarification"
    assert ask(world, app_conn, "Total spend in Q1 2026").answer.status == "clarification"


def test_a_groups_share_of_an_enclosing_group(world: World, app_conn: psycopg.Connection) -> None:
    def under(root: str) -> list[str]:
        rows = one(world, "with recursive g(id) as (select %s::text union select p.product_group_id from "
                   "marts.dim_product_groups p join g on p.parent_group_id = g.id where p.tenant_id = %s) "
                   "select id from g", root, SEED_TENANT)
        return [r[0] for r in rows]

    part = total(world, "COMP-A", "2025-01-01", "2026-01-01", "and product_group_id = any(%s)", under("PG-PRES"))
    whole = total(world, "COMP-A", "2025-01-01", "2026-01-01", "and product_group_id = any(%s)", under("PG-SENS"))
    out = ask(world, app_conn, "What share of Company A's Sensors spend in 2025 went to Pressure Sensors?")
    assert out.answer.status == "answered", out.answer.text
    share = (100 * part / whole).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    assert f"{share} % ({money(part)} EUR of {money(whole)} EUR" in out.answer.text


def test_a_share_by_quarter_gives_every_quarter(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "Supplier Beta's share of Company A's spend in 2025 by quarter")
    assert out.answer.status == "answered", out.answer.text
    for start, end in (("2025-07-01", "2025-10-01"), ("2025-10-01", "2026-01-01")):
        whole = total(world, "COMP-A", start, end)
        part = total(world, "COMP-A", start, end, "and supplier_id = %s", "SUP-18")
        assert f"period from {start}: " in out.answer.text
        assert f"({money(part)} EUR of {money(whole)} EUR)" in out.answer.text


def test_a_figure_the_intent_rules_missed_is_still_a_figure(world: World, app_conn: psycopg.Connection) -> None:
    out = ask(world, app_conn, "What did Company B pay Supplier Epsilon last quarter?")
    assert out.routing.workflow == "spend", out.answer.text
    amount = total(world, "COMP-B", "2026-01-01", "2026-04-01", "and supplier_id = %s", "SUP-22")
    assert f"{money(amount)} EUR" in out.answer.text


@pytest.mark.parametrize("question", ["Company B days payable outstanding with Supplier Delta in Q4 2025",
                                      "What was Company A's average lead time with Beta in 2025?",
                                      "Company A freight costs in Q1 2026",
                                      "Company A spend on PRD-999 in 2025"])
def test_what_no_metric_computes_is_asked_about(world: World, app_conn: psycopg.Connection, question: str) -> None:
    out = ask(world, app_conn, question)
    assert out.answer.status == "clarification", out.answer.text
