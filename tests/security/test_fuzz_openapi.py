"""Schemathesis against the served app, from its own OpenAPI document: every route, keys of two tenants.

Each generated request is sent once with tenant-42's key and once with tenant-17's. Checks: no 5xx, every
response conforms to the schema its route declares for that status, and no body names another tenant (its
tenant id, or a document id only that tenant has). Examples per route are bounded (MAX_EXAMPLES) so the module's
work is fixed; how long it takes depends on the machine and is not asserted (speed targets live in bench/).
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, reject, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error, response_schema_conformance

from evaluation.world import ADMIN_SCOPES, DemoWorld
from tests.security.conftest import Served

pytestmark = pytest.mark.integration

TENANTS = ("tenant-42", "tenant-17")
#: Generated examples per route (each sent with both keys); ~10 routes.
MAX_EXAMPLES = 40


@pytest.fixture(scope="module")
def fuzz_schema(served: Served) -> Any:
    # Design note: from the app's own document, but not through from_asgi(): schemathesis would fetch it (and send
    # every request) with a client of its own whose lifespan opens, then closes, a second pool on the shared app.
    return schemathesis.openapi.from_dict(served.app.openapi())


@pytest.fixture(scope="module")
def fuzz_keys(world: DemoWorld) -> dict[str, str]:
    """Keys of their own (a budget no other test spends) with every scope the routes check, so the fuzzer
    reaches the handlers, not only 403."""
    from procura.auth import create_key

    with psycopg.connect(world.settings.owner_url, autocommit=True) as conn:
        return {tenant: create_key(conn, tenant_id=tenant, scopes=ADMIN_SCOPES, principal_id="fuzz",
                                   rate_limit_per_minute=100_000).key for tenant in TENANTS}


@pytest.fixture(scope="module")
def foreign_markers(world: DemoWorld) -> dict[str, list[str]]:
    """Per tenant: strings that only another tenant's data contains (tenant ids, tenant-only document ids)."""
    with psycopg.connect(world.settings.admin_url, autocommit=True) as admin:
        rows = admin.execute("select tenant_id, document_id from ingest.documents").fetchall()
    docs: dict[str, set[str]] = {}
    for tenant, document in rows:
        docs.setdefault(tenant, set()).add(document)
    markers: dict[str, list[str]] = {}
    for tenant in TENANTS:
        others = [t for t in docs if t != tenant]
        own = docs.get(tenant, set())
        markers[tenant] = sorted({*others, *(d for t in others for d in docs[t] if d not in own)})
    return markers


def _send(client: TestClient, case: Any, key: str) -> Any:
    """The generated request through the session's client (its lifespan holds the app's pool open).

    Design note: not ``case.call()``: see :func:`fuzz_schema`.
    """
    kwargs = case.as_transport_kwargs(base_url=str(client.base_url), headers={"Authorization": f"Bearer {key}"})
    kwargs.pop("cookies", None)
    try:
        return client.request(**kwargs)
    except (TypeError, ValueError, UnicodeEncodeError):
        reject()  # a request the HTTP client itself cannot encode (e.g. nested query values) never reaches the app


def test_every_route_survives_fuzzing_with_two_tenants(
    served: Served, fuzz_schema: Any, fuzz_keys: dict[str, str], foreign_markers: dict[str, list[str]]
) -> None:
    """Positive and negative examples for every operation of the document, each sent with both tenants' keys.

    Design note: one test drives Hypothesis per operation itself (rather than schemathesis' pytest plugin), so
    the example budget and the wall-clock budget are those of this one test, and every operation's failures
    are reported together.
    """
    failures: list[str] = []
    calls = [0]
    operations = [result.ok() for result in fuzz_schema.get_all_operations()]
    assert len(operations) >= 8, [op.label for op in operations]
    for operation in operations:
        strategy = st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                             operation.as_strategy(GenerationMode.NEGATIVE))

        @given(case=strategy)
        @settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
                  phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
        def fuzz(case: Any) -> None:
            for tenant, key in fuzz_keys.items():
                response = _send(served.client, case, key)
                calls[0] += 1
                case.validate_response(response, checks=[not_a_server_error, response_schema_conformance])
                leaked = [m for m in foreign_markers[tenant] if m in response.text]
                assert not leaked, f"as {tenant} the body shows {leaked[:5]}"

        try:
            fuzz()
        except Exception as exc:  # collected: one operation's failure must not hide another's
            failures.append(f"{operation.label}: {type(exc).__name__}: {str(exc)[:1500]}")
    assert not failures, "\n\n".join(failures)
    assert calls[0] >= 2 * len(operations) * min(MAX_EXAMPLES, 5), calls[0]
