"""The analyst's phrases, read (no database): rankings, shares, period comparisons, exclusions, status and
document-type filters, original currency and the average unit price; their mapping to the governed metric's
parameters (a metamorphic suite over generated questions); and the composed answers' edge cases (ties at the cut,
an empty base period, a negative credit-note total, a zero whole)."""

from __future__ import annotations

import datetime as dt
import re
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from procura.db.session import AuthContext
from router.analysis import parse_analysis, parse_comparison, parse_currency, parse_filters, parse_ranking
from router.answer import compose
from router.entities import Company, Gazetteer, ProductGroup
from router.executor import RunResult, StepOutcome
from router.reader import read
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from router.tools import MetricToolResponse
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
SUPPLIERS = {
    "SUP-18": ("Supplier Beta", ("Beta Supplies GmbH", "BETA SUPPLIES")),
    "SUP-22": ("Supplier Epsilon", ("Epsilon Instruments Inc",)),
    "SUP-27": ("Supplier Gamma", ("Gamma Control Systems AG", "Gamma Controls")),
    "SUP-31": ("Supplier Delta", ("Delta Enclosures Ltd",)),
    "SUP-60": ("Supplier Iota", ("Iota Cable Works Ltd",)),
}
SHORT = {"SUP-18": "Beta", "SUP-22": "Epsilon", "SUP-27": "Gamma", "SUP-31": "Delta", "SUP-60": "Iota"}
GROUPS = [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-SENS", "Sensors", "PG-MON"),
          ProductGroup("PG-PRES", "Pressure Sensors", "PG-SENS"),
          ProductGroup("PG-PRES-WL", "Wireless Pressure Transmitters", "PG-PRES"),
          ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"), ProductGroup("PG-CTRL", "Control Equipment"),
          ProductGroup("PG-CAB", "Control Cabinets", "PG-CTRL"), ProductGroup("PG-CONS", "Consumables")]
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    GROUPS,
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="analysis", scopes=frozenset({"invoice:aggregate"}))
#: The shipped registry this process already loaded (tests.unit.shipped): a load of its own costs seconds.
METRICS = catalog_metrics(shipped_registry())
FAST = settings(max_examples=50, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
PERIODS = [("in Q1 2026", "2026-01-01", "2026-04-01"), ("last quarter", "2026-01-01", "2026-04-01"),
           ("in H2 2025", "2025-07-01", "2026-01-01"), ("in March 2026", "2026-03-01", "2026-04-01"),
           ("YTD", "2026-01-01", "2026-05-16"), ("in FY2025", "2025-01-01", "2026-01-01"),
           ("between 2026-02-01 and 2026-03-15", "2026-02-01", "2026-03-15")]


def routed(question: str) -> Any:
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def call(question: str) -> tuple[str, dict[str, Any], list[str]]:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    return step.arguments["metric"], step.arguments["parameters"], list(step.arguments["group_by"])


# --- phrase families -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "dimension", "limit", "direction"), [
    ("Who were our top 5 suppliers?", "supplier_id", 5, "top"),
    ("the top ten vendors", "supplier_id", 10, "top"),
    ("our biggest supplier", "supplier_id", 1, "top"),
    ("our largest suppliers", "supplier_id", 5, "top"),
    ("the 3 largest product groups", "product_group_id", 3, "top"),
    ("bottom 2 categories", "product_group_id", 2, "bottom"),
    ("the smallest supplier", "supplier_id", 1, "bottom"),
    ("which supplier did we spend the most with", "supplier_id", 1, "top"),
    ("which product did we buy the least of", "product_code", 1, "bottom"),
    ("top-3 products", "product_code", 3, "top"),
    ("rank suppliers", "supplier_id", 100, "top"),
    ("which three suppliers accounted for the most spend", "supplier_id", 3, "top"),
    ("which product group had the highest spend", "product_group_id", 1, "top"),
    ("the supplier with the lowest spend", "supplier_id", 1, "bottom"),
    ("who did we spend the most with", "supplier_id", 1, "top"),
    ("who received the least", "supplier_id", 1, "bottom"),
])
def test_rankings_are_read(text: str, dimension: str, limit: int, direction: str) -> None:
    ranking, spans = parse_ranking(text)
    assert ranking is not None and (ranking.dimension, ranking.limit, ranking.direction) == (dimension, limit,
                                                                                            direction), ranking
    assert spans


def test_who_without_a_spend_verb_is_no_ranking() -> None:
    assert parse_ranking("Who approved the most invoices?")[0] is None


def test_comparing_named_suppliers_lists_each_not_their_sum() -> None:
    result = routed("Compare Company A's spend with Beta and Gamma in Q1 2026")
    spend = next(s for s in result.execution_plan if s.tool == "finance.aggregate_spend")
    assert spend.arguments["group_by"] == ["supplier_id"], spend.arguments


def test_ranking_order_by() -> None:
    assert parse_ranking("top 5 suppliers by units")[0].order_by == "units"  # type: ignore[union-attr]
    assert parse_ranking("top 5 suppliers by number of lines")[0].order_by == "matched_line_count"  # type: ignore
    assert parse_ranking("What did we spend on the topic?")[0] is None


@pytest.mark.parametrize(("text", "rule"), [
    ("spend in Q1 2026 compared to the previous quarter", "previous_period"),
    ("spend in Q1 2026 vs the prior period", "previous_period"),
    ("spend in Q1 2026 quarter over quarter", "previous_period"),
    ("spend in Q1 2026 compared with the same quarter last year", "same_period_last_year"),
    ("spend in Q1 2026 year over year", "same_period_last_year"),
    ("YoY spend in Q1 2026", "same_period_last_year"),
    ("how did spend change in Q1 2026", "previous_period"),
])
def test_comparisons_are_read(text: str, rule: str) -> None:
    comparison = parse_analysis(text, AS_OF)[0].comparison
    assert comparison is not None and comparison.compare_to == rule


def test_a_period_named_previous_is_no_comparison_by_itself() -> None:
    assert parse_comparison("What did we spend in the previous quarter?", AS_OF) == (None, (), (), False)


@pytest.mark.parametrize(("text", "statuses", "types"), [
    ("unpaid invoices", ("posted",), None), ("open invoices", ("posted",), None),
    ("outstanding invoices", ("posted",), None), ("invoices not yet paid", ("posted",), None),
    ("paid invoices only", ("paid",), None), ("invoices that were already paid", ("paid",), None),
    ("credit notes only", None, ("credit_note",)), ("excluding credit notes", None, ("invoice",)),
    ("without credit notes", None, ("invoice",)), ("net of credit notes", None, None),
    ("only invoices", None, ("invoice",)),
])
def test_status_and_document_type_filters_are_read(text: str, statuses: Any, types: Any) -> None:
    got_statuses, got_types, spans = parse_filters(text)
    assert (got_statuses, got_types) == (statuses, types)
    assert spans


@pytest.mark.parametrize(("text", "code"), [
    ("spend in the invoice currency", None), ("in original currency", None), ("in the original currencies", None),
    ("in USD as invoiced", "USD"), ("on invoices in USD", "USD"), ("USD invoices, unconverted", "USD"),
    ("in their own currency", None), ("in the currency it was invoiced in", None),
])
def test_original_currency_is_read(text: str, code: str | None) -> None:
    original, got, _ = parse_currency(text)
    assert original and got == code


def test_local_currency_is_the_invoice_currencies_whatever_currency_is_asked() -> None:
    # "local currency" of a spend figure: each invoice currency as invoiced, with the reporting total beside it
    # (tests/unit/test_router_currency_prices.py); "whatever currency" chooses none and is still asked about.
    local = routed("What did Company A spend in Q1 2026 in local currency?")
    assert not local.requires_clarification and "finance.document_currency_spend" in str(local.execution_plan)
    question = "Give me Company A's Q4 2025 spend, in whatever currency the invoices were in."
    assert "currency" in " ".join(routed(question).clarification_reasons), question


@pytest.mark.parametrize("cue", ["excluding", "except", "except for", "other than", "not from", "apart from",
                                 "without", "not counting", "leaving out"])
def test_every_exclusion_cue_excludes_the_names_after_it(cue: str) -> None:
    reading = read(f"How much did Company A spend in Q1 2026 {cue} Beta and Gamma Controls?", GAZETTEER, AS_OF)
    assert reading.excluded_supplier_ids == ("SUP-18", "SUP-27"), reading.excluded_supplier_ids
    assert reading.entities.supplier_ids == ()
    group = read(f"Company A spend in Q1 2026 {cue} pressure sensors", GAZETTEER, AS_OF)
    assert group.excluded_group_ids == ("PG-PRES",) and group.entities.product_group is None


def test_a_supplier_named_before_the_cue_stays_included() -> None:
    reading = read("Company A's top 5 product groups with Beta in Q1 2026, excluding Gamma", GAZETTEER, AS_OF)
    assert (reading.entities.supplier_ids, reading.excluded_supplier_ids) == (("SUP-18",), ("SUP-27",))


def test_an_unknown_excluded_name_is_named_back() -> None:
    for question in ("How much did Company A spend in Q1 2026 excluding widgets?",
                     "How much did Company A spend in Q1 2026 except Omega Tech?"):
        result = routed(question)
        assert result.requires_clarification, question
        assert ("widgets" if "widgets" in question else "Omega") in (result.clarification_question or "")


def test_new_phrases_leave_no_unread_span() -> None:
    for question in ("Who were Company A's top 5 suppliers YoY in Q1 2026?",
                     "What share of Company A's spend in Q1 2026 went to Beta, excluding credit notes?",
                     "Company A spend in Q1 2026 in USD as invoiced, unpaid invoices only",
                     "What was the average unit price of PRD-482 in Q1 2026 from Beta?"):
        assert not read(question, GAZETTEER, AS_OF).not_understood, question


def test_excluding_drafts_is_no_request_for_drafts() -> None:
    assert read("Company A spend in Q1 2026 excluding draft invoices", GAZETTEER, AS_OF).excluded_status is None
    # asked for by name, cancelled invoices are their own governed figure (router/statuses.py), never spend
    assert routed("Company A spend on cancelled invoices in Q1 2026").workflow == "status_documents"


# --- the governed request -------------------------------------------------------------------------------------
def test_several_suppliers_under_a_filter_and_a_group_share_are_served() -> None:
    # Once named as unsupported; finance.company_spend now takes supplier_ids, and a product group's share of
    # the company's spend is finance.product_group_share.
    several = routed("Company A's spend with Beta and Gamma in Q1 2026 excluding credit notes")
    step = next(s for s in several.execution_plan if s.tool == "metrics.query")
    assert step.arguments["metric"] == "finance.company_spend"
    assert (sorted(step.arguments["parameters"]["supplier_ids"]), step.arguments["parameters"]["document_types"]) == (
        ["SUP-18", "SUP-27"], ["invoice"])
    share = routed("What share of Company A's spend in Q1 2026 went to pressure sensors?")
    step = next(s for s in share.execution_plan if s.tool == "metrics.query")
    assert step.arguments["metric"] == "finance.product_group_share"
    assert "PG-PRES" in step.arguments["parameters"]["product_group_ids"]


def test_combinations_a_metric_does_not_allow_are_named() -> None:
    cases = {
        "Company A's top 5 suppliers in Q1 2026 compared with the previous quarter": "ranking of changes",
        "Company A's top 5 suppliers in Q1 2026, month by month": "grain",
        "What was the average unit price of PRD-482 in Q1 2026 for pressure sensors?": "product group",
    }
    for question, what in cases.items():
        result = routed(question)
        assert result.requires_clarification and not result.execution_plan, question
        assert what in " ".join(result.clarification_reasons) + (result.clarification_question or ""), (
            question, result.clarification_reasons)


def test_one_suppliers_filtered_total_is_its_ranked_row() -> None:
    metric, params, group_by = call("How much did Company A spend with Beta in Q1 2026 excluding credit notes?")
    assert (metric, group_by, params["supplier_ids"], params["limit"], params["document_types"]) == (
        "finance.spend_ranking", ["supplier_id"], ["SUP-18"], 1, ["invoice"])
    routing = routed("How much did Company A spend with Beta in Q1 2026 excluding credit notes?")
    answer = compose(routing, _run(_response("finance.spend_ranking", params, rows=(
        {"supplier_id": "SUP-18", "total_spend": "120.50", "rank": 1, "tie_count": 1, "groups_ranked": 1,
         "share_of_total_percent": "100.0000", "matched_line_count": 2},))))
    assert "spend with SUP-18" in answer.text and "120.50 EUR" in answer.text and "Top" not in answer.text
    assert answer.result["total_spend"] == "120.50"


def test_a_category_share_counts_the_subgroups() -> None:
    metric, params, _ = call("What was Beta's share of Company A's sensors spend in Q1 2026?")
    assert metric == "finance.supplier_share"
    assert params["product_group_ids"] == ["PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]


def test_two_named_periods_are_current_and_base() -> None:
    _, params, _ = call("Company A spend Q1 2026 vs Q1 2025")
    assert (params["start_date"], params["compare_to"]) == ("2026-01-01", "same_period_last_year")
    _, params, _ = call("How did Company A's spend change from H2 2025 to Q1 2026?")
    assert (params["start_date"], params["end_date"], params["compare_to"], params["base_start_date"]) == (
        "2026-01-01", "2026-04-01", "custom", "2025-07-01")


# --- metamorphic: generated questions map to the metric with the slot values ------------------------------------
def _supplier(draw: st.DrawFn) -> tuple[str, str]:
    sid = draw(st.sampled_from(sorted(SUPPLIERS)))
    name, aliases = SUPPLIERS[sid]
    spelling = draw(st.sampled_from([name, *aliases, SHORT[sid]]))
    return draw(st.sampled_from([spelling, spelling.lower(), spelling.upper()])), sid


def _group(draw: st.DrawFn) -> tuple[str, str]:
    group = draw(st.sampled_from([g for g in GROUPS if len(g.group_name.split()) == 2]))
    words = group.group_name.lower().split()
    i = draw(st.integers(0, len(words) - 1))
    word = words[i]
    if draw(st.booleans()) and len(word) >= 6:
        j = draw(st.integers(2, len(word) - 2))
        words[i] = word[:j] + word[j + 1] + word[j] + word[j + 2:]  # one swap
    return " ".join(words), group.product_group_id


@st.composite
def ranking_questions(draw: st.DrawFn) -> tuple[str, dict[str, Any], list[str]]:
    phrase, start, end = draw(st.sampled_from(PERIODS))
    n = draw(st.integers(1, 12))
    frame, dim, direction = draw(st.sampled_from([
        ("Who were Company A's top {n} suppliers {p}?", "supplier_id", "top"),
        ("Company A's {n} biggest vendors {p}", "supplier_id", "top"),
        ("Top {n} product groups of Company A {p}", "product_group_id", "top"),
        ("Top {n} leaf product groups of Company A {p}", "product_group_id", "top"),
        ("The {n} largest products Company A bought {p}", "product_code", "top"),
        ("Bottom {n} suppliers of Company A {p}", "supplier_id", "bottom"),
        ("Company A's {n} lowest categories by spend {p}", "top_product_group_id", "bottom"),
    ]))
    params = {"company_id": "COMP-A", "start_date": start, "end_date": end, "reporting_currency": "EUR",
              "limit": n, "direction": direction, "order_by": "total_spend"}
    return frame.format(n=n, p=phrase), params, [dim]


@given(ranking_questions())
@seed(22)
@FAST
def test_generated_rankings_map_to_the_ranking_metric(case: tuple[str, dict[str, Any], list[str]]) -> None:
    question, params, group_by = case
    assert call(question) == ("finance.spend_ranking", params, group_by), question


@st.composite
def share_questions(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    phrase, start, end = draw(st.sampled_from(PERIODS))
    name, sid = _supplier(draw)
    group, gid = _group(draw)
    frame, with_group = draw(st.sampled_from([
        ("What share of Company A's spend {p} went to {s}?", False),
        ("What was {s}'s share of Company A's spend {p}?", False),
        ("What percentage of Company A's {g} spend {p} was with {s}?", True),
        ("Share of {s} in Company A's spending on {g} {p}", True),
    ]))
    params: dict[str, Any] = {"company_id": "COMP-A", "start_date": start, "end_date": end,
                              "supplier_ids": [sid], "reporting_currency": "EUR"}
    if with_group:
        params["product_group_ids"] = list(GAZETTEER.subgroups(gid))
    return frame.format(s=name, g=group, p=phrase), params


@given(share_questions())
@seed(22)
@FAST
def test_generated_shares_map_to_the_share_metric(case: tuple[str, dict[str, Any]]) -> None:
    question, params = case
    assert call(question) == ("finance.supplier_share", {k: params[k] for k in params}, []), question


@st.composite
def comparison_questions(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    phrase, start, end = draw(st.sampled_from(PERIODS))
    frame, rule = draw(st.sampled_from([
        ("How did Company A's spend {p} compare with the previous period?", "previous_period"),
        ("How did Company A's spend change {p} compared to the same period last year?", "same_period_last_year"),
        ("Company A spend {p} vs the prior period", "previous_period"),
        ("Company A's spend {p}, year over year", "same_period_last_year"),
        ("Did Company A's spend {p} grow against the preceding period?", "previous_period"),
        ("Company A spend {p}: change versus a year earlier", "same_period_last_year"),
    ]))
    params = {"company_id": "COMP-A", "start_date": start, "end_date": end, "reporting_currency": "EUR",
              "compare_to": rule}
    return frame.format(p=phrase), params


@given(comparison_questions())
@seed(22)
@FAST
def test_generated_comparisons_map_to_the_comparison_metric(case: tuple[str, dict[str, Any]]) -> None:
    question, params = case
    assert call(question) == ("finance.spend_comparison", params, []), question


@st.composite
def exclusion_questions(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    phrase, start, end = draw(st.sampled_from(PERIODS))
    cue = draw(st.sampled_from(["excluding", "except", "other than", "not from", "apart from", "without",
                                "except for", "not counting", "w/o", "ex", "excl.", "ex."]))
    params: dict[str, Any] = {"company_id": "COMP-A", "start_date": start, "end_date": end}
    if draw(st.booleans()):
        first, second = _supplier(draw), _supplier(draw)
        names = [first] if first[1] == second[1] else [first, second]
        what = " and ".join(n for n, _ in names)
        params["exclude_supplier_ids"] = [sid for _, sid in names]
    else:
        what, gid = _group(draw)
        params["exclude_product_group_ids"] = list(GAZETTEER.subgroups(gid))
    statuses, types, tail = draw(st.sampled_from([(None, None, ""), (["posted"], None, ", unpaid invoices only"),
                                                   (None, ["credit_note"], ", credit notes only"),
                                                   (["paid"], None, " (paid invoices)")]))
    if types:
        params["document_types"] = types
    if statuses:
        params["invoice_statuses"] = statuses
    params["reporting_currency"] = "EUR"
    frame = draw(st.sampled_from(["How much did Company A spend {p} {c} {x}{t}?", "Company A's spend {p}, {c} {x}{t}",
                                  "What did Company A spend {c} {x} {p}{t}?"]))
    return frame.format(p=phrase, c=cue, x=what, t=tail), params


@given(exclusion_questions())
@seed(22)
@FAST
def test_generated_exclusions_map_to_not_in_filters(case: tuple[str, dict[str, Any]]) -> None:
    question, params = case
    metric, got, group_by = call(question)
    assert (metric, got, group_by) == ("finance.company_spend", params, []), question


@st.composite
def currency_and_price_questions(draw: st.DrawFn) -> tuple[str, str, dict[str, Any], list[str]]:
    phrase, start, end = draw(st.sampled_from(PERIODS))
    if draw(st.booleans()):
        frame, code = draw(st.sampled_from([
            ("What did Company A spend {p} in the invoice currency?", None),
            ("Company A spend {p} in original currency", None),
            ("Company A's spend {p} in USD as invoiced", "USD"),
            ("How much did Company A spend {p} on invoices in GBP?", "GBP"),
        ]))
        params: dict[str, Any] = {"company_id": "COMP-A", "start_date": start, "end_date": end,
                                  "reporting_currency": "EUR", **({"document_currency": code} if code else {})}
        return (frame.format(p=phrase), "finance.document_currency_spend", params,
                [] if code else ["currency"])
    name, sid = _supplier(draw)
    frame, supplier = draw(st.sampled_from([
        ("What was the average unit price of PRD-482 {p} from {s}?", True),
        ("Average price per unit of PRD-482 paid to {s} {p}", True),
        ("What was the weighted average price of PRD-482 {p}?", False),
    ]))
    lead, company = draw(st.sampled_from([("Company B: ", {"company_id": "COMP-B", "reporting_currency": "EUR"}),
                                          ("All companies together: ", {})]))
    params = {"start_date": start, "end_date": end, "product_code": "PRD-482",
              **({"supplier_ids": [sid]} if supplier else {}), **company}
    single_month = phrase == "in March 2026" and not supplier
    metric = "catalog.unit_price" if single_month else "catalog.average_unit_price"
    return lead + frame.format(p=phrase, s=name), metric, params, []


@given(currency_and_price_questions())
@seed(22)
@FAST
def test_generated_currency_and_price_questions(case: tuple[str, str, dict[str, Any], list[str]]) -> None:
    question, metric, params, group_by = case
    if metric == "catalog.unit_price":
        result = routed(question)
        assert "catalog.unit_price" in [s.tool for s in result.execution_plan], question
        return
    assert call(question) == (metric, params, group_by), question


# --- composed answers: the edge cases ------------------------------------------------------------------------------
def _run(response: MetricToolResponse) -> RunResult:
    run = RunResult(run_id=uuid.uuid4())
    run.outcomes["calculate-metric"] = StepOutcome("calculate-metric", "metrics.query", "ok", 1, {}, response, None, 1)
    return run


def _response(metric: str, parameters: dict[str, Any], values: dict[str, Any] | None = None,
              rows: tuple[dict[str, Any], ...] = (), status: str = "complete", lines: int = 3) -> MetricToolResponse:
    return MetricToolResponse(metric=metric, status=status, currency="EUR", outputs={}, values=values or {},  # type: ignore[arg-type]
                              rows=rows, matched_line_count=lines, source_line_ids=(), source_line_count=0,
                              sources_truncated=False, policy={}, parameters=parameters)


def test_ties_at_the_cut_are_stated() -> None:
    routing = routed("Who were Company A's top 2 suppliers in Q1 2026?")
    rows = tuple({"supplier_id": sid, "total_spend": spend, "rank": rank, "tie_count": ties, "groups_ranked": 4,
                  "share_of_total_percent": "25.0000", "matched_line_count": 2}
                 for sid, spend, rank, ties in (("SUP-18", "900.00", 1, 1), ("SUP-27", "500.00", 2, 2),
                                                ("SUP-31", "500.00", 2, 2)))
    answer = compose(routing, _run(_response("finance.spend_ranking", {"limit": 2, "direction": "top",
                                                                        "order_by": "total_spend"}, rows=rows)))
    assert "SUP-27 and SUP-31 are tied at rank 2" in answer.text, answer.text
    assert "3 suppliers are listed for a top 2" in answer.text
    assert answer.result["ties"] == [2]


def test_an_empty_base_period_is_said_not_shown_as_zero_percent() -> None:
    routing = routed("How did Company A's spend in Q1 2026 compare with the same quarter last year?")
    values = {"total_spend": "120.00", "base_value": "0.00", "change": "120.00", "change_percent": None,
              "comparison": "no_base_data", "current_line_count": 3, "base_line_count": 0}
    answer = compose(routing, _run(_response("finance.spend_comparison", {
        "compare_to": "same_period_last_year", "base_start_date": "2025-01-01", "base_end_date": "2025-04-01"},
        values)))
    assert "has no validated invoice line" in answer.text and "not 0 %" in answer.text, answer.text
    assert not re.search(r"(?<![\d.])0\.00 EUR", answer.text) and answer.result["change_percent"] is None


def test_credit_notes_larger_than_invoices_give_a_negative_total_not_no_data() -> None:
    routing = routed("What was Company A's total of credit notes in Q1 2026?")
    answer = compose(routing, _run(_response("finance.company_spend", {"document_types": ["credit_note"]},
                                             {"total_spend": "-2975.00", "matched_line_count": 2})))
    assert answer.status == "answered" and "-2975.00 EUR" in answer.text and "credit notes only" in answer.text
    empty = compose(routing, _run(_response("finance.company_spend", {"document_types": ["credit_note"]},
                                            status="no_data", lines=0)))
    assert empty.status == "no_data" and "no data" in empty.text


def test_a_zero_whole_makes_the_share_undefined() -> None:
    routing = routed("What share of Company A's spend in Q1 2026 went to Beta?")
    answer = compose(routing, _run(_response("finance.supplier_share", {"supplier_ids": ["SUP-18"]}, {
        "share_percent": None, "part_value": "0.00", "whole_value": "0.00", "part_line_count": 0})))
    assert "undefined" in answer.text and "%" not in answer.text.split("undefined")[0][-3:], answer.text
