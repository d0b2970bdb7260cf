"""Evaluation of retrieval on the labeled query set (``eval/retrieval_queries.yml``).

Relevance labels are resolved against the tenant's active chunks at run time (see the YAML's header), then
every system (a set of retrieval modes plus a configuration) answers every query through the real
:func:`retrieval.service.search`, and the top 10 are scored:

* ``recall@k`` = relevant chunks in the top k / min(k, number of relevant chunks) (so a query with 30
  relevant chunks can still reach 1.0 at k = 10);
* ``nDCG@10`` with binary gains, ideal ranking = all relevant first;
* ``violations`` = results in the top 10 that a permission-sensitive query forbids (must stay 0).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import psycopg
import yaml  # type: ignore[import-untyped]  # no stubs installed; only safe_load is used
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from evaluation.errors import QuerySetError
from ingest.embedder import Embedder
from procura.db.session import AuthContext, tenant_transaction
from procura.settings import REPO_ROOT
from retrieval.candidates import ChunkKey
from retrieval.config import RetrievalConfig
from retrieval.models import Mode, SearchRequest
from retrieval.service import SEARCH_SCOPE, search

QUERY_SET = REPO_ROOT / "eval" / "retrieval_queries.yml"
Category = Literal["exact_identifier", "technical_phrase", "paraphrase", "mixed", "permission_sensitive"]
CATEGORIES: tuple[Category, ...] = ("exact_identifier", "technical_phrase", "paraphrase", "mixed",
                                    "permission_sensitive")


class _Spec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RelevantSpec(_Spec):
    """Which active chunks are relevant (all given conditions must hold)."""

    identifier: str | None = Field(default=None, pattern=r"^[a-z_]+:[A-Za-z0-9-]+$")
    document_id: str | None = None
    page: int | None = None
    contains: tuple[str, ...] = ()


class ForbiddenDocument(_Spec):
    """A document (or one version of it) that must never be returned."""

    document_id: str
    version: int | None = None


class LabeledQuery(_Spec):
    """One query of the set."""

    id: str
    category: Category
    tenant: str
    query: str
    relevant: tuple[RelevantSpec, ...] = Field(min_length=1)
    forbidden_text: tuple[str, ...] = ()
    forbidden_documents: tuple[ForbiddenDocument, ...] = ()


class QuerySet(_Spec):
    """The labeled set."""

    version: int
    corpus: dict[str, Any]
    k: tuple[int, ...]
    queries: tuple[LabeledQuery, ...]


def load_query_set(path: Path = QUERY_SET) -> QuerySet:
    """Parse and validate the query set.

    Raises:
        QuerySetError: malformed YAML, a field that fails validation (named), or duplicate query ids.
    """
    try:
        data = yaml.safe_load(path.read_text())
        queries = QuerySet.model_validate(data)
    except (yaml.YAMLError, OSError) as exc:
        raise QuerySetError(f"{path}: {exc}") from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise QuerySetError(f"{path}: {where}: {first['msg']}") from None
    ids = [q.id for q in queries.queries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise QuerySetError(f"{path}: duplicate query ids {', '.join(duplicates)}")
    return queries


@dataclass(frozen=True)
class System:
    """One configuration under evaluation: retrieval modes and tuning."""

    name: str
    modes: tuple[Mode, ...]
    config: RetrievalConfig = field(default_factory=RetrievalConfig)


@dataclass(frozen=True)
class QueryScore:
    """The metrics of one system on one query."""

    query_id: str
    category: Category
    system: str
    recall: Mapping[int, float]
    ndcg10: float
    violations: int
    relevant: int
    returned: tuple[str, ...]


def _context(tenant: str) -> AuthContext:
    return AuthContext(tenant_id=tenant, principal_id="retrieval-eval", scopes=frozenset({SEARCH_SCOPE}))


def resolve_relevant(conn: psycopg.Connection, query: LabeledQuery) -> set[ChunkKey]:
    """The active chunks of the query's tenant that its relevance specs select (read through RLS)."""
    found: set[ChunkKey] = set()
    with tenant_transaction(conn, _context(query.tenant)):
        for index, spec in enumerate(query.relevant):
            clauses = ["true"]
            params: list[Any] = []
            if spec.identifier:
                kind, _, value = spec.identifier.partition(":")
                clauses.append(
                    "exists (select 1 from retrieval.active_identifiers i where i.document_id = c.document_id "
                    "and i.document_version = c.document_version and i.chunk_id = c.chunk_id "
                    "and i.identifier_type = %s and i.identifier_value = %s)"
                )
                params += [kind, value]
            if spec.document_id:
                clauses.append("c.document_id = %s")
                params.append(spec.document_id)
            if spec.page is not None:
                clauses.append("c.page = %s")
                params.append(spec.page)
            for text in spec.contains:
                clauses.append("strpos(lower(c.chunk_text), lower(%s)) > 0")
                params.append(text)
            rows = conn.execute(
                "select document_id, document_version, chunk_id from retrieval.active_chunks c where "
                + " and ".join(clauses),
                params,
            ).fetchall()
            if not rows:
                raise QuerySetError(f"query {query.id}: relevant[{index}] matches no active chunk")
            found.update(ChunkKey(d, int(v), c) for d, v, c in rows)
    return found


def recall_at(ranked: Sequence[ChunkKey], relevant: set[ChunkKey], k: int) -> float:
    """Relevant results in the top ``k`` over min(k, |relevant|)."""
    if not relevant:
        return 0.0
    return len(set(ranked[:k]) & relevant) / min(k, len(relevant))


def ndcg_at(ranked: Sequence[ChunkKey], relevant: set[ChunkKey], k: int = 10) -> float:
    """Binary-gain nDCG@k."""
    dcg = sum(1 / math.log2(i + 2) for i, key in enumerate(ranked[:k]) if key in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(k, len(relevant))))
    return dcg / ideal if ideal else 0.0


def evaluate(
    conn: psycopg.Connection,
    query_set: QuerySet,
    systems: Sequence[System],
    embedder: Embedder,
    *,
    limit: int = 10,
) -> list[QueryScore]:
    """Score every system on every query (``conn`` is a ``procura_app`` connection in autocommit mode)."""
    scores: list[QueryScore] = []
    relevant = {q.id: resolve_relevant(conn, q) for q in query_set.queries}
    for query in query_set.queries:
        for system in systems:
            request = SearchRequest(query_text=query.query, retrieval_modes=system.modes, limit=limit)
            response = search(conn, _context(query.tenant), request, embedder if "vector" in system.modes else None,
                              config=system.config)
            ranked = [ChunkKey(r.document_id, r.document_version, r.chunk_id) for r in response.results]
            violations = 0
            for result in response.results:
                if any(t.casefold() in result.text.casefold() for t in query.forbidden_text) or any(
                    f.document_id == result.document_id and f.version in (None, result.document_version)
                    for f in query.forbidden_documents
                ):
                    violations += 1
            scores.append(QueryScore(
                query_id=query.id,
                category=query.category,
                system=system.name,
                recall={k: recall_at(ranked, relevant[query.id], k) for k in query_set.k},
                ndcg10=ndcg_at(ranked, relevant[query.id], 10),
                violations=violations,
                relevant=len(relevant[query.id]),
                returned=tuple(k.chunk_id for k in ranked),
            ))
    return scores


def summarize(scores: Sequence[QueryScore], k: int) -> dict[tuple[str, str], tuple[float, float, int]]:
    """(system, category or 'all') -> (mean recall@k, mean nDCG@10, violations)."""
    table: dict[tuple[str, str], list[QueryScore]] = {}
    for score in scores:
        table.setdefault((score.system, score.category), []).append(score)
        table.setdefault((score.system, "all"), []).append(score)
    return {
        key: (
            sum(s.recall[k] for s in group) / len(group),
            sum(s.ndcg10 for s in group) / len(group),
            sum(s.violations for s in group),
        )
        for key, group in table.items()
    }
