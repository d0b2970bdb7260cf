"""Round-2 silent-wrong classes, slot-varied: status lists in any notation, open totals read both ways, shares to
two decimals from part and whole, and a measure word between a period and its "to date"."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from router.analysis import parse_filters
from router.answer import share_two_decimals
from router.contract import PlanStep, Ref
from router.open_reading import (
    INVOICES_ONLY_STEP,
    SPEND_METRIC,
    both_readings,
    invoices_only_step,
    with_invoices_only,
    with_invoices_only_step,
)
from router.periods import resolve_period

_RNG = random.Random(20)
_JOINERS = ("+", " + ", " & ", "&", ", ", "/", " / ", " and ", " or ", " plus ")
_FRAMES = ("total spend alpenland Q1 2026 pls ({s}, EUR)", "Kestrel spend 2025 ({s})", "{s} invoices for Beta in Q3",
           "spend with Gamma, statuses {s}, last quarter", "how much did Xenon spend in 2025 - {s}")


@pytest.mark.parametrize("frame", _FRAMES)
@pytest.mark.parametrize("joiner", _JOINERS)
@pytest.mark.parametrize("order", [("posted", "paid"), ("paid", "posted")])
def test_status_list_is_both_statuses(frame: str, joiner: str, order: tuple[str, str]) -> None:
    # both statuses named together are the default (no filter), never the one read alone
    assert parse_filters(frame.format(s=joiner.join(order)))[0] is None


@pytest.mark.parametrize("words", ["gebucht und bezahlt", "bezahlt oder gebucht", "gebuchte und bezahlte",
                                   "gebucht/bezahlt", "bezahlt + gebucht"])
def test_status_list_german(words: str) -> None:
    assert parse_filters(f"Ausgaben Kestrel 2025 ({words})")[0] is None


@pytest.mark.parametrize("words", ["posted, not paid", "posted but not yet paid", "unpaid", "open invoices",
                                   "still open"])
def test_single_status_stays_single(words: str) -> None:
    assert parse_filters(f"Kestrel {words} total Q4 2025")[0] == ("posted",)


def _company(field: str) -> Ref:
    return Ref.model_validate({"$ref": "resolve-company", "field": field})


_SPEND = PlanStep(step_id="calculate-spend", tool=SPEND_METRIC, depends_on=("resolve-company",), arguments={
    "company_id": _company("company_id"), "start_date": "2025-10-01", "end_date": "2026-01-01",
    "invoice_statuses": ["posted"], "reporting_currency": _company("reporting_currency")})
_PLAN = (PlanStep(step_id="resolve-company", tool="entity.resolve_company", arguments={"company_id": "COMP-K"}),
         _SPEND, PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=("calculate-spend",)))


@pytest.mark.parametrize("question", ["unpaid (posted) invoice total for Kestrel in Q4 2025",
                                      "Kestrel open amount Q4 2025", "was ist bei Kestrel noch offen, Q4 2025",
                                      "outstanding invoices total Kestrel Q4"])
def test_open_total_without_document_words_gets_both_readings(question: str) -> None:
    steps = with_invoices_only_step(question, _PLAN)
    assert [s.step_id for s in steps] == ["resolve-company", "calculate-spend", INVOICES_ONLY_STEP, "validate-result"]
    second = steps[2]
    # the governed step's own parameters (references to the resolved company included), invoices only
    assert second.arguments["parameters"] == {**_SPEND.arguments, "document_types": ["invoice"]}
    assert second.depends_on == ("resolve-company", "calculate-spend") and second.tool == "metrics.query"


@pytest.mark.parametrize("question", ["open amount Kestrel Q4 2025, invoices only", "unpaid incl. credit notes",
                                      "open items net of credit notes", "offene Posten inkl. Gutschriften",
                                      "unpaid total, credit memos netted in", "only invoices, unpaid"])
def test_open_total_with_document_words_is_left_alone(question: str) -> None:
    assert invoices_only_step(question, _PLAN) is None and with_invoices_only_step(question, _PLAN) == list(_PLAN)


@pytest.mark.parametrize("change", [{"invoice_statuses": ["posted", "paid"]}, {"tool": "finance.aggregate_spend"},
                                    {"document_types": ["invoice"]}, {"group_by": ["supplier_id"]},
                                    {"grain": "month"}])
def test_open_reading_only_for_posted_spend(change: dict[str, object]) -> None:
    tool = str(change.pop("tool", SPEND_METRIC))
    spend = _SPEND.model_copy(update={"tool": tool, "arguments": {**_SPEND.arguments, **change}})
    assert invoices_only_step("unpaid total Kestrel Q4", [_PLAN[0], spend]) is None


def test_routed_open_total_carries_every_filter_of_the_governed_step() -> None:
    from router.routing import RouterInputs, route
    from tests.unit.test_router_analysis import AS_OF, CTX, GAZETTEER, METRICS

    for question in ("unpaid total Company A Q1 2026", "Company A posted but not yet paid spend in Q4 2025",
                     "Company A: unpaid invoice total, Q3 2025"):
        plan = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)).execution_plan
        steps = {s.step_id: s for s in plan}
        assert INVOICES_ONLY_STEP in steps, (question, list(steps))
        spend = steps["calculate-spend"].arguments
        assert steps[INVOICES_ONLY_STEP].arguments["parameters"] == {
            **{k: v for k, v in spend.items() if v not in (None, [], ())}, "document_types": ["invoice"]}


@dataclass(frozen=True)
class _Outcome:
    status: str
    output: Any
    error: str | None = None


@dataclass(frozen=True)
class _Figure:
    values: dict[str, Any]
    matched_line_count: int


_RESULT = {"total_spend": "28443.21", "matched_line_count": 20, "currency": "EUR"}


def test_both_readings_from_the_two_outcomes() -> None:
    text, result = both_readings("X was 28443.21 EUR. Sources: a.", _RESULT,
                                 _Outcome("ok", _Figure({"total_spend": "37636.94"}, 16)))  # type: ignore[arg-type]
    assert "37636.94 EUR over 16 invoice lines" in text and text.endswith(" Sources: a.")
    assert result["invoices_only"]["total_spend"] == "37636.94" and result["total_spend"] == "28443.21"
    same = _Outcome("ok", _Figure({"total_spend": "28443.21"}, 20))
    assert both_readings("X", _RESULT, same) is None  # type: ignore[arg-type]
    assert both_readings("X", _RESULT, None) is None
    failed = both_readings("X. Sources: a.", _RESULT, _Outcome("timeout", None, "over 5000 ms"))  # type: ignore[arg-type]
    assert failed is not None and "did not run (timeout: over 5000 ms)" in failed[0]
    empty = both_readings("X", _RESULT, _Outcome("ok", _Figure({}, 0)))  # type: ignore[arg-type]
    assert empty is not None and "no posted invoice line matched (no data, not a zero)" in empty[0]


def test_with_invoices_only_names_both_figures() -> None:
    added = with_invoices_only("X was 28443.21 EUR. Sources: a, b", "28443.21", 20, "EUR", "37636.94", 16)
    assert added is not None
    text, result = added
    assert "37636.94 EUR over 16 invoice lines" in text and "28443.21" in text and text.endswith("Sources: a, b")
    assert result["document_types"] == ["invoice"]
    assert with_invoices_only("X", "1.00", 1, "EUR", "1.00", 1) is None


def test_share_two_decimals_from_part_and_whole() -> None:
    for _ in range(500):
        whole = Decimal(_RNG.randint(100, 10_000_000)) / 100
        part = (whole * Decimal(_RNG.random())).quantize(Decimal("0.01"))
        exact = part * 100 / whole
        shown = exact.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
        assert share_two_decimals(shown, part, whole) == str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    assert share_two_decimals("64.6650", "9394.91", "14528.59") == "64.66"
    assert share_two_decimals("12.0000", "9394.91", "14528.59") is None  # disagrees with the metric: not given


_AS_OF = dt.date(2026, 5, 15)


@pytest.mark.parametrize("period", ["2026", "Q1 2026", "H1 2026", "2025"])
@pytest.mark.parametrize("measure", ["spend", "spending", "purchases", "costs"])
@pytest.mark.parametrize("tail", ["to date", "so far", ", to date"])
def test_measure_between_period_and_to_date(period: str, measure: str, tail: str) -> None:
    gap = resolve_period(f"Kestrel {period} {measure} {tail}", _AS_OF)
    joined = resolve_period(f"Kestrel {period} {tail.lstrip(', ')}", _AS_OF)
    assert gap.time_range == joined.time_range or (gap.time_range is not None and joined.time_range is not None and
                                                   (gap.time_range.start, gap.time_range.end)
                                                   == (joined.time_range.start, joined.time_range.end))
    assert gap.ambiguous == joined.ambiguous


def _groups_gazetteer() -> Any:
    from router.entities import Company, Gazetteer, ProductGroup

    return Gazetteer.build(
        [Company("COMP-A", "Company A", "EUR")], [("SUP-18", "Supplier Beta")], [],
        [ProductGroup("PG-COOL", "Cooling"), ProductGroup("PG-COMP", "Compressors", "PG-COOL"),
         ProductGroup("PG-COMP-SP", "Compressor Spare Parts", "PG-COMP"), ProductGroup("PG-SENS", "Sensors"),
         ProductGroup("PG-SENS-WL", "Wireless Sensors", "PG-SENS"),
         ProductGroup("PG-SENS-CAL", "Sensor Calibration Kits",
                                                                                 "PG-SENS")],
        [], [])


@pytest.mark.parametrize(("question", "part", "whole"), [
    ("spare parts share of Company A's compressor spend 2025", "PG-COMP-SP", "PG-COMP"),
    ("share of spare parts in Company A compressors spend, Q1 2026", "PG-COMP-SP", "PG-COMP"),
    ("what % of Company A compressor spend in 2025 was spare parts", "PG-COMP-SP", "PG-COMP"),
    ("calibration kits as a share of Company A's sensors spend in 2025", "PG-SENS-CAL", "PG-SENS"),
])
def test_subgroup_named_by_rest_of_its_name_is_the_part(question: str, part: str, whole: str) -> None:
    from router.reader import read
    from router.routing import _group_within_group

    gazetteer = _groups_gazetteer()
    nested = _group_within_group(read(question, gazetteer, _AS_OF, ()), gazetteer)
    assert nested is not None and (nested[0].product_group_id, nested[1].product_group_id) == (part, whole)


@pytest.mark.parametrize("question", ["compressor share of Company A spend 2025",
                                      "sensors share of Company A spend in 2025"])
def test_group_share_without_a_subgroup_word_is_unchanged(question: str) -> None:
    from router.reader import read
    from router.routing import _group_within_group

    gazetteer = _groups_gazetteer()
    assert _group_within_group(read(question, gazetteer, _AS_OF, ()), gazetteer) is None
