"""The graph as a representation of the versioned ingestion pipeline (``ingest.writers.RepresentationWriter``).

Decision: the graph holds *served* document versions only, and switches versions inside the publish
transaction. Shared vertices (a supplier is referenced by many agreements) cannot hold a staged and a served
state at once, so staging materializes nothing in AGE:

* ``write`` (staging) extracts and validates the staged version's landing rows and returns what the version
  will contribute to the graph (vertex and edge counts, and a content checksum, see :func:`content_checksum`).
  Only when the version is already the served one (reconcile's repair: purge, then write) does it sync.
* ``verify`` returns the same figures: recomputed from landing for a staged version; read back from AGE (items
  whose ``source_key`` is the version) for the served version, which is what lets reconcile detect drift.
* ``on_publish`` / ``on_delete`` run :func:`graph.sync.sync_tenant_graph` in the pipeline's transaction, so
  edges of superseded or deleted versions vanish in the same commit that retires them; once per transaction.
* ``purge`` deletes the version's vertices and edges from AGE (a no-op for versions never served).

Traversals also check each edge against ``ingest.documents`` at read time (:mod:`graph.tools`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import psycopg

from graph.age import CypherQuery, age_transaction, graph_exists, graph_name_for_tenant, run_cypher
from graph.extract import GRAPH_DOCUMENT_TYPES, GRAPH_EXTRACTION_VERSION, DocumentVersion, extract_document
from graph.resolution import load_supplier_index
from graph.schema import GRAPH_SCHEMA_VERSION, source_key, validate_extraction
from graph.sync import sync_tenant_graph

if TYPE_CHECKING:
    from ingest.models import ParsedDocument
    from ingest.writers import StoreStats, VersionRef

_VERTICES_OF = CypherQuery(
    "vertices_of_version", "MATCH (n) WHERE n.source_key = $key RETURN label(n), properties(n)", ("label", "props")
)
_EDGES_OF = CypherQuery(
    "edges_of_version", "MATCH ()-[e]->() WHERE e.source_key = $key RETURN label(e), properties(e)", ("label", "props")
)
_DELETE_EDGES_OF = CypherQuery(
    "delete_edges_of_version", "MATCH ()-[e]->() WHERE e.source_key = $key DELETE e RETURN count(*)", ("n",)
)
_DELETE_VERTICES_OF = CypherQuery(
    "delete_vertices_of_version", "MATCH (n) WHERE n.source_key = $key DETACH DELETE n RETURN count(*)", ("n",)
)


#: Stored properties that record when, and under which version number, an item was written rather than what it
#: says. ``extracted_at`` is the landing row's ``ingested_at`` (wall-clock time of the ingest run), so two ingests
#: of the same files always differ in it, and the version number is the document's count of versions in that
#: database's registry; ``content_hash`` covers both. The version itself is given: items are looked up by
#: ``source_key``.
_WRITE_BOOKKEEPING = frozenset({"extracted_at", "document_version", "source_key", "content_hash"})

#: Part of the writer's version: stats recorded under another checksum definition are not comparable.
CHECKSUM_VERSION = "content-2"


def _content(props: Mapping[str, Any]) -> str:
    """Canonical JSON of what one vertex or edge says: its properties less the write bookkeeping (an edge key's
    trailing ``#v<version>`` included); absent and null properties are the same (AGE stores no nulls)."""
    content = {k: v for k, v in props.items() if v is not None and k not in _WRITE_BOOKKEEPING}
    if isinstance(content.get("key"), str):
        content["key"] = content["key"].rsplit("#v", 1)[0]
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_checksum(items: Iterable[tuple[str, str, Mapping[str, Any]]]) -> str:
    """Order-independent sha256 over (kind, label, content) of a version's vertices and edges.

    Design note: it depends on content only, never on AGE's graph ids, write order, ingestion time or version
    number, so a clean ingest, a rerun after a crash and a second database holding the same files agree; a
    changed property of any item changes it.

    >>> a = content_checksum([("V", "Company", {"id": "COMP-A", "extracted_at": "2026-01-01T00:00:00+00:00"})])
    >>> a == content_checksum([("V", "Company", {"id": "COMP-A", "extracted_at": "2027-05-05T00:00:00+00:00"})])
    True
    >>> a == content_checksum([("V", "Company", {"id": "COMP-B"})])
    False
    """
    lines = sorted(f"{kind}|{label}|{_content(props)}" for kind, label, props in items)
    return "sha256:" + hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _stats(
    vertices: Iterable[tuple[str, Mapping[str, Any]]], edges: Iterable[tuple[str, Mapping[str, Any]]]
) -> StoreStats:
    from ingest.writers import StoreStats

    items = [("V", label, props) for label, props in vertices]
    n_vertices = len(items)
    items += [("E", label, props) for label, props in edges]
    return StoreStats({"vertices": n_vertices, "edges": len(items) - n_vertices}, content_checksum(items))


def _prospective_sources(conn: psycopg.Connection, tenant_id: str, doc: DocumentVersion) -> list[tuple[str, int]]:
    """Versions to resolve names against while staging: for each document its newest staged or served version.

    A batch stages master data and agreements together, before any of them is served; resolving an agreement
    against the suppliers being staged with it predicts what the publish will serve.
    """
    rows = conn.execute(
        """
        select d.document_id,
               coalesce(
                   (select max(v.document_version) from ingest.document_versions v
                    where v.tenant_id = d.tenant_id and v.document_id = d.document_id and v.status = 'staged'
                      and v.document_version > coalesce(d.active_version, 0)),
                   case when d.is_deleted then null else d.active_version end)
        from ingest.documents d
        where d.tenant_id = %s
        """,
        (tenant_id,),
    ).fetchall()
    versions = {document_id: version for document_id, version in rows if version is not None}
    versions[doc.document_id] = doc.document_version
    return sorted(versions.items())


def expected_contribution(conn: psycopg.Connection, doc: DocumentVersion) -> StoreStats:
    """What ``doc`` contributes to the graph once served: its validated vertices and edges."""
    index = load_supplier_index(conn, doc.tenant_id, _prospective_sources(conn, doc.tenant_id, doc))
    validated = validate_extraction(extract_document(conn, doc, index))
    return _stats(
        ((e.type.value, e.stored_properties()) for e in validated.entities),
        ((r.type.value, r.stored_properties()) for r in validated.relationships),
    )


def stored_contribution(conn: psycopg.Connection, tenant_id: str, key: str) -> StoreStats:
    """What the tenant's graph holds for one document version (by ``source_key``)."""
    graph = graph_name_for_tenant(tenant_id)
    if not graph_exists(conn, graph):
        return _stats((), ())
    with age_transaction(conn):
        vertices = run_cypher(conn, graph, _VERTICES_OF, {"key": key})
        edges = run_cypher(conn, graph, _EDGES_OF, {"key": key})
    return _stats(((r["label"], r["props"]) for r in vertices), ((r["label"], r["props"]) for r in edges))


class GraphWriter:
    """The knowledge-graph store of the ingestion pipeline (see the module docstring for the protocol)."""

    name = "graph"
    version = f"graph-schema-{GRAPH_SCHEMA_VERSION}+{GRAPH_EXTRACTION_VERSION}+{CHECKSUM_VERSION}"
    document_types = GRAPH_DOCUMENT_TYPES

    def __init__(self) -> None:
        # (tenant, transaction id) pairs already synced: every registry change of a publish batch precedes the
        # first on_publish, so one sync per transaction sees them all.
        self._synced: set[tuple[str, int]] = set()

    def write(self, conn: psycopg.Connection, doc: ParsedDocument, version: int) -> StoreStats:
        """Validate the staged version's graph contribution and return its expected stats."""
        ref = DocumentVersion(doc.tenant_id, doc.document_id, version, doc.document_type)
        stats = expected_contribution(conn, ref)
        if self._is_served(conn, ref.tenant_id, ref.document_id, version):
            self._sync(conn, ref.tenant_id, force=True)
        return stats

    def verify(self, conn: psycopg.Connection, ref: VersionRef) -> StoreStats:
        """The served version's items as stored in AGE; a staged version's expected items, recomputed."""
        if self._is_served(conn, ref.tenant_id, ref.document_id, ref.document_version):
            return stored_contribution(conn, ref.tenant_id, source_key(ref.document_id, ref.document_version))
        document_type = conn.execute(
            "select document_type from ingest.documents where tenant_id = %s and document_id = %s",
            (ref.tenant_id, ref.document_id),
        ).fetchone()
        doc = DocumentVersion(ref.tenant_id, ref.document_id, ref.document_version, document_type[0] if document_type
                              else "unknown")
        return expected_contribution(conn, doc)

    def purge(self, conn: psycopg.Connection, ref: VersionRef) -> None:
        """Remove every vertex and edge of ``ref`` from the tenant's graph."""
        graph = graph_name_for_tenant(ref.tenant_id)
        if not graph_exists(conn, graph):
            return
        key = source_key(ref.document_id, ref.document_version)
        with age_transaction(conn):
            run_cypher(conn, graph, _DELETE_EDGES_OF, {"key": key})
            run_cypher(conn, graph, _DELETE_VERTICES_OF, {"key": key})

    def on_publish(self, conn: psycopg.Connection, ref: VersionRef, previous_version: int | None) -> None:
        """Bring the graph to the newly served versions, in the publish transaction."""
        self._sync(conn, ref.tenant_id)

    def on_delete(self, conn: psycopg.Connection, ref: VersionRef) -> None:
        """Remove the deleted document from the graph, in the delete transaction."""
        self._sync(conn, ref.tenant_id, force=True)

    def _sync(self, conn: psycopg.Connection, tenant_id: str, *, force: bool = False) -> None:
        row = conn.execute("select pg_current_xact_id()::text::bigint").fetchone()
        marker = (tenant_id, int(row[0]) if row else 0)
        if marker in self._synced and not force:
            return
        sync_tenant_graph(conn, tenant_id)
        self._synced.add(marker)

    @staticmethod
    def _is_served(conn: psycopg.Connection, tenant_id: str, document_id: str, version: int) -> bool:
        row = conn.execute(
            "select active_version, is_deleted from ingest.documents where tenant_id = %s and document_id = %s",
            (tenant_id, document_id),
        ).fetchone()
        return row is not None and row[0] == version and not row[1]
