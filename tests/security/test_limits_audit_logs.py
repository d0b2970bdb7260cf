"""Rate limits and result-size caps, audit rows for every call, and no secrets or raw PII in logs or search."""

from __future__ import annotations

import logging
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from evaluation.ledger import Ledger
from evaluation.world import ADMIN_SCOPES, FULL_SCOPES, DemoWorld
from tests.security.conftest import error_shape_ok
from tests.security.test_cross_tenant import METRIC_PARAMS

pytestmark = pytest.mark.integration

CALLS: dict[str, tuple[str, dict[str, Any]]] = {
    "metric": ("/v1/metrics/finance.company_spend/query", {"parameters": METRIC_PARAMS["finance.company_spend"]}),
    "search": ("/v1/search", {"query_text": "calibration requirements", "limit": 3}),
    "ask": ("/v1/ask", {"question": "What is PRD-482?", "as_of": "2026-05-15"}),
}


def _limited_key(world: DemoWorld, per_minute: int, scopes: tuple[str, ...] = FULL_SCOPES) -> tuple[str, str]:
    from procura.auth import create_key

    with psycopg.connect(world.settings.owner_url, autocommit=True) as conn:
        created = create_key(conn, tenant_id="tenant-42", scopes=scopes, principal_id="security-limits",
                             rate_limit_per_minute=per_minute)
    return created.key, created.key_id


def test_rate_limits_per_key(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    with ledger.area("limits.rate") as area:
        for label, (path, body) in CALLS.items():
            key, _ = _limited_key(world, 3)
            headers = {"Authorization": f"Bearer {key}"}
            statuses = [client.post(path, json=body, headers=headers).status_code for _ in range(3)]
            area.check(f"{label}: within budget", all(s != 429 for s in statuses), str(statuses))
            blocked = client.post(path, json=body, headers=headers)
            area.check(f"{label}: 4th request in a minute is 429 with Retry-After",
                       blocked.status_code == 429 and blocked.headers.get("retry-after", "").isdigit()
                       and error_shape_ok(blocked), f"{blocked.status_code} {dict(blocked.headers)}")
        other, _ = _limited_key(world, 3)
        fresh = client.post(CALLS["metric"][0], json=CALLS["metric"][1], headers={"Authorization": f"Bearer {other}"})
        area.check("another key of the tenant has its own budget", fresh.status_code == 200, fresh.text[:200])


def test_result_size_caps(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    headers = world.headers("tenant-42")
    with ledger.area("limits.result_caps") as area:
        wide = {"company_id": "COMP-A", "start_date": "2025-01-01", "end_date": "2027-01-01"}
        response = client.post("/v1/metrics/finance.company_spend/query", json={"parameters": wide}, headers=headers)
        body = response.json() if response.status_code == 200 else {}
        provenance = (body.get("rows") or [{}])[0].get("provenance") or {}
        area.check("metric provenance capped at 100 lines with the full count",
                   response.status_code == 200 and len(provenance.get("source_line_ids", [])) <= 100
                   and provenance.get("source_line_count", 0) > 100 and provenance.get("truncated") is True,
                   str(provenance)[:200])
        grouped = client.post("/v1/metrics/finance.company_spend/query", json={
            "parameters": wide, "group_by": ["product_code", "supplier_id"], "grain": "day"}, headers=headers)
        gbody = grouped.json() if grouped.status_code == 200 else {}
        area.check("metric rows bounded by the row cap", grouped.status_code == 200
                   and len(gbody.get("rows", [])) <= world.settings.row_cap, grouped.text[:200])
        over = client.post("/v1/search", json={"query_text": "calibration", "limit": 101}, headers=headers)
        area.check("search limit above 100 rejected", over.status_code == 422 and error_shape_ok(over), over.text[:200])
        at = client.post("/v1/search", json={"query_text": "calibration", "limit": 100}, headers=headers)
        area.check("search returns at most its limit",
                   at.status_code == 200 and len(at.json().get("results", [])) <= 100, at.text[:200])
        from graph.tools import MAX_RESULT_ROWS, ApprovedVendorsRequest

        try:
            ApprovedVendorsRequest(company_id="COMP-A", start_date="2026-01-01", end_date="2026-04-01",
                                   limit=MAX_RESULT_ROWS + 1)
            area.check("graph tool limit above the cap rejected", False, "accepted")
        except ValidationError:
            area.check("graph tool limit above the cap rejected", True)
        try:
            from router.planner import MAX_STEPS
        except ImportError as exc:
            area.check("planner step bound importable", False, repr(exc))
        else:
            seed = ("What was Company A's total spend on monitoring products supplied by its approved vendors during "
                    "the last quarter? Also summarize agreement-2026-04 and explain the calibration of PRD-482.")
            asked = client.post("/v1/ask", json={"question": seed, "as_of": "2026-05-15"}, headers=headers)
            steps = asked.json().get("routing", {}).get("execution_plan", []) if asked.status_code == 200 else None
            area.check("ask plans stay within the step bound", steps is not None and len(steps) <= MAX_STEPS,
                       f"{asked.status_code} {None if steps is None else len(steps)} steps")


def _audit_counts(world: DemoWorld, key_id: str, principal: str) -> tuple[int, int]:
    with psycopg.connect(world.settings.owner_url) as conn:
        audit = conn.execute("select count(*) from app.audit_log where key_id = %s", (key_id,)).fetchone()
        try:
            traces = conn.execute("select count(*) from app.traces where principal_id = %s", (principal,)).fetchone()
        except psycopg.errors.UndefinedTable:
            traces = (0,)
    return int(audit[0]), int(traces[0])  # type: ignore[index]


def test_audit_rows_for_every_call(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    key, key_id = _limited_key(world, 10_000, ADMIN_SCOPES)
    headers = {"Authorization": f"Bearer {key}"}
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("metric ok", *CALLS["metric"]),
        ("metric rejected", CALLS["metric"][0], {"parameters": {"company_id": "COMP-A"}}),
        ("metric unknown", "/v1/metrics/finance.nope/query", {"parameters": {}}),
        ("ask", *CALLS["ask"]),
    ]
    with ledger.area("audit.every_call") as area:
        for label, path, body in calls:
            before = _audit_counts(world, key_id, "security-limits")
            response = client.post(path, json=body, headers=headers)
            after = _audit_counts(world, key_id, "security-limits")
            area.check(f"{label} leaves an audit row", sum(after) > sum(before),
                       f"{response.status_code}: audit rows {before} -> {after}")
        with psycopg.connect(world.settings.owner_url) as conn:
            rows = conn.execute("select tenant_id, principal_id, parameter_hashes::text from app.audit_log "
                                "where key_id = %s", (key_id,)).fetchall()
        area.check("audit rows carry the key's tenant and principal",
                   bool(rows) and all(r[0] == "tenant-42" and r[1] == "security-limits" for r in rows), str(rows[:3]))
        area.check("audit rows hash parameter values", all("COMP-A" not in r[2] for r in rows), str(rows[:2]))
        plain = client.get("/v1/audit", headers=world.headers("tenant-42"))
        area.check("audit log needs tenant:admin", plain.status_code == 403, plain.text[:200])
        admin = client.get("/v1/audit?limit=1000", headers=headers)
        entries = admin.json().get("entries", []) if admin.status_code == 200 else []
        foreign = [e for e in entries if not str(e.get("principal_id", "")).startswith(("security-", "eval-tenant-42"))]
        area.check("an admin reads only its tenant's audit rows", admin.status_code == 200 and entries and not [
            e for e in foreign if "tenant-17" in str(e) or "tenant-99" in str(e)], admin.text[:200])


def test_search_leaves_an_audit_row(client: TestClient, world: DemoWorld, ledger: Ledger) -> None:
    key, key_id = _limited_key(world, 10_000, ADMIN_SCOPES)
    with ledger.area("audit.search") as area:
        before = _audit_counts(world, key_id, "security-limits")
        response = client.post(CALLS["search"][0], json=CALLS["search"][1], headers={"Authorization": f"Bearer {key}"})
        after = _audit_counts(world, key_id, "security-limits")
        area.check("search leaves an audit row", sum(after) > sum(before),
                   f"{response.status_code}: audit rows {before} -> {after}")
        with psycopg.connect(world.settings.owner_url) as conn:
            rows = conn.execute("select metric, outcome, row_count, tenant_id, principal_id, parameter_hashes::text "
                                "from app.audit_log where key_id = %s", (key_id,)).fetchall()
        found = len(response.json().get("results", [])) if response.status_code == 200 else None
        area.check("the row names the search, its outcome and result count, the key's tenant and principal",
                   len(rows) == 1 and rows[0][:5] == ("search", "ok" if found else "no_data", found, "tenant-42",
                                                      "security-limits"), f"{response.status_code} {rows}")
        area.check("the row hashes the query text instead of storing it",
                   bool(rows) and '"query_text"' in rows[0][5] and "calibration" not in rows[0][5], str(rows)[:300])
        reader, reader_id = _limited_key(world, 10_000, ("invoice:aggregate",))
        refused = client.post(CALLS["search"][0], json=CALLS["search"][1],
                              headers={"Authorization": f"Bearer {reader}"})
        with psycopg.connect(world.settings.owner_url) as conn:
            refusals = conn.execute("select outcome, error_code from app.audit_log where key_id = %s",
                                    (reader_id,)).fetchall()
        area.check("a search refused for its scope is on record too",
                   refused.status_code == 403 and refusals == [("forbidden", "missing_scope")],
                   f"{refused.status_code} {refusals}")


def test_no_secrets_or_pii_in_logs(client: TestClient, world: DemoWorld, ledger: Ledger,
                                   caplog: pytest.LogCaptureFixture) -> None:
    s = world.settings
    secrets = [v.get_secret_value() for v in (s.superuser_password, s.owner_password, s.app_password)]
    keys = list(world.keys.values())
    # A key is prk_<12 hex id>_<43-char secret>; the secret itself may contain "_", so split from the left.
    secrets += [k.split("_", 2)[2] for k in keys]
    pii = world.suppliers_pii()
    caplog.set_level(logging.DEBUG)
    headers = world.headers("tenant-42")
    with caplog.at_level(logging.DEBUG):
        for path, body in CALLS.values():
            client.post(path, json=body, headers=headers)
        client.post(CALLS["metric"][0], json=CALLS["metric"][1],
                    headers={"Authorization": "Bearer prk_0123456789ab_" + "s" * 43})
        client.post(CALLS["metric"][0], json={"parameters": {"company_id": "ap@beta.example"}}, headers=headers)
        client.post("/v1/search", json={"query_text": f"IBAN {pii[0]} contact e-mail", "limit": 10}, headers=headers)
        client.post("/v1/ask", json={"question": "What is the IBAN of Supplier Beta? My key is " + keys[0]},
                    headers=headers)
        client.post("/v1/ask", json={"question": "x" * 5000}, headers=headers)
    text = "\n".join(f"{r.getMessage()} {r.exc_text or ''} {r.args!r}" for r in caplog.records)
    with ledger.area("logs.no_secrets") as area:
        for secret in secrets:
            area.check(f"secret ...{secret[-4:]} not logged", secret not in text, "found in logs")
        area.check("no bogus key secret logged", "s" * 43 not in text, "found in logs")
    with ledger.area("logs.no_pii") as area:
        for value in pii:
            area.check(f"PII {value[:4]}... not logged", value not in text, "found in logs")
    with ledger.area("pii.search") as area:
        for value in pii[:6]:
            response = client.post("/v1/search", json={"query_text": value, "limit": 20}, headers=headers)
            area.check(f"search for {value[:4]}... does not return it", value not in response.text,
                       response.text[:200])
