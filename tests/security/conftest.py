"""Fixtures of the security suite: the demo world (all three tenants, end to end), the served API, the ledger.

The world is the demo corpus ingested, validated and built into the session's fresh database
(:func:`evaluation.world.prepare_world`, shared with the reliability suite). The API is the product's own
``api.main.create_app``; routes another area ships as a router module but that the app does not mount yet are
mounted here so their attack cases still run, and the missing mount is itself a failed case.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from evaluation.cli import security_summary_path
from evaluation.ledger import Ledger
from evaluation.world import DemoWorld, mount_missing
from procura.settings import Settings


@pytest.fixture(scope="session")
def world(demo_world: DemoWorld) -> DemoWorld:
    """The demo corpus loaded end to end into a database of its own (tests/conftest.py: built once per session,
    shared with the reliability suite and the metrics seed)."""
    return demo_world


@pytest.fixture(scope="session")
def ledger(settings: Settings) -> Iterator[Ledger]:
    """Counts every attack case; written to security_summary.json for `procura eval`'s report."""
    book = Ledger()
    yield book
    book.write(security_summary_path(settings.home))


@dataclass
class Served:
    """The app under test and what had to be mounted by hand."""

    app: Any
    client: TestClient
    unmounted: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="session")
def served(world: DemoWorld) -> Iterator[Served]:
    """The product's API (plus any expected-but-unmounted route) behind a test client."""
    # Every case of the session comes from one source ("testclient") and many send bad keys on purpose; the
    # failed-authentication throttle is tested on an app of its own (test_hardening), not here.
    app = world.create_app(failed_auth_per_minute=1_000_000)
    problems = mount_missing(app)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield Served(app, client, problems)


@pytest.fixture(scope="session")
def client(served: Served) -> TestClient:
    return served.client


def truth(world: DemoWorld, name: str) -> dict[str, Any]:
    """A ground-truth question by name."""
    for question in world.ground_truth["questions"]:
        if question["name"] == name:
            return question  # type: ignore[no-any-return]
    raise KeyError(name)


def error_shape_ok(response: Any, sent: str = "") -> bool:
    """A 4xx/5xx response in the API's one error shape, without internals.

    ``sent`` is what the request carried: echoing the caller's own input back in a validation message is not a
    leak, so a token that appears in it is not held against the response.
    """
    try:
        body = response.json()
    except ValueError:
        return False
    if not (isinstance(body, dict) and isinstance(body.get("error"), dict) and "code" in body["error"]):
        return False
    text = response.text.lower()
    sent = sent.lower()
    return not any(leak in text and leak not in sent
                   for leak in ("traceback", "psycopg", 'file "', "select ", "cypher(", "marts.", "ag_catalog"))
