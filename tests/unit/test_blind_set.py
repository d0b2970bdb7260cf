"""The blind evaluation set loads, and its stored expected values are what the independent calculator computes.

The set itself is an evaluation (``python -m evaluation.blind_score``), not a test; this only guards the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation import blind_truth
from procura.demo.generator import generate

KINDS = {"figure", "table", "list", "clarification", "not_found", "document"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("blind") / "corpus"
    generate(out)  # the demo's defaults, as `make demo` generates it
    return out


def test_questions_load_and_are_well_formed() -> None:
    data = blind_truth.load_questions()
    questions = data["questions"]
    assert len(questions) >= 120
    assert {q["tenant"] for q in questions} == {"tenant-42", "tenant-17"}
    for q in questions:
        assert q["expected"]["kind"] in KINDS, q["id"]
        assert q["how"].strip(), q["id"]


def test_stored_expected_values_match_the_calculator(corpus: Path) -> None:
    data = blind_truth.load_questions()
    assert blind_truth.check(blind_truth.load(corpus), data) == []


def test_check_reports_a_tampered_value(corpus: Path) -> None:
    data = blind_truth.load_questions()
    first = next(q for q in data["questions"] if q["expected"]["kind"] == "figure" and q["expected"].get("value"))
    first["expected"] = {**first["expected"], "value": "1.00"}
    problems = blind_truth.check(blind_truth.load(corpus), data)
    assert [p.split(":")[0] for p in problems] == [first["id"]]


def test_supplier_name_normalization() -> None:
    assert blind_truth.normalize_name("Epsilon Instruments, Inc") == "epsilon instruments"
    assert blind_truth.normalize_name("Gamma  Control Systems AG") == "gamma control systems"
    assert blind_truth.normalize_name("THETA PRÄZISION") == "theta präzision"
