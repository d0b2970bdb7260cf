"""The third blind set: its stored expected answers are what its calculator computes from a seed-7 corpus."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from evaluation import blind3_truth
from procura.demo import generate

QUESTIONS = blind3_truth.DEFAULT_QUESTIONS


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = blind3_truth.load_questions(QUESTIONS)
    out = tmp_path_factory.mktemp("blind3") / "corpus"
    generate(out, seed=int(data["corpus"]["seed"]), scale=int(data["corpus"]["scale"]))
    return out


def test_stored_answers_match_the_calculator(corpus: Path) -> None:
    data = blind3_truth.load_questions(QUESTIONS)
    assert blind3_truth.check(corpus, data) == []


def test_a_corpus_of_another_seed_is_refused(corpus: Path, tmp_path: Path) -> None:
    data = blind3_truth.load_questions(QUESTIONS)
    other = tmp_path / "other"
    other.mkdir()
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    manifest["generator"]["seed"] = 42
    (other / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    problems = blind3_truth.check(other, data)
    assert problems and "seed 42" in problems[0]


def test_the_set_covers_every_category_with_unique_ids() -> None:
    data = blind3_truth.load_questions(QUESTIONS)
    ids = [q["id"] for q in data["questions"]]
    assert len(ids) == len(set(ids)) >= 150
    counts = Counter(q["category"] for q in data["questions"])
    assert len(counts) >= 18 and min(counts.values()) >= 10


def test_invoice_level_tax_allocation_sums_to_the_header() -> None:
    from decimal import Decimal as D

    shares = blind3_truth._allocate(D("10.00"), [D("1.00"), D("1.00"), D("1.00")])
    assert sum(shares) == D("10.00") and shares == [D("3.34"), D("3.33"), D("3.33")]
