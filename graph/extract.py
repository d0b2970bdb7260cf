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
from collections.abc import Callable, Sequence
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


def _companies(conn: psycopg.Connection, doc: DocumentVersion, _: AliasIndex) -> _Output:
    out = _Output()
    for row in _rows(conn, "companies", doc, "company_id"):
        out.entities.append(
            CandidateEntity(
                type=EntityType.COMPANY.value,
                id=row["company_id"],
                properties={"name": row["company_name"], "reporting_currency": row["reporting_currency"]},
                provenance=_provenance(doc, row, f"landing.companies/{row['company_id']}"),
            )
        )
    return out


def _suppliers(conn: psycopg.Connection, doc: DocumentVersion, _: AliasIndex) -> _Output:
    out = _Output()
    for row in _rows(conn, "suppliers", doc, "supplier_id"):
        out.entities.append(
            CandidateEntity(
                type=EntityType.SUPPLIER.value,
                id=row["supplier_id"],
                properties={"name": row["supplier_name"], "country": row["country"]},
                provenance=_provenance(doc, row, f"landing.suppliers/{row['supplier_id']}"),
            )
        )
    return out


def _product_groups(conn: psycopg.Connection, doc: DocumentVersion, _: AliasIndex) -> _Output:
    out = _Output()
    for row in _rows(conn, "product_groups", doc, "product_group_id"):
        prov = _provenance(doc, row, f"landing.product_groups/{row['product_group_id']}")
        out.entities.append(
            CandidateEntity(
                type=EntityType.PRODUCT_GROUP.value,
                id=row["product_group_id"],
                properties={"name": row["group_name"]},
                provenance=prov,
            )
        )
        if row["parent_group_id"] is not None:
            out.relationships.append(
                CandidateRelationship(
                    type=RelationType.PART_OF.value,
                    source_type=EntityType.PRODUCT_GROUP.value,
                    source_id=row["product_group_id"],
                    target_type=EntityType.PRODUCT_GROUP.value,
                    target_id=row["parent_group_id"],
                    provenance=prov,
                )
            )
    return out


def _products(conn: psycopg.Connection, doc: DocumentVersion, _: AliasIndex) -> _Output:
    out = _Output()
    for row in _rows(conn, "products", doc, "product_code"):
        code = row["product_code"]
        prov = _provenance(doc, row, f"landing.products/{code}")
        out.entities.append(
            CandidateEntity(
                type=EntityType.PRODUCT.value,
                id=code,
                properties={
                    "code": code,
                    "name": row["product_name"],
                    "unit_of_measure": row["unit_of_measure"],
                    "list_price": row["list_price"],
                    "currency": row["currency"],
                },
                provenance=prov,
            )
        )
        out.relationships.append(
            CandidateRelationship(
                type=RelationType.SUPPLIES.value,
                source_type=EntityType.SUPPLIER.value,
                source_id=row["supplier_id"],
                target_type=EntityType.PRODUCT.value,
                target_id=code,
                provenance=prov,
            )
        )
        out.relationships.append(
            CandidateRelationship(
                type=RelationType.BELONGS_TO.value,
                source_type=EntityType.PRODUCT.value,
                source_id=code,
                target_type=EntityType.PRODUCT_GROUP.value,
                target_id=row["product_group_id"],
                provenance=prov,
            )
        )
    return out


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
        out.relationships.append(
            CandidateRelationship(
                type=RelationType.APPROVED_VENDOR.value,
                source_type=EntityType.COMPANY.value,
                source_id=row["company_id"],
                target_type=EntityType.SUPPLIER.value,
                target_id=supplier_id,
                properties={
                    "approval_id": row["approval_id"],
                    "agreement_id": row["agreement_id"],
                    "valid_from": row["valid_from"],
                    "valid_to": row["valid_to"],
                    "scope": row["scope"],
                },
                provenance=prov,
            )
        )
        out.relationships.append(
            CandidateRelationship(
                type=RelationType.GOVERNED_BY.value,
                source_type=EntityType.SUPPLIER.value,
                source_id=supplier_id,
                target_type=EntityType.AGREEMENT.value,
                target_id=row["agreement_id"],
                properties={"approval_id": row["approval_id"], "company_id": row["company_id"]},
                provenance=prov,
            )
        )
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
    supplier_id: str, supplier_name: str, index: AliasIndex, candidate: dict[str, Any], prov: Provenance,
    out: _Output,
) -> str | None:
    """The canonical supplier of an approval row, or None after recording why it needs review.

    The agreement table names the supplier twice (name and id). The id must be canonical, and the name, when
    the alias table knows it, must resolve to the same id: a disagreement is an extraction or data error a
    person has to look at, not something to guess.
    """
    by_id = index.resolve(supplier_id)
    by_name = index.resolve(supplier_name)
    if by_id.via != "canonical_id":
        hint = f" (the name resolves to {by_name.canonical_id})" if by_name.canonical_id else ""
        out.rejections.append(
            Rejection(
                item_kind="relationship",
                reason="unresolved_entity",
                field="supplier_id",
                message=f"supplier id {supplier_id!r} is not a known supplier{hint}",
                candidate=candidate,
                provenance=prov,
            )
        )
        return None
    if by_name.status == "resolved" and by_name.canonical_id != supplier_id:
        out.rejections.append(
            Rejection(
                item_kind="relationship",
                reason="resolution_conflict",
                field="supplier_name",
                message=f"supplier name {supplier_name!r} resolves to {by_name.canonical_id}, the row says "
                f"{supplier_id}",
                candidate=candidate,
                provenance=prov,
            )
        )
        return None
    return supplier_id


@dataclass
class _Output:
    """Mutable accumulator of one extraction run (frozen into an ExtractionOutput at the end)."""

    entities: list[CandidateEntity] = field(default_factory=list)
    relationships: list[CandidateRelationship] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)


_EXTRACTORS: dict[str, Callable[[psycopg.Connection, DocumentVersion, AliasIndex], _Output]] = {
    "companies": _companies,
    "suppliers": _suppliers,
    "product_groups": _product_groups,
    "products": _products,
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
