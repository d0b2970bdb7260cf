"""dbt project hygiene, read from the project files (database-free): layering (intermediate models never read a
mart), source freshness on the landing tables, and exposures naming the consumers of the marts and metrics."""

from __future__ import annotations

import re
from pathlib import Path

import yaml  # type: ignore[import-untyped]  # no stubs installed; safe_load only

MODELS = Path(__file__).resolve().parents[2] / "models"
_REF = re.compile(r"ref\(\s*'([a-z0-9_]+)'\s*\)")


def _layer_of() -> dict[str, str]:
    return {sql.stem: sql.parent.name for sql in MODELS.glob("*/*.sql")}


def test_staging_and_intermediate_models_never_read_a_mart() -> None:
    layer = _layer_of()
    offending = [
        f"{sql.parent.name}/{sql.name} -> {name}"
        for sql in [*MODELS.glob("intermediate/*.sql"), *MODELS.glob("staging/*.sql")]
        for name in _REF.findall(sql.read_text())
        if layer.get(name) == "marts"
    ]
    # the unit-test inputs of intermediate models name only their real (non-mart) parents too
    offending += [
        f"{spec.name} -> {name}"
        for spec in MODELS.glob("intermediate/*.yml")
        for name in _REF.findall(spec.read_text())
        if layer.get(name) == "marts"
    ]
    assert offending == []
    assert layer["int_companies_current"] == "intermediate"


def test_landing_sources_declare_freshness_on_ingested_at() -> None:
    sources = yaml.safe_load((MODELS / "staging" / "__sources.yml").read_text())["sources"]
    landing = next(s for s in sources if s["name"] == "landing")
    assert landing["config"]["loaded_at_field"] == "ingested_at"
    assert landing["config"]["freshness"]["warn_after"] == {"count": 7, "period": "day"}


def test_exposures_name_the_metric_api_ask_and_bi_logins() -> None:
    exposures = {e["name"]: e for e in yaml.safe_load((MODELS / "exposures.yml").read_text())["exposures"]}
    assert set(exposures) == {"metric_api", "ask", "bi_logins"}
    assert "metric('aggregate_spend')" in exposures["metric_api"]["depends_on"]
    marts = {sql.stem for sql in MODELS.glob("marts/*.sql")} - {"time_spine_daily"}
    assert {f"ref('{m}')" for m in marts} == set(exposures["bi_logins"]["depends_on"])
