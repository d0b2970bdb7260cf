"""Request limits applied before any route runs: body size (413) and text Postgres cannot store (422).

Design note: a NUL character cannot be stored in a Postgres ``text`` value, and an unpaired UTF-16 surrogate
(``"\\ud800"`` in JSON) cannot even be encoded to UTF-8 for the wire; both used to reach the database and come
back as a 500 (the surrogate also broke the pooled connection). They are refused here, once for every route,
in the body, the query string and the path, instead of in every model. The body is read under a byte budget, so
a 100 MB upload is answered 413 after the first budget's worth of bytes, not parsed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote_to_bytes

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Largest request body accepted (bytes). The biggest legitimate body (a metric query with list parameters at
#: their item limits, a search with every filter) is a few kilobytes.
MAX_BODY_BYTES = 256 * 1024
#: Longest query string accepted (bytes, percent-encoded).
MAX_QUERY_BYTES = 4096
#: Most characters of a caller's input an error message may carry.
MAX_ECHO_CHARS = 120

_SURROGATE = re.compile("[\ud800-\udfff]")
# Percent-encoded NUL, or a UTF-8 lead byte of an encoded surrogate (ED A0..BF), in a path or query string.
_BAD_ESCAPE = re.compile(rb"%00|%ed%[ab][0-9a-f]", re.IGNORECASE)


def bounded(text: str, limit: int = MAX_ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters (with a marker), for messages that quote input.

    >>> bounded("x" * 5, 3)
    'xxx…'
    """
    return text if len(text) <= limit else text[:limit] + "…"


def unsafe_text(value: Any, path: str = "body") -> str | None:
    """Where ``value`` (decoded JSON) holds a NUL character or an unpaired surrogate, as a dotted path, else None.

    >>> unsafe_text({"q": ["ok", "a\\x00b"]})
    'body.q.1'
    >>> unsafe_text({"q": "fine"}) is None
    True
    """
    if isinstance(value, str):
        return path if "\x00" in value or _SURROGATE.search(value) else None
    items: Iterable[tuple[Any, Any]]
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        where = f"{path}.{bounded(str(key), 40)}"
        if isinstance(key, str) and unsafe_text(key, where):
            return where
        found = unsafe_text(item, where)
        if found:
            return found
    return None


def _error(status: int, code: str, message: str, parameter: str | None) -> tuple[int, bytes]:
    body = {"error": {"code": code, "message": message, "parameter": parameter}}
    return status, json.dumps(body).encode()


def check_body(body: bytes) -> tuple[int, bytes] | None:
    """The error response for a JSON body with unstorable text, else None (invalid JSON is the route's to
    report). Only bodies with a ``\\u`` escape are decoded here: raw NUL bytes are not valid inside JSON strings,
    and valid UTF-8 cannot encode a surrogate."""
    if b"\\u" not in body:
        return None
    try:
        decoded = json.loads(body)
    except ValueError:
        return None
    where = unsafe_text(decoded)
    if where is None:
        return None
    return _error(422, "invalid_text", f"{where}: NUL characters and unpaired surrogates are not accepted", where)


def check_target(scope: Scope) -> tuple[int, bytes] | None:
    """The error response for a path or query string that is too long or encodes unstorable text."""
    query: bytes = scope.get("query_string") or b""
    if len(query) > MAX_QUERY_BYTES:
        return _error(414, "query_too_long", f"the query string exceeds {MAX_QUERY_BYTES} bytes", "query")
    raw_path: bytes = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogatepass")
    for part, name in ((raw_path, "path"), (query, "query")):
        if _BAD_ESCAPE.search(part) or b"\x00" in unquote_to_bytes(part):
            return _error(422, "invalid_text", f"{name}: NUL characters and unpaired surrogates are not accepted",
                          name)
    return None


class RequestLimits:
    """ASGI middleware: 413 for a body over ``max_body_bytes`` (declared or streamed), 414/422 for the target,
    422 for unstorable text in a JSON body. Everything else passes through untouched."""

    def __init__(self, app: ASGIApp, max_body_bytes: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refused = check_target(scope)
        if refused is None:
            declared = dict(scope.get("headers") or []).get(b"content-length")
            if declared is not None and (not declared.isdigit() or int(declared) > self.max_body_bytes):
                refused = self._too_large()
        if refused is not None:
            await _respond(send, *refused)
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body_bytes:
                await _respond(send, *self._too_large())
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        refused = check_body(body)
        if refused is not None:
            await _respond(send, *refused)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _too_large(self) -> tuple[int, bytes]:
        return _error(413, "body_too_large", f"the request body exceeds {self.max_body_bytes} bytes", "body")


async def _respond(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
