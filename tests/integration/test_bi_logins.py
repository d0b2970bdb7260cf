"""The life of a BI login on the real server: `procura bi create-login | list | rotate | drop`, the audit rows,
names that need quoting refused, and what a dropped or rotated login can still do (nothing)."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from click.testing import CliRunner

from procura.bi import BiLoginError, create_login, drop_login, list_logins, rotate_login
from procura.cli import main
from procura.settings import Settings, get_settings
from tests.bi_logins import remove_role, temporary_bi_login, unique_login_name
from tests.conftest import unique_tenant
from tests.support.database import fresh_database

pytestmark = pytest.mark.integration


def _can_connect(url: str) -> bool:
    try:
        with psycopg.connect(url, connect_timeout=10) as conn:
            return conn.execute("select 1").fetchone() == (1,)
    except psycopg.OperationalError:
        return False


def _audit(admin_conn: psycopg.Connection, name: str) -> list[tuple[str, str, str]]:
    rows = admin_conn.execute(
        "select action, tenant_id, actor from app.bi_login_audit where role_name = %s order by audit_id", (name,)
    ).fetchall()
    return [(str(a), str(t), str(actor)) for a, t, actor in rows]


def test_create_rotate_drop_are_audited_and_take_effect(settings: Settings, admin_conn: psycopg.Connection) -> None:
    name, tenant = unique_login_name(), unique_tenant("bi")
    created = create_login(admin_conn, settings, name=name, tenant_id=tenant)
    try:
        assert created.url.startswith(f"postgresql://{name}:") and created.url.endswith(f"/{settings.database_name}")
        assert _can_connect(created.url)
        listed = {login.name: login for login in list_logins(admin_conn)}
        assert (listed[name].tenant_id, listed[name].can_login, listed[name].rotated_at) == (tenant, True, None)
        # a session open across the rotation keeps running; the old password no longer logs in
        with psycopg.connect(created.url, autocommit=True) as session:
            rotated = rotate_login(admin_conn, settings, name)
            assert session.execute("select app.current_tenant_id()").fetchone() == (tenant,)
            assert not _can_connect(created.url)
            assert _can_connect(rotated.url)
            assert {login.name: login for login in list_logins(admin_conn)}[name].rotated_at is not None
            # dropping ends the login's open sessions too
            assert drop_login(admin_conn, settings, name) == tenant
            with pytest.raises(psycopg.OperationalError):
                session.execute("select 1")
        assert not _can_connect(rotated.url)
        assert name not in {login.name for login in list_logins(admin_conn)}
        assert admin_conn.execute("select from pg_roles where rolname = %s", (name,)).fetchone() is None
        assert admin_conn.execute("select from app.bi_logins where role_name = %s", (name,)).fetchone() is None
        actor = admin_conn.execute("select session_user").fetchone()[0]
        assert _audit(admin_conn, name) == [(action, tenant, actor) for action in ("create", "rotate", "drop")]
        # the audit never holds a password
        secrets = (created.url.split(":")[2].split("@")[0], rotated.url.split(":")[2].split("@")[0])
        dump = str(admin_conn.execute("select * from app.bi_login_audit where role_name = %s", (name,)).fetchall())
        assert not any(secret in dump for secret in secrets)
    finally:
        remove_role(admin_conn, settings, name)


def test_the_password_never_reaches_the_server_in_clear(settings: Settings, admin_conn: psycopg.Connection) -> None:
    with temporary_bi_login(settings, unique_tenant("bi")) as created:
        verifier = admin_conn.execute("select rolpassword from pg_authid where rolname = %s", (created.name,))
        assert verifier.fetchone()[0].startswith("SCRAM-SHA-256$4096:")


@pytest.mark.parametrize(
    "name",
    [
        "Bi_Acme",  # upper case would need quoting
        "bi-acme",
        'bi"; drop role procura_app; --',
        "bi acme",
        "ab",
        "x" * 49,
        "1bi",
        "pg_monitor_x",
        "procura_app",
        "procura_bi_acme",
        "postgres",
        "bi_acmé",
        "",
    ],
)
def test_names_that_need_quoting_or_are_reserved_are_refused(
    settings: Settings, admin_conn: psycopg.Connection, name: str
) -> None:
    before = admin_conn.execute("select count(*) from pg_roles").fetchone()
    with pytest.raises(BiLoginError, match="login name"):
        create_login(admin_conn, settings, name=name, tenant_id="tenant-42")
    assert admin_conn.execute("select count(*) from pg_roles").fetchone() == before


@pytest.mark.parametrize("tenant", ["Tenant-42", "tenant-42' or '1'='1", "", "t" * 64])
def test_invalid_tenants_are_refused(settings: Settings, admin_conn: psycopg.Connection, tenant: str) -> None:
    with pytest.raises(BiLoginError, match="tenant"):
        create_login(admin_conn, settings, name=unique_login_name(), tenant_id=tenant)


def test_a_taken_name_is_refused_and_nothing_changes(settings: Settings, admin_conn: psycopg.Connection) -> None:
    with temporary_bi_login(settings, "tenant-42") as created:
        with pytest.raises(BiLoginError, match="taken"):
            create_login(admin_conn, settings, name=created.name, tenant_id="tenant-17")
        bound = admin_conn.execute("select tenant_id from app.bi_logins where role_name = %s", (created.name,))
        assert bound.fetchall() == [("tenant-42",)]
    with pytest.raises(BiLoginError, match="no BI login"):
        rotate_login(admin_conn, settings, unique_login_name())
    with pytest.raises(BiLoginError, match="no BI login"):
        drop_login(admin_conn, settings, unique_login_name())


def test_serving_roles_cannot_read_or_write_the_bindings(settings: Settings, bi_conn: psycopg.Connection) -> None:
    with psycopg.connect(settings.app_url, autocommit=True) as app_conn:
        for conn in (app_conn, bi_conn):
            for statement in (
                "select * from app.bi_logins",
                "insert into app.bi_logins (role_oid, role_name, tenant_id) values (1, 'x', 'tenant-17')",
                "update app.bi_logins set tenant_id = 'tenant-17'",
                "select * from app.bi_login_audit",
            ):
                with pytest.raises((psycopg.errors.InsufficientPrivilege, psycopg.errors.ReadOnlySqlTransaction)):
                    conn.execute(statement)
    with psycopg.connect(settings.owner_url, autocommit=True) as owner, pytest.raises(
        BiLoginError, match="administrator"
    ):
        # the owner cannot create logins either: creating roles is the admin's
        create_login(owner, settings, name=unique_login_name(), tenant_id="tenant-42")


def test_a_login_connects_to_its_own_database_only(base_settings: Settings, settings: Settings) -> None:
    with fresh_database(base_settings, "bi2") as other, temporary_bi_login(settings, "tenant-42") as created:
        elsewhere = created.url.replace(f"/{settings.database_name}", f"/{other.database_name}")
        with pytest.raises(psycopg.OperationalError, match="permission denied"):
            psycopg.connect(elsewhere).close()


def test_the_app_role_keeps_its_per_transaction_tenant(app_conn: psycopg.Connection) -> None:
    with app_conn.transaction():
        app_conn.execute("select app.begin_tenant_scope('tenant-17', true, null)")
        assert app_conn.execute("select app.current_tenant_id()").fetchone() == ("tenant-17",)
    assert app_conn.execute("select app.current_tenant_id()").fetchone() == (None,)


@pytest.fixture
def cli(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[CliRunner]:
    """The `procura` CLI pointed at the session's database."""
    monkeypatch.setenv("PROCURA_DB_NAME", settings.database_name)
    get_settings.cache_clear()
    yield CliRunner()
    get_settings.cache_clear()


def test_cli_create_list_rotate_drop(cli: CliRunner, settings: Settings, admin_conn: psycopg.Connection) -> None:
    name, tenant = unique_login_name(), unique_tenant("bi")
    try:
        created = cli.invoke(main, ["bi", "create-login", "--tenant", tenant, "--connection-limit", "3", name])
        assert created.exit_code == 0, created.output
        url = created.stdout.strip()
        assert url.startswith(f"postgresql://{name}:") and "\n" not in url
        assert "shown only now" in created.stderr
        with psycopg.connect(url) as conn:
            row = conn.execute(
                "select app.current_tenant_id(), rolconnlimit from pg_roles where rolname = current_user"
            ).fetchone()
            assert row == (tenant, 3)
        listed = cli.invoke(main, ["bi", "list"])
        assert listed.exit_code == 0 and f"{name}  {tenant}  active  limit 3" in listed.stdout, listed.output
        chosen = "a-chosen-password-of-tenant-" + tenant
        rotated = cli.invoke(main, ["bi", "rotate", "--password-stdin", name], input=chosen + "\n")
        assert rotated.exit_code == 0, rotated.output
        assert chosen in rotated.stdout and not _can_connect(url) and _can_connect(rotated.stdout.strip())
        dropped = cli.invoke(main, ["bi", "drop", name])
        assert dropped.exit_code == 0 and f"tenant {tenant}" in dropped.stdout, dropped.output
        assert not _can_connect(rotated.stdout.strip())
        assert [a for a, _, _ in _audit(admin_conn, name)] == ["create", "rotate", "drop"]
        again = cli.invoke(main, ["bi", "drop", name])
        assert again.exit_code != 0 and "no BI login" in again.output
    finally:
        remove_role(admin_conn, settings, name)


def test_cli_refuses_a_short_chosen_password_and_bad_names(cli: CliRunner) -> None:
    short = cli.invoke(main, ["bi", "create-login", "--tenant", "tenant-42", "--password-stdin", unique_login_name()],
                       input="short\n")
    assert short.exit_code != 0 and "password" in short.output
    quoted = cli.invoke(main, ["bi", "create-login", "--tenant", "tenant-42", 'x"; drop table y; --'])
    assert quoted.exit_code != 0 and "login name" in quoted.output
    shared = cli.invoke(main, ["db", "url", "--role", "bi"])
    assert shared.exit_code != 0 and "procura bi create-login" in shared.output
