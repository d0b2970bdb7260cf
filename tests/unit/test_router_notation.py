"""Vocabulary and notation: shorthand amounts, periods and company names, French/Spanish measure words, glossed
names and groups named with their parts. Database-free; each case is a phrasing written for these tests."""

from __future__ import annotations

import dataclasses

import pytest

from router.entities import Company, Gazetteer, Mention, Product, ProductGroup
from router.group_unions import restated_parts
from router.notation import read_notation
from router.romance import read_romance
from router.supplier_gloss import supplier_glosses
from tests.unit.test_router_routing import routed

NAMES = ("Company A", "Company B", "Company D", "Pressure Sensors", "Level Sensors", "Sensors", "Müller & Co KG")


@pytest.mark.parametrize(("typed", "written"), [
    ("invoices above 12'500.50 CHF", "invoices above 12500.50 CHF"),
    ("over 1’200’000 EUR", "over 1200000 EUR"),
    ("spend past 45d", "spend past 45 days"),
    ("trailing 6mo spend", "trailing 6 months spend"),
    ("last 2 wks", "last 2 weeks"),
    ("amounts for 04/2026 please", "amounts for April 2026 please"),
    ("CompanyB spend", "Company B spend"),
    ("Co. D invoices", "Company D invoices"),
    ("comp a total", "Company A total"),
    ("CompanyD's credit notes", "Company D's credit notes"),
    ("needs level/pressure sensors", "needs level sensors / pressure sensors"),
])
def test_notation_written_out(typed: str, written: str) -> None:
    assert read_notation(typed, NAMES) == written


@pytest.mark.parametrize("typed", [
    "spend in Q2 2026",  # nothing to write out
    "due on 04/05/2026",  # a slashed day keeps its three parts
    "Müller & Co KG spend",  # "Co K..." is no company shorthand
    "co a list",  # lower-case "co" with a letter is prose
    "Company Z spend",  # a letter the tenant has no company for
    "pumps/level sensors",  # "pumps sensors" names nothing: left for the reader to ask about
    "ordered 2'50 units",  # no thousands group
    "Ausgaben Halbjahr 2/2025",  # the second half-year, not February
    "Quartal 3/2025 spend",  # the third quarter
    "KW 11/2026 invoices",  # a calendar week
    "spend on PG-SENS by pg-code",  # a code, no breakdown shorthand
])
def test_notation_left_as_typed(typed: str) -> None:
    assert read_notation(typed, NAMES) is None


@pytest.mark.parametrize(("typed", "english"), [
    ("Cie B dépenses en déc. 2025", "December 2025"),
    ("gasto Cie B feb.-abr. 2026", "February through April 2026"),
    ("Cie A de sept. 2025 à févr. 2026 inclus", "from September 2025 to February 2026"),
    ("Cie A, d'octobre 2025 à janvier 2026 inclus, TTC", "from October 2025 to January 2026, total including VAT"),
    ("the TTC figure of Cie B", "the total including VAT of Company B"),
    ("the TTC amount of Cie B", "the amount including VAT of Company B"),
    ("facture INV-1? Montant TTC?", "invoice INV-1? total including VAT?"),
    ("Cie A prix moyen unitaire PRD-101", "average unit price PRD-101"),
    ("precio unitario promedio of PRD-101", "average unit price of PRD-101"),
    ("cuántas unidades of PRD-101", "how many units of PRD-101"),
    ("Empresa C — spend with DELTA GROUP en 1T 2026", "with DELTA GROUP Q1 2026"),
    ("frais de port Cie B T2 2026", "shipping"),
    ("office supplies (material de oficina) T2 2026", "office supplies Q2 2026"),
    ("shipping / frais d'expédition T3 2025", "shipping Q3 2025"),
])
def test_romance_vocabulary(typed: str, english: str) -> None:
    read = read_romance(typed)
    assert read is not None and english in read, read


def test_romance_gloss_with_a_word_of_its_own_stays() -> None:
    read = read_romance("spend of Cie B (hors filiale X) T2 2026")
    assert read is not None and "(" in read


def _catalogue() -> Gazetteer:
    groups = [ProductGroup("G-PACK", "Packaging"), ProductGroup("G-BOX", "Boxes", "G-PACK"),
              ProductGroup("G-CRT", "Crates", "G-BOX"), ProductGroup("G-FRT", "Freight Services")]
    base = Gazetteer.build([Company("C-1", "Company A", "EUR")], [("S-1", "Orbis Pack"), ("S-2", "Nordfracht")],
                           [("Nordfracht Logistik", "S-2")], groups,
                           products=[Product("P-1", "Folding box"), Product("P-2", "Euro crate"),
                                     Product("P-3", "Pallet freight per km")])
    return dataclasses.replace(
        base, product_group_of={"P-1": frozenset({"G-BOX"}), "P-2": frozenset({"G-CRT"}), "P-3": frozenset({"G-FRT"})},
        product_suppliers={"P-1": frozenset({"S-1"}), "P-2": frozenset({"S-1"}), "P-3": frozenset({"S-2"})},
        group_suppliers={"G-BOX": frozenset({"S-1"}), "G-CRT": frozenset({"S-1"}), "G-FRT": frozenset({"S-2"})})


def _groups(*ids: str) -> tuple[Mention, ...]:
    return tuple(Mention("product_group", g, i * 10, i * 10 + 5, (g,)) for i, g in enumerate(ids))


def test_group_with_parts_holding_all_its_products_is_the_group() -> None:
    found = restated_parts(_groups("G-PACK", "G-BOX", "G-CRT"), _catalogue())
    assert found is not None and found.group_id == "G-PACK"


def test_group_with_parts_leaving_products_out_stays_a_choice() -> None:
    assert restated_parts(_groups("G-BOX", "G-CRT"), _catalogue()) is None  # the folding box is no crate
    assert restated_parts(_groups("G-PACK", "G-FRT"), _catalogue()) is None  # no group holds the other
    assert restated_parts(_groups("G-PACK", "G-BOX", "G-CRT"), _catalogue(), ("G-CRT",)) is None


@pytest.mark.parametrize(("typed", "read"), [
    ("spend w/ nordfracht logistik (freight) in May", "spend w/ nordfracht logistik in May"),
    ("share of freight (Nordfracht) in H1", "share of Nordfracht in H1"),
    ("spend with Nordfracht (freight services) 2025", "spend with Nordfracht 2025"),
    ("spend with Nordfracht (crates) 2025", "spend with Nordfracht (crates) 2025"),  # not its trade: kept
    # Orbis Pack sells boxes and crates: "(crates)" names only part of its trade, a product filter, kept
    ("spend with Orbis Pack (crates) 2025", "spend with Orbis Pack (crates) 2025"),
    ("spend with Orbis Pack (packaging) 2025", "spend with Orbis Pack 2025"),
])
def test_supplier_gloss(typed: str, read: str) -> None:
    assert supplier_glosses(typed, _catalogue()) == read


def _plan(question: str) -> object:
    result = routed(question)
    return result.clarification_reasons or [(s.tool, s.arguments) for s in result.execution_plan]


@pytest.mark.parametrize(("typed", "plain"), [
    ("What is the TTC figure for Cie B in T2 2025?", "What is the total spend of Company B in Q2 2025?"),
    ("CompanyB spend last 45d", "Company B spend last 45 days"),
    ("Co C spend 02/2026", "Company C spend in February 2026"),
])
def test_notations_route_as_the_plain_question(typed: str, plain: str) -> None:
    assert _plan(typed) == _plan(plain)
