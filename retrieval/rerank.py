"""The rerank hook: a cross-encoder stage behind a small interface, off by default.

A :class:`Reranker` scores (query, chunk text) pairs; the service calls it on the head of the fused list and
reorders that head within identity tiers (identity is never overridden by a model score). No model is bundled
and none may be downloaded, so :func:`load_local_reranker` only loads a cross-encoder from a local directory and
returns ``None`` when there is none; with no reranker, results are exactly the fused order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from retrieval.errors import RerankerUnavailableError

#: Environment variable naming a local cross-encoder directory (sentence-transformers format).
RERANKER_PATH_ENV = "PROCURA_RERANKER_PATH"


@runtime_checkable
class Reranker(Protocol):
    """Scores candidate texts for one query; higher is more relevant."""

    name: str

    def score(self, query: str, texts: Sequence[str]) -> Sequence[float]:
        """One score per text, in order."""
        ...


class CrossEncoderReranker:
    """A sentence-transformers ``CrossEncoder`` loaded from a local directory (never from the network)."""

    def __init__(self, model_dir: Path, *, device: str = "cpu") -> None:
        if not (model_dir / "config.json").is_file():
            raise RerankerUnavailableError(f"reranker: {model_dir} holds no model (config.json missing)")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import CrossEncoder

        self._model = CrossEncoder(str(model_dir), device=device, local_files_only=True)
        self.name = f"cross-encoder:{model_dir.name}"

    def score(self, query: str, texts: Sequence[str]) -> Sequence[float]:
        if not texts:
            return []
        return [float(s) for s in self._model.predict([(query, t) for t in texts], show_progress_bar=False)]


def load_local_reranker(path: str | os.PathLike[str] | None = None) -> Reranker | None:
    """The cross-encoder at ``path`` (default ``$PROCURA_RERANKER_PATH``), or None when none is configured.

    Raises:
        RerankerUnavailableError: a path is configured but holds no loadable model.
    """
    location = path if path is not None else os.environ.get(RERANKER_PATH_ENV)
    if not location:
        return None
    return CrossEncoderReranker(Path(location))
