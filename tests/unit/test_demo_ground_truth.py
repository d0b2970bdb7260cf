"""Ground truth of the demo corpus: the policy functions, the seed answers and their internal consistency."""

from __future__ import annotations

import ast
import csv
import json
import random
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from procura.demo import generate
from procura.demo import ground_truth as gt

D = Decimal


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gt") / "corpus"
    generate(out, scale=2)  # small batches included, so batch parsing is covered too
    return out


@pytest.fixture(scope="module")
def truth(root: Path) -> dict[str, Any]:
    return json.loads((root / "ground_truth.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def questions(truth: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {q["name"]: q for q in truth["questions"]}


def _docs(root: Path) -> list[dict[str, Any]]:
    docs = []
    for path in sorted(root.rglob("*.json")):
        if "invoices" in path.parts:
            docs.append(json.loads(path.read_text(encoding="utf-8")))
    for path in sorted(root.rglob("*.jsonl")):
        docs += [json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines()]
    return docs


def _corporate(root: Path, tenant: str, day: str, currency: str) -> Decimal:
    with (root / "tenants" / tenant / "fx" / "fx_rates.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if (row["rate_date"], row["from_currency"], row["rate_type"]) == (day, currency, "corporate"):
                return Decimal(row["rate"])
    raise LookupError((tenant, day, currency))


# --- policy functions -----------------------------------------------------------------------------------

def test_tax_allocation_breaks_ties_towards_the_lower_line_number() -> None:
    shares = gt.allocate_invoice_tax(D("580.45"), [D("1187.50"), D("1187.50"), D("680.00")])
    assert shares == [D("225.63"), D("225.62"), D("129.20")]


def test_tax_allocation_is_exact_and_within_a_cent_of_the_proportional_share() -> None:
    rng = random.Random(3)
    for _ in range(500):
        nets = [D(rng.randint(0, 500_000)) / 100 for _ in range(rng.randint(1, 9))]
        if sum(nets) == 0:
            continue
        header = D(rng.randint(0, 200_000)) / 100
        shares = gt.allocate_invoice_tax(header, nets)
        assert sum(shares) == header
        for share, net in zip(shares, nets, strict=True):
            assert abs(share - header * net / sum(nets)) < D("0.01")


def test_allocated_tax_sums_to_the_header_for_every_invoice_level_document(root: Path) -> None:
    level = [d for d in _docs(root) if d["tax_level"] == "invoice"]
    assert len(level) > 20
    for doc in level:
        nets = [abs(D(line["line_net_amount"])) for line in doc["lines"]]
        assert sum(gt.allocate_invoice_tax(abs(D(doc["header_tax_amount"])), nets)) == abs(
            D(doc["header_tax_amount"])), doc["document_id"]


@pytest.mark.parametrize(("raw", "normalized"), [
    ("Beta Supplies GmbH", "beta supplies"),
    ("BETA SUPPLIES", "beta supplies"),
    ("Beta Supplies, GmbH", "beta supplies"),
    ("Beta Supplies  GmbH", "beta supplies"),
    ("Epsilon Instruments, Inc.", "epsilon instruments"),
    ("Epsilon Instr.", "epsilon instr"),
    ("THETA PRÄZISION AG", "theta präzision"),
    ("Supplier Beta", "supplier beta"),
])
def test_supplier_name_normalization(raw: str, normalized: str) -> None:
    assert gt.normalize_supplier_name(raw) == normalized


def test_ground_truth_module_reads_files_not_the_generator() -> None:
    tree = ast.parse(Path(gt.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert not [name for name in imported if name.startswith("procura")]


def test_recomputing_matches_and_tampering_is_detected(root: Path, tmp_path: Path) -> None:
    assert gt.main([str(root)]) == 0
    copy = tmp_path / "copy"
    generate(copy)
    path = copy / "tenants/tenant-42/invoices/2026/invoice-2026-0148.json"
    path.write_text(path.read_text(encoding="utf-8").replace('"posted"', '"paid"'), encoding="utf-8")
    with pytest.raises(gt.GroundTruthError, match="does not match the manifest"):
        gt.compute(copy)


# --- seed scenario answers ------------------------------------------------------------------------------

def test_monitoring_question_is_complete_with_beta_and_gamma(questions: dict[str, dict[str, Any]]) -> None:
    q = questions["seed_monitoring_spend_2026q1"]
    assert q["parameters"]["supplier_ids"] == ["SUP-18", "SUP-27"]
    assert q["parameters"]["product_codes"] == ["PRD-482", "PRD-483", "PRD-486", "PRD-491", "PRD-611", "PRD-612"]
    expected = q["expected"]
    assert expected["status"] == "complete" and expected["missing_supplier_ids"] == []
    assert (expected["total_spend"], expected["matched_line_count"], expected["currency"]) == ("83452.74", 37, "EUR")
    assert "invoice-2026-0148-line-04" in expected["source_line_ids"]
    assert "invoice-2026-0211-line-07" in expected["source_line_ids"]
    assert expected["source_line_ids"] == sorted(expected["source_line_ids"])


def test_approved_vendor_spend_is_partial_without_delta(questions: dict[str, dict[str, Any]]) -> None:
    expected = questions["approved_vendor_spend_2026q1"]["expected"]
    assert expected["status"] == "partial"
    assert expected["approved_supplier_ids"] == ["SUP-18", "SUP-27", "SUP-31"]
    assert expected["missing_supplier_ids"] == ["SUP-31"]
    assert (expected["total_spend"], expected["matched_line_count"]) == ("130267.50", 58)


def test_zero_spend_differs_from_no_data(questions: dict[str, dict[str, Any]]) -> None:
    zero = questions["zero_spend_comp_b_sup44_2026q1"]["expected"]
    empty = questions["no_data_comp_b_sup44_2025q4"]["expected"]
    assert (zero["total_spend"], zero["matched_line_count"], zero["status"]) == ("0.00", 4, "complete")
    assert (empty["total_spend"], empty["matched_line_count"], empty["status"]) == ("0.00", 0, "no_data")
    assert empty["missing_supplier_ids"] == ["SUP-44"] and empty["source_line_ids"] == []


def test_tax_total_matches_header_taxes_times_corporate_rates(root: Path,
                                                              questions: dict[str, dict[str, Any]]) -> None:
    q = questions["tax_total_seed_invoices"]
    assert "INV-2026-0148" in q["parameters"]["invoice_numbers"]
    total = D(0)
    for number in q["parameters"]["invoice_numbers"]:
        doc = json.loads((root / f"tenants/tenant-42/invoices/2026/invoice-{number[4:]}.json").read_text())
        rate = D(1) if doc["currency"] == "EUR" else _corporate(root, "tenant-42", doc["posting_date"],
                                                                doc["currency"])
        total += D(doc["header_tax_amount"]) * rate
    # The replica of INV-2026-0150 exists but is counted once.
    assert str(total) == q["expected"]["total_tax_exact"] == "2046.9508543394"
    assert q["expected"]["total_tax"] == "2046.95"


def test_unit_price_units_and_threshold(root: Path, questions: dict[str, dict[str, Any]]) -> None:
    price = questions["unit_price_prd482_2026_03"]["expected"]
    # 8 x 195.00 (draft turned posted by the update) + (15 x 198.00 - 45.00) - 2 x 200.00 credit note, over 21.
    assert (price["net_amount_exact"], price["quantity"], price["unit_price"]) == ("4085.00", "21", "194.5238")
    assert "invoice-2026-0171-line-01" not in price["source_line_ids"]  # still a draft
    assert questions["units_purchased_sup18_2026q1"]["expected"]["units"] == "323"
    above = questions["invoices_above_5000_2026q1"]["expected"]["invoice_numbers"]
    exact = json.loads((root / "tenants/tenant-42/invoices/2026/invoice-2026-0155.json").read_text())
    grand = sum(D(line["line_net_amount"]) + D(line["line_tax_amount"]) for line in exact["lines"])
    assert grand == D("5000.00") and "INV-2026-0155" not in above  # "above" is strict
    assert "INV-2026-0158" not in above  # USD 5300.00 is below 5000 EUR
    assert "INV-2026-0211" in above


def test_spend_by_supplier_adds_up(questions: dict[str, dict[str, Any]]) -> None:
    for q in questions.values():
        if q["kind"] != "spend_by_supplier":
            continue
        expected = q["expected"]
        parts = expected["suppliers"].values()
        assert sum(D(p["total_spend_exact"]) for p in parts) == D(expected["total_spend_exact"]), q["name"]
        assert sum(p["matched_line_count"] for p in parts) == expected["matched_line_count"]
        assert len(set(expected["source_line_ids"])) == expected["matched_line_count"]
        assert D(expected["total_spend"]) == D(expected["total_spend_exact"]).quantize(D("0.01"), "ROUND_HALF_UP")


def test_seed_answers_nest_and_exclude_invalid_lines(root: Path, questions: dict[str, dict[str, Any]]) -> None:
    monitoring = set(questions["seed_monitoring_spend_2026q1"]["expected"]["source_line_ids"])
    approved = set(questions["approved_vendor_spend_2026q1"]["expected"]["source_line_ids"])
    everyone = set(questions["spend_by_supplier_comp_a_2026q1"]["expected"]["source_line_ids"])
    assert monitoring < approved < everyone
    bad_documents = {d["document_id"] for d in _docs(root)
                     if d["status"] in ("draft", "cancelled") or d["source_system"] != "erp"}
    bad_documents -= {"invoice-2026-0161"}  # its update is posted
    assert not {line.rsplit("-line-", 1)[0] for line in everyone} & bad_documents
    by_supplier = questions["spend_by_supplier_comp_a_2026q1"]["expected"]["suppliers"]
    assert {"SUP-22", "SUP-35"} <= by_supplier.keys()  # they were paid, just not as approved vendors
    assert "SUP-31" not in by_supplier
    expired_or_future = {line for line in everyone - approved}
    assert expired_or_future and all(line.split("-line-")[0] in {"invoice-2026-0158", "invoice-2026-0166"}
                                     for line in expired_or_future)


def test_approved_vendors_per_quarter_follow_half_open_intervals(questions: dict[str, dict[str, Any]]) -> None:
    def ids(tenant: str, company: str, quarter: str) -> list[str]:
        name = f"approved_vendors_{tenant}_{company}_{quarter}".replace("-", "_").lower()
        return questions[name]["expected"]["supplier_ids"]

    assert ids("tenant-42", "COMP-A", "2026q1") == ["SUP-18", "SUP-27", "SUP-31"]  # SUP-22 ended 2026-01-01
    assert ids("tenant-42", "COMP-A", "2026q3") == ["SUP-18", "SUP-27", "SUP-35"]  # SUP-31 ended 2026-07-01
    assert ids("tenant-42", "COMP-B", "2026q1") == ["SUP-18", "SUP-44", "SUP-52"]
    assert ids("tenant-42", "COMP-B", "2026q3") == ["SUP-44", "SUP-52", "SUP-60"]
    assert ids("tenant-42", "COMP-B", "2026q4") == ["SUP-52", "SUP-60"]  # the amendment ended SUP-44
    assert ids("tenant-99", "COMP-X", "2026q2") == ["SUP-93"]
    grid = [q for q in questions.values() if q["kind"] == "approved_vendors"]
    assert len(grid) == 4 * (2 + 3 + 2)
    page = {a["agreement_id"]: a["page"] for a in
            questions["approved_vendors_tenant_42_comp_a_2026q1"]["expected"]["approvals"]}
    assert page == {"agreement-2026-04": 12}


def test_counts_per_tenant_are_consistent(root: Path, truth: dict[str, Any]) -> None:
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    for tenant_id, counts in truth["tenants"].items():
        lines = counts["invoice_lines"]
        assert lines["total"] == sum(lines[k] for k in ("invalid", "duplicate", "cancelled", "draft", "recognized"))
        assert counts["files"] == sum(1 for f in manifest["files"] if f["tenant_id"] == tenant_id)
        documents = counts["invoice_documents"]
        assert documents["total"] == documents["invoice"] + documents["credit_note"]
        assert documents["duplicate"] == len(counts["duplicate_document_ids"]) > 0
    t42, t99 = truth["tenants"]["tenant-42"], truth["tenants"]["tenant-99"]
    assert t42["updated_documents"] == ["agreement-2025-09", "invoice-2026-0161"]
    assert "invoice-2026-0150-erp-replica" in t42["duplicate_document_ids"]
    assert t99["invoice_lines"]["invalid"] == 2
    assert [f["document_id"] for f in truth["validation_failures"]] == ["invoice-2026-0042"]


def test_passages_point_at_real_text(root: Path, truth: dict[str, Any]) -> None:
    (seed,) = [p for p in truth["passages"] if p["tenant_id"] == "tenant-42"]
    text = (root / "tenants/tenant-42/manuals/manual-prd-482.md").read_text(encoding="utf-8")
    page = text.split(f"<!-- page {seed['page']} -->", 1)[1].split("<!-- page", 1)[0]
    assert seed["heading"] in page
    assert all(fact.casefold() in page.casefold() for fact in seed["must_contain"])
    assert "every 12 months" in seed["must_contain"]
    assert truth["prompt_injections"] == [{"tenant_id": "tenant-42", "document_id": "manual-prd-530", "page": 3,
                                           "marker": "Ignore previous instructions"}]
