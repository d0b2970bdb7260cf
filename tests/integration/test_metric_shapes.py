"""Shares, period comparisons, rankings, exclusions, status and document-type filters, document-currency spend and
the average unit price, through the metric API, against an independent calculation to the cent.

The world is generated here (seeded, deterministic): two companies, seven suppliers (SUP-99 never has a line),
three product groups and lines without one, three currencies, credit notes (SUP-6's outweigh its invoices),
drafts, cancelled lines and replicated duplicates over 2025-2026, plus a second tenant with the same ids that
must never show. The expected answers are computed below in plain Python over those rows (sign, rate and
policy written out here, not taken from the semantic layer) and compared with the API's strings; hypothesis
draws the requests (seeded, bounded), and the edge cases are asserted by name.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from api.main import create_app
from procura.settings import Settings
from semantic.loader import MetricRegistry, load_registry
from semantic.testing import build_governed_marts, delete_tenants, insert_lines, line

pytestmark = pytest.mark.integration

D = Decimal
COMPANIES = ("COMP-A", "COMP-B")
SUPPLIERS = ("SUP-1", "SUP-2", "SUP-3", "SUP-4", "SUP-5", "SUP-6", "SUP-99")
GROUPS = ("PG-A", "PG-B", "PG-C")
PRODUCTS = {"PRD-1": "PG-A", "PRD-2": "PG-A", "PRD-3": "PG-B", "PRD-4": "PG-B", "PRD-5": "PG-C", "PRD-6": None}
CURRENCIES = {"EUR": (D("1"), D("1")), "USD": (D("0.85"), D("0.95")), "GBP": (D("1.10"), D("1.20"))}
QUARTERS = tuple(
    (dt.date(y, m, 1), dt.date(y + (m == 10), 1 if m == 10 else m + 3, 1)) for y in (2025, 2026) for m in (1, 4, 7, 10)
)
MONTHS = tuple((dt.date(2026, m, 1), dt.date(2026, m + 1, 1)) for m in range(1, 12))
PERIODS = (*QUARTERS, *MONTHS, (dt.date(2026, 2, 10), dt.date(2026, 3, 17)), (dt.date(2025, 1, 1), dt.date(2027, 1, 1)))
DEFAULT_STATUSES = ("posted", "paid")
DOC_TYPES = ("invoice", "credit_note")
#: The quarter in which SUP-4 and SUP-5 spend exactly the same with COMP-A (and nobody else spends in between).
TIE_QUARTER = (dt.date(2026, 10, 1), dt.date(2027, 1, 1))
EXAMPLES = hsettings(max_examples=30, derandomize=True, deadline=None, database=None,
                     suppress_health_check=[HealthCheck.too_slow])


# --- the world ---------------------------------------------------------------------------------------------------
def generate_rows(tenant: str, seed: int) -> list[dict[str, Any]]:
    """Lines of one tenant: random over 2025-2026, plus the hand-placed edge cases."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []

    def add(number: str, n: int, **values: Any) -> None:
        net = values.pop("net")
        rows.append(line(tenant, number, n, line_net_amount=net, line_tax_amount=(net * D("0.19")).quantize(D("0.01")),
                         **values))

    for i in range(360):
        company = rng.choice(COMPANIES)
        start = dt.date(2026, 1, 1) if company == "COMP-B" else dt.date(2025, 1, 1)  # COMP-B: no 2025 (empty base)
        day = start + dt.timedelta(days=rng.randrange((dt.date(2026, 10, 1) - start).days))
        supplier = rng.choice(SUPPLIERS[:5])
        product = rng.choice(sorted(PRODUCTS))
        currency = rng.choice(sorted(CURRENCIES))
        low, high = CURRENCIES[currency]
        fx = (low + (high - low) * D(rng.randrange(10**6)) / 10**6).quantize(D("0.00000001"))
        status = rng.choices(("posted", "paid", "draft", "cancelled"), (5, 5, 1, 1))[0]
        add(f"INV-{i:04d}", 1, company_id=company, supplier_id=supplier, product_code=product,
            product_group_id=PRODUCTS[product], invoice_date=day, currency=currency,
            fx_rate_to_reporting_currency=fx, invoice_status=status,
            document_type="credit_note" if rng.random() < 0.15 else "invoice",
            is_duplicate=rng.random() < 0.04, quantity=D(rng.randrange(1, 500)) / 10,
            net=D(rng.randrange(1000, 500000)) / 100)
    # SUP-6: credit notes larger than its invoices (negative spend), in COMP-A, 2026-Q1 and Q2.
    for i, (day, kind, net) in enumerate(((dt.date(2026, 2, 3), "invoice", D("1000.00")),
                                          (dt.date(2026, 3, 9), "credit_note", D("2500.00")),
                                          (dt.date(2026, 5, 9), "credit_note", D("300.00")))):
        add(f"SIX-{i}", 1, company_id="COMP-A", supplier_id="SUP-6", product_code="PRD-3", product_group_id="PG-B",
            invoice_date=day, document_type=kind, net=net, quantity=D("5"))
    # The tie: the only 2026-Q4 lines, SUP-4 and SUP-5 exactly equal, SUP-1 above, SUP-2 below.
    for supplier, net in (("SUP-1", D("900.00")), ("SUP-4", D("500.00")), ("SUP-5", D("500.00")), ("SUP-2", D("10"))):
        add(f"TIE-{supplier}", 1, company_id="COMP-A", supplier_id=supplier, product_code="PRD-5",
            product_group_id="PG-C", invoice_date=dt.date(2026, 11, 2), net=net)
    return rows


class World:
    """The tenant's rows, its API key and the client."""

    def __init__(self, tenant: str, rows: list[dict[str, Any]], key: str, client: TestClient) -> None:
        self.tenant, self.rows, self.key, self.client = tenant, rows, key, client

    def query(self, metric: str, parameters: Mapping[str, Any], group_by: Iterable[str] = (),
              grain: str | None = None, *, status: int = 200) -> dict[str, Any]:
        body = {"parameters": dict(parameters), "group_by": list(group_by), "grain": grain}
        response = self.client.post(f"/v1/metrics/{metric}/query", json=body,
                                    headers={"Authorization": f"Bearer {self.key}"})
        assert response.status_code == status, (metric, body, response.text)
        return response.json()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def registry(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> MetricRegistry:
    return load_registry(build_governed_marts(settings, tmp_path_factory.mktemp("dbt")).schema)


@pytest.fixture(scope="module")
def world(settings: Settings, registry: MetricRegistry) -> Iterator[World]:
    from procura.auth import create_key

    tenant, other = f"shapes-{secrets.token_hex(3)}", f"shapes-other-{secrets.token_hex(3)}"
    rows = generate_rows(tenant, 22)
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        insert_lines(admin, rows + generate_rows(other, 23))  # same ids, other numbers: must never show
    try:
        with psycopg.connect(settings.owner_url, autocommit=True) as owner:
            key = create_key(owner, tenant_id=tenant, scopes=["invoice:aggregate", "procurement:read"],
                             principal_id="shapes@tests", rate_limit_per_minute=100_000).key
        with TestClient(create_app(settings, registry=registry)) as client:
            yield World(tenant, rows, key, client)
    finally:
        with psycopg.connect(settings.admin_url, autocommit=True) as admin:
            delete_tenants(admin, [tenant, other])


# --- the independent calculation ---------------------------------------------------------------------------------
def spend(row: Mapping[str, Any]) -> Decimal:
    sign = -1 if row["document_type"] == "credit_note" else 1
    return sign * (row["line_net_amount"] + row["line_tax_amount"]) * row["fx_rate_to_reporting_currency"]


def document_spend(row: Mapping[str, Any]) -> Decimal:
    sign = -1 if row["document_type"] == "credit_note" else 1
    return sign * (row["line_net_amount"] + row["line_tax_amount"])


def net(row: Mapping[str, Any]) -> Decimal:
    sign = -1 if row["document_type"] == "credit_note" else 1
    return sign * row["line_net_amount"] * row["fx_rate_to_reporting_currency"]


def units(row: Mapping[str, Any]) -> Decimal:
    return (-1 if row["document_type"] == "credit_note" else 1) * row["quantity"]


def matching(rows: Iterable[Mapping[str, Any]], p: Mapping[str, Any], *, period: bool = True,
             skip: Iterable[str] = ()) -> list[Mapping[str, Any]]:
    """The lines a request selects: counted, recognized status, type, company, period and every filter given."""
    skipped = set(skip)
    out = []
    for r in rows:
        if r["is_cancelled"] or r["is_duplicate"] or r["reporting_currency"] != "EUR":
            continue
        if r["invoice_status"] not in p.get("invoice_statuses", DEFAULT_STATUSES):
            continue
        if r["document_type"] not in p.get("document_types", DOC_TYPES):
            continue
        if any(k in p and k not in skipped and not _passes(r, k, p[k]) for k in _FILTERS):
            continue
        if r["currency"] in p.get("exclude_document_currencies", ()):
            continue
        if period and not (p["start_date"] <= r["invoice_date"].isoformat() < p["end_date"]):
            continue
        out.append(r)
    return out


_FILTERS = ("company_id", "product_code", "document_currency", "supplier_ids", "exclude_supplier_ids",
            "product_group_ids", "exclude_product_group_ids")


def _passes(r: Mapping[str, Any], name: str, value: Any) -> bool:
    column = {"company_id": "company_id", "product_code": "product_code", "document_currency": "currency"}
    if name in column:
        return bool(r[column[name]] == value)
    key = "supplier_id" if "supplier" in name else "product_group_id"
    return (r[key] not in value) if name.startswith("exclude_") else (r[key] in value)


def money(value: Decimal) -> str:
    return str(value.quantize(D("0.01"), rounding=ROUND_HALF_UP))


def scaled(value: Decimal | None, scale: int) -> str | None:
    return None if value is None else str(value.quantize(D(1).scaleb(-scale), rounding=ROUND_HALF_UP))


def percent(part: Decimal, whole: Decimal, scale: int) -> str | None:
    return None if whole == 0 else scaled(100 * part / whole, scale)


# --- strategies --------------------------------------------------------------------------------------------------
def subsets(items: Iterable[str], max_size: int = 3) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(sorted(items)), min_size=1, max_size=max_size, unique=True)


@st.composite
def common(draw: st.DrawFn, *, filters: bool = True) -> dict[str, Any]:
    start, end = draw(st.sampled_from(PERIODS))
    p: dict[str, Any] = {"company_id": draw(st.sampled_from(COMPANIES)), "start_date": start.isoformat(),
                         "end_date": end.isoformat()}
    if filters:
        for name, items in (("exclude_supplier_ids", SUPPLIERS), ("product_group_ids", GROUPS),
                            ("exclude_product_group_ids", GROUPS)):
            if draw(st.booleans()):
                p[name] = draw(subsets(items))
        if draw(st.booleans()):
            p["invoice_statuses"] = draw(subsets(("draft", "posted", "paid")))
        if draw(st.booleans()):
            p["document_types"] = draw(subsets(DOC_TYPES))
    return p


# --- exclusions, status and document-type filters ----------------------------------------------------------------
@EXAMPLES
@given(p=common(), left_out=st.lists(st.sampled_from(("EUR", "USD", "GBP")), max_size=1))
def test_company_spend_with_exclusions_and_filters_matches(world: World, p: dict[str, Any],
                                                           left_out: list[str]) -> None:
    if left_out:
        p["exclude_document_currencies"] = left_out  # the reporting total of the non-EUR invoices
    result = world.query("finance.company_spend", p)
    lines = matching(world.rows, p)
    if not lines:
        assert result["status"] == "no_data" and result["rows"] == []
        return
    (row,) = result["rows"]
    assert row["values"]["total_spend"] == money(sum(map(spend, lines), D(0)))
    assert row["values"]["matched_line_count"] == len(lines)
    assert row["provenance"]["source_line_count"] == len(lines)


def test_every_supplier_excluded_alone_leaves_the_rest(world: World) -> None:
    for company in COMPANIES:
        for start, end in QUARTERS:
            base = {"company_id": company, "start_date": start.isoformat(), "end_date": end.isoformat()}
            whole = sum(map(spend, matching(world.rows, base)), D(0))
            for supplier in SUPPLIERS:
                p = {**base, "exclude_supplier_ids": [supplier]}
                left = matching(world.rows, p)
                result = world.query("finance.company_spend", p)
                got = result["rows"][0]["values"]["total_spend"] if result["rows"] else None
                assert got == (money(sum(map(spend, left), D(0))) if left else None), (p, result["status"])
                if supplier == "SUP-99":  # an excluded supplier without lines changes nothing
                    assert got == (money(whole) if left else None)


def test_unpaid_is_posted_and_credit_notes_only(world: World) -> None:
    p = {"company_id": "COMP-A", "start_date": "2025-01-01", "end_date": "2027-01-01"}
    unpaid = world.query("finance.company_spend", {**p, "invoice_statuses": ["posted"]})["rows"][0]["values"]
    expected = [r for r in matching(world.rows, p) if r["invoice_status"] == "posted"]
    assert unpaid["total_spend"] == money(sum(map(spend, expected), D(0)))
    credits = world.query("finance.company_spend", {**p, "document_types": ["credit_note"]})["rows"][0]["values"]
    expected = [r for r in matching(world.rows, p) if r["document_type"] == "credit_note"]
    assert D(credits["total_spend"]) < 0
    assert credits["total_spend"] == money(sum(map(spend, expected), D(0)))


# --- shares ------------------------------------------------------------------------------------------------------
@EXAMPLES
@given(p=common(), part=subsets(SUPPLIERS), by_group=st.booleans())
def test_supplier_share_matches(world: World, p: dict[str, Any], part: list[str], by_group: bool) -> None:
    p = {**p, "supplier_ids": part}
    result = world.query("finance.supplier_share", p, ["product_group_id"] if by_group else [])
    lines = matching(world.rows, p, skip=["supplier_ids"])
    buckets: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    for r in lines:
        buckets[r["product_group_id"] if by_group else None].append(r)
    got = {(r["values"].get("product_group_id") if by_group else None): r["values"] for r in result["rows"]}
    assert set(got) == set(buckets), (got, set(buckets))
    for key, rows in buckets.items():
        whole = sum(map(spend, rows), D(0))
        part_sum = sum((spend(r) for r in rows if r["supplier_id"] in part), D(0))
        values = got[key]
        assert values["part_value"] == money(part_sum)
        assert values["whole_value"] == money(whole)
        assert values["share_percent"] == percent(part_sum, whole, 4)
        assert values["part_line_count"] == sum(1 for r in rows if r["supplier_id"] in part)


def test_every_supplier_share_of_every_group_and_quarter(world: World) -> None:
    for start, end in QUARTERS[4:]:
        for group in GROUPS:
            p = {"company_id": "COMP-A", "start_date": start.isoformat(), "end_date": end.isoformat(),
                 "product_group_ids": [group]}
            whole_lines = matching(world.rows, p)
            for supplier in SUPPLIERS:
                result = world.query("finance.supplier_share", {**p, "supplier_ids": [supplier]})
                if not whole_lines:
                    assert result["status"] == "no_data"
                    continue
                whole = sum(map(spend, whole_lines), D(0))
                part_sum = sum((spend(r) for r in whole_lines if r["supplier_id"] == supplier), D(0))
                assert result["rows"][0]["values"]["share_percent"] == percent(part_sum, whole, 4)


# --- period comparisons ------------------------------------------------------------------------------------------
def expected_base(start: dt.date, end: dt.date, compare: str) -> tuple[dt.date, dt.date]:
    """Written out independently of semantic.params.base_period."""
    if compare == "same_period_last_year":
        def back(d: dt.date) -> dt.date:
            return dt.date(d.year - 1, 2, 28) if (d.month, d.day) == (2, 29) else dt.date(d.year - 1, d.month, d.day)
        return back(start), back(end)
    if start.day == 1 and end.day == 1:
        months = (end.year - start.year) * 12 + (end.month - start.month)
        y, m = start.year, start.month - months
        while m < 1:
            y, m = y - 1, m + 12
        return dt.date(y, m, 1), start
    return start - (end - start), start


@EXAMPLES
@given(p=common(), compare=st.sampled_from(("previous_period", "same_period_last_year", "custom")),
       by=st.sampled_from((None, "supplier_id", "product_group_id", "product_code")),
       custom=st.sampled_from(PERIODS))
def test_spend_comparison_matches(world: World, p: dict[str, Any], compare: str, by: str | None,
                                  custom: tuple[dt.date, dt.date]) -> None:
    start, end = dt.date.fromisoformat(p["start_date"]), dt.date.fromisoformat(p["end_date"])
    if compare == "custom":
        base_start, base_end = custom
        p = {**p, "base_start_date": base_start.isoformat(), "base_end_date": base_end.isoformat()}
    else:
        base_start, base_end = expected_base(start, end, compare)
    result = world.query("finance.spend_comparison", {**p, "compare_to": compare}, [by] if by else [])
    assert result["parameters"]["base_start_date"] == base_start.isoformat()
    assert result["parameters"]["base_end_date"] == base_end.isoformat()
    everything = matching(world.rows, p, period=False)
    current = [r for r in everything if start <= r["invoice_date"] < end]
    base = [r for r in everything if base_start <= r["invoice_date"] < base_end]
    keys = {r[by] if by else None for r in current + base}
    got = {(r["values"][by] if by else None): r["values"] for r in result["rows"]}
    assert set(got) == keys
    if not keys:
        assert result["status"] == "no_data"
    for key in keys:
        cur = [r for r in current if not by or r[by] == key]
        old = [r for r in base if not by or r[by] == key]
        c, b = sum(map(spend, cur), D(0)), sum(map(spend, old), D(0))
        values = got[key]
        assert (values["total_spend"], values["base_value"], values["change"]) == (money(c), money(b), money(c - b))
        assert values["change_percent"] == (None if not old or b == 0 else scaled(100 * (c - b) / abs(b), 2))
        assert values["comparison"] == ("no_base_data" if not old else "zero_base" if b == 0 else "compared")
        assert (values["current_line_count"], values["base_line_count"]) == (len(cur), len(old))


def test_empty_base_period_is_stated_not_zero(world: World) -> None:
    # COMP-B has no 2025 lines: its 2026-Q1 has neither a previous quarter nor a last year.
    for compare in ("previous_period", "same_period_last_year"):
        result = world.query("finance.spend_comparison", {"company_id": "COMP-B", "start_date": "2026-01-01",
                                                          "end_date": "2026-04-01", "compare_to": compare})
        values = result["rows"][0]["values"]
        assert values["comparison"] == "no_base_data" and values["change_percent"] is None
        assert values["base_value"] == "0.00" and values["change"] == values["total_spend"]
        assert values["base_line_count"] == 0


def test_negative_base_from_credit_notes_changes_by_its_magnitude(world: World) -> None:
    p = {"company_id": "COMP-A", "supplier_ids": ["SUP-6"], "start_date": "2026-04-01", "end_date": "2026-07-01"}
    values = world.query("finance.spend_comparison", p)["rows"][0]["values"]
    # base Q1: 1190.00 - 2975.00 = -1785.00; Q2: -357.00; change +1428.00 = +80.00 % of |base|
    assert (values["base_value"], values["total_spend"], values["change"]) == ("-1785.00", "-357.00", "1428.00")
    assert values["change_percent"] == "80.00"


# --- rankings ----------------------------------------------------------------------------------------------------
MEASURES = {"total_spend": spend, "net_spend": net, "units": units}


@EXAMPLES
@given(p=common(), by=st.sampled_from(("supplier_id", "product_group_id", "product_code")),
       order_by=st.sampled_from(("total_spend", "net_spend", "units", "matched_line_count")),
       direction=st.sampled_from(("top", "bottom")), limit=st.integers(1, 7))
def test_spend_ranking_matches(world: World, p: dict[str, Any], by: str, order_by: str, direction: str,
                               limit: int) -> None:
    result = world.query("finance.spend_ranking", {**p, "order_by": order_by, "direction": direction,
                                                   "limit": limit}, [by])
    groups: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    for r in matching(world.rows, p):
        groups[r[by]].append(r)

    def measure(rows: list[Mapping[str, Any]]) -> Decimal:
        return D(len(rows)) if order_by == "matched_line_count" else sum(map(MEASURES[order_by], rows), D(0))

    value = {k: measure(v) for k, v in groups.items()}
    total = sum(value.values(), D(0))
    sign = -1 if direction == "top" else 1
    rank = {k: 1 + sum(1 for o in value if sign * value[o] < sign * value[k]) for k in value}
    kept = sorted((k for k in value if rank[k] <= limit), key=lambda k: (rank[k], k is None, k or ""))
    got = result["rows"]
    assert [r["values"][by] for r in got] == kept
    for row in got:
        key, values = row["values"][by], row["values"]
        assert values["rank"] == rank[key]
        assert values["tie_count"] == sum(1 for o in value if rank[o] == rank[key])
        assert values["groups_ranked"] == len(value)
        assert values["total_spend"] == money(sum(map(spend, groups[key]), D(0)))
        assert values["net_spend"] == money(sum(map(net, groups[key]), D(0)))
        assert values["units"] == scaled(sum(map(units, groups[key]), D(0)), 4)
        assert values["share_of_total_percent"] == percent(value[key], total, 4)
        assert row["provenance"]["source_line_count"] == len(groups[key])
        assert set(row["provenance"]["source_line_ids"]) <= {r["line_id"] for r in groups[key]}
    if not value:
        assert result["status"] == "no_data"


def test_ties_at_the_cut_are_all_returned_and_stated(world: World) -> None:
    p = {"company_id": "COMP-A", "start_date": TIE_QUARTER[0].isoformat(), "end_date": TIE_QUARTER[1].isoformat()}
    rows = world.query("finance.spend_ranking", {**p, "limit": 2}, ["supplier_id"])["rows"]
    assert [(r["values"]["supplier_id"], r["values"]["rank"], r["values"]["tie_count"]) for r in rows] == [
        ("SUP-1", 1, 1), ("SUP-4", 2, 2), ("SUP-5", 2, 2)]
    assert all(r["values"]["groups_ranked"] == 4 for r in rows)
    rows = world.query("finance.spend_ranking", {**p, "limit": 1}, ["supplier_id"])["rows"]
    assert [r["values"]["supplier_id"] for r in rows] == ["SUP-1"]
    bottom = world.query("finance.spend_ranking", {**p, "limit": 2, "direction": "bottom"}, ["supplier_id"])["rows"]
    assert [(r["values"]["supplier_id"], r["values"]["rank"]) for r in bottom] == [
        ("SUP-2", 1), ("SUP-4", 2), ("SUP-5", 2)]


def test_credit_notes_larger_than_invoices_rank_last(world: World) -> None:
    p = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "direction": "bottom",
         "limit": 1}
    (row,) = world.query("finance.spend_ranking", p, ["supplier_id"])["rows"]
    assert row["values"]["supplier_id"] == "SUP-6" and row["values"]["total_spend"] == "-1785.00"


# --- document currency and unit price ----------------------------------------------------------------------------
@EXAMPLES
@given(p=common(filters=False), currency=st.sampled_from((None, "EUR", "USD", "GBP")),
       excluded=st.lists(st.sampled_from(SUPPLIERS), max_size=2, unique=True),
       left_out=st.lists(st.sampled_from(("EUR", "USD", "GBP")), max_size=2, unique=True))
def test_document_currency_spend_matches(world: World, p: dict[str, Any], currency: str | None,
                                         excluded: list[str], left_out: list[str]) -> None:
    if currency:
        p["document_currency"] = currency
    if excluded:
        p["exclude_supplier_ids"] = excluded
    if left_out:
        # "non-EUR invoices": the currencies left out (exclude_document_currencies)
        p["exclude_document_currencies"] = left_out
    result = world.query("finance.document_currency_spend", p, [] if currency else ["currency"])
    buckets: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for r in matching(world.rows, p):
        buckets[r["currency"]].append(r)
    got = {(currency or r["values"]["currency"]): r["values"] for r in result["rows"]}
    assert set(got) == set(buckets)
    for cur, rows in buckets.items():
        assert got[cur]["document_spend"] == money(sum(map(document_spend, rows), D(0)))
        assert got[cur]["total_spend"] == money(sum(map(spend, rows), D(0)))
    if currency and buckets:
        unit = {c["name"]: c["unit"] for c in result["columns"]}
        assert unit["document_spend"] == currency and unit["total_spend"] == "EUR"


def test_average_unit_price_of_every_product_and_quarter(world: World) -> None:
    for product in sorted(PRODUCTS):
        for start, end in QUARTERS:
            p = {"product_code": product, "start_date": start.isoformat(), "end_date": end.isoformat()}
            result = world.query("catalog.average_unit_price", p)
            lines = matching(world.rows, p)
            if not lines:
                assert result["status"] == "no_data"
                continue
            values = result["rows"][0]["values"]
            n, q = sum(map(net, lines), D(0)), sum(map(units, lines), D(0))
            assert values["unit_price"] == (None if q == 0 else scaled(n / q, 4)), (product, start)
            assert (values["quantity"], values["net_amount"]) == (scaled(q, 4), money(n))


def test_average_unit_price_of_invoices_only_and_of_one_invoice_currency(world: World) -> None:
    # "invoices only (ignore credit notes)" and "(EUR invoices)": the same quantity-weighted average over the lines
    # of those documents only, still in the reporting currency; the range takes the invoice currency too
    for product in sorted(PRODUCTS):
        for start, end in QUARTERS[:4]:
            base = {"product_code": product, "start_date": start.isoformat(), "end_date": end.isoformat()}
            for extra in ({"document_types": ["invoice"]}, {"document_currency": "EUR"},
                          {"document_currency": "USD", "document_types": ["invoice"]}):
                p = {**base, **extra}
                result = world.query("catalog.average_unit_price", p)
                lines = matching(world.rows, p)
                if not lines:
                    assert result["status"] == "no_data", (p, result["status"])
                    continue
                n, q = sum(map(net, lines), D(0)), sum(map(units, lines), D(0))
                assert result["rows"][0]["values"]["unit_price"] == (None if q == 0 else scaled(n / q, 4)), p
            p = {**base, "document_currency": "EUR"}
            priced = [r for r in matching(world.rows, p) if r["document_type"] == "invoice" and r["quantity"] > 0]
            values = world.query("catalog.unit_price_range", p)["rows"]
            if priced:
                prices = [net(r) / units(r) for r in priced]
                assert (values[0]["values"]["lowest_unit_price"], values[0]["values"]["highest_unit_price"]) == \
                    (scaled(min(prices), 4), scaled(max(prices), 4)), p


def test_document_currency_unit_price_of_every_product_and_quarter(world: World) -> None:
    # the price as invoiced: per document currency, the signed line net in that currency over the signed units
    # (credit notes included), never averaged across currencies; computed here from the raw lines
    for product in sorted(PRODUCTS):
        for start, end in QUARTERS:
            p = {"product_code": product, "start_date": start.isoformat(), "end_date": end.isoformat()}
            result = world.query("catalog.document_currency_unit_price", p, ["currency"])
            buckets: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
            for r in matching(world.rows, p):
                buckets[r["currency"]].append(r)
            got = {r["values"]["currency"]: r["values"] for r in result["rows"]}
            assert set(got) == set(buckets), (product, start)
            for cur, rows in buckets.items():
                sign = [-1 if r["document_type"] == "credit_note" else 1 for r in rows]
                n = sum((s * r["line_net_amount"] for s, r in zip(sign, rows, strict=True)), D(0))
                q = sum(map(units, rows), D(0))
                assert got[cur]["document_unit_price"] == (None if q == 0 else scaled(n / q, 4)), (product, cur)
                assert got[cur]["net_document_amount"] == money(n)
                assert got[cur]["net_amount"] == money(sum(map(net, rows), D(0)))


# --- supplier count, largest invoices, a group's share of other groups -------------------------------------------
@EXAMPLES
@given(p=common())
def test_supplier_count_matches(world: World, p: dict[str, Any]) -> None:
    p = {k: v for k, v in p.items() if k != "exclude_supplier_ids"}  # the count takes no supplier filter
    result = world.query("finance.supplier_count", p)
    lines = matching(world.rows, p)
    got = result["rows"][0]["values"]["supplier_count"] if result["rows"] else 0
    assert got == len({r["supplier_id"] for r in lines}), (p, result["status"])


@EXAMPLES
@given(p=common())
def test_product_count_matches(world: World, p: dict[str, Any]) -> None:
    result = world.query("finance.product_count", p)
    got = result["rows"][0]["values"]["product_count"] if result["rows"] else 0
    assert got == len({r["product_code"] for r in matching(world.rows, p)}), (p, result["status"])


@EXAMPLES
@given(p=common())
def test_invoice_line_count_matches(world: World, p: dict[str, Any]) -> None:
    result = world.query("finance.invoice_line_count", p)
    got = result["rows"][0]["values"]["line_count"] if result["rows"] else 0
    assert got == len(matching(world.rows, p)), (p, result["status"])


@EXAMPLES
@given(p=common(filters=False), limit=st.integers(1, 6), direction=st.sampled_from(("top", "bottom")),
       suppliers=st.one_of(st.none(), subsets(SUPPLIERS)))
def test_largest_invoices_match(world: World, p: dict[str, Any], limit: int, direction: str,
                                suppliers: list[str] | None) -> None:
    p = {**p, **({"supplier_ids": suppliers} if suppliers else {})}
    result = world.query("finance.largest_invoices", {**p, "limit": limit, "direction": direction},
                         ["invoice_number"])
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for r in matching(world.rows, {**p, "document_types": ["invoice"]}):  # credit notes are no invoices
        totals[r["invoice_number"]] += spend(r)
    ordered = sorted(totals.values(), reverse=direction == "top")
    cut = ordered[min(limit, len(ordered)) - 1] if ordered else None
    expected = {n for n, v in totals.items() if (v >= cut if direction == "top" else v <= cut)} if ordered else set()
    got = {r["values"]["invoice_number"]: r["values"]["grand_total"] for r in result["rows"]}
    assert set(got) == expected, (p, limit, direction)
    assert all(total == money(totals[number]) for number, total in got.items())


@EXAMPLES
@given(p=common(filters=False), part=subsets(GROUPS, 2), whole=subsets(GROUPS, 3))
def test_a_groups_share_of_other_groups_matches(world: World, p: dict[str, Any], part: list[str],
                                                 whole: list[str]) -> None:
    result = world.query("finance.product_group_share",
                         {**p, "product_group_ids": part, "within_product_group_ids": whole})
    lines = [r for r in matching(world.rows, p) if r["product_group_id"] in whole]
    if not lines:
        assert result["status"] == "no_data"
        return
    part_sum = sum((spend(r) for r in lines if r["product_group_id"] in part), D(0))
    whole_sum = sum(map(spend, lines), D(0))
    values = result["rows"][0]["values"]
    assert (values["part_value"], values["whole_value"]) == (money(part_sum), money(whole_sum))
    assert values["share_percent"] == percent(part_sum, whole_sum, 4)


def test_unit_price_range_of_every_product_and_quarter(world: World) -> None:
    """catalog.unit_price_range: the lowest/highest net unit price of a counted invoice line (not a credit note)."""
    for product in sorted(PRODUCTS):
        for start, end in QUARTERS:
            p = {"product_code": product, "start_date": start.isoformat(), "end_date": end.isoformat()}
            result = world.query("catalog.unit_price_range", p)
            lines = [r for r in matching(world.rows, p) if r["document_type"] == "invoice" and r["quantity"] > 0]
            if not lines:
                assert result["status"] == "no_data" or result["rows"][0]["values"]["lowest_unit_price"] is None
                continue
            values = result["rows"][0]["values"]
            prices = [net(r) / units(r) for r in lines]
            assert (values["lowest_unit_price"], values["highest_unit_price"]) == \
                (scaled(min(prices), 4), scaled(max(prices), 4)), (product, start)


# --- combinations a metric does not allow ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("metric", "body", "field"),
    [
        ("finance.spend_ranking", {"parameters": {}, "group_by": []}, "group_by"),
        ("finance.spend_ranking", {"parameters": {}, "group_by": ["supplier_id", "product_code"]}, "group_by"),
        ("finance.spend_ranking", {"parameters": {}, "group_by": ["supplier_id"], "grain": "month"}, "grain"),
        ("finance.spend_ranking", {"parameters": {"limit": 0}, "group_by": ["supplier_id"]}, "limit"),
        ("finance.spend_ranking", {"parameters": {"limit": 101}, "group_by": ["supplier_id"]}, "limit"),
        ("finance.spend_ranking", {"parameters": {"order_by": "company_id"}, "group_by": ["supplier_id"]},
         "order_by"),
        ("finance.spend_comparison", {"parameters": {"compare_to": "custom"}}, "base_start_date"),
        ("finance.spend_comparison", {"parameters": {"base_start_date": "2025-01-01", "base_end_date": "2025-04-01"}},
         "base_start_date"),
        ("finance.spend_comparison", {"parameters": {"compare_to": "custom", "base_start_date": "2025-04-01",
                                                     "base_end_date": "2025-01-01"}}, "base_end_date"),
        ("finance.spend_comparison", {"parameters": {}, "grain": "month"}, "grain"),
        ("finance.document_currency_spend", {"parameters": {}}, "document_currency"),
        ("finance.company_spend", {"parameters": {"document_types": ["receipt"]}}, "document_types[0]"),
        ("finance.company_spend", {"parameters": {"invoice_statuses": ["cancelled"]}}, "invoice_statuses[0]"),
        ("finance.supplier_share", {"parameters": {}, "group_by": ["supplier_id"]}, "group_by"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_combination_the_metric_does_not_allow_is_a_422_naming_the_field(
    world: World, metric: str, body: dict[str, Any], field: str
) -> None:
    base: dict[str, Any] = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01"}
    if metric == "finance.supplier_share":
        base["supplier_ids"] = ["SUP-1"]
    response = world.client.post(
        f"/v1/metrics/{metric}/query", json={**body, "parameters": {**base, **body["parameters"]}},
        headers={"Authorization": f"Bearer {world.key}"},
    )
    assert response.status_code == 422, response.text
    assert response.json()["error"]["parameter"] == field, response.text


# --- the same through MCP ----------------------------------------------------------------------------------------
def test_mcp_query_metric_serves_the_shapes_and_names_the_field_it_refuses(world: World, settings: Settings) -> None:
    import json
    from types import SimpleNamespace

    import anyio
    from mcp import Client
    from psycopg_pool import ConnectionPool

    from procura.db.session import AuthContext
    from router.mcp_server import build_server
    from router.tools import ToolEnv

    p = {"company_id": "COMP-A", "start_date": TIE_QUARTER[0].isoformat(), "end_date": TIE_QUARTER[1].isoformat(),
         "limit": 2}
    comparison = {"company_id": "COMP-B", "start_date": "2026-01-01", "end_date": "2026-04-01"}
    auth = AuthContext(tenant_id=world.tenant, principal_id="mcp@tests",
                       scopes=frozenset({"invoice:aggregate", "procurement:read"}))
    app_state: Any = world.client.app.state  # type: ignore[attr-defined]
    with ConnectionPool(settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True}, open=True) as pool:
        services = SimpleNamespace(pool=pool, ask_service=None, env=ToolEnv(metric_service=app_state.service))
        server = build_server(services, fixed_auth=auth)

        async def main() -> tuple[Any, Any, Any]:
            async with Client(server) as client:
                ranking = await client.call_tool("query_metric", {"metric": "finance.spend_ranking", "parameters": p,
                                                                  "group_by": ["supplier_id"]})
                compared = await client.call_tool("query_metric", {"metric": "finance.spend_comparison",
                                                                   "parameters": comparison})
                refused = await client.call_tool("query_metric", {"metric": "finance.spend_ranking",
                                                                  "parameters": p})
                return ranking, compared, refused

        ranking, compared, refused = anyio.run(main)
    data = ranking.structured_content or json.loads(ranking.content[0].text)
    api = world.query("finance.spend_ranking", p, ["supplier_id"])
    assert [dict(r) for r in data["rows"]] == [r["values"] for r in api["rows"]]
    compared_data = compared.structured_content or json.loads(compared.content[0].text)
    assert compared_data["values"]["comparison"] == "no_base_data"
    assert compared_data["parameters"]["base_start_date"] == "2025-10-01"
    assert refused.is_error and "group_by" in refused.content[0].text
