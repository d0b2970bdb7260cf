"""The typed search request and response (the architecture's ``documents.search`` contract).

The request is the seed's JSON::

    {"query_text": "calibration requirements",
     "identifiers": {"product_codes": ["PRD-482"], "invoice_numbers": [], "contract_ids": []},
     "retrieval_modes": ["exact", "bm25", "vector"],
     "filters": {"document_types": ["agreement", "product_manual"], "valid_at": "2026-03-31"},
     "limit": 20}

``filters`` also takes ``product_codes`` and ``document_ids`` (the issue's filter list), and ``expand_parents``
asks for the parent section's text. Unknown fields are rejected, so a request can never smuggle in a tenant:
the tenant comes from the authenticated :class:`~procura.db.session.AuthContext` only. Identifiers are
normalized here ("prd 482" -> ``PRD-482``); a value that is not an identifier of its type is a validation error
naming the field (``identifiers.product_codes[0]``).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from ingest.normalize import normalize_identifier
from retrieval.documents import DocumentStatus

Mode = Literal["exact", "bm25", "vector"]
ALL_MODES: tuple[Mode, ...] = ("exact", "bm25", "vector")
DocumentType = Literal[
    "agreement", "product_manual", "invoice", "credit_note",
    "companies", "suppliers", "product_groups", "products", "fx_rates",
]
QueryClass = Literal["identifier", "mixed", "keyword", "semantic"]
MAX_LIMIT = 100
MAX_IDENTIFIERS = 50
#: Patterns of the document-id and company-id filters (other areas' request models reuse them).
DOCUMENT_ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,127}$"
COMPANY_ID_PATTERN = r"^[A-Z][A-Z0-9]*-[A-Z0-9][A-Z0-9-]{0,30}$"
_DOCUMENT_ID = re.compile(DOCUMENT_ID_PATTERN)
_COMPANY_ID = re.compile(COMPANY_ID_PATTERN)

QueryText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _matching(values: tuple[str, ...], pattern: re.Pattern[str], problem: str) -> tuple[str, ...]:
    """``values`` without repeats, each checked against ``pattern``; the error names the item's index."""
    for index, value in enumerate(values):
        if not pattern.match(value):
            raise ValueError(f"[{index}] {value!r} {problem}")
    return tuple(dict.fromkeys(values))


def _normalized(identifier_type: str, values: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for index, raw in enumerate(values):
        value = normalize_identifier(identifier_type, raw)
        if value is None:
            # the message names the position; pydantic prefixes the field path
            raise ValueError(f"[{index}] {raw!r} is not a valid {identifier_type.replace('_', ' ')}")
        if value not in out:
            out.append(value)
    return tuple(out)


class Identifiers(_Model):
    """Identifiers to look up exactly; every spelling is normalized (``prd 482`` -> ``PRD-482``)."""

    product_codes: tuple[str, ...] = Field(default=(), max_length=MAX_IDENTIFIERS)
    invoice_numbers: tuple[str, ...] = Field(default=(), max_length=MAX_IDENTIFIERS)
    contract_ids: tuple[str, ...] = Field(default=(), max_length=MAX_IDENTIFIERS)

    @field_validator("product_codes")
    @classmethod
    def _product_codes(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        return _normalized("product_code", values)

    @field_validator("invoice_numbers")
    @classmethod
    def _invoice_numbers(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        return _normalized("invoice_number", values)

    @field_validator("contract_ids")
    @classmethod
    def _contract_ids(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        return _normalized("contract_id", values)

    def pairs(self) -> tuple[tuple[str, str], ...]:
        """(identifier_type, value) of every identifier, in a stable order."""
        return (
            *(("product_code", v) for v in self.product_codes),
            *(("invoice_number", v) for v in self.invoice_numbers),
            *(("contract_id", v) for v in self.contract_ids),
        )


class Filters(_Model):
    """Restrictions applied inside every branch (never by dropping results afterwards)."""

    document_types: tuple[DocumentType, ...] = Field(default=(), max_length=20)
    valid_at: dt.date | None = Field(
        default=None, description="Only documents in force on this date (effective or invoice date on or before)."
    )
    product_codes: tuple[str, ...] = Field(default=(), max_length=MAX_IDENTIFIERS)
    document_ids: tuple[str, ...] = Field(default=(), max_length=MAX_IDENTIFIERS)
    company_ids: tuple[str, ...] = Field(
        default=(), max_length=MAX_IDENTIFIERS,
        description="Only passages of documents about these companies (a chunk's company_id metadata, e.g. the "
        "party of an agreement); documents about no company (master data, manuals) are left out.",
    )  # fmt: skip
    phrases: tuple[str, ...] = Field(
        default=(), max_length=5,
        description="Only passages that contain every phrase literally (case and whitespace insensitive).",
    )  # fmt: skip

    @field_validator("company_ids")
    @classmethod
    def _company_ids(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        return _matching(values, _COMPANY_ID, "is not a company id (e.g. COMP-A)")

    @field_validator("phrases")
    @classmethod
    def _phrases(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        phrases = []
        for index, value in enumerate(values):
            # the same normalization as the predicate's side: lower case, runs of whitespace as one space
            phrase = " ".join(value.lower().split())
            if not 2 <= len(phrase) <= 200:
                raise ValueError(f"[{index}] a phrase must have 2 to 200 characters")
            phrases.append(phrase)
        return tuple(dict.fromkeys(phrases))

    @field_validator("product_codes")
    @classmethod
    def _product_codes(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        return _normalized("product_code", values)

    @field_validator("document_ids")
    @classmethod
    def _document_ids(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        return _matching(values, _DOCUMENT_ID, "is not a document id (lowercase letters, digits, '.', '_', '-')")

    @property
    def is_empty(self) -> bool:
        """True when nothing beyond the tenant restricts the search."""
        return not (
            self.document_types or self.valid_at or self.product_codes or self.document_ids or self.company_ids
            or self.phrases
        )  # fmt: skip


class SearchRequest(_Model):
    """One search; see the module docstring for the JSON shape."""

    query_text: QueryText = ""
    identifiers: Identifiers = Field(default_factory=Identifiers)
    retrieval_modes: tuple[Mode, ...] = Field(default=ALL_MODES, min_length=1, max_length=3)
    filters: Filters = Field(default_factory=Filters)
    limit: int = Field(default=10, ge=1, le=MAX_LIMIT)
    expand_parents: bool = Field(default=False, description="Include the text of each result's parent section.")

    @field_validator("retrieval_modes")
    @classmethod
    def _unique_modes(cls, modes: tuple[Mode, ...]) -> tuple[Mode, ...]:
        return tuple(dict.fromkeys(modes))

    @model_validator(mode="after")
    def _something_to_search(self) -> SearchRequest:
        if not self.query_text and not self.identifiers.pairs():
            raise ValueError("query_text: give a query text or at least one identifier")
        if not self.query_text and set(self.retrieval_modes) <= {"bm25", "vector"}:
            raise ValueError("query_text: the bm25 and vector modes need a query text")
        return self


class Span(_Model):
    """Character offsets of the chunk in its document's canonical text (null for record chunks)."""

    char_start: int | None
    char_end: int | None


class ParentSection(_Model):
    """The section a chunk belongs to; ``text`` only when the request asked for ``expand_parents``."""

    section_id: str | None
    path: tuple[str, ...]
    text: str | None = None
    chunk_ids: tuple[str, ...] = ()


class BranchHit(_Model):
    """A result's rank (1-based, after duplicate removal) and raw score in one branch."""

    rank: int
    score: float


class SearchResult(_Model):
    """One piece of evidence with its provenance and how each branch ranked it."""

    rank: int
    chunk_id: str
    text: str
    document_id: str
    document_version: int
    document_type: str
    title: str | None
    page: int
    span: Span
    parent_section: ParentSection
    content_hash: str
    identity_match: Literal["chunk", "document"] | None = Field(
        description="'chunk': the chunk holds a requested identifier; 'document': its document does."
    )
    matched_identifiers: tuple[str, ...]
    branches: dict[Mode, BranchHit]
    fused_score: float
    duplicates: tuple[str, ...] = Field(default=(), description="Chunk ids merged into this result as duplicates.")
    suspected_prompt_injection: bool = False
    in_force_version: bool = Field(
        default=False,
        description="The chunk comes from a superseded version that was in force on filters.valid_at (the active "
        "version takes effect later); it is rebuilt from the registry and ranked by BM25 only.",
    )


class BranchReport(_Model):
    """What one branch did: candidates returned, the access path, and time spent."""

    mode: Mode
    candidates: int
    path: str
    elapsed_ms: float
    truncated: bool = False


class SearchResponse(_Model):
    """Ranked results plus how they were produced."""

    query_class: QueryClass
    fusion: str
    results: tuple[SearchResult, ...]
    branches: tuple[BranchReport, ...]
    identifiers: tuple[str, ...] = Field(description="Normalized identifiers looked up (request and query text).")
    embedding_config_id: str | None = None
    analyzer: str | None = None
    authorization_dropped: int = Field(
        default=0, description="Candidates removed by the final authorization check (expected 0)."
    )
    elapsed_ms: float = 0.0
    #: time spent embedding the query (inside ``elapsed_ms``; the server runs the other branches meanwhile)
    query_embedding_ms: float | None = None
    documents: tuple[DocumentStatus, ...] = Field(
        default=(),
        description="For filters.document_ids: what the tenant holds under each id (found, not_found, duplicate "
        "of another document, deleted) and the version in force on filters.valid_at.",
    )
