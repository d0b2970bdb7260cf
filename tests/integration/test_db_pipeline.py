"""procura.db.pipeline against the real server: one implicit transaction and one Sync for several statements,
psycopg's own error classes, statements prepared once per connection, and a clean connection after a failure."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest
from psycopg import errors as pg_errors

from procura.db.pipeline import aexecute_pipelined, execute_pipelined
from procura.db.session import idle_autocommit
from procura.settings import Settings

pytestmark = pytest.mark.integration

_SET = "select set_config('app.pipeline_probe', %(value)s, true)"
_GET = "select current_setting('app.pipeline_probe', true), txid_current_if_assigned() is null"


def _syncs(trace: Path) -> int:
    return sum(1 for line in trace.read_text().splitlines() if "\tF\t" in line and "\tSync" in line)


def test_the_statements_share_one_implicit_transaction_and_one_sync(
    app_conn: psycopg.Connection, tmp_path: Path
) -> None:
    trace = tmp_path / "trace.txt"
    with trace.open("w") as sink:
        app_conn.pgconn.trace(sink.fileno())
        try:
            rows = execute_pipelined(app_conn, [(_SET, {"value": "seen"}), (_GET, None)])
        finally:
            app_conn.pgconn.untrace()
    assert rows == [("seen", True)]
    assert _syncs(trace) == 1
    # transaction-local: nothing outlives the call
    assert execute_pipelined(app_conn, [(_GET, None)]) == [("", True)]
    assert idle_autocommit(app_conn)


def test_a_failed_statement_skips_the_rest_and_raises_psycopgs_class(app_conn: psycopg.Connection) -> None:
    with pytest.raises(pg_errors.DivisionByZero):
        execute_pipelined(app_conn, [("select 1 / %s", (0,)), (_SET, {"value": "never"})])
    assert idle_autocommit(app_conn)
    with pytest.raises(pg_errors.UndefinedTable):  # fails at Parse
        execute_pipelined(app_conn, [(_SET, {"value": "rolled back"}), ("select * from no_such_table", None)])
    assert execute_pipelined(app_conn, [(_GET, None)]) == [("", True)]
    assert idle_autocommit(app_conn)


def test_statements_are_prepared_once_per_connection_and_again_after_deallocate(
    app_conn: psycopg.Connection,
) -> None:
    def ours() -> set[str]:
        rows = app_conn.execute("select name from pg_prepared_statements where name like 'procura\\_%%'").fetchall()
        return {r[0] for r in rows}

    execute_pipelined(app_conn, [("select %s::int + 1", (1,))])
    # a statement whose execution failed was still parsed: the next call must not prepare it twice
    with pytest.raises(pg_errors.DivisionByZero):
        execute_pipelined(app_conn, [("select 1 / %s::int", (0,))])
    prepared = ours()
    assert len(prepared) == 2
    assert execute_pipelined(app_conn, [("select %s::int + 1", (2,))]) == [(3,)]
    assert execute_pipelined(app_conn, [("select 1 / %s::int", (1,))]) == [(1,)]
    assert ours() == prepared
    # a NULL binds with another type than a text: its own statement, both answer
    assert execute_pipelined(app_conn, [("select %s::text is null", (None,))]) == [(True,)]
    assert execute_pipelined(app_conn, [("select %s::text is null", ("x",))]) == [(False,)]
    app_conn.execute("deallocate all")
    assert execute_pipelined(app_conn, [("select %s::int + 1", (4,))]) == [(5,)]
    assert idle_autocommit(app_conn)


def test_it_refuses_a_connection_that_is_not_autocommit(settings: Settings) -> None:
    with psycopg.connect(settings.app_url) as conn, pytest.raises(psycopg.ProgrammingError):
        execute_pipelined(conn, [("select 1", None)])


def test_the_asyncio_twin_answers_the_same_and_fails_the_same(settings: Settings) -> None:
    async def scenario() -> None:
        async with await psycopg.AsyncConnection.connect(settings.app_url, autocommit=True) as conn:
            assert await aexecute_pipelined(conn, [(_SET, {"value": "seen"}), (_GET, None)]) == [("seen", True)]
            with pytest.raises(pg_errors.DivisionByZero):
                await aexecute_pipelined(conn, [("select 1 / %s", (0,)), (_SET, {"value": "never"})])
            assert await aexecute_pipelined(conn, [(_GET, None)]) == [("", True)]
            assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE

    asyncio.run(scenario())
