"""Layout-aware chunking of Markdown documents.

Rules, in order:

* a page break always ends a chunk, so every chunk has one page and its id ``<document_id>-pNN-cMM`` is stable
  as long as that page does not change;
* a heading starts a new chunk and stays attached to the content after it (consecutive headings share a chunk);
* blocks are packed into a chunk until ``max_chars`` would be exceeded;
* an oversized block is split only between its units (list items, clauses, sentences); tables, code and
  identifier blocks are never split, up to ``table_hard_max_chars``, beyond which a table is split between rows;
* optional overlap repeats the trailing units of the previous chunk of the same section (never part of a table).

Every chunk records its parent section (``<document_id>-sNN``, the innermost heading above it), the section
path, its page and its character span.
"""

from __future__ import annotations

from dataclasses import dataclass

from ingest.markdown import Block, MarkdownLayout, Span
from ingest.models import Chunk
from ingest.normalize import find_identifiers

_INJECTION_MARKERS = ("ignore previous instructions", "ignore all previous instructions", "disregard previous")


@dataclass(frozen=True)
class ChunkerConfig:
    """Boundary policy; part of the config fingerprint, so changing it re-versions documents.

    The default size keeps a chunk near MiniLM's training length (128 word pieces, about 500-700 characters of
    English); longer chunks would be truncated at 256 word pieces by the embedder.
    """

    max_chars: int = 700
    overlap_chars: int = 0
    table_hard_max_chars: int = 4000

    def __post_init__(self) -> None:
        if self.max_chars < 100:
            raise ValueError("max_chars must be at least 100")
        if not 0 <= self.overlap_chars < self.max_chars:
            raise ValueError("overlap_chars must be between 0 and max_chars")
        if self.table_hard_max_chars < self.max_chars:
            raise ValueError("table_hard_max_chars must be at least max_chars")

    def describe(self) -> str:
        """A compact description for the version fingerprint."""
        return f"max{self.max_chars}-ov{self.overlap_chars}-tbl{self.table_hard_max_chars}"


@dataclass
class _Piece:
    """A block or a part of one, placed in a chunk."""

    kind: str
    start: int
    end: int
    units: list[Span]
    atomic: bool


@dataclass(frozen=True)
class _Section:
    section_id: str
    level: int
    title: str


def chunk_layout(
    layout: MarkdownLayout,
    *,
    document_id: str,
    title: str,
    config: ChunkerConfig | None = None,
    metadata: dict[str, object] | None = None,
) -> tuple[Chunk, ...]:
    """Chunks of a Markdown document in reading order."""
    config = config or ChunkerConfig()
    text = layout.text
    chunks: list[Chunk] = []
    per_page: dict[int, int] = {}
    stack: list[_Section] = []
    section_count = 0
    current: list[_Piece] = []
    current_page = 0
    previous: Chunk | None = None
    previous_tail: list[Span] = []

    def flush() -> None:
        nonlocal current, previous, previous_tail
        if not current:
            return
        own_start, end = current[0].start, current[-1].end
        start = own_start
        parent = stack[-1].section_id if stack else f"{document_id}-s00"
        if (
            config.overlap_chars
            and previous is not None
            and previous.page == current_page
            and previous.parent_id == parent
            and current[0].kind != "heading"
        ):
            budget = config.overlap_chars
            for unit in reversed(previous_tail):
                if own_start - unit.start > budget:
                    break
                start = unit.start
        per_page[current_page] = per_page.get(current_page, 0) + 1
        ordinal = per_page[current_page]
        chunk_text = text[start:end]
        kinds = sorted({p.kind for p in current})
        path = tuple(s.title for s in stack)
        chunk_metadata: dict[str, object] = dict(metadata or {})
        chunk_metadata.update(
            {
                "block_kinds": kinds,
                "section_ids": [s.section_id for s in stack],
                "own_char_start": own_start,
            }
        )
        if start != own_start:
            chunk_metadata["overlap_chars"] = own_start - start
        lowered = chunk_text.casefold()
        if any(marker in lowered for marker in _INJECTION_MARKERS):
            # retrieved text is evidence, never instructions: flag it so the router can screen it
            chunk_metadata["suspected_prompt_injection"] = True
        header = title if not path else f"{title}\n{' > '.join(path)}"
        chunk = Chunk(
            chunk_id=f"{document_id}-p{current_page:02d}-c{ordinal:02d}",
            page=current_page,
            ordinal=len(chunks) + 1,
            parent_id=parent,
            section_path=path,
            char_start=start,
            char_end=end,
            text=chunk_text,
            embedding_text=f"{header}\n{chunk_text}",
            kind="table" if "table" in kinds else "text",
            metadata=chunk_metadata,
        )
        chunks.append(chunk)
        previous = chunk
        last = current[-1]
        previous_tail = [] if last.atomic or last.kind == "heading" else list(last.units)
        current = []

    def size_with(piece: _Piece) -> int:
        return piece.end - (current[0].start if current else piece.start)

    def only_headings() -> bool:
        return all(p.kind == "heading" for p in current)

    for block in layout.blocks:
        if block.page != current_page:
            flush()
            current_page = block.page
            previous = None
        if block.kind == "heading":
            if current and not only_headings():
                flush()
            while stack and stack[-1].level >= block.level:
                stack.pop()
            section_count += 1
            stack.append(_Section(f"{document_id}-s{section_count:02d}", block.level, block.title))
            current.append(_Piece("heading", block.start, block.end, list(block.units), True))
            continue
        for piece in _pieces(block, config):
            if current and not only_headings() and size_with(piece) > config.max_chars:
                flush()
            current.append(piece)
    flush()
    return tuple(chunks)


def _pieces(block: Block, config: ChunkerConfig) -> list[_Piece]:
    """The block whole, or split between its units when it is too large (atomic blocks stay whole)."""
    whole = _Piece(block.kind, block.start, block.end, list(block.units), block.atomic)
    limit = config.table_hard_max_chars if block.atomic else config.max_chars
    if block.size <= limit or len(block.units) <= 1 or block.kind == "code":
        return [whole]
    units = block.units
    header: list[Span] = []
    if block.kind == "table" and len(units) > 2:
        # the header row and the |---| separator go with the first group of rows
        header, units = units[:2], units[2:]
    budget = limit - (header[-1].end - header[0].start + 1 if header else 0)
    groups: list[list[Span]] = []
    for unit in units:
        if groups and unit.end - groups[-1][0].start <= budget:
            groups[-1].append(unit)
        else:
            groups.append([unit])
    if header:
        groups[0] = [*header, *groups[0]]
    return [_Piece(block.kind, g[0].start, g[-1].end, g, block.atomic) for g in groups]


def chunk_identifiers(chunks: tuple[Chunk, ...]) -> dict[str, list[tuple[str, str, str]]]:
    """(type, value, raw) of the distinct identifiers in each chunk's text, by chunk id."""
    found: dict[str, list[tuple[str, str, str]]] = {}
    for chunk in chunks:
        seen: dict[tuple[str, str], str] = {}
        for match in find_identifiers(chunk.text):
            seen.setdefault((match.identifier_type, match.value), match.raw)
        found[chunk.chunk_id] = [(t, v, raw) for (t, v), raw in sorted(seen.items())]
    return found
