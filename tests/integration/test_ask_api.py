"""``POST /v1/ask`` and ``GET /v1/traces/{id}`` through the metric API's app, keys and error shapes."""

from __future__ import annotations

from collections.abc import Iterator

import psycopg
import pytest
from fastapi.testclient import TestClient

from procura.settings import Settings
from tests.integration.conftest_ask import AS_OF, OTHER_TENANT, SEED_TENANT, World, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

VENDORS_QUESTION = "Which suppliers are approved vendors of Company A in 2026-Q1?"


@pytest.fixture(scope="module")
def keys(settings: Settings, world: World) -> dict[str, str]:
    from procura.auth import create_key

    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        return {
            tenant: create_key(owner, tenant_id=tenant, scopes=["procurement:read", "invoice:aggregate"],
                               principal_id=f"api-{tenant}").key
            for tenant in (SEED_TENANT, OTHER_TENANT)
        }


@pytest.fixture(scope="module")
def client(settings: Settings, world: World, keys: dict[str, str]) -> Iterator[TestClient]:
    from api.main import create_app
    from api.routes.ask import router as ask_router

    app = create_app(settings, registry=world.registry)
    if not any(getattr(r, "path", "") == "/v1/ask" for r in app.routes):
        app.include_router(ask_router)  # until api/main.py includes it
    app.state.ask_service = world.service
    with TestClient(app) as test_client:
        yield test_client


def bearer(keys: dict[str, str], tenant: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {keys[tenant]}"}


def test_ask_and_read_the_trace(client: TestClient, keys: dict[str, str]) -> None:
    response = client.post("/v1/ask", json={"question": VENDORS_QUESTION, "as_of": str(AS_OF)},
                           headers=bearer(keys, SEED_TENANT))
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["answer"]["status"] == "answered"
    assert body["answer"]["result"]["supplier_ids"] == ["SUP-18", "SUP-27", "SUP-31"]
    assert body["routing"]["authorization_context"]["tenant_id"] == SEED_TENANT
    trace = client.get(f"/v1/traces/{body['trace_id']}", headers=bearer(keys, SEED_TENANT))
    assert trace.status_code == 200 and trace.json()["trace_id"] == body["trace_id"]
    assert trace.json()["interface"] == "api"
    hidden = client.get(f"/v1/traces/{body['trace_id']}", headers=bearer(keys, OTHER_TENANT))
    assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "trace_not_found"


def test_tenant_cannot_be_chosen_in_the_request(client: TestClient, keys: dict[str, str]) -> None:
    response = client.post("/v1/ask", json={"question": VENDORS_QUESTION, "tenant_id": SEED_TENANT},
                           headers=bearer(keys, OTHER_TENANT))
    assert response.status_code == 422 and response.json()["error"]["code"] == "tenant_in_request"
    other = client.post("/v1/ask", json={"question": VENDORS_QUESTION + " for tenant-42", "as_of": str(AS_OF)},
                        headers=bearer(keys, OTHER_TENANT))
    assert other.status_code == 200
    assert other.json()["routing"]["authorization_context"]["tenant_id"] == OTHER_TENANT
    # tenant-17's COMP-A is not called "Company A": the words of tenant-42 resolve to nothing there.
    assert other.json()["answer"]["status"] == "clarification"
    assert "SUP-27" not in other.json()["answer"]["text"]


def test_ask_requires_a_key_and_a_question(client: TestClient, keys: dict[str, str]) -> None:
    assert client.post("/v1/ask", json={"question": VENDORS_QUESTION}).status_code == 401
    empty = client.post("/v1/ask", json={"question": "   "}, headers=bearer(keys, SEED_TENANT))
    assert empty.status_code == 422 and empty.json()["error"]["parameter"] == "question"
