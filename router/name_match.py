"""How a typed word stands for a word of a company's or supplier's name: the rules of the general name matcher.

Users shorten and misspell names: "Alpenland Log." (Logistik), "Kestrel LM" (Lebensmittel), "ypsi" (Ypsilon),
"Gamma Kältetecknik", "iris iffice", "Ges. Kestrel", "Fa. Beta", "Lieferant Theta", "Société Gamma". A typed word
stands for a name's word when it is (:func:`abbreviates`)

* the word itself, folded (lower case, umlauts and sharp s spelled out: "Kältetechnik" is "Kaeltetechnik");
* a prefix of it, of two letters or more with a dot ("Lo.", "Log." for "Logistik"), three or more without one
  ("Lebensm" for "Lebensmittel");
* the initials of a compound word's parts ("LM" for "Lebens|mittel"): the first letter is the word's, the others
  follow in order inside it, and the word is long enough to be a compound (three letters of word per initial);
* a small typo of it: one edit (insert, delete, substitute, swap two neighbours) from five letters on, two edits
  from nine letters on (:data:`TYPO_EDITS`).

Words are matched in order against a spelling of the name (:func:`covers`); the first typed word of a name must
be the name's word as written or with a typo, or (alone) a long prefix of it (:data:`LONE_PREFIX_MIN`), so a short
English word ("in", "co", "de") never opens a name by itself.

Kind markers (:data:`KIND_MARKERS`) are the words that say "the company" or "the supplier" in several languages,
written before a name ("Gesellschaft B", "Ges. Ypsilon", "Fa. Beta", "Lieferant Theta", "fournisseur Gamma"): they
stand for the kind word of a name that has one ("Company B", "Supplier Theta") and are part of the mention
otherwise, never an unknown word of their own.

Thresholds (measured on 2026-12-07 by ``tests/unit/test_router_name_match.py``, every one-edit typo (delete, swap,
substitute, insert) of every word of five letters or more of every company and supplier spelling): generated
tenant 622 of 624 resolve to their own name, 0 to another (the two left are typos at an "ß", which folds to two
letters); demo tenant 42 of 43 own, 1 a clarification between two names, 0 wrong. Four-letter words are matched
only as written or as a prefix: one edit there is another name ("Beta" and "Zeta", "Iota" and "Iona").
"""

from __future__ import annotations

from collections.abc import Sequence

from router.edits import TYPO_EDITS, budget, is_slip

#: Words that say "company" or "supplier" before a name, in the languages users write (folded: lower case, umlauts
#: and accents spelled out, no dot). The value is the kind word of the names they stand for.
KIND_MARKERS: dict[str, str] = {
    # company / legal entity
    "company": "company", "comp": "company", "co": "company", "cmpy": "company", "cmp": "company",
    "gesellschaft": "company", "ges": "company", "firma": "company", "fa": "company", "fma": "company",
    "societe": "company", "ste": "company", "soc": "company", "entreprise": "company", "sociedad": "company",
    "empresa": "company", "societa": "company", "azienda": "company", "bedrijf": "company", "entity": "company",
    "mandant": "company", "buchungskreis": "company",
    # supplier / vendor
    "supplier": "supplier", "vendor": "supplier", "lieferant": "supplier", "kreditor": "supplier",
    "fournisseur": "supplier", "proveedor": "supplier", "fornitore": "supplier", "leverancier": "supplier",
    "fornecedor": "supplier", "lief": "supplier",
}

#: Markers that are an English word too ("co", "comp", "ste"): read as a marker only when written with a dot or
#: capitalised ("Co. B", "Comp A"), or right before a one-letter name ("co a").
AMBIGUOUS_MARKERS = frozenset({"co", "comp", "ste", "soc", "fa", "entity"})

# Edits a typo may have, by the shorter word's length: router/edits.py's TYPO_EDITS (one from five letters, two
# from nine), re-exported here for the readers that import it from this module.
#: A word written alone (no other word of the name before it) names the name by a prefix of at least this many
#: letters ("ypsi" for Ypsilon, "kest" for Kestrel), and only when the prefix is at least half the word.
LONE_PREFIX_MIN = 4
#: Short words that are grammar in some language: never a prefix or initials of a name's word ("Eta in 2025" is
#: not "Eta Industrial").
STOP_WORDS = frozenset("""
a an the of in on at to for by from with and or vs per via as is it its our we us me my be do did so no not
de du des la le les et en un une au aux da di del el los las y o e i im am um an auf aus bei mit von vom zu zum zur
und oder der die das den dem ein eine q1 q2 q3 q4 h1 h2 fy ytd mtd qtd
""".split())  # noqa: SIM905 - a word list reads better as text


def typo_edits(a: str, b: str) -> int:
    """How many edits a typo of ``b`` may have when typed as ``a`` (0: none, the words are too short)."""
    return budget(min(len(a), len(b)), TYPO_EDITS)


def is_typo(typed: str, word: str) -> bool:
    """``typed`` is ``word`` with a small typo (see :data:`TYPO_EDITS`); digits must agree ("PT100" is no "PT1000").

    >>> is_typo("kaeltetecknik", "kaeltetechnik"), is_typo("iffice", "office"), is_typo("bela", "beta")
    (True, True, False)
    """
    edits = typo_edits(typed, word)
    if not edits or typed == word:
        return False
    if "".join(c for c in typed if c.isdigit()) != "".join(c for c in word if c.isdigit()):
        return False
    return is_slip(typed, word, edits)


def is_initials(typed: str, word: str) -> bool:
    """``typed`` is the initials of the parts of the compound ``word`` ("lm" of "lebensmittel"): first letters
    equal, the others in order inside the word, and at least three letters of word per initial.

    >>> is_initials("lm", "lebensmittel"), is_initials("lm", "logistik"), is_initials("kt", "kaeltetechnik")
    (True, False, True)
    """
    if not 2 <= len(typed) <= 4 or not typed.isalpha() or typed[0] != word[:1] or len(word) < 3 * len(typed):
        return False
    at = 0
    for letter in typed[1:]:
        # a part of a compound has three letters or more: the next initial starts three letters on at least
        at = word.find(letter, at + 3)
        if at < 0:
            return False
    return True


def abbreviates(typed: str, word: str, *, dotted: bool = False, first: bool = False) -> bool:
    """Whether the typed (folded) word stands for the name's (folded) ``word``.

    ``first``: the typed word opens the mention (no word of the name before it): only the word itself, a typo of
    it or a long prefix (:data:`LONE_PREFIX_MIN`, at least half the word) may. ``dotted``: the typed word was
    written with a dot after it ("Log."), which marks a prefix of two letters or more.

    >>> abbreviates("log", "logistik", dotted=True), abbreviates("lm", "lebensmittel"), abbreviates("in", "industrial")
    (True, True, False)
    >>> abbreviates("ypsi", "ypsilon", first=True), abbreviates("co", "controls", first=True)
    (True, False)
    """
    if typed == word:
        return True
    if not typed or typed.isdigit() or typed in STOP_WORDS:
        return False
    if is_typo(typed, word):
        return True
    prefix = word.startswith(typed) and len(typed) < len(word)
    if first:
        return prefix and len(typed) >= LONE_PREFIX_MIN and 2 * len(typed) >= len(word)
    if prefix and (len(typed) >= 3 or dotted):
        return True
    return is_initials(typed, word)


def covers(typed: Sequence[tuple[str, bool]], spelling: Sequence[str], *, opened: bool = False) -> int | None:
    """Where the typed words ((folded word, written with a dot), in order) stand for consecutive words of the
    spelling: the index of the spelling's word the first typed word matched, or None.

    ``opened``: the first typed word was read already (an exact mention being extended), so every typed word may be
    an abbreviation; otherwise the first one is matched as :func:`abbreviates` ``first=True``.

    >>> covers([("alpenland", False), ("log", True)], ["alpenland", "logistik", "ag"])
    0
    >>> covers([("beta", False), ("logistcs", False)], ["supplier", "beta", "logistics"])
    1
    """
    if not typed:
        return None
    for offset in range(len(spelling) - len(typed) + 1):
        if all(abbreviates(word, spelling[offset + k], dotted=dot, first=(k == 0 and not opened))
               for k, (word, dot) in enumerate(typed)):
            return offset
    return None


def marker_kind(word: str, *, written: str = "", dotted: bool = False, before_letter: bool = False) -> str | None:
    """The kind a folded word marks ("company", "supplier"), or None. An ambiguous marker ("co", "comp") counts only
    when written with a dot, capitalised, or right before a one-letter name."""
    kind = KIND_MARKERS.get(word)
    if kind is None:
        return None
    if word in AMBIGUOUS_MARKERS and not (dotted or written[:1].isupper() or before_letter):
        return None
    return kind


__all__ = ["AMBIGUOUS_MARKERS", "KIND_MARKERS", "LONE_PREFIX_MIN", "STOP_WORDS", "TYPO_EDITS", "abbreviates",
           "covers", "is_initials", "is_typo", "marker_kind", "typo_edits"]
