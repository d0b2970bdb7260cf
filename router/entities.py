"""Entity mentions in a question, resolved through the tenant's alias table (companies, suppliers, groups).

The :class:`Gazetteer` is the tenant's vocabulary, read from the governed marts as ``procura_app`` under RLS
(:func:`load_gazetteer`), so one tenant's names never resolve another tenant's question. Supplier spellings are
normalized by the system's one rule (:func:`ingest.normalize.normalize_supplier_name`); a spelling that names
two suppliers is *ambiguous* and is never guessed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import psycopg

from ingest.normalize import LEGAL_FORMS, normalize_supplier_name
from procura.db.session import AuthContext, tenant_transaction
from router.described_products import CONTRACTIONS, catalogue, described_products
from router.edits import ONE_EDIT_FROM_FIVE, ONE_EDIT_FROM_FOUR, budget, distance
from router.name_match import KIND_MARKERS, abbreviates, covers, marker_kind


@dataclass(frozen=True)
class Company:
    """A company of the tenant."""

    company_id: str
    company_name: str
    reporting_currency: str


@dataclass(frozen=True)
class ProductGroup:
    """A product group of the tenant (its parent, so a group's subgroups are known without a query)."""

    product_group_id: str
    group_name: str
    parent_group_id: str | None = None


@dataclass(frozen=True)
class Product:
    """A product of the tenant's catalogue, by code and name."""

    product_code: str
    product_name: str


@dataclass(frozen=True)
class Gazetteer:
    """The names one tenant's questions may use, with their canonical ids."""

    companies: tuple[Company, ...] = ()
    supplier_aliases: Mapping[str, frozenset[str]] = field(default_factory=dict)
    supplier_names: Mapping[str, str] = field(default_factory=dict)
    product_groups: tuple[ProductGroup, ...] = ()
    #: Other names of the groups (e.g. German ones from the catalogue): (synonym, product_group_id).
    group_synonyms: tuple[tuple[str, str], ...] = ()
    products: tuple[Product, ...] = ()
    #: The catalogue supplier(s) of each product code ("the supplier of the PT100 probe" is one hop away).
    product_suppliers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: The catalogue supplier(s) of each product group's own products ("the data logger supplier").
    group_suppliers: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: The (leaf) product group(s) of each product code ("PRD-611 monitoring controller": the group restates it).
    product_group_of: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: The catalogue unit(s) of measure of each product code: units of several products add up only in one unit.
    units_of_measure: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def suppliers_of_group(self, product_group_id: str) -> frozenset[str]:
        """The catalogue suppliers of the group's products and its subgroups' products."""
        return frozenset().union(*(self.group_suppliers.get(g, frozenset()) for g in self.subgroups(product_group_id)))

    @classmethod
    def build(
        cls,
        companies: Iterable[Company],
        suppliers: Iterable[tuple[str, str]],
        aliases: Iterable[tuple[str, str]],
        groups: Iterable[ProductGroup],
        group_synonyms: Iterable[tuple[str, str]] = (),
        products: Iterable[Product] = (),
    ) -> Gazetteer:
        """Index (supplier_id, name) pairs and (alias, supplier_id) pairs by their normalized spelling."""
        by_alias: dict[str, set[str]] = {}
        names: dict[str, str] = {}
        for supplier_id, name in suppliers:
            names[supplier_id] = name
            key = normalize_supplier_name(name)
            if key:
                by_alias.setdefault(key, set()).add(supplier_id)
        alias_pairs = list(aliases)
        for alias, supplier_id in alias_pairs:
            key = normalize_supplier_name(alias)
            if key:
                by_alias.setdefault(key, set()).add(supplier_id)
        # Short names ("Beta" for "Supplier Beta" / "Beta Supplies GmbH"): the distinctive word of a name or
        # alias. A short name two suppliers share keeps both candidates (a clarification), and a full spelling
        # always wins over a short one (longest match first in find_mentions).
        short: dict[str, set[str]] = {}
        for supplier_id, spelling in [*((sid, n) for sid, n in names.items()), *((sid, a) for a, sid in alias_pairs)]:
            for key in short_names(spelling):
                short.setdefault(key, set()).add(supplier_id)
        for key, ids in short.items():
            by_alias.setdefault(key, set()).update(ids)
        return cls(
            companies=tuple(sorted(companies, key=lambda c: c.company_id)),
            supplier_aliases={k: frozenset(v) for k, v in by_alias.items()},
            supplier_names=names,
            product_groups=tuple(sorted(groups, key=lambda g: g.product_group_id)),
            group_synonyms=tuple(sorted(set(group_synonyms))),
            products=tuple(sorted(products, key=lambda p: p.product_code)),
        )

    def subgroups(self, product_group_id: str) -> tuple[str, ...]:
        """The group and every group below it (PART_OF*), sorted; cycles end the walk."""
        children: dict[str, list[str]] = {}
        for g in self.product_groups:
            if g.parent_group_id:
                children.setdefault(g.parent_group_id, []).append(g.product_group_id)
        found, todo = {product_group_id}, [product_group_id]
        while todo:
            for child in children.get(todo.pop(), ()):
                if child not in found:
                    found.add(child)
                    todo.append(child)
        return tuple(sorted(found))

    def company(self, company_id: str) -> Company | None:
        """The company with that id, if the tenant has it."""
        return next((c for c in self.companies if c.company_id == company_id), None)


#: Words that never identify one supplier on their own (generic nouns of supplier names).
GENERIC_NAME_WORDS = frozenset({
    "supplier", "suppliers", "vendor", "vendors", "the", "and", "of", "company", "group", "industrial", "control",
    "controls", "systems", "supply", "supplies", "trading", "logistics", "works", "instruments", "instr", "cable",
    "cables", "products", "services", "international", "global",
})


def short_names(spelling: str) -> tuple[str, ...]:
    """The normalized short names of a supplier spelling: the name without generic words ("supplier beta" ->
    "beta") and the first word of a multi-word trade name ("beta supplies" -> "beta").

    >>> short_names("Supplier Beta"), short_names("Gamma Control Systems AG"), short_names("Supplier Beta")
    (('beta',), ('gamma',), ('beta',))
    """
    key = normalize_supplier_name(spelling)
    if not key:
        return ()
    tokens = key.split()
    found: list[str] = []
    distinctive = [t for t in tokens if t not in GENERIC_NAME_WORDS]
    if distinctive and len(distinctive) < len(tokens):
        found.append(" ".join(distinctive))
    if len(tokens) > 1 and tokens[0] not in GENERIC_NAME_WORDS and len(tokens[0]) >= 3 and not tokens[0].isdigit():
        found.append(tokens[0])
    return tuple(k for k in dict.fromkeys(found) if k != key)


#: How the word "company" is shortened in a company's name ("Co. A", "Comp B" for "Company A", "Company B").
_COMPANY_WORD_SHORT = ("co", "comp", "cmpy")


def company_abbreviations(name: str) -> tuple[tuple[str, ...], ...]:
    """The company's name with its word "company" abbreviated, as folded words (only names with more words than
    that one: "Co." alone names nothing).

    >>> company_abbreviations("Company C")
    (('co', 'c'), ('comp', 'c'), ('cmpy', 'c'))
    >>> company_abbreviations("Alpenland Logistik AG")
    ()
    """
    words = [t for t, _, _ in _tokens(name)]
    if "company" not in words or len(words) < 2:
        return ()
    return tuple(tuple(short if w == "company" else w for w in words) for short in _COMPANY_WORD_SHORT)


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """The edit distance of the readers (router/edits.py: insert, delete, substitute, swap two neighbours), capped
    at ``limit + 1``.

    >>> edit_distance("sensros", "sensors"), edit_distance("presure", "pressure"), edit_distance("eta", "zeta")
    (1, 1, 1)
    """
    return distance(a, b, limit)


def _near(typed: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    """Same words but for one word that is one edit away (both long enough)."""
    if len(typed) != len(phrase):
        return False
    # A typed word is read as a known name's word with one edit only when both have five letters or more: shorter
    # words are other names one edit away ("Eta"/"Zeta", "A"/"B"). In a name of several words the others pin the
    # name down: a word of four letters may carry the typo there, and a dropped or added plural "s" is no other
    # name ("Iota Cable Work" for "Iota Cable Works").
    rule = ONE_EDIT_FROM_FOUR if len(phrase) > 1 else ONE_EDIT_FROM_FIVE
    differing = [(t, p) for t, p in zip(typed, phrase, strict=True) if t != p]
    if len(differing) != 1:
        return False
    t, p = differing[0]
    if re.sub(r"\D", "", t) != re.sub(r"\D", "", p):
        return False  # a model's number is never a typo of another's: "PT1000" is no "PT100", "MC-8" no "MC-4"
    plural = len(phrase) > 1 and (t + "s" == p or p + "s" == t) and len(t) >= 3
    edits = budget(min(len(t), len(p)), rule)
    return plural or (edits > 0 and edit_distance(t, p, edits) <= edits)


_Phrases = Mapping[tuple[str, ...], frozenset[str]]
#: Every phrase under each of its words left out: (position, the other words) -> the phrases.
_FuzzyIndex = Mapping[tuple[int, tuple[str, ...]], tuple[tuple[tuple[str, ...], frozenset[str]], ...]]
#: _fuzzy_index's answers per phrase table (kept beside it so an id is never reused while cached).
_FUZZY: dict[int, tuple[_Phrases, _FuzzyIndex]] = {}


def _fuzzy_index(phrases: _Phrases) -> _FuzzyIndex:
    """The phrases that equal a typed window but for the word at one position, found by one lookup per position
    instead of a comparison with every phrase."""
    hit = _FUZZY.get(id(phrases))
    if hit is not None and hit[0] is phrases:
        return hit[1]
    index: dict[tuple[int, tuple[str, ...]], list[tuple[tuple[str, ...], frozenset[str]]]] = {}
    for key, ids in phrases.items():
        for j in range(len(key)):
            index.setdefault((j, key[:j] + key[j + 1:]), []).append((key, ids))
    frozen = {k: tuple(v) for k, v in index.items()}
    if len(_FUZZY) >= 4 * _TABLES_MAX:
        _FUZZY.clear()
    _FUZZY[id(phrases)] = (phrases, frozen)
    return frozen


def _near_phrases(typed: tuple[str, ...], index: _FuzzyIndex) -> list[tuple[tuple[str, ...], frozenset[str]]]:
    """The phrases :func:`_near` accepts for ``typed``: only those that share every word but one (at the same
    place) can be one word-edit away."""
    found: list[tuple[tuple[str, ...], frozenset[str]]] = []
    for j in range(len(typed)):
        for key, ids in index.get((j, typed[:j] + typed[j + 1:]), ()):
            if _near(typed, key):
                found.append((key, ids))
    return found


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
    #: Products named by their catalogue name (candidates: product codes).
    products: tuple[Mention, ...] = ()

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """Every mention's span, for masking before the cue-word rules."""
        return tuple(sorted((m.start, m.end) for m in (*self.companies, *self.suppliers, *self.product_groups,
                                                       *self.products)))


#: "&" is a word of its own: "Kabel & Stecker" is the catalogue's "Kabel und Stecker" (see :func:`fold`).
_WORD = re.compile(r"[0-9A-Za-zÀ-ÖØ-öø-ÿß]+|&")
#: Words a short name may never be (they occur in every question).
_FUNCTION_WORDS = frozenset({"the", "and", "for", "with", "from", "our", "all", "any", "how", "what", "which"})
_FIRST_PERSON = re.compile(r"\b(we|our|us|ours)\b", re.I)


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "é": "e", "è": "e", "à": "a"})
#: The conjunction inside a name in either language or as a sign: one word, so "Cables & Connectors",
#: "Kabel und Stecker" and the German reading's "Kabel and Stecker" all match the catalogue's spelling.
_AND = frozenset({"und", "&", "and"})


def fold(word: str) -> str:
    """A word in lower case with umlauts and sharp s spelled out, as German is typed without them
    ("Überwachungsprodukte" and "Ueberwachungsprodukte" are one word).

    >>> fold("Schaltschränke"), fold("Kältetechnik"), fold("Maß"), fold("&"), fold("und")
    ('schaltschraenke', 'kaeltetechnik', 'mass', 'and', 'and')
    """
    folded = word.lower().translate(_UMLAUTS)
    return "and" if folded in _AND else folded


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(fold(m.group(0)), m.start(), m.end()) for m in _WORD.finditer(text)]


def _stem(token: str) -> str:
    return token[:-1] if len(token) > 3 and token.endswith("s") and not token.endswith("ss") else token


#: Kind nouns that open a spelling ("Supplier Gamma"): a name written after one is the name, not the kind's.
_KIND_WORDS = frozenset({"supplier", "vendor", "lieferant", "company"} | set(KIND_MARKERS))
#: The markers of each kind (router/name_match.py): "Gesellschaft B" is "Company B", "Lieferant Theta" "Supplier
#: Theta".
_COMPANY_MARKERS = tuple(sorted(w for w, k in KIND_MARKERS.items() if k == "company" and w != "company"))
_SUPPLIER_MARKERS = tuple(sorted(w for w, k in KIND_MARKERS.items() if k == "supplier" and w != "supplier"))


def _find_phrases(
    tokens: list[tuple[str, int, int]], phrases: Mapping[tuple[str, ...], frozenset[str]], text: str, kind: str,
    stem: bool = False, fuzzy: bool = False,
) -> list[Mention]:
    """Longest-first, non-overlapping matches of token phrases."""
    words = [(_stem(t) if stem else t) for t, _, _ in tokens]
    longest = max((len(p) for p in phrases), default=0)
    found: list[Mention] = []
    taken: set[int] = set()
    exact: dict[int, tuple[int, int]] = {}  # token index -> the exact match's token range covering it
    for size in range(longest, 0, -1):
        for i in range(len(words) - size + 1):
            if any(j in taken for j in range(i, i + size)):
                continue
            key = tuple(words[i : i + size])
            ids = phrases.get(key)
            if ids and key[0] in _KIND_WORDS and i + size < len(words) \
                    and not any(j in taken for j in range(i + 1, i + size + 1)) \
                    and phrases.get(tuple(words[i + 1 : i + size + 1])):
                # "supplier Gamma Controls": the kind noun with a name's first word ("supplier gamma") yields to the
                # name written after it ("gamma controls"), never the name's last word left unread
                continue
            if ids:
                start, end = tokens[i][1], tokens[i + size - 1][2]
                found.append(Mention(kind, text[start:end], start, end, tuple(sorted(ids))))
                taken.update(range(i, i + size))
                exact.update(dict.fromkeys(range(i, i + size), (i, i + size)))
    if fuzzy:
        # Second pass: a window of words one edit away from exactly one spelling's words (a typo). Every
        # spelling within one edit is a candidate, so a typo between two names is a clarification. A longer
        # window wins over a shorter exact match inside it ("prsesure sensors" is Pressure Sensors with a typo,
        # not Sensors with an unread word before it).
        index = _fuzzy_index(phrases)
        for size in range(longest, 0, -1):
            for i in range(len(words) - size + 1):
                inside = {exact[j] for j in range(i, i + size) if j in exact}
                if any(j in taken and j not in exact for j in range(i, i + size)) or any(
                        a < i or b > i + size or b - a >= size for a, b in inside):
                    continue
                key = tuple(words[i : i + size])
                ids = frozenset().union(*(v for k, v in _near_phrases(key, index)))
                if ids:
                    start, end = tokens[i][1], tokens[i + size - 1][2]
                    shorter = {(tokens[a][1], tokens[b - 1][2]) for a, b in inside}
                    found = [m for m in found if (m.start, m.end) not in shorter]
                    found.append(Mention(kind, text[start:end], start, end, tuple(sorted(ids))))
                    taken.update(range(i, i + size))
                    for j in range(i, i + size):
                        exact.pop(j, None)
    return sorted(found, key=lambda m: m.start)


@dataclass(frozen=True)
class _PhraseTables:
    """A gazetteer's names as token phrases (each phrase -> the ids it names), built once per gazetteer."""

    companies: Mapping[tuple[str, ...], frozenset[str]]
    suppliers: Mapping[tuple[str, ...], frozenset[str]]
    groups: Mapping[tuple[str, ...], frozenset[str]]
    products: Mapping[tuple[str, ...], frozenset[str]]
    #: Every spelling of a company or supplier as folded words: (kind, words, id), for the abbreviation matcher.
    spellings: tuple[tuple[str, tuple[str, ...], str], ...] = ()
    #: The same from each spelling's first distinctive word on (no kind marker, no generic noun).
    distinctive: tuple[tuple[str, tuple[str, ...], str], ...] = ()


#: _phrase_tables' answers per (gazetteer object, figure); the gazetteer is kept beside its tables so that an id is
#: never reused while it is cached. Small: a process serves a few tenants' gazetteers.
_TABLES: dict[tuple[int, bool], tuple[Gazetteer, _PhraseTables]] = {}
_TABLES_MAX = 32


def _phrase_tables(gazetteer: Gazetteer, figure: bool) -> _PhraseTables:
    """Every phrase :func:`find_mentions` matches, per gazetteer (frozen) and ``figure``.

    Design note: rebuilding these tables for every question was a third of the reader's time; a gazetteer is
    immutable, so its tables are too.
    """
    hit = _TABLES.get((id(gazetteer), figure))
    if hit is not None and hit[0] is gazetteer:
        return hit[1]
    company_phrases: dict[tuple[str, ...], set[str]] = {}
    for company in gazetteer.companies:
        company_phrases.setdefault(tuple(t for t, _, _ in _tokens(company.company_name)), set()).add(
            company.company_id
        )
        # "Co. A", "Comp B", "Gesellschaft B", "Société C": the word "company" abbreviated or in another language
        # (router/name_match.py's kind markers)
        words = tuple(t for t, _, _ in _tokens(company.company_name))
        for short_word in _COMPANY_MARKERS:
            if "company" in words:
                company_phrases.setdefault(tuple(short_word if w == "company" else w for w in words), set()).add(
                    company.company_id)
        # The name without its legal form ("Acme Holding GmbH" asked as "Acme Holding").
        bare = normalize_supplier_name(company.company_name)
        if bare:
            company_phrases.setdefault(tuple(bare.split()), set()).add(company.company_id)
        # The short name ("Alpenland" for "Alpenland Logistik AG"); never a one- or two-letter word ("Company A"
        # has none), and two companies sharing one keep both candidates (a clarification).
        for short in short_names(company.company_name):
            if len(short) >= 3 and short not in _FUNCTION_WORDS:
                company_phrases.setdefault(tuple(short.split()), set()).add(company.company_id)
        for abbreviated in company_abbreviations(company.company_name):
            company_phrases.setdefault(abbreviated, set()).add(company.company_id)
    supplier_phrases = {tuple(fold(w) for w in alias.split()): ids for alias, ids in gazetteer.supplier_aliases.items()}
    for key, ids in list(supplier_phrases.items()):
        # "Lieferant Theta", "fournisseur Gamma": the kind word of "Supplier Theta" in another language
        if len(key) > 1 and key[0] in ("supplier", "vendor"):
            for marker in _SUPPLIER_MARKERS:
                supplier_phrases.setdefault((marker, *key[1:]), ids)
    group_phrases: dict[tuple[str, ...], set[str]] = {}
    for gid, spelling in [*((g.product_group_id, g.group_name) for g in gazetteer.product_groups),
                          *((gid, syn) for syn, gid in gazetteer.group_synonyms)]:
        key = tuple(_stem(t) for t, _, _ in _tokens(spelling))
        if key:
            group_phrases.setdefault(key, set()).add(gid)
    # "category PG-MCTL": a tool-style request names the group by its catalogue id, a spelling of the group (added
    # after the names so that no short or abbreviated form is derived from an id)
    id_phrases = {tuple(_stem(t) for t, _, _ in _tokens(g.product_group_id)): g.product_group_id
                  for g in gazetteer.product_groups if "-" in g.product_group_id}
    for key, gids in group_short_phrases(gazetteer, frozenset(group_phrases)).items():
        group_phrases.setdefault(key, set()).update(gids)
    for key, gids in group_abbreviations(gazetteer, frozenset(group_phrases)).items():
        group_phrases.setdefault(key, set()).update(gids)
    for key, gid in id_phrases.items():
        if len(key) > 1:  # "PG-COOL" as two tokens: never a lone word of a name
            group_phrases.setdefault(key, set()).add(gid)
    group_keys = {k: frozenset(v) for k, v in group_phrases.items()}
    tables = _PhraseTables(
        companies={k: frozenset(v) for k, v in company_phrases.items()},
        suppliers={k: frozenset(v) for k, v in supplier_phrases.items()},
        groups=group_keys,
        products=product_name_phrases(gazetteer.products, frozenset(group_phrases), bare_names=figure),
        spellings=name_word_spellings(gazetteer),
        distinctive=_distinctive_spellings(name_word_spellings(gazetteer)),
    )
    if len(_TABLES) >= _TABLES_MAX:
        _TABLES.clear()
    _TABLES[(id(gazetteer), figure)] = (gazetteer, tables)
    return tables


def find_mentions(text: str, gazetteer: Gazetteer, *, figure: bool = False,
                  codes: Sequence[tuple[int, int, str]] = (), hops: bool = False) -> EntityMentions:
    """Company, supplier and product-group mentions in ``text`` (longest match wins; ambiguity is kept).

    ``figure``: the question asks for a figure (spend, a price, a quantity, a purchase listing); only then does a
    product's name without its model code ("the differential pressure sensors") name the product as a filter, and
    only then is "the supplier of <product>" the product's supplier. ``codes``: product codes written as codes
    (start, end, code), masked in ``text``: "the supplier of PRD-611" names a supplier through one of them.
    ``hops``: read "the supplier of <product>" as that supplier in a question that is no figure either ("which
    products did we buy from the data logger supplier").
    """
    tokens = _tokens(text)
    tables = _phrase_tables(gazetteer, figure)
    company_keys, supplier_phrases, group_keys = tables.companies, tables.suppliers, tables.groups
    tokens = _expand_compounds(tokens, gazetteer)
    products = _find_phrases(tokens, tables.products, text, "product", stem=True, fuzzy=True)
    product_spans = [(m.start, m.end) for m in products]
    companies = _find_phrases(tokens, company_keys, text, "company")
    # A company name with a one-edit typo ("Comapny A") resolves like a supplier's; it never takes a span that
    # exactly names a supplier, product group or product (those are names as typed, not typos).
    exact_spans = [(m.start, m.end) for m in (
        *_find_phrases(tokens, supplier_phrases, text, "supplier"),
        *_find_phrases(tokens, group_keys, text, "product_group", True), *products)]
    companies = [m for m in _find_phrases(tokens, company_keys, text, "company", fuzzy=True)
                 if m in companies or not any(m.start < e and s < m.end for s, e in exact_spans)]
    company_spans = {(m.start, m.end) for m in companies}
    # A supplier alias that is also a company name ("Company A" vs an alias "company") is read as the company.
    suppliers = [
        m for m in _find_phrases(tokens, supplier_phrases, text, "supplier", fuzzy=True)
        if not any(m.start < e and s < m.end for s, e in company_spans)
    ]
    group_product_spans = [(m.start, m.end) for m in (*_find_phrases(tokens, group_keys, text, "product_group", True),
                                                      *products)]
    suppliers = _with_name_tails(suppliers, tokens, text, gazetteer, group_product_spans)
    # Names shortened or misspelled ("Alpenland Log.", "Kestrel LM", "iris iffice", "ypsi", "Ges. Xenon"): the
    # general name matcher of router/name_match.py, after the exact readings, on the words they left
    companies = _abbreviated_tails(companies, "company", tokens, text, tables.spellings, group_product_spans)
    suppliers = _abbreviated_tails(suppliers, "supplier", tokens, text, tables.spellings, group_product_spans)
    found = _abbreviated_names(tokens, text, tables.distinctive, [
        *group_product_spans, *((m.start, m.end) for m in (*companies, *suppliers))])
    companies = _with_markers([*companies, *(m for m in found if m.kind == "company")], tokens, text)
    suppliers = _with_markers([*suppliers, *(m for m in found if m.kind == "supplier")], tokens, text)
    company_spans = {(m.start, m.end) for m in companies}
    if figure:
        # "valve kit for the compressor", "core temp probe": a product described in its name's words, in any order
        # (router/described_products.py); the longer description wins over a name or group read inside it
        products = _with_described(products, text, gazetteer,
                                   [*company_spans, *((m.start, m.end) for m in suppliers)])
        product_spans = [(m.start, m.end) for m in products]
    groups = [
        m for m in _find_phrases(tokens, group_keys, text, "product_group", True, fuzzy=True)
        # "Flow sensor FS-50" is a product, not the group Flow Sensors; "Orbis Packaging" (a supplier's name)
        # does not also ask for the group Packaging: a filter nobody asked for would change the figure.
        if not any(m.start < e and s < m.end
                   for s, e in (*product_spans, *company_spans, *((x.start, x.end) for x in suppliers)))
    ]
    if figure or hops:  # not in "who is the supplier of X": that asks for the hop itself (the catalogue)
        written = [Mention("product", text[s:e], s, e, (c,)) for s, e, c in codes]
        products, suppliers = _product_suppliers([*products, *written], suppliers, text, gazetteer)
        products = [m for m in products if m not in written]
        groups, suppliers = _group_suppliers(groups, suppliers, text, gazetteer)
    return EntityMentions(
        companies=tuple(companies),
        suppliers=tuple(suppliers),
        product_groups=tuple(groups),
        first_person=bool(_FIRST_PERSON.search(text)),
        products=tuple(products),
    )


def _with_described(products: list[Mention], text: str, gazetteer: Gazetteer,
                    taken: Sequence[tuple[int, int]]) -> list[Mention]:
    """``products`` with the descriptions of catalogue products (router/described_products.py) added; a name read
    inside a longer description gives way to it, and a description that would cut a name in two is not read."""
    table = catalogue(tuple((p.product_code, p.product_name) for p in gazetteer.products),
                      (*(g.group_name for g in gazetteer.product_groups), *(s for s, _ in gazetteer.group_synonyms)))
    out = list(products)
    for d in described_products(text, table, taken):
        inside = [m for m in out if d.start <= m.start and m.end <= d.end]
        if any(m.start < d.end and d.start < m.end for m in out if m not in inside):
            continue
        if inside and all(len(m.candidates) == 1 for m in inside) and (d.end - d.start) == max(
                m.end - m.start for m in inside):
            continue
        out = [m for m in out if m not in inside]
        out.append(Mention("product", text[d.start:d.end], d.start, d.end, d.codes))
    return sorted(out, key=lambda m: m.start)


#: "the supplier of", "the maker of", "whoever sells", "the company that makes": a supplier named by a product it
#: supplies (one hop). A ranking word before the noun ("our biggest supplier of") is a ranking, not a hop.
_SUPPLIER_NOUN = r"(?:suppliers?|vendors?|makers?|manufacturers?|sellers?|producers?|providers?|distributors?)"
_SUPPLY_VERB = (r"(?:supplies|supplied|makes|made|sells|sold|provides|provided|delivers|delivered|manufactures|"
                r"manufactured|produces|produced|distributes|distributed)")
_SUPPLIER_OF = re.compile(
    r"(?:(?:\b(?:the|its|their)\s+)?(?<!biggest )(?<!largest )(?<!top )(?<!main )(?<!cheapest )(?<!smallest )"
    rf"\b{_SUPPLIER_NOUN}\s+(?:of|for|behind)|\bwho(?:ever|\s+it\s+is\s+that)\s+{_SUPPLY_VERB}|"
    rf"\b(?:the\s+)?(?:company|supplier|vendor|firm|one)\s+(?:that|which|who)\s+{_SUPPLY_VERB})"
    r"\s+(?:us\s+|me\s+)?(?:the\s+|our\s+|us\s+the\s+)?$", re.I)

#: "the PT100 probe's supplier"
_SUPPLIER_AFTER = re.compile(rf"['’]s\s+{_SUPPLIER_NOUN}\b", re.I)
#: "the data logger supplier", "the MC-4 vendor": a name right before a singular supplier noun, after "the".
_THE_BEFORE = re.compile(r"\b(?:the|our|their|its)\s+$", re.I)
_NOUN_AFTER = re.compile(r"\s+(?:supplier|vendor|maker|manufacturer|seller|producer|provider|distributor)\b(?!['’]s)",
                         re.I)


def _product_suppliers(products: list[Mention], suppliers: list[Mention], text: str,
                       gazetteer: Gazetteer) -> tuple[list[Mention], list[Mention]]:
    """Product mentions right after "the supplier of" become supplier mentions of the product's catalogue
    supplier(s) over the whole phrase: the product is how the supplier was named, not a filter of the figure."""
    kept: list[Mention] = []
    hops: list[Mention] = []
    for m in products:
        makers = frozenset().union(*(gazetteer.product_suppliers.get(c, frozenset()) for c in m.candidates))
        span = _hop_span(text, m.start, m.end)
        if span is None or not makers:
            kept.append(m)
            continue
        hops.append(Mention("supplier", text[span[0]:span[1]], span[0], span[1], tuple(sorted(makers))))
    return kept, _with_hops(suppliers, hops)


#: A qualifier that makes "vendors for X" a set of its own ("approved vendors for Control Equipment"), not a hop.
_QUALIFIED = re.compile(r"\b(?:approved|authori[sz]ed|preferred|certified|qualified|alternative|other|listed|"
                        r"framework|contracted)\s+$", re.I)
_PLURAL_NOUN = re.compile(r"\b(?:suppliers|vendors|makers|manufacturers|sellers|producers|providers|distributors)\b",
                          re.I)


def _hop_span(text: str, start: int, end: int, *, group: bool = False) -> tuple[int, int] | None:
    """The span of "the supplier of <name>", "whoever makes <name>", "<name>'s supplier" or "the <name> supplier"
    around a name at [start, end), or None when the name is not how a supplier is named. A group is named through
    one supplier only ("the supplier of sensors"), never through a set ("suppliers of sensors")."""
    before = _SUPPLIER_OF.search(text, 0, start)
    if before is not None and not _QUALIFIED.search(text, 0, before.start()) and not (
            group and _PLURAL_NOUN.search(before.group(0))):
        return before.start(), end
    if before is not None:
        return None
    after = _SUPPLIER_AFTER.match(text, end)
    if after is not None:
        return start, after.end()
    the, noun = _THE_BEFORE.search(text, 0, start), _NOUN_AFTER.match(text, end)
    if the is not None and noun is not None:
        return the.start(), noun.end()
    return None


def _with_hops(suppliers: list[Mention], hops: list[Mention]) -> list[Mention]:
    """The supplier mentions with the hops added and those inside a hop's span dropped."""
    if not hops:
        return suppliers
    spans = [(h.start, h.end) for h in hops]
    others = [s for s in suppliers if not any(s.start < e and b < s.end for b, e in spans)]
    return sorted([*others, *hops], key=lambda m: m.start)


def _group_suppliers(groups: list[Mention], suppliers: list[Mention], text: str,
                     gazetteer: Gazetteer) -> tuple[list[Mention], list[Mention]]:
    """Group mentions named as "the supplier of <group>" or "the <group> supplier" become supplier mentions of
    the catalogue suppliers of the group's products (several: a clarification listing them, never a guess)."""
    kept: list[Mention] = []
    hops: list[Mention] = []
    for m in groups:
        makers = frozenset().union(*(gazetteer.suppliers_of_group(g) for g in m.candidates))
        span = _hop_span(text, m.start, m.end, group=True)
        if span is None or not makers:
            kept.append(m)
            continue
        hops.append(Mention("supplier", text[span[0]:span[1]], span[0], span[1], tuple(sorted(makers))))
    return kept, _with_hops(suppliers, hops)


def _with_name_tails(suppliers: list[Mention], tokens: list[tuple[str, int, int]], text: str, gazetteer: Gazetteer,
                     taken: list[tuple[int, int]]) -> list[Mention]:
    """Supplier mentions extended over the words that continue one of the supplier's own spellings: "Eta
    Industrial" is "Eta" followed by the next word of "Eta Industrial Supply GmbH", one name, not a short name and
    an unknown word. A word that belongs to a product group or product named there ("Gamma control cabinets") is
    never taken: the group stays a filter of its own."""
    out: list[Mention] = []
    for m in suppliers:
        if m.resolved is None:
            out.append(m)
            continue
        typed = [i for i, (_, s, e) in enumerate(tokens) if m.start <= s and e <= m.end]
        spellings = [tuple(fold(w) for w in alias.split()) for alias, ids in gazetteer.supplier_aliases.items()
                     if m.resolved in ids]
        end, k = m.end, (typed[-1] + 1 if typed else len(tokens))
        words = [tokens[i][0] for i in typed]
        while k < len(tokens) and text[end:tokens[k][1]].strip() == "" and not any(
                s < tokens[k][2] and tokens[k][1] < e for s, e in taken):
            longer = (*words, tokens[k][0])
            if not any(sp[:len(longer)] == longer for sp in spellings):
                break
            words.append(tokens[k][0])
            end, k = tokens[k][2], k + 1
        out.append(m if end == m.end else Mention(m.kind, text[m.start:end], m.start, end, m.candidates))
    return out


#: Words that only say "a kind of goods" at the end of a group's name: "Shipping Services" is asked as
#: "shipping", "Monitoring Products" as "monitoring".
_GROUP_HEAD_WORDS = frozenset({"service", "product"})
#: Words an acronym skips ("Maintenance, Repair and Operations" is "MRO").
_ACRONYM_SKIPS = frozenset({"and", "of", "the", "for", "und"})
#: German heads meaning "supplies of": "Laborbedarf" is the supplies of the group whose German names start
#: with "Labor" ("Laborgeräte", "Laborausstattung").
_GERMAN_SUPPLY_HEADS = ("bedarf", "artikel", "waren", "material", "materialien")


def group_short_phrases(
    gazetteer: Gazetteer, taken: frozenset[tuple[str, ...]] = frozenset()
) -> dict[tuple[str, ...], frozenset[str]]:
    """Shorter spellings of the product groups' English names: the acronym of a name of three or more words
    ("MRO") and the name without a generic head word ("shipping" for "Shipping Services").

    A short spelling that is already some group's full spelling (``taken``) stays that group's; one that two
    groups share keeps both (a clarification listing them).

    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-MRO", "Maintenance, Repair and Operations"),
    ...                                   ProductGroup("PG-SHIP", "Shipping Services")])
    >>> sorted(group_short_phrases(g).items())
    [(('mro',), frozenset({'PG-MRO'})), (('shipping',), frozenset({'PG-SHIP'}))]
    """
    found: dict[tuple[str, ...], set[str]] = {}
    for g in gazetteer.product_groups:
        words = [_stem(t) for t, _, _ in _tokens(g.group_name)]
        content = [w for w in words if w not in _ACRONYM_SKIPS]
        if len(content) >= 3:
            found.setdefault(("".join(w[0] for w in content),), set()).add(g.product_group_id)
        if len(words) >= 2 and words[-1] in _GROUP_HEAD_WORDS:
            found.setdefault(tuple(words[:-1]), set()).add(g.product_group_id)
    return {k: frozenset(v) for k, v in found.items() if k not in taken}


#: A word is abbreviated to a prefix of at least this many letters ("lab" for "laboratory", "temp" for
#: "temperature"), and only a word of at least :data:`_ABBREVIATED_MIN` letters is.
_ABBREVIATION_MIN = 3
_ABBREVIATED_MIN = 5


def group_abbreviations(
    gazetteer: Gazetteer, taken: frozenset[tuple[str, ...]] = frozenset()
) -> dict[tuple[str, ...], frozenset[str]]:
    """Spellings of the product groups' names of two or more words with one word cut short to a prefix, as
    analysts type them: "lab equipment" for "Laboratory Equipment", "temp sensors" for "Temperature Sensors".

    Every other word must be there as written, so a cut word never stands alone for a group; a spelling that is
    some group's full or short spelling (``taken``) stays that group's, and one two groups share keeps both (a
    clarification listing them).

    >>> g = Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment"),
    ...                                   ProductGroup("PG-LABC", "Lab Consumables")])
    >>> abbreviations = group_abbreviations(g)
    >>> abbreviations[("lab", "equipment")], abbreviations[("laboratory", "equip")]
    (frozenset({'PG-LAB'}), frozenset({'PG-LAB'}))
    >>> ("lab", "consumable") in abbreviations
    False
    """
    found: dict[tuple[str, ...], set[str]] = {}
    for gid, spelling in [*((g.product_group_id, g.group_name) for g in gazetteer.product_groups),
                          *((gid, syn) for syn, gid in gazetteer.group_synonyms)]:
        words = [_stem(t) for t, _, _ in _tokens(spelling)]
        if len([w for w in words if w not in _ACRONYM_SKIPS]) < 2:
            continue
        for i, word in enumerate(words):
            if len(word) < _ABBREVIATED_MIN or word in _ACRONYM_SKIPS:
                continue
            for cut in range(_ABBREVIATION_MIN, len(word) - 1):
                found.setdefault((*words[:i], word[:cut], *words[i + 1:]), set()).add(gid)
            # "monitoring ctrls", "calib equipment": a contraction of the word (router/described_products.py)
            for short in (c for c, full in CONTRACTIONS.items() if word in full):
                found.setdefault((*words[:i], short, *words[i + 1:]), set()).add(gid)
    return {k: frozenset(v) for k, v in found.items() if k not in taken}


def _expand_compounds(tokens: list[tuple[str, int, int]], gazetteer: Gazetteer) -> list[tuple[str, int, int]]:
    """A German "<modifier>bedarf" word read as the one group's German name that starts with the modifier (at
    least five letters), so "Laborbedarf" is the group of "Laborgeräte" (the broadest, when the names are of one
    branch); groups of different branches leave it unread (asked about)."""
    if not gazetteer.group_synonyms:
        return tokens
    out = []
    # a catalogue synonym is read as itself ("Verbrauchsmaterial"), never widened to its branch
    own = {fold(syn) for syn, _ in gazetteer.group_synonyms}
    for token, start, end in tokens:
        head = next((h for h in _GERMAN_SUPPLY_HEADS if token.endswith(h) and len(token) - len(h) >= 5
                     and token not in own), None)
        if head is not None:
            modifier = token[: -len(head)]
            spellings = {syn: gid for syn, gid in gazetteer.group_synonyms
                         if len(_tokens(syn)) == 1 and fold(syn).startswith(modifier)}
            gids = set(spellings.values())
            # Groups of one branch ("Laborgeräte" and its subgroup's "Laborverbrauchsmaterial") are the branch.
            broadest = [gid for gid in gids if gids <= set(gazetteer.subgroups(gid))]
            if len(broadest) == 1:
                token = fold(min(syn for syn, gid in spellings.items() if gid == broadest[0]))
        out.append((token, start, end))
    return out


def named_product_codes(codes: Iterable[str], mentions: EntityMentions, problems: list[str]) -> tuple[str, ...]:
    """Product codes written as codes plus those named by product name; a name that fits several products is
    appended to ``problems`` as a clarification listing them (never guessed)."""
    found = list(codes)
    for m in mentions.products:
        if m.resolved is not None:
            found.append(m.resolved)
        else:
            problems.append(f"{m.text!r} names more than one product: {', '.join(m.candidates)}. Which one do you "
                            "mean?")
    return tuple(dict.fromkeys(found))


_MODEL_CODE = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+$")
#: A model code without a hyphen inside a catalogue name ("PT100", "16DI"): letters and digits, four or more
#: characters, no dimension ("800x600") and no bare size ("M20", "A4" are too short to name one product).
_INNER_CODE = re.compile(r"^(?!\d+x\d)(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9-]{4,}$", re.I)


def product_name_phrases(
    products: Iterable[Product], group_keys: frozenset[tuple[str, ...]] = frozenset(), *, bare_names: bool = False
) -> dict[tuple[str, ...], frozenset[str]]:
    """Token phrases (stemmed, folded) that name a product: its whole catalogue name, and its model code alone
    ("DPS-482" of "Differential pressure sensor DPS-482") when the code has letters, digits and a hyphen. A phrase
    several products share keeps every code (a clarification listing them); a whole name that is also a group's
    (``group_keys``) stays the group's.

    Design note: the name without its model code ("the differential pressure sensor") is a product phrase only with
    ``bare_names`` (figure questions): in document questions it names the topic, and a product filter there narrows
    retrieval to the wrong passages; in a figure question, leaving it unread lets a shorter group name inside it
    ("pressure sensors") take over, a different figure. A bare name of at least two words that is also a group's
    stays the group's; one several products share keeps every code (a clarification listing them).
    """
    phrases: dict[tuple[str, ...], set[str]] = {}

    def key(text: str) -> tuple[str, ...]:
        return tuple(_stem(t) for t, _, _ in _tokens(text))

    for p in products:
        whole = key(p.product_name)
        if len(whole) >= 2 and whole not in group_keys:
            phrases.setdefault(whole, set()).add(p.product_code)
        # The name as it is said without its pack size or specification: "Copy paper A4 (box)" is asked as
        # "copy paper A4", "Label rolls 100x50" as "label rolls", "Scroll compressor 7 kW" as "scroll compressor".
        for said in descriptor_names(p.product_name) if bare_names else ():
            said_key = key(said)
            if len(said_key) >= 2 and said_key not in group_keys:
                phrases.setdefault(said_key, set()).add(p.product_code)
        words = p.product_name.split()
        # A model code inside the name ("PT100" of "PT100 temperature probe") names the product alone and with
        # the name's head noun ("the PT100 probe"); a code several products share keeps every product.
        for word in words[:-1]:
            if _INNER_CODE.match(word):
                phrases.setdefault(key(word), set()).add(p.product_code)
                phrases.setdefault(key(f"{word} {words[-1]}"), set()).add(p.product_code)
        rest = key(" ".join(words[1:]))
        if bare_names and len(words) > 2 and _INNER_CODE.match(words[0]) and rest not in group_keys:
            phrases.setdefault(rest, set()).add(p.product_code)  # "the temperature probe" (its code left out)
        if len(words) > 1 and _MODEL_CODE.match(words[-1]):
            phrases.setdefault(key(words[-1]), set()).add(p.product_code)
            phrases.setdefault(key(f"{words[-1]} {words[-2]}"), set()).add(p.product_code)  # "the DPS-482 sensor"
            # "the MC-4 monitoring controller": the code in front of the rest of the name
            phrases.setdefault(key(f"{words[-1]} {' '.join(words[:-1])}"), set()).add(p.product_code)
            bare = key(" ".join(words[:-1]))
            if bare_names and len(bare) >= 2 and bare not in group_keys:
                phrases.setdefault(bare, set()).add(p.product_code)
    for k, codes in list(phrases.items()):
        # "buffer solution pH7" for "Buffer solution pH 7": a short unit or code word written together with the
        # number after it names the same product
        joined = _joined_spec(k)
        if joined != k and joined not in group_keys:
            phrases.setdefault(joined, set()).update(codes)
    return {k: frozenset(v) for k, v in phrases.items()}


def _joined_spec(key: tuple[str, ...]) -> tuple[str, ...]:
    """The phrase with each short letter word joined to a number right after it (("ph", "7") -> ("ph7",))."""
    out: list[str] = []
    for token in key:
        if out and token.isdigit() and out[-1].isalpha() and len(out[-1]) <= 3 and len(out) > 1:
            out[-1] += token
        else:
            out.append(token)
    return tuple(out)


_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
_PER_UNIT = re.compile(r"\s+per\s+[A-Za-z]+\s*$", re.I)
#: A specification word at the end of a catalogue name: a size or rating with digits ("100x50", "7", "M20")
#: or a unit after a number ("kW", "mm2", "bar").
_SPEC_WORD = re.compile(r"^(?=.*\d)[A-Za-z0-9.,x/-]+$|^(?:kw|w|v|mm2?|cm|m|l|bar|kg|g)$", re.I)


def descriptor_names(name: str) -> tuple[str, ...]:
    """Shorter names a catalogue name is asked by: without a parenthesis, and without trailing specification
    words (sizes, ratings, units) when a name of at least two words remains.

    >>> descriptor_names("Copy paper A4 (box)"), descriptor_names("Scroll compressor 7 kW")
    (('Copy paper A4', 'Copy paper'), ('Scroll compressor',))
    >>> descriptor_names("Label rolls 100x50"), descriptor_names("Precision multimeter")
    (('Label rolls',), ())
    >>> descriptor_names("Express freight per parcel")
    ('Express freight',)
    """
    out: list[str] = []
    # "Express freight per parcel" is asked as "express freight": the pricing unit is no part of the name.
    bare = _PER_UNIT.sub("", _PARENTHESIS.sub("", name)).strip()
    if bare != name:
        out.append(bare)
    words = bare.split()
    while len(words) > 2 and _SPEC_WORD.match(words[-1]) and not _MODEL_CODE.match(words[-1]):
        words = words[:-1]
    if len(words) >= 2 and " ".join(words) != bare:
        out.append(" ".join(words))
    return tuple(dict.fromkeys(o for o in out if o != name))


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
            for row in conn.execute(
                "select product_group_id, group_name, parent_group_id from marts.dim_product_groups"
            ).fetchall()
        ]
        synonyms = conn.execute("select synonym, product_group_id from marts.dim_product_group_synonyms").fetchall()
        products = [
            Product(*row)
            for row in conn.execute("select distinct product_code, product_name from marts.dim_products").fetchall()
        ]
        makers: dict[str, set[str]] = {}
        group_makers: dict[str, set[str]] = {}
        product_group: dict[str, set[str]] = {}
        measures: dict[str, set[str]] = {}
        for code, group_id, supplier_id, measure in conn.execute(
                "select distinct product_code, product_group_id, supplier_id, unit_of_measure from marts.dim_products"):
            makers.setdefault(code, set()).add(supplier_id)
            if measure:
                measures.setdefault(code, set()).add(str(measure))
            if group_id:
                group_makers.setdefault(group_id, set()).add(supplier_id)
                product_group.setdefault(code, set()).add(group_id)
    return replace(Gazetteer.build(companies, suppliers, aliases, groups, synonyms, products),
                   product_suppliers={k: frozenset(v) for k, v in makers.items()},
                   group_suppliers={k: frozenset(v) for k, v in group_makers.items()},
                   product_group_of={k: frozenset(v) for k, v in product_group.items()},
                   units_of_measure={k: frozenset(v) for k, v in measures.items()})


def name_word_spellings(gazetteer: Gazetteer) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """(kind, folded words, id) of every company name and every supplier name and alias (with and without its
    legal form), the spellings :func:`router.name_match.covers` matches typed words against."""
    out: list[tuple[str, tuple[str, ...], str]] = []
    for c in gazetteer.companies:
        out.append(("company", tuple(t for t, _, _ in _tokens(c.company_name)), c.company_id))
    for sid, name in gazetteer.supplier_names.items():
        out.append(("supplier", tuple(t for t, _, _ in _tokens(name)), sid))
    for alias, ids in gazetteer.supplier_aliases.items():
        out.extend(("supplier", tuple(fold(w) for w in alias.split()), sid) for sid in ids)
    return tuple(dict.fromkeys(o for o in out if o[1]))


def _dotted(text: str, end: int) -> bool:
    return text[end:end + 1] == "."


def _joined(text: str, left: tuple[str, int, int], right: tuple[str, int, int]) -> bool:
    """Two tokens of one name: only spaces between them, or the dot of an abbreviation ("Alpenland Log. AG")."""
    gap = text[left[2]:right[1]]
    return gap.isspace() or (gap.startswith(".") and gap[1:].isspace() and len(left[0]) <= 5)


def _typed(tokens: Sequence[tuple[str, int, int]], text: str) -> list[tuple[str, bool]]:
    return [(t, _dotted(text, e)) for t, _, e in tokens]


def _abbreviated_tails(mentions: list[Mention], kind: str, tokens: list[tuple[str, int, int]], text: str,
                       spellings: Sequence[tuple[str, tuple[str, ...], str]],
                       taken: Sequence[tuple[int, int]]) -> list[Mention]:
    """Mentions extended over the words after them that abbreviate the next words of one of their candidates'
    spellings ("Alpenland" + "Log." of "Alpenland Logistik AG", "Kestrel" + "LM" + "GmbH", "iris" + "iffice"): one
    name, never a read short name and an unknown word. A word of a product group or product named there is never
    taken. A continuation only some candidates' spellings have narrows the mention to them."""
    out: list[Mention] = []
    for m in mentions:
        inside = [i for i, (_, s, e) in enumerate(tokens) if m.start <= s and e <= m.end]
        if not inside:
            out.append(m)
            continue
        typed = _typed([tokens[i] for i in inside], text)
        if len(typed) > 1 and marker_kind(typed[0][0], dotted=True):
            typed = typed[1:]  # "supplier Beta": the kind word is the mention's, not a word to match
        names = [(words, cid) for k, words, cid in spellings if k == kind and cid in m.candidates]
        candidates, end, k = set(m.candidates), m.end, inside[-1] + 1
        while k < len(tokens) and _joined(text, tokens[k - 1], tokens[k]) and not any(
                s < tokens[k][2] and tokens[k][1] < e for s, e in taken):
            longer = [*typed, (tokens[k][0], _dotted(text, tokens[k][2]))]
            fits = {cid for words, cid in names if covers(longer, words, opened=True) is not None}
            if not fits:
                break
            typed, candidates, end, k = longer, fits, tokens[k][2], k + 1
        if end != m.end and k < len(tokens) and tokens[k][0] in LEGAL_FORMS \
                and _joined(text, tokens[k - 1], tokens[k]) and text[tokens[k][1]:tokens[k][1] + 1].isupper():
            end, k = tokens[k][2], k + 1  # "Omikron MT GmbH": the legal form a normalized alias left out
        if end == m.end:
            out.append(m)
        else:
            if _dotted(text, end) and len(tokens[k - 1][0]) <= 5:
                end += 1  # "Alpenland Log.": the abbreviation's dot is the name's
            out.append(Mention(m.kind, text[m.start:end], m.start, end, tuple(sorted(candidates))))
    return out


def _abbreviated_names(tokens: list[tuple[str, int, int]], text: str,
                       spellings: Sequence[tuple[str, tuple[str, ...], str]],
                       taken: Sequence[tuple[int, int]]) -> list[Mention]:
    """(``spellings``: from their first distinctive word on, :func:`_distinctive_spellings`.)

    Company and supplier names the exact readings left, typed shortened or misspelled: up to three words that
    stand, in order, for a spelling's words from its first distinctive word on ("ypsi", "eta industiral", "Helix
    Reagnets"), at least one of them not as written (an exact spelling is the exact readings' to take or leave).
    Two names of one kind are both candidates (a clarification); a window that fits a company and a supplier is
    left to the similarity lookup."""
    named = spellings
    found: list[Mention] = []
    i = 0
    while i < len(tokens):
        first = tokens[i][0]
        if first in KIND_MARKERS or first in GENERIC_NAME_WORDS or first in _FUNCTION_WORDS or len(first) < 2 \
                or not first.isalpha() or any(s < tokens[i][2] and tokens[i][1] < e for s, e in taken):
            i += 1
            continue
        # only the spellings whose first distinctive word the token stands for are tried further
        opened = [(kind, words, cid) for kind, words, cid in named
                  if abbreviates(first, words[0], dotted=_dotted(text, tokens[i][2]), first=True)]
        size, fits = 0, set()
        for n in (3, 2, 1) if opened else ():
            window = tokens[i:i + n]
            if len(window) < n or any(s < e2 and s2 < e for _, s, e in window for s2, e2 in taken) or not all(
                    _joined(text, a, b) for a, b in itertools.pairwise(window)):
                continue
            typed = _typed(window, text)
            hits = {(kind, cid) for kind, words, cid in opened
                    if covers(typed, words[:n]) == 0
                    # as written: the exact readings' (taken or deliberately left)
                    and not all(t == w for (t, _), w in zip(typed, words[:n], strict=True))}
            if hits:
                size, fits = n, hits
                break
        kinds = {k for k, _ in fits}
        if size and len(kinds) == 1:
            start, end = tokens[i][1], tokens[i + size - 1][2]
            found.append(Mention(kinds.pop(), text[start:end], start, end, tuple(sorted(c for _, c in fits))))
            i += size
        else:
            i += 1
    return found


def _distinctive_spellings(spellings: Sequence[tuple[str, tuple[str, ...], str]]
                           ) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """Each spelling from its first distinctive word on (no kind marker, no generic noun): "Supplier Beta" is
    typed from "Beta" on."""
    out = []
    for kind, words, cid in spellings:
        start = next((j for j, w in enumerate(words) if w not in KIND_MARKERS and w not in GENERIC_NAME_WORDS), None)
        if start is not None:
            out.append((kind, words[start:], cid))
    return tuple(out)


#: Markers that say "the firm" of either kind ("Fa. Beta" is a supplier, "Firma Alpenland" a company).
_ANY_FIRM = frozenset({"fa", "firma", "fma"})
#: English kind nouns: read by the phrase tables ("Company A", "supplier Gamma Controls"), never a marker extension
#: ("biggest supplier kestrel" ranks the company's suppliers).
_ENGLISH_KIND_WORDS = frozenset({"company", "supplier", "vendor", "entity"})


def _with_markers(mentions: list[Mention], tokens: list[tuple[str, int, int]], text: str) -> list[Mention]:
    """Mentions extended back over a kind marker written right before them ("Ges. Xenon", "Fa. Beta", "Firma
    Gamma"): the marker is part of the name's mention, never an unknown word of its own."""
    out: list[Mention] = []
    for m in mentions:
        before = [t for t in tokens if t[2] <= m.start]
        if before and m.start > 0:
            word, start, end = before[-1]
            after = next((t for t in tokens if t[1] >= m.start), None)
            gap = text[end:m.start]
            kind = marker_kind(word, written=text[start:end], dotted=_dotted(text, end),
                               before_letter=after is not None and len(after[0]) == 1)
            # (a marker of the other kind stays a word of its own: "biggest supplier kestrel" ranks suppliers of
            # the company; "Firma"/"Fa." say "the firm", of either kind; English kind nouns are the phrases')
            if after is not None and (gap.isspace() or (gap.startswith(".") and gap[1:].isspace())) and kind and (
                    kind == m.kind or word in _ANY_FIRM) and word not in _ENGLISH_KIND_WORDS:
                m = Mention(m.kind, text[start:m.end], start, m.end, m.candidates)
        out.append(m)
    return sorted(out, key=lambda m: m.start)
