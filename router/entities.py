"""Entity mentions in a question, resolved through the tenant's alias table (companies, suppliers, groups).

The :class:`Gazetteer` is the tenant's vocabulary, read from the governed marts as ``procura_app`` under RLS
(:func:`load_gazetteer`), so one tenant's names never resolve another tenant's question. Supplier spellings are
normalized by the system's one rule (:func:`ingest.normalize.normalize_supplier_name`); a spelling that names
two suppliers is *ambiguous* and is never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import psycopg

from ingest.normalize import normalize_supplier_name
from procura.db.session import AuthContext, tenant_transaction


@dataclass(frozen=True)
class Company:
    """A company of the tenant."""

    company_id: str
    company_name: str
    reporting_currency: str


@dataclass(frozen=True)
class ProductGroup:
    """A product group of the tenant."""

    product_group_id: str
    group_name: str


@dataclass(frozen=True)
class Gazetteer:
    """The names one tenant's questions may use, with their canonical ids."""

    companies: tuple[Company, ...] = ()
    supplier_aliases: Mapping[str, frozenset[str]] = field(default_factory=dict)
    supplier_names: Mapping[str, str] = field(default_factory=dict)
    product_groups: tuple[ProductGroup, ...] = ()

    @classmethod
    def build(
        cls,
        companies: Iterable[Company],
        suppliers: Iterable[tuple[str, str]],
        aliases: Iterable[tuple[str, str]],
        groups: Iterable[ProductGroup],
    ) -> Gazetteer:
        """Index (supplier_id, name) pairs and (alias, supplier_id) pairs by their normalized spelling."""
        by_alias: dict[str, set[str]] = {}
        names: dict[str, str] = {}
        for supplier_id, name in suppliers:
            names[supplier_id] = name
            key = normalize_supplier_name(name)
            if key:
                by_alias.setdefault(key, set()).add(supplier_id)
        for alias, supplier_id in aliases:
            key = normalize_supplier_name(alias)
            if key:
                by_alias.setdefault(key, set()).add(supplier_id)
        return cls(
            companies=tuple(sorted(companies, key=lambda c: c.company_id)),
            supplier_aliases={k: frozenset(v) for k, v in by_alias.items()},
            supplier_names=names,
            product_groups=tuple(sorted(groups, key=lambda g: g.product_group_id)),
        )

    def company(self, company_id: str) -> Company | None:
        """The company with that id, if the tenant has it."""
        return next((c for c in self.companies if c.company_id == company_id), None)


@dataclass(frozen=True)
class Mention:
    """A span of the question that names an entity, and what it resolved to."""

    kind: str
    text: str
    start: int
    end: int
    candidates: tuple[str, ...]

    @property
    def resolved(self) -> str | None:
        """The canonical id when exactly one candidate remains."""
        return self.candidates[0] if len(self.candidates) == 1 else None


@dataclass(frozen=True)
class EntityMentions:
    """All entity mentions of a question."""

    companies: tuple[Mention, ...] = ()
    suppliers: tuple[Mention, ...] = ()
    product_groups: tuple[Mention, ...] = ()
    first_person: bool = False

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """Every mention's span, for masking before the cue-word rules."""
        return tuple(sorted((m.start, m.end) for m in (*self.companies, *self.suppliers, *self.product_groups)))


_WORD = re.compile(r"[0-9A-Za-zÀ-ÖØ-öø-ÿß]+")
_FIRST_PERSON = re.compile(r"\b(we|our|us|ours)\b", re.I)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(0).lower(), m.start(), m.end()) for m in _WORD.finditer(text)]


def _stem(token: str) -> str:
    return token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token


def _find_phrases(
    tokens: list[tuple[str, int, int]], phrases: Mapping[tuple[str, ...], frozenset[str]], text: str, kind: str,
    stem: bool = False,
) -> list[Mention]:
    """Longest-first, non-overlapping matches of token phrases."""
    words = [(_stem(t) if stem else t) for t, _, _ in tokens]
    longest = max((len(p) for p in phrases), default=0)
    found: list[Mention] = []
    taken: set[int] = set()
    for size in range(longest, 0, -1):
        for i in range(len(words) - size + 1):
            if any(j in taken for j in range(i, i + size)):
                continue
            key = tuple(words[i : i + size])
            ids = phrases.get(key)
            if ids:
                start, end = tokens[i][1], tokens[i + size - 1][2]
                found.append(Mention(kind, text[start:end], start, end, tuple(sorted(ids))))
                taken.update(range(i, i + size))
    return sorted(found, key=lambda m: m.start)


def find_mentions(text: str, gazetteer: Gazetteer) -> EntityMentions:
    """Company, supplier and product-group mentions in ``text`` (longest match wins; ambiguity is kept)."""
    tokens = _tokens(text)
    company_phrases: dict[tuple[str, ...], set[str]] = {}
    for company in gazetteer.companies:
        company_phrases.setdefault(tuple(t for t, _, _ in _tokens(company.company_name)), set()).add(
            company.company_id
        )
    supplier_phrases = {tuple(alias.split()): ids for alias, ids in gazetteer.supplier_aliases.items()}
    group_phrases: dict[tuple[str, ...], set[str]] = {}
    for group in gazetteer.product_groups:
        key = tuple(_stem(t) for t, _, _ in _tokens(group.group_name))
        group_phrases.setdefault(key, set()).add(group.product_group_id)
    companies = _find_phrases(tokens, {k: frozenset(v) for k, v in company_phrases.items()}, text, "company")
    company_spans = {(m.start, m.end) for m in companies}
    # A supplier alias that is also a company name ("Company A" vs an alias "company") is read as the company.
    suppliers = [
        m for m in _find_phrases(tokens, supplier_phrases, text, "supplier")
        if not any(m.start < e and s < m.end for s, e in company_spans)
    ]
    groups = _find_phrases(tokens, {k: frozenset(v) for k, v in group_phrases.items()}, text, "product_group", True)
    return EntityMentions(
        companies=tuple(companies),
        suppliers=tuple(suppliers),
        product_groups=tuple(groups),
        first_person=bool(_FIRST_PERSON.search(text)),
    )


def load_gazetteer(conn: psycopg.Connection, ctx: AuthContext) -> Gazetteer:
    """The tenant's companies, suppliers, aliases and product groups from the governed marts.

    Args:
        conn: a ``procura_app`` connection in autocommit mode (RLS scopes every row to ``ctx``'s tenant).
        ctx: the authenticated context.
    """
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=5000):
        companies = [
            Company(*row)
            for row in conn.execute(
                "select company_id, company_name, reporting_currency from marts.dim_companies order by company_id"
            ).fetchall()
        ]
        suppliers = conn.execute("select supplier_id, supplier_name from marts.dim_suppliers").fetchall()
        aliases = conn.execute("select alias, supplier_id from marts.dim_supplier_aliases").fetchall()
        groups = [
            ProductGroup(*row)
            for row in conn.execute("select product_group_id, group_name from marts.dim_product_groups").fetchall()
        ]
    return Gazetteer.build(companies, suppliers, aliases, groups)
