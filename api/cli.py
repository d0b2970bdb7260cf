"""``procura serve`` (the API under uvicorn) and ``procura keys`` (create, list, revoke API keys)."""

from __future__ import annotations

import datetime as dt

import click

from procura.cli_support import ProcuraGroup
from procura.errors import ProcuraError
from procura.progress import echo_progress


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="TCP port.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Worker processes.")
@click.option("--log-level", default="info", show_default=True, type=click.Choice(["debug", "info", "warning"]))
def serve(host: str, port: int, workers: int, log_level: str) -> None:
    """Serve the metric API with uvicorn (metrics are validated at start-up)."""
    import uvicorn

    from procura.settings import get_settings
    from semantic.loader import load_registry
    from semantic.schema import discover

    # Fail here, with a clean message, rather than inside every worker.
    try:
        load_registry(discover())
    except ProcuraError as exc:
        raise click.ClickException(str(exc)) from exc
    settings = get_settings()
    echo_progress(f"serving on http://{host}:{port} (database {settings.database_name})")
    uvicorn.run("api.main:create_app", factory=True, host=host, port=port, workers=workers, log_level=log_level)


@click.group("keys", cls=ProcuraGroup)
def keys() -> None:
    """Create, list and revoke API keys (stored hashed; a key is printed once)."""


@keys.command("create")
@click.option("--tenant", required=True, help="Tenant every request with the key is scoped to.")
@click.option("--scopes", required=True, help="Comma-separated scopes, e.g. invoice:aggregate,procurement:read.")
@click.option("--principal", default=None, help="Who the key represents (default key-<key id>).")
@click.option(
    "--rate-limit", default=600, show_default=True, type=click.IntRange(1, 1_000_000), help="Requests per minute."
)
@click.option("--expires-in-days", default=None, type=click.IntRange(1, 3650), help="Expire after N days.")
def keys_create(tenant: str, scopes: str, principal: str | None, rate_limit: int, expires_in_days: int | None) -> None:
    """Create a key and print it once (stdout: the key only; details on stderr)."""
    import psycopg

    from procura.auth import create_key, parse_scopes
    from procura.settings import get_settings

    settings = get_settings()
    expires = dt.datetime.now(dt.UTC) + dt.timedelta(days=expires_in_days) if expires_in_days is not None else None
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        created = create_key(
            conn,
            tenant_id=tenant,
            scopes=parse_scopes(scopes),
            principal_id=principal,
            rate_limit_per_minute=rate_limit,
            expires_at=expires,
        )
    echo_progress(
        f"key {created.key_id} for tenant {created.tenant_id}, principal {created.principal_id}, "
        f"scopes {','.join(created.scopes)}; it is shown only now"
    )
    click.echo(created.key)


@keys.command("list")
@click.option("--tenant", required=True, help="Tenant whose keys to list.")
def keys_list(tenant: str) -> None:
    """List a tenant's keys (ids, principals, scopes, state; never secrets)."""
    import psycopg

    from procura.settings import get_settings

    settings = get_settings()
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        rows = conn.execute(
            """
            select key_id, principal_id, array_to_string(scopes, ','), rate_limit_per_minute, created_at,
                   case when revoked_at is not null then 'revoked'
                        when expires_at is not null and expires_at <= now() then 'expired'
                        else 'active' end
            from app.api_keys where tenant_id = %s order by created_at
            """,
            (tenant,),
        ).fetchall()
    for key_id, principal, scopes, limit, created, state in rows:
        click.echo(f"{key_id}  {state:<8} {principal}  {scopes}  {limit}/min  created {created:%Y-%m-%d %H:%M}")


@keys.command("revoke")
@click.argument("key_id")
def keys_revoke(key_id: str) -> None:
    """Revoke a key by its id (requests with it fail with 401 from then on)."""
    import psycopg

    from procura.auth import revoke_key
    from procura.settings import get_settings

    with psycopg.connect(get_settings().owner_url, autocommit=True) as conn:
        revoke_key(conn, key_id)
    click.echo(f"revoked {key_id}")
