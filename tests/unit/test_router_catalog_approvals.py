"""Catalogue and approval questions (no database, no model): seeded, bounded generators that vary the slots
(companies, groups, German synonyms, periods, product names and codes, joining words) and check the routed plan
against what the governed path must be called with, or the clarification that must be asked.

* German approval words ("freigegeben", "freigegebene Lieferanten", "wer ist ... freigegeben"): the approved
  vendors of the company (for the group when one is named) in the named period, never a product list or spend;
  "aktuell (Q4 2025)" is that one period;
* catalogue words ("laut Katalog", "wer liefert X", "Artikel unter X", "Welche Artikel gibt es in der Gruppe X"):
  the catalogue's products of the group;
* the catalogue list price ("Listenpreis", "catalog list price of <name / code>"): the governed catalogue read of
  that product, never a paid price; a comparison with what was paid is not this reading;
* two groups joined by "and" / "/": the one group holding exactly both, or a clarification;
* "which <goods> products did we buy (from approved vendors)": the spend on the goods by product.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import random

from procura.db.session import AuthContext
from router.contract import RoutingResult
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.german import read_german
from router.group_unions import joined_groups_union
from router.list_prices import asks_list_price
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
             ("PRD-510", "Flow sensor FS-50", "PG-FLOW", "SUP-35"),
             ("PRD-600", "Temperature data logger TL-2", "PG-LOG", "SUP-27"),
             ("PRD-900", "Euro crate 600x400", "PG-CRT", "SUP-40"),
             ("PRD-905", "Folding box 400x300", "PG-BOX", "SUP-40"))
GAZETTEER = dataclasses.replace(
    Gazetteer.build(
        [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
        [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma"), ("SUP-35", "Supplier Zeta"),
         ("SUP-40", "Supplier Kappa")],
        [("Beta Supplies GmbH", "SUP-18"), ("Gamma Controls", "SUP-27")],
        [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-SENS", "Sensors", "PG-MON"),
         ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"), ProductGroup("PG-FLOW", "Flow Sensors", "PG-SENS"),
         ProductGroup("PG-LOG", "Data Loggers", "PG-MON"), ProductGroup("PG-PACK", "Packaging"),
         ProductGroup("PG-BOX", "Boxes", "PG-PACK"), ProductGroup("PG-CRT", "Crates", "PG-BOX"),
         ProductGroup("PG-CTRL", "Control Equipment")],
        group_synonyms=[("Sensoren", "PG-SENS"), ("Überwachungsprodukte", "PG-MON"), ("Verpackung", "PG-PACK"),
                        ("Drucksensoren", "PG-PRES"), ("Kisten", "PG-CRT")],
        products=[Product(code, name) for code, name, _, _ in _PRODUCTS],
    ),
    product_group_of={code: frozenset({group}) for code, _, group, _ in _PRODUCTS},
    product_suppliers={code: frozenset({sup}) for code, _, _, sup in _PRODUCTS},
)
COMPANIES = {"COMP-A": ("Company A", "company a"), "COMP-B": ("Company B",)}
GROUPS = {"PG-SENS": ("Sensoren", "Sensors"), "PG-MON": ("Überwachungsprodukte", "Monitoring Products"),
          "PG-PRES": ("Drucksensoren", "Pressure Sensors")}
PERIODS = (("Q2 2026", "2026-04-01", "2026-07-01"), ("Q4 2025", "2025-10-01", "2026-01-01"),
           ("Q1 2026", "2026-01-01", "2026-04-01"), ("2025", "2025-01-01", "2026-01-01"))
N = 30


def routed(question: str) -> RoutingResult:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))


def tools(result: RoutingResult) -> list[str]:
    return [s.tool for s in result.execution_plan]


def args(result: RoutingResult, tool: str) -> dict[str, object]:
    return next(s.arguments for s in result.execution_plan if s.tool == tool)


def test_german_approval_words_are_the_approved_vendors_of_the_named_period() -> None:
    rng = random.Random(36)
    frames = ("welche Lieferanten sind bei {c} aktuell für {g} freigegeben? ({p})",
              "{c}: wer ist für {g} freigegeben, {p}?", "wer ist bei {c} im {p} für {g} freigegeben?",
              "welche Lieferanten sind bei {c} für {g} freigegeben ({p})?")
    plain = ("freigegebene Lieferanten {c} aktuell ({p})?", "freigegebene Lieferanten {c} im {p}",
             "freigegebene Lief. {c} im {p}", "welche Lieferanten waren bei {c} im {p} freigegeben?")
    for _ in range(N):
        cid = rng.choice(sorted(COMPANIES))
        gid = rng.choice(sorted(GROUPS))
        period, start, end = rng.choice(PERIODS)
        with_group = rng.random() < 0.6
        frame = rng.choice(frames if with_group else plain)
        question = frame.format(c=rng.choice(COMPANIES[cid]), g=rng.choice(GROUPS[gid]), p=period)
        result = routed(question)
        assert not result.requires_clarification, (question, result.clarification_question)
        assert result.workflow == "approved_vendors", (question, result.workflow)
        vendors = args(result, "graph.find_approved_vendors")
        assert (vendors["start_date"], vendors["end_date"]) == (start, end), (question, vendors)
        if with_group:
            assert args(result, "catalog.find_products")["group_name"] == GAZETTEER_NAMES[gid], question
        else:
            assert "catalog.find_products" not in tools(result), question


GAZETTEER_NAMES = {g.product_group_id: g.group_name for g in GAZETTEER.product_groups}


def test_aktuell_beside_a_named_period_is_that_period() -> None:
    for period, _, _ in PERIODS:
        german = read_german(f"freigegebene Lieferanten Company B aktuell ({period})?")
        assert german is not None and "aktuell" not in german and "currently" not in german, german


def test_catalogue_words_read_the_catalogue_products_of_the_group() -> None:
    rng = random.Random(7)
    frames = ("Welche Artikel gibt es in der Gruppe {g}?", "Artikel unter {g} laut Katalog?",
              "wer liefert laut Katalog {g}?", "wer liefert {g} laut Katalog?", "Produkte unter {g} laut Katalog")
    groups = {"PG-PACK": ("Verpackung", "Packaging"), "PG-SENS": ("Sensoren", "Sensors"),
              "PG-PRES": ("Drucksensoren", "Pressure Sensors")}
    for _ in range(N):
        gid = rng.choice(sorted(groups))
        question = rng.choice(frames).format(g=rng.choice(groups[gid]))
        result = routed(question)
        assert result.workflow == "catalog_products", (question, result.workflow, result.clarification_question)
        assert args(result, "catalog.find_products")["group_name"] == GAZETTEER_NAMES[gid], question


def test_list_price_is_the_catalogue_read_of_the_named_product() -> None:
    rng = random.Random(5)
    frames = ("Listenpreis {p} laut Katalog?", "catalog list price of the {p}", "Katalogpreis {p}?",
              "list price {p}", "what is the list price of {p}?", "Listenpreis {p}", "Was kostet {p} laut Katalog?",
              "how much does the {p} cost according to the catalog?")
    names = {"PRD-482": ("PRD-482", "Differential pressure sensor DPS-482"),
             "PRD-510": ("PRD-510", "flow sensor FS-50"),
             "PRD-600": ("PRD-600", "Temperature data logger TL-2"), "PRD-900": ("Euro crate 600x400", "PRD-900")}
    for _ in range(N):
        code = rng.choice(sorted(names))
        question = rng.choice(frames).format(p=rng.choice(names[code]))
        result = routed(question)
        assert result.workflow == "catalog_list_price", (question, result.workflow, result.clarification_question)
        assert args(result, "catalog.list_price") == {"product_codes": [code]}, question
        assert "finance" not in " ".join(tools(result)), question


def test_list_price_beside_a_paid_figure_is_not_the_list_price_reading() -> None:
    for question in ("did Company A pay more than list price for PRD-482 in Q1 2026?",
                     "PRD-482 average unit price vs list price Company A March 2026",
                     "how much above the catalog price were invoices for PRD-510 in 2025?"):
        assert not asks_list_price(question), question
        assert routed(question).workflow != "catalog_list_price", question


def test_list_price_without_a_catalogue_product_is_asked() -> None:
    result = routed("list price of the thing we always order?")
    assert result.requires_clarification or result.workflow != "catalog_list_price"


def test_two_groups_joined_are_the_group_holding_exactly_both() -> None:
    rng = random.Random(3)
    joins = (" / ", "/", " and ", " & ", " + ")
    for _ in range(N):
        join = rng.choice(joins)
        pair = rng.choice((("data loggers", "sensors"), ("Sensors", "Data Loggers")))
        question = rng.choice(("which {a}{j}{b} does Supplier Gamma supply",
                               "Company A spend on {a}{j}{b} in Q1 2026")).format(a=pair[0], j=join, b=pair[1])
        result = routed(question)
        assert not result.requires_clarification, (question, result.clarification_question)
        assert result.entities.product_group_id == "PG-MON", (question, result.entities)
        assert "Monitoring Products" in result.interpretation, result.interpretation
    nested = routed("Company A spend on pressure sensors and sensors in Q1 2026")
    assert nested.entities.product_group_id == "PG-SENS" and "holds Pressure Sensors" in nested.interpretation


def test_a_union_no_group_holds_exactly_is_asked() -> None:
    # Pressure Sensors and Data Loggers: their parent holds Flow Sensors too
    result = routed("which pressure sensors / data loggers does Supplier Gamma supply")
    assert result.requires_clarification, result.workflow
    loose = routed("which pumps / sensors does Supplier Beta supply")
    assert loose.requires_clarification and "pumps" in str(loose.clarification_question)


def test_union_helper_needs_the_joining_word() -> None:
    from router.entities import Mention
    a = Mention("product_group", "sensors", 0, 7, ("PG-SENS",))
    b = Mention("product_group", "data loggers", 12, 24, ("PG-LOG",))
    assert joined_groups_union("sensors and data loggers", (a, b), GAZETTEER) is not None
    assert joined_groups_union("sensors with data loggers", (a, b), GAZETTEER) is None


def test_goods_named_before_products_are_what_was_bought() -> None:
    rng = random.Random(9)
    for _ in range(N):
        goods = rng.choice(("monitoring", "sensor", "pressure sensor"))
        tail = rng.choice(("from approved vendors in Q1 2026", "in Q1 2026", "from Supplier Beta in 2025"))
        question = f"company a: which {goods} products did we buy {tail}?"
        read = read_purchase_listing(question)
        assert read is not None and read.endswith(", by product") and f"on {goods} products" in read, read
        assert "from" not in read.split("on", 1)[1], read


def test_list_price_beside_a_figure_is_its_own_part_or_asked() -> None:
    from router.compound import split_asks
    from router.reader import read

    def read_part(text: str) -> object:
        return read(read_german(text) or text, GAZETTEER, AS_OF, CATALOG, None)

    rng = random.Random(13)
    for _ in range(N // 2):
        company = rng.choice(("Company A", "Company B"))
        period = rng.choice(("Q1 2026", "2025", "H2 2025"))
        code = rng.choice(("PRD-482", "PRD-510", "PRD-600"))
        joined = rng.choice((" and the list price of {c}", " + list price {c}", " + catalog list price of {c}"))
        question = f"{company} spend on sensors in {period}" + joined.format(c=code)
        parts = split_asks(question, read_part)
        assert len(parts) == 2, (question, parts)
        priced = routed(parts[1].question)
        assert priced.workflow == "catalog_list_price", (parts[1].question, priced.workflow)
        assert args(priced, "catalog.list_price") == {"product_codes": [code]}
    # not split (a German total word the splitter does not read): asked, never one of the two dropped
    result = routed("Company A Sensoren Q1 2026 gesamt + Listenpreis PRD-482")
    assert result.requires_clarification and "list price" in str(result.clarification_question)


def test_invoices_released_for_payment_are_not_approved_vendors() -> None:
    for question in ("freigegebene Rechnungen Company A Q1 2026", "freigegebene Zahlungen Company B im Q4 2025",
                     "welche Rg. wurden bei Company A im Q1 2026 freigegeben?"):
        result = routed(question)
        assert result.workflow != "approved_vendors", (question, result.workflow)
