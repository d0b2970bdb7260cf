"""A catalogue product named by a description of it, not by its catalogue name as written: the name's words in
another order ("valve kit compressor" for "Compressor valve kit"), with small words between them ("the valve kit
for the compressor"), a word cut short or contracted as people type it ("core temp probe", "diff pressure
sensor", "ctrl cabinet"), a plural ("boxes"), or a specification glued to its letters ("pH7 buffer solution" for
"Buffer solution pH 7 (1 l)", "7kW").

The exact phrase reader (router/entities.py) matches a name word for word; a description that is every word of
one product's name, in any order, names that product just as well, and leaving it unread let a group name inside
it ("compressor") or nothing at all take its place (a ranking of the group, a refusal, passages): a different
answer presented as complete. A description is read only when:

* every word of it is a word of the product's name (a word outside every name ends it), at least two words;
* it holds every word of the name but the optional ones (a parenthesis, a trailing size or rating, the pricing
  unit "per parcel", a pack noun such as "set", or the model code when the rest of the name is at least two
  words);
* it is no product group's name in any order ("pressure sensors" stays the group);
* it is the longest such run; several products fitting one run keep every candidate (asked back by the reader).

A model code is never read loosely here: "PT1000" is no word of "PT100 temperature probe" (digits are compared
whole), so a model the catalogue does not carry stays unread and is asked about.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: Contractions of catalogue words that are no prefix of the word ("ctrl" for control): read as the word when the
#: catalogue has it. A prefix of a word ("temp", "diff", "therm") needs no entry (see :func:`_expanded`).
CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "ctrl": ("control", "controller"), "cntrl": ("control", "controller"), "ctl": ("control", "controller"),
    "xmtr": ("transmitter",), "xmitter": ("transmitter",), "pwr": ("power",), "assy": ("assembly",),
    "eqpt": ("equipment",), "equip": ("equipment",), "mtr": ("meter", "motor"), "temps": ("temperature",),
    "thermo": ("thermal", "thermometer", "temperature"), "lbl": ("label",), "lbls": ("label",), "frt": ("freight",),
    "pkg": ("package", "pack"), "calib": ("calibration",), "dmm": ("multimeter",), "soln": ("solution",),
    "sol": ("solution",), "sln": ("solution",),
}
#: Nouns of how a product is packed or sold, optional in its description ("safety gloves" for "... (pair)").
PACK_NOUNS = frozenset({"set", "pair", "pack", "box", "carton", "case", "roll", "bundle"})
#: Small words a description may hold between the name's words ("kit for the compressor", "pair of gloves").
FILLERS = frozenset({"the", "a", "an", "for", "of", "our", "per", "with", "in", "to", "on"})
#: The shortest prefix read as a cut-short word ("temp" for temperature; "co" is never a word cut short).
MIN_PREFIX = 4
_WORD = re.compile(r"[0-9A-Za-zÀ-ÖØ-öø-ÿß]+")
_PARTS = re.compile(r"[^\W\d_]+|\d+")
_PARENTHESIS = re.compile(r"\([^)]*\)")
_PER_UNIT = re.compile(r"\bper\s+\w+\s*$", re.I)
#: A trailing specification of a name: a size or rating with digits ("600x400", "7", "M20") or a unit ("kW").
_SPEC = re.compile(r"^(?=.*\d)[\w.,/-]+$|^(?:kw|w|v|mm2?|cm|m|l|bar|kg|g)$", re.I)
#: A model code: letters and digits ("DP-10", "PT100", "RK-12", "TL-2").
_MODEL = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$")
#: The unit of a word inside another name's span (never a catalogue word).
_TAKEN = "\x00"
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "é": "e", "è": "e", "à": "a"})


def _singular(word: str) -> tuple[str, ...]:
    """The word and its singular spellings ("boxes" -> box, "probes" -> probe, "assemblies" -> assembly)."""
    out = [word]
    if len(word) > 3 and word.endswith("ies"):
        out.append(word[:-3] + "y")
    if len(word) > 3 and word.endswith("es"):
        out.append(word[:-2])
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    return tuple(out)


def parts(text: str) -> tuple[str, ...]:
    """A text's words split where letters meet digits, folded ("pH7" -> ph, 7; "DP-10" -> dp, 10).

    >>> parts("Buffer solution pH 7 (1 l)"), parts("pH7 buffer"), parts("Scroll compressor 7kW")
    (('buffer', 'solution', 'ph', '7', '1', 'l'), ('ph', '7', 'buffer'), ('scroll', 'compressor', '7', 'kw'))
    """
    return tuple(p for w in _WORD.findall(text.lower().translate(_UMLAUTS)) for p in _PARTS.findall(w))


@dataclass(frozen=True)
class _Name:
    """One catalogue product's name as sets of words: all of them, and the sets a description must cover."""

    code: str
    words: frozenset[str]
    required: tuple[frozenset[str], ...]


def _required(name: str) -> tuple[frozenset[str], ...]:
    """The word sets a description must hold: the name without its optional words (parenthesis, pricing unit,
    trailing specification) and, for a name with a model code, the rest of the name when it is two words or
    more ("differential pressure sensor" of "Differential pressure sensor DP-10")."""
    bare = _PER_UNIT.sub("", _PARENTHESIS.sub(" ", name)).split()
    whole = tuple(bare)
    while len(bare) > 2 and _SPEC.match(bare[-1]) and not _MODEL.match(bare[-1]):
        bare = bare[:-1]
    out = [frozenset(parts(" ".join(bare)))]
    plain = [w for w in bare if not _MODEL.match(w)]
    if len(plain) >= 2 and len(plain) < len(bare):
        out.append(frozenset(parts(" ".join(plain))))
    # "torque wrenches" for "Torque wrench set", "cable glands M20" for "Cable gland set M20": the pack noun is how
    # the product is sold, not which product (another product named without it keeps both candidates); a plural
    # pack noun ("Label rolls") is one as well
    for words in list(out):
        packed = {w for w in words if set(_singular(w)) & PACK_NOUNS}
        if len(words - packed) >= 2 and packed:
            out.append(words - packed)
    head = _specified_head(whole)
    if head:
        out.append(head)
    return tuple(dict.fromkeys(o for o in out if len(o) >= 2))


def _specified_head(bare: Sequence[str]) -> frozenset[str]:
    """The name's specification or model code(s) with its head noun, or an empty set: "A4 paper" names "Copy paper
    A4", "PT-100 probe" the "PT100 temperature probe", "100x50 labels" the "Label rolls 100x50". The head noun is
    the last word that is no specification (a pack noun before it steps back one word, "Label rolls"); the
    specification's digits are compared whole, so "MC-4 controller" never names "Monitoring controller MC-8".
    A head noun of two letters ("pH" of "Buffer solution pH 7") is no noun: no such set."""
    specs = [w for w in bare if any(c.isdigit() for c in w) and (_MODEL.match(w) or _SPEC.match(w))]
    words = [w for w in bare if w not in specs and not re.fullmatch(r"(?i)kw|w|v|mm2?|cm|m|l|bar|kg|g", w)]
    if not specs or not words:
        return frozenset()
    heads = [p for w in words for p in parts(w)]
    while len(heads) > 1 and set(_singular(heads[-1])) & PACK_NOUNS:
        heads = heads[:-1]
    head = heads[-1]
    if not head.isalpha() or len(head) < 3:
        return frozenset()
    return frozenset({head, *parts(" ".join(specs))})


@dataclass(frozen=True)
class Catalogue:
    """The products' names as word sets, the words they use, and the groups' names (sorted word tuples)."""

    names: tuple[_Name, ...]
    vocabulary: frozenset[str]
    groups: frozenset[tuple[str, ...]]


@functools.lru_cache(maxsize=32)
def catalogue(products: tuple[tuple[str, str], ...], groups: tuple[str, ...]) -> Catalogue:
    """The description tables of a catalogue: ``products`` as (code, name), ``groups`` the groups' names."""
    names = tuple(_Name(code, frozenset(parts(name)), _required(name)) for code, name in products)
    names = tuple(n for n in names if n.required)
    vocabulary = frozenset(w for n in names for w in n.words)
    group_keys = frozenset(tuple(sorted(_canonical(w, vocabulary)[0] for w in parts(g))) for g in groups)
    return Catalogue(names, vocabulary, group_keys)


def _canonical(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    """The catalogue words a typed word stands for: itself, its singular, a contraction's word, or the one word it
    is a prefix of (at least :data:`MIN_PREFIX` letters); the word itself when none is a catalogue word."""
    for spelling in _singular(word):
        if spelling in vocabulary:
            return (spelling,)
    # ("ctrls": a contraction's plural)
    expanded = tuple(w for s in _singular(word) for w in CONTRACTIONS.get(s, ()) if w in vocabulary)
    if expanded:
        return expanded[:1]
    if word.isalpha() and len(word) >= MIN_PREFIX:
        longer = {w for w in vocabulary if w.startswith(word) and len(w) >= len(word) + 2}
        if len(longer) == 1:
            return (longer.pop(),)
    return (word,)


@dataclass(frozen=True)
class Described:
    """A run of the question that describes catalogue product(s): its span and the codes that fit."""

    start: int
    end: int
    codes: tuple[str, ...]


def _units(text: str, vocabulary: frozenset[str]) -> list[tuple[str | None, int, int]]:
    """The question as (catalogue word or None for a filler, start, end) units, one per word part."""
    out: list[tuple[str | None, int, int]] = []
    for m in _WORD.finditer(text):
        word = m.group(0).lower().translate(_UMLAUTS)
        if word in FILLERS and (word not in vocabulary or len(word) == 1):
            out.append((None, m.start(), m.end()))  # ("a" of "A4" is a catalogue word, "a" alone a filler)
            continue
        for p in _PARTS.findall(word):
            out.extend((w, m.start(), m.end()) for w in _compound(p, vocabulary))
    return out


def _compound(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    """The catalogue word(s) a typed word stands for: :func:`_canonical`'s, or, for a word no catalogue word
    stands for, the two catalogue words it joins ("coldroom" for "Cold-room", "flowmeter" for "flow meter",
    "eurocrates" for "Euro crate"), each of at least three letters; a word with no such split stays itself."""
    one = _canonical(word, vocabulary)[0]
    if one in vocabulary or not word.isalpha() or len(word) < 6:
        return (one,)
    splits = {(left, right) for i in range(3, len(word) - 2)
              if (left := word[:i]) in vocabulary and (right := _canonical(word[i:], vocabulary)[0]) in vocabulary}
    return splits.pop() if len(splits) == 1 else (one,)


def _fits(words: frozenset[str], names: Sequence[_Name]) -> tuple[str, ...]:
    return tuple(sorted({n.code for n in names if words <= n.words and any(r <= words for r in n.required)}))


def described_products(text: str, table: Catalogue, taken: Iterable[tuple[int, int]] = ()) -> list[Described]:
    """The runs of ``text`` that describe catalogue products (see the module docstring), longest first; a word
    inside ``taken`` (a span another name holds: a company, a supplier) ends a run.

    >>> t = catalogue((("PRD-715", "Compressor valve kit"), ("PRD-300", "Core temperature probe")), ("Compressors",))
    >>> [(d.codes, "valve kit for the compressor"[d.start:d.end]) for d in described_products(
    ...     "valve kit for the compressor", t)]
    [(('PRD-715',), 'valve kit for the compressor')]
    >>> [d.codes for d in described_products("core temp probe price Q1", t)]
    [('PRD-300',)]
    >>> described_products("compressors spend", t)
    []
    """
    taken = list(taken)
    # a word of another name is no catalogue word here: it ends every run it would be in
    units = [(_TAKEN if any(s < b and a < e for s, e in taken) else w, a, b)
             for w, a, b in _units(text, table.vocabulary)]
    content = [i for i, (w, _, _) in enumerate(units) if w is not None and w in table.vocabulary]
    found: list[Described] = []
    used: set[int] = set()
    # every run between two catalogue words with only catalogue words and fillers inside, longest first
    runs: list[tuple[int, int]] = []
    for a_pos, a in enumerate(content):
        for b in content[a_pos:]:
            inside = units[a:b + 1]
            if any(w is not None and w not in table.vocabulary for w, _, _ in inside):
                break
            runs.append((a, b))
    runs.sort(key=lambda r: (-(r[1] - r[0]), r[0]))
    for a, b in runs:
        if any(i in used for i in range(a, b + 1)):
            continue
        start, end = units[a][1], units[b][2]
        words = frozenset(w for w, _, _ in units[a:b + 1] if w is not None)
        if len(words) < 2 or not any(w.isalpha() and len(w) >= 3 for w in words):
            continue
        if tuple(sorted(words)) in table.groups:
            continue  # a group's name in any order stays the group's
        codes = _fits(words, table.names)
        if not codes:
            continue
        found.append(Described(start, end, codes))
        used.update(range(a, b + 1))
    return sorted(found, key=lambda d: d.start)


__all__ = ["CONTRACTIONS", "FILLERS", "PACK_NOUNS", "Catalogue", "Described", "catalogue", "described_products",
           "parts"]
