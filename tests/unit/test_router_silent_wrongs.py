"""Silent-wrong classes (no database, no model): seeded, bounded generators of questions whose right answer is
either a plan carrying every constraint or a clarification naming what is not understood.

* a company and a period with a spend word and no document word: a figure, never passages;
* a measure no governed metric computes: a clarification naming it, never the spend of the scope;
* German calendar days (digits and ordinal words), halves ("Hälfte"), "Vierteljahr", "Ende des ersten Quartals";
* period lists that are no single range ("Q3 2025 and Q1 2026"): one governed figure per part;
* "all companies": each company's governed figure, or a clarification when a company is also named or the figure
  is not a plain total;
* a product group's share of an enclosing group; the N largest invoices; the number of suppliers.
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from procura.db.session import AuthContext
from router.contract import RoutingResult
from router.entities import Company, Gazetteer, ProductGroup
from router.german import german_days, read_german
from router.periods import resolve_period
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from router.tools import TOOLS
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
CTX = AuthContext("tenant-42", "analyst-1", frozenset({"procurement:read", "invoice:aggregate"}))
REGISTRY = shipped_registry()
METRICS = catalog_metrics(REGISTRY)
#: The metrics without a workflow of their own, matched by their label and synonyms (as router/service.py does).
CATALOG = catalog_metrics(REGISTRY, exclude=frozenset(TOOLS))
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
     Company("COMP-C", "Company C", "EUR")],
    [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma"), ("SUP-35", "Supplier Zeta")],
    [("Beta Supplies GmbH", "SUP-18"), ("Gamma Controls", "SUP-27"), ("Zeta Sensorik GmbH", "SUP-35")],
    [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-SENS", "Sensors", "PG-MON"),
     ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"), ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"),
     ProductGroup("PG-CTRL", "Control Equipment")],
)
COMPANIES = {"COMP-A": ("Company A", "COMP-A", "company a"), "COMP-B": ("Company B", "COMP-B")}
SUPPLIERS = {"SUP-18": ("Supplier Beta", "Beta", "Beta Supplies GmbH"), "SUP-27": ("Gamma", "Gamma Controls"),
             "SUP-35": ("Zeta", "Zeta Sensorik GmbH")}
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01", "2026-01-01"),
           ("last quarter", "2026-01-01", "2026-04-01"), ("in March 2026", "2026-03-01", "2026-04-01"),
           ("in H2 2025", "2025-07-01", "2026-01-01"))
N = 60  # questions per generator (seeded): bounded, a few seconds in all


def routed(question: str) -> RoutingResult:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG))


def plan_text(result: RoutingResult) -> str:
    return " ".join(str(step.arguments) for step in result.execution_plan)


def _slots(rng: random.Random) -> tuple[str, str, str, str, str, str]:
    cid = rng.choice(sorted(COMPANIES))
    sid = rng.choice(sorted(SUPPLIERS))
    phrase, start, end = rng.choice(PERIODS)
    return cid, rng.choice(COMPANIES[cid]), sid, rng.choice(SUPPLIERS[sid]), phrase, f"{start}|{end}"


def test_a_company_and_a_period_with_a_spend_word_is_a_figure_never_passages() -> None:
    rng = random.Random(11)
    frames = ("what did {c} pay {s} {p}?", "{c} purchases from {s} {p}", "{c} paid to {s} {p}",
              "what did {c} pay to {s} {p}", "{c} open items with {s} {p}", "{c} bills from {s} {p}")
    for _ in range(N):
        cid, cname, sid, sname, phrase, bounds = _slots(rng)
        question = rng.choice(frames).format(c=cname, s=sname, p=phrase)
        result = routed(question)
        start, end = bounds.split("|")
        if result.requires_clarification:
            assert result.workflow == "clarification"
            continue
        assert result.workflow in ("spend", "metric"), (question, result.workflow)
        text = plan_text(result)
        assert cid in text and sid in text and start in text and end in text, (question, text)


def test_open_items_are_the_unpaid_invoices() -> None:
    result = routed("Company A open items with Beta in Q1 2026")
    assert result.workflow == "spend"
    assert "'posted'" in plan_text(result) and "'paid'" not in plan_text(result)


@pytest.mark.parametrize("measure", ["days payable outstanding", "DPO", "lead time", "savings", "late payment fees",
                                     "on-time delivery rate", "CO2 emissions", "average discount", "headcount"])
def test_a_measure_no_metric_computes_is_named_back(measure: str) -> None:
    rng = random.Random(measure)
    for frame in ("what was {c}'s {m} with {s} {p}", "{c} {m} {s} {p}", "show {m} for {c} {p}"):
        _, cname, _, sname, phrase, _ = _slots(rng)
        result = routed(frame.format(c=cname, m=measure, s=sname, p=phrase))
        assert result.requires_clarification, (frame, measure, result.workflow)
        assert measure.lower() in (result.clarification_question or "").lower()


def test_a_document_question_about_a_company_still_searches() -> None:
    result = routed("What are the payment terms in Company A's agreement with Supplier Beta?")
    assert not result.requires_clarification
    assert result.workflow in ("document_answer", "identifier_lookup")


_DE_MONTHS = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober",
              "November", "Dezember")
_DE_ORDINALS = ("ersten", "zweiten", "dritten", "vierten", "fünften", "sechsten", "siebten", "achten", "neunten",
                "zehnten", "elften", "zwölften", "dreizehnten", "vierzehnten", "fünfzehnten", "sechzehnten",
                "siebzehnten", "achtzehnten", "neunzehnten", "zwanzigsten", "einundzwanzigsten", "zweiundzwanzigsten",
                "dreiundzwanzigsten", "vierundzwanzigsten", "fünfundzwanzigsten", "sechsundzwanzigsten",
                "siebenundzwanzigsten", "achtundzwanzigsten")


def test_german_days_in_digits_and_words_are_iso_dates() -> None:
    rng = random.Random(5)
    for _ in range(200):
        day, month, year = rng.randrange(1, 29), rng.randrange(1, 13), rng.choice((2025, 2026))
        spelled = rng.choice((f"{day}.", _DE_ORDINALS[day - 1]))
        text = f"Ausgaben am {spelled} {_DE_MONTHS[month - 1]} {year}"
        assert dt.date(year, month, day).isoformat() in german_days(text), text


def test_a_german_day_without_its_year_takes_the_next_year_named() -> None:
    assert german_days("vom 1. Januar bis 31. März 2026") == "vom 2026-01-01 bis 2026-03-31"
    assert german_days("am 3. März") == "am 3. März"  # no year anywhere: left as written


@pytest.mark.parametrize(("german", "start", "end"), [
    ("Ausgaben von Company A in der ersten Hälfte 2026", "2026-01-01", "2026-07-01"),
    ("Ausgaben von Company A in der zweiten Jahreshälfte 2025", "2025-07-01", "2026-01-01"),
    ("Ausgaben von Company A im ersten Vierteljahr 2026", "2026-01-01", "2026-04-01"),
    ("Ausgaben von Company A vom 1. Januar bis Ende des ersten Quartals 2026", "2026-01-01", "2026-04-01"),
    ("Ausgaben von Company A vom dritten März 2026 bis zum 31. März 2026", "2026-03-03", "2026-04-01"),
    ("Ausgaben von Company A vom 01.02.2026 bis 15.03.2026", "2026-02-01", "2026-03-16"),
    ("Ausgaben von Company A im vierten Quartal 2025", "2025-10-01", "2026-01-01"),
])
def test_german_periods_resolve(german: str, start: str, end: str) -> None:
    english = read_german(german)
    assert english is not None
    period = resolve_period(english, AS_OF)
    assert period.time_range is not None, (german, english, period.reason)
    assert (period.time_range.start.isoformat(), period.time_range.end.isoformat()) == (start, end), english


def test_a_german_price_per_piece_is_a_unit_price_without_a_status_filter() -> None:
    english = read_german("Was hat Company A im Jahr 2025 im Schnitt pro Stück für PRD-486 bezahlt?")
    assert english is not None and "per unit" in english and "paid" not in english


_QUARTERS = {f"Q{q} {y}": (dt.date(y, 3 * q - 2, 1), dt.date(y + (q == 4), 1 if q == 4 else 3 * q + 1, 1))
             for y in (2025, 2026) for q in (1, 2, 3, 4)}


def test_a_period_list_with_a_gap_gets_one_figure_per_part() -> None:
    rng = random.Random(3)
    names = sorted(_QUARTERS, key=lambda k: _QUARTERS[k][0])
    for _ in range(N):
        first, second = sorted(rng.sample(range(len(names) - 1), 2))
        if second - first < 2:
            continue
        a, b = names[first], names[second]
        cid, cname, sid, sname, _, _ = _slots(rng)
        question = rng.choice(("{c} spend with {s} in {a} and {b}",
                               "how much did {c} spend with {s} in {a} and in {b}"))
        result = routed(question.format(c=cname, s=sname, a=a, b=b))
        assert result.workflow == "metric", (question, result.clarification_question)
        parts = [s for s in result.execution_plan if s.tool == "metrics.query"]
        assert [(p.arguments["parameters"]["start_date"], p.arguments["parameters"]["end_date"]) for p in parts] == [
            (_QUARTERS[a][0].isoformat(), _QUARTERS[a][1].isoformat()),
            (_QUARTERS[b][0].isoformat(), _QUARTERS[b][1].isoformat())]
        assert all(p.arguments["parameters"]["company_id"] == cid and p.arguments["parameters"]["supplier_ids"] == [sid]
                   for p in parts)


@pytest.mark.parametrize("words", ["all companies", "all our companies", "across the group", "group-wide",
                                   "every company"])
def test_all_companies_is_each_company_or_asked(words: str) -> None:
    # Every company of the tenant together: no company filter (the tenant's rows), the total and each company's part.
    each = routed(f"total spend {words} in Q1 2026")
    assert each.workflow == "metric"
    calls = [s.arguments for s in each.execution_plan if s.tool == "metrics.query"]
    assert [c["group_by"] for c in calls] == [[], ["company_id"]]
    assert all("company_id" not in c["parameters"] for c in calls)
    both = routed(f"Company A spend {words} in Q1 2026")
    assert both.requires_clarification and "Company A" in (both.clarification_question or "")
    ranked = routed(f"top 3 suppliers {words} in 2025")
    assert not ranked.requires_clarification, ranked.clarification_reasons
    assert all(not s.arguments["parameters"].get("company_id") for s in ranked.execution_plan
               if s.tool == "metrics.query")


@pytest.mark.parametrize(("part", "whole", "part_ids", "whole_ids"), [
    ("Pressure Sensors", "Sensors", ["PG-PRES"], ["PG-PRES", "PG-SENS", "PG-TEMP"]),
    ("Temperature Sensors", "Monitoring Products", ["PG-TEMP"], ["PG-MON", "PG-PRES", "PG-SENS", "PG-TEMP"]),
    ("Sensors", "Monitoring Products", ["PG-PRES", "PG-SENS", "PG-TEMP"], ["PG-MON", "PG-PRES", "PG-SENS", "PG-TEMP"]),
])
def test_a_groups_share_of_an_enclosing_group(part: str, whole: str, part_ids: list[str],
                                              whole_ids: list[str]) -> None:
    for frame in ("what share of Company A's {w} spend in 2025 was {g}", "{g}' share of Company A's {w} spend in 2025",
                  "what percentage of Company A's spend on {w} in 2025 went to {g}"):
        result = routed(frame.format(g=part, w=whole))
        assert result.workflow == "metric", (frame, result.clarification_question)
        step = result.execution_plan[0]
        assert step.arguments["metric"] == "finance.product_group_share"
        assert step.arguments["parameters"]["product_group_ids"] == part_ids
        assert step.arguments["parameters"]["within_product_group_ids"] == whole_ids


@pytest.mark.parametrize(("question", "limit", "direction"), [
    ("largest invoice of Company A in Q1 2026", 1, "top"),
    ("What was Company B's biggest invoice in 2025?", 1, "top"),
    ("the 3 largest invoices of Company A in 2025", 3, "top"),
    ("top 2 invoices of Company A in Q1 2026", 2, "top"),
    ("smallest invoice of Company A in 2025", 1, "bottom"),
    ("Company A's three biggest invoices from Beta in 2025", 3, "top"),
    ("largest invoices of Company A in 2025", 5, "top"),
])
def test_the_largest_invoices_are_a_governed_ranking(question: str, limit: int, direction: str) -> None:
    result = routed(question)
    assert result.workflow == "metric", result.clarification_question
    step = result.execution_plan[0]
    assert step.arguments["metric"] == "finance.largest_invoices"
    assert step.arguments["group_by"] == ["invoice_number"]
    assert (step.arguments["parameters"]["limit"], step.arguments["parameters"]["direction"]) == (limit, direction)


@pytest.mark.parametrize("question", ["how many suppliers did Company A buy from in Q1 2026",
                                      "number of vendors Company A used in 2025", "Company A supplier count in 2025",
                                      "how many suppliers did Company A buy Sensors from in 2025"])
def test_the_number_of_suppliers_is_a_governed_count(question: str) -> None:
    result = routed(question)
    assert result.workflow == "metric", result.clarification_question
    step = result.execution_plan[0]
    assert step.arguments["metric"] == "finance.supplier_count"
    assert step.arguments["parameters"]["company_id"] == "COMP-A"
    if "Sensors" in question:
        assert step.arguments["parameters"]["product_group_ids"] == ["PG-PRES", "PG-SENS", "PG-TEMP"]


@pytest.mark.parametrize("question", ["Company A spend in Q1 2026 and 2025", "Company A spend in March 2026, 2025",
                                      "Company A spend in H2 2025 and 2026"])
def test_a_year_listed_after_another_period_is_never_dropped(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification, plan_text(result)
    assert "more than one period" in (result.clarification_question or "")
