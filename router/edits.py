"""One typo matcher: the edit distance every reader measures a slip with, and the budgets it may use.

Readers forgive a slip in the word they read ("spnd", "Rechnugen", "suplier", "Kältetecknik", "sensros"): a measure
word (router/measure_words.py), a vocabulary word (router/vocabulary.py), a breakdown noun
(router/breakdown_words.py), a catalog metric's word (router/reading.py), a name's word (router/name_match.py,
router/entities.py, router/group_words.py, router/foreign_words.py, router/unknown_names.py). They all measure the
slip the same way, here:

* :func:`distance`: the Damerau-Levenshtein distance (insert, delete, substitute, swap two neighbours; the
  unrestricted form, a true metric), with an early-exit ``bound``: past it the exact figure does not matter, so the
  computation stops and answers ``bound + 1``. At one edit it is exactly the optimal-string-alignment distance the
  readers used before (both count one insert, delete, substitution or neighbour swap as one edit and nothing else),
  so a one-edit reader reads as before; the two differ only from three OSA edits on (a swap with a letter typed
  between: "ca" -> "abc" is two edits here, three in OSA).
* :func:`typo_targets` / :func:`unique_typo`: the targets a typed word is a slip of (one edit or more, never the
  word itself), and the one target it stands for when exactly one is in reach (a tie is left alone, or broken by a
  caller's rank when one target alone has the best rank).
* :func:`budget`: how many edits a slip may have by the word's length, from a rule table (:data:`TYPO_EDITS` and
  the named rules beside it). Short words get none: one edit there is another word ("Beta"/"Zeta", "cost"/"post").

Which words are candidates (a reader's vocabulary, the tenant's names, the words that are never slips) stays each
reader's own table; only the measuring is shared.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable

from rapidfuzz.distance import DamerauLevenshtein

#: A budget rule: (least letters, edits a slip may have), longest first; a word shorter than every step gets none.
Budget = tuple[tuple[int, int], ...]

#: The general rule: one edit from five letters, two from nine (names' words, the vocabulary's words). Measured on
#: the names of both tenants by ``tests/unit/test_router_name_match.py`` (router/name_match.py has the figures).
TYPO_EDITS: Budget = ((9, 2), (5, 1))
#: One edit from five letters, never two: readers whose targets are short nouns of a closed list (breakdown
#: nouns, catalog phrase words, name words matched in a window), where two edits reach another target.
ONE_EDIT_FROM_FIVE: Budget = ((5, 1),)
#: One edit from four letters: the measure words, whose table of real words one edit away ("speed", "mount",
#: "prize") guards the short ones; and a word inside a name of several words, pinned down by the others.
ONE_EDIT_FROM_FOUR: Budget = ((4, 1),)
#: One edit from six letters: a product group's word corrected in free text, where shorter words are too often
#: others.
ONE_EDIT_FROM_SIX: Budget = ((6, 1),)


def budget(length: int, rule: Budget = TYPO_EDITS) -> int:
    """How many edits a slip of a word of ``length`` letters may have under ``rule`` (0: none, too short).

    >>> budget(4), budget(5), budget(8), budget(9), budget(4, ONE_EDIT_FROM_FOUR)
    (0, 1, 1, 2, 1)
    """
    return next((edits for least, edits in rule if length >= least), 0)


def distance(a: str, b: str, bound: int | None = None) -> int:
    """The Damerau-Levenshtein distance of ``a`` and ``b`` (insert, delete, substitute, swap two neighbours);
    with ``bound``, any distance past it is answered as ``bound + 1`` without being computed in full.

    >>> distance("spnd", "spend"), distance("sepnd", "spend"), distance("ca", "abc"), distance("abc", "xyz", 1)
    (1, 1, 2, 2)
    """
    if bound is not None:
        if bound < 0:
            raise ValueError("bound must be at least 0")
        if abs(len(a) - len(b)) > bound:
            return bound + 1  # each letter of length difference is an edit: no table needed
        # (rapidfuzz's C++ implementation stops at the cutoff; the readers compare every window of a question with
        # every known word, and a pure-Python table was most of their time)
        return int(DamerauLevenshtein.distance(a, b, score_cutoff=bound))
    return int(DamerauLevenshtein.distance(a, b))


def within(a: str, b: str, edits: int) -> bool:
    """Whether ``a`` and ``b`` are at most ``edits`` edits apart (the same word included)."""
    return distance(a, b, edits) <= edits


def is_slip(typed: str, word: str, edits: int = 1) -> bool:
    """Whether ``typed`` is ``word`` with one to ``edits`` edits (a word is no slip of itself).

    >>> is_slip("spnd", "spend"), is_slip("spend", "spend"), is_slip("spx", "spend")
    (True, False, False)
    """
    return typed != word and within(typed, word, edits)


def typo_targets(typed: str, targets: Iterable[str], edits: int = 1) -> tuple[str, ...]:
    """The targets ``typed`` is a slip of (one to ``edits`` edits; never ``typed`` itself), in the targets' order."""
    return tuple(t for t in targets if is_slip(typed, t, edits))


def unique_typo(typed: str, targets: Iterable[str], edits: int = 1,
                rank: Callable[[str], int] | None = None) -> str | None:
    """The one target ``typed`` is a slip of, or ``None`` (none, or a tie). With ``rank``, a tie is broken by the
    lowest rank when one target alone has it (the nearer target, the one of the typed word's length).

    >>> unique_typo("suplier", ("supplier", "suppliers")), unique_typo("producst", ("product", "products"))
    ('supplier', None)
    >>> unique_typo("producst", ("product", "products"), rank=same_length("producst"))
    'products'
    """
    found = list(dict.fromkeys(typo_targets(typed, targets, edits)))
    if len(found) > 1 and rank is not None:
        best = min(rank(t) for t in found)
        found = [t for t in found if rank(t) == best]
    return found[0] if len(found) == 1 else None


def nearer(typed: str) -> Callable[[str], int]:
    """A tie-break rank for :func:`unique_typo`: the target nearer to ``typed`` ("spemt": "spent" before "spend")."""
    return lambda target: distance(typed, target)


def same_length(typed: str) -> Callable[[str], int]:
    """A tie-break rank for :func:`unique_typo`: the target of ``typed``'s length, i.e. a swap of neighbours before
    a dropped or added letter ("producst": "products" before "product")."""
    size = len(typed)
    return lambda target: int(len(target) != size)


__all__ = ["ONE_EDIT_FROM_FIVE", "ONE_EDIT_FROM_FOUR", "ONE_EDIT_FROM_SIX", "TYPO_EDITS", "Budget", "budget",
           "distance", "is_slip", "nearer", "same_length", "typo_targets", "unique_typo", "within"]


def without_diacritics(word: str) -> str:
    """``word`` with its combining marks dropped ("kwiecień" -> "kwiecien"); letters NFKD keeps whole ("ł", "ø") are
    each caller's to map, as its word lists are written.

    >>> without_diacritics("données"), without_diacritics("półrocze")
    ('donnees', 'połrocze')
    """
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))

