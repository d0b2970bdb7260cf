"""The deterministic extractor: typed landing rows of one document version -> candidate entities and edges.

Ingestion has already parsed and validated each source (the approved-vendor table of an agreement becomes
``landing.vendor_approvals`` rows with page and chunk; catalogs become ``landing.products`` and
``landing.product_groups``; master data becomes ``landing.companies``/``landing.suppliers``). This module maps
those rows onto the graph schema, resolves supplier names through the alias index, and attaches provenance to
every candidate. It does not validate against the schema itself: :func:`graph.schema.validate_extraction` does,
so the extractor can never write a relationship the schema does not define.

The same rows always give the same output: ``extracted_at`` is the landing row's ``ingested_at`` (when the
version was extracted), not the time of this call, so re-running a sync changes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.rows import dict_row

from graph.resolution import AliasIndex
from graph.schema import (
    CandidateEntity,
    CandidateRelationship,
    EntityType,
    ExtractionOutput,
    Provenance,
    Rejection,
    RejectionReason,
    RelationType,
)

#: Recorded on every vertex and edge; bump when the mapping below changes for the same landing rows.
GRAPH_EXTRACTION_VERSION = "graph-extract-1"

#: Document types that contribute to the graph (invoices, manuals and FX rates do not).
GRAPH_DOCUMENT_TYPES = frozenset({"companies", "suppliers", "product_groups", "products", "agreement"})


@dataclass(frozen=True)
class DocumentVersion:
    """One served document version of a tenant (the unit the extractor works on)."""

    tenant_id: str
    document_id: str
    document_version: int
    document_type: str
    ingest_seq: int = 0


def _rows(conn: psycopg.Connection, table: str, doc: DocumentVersion, order_by: str) -> list[dict[str, Any]]:
    # table and order_by are module constants below, never input; the tenant filter is explicit because the
    # pipeline reads as the owner role, which bypasses RLS.
    with conn.cursor(row_factory=dict_row) as cur:
        cur.execute(
            f"select * from landing.{table} where tenant_id = %s and document_id = %s and document_version = %s "
            f"order by {order_by}",
            (doc.tenant_id, doc.document_id, doc.document_version),
        )
        return list(cur.fetchall())


def _provenance(
    doc: DocumentVersion, row: dict[str, Any], record_ref: str, *, page: int | None = None, chunk: str | None = None
) -> Provenance:
    ingested_at: dt.datetime = row["ingested_at"]
    return Provenance(
        document_id=doc.document_id,
        document_version=doc.document_version,
        page=page,
        chunk_id=chunk,
        record_ref=record_ref,
        extraction_version=GRAPH_EXTRACTION_VERSION,
        extracted_at=ingested_at,
    )


#: The endpoint types of each relationship the extractor proposes (the schema checks them again).
_ENDPOINTS: Mapping[RelationType, tuple[EntityType, EntityType]] = {
    RelationType.APPROVED_VENDOR: (EntityType.COMPANY, EntityType.SUPPLIER),
    RelationType.SUPPLIES: (EntityType.SUPPLIER, EntityType.PRODUCT),
    RelationType.BELONGS_TO: (EntityType.PRODUCT, EntityType.PRODUCT_GROUP),
    RelationType.PART_OF: (EntityType.PRODUCT_GROUP, EntityType.PRODUCT_GROUP),
    RelationType.GOVERNED_BY: (EntityType.SUPPLIER, EntityType.AGREEMENT),
}


def _edge(
    relation: RelationType,
    source_id: str,
    target_id: str,
    prov: Provenance,
    properties: Mapping[str, Any] | None = None,
) -> CandidateRelationship:
    source_type, target_type = _ENDPOINTS[relation]
    return CandidateRelationship(
        type=relation.value,
        source_type=source_type.value,
        source_id=source_id,
        target_type=target_type.value,
        target_id=target_id,
        properties=dict(properties or {}),
        provenance=prov,
    )


def _agreement(conn: psycopg.Connection, doc: DocumentVersion, index: AliasIndex) -> _Output:
    out = _Output()
    agreements: dict[str, tuple[str, Provenance]] = {}
    for row in _rows(conn, "vendor_approvals", doc, "approval_id"):
        prov = _provenance(
            doc,
            row,
            f"landing.vendor_approvals/{row['approval_id']}",
            page=row["page_number"],
            chunk=row["chunk_id"],
        )
        candidate = {
            "approval_id": row["approval_id"],
            "supplier_id": row["supplier_id"],
            "supplier_name": row["supplier_name"],
        }
        supplier_id = _resolve_supplier(row["supplier_id"], row["supplier_name"], index, candidate, prov, out)
        if supplier_id is None:
            continue
        agreements.setdefault(row["agreement_id"], (row["company_id"], prov))
        approval = {name: row[name] for name in ("approval_id", "agreement_id", "valid_from", "valid_to", "scope")}
        out.relationships.append(_edge(RelationType.APPROVED_VENDOR, row["company_id"], supplier_id, prov, approval))
        governed = {"approval_id": row["approval_id"], "company_id": row["company_id"]}
        out.relationships.append(_edge(RelationType.GOVERNED_BY, supplier_id, row["agreement_id"], prov, governed))
    for agreement_id, (company_id, prov) in sorted(agreements.items()):
        out.entities.append(
            CandidateEntity(
                type=EntityType.AGREEMENT.value,
                id=agreement_id,
                properties={"company_id": company_id},
                provenance=prov.model_copy(update={"record_ref": f"agreement/{agreement_id}"}),
            )
        )
    return out


def _resolve_supplier(
    supplier_id: str,
    supplier_name: str,
    index: AliasIndex,
    candidate: dict[str, Any],
    prov: Provenance,
    out: _Output,
) -> str | None:
    """The canonical supplier of an approval row, or None after recording why it needs review.

    The agreement table names the supplier twice (name and id). The id must be canonical, and the name, when
    the alias table knows it, must resolve to the same id: a disagreement is an extraction or data error a
    person has to look at, not something to guess.
    """
    by_id = index.resolve(supplier_id)
    by_name = index.resolve(supplier_name)
    reason: RejectionReason
    if by_id.via != "canonical_id":
        hint = f" (the name resolves to {by_name.canonical_id})" if by_name.canonical_id else ""
        reason, column = "unresolved_entity", "supplier_id"
        message = f"supplier id {supplier_id!r} is not a known supplier{hint}"
    elif by_name.status == "resolved" and by_name.canonical_id != supplier_id:
        reason, column = "resolution_conflict", "supplier_name"
        message = f"supplier name {supplier_name!r} resolves to {by_name.canonical_id}, the row says {supplier_id}"
    else:
        return supplier_id
    out.rejections.append(
        Rejection(
            item_kind="relationship",
            reason=reason,
            field=column,
            message=message,
            candidate=candidate,
            provenance=prov,
        )
    )
    return None


@dataclass
class _Output:
    """Mutable accumulator of one extraction run (frozen into an ExtractionOutput at the end)."""

    entities: list[CandidateEntity] = field(default_factory=list)
    relationships: list[CandidateRelationship] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)


@dataclass(frozen=True)
class _RowMapping:
    """A landing table whose every row is one vertex, plus the edges the row implies; an extractor itself."""

    table: str
    id_column: str
    entity_type: EntityType
    #: graph property -> landing column
    properties: Mapping[str, str]
    #: (relationship, source id column, target id column); a null target (a top-level group) means no edge
    edges: tuple[tuple[RelationType, str, str], ...] = ()

    def __call__(self, conn: psycopg.Connection, doc: DocumentVersion, _: AliasIndex) -> _Output:
        out = _Output()
        for row in _rows(conn, self.table, doc, self.id_column):
            prov = _provenance(doc, row, f"landing.{self.table}/{row[self.id_column]}")
            out.entities.append(
                CandidateEntity(
                    type=self.entity_type.value,
                    id=row[self.id_column],
                    properties={name: row[column] for name, column in self.properties.items()},
                    provenance=prov,
                )
            )
            for relation, source_column, target_column in self.edges:
                if row[target_column] is not None:
                    out.relationships.append(_edge(relation, row[source_column], row[target_column], prov))
        return out


_ROW_MAPPINGS = (
    _RowMapping(
        "companies",
        "company_id",
        EntityType.COMPANY,
        {"name": "company_name", "reporting_currency": "reporting_currency"},
    ),
    _RowMapping("suppliers", "supplier_id", EntityType.SUPPLIER, {"name": "supplier_name", "country": "country"}),
    _RowMapping(
        "product_groups",
        "product_group_id",
        EntityType.PRODUCT_GROUP,
        {"name": "group_name"},
        edges=((RelationType.PART_OF, "product_group_id", "parent_group_id"),),
    ),
    _RowMapping(
        "products",
        "product_code",
        EntityType.PRODUCT,
        {
            "code": "product_code",
            "name": "product_name",
            "unit_of_measure": "unit_of_measure",
            "list_price": "list_price",
            "currency": "currency",
        },
        edges=(
            (RelationType.SUPPLIES, "supplier_id", "product_code"),
            (RelationType.BELONGS_TO, "product_code", "product_group_id"),
        ),
    ),
)

_EXTRACTORS: dict[str, Callable[[psycopg.Connection, DocumentVersion, AliasIndex], _Output]] = {
    **{mapping.table: mapping for mapping in _ROW_MAPPINGS},
    "agreement": _agreement,
}


def extract_document(conn: psycopg.Connection, doc: DocumentVersion, index: AliasIndex) -> ExtractionOutput:
    """Candidates for one document version from its landing rows (empty for types the graph does not use).

    Args:
        conn: a connection that can read ``landing.*`` for the tenant (the pipeline's owner role).
        doc: the document version.
        index: the tenant's supplier alias index (see :func:`graph.resolution.load_supplier_index`).
    """
    extractor = _EXTRACTORS.get(doc.document_type)
    out = extractor(conn, doc, index) if extractor else _Output()
    return ExtractionOutput(
        tenant_id=doc.tenant_id,
        document_id=doc.document_id,
        document_version=doc.document_version,
        extraction_version=GRAPH_EXTRACTION_VERSION,
        entities=tuple(out.entities),
        relationships=tuple(out.relationships),
        rejections=tuple(out.rejections),
    )


def served_graph_documents(
    conn: psycopg.Connection, tenant_id: str, overrides: Sequence[tuple[str, int | None]] = ()
) -> list[DocumentVersion]:
    """The tenant's served document versions that feed the graph, with the same rule as the dbt staging layer.

    Served = the active version of a non-deleted document that no open quarantine holds back.
    ``overrides`` pins (document_id, version) as served, or (document_id, None) as withdrawn, for a publish or
    delete that is being carried out in the current transaction before ``ingest.documents`` says so.
    """
    pinned = dict(overrides)
    rows = conn.execute(
        """
        select d.document_id, d.active_version, d.document_type, d.ingest_seq, d.is_deleted
        from ingest.documents d
        where d.tenant_id = %s and d.document_type = any(%s)
        order by d.document_id
        """,
        (tenant_id, sorted(GRAPH_DOCUMENT_TYPES)),
    ).fetchall()
    quarantined = set(
        conn.execute(
            """
            select distinct document_id, document_version from ingest.quarantine
            where tenant_id = %s and released_at is null
            """,
            (tenant_id,),
        ).fetchall()
    )
    served: list[DocumentVersion] = []
    for document_id, active_version, document_type, ingest_seq, is_deleted in rows:
        version = active_version if not is_deleted else None
        if document_id in pinned:
            version = pinned[document_id]
        if version is None or (document_id, version) in quarantined:
            continue
        served.append(DocumentVersion(tenant_id, document_id, version, document_type, ingest_seq))
    return served
