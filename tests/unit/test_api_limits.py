"""Request limits, keyed hashes and the failed-authentication throttle, without a database."""

from __future__ import annotations

import json

import pytest

from procura.access import Access, FailureThrottle
from procura.auth import Principal
from procura.db.session import AuthContext
from procura.errors import AuthenticationError, RateLimitedError
from procura.keyed import keyed_hex
from procura.limits import bounded, check_body, check_target, unsafe_text
from semantic.audit import hash_value


def test_unstorable_text_is_found_anywhere_in_a_json_body() -> None:
    assert unsafe_text({"a": [{"b": "x\x00"}]}) == "body.a.0.b"
    assert unsafe_text({"a": "\ud83d"}) == "body.a"
    assert unsafe_text({"\x00": 1}) == "body.\x00"
    assert unsafe_text({"a": "\U0001f600 fine", "n": 1, "z": None}) is None


def test_body_check_decodes_only_escaped_bodies() -> None:
    assert check_body(b'{"q": "plain"}') is None
    assert check_body(b'{"q": "\\u00e9"}') is None
    status, body = check_body(json.dumps({"q": "a\x00"}).encode()) or (0, b"")
    assert status == 422 and json.loads(body)["error"]["parameter"] == "body.q"
    assert check_body(json.dumps({"q": "\ud800"}).encode()) is not None
    assert check_body(b'{"q": "\\u0000') is None  # invalid JSON is the route's 400


def test_target_check_refuses_nul_and_surrogate_escapes_and_long_queries() -> None:
    assert check_target({"raw_path": b"/v1/traces/%00", "query_string": b""}) is not None
    assert check_target({"raw_path": b"/v1/x", "query_string": b"q=%ED%A0%80"}) is not None
    assert check_target({"raw_path": b"/v1/x", "query_string": b"q=" + b"a" * 5000})[0] == 414  # type: ignore[index]
    assert check_target({"raw_path": b"/v1/x", "query_string": b"limit=5&q=%C3%A9"}) is None


def test_echo_is_bounded() -> None:
    assert len(bounded("x" * 1_000_000)) <= 121


def test_audit_hashes_are_keyed() -> None:
    assert hash_value("EUR") == keyed_hex("audit-parameter", '"EUR"')
    assert keyed_hex("audit-parameter", '"EUR"', b"one") != keyed_hex("audit-parameter", '"EUR"', b"two")


def test_failed_authentications_are_throttled_per_source() -> None:
    now = [0.0]
    principal = Principal(AuthContext("tenant-42", "p"), "abc", 1000)

    def lookup(key: str | None) -> Principal:
        if key != "good":
            raise AuthenticationError("invalid")
        return principal

    access = Access(lookup, failures=FailureThrottle(per_minute=3, clock=lambda: now[0]))
    for _ in range(3):
        with pytest.raises(AuthenticationError):
            access.admit("bad", "10.0.0.1")
    with pytest.raises(RateLimitedError):
        access.admit("good", "10.0.0.1")
    assert access.admit("good", "10.0.0.2") == principal  # another source is not affected
    now[0] = 61.0
    assert access.admit("good", "10.0.0.1") == principal  # the window slides
