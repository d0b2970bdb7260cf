"""Keyed hashes (HMAC-SHA256 with the server secret): values that must be comparable but not reversible.

Design note: a plain sha256 of a company id, a date or a currency code is reversed by hashing the few plausible
values; with a server-side key the same guess needs the key. Each use has its own ``purpose`` prefix, so a hash
made for one use (audit parameters) never equals one made for another (graph names).
"""

from __future__ import annotations

import hashlib
import hmac

from procura.settings import get_settings


def server_key() -> bytes:
    """The process's key: ``PROCURA_SERVER_SECRET`` (a local placeholder outside production)."""
    return get_settings().server_secret.get_secret_value().encode()


def keyed_hex(purpose: str, text: str, key: bytes | None = None) -> str:
    """Hex HMAC-SHA256 of ``purpose`` NUL ``text`` under ``key`` (default :func:`server_key`).

    >>> keyed_hex("demo", "tenant-42", b"k") == keyed_hex("demo", "tenant-42", b"k")
    True
    >>> keyed_hex("demo", "tenant-42", b"k") != keyed_hex("other", "tenant-42", b"k")
    True
    """
    message = purpose.encode() + b"\x00" + text.encode()
    return hmac.new(server_key() if key is None else key, message, hashlib.sha256).hexdigest()
