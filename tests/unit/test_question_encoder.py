"""The classifier's MiniLM features in numpy: the torch model's vectors and config, without torch.

``bench/classifier_parity.py`` runs the same comparison over the labeled and golden sets with the routing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ingest.embedder import _model_revision
from router.classifier import frame
from router.question_encoder import NumpyMiniLM

TEXTS = (
    "What was Company A's total spend in Q1 2026?",
    frame('Search for "producer price index" in the agreements'),
    "Which suppliers are approved for Monitoring Products and what did we spend with them last quarter?",
    "PRD-482",
    "Wie hoch waren die Ausgaben für Überwachungsprodukte? " * 40,  # beyond 256 word pieces: truncated alike
)


def test_vectors_and_config_equal_the_torch_models() -> None:
    from ingest.embedder import get_default_embedder

    torch_model = get_default_embedder()
    encoder = NumpyMiniLM()
    assert encoder.config == torch_model.config  # the classifier cache and weights are shared
    mine = encoder.embed_documents(TEXTS)
    theirs = torch_model.embed_documents(TEXTS)
    assert mine.shape == theirs.shape == (len(TEXTS), 384) and mine.dtype == np.float32
    assert float(np.abs(mine - theirs).max()) < 1e-5
    assert np.allclose(np.linalg.norm(mine, axis=1), 1.0, atol=1e-5)
    assert encoder.embed_documents([]).shape == (0, 384)


_PROBE = """
import sys
from pathlib import Path
from router.classifier import ClassifierReport, IntentModel, _dump, cache_key, load_or_train, LABELED_SET
from router.contract import INTENT_TYPES
from router.question_encoder import NumpyMiniLM

cache = Path(sys.argv[1])
encoder = NumpyMiniLM(cache_dir=cache)
key = cache_key(LABELED_SET, encoder.config.embedding_config_id)
models = {intent: IntentModel(tuple([0.01 * (n + 1)] * 384), -0.5, 1.0, 0.0, 1.0)
          for n, intent in enumerate(INTENT_TYPES)}
report = ClassifierReport(1, {}, {}, {}, {}, 1.0)
cache.mkdir(parents=True, exist_ok=True)
(cache / f"intent-classifier-{key[:16]}.json").write_text(_dump(models, report, key))
classifier = load_or_train(encoder, cache)  # a cache hit: no training
probabilities = classifier.predict("What was Company A's total spend in Q1 2026?")
assert set(probabilities) == set(INTENT_TYPES)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "sentence_transformers", "transformers",
                                                              "sklearn"))
assert not heavy, heavy[:10]
"""


def test_predicting_with_a_cached_classifier_loads_neither_torch_nor_sklearn(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path / "router")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.fixture()
def tiny_model(tmp_path: Path) -> Path:
    """Just the files the configuration reads (no weights are evaluated)."""
    model = tmp_path / "model"
    (model / "1_Pooling").mkdir(parents=True)
    (model / "config.json").write_text(json.dumps({"hidden_size": 384, "hidden_act": "gelu"}))
    (model / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_mean_tokens": True}))
    for name in ("model.safetensors", "tokenizer.json", "modules.json"):
        (model / name).write_text(name)
    return model


def test_the_weights_revision_is_remembered_until_a_file_changes(tiny_model: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = NumpyMiniLM(tiny_model, cache_dir=cache).config
    assert first.revision == _model_revision(tiny_model)
    assert (cache / "minilm-revision.json").is_file()
    assert NumpyMiniLM(tiny_model, cache_dir=cache).config == first
    (tiny_model / "model.safetensors").write_text("other weights")
    second = NumpyMiniLM(tiny_model, cache_dir=cache).config
    assert second.revision == _model_revision(tiny_model) != first.revision
    (cache / "minilm-revision.json").write_text("{not json")
    assert NumpyMiniLM(tiny_model, cache_dir=cache).config == second  # a damaged memo is hashed again


def test_only_the_architecture_it_implements_is_evaluated(tiny_model: Path) -> None:
    from router.errors import ClassifierError

    (tiny_model / "config.json").write_text(json.dumps({"hidden_size": 384, "hidden_act": "relu"}))
    with pytest.raises(ClassifierError, match="gelu"):
        _ = NumpyMiniLM(tiny_model).config
