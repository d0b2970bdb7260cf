"""Entity resolution: normalization rules, the alias index, and its accuracy on the demo master data."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from evaluation.graph_resolution import format_report, measure_corpus
from graph.resolution import AliasEntry, AliasIndex, evaluate, leave_one_out, normalize_name
from procura.demo.generator import generate
from procura.demo.invoices import spelling_variant
from procura.demo.masterdata import TENANT_17, TENANT_42, TENANT_99


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("Beta Supplies GmbH", "beta supplies"),
        ("BETA SUPPLIES", "beta supplies"),
        ("Beta-Supplies,  Ltd.", "beta supplies"),
        ("Epsilon Instruments Inc", "epsilon instruments"),
        ("Delta Enclosures Ltd", "delta enclosures"),
        ("Gamma Control Systems AG", "gamma control systems"),
        ("Iris Office Supplies GmbH & Co. KG", "iris office supplies"),
        ("Acme LLC", "acme"),
        ("Acme SA", "acme"),
        ("Theta Präzision AG", "theta präzision"),
    ],
)
def test_normalization_rules(raw: str, normalized: str) -> None:
    assert normalize_name(raw) == normalized


def _index(spec: object) -> AliasIndex:
    entries: list[AliasEntry] = []
    for s in spec.suppliers:  # type: ignore[attr-defined]  # a TenantSpec
        entries.append(AliasEntry(s.supplier_id, s.supplier_id, "canonical_id"))
        entries.append(AliasEntry(s.supplier_name, s.supplier_id, "canonical_name"))
        entries.extend(AliasEntry(a, s.supplier_id, "alias") for a in s.aliases)
    return AliasIndex.build(entries)


def test_aliases_and_spelling_variants_resolve_to_canonical_ids() -> None:
    index = _index(TENANT_42)
    assert index.resolve("Beta Supplies GmbH").canonical_id == "SUP-18"
    assert index.resolve("beta   supplies").canonical_id == "SUP-18"
    assert index.resolve("GAMMA CONTROLS AG.").canonical_id == "SUP-27"
    assert index.resolve("SUP-31").via == "canonical_id"
    unknown = index.resolve("Omega Widgets GmbH")
    assert unknown.status == "unresolved" and unknown.canonical_id is None


def test_tenants_reuse_names_for_different_suppliers_so_resolution_is_per_tenant() -> None:
    assert _index(TENANT_42).resolve("Supplier Beta").canonical_id == "SUP-18"
    assert _index(TENANT_17).resolve("Supplier Beta").canonical_id == "SUP-07"
    assert _index(TENANT_99).resolve("Supplier Beta").canonical_id == "SUP-95"


def test_a_name_of_two_suppliers_is_ambiguous_and_never_guessed() -> None:
    index = AliasIndex.build([AliasEntry("Nova GmbH", "SUP-1", "alias"), AliasEntry("NOVA AG", "SUP-2", "alias")])
    result = index.resolve("Nova")
    assert result.status == "ambiguous" and result.candidates == ("SUP-1", "SUP-2")
    assert index.ambiguous_aliases == {"nova": ("SUP-1", "SUP-2")}


def test_reviewed_overrides_settle_a_collision_and_rejections_remove_an_alias() -> None:
    entries = [
        AliasEntry("Nova GmbH", "SUP-1", "alias"),
        AliasEntry("NOVA AG", "SUP-2", "alias"),
        AliasEntry("nova", "SUP-2", "override"),
        AliasEntry("Old Name Ltd", "SUP-1", "alias"),
    ]
    index = AliasIndex.build(entries, rejected=[("old name", "SUP-1")])
    assert index.resolve("Nova").canonical_id == "SUP-2"
    assert index.resolve("Nova").via == "override"
    assert index.resolve("Old Name").status == "unresolved"


def test_resolution_accuracy_on_the_demo_master_data() -> None:
    """Every tenant: table lookup of the generator's invoice spelling variants, and leave-one-out generalization.

    Numbers (printed with -s): 100% on variants, and the leave-one-out figure shows how much the rules alone
    resolve spellings the table has never seen.
    """
    import random

    for spec in (TENANT_42, TENANT_17, TENANT_99):
        index = _index(spec)
        rng = random.Random(7)
        truth = [(spelling_variant(rng, alias), s.supplier_id) for s in spec.suppliers for alias in s.aliases
                 for _ in range(5)]
        report = evaluate(index, truth)
        assert report.accuracy == Decimal(1), report.failures
        loo = leave_one_out([(s.supplier_id, s.supplier_name, s.aliases) for s in spec.suppliers])
        assert loo.wrong == 0 and loo.ambiguous == 0
        print(f"{spec.tenant_id}: variants {report.correct}/{report.total}; leave-one-out {loo.correct}/{loo.total}")


def test_resolution_accuracy_measured_on_a_generated_demo_corpus(tmp_path: Path) -> None:
    """The corpus's own truth: invoices (catalog supplier of their products), agreement tables, held-out aliases."""
    generate(tmp_path / "corpus")
    results = measure_corpus(tmp_path / "corpus")
    assert [r.tenant_id for r in results] == ["tenant-17", "tenant-42", "tenant-99"]
    for result in results:
        assert result.invoices.total > 50 and result.invoices.accuracy == Decimal(1), result.invoices.failures
        assert result.agreements.total >= 5 and result.agreements.accuracy == Decimal(1)
        # The rules alone never merge two suppliers; what they cannot link stays unresolved for review.
        assert result.leave_one_out.wrong == 0 and result.leave_one_out.ambiguous == 0
        assert result.invoices_without_truth == 0
    print(format_report(results))
