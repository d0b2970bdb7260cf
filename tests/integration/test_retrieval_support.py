"""Shared setup of the retrieval integration tests: a small slice of the demo corpus, ingested once per run.

Two fresh tenants get copies of tenant-42's and tenant-17's files (so their data differs while product codes,
invoice numbers and document ids repeat, which makes isolation meaningful); tenant A then receives the
amendment of ``agreement-2025-09`` (a superseded version) and loses ``manual-prd-701`` (a deleted document).
Ingestion runs the real pipeline (MiniLM embeddings, the BM25 writer) as ``procura_owner``; tests read only
through ``procura_app``.
"""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest

from ingest.embedder import get_default_embedder
from ingest.pipeline import delete_document, ingest_path
from procura.db.session import AuthContext
from procura.demo.generator import generate
from procura.settings import Settings
from retrieval.bm25_writer import Bm25Writer
from retrieval.service import SEARCH_SCOPE
from tests.conftest import unique_tenant

pytestmark = pytest.mark.integration

#: Files of the generated corpus each test tenant receives (relative to tenants/<source>/). Each slice carries
#: the master data its products and agreements refer to: the marts' relationship tests check every tenant in
#: the database, so a slice without them would fail a later ``dbt build`` on the same database.
MASTER_DATA = ("companies.json", "suppliers.json", "catalog/product_groups.json", "catalog/products.csv")
SLICE_A = (
    *MASTER_DATA,
    "manuals/manual-prd-482.md",
    "manuals/manual-prd-486.md",
    "manuals/manual-prd-530.md",
    "manuals/manual-prd-701.md",
    "agreements/agreement-2025-09.md",
    "agreements/agreement-2026-04.md",
    "invoices/2026/invoice-2026-0148.json",
    "invoices/2026/invoice-2026-0120.json",
    "invoices/2026/credit-note-2026-0007.json",
)
SLICE_B = (
    *MASTER_DATA,
    "manuals/manual-prd-482.md",
    "agreements/agreement-2026-01.md",
    "invoices/2026/invoice-2026-0148.json",
)
#: Ingested into tenant B only by the test that checks tenant A's scores do not move.
EXTRA_B = "tenants/tenant-99/manuals/manual-prd-655.md"
DELETED_DOCUMENT = "manual-prd-701"
AMENDED_DOCUMENT = "agreement-2025-09"


@dataclass(frozen=True)
class RetrievalCorpus:
    """The ingested slice: tenant ids, where the files are, and the generator's ground truth."""

    tenant_a: str
    tenant_b: str
    root: Path
    source: Path
    ground_truth: dict[str, Any]

    def passage(self, source_tenant: str) -> dict[str, Any]:
        """The ground-truth calibration passage of a source tenant (tenant-42 for A, tenant-17 for B)."""
        return next(p for p in self.ground_truth["passages"] if p["tenant_id"] == source_tenant)


def context(tenant: str, *scopes: str) -> AuthContext:
    """An authenticated context of ``tenant`` with ``procurement:read`` unless other scopes are given."""
    return AuthContext(tenant_id=tenant, principal_id="retrieval-tests", scopes=frozenset(scopes or (SEARCH_SCOPE,)))


def _copy(source: Path, target: Path, files: tuple[str, ...]) -> None:
    for name in files:
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / name, destination)


_CACHE: dict[str, RetrievalCorpus] = {}


def build_corpus(settings: Settings) -> RetrievalCorpus:
    """Generate, slice and ingest the corpus once per test database (every module shares it)."""
    cached = _CACHE.get(settings.database_name)
    if cached is not None:
        return cached
    work = Path(tempfile.mkdtemp(prefix="procura-retrieval-"))
    # tests of the whole session read and write under it (extra manuals, the corpus source): gone at exit
    atexit.register(shutil.rmtree, work, ignore_errors=True)
    source = work / "generated"
    generate(source)
    tenant_a, tenant_b = unique_tenant("ra"), unique_tenant("rb")
    root = work / "slice"
    _copy(source / "tenants" / "tenant-42", root / "tenants" / tenant_a, SLICE_A)
    _copy(source / "tenants" / "tenant-17", root / "tenants" / tenant_b, SLICE_B)
    updates = work / "updates"
    _copy(source / "updates" / "tenants" / "tenant-42", updates / "tenants" / tenant_a,
          (f"agreements/{AMENDED_DOCUMENT}.md",))
    embedder = get_default_embedder()
    writers = [Bm25Writer()]
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        first = ingest_path(owner, root, embedder=embedder, writers=writers)
        assert first.dead_lettered == 0, [o for o in first.outcomes if o.action == "dead_lettered"]
        second = ingest_path(owner, updates, embedder=embedder, writers=writers)
        assert second.published == 1, second.outcomes
        assert delete_document(owner, tenant_a, DELETED_DOCUMENT, writers=writers) is not None
    corpus = RetrievalCorpus(tenant_a, tenant_b, root, source, json.loads((source / "ground_truth.json").read_text()))
    _CACHE[settings.database_name] = corpus
    return corpus


def ingest_extra_for_b(settings: Settings, corpus: RetrievalCorpus) -> None:
    """Add one more manual to tenant B (idempotent: a second call publishes nothing)."""
    target = corpus.root.parent / "extra" / "tenants" / corpus.tenant_b / "manuals"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(corpus.source / EXTRA_B, target / Path(EXTRA_B).name)
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        report = ingest_path(owner, target.parent.parent.parent, embedder=get_default_embedder(),
                             writers=[Bm25Writer()])
        assert report.dead_lettered == 0


@pytest.fixture
def corpus(settings: Settings) -> RetrievalCorpus:
    """The ingested slice (built on first use in this test database)."""
    return build_corpus(settings)


@pytest.fixture
def app(settings: Settings) -> Iterator[psycopg.Connection]:
    """A procura_app connection in autocommit mode (search opens its own tenant transactions)."""
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        yield conn
