"""The flat error family of the retrieval package.

Every error retrieval raises on purpose derives from :class:`RetrievalError` (a ``ProcuraError``, so the CLI
prints it as one line). The API maps each class to one status code (see :mod:`api.routes.search`).
"""

from __future__ import annotations

from procura.errors import ProcuraError


class RetrievalError(ProcuraError):
    """Base of every retrieval error; the message names the field or store and the problem."""


class SearchRequestError(RetrievalError):
    """A search request is invalid (HTTP 422); ``field`` names the offending field, e.g. ``filters.valid_at``."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class SearchScopeError(RetrievalError):
    """The authenticated principal lacks the scope document search needs (HTTP 403)."""


class IndexConfigMismatchError(RetrievalError):
    """The query cannot be compared with the index: another embedding config or BM25 analyzer (HTTP 409)."""


class IndexNotReadyError(RetrievalError):
    """A store retrieval needs does not exist yet (migration not applied, no active embedding config) (HTTP 503)."""


class RerankerUnavailableError(RetrievalError):
    """A reranker was asked for but no local model is available (models are never downloaded)."""


class EvaluationError(RetrievalError):
    """The labeled query set is malformed or refers to documents the corpus does not have."""
