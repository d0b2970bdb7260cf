"""Names by similarity inside the tenant: ``pg_trgm`` over the governed name tables, under RLS.

:class:`PgTrigramResolver` is the production :class:`router.reader.NameResolver`: it scores every spelling of the
tenant (companies, suppliers, supplier aliases, product groups) against the distinctive words of a span with
``pg_trgm``'s ``similarity()`` word by word (:func:`router.reader.name_score` is the same computation in memory),
as ``procura_app`` inside a tenant transaction, so another tenant's names are never candidates.

Threshold measurement (:func:`measure`, asserted by ``tests/unit/test_router_reader_metamorphic.py``): every
one-edit typo (delete,
substitute, insert, swap) of every word of five letters or more of every spelling of the demo vocabulary, plus
made-up names that belong to no one.
At :data:`router.reader.NAME_THRESHOLD` = 0.4 and margin 0.08, on 2026-12-04: 3664 typos, 3335 resolved to their
own name, 329 left unresolved (these are mostly caught earlier by the one-edit word matcher of
:mod:`router.entities`, else asked about), 0 resolved to a different name; 0 of 22 made-up names resolved. Higher
thresholds only lose typos (0.5: 2672 resolved; 0.6: 963), still with 0 wrong.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import psycopg

from procura.db.session import AuthContext, tenant_transaction
from router.errors import NameResolutionError
from router.reader import NAME_THRESHOLD, SKIPPED_WORDS, NameMatch, rank_matches, span_words

log = logging.getLogger(__name__)

# The word-by-word score of router.reader.name_score, in SQL: for each (spelling, span word) the best word
# similarity, then the worst span word; and the same from the spelling's distinctive words back to the span.
_SQL = """
with names(kind, canonical_id, spelling) as (
    select 'company', company_id, company_name from marts.dim_companies
    union select 'supplier', supplier_id, supplier_name from marts.dim_suppliers
    union select 'supplier', supplier_id, alias from marts.dim_supplier_aliases
    union select 'product_group', product_group_id, group_name from marts.dim_product_groups
    union select 'product_group', product_group_id, synonym from marts.dim_product_group_synonyms
), spelled as (
    select n.kind, n.canonical_id, n.spelling, t, not (t = any(%(generic)s::text[])) as distinctive
    from names n
    cross join lateral regexp_split_to_table(lower(regexp_replace(n.spelling, '[^[:alnum:]]+', ' ', 'g')), ' ') t
    where t <> ''
), flagged as (
    select *, bool_or(distinctive) over (partition by kind, canonical_id, spelling) as any_distinctive from spelled
), pairs as (
    select f.kind, f.canonical_id, f.spelling, f.t, f.distinctive or not f.any_distinctive as needed, y.w,
           public.similarity(y.w, f.t) as sim
    from flagged f cross join unnest(%(words)s::text[]) as y(w)
), forward as (
    select kind, canonical_id, spelling, min(best) as score
    from (select kind, canonical_id, spelling, w, max(sim) as best from pairs group by 1, 2, 3, 4) x group by 1, 2, 3
), backward as (
    select kind, canonical_id, spelling, min(best) as score
    from (select kind, canonical_id, spelling, t, max(sim) as best from pairs where needed group by 1, 2, 3, 4) x
    group by 1, 2, 3
)
select f.kind, f.canonical_id, f.spelling, least(f.score, b.score)::float8
from forward f join backward b using (kind, canonical_id, spelling)
where least(f.score, b.score) >= %(threshold)s
"""


@dataclass(frozen=True)
class PgTrigramResolver:
    """:class:`router.reader.NameResolver` with ``pg_trgm`` inside the tenant (``procura_app``, RLS)."""

    conn: psycopg.Connection
    ctx: AuthContext
    threshold: float = NAME_THRESHOLD

    def similar(self, text: str) -> Sequence[NameMatch]:
        """Spellings of the tenant at or above the threshold, best first (one per canonical id)."""
        words = list(span_words(text))
        if not words:
            return []
        try:
            with tenant_transaction(self.conn, self.ctx, read_only=True, statement_timeout_ms=5000):
                rows = self.conn.execute(_SQL, {
                    "words": words, "generic": sorted(SKIPPED_WORDS), "threshold": self.threshold,
                }).fetchall()
        except psycopg.errors.QueryCanceled:
            # Slow database: the span stays unresolved, so the question is asked about (never a guess).
            log.warning("router.names: similarity lookup of %r timed out", text)
            return []
        except psycopg.errors.UndefinedFunction as exc:
            # A database without migration 0110: the names stay unresolved (a clarification), never guessed.
            raise NameResolutionError(f"router.names: pg_trgm is not installed ({exc}); run `procura db up`") from exc
        return rank_matches(((r[0], r[1], r[2], float(r[3])) for r in rows), self.threshold)


def _edits(word: str) -> set[str]:
    out: set[str] = set()
    for i in range(1, len(word)):
        out.add(word[:i] + word[i + 1:])
        for c in "aeioxz":
            out.add(word[:i] + c + word[i + 1:])
            out.add(word[:i] + c + word[i:])
        if i < len(word) - 1:
            out.add(word[:i] + word[i + 1] + word[i] + word[i + 2:])
    return out - {word}


#: Names that belong to no supplier, company or group of the demo vocabulary (they must never resolve).
MADE_UP = ("Omega", "Acme Corp", "Sigma Supplies", "Supplier Omega", "Lambda Industries", "Theta Instruments",
           "Company Z", "Kappa GmbH", "Widgets", "Office Furniture", "Monitoring Services", "Pressure Gauges",
           "Zeta Tech", "Northwind", "Contoso Ltd", "Fabrikam", "Company D", "Alpha Supplies", "Supplier Alpha",
           "Valves", "Pumps", "Cables")


def measure(gazetteer: object, thresholds: Sequence[float] = (0.3, 0.35, 0.4, 0.45, 0.5, 0.6),
            margin: float = 0.08, every: int = 1) -> list[dict[str, object]]:
    """Resolved / unresolved / wrong counts of one-edit typos and made-up names per threshold (in memory);
    ``every`` > 1 samples every n-th typo."""
    from router.reader import NAME_MARGIN, TrigramResolver, name_spellings

    margin = margin or NAME_MARGIN
    spellings = name_spellings(gazetteer)  # type: ignore[arg-type]
    cases: list[tuple[str, str]] = []
    for _, cid, spelling in spellings:
        words = spelling.split()
        for k, word in enumerate(words):
            if len(word) >= 5:
                cases.extend((" ".join([*words[:k], t, *words[k + 1:]]), cid) for t in _edits(word))
    cases = cases[::every]
    rows: list[dict[str, object]] = []
    for threshold in thresholds:
        resolver = TrigramResolver(gazetteer, threshold)  # type: ignore[arg-type]

        def decide(text: str, resolver: TrigramResolver = resolver) -> str | None:
            found = list(resolver.similar(text))
            if not found:
                return None
            if len(found) == 1 or found[0].score - found[1].score >= margin:
                return found[0].canonical_id
            return "ambiguous"

        outcomes = [(decide(t), cid) for t, cid in cases]
        rows.append({
            "threshold": threshold, "typos": len(cases),
            "own": sum(1 for d, c in outcomes if d == c),
            "ambiguous": sum(1 for d, _ in outcomes if d == "ambiguous"),
            "unresolved": sum(1 for d, _ in outcomes if d is None),
            "wrong": sum(1 for d, c in outcomes if d not in (None, "ambiguous", c)),
            "made_up_resolved": sum(1 for n in MADE_UP if decide(n) not in (None, "ambiguous")),
        })
    return rows
