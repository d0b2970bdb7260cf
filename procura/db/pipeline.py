"""Several statements in one network round trip: one write, one Sync, results read as they arrive.

A tenant-scoped metric call is two statements (the scope, then the query) that must run in one implicit
transaction. psycopg's ``Connection.pipeline()`` runs them so, but it flushes each statement as it is queued and
polls the socket before and after every one: on the shared 2-core machine that was four ``sendto`` and seven
``poll`` calls per call, each waking the Postgres backend or this thread, and about 0.2 ms of client CPU more
than a single ``execute`` (``bench/metric_api.py``; measured with ``time.thread_time_ns``). Here every statement
is queued in libpq's buffer, the Sync is added, and the buffer goes out in one write; the thread then waits only
for the results.

Values are bound as in psycopg (its adapters dump them; nothing is pasted into the SQL text) and the statements
are server-side prepared once per connection under names of their own (``procura_<hash>``, disjoint from
psycopg's ``_pg3_*``), keyed by the SQL text and the parameter types, so Postgres parses and analyzes each text
once per connection. Errors are psycopg's own classes (``QueryCanceled``, ``InsufficientPrivilege``...), raised
after the Sync: as in psycopg's pipeline, a failed statement makes the server skip the rest, and no row of a
later statement reaches the caller.
"""

from __future__ import annotations

import hashlib
import re
import threading
import weakref
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors
from psycopg import pq
from psycopg.abc import Buffer
from psycopg.abc import Transformer as Adaptation
from psycopg.adapt import PyFormat, Transformer
from psycopg.pq.abc import PGconn, PGresult
from psycopg.waiting import Ready, Wait

#: One statement: psycopg-style SQL (``%s``, ``%(name)s``, ``%%`` for a literal ``%``) and its values.
Statement = tuple[str, Sequence[Any] | Mapping[str, Any] | None]

#: Prepared statements kept per connection; past this, statements run unnamed (parsed on every call).
MAX_PREPARED = 256
_PLACEHOLDER = re.compile(r"%(?:\((?P<name>[^)]*)\))?(?P<kind>.)?", re.DOTALL)
_SQLSTATE_UNKNOWN_STATEMENT = "26000"


class _Converted:
    """A psycopg-style query as Postgres text (``$n`` placeholders), with the order its values bind in."""

    __slots__ = ("names", "positional", "text")

    def __init__(self, text: bytes, names: tuple[str, ...], positional: int) -> None:
        self.text = text
        self.names = names
        self.positional = positional


_CONVERTED: dict[str, _Converted] = {}
_CONVERTED_MAX = 4096
_CONVERTED_LOCK = threading.Lock()


def convert(sql: str) -> _Converted:
    """``sql`` with psycopg's placeholders turned into Postgres's ``$n`` (cached per text).

    >>> c = convert("select %(a)s, %(b)s, %(a)s, '100%%'")
    >>> c.text, c.names
    (b"select $1, $2, $1, '100%'", ('a', 'b'))
    >>> convert("select %s + %s").positional
    2

    Raises:
        psycopg.ProgrammingError: a ``%`` that is not ``%%``, ``%s`` or ``%(name)s``, or both placeholder styles.
    """
    found = _CONVERTED.get(sql)
    if found is not None:
        return found
    names: list[str] = []
    positional = 0
    parts: list[str] = []
    last = 0
    for match in _PLACEHOLDER.finditer(sql):
        parts.append(sql[last : match.start()])
        last = match.end()
        name, kind = match.group("name"), match.group("kind")
        if name is None and kind == "%":
            parts.append("%")
            continue
        if kind != "s":
            raise psycopg.ProgrammingError(f"only '%s', '%(name)s' and '%%' are placeholders: {match.group(0)!r}")
        if name is None:
            positional += 1
            parts.append(f"${positional}")
        else:
            if name not in names:
                names.append(name)
            parts.append(f"${names.index(name) + 1}")
    parts.append(sql[last:])
    if names and positional:
        raise psycopg.ProgrammingError("a query uses either '%s' or '%(name)s' placeholders, not both")
    converted = _Converted("".join(parts).encode(), tuple(names), positional)
    with _CONVERTED_LOCK:
        if len(_CONVERTED) >= _CONVERTED_MAX:
            _CONVERTED.clear()
        _CONVERTED[sql] = converted
    return converted


def _values(converted: _Converted, params: Sequence[Any] | Mapping[str, Any] | None) -> list[Any]:
    if converted.names:
        if not isinstance(params, Mapping):
            raise psycopg.ProgrammingError("a query with '%(name)s' placeholders needs a mapping of values")
        return [params[name] for name in converted.names]
    values = list(params or ())
    if isinstance(params, Mapping) or len(values) != converted.positional:
        raise psycopg.ProgrammingError(f"the query has {converted.positional} '%s' placeholders, not {len(values)}")
    return values


_NAMES: dict[tuple[bytes, tuple[int, ...]], bytes] = {}


def _statement_name(text: bytes, types: tuple[int, ...]) -> bytes:
    """The prepared statement's name: the same text bound with other types is another statement."""
    name = _NAMES.get((text, types))
    if name is None:
        name = b"procura_" + hashlib.sha1(text + repr(types).encode()).hexdigest()[:24].encode()
        with _CONVERTED_LOCK:
            if len(_NAMES) >= _CONVERTED_MAX:
                _NAMES.clear()
            _NAMES[text, types] = name
    return name


#: Names prepared on each connection (weak: a closed, collected connection drops out with its statements).
_PREPARED: weakref.WeakKeyDictionary[psycopg.Connection[Any] | psycopg.AsyncConnection[Any], set[bytes]] = (
    weakref.WeakKeyDictionary()
)
_PREPARED_LOCK = threading.Lock()


def _prepared(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> set[bytes]:
    with _PREPARED_LOCK:
        names = _PREPARED.get(conn)
        if names is None:
            names = _PREPARED[conn] = set()
        return names


def execute_pipelined(conn: psycopg.Connection[Any], statements: Sequence[Statement] | Dumped) -> list[tuple[Any, ...]]:
    """Run ``statements`` in one implicit transaction and one network round trip; the last one's rows.

    Args:
        conn: an autocommit connection that is idle (not in a transaction, not in a psycopg pipeline).
        statements: psycopg-style SQL and values, or the same already dumped (:func:`dump`); the last statement
            must return rows.

    Raises:
        psycopg.Error: the first statement that failed (its own class and diagnostics), or the connection's
            failure. A prepared statement the server no longer knows (``DEALLOCATE ALL`` on this connection) is
            prepared again once.
    """
    try:
        return _execute(conn, statements)
    except pg_errors.InvalidSqlStatementName:
        # Our record of this connection's prepared statements is stale: forget it and prepare again.
        _prepared(conn).clear()
        return _execute(conn, statements)


async def aexecute_pipelined(
    conn: psycopg.AsyncConnection[Any], statements: Sequence[Statement] | Dumped
) -> list[tuple[Any, ...]]:
    """:func:`execute_pipelined` on an asyncio connection: the wait for the results is an ``await``, so an
    async route needs no worker thread for it."""
    return (await aexecute_pipelined_text(conn, statements)).load()


async def aexecute_pipelined_text(
    conn: psycopg.AsyncConnection[Any], statements: Sequence[Statement] | Dumped
) -> TextRows:
    """:func:`aexecute_pipelined`, with the last statement's rows as the bytes Postgres sent; :meth:`TextRows.load`
    turns them into Python values as :func:`aexecute_pipelined` returns them."""
    try:
        return await _aexecute(conn, statements)
    except pg_errors.InvalidSqlStatementName:
        _prepared(conn).clear()
        return await _aexecute(conn, statements)


class TextRows:
    """The last statement's rows as Postgres sent them (text format), to compare by their bytes or to load.

    Design note: a caller that asks the same question again mostly gets the same rows back. Comparing their bytes
    with the previous answer's costs far less than loading them (a Transformer, Decimals, arrays) and shaping
    them again, so a caller may keep what it made of an answer by its bytes (semantic.execute.arun_json).
    """

    __slots__ = ("_conn", "_result", "ntuples")

    def __init__(self, conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any], result: PGresult) -> None:
        self._conn = conn
        self._result = result
        self.ntuples: int = result.ntuples

    def values(self) -> tuple[tuple[bytes | None, ...], ...]:
        """Per row, each column's bytes as sent (``None`` for NULL)."""
        get = self._result.get_value
        columns = range(self._result.nfields)
        return tuple(tuple(get(row, column) for column in columns) for row in range(self.ntuples))

    def load(self) -> list[tuple[Any, ...]]:
        """The rows as Python values, loaded by the connection's adapters (as psycopg's cursors load them)."""
        return _load(self._conn, self._result)


def _load(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any], result: PGresult) -> list[tuple[Any, ...]]:
    tx: Adaptation = Transformer(conn)
    tx.set_pgresult(result)
    return tx.load_rows(0, result.ntuples, tuple)


def _text_arrays(values: Sequence[Any]) -> dict[int, bytes] | None:
    """Lists of strings among ``values`` as Postgres array literals (UTF-8), by position.

    psycopg dumps a list element by element in Python (about 3 us per list here, most of the dumping of a metric
    call's values); these literals are what it sends for them, typed the same way (``unknown``, cast by the
    statement), with every element quoted. A list with anything but strings, or a string with a NUL, is left to
    psycopg (and its errors).

    >>> _text_arrays(["a", ["x", 'q"uote', "back\\\\slash"], [], [1]])
    {1: b'{"x","q\\\\"uote","back\\\\\\\\slash"}', 2: b'{}'}
    """
    found: dict[int, bytes] | None = None
    for i, value in enumerate(values):
        if type(value) is not list:
            continue
        parts = []
        for item in value:
            if type(item) is not str or "\x00" in item:
                break
            parts.append('"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"')
        else:
            if found is None:
                found = {}
            found[i] = ("{" + ",".join(parts) + "}").encode()
    return found


_Queued = tuple[bytes, bytes | None, Sequence[Buffer | None], tuple[int, ...], tuple[pq.Format, ...]]


@dataclass(frozen=True, slots=True)
class Dumped:
    """Statements with their values dumped to the bytes Postgres receives: what :func:`dump` makes once and
    :func:`execute_pipelined` / :func:`aexecute_pipelined` send, on any connection with the same client encoding
    and psycopg's default adapters (the pools' connections).

    Design note: a dashboard sends the same few requests again and again; turning their values into bytes
    (placeholders, adapters, array literals) was the largest piece of the client's own work in a metric call
    (docs/benchmarks.md, "Metric API, seventh pass"), so a caller that asks the same thing again may keep this.
    """

    #: per statement: its prepared statement's name, its text, the dumped values, their type oids and formats
    statements: tuple[tuple[bytes, bytes, tuple[bytes | None, ...], tuple[int, ...], tuple[pq.Format, ...]], ...]
    encoding: str


def dump(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any], statements: Sequence[Statement]) -> Dumped:
    """Everything that can fail in Python (placeholders, values, adapters), done before anything is sent.

    Raises:
        psycopg.ProgrammingError: a malformed placeholder, or values that do not match them.
    """
    tx: Adaptation = Transformer(conn)
    utf8 = conn.info.encoding == "utf-8"
    out = []
    for sql, params in statements:
        converted = convert(sql)
        values = _values(converted, params)
        arrays = _text_arrays(values) if utf8 else None
        if arrays:
            values = [None if i in arrays else v for i, v in enumerate(values)]
        dumped = tx.dump_sequence(values, [PyFormat.AUTO] * len(values))
        types, formats = tuple(tx.types or ()), tuple(tx.formats or ())
        if arrays:
            dumped = [arrays.get(i, d) for i, d in enumerate(dumped)]
        frozen = tuple(d if d is None or type(d) is bytes else bytes(d) for d in dumped)
        out.append((_statement_name(converted.text, types), converted.text, frozen, types, formats))
    return Dumped(tuple(out), conn.info.encoding)


def _queue(
    conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any], statements: Sequence[Statement] | Dumped
) -> tuple[set[bytes], list[_Queued]]:
    """The statements to send on ``conn``: each prepared there first unless it already is."""
    if conn.closed:
        raise psycopg.OperationalError("the connection is closed")
    if not conn.autocommit or conn.info.transaction_status != pq.TransactionStatus.IDLE:
        raise psycopg.ProgrammingError("execute_pipelined needs an idle autocommit connection")
    dumped = statements if isinstance(statements, Dumped) else dump(conn, statements)
    if dumped.encoding != conn.info.encoding:
        raise psycopg.ProgrammingError("the statements were dumped for another client encoding")
    prepared = _prepared(conn)
    queued: list[_Queued] = []
    for name, text, values, types, formats in dumped.statements:
        parse: bytes | None = None
        if name not in prepared:
            if len(prepared) >= MAX_PREPARED:
                name = b""  # the unnamed statement: parsed again on every call
            parse = text
        queued.append((name, parse, values, types, formats))
    return prepared, queued


def _send(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any], queued: list[_Queued]) -> PGconn:
    """Queue every statement and the Sync in libpq's buffer (sent by :func:`_exchange`'s flush)."""
    pgconn = conn.pgconn
    if conn.info.transaction_status != pq.TransactionStatus.IDLE or pgconn.pipeline_status:
        raise psycopg.ProgrammingError("execute_pipelined needs an idle connection outside a pipeline")
    pgconn.enter_pipeline_mode()
    for name, parse, dumped, types, formats in queued:
        if parse is not None:
            pgconn.send_prepare(name, parse, param_types=types)
        pgconn.send_query_prepared(name, dumped, param_formats=formats)
    pgconn.pipeline_sync()
    return pgconn


def _execute(conn: psycopg.Connection[Any], statements: Sequence[Statement] | Dumped) -> list[tuple[Any, ...]]:
    prepared, queued = _queue(conn, statements)
    with conn.lock:
        try:
            pgconn = _send(conn, queued)
            results = conn.wait(_exchange(pgconn))
            pgconn.exit_pipeline_mode()
        except psycopg.ProgrammingError:
            raise
        except BaseException:
            # Results left unread (an interrupt, a lost connection) would leave the connection mid-protocol:
            # close it, so that the pool discards it rather than handing it out again.
            conn.close()
            raise
    return _load(conn, _last(conn, prepared, queued, results))


async def _aexecute(conn: psycopg.AsyncConnection[Any], statements: Sequence[Statement] | Dumped) -> TextRows:
    prepared, queued = _queue(conn, statements)
    async with conn.lock:
        try:
            pgconn = _send(conn, queued)
            results = await conn.wait(_exchange(pgconn))
            pgconn.exit_pipeline_mode()
        except psycopg.ProgrammingError:
            raise
        except BaseException:  # a cancelled task included: see _execute
            await conn.close()
            raise
    return TextRows(conn, _last(conn, prepared, queued, results))


def _last(
    conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any],
    prepared: set[bytes],
    queued: list[_Queued],
    results: list[PGresult],
) -> PGresult:
    """The last statement's result, or the first failure: one result per Parse and one per statement, in the
    order sent (a statement skipped after a failure is PIPELINE_ABORTED)."""
    position = iter(results)
    error: PGresult | None = None
    last: PGresult | None = None
    for name, parse, *_ in queued:
        if parse is not None:
            parsed = next(position)
            if parsed.status == pq.ExecStatus.COMMAND_OK and name:
                prepared.add(name)
            elif parsed.status == pq.ExecStatus.FATAL_ERROR and error is None:
                error = parsed
        last = next(position)
        if last.status == pq.ExecStatus.FATAL_ERROR and error is None:
            error = last
    if error is not None:
        raise pg_errors.error_from_result(error, encoding=conn.info.encoding)
    if last is None or last.status != pq.ExecStatus.TUPLES_OK:
        raise psycopg.ProgrammingError("the last pipelined statement returned no rows")
    return last


def _exchange(pgconn: PGconn) -> Generator[Wait, Ready | int, list[PGresult]]:
    """Flush the queued statements, then read results up to the Sync (psycopg's wait protocol)."""
    while pgconn.flush():
        yield Wait.W
    results: list[PGresult] = []
    while True:
        while pgconn.is_busy():
            yield Wait.R
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:
            continue  # the end of one statement's results
        if result.status == pq.ExecStatus.PIPELINE_SYNC:
            return results
        results.append(result)
