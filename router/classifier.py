"""The lightweight intent classifier: one-vs-rest logistic regression over MiniLM sentence embeddings.

Trained from ``router/data/labeled_queries.yml`` (shipped in the repository) at first use, deterministically
(fixed fold assignment, lbfgs, no random initialisation), and cached as JSON under ``<PROCURA_HOME>/router/``,
keyed by the hash of the labeled set, the embedding configuration and this module's version; a changed labeled
set trains a new model. Confidences are calibrated per intent: Platt scaling fitted on out-of-fold decision
values, so a 0.8 means roughly "right 8 times out of 10" on held-out questions, per intent.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import yaml

from router.contract import INTENT_TYPES, IntentType
from router.errors import ClassifierError

if TYPE_CHECKING:
    import numpy as np

LABELED_SET = Path(__file__).parent / "data" / "labeled_queries.yml"
CLASSIFIER_VERSION = "lr-platt-1"
_FOLDS = 5
_C = 4.0


class QueryEmbedder(Protocol):
    """What the classifier needs from an embedder (``ingest.embedder.MiniLMEmbedder`` satisfies it)."""

    @property
    def config(self) -> Any:
        """The embedding configuration (its ``embedding_config_id`` keys the cache)."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for a batch of texts."""
        ...


@dataclass(frozen=True)
class LabeledQuery:
    """One labeled question: its text and every intent it needs."""

    text: str
    intents: frozenset[IntentType]


def load_labeled_set(path: Path = LABELED_SET) -> tuple[LabeledQuery, ...]:
    """Read and check the labeled set (``- {q: ..., intents: [...]}`` entries).

    Raises:
        ClassifierError: unreadable file, an unknown intent, an empty label set, or a duplicate question.
    """
    try:
        raw = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as exc:
        raise ClassifierError(f"{path.name}: cannot read the labeled set: {exc}") from exc
    entries = raw.get("queries") if isinstance(raw, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ClassifierError(f"{path.name}: expected a non-empty 'queries' list")
    seen: set[str] = set()
    out: list[LabeledQuery] = []
    for position, entry in enumerate(entries, start=1):
        text = str(entry.get("q", "")).strip() if isinstance(entry, dict) else ""
        intents = entry.get("intents") if isinstance(entry, dict) else None
        if not text or not isinstance(intents, list) or not intents:
            raise ClassifierError(f"{path.name}: entry {position} needs 'q' and a non-empty 'intents' list")
        unknown = [i for i in intents if i not in INTENT_TYPES]
        if unknown:
            raise ClassifierError(f"{path.name}: entry {position} has unknown intent(s) {unknown}")
        if text.lower() in seen:
            raise ClassifierError(f"{path.name}: entry {position} repeats the question {text!r}")
        seen.add(text.lower())
        out.append(LabeledQuery(text, frozenset(intents)))
    return tuple(out)


@dataclass(frozen=True)
class IntentModel:
    """Weights and Platt parameters of one intent's binary classifier."""

    coef: tuple[float, ...]
    intercept: float
    platt_a: float
    platt_b: float


@dataclass(frozen=True)
class ClassifierReport:
    """Cross-validated quality of the classifier on its labeled set (per intent)."""

    examples: int
    f1: dict[str, float]
    precision: dict[str, float]
    recall: dict[str, float]
    brier: dict[str, float]
    exact_set_accuracy: float


class IntentClassifier:
    """Per-intent calibrated probabilities for a question."""

    def __init__(self, models: dict[IntentType, IntentModel], embedder: QueryEmbedder, report: ClassifierReport):
        self._models = models
        self._embedder = embedder
        self.report = report

    @property
    def embedder(self) -> QueryEmbedder:
        """The embedder the classifier's features come from."""
        return self._embedder

    def predict(self, text: str) -> dict[IntentType, float]:
        """Calibrated probability of every intent for ``text``."""
        import numpy as np

        vector = np.asarray(self._embedder.embed_documents([text])[0], dtype=np.float64)
        out: dict[IntentType, float] = {}
        for intent, model in self._models.items():
            z = float(np.dot(vector, np.asarray(model.coef)) + model.intercept)
            out[intent] = _sigmoid(model.platt_a * z + model.platt_b)
        return out


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def cache_key(labeled_path: Path, embedding_config_id: str) -> str:
    """The cache key: labeled set bytes + embedding configuration + classifier version."""
    digest = hashlib.sha256()
    digest.update(labeled_path.read_bytes())
    digest.update(embedding_config_id.encode())
    digest.update(CLASSIFIER_VERSION.encode())
    return digest.hexdigest()


def _fit(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=_C, max_iter=2000, solver="lbfgs")
    model.fit(x, y)
    return model.coef_[0].copy(), float(model.intercept_[0])


def _folds(count: int) -> list[int]:
    # Deterministic round-robin folds: no RNG, the same split on every machine.
    return [i % _FOLDS for i in range(count)]


def train(
    labeled: Sequence[LabeledQuery], embedder: QueryEmbedder
) -> tuple[dict[IntentType, IntentModel], ClassifierReport]:
    """Fit one calibrated binary classifier per intent and measure it with 5-fold cross-validation."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x = np.asarray(embedder.embed_documents([q.text for q in labeled]), dtype=np.float64)
    folds = np.asarray(_folds(len(labeled)))
    models: dict[IntentType, IntentModel] = {}
    f1: dict[str, float] = {}
    precision: dict[str, float] = {}
    recall: dict[str, float] = {}
    brier: dict[str, float] = {}
    predicted_sets: list[set[str]] = [set() for _ in labeled]
    for intent in INTENT_TYPES:
        y = np.asarray([1 if intent in q.intents else 0 for q in labeled])
        if y.min() == y.max():
            raise ClassifierError(f"labeled set: intent {intent!r} needs positive and negative examples")
        oof = np.zeros(len(labeled))
        for fold in range(_FOLDS):
            train_mask = folds != fold
            if y[train_mask].min() == y[train_mask].max():
                raise ClassifierError(f"labeled set: fold {fold} has one class only for {intent!r}")
            coef, intercept = _fit(x[train_mask], y[train_mask])
            oof[~train_mask] = x[~train_mask] @ coef + intercept
        platt = LogisticRegression(C=1e6, max_iter=2000, solver="lbfgs")
        platt.fit(oof.reshape(-1, 1), y)
        a, b = float(platt.coef_[0][0]), float(platt.intercept_[0])
        probabilities = np.asarray([_sigmoid(a * z + b) for z in oof])
        predicted = probabilities >= 0.5
        tp = int(np.sum(predicted & (y == 1)))
        fp = int(np.sum(predicted & (y == 0)))
        fn = int(np.sum(~predicted & (y == 1)))
        precision[intent] = round(tp / (tp + fp), 4) if tp + fp else 0.0
        recall[intent] = round(tp / (tp + fn), 4) if tp + fn else 0.0
        denominator = precision[intent] + recall[intent]
        f1[intent] = round(2 * precision[intent] * recall[intent] / denominator, 4) if denominator else 0.0
        brier[intent] = round(float(np.mean((probabilities - y) ** 2)), 4)
        for i, flag in enumerate(predicted):
            if flag:
                predicted_sets[i].add(intent)
        coef, intercept = _fit(x, y)
        models[intent] = IntentModel(tuple(float(v) for v in coef), intercept, a, b)
    exact = sum(1 for q, p in zip(labeled, predicted_sets, strict=True) if set(q.intents) == p) / len(labeled)
    report = ClassifierReport(len(labeled), f1, precision, recall, brier, round(exact, 4))
    return models, report


def _dump(models: dict[IntentType, IntentModel], report: ClassifierReport, key: str) -> str:
    return json.dumps(
        {
            "version": CLASSIFIER_VERSION,
            "key": key,
            "report": report.__dict__,
            "models": {k: m.__dict__ | {"coef": list(m.coef)} for k, m in models.items()},
        }
    )


def _load(text: str, key: str) -> tuple[dict[IntentType, IntentModel], ClassifierReport] | None:
    try:
        data = json.loads(text)
        if data.get("key") != key or data.get("version") != CLASSIFIER_VERSION:
            return None
        models = {
            intent: IntentModel(tuple(m["coef"]), m["intercept"], m["platt_a"], m["platt_b"])
            for intent, m in data["models"].items()
        }
        return models, ClassifierReport(**data["report"])  # type: ignore[return-value]
    except (ValueError, KeyError, TypeError):
        return None  # a damaged cache is retrained, never trusted


def load_or_train(
    embedder: QueryEmbedder, cache_dir: Path, labeled_path: Path = LABELED_SET
) -> IntentClassifier:
    """The classifier for the current labeled set: from the cache when its key matches, else trained and cached.

    Args:
        embedder: the query embedder (MiniLM).
        cache_dir: where cached models live (``<PROCURA_HOME>/router``).
        labeled_path: the labeled set.
    """
    key = cache_key(labeled_path, str(embedder.config.embedding_config_id))
    path = cache_dir / f"intent-classifier-{key[:16]}.json"
    if path.is_file():
        loaded = _load(path.read_text(), key)
        if loaded is not None:
            return IntentClassifier(loaded[0], embedder, loaded[1])
    models, report = train(load_labeled_set(labeled_path), embedder)
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(_dump(models, report, key))
    tmp.replace(path)  # atomic: a concurrent reader sees the old file or the whole new one
    return IntentClassifier(models, embedder, report)
