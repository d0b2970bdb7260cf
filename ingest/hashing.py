"""Canonical forms and hashes: content hashes of documents, business hashes of invoices, store checksums."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from json.encoder import encode_basestring as _encode_string  # C-accelerated, keeps non-ASCII
from typing import Any


def sha256_tag(data: bytes) -> str:
    """``'sha256:' + hex`` of ``data`` (the format of every hash the registry stores)."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def text_sha256_tag(text: str) -> str:
    """``sha256_tag(text.encode("utf-8"))`` encoding 1 Mi characters at a time: hashing a 50 MB chunk text
    does not copy it whole (UTF-8 of a concatenation is the concatenation of the UTF-8s)."""
    digest = hashlib.sha256()
    step = 1 << 20
    for start in range(0, len(text), step):
        digest.update(text[start : start + step].encode("utf-8"))
    return "sha256:" + digest.hexdigest()


def canonical_json(value: Any) -> bytes:
    """Sorted keys, no insignificant whitespace, UTF-8, Decimals as exact number literals."""
    return _encode(value).encode("utf-8")


def canonical_json_hash(value: Any) -> str:
    """``sha256_tag(canonical_json(value))`` without building the document: the encoding is hashed piece by
    piece, so a 50 MB invoice is not held twice more (once as text, once as UTF-8) just to be hashed."""
    digest = hashlib.sha256()
    pending: list[str] = []
    size = 0
    for piece in _pieces(value):
        pending.append(piece)
        size += len(piece)
        if size >= 1 << 16:  # hash in 64 KiB runs: one update per piece would cost more than the copies
            digest.update("".join(pending).encode("utf-8"))
            pending, size = [], 0
    digest.update("".join(pending).encode("utf-8"))
    return "sha256:" + digest.hexdigest()


def _pieces(value: Any) -> Iterator[str]:
    """The canonical JSON of ``value`` as consecutive pieces (their concatenation is :func:`_encode`'s text)."""
    kind = type(value)
    if kind is dict or (kind is not str and isinstance(value, Mapping)):
        yield "{"
        for index, (key, item) in enumerate(sorted(value.items())):
            yield ("," if index else "") + _encode_string(str(key)) + ":"
            yield from _pieces(item)
        yield "}"
    elif kind is list or kind is tuple:
        yield "["
        for index, item in enumerate(value):
            if index:
                yield ","
            yield from _pieces(item)
        yield "]"
    else:
        yield _encode(value)


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
    return canonical_json_hash(business)


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
    return lines_checksum([row_line(row) for row in rows])


def row_line(row: Sequence[Any]) -> str:
    """One row as the line :func:`rows_checksum` hashes (a reader that streams rows keeps only these lines)."""
    return "\x1f".join(canonical_value(v) for v in row)


def lines_checksum(lines: list[str]) -> str:
    """:func:`rows_checksum` of the rows whose :func:`row_line` are ``lines`` (sorted in place)."""
    lines.sort()
    # hashed line by line: the same digest as of the joined text, without a second and third copy of it
    digest = hashlib.sha256()
    for index, line in enumerate(lines):
        if index:
            digest.update(b"\x1e")
        digest.update(line.encode("utf-8"))
    return "sha256:" + digest.hexdigest()
