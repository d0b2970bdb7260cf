"""The one typo matcher (router/edits.py): the distance is a metric that agrees with a reference table, its bound
only caps it, and every reader that measures slips keeps its threshold through the shared helpers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.breakdown_words import _TYPO_TARGETS
from router.edits import (
    ONE_EDIT_FROM_FIVE,
    ONE_EDIT_FROM_FOUR,
    ONE_EDIT_FROM_SIX,
    TYPO_EDITS,
    budget,
    distance,
    is_slip,
    nearer,
    same_length,
    typo_targets,
    unique_typo,
    within,
)
from router.measure_words import MEASURE_WORDS, measure_for, one_edit
from router.name_match import is_typo, typo_edits

# A small alphabet makes repeated letters, swaps and near words common (the cases the distance must get right).
_WORDS = st.text(alphabet="abcde", max_size=7)
_FAST = settings(max_examples=60, deadline=None)


def _reference(a: str, b: str) -> int:
    """The unrestricted Damerau-Levenshtein distance by the textbook table (Lowrance and Wagner)."""
    big = len(a) + len(b)
    last_row: dict[str, int] = {}
    d = [[big] * (len(b) + 2) for _ in range(len(a) + 2)]
    for i in range(len(a) + 1):
        d[i + 1][1] = i
    for j in range(len(b) + 1):
        d[1][j + 1] = j
    for i in range(1, len(a) + 1):
        last_col = 0
        for j in range(1, len(b) + 1):
            k, m = last_row.get(b[j - 1], 0), last_col
            cost = 0 if a[i - 1] == b[j - 1] else 1
            if cost == 0:
                last_col = j
            d[i + 1][j + 1] = min(d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1,
                                  d[k][m] + (i - k - 1) + 1 + (j - m - 1))
        last_row[a[i - 1]] = i
    return d[len(a) + 1][len(b) + 1]


def _osa(a: str, b: str) -> int:
    """The optimal-string-alignment table (no substring edited twice): the distance the readers used before."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) + 1):
        d[i][0] = i
    for j in range(len(b) + 1):
        d[0][j] = j
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[len(a)][len(b)]


@_FAST
@given(_WORDS, _WORDS)
def test_the_distance_agrees_with_the_reference_table(a: str, b: str) -> None:
    assert distance(a, b) == _reference(a, b)


@_FAST
@given(_WORDS, _WORDS, st.integers(min_value=0, max_value=3))
def test_a_bound_only_caps_the_distance(a: str, b: str, bound: int) -> None:
    assert distance(a, b, bound) == min(_reference(a, b), bound + 1)
    assert within(a, b, bound) == (_reference(a, b) <= bound)


@_FAST
@given(_WORDS, _WORDS)
def test_the_distance_is_symmetric_and_zero_only_for_the_same_word(a: str, b: str) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@_FAST
@given(_WORDS, _WORDS, _WORDS)
def test_the_triangle_inequality_holds(a: str, b: str, c: str) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@_FAST
@given(_WORDS, _WORDS)
def test_one_edit_is_what_the_readers_measured_before(a: str, b: str) -> None:
    # At up to two edits the distance is the OSA distance the readers used; they differ only where OSA counts three
    # or more ("ca" -> "abc": a swap with a letter typed between is two edits here).
    if _osa(a, b) <= 2:
        assert distance(a, b) == _osa(a, b)
    assert (distance(a, b) <= 1) == (_osa(a, b) <= 1)


def test_the_triangle_case_osa_misses() -> None:
    assert (distance("ca", "ac"), distance("ac", "abc"), distance("ca", "abc")) == (1, 1, 2)
    assert _osa("ca", "abc") == 3


@pytest.mark.parametrize(("length", "rule", "edits"), [
    (4, TYPO_EDITS, 0), (5, TYPO_EDITS, 1), (8, TYPO_EDITS, 1), (9, TYPO_EDITS, 2), (15, TYPO_EDITS, 2),
    (4, ONE_EDIT_FROM_FIVE, 0), (12, ONE_EDIT_FROM_FIVE, 1), (3, ONE_EDIT_FROM_FOUR, 0),
    (4, ONE_EDIT_FROM_FOUR, 1), (5, ONE_EDIT_FROM_SIX, 0), (6, ONE_EDIT_FROM_SIX, 1),
])
def test_the_budget_goes_by_length(length: int, rule: tuple[tuple[int, int], ...], edits: int) -> None:
    assert budget(length, rule) == edits


def _slips(word: str) -> list[str]:
    """Every one-edit slip of ``word``: a letter dropped, doubled, replaced by a neighbour, two neighbours swapped."""
    out = {word[:i] + word[i + 1:] for i in range(len(word))}
    out |= {word[:i] + word[i] + word[i:] for i in range(len(word))}
    out |= {word[:i] + ("x" if word[i] != "x" else "q") + word[i + 1:] for i in range(len(word))}
    out |= {word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1) if word[i] != word[i + 1]}
    return sorted(out - {word})


@pytest.mark.parametrize("word", ["Lieferant", "fournisseur", "leverandør", "dostawca", "category", "invoice"])
def test_every_one_edit_slip_is_a_slip_and_never_of_itself(word: str) -> None:
    for slip in _slips(word):
        assert is_slip(slip, word) and is_slip(word, slip) and one_edit(slip, word)
    assert not is_slip(word, word) and not one_edit(word, word) and typo_targets(word, [word]) == ()


@pytest.mark.parametrize("target", _TYPO_TARGETS)
def test_a_slip_of_a_breakdown_noun_has_one_target_or_a_tie(target: str) -> None:
    for slip in _slips(target):
        found = typo_targets(slip, _TYPO_TARGETS)
        assert target in found
        assert unique_typo(slip, _TYPO_TARGETS) == (target if len(found) == 1 else None)


def test_a_tie_is_broken_only_by_a_rank_one_target_alone_has() -> None:
    assert unique_typo("producst", ("product", "products")) is None
    assert unique_typo("producst", ("product", "products"), rank=same_length("producst")) == "products"
    assert unique_typo("spemt", ("spend", "spent"), 2) is None
    assert unique_typo("spemt", ("spend", "spent"), 2, rank=nearer("spemt")) == "spent"
    # two targets at the same rank stay a tie: never a guess
    assert unique_typo("ratee", ("rated", "rates"), rank=same_length("ratee")) is None
    # a target listed twice is one target
    assert unique_typo("suplier", ("supplier", "supplier")) == "supplier"


@pytest.mark.parametrize("measure", [w for w in MEASURE_WORDS if len(w) >= 5])
def test_the_measure_reader_keeps_its_one_edit_from_four_letters(measure: str) -> None:
    for slip in _slips(measure):
        found = typo_targets(slip, MEASURE_WORDS)
        expected = found[0] if len(found) == 1 and len(slip) >= 4 else None
        if measure_for(slip) is not None:  # (a real word one edit away is never read as a slip)
            assert measure_for(slip) == expected


@pytest.mark.parametrize(("typed", "word", "edits"), [
    ("beta", "zeta", 0), ("omega", "omegb", 1), ("kaeltetecknik", "kaeltetechnik", 2), ("labor", "laborgeraete", 1),
])
def test_names_keep_the_general_rule_by_the_shorter_word(typed: str, word: str, edits: int) -> None:
    assert typo_edits(typed, word) == edits == budget(min(len(typed), len(word)), TYPO_EDITS)


@pytest.mark.parametrize("word", ["kaeltetechnik", "lebensmittel", "alpenland", "logistics", "ypsilon"])
def test_a_name_word_reads_its_slips_within_its_budget(word: str) -> None:
    for slip in _slips(word):
        assert is_typo(slip, word)
    # two slips reach a long word only
    double = word[1] + word[0] + word[2:-1]
    assert is_typo(double, word) == (budget(len(double), TYPO_EDITS) >= 2)
    # digits never differ: a model number is no slip of another
    assert not is_typo(word + "100", word + "1000")
