"""Canonical forms and hashes: content hashes of documents, business hashes of invoices, store checksums."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from json.encoder import encode_basestring as _encode_string  # C-accelerated, keeps non-ASCII
from typing import Any


def sha256_tag(data: bytes) -> str:
    """``'sha256:' + hex`` of ``data`` (the format of every hash the registry stores)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no insignificant whitespace, UTF-8, Decimals as exact number literals."""
    return _encode(value).encode("utf-8")


def _encode(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if kind is dict or isinstance(value, Mapping):
        items = sorted(value.items())
        return "{" + ",".join(_encode_string(str(k)) + ":" + _encode(v) for k, v in items) + "}"
    if kind is list or kind is tuple:
        return "[" + ",".join(_encode(v) for v in value) + "]"
    if kind is Decimal:
        if not value.is_finite():
            raise ValueError(f"non-finite number {value} has no canonical JSON form")
        return str(value)
    if kind is float:
        raise TypeError("floats are not allowed in canonical JSON; parse numbers as Decimal")
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    raise TypeError(f"cannot serialize {kind.__name__} canonically")


def canonical_text(raw: bytes) -> str:
    """Decoded text with a stripped BOM, ``\\n`` line endings, NFC and exactly one trailing newline."""
    text = raw.decode("utf-8")
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFC", text)
    return text.rstrip("\n") + "\n"


def business_hash(invoice: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of an invoice's business fields (all but document_id and source_system)."""
    business = {k: v for k, v in invoice.items() if k not in ("document_id", "source_system")}
    return sha256_tag(canonical_json(business))


def canonical_value(value: Any) -> str:
    """One value as text for row checksums; the same for a value written and the value read back."""
    if type(value) is str:  # the common case first: most checksum values are text
        return value
    if type(value) is int:
        return str(value)
    if value is None:
        return "\u2205"
    if isinstance(value, Decimal):
        # numeric(18, 4) reads back "10.0000" for "10": compare the number, not its scale
        normalized = value.normalize()
        return format(normalized, "f")
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping | list | tuple):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def rows_checksum(rows: Iterable[Sequence[Any]]) -> str:
    """Order-independent checksum of rows (each a sequence of values)."""
    lines = sorted("\x1f".join(canonical_value(v) for v in row) for row in rows)
    return sha256_tag("\x1e".join(lines).encode("utf-8"))
