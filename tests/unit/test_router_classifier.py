"""The intent classifier: labeled-set checks, deterministic training with a hash-keyed cache, calibrated
per-intent quality on held-out folds, and routing with rules + classifier (real MiniLM, no database)."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from procura.db.session import AuthContext
from router.classifier import LABELED_SET, IntentClassifier, cache_key, frame, load_labeled_set, load_or_train
from router.errors import ClassifierError
from router.routing import RouterInputs, route
from tests.unit.test_router_routing import GAZETTEER

FIXTURES = Path(__file__).parent / "fixtures" / "router"


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("labeled__invalid_*.yml")), ids=lambda p: p.stem)
def test_invalid_labeled_sets_are_refused(path: Path) -> None:
    with pytest.raises(ClassifierError, match=path.name):
        load_labeled_set(path)


def test_shipped_labeled_set_covers_every_intent_and_multi_intent() -> None:
    labeled = load_labeled_set()
    assert len(labeled) >= 150
    assert sum(1 for q in labeled if len(q.intents) > 1) >= 30
    for intent in ("exact_lookup", "lexical", "semantic", "aggregate", "relationship"):
        assert sum(1 for q in labeled if intent in q.intents) >= 20, intent


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[IntentClassifier, Path]:
    from ingest.embedder import get_default_embedder

    cache = tmp_path_factory.mktemp("classifier")
    return load_or_train(get_default_embedder(), cache), cache


def test_training_is_cached_by_data_hash_and_deterministic(
    trained: tuple[IntentClassifier, Path], tmp_path: Path
) -> None:
    classifier, cache = trained
    (cached,) = list(cache.glob("intent-classifier-*.json"))
    again = load_or_train(classifier.embedder, cache)  # same embedder, from the cache file
    question = "What was the spend with approved vendors last quarter?"
    assert again.predict(question) == classifier.predict(question)
    assert list(cache.glob("intent-classifier-*.json")) == [cached]
    changed = tmp_path / "labeled.yml"
    shutil.copy(LABELED_SET, changed)
    with changed.open("a") as handle:
        handle.write('  - {q: "How much did we pay for calibration services?", intents: [aggregate]}\n')
    config_id = classifier.embedder.config.embedding_config_id
    assert cache_key(changed, config_id) != cache_key(LABELED_SET, config_id)


def test_cross_validated_quality_per_intent(trained: tuple[IntentClassifier, Path]) -> None:
    report = trained[0].report
    # The classifier alone, on held-out folds.
    floors = {"aggregate": 0.9, "relationship": 0.8, "exact_lookup": 0.85, "semantic": 0.8, "lexical": 0.75}
    for intent, floor in floors.items():
        assert report.f1[intent] >= floor, (intent, report.f1)
        assert report.brier[intent] <= 0.08, (intent, report.brier)
    # Rules + classifier as the router combines them, on held-out folds: the router's own held-out check.
    assert report.router_f1 is not None and report.router_ece is not None
    assert min(report.router_f1.values()) >= 0.9, report.router_f1
    assert report.router_ece <= 0.04, report.router_ece


def test_labeled_set_does_not_copy_the_held_out_golden_set() -> None:
    # eval/golden.yml measures the router; a golden question in the training data would inflate that measure.
    import re

    import yaml

    def norm(text: str) -> str:
        return " ".join(re.findall(r"[a-z0-9]+", text.lower()))

    golden = yaml.safe_load((LABELED_SET.parents[2] / "eval" / "golden.yml").read_text())
    held_out = {norm(case["question"]) for case in golden["cases"]}
    copied = [q.text for q in load_labeled_set() if norm(q.text) in held_out]
    assert not copied, copied


def test_quoted_phrases_are_literal_and_rules_enter_the_calibration(
    trained: tuple[IntentClassifier, Path],
) -> None:
    classifier = trained[0]
    # The quoted payload does not move the classifier: only the question's frame is embedded.
    assert frame('Look for "unit price review" in the contracts') == 'Look for "…" in the contracts'
    one = classifier.predict('Look for "unit price review" in the contracts')
    other = classifier.predict('Look for "approved vendor list" in the contracts')
    assert one == other and one["lexical"] > 0.5 and one["aggregate"] < 0.5
    # A rule that fires raises the calibrated probability of its intent.
    question = "Which products does the catalogue show for the flow meters?"
    assert classifier.predict(question, {"relationship"})["relationship"] > classifier.predict(question, set())[
        "relationship"
    ]


def test_routing_with_the_classifier(trained: tuple[IntentClassifier, Path]) -> None:
    inputs = RouterInputs(ctx=AuthContext("tenant-42", "u", frozenset({"procurement:read"})),
                          as_of=dt.date(2026, 5, 15), gazetteer=GAZETTEER, classifier=trained[0])
    # No cue word of the rules: the classifier alone selects retrieval.
    stored = route("How should a sensor be stored before it is installed?", inputs)
    assert "semantic" in stored.selected_intents and stored.workflow == "document_answer"
    assert next(i for i in stored.intents if i.type == "semantic").source == "classifier"
    seed = route("What was Company A's total spend on monitoring products supplied by its approved vendors during "
                 "the last quarter?", inputs)
    assert {"aggregate", "relationship"} <= set(seed.selected_intents) and seed.workflow == "spend"
    assert all(i.source == "rule+classifier" for i in seed.intents if i.type in ("aggregate", "relationship"))
    assert seed.confidence >= 0.9
