"""What every probe generator needs from the running product: an API key of the probed tenant, the app in-process,
``/v1/ask`` and the governed metric called directly, and one command line.

Generators compare an ``ask`` answer with the metric the question names, called with the slot values; both go through
the same app and the same serving role, so a difference is the reading's, never the connection's."""

from __future__ import annotations

import datetime as dt
import os
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evaluation.constraint_probes import Call

SCOPES = ("invoice:aggregate", "procurement:read")


@dataclass(frozen=True)
class ProbeClient:
    """The app under test and one bearer header per probed tenant (``headers`` is the first tenant's)."""

    client: Any
    by_tenant: Mapping[str, Mapping[str, str]]

    @property
    def headers(self) -> Mapping[str, str]:
        return next(iter(self.by_tenant.values()))

    def ask(self, question: str, as_of: dt.date, tenant: str | None = None) -> tuple[str, str, Mapping[str, Any]]:
        """``/v1/ask`` as the tenant's key (default: the first tenant): the answer's status, its text (or the
        clarification question) and the whole answer."""
        headers = self.by_tenant[tenant] if tenant is not None else self.headers
        body = self.client.post("/v1/ask", headers=headers,
                                json={"question": question, "as_of": as_of.isoformat()}).json()
        answer: Mapping[str, Any] = body.get("answer", {}) if isinstance(body, dict) else {}
        return str(answer.get("status")), str(answer.get("text") or answer.get("clarification_question") or ""), answer

    def direct(self, call: Call, question: str) -> Mapping[str, Any]:
        """The governed metric ``call`` names, called directly as the first tenant's key: where a probe's expected
        answer comes from. A failed call stops the run (a probe without its expectation proves nothing)."""
        response = self.client.post(f"/v1/metrics/{call.metric}/query", headers=self.headers, json={
            "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
        if response.status_code != 200:
            raise SystemExit(f"{question!r}: direct {call.metric} call failed: {response.text[:300]}")
        body: Mapping[str, Any] = response.json()
        return body


@contextmanager
def probe_client(database: str, principal: str, tenants: Sequence[str]) -> Iterator[ProbeClient]:
    """The product's app over ``database`` with a fresh key per tenant (rate limit lifted: probes ask thousands)."""
    import psycopg
    from fastapi.testclient import TestClient

    from api.main import create_app
    from procura.auth import create_key
    from procura.settings import get_settings

    os.environ["PROCURA_DB_NAME"] = database
    get_settings.cache_clear()
    settings = get_settings()
    keys: dict[str, Mapping[str, str]] = {}
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        for tenant in tenants:
            key = create_key(conn, tenant_id=tenant, scopes=SCOPES, principal_id=principal,
                             rate_limit_per_minute=1_000_000).key
            keys[tenant] = {"Authorization": f"Bearer {key}"}
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        yield ProbeClient(client, keys)


#: Outcomes a probe run does not print under ``--show wrong``.
RIGHT = ("exact", "clar_ok")


def report(counts: Counter[tuple[str, str]], klass: str, outcome: str, question: str, expected: object,
           status: str, text: str, show: str) -> None:
    """Count one probe's outcome and print it when ``show`` asks for it: what every generator's run loop does
    after it has asked the question and worked out the expected value."""
    counts[(klass, outcome)] += 1
    if show == "all" or (show == "wrong" and outcome not in RIGHT):
        print(f"[{klass}/{outcome}] {question}\n    expected {expected}"
              f"\n    -> {status}: {text.split(' Sources:')[0][:600]}")


def cli(argv: Sequence[str] | None, *, doc: str | None, probes: Callable[[int, int], Sequence[Any]],
        run: Callable[[str, Sequence[Any], str], Counter[tuple[str, str]]],
        table: Callable[[Counter[tuple[str, str]]], str], seed: int = 1, per_class: int = 30) -> None:
    """The generators' shared command line: seed, probes per class, classes, what to show, counts as JSON."""
    from evaluation.probe_runner import arguments, finish

    args = arguments(doc, seed=seed, count=("--per-class", per_class), counts_file=True).parse_args(argv)
    found = [p for p in probes(args.seed, args.per_class) if not args.classes or p.klass in args.classes]
    counts = run(args.database, found, args.show)
    finish(counts, table(counts), args.json)
