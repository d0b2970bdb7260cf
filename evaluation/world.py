"""The demo world the measurements run against: a database holding the demo corpus end to end.

:func:`prepare_world` runs the same stages as ``procura demo run`` (generate, ingest, validate landing data,
build the governed marts) into the database ``settings`` points at, then creates one API key per tenant and
scope set the golden set and the security suite need. Stages that fail are recorded as problems instead of
aborting, so a measurement can still report what works; the problems are printed in every report.

The world is memoized per database name within a process: the security and reliability suites (and
``procura eval``) share one build.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from procura.settings import Settings

Progress = Callable[[str], None]

TENANTS = ("tenant-17", "tenant-42", "tenant-99")
FULL_SCOPES = ("invoice:aggregate", "procurement:read")
ADMIN_SCOPES = ("invoice:aggregate", "procurement:read", "tenant:admin")

_WORLDS: dict[str, DemoWorld] = {}


def _quiet(_: str) -> None:
    return None


@dataclass(frozen=True)
class StageResult:
    """One preparation stage: how long it took, and what went wrong if anything."""

    name: str
    seconds: float
    ok: bool
    detail: str = ""


@dataclass
class DemoWorld:
    """A prepared database: corpus, ground truth, dbt target, API keys and how preparation went."""

    settings: Settings
    corpus: Path
    target_dir: Path
    ground_truth: dict[str, Any]
    stages: list[StageResult] = field(default_factory=list)
    keys: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    key_ids: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict)
    _registry: Any = None

    @property
    def problems(self) -> list[str]:
        """Stages that failed, one line each."""
        return [f"{s.name}: {s.detail}" for s in self.stages if not s.ok]

    def key(self, tenant_id: str, scopes: Iterable[str] = FULL_SCOPES) -> str:
        """An API key of ``tenant_id`` with exactly ``scopes`` (created on first use)."""
        wanted = tuple(sorted(set(scopes)))
        if (tenant_id, wanted) not in self.keys:
            from procura.auth import create_key

            with psycopg.connect(self.settings.owner_url, autocommit=True) as conn:
                created = create_key(conn, tenant_id=tenant_id, scopes=wanted, principal_id=f"eval-{tenant_id}",
                                     rate_limit_per_minute=1_000_000)
            self.keys[(tenant_id, wanted)] = created.key
            self.key_ids[(tenant_id, wanted)] = created.key_id
        return self.keys[(tenant_id, wanted)]

    def headers(self, tenant_id: str, scopes: Iterable[str] = FULL_SCOPES) -> dict[str, str]:
        """Bearer headers for :meth:`key`."""
        return {"Authorization": f"Bearer {self.key(tenant_id, scopes)}"}

    def registry(self) -> Any:
        """The metric registry validated against this world's dbt build (``None`` if the build failed)."""
        if self._registry is None:
            from semantic.loader import load_registry
            from semantic.schema import discover, load_manifest

            manifest = self.target_dir / "manifest.json"
            # a prepared database was built elsewhere: use the project's own dbt artifacts then
            schema = load_manifest(manifest) if manifest.exists() else discover()
            self._registry = load_registry(schema)
        return self._registry

    def create_app(self, **kwargs: Any) -> Any:
        """The FastAPI app over this world's database."""
        from api.main import create_app

        return create_app(self.settings, registry=self.registry(), **kwargs)

    def suppliers_pii(self) -> list[str]:
        """Every supplier e-mail and IBAN of the corpus (what must never appear in a response or a log)."""
        values: set[str] = set()
        for path in sorted(self.corpus.glob("tenants/*/suppliers.json")):
            for supplier in json.loads(path.read_text(encoding="utf-8")):
                values.update(v for v in (supplier.get("contact_email"), supplier.get("iban")) if v)
        return sorted(values)


def _stage(world: DemoWorld, name: str, progress: Progress, action: Callable[[], str]) -> bool:
    started = time.monotonic()
    try:
        detail = action()
        ok = True
    except Exception as exc:  # a stage of another area failing must not hide the others' results
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0][:500]
        progress(f"{name} failed: {detail}")
        progress(traceback.format_exc(limit=3))
        ok = False
    world.stages.append(StageResult(name, time.monotonic() - started, ok, detail))
    progress(f"{name}: {'ok' if ok else 'FAILED'} in {time.monotonic() - started:.1f}s {detail}")
    return ok


def prepare_world(
    settings: Settings,
    work_dir: Path,
    *,
    corpus: Path | None = None,
    prepared: bool = False,
    progress: Progress = _quiet,
) -> DemoWorld:
    """Load the demo corpus into ``settings``' database (memoized per database and process).

    Args:
        settings: the database to use (it must exist and be migrated).
        work_dir: private folder for the generated corpus, dbt's target folder and logs.
        corpus: an existing corpus root (default: generate seed 42, scale 1 into ``work_dir/corpus``).
        prepared: the database already holds the corpus and marts (skip ingest, validation and dbt).
        progress: receives one line per stage.
    """
    cached = _WORLDS.get(settings.database_name)
    if cached is not None:
        return cached
    work_dir.mkdir(parents=True, exist_ok=True)
    corpus_dir = corpus or work_dir / "corpus"
    world = DemoWorld(settings=settings, corpus=corpus_dir, target_dir=work_dir / "dbt-target", ground_truth={})

    def generate() -> str:
        if (corpus_dir / "ground_truth.json").exists():
            return "existing corpus"
        from procura.demo import generate as generate_corpus

        summary = generate_corpus(corpus_dir)
        return f"{summary.documents} documents, {summary.invoice_lines} invoice lines"

    _stage(world, "generate", progress, generate)
    world.ground_truth = json.loads((corpus_dir / "ground_truth.json").read_text(encoding="utf-8"))

    if not prepared:
        def ingest() -> str:
            from ingest import ingest_path

            details = []
            dead = 0
            # the corpus root first, then its later arrivals (new versions of the same documents): the ground
            # truth describes the served state after both (docs/corpus.md)
            roots = [corpus_dir, *([corpus_dir / "updates"] if (corpus_dir / "updates").is_dir() else [])]
            with psycopg.connect(settings.owner_url, autocommit=True) as conn:
                for root in roots:
                    report = ingest_path(conn, root)
                    dead += report.dead_lettered
                    details.append(f"{root.name}: {report.documents} documents, {report.published} published, "
                                   f"{report.dead_lettered} dead-lettered, {report.chunks} chunks, {report.rows} rows")
            if dead:
                raise RuntimeError("; ".join(details))
            return "; ".join(details)

        def validate() -> str:
            from expectations.runner import validate_landing

            with psycopg.connect(settings.owner_url, autocommit=True) as conn:
                report = validate_landing(conn)
            detail = f"{len(report.quarantined_batches)} batch(es) quarantined"
            if not report.success and len(report.quarantined_batches) > 1:
                # the corpus has exactly one deliberately invalid document (a missing FX rate)
                raise RuntimeError(detail)
            return detail

        def marts() -> str:
            from procura.transform import build_marts

            result = build_marts(settings, target_path=world.target_dir, log_path=work_dir / "dbt-logs",
                                 check=False)
            if not result.success:
                raise RuntimeError(f"dbt build: {result.summary()}")
            return result.summary()

        _stage(world, "ingest", progress, ingest)
        _stage(world, "validate", progress, validate)
        _stage(world, "marts", progress, marts)

    def keys() -> str:
        for tenant in TENANTS:
            world.key(tenant, FULL_SCOPES)
            world.key(tenant, ADMIN_SCOPES)
        return f"{len(world.keys)} keys"

    _stage(world, "keys", progress, keys)
    _WORLDS[settings.database_name] = world
    return world


#: Routes the measurements cover, and the module that provides each (mounted by hand when the app lacks one).
EXPECTED_ROUTES: dict[str, tuple[str, str]] = {
    "/v1/metrics/{name}/query": ("api.routes.metrics", "router"),
    "/v1/search": ("api.routes.search", "router"),
    "/v1/ask": ("api.routes.ask", "router"),
    "/v1/traces/{trace_id}": ("api.routes.ask", "router"),
}


def served_routes(app: Any) -> dict[str, set[str]]:
    """Path -> HTTP methods the app serves (from its OpenAPI schema: included routers are not flat routes)."""
    return {path: {m.upper() for m in ops} for path, ops in app.openapi().get("paths", {}).items()}


def mount_missing(app: Any) -> dict[str, str]:
    """Mount every expected route the app lacks from its module; returns path -> problem (empty: all mounted)."""
    import importlib

    present = set(served_routes(app))
    problems: dict[str, str] = {}
    included: set[str] = set()
    for path, (module_name, attr) in EXPECTED_ROUTES.items():
        if path in present:
            continue
        problems[path] = "not mounted by api.main.create_app (mounted from its module for the measurement)"
        if module_name in included:
            continue
        try:
            app.include_router(getattr(importlib.import_module(module_name), attr))
            app.openapi_schema = None  # the cached schema predates the new routes
            included.add(module_name)
        except Exception as exc:  # the module itself is missing: its cases fail with this reason
            problems[path] = f"{module_name} cannot be imported: {type(exc).__name__}: {exc}"
    return problems


#: Environment variable naming an already-prepared database the test suites may reuse (skips the build).
REUSE_ENV = "PROCURA_WORLD_DB"


_TEST_WORLD_USERS: dict[str, int] = {}


def world_for_tests(settings: Settings, work_dir: Path, progress: Progress = _quiet) -> DemoWorld:
    """The world of the security and reliability suites, in a database of its own.

    The database is ``<session database>_world``, created and migrated here and shared by every caller in the
    process (release it with :func:`release_test_world`, the last release drops it), so the demo corpus never
    mixes with the data other test modules write into the session database. When ``PROCURA_WORLD_DB`` names a
    database that already holds the demo corpus, that one is used as it is (a developer shortcut that skips the
    build; ``make test`` never sets it).
    """
    import os

    reuse = os.environ.get(REUSE_ENV)
    if reuse:
        return prepare_world(settings.with_database(reuse), work_dir, prepared=True, progress=progress)
    from procura.db.migrate import migrate
    from procura.db.provision import ensure_database

    own = settings.with_database(_world_database(settings))
    if own.database_name not in _WORLDS:
        ensure_database(own)
        with psycopg.connect(own.admin_url, autocommit=True) as conn:
            migrate(conn, own)
    _TEST_WORLD_USERS[own.database_name] = _TEST_WORLD_USERS.get(own.database_name, 0) + 1
    return prepare_world(own, work_dir, progress=progress)


def release_test_world(settings: Settings) -> None:
    """Drop the test world's database once its last user (a conftest's session fixture) is done."""
    import os

    if os.environ.get(REUSE_ENV):
        return
    from procura.db.provision import drop_database

    name = _world_database(settings)
    _TEST_WORLD_USERS[name] = _TEST_WORLD_USERS.get(name, 1) - 1
    if _TEST_WORLD_USERS[name] <= 0:
        _WORLDS.pop(name, None)
        drop_database(settings, name)


def _world_database(settings: Settings) -> str:
    return f"{settings.database_name[:56]}_world"


def stage_table(stages: Iterable[StageResult]) -> list[Mapping[str, Any]]:
    """Stages as JSON-ready rows."""
    return [{"stage": s.name, "seconds": round(s.seconds, 2), "ok": s.ok, "detail": s.detail} for s in stages]
