"""Layout-aware chunking (database-free): stable ids, exact spans, tables and identifier blocks never split."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.chunker import ChunkerConfig
from ingest.parsers import parse_item
from ingest.sources import SourceItem

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
AGREEMENT = FIXTURES / "tenant" / "agreements" / "agreement-2026-04.md"
MANUAL = FIXTURES / "tenant" / "manuals" / "manual-prd-482.md"


def _parse(text: str, config: ChunkerConfig | None = None, name: str = "agreement-2026-04.md"):
    return parse_item(SourceItem("t-1", f"/corpus/tenants/t-1/agreements/{name}", "markdown", text.encode()), config)


def _table_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ") and "---" not in line]


def test_chunk_ids_pages_parents_and_spans() -> None:
    text = AGREEMENT.read_text()
    doc = _parse(text)
    assert [c.chunk_id for c in doc.chunks] == [
        "agreement-2026-04-p01-c01", "agreement-2026-04-p01-c02", "agreement-2026-04-p02-c01",
        "agreement-2026-04-p03-c01", "agreement-2026-04-p03-c02",
    ]
    canonical = text.rstrip("\n") + "\n"
    for chunk in doc.chunks:
        assert canonical[chunk.char_start:chunk.char_end] == chunk.text  # spans are exact
        assert "<!-- page" not in chunk.text
    table = doc.chunks[-1]
    assert table.page == 3 and table.kind == "table" and table.parent_id == "agreement-2026-04-s04"
    assert table.section_path == ("Framework Purchasing Agreement 2026-04 — Company A", "12. Approved Vendors")
    assert table.embedding_text.startswith("Framework Purchasing Agreement 2026-04 — Company A\n")


def test_chunk_ids_are_stable_when_another_page_changes() -> None:
    text = AGREEMENT.read_text()
    before = {c.chunk_id: c.content_hash for c in _parse(text).chunks}
    edited = text.replace("12.3 Purchases from a supplier outside this table",
                          "12.3 Any purchase from a supplier that is not listed in this table")
    after = {c.chunk_id: c.content_hash for c in _parse(edited).chunks}
    assert before.keys() == after.keys()
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"agreement-2026-04-p03-c02"}
    assert _parse(text).chunks == _parse(text).chunks  # deterministic


def test_a_table_is_never_split_even_when_larger_than_a_chunk() -> None:
    rows = "\n".join(f"| Supplier {i} | SUP-{i} | Scope {i} | 2026-01-01 | open |" for i in range(10, 40))
    text = (AGREEMENT.read_text().split("| Supplier | Supplier ID")[0]
            + "| Supplier | Supplier ID | Scope | Valid from | Valid to |\n|---|---|---|---|---|\n" + rows + "\n")
    doc = _parse(text, ChunkerConfig(max_chars=300))
    tables = [c for c in doc.chunks if c.kind == "table"]
    assert len(tables) == 1 and len(tables[0].text) > 300
    assert _table_rows(tables[0].text) == _table_rows(text)[-31:]  # header + every row, in one chunk
    assert len(doc.records.vendor_approvals) == 30
    assert {a.chunk_id for a in doc.records.vendor_approvals} == {tables[0].chunk_id}


def test_an_oversized_table_splits_only_between_rows() -> None:
    rows = "\n".join(f"| Supplier {i} | SUP-{i} | Scope {i} | 2026-01-01 | open |" for i in range(10, 90))
    text = (AGREEMENT.read_text().split("| Supplier | Supplier ID")[0]
            + "| Supplier | Supplier ID | Scope | Valid from | Valid to |\n|---|---|---|---|---|\n" + rows + "\n")
    doc = _parse(text, ChunkerConfig(max_chars=300, table_hard_max_chars=1500))
    tables = [c for c in doc.chunks if c.kind == "table"]
    assert len(tables) > 1
    pieces = [row for t in tables for row in t.text.splitlines()]
    assert all(row.startswith("| ") and row.endswith(" |") for row in pieces if not row.startswith("|---"))
    assert _table_rows("\n".join(pieces)) == _table_rows(text)[-81:]  # every row exactly once, none cut


def test_long_clauses_split_between_sentences_and_lists_between_items() -> None:
    sentence = "The supplier keeps calibration records for every delivered device and shows them on request. "
    text = AGREEMENT.read_text().replace("1.2 Headings are for convenience only", "1.2 " + sentence * 12 + "Headings")
    doc = _parse(text, ChunkerConfig(max_chars=400))
    page_one = [c for c in doc.chunks if c.page == 1]
    assert len(page_one) > 3 and all(len(c.text) <= 400 for c in page_one)
    assert all(c.text.rstrip().endswith((".", "clause.")) or c.text.startswith("#") for c in page_one)
    assert all(c.parent_id == "agreement-2026-04-s02" for c in page_one[1:])


def test_overlap_repeats_trailing_sentences_of_the_same_section_only() -> None:
    sentence = "Each delivery note quotes the order number and the product codes of the goods. "
    text = AGREEMENT.read_text().replace("1.2 Headings are for convenience only", "1.2 " + sentence * 10 + "Headings")
    plain = _parse(text, ChunkerConfig(max_chars=400))
    overlapped = _parse(text, ChunkerConfig(max_chars=400, overlap_chars=120))
    assert [c.chunk_id for c in plain.chunks] == [c.chunk_id for c in overlapped.chunks]
    with_overlap = [c for c in overlapped.chunks if c.metadata.get("overlap_chars")]
    assert with_overlap and all(0 < c.metadata["overlap_chars"] <= 120 for c in with_overlap)
    for chunk in with_overlap:
        own = chunk.metadata["own_char_start"]
        assert chunk.char_start < own and chunk.text.endswith(plain.chunks[chunk.ordinal - 1].text)
    # overlap never repeats table rows: each row lives in exactly one chunk
    for row in _table_rows(text):
        assert sum(row in c.text for c in overlapped.chunks) == 1


def test_identifier_blocks_stay_whole() -> None:
    block = "\n".join(f"- PRD-{n}: spare part kit {n}" for n in range(500, 540))
    text = MANUAL.read_text().replace("## 2. Safety instructions", "## 2. Spare parts\n\n" + block + "\n\n## 3. Safety")
    doc = _parse(text, ChunkerConfig(max_chars=300), name="manual-prd-482.md")
    holders = [c for c in doc.chunks if "PRD-500" in c.text or "PRD-539" in c.text]
    assert len(holders) == 1 and "PRD-500" in holders[0].text and "PRD-539" in holders[0].text
    ids = {i.identifier_value for i in doc.identifiers if i.chunk_id == holders[0].chunk_id}
    assert {f"PRD-{n}" for n in range(500, 540)} <= ids


def test_prompt_injection_text_is_flagged_not_dropped() -> None:
    doc = _parse(MANUAL.read_text(), name="manual-prd-482.md")
    flagged = [c for c in doc.chunks if c.metadata.get("suspected_prompt_injection")]
    assert len(flagged) == 1 and "Ignore previous instructions" in flagged[0].text


@pytest.mark.parametrize("bad", [{"max_chars": 50}, {"overlap_chars": 900}, {"table_hard_max_chars": 10}])
def test_invalid_chunker_config_is_rejected(bad: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        ChunkerConfig(**bad)
