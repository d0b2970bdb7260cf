"""Settings: URL derivation and secret hygiene, database-free."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from procura.settings import Settings, redact_url


def test_managed_server_urls_use_the_configured_port_and_roles() -> None:
    settings = Settings(pg_port=55555, db_name="procura_x")
    assert settings.managed_server
    assert settings.admin_url.startswith("postgresql://postgres:")
    assert settings.admin_url.endswith("@127.0.0.1:55555/procura_x")
    assert settings.app_url.startswith("postgresql://procura_app:")
    bi_login = settings.login_url("bi_acme", SecretStr("p@ss/w:rd"))
    assert bi_login == "postgresql://bi_acme:p%40ss%2Fw%3Ard@127.0.0.1:55555/procura_x"


def test_database_url_override_keeps_its_database_unless_renamed() -> None:
    settings = Settings(database_url="postgresql://admin:s3cret@db.internal:6543/finance")
    assert not settings.managed_server
    assert settings.database_name == "finance"
    assert settings.owner_url.startswith("postgresql://procura_owner:")
    assert settings.owner_url.endswith("@db.internal:6543/finance")
    assert settings.with_database("other").admin_url == "postgresql://admin:s3cret@db.internal:6543/other"


def test_placeholder_secrets_are_refused_in_production() -> None:
    with pytest.raises(ValidationError, match="local placeholder"):
        Settings(environment="production")


def test_redact_url_hides_the_password() -> None:
    assert redact_url("postgresql://u:pw@h:1/d") == "postgresql://u:***@h:1/d"
