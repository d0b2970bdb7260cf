"""A minimal client of a running ``procura serve`` for the CLI: ``procura ask`` with ``PROCURA_API_URL`` set.

Design note: the CLI then starts in a fraction of a second, whatever the question needs (classifier, embedder,
metric registry): they are already loaded in the server, and the tenant comes from the API key as for every API
call. Only the standard library is imported here, so this path loads neither the router nor the database driver.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.error
import urllib.request
from typing import Any

from procura.errors import ProcuraError


class RemoteAskError(ProcuraError):
    """The server refused or failed the question (its error code and message are in the text)."""


def ask_remote(
    api_url: str, key: str, question: str, *, as_of: dt.date | None = None, timeout_s: float = 60.0
) -> dict[str, Any]:
    """``POST {api_url}/v1/ask`` with the key as bearer token; the response body (an ``AskResult``) as a dict.

    Raises:
        RemoteAskError: a non-2xx status (the server's error code and message), or the server is unreachable.
    """
    body = json.dumps({"question": question, **({"as_of": as_of.isoformat()} if as_of else {})}).encode()
    request = urllib.request.Request(
        api_url.rstrip("/") + "/v1/ask", data=body, method="POST",
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return json.loads(response.read())  # type: ignore[no-any-return]
    except urllib.error.HTTPError as exc:
        try:
            error = json.loads(exc.read()).get("error", {})
        except (ValueError, AttributeError):
            error = {}
        raise RemoteAskError(f"PROCURA_API_URL: HTTP {exc.code} {error.get('code', '')}: "
                             f"{error.get('message', exc.reason)}") from exc
    except (urllib.error.URLError, TimeoutError) as exc:
        raise RemoteAskError(f"PROCURA_API_URL: {api_url} is not reachable ({exc})") from exc
