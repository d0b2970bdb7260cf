"""The demo world for the router's integration tests (imported by test_ask_*, test_traces_*, test_mcp_*).

Built once per test database and process, by the real pipeline: ``procura demo generate`` -> ingestion (chunks,
identifiers, embeddings, the knowledge graph) -> Great Expectations on landing -> ``dbt build`` of the marts.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from procura.db.session import AuthContext
from procura.settings import Settings

AS_OF = dt.date(2026, 5, 15)
SEED_TENANT = "tenant-42"
OTHER_TENANT = "tenant-17"
SCOPES = frozenset({"procurement:read", "invoice:aggregate"})
SEED_QUESTION = (
    "What was Company A's total spend on monitoring products supplied by its approved vendors during the last "
    "quarter?"
)
PARTIAL_QUESTION = "What was Company A's total spend with its approved vendors in 2026-Q1?"


@dataclass(frozen=True)
class World:
    """The ingested demo corpus, its ground truth, the metric registry and a ready ask service."""

    settings: Settings
    corpus: Path
    ground_truth: dict[str, Any]
    registry: Any
    service: Any

    def question(self, name: str) -> dict[str, Any]:
        """One named ground-truth question."""
        return next(q for q in self.ground_truth["questions"] if q["name"] == name)


_WORLDS: dict[str, World] = {}


def ctx(tenant: str = SEED_TENANT, principal: str = "analyst", scopes: frozenset[str] = SCOPES) -> AuthContext:
    """An authenticated context as the API would create it."""
    return AuthContext(tenant_id=tenant, principal_id=principal, scopes=scopes)


def build_world(settings: Settings, work_dir: Path) -> World:
    """Generate, ingest, validate and build the marts once per database; later calls reuse the result."""
    cached = _WORLDS.get(settings.database_name)
    if cached is not None:
        return cached
    from expectations.runner import validate_landing
    from ingest import ingest_path
    from ingest.embedder import get_default_embedder
    from procura.demo import generate
    from procura.transform import build_marts
    from router.service import AskService
    from semantic.loader import load_registry
    from semantic.schema import load_manifest
    from semantic.service import MetricService

    corpus = work_dir / "corpus"
    generate(corpus)
    embedder = get_default_embedder()
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        # Two tenants are enough for every isolation case here (tenant-99 would only add ingestion time).
        # Later arrivals (new document versions) are ingested by pointing the pipeline at DIR/updates; the
        # ground truth describes the state after them.
        for tenant in (SEED_TENANT, OTHER_TENANT):
            ingest_path(owner, corpus, tenant=tenant, embedder=embedder)
        for tenant in (SEED_TENANT, OTHER_TENANT):
            ingest_path(owner, corpus / "updates", tenant=tenant, embedder=embedder)
        validate_landing(owner)
    target = work_dir / "dbt-target"
    build_marts(settings, target_path=target, log_path=work_dir / "dbt-logs")
    registry = load_registry(load_manifest(target / "manifest.json"))
    service = AskService.create(MetricService.from_settings(registry, settings), home=settings.home,
                                embedder=embedder)
    world = World(settings=settings, corpus=corpus,
                  ground_truth=json.loads((corpus / "ground_truth.json").read_text()),
                  registry=registry, service=service)
    _WORLDS[settings.database_name] = world
    return world


@pytest.fixture(scope="session")
def world(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> World:
    """The demo world (built at most once per test run, shared by every router test module)."""
    return build_world(settings, tmp_path_factory.mktemp("router-world"))
