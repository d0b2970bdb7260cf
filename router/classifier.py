"""The lightweight intent classifier: one-vs-rest logistic regression over MiniLM sentence embeddings.

Trained from ``router/data/labeled_queries.yml`` (shipped in the repository) at first use, deterministically
(fixed fold assignment, lbfgs, no random initialisation), and cached as JSON under ``<PROCURA_HOME>/router/``,
keyed by the hash of the labeled set, the embedding configuration and this module's version; a changed labeled
set trains a new model.

Confidences are calibrated per intent on out-of-fold decision values, *together with the deterministic rules*:
``p = sigmoid(a * z + b + c * rule_fired)``, where ``z`` is the held-out logistic-regression score and
``rule_fired`` says whether a cue-word/identifier rule of :mod:`router.rules` selects the intent. The router
reports this one probability for every intent, so a rule that fires while the model disagrees is reported with
the lower confidence the labeled set shows for that situation, instead of a fixed constant. Platt's target
smoothing (``(N+ + 1) / (N+ + 2)``) keeps the probabilities off 0 and 1 on a small labeled set.

The classifier reads the question's *frame*: a quoted phrase is literal text to find, so it is replaced by a
placeholder before embedding (``Search for "producer price index"`` must not look like a price question).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import yaml

from router.contract import INTENT_TYPES, IntentType
from router.errors import ClassifierError
from router.rules import apply_rules, find_identifiers, quoted_spans

if TYPE_CHECKING:
    import numpy as np

LABELED_SET = Path(__file__).parent / "data" / "labeled_queries.yml"
CLASSIFIER_VERSION = "lr-platt-rule-2"
_FOLDS = 5
_C = 4.0
_ECE_BINS = 10
#: What a quoted phrase is replaced with before embedding (see the module docstring).
QUOTE_PLACEHOLDER = '"…"'


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
    platt_rule: float = 0.0


@dataclass(frozen=True)
class ClassifierReport:
    """Cross-validated quality of the classifier on its labeled set (per intent)."""

    examples: int
    f1: dict[str, float]
    precision: dict[str, float]
    recall: dict[str, float]
    brier: dict[str, float]
    exact_set_accuracy: float
    #: Rules and classifier together, as the router selects (rule fired or p >= 0.5), out of fold.
    router_f1: dict[str, float] | None = None
    #: Expected calibration error (10 bins) of the combined per-intent probabilities over every
    #: (question, intent) pair, out of fold.
    router_ece: float | None = None


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

    def predict(self, text: str, rule_intents: Collection[str] | None = None) -> dict[IntentType, float]:
        """Calibrated probability of every intent for ``text``.

        Args:
            text: the question.
            rule_intents: the intents the deterministic rules selected (the router passes its own, which also
                know the tenant's entity names); ``None`` applies :func:`rule_intents_of` to ``text``.
        """
        import numpy as np

        fired = rule_intents_of(text) if rule_intents is None else frozenset(rule_intents)
        vector = np.asarray(self._embedder.embed_documents([frame(text)])[0], dtype=np.float64)
        out: dict[IntentType, float] = {}
        for intent, model in self._models.items():
            z = float(np.dot(vector, np.asarray(model.coef)) + model.intercept)
            out[intent] = _sigmoid(model.platt_a * z + model.platt_b + model.platt_rule * (intent in fired))
        return out


def frame(text: str) -> str:
    """The question with every quoted phrase replaced by a placeholder (what the classifier embeds).

    >>> frame('Search for "producer price index" in the agreements')
    'Search for "…" in the agreements'
    """
    out: list[str] = []
    last = 0
    for start, end in quoted_spans(text):
        out.extend((text[last:start], QUOTE_PLACEHOLDER))
        last = end
    out.append(text[last:])
    return "".join(out)


def rule_intents_of(text: str) -> frozenset[str]:
    """The intents the tenant-independent rules (identifiers, cue words, quotes) select for ``text``."""
    return frozenset(hit.intent for hit in apply_rules(text, find_identifiers(text)))


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


def _platt(z: np.ndarray, rule: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Fit ``p = sigmoid(a*z + b + c*rule)`` with Platt's smoothed targets; returns (a, b, c)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    positives, negatives = int(y.sum()), int(len(y) - y.sum())
    high, low = (positives + 1) / (positives + 2), 1 / (negatives + 2)
    target = np.where(y == 1, high, low)
    # Soft targets as two weighted copies of every example (label 1 with weight t, label 0 with weight 1-t).
    features = np.column_stack([z, rule]).astype(np.float64)
    x2 = np.vstack([features, features])
    y2 = np.concatenate([np.ones(len(y)), np.zeros(len(y))])
    w2 = np.concatenate([target, 1 - target])
    model = LogisticRegression(C=1e4, max_iter=5000, solver="lbfgs")
    model.fit(x2, y2, sample_weight=w2)
    return float(model.coef_[0][0]), float(model.intercept_[0]), float(model.coef_[0][1])


def expected_calibration_error(points: Sequence[tuple[float, int]], bins: int = _ECE_BINS) -> float:
    """ECE over equal-width bins: sum of |accuracy - mean confidence| weighted by each bin's share.

    >>> round(expected_calibration_error([(0.9, 1), (0.9, 1), (0.1, 0), (0.8, 0)]), 3)
    0.275
    """
    table: list[list[tuple[float, int]]] = [[] for _ in range(bins)]
    for confidence, label in points:
        table[min(int(confidence * bins), bins - 1)].append((confidence, label))
    total = sum(len(b) for b in table)
    return sum(
        len(b) / total * abs(sum(lbl for _, lbl in b) / len(b) - sum(c for c, _ in b) / len(b)) for b in table if b
    ) if total else 0.0


def _scores(predicted: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    import numpy as np

    tp = int(np.sum(predicted & (y == 1)))
    fp = int(np.sum(predicted & (y == 0)))
    fn = int(np.sum(~predicted & (y == 1)))
    precision = round(tp / (tp + fp), 4) if tp + fp else 0.0
    recall = round(tp / (tp + fn), 4) if tp + fn else 0.0
    f1 = round(2 * precision * recall / (precision + recall), 4) if precision + recall else 0.0
    return precision, recall, f1


def train(
    labeled: Sequence[LabeledQuery], embedder: QueryEmbedder
) -> tuple[dict[IntentType, IntentModel], ClassifierReport]:
    """Fit one calibrated binary classifier per intent and measure it with 5-fold cross-validation.

    The report has the classifier alone (f1/precision/recall/brier/exact_set_accuracy: selected when its
    calibrated probability is >= 0.5 without a rule) and the router's combination (``router_f1``: a rule fired
    or p >= 0.5; ``router_ece``), all on held-out folds.
    """
    import numpy as np

    x = np.asarray(embedder.embed_documents([frame(q.text) for q in labeled]), dtype=np.float64)
    fired = [rule_intents_of(q.text) for q in labeled]
    folds = np.asarray(_folds(len(labeled)))
    models: dict[IntentType, IntentModel] = {}
    f1: dict[str, float] = {}
    precision: dict[str, float] = {}
    recall: dict[str, float] = {}
    brier: dict[str, float] = {}
    router_f1: dict[str, float] = {}
    calibration: list[tuple[float, int]] = []
    predicted_sets: list[set[str]] = [set() for _ in labeled]
    for intent in INTENT_TYPES:
        y = np.asarray([1 if intent in q.intents else 0 for q in labeled])
        rule = np.asarray([1.0 if intent in f else 0.0 for f in fired])
        if y.min() == y.max():
            raise ClassifierError(f"labeled set: intent {intent!r} needs positive and negative examples")
        oof = np.zeros(len(labeled))
        for fold in range(_FOLDS):
            train_mask = folds != fold
            if y[train_mask].min() == y[train_mask].max():
                raise ClassifierError(f"labeled set: fold {fold} has one class only for {intent!r}")
            coef, intercept = _fit(x[train_mask], y[train_mask])
            oof[~train_mask] = x[~train_mask] @ coef + intercept
        # The classifier alone (no rule term), for its own held-out quality.
        a0, b0, _ = _platt(oof, np.zeros(len(labeled)), y)
        alone = np.asarray([_sigmoid(a0 * z + b0) for z in oof])
        predicted = alone >= 0.5
        precision[intent], recall[intent], f1[intent] = _scores(predicted, y)
        brier[intent] = round(float(np.mean((alone - y) ** 2)), 4)
        for i, flag in enumerate(predicted):
            if flag:
                predicted_sets[i].add(intent)
        # Rules and classifier together: the probability the router reports.
        a, b, c = _platt(oof, rule, y)
        combined = np.asarray([_sigmoid(a * z + b + c * r) for z, r in zip(oof, rule, strict=True)])
        router_f1[intent] = _scores((combined >= 0.5) | (rule == 1), y)[2]
        calibration.extend((float(p), int(t)) for p, t in zip(combined, y, strict=True))
        coef, intercept = _fit(x, y)
        models[intent] = IntentModel(tuple(float(v) for v in coef), intercept, a, b, c)
    exact = sum(1 for q, p in zip(labeled, predicted_sets, strict=True) if set(q.intents) == p) / len(labeled)
    report = ClassifierReport(
        len(labeled), f1, precision, recall, brier, round(exact, 4),
        router_f1=router_f1, router_ece=round(expected_calibration_error(calibration), 4),
    )
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
            intent: IntentModel(tuple(m["coef"]), m["intercept"], m["platt_a"], m["platt_b"], m["platt_rule"])
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
