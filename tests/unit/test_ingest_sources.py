"""Discovery of sources (database-free): tenant from the path, kinds, order, JSONL lines, updates skipped."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ingest.errors import TenantError
from ingest.sources import count_items, iter_items, list_files, read_item, resolve_tenant, tenant_from_path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ingest"


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "tenant", tmp_path / "tenants" / "t-1")
    shutil.copytree(FIXTURES / "updates", tmp_path / "updates" / "tenants" / "t-1")
    (tmp_path / "manifest.json").write_text("{}")
    return tmp_path


def test_tenant_comes_from_the_path_or_the_option() -> None:
    assert tenant_from_path(Path("/x/tenants/t-9/invoices/a.json")) == "t-9"
    assert resolve_tenant(Path("/x/inbox/a.json"), "t-2") == "t-2"
    with pytest.raises(TenantError, match="but --tenant is t-2"):
        resolve_tenant(Path("/x/tenants/t-9/a.json"), "t-2")
    with pytest.raises(TenantError, match="pass --tenant"):
        resolve_tenant(Path("/x/inbox/a.json"), None)
    with pytest.raises(TenantError, match="invalid tenant id"):
        resolve_tenant(Path("/x/tenants/Bad_Tenant/a.json"), None)


def test_corpus_root_order_skips_updates_and_corpus_files(corpus: Path) -> None:
    names = [p.relative_to(corpus).as_posix() for p in list_files(corpus)]
    assert names[:5] == ["tenants/t-1/companies.json", "tenants/t-1/suppliers.json",
                         "tenants/t-1/catalog/product_groups.json", "tenants/t-1/catalog/products.csv",
                         "tenants/t-1/fx/fx_rates.csv"]
    assert not any(n.startswith("updates/") or n == "manifest.json" for n in names)
    # a replica comes after its original, so the original is the one kept
    assert names.index("tenants/t-1/invoices/2026/invoice-2026-0150.json") < names.index(
        "tenants/t-1/invoices/2026/invoice-2026-0150-erp-replica.json")
    assert [p.name for p in list_files(corpus / "updates")] == ["agreement-2026-04.md"]


def test_a_manifest_defines_the_arrival_order(corpus: Path) -> None:
    first = "tenants/t-1/invoices/2026/invoice-2026-0150-erp-replica.json"
    (corpus / "manifest.json").write_text(json.dumps({"files": [{"path": first, "tenant_id": "t-1"}]}))
    assert list_files(corpus)[0].relative_to(corpus).as_posix() == first


def test_jsonl_batches_yield_one_item_per_line_and_read_item_finds_it_again(corpus: Path) -> None:
    items = [i for i in iter_items(corpus) if "#L" in i.source_uri]
    assert [i.source_uri.rsplit("/", 1)[1] for i in items] == ["batch-001.jsonl#L1", "batch-001.jsonl#L2"]
    again = read_item(items[1].source_uri, "t-1")
    assert again is not None and again.raw == items[1].raw and again.kind == "invoice"
    assert read_item(items[1].source_uri.replace("#L2", "#L9"), "t-1") is None


def test_tenant_option_limits_a_corpus_root(corpus: Path) -> None:
    shutil.copytree(FIXTURES / "tenant", corpus / "tenants" / "t-2")
    assert {i.tenant_id for i in iter_items(corpus)} == {"t-1", "t-2"}
    assert {i.tenant_id for i in iter_items(corpus, tenant="t-2")} == {"t-2"}


def test_count_items_is_the_number_of_items_a_run_sees(corpus: Path) -> None:
    # The progress bar's total: one per file, one per non-blank JSONL line, one per refused source.
    batch = corpus / "tenants" / "t-1" / "extra.jsonl"
    batch.write_text('{"a": 1}\n\n{"a": 2}\n   \n{"a": 3}\n')
    for root in (corpus, corpus / "updates"):
        assert count_items(root) == sum(1 for _ in iter_items(root))
