"""Layout of a Markdown source: front matter, ``<!-- page N -->`` pages and typed blocks with character spans.

All offsets index the canonical text of the whole file (front matter included), so a chunk's
``[char_start, char_end)`` can be highlighted in the original for display and citation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ingest.errors import ParseError
from ingest.normalize import find_identifiers

_PAGE = re.compile(r"^\s*<!--\s*page\s+(\d+)\s*-->\s*$", re.I)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_TABLE = re.compile(r"^\s*\|")
_BULLET = re.compile(r"^\s*[-*+]\s+\S")
_NUMBERED = re.compile(r"^\s*\d{1,3}(?:\.\d{1,3})*[.)]?\s+\S")
_ORDERED_ITEM = re.compile(r"^\s*\d{1,3}[.)]\s+\S")
_QUOTE = re.compile(r"^\s*>")
_FENCE = re.compile(r"^\s*(```|~~~)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")


@dataclass(frozen=True)
class Span:
    """``[start, end)`` in the canonical text."""

    start: int
    end: int

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass
class Block:
    """A layout unit: heading, table, list, clause, paragraph, quote or code.

    ``units`` are the places a block may be split if it is larger than a chunk: table rows, list items,
    clauses' sentences. ``atomic`` blocks (tables, code, identifier blocks) are kept whole.
    """

    kind: str
    page: int
    start: int
    end: int
    units: list[Span] = field(default_factory=list)
    level: int = 0
    title: str = ""
    atomic: bool = False

    @property
    def size(self) -> int:
        return self.end - self.start


@dataclass(frozen=True)
class MarkdownLayout:
    """The parsed layout of one Markdown file."""

    text: str
    front_matter: dict[str, object]
    body_start: int
    blocks: tuple[Block, ...]
    pages: tuple[int, ...]


def parse_front_matter(text: str, source: str) -> tuple[dict[str, object], int]:
    """The ``key: value`` front matter between leading ``---`` lines, and the offset where the body starts.

    Values are strings, or lists for ``[a, b]``; this is deliberately not a YAML parser (titles contain
    colons and dashes, and nothing in the contract needs YAML's typing).
    """
    if not text.startswith("---\n"):
        raise ParseError(f"{source}: front matter: missing (the file must start with a '---' line)")
    end = text.find("\n---\n", 3)
    if end < 0:
        raise ParseError(f"{source}: front matter: no closing '---' line")
    fields: dict[str, object] = {}
    for number, line in enumerate(text[4:end].split("\n"), start=2):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key = key.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            raise ParseError(f"{source}: front matter line {number}: expected 'key: value', got {line!r}")
        if key in fields:
            raise ParseError(f"{source}: front matter: duplicate key {key!r}")
        fields[key] = _front_matter_value(value.strip())
    return fields, end + len("\n---\n")


def _front_matter_value(value: str) -> object:
    if value.startswith("[") and value.endswith("]"):
        inner = value[1:-1].strip()
        return [_unquote(v.strip()) for v in inner.split(",")] if inner else []
    if value in ("", "null", "~"):
        return None
    return _unquote(value)


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    return value


def _lines(text: str, start: int) -> Iterator[tuple[int, int, str]]:
    """(start, end without newline, line) for every line from ``start``."""
    position = start
    length = len(text)
    while position < length:
        newline = text.find("\n", position)
        end = length if newline < 0 else newline
        yield position, end, text[position:end]
        position = end + 1


def sentence_spans(text: str, start: int, end: int) -> list[Span]:
    """Sentence units of ``text[start:end]`` (used only to split an oversized paragraph or clause)."""
    spans: list[Span] = []
    cursor = start
    for match in _SENTENCE_END.finditer(text, start, end):
        spans.append(Span(cursor, match.start()))
        cursor = match.end()
    spans.append(Span(cursor, end))
    return [s for s in spans if s.size > 0]


def parse_layout(text: str, source: str) -> MarkdownLayout:
    """Front matter, pages and blocks of a canonical Markdown text."""
    front_matter, body_start = parse_front_matter(text, source)
    blocks: list[Block] = []
    pages: list[int] = []
    page = 1
    current: Block | None = None
    fence: str | None = None

    def close() -> None:
        nonlocal current
        if current is not None:
            _finish(current, text)
            blocks.append(current)
            current = None

    for start, end, line in _lines(text, body_start):
        if fence is not None:
            assert current is not None
            current.end = end
            if line.strip().startswith(fence):
                fence = None
                close()
            continue
        page_match = _PAGE.match(line)
        if page_match:
            close()
            page = int(page_match.group(1))
            if page < 1:
                raise ParseError(f"{source}: page marker at offset {start}: page numbers start at 1")
            pages.append(page)
            continue
        if not line.strip():
            close()
            continue
        heading = _HEADING.match(line)
        if heading:
            close()
            blocks.append(
                Block("heading", page, start, end, [Span(start, end)], level=len(heading.group(1)),
                      title=heading.group(2).strip())
            )
            continue
        fence_match = _FENCE.match(line)
        if fence_match:
            close()
            current = Block("code", page, start, end, atomic=True)
            fence = fence_match.group(1)
            continue
        if _TABLE.match(line):
            if current is None or current.kind != "table":
                close()
                current = Block("table", page, start, end, atomic=True)
            current.units.append(Span(start, end))
            current.end = end
            continue
        if _BULLET.match(line) or _NUMBERED.match(line):
            ordered = bool(_BULLET.match(line) or _ORDERED_ITEM.match(line))
            if current is not None and current.kind in ("list", "clause"):
                if ordered:
                    current.kind = "list"
            else:
                close()
                current = Block("list" if ordered else "clause", page, start, end)
            current.units.append(Span(start, end))
            current.end = end
            continue
        if _QUOTE.match(line):
            if current is None or current.kind != "quote":
                close()
                current = Block("quote", page, start, end)
            current.end = end
            continue
        if current is not None and current.kind in ("paragraph", "list", "clause", "quote"):
            # a continuation line belongs to the paragraph, list item or clause above it
            current.end = end
            if current.units and current.kind in ("list", "clause"):
                current.units[-1] = Span(current.units[-1].start, end)
            continue
        close()
        current = Block("paragraph", page, start, end)
    if fence is not None:
        raise ParseError(f"{source}: unterminated code fence")
    close()
    return MarkdownLayout(text, front_matter, body_start, tuple(blocks), tuple(pages))


def _finish(block: Block, text: str) -> None:
    """Compute split units and atomicity once a block is complete."""
    if block.kind in ("paragraph", "quote") or (block.kind == "clause" and len(block.units) == 1):
        block.units = sentence_spans(text, block.start, block.end)
    elif block.kind == "code":
        block.units = [Span(block.start, block.end)]
    lines = [line for line in text[block.start : block.end].split("\n") if line.strip()]
    identifier_lines = sum(1 for line in lines if next(find_identifiers(line), None) is not None)
    # Design note: a block where most lines carry identifiers (a parts list, a codes block) is an identifier
    # block: splitting it would separate codes from the labels that say what they are.
    if block.kind in ("list", "paragraph") and len(lines) > 1 and identifier_lines * 2 >= len(lines):
        block.atomic = True
    if block.kind == "table":
        block.atomic = True
