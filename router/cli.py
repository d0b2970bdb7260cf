"""``procura ask`` and ``procura mcp stdio|http``.

``ask`` answers one question and prints the answer, its plan and sources (``--json``: the whole result). The
tenant comes from an API key (``--key`` / ``PROCURA_API_KEY``) or, for a local operator who holds the database
credentials anyway, from ``--tenant``; never from the question.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
from typing import Any

import click

from procura.cli_support import ProcuraCommand
from procura.progress import echo_progress

_OPERATOR_SCOPES = frozenset({"procurement:read", "invoice:aggregate"})



_echo_err = echo_progress  # progress lines on stderr: stdout carries the answer (and MCP stdio's protocol)


@click.command("ask", cls=ProcuraCommand)
@click.argument("question")
@click.option("--as-of", "as_of", type=click.DateTime(formats=["%Y-%m-%d"]), default=None,
              help="Resolve relative periods against this date (default today).")
@click.option("--json", "as_json", is_flag=True, help="Print the whole result as JSON.")
@click.option("--tenant", default=None, help="Tenant for a local operator (instead of an API key).")
@click.option("--principal", default=None, help="Principal recorded with --tenant (default cli:<user>).")
@click.option("--key", envvar="PROCURA_API_KEY", default=None, help="API key (or PROCURA_API_KEY).")
@click.option("--rules-only", is_flag=True, help="Route with the deterministic rules only (no classifier).")
@click.option("--api-url", envvar="PROCURA_API_URL", default=None,
              help="Ask a running `procura serve` at this URL with --key (or PROCURA_API_URL): no local start-up.")
def ask(
    question: str, as_of: dt.datetime | None, as_json: bool, tenant: str | None, principal: str | None,
    key: str | None, rules_only: bool, api_url: str | None,
) -> None:
    """Answer a question with validated numbers, sources and the plan used."""
    if api_url and key is not None and tenant is None:
        from procura.api_client import ask_remote

        remote = ask_remote(api_url, key, question, as_of=as_of.date() if as_of else None)
        click.echo(json.dumps(remote, indent=2) if as_json else render(remote))
        return
    from procura.db.session import AuthContext
    from procura.settings import get_settings
    from router.runtime import RouterRuntime

    if (tenant is None) == (key is None):
        raise click.UsageError("give exactly one of --tenant or --key (PROCURA_API_KEY)")
    settings = get_settings()
    runtime = RouterRuntime.open(settings, use_classifier=not rules_only, max_size=2)
    try:
        if key is not None:
            ctx = runtime.authenticate(key)
        else:
            who = principal or f"cli:{os.environ.get('USER', 'operator')}"
            ctx = AuthContext(tenant_id=str(tenant), principal_id=who, scopes=_OPERATOR_SCOPES)
        with runtime.pool.connection() as conn:
            result = runtime.ask_service.ask(
                conn, ctx, question, as_of=as_of.date() if as_of else None, interface="cli"
            )
    finally:
        runtime.close()
    if as_json:
        click.echo(json.dumps(result.model_dump(mode="json", by_alias=True), indent=2))
        return
    click.echo(render(result.model_dump(mode="json", by_alias=True)))


def render(result: dict[str, Any]) -> str:
    """The human-readable form: answer, plan, intents, trace id."""
    answer, routing = result["answer"], result["routing"]
    lines = [answer["text"], "", f"status: {answer['status']}    workflow: {routing['workflow']}    "
             f"trace: {result['trace_id']}"]
    intents = ", ".join(f"{i['type']} {i['confidence']:.2f}" for i in routing["intents"] if i["selected"])
    lines.append(f"intents: {intents or 'none'} (overall {routing['confidence']:.2f})")
    if routing["execution_plan"]:
        lines.append("plan:")
        status = {s["step_id"]: s["status"] for s in result["steps"]}
        for step in routing["execution_plan"]:
            deps = f" <- {', '.join(step['depends_on'])}" if step["depends_on"] else ""
            lines.append(f"  {step['step_id']}: {step['tool']} [{status.get(step['step_id'], '-')}]{deps}")
    if answer["inputs"]:
        lines.append("inputs: " + json.dumps(answer["inputs"], sort_keys=True))
    if answer["sources"]:
        lines.append(f"sources ({len(answer['sources'])}): " + ", ".join(answer["sources"]))
    return "\n".join(lines)


@click.group("mcp")
def mcp() -> None:
    """Serve the MCP tools (ask, entity, graph, catalog, finance, documents) over stdio or streamable HTTP."""


@mcp.command("stdio", cls=ProcuraCommand)
@click.option("--rules-only", is_flag=True, help="Route with the deterministic rules only (no classifier).")
@click.option("--tenant", envvar="PROCURA_MCP_TENANT", default=None,
              help="Local operator mode: serve this tenant without an API key (or PROCURA_MCP_TENANT).")
def mcp_stdio(rules_only: bool, tenant: str | None) -> None:
    """Serve over stdio; the tenant comes from the host: PROCURA_API_KEY, or --tenant for a local operator."""
    from procura.db.session import AuthContext
    from procura.settings import get_settings
    from router.errors import McpAuthError
    from router.mcp_server import build_server
    from router.runtime import RouterRuntime

    key = os.environ.get("PROCURA_API_KEY")
    if not key and not tenant:
        raise McpAuthError("PROCURA_API_KEY is not set: the stdio server needs the host's API key (or --tenant)")
    settings = get_settings()
    if key and tenant:
        # Design note: serving the key's tenant when the host asked for another would answer for a tenant the host
        # did not mean; refusing makes the misconfiguration visible. Checked before the runtime (models) loads.
        import psycopg

        from procura.auth import authenticate

        with psycopg.connect(settings.app_url, autocommit=True) as conn:
            key_tenant = authenticate(conn, key).context.tenant_id
        if key_tenant != tenant:
            raise McpAuthError(f"--tenant {tenant!r} does not match the API key's tenant; refusing to start")
    runtime = RouterRuntime.open(settings, use_classifier=not rules_only)
    try:
        if key:
            access = runtime.access()
            auth = access.admit(key, "stdio").context
            fixed: Any = lambda: access.admit(key, "stdio")  # noqa: E731 - re-admitted per call: revocation
        else:
            who = f"mcp-stdio:{os.environ.get('USER', 'operator')}"
            auth = AuthContext(tenant_id=str(tenant), principal_id=who, scopes=_OPERATOR_SCOPES)
            fixed = auth
        _echo_err(f"MCP stdio server for tenant {auth.tenant_id} (principal {auth.principal_id})")
        server = build_server(runtime, fixed_auth=fixed)
        server.run("stdio")
    finally:
        runtime.close()


@mcp.command("http", cls=ProcuraCommand)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8765, show_default=True, type=int)
@click.option("--rules-only", is_flag=True, help="Route with the deterministic rules only (no classifier).")
def mcp_http(host: str, port: int, rules_only: bool) -> None:
    """Serve over streamable HTTP at /mcp; every request must carry `Authorization: Bearer <API key>`."""
    import uvicorn

    from procura.settings import get_settings
    from router.runtime import RouterRuntime

    runtime = RouterRuntime.open(get_settings(), use_classifier=not rules_only)
    try:
        uvicorn.run(http_app(runtime), host=host, port=port, log_level="warning")
    finally:
        runtime.close()


def http_app(runtime: Any) -> Any:
    """The streamable-HTTP ASGI app: bearer authentication in front of a stateless MCP server."""
    from procura.limits import RequestLimits
    from router.mcp_server import BearerAuthMiddleware, build_server

    server = build_server(runtime)
    app = server.streamable_http_app(stateless_http=True, json_response=True)
    app.add_middleware(BearerAuthMiddleware, access=runtime.access())
    # Outermost: the REST API's body size and text limits apply before authentication, as they do there.
    app.add_middleware(RequestLimits)
    return app


if __name__ == "__main__":  # pragma: no cover
    sys.exit(ask())
