"""Oversized inputs, malformed JSON and unicode edge cases on every POST route: a clear 4xx in the API's error
shape (or a normal answer), never a 500, a hang, or internals in the response."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from evaluation.ledger import Ledger
from evaluation.world import DemoWorld
from tests.security.conftest import error_shape_ok
from tests.security.test_cross_tenant import METRIC_PARAMS

pytestmark = pytest.mark.integration

ROUTES: dict[str, dict[str, Any]] = {
    "/v1/metrics/finance.company_spend/query": {"parameters": METRIC_PARAMS["finance.company_spend"]},
    "/v1/search": {"query_text": "calibration requirements", "limit": 5},
    "/v1/ask": {"question": "What is PRD-482?", "as_of": "2026-05-15"},
}
UNICODE = {
    "nul": "PRD-482\u0000",
    "lone surrogate": "PRD-\ud800482",
    "zero width": "PRD\u200b-482",
    "rtl override": "\u202ePRD-482",
    "full width": "ＰＲＤ-４８２",
    "combining": "PRD-482\u0301\u0301\u0301",
    "emoji": "PRD-482 🔥🧨",
    "bom": "\ufeffPRD-482",
    "long grapheme": "e" + "\u0301" * 500,
    "newlines": "PRD-482\r\n\r\nSELECT 1",
}


def _held(response: Any, started: float, limit_s: float = 15, sent: str = "") -> bool:
    ok_status = response.status_code < 500 and response.status_code not in (401, 403)
    shaped = response.status_code < 400 or error_shape_ok(response, sent)
    return ok_status and shaped and time.monotonic() - started < limit_s


def _post(client: TestClient, path: str, headers: dict[str, str], **kwargs: Any) -> tuple[Any, float]:
    started = time.monotonic()
    return client.post(path, headers=headers, **kwargs), started


def test_oversized_inputs(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    headers = world.headers("tenant-42")
    with ledger.area("input.oversized") as area:
        cases: list[tuple[str, str, Any]] = [
            ("/v1/ask", "question 100k chars", {"question": "What is PRD-482? " * 6000}),
            ("/v1/ask", "question 2001 chars", {"question": "x" * 2001}),
            ("/v1/search", "query_text 1 MB", {"query_text": "calibration " * 90000}),
            ("/v1/search", "limit 10^9", {"query_text": "x", "limit": 10**9}),
            ("/v1/search", "5000 product codes", {"query_text": "x", "identifiers": {
                "product_codes": [f"PRD-{i}" for i in range(5000)]}}),
            ("/v1/metrics/finance.aggregate_spend/query", "100k supplier ids", {"parameters": {
                **METRIC_PARAMS["finance.aggregate_spend"], "supplier_ids": [f"SUP-{i}" for i in range(100_000)]}}),
            ("/v1/metrics/finance.company_spend/query", "1 MB company id", {"parameters": {
                **METRIC_PARAMS["finance.company_spend"], "company_id": "C" * 1_000_000}}),
            ("/v1/metrics/finance.company_spend/query", "deeply nested", {"parameters": {
                **METRIC_PARAMS["finance.company_spend"], "x": _nested(200)}}),
        ]
        for path, label, body in cases:
            response, started = _post(client, path, headers, json=body)
            area.check(f"{path} {label}", _held(response, started) and response.status_code in (413, 422, 400),
                       f"{response.status_code} {response.text[:200]}")


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = {"a": value}
    return value


def test_malformed_json_on_every_post_route(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    headers = {**world.headers("tenant-42"), "Content-Type": "application/json"}
    bodies = {
        "truncated": b'{"question": "What',
        "not json": b"hello",
        "array": b"[]",
        "null": b"null",
        "number": b"42",
        "trailing comma": b'{"question": "x",}',
        "duplicate keys": b'{"question": "What is PRD-482?", "question": "x", "tenant_id": "tenant-17"}',
        "invalid utf-8": b'{"question": "\xff\xfe"}',
        "NaN": b'{"question": NaN, "parameters": {"threshold": NaN}}',
        "empty": b"",
    }
    with ledger.area("input.malformed_json") as area:
        for path in ROUTES:
            for label, raw in bodies.items():
                response, started = _post(client, path, headers, content=raw)
                area.check(f"{path} {label}", _held(response, started) and response.status_code in (400, 422),
                           f"{response.status_code} {response.text[:200]}")
            response, started = _post(client, path, {**headers, "Content-Type": "text/plain"},
                                      content=b"question=What is PRD-482?")
            area.check(f"{path} wrong content type",
                       _held(response, started) and response.status_code in (400, 415, 422),
                       f"{response.status_code} {response.text[:200]}")


def test_unicode_edge_cases(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    headers = world.headers("tenant-42")
    with ledger.area("input.unicode") as area:
        for label, text in UNICODE.items():
            for path, body in (
                ("/v1/ask", {"question": f"What is {text}?", "as_of": "2026-05-15"}),
                ("/v1/search", {"query_text": text, "limit": 5}),
                ("/v1/search", {"query_text": "x", "identifiers": {"product_codes": [text]}}),
                ("/v1/metrics/catalog.unit_price/query", {"parameters": {
                    **METRIC_PARAMS["catalog.unit_price"], "product_code": text}}),
                ("/v1/metrics/finance.company_spend/query", {"parameters": {
                    **METRIC_PARAMS["finance.company_spend"], "company_id": text}}),
            ):
                try:
                    response, started = _post(client, path, headers, json=body)
                except UnicodeEncodeError:  # the client itself cannot send a lone surrogate as JSON
                    raw = ('{"question": "What is PRD-\\ud800482?"}' if path == "/v1/ask" else
                           '{"query_text": "PRD-\\ud800482"}').encode()
                    response, started = _post(client, path, {**headers, "Content-Type": "application/json"},
                                              content=raw)
                area.check(f"{path} {label} {str(body)[:40]}", _held(response, started, sent=text),
                           f"{response.status_code} {response.text[:200]}")
