"""Test support for the semantic layer and the API (imported by tests only).

Integration tests need the governed marts and rows in them for more than one tenant. The marts are built by the
real dbt project (:func:`procura.transform.build_marts`, into a private target folder so that concurrent runs
do not overwrite each other's artifacts); rows are then written directly into ``marts.validated_invoice_lines``
as the superuser, matching its contract, and removed again by tenant.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

import psycopg
from psycopg import sql

from procura.settings import REPO_ROOT, Settings
from semantic.rollups import ROLLUPS
from semantic.schema import GovernedSchema, load_manifest

_BUILT: dict[str, GovernedMarts] = {}

#: The contract columns of marts.validated_invoice_lines, in order, with the default used by :func:`line`.
LINE_DEFAULTS: Mapping[str, Any] = {
    "tenant_id": None,
    "line_id": None,
    "company_id": "COMP-A",
    "supplier_id": "SUP-18",
    "product_code": "PRD-482",
    "product_group_id": "PG-PRESSURE",
    "document_type": "invoice",
    "invoice_id": None,
    "invoice_number": None,
    "line_number": 1,
    "invoice_status": "posted",
    "is_cancelled": False,
    "is_draft": False,
    "is_duplicate": False,
    "invoice_date": dt.date(2026, 2, 14),
    "posting_date": None,
    "currency": "EUR",
    "quantity": Decimal("1.0000"),
    "unit_price": Decimal("0.0000"),
    "line_net_amount": Decimal("0.00"),
    "line_tax_amount": Decimal("0.00"),
    "fx_rate_to_reporting_currency": Decimal("1.00000000"),
    "fx_rate_type": "corporate",
    "fx_rate_date": None,
    "reporting_currency": "EUR",
    "source_document_id": None,
    "source_document_version": 1,
    "source_line_id": None,
    "ingest_seq": 1,
    # The policy columns dbt computes once per line; :func:`line` fills them from the row (see _policy_columns).
    "spend_reporting_amount": None,
    "net_reporting_amount": None,
    "tax_reporting_amount": None,
    "signed_quantity": None,
    "is_counted": None,
    "spend_document_amount": None,
}


@dataclass(frozen=True)
class GovernedMarts:
    """The result of a test build: the governed schema and the dbt target folder holding its artifacts."""

    schema: GovernedSchema
    target_dir: Path


def build_governed_marts(settings: Settings, work_dir: Path) -> GovernedMarts:
    """Build the governed marts with dbt (once per database and process) and return their schema.

    The whole project is built: singular data tests span several marts, so a partial selection fails them.

    Args:
        settings: points at the test database.
        work_dir: a private folder for dbt's target and logs.

    Returns:
        The governed schema read from the manifest of that build, and the target folder.
    """
    from procura.transform import build_marts

    cached = _BUILT.get(settings.database_name)
    if cached is not None:
        return cached
    target = work_dir / "dbt-target"
    build_marts(settings, target_path=target, log_path=work_dir / "dbt-logs")
    built = GovernedMarts(schema=load_manifest(target / "manifest.json"), target_dir=target)
    _BUILT[settings.database_name] = built
    return built


def line(tenant_id: str, invoice_number: str, line_number: int = 1, **values: Any) -> dict[str, Any]:
    """One contract-complete row of ``marts.validated_invoice_lines`` (ids derived from the invoice number)."""
    document_id = values.pop("source_document_id", None) or invoice_number.lower()
    row = dict(LINE_DEFAULTS)
    row.update(
        tenant_id=tenant_id,
        invoice_number=invoice_number,
        invoice_id=document_id,
        line_number=line_number,
        source_document_id=document_id,
        line_id=f"{document_id}-line-{line_number:02d}",
        source_line_id=f"{document_id}-line-{line_number:02d}",
    )
    row.update(values)
    row["posting_date"] = row["posting_date"] or row["invoice_date"]
    row["fx_rate_date"] = row["fx_rate_date"] or row["posting_date"]
    row["is_cancelled"] = row["invoice_status"] == "cancelled"
    row["is_draft"] = row["invoice_status"] == "draft"
    row.update(_policy_columns(row))
    unknown = set(row) - set(LINE_DEFAULTS)
    if unknown:
        raise ValueError(f"not contract columns: {sorted(unknown)}")
    return row


def _policy_columns(row: Mapping[str, Any]) -> dict[str, Any]:
    """What dbt's policy macros write for this row, for rows inserted without dbt (checked against dbt's own
    output by tests/integration/test_marts_policy.py). Spend is :func:`expected_spend` of the row alone."""
    sign = -1 if row["document_type"] == "credit_note" else 1
    fx = row["fx_rate_to_reporting_currency"]
    return {
        "spend_reporting_amount": expected_spend([row]),
        "net_reporting_amount": sign * row["line_net_amount"] * fx,
        "tax_reporting_amount": sign * row["line_tax_amount"] * fx,
        "signed_quantity": sign * row["quantity"],
        "is_counted": not row["is_cancelled"] and not row["is_duplicate"],
        "spend_document_amount": sign * (row["line_net_amount"] + row["line_tax_amount"]),
    }


def insert_lines(admin_conn: psycopg.Connection, rows: Iterable[Mapping[str, Any]]) -> int:
    """Insert rows into ``marts.validated_invoice_lines`` (superuser connection; RLS does not apply to it)."""
    columns = list(LINE_DEFAULTS)
    statement = sql.SQL("insert into marts.validated_invoice_lines ({}) values ({})").format(
        sql.SQL(", ").join(map(sql.Identifier, columns)), sql.SQL(", ").join(sql.Placeholder() * len(columns))
    )
    rows = list(rows)
    data = [tuple(r[c] for c in columns) for r in rows]
    with admin_conn.cursor() as cur:
        cur.executemany(statement, data)
    refresh_rollups(admin_conn, {r["tenant_id"] for r in rows})
    return len(data)


def rollup_model_sql(name: str) -> str:
    """The full-build SELECT of rollup model ``name``, rendered from its file with the project's macros.

    The model file is Jinja over dbt's macros (``macros/*.sql``); it is rendered here in dbt's own Jinja
    environment with every macro file of the project, as dbt renders a first build: ``ref``/``source`` name the
    relations of the current database, ``config`` is a no-op and ``is_incremental()`` is false. So a test or a
    benchmark that writes lines without dbt gets exactly the rows dbt would build, and the aggregation is written
    once, in the macros.
    """
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(extensions=["jinja2.ext.do", "jinja2.ext.loopcontrols"])
    context: dict[str, Any] = {
        "ref": lambda model_name: f"marts.{model_name}",
        "source": lambda source_name, table: f"{source_name}.{table}",
        "config": lambda **_: "",
        "is_incremental": lambda: False,
        "this": f"marts.{name}",
        "execute": False,
    }
    # One module of every macro file (they call each other), as dbt's global macro namespace. A file that
    # defines a materialization (dbt's own block tag) holds nothing a model calls.
    texts = [path.read_text() for path in sorted((REPO_ROOT / "macros").glob("*.sql"))]
    macros = "\n".join(t for t in texts if not re.search(r"{%-?\s*materialization", t))
    module = env.from_string(macros).make_module(context)
    context.update({k: getattr(module, k) for k in dir(module) if not k.startswith("_")})
    template = env.from_string((REPO_ROOT / "models" / "marts" / f"{name}.sql").read_text())
    return template.render(context).strip()


def refresh_rollups(admin_conn: psycopg.Connection, tenant_ids: Iterable[str]) -> None:
    """Rebuild these tenants' rows of every rollup mart from ``marts.validated_invoice_lines``, as dbt would.

    Rows written straight into the lines (tests, benchmarks) bypass dbt, which builds the rollups; without this
    the compiler would answer from stale rollups. The SQL is the rollup model's own, rendered with the project's
    macros (:func:`rollup_model_sql`), so no aggregation is written twice. A database built before the rollups
    existed is skipped.
    """
    ids = sorted(set(tenant_ids))
    for rollup in ROLLUPS:
        exists = admin_conn.execute("select to_regclass(%s) is not null", (rollup.relation,)).fetchone()
        if not exists or not exists[0]:
            continue
        body = rollup_model_sql(rollup.relation.split(".")[1])
        table = sql.Identifier(*rollup.relation.split("."))
        admin_conn.execute(sql.SQL("delete from {} where tenant_id = any(%s)").format(table), (ids,))
        admin_conn.execute(
            sql.SQL("insert into {} select * from ({}) as rollup where tenant_id = any(%s)").format(
                table,
                sql.SQL(body.replace("%", "%%")),  # type: ignore[arg-type]  # rendered from repository files
            ),
            (ids,),
        )


def delete_tenants(admin_conn: psycopg.Connection, tenant_ids: Iterable[str]) -> None:
    """Remove every row these tenants have in the marts table, their API keys and their audit rows."""
    ids = list(tenant_ids)
    admin_conn.execute("delete from marts.validated_invoice_lines where tenant_id = any(%s)", (ids,))
    refresh_rollups(admin_conn, ids)
    admin_conn.execute("delete from app.api_keys where tenant_id = any(%s)", (ids,))
    admin_conn.execute("delete from app.audit_log where tenant_id = any(%s)", (ids,))


def expected_spend(rows: Iterable[Mapping[str, Any]]) -> Decimal:
    """The accounting policy in plain Python: sum of sign * (net + tax) * fx, exact (no rounding)."""
    total = Decimal(0)
    for r in rows:
        sign = -1 if r["document_type"] == "credit_note" else 1
        total += sign * (r["line_net_amount"] + r["line_tax_amount"]) * r["fx_rate_to_reporting_currency"]
    return total


@dataclass(frozen=True)
class TwoTenants:
    """Two tenants with overlapping ids (same company, suppliers, products) and different numbers, plus keys.

    Tenant A's 2026-Q1 lines for COMP-A, suppliers SUP-18/SUP-27, products PRD-482/PRD-619 exercise the policy:
    a USD line, a credit note, a cancelled invoice, a replicated duplicate, a draft, a line dated on the
    exclusive period end, and a supplier pair whose invoice and credit note cancel out to zero.
    """

    tenant_a: str
    tenant_b: str
    rows_a: tuple[Mapping[str, Any], ...]
    rows_b: tuple[Mapping[str, Any], ...]
    keys: Mapping[str, str]
    key_ids: Mapping[str, str]

    def counted_a(self, **filters: Any) -> list[Mapping[str, Any]]:
        """Tenant A rows the default policy counts (posted/paid, not cancelled, not duplicate, 2026-Q1)."""
        return [
            r
            for r in self.rows_a
            if r["invoice_status"] in ("posted", "paid")
            and not r["is_cancelled"]
            and not r["is_duplicate"]
            and dt.date(2026, 1, 1) <= r["invoice_date"] < dt.date(2026, 4, 1)
            and all(r[k] in v if isinstance(v, set) else r[k] == v for k, v in filters.items())
        ]


_SUP_18: Mapping[str, Any] = MappingProxyType({"supplier_id": "SUP-18", "product_code": "PRD-482"})
_SUP_27_PAID: Mapping[str, Any] = MappingProxyType(
    {"supplier_id": "SUP-27", "product_code": "PRD-619", "product_group_id": "PG-CONTROL", "invoice_status": "paid"}
)
_SUP_40: Mapping[str, Any] = MappingProxyType({"supplier_id": "SUP-40", "product_code": "PRD-900"})

#: A scenario line: invoice number, line number, invoice date, net and tax amount, other values for :func:`line`.
_LineSpec = tuple[str, int, dt.date, str, str, Mapping[str, Any]]

_ROWS_A: tuple[_LineSpec, ...] = (
    (
        "INV-2026-0148",
        1,
        dt.date(2026, 2, 14),
        "1900.00",
        "361.00",
        {
            **_SUP_18,
            "currency": "USD",
            "posting_date": dt.date(2026, 2, 16),
            "quantity": Decimal("10.0000"),
            "unit_price": Decimal("200.0000"),
            "fx_rate_to_reporting_currency": Decimal("0.91234567"),
        },
    ),
    ("INV-2026-0201", 1, dt.date(2026, 3, 3), "1000.00", "190.00", {**_SUP_27_PAID, "quantity": Decimal("4.0000")}),
    ("INV-2026-0201", 2, dt.date(2026, 3, 3), "500.00", "95.00", {**_SUP_27_PAID, "quantity": Decimal("2.0000")}),
    ("CN-2026-0007", 1, dt.date(2026, 3, 10), "100.00", "19.00", {**_SUP_18, "document_type": "credit_note"}),
    ("INV-2026-0150", 1, dt.date(2026, 2, 20), "7000.00", "1330.00", {**_SUP_18, "invoice_status": "cancelled"}),
    (
        "INV-2026-0201",
        1,
        dt.date(2026, 3, 3),
        "1000.00",
        "190.00",
        {**_SUP_27_PAID, "source_document_id": "inv-2026-0201-erp-replica", "is_duplicate": True},
    ),
    ("INV-2026-0160", 1, dt.date(2026, 1, 15), "300.00", "57.00", {**_SUP_18, "invoice_status": "draft"}),
    ("INV-2026-0300", 1, dt.date(2026, 4, 1), "800.00", "152.00", _SUP_18),
    ("INV-2026-0400", 1, dt.date(2026, 1, 20), "50.00", "9.50", _SUP_40),
    ("CN-2026-0400", 1, dt.date(2026, 1, 25), "50.00", "9.50", {**_SUP_40, "document_type": "credit_note"}),
)

_ROWS_B: tuple[_LineSpec, ...] = (
    ("INV-2026-0148", 1, dt.date(2026, 2, 1), "999999.00", "0.00", {**_SUP_18, "quantity": Decimal("3.0000")}),
    ("INV-2026-0777", 1, dt.date(2026, 2, 2), "123.45", "0.00", {"supplier_id": "SUP-31", "product_code": "PRD-482"}),
)


def _lines(tenant_id: str, specs: Iterable[_LineSpec]) -> list[dict[str, Any]]:
    return [
        line(
            tenant_id,
            number,
            line_number,
            invoice_date=invoice_date,
            line_net_amount=Decimal(net),
            line_tax_amount=Decimal(tax),
            **values,
        )
        for number, line_number, invoice_date, net, tax, values in specs
    ]


def two_tenant_rows(tenant_a: str, tenant_b: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of :class:`TwoTenants` (see its docstring)."""
    return _lines(tenant_a, _ROWS_A), _lines(tenant_b, _ROWS_B)


def seed_two_tenants(settings: Settings, prefix: str) -> TwoTenants:
    """Insert :func:`two_tenant_rows` for two fresh tenants and create their API keys.

    Keys: ``a`` (invoice:aggregate + procurement:read), ``a_catalog`` (procurement:read only), ``a_admin``
    (tenant:admin + invoice:aggregate), ``a_limited`` (3 requests/minute), ``a_revoked`` (revoked), ``b``
    (invoice:aggregate + procurement:read), ``b_admin`` (tenant:admin).
    """
    from procura.auth import create_key, revoke_key

    tenant_a, tenant_b = f"{prefix}a-{secrets.token_hex(3)}", f"{prefix}b-{secrets.token_hex(3)}"
    rows_a, rows_b = two_tenant_rows(tenant_a, tenant_b)
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        insert_lines(admin, rows_a + rows_b)
    specs = {
        "a": (tenant_a, ["invoice:aggregate", "procurement:read"], 10_000),
        "a_catalog": (tenant_a, ["procurement:read"], 10_000),
        "a_admin": (tenant_a, ["tenant:admin", "invoice:aggregate"], 10_000),
        "a_limited": (tenant_a, ["invoice:aggregate"], 3),
        "a_revoked": (tenant_a, ["invoice:aggregate"], 10_000),
        "b": (tenant_b, ["invoice:aggregate", "procurement:read"], 10_000),
        "b_admin": (tenant_b, ["tenant:admin"], 10_000),
    }
    keys: dict[str, str] = {}
    key_ids: dict[str, str] = {}
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        for label, (tenant, scopes, limit) in specs.items():
            created = create_key(
                owner, tenant_id=tenant, scopes=scopes, principal_id=f"{label}@tests", rate_limit_per_minute=limit
            )
            keys[label], key_ids[label] = created.key, created.key_id
        revoke_key(owner, key_ids["a_revoked"])
    return TwoTenants(
        tenant_a=tenant_a,
        tenant_b=tenant_b,
        rows_a=tuple(rows_a),
        rows_b=tuple(rows_b),
        keys=MappingProxyType(keys),
        key_ids=MappingProxyType(key_ids),
    )


def remove_two_tenants(settings: Settings, world: TwoTenants) -> None:
    """Delete everything :func:`seed_two_tenants` created (and the audit rows of its tenants)."""
    with psycopg.connect(settings.admin_url, autocommit=True) as admin:
        delete_tenants(admin, [world.tenant_a, world.tenant_b])
