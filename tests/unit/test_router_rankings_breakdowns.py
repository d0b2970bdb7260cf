"""Rankings, shares, run rates and breakdowns read whatever the slots: the level words of a breakdown, the
illustrating rows of a per-currency split, the unit an answer is asked in, unapplied limits inside a breakdown,
"how much more on X than Y", active supplier counts, "except" slips, run rates over all companies and a change
of net (ex VAT) spend. Phrasings written for these tests; each rule is varied over its slots (names, periods,
grouping words, units) so the reading, not a wording, is what is tested."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest

from router.breakdown_words import read_breakdown_words
from router.company_compare import _figure, company_mentions, detect
from router.compound import _segments
from router.entities import Company, Gazetteer, ProductGroup
from router.net_change import net_period_change
from router.ranking_words import read_ranking_words
from router.reader import read
from router.reading import group_dimension
from router.unapplied_limits import split_limits, unapplied_limits

AS_OF = dt.date(2026, 5, 15)
SUPPLIERS = {"SUP-18": ("Supplier Beta", "Beta"), "SUP-27": ("Supplier Gamma", "Gamma"),
             "SUP-22": ("Supplier Epsilon", "Epsilon")}
GAZETTEER = Gazetteer.build(
    [Company(f"COMP-{x}", f"Company {x}", "EUR") for x in "ABC"],
    [(sid, names[0]) for sid, names in SUPPLIERS.items()],
    [(alias, sid) for sid, names in SUPPLIERS.items() for alias in names],
    [ProductGroup("PG-CMOD", "Control Modules"), ProductGroup("PG-PRES", "Pressure Sensors")])
COMPANIES = ("Company A", "company b", "COMP-C")
PERIODS = ("Q1 2026", "H2 2025", "in 2025", "Q4 2025", "March 2026")
GROUPING = ("split by", "by", "per", "broken down by", "grouped by")
SEED = 8


# --- the level a grouping names ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("grouping", "noun", "company", "period"), [
    (g, n, c, p) for (g, n), c, p in zip(itertools.product(GROUPING, ("main product category", "main category",
                                                                     "main product categories")),
                                         itertools.cycle(COMPANIES), itertools.cycle(PERIODS), strict=False)])
def test_main_after_a_grouping_word_is_a_level_not_a_ranking(grouping: str, noun: str, company: str,
                                                             period: str) -> None:
    question = f"{company} {period} spend {grouping} {noun}"
    read_as = read_ranking_words(question) or question
    assert "top" not in read_as.split()
    assert group_dimension(read_as) == "top_product_group_id"


@pytest.mark.parametrize("question", ["the 2 main suppliers of Company A in 2025", "our main vendors Q1 2026",
                                      "company b: the three main products in H2 2025"])
def test_main_before_a_ranked_noun_still_ranks(question: str) -> None:
    assert "the top" in (read_ranking_words(question) or "")


@pytest.mark.parametrize(("text", "expected"), [
    ("top 3 product categories", "product_group_id"), ("spend by product category", "product_group_id"),
    ("top two product-categories by spend", "product_group_id"),
    ("spend by main product category", "top_product_group_id"),
    ("top 2 top-level product categories", "top_product_group_id"),
    ("top 3 categories by spend", "top_product_group_id"), ("spend by category", "product_group_id"),
])
def test_product_category_is_the_products_own_group_unless_a_level_is_named(text: str, expected: str) -> None:
    assert group_dimension(text) == expected


# --- a per-currency split with example rows ----------------------------------------------------------------------
@pytest.mark.parametrize(("lead", "examples"), list(itertools.product(
    ("how much did we pay in each currency", "spend in every currency", "spend per currency"),
    ("(GBP, CHF...)", "(e.g. USD, GBP)", "(CHF, GBP, etc.)"))))
def test_listed_example_currencies_are_no_filter(lead: str, examples: str) -> None:
    question = f"Company A H2 2025: {lead} {examples}?"
    read_as = read_breakdown_words(question) or question
    assert "(" not in read_as and "GBP" not in read_as


def test_currencies_named_without_examples_stay_a_filter() -> None:
    question = "Company A H2 2025: how much did we pay in GBP and CHF?"
    assert "GBP" in (read_breakdown_words(question) or question)


# --- the unit of the answer after the question mark --------------------------------------------------------------
@pytest.mark.parametrize("unit", ["in percent", "in %", "as a percentage", "in euros and percent", "in EUR and %",
                                  "in percent please", "as a percentage and in euros"])
@pytest.mark.parametrize("ask", ["which share of the money was Control Modules",
                                 "what part of spend went to Beta",
                                 "Company B spend Q1 2026 versus Q4 2025"])
def test_a_trailing_unit_is_no_ask_of_its_own(ask: str, unit: str) -> None:
    assert len(_segments(f"Company A H2 2025: {ask}? {unit}")) == 1


@pytest.mark.parametrize(("units", "period"), list(zip(
    ("in euros and percent", "in EUR and in percent", "in euros and percentage", "in euro and pct"),
    ("Q1 2026 versus Q4 2025", "Q1 2026 vs Q4 2025", "H1 2026 compared with H2 2025", "Q2 2026 vs Q1 2026"),
    strict=True)))
def test_percent_after_euros_is_no_purchased_object(units: str, period: str) -> None:
    reading = read(f"Company A spend on Control Modules {period} {units}", GAZETTEER, AS_OF)
    assert not reading.not_understood


# --- unapplied limits inside a breakdown -------------------------------------------------------------------------
_VALUES = ("north", "south-east", "alpine", "emea")
_CENTRES = ("lab ops", "maintenance", "facility services", "CC-4410")


@pytest.mark.parametrize(("company", "grouping", "period", "value"), [
    (c, g, p, v) for c, g, p, v in zip(itertools.cycle(COMPANIES), itertools.cycle(("by supplier", "by quarter",
                                                                                    "per month", "by category")),
                                       itertools.cycle(PERIODS), _VALUES * 3)])
def test_a_bare_region_value_is_named_and_the_breakdown_kept(company: str, grouping: str, period: str,
                                                             value: str) -> None:
    question = f"{company} spend {grouping} {period}, {value} region"
    split = split_limits(question)
    assert split is not None and [x.label for x in split.limits] == ["region"]
    assert grouping in split.rest and value not in split.rest


@pytest.mark.parametrize(("grouping", "centre"), list(itertools.product(("by supplier", "per quarter"), _CENTRES)))
def test_a_cost_centre_value_of_one_or_two_words_is_named(grouping: str, centre: str) -> None:
    question = f"Company B spend {grouping} Q1 2026 cost center {centre}"
    split = split_limits(question)
    assert split is not None and split.limits[0].words == f"cost center {centre}"
    assert split.rest == f"Company B spend {grouping} Q1 2026"


@pytest.mark.parametrize("question", ["Company A spend by region 2025", "spend in each region in Q1 2026",
                                      "spend across several regions 2025", "which region spent most in 2025",
                                      "spend per cost center in Q1 2026", "region-level spend for Company C",
                                      "spend by supplier for Company A, by department"])
def test_a_dimension_noun_without_a_value_is_no_limit(question: str) -> None:
    assert unapplied_limits(question) == ()


# --- differences, counts and exclusions as typed -----------------------------------------------------------------
@pytest.mark.parametrize(("x", "y", "period"), [("Beta", "Gamma", "in Q4 2025"), ("Gamma", "Epsilon", "in 2025"),
                                                ("Epsilon", "Beta", "in H2 2025")])
@pytest.mark.parametrize("frame", ["{c} how much more on {x} then {y} {p}", "{c}: how much less with {x} than {y} {p}",
                                   "{c} how much more on {x} than on {y} {p}"])
def test_how_much_more_on_one_supplier_than_another(frame: str, x: str, y: str, period: str) -> None:
    question = frame.format(c="Company A", x=x, y=y, p=period)
    text = read_ranking_words(question) or question
    reading = read(text, GAZETTEER, AS_OF)
    m = reading.mentions
    asked = detect(reading.text, company_mentions(reading.text, m.companies, reading.identifiers.company_ids),
                   (*m.suppliers, *m.product_groups, *m.products))
    assert asked is not None and asked.kind == "difference"
    assert x in asked.sides[0] and y in asked.sides[1]


@pytest.mark.parametrize(("question", "expected"), [
    ("No. of active suppliers Company A H2 2025", "No. of suppliers Company A H2 2025"),
    ("how many active vendors did Company B have in Q1 2026?", "how many vendors did Company B have in Q1 2026?"),
    ("number of currently active suppliers, company c, 2025", "number of suppliers, company c, 2025"),
    ("Company A active supplier count FY2025", "Company A supplier count FY2025"),
])
def test_active_suppliers_are_the_suppliers_bought_from(question: str, expected: str) -> None:
    assert read_ranking_words(question) == expected


@pytest.mark.parametrize(("n", "noun", "name"), list(zip(("three", "2", "five"), ("suppliers", "vendors", "suppliers"),
                                                         ("Beta", "gamma", "Supplier Epsilon"), strict=True)))
def test_accept_after_a_top_n_is_except(n: str, noun: str, name: str) -> None:
    assert read_ranking_words(f"company a top {n} {noun} accept {name} 2025") == \
        f"company a top {n} {noun} except {name} 2025"


@pytest.mark.parametrize("question", ["which suppliers accept credit cards", "top suppliers that accept returns"])
def test_accept_elsewhere_is_left_alone(question: str) -> None:
    assert read_ranking_words(question) is None


# --- run rates over a period -------------------------------------------------------------------------------------
@pytest.mark.parametrize(("company", "words", "period"), list(zip(
    ("the group", "Company A", "company b", "all companies"),
    ("average monthly spend", "average spend per month", "avg monthly spend", "monthly average spend"),
    ("H2 2025", "July to December 2025", "Q1 2026", "2025"), strict=True)))
def test_average_monthly_spend_is_one_rate_not_month_rows(company: str, words: str, period: str) -> None:
    reading = read(f"{company} {words} {period}", GAZETTEER, AS_OF)
    assert reading.breakdown.grain is None


def test_spend_per_month_is_still_month_rows() -> None:
    assert read("Company A spend per month H2 2025", GAZETTEER, AS_OF).breakdown.grain == "month"


# --- a change of net spend ---------------------------------------------------------------------------------------
_NET = ("net spend (ex VAT)", "spend excluding VAT", "net spend", "spend net of tax")
_CHANGES = (("Q4 2025 vs Q3 2025, %", "Q4 2025", "Q3 2025"), ("in Q1 2026 compared with Q4 2025", "Q1 2026", "Q4 2025"),
            ("H2 2025 versus H1 2025 in euros and percent", "H2 2025", "H1 2025"))


@pytest.mark.parametrize(("company", "net", "change"), [
    (c, n, ch) for c, (n, ch) in zip(itertools.cycle(COMPANIES[:2]), itertools.product(_NET, _CHANGES))])
def test_a_net_change_is_two_net_figures(company: str, net: str, change: tuple[str, str, str]) -> None:
    words, current, base = change
    asked = net_period_change(read(f"{company} {net} {words}", GAZETTEER, AS_OF))
    assert asked is not None and asked.kind == "difference"
    a, b = asked.bases
    assert a.endswith(current) and b.endswith(base)
    for side in (a, b):
        assert company in side and net.split()[0] in side
        assert not any(w in side.lower().split() for w in ("vs", "versus", "compared", "%", "percent"))


def test_a_gross_change_is_left_to_the_governed_comparison() -> None:
    assert net_period_change(read("Company A spend Q4 2025 vs Q3 2025, %", GAZETTEER, AS_OF)) is None


def test_a_net_figure_is_one_side_of_a_difference() -> None:
    from router.answer import Answer

    rng = random.Random(SEED)
    for _ in range(5):
        net = f"{rng.randint(1, 99999)}.{rng.randint(0, 99):02d}"
        lines = rng.randint(1, 40)
        answer = Answer(status="answered", text="x", result={"status": "complete", "basis": "net", "currency": "EUR",
                                                             "total": net, "net": net, "tax": "1.00",
                                                             "line_count": lines}, inputs={}, sources=())
        figure = _figure(answer)
        assert figure is not None and str(figure[0]) == net and figure[1] == lines and figure[2] == "EUR"


# --- projections at a pace, and differences of two things bought -------------------------------------------------
@pytest.mark.parametrize(("pace", "target", "months"), [
    (p, t, m) for p, (t, m) in zip(
        itertools.cycle(("at Company A's Q1 2026 monthly rate,", "if Company A's Q1 2026 pace holds,",
                         "if the Q1 2026 trend continues for Company A,", "at the Q1 2026 spending rate of Company A,",
                         "if the tempo of Q1 2026 holds for Company A,")),
        (("what would 6 months of spend come to?", 6), ("what would H2 2026 land at?", 6),
         ("what would a full year be?", 12), ("where would Q3 2026 end up?", 3),
         ("what would the next 4 months come to?", 4)), strict=False)])
def test_a_projection_at_a_pace(pace: str, target: str, months: int) -> None:
    from router.derived import detect as detect_derived

    found = detect_derived(f"{pace} {target}", AS_OF)
    assert found is not None and found.kind == "projection" and found.horizon_months == months
    assert "Company A" in found.base and "Q1 2026" in found.base
    assert not any(w in found.base.lower().split() for w in ("holds", "continues", "pace", "trend", "tempo"))


def test_an_exchange_rate_is_no_pace() -> None:
    from router.derived import detect as detect_derived

    assert detect_derived("Company A Q1 2026 spend at the EUR exchange rate", AS_OF) is None


@pytest.mark.parametrize(("x", "y"), [("Beta", "Gamma"), ("Epsilon", "Beta"), ("Gamma", "Pressure Sensors")])
@pytest.mark.parametrize("frame", ["difference between {x} and {y} spend for Company A in Q4 2025",
                                   "Company B Q1 2026: {x} minus {y} spend"])
def test_a_difference_of_two_things_bought(frame: str, x: str, y: str) -> None:
    question = frame.format(x=x, y=y)
    reading = read(read_ranking_words(question) or question, GAZETTEER, AS_OF)
    m = reading.mentions
    asked = detect(reading.text, company_mentions(reading.text, m.companies, reading.identifiers.company_ids),
                   (*m.suppliers, *m.product_groups, *m.products))
    assert asked is not None and asked.kind == "difference" and asked.refused is None
    assert x in asked.bases[0] and y in asked.bases[1]
    assert all("Company" in b for b in asked.bases)


def test_a_trend_over_months_is_no_projection() -> None:
    from router.derived import detect as detect_derived

    assert detect_derived("Company A spend trend over 6 months", AS_OF) is None


@pytest.mark.parametrize("name", ["Control Modules", "Pressure Sensors"])
def test_the_last_word_of_a_known_name_before_a_dimension_noun_is_no_limit(name: str) -> None:
    assert unapplied_limits(f"Company A spend from {name} division by supplier, 2025", [name]) == ()
    assert unapplied_limits(f"Company A spend by supplier for {name.split()[-1].lower()} division, 2025") != ()


@pytest.mark.parametrize("question", ["Company A net unit price of PRD-100 Q4 2025 vs Q3 2025",
                                      "Company A net spend by supplier Q4 2025 vs Q3 2025",
                                      "Company A invoice count net of VAT Q4 2025 vs Q3 2025",
                                      "top 3 suppliers of Company A by net spend Q4 2025 vs Q3 2025"])
def test_a_net_change_of_no_single_spend_figure_is_left_to_its_reader(question: str) -> None:
    assert net_period_change(read(question, GAZETTEER, AS_OF)) is None
