"""Category-manager relations (no database, no model): seeded, bounded generators that vary the slots of the
class (supplier, product group and its word forms, company, months, approval words) and check the routed plan.

* the catalogue relation family ("does <supplier> have anything in <group>", "<supplier> - anything in <group>",
  "which <group> items do we get from <supplier>", "who can sell us <group>", "suppliers in the catalogue for
  <group>"): the catalogue's products of the supplier in the group, or the group's suppliers; a group the
  catalogue does not know is asked back by name, never the supplier's whole catalogue;
* a group named in other word forms ("cabling", "temp sensors", "calibration gear");
* approval synonyms ("preferred suppliers", "on-contract spend"): the approved vendors;
* spend with approved vendors over a list of months: the approved vendors' spend over the union, never the
  company's whole spend per month;
* "approved vs non-approved spend": both asks, each with the rest of the question;
* two groups sharing a head noun ("pressure + temp sensors") are both read; a supplier's catalogue over them is
  the group holding them only when it carries nothing else there;
* an approval that starts or ends inside the period of an approved-spend figure is named (a partial reading).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import random

import pytest

from procura.db.session import AuthContext
from router.approval_synonyms import read_approval_contrast, read_approval_synonyms
from router.approval_windows import uncovered_vendors
from router.catalog_relations import read_catalog_relation, split_group_list
from router.contract import RoutingResult
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.group_words import read_group_forms, read_shared_heads, word_form_group
from router.listings import read_purchase_listing
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from router.tools import TOOLS
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
CTX = AuthContext("tenant-42", "analyst-1", frozenset({"procurement:read", "invoice:aggregate"}))
REGISTRY = shipped_registry()
METRICS = catalog_metrics(REGISTRY)
CATALOG = catalog_metrics(REGISTRY, exclude=frozenset(TOOLS))
_PRODUCTS = (("PRD-482", "Differential pressure sensor DPS-482", "PG-PRES", "SUP-18"),
             ("PRD-530", "Thermo probe TP-3", "PG-TEMP", "SUP-35"),
             ("PRD-820", "Control cable 5x1.5", "PG-CABL", "SUP-60"),
             ("PRD-801", "Pressure calibration kit", "PG-CAL", "SUP-44"),
             ("PRD-900", "Euro crate 600x400", "PG-PACK", "SUP-40"))
GAZETTEER = dataclasses.replace(
    Gazetteer.build(
        [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
        [("SUP-18", "Supplier Beta"), ("SUP-35", "Supplier Zeta"), ("SUP-60", "Supplier Iota"),
         ("SUP-44", "Supplier Eta"), ("SUP-40", "Supplier Kappa")],
        [("Beta Supplies GmbH", "SUP-18"), ("Iota Cables", "SUP-60")],
        [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-SENS", "Sensors", "PG-MON"),
         ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"),
         ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"),
         ProductGroup("PG-MRO", "Maintenance, Repair and Operations"),
         ProductGroup("PG-CABL", "Cables and Connectors", "PG-MRO"),
         ProductGroup("PG-CAL", "Calibration Equipment", "PG-MRO"), ProductGroup("PG-PACK", "Packaging")],
        products=[Product(code, name) for code, name, _, _ in _PRODUCTS],
    ),
    product_group_of={code: frozenset({group}) for code, _, group, _ in _PRODUCTS},
    product_suppliers={code: frozenset({sup}) for code, _, _, sup in _PRODUCTS},
)
GROUP_NAMES = {g.product_group_id: g.group_name for g in GAZETTEER.product_groups}
#: Each group in the words an analyst types: its name, inflected, cut short, or with a generic head noun.
GROUP_WORDS = {"PG-CABL": ("cables and connectors", "cabling", "cabling & connectors", "cable + connectors"),
               "PG-CAL": ("calibration equipment", "calibration gear", "calibration stuff"),
               "PG-TEMP": ("temperature sensors", "temp sensors"),
               "PG-PACK": ("packaging", "packaging items"),
               "PG-SENS": ("sensors",)}
SUPPLIERS = {"SUP-18": ("Supplier Beta", "Beta Supplies GmbH"), "SUP-60": ("Iota Cables", "Supplier Iota"),
             "SUP-44": ("Supplier Eta",)}
PRODUCT_FRAMES = ("does {s} have anything in {g}?", "{s} - anything in {g}?", "{s}: any products under {g}?",
                  "{s} - which items do they carry in {g}?", "which {g} items do we get from {s}?",
                  "what {g} products does {s} stock?", "can {s} sell us anything in {g}",
                  "which products does {s} sell in {g}?")
SUPPLIER_FRAMES = ("who can sell us {g}", "who stocks {g}?", "suppliers in the catalogue for {g}?",
                   "which vendors carry {g}", "where can we source {g}?", "who supplies {g}?")
N = 6


def routed(question: str) -> RoutingResult:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))


def args(result: RoutingResult, tool: str) -> dict[str, object]:
    return next(s.arguments for s in result.execution_plan if s.tool == tool)


@pytest.mark.parametrize(("frame", "kind"), [*((f, "products") for f in PRODUCT_FRAMES),
                                             *((f, "suppliers") for f in SUPPLIER_FRAMES)])
def test_every_frame_reads_its_two_slots(frame: str, kind: str) -> None:
    for supplier, group in itertools.product(("Supplier Ypsilon", "Acme Tools"), ("widgets", "lab gear")):
        ask = read_catalog_relation(frame.format(s=supplier, g=group))
        assert ask is not None and ask.kind == kind, frame
        assert ask.group == group and ask.supplier == (supplier if kind == "products" else None), (frame, ask)


@pytest.mark.parametrize("question", [
    "which cabling items did we buy from Iota in Q1 2026?", "does Beta have anything approved in sensors?",
    "who supplies the invoices for March?", "what did Company A spend on sensors in 2025?",
    "who sells us sensors at the highest price?"])
def test_purchases_spend_and_approvals_are_no_catalogue_relation(question: str) -> None:
    assert read_catalog_relation(question) is None


def test_supplier_products_in_a_group_are_the_catalogue_list() -> None:
    rng = random.Random(51)
    for _ in range(N):
        sid = rng.choice(sorted(SUPPLIERS))
        gid = rng.choice(sorted(GROUP_WORDS))
        question = rng.choice(PRODUCT_FRAMES).format(s=rng.choice(SUPPLIERS[sid]), g=rng.choice(GROUP_WORDS[gid]))
        result = routed(question)
        assert result.workflow == "catalog_products", (question, result.workflow, result.clarification_question)
        found = args(result, "catalog.find_products")
        assert found["supplier_ids"] == [sid] and found["group_name"] == GROUP_NAMES[gid], (question, found)


def test_group_suppliers_are_the_catalogue_suppliers() -> None:
    rng = random.Random(52)
    for _ in range(N):
        gid = rng.choice(sorted(GROUP_WORDS))
        question = rng.choice(SUPPLIER_FRAMES).format(g=rng.choice(GROUP_WORDS[gid]))
        result = routed(question)
        assert result.workflow == "catalog_products", (question, result.workflow, result.clarification_question)
        assert args(result, "catalog.find_products")["group_name"] == GROUP_NAMES[gid], question


def test_a_group_the_catalogue_does_not_know_is_asked_back_by_name() -> None:
    rng = random.Random(53)
    for _ in range(N):
        unknown = rng.choice(("pallets", "forklifts", "office chairs", "reagents"))
        frame = rng.choice((*PRODUCT_FRAMES, *SUPPLIER_FRAMES))
        question = frame.format(s=rng.choice(("Supplier Beta", "Iota Cables")), g=unknown)
        result = routed(question)
        assert result.requires_clarification and not result.execution_plan, (question, result.workflow)
        assert unknown in str(result.clarification_question) and "product group" in str(
            result.clarification_question), (question, result.clarification_question)


@pytest.mark.parametrize(("phrase", "group"), [
    (w, g) for g, words in GROUP_WORDS.items() for w in words])
def test_group_word_forms(phrase: str, group: str) -> None:
    found = word_form_group(phrase, GAZETTEER)
    assert (found is None and phrase.lower() == GROUP_NAMES[group].lower()) or (found and found[0] == group), phrase


@pytest.mark.parametrize("phrase", ["pallets", "temp", "gear", "control", "sensor cables and pumps", "cab"])
def test_word_forms_never_guess(phrase: str) -> None:
    # a lone generic or too short word, or words of no one group, name no group
    assert word_form_group(phrase, GAZETTEER) is None, phrase


@pytest.mark.parametrize("said", ["preferred suppliers", "preferred vendors", "contracted suppliers",
                                  "nominated vendors", "framework suppliers", "AVL"])
def test_approval_synonyms_are_the_approved_vendors(said: str) -> None:
    for company, period in (("Company A", "Q1 2026"), ("Company B", "as of today")):
        question = f"{said} of {company} {period}?"
        assert "approved" in str(read_approval_synonyms(question)), question
        result = routed(question)
        assert result.workflow == "approved_vendors", (question, result.workflow, result.clarification_question)


@pytest.mark.parametrize(("months", "approved"), [("Jan+Feb 2026", "spend with approved vendors"),
                                                  ("Feb and Mar 2026", "on-contract spend"),
                                                  ("January + February 2026", "approved spend"),
                                                  ("Feb+Mar 2026", "spend with preferred suppliers")])
def test_approved_spend_over_a_list_of_months_keeps_the_approval(months: str, approved: str) -> None:
    question = f"Company A {approved} {months}"
    result = routed(question)
    tools = [s.tool for s in result.execution_plan]
    assert "graph.find_approved_vendors" in tools, (question, tools, result.clarification_question)
    assert "metrics.query" not in tools, (question, tools)  # never the company's whole spend per month


@pytest.mark.parametrize("first,second", [("approved", "non-approved"), ("approved", "unapproved"),
                                          ("on-contract", "off-contract"), ("non-approved", "approved")])
@pytest.mark.parametrize("join", [" vs ", " versus ", " and ", " / "])
def test_approved_versus_other_spend_is_both_asks(first: str, second: str, join: str) -> None:
    for head, tail in (("Company B: ", " for Jan+Feb 2026 - both numbers"), ("Alpenland ", " Q1 2026")):
        question = f"{head}{first}{join}{second} spend{tail}"
        read = read_approval_contrast(question)
        assert read is not None, question
        one, two = read.split(", and ")
        sides = {"approved": "approved", "non-approved": "non-approved", "unapproved": "non-approved",
                 "on-contract": "approved", "off-contract": "non-approved"}
        assert f"{sides[first]} spend" in one and f"{sides[second]} spend" in two, read
        assert all(head.strip(" :") in part and "both" not in part for part in (one, two)), read
        assert all(tail.replace(" - both numbers", "").strip() in part for part in (one, two)), read


@pytest.mark.parametrize("question", ["approved vendors of Company B and their spend in Q1",
                                      "Company B approved and preferred suppliers Q1 2026",
                                      "Company B non-approved spend Q1 2026"])
def test_no_contrast_is_no_split(question: str) -> None:
    assert read_approval_contrast(question) is None


@pytest.mark.parametrize("join", [" + ", " & ", " and ", "/", ", "])
@pytest.mark.parametrize(("first", "second"), [("pressure", "temp"), ("temperature", "pressure"),
                                               ("pressure", "temperature")])
def test_two_groups_sharing_their_head_are_both_read(join: str, first: str, second: str) -> None:
    text = f"which items does Zeta carry in {first}{join}{second} sensors?"
    read = read_shared_heads(text, GAZETTEER)
    assert read is not None and "Pressure Sensors" in read and "Temperature Sensors" in read, (text, read)


def test_a_supplier_over_two_groups_is_the_holder_only_when_it_carries_nothing_else() -> None:
    # Zeta carries only a temperature product under Sensors: "pressure + temp" is read through Sensors
    for frame in ("Supplier Zeta - which items do they carry in pressure + temp sensors?",
                  "does Supplier Zeta have anything in temperature sensors and pressure sensors?"):
        result = routed(frame)
        assert result.workflow == "catalog_products", (frame, result.clarification_question)
        assert args(result, "catalog.find_products")["group_name"] == "Sensors", frame
    # Beta carries a pressure product, asked with packaging: no one group holds both without others
    result = routed("does Supplier Beta have anything in pressure sensors + packaging?")
    assert result.requires_clarification or args(result, "catalog.find_products")["group_name"] != "Sensors"


@pytest.mark.parametrize(("text", "name"), [("temp sensor spend", "Temperature Sensors"),
                                            ("cabling & connectors", "Cables and Connectors"),
                                            ("cabling and connectors", "Cables and Connectors"),
                                            ("calibration equip", "Calibration Equipment")])
def test_group_names_in_other_word_forms_are_written_as_the_name(text: str, name: str) -> None:
    assert name in str(read_group_forms(text, GAZETTEER)), text


@pytest.mark.parametrize("text", ["pressure sensors", "temperature sensor spend", "sensor products"])
def test_names_and_plurals_are_left_to_the_reader(text: str) -> None:
    assert read_group_forms(text, GAZETTEER) is None, text


@pytest.mark.parametrize("period", ["Q1-26", "Q1 2026", "2025", "H2 2025", "in March 2026"])
def test_goods_bought_with_a_bare_period_are_a_purchase_listing(period: str) -> None:
    read = read_purchase_listing(f"what packaging items did Company A buy {period}")
    assert read is not None and read.endswith("by product") and period.split()[-1] in read, read


def test_vendor_plural_in_brackets_is_the_plural() -> None:
    assert read_approval_synonyms("Company B: approved vendor(s) for cabling") == \
        "Company B: approved vendors for cabling"
    assert read_approval_synonyms("approved supplier(s) Q1") == "approved suppliers Q1"


def test_approvals_inside_the_period_are_named() -> None:
    d = dt.date
    rng = random.Random(54)
    for _ in range(N):
        start = d(2025, rng.randint(1, 6), 1)
        end = d(2026, rng.randint(1, 6), 1)
        inside = d(2025, rng.randint(start.month + 1, 12), 1)
        begins = uncovered_vendors([("SUP-1", inside, None)], start, end)
        assert begins and begins[0].covered == ((inside, end),)
        ends = uncovered_vendors([("SUP-1", d(2024, 1, 1), inside)], start, end)
        assert ends and ends[0].covered == ((start, inside),)
        # renewals that join up cover the period; another supplier's approval is not asked about
        assert not uncovered_vendors([("SUP-1", d(2024, 1, 1), inside), ("SUP-1", inside, None)], start, end)
        assert not uncovered_vendors([("SUP-2", inside, None)], start, end, suppliers=["SUP-1"])


@pytest.mark.parametrize("frame", ["Company A approved suppliers ({a} + {b})?",
                                   "approved vendors for {a} and {b}, Company B", "who supplies {a} & {b}?",
                                   "Company A: preferred suppliers for {a} / {b} today"])
def test_a_list_for_two_groups_no_group_holds_is_one_ask_per_group(frame: str) -> None:
    for a, b in (("packaging", "cabling"), ("calibration gear", "temp sensors"), ("packaging", "sensors")):
        read = split_group_list(frame.format(a=a, b=b), GAZETTEER)
        assert read is not None, frame
        one, two = read.split(", and ")
        assert one.count(" + ") + one.count(" & ") + two.count(" / ") == 0, read


@pytest.mark.parametrize("question", ["Company A spend with approved suppliers on packaging + cabling in Q1 2026",
                                      "approved vendors for cables and connectors, Company B",
                                      "Supplier Zeta - anything in pressure + temp sensors?"])
def test_figures_names_and_held_groups_are_not_split(question: str) -> None:
    assert split_group_list(question, GAZETTEER) is None, question


def test_words_of_the_group_slot_left_over_are_asked_back() -> None:
    for extra in ("pallets", "forklifts"):
        result = routed(f"who supplies {extra} and cables and connectors?")
        assert result.requires_clarification and extra in str(result.clarification_question), result.workflow
    assert routed("does Supplier Eta have anything in the calibration equipment range?").workflow == \
        "catalog_products"
    # a subgroup named beside its group is inside it: no word is left over
    held = routed("who stocks sensors and temperature sensors?")
    assert held.workflow == "catalog_products", held.clarification_question


def test_goods_and_companies_are_no_approval_or_catalogue_slot() -> None:
    assert read_approval_synonyms("Company A control panel suppliers spend Q1 2026") is None
    result = routed("who supplies Company A?")
    assert "as a product group" not in str(result.clarification_question), result.clarification_question


@pytest.mark.parametrize("where", [" per catalog", " acc. to catalog", " according to our catalogue", " (catalog)",
                                   ", per the catalogue"])
def test_where_the_answer_is_read_from_is_no_word_of_the_group(where: str) -> None:
    group, gid = random.Random(where).choice((("calibration gear", "PG-CAL"), ("packaging", "PG-PACK"),
                                               ("temp sensors", "PG-TEMP")))
    result = routed(f"who supplies {group}{where}")
    assert result.workflow == "catalog_products", (group, where, result.clarification_question)
    assert args(result, "catalog.find_products")["group_name"] == GROUP_NAMES[gid], (group, where)


@pytest.mark.parametrize("question", [
    "Company B: anything in pressure sensors?",
    "Company A - which items do they carry in temperature sensors?",
    "does company b have anything in packaging?",
])
def test_a_company_in_the_supplier_slot_is_no_catalogue(question: str) -> None:
    """A company sells nothing in the catalogue: never the group's whole catalogue as "what Company B sells"."""
    result = routed(question)
    assert not any(s.tool.startswith("catalog.") for s in result.execution_plan), result.execution_plan
    assert result.requires_clarification and "not a supplier" in (result.clarification_question or "")


def test_a_supplier_lead_is_still_its_catalogue() -> None:
    result = routed("Supplier Beta: anything in pressure sensors?")
    assert not result.requires_clarification
    assert any(s.tool.startswith("catalog.") for s in result.execution_plan)


# --- "on contract" is an approval only as an adjective before a spend / supplier noun ------------------------------
@pytest.mark.parametrize("question", ["what are the payment terms on contract with Supplier Beta for Company A",
                                      "which prices are on contract for Company A?",
                                      "is Supplier Beta on contract with Company A"])
def test_on_contract_outside_an_adjective_is_no_approval(question: str) -> None:
    text = read_approval_synonyms(question)
    assert text is None or "approved" not in text


@pytest.mark.parametrize("question", ["Alpenland on-contract spend Q1 2026", "on contract suppliers of Company A",
                                      "Company A on-contract vendors"])
def test_on_contract_before_a_spend_or_supplier_noun_is_approved(question: str) -> None:
    text = read_approval_synonyms(question)
    assert text is not None and "approved" in text and "contract" not in text
