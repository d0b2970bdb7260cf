"""Ingestion integrity without a database: the corpus root as a boundary, manifests, size limits, errors that
name the file and the field, reserved master ids, and the arrival rule (versions only move forward)."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.errors import (
    ManifestMismatchError,
    ParseError,
    SourceBoundaryError,
    SourceTooLargeError,
    TenantError,
)
from ingest.parsers import parse_item
from ingest.pipeline import judge_arrival
from ingest.registry import DocumentState, VersionRow
from ingest.sources import SourceItem, document_path, iter_items, load_manifest, read_item

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"
INVOICE = "invoices/2026/invoice-2026-0148.json"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(FIXTURES / "tenant", root / "tenants" / "t-1")
    return root


def _errors(root: Path, **kwargs: object) -> dict[str, BaseException]:
    return {Path(i.source_uri).name: i.error for i in iter_items(root, **kwargs) if i.error is not None}  # type: ignore[arg-type]


def test_symlinks_are_never_followed(corpus: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside.json"
    secret.write_text((corpus / "tenants" / "t-1" / INVOICE).read_text())
    outside_dir = tmp_path / "outside-dir"
    outside_dir.mkdir()
    (outside_dir / "hidden.json").write_text(secret.read_text())
    folder = corpus / "tenants" / "t-1" / "invoices"
    (folder / "link.json").symlink_to(secret)
    (folder / "linked-dir").symlink_to(outside_dir)

    items = list(iter_items(corpus))

    errors = {Path(i.source_uri).name: i for i in items if i.error is not None}
    assert set(errors) == {"link.json", "linked-dir"}
    assert all(isinstance(i.error, SourceBoundaryError) and i.raw == b"" for i in errors.values())
    assert "link.json" in str(errors["link.json"].error)
    assert not any("hidden.json" in i.source_uri for i in items)
    # replay reads a recorded path only if it is still the same file, not a link swapped in
    target = folder / "2026" / "invoice-2026-0148.json"
    target.unlink()
    target.symlink_to(secret)
    again = read_item(str(target), "t-1")
    assert again is not None and isinstance(again.error, SourceBoundaryError) and again.raw == b""


def test_manifest_paths_leaving_the_root_are_not_read_and_sha256_mismatches_are_errors(corpus: Path) -> None:
    good = corpus / "tenants" / "t-1" / "companies.json"
    bad = corpus / "tenants" / "t-1" / "suppliers.json"
    (corpus / "manifest.json").write_text(json.dumps({"files": [
        {"path": "tenants/t-1/companies.json", "sha256": hashlib.sha256(good.read_bytes()).hexdigest()},
        {"path": "tenants/t-1/suppliers.json", "sha256": "0" * 64},
        {"path": "../../etc/hostname"},
        {"path": "/etc/hostname"},
    ]}))

    manifest = load_manifest(corpus)
    errors = _errors(corpus)

    assert manifest is not None and set(manifest.outside) == {"../../etc/hostname", "/etc/hostname"}
    assert set(errors) == {"suppliers.json"}
    assert isinstance(errors["suppliers.json"], ManifestMismatchError)
    assert str(bad) in str(errors["suppliers.json"]) and "manifest.json" in str(errors["suppliers.json"])


def test_sources_are_size_limited_and_jsonl_is_streamed_line_by_line(corpus: Path) -> None:
    folder = corpus / "tenants" / "t-1" / "invoices"
    (folder / "big.json").write_bytes(b" " * 5000 + b"{}")
    line = (folder / "2026" / "invoice-2026-0148.json").read_bytes().replace(b"\n", b"")
    (folder / "batches" / "mixed.jsonl").write_bytes(line + b"\n" + b"[" + b" " * 6000 + b"]\n\n" + line + b"\n")

    items = [i for i in iter_items(corpus, max_bytes=4096) if "big" in i.source_uri or "mixed" in i.source_uri]

    by_name = {i.source_uri.rsplit("/", 1)[1]: i for i in items}
    assert set(by_name) == {"big.json", "mixed.jsonl#L1", "mixed.jsonl#L2", "mixed.jsonl#L4"}
    assert isinstance(by_name["big.json"].error, SourceTooLargeError) and by_name["big.json"].raw == b""
    assert "5002 bytes" in str(by_name["big.json"].error) and "limit of 4096" in str(by_name["big.json"].error)
    assert isinstance(by_name["mixed.jsonl#L2"].error, SourceTooLargeError)
    assert by_name["mixed.jsonl#L1"].raw == line and by_name["mixed.jsonl#L4"].raw == line


def test_an_invalid_tenant_folder_is_one_error_and_the_rest_proceeds(corpus: Path) -> None:
    shutil.copytree(FIXTURES / "tenant", corpus / "tenants" / "Bad_Tenant")
    items = list(iter_items(corpus))
    bad = [i for i in items if "Bad_Tenant" in i.source_uri]
    good = [i for i in items if "/t-1/" in i.source_uri]
    assert bad and all(isinstance(i.error, TenantError) and "invalid tenant id" in str(i.error) for i in bad)
    assert good and all(i.error is None for i in good)


def test_a_tenant_option_contradicting_the_path_is_an_error(corpus: Path) -> None:
    with pytest.raises(TenantError, match="but --tenant is t-2"):
        list(iter_items(corpus / "tenants" / "t-1", tenant="t-2"))


def test_nul_characters_are_named_by_field_or_line(corpus: Path) -> None:
    data = json.loads((corpus / "tenants" / "t-1" / INVOICE).read_text())
    data["lines"][0]["description"] = "bad\u0000byte"
    item = SourceItem("t-1", "/c/tenants/t-1/invoices/x.json", "invoice", json.dumps(data).encode())
    with pytest.raises(ParseError, match=r"x\.json: lines\[0\]\.description: contains a NUL"):
        parse_item(item)
    text = "---\ndocument_id: m-1\ndocument_type: product_manual\ntitle: T\n---\n\n# A\n\nx\u0000y\n"
    with pytest.raises(ParseError, match=r"m\.md: line 9: contains a NUL"):
        parse_item(SourceItem("t-1", "/c/tenants/t-1/manuals/m.md", "markdown", text.encode()))


def test_master_document_ids_are_reserved_for_master_files(corpus: Path) -> None:
    data = json.loads((corpus / "tenants" / "t-1" / INVOICE).read_text())
    data["document_id"] = "suppliers"
    item = SourceItem("t-1", "/c/tenants/t-1/invoices/evil.json", "invoice", json.dumps(data).encode())
    with pytest.raises(ParseError, match=r"evil\.json: document_id: 'suppliers' is reserved for the suppliers"):
        parse_item(item)


def test_document_path_is_the_place_below_the_tenant_folder() -> None:
    assert document_path("/a/tenants/t-1/agreements/x.md") == document_path(
        "/b/export/updates/tenants/t-1/agreements/x.md") == "agreements/x.md"
    assert document_path("/a/tenants/t-1/invoices/batches/b.jsonl#L3") == "invoices/batches/b.jsonl"


# -- the arrival rule, simulated on registry states (the integration test runs it through the pipeline) ------


def _publish(state: DocumentState | None, content: str, revision: str | None) -> DocumentState:
    """What publishing does to the registry (the old active version becomes superseded)."""
    versions = [] if state is None else [
        VersionRow(v.document_version, v.content_hash, v.config_fingerprint,
                   "superseded" if v.status == "published" else v.status, v.expected, v.source_revision)
        for v in state.versions if v.content_hash != content
    ]
    existing = None if state is None else next((v for v in state.versions if v.content_hash == content), None)
    number = existing.document_version if existing else max((v.document_version for v in versions), default=0) + 1
    versions.append(VersionRow(number, content, "cfg", "published", {}, revision))
    versions.sort(key=lambda v: v.document_version)
    return DocumentState("t-1", "doc", number, False, tuple(versions), "agreement", "/c/tenants/t-1/a.md")


@settings(max_examples=300, deadline=None)
@given(order=st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=12),
       stated=st.booleans())
def test_any_arrival_order_converges_to_the_newest_arrived_version(order: list[int], stated: bool) -> None:
    state: DocumentState | None = None
    for index in order:
        content = f"sha256:{index:064d}"
        revision = f"r:{index:012d}" if stated else None
        active = None if state is None else state.active()
        if active is not None and active.content_hash == content:
            continue
        if judge_arrival(content, revision, state) is None:
            state = _publish(state, content, revision)
    assert state is not None
    active = state.active()
    assert active is not None
    if stated:
        # a stated order converges to the newest whatever the arrival order
        assert active.content_hash == f"sha256:{max(order):064d}"
    else:
        # without one, a version once superseded never comes back: the active one is the last new arrival
        first_seen = list(dict.fromkeys(order))
        assert active.content_hash == f"sha256:{first_seen[-1]:064d}"
