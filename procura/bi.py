"""Per-tenant BI logins: one Postgres LOGIN role per BI tool and tenant, bound to the tenant in the database.

A login is a member of the NOLOGIN group ``procura_bi`` (SELECT on the marts) and has a row in
``app.bi_logins`` (migration 0030) that fixes its tenant: ``app.current_tenant_id()`` returns that tenant for
the login's sessions whatever they set. Every function here takes a superuser connection (creating roles needs
it; the owner role cannot), runs one transaction and writes one ``app.bi_login_audit`` row. Passwords are sent
to the server as SCRAM-SHA-256 verifiers, so the plain text never reaches the server or its logs.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

import psycopg
from psycopg import sql
from pydantic import SecretStr

from procura.db.session import TENANT_ID_PATTERN
from procura.errors import ProcuraError
from procura.settings import BI_ROLE, Settings

#: Lower-case letters, digits and underscores, starting with a letter: the name is used unquoted in URLs and
#: BI tool forms, so nothing that needs quoting is accepted.
LOGIN_NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{2,47}$")
_RESERVED_PREFIXES = ("pg_", "procura", "postgres")
_PASSWORD_PATTERN = re.compile(r"^[\x21-\x7e]{16,200}$")
_SCRAM_ITERATIONS = 4096

DEFAULT_STATEMENT_TIMEOUT_MS = 30_000
DEFAULT_CONNECTION_LIMIT = 5


class BiLoginError(ProcuraError):
    """A BI login name, tenant or password is invalid, or the login does not exist (or already does)."""


@dataclass(frozen=True)
class LoginDefaults:
    """Session defaults set on a login for its database (the login may change them for its own session only:
    they are defaults, not privileges; what it may read is decided by grants and row-level security)."""

    statement_timeout_ms: int = DEFAULT_STATEMENT_TIMEOUT_MS
    connection_limit: int = DEFAULT_CONNECTION_LIMIT

    def __post_init__(self) -> None:
        if not 100 <= self.statement_timeout_ms <= 3_600_000:
            raise BiLoginError("statement timeout must be between 100 ms and 1 hour")
        if not 1 <= self.connection_limit <= 1000:
            raise BiLoginError("connection limit must be between 1 and 1000")


@dataclass(frozen=True)
class CreatedLogin:
    """A login as created or rotated: the URL carries the password and is shown once."""

    name: str
    tenant_id: str
    url: str


@dataclass(frozen=True)
class BiLogin:
    """A login as listed (never its password)."""

    name: str
    tenant_id: str
    created_at: dt.datetime
    rotated_at: dt.datetime | None
    can_login: bool
    connection_limit: int


def validate_login_name(name: str) -> str:
    """The name itself when it is a valid BI login name, else :class:`BiLoginError`.

    >>> validate_login_name("bi_acme_metabase")
    'bi_acme_metabase'
    """
    if not LOGIN_NAME_PATTERN.match(name):
        raise BiLoginError(
            f"login name {name!r}: use 3-48 lower-case letters, digits and underscores, starting with a letter"
        )
    if name.startswith(_RESERVED_PREFIXES):
        raise BiLoginError(f"login name {name!r}: names starting with pg_, procura or postgres are reserved")
    return name


def validate_password(password: str) -> str:
    """A chosen password: 16-200 printable ASCII characters without spaces (URL- and SCRAM-safe)."""
    if not _PASSWORD_PATTERN.match(password):
        raise BiLoginError("password: use 16-200 printable ASCII characters without spaces")
    return password


def generate_password() -> str:
    """A random 256-bit password, URL-safe."""
    return secrets.token_urlsafe(32)


def scram_verifier(password: str, *, salt: bytes | None = None, iterations: int = _SCRAM_ITERATIONS) -> str:
    """The SCRAM-SHA-256 verifier Postgres stores for ``password`` (RFC 5802/7677), computed on the client.

    Passwords are printable ASCII (:func:`validate_password`), which SASLprep leaves unchanged.
    """
    salt = secrets.token_bytes(16) if salt is None else salt
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, iterations)
    client_key = hmac.digest(salted, b"Client Key", "sha256")
    stored_key = hashlib.sha256(client_key).digest()
    server_key = hmac.digest(salted, b"Server Key", "sha256")

    def b64(raw: bytes) -> str:
        return base64.b64encode(raw).decode()

    return f"SCRAM-SHA-256${iterations}:{b64(salt)}${b64(stored_key)}:{b64(server_key)}"


def _tenant(tenant_id: str) -> str:
    if not TENANT_ID_PATTERN.match(tenant_id):
        raise BiLoginError(f"tenant {tenant_id!r}: lower-case letters, digits and '-', at most 63 characters")
    return tenant_id


def _audit(conn: psycopg.Connection, action: str, name: str, tenant_id: str) -> None:
    conn.execute(
        "insert into app.bi_login_audit (action, role_name, tenant_id) values (%s, %s, %s)",
        (action, name, tenant_id),
    )


def _bound_tenant(conn: psycopg.Connection, name: str, database: str) -> str:
    row = conn.execute(
        "select tenant_id from app.bi_logins where role_name = %s for update", (name,)
    ).fetchone()
    if row is None:
        raise BiLoginError(f"no BI login {name!r} in database {database}")
    return str(row[0])


def create_login(
    admin_conn: psycopg.Connection,
    settings: Settings,
    *,
    name: str,
    tenant_id: str,
    password: str | None = None,
    defaults: LoginDefaults = LoginDefaults(),
) -> CreatedLogin:
    """Create the LOGIN role ``name`` for ``tenant_id`` in ``settings``' database.

    The role is a member of ``procura_bi`` (inheriting its SELECT on the marts, without the right to SET ROLE to
    it), may connect to this database only, and starts every session read-only, with ``search_path = marts``,
    the statement timeout and the connection limit of ``defaults``.

    Args:
        admin_conn: a superuser connection to the database, in autocommit mode.
        settings: where the URL points (host, port, database).
        name: the login name (:func:`validate_login_name`).
        tenant_id: the tenant every session of the login is bound to.
        password: a chosen password; a random one when None.
        defaults: session defaults and connection limit.

    Returns:
        The login with its URL (the only time the password is shown).
    """
    name, tenant_id = validate_login_name(name), _tenant(tenant_id)
    password = generate_password() if password is None else validate_password(password)
    database = settings.database_name
    try:
        _create(admin_conn, name, tenant_id, password, database, defaults)
    except psycopg.errors.DuplicateObject as exc:  # created concurrently between the check and CREATE ROLE
        raise BiLoginError(f"login name {name!r} is taken (roles are shared by every database of the server)") from exc
    except psycopg.errors.InsufficientPrivilege as exc:
        raise BiLoginError(f"creating BI login {name!r} needs the administrator's connection: {exc}") from exc
    return CreatedLogin(name, tenant_id, _url(settings, name, password))


def _create(
    admin_conn: psycopg.Connection, name: str, tenant_id: str, password: str, database: str, defaults: LoginDefaults
) -> None:
    role = sql.Identifier(name)
    with admin_conn.transaction():
        if admin_conn.execute("select from pg_roles where rolname = %s", (name,)).fetchone() is not None:
            raise BiLoginError(f"login name {name!r} is taken (roles are shared by every database of the server)")
        admin_conn.execute(
            sql.SQL(
                "create role {} login nosuperuser nocreatedb nocreaterole nobypassrls noreplication inherit "
                "connection limit {} password {}"
            ).format(role, sql.Literal(defaults.connection_limit), sql.Literal(scram_verifier(password)))
        )
        admin_conn.execute(
            sql.SQL("grant {} to {} with inherit true, set false").format(sql.Identifier(BI_ROLE), role)
        )
        admin_conn.execute(sql.SQL("grant connect on database {} to {}").format(sql.Identifier(database), role))
        for setting, value in (
            ("default_transaction_read_only", "on"),
            ("search_path", "marts"),
            ("statement_timeout", f"{defaults.statement_timeout_ms}ms"),
            ("idle_in_transaction_session_timeout", "10min"),
        ):
            admin_conn.execute(
                sql.SQL("alter role {} in database {} set {} = {}").format(
                    role, sql.Identifier(database), sql.Identifier(setting), sql.Literal(value)
                )
            )
        admin_conn.execute(
            "insert into app.bi_logins (role_oid, role_name, tenant_id) "
            "select oid, rolname, %s from pg_roles where rolname = %s",
            (tenant_id, name),
        )
        _audit(admin_conn, "create", name, tenant_id)


def rotate_login(
    admin_conn: psycopg.Connection, settings: Settings, name: str, *, password: str | None = None
) -> CreatedLogin:
    """Give the login a new password (sessions already open keep running); returns the new URL."""
    name = validate_login_name(name)
    password = generate_password() if password is None else validate_password(password)
    with admin_conn.transaction():
        tenant_id = _bound_tenant(admin_conn, name, settings.database_name)
        admin_conn.execute(
            sql.SQL("alter role {} password {}").format(sql.Identifier(name), sql.Literal(scram_verifier(password)))
        )
        admin_conn.execute("update app.bi_logins set rotated_at = now() where role_name = %s", (name,))
        _audit(admin_conn, "rotate", name, tenant_id)
    return CreatedLogin(name, tenant_id, _url(settings, name, password))


def drop_login(admin_conn: psycopg.Connection, settings: Settings, name: str) -> str:
    """Drop the login, its binding and its sessions; returns the tenant it was bound to."""
    name = validate_login_name(name)
    database = settings.database_name
    role = sql.Identifier(name)
    with admin_conn.transaction():
        tenant_id = _bound_tenant(admin_conn, name, database)
        oid = admin_conn.execute("select oid from pg_roles where rolname = %s", (name,)).fetchone()
        admin_conn.execute("delete from app.bi_logins where role_name = %s", (name,))
        if oid is not None:
            # whatever the login was granted or came to own in this database (CONNECT, its session defaults)
            admin_conn.execute(sql.SQL("drop owned by {}").format(role))
            admin_conn.execute(sql.SQL("alter role {} in database {} reset all").format(role, sql.Identifier(database)))
            admin_conn.execute(sql.SQL("drop role {}").format(role))
        _audit(admin_conn, "drop", name, tenant_id)
    if oid is not None:
        # After the commit: a session of the dropped role would otherwise keep running.
        admin_conn.execute("select pg_terminate_backend(pid) from pg_stat_activity where usesysid = %s", (oid[0],))
    return tenant_id


def list_logins(admin_conn: psycopg.Connection) -> list[BiLogin]:
    """The BI logins of this database, by name."""
    rows = admin_conn.execute(
        """
        select b.role_name, b.tenant_id, b.created_at, b.rotated_at,
               coalesce(r.rolcanlogin, false), coalesce(r.rolconnlimit, 0)
        from app.bi_logins as b left join pg_roles as r on r.oid = b.role_oid
        order by b.role_name
        """
    ).fetchall()
    return [BiLogin(str(n), str(t), c, rot, bool(can), int(limit)) for n, t, c, rot, can, limit in rows]


def _url(settings: Settings, name: str, password: str) -> str:
    return settings.login_url(name, SecretStr(password))
