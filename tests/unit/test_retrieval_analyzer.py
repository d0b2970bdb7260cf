"""The BM25 analyzer: identifiers stay whole, stop words go, Porter stems; the same at index and query time."""

from __future__ import annotations

import doctest

import pytest

import retrieval.analyzer
import retrieval.exact
import retrieval.fusion
from retrieval.analyzer import ANALYZER_ID, analyze, stem
from retrieval.bm25_writer import Bm25Writer


@pytest.mark.parametrize("module", [retrieval.analyzer, retrieval.exact, retrieval.fusion])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


# Porter's own examples (M.F. Porter 1980, steps 1-5) and whole-word results
PORTER = {
    "caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat", "feed": "feed", "agreed": "agre",
    "plastered": "plaster", "bled": "bled", "motoring": "motor", "sing": "sing", "conflated": "conflat",
    "troubled": "troubl", "sized": "size", "hopping": "hop", "tanned": "tan", "falling": "fall", "hissing": "hiss",
    "fizzed": "fizz", "failing": "fail", "filing": "file", "happy": "happi", "sky": "sky", "relational": "relat",
    "conditional": "condit", "rational": "ration", "digitizer": "digit", "operator": "oper",
    "feudalism": "feudal", "decisiveness": "decis", "hopefulness": "hope", "callousness": "callous",
    "formaliti": "formal", "sensitiviti": "sensit", "sensibiliti": "sensibl", "triplicate": "triplic",
    "formative": "form", "formalize": "formal", "electrical": "electr", "goodness": "good", "revival": "reviv",
    "allowance": "allow", "inference": "infer", "airliner": "airlin", "adjustable": "adjust",
    "defensible": "defens", "irritant": "irrit", "replacement": "replac", "adjustment": "adjust",
    "dependent": "depend", "adoption": "adopt", "communism": "commun", "activate": "activ",
    "effective": "effect", "bowdlerize": "bowdler", "probate": "probat", "rate": "rate", "cease": "ceas",
    "controll": "control", "roll": "roll", "generalization": "gener", "calibration": "calibr",
    "calibrated": "calibr", "requirements": "requir",
}


@pytest.mark.parametrize(("word", "expected"), sorted(PORTER.items()))
def test_porter_stemmer(word: str, expected: str) -> None:
    assert stem(word) == expected


@pytest.mark.parametrize("spelling", ["PRD-482", "prd 482", "PRD482", "prd_482", "Prd-482"])
def test_identifiers_are_one_term_in_any_spelling(spelling: str) -> None:
    analyzed = analyze(f"Calibrate {spelling} yearly")
    assert analyzed.terms == ("calibr", "prd-482", "yearli")
    assert analyzed.identifier_terms == ("prd-482",)
    assert analyzed.content_terms == ("calibr", "yearli")


def test_identifiers_are_never_split_into_partial_matches() -> None:
    assert analyze("PRD-4821").terms == ("prd-4821",)
    assert "prd-482" not in analyze("PRD-4821 and INV-2026-0148").terms
    assert analyze("invoice INV-2026-0148").terms == ("invoic", "inv-2026-0148")


def test_numbers_units_and_stop_words() -> None:
    assert analyze("within ±0.25 % of span at 24 V DC").terms == ("within", "0.25", "span", "24", "v", "dc")
    assert analyze("What is the IP67 rating of the DPS-482?").terms == ("ip67", "rate", "dp", "482")
    assert analyze("the and of to").terms == ()
    # NFKC: the ohm sign and the Greek capital omega are one term; full-width digits are digits
    assert analyze("750 \u2126").terms == analyze("750 \u03a9").terms == analyze("\uff17\uff15\uff10 \u03a9").terms


def test_writer_uses_the_analyzer_and_names_it_in_its_version() -> None:
    assert ANALYZER_ID in Bm25Writer.version and Bm25Writer.name == "bm25"
    assert analyze("7.3.1 Differential pressure calibration").length == 4
