"""The dbt project as a governed product: contracts on every mart, documented columns, RLS and security_invoker
on every relation it creates, `procura transform` (with --docs), and a failing quality gate stops the build."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from click.testing import CliRunner

from procura.cli import main as procura_main
from procura.settings import Settings, get_settings
from procura.transform import TransformError, TransformResult, build_marts, generate_docs
from tests.conftest import unique_tenant
from tests.support.database import fresh_database
from tests.support.landing import LandingWriter
from tests.support.scenario import seed_tenant_a

pytestmark = pytest.mark.integration


@dataclass(frozen=True)
class Project:
    settings: Settings
    tenant: str
    work: Path
    build: TransformResult
    docs: TransformResult


@pytest.fixture(scope="module")
def project(base_settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    with fresh_database(base_settings, "dbtproj") as settings:
        tenant = unique_tenant("tp")
        with psycopg.connect(settings.owner_url, autocommit=True) as conn:
            seed_tenant_a(conn, tenant)
        work = tmp_path_factory.mktemp("dbt")
        progress: list[str] = []
        build = build_marts(settings, progress=progress.append, target_path=work / "target", log_path=work / "logs")
        assert any("validated_invoice_lines" in line for line in progress)
        docs = generate_docs(settings, target_path=work / "target", log_path=work / "logs")
        yield Project(settings, tenant, work, build, docs)


def _manifest(project: Project) -> dict:
    return json.loads((project.work / "target" / "manifest.json").read_text())


def _mart_nodes(project: Project) -> list[dict]:
    return [
        node for node in _manifest(project)["nodes"].values()
        if node["resource_type"] == "model" and node["schema"] == "marts"
    ]


def test_every_mart_is_a_contracted_table(project: Project) -> None:
    marts = _mart_nodes(project)
    assert len(marts) == 15  # 13 marts and 2 rollups
    for node in marts:
        # validated_invoice_lines builds incrementally by document version (macros/incremental_lines.sql), the
        # rollups from its changes (macros/incremental_rollups.sql)
        incremental = ("validated_invoice_lines", "spend_daily_rollup", "spend_monthly_rollup")
        expected = "incremental" if node["name"] in incremental else "table"
        assert node["config"]["materialized"] == expected, node["name"]
        assert node["config"]["contract"]["enforced"] is True, node["name"]
        assert all(col.get("data_type") for col in node["columns"].values()), node["name"]


def test_every_governed_column_has_a_description_and_docs_generate(project: Project) -> None:
    catalog = json.loads((project.work / "target" / "catalog.json").read_text())
    assert (project.work / "target" / "index.html").is_file()
    manifest_nodes = _manifest(project)["nodes"]
    undocumented: list[str] = []
    checked = 0
    for unique_id, entry in catalog["nodes"].items():
        node = manifest_nodes[unique_id]
        if node["schema"] not in ("marts", "intermediate", "staging"):
            continue
        if not node.get("description"):
            undocumented.append(node["name"])
        for column in entry["columns"]:
            checked += 1
            if not node["columns"].get(column, {}).get("description"):
                undocumented.append(f"{node['name']}.{column}")
    assert checked > 200
    assert undocumented == []


def test_every_mart_has_forced_rls_and_a_tenant_policy_and_serving_grants(project: Project) -> None:
    with psycopg.connect(project.settings.admin_url) as conn:
        rows = conn.execute(
            """
            select c.relname, c.relrowsecurity, c.relforcerowsecurity,
                   (select pg_get_expr(p.polqual, p.polrelid) from pg_policy p where p.polrelid = c.oid),
                   has_table_privilege('procura_bi', c.oid, 'select'),
                   has_table_privilege('procura_app', c.oid, 'select'),
                   has_table_privilege('procura_bi', c.oid, 'insert')
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = 'marts' and c.relkind = 'r'
            """
        ).fetchall()
    assert len(rows) == 15
    for name, enabled, forced, policy, bi_select, app_select, bi_insert in rows:
        assert (enabled, forced, bi_select, app_select, bi_insert) == (True, True, True, True, False), name
        assert policy == "(tenant_id = ( SELECT app.current_tenant_id() AS current_tenant_id))", name


def test_every_view_is_security_invoker(project: Project) -> None:
    with psycopg.connect(project.settings.admin_url) as conn:
        views = conn.execute(
            """
            select n.nspname || '.' || c.relname, coalesce(c.reloptions, '{}')
            from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname in ('staging', 'intermediate') and c.relkind = 'v'
            """
        ).fetchall()
    assert len(views) >= 14
    assert [name for name, options in views if "security_invoker=true" not in options] == []


def test_procura_transform_runs_the_selection_and_docs(project: Project, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PROCURA_DB_NAME", project.settings.database_name)
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(
            procura_main,
            ["transform", "--select", "dim_companies", "--docs", "--target-path", str(project.work / "cli")],
        )
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 0, result.output
    assert "build --select dim_companies: ok, 3 pass, 1 success" in result.output
    assert re.search(r"docs generate: ok, \d+ relations in the catalog", result.output)
    assert (project.work / "cli" / "catalog.json").is_file()


def test_a_failing_quality_gate_fails_the_build_and_names_the_test(project: Project) -> None:
    # a zero rate slips past nothing in landing (no validate run here), so the mart's data test must stop it
    with psycopg.connect(project.settings.owner_url, autocommit=True) as conn:
        LandingWriter(conn, project.tenant).fx_rates(
            [(date(2026, 3, 1), "CHF", "EUR", "corporate", Decimal("0"))], document_id="fx-zero"
        )
    with pytest.raises(TransformError, match="fx_rates_rate_positive"):
        build_marts(project.settings, "fx_rates", target_path=project.work / "t2", log_path=project.work / "logs")
    result = build_marts(
        project.settings, "fx_rates", target_path=project.work / "t2", log_path=project.work / "logs", check=False
    )
    assert not result.success
    assert [n.name for n in result.failed()] == ["fx_rates_rate_positive"]
    assert result.failed()[0].failures == 1
