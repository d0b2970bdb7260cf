"""The flat error family of the retrieval package.

Every error retrieval raises on purpose derives from :class:`RetrievalError` (a ``ProcuraError``, so the CLI
prints it as one line); each class carries its HTTP status and error code.
"""

from __future__ import annotations

from procura.errors import ProcuraError


class RetrievalError(ProcuraError):
    """Base of every retrieval error; the message names the field or store and the problem."""


class SearchRequestError(RetrievalError):
    """A search request is invalid (HTTP 422); ``field`` names the offending field, e.g. ``filters.valid_at``."""

    http_status = 422
    error_code = "invalid_request"

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.parameter = field


class SearchScopeError(RetrievalError):
    """The authenticated principal lacks the scope document search needs (HTTP 403)."""

    http_status = 403
    error_code = "missing_scope"


class IndexConfigMismatchError(RetrievalError):
    """The query cannot be compared with the index: another embedding config or BM25 analyzer (HTTP 409)."""

    http_status = 409
    error_code = "index_config_mismatch"


class IndexNotReadyError(RetrievalError):
    """A store retrieval needs does not exist yet (migration not applied, no active embedding config) (HTTP 503)."""

    http_status = 503
    error_code = "index_not_ready"


class SearchTimeoutError(RetrievalError):
    """The search exceeded the statement timeout (HTTP 504)."""

    http_status = 504
    error_code = "statement_timeout"


class RerankerUnavailableError(RetrievalError):
    """A reranker was asked for but no local model is available (models are never downloaded)."""
