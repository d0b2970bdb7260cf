"""The flat error family of the ``procura`` core package."""

from __future__ import annotations


class ProcuraError(Exception):
    """Base of every error Procura raises on purpose; its message is meant for the user."""


class ServerError(ProcuraError):
    """The Postgres server cannot be provisioned, started, reached, or lacks a required capability."""


class MigrationError(ProcuraError):
    """A migration is malformed, was changed after being applied, or failed."""


class AuthorizationError(ProcuraError):
    """An operation was attempted without a valid authenticated context."""
