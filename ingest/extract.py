"""Deterministic extraction of vendor approvals from an agreement's approved-vendor table.

The table is recognised by its header (``Supplier ID`` and ``Valid from`` columns, any order, any case); each
row becomes a :class:`~ingest.models.VendorApproval` that points at the page and chunk holding the row, so an
approval (and the graph edge built from it) cites its evidence. The extractor's version is
:data:`~ingest.versions.EXTRACTION_VERSION`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import ValidationError

from ingest.errors import ParseError
from ingest.markdown import Block, MarkdownLayout
from ingest.models import Chunk, VendorApproval
from ingest.versions import EXTRACTION_VERSION

_SEPARATOR = re.compile(r"^:?-{3,}:?$")
_OPEN_ENDED = frozenset({"open", "", "-", "none", "n/a", "unlimited"})
_COLUMNS = {
    "supplier": "supplier_name",
    "supplier name": "supplier_name",
    "supplier id": "supplier_id",
    "scope": "scope",
    "valid from": "valid_from",
    "valid to": "valid_to",
}


def _cells(line: str) -> list[str]:
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|"):
        stripped = stripped[:-1]
    return [cell.strip() for cell in stripped.split("|")]


def _header_map(block: Block, text: str) -> dict[int, str] | None:
    header = _cells(text[block.units[0].start : block.units[0].end])
    mapping = {i: _COLUMNS[c.casefold()] for i, c in enumerate(header) if c.casefold() in _COLUMNS}
    if {"supplier_id", "valid_from"} <= set(mapping.values()):
        return mapping
    return None


def chunk_at(chunks: Sequence[Chunk], offset: int) -> Chunk | None:
    """The chunk that owns ``offset`` (not one that only repeats it as overlap)."""
    for chunk in chunks:
        own_start = chunk.metadata.get("own_char_start", chunk.char_start)
        if chunk.char_end is not None and isinstance(own_start, int) and own_start <= offset < chunk.char_end:
            return chunk
    return None


def extract_vendor_approvals(
    layout: MarkdownLayout,
    chunks: Sequence[Chunk],
    *,
    document_id: str,
    company_id: str,
    source: str,
) -> tuple[VendorApproval, ...]:
    """The approvals of every approved-vendor table of an agreement.

    Raises:
        ParseError: the agreement has no approved-vendor table, or a row is malformed (named by page and row).
    """
    approvals: list[VendorApproval] = []
    seen: set[str] = set()
    found_table = False
    for block in layout.blocks:
        if block.kind != "table" or not block.units:
            continue
        mapping = _header_map(block, layout.text)
        if mapping is None:
            continue
        found_table = True
        row_number = 0
        for unit in block.units[1:]:
            cells = _cells(layout.text[unit.start : unit.end])
            if all(_SEPARATOR.match(c) for c in cells if c):
                continue
            row_number += 1
            where = f"{source}: approved-vendor table on page {block.page}, row {row_number}"
            values = {name: cells[i] if i < len(cells) else "" for i, name in mapping.items()}
            valid_to = values.get("valid_to", "")
            supplier_id = values.get("supplier_id", "")
            chunk = chunk_at(chunks, unit.start)
            try:
                approval = VendorApproval.model_validate({
                    "approval_id": f"{document_id}-{supplier_id}-{values.get('valid_from', '').replace('-', '')}",
                    "agreement_id": document_id,
                    "company_id": company_id,
                    "supplier_id": supplier_id,
                    "supplier_name": values.get("supplier_name") or supplier_id,
                    "scope": values.get("scope") or None,
                    "valid_from": values.get("valid_from"),
                    "valid_to": None if valid_to.casefold() in _OPEN_ENDED else valid_to,  # "open": no end
                    "page_number": chunk.page if chunk else block.page,
                    "chunk_id": chunk.chunk_id if chunk else None,
                    "extraction_version": EXTRACTION_VERSION,
                })
            except ValidationError as exc:
                detail = exc.errors()[0]
                field = ".".join(str(p) for p in detail["loc"])
                message = str(detail["msg"]).removeprefix("Value error, ")
                raise ParseError(f"{where}: {field + ': ' if field else ''}{message}") from None
            if approval.approval_id in seen:
                raise ParseError(f"{where}: duplicate approval of {supplier_id} from {approval.valid_from}")
            seen.add(approval.approval_id)
            approvals.append(approval)
    if not found_table:
        raise ParseError(
            f"{source}: agreement has no approved-vendor table (a table with 'Supplier ID' and 'Valid from' columns)"
        )
    return tuple(approvals)
