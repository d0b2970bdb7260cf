"""The exact branch: normalized identifiers, equality on the non-analyzed identifier store.

Identifiers come from the request (already normalized by :mod:`retrieval.models`) and from the query text
(:func:`ingest.normalize.find_identifiers`, the same patterns ingestion used), so "prd 482", "PRD482" and
"PRD-482" all look up ``PRD-482``. The lookup is an equality join on ``retrieval.active_identifiers``
(identifier type, value): no analyzer, no partial match, no score. A chunk that contains an identifier is a
``chunk`` match; a document that names it only in its front matter is a ``document`` match, represented by its
first chunk. The order is deterministic: more distinct identifiers matched first, then chunks of documents
about the identifier (front matter), chunk before document matches, then document id and chunk position.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

import psycopg
from psycopg import sql

from ingest.normalize import find_identifiers
from retrieval.candidates import INFO_NAMES, BranchResult, ChunkKey, Hit, chunk_info, info_columns
from retrieval.filters import FilterSql, filter_sql
from retrieval.models import Filters

#: Identifier types the exact branch looks up when they appear in query text.
TEXT_IDENTIFIER_TYPES = frozenset(
    {"product_code", "invoice_number", "contract_id", "supplier_id", "company_id", "product_group_id"}
)


def identifiers_in_text(text: str) -> tuple[tuple[str, str], ...]:
    """(type, canonical value) of every identifier in ``text``, first occurrence order, no repeats.

    >>> identifiers_in_text("prd 482 vs PRD-482 and INV 2026 0148")
    (('product_code', 'PRD-482'), ('invoice_number', 'INV-2026-0148'))
    """
    found = sorted(find_identifiers(text), key=lambda m: m.start)
    pairs = [(m.identifier_type, m.value) for m in found if m.identifier_type in TEXT_IDENTIFIER_TYPES]
    return tuple(dict.fromkeys(pairs))


def label(pair: tuple[str, str]) -> str:
    """``product_code:PRD-482``."""
    return f"{pair[0]}:{pair[1]}"


_QUERY = """
with wanted (identifier_type, identifier_value) as (
    select * from unnest(%(types)s::text[], %(values)s::text[])
),
hits as (
    select i.document_id, i.document_version, i.chunk_id, i.identifier_type || ':' || i.identifier_value as matched
    from retrieval.active_identifiers i
    join wanted w on w.identifier_type = i.identifier_type and w.identifier_value = i.identifier_value
),
subjects as (
    -- documents ABOUT the identifier: it is in their front matter (a document-level identifier)
    select document_id, document_version, array_agg(distinct matched order by matched) as matched
    from hits
    where chunk_id is null
    group by document_id, document_version
),
chunk_matches as (
    select h.document_id, h.document_version, h.chunk_id, array_agg(distinct h.matched order by h.matched) as matched,
           'chunk' as level
    from hits h
    where h.chunk_id is not null
    group by h.document_id, h.document_version, h.chunk_id
),
document_matches as (
    -- subjects whose chunks never spell the identifier: their first chunk stands for them
    select s.document_id, s.document_version, first_chunk.chunk_id, s.matched, 'document' as level
    from subjects s
    cross join lateral (
        select c.chunk_id from ingest.chunks c
        where c.document_id = s.document_id and c.document_version = s.document_version
        order by c.ordinal limit 1
    ) first_chunk
    where not exists (
        select 1 from chunk_matches m where m.document_id = s.document_id and m.document_version = s.document_version
    )
),
keyed as (
    select m.*, cardinality(m.matched) as n,
           exists (select 1 from subjects s
                   where s.document_id = m.document_id and s.document_version = m.document_version) as is_subject
    from (select * from chunk_matches union all select * from document_matches) m
),
final as (
    select k.*, x.ordinal, {info_x}
    from keyed k
    {cut}
    join retrieval.active_chunks x
      on x.document_id = k.document_id and x.document_version = k.document_version and x.chunk_id = k.chunk_id
    {chunk_join}
    where {predicate}
)
select document_id, document_version, chunk_id, matched, level, {info}
from final
order by n desc, is_subject desc, level, document_id, ordinal, chunk_id
limit %(depth)s
"""

# Design note: without a filter, the order's leading keys (identifiers matched, subject, level, document) are known
# from the identifier rows alone; only the chunk position needs the chunk row. So the matches are grouped by those
# keys, and only the groups that can reach the first depth rows are joined to their chunks. A code named in a
# thousand chunks then reads tens of chunk rows instead of a thousand (the same rows, in the same order). A filter
# reads the chunk row, so a filtered query joins every match to its chunk.
_CUT = """join (
        select n, is_subject, level, document_id,
               sum(count(*)) over (order by n desc, is_subject desc, level, document_id) - count(*) as rows_before
        from keyed
        group by n, is_subject, level, document_id
    ) g on g.n = k.n and g.is_subject = k.is_subject and g.level = k.level and g.document_id = k.document_id
       and g.rows_before < %(depth)s"""

_SUBJECTS = """
select document_id, document_version, array_agg(distinct identifier_type || ':' || identifier_value)
from retrieval.active_identifiers
where chunk_id is null
  and (identifier_type, identifier_value) in (select * from unnest(%(types)s::text[], %(values)s::text[]))
group by document_id, document_version
"""


def compose_query(where: FilterSql) -> sql.Composed:
    """The exact branch's statement for the filter ``where`` (over the chunk alias ``x``)."""
    info_x = sql.SQL(info_columns("x", named=True))
    info = sql.SQL(", ").join(sql.Identifier(n) for n in INFO_NAMES)
    cut = sql.SQL("" if where.restricts else _CUT)
    return sql.SQL(_QUERY).format(cut=cut, chunk_join=where.chunk_join, predicate=where.predicate, info_x=info_x,
                                  info=info)


def exact_send(
    conn: psycopg.Connection,
    identifiers: Sequence[tuple[str, str]],
    filters: Filters,
    *,
    depth: int,
) -> Callable[[], BranchResult]:
    """Send the exact branch's two statements; the returned function collects the :class:`BranchResult`.

    On a connection in pipeline mode the statements are only queued (see :func:`retrieval.bm25.bm25_send`).
    """
    started = time.perf_counter()
    if not identifiers:
        return lambda: BranchResult("exact", (), "none", 0.0)
    where = filter_sql(filters, "x", chunk="x")
    params = {
        "types": [t for t, _ in identifiers],
        "values": [v for _, v in identifiers],
        "depth": depth + 1,
        **where.params,
    }
    matches = conn.execute(compose_query(where), params)
    subjects = conn.execute(_SUBJECTS, params)

    def collect() -> BranchResult:
        rows = matches.fetchall()
        truncated = len(rows) > depth
        hits = []
        infos = {}
        for doc, version, chunk, matched, level, *rest in rows[:depth]:
            key = ChunkKey(doc, int(version), chunk)
            hits.append(Hit(key, 1.0, tuple(matched), level))
            infos[key] = chunk_info(key, rest)
        documents = {
            (doc, int(version)): tuple(sorted(matched)) for doc, version, matched in subjects.fetchall()
        }
        elapsed = (time.perf_counter() - started) * 1000
        return BranchResult("exact", tuple(hits), "identifier-equality", elapsed, truncated, documents, infos)

    return collect


def exact_search(
    conn: psycopg.Connection,
    identifiers: Sequence[tuple[str, str]],
    filters: Filters,
    *,
    depth: int,
) -> BranchResult:
    """Chunks carrying any of ``identifiers`` in the current tenant's active documents, deterministic order.

    Also returns, for fusion's identity feature, every active document that is about one of them (a
    document-level identifier from its front matter), before filters: identity does not depend on the filter,
    membership in the results does.
    """
    return exact_send(conn, identifiers, filters, depth=depth)()


def merge_identifiers(*groups: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """All pairs of ``groups`` without repeats, in first-seen order."""
    return tuple(dict.fromkeys(pair for group in groups for pair in group))
