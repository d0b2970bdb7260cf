"""Passages: overlapping chunks merged without repeated text; snippets that keep the fact they are cited for."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval.passages import Hit, Segment, join_segments, merge_passages, snippet


def _document(sentences: int) -> str:
    return " ".join(f"Clause {i} states requirement number {i} for the supplier." for i in range(sentences))


def _chunks(text: str, size: int, overlap: int) -> list[Segment]:
    out, start, n = [], 0, 0
    while start < len(text):
        end = min(len(text), start + size)
        out.append(Segment(f"c{n:02d}", text[start:end], start, end))
        n += 1
        if end == len(text):
            break
        start = end - overlap
    return out


@settings(max_examples=60, deadline=None)
@given(size=st.integers(40, 200), overlap=st.integers(0, 30), data=st.data())
def test_overlapping_chunks_join_to_the_original_text(size: int, overlap: int, data: st.DataObject) -> None:
    text = _document(12)
    chunks = _chunks(text, size, min(overlap, size - 1))
    lo = data.draw(st.integers(0, len(chunks) - 1))
    hi = data.draw(st.integers(lo, len(chunks) - 1))
    joined, where = join_segments(chunks[lo:hi + 1])
    assert joined == text[chunks[lo].char_start:chunks[hi].char_end]
    for chunk in chunks[lo:hi + 1]:
        start, length = where[chunk.chunk_id]
        assert joined[start:start + length] == chunk.text


@settings(max_examples=60, deadline=None)
@given(size=st.integers(60, 160), overlap=st.integers(0, 30), data=st.data())
def test_merged_passages_never_repeat_a_chunk_and_keep_every_hit(size: int, overlap: int, data: st.DataObject) -> None:
    text = _document(15)
    chunks = _chunks(text, size, min(overlap, size - 1))
    hits = []
    for _ in range(data.draw(st.integers(1, 6))):
        own = data.draw(st.integers(0, len(chunks) - 1))
        lo, hi = max(0, own - data.draw(st.integers(0, 2))), min(len(chunks) - 1, own + data.draw(st.integers(0, 2)))
        hits.append(Hit("doc", 1, chunks[own].chunk_id, tuple(chunks[lo:hi + 1])))
    passages = merge_passages(hits)
    # every hit is a passage of its own or merged into one
    accounted = [p.chunk_id for p in passages] + [c for p in passages for c in p.merged_chunk_ids]
    assert sorted(accounted) == sorted(h.chunk_id for h in hits)
    # no chunk is shown twice, so no sentence repeats across passages (overlapping windows aside)
    shown = [c for p in passages for c in p.shown_chunk_ids]
    assert len(shown) == len(set(shown))
    for p in passages:
        start, length = p.focus
        cited = next(c for c in chunks if c.chunk_id == p.chunk_id)
        # the cited chunk is in its passage (less what an earlier passage already shows of an overlapping window)
        assert p.text[start:start + length] and p.text[start:start + length] in cited.text
        if overlap == 0:
            assert p.text[start:start + length] == cited.text
    sentences = [s for p in passages for s in re.findall(r"Clause \d+ states requirement number \d+", p.text)]
    assert len(sentences) == len(set(sentences))


def test_two_hits_of_one_section_give_one_passage() -> None:
    a, b, c = Segment("s1", "7.1 General.", 0, 12), Segment("s2", "7.2 Equipment.", 13, 27), Segment(
        "s3", "7.3 Calibration is required every 12 months.", 28, 73)
    passages = merge_passages([Hit("m", 1, "s3", (a, b, c)), Hit("m", 1, "s1", (a, b, c)),
                               Hit("m", 2, "s1", (a,))])
    assert [(p.chunk_id, p.merged_chunk_ids) for p in passages] == [("s3", ("s1",)), ("s1", ())]
    assert passages[0].text.count("7.1 General.") == 1


def test_the_snippet_keeps_the_cited_fact_at_the_end_of_a_long_passage() -> None:
    filler = " ".join(f"Sentence {i} is about installation and wiring of the sensor." for i in range(60))
    fact = "Calibration of the PRD-482 is required every 12 months."
    text = filler + " " + fact
    cut = snippet(text, (len(filler) + 1, len(fact)), "How often is the sensor calibrated?", max_chars=300)
    assert fact in cut
    assert len(cut) <= 302
    assert cut.startswith("…")


@settings(max_examples=80, deadline=None)
@given(position=st.integers(0, 59), bound=st.integers(120, 900), query=st.sampled_from(
    ["", "how often calibration", "What is the calibration interval?", "unrelated words entirely"]))
def test_a_snippet_always_contains_the_cited_sentence(position: int, bound: int, query: str) -> None:
    sentences = [f"Sentence {i} is about installation and wiring of the sensor." for i in range(60)]
    sentences[position] = "The interval is 12 months for calibration."
    text = " ".join(sentences)
    start = text.index("The interval")
    cut = snippet(text, (start, len(sentences[position])), query, max_chars=bound)
    assert "The interval is 12 months for calibration." in cut
    assert len(cut) <= bound + 2


def test_the_sentence_that_answers_is_kept_with_the_cited_one_when_both_fit() -> None:
    # the hit is the chunk with 7.3.2; the question's answer is its sibling 7.3.1 (section expansion)
    sibling = "7.3.1 Differential pressure calibration of the PRD-482 is required every 12 months."
    hit = "7.3.2 Equalise both process ports and perform the zero-point adjustment."
    filler = " ".join(f"6.{i} Commissioning step {i} of the transmitter." for i in range(40))
    text = f"{filler}\n\n{sibling}\n\n{hit} 7.3.4 The deviation must be within 0.25 % of span."
    cut = snippet(text, (text.index("7.3.2"), len(hit)), "What is the calibration interval for PRD-482?",
                  max_chars=300)
    assert sibling in cut and hit in cut
    assert len(cut) <= 302
