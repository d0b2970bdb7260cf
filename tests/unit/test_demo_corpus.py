"""The demo corpus generator: determinism, file contract, seed scenario, scale, CLI."""

from __future__ import annotations

import csv
import hashlib
import json
import re
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from jobs.cli import demo
from procura.demo import CorpusSummary, DemoCorpusError, generate
from procura.demo.ground_truth import normalize_supplier_name

MONEY = re.compile(r"^-?\d+\.\d{2}$")
QUANTITY = re.compile(r"^-?\d+(\.\d+)?$")
KINDS = {"companies", "suppliers", "product_groups", "products", "fx_rates", "agreement", "product_manual",
         "invoice", "invoice_batch"}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _invoices(root: Path, tenant: str) -> dict[str, dict[str, Any]]:
    """Latest version of every invoice document of a tenant (updates replace originals)."""
    found: dict[str, dict[str, Any]] = {}
    for base in (root / "tenants" / tenant / "invoices", root / "updates" / "tenants" / tenant / "invoices"):
        for path in sorted(base.rglob("*.json")):
            doc = json.loads(path.read_text(encoding="utf-8"))
            found[doc["document_id"]] = doc
    for path in sorted((root / "tenants" / tenant / "invoices").glob("batches/*.jsonl")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            doc = json.loads(raw)
            found[doc["document_id"]] = doc
    return found


def _by_number(root: Path, tenant: str = "tenant-42") -> dict[str, dict[str, Any]]:
    return {d["invoice_number"]: d for d in _invoices(root, tenant).values() if d["source_system"] == "erp"}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CorpusSummary]:
    out = tmp_path_factory.mktemp("demo") / "corpus"
    return out, generate(out)


@pytest.fixture(scope="module")
def root(corpus: tuple[Path, CorpusSummary]) -> Path:
    return corpus[0]


@pytest.fixture(scope="module")
def scaled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, CorpusSummary]:
    out = tmp_path_factory.mktemp("demo-scale") / "corpus"
    return out, generate(out, scale=3)


# --- determinism and the file contract ------------------------------------------------------------------

def test_same_seed_and_scale_give_byte_identical_files(root: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    generate(again)
    first, second = _files(root), _files(again)
    assert first.keys() == second.keys()
    assert [name for name in first if first[name] != second[name]] == []


def test_other_seed_changes_background_but_not_the_seed_scenario(root: Path, tmp_path: Path) -> None:
    other = tmp_path / "seed7"
    generate(other, seed=7)
    ours, theirs = _files(root), _files(other)
    assert ours["tenants/tenant-42/invoices/2026/invoice-2026-0148.json"] == theirs[
        "tenants/tenant-42/invoices/2026/invoice-2026-0148.json"]
    assert ours.keys() != theirs.keys() or any(ours[k] != theirs[k] for k in ours)
    seed_questions = {q["name"]: q for q in json.loads(ours["ground_truth.json"])["questions"]}
    for question in json.loads(theirs["ground_truth.json"])["questions"]:
        if question["tenant_id"] == "tenant-42" and question["parameters"].get("company_id") == "COMP-A":
            assert question == seed_questions[question["name"]]


def test_manifest_lists_every_source_file_with_its_hash(root: Path) -> None:
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    files = _files(root)
    listed = [entry["path"] for entry in manifest["files"]]
    assert sorted(listed) == sorted(set(files) - {"manifest.json", "ground_truth.json"})
    for entry in manifest["files"]:
        data = files[entry["path"]]
        assert entry["sha256"] == hashlib.sha256(data).hexdigest(), entry["path"]
        assert entry["bytes"] == len(data)
        assert entry["kind"] in KINDS
        assert entry["path"].split("/")[1 if entry["path"].startswith("tenants/") else 2] == entry["tenant_id"]
    assert manifest["generator"] == {"seed": 42, "scale": 1, "version": manifest["generator"]["version"]}


def test_manifest_order_is_ingestion_order(root: Path) -> None:
    listed = [e["path"] for e in json.loads((root / "manifest.json").read_text(encoding="utf-8"))["files"]]
    first_update = next(i for i, p in enumerate(listed) if p.startswith("updates/"))
    assert all(p.startswith("updates/") for p in listed[first_update:])
    position = {p: i for i, p in enumerate(listed)}
    original = "tenants/tenant-42/invoices/2026/invoice-2026-0150.json"
    replica = "tenants/tenant-42/invoices/2026/invoice-2026-0150-erp-replica.json"
    assert position[original] < position[replica]
    tenant_42 = [p for p in listed if p.startswith("tenants/tenant-42/")]
    assert tenant_42[:5] == [f"tenants/tenant-42/{name}" for name in (
        "companies.json", "suppliers.json", "catalog/product_groups.json", "catalog/products.csv",
        "fx/fx_rates.csv")]


def test_money_is_always_a_two_decimal_string(root: Path) -> None:
    checked = 0
    for tenant in ("tenant-17", "tenant-42", "tenant-99"):
        for doc in _invoices(root, tenant).values():
            assert MONEY.match(doc["header_tax_amount"])
            for line in doc["lines"]:
                for key in ("unit_price", "discount_amount", "line_net_amount"):
                    assert isinstance(line[key], str) and MONEY.match(line[key]), (doc["document_id"], key)
                assert line["line_tax_amount"] is None or MONEY.match(line["line_tax_amount"])
                assert QUANTITY.match(line["quantity"])
                checked += 1
        with (root / "tenants" / tenant / "catalog" / "products.csv").open(encoding="utf-8") as handle:
            assert all(MONEY.match(row["list_price"]) for row in csv.DictReader(handle))
    assert checked > 500


def test_invoice_amounts_follow_the_field_contract(root: Path) -> None:
    from decimal import Decimal

    for tenant in ("tenant-17", "tenant-42", "tenant-99"):
        for doc in _invoices(root, tenant).values():
            header = abs(Decimal(doc["header_tax_amount"]))
            if doc["document_type"] == "invoice":
                assert all(not line["quantity"].startswith("-") for line in doc["lines"])
            else:
                assert doc["original_invoice_number"]
            for line in doc["lines"]:
                gross = abs(Decimal(line["quantity"])) * Decimal(line["unit_price"])
                assert gross - abs(Decimal(line["discount_amount"])) == abs(Decimal(line["line_net_amount"]))
            if doc["tax_level"] == "line":
                assert sum(abs(Decimal(line["line_tax_amount"])) for line in doc["lines"]) == header
            else:
                assert all(line["line_tax_amount"] is None for line in doc["lines"])


def test_every_invoice_supplier_name_resolves_through_the_alias_table(root: Path) -> None:
    for tenant in ("tenant-17", "tenant-42", "tenant-99"):
        suppliers = json.loads((root / "tenants" / tenant / "suppliers.json").read_text(encoding="utf-8"))
        aliases = {normalize_supplier_name(a): s["supplier_id"] for s in suppliers for a in s["aliases"]}
        names = {doc["supplier_name"] for doc in _invoices(root, tenant).values()}
        assert not [n for n in names if normalize_supplier_name(n) not in aliases]
        assert any(n not in {a for s in suppliers for a in s["aliases"]} for n in names)  # real variants occur


def test_fx_rates_cover_every_day_except_documented_gaps(root: Path) -> None:
    truth = json.loads((root / "ground_truth.json").read_text(encoding="utf-8"))
    documented = {(m["tenant_id"], m["rate_date"], m["from_currency"]) for m in truth["fx_missing_rates"]}
    assert documented == {("tenant-99", "2026-02-11", "CHF")}
    for tenant in ("tenant-17", "tenant-42", "tenant-99"):
        with (root / "tenants" / tenant / "fx" / "fx_rates.csv").open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        corporate = {(r["rate_date"], r["from_currency"]) for r in rows if r["rate_type"] == "corporate"}
        assert {r["rate_type"] for r in rows} == {"corporate", "spot"}
        assert all(re.match(r"^\d+\.\d{8}$", r["rate"]) for r in rows)
        day = date(2025, 7, 1)
        while day <= date(2026, 12, 31):
            for currency in ("CHF", "GBP", "USD"):
                expected = (tenant, day.isoformat(), currency) not in documented
                assert ((day.isoformat(), currency) in corporate) == expected, (tenant, day, currency)
            day += timedelta(days=1)
        for doc in _invoices(root, tenant).values():
            if doc["currency"] != "EUR" and (tenant, doc["posting_date"], doc["currency"]) not in documented:
                assert (doc["posting_date"], doc["currency"]) in corporate, doc["document_id"]


# --- the seed scenario ----------------------------------------------------------------------------------

def test_seed_invoice_inv_2026_0148(root: Path) -> None:
    doc = json.loads((root / "tenants/tenant-42/invoices/2026/invoice-2026-0148.json").read_text(encoding="utf-8"))
    assert (doc["invoice_number"], doc["currency"], doc["status"]) == ("INV-2026-0148", "USD", "posted")
    assert doc["lines"][3]["product_code"] == "PRD-482"
    assert doc["lines"][3]["line_net_amount"] == "1900.00"  # 10 x 200.00 - 100.00 discount, not subtracted twice
    assert doc["supplier_name"] == "Beta Supplies GmbH"


def test_seed_quarter_contains_every_trap(root: Path) -> None:
    docs = _invoices(root, "tenant-42")
    q1 = [d for d in docs.values() if d["company_id"] == "COMP-A" and "2026-01-01" <= d["invoice_date"] < "2026-04-01"]
    assert any(d["status"] == "cancelled" for d in q1)
    assert any(d["status"] == "draft" for d in q1)
    assert any(d["source_system"] == "erp-replica" for d in q1)
    assert any(d["currency"] == "USD" for d in q1)
    assert any(d["tax_level"] == "invoice" for d in q1)
    notes = [d for d in q1 if d["document_type"] == "credit_note"]
    assert {n["lines"][0]["quantity"].startswith("-") for n in notes} == {True, False}  # both sign styles
    outside = [d for d in docs.values() if d["company_id"] == "COMP-A" and d["invoice_date"] in
               ("2025-12-30", "2026-04-01")]
    assert len(outside) == 2
    expired = [d for d in q1 if normalize_supplier_name(d["supplier_name"]) == "epsilon instruments"]
    assert expired and expired[0]["status"] == "posted"


def test_update_changes_an_invoice_status_and_an_approval(root: Path) -> None:
    base = json.loads((root / "tenants/tenant-42/invoices/2026/invoice-2026-0161.json").read_text(encoding="utf-8"))
    update = json.loads(
        (root / "updates/tenants/tenant-42/invoices/2026/invoice-2026-0161.json").read_text(encoding="utf-8"))
    assert (base["status"], update["status"]) == ("draft", "posted")
    assert {k: v for k, v in base.items() if k != "status"} == {k: v for k, v in update.items() if k != "status"}
    original = (root / "tenants/tenant-42/agreements/agreement-2025-09.md").read_text(encoding="utf-8")
    amended = (root / "updates/tenants/tenant-42/agreements/agreement-2025-09.md").read_text(encoding="utf-8")
    assert "| SUP-44 | Calibration kits and consumables | 2025-09-01 | open |" in original
    assert "| SUP-44 | Calibration kits and consumables | 2025-09-01 | 2026-10-01 |" in amended
    assert "document_id: agreement-2025-09" in amended


def test_agreement_2026_04_puts_the_approved_vendors_on_page_12(root: Path) -> None:
    text = (root / "tenants/tenant-42/agreements/agreement-2026-04.md").read_text(encoding="utf-8")
    assert text.startswith("---\ndocument_id: agreement-2026-04\ndocument_type: agreement\n")
    page_12 = text.split("<!-- page 12 -->", 1)[1].split("<!-- page 13 -->", 1)[0]
    assert "| Supplier | Supplier ID | Scope | Valid from | Valid to |" in page_12
    for row in ("| SUP-18 | Industrial sensors | 2025-07-01 | open |", "| SUP-27 |",
                "| SUP-31 | Control cabinets (2026 retrofit) | 2026-01-01 | 2026-07-01 |",
                "| SUP-22 | Flow sensors (phased out) | 2025-07-01 | 2026-01-01 |",
                "| SUP-35 | Pressure and temperature sensors | 2026-07-01 | open |"):
        assert row in page_12
    assert re.search(r"^## \d+\. ", text, re.M) and re.search(r"^\d+\.\d+ ", text, re.M)
    assert re.search(r"^1\. ", text, re.M) and re.search(r"^- ", text, re.M)  # numbered and bulleted lists


def test_prd_482_is_a_pressure_sensor_under_monitoring_products(root: Path) -> None:
    groups = {g["product_group_id"]: g for g in json.loads(
        (root / "tenants/tenant-42/catalog/product_groups.json").read_text(encoding="utf-8"))}
    with (root / "tenants/tenant-42/catalog/products.csv").open(encoding="utf-8") as handle:
        products = {row["product_code"]: row for row in csv.DictReader(handle)}
    chain, current = [], products["PRD-482"]["product_group_id"]
    while current:
        chain.append(groups[current]["group_name"])
        current = groups[current]["parent_group_id"]
    assert chain == ["Pressure Sensors", "Sensors", "Monitoring Products"]
    assert products["PRD-482"]["supplier_id"] == "SUP-18"
    depths = []
    for gid in groups:
        depth, current = 0, groups[gid]["parent_group_id"]
        while current:
            depth, current = depth + 1, groups[current]["parent_group_id"]
        depths.append(depth)
    assert max(depths) == 3  # >= 3 levels below a root, and within the graph's PART_OF*0..3 bound


def test_calibration_clause_and_prompt_injection_are_unique(root: Path) -> None:
    calibration, injection = [], []
    for path in sorted((root / "tenants").rglob("*.md")):
        text = path.read_text(encoding="utf-8").casefold()
        if "differential pressure calibration" in text:
            calibration.append(path.relative_to(root).as_posix())
        if "ignore previous instructions" in text:
            injection.append(path.relative_to(root).as_posix())
    assert calibration == ["tenants/tenant-17/manuals/manual-prd-482.md",
                           "tenants/tenant-42/manuals/manual-prd-482.md"]
    assert injection == ["tenants/tenant-42/manuals/manual-prd-530.md"]


def test_other_tenants_reuse_codes_names_and_ids_with_different_data(root: Path) -> None:
    def product_482(tenant: str) -> tuple[str, ...]:
        with (root / "tenants" / tenant / "catalog" / "products.csv").open(encoding="utf-8") as handle:
            row = next(r for r in csv.DictReader(handle) if r["product_code"] == "PRD-482")
        return row["product_name"], row["supplier_id"], row["list_price"]

    assert len({product_482(t) for t in ("tenant-17", "tenant-42", "tenant-99")}) == 3
    beta = {}
    for tenant in ("tenant-17", "tenant-42", "tenant-99"):
        suppliers = json.loads((root / "tenants" / tenant / "suppliers.json").read_text(encoding="utf-8"))
        beta[tenant] = next(s for s in suppliers if s["supplier_name"] == "Supplier Beta")
    assert len({(s["supplier_id"], s["iban"], s["contact_email"]) for s in beta.values()}) == 3
    assert all("@" in s["contact_email"] for s in beta.values())
    a42 = (root / "tenants/tenant-42/agreements/agreement-2026-04.md").read_text(encoding="utf-8")
    a99 = (root / "tenants/tenant-99/agreements/agreement-2026-04.md").read_text(encoding="utf-8")
    assert a42 != a99 and "company_id: COMP-X" in a99
    assert (root / "tenants/tenant-17/invoices/2026/invoice-2026-0148.json").is_file()


def test_supplier_ibans_carry_valid_check_digits(root: Path) -> None:
    ibans = [s["iban"] for t in ("tenant-17", "tenant-42", "tenant-99")
             for s in json.loads((root / "tenants" / t / "suppliers.json").read_text(encoding="utf-8"))
             if s["iban"]]
    assert "DE89370400440532013000" in ibans and len(ibans) >= 10
    for iban in ibans:
        digits = "".join(str(int(ch, 36)) for ch in iban[4:] + iban[:4])
        assert int(digits) % 97 == 1, iban


# --- scale, output directory, CLI -----------------------------------------------------------------------

def test_scale_adds_batches_text_and_keeps_the_seed_answers(
    corpus: tuple[Path, CorpusSummary], scaled: tuple[Path, CorpusSummary]
) -> None:
    (small_root, small), (big_root, big) = corpus, scaled
    assert big.invoice_lines > small.invoice_lines + 2 * 3 * 500
    assert big.chunks_estimate > small.chunks_estimate * 2
    assert sorted(p.name for p in (big_root / "tenants/tenant-42/invoices/batches").glob("*.jsonl"))
    assert not (small_root / "tenants/tenant-42/invoices/batches").exists()
    lines = sum(len(d["lines"]) for t in ("tenant-17", "tenant-42", "tenant-99")
                for d in _invoices(big_root, t).values())
    updated = len(json.loads((big_root / "updates/tenants/tenant-42/invoices/2026/invoice-2026-0161.json")
                             .read_text(encoding="utf-8"))["lines"])
    assert lines + updated == big.invoice_lines  # summary counts versions; the update repeats one invoice
    small_q = {q["name"]: q for q in json.loads((small_root / "ground_truth.json").read_text())["questions"]}
    big_q = {q["name"]: q for q in json.loads((big_root / "ground_truth.json").read_text())["questions"]}
    for name in ("seed_monitoring_spend_2026q1", "approved_vendor_spend_2026q1", "zero_spend_comp_b_sup44_2026q1",
                 "no_data_comp_b_sup44_2025q4", "tax_total_seed_invoices", "unit_price_prd482_2026_03"):
        assert small_q[name] == big_q[name], name
    assert small_q["spend_by_supplier_comp_c_2025q4"] != big_q["spend_by_supplier_comp_c_2025q4"]


def test_regenerating_replaces_an_earlier_corpus(scaled: tuple[Path, CorpusSummary], tmp_path: Path) -> None:
    target = tmp_path / "reuse"
    generate(target, scale=2)
    assert list((target / "tenants/tenant-42/invoices/batches").glob("*.jsonl"))
    generate(target)
    assert not (target / "tenants/tenant-42/invoices/batches").exists()


def test_refuses_a_non_corpus_directory_and_bad_scale(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(DemoCorpusError):
        generate(tmp_path)
    assert (tmp_path / "notes.txt").read_text() == "keep me"
    with pytest.raises(DemoCorpusError):
        generate(tmp_path / "new", scale=0)


def test_summary_and_progress(tmp_path: Path) -> None:
    messages: list[str] = []
    summary = generate(tmp_path / "c", progress=messages.append)
    assert summary.tenants == ("tenant-17", "tenant-42", "tenant-99")
    assert summary.invoice_documents < summary.documents <= summary.files + summary.invoice_documents
    assert summary.text_bytes > 100_000 and summary.chunks_estimate >= summary.text_bytes // 800 // 2
    assert any("invoice lines" in m for m in messages) and any("ground truth" in m for m in messages)
    with pytest.raises(AttributeError):
        summary.seed = 1  # type: ignore[misc]  # frozen dataclass: the assignment itself is the test


def test_cli_generate_prints_progress_and_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(demo, ["generate", "--out", str(tmp_path / "cli"), "--seed", "42", "--scale", "1"])
    assert result.exit_code == 0, result.output
    assert "invoice lines:" in result.output and "tenants:        3" in result.output
    assert "[procura] tenant-42:" in result.output  # progress (stderr, mixed in by CliRunner)
    assert (tmp_path / "cli" / "ground_truth.json").is_file()
    bad = CliRunner().invoke(demo, ["generate", "--out", str(tmp_path / "x"), "--scale", "0"])
    assert bad.exit_code != 0


def test_every_product_group_carries_german_synonyms_that_land_as_rows(root: Path) -> None:
    from ingest.parsers import parse_item
    from ingest.sources import SourceItem

    for tenant in ("tenant-17", "tenant-42", "tenant-99"):
        path = root / f"tenants/{tenant}/catalog/product_groups.json"
        groups = json.loads(path.read_text(encoding="utf-8"))
        names = {g["group_name"].casefold() for g in groups}
        synonyms = [s.casefold() for g in groups for s in g["synonyms"]["de"]]
        assert groups and len(synonyms) == len(set(synonyms)) and not names & set(synonyms), tenant
    groups = {g["product_group_id"]: g for g in json.loads(
        (root / "tenants/tenant-42/catalog/product_groups.json").read_text(encoding="utf-8"))}
    assert groups["PG-PRES"]["synonyms"] == {"de": ["Drucksensoren", "Druckaufnehmer"]}
    path = root / "tenants/tenant-42/catalog/product_groups.json"
    parsed = parse_item(SourceItem("tenant-42", str(path), "product_groups", path.read_bytes()))
    rows = parsed.records.product_group_synonyms
    assert ("PG-PRES", "de", "Drucksensoren") in {(r.product_group_id, r.language, r.synonym) for r in rows}
    assert len(rows) == sum(len(g["synonyms"]["de"]) for g in groups.values())
