"""Values passed between the branches, fusion and the service; no driver imports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from retrieval.models import Mode


@dataclass(frozen=True, order=True)
class ChunkKey:
    """A chunk of one document version (chunk ids are unique per tenant and version)."""

    document_id: str
    document_version: int
    chunk_id: str


@dataclass(frozen=True)
class Hit:
    """One branch's candidate: its key, raw score, and for the exact branch what matched and where."""

    key: ChunkKey
    score: float
    matched: tuple[str, ...] = ()
    level: Literal["chunk", "document"] | None = None


@dataclass(frozen=True)
class ChunkInfo:
    """What fusion and the response need to know about a candidate chunk."""

    key: ChunkKey
    document_type: str
    content_hash: str
    page: int
    ordinal: int
    parent_id: str | None
    section_path: tuple[str, ...]
    char_start: int | None
    char_end: int | None
    text: str
    #: the metadata fields a result shows (``title``, ``suspected_prompt_injection``)
    metadata: Mapping[str, Any]


#: The columns of ``retrieval.active_chunks`` (alias ``c``) that :func:`chunk_info` reads, in its order. Of the
#: metadata only what a result shows is read: parsing every candidate's whole JSON costs more than the rest.
_INFO = (
    ("document_type", "{a}.document_type"), ("content_hash", "{a}.content_hash"), ("page", "{a}.page"),
    ("ordinal", "{a}.ordinal"), ("parent_id", "{a}.parent_id"), ("section_path", "{a}.section_path"),
    ("char_start", "{a}.char_start"), ("char_end", "{a}.char_end"), ("chunk_text", "{a}.chunk_text"),
    ("title", "{a}.metadata ->> 'title'"),
    ("injection", "coalesce({a}.metadata -> 'suspected_prompt_injection' = 'true'::jsonb, false)"),
)
#: Output names of :func:`info_columns` with ``named=True``.
INFO_NAMES = tuple(f"i_{name}" for name, _ in _INFO)


def info_columns(alias: str, *, named: bool = False) -> str:
    """The select list of the chunk details over the ``retrieval.active_chunks`` alias ``alias``."""
    return ", ".join(expr.format(a=alias) + (f" as i_{name}" if named else "") for name, expr in _INFO)


INFO_COLUMNS = info_columns("c")


def chunk_info(key: ChunkKey, row: Sequence[Any]) -> ChunkInfo:
    """The :class:`ChunkInfo` of ``key`` from the values of :data:`INFO_COLUMNS`."""
    doc_type, content_hash, page, ordinal, parent, path, start, end, text, title, injection = row
    metadata: dict[str, Any] = {"suspected_prompt_injection": bool(injection)}
    if title is not None:
        metadata["title"] = title
    return ChunkInfo(key, doc_type, content_hash, page, ordinal, parent, tuple(path or ()), start, end, text,
                     metadata)


@dataclass(frozen=True)
class BranchResult:
    """A branch's ranked candidates (best first) and how it got them."""

    mode: Mode
    hits: tuple[Hit, ...]
    path: str
    elapsed_ms: float
    truncated: bool = False
    #: exact branch only: (document id, version) of every document about a requested identifier -> identifiers
    identity_documents: Mapping[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)
    #: the chunk details of the hits, read in the branch's own query (so fusion needs no extra round trip)
    infos: Mapping[ChunkKey, ChunkInfo] = field(default_factory=dict)
