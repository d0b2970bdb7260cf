"""Documents by id, versions in force on a date, merged passages with their facts, and the light metric path.

On the demo world (tests/integration/conftest_ask.py): ``agreement-2025-09`` has version 1 (effective 2025-09-01)
and version 2, Amendment No. 1 (effective 2026-04-20), which approves Supplier Iota; ``invoice-2026-0150-erp-replica``
is the replicated duplicate of ``invoice-2026-0150``.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import textwrap

import psycopg
import pytest

from retrieval import SearchRequest, search
from retrieval.documents import lookup_documents
from tests.integration.conftest_ask import SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]  # the session fixture, imported so pytest registers it here

BEFORE = dt.date(2026, 3, 15)
AFTER = dt.date(2026, 5, 15)


def _ask(world: World, conn: psycopg.Connection, question: str, as_of: dt.date = AFTER):  # type: ignore[no-untyped-def]
    return world.service.ask(conn, ctx(), question, as_of=as_of, interface="test")


def test_lookup_found_not_found_duplicate_and_version_in_force(world: World, app_conn: psycopg.Connection) -> None:
    ids = ["agreement-2025-09", "agreement-2099-01", "invoice-2026-0150-erp-replica", "invoice-2026-0150"]
    before = {d.document_id: d for d in lookup_documents(app_conn, ctx(), ids, valid_at=BEFORE).documents}
    assert before["agreement-2099-01"].status == "not_found"
    assert before["invoice-2026-0150-erp-replica"].status == "duplicate"
    assert before["invoice-2026-0150-erp-replica"].duplicate_of == "invoice-2026-0150"
    assert before["invoice-2026-0150"].status == "found" and before["invoice-2026-0150"].duplicate_of is None
    agreement = before["agreement-2025-09"]
    assert agreement.status == "found" and agreement.active_version == 2
    assert [(v.document_version, v.effective_date) for v in agreement.versions] == [
        (1, dt.date(2025, 9, 1)), (2, dt.date(2026, 4, 20))]
    assert agreement.version_in_force == 1
    after = lookup_documents(app_conn, ctx(), ["agreement-2025-09"], valid_at=AFTER).documents[0]
    assert after.version_in_force == 2
    # another tenant's documents are not found (RLS)
    other = lookup_documents(app_conn, ctx("tenant-17"), ["manual-prd-486"]).documents
    assert [d.status for d in other] in ([], ["not_found"])


def test_ask_says_not_found_and_presents_no_passages(world: World, app_conn: psycopg.Connection) -> None:
    result = _ask(world, app_conn, "What does agreement-2099-01 say about payment terms?")
    assert result.answer.status == "not_found"
    assert result.answer.text == "Document agreement-2099-01 was not found."
    assert result.answer.sources == () and result.answer.evidence == ()


def test_ask_flags_a_duplicate_and_cites_only_it(world: World, app_conn: psycopg.Connection) -> None:
    result = _ask(world, app_conn, "Show invoice-2026-0150-erp-replica")
    assert "flagged as a duplicate of invoice-2026-0150" in result.answer.text
    assert {e.document_id for e in result.answer.evidence} <= {"invoice-2026-0150-erp-replica"}


@pytest.mark.parametrize(("as_of", "version", "mentions_iota"), [(BEFORE, 1, False), (AFTER, 2, True)])
def test_an_amendment_is_evidence_only_from_its_effective_date(
    world: World, app_conn: psycopg.Connection, as_of: dt.date, version: int, mentions_iota: bool
) -> None:
    request = SearchRequest.model_validate({
        "query_text": "approved vendors approval Supplier Iota cabling", "retrieval_modes": ["bm25"],
        "filters": {"document_ids": ["agreement-2025-09"], "valid_at": as_of.isoformat()}, "limit": 10})
    response = search(app_conn, ctx(), request, None)
    assert response.results, "the version in force must still be found"
    assert {r.document_version for r in response.results} == {version}
    assert all(r.in_force_version == (version == 1) for r in response.results)
    assert any("Iota" in r.text for r in response.results) is mentions_iota
    assert not any("Amendment No. 1" in r.text for r in response.results) or mentions_iota
    assert response.documents[0].version_in_force == version
    # through ask: the question's document, dated with as_of
    answer = _ask(world, app_conn, "Which suppliers does agreement-2025-09 approve for cabling?", as_of=as_of)
    snippets = " ".join(e.snippet for e in answer.answer.evidence)
    assert answer.answer.evidence and ("Iota" in snippets) is mentions_iota
    assert f"version {version}" in answer.answer.text


@pytest.mark.parametrize(("question", "version"), [
    ("What warranty period did agreement-2025-09 set as of 2026-03-15?", 1),
    ("What warranty period did Company B's framework agreement set in Q1 2026?", 1),
    ("What warranty period does Company B's framework agreement set?", 2),
])
def test_a_date_in_the_question_dates_the_evidence(
    world: World, app_conn: psycopg.Connection, question: str, version: int
) -> None:
    # asked after the amendment took effect (18 months instead of 12): a date in the question, not the as-of
    # date, picks the version quoted
    answer = _ask(world, app_conn, question, as_of=AFTER).answer
    snippets = " ".join(e.snippet for e in answer.evidence)
    assert f"warranty period is {12 if version == 1 else 18} months" in snippets
    assert f"warranty period is {18 if version == 1 else 12} months" not in snippets
    if "agreement-2025-09" in question:
        assert "on 2026-03-15 version 1" in answer.text
    elif version == 1:
        assert answer.text.endswith("Passages are quoted from the document versions in force on 2026-03-31.")


@pytest.mark.parametrize(("question", "fact"), [
    # the manual's section 7.3 is a sibling of the hit's heading chunk: the snippet must reach the sentence
    ("How often must PRD-482 be calibrated?", "every 12 months"),
    # an identifier with a text need: the identifier matches every passage of the manual alike, the words find
    # the one that holds the fact
    ("max loop resistance of the PRD-482", "750"),
    # a named product's manual or a named agreement: searched inside it on the topic words alone (the entity
    # span consumed, German mapped), the snippet cut around the sentence holding the fact
    ("calibration interval for the DPS-482 differential pressure sensor per the manual", "required every 12 months"),
    ("what is the tightening torque of the process connection of PRD-482?", "Tighten the process connection to"),
    ("Per the MC-4 / MC-8 monitoring controller manual, what's the allowed ambient temperature range?",
     "Ambient temperature during operation"),
    ("Welches Zahlungsziel steht im Vertrag agreement-2025-12?", "Payment is due"),
    ("since when is the current version of agreement-2025-09 in force?", "2026-04-20"),
])
def test_snippets_hold_the_cited_fact_and_never_repeat_text(
    world: World, app_conn: psycopg.Connection, question: str, fact: str
) -> None:
    result = _ask(world, app_conn, question)
    evidence = result.answer.evidence
    assert evidence
    assert any(fact in e.snippet for e in evidence), [e.snippet[:200] for e in evidence]
    # no sentence of one document is shown twice across the snippets
    seen: set[tuple[str, str]] = set()
    for item in evidence:
        for sentence in (s.strip(" …") for s in item.snippet.split(". ")):
            if len(sentence) >= 40:
                assert (item.document_id, sentence) not in seen, sentence
                seen.add((item.document_id, sentence))


_PROBE = textwrap.dedent("""
    import datetime as dt, sys
    from pathlib import Path
    import procura.cli, router.cli  # the CLI's own modules
    from procura.db.session import AuthContext
    from procura.settings import get_settings
    from router.runtime import RouterRuntime
    from semantic.loader import load_registry
    from semantic.schema import load_manifest

    # what `procura ask --rules-only --tenant T` runs (router.cli.ask), with the test world's dbt artifacts
    runtime = RouterRuntime.open(get_settings(), registry=load_registry(load_manifest(Path(sys.argv[1]))),
                                 use_classifier=False, max_size=1)
    try:
        auth = AuthContext(tenant_id=sys.argv[2], principal_id="cli:test",
                           scopes=frozenset({"procurement:read", "invoice:aggregate"}))
        with runtime.pool.connection() as conn:
            result = runtime.ask_service.ask(conn, auth, "What was Company A's total spend in Q1 2026?",
                                             as_of=dt.date(2026, 5, 15), interface="cli")
    finally:
        runtime.close()
    assert result.answer.status == "answered", result.answer.text
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in (
        "torch", "sentence_transformers", "transformers", "sklearn", "pandas", "great_expectations", "dbt",
        "metricflow", "mcp"))
    assert not heavy, heavy[:10]
    print(result.answer.result.get("total_spend"))
""")


def test_a_rules_only_metric_ask_loads_no_model(world: World) -> None:
    manifest = world.corpus.parent / "dbt-target" / "manifest.json"
    env = {**os.environ, "PROCURA_DB_NAME": world.settings.database_name}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(manifest), SEED_TENANT], capture_output=True,
                          text=True, timeout=180, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip()


def test_mcp_documents_lookup_and_search_report_the_named_documents(
    world: World, app_conn: psycopg.Connection
) -> None:
    import anyio
    from mcp.server.mcpserver.exceptions import ToolError
    from psycopg_pool import ConnectionPool

    from router.mcp_server import build_server
    from router.runtime import RouterRuntime

    pool = ConnectionPool(world.settings.app_url, min_size=1, max_size=2, kwargs={"autocommit": True}, open=True)
    try:
        server = build_server(RouterRuntime(pool=pool, ask_service=world.service, env=world.service.env),
                              fixed_auth=ctx())

        async def call(arguments: dict[str, object]) -> object:
            return await server.call_tool("documents.lookup", arguments)

        lookup = anyio.run(call, {
            "document_ids": ["agreement-2025-09", "agreement-2099-01", "invoice-2026-0150-erp-replica"],
            "valid_at": BEFORE.isoformat()})
        with pytest.raises(ToolError, match="document_ids"):
            anyio.run(call, {"document_ids": ["NOT AN ID"]})
    finally:
        pool.close()
    assert not lookup.is_error  # type: ignore[attr-defined]
    data = lookup.structured_content or json.loads(lookup.content[0].text)  # type: ignore[attr-defined]
    statuses = {d["document_id"]: (d["status"], d["duplicate_of"], d["version_in_force"]) for d in data["documents"]}
    assert statuses == {"agreement-2025-09": ("found", None, 1), "agreement-2099-01": ("not_found", None, None),
                        "invoice-2026-0150-erp-replica": ("duplicate", "invoice-2026-0150", 1)}
    # the search response reports them too (REST /v1/search and `procura search` return this model)
    response = search(app_conn, ctx(), SearchRequest.model_validate({
        "query_text": "payment terms", "retrieval_modes": ["bm25"],
        "filters": {"document_ids": ["agreement-2099-01", "agreement-2025-09"]}}), None)
    assert [(d.document_id, d.status) for d in response.documents] == [("agreement-2099-01", "not_found"),
                                                                       ("agreement-2025-09", "found")]
