"""The second blind set loads, its expected values are what its calculator computes, and the scorer reads the new
expected kinds (rankings, shares, changes, original currency, two-workflow questions) from a response alone.

The set itself is an evaluation (``python -m evaluation.blind_score --questions eval/blind2/questions.yml``), not
a test; this guards the file, the calculator and the scorer's reading of the new kinds on made-up answers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evaluation import blind2_truth, blind_truth
from evaluation.blind_score import classify
from procura.demo.generator import generate

KINDS = {"figure", "table", "list", "clarification", "not_found", "document", "ranking", "share", "change",
         "currency", "compound"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("blind2") / "corpus"
    generate(out)  # the demo's defaults (seed 42, scale 1)
    return out


def _data() -> dict[str, Any]:
    return blind_truth.load_questions(blind2_truth.DEFAULT_QUESTIONS)


def test_questions_load_and_are_well_formed() -> None:
    data = _data()
    questions = data["questions"]
    assert len(questions) >= 150
    assert data["calculator"] == "evaluation.blind2_truth"
    assert {q["tenant"] for q in questions} == {"tenant-42", "tenant-17", "tenant-99"}
    for q in questions:
        assert q["expected"]["kind"] in KINDS, q["id"]
        assert q["how"].strip(), q["id"]


def test_stored_expected_values_match_the_calculator(corpus: Path) -> None:
    assert blind2_truth.check(blind_truth.load(corpus), _data()) == []


def test_check_reports_a_tampered_ranking(corpus: Path) -> None:
    data = _data()
    first = next(q for q in data["questions"] if q["expected"]["kind"] == "ranking")
    items = [list(x) for x in first["expected"]["items"]]
    items[0][1] = "1.00"
    first["expected"] = {**first["expected"], "items": items}
    problems = blind2_truth.check(blind_truth.load(corpus), data)
    assert [p.split(":")[0] for p in problems] == [first["id"]]


def _answer(text: str, status: str = "answered", **extra: Any) -> dict[str, Any]:
    return {"answer": {"status": status, "text": text, **extra}}


RANKING = {"id": "r", "spec": {"op": "rank"}, "expected": {
    "kind": "ranking", "items": [["SUP-27", "97267.59"], ["SUP-18", "32999.92"]],
    "labels": {"SUP-27": ["Supplier Gamma"], "SUP-18": ["Supplier Beta"]}, "currency": "EUR"}}


def test_ranking_needs_order_and_values() -> None:
    good = "1. Supplier Gamma (SUP-27): 97,267.59 EUR; 2. Supplier Beta: 32,999.92 EUR"
    assert classify(RANKING, 200, _answer(good))[0] == "exact"
    swapped = "1. Supplier Beta: 32,999.92 EUR; 2. Supplier Gamma: 97,267.59 EUR"
    assert classify(RANKING, 200, _answer(swapped))[:2] == ("silent_wrong", "ranking order or members differ")
    total = "Company A spent 137,589.19 EUR."
    assert classify(RANKING, 200, _answer(total))[0] == "silent_wrong"
    records = {"rows": [{"supplier_id": "SUP-27", "spend": "97267.59"}, {"supplier_id": "SUP-18", "spend": "32999.92"}]}
    assert classify(RANKING, 200, _answer("Top suppliers:", result=records))[0] == "exact"


def test_share_accepts_percent_or_fraction() -> None:
    q = {"id": "s", "spec": {"op": "share"}, "expected": {"kind": "share", "percent": "70.69", "part": "97267.59",
                                                          "base": "137589.19", "currency": "EUR"}}
    assert classify(q, 200, _answer("Gamma: 70.69 % of 137,589.19 EUR"))[0] == "exact"
    assert classify(q, 200, _answer("Gamma's share is 70.7%"))[0] == "exact"
    assert classify(q, 200, _answer("", result={"ratio": "0.7069"}))[0] == "exact"
    assert classify(q, 200, _answer("Gamma: 97,267.59 EUR"))[1] == "share missing (figure only)"


def test_change_with_and_without_a_base() -> None:
    q = {"id": "c", "spec": {"op": "change"}, "expected": {
        "kind": "change", "want": "both", "current": "137589.19", "base": "150226.56", "delta": "-12637.37",
        "percent": "-8.41", "currency": "EUR"}}
    assert classify(q, 200, _answer("Down 12,637.37 EUR (-8.41 %) from 150,226.56 to 137,589.19"))[0] == "exact"
    assert classify(q, 200, _answer("137,589.19 EUR in Q1 2026"))[1] == "one period only (no comparison)"
    empty = {"id": "e", "spec": {"op": "change"}, "expected": {
        "kind": "change", "want": "both", "current": "97267.59", "base": None, "delta": None, "percent": None}}
    assert classify(empty, 200, _answer("97,267.59 EUR; no data for Q1 2025, so no change"))[0] == "exact"
    assert classify(empty, 200, _answer("97,267.59 EUR, up 100 %"))[0] == "silent_wrong"


def test_currency_needs_both_amounts() -> None:
    q = {"id": "x", "spec": {"op": "currency"}, "expected": {
        "kind": "currency", "rows": {"USD": "28494.60"}, "reporting": "26218.02", "currency": "EUR"}}
    assert classify(q, 200, _answer("28,494.60 USD = 26,218.02 EUR"))[0] == "exact"
    assert classify(q, 200, _answer("26,218.02 EUR"))[1] == "original currency missing (reporting only)"


def test_compound_needs_every_part() -> None:
    q = {"id": "m", "spec": {"op": "compound", "parts": [{"op": "rank"}, {"op": "document"}]}, "expected": {
        "kind": "compound", "parts": [
            {"kind": "ranking", "items": [["SUP-27", "97267.59"]], "labels": {"SUP-27": ["Supplier Gamma"]}},
            {"kind": "document", "document_id": "agreement-2026-04", "fact": "Payment is due 14 days net"}]}}
    both = _answer("Supplier Gamma, 97,267.59 EUR. Payment is due 14 days net.",
                   citations=[{"document_id": "agreement-2026-04"}])
    assert classify(q, 200, both)[0] == "exact"
    figure_only = _answer("Supplier Gamma, 97,267.59 EUR.")
    assert classify(q, 200, figure_only)[0] == "silent_wrong"


def test_clarification_topics_and_accepted_figure() -> None:
    q = {"id": "k", "spec": {"op": "clarification"}, "expected": {
        "kind": "clarification", "reason": "missing_period", "names": [], "topics": ["period", "PRD-"]}}
    assert classify(q, 200, _answer("Which period?", status="clarification"))[0] == "clarification_ok"
    assert classify(q, 200, _answer("Which supplier?", status="clarification"))[0] == "clarification_wrong"
    german = {"id": "g", "spec": {"op": "figure"}, "expected": {
        "kind": "clarification", "reason": "unknown_category", "names": ["Drucksensoren"], "accept_value": "23907.32"}}
    assert classify(german, 200, _answer("23,907.32 EUR"))[0] == "exact"
    assert classify(german, 200, _answer("137,589.19 EUR"))[0] == "silent_wrong"
