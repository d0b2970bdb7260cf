"""Entity and level resolution (no database): product groups by acronym, short name and German supply compound,
products by catalogue descriptor, and the level "product group" means in breakdowns and rankings; plus the
questions of ``evaluation/probes_entities.py`` (training seed) routed to the governed call their slots mean."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from evaluation.probes_entities import probes
from procura.db.session import AuthContext
from router.analysis import parse_ranking
from router.entities import (
    Company,
    Gazetteer,
    Product,
    ProductGroup,
    descriptor_names,
    find_mentions,
    group_short_phrases,
    product_name_phrases,
)
from router.reading import catalog_metrics, group_dimension, parse_breakdown
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
#: The demo tenant-42 catalogue (groups, German synonyms, products) and its companies.
GROUPS = [
    ProductGroup("PG-CTRL", "Control Equipment"), ProductGroup("PG-CAB", "Control Cabinets", "PG-CTRL"),
    ProductGroup("PG-CAB-ACC", "Cabinet Accessories", "PG-CAB"), ProductGroup("PG-CMOD", "Control Modules", "PG-CTRL"),
    ProductGroup("PG-PLC", "PLC Modules", "PG-CMOD"), ProductGroup("PG-MRO", "Maintenance, Repair and Operations"),
    ProductGroup("PG-CONS", "Consumables", "PG-MRO"), ProductGroup("PG-CABL", "Cables and Connectors", "PG-CONS"),
    ProductGroup("PG-TOOL", "Tools", "PG-MRO"), ProductGroup("PG-CAL", "Calibration Equipment", "PG-TOOL"),
    ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-MCTL", "Monitoring Controllers", "PG-MON"),
    ProductGroup("PG-SENS", "Sensors", "PG-MON"), ProductGroup("PG-FLOW", "Flow Sensors", "PG-SENS"),
    ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"),
    ProductGroup("PG-PRES-WL", "Wireless Pressure Transmitters", "PG-PRES"),
    ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"),
]
SYNONYMS = [("Instandhaltungsmaterial", "PG-MRO"), ("Instandhaltung, Reparatur und Betrieb", "PG-MRO"),
            ("Überwachungsprodukte", "PG-MON"), ("Sensoren", "PG-SENS"), ("Kalibriergeräte", "PG-CAL")]
PRODUCTS = [Product(code, name) for code, name in (
    ("PRD-482", "Differential pressure sensor DPS-482"), ("PRD-483", "Gauge pressure sensor 0-10 bar"),
    ("PRD-486", "Wireless pressure transmitter WPT-6"), ("PRD-491", "PT100 temperature probe"),
    ("PRD-495", "Cable gland set M20"), ("PRD-510", "Flow sensor FS-50"), ("PRD-515", "Thermal mass flow meter TMF-2"),
    ("PRD-530", "Pressure sensor PS-Z1"), ("PRD-532", "Temperature transmitter TT-Z"),
    ("PRD-611", "Monitoring controller MC-4"), ("PRD-612", "Monitoring controller MC-8"),
    ("PRD-620", "PLC I/O module 16DI"), ("PRD-625", "Control module CM-2"), ("PRD-701", "Control cabinet 800x600"),
    ("PRD-705", "Cabinet climate kit"), ("PRD-801", "Pressure calibration kit"), ("PRD-805", "Safety gloves (pair)"),
    ("PRD-820", "Control cable 5x1.5 mm2"), ("PRD-825", "M12 connector set"), ("PRD-840", "Torque wrench set"),
    ("PRD-845", "Precision multimeter"),
)]
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
     Company("COMP-C", "Company C", "EUR")],
    [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma")], [("Beta Supplies GmbH", "SUP-18")],
    GROUPS, SYNONYMS, PRODUCTS,
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="levels", scopes=frozenset({"invoice:aggregate",
                                                                                "procurement:read"}))
METRICS = catalog_metrics(shipped_registry())


def _groups(text: str, gazetteer: Gazetteer = GAZETTEER) -> list[tuple[str, tuple[str, ...]]]:
    return [(m.text, m.candidates) for m in find_mentions(text, gazetteer, figure=True).product_groups]


# --- product groups by acronym, short name, German supply compound -------------------------------------------------
def test_group_acronyms_and_generic_heads() -> None:
    shorts = group_short_phrases(Gazetteer.build([], [], [], [*GROUPS, ProductGroup("PG-SHIP", "Shipping Services")]))
    assert shorts[("mro",)] == frozenset({"PG-MRO"})
    assert shorts[("shipping",)] == frozenset({"PG-SHIP"})
    assert shorts[("monitoring",)] == frozenset({"PG-MON"})
    assert shorts[("wpt",)] == frozenset({"PG-PRES-WL"})
    # two-word names have no acronym ("CE" is no name anyone asks by)
    assert ("ce",) not in shorts and ("cc",) not in shorts


@pytest.mark.parametrize(("text", "expected"), [
    ("Company C spend in 2025 excl. MRO", [("MRO", ("PG-MRO",))]),
    ("what % of Company C's 2025 spend was mro?", [("mro", ("PG-MRO",))]),
    ("spend on MRO (maintenance, repair and operations)", [("MRO", ("PG-MRO",)),
                                                         ("maintenance, repair and operations", ("PG-MRO",))]),
    ("Company A monitoring spend in Q1 2026", [("monitoring", ("PG-MON",))]),
    # the full name still wins over its short form
    ("Company A spend on Monitoring Controllers", [("Monitoring Controllers", ("PG-MCTL",))]),
])
def test_groups_by_short_spelling(text: str, expected: list[tuple[str, tuple[str, ...]]]) -> None:
    assert _groups(text) == expected


def test_german_supply_compound_is_the_broadest_group_of_one_branch() -> None:
    lab = Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment"),
                                       ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB"),
                                       ProductGroup("PG-OFF", "Office")],
                          [("Laborgeräte", "PG-LAB"), ("Laborausstattung", "PG-LAB"),
                           ("Laborverbrauchsmaterial", "PG-LABC"), ("Bürobedarf", "PG-OFF")])
    assert _groups("Ausgaben für Laborbedarf seit Januar", lab) == [("Laborbedarf", ("PG-LAB",))]
    # two branches share the modifier: left unread (asked about), never guessed
    split = Gazetteer.build([], [], [], [ProductGroup("PG-LAB", "Laboratory Equipment"),
                                         ProductGroup("PG-LABX", "Laboratory Services")],
                            [("Laborgeräte", "PG-LAB"), ("Labordienste", "PG-LABX")])
    assert _groups("Ausgaben für Laborbedarf", split) == []


# --- products by catalogue descriptor ------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "said"), [
    ("Copy paper A4 (box)", ("Copy paper A4", "Copy paper")),
    ("Scroll compressor 7 kW", ("Scroll compressor",)),
    ("Label rolls 100x50", ("Label rolls",)),
    ("Express freight per parcel", ("Express freight",)),
    ("Gauge pressure sensor 0-10 bar", ("Gauge pressure sensor",)),
    ("Safety gloves (pair)", ("Safety gloves",)),
    ("Flow sensor FS-50", ()),  # the model code stays: "flow sensor" alone is the group's word
    ("Precision multimeter", ()),
])
def test_descriptor_names(name: str, said: tuple[str, ...]) -> None:
    assert descriptor_names(name) == said


def test_descriptors_name_products_in_figure_questions_only() -> None:
    phrases = product_name_phrases(PRODUCTS, bare_names=True)
    assert phrases[("cable", "gland", "set")] == frozenset({"PRD-495"})
    assert phrases[("safety", "glove")] == frozenset({"PRD-805"})
    assert ("cable", "gland", "set") not in product_name_phrases(PRODUCTS)
    # a descriptor that is a group's name stays the group's ("control cabinet" of Control Cabinets)
    group_keys = frozenset({("control", "cabinet")})
    assert ("control", "cabinet") not in product_name_phrases(PRODUCTS, group_keys, bare_names=True)


# --- the level of "product group" ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "filtered", "dimension"), [
    ("Company A FY2025 spend by top-level category", False, "top_product_group_id"),
    ("top two top-level categories for Company A", False, "top_product_group_id"),
    ("Comp B spend by category (top level) FY2025", False, "top_product_group_id"),
    # an unqualified "product group" is the group a product is assigned to in the catalogue; a bare
    # "category" is the top level in a ranking, the own group in a breakdown ("by category")
    ("Company A Q4 2025 spend split by product group", False, "product_group_id"),
    ("Xenon top 2 product groups by spend", False, "product_group_id"),
    ("Company A spend by category", False, "product_group_id"),
    ("top 3 categories at Company C", False, "top_product_group_id"),
    ("spend by main product group", False, "top_product_group_id"),
    ("spend on Sensors by product group", True, "product_group_id"),
    ("spend on Sensors by top-level group", True, "top_product_group_id"),
    ("H2 spend broken down by each product's own group (lowest level)", False, "product_group_id"),
    ("which 2 leaf product groups had the most spend", False, "product_group_id"),
    ("spend by subgroup", False, "product_group_id"),
])
def test_group_level(text: str, filtered: bool, dimension: str) -> None:
    assert group_dimension(text, filtered=filtered) == dimension


def test_own_group_is_a_group_breakdown_not_a_product_breakdown() -> None:
    assert parse_breakdown("spend broken down by each product's own group").group_by == ("product_group_id",)


def test_parenthesised_level_keeps_the_ranking() -> None:
    ranking, _ = parse_ranking("alpenland - which 2 leaf product groups (lowest level) had the most spend")
    assert ranking is not None and (ranking.dimension, ranking.limit) == ("product_group_id", 2)


# --- the generated probes route to the governed call their slots mean -----------------------------------------------
def _call(question: str) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool in ("metrics.query", "finance.company_spend"))
    if step.tool == "metrics.query":
        return step.arguments["metric"], step.arguments["parameters"], tuple(step.arguments.get("group_by") or ())
    # the spend tool takes the company from the resolve step (a reference), the rest as written
    params = {k: v for k, v in step.arguments.items() if k not in ("group_by", "grain")}
    params["company_id"] = next(s for s in result.execution_plan
                                if s.tool == "entity.resolve_company").arguments["company_id"]
    return step.tool, params, tuple(step.arguments.get("group_by") or ())


@pytest.mark.parametrize("probe", [p for p in probes(31, 25) if p.klass in ("level", "group_short")],
                         ids=lambda p: p.question[:60])
def test_generated_probes_route_to_their_governed_call(probe: Any) -> None:
    metric, params, group_by = _call(probe.question)
    assert probe.expect is not None
    assert (metric, tuple(probe.expect.group_by)) == (probe.expect.metric, group_by), probe.question
    for key, value in probe.expect.parameters.items():
        got = params.get(key)
        assert (sorted(got) if isinstance(got, list) else got) == (sorted(value) if isinstance(value, list)
                                                                   else value), (probe.question, key)


@pytest.mark.parametrize("text", ["company b last qtr spend by top level product group",
                                  "spend split by top-level category in Q1", "the top level categories"])
def test_top_level_is_no_ranking(text: str) -> None:
    assert parse_ranking(text)[0] is None
