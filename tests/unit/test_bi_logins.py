"""BI login names, passwords and SCRAM verifiers, database-free."""

from __future__ import annotations

import base64
import re

import pytest

from procura.bi import (
    BiLoginError,
    LoginDefaults,
    generate_password,
    scram_verifier,
    validate_login_name,
    validate_password,
)


@pytest.mark.parametrize("name", ["bi_acme", "metabase_42", "abc", "a" * 48])
def test_plain_names_are_accepted(name: str) -> None:
    assert validate_login_name(name) == name


@pytest.mark.parametrize("name", ["BI", "bi-x", "bi x", "bi;x", 'bi"x', "_bi", "pg_x", "procura_x", "postgres1",
                                  "a" * 49, "ab", "bi\nx"])
def test_names_needing_quotes_or_reserved_are_refused(name: str) -> None:
    with pytest.raises(BiLoginError, match="login name"):
        validate_login_name(name)


def test_generated_passwords_are_long_url_safe_and_valid() -> None:
    passwords = {generate_password() for _ in range(20)}
    assert len(passwords) == 20
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{43}", p) and validate_password(p) == p for p in passwords)


@pytest.mark.parametrize("password", ["short", "x" * 15, "with a space in it ok", "ünïcode-password-123", "x" * 201])
def test_chosen_passwords_must_be_long_printable_ascii(password: str) -> None:
    with pytest.raises(BiLoginError, match="password"):
        validate_password(password)


def test_scram_verifier_has_postgres_format_and_depends_on_the_salt() -> None:
    salt = bytes(range(16))
    verifier = scram_verifier("correct-horse-battery-staple", salt=salt)
    assert verifier == scram_verifier("correct-horse-battery-staple", salt=salt)
    assert verifier != scram_verifier("correct-horse-battery-staple")
    match = re.fullmatch(r"SCRAM-SHA-256\$4096:([^$]+)\$([^:]+):(.+)", verifier)
    assert match is not None
    assert base64.b64decode(match.group(1)) == salt
    assert len(base64.b64decode(match.group(2))) == len(base64.b64decode(match.group(3))) == 32
    assert "correct-horse" not in verifier


def test_login_defaults_are_bounded() -> None:
    assert LoginDefaults().statement_timeout_ms == 30_000
    with pytest.raises(BiLoginError, match="statement timeout"):
        LoginDefaults(statement_timeout_ms=0)
    with pytest.raises(BiLoginError, match="connection limit"):
        LoginDefaults(connection_limit=0)
