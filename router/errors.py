"""The flat error family of the ``router`` package (one base, one subclass per kind of failure)."""

from __future__ import annotations

from procura.errors import ProcuraError


class RouterError(ProcuraError):
    """Base of every error the router, planner, executor and answer layer raise on purpose."""


class QuestionError(RouterError):
    """The question itself is unusable (empty, too long, not text) (HTTP 422)."""

    http_status = 422
    error_code = "invalid_question"
    parameter = "question"


class ClassifierError(RouterError):
    """The intent classifier cannot be trained or loaded (bad labeled set, unreadable cache)."""


class PlanError(RouterError):
    """A plan is malformed: unknown or disallowed tool, cycle, dangling dependency, too many steps."""


class ToolInputError(RouterError):
    """A tool's arguments failed its typed request schema (never retried)."""


class ToolOutputError(RouterError):
    """A tool returned a result that violates its typed response schema or the entity checks (never retried)."""


class ToolTimeoutError(RouterError):
    """A tool exceeded its time budget (retried when the tool allows it)."""


class ToolFailedError(RouterError):
    """A tool failed for another reason (database error, unavailable dependency, missing scope)."""


class AnswerValidationError(RouterError):
    """The final answer failed a deterministic check (amount, source, currency, entity set)."""


class TraceNotFoundError(RouterError):
    """No trace with that id exists for the caller's tenant (HTTP 404)."""

    http_status = 404
    error_code = "trace_not_found"
    parameter = "trace_id"


class McpAuthError(RouterError):
    """The MCP server has no valid host-side key (stdio) or the HTTP request carries none (streamable HTTP)."""


class NameResolutionError(RouterError):
    """Names cannot be resolved by similarity (the database lacks ``pg_trgm``: migration 0110)."""
