"""Passages for answers: overlapping chunks merged, and snippets that keep the fact they are cited for.

Pure functions, no database. A search hit is expanded to the chunks around it (its section); two hits of one
document version often expand to overlapping runs of chunks, and chunks themselves may overlap (the chunker's
``overlap_chars``). :func:`merge_passages` turns the hits into passages in which every character of the document
appears at most once across all passages: a hit whose own chunk is already inside an earlier passage is merged
into it, and chunks already shown are not repeated. :func:`snippet` cuts a passage to a length bound around the
cited chunk, so the sentence the citation rests on is never cut away.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

_WORD = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n+")
#: Words that carry no topic (they would pull a snippet towards any sentence).
_STOP = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how",
    "in", "is", "it", "its", "of", "on", "or", "the", "this", "that", "to", "was", "what", "when", "where",
    "which", "who", "why", "with", "about", "say", "says", "said",
))


@dataclass(frozen=True)
class Segment:
    """One chunk of a document version: its id, text and character span (None for record chunks)."""

    chunk_id: str
    text: str
    char_start: int | None = None
    char_end: int | None = None


@dataclass(frozen=True)
class Hit:
    """A search hit: its document version, its own chunk, and the chunks it was expanded to (in document order)."""

    document_id: str
    document_version: int | None
    chunk_id: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Passage:
    """Merged evidence: the cited chunk, the hits merged into it, and text in which nothing repeats."""

    document_id: str
    document_version: int | None
    chunk_id: str
    merged_chunk_ids: tuple[str, ...]
    text: str
    #: offset and length of the cited chunk's own text inside ``text`` (where the cited fact is)
    focus: tuple[int, int]
    #: every chunk whose text the passage shows (disjoint across the passages of one document version)
    shown_chunk_ids: tuple[str, ...] = ()


def join_segments(segments: Sequence[Segment]) -> tuple[str, dict[str, tuple[int, int]]]:
    """The segments' text in document order with overlapping spans contributing their characters once, and where
    each segment's own text starts in it (offset, length of what it added).

    >>> join_segments([Segment("a", "one two", 0, 7), Segment("b", "two three", 4, 13)])[0]
    'one two three'
    >>> join_segments([Segment("a", "alpha", 0, 5), Segment("b", "beta", 7, 11)])[0]
    'alpha\\n\\nbeta'
    """
    ordered = sorted(segments, key=lambda s: (s.char_start is None, s.char_start or 0))
    text = ""
    end: int | None = None
    where: dict[str, tuple[int, int]] = {}
    for seg in ordered:
        piece = seg.text
        if end is not None and seg.char_start is not None and seg.char_end is not None:
            if seg.char_end <= end:
                # wholly inside what is already there
                start = len(text) - (end - seg.char_start)
                where[seg.chunk_id] = (max(start, 0), len(seg.text))
                continue
            if seg.char_start <= end:
                # overlapping or contiguous: the text continues where the previous span ended
                piece = seg.text[end - seg.char_start:]
                where[seg.chunk_id] = (len(text) - (end - seg.char_start), len(seg.text))
                text += piece
                end = seg.char_end
                continue
        sep = "\n\n" if text else ""
        where[seg.chunk_id] = (len(text) + len(sep), len(piece))
        text += sep + piece
        end = seg.char_end if seg.char_end is not None else end
    return text, where


def merge_passages(hits: Sequence[Hit]) -> list[Passage]:
    """One passage per hit in rank order, without repeated text across passages.

    A hit whose own chunk is part of an earlier passage of the same document version is merged into that passage
    (listed in its ``merged_chunk_ids``); chunks an earlier passage already holds are dropped from later ones.

    >>> s1, s2, s3 = Segment("c1", "A.", 0, 2), Segment("c2", "B.", 3, 5), Segment("c3", "C.", 6, 8)
    >>> out = merge_passages([Hit("d", 1, "c1", (s1, s2)), Hit("d", 1, "c2", (s1, s2)), Hit("d", 1, "c3", (s2, s3))])
    >>> [(p.chunk_id, p.merged_chunk_ids, p.text) for p in out]
    [('c1', ('c2',), 'A.\\n\\nB.'), ('c3', (), 'C.')]
    """
    shown: dict[tuple[str, int | None], set[str]] = {}
    covered: dict[tuple[str, int | None], list[tuple[int, int, int]]] = {}  # (start, end, passage index)
    owner: dict[tuple[str, int | None, str], int] = {}
    passages: list[Passage] = []
    merged: dict[int, list[str]] = {}
    for hit in hits:
        key = (hit.document_id, hit.document_version)
        own = next((s for s in hit.segments if s.chunk_id == hit.chunk_id), None)
        ranges = covered.setdefault(key, [])
        earlier = owner.get((*key, hit.chunk_id))
        if earlier is None and own is not None and _trimmed(own, ranges) is None:
            # its text is wholly inside an earlier passage (overlapping windows)
            earlier = next(i for a, b, i in ranges if a <= (own.char_start or 0) < b)
        if earlier is not None:
            merged.setdefault(earlier, []).append(hit.chunk_id)
            continue
        seen = shown.setdefault(key, set())
        segments = [t for s in hit.segments if s.chunk_id not in seen and (t := _trimmed(s, ranges)) is not None]
        if not any(s.chunk_id == hit.chunk_id for s in segments):
            segments.append(own or Segment(hit.chunk_id, "", None, None))
        text, where = join_segments(segments)
        index = len(passages)
        for seg in segments:
            seen.add(seg.chunk_id)
            owner[(*key, seg.chunk_id)] = index
            if seg.char_start is not None and seg.char_end is not None:
                ranges.append((seg.char_start, seg.char_end, index))
        passages.append(Passage(hit.document_id, hit.document_version, hit.chunk_id, (), text,
                                where.get(hit.chunk_id, (0, len(text))), tuple(s.chunk_id for s in segments)))
    return [replace(p, merged_chunk_ids=tuple(merged.get(i, ()))) for i, p in enumerate(passages)]


def _trimmed(segment: Segment, ranges: Sequence[tuple[int, int, int]]) -> Segment | None:
    """``segment`` without the characters at its edges that earlier passages already show; None if nothing is
    left. (Spans covered only in the middle are kept: chunk windows overlap at their edges.)

    >>> _trimmed(Segment("b", "two three", 4, 13), [(0, 7, 0)])
    Segment(chunk_id='b', text='three', char_start=8, char_end=13)
    """
    if segment.char_start is None or segment.char_end is None:
        return segment
    start, end = segment.char_start, segment.char_end
    for _ in range(2):  # a second pass catches a range that became an edge after the first trim
        for a, b, _index in sorted(ranges):
            if a <= start < b:
                start = b
            if a < end <= b:
                end = a
    if start >= end:
        return None
    if (start, end) == (segment.char_start, segment.char_end):
        return segment
    text = segment.text[start - segment.char_start:end - segment.char_start]
    # a trimmed edge starts or ends mid-word: keep it from the next word on
    stripped = text.lstrip()
    return Segment(segment.chunk_id, stripped, start + len(text) - len(stripped), end)


def _terms(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP and len(w) > 1}


def _overlap(wanted: set[str], sentence: str) -> int:
    """Query terms in ``sentence``; a term of six letters or more also matches on its first six ("calibrated")."""
    words = _terms(sentence)
    stems = {w[:6] for w in words if len(w) >= 6}
    return sum(1 for t in wanted if t in words or (len(t) >= 6 and t[:6] in stems))


def snippet(text: str, focus: tuple[int, int], query: str = "", max_chars: int = 900,
            score: Callable[[str], float] | None = None) -> str:
    """``text`` cut to at most ``max_chars`` characters (plus ellipses) around the fact it is cited for.

    The anchor is the sentence sharing the most terms with ``query`` (a six-letter stem counts: "required"
    matches "requirements"; on a tie, one from which the cited chunk's best sentence is within the bound, then the
    earliest), or, when no sentence shares any, the cited chunk's best sentence (the chunk at ``focus``). The
    anchor is always whole in the window (cut at its end only if it alone exceeds the bound); the cited chunk's
    best sentence is added when it fits; then the window grows forward in reading order and finally backward, at
    sentence boundaries. Whitespace runs are collapsed. ``score``, when given, replaces the shared-terms count
    (a question about a named document scores sentences by its topic alone, :mod:`retrieval.topics`).

    >>> body = "Intro. " * 200 + "Calibration is due every 12 months. " + "Outro. " * 200
    >>> at = body.index("Calibration")
    >>> cut = snippet(body, (at, 36), "how often is calibration due?", max_chars=120)
    >>> "Calibration is due every 12 months." in cut and len(cut) <= 122
    True
    """
    pieces: list[tuple[int, str]] = []
    last = 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append((last, text[last:match.start()]))
        last = match.end()
    pieces.append((last, text[last:]))
    flat_parts: list[str] = []
    sentences: list[tuple[int, int]] = []  # (index in flat_parts, raw start offset in text)
    for raw_start, piece in pieces:
        words = " ".join(piece.split())
        if words:
            sentences.append((len(flat_parts), raw_start))
            flat_parts.append(words)
    flat = " ".join(flat_parts)
    if len(flat) <= max_chars:
        return flat
    focus_start, focus_length = focus
    focus_end = focus_start + focus_length
    inside = [i for i, (_, raw) in enumerate(sentences) if focus_start <= raw < max(focus_end, focus_start + 1)]
    if not inside:
        inside = [max((i for i, (_, raw) in enumerate(sentences) if raw <= focus_start), default=0)]
    wanted = _terms(query)
    scores = [score(part) if score is not None else float(_overlap(wanted, part)) for part in flat_parts]
    cited = max(inside, key=lambda i: (scores[i], -i))
    prefix = [0]
    for part in flat_parts:
        prefix.append(prefix[-1] + len(part) + 1)

    def reaches_cited(i: int) -> bool:
        a, b = min(i, cited), max(i, cited)
        return prefix[b + 1] - prefix[a] - 1 <= max_chars

    # the best match; among equally good ones, one whose window can also hold the cited sentence, then the earliest
    anchor = max(range(len(flat_parts)), key=lambda i: (scores[i], reaches_cited(i), -i)) if any(scores) else cited
    lo = hi = anchor
    size = len(flat_parts[anchor])

    def fits(j: int) -> bool:
        return size + 1 + len(flat_parts[j]) <= max_chars

    # the cited chunk's sentence too, when the sentences between fit
    between = range(hi + 1, cited + 1) if cited > hi else range(cited, lo)
    if cited != anchor and size + sum(1 + len(flat_parts[j]) for j in between) <= max_chars:
        size += sum(1 + len(flat_parts[j]) for j in between)
        lo, hi = min(lo, cited), max(hi, cited)
    while hi + 1 < len(flat_parts) and fits(hi + 1):
        hi += 1
        size += 1 + len(flat_parts[hi])
    while lo > 0 and fits(lo - 1):
        lo -= 1
        size += 1 + len(flat_parts[lo])
    window = " ".join(flat_parts[lo:hi + 1])
    if len(window) > max_chars:
        # one sentence longer than the bound: keep its start, where the sentence's subject is
        window = window[:max_chars - 1].rsplit(" ", 1)[0]
    return ("…" if lo > 0 else "") + window + ("…" if hi < len(flat_parts) - 1 or len(window) < size else "")
