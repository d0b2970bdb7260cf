"""Approvals as of a date: each agreement's approvals in the version in force on the as-of date.

The graph holds the approvals of each agreement's newest (active) version only. An amendment published before the
as-of date but effective after it (``effective_date`` in its front matter, the registry's ``d:`` revision) is not
in force yet: "approved vendors for Q2 2026" asked on 2026-04-10 must list the approvals of the version in force
that day, not a supplier the amendment adds from May. The version in force is re-read here from its stored
content with the ingest parser (the same extraction that fed the graph), and an agreement with no version in force
yet approves nobody. The policy is the one of ``retrieval.documents.version_in_force``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import psycopg

from procura.db.session import AuthContext, tenant_transaction
from retrieval.documents import DocumentVersion, effective_date_of, version_in_force
from router.tools import ApprovalRef  # the approval reference the graph tool answers with


@dataclass(frozen=True)
class AgreementsAsOf:
    """Which agreements' active version is not the one in force on the as-of date, and the approvals of the
    version that is (``replaced``: agreement id -> its in-force approvals of the company; empty when none is in
    force yet)."""

    as_of: dt.date
    replaced: dict[str, tuple[ApprovalRef, ...]]
    #: agreement id -> (version in force or None, active version): said in the answer's provenance.
    versions: dict[str, tuple[int | None, int]]


def agreements_as_of(conn: psycopg.Connection, ctx: AuthContext, company_id: str, as_of: dt.date,
                     timeout_ms: int) -> AgreementsAsOf:
    """The agreements whose active version is not in force on ``as_of``, with the approvals of ``company_id`` in
    the version that is (read under the tenant's row-level security)."""
    from ingest.parsers import parse_item
    from ingest.sources import SourceItem

    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        rows = conn.execute(
            "select v.document_id, v.document_version, v.status, v.source_revision, "
            "substring(v.original_content from 1 for 2048), d.active_version "
            "from ingest.document_versions v join ingest.documents d on d.document_id = v.document_id "
            "where d.document_type = 'agreement' and not d.is_deleted and d.active_version is not null "
            "and v.status in ('published', 'superseded') order by v.document_id, v.document_version"
        ).fetchall()
        versions: dict[str, list[DocumentVersion]] = {}
        active: dict[str, int] = {}
        for doc, version, status, revision, head, active_version in rows:
            versions.setdefault(doc, []).append(DocumentVersion(
                document_version=int(version), status=status,
                effective_date=effective_date_of(revision, bytes(head) if head else None)))
            active[doc] = int(active_version)
        stale = {doc: version_in_force(vs, as_of) for doc, vs in versions.items()}
        stale = {doc: v for doc, v in stale.items() if v != active[doc]}
        contents: dict[str, bytes] = {}
        wanted = [(doc, v) for doc, v in stale.items() if v is not None]
        if wanted:
            for doc, version, content in conn.execute(
                "select document_id, document_version, original_content from ingest.document_versions "
                "where (document_id, document_version) in (select * from unnest(%s::text[], %s::int[]))",
                ([d for d, _ in wanted], [v for _, v in wanted]),
            ):
                contents[f"{doc}#v{version}"] = bytes(content)
    replaced: dict[str, tuple[ApprovalRef, ...]] = {}
    for doc, version in stale.items():
        raw = contents.get(f"{doc}#v{version}") if version is not None else None
        if raw is None:
            replaced[doc] = ()  # no version in force yet: the agreement approves nobody on the as-of date
            continue
        parsed = parse_item(SourceItem(tenant_id=ctx.tenant_id, source_uri=f"{doc}#v{version}", kind="markdown",
                                       raw=raw))
        replaced[doc] = tuple(
            ApprovalRef(supplier_id=a.supplier_id, supplier_name=a.supplier_name, agreement_id=a.agreement_id,
                        valid_from=a.valid_from, valid_to=a.valid_to, scope=a.scope, document_id=doc,
                        page=a.page_number, chunk_id=a.chunk_id)
            for a in parsed.records.vendor_approvals if a.company_id == company_id
        )
    return AgreementsAsOf(as_of=as_of, replaced=replaced,
                          versions={doc: (v, active[doc]) for doc, v in stale.items()})


__all__ = ["AgreementsAsOf", "agreements_as_of"]
