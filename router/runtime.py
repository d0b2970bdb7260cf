"""Process-level wiring shared by the CLI, the MCP server and the API: pool, metric service, ask service."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from procura.db.session import AuthContext, open_pool
from procura.settings import Settings
from router.service import AskService
from router.tools import ToolEnv

if TYPE_CHECKING:
    from procura.access import Access
    from procura.auth import Principal


@dataclass
class RouterRuntime:
    """An open ``procura_app`` pool and the services built on it (close it when done)."""

    pool: Any
    ask_service: AskService
    env: ToolEnv

    @classmethod
    def open(
        cls,
        settings: Settings,
        *,
        registry: Any | None = None,
        use_classifier: bool = True,
        embedder: Any | None = None,
        max_size: int = 8,
    ) -> RouterRuntime:
        """Load the metric registry (validated against dbt's artifacts), the embedder and classifier, open a pool."""
        from semantic.loader import load_registry
        from semantic.schema import discover
        from semantic.service import MetricService

        if registry is None:
            # Validated once per catalog, code and dbt artifacts; reused from PROCURA_HOME while they are unchanged.
            registry = load_registry(discover(), cache_dir=settings.home / "semantic")
        metric_service = MetricService.from_settings(registry, settings)
        ask_service = AskService.create(
            metric_service, home=settings.home, embedder=embedder, use_classifier=use_classifier
        )
        pool = open_pool(settings.app_url, name="procura-router", max_size=max_size, age=True)
        return cls(pool=pool, ask_service=ask_service, env=ask_service.env)

    def authenticate(self, key: str | None) -> AuthContext:
        """The context of an API key (the same keys and rules as the HTTP API).

        Raises:
            AuthenticationError: missing, malformed, unknown, revoked or expired key.
        """
        from procura.auth import authenticate

        with self.pool.connection() as conn:
            return authenticate(conn, key).context

    def principal(self, key: str | None) -> Principal:
        """The principal of an API key (context, key id, rate budget): the lookup behind :class:`procura.access.Access`.

        Raises:
            AuthenticationError: missing, malformed, unknown, revoked or expired key.
        """
        from procura.auth import authenticate

        with self.pool.connection() as conn:
            return authenticate(conn, key)

    def access(self) -> Access:
        """A fresh admission path over this runtime's pool (the REST API's checks, per process)."""
        from procura.access import Access

        return Access(self.principal)

    def close(self) -> None:
        """Close the pool."""
        self.pool.close()
