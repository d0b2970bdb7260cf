"""Entity resolution: aliases and spelling variants -> canonical ids, by normalization rules + an alias table.

Normalization is the system's one supplier-name rule (``ingest.normalize.normalize_supplier_name``, mirrored by
the dbt macro ``normalize_supplier_name``): casefold, punctuation to spaces, collapse whitespace, drop trailing
legal-form suffixes (GmbH, AG, Ltd, Inc, LLC, SA, ...). Design note: the graph deliberately reuses that function
instead of a stricter variant of its own, so a name resolves to the same supplier in the graph as in SQL.
Then an exact lookup in the alias table: the tenant's active ``landing.supplier_aliases`` (plus each supplier's
canonical name and id) and the reviewed rows of ``graph.alias_overrides``. A normalized name that maps to two
canonical ids is *ambiguous* and never guessed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

import psycopg

from ingest.normalize import normalize_supplier_name


def normalize_name(name: str) -> str:
    """The normalized form used for alias lookup ('' when nothing but punctuation or legal forms is left).

    >>> normalize_name("Beta Supplies GmbH")
    'beta supplies'
    >>> normalize_name("  BETA-SUPPLIES,  Ltd. ")
    'beta supplies'
    >>> normalize_name("Theta Präzision AG") == normalize_name("THETA PRÄZISION")
    True
    """
    return normalize_supplier_name(name) or ""


ResolutionStatus = Literal["resolved", "ambiguous", "unresolved"]


@dataclass(frozen=True)
class AliasEntry:
    """One row of the alias table: a spelling that names a canonical entity."""

    alias: str
    canonical_id: str
    source: Literal["canonical_id", "canonical_name", "alias", "override"]


@dataclass(frozen=True)
class Resolution:
    """The outcome of resolving one name."""

    query: str
    normalized: str
    status: ResolutionStatus
    canonical_id: str | None = None
    candidates: tuple[str, ...] = ()
    via: str | None = None


@dataclass(frozen=True)
class AliasIndex:
    """Normalized alias -> canonical ids of one tenant and entity type."""

    by_normalized: dict[str, frozenset[str]]
    via: dict[str, str]
    canonical_ids: frozenset[str]
    rejected: frozenset[tuple[str, str]] = field(default_factory=frozenset)

    @classmethod
    def build(
        cls, entries: Iterable[AliasEntry], *, rejected: Iterable[tuple[str, str]] = ()
    ) -> AliasIndex:
        """Index alias entries; ``rejected`` holds (normalized alias, canonical id) pairs a reviewer refused.

        Approved overrides win over the other entries of the same normalized alias (a reviewer settled it).
        """
        refused = frozenset(rejected)
        mapping: dict[str, set[str]] = defaultdict(set)
        overridden: dict[str, set[str]] = defaultdict(set)
        via: dict[str, str] = {}
        canonical: set[str] = set()
        for entry in entries:
            key = entry.alias if entry.source == "canonical_id" else normalize_name(entry.alias)
            if not key or (key, entry.canonical_id) in refused:
                continue
            if entry.source == "canonical_id":
                canonical.add(entry.canonical_id)
            target = overridden if entry.source == "override" else mapping
            target[key].add(entry.canonical_id)
            via.setdefault(key, entry.source)
        for key, ids in overridden.items():
            mapping[key] = ids
            via[key] = "override"
        return cls({k: frozenset(v) for k, v in mapping.items()}, via, frozenset(canonical), refused)

    def resolve(self, name: str) -> Resolution:
        """Resolve a name (an alias, a spelling variant, or a canonical id) to one canonical id."""
        if name in self.canonical_ids:
            return Resolution(name, name, "resolved", name, (name,), "canonical_id")
        normalized = normalize_name(name)
        ids = self.by_normalized.get(normalized, frozenset())
        if len(ids) == 1:
            (only,) = ids
            return Resolution(name, normalized, "resolved", only, (only,), self.via.get(normalized))
        if ids:
            return Resolution(name, normalized, "ambiguous", None, tuple(sorted(ids)))
        return Resolution(name, normalized, "unresolved")

    @property
    def ambiguous_aliases(self) -> dict[str, tuple[str, ...]]:
        """Normalized aliases that name more than one canonical id (collisions to review)."""
        return {k: tuple(sorted(v)) for k, v in self.by_normalized.items() if len(v) > 1}


def load_supplier_index(
    conn: psycopg.Connection, tenant_id: str, served: Sequence[tuple[str, int]] | None = None
) -> AliasIndex:
    """The supplier alias index of a tenant from its served landing rows and reviewed overrides.

    Args:
        conn: a connection that reads ``landing`` (the pipeline's owner role: the tenant filter is explicit
            because that role bypasses RLS).
        tenant_id: the tenant.
        served: the (document_id, document_version) pairs to read; default: the active, non-deleted versions.
    """
    if served is None:
        served = conn.execute(
            """
            select document_id, active_version from ingest.documents
            where tenant_id = %s and active_version is not null and not is_deleted
            """,
            (tenant_id,),
        ).fetchall()
    doc_ids = [d for d, _ in served]
    versions = [v for _, v in served]
    served_join = """
        join unnest(%s::text[], %s::integer[]) as s(document_id, document_version)
          on s.document_id = x.document_id and s.document_version = x.document_version
    """
    entries: list[AliasEntry] = []
    for supplier_id, supplier_name in conn.execute(
        f"select x.supplier_id, x.supplier_name from landing.suppliers x {served_join} where x.tenant_id = %s",
        (doc_ids, versions, tenant_id),
    ).fetchall():
        entries.append(AliasEntry(supplier_id, supplier_id, "canonical_id"))
        entries.append(AliasEntry(supplier_name, supplier_id, "canonical_name"))
    for supplier_id, alias in conn.execute(
        f"select x.supplier_id, x.alias from landing.supplier_aliases x {served_join} where x.tenant_id = %s",
        (doc_ids, versions, tenant_id),
    ).fetchall():
        entries.append(AliasEntry(alias, supplier_id, "alias"))
    rejected: list[tuple[str, str]] = []
    for alias_normalized, canonical_id, status in conn.execute(
        """
        select alias_normalized, canonical_id, status from graph.alias_overrides
        where tenant_id = %s and entity_type = 'Supplier' and status in ('approved', 'rejected')
        """,
        (tenant_id,),
    ).fetchall():
        if status == "approved":
            entries.append(AliasEntry(alias_normalized, canonical_id, "override"))
        else:
            rejected.append((alias_normalized, canonical_id))
    return AliasIndex.build(entries, rejected=rejected)


@dataclass(frozen=True)
class ResolutionReport:
    """Accuracy of resolution against known truth (name -> expected canonical id)."""

    total: int
    correct: int
    wrong: int
    ambiguous: int
    unresolved: int
    failures: tuple[tuple[str, str, Resolution], ...]

    @property
    def accuracy(self) -> Decimal:
        """correct / total, as an exact decimal (1 when there is nothing to resolve)."""
        return Decimal(self.correct) / Decimal(self.total) if self.total else Decimal(1)


def evaluate(index: AliasIndex, truth: Sequence[tuple[str, str]]) -> ResolutionReport:
    """Resolve every name of ``truth`` and count correct, wrong, ambiguous and unresolved answers."""
    return _report(truth, [index.resolve(name) for name, _ in truth])


def leave_one_out(suppliers: Sequence[tuple[str, str, Sequence[str]]]) -> ResolutionReport:
    """Accuracy of the normalization rules on spellings the alias table has not seen.

    For each alias of each supplier (``(supplier_id, supplier_name, aliases)``), the index is built from every
    other spelling and the held-out alias is resolved: an alias that only an exact table entry could resolve
    counts as unresolved, so the figure measures how well the rules generalize, not the table lookup.
    """
    entries: list[AliasEntry] = []
    for supplier_id, name, aliases in suppliers:
        entries.append(AliasEntry(name, supplier_id, "canonical_name"))
        entries.extend(AliasEntry(alias, supplier_id, "alias") for alias in aliases)
    held_out: list[tuple[str, str]] = []
    results: list[Resolution] = []
    for position, entry in enumerate(entries):
        if entry.source != "alias":
            continue
        index = AliasIndex.build(other for i, other in enumerate(entries) if i != position)
        held_out.append((entry.alias, entry.canonical_id))
        results.append(index.resolve(entry.alias))
    return _report(held_out, results)


def _report(truth: Sequence[tuple[str, str]], results: Sequence[Resolution]) -> ResolutionReport:
    correct = wrong = ambiguous = unresolved = 0
    failures: list[tuple[str, str, Resolution]] = []
    for (name, expected), result in zip(truth, results, strict=True):
        if result.status == "resolved" and result.canonical_id == expected:
            correct += 1
            continue
        if result.status == "resolved":
            wrong += 1
        elif result.status == "ambiguous":
            ambiguous += 1
        else:
            unresolved += 1
        failures.append((name, expected, result))
    return ResolutionReport(len(truth), correct, wrong, ambiguous, unresolved, tuple(failures))
