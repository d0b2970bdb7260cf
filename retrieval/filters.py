"""The request filters as one SQL predicate that every branch places inside its own query.

Design note: filters are predicates of the branch query itself (BM25 scoring, the HNSW scan's WHERE clause,
the exact lookup), never a pass over the branch's top-k afterwards, so a filtered query ranks the filtered
collection instead of silently returning fewer rows. Values always travel as bind parameters.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from psycopg import sql

from retrieval.models import Filters


@dataclass(frozen=True)
class FilterSql:
    """A predicate over a row alias (and the chunk join it needs), with its named parameters."""

    predicate: sql.Composable
    chunk_join: sql.Composable
    params: dict[str, Any]

    @property
    def restricts(self) -> bool:
        """Whether any filter is set (each one binds at least one parameter; without any the predicate is true)."""
        return bool(self.params)


def filter_sql(filters: Filters, row: str, *, chunk: str | None = None) -> FilterSql:
    """The predicate of ``filters`` over the row alias ``row``.

    Args:
        filters: the request's filters.
        row: alias of a relation with ``tenant_id``, ``document_id``, ``document_version``, ``chunk_id`` and
            ``document_type`` (the ``retrieval.active_*`` views have them).
        chunk: alias of a relation with the chunk's ``metadata`` and ``chunk_text`` when the query already joins
            one; without it a ``valid_at``, ``company_ids`` or ``phrases`` filter adds a join of ``ingest.chunks``
            (returned in ``chunk_join``).
    """
    row_id = sql.Identifier(row)
    parts: list[sql.Composable] = []
    params: dict[str, Any] = {}
    join: sql.Composable = sql.SQL("")
    if filters.document_types:
        parts.append(sql.SQL("{}.document_type = any(%(f_document_types)s::text[])").format(row_id))
        params["f_document_types"] = list(filters.document_types)
    if filters.document_ids:
        parts.append(sql.SQL("{}.document_id = any(%(f_document_ids)s::text[])").format(row_id))
        params["f_document_ids"] = list(filters.document_ids)
    if filters.product_codes:
        # a document is "about" a product when it names it anywhere (front matter or any chunk)
        parts.append(
            sql.SQL(
                "exists (select 1 from ingest.identifiers fi where fi.tenant_id = {r}.tenant_id "
                "and fi.document_id = {r}.document_id and fi.document_version = {r}.document_version "
                "and fi.identifier_type = 'product_code' and fi.identifier_value = any(%(f_product_codes)s::text[]))"
            ).format(r=row_id)
        )
        params["f_product_codes"] = list(filters.product_codes)
    if (filters.valid_at is not None or filters.company_ids or filters.phrases) and chunk is None:
        chunk = "fc"
        join = sql.SQL(
            " join ingest.chunks fc on fc.tenant_id = {r}.tenant_id and fc.document_id = {r}.document_id "
            "and fc.document_version = {r}.document_version and fc.chunk_id = {r}.chunk_id"
        ).format(r=row_id)
    chunk_id = sql.Identifier(chunk) if chunk is not None else None
    if filters.valid_at is not None:
        # undated documents (master data) are not time-bound and stay eligible
        parts.append(sql.SQL("coalesce(retrieval.valid_from({c}.metadata) <= %(f_valid_at)s::date, true)").format(
            c=chunk_id))  # fmt: skip
        params["f_valid_at"] = filters.valid_at
    if filters.company_ids:
        parts.append(sql.SQL("({c}.metadata ->> 'company_id') = any(%(f_company_ids)s::text[])").format(c=chunk_id))
        params["f_company_ids"] = list(filters.company_ids)
    for index, phrase in enumerate(filters.phrases):
        # Literal containment on the chunk's own text, lower-cased with whitespace runs collapsed (the model
        # normalized the phrase the same way); strpos, not LIKE, so % and _ in a phrase mean themselves.
        name = f"f_phrase_{index}"
        parts.append(sql.SQL("strpos(regexp_replace(lower({c}.chunk_text), '\\s+', ' ', 'g'), {p}) > 0").format(
            c=chunk_id, p=sql.Placeholder(name)))  # fmt: skip
        params[name] = phrase
    predicate = sql.SQL(" and ").join(parts) if parts else sql.SQL("true")
    return FilterSql(predicate, join, params)
