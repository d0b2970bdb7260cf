"""Parameter binding: types, bounds, allowed values, unknown names, constraints, injection text. Database-free."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from semantic.errors import ParameterError
from semantic.loader import MetricRegistry
from semantic.params import bind
from tests.unit.shipped import shipped_registry

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
SEED = {
    "company_id": "COMP-A",
    "supplier_ids": ["SUP-18", "SUP-27"],
    "product_codes": ["PRD-482"],
    "start_date": "2026-01-01",
    "end_date": "2026-04-01",
}


@pytest.fixture(scope="module")
def registry() -> MetricRegistry:
    return shipped_registry()  # one load per test process: these tests only read it


def _bind(registry: MetricRegistry, name: str, raw: dict[str, object], *, from_text: bool = False):  # type: ignore[no-untyped-def]
    d = registry.get(name).definition
    return bind(d.parameters, raw, d.constraints, from_text=from_text)


def test_seed_parameters_bind_with_defaults(registry: MetricRegistry) -> None:
    bound = _bind(registry, "finance.aggregate_spend", SEED)
    assert bound.values["start_date"] == dt.date(2026, 1, 1)
    assert bound.values["supplier_ids"] == ("SUP-18", "SUP-27")
    assert bound.values["invoice_statuses"] == ("posted", "paid")
    assert bound.values["reporting_currency"] == "EUR"
    assert bound.explicit == frozenset(SEED)
    assert bound.for_binding()["supplier_ids"] == ["SUP-18", "SUP-27"]
    assert bound.as_json()["end_date"] == "2026-04-01"


@pytest.mark.parametrize(
    ("change", "parameter", "problem"),
    [
        ({"colour": "red"}, "colour", "unknown parameter"),
        ({"company_id": 42}, "company_id", "must be a string, got an integer"),
        ({"supplier_ids": "SUP-18"}, "supplier_ids", "must be a list of strings"),
        ({"supplier_ids": []}, "supplier_ids", "needs at least 1 item"),
        ({"supplier_ids": ["SUP-18", 7]}, "supplier_ids[1]", "must be a string"),
        ({"start_date": "2026-13-01"}, "start_date", "is not a valid date"),
        ({"start_date": "01/01/2026"}, "start_date", "must be an ISO date"),
        ({"start_date": "1970-01-01"}, "start_date", "below the minimum"),
        ({"end_date": "2026-01-01"}, "end_date", "must be after start_date"),
        ({"invoice_statuses": ["posted", "void"]}, "invoice_statuses[1]", "is not one of the allowed values"),
        ({"reporting_currency": "euro"}, "reporting_currency", "does not match the pattern"),
        ({"company_id": "x" * 200}, "company_id", "longer than 128"),
    ],
)
def test_bad_values_name_the_parameter_and_problem(
    registry: MetricRegistry, change: dict[str, object], parameter: str, problem: str
) -> None:
    with pytest.raises(ParameterError) as caught:
        _bind(registry, "finance.aggregate_spend", {**SEED, **change})
    assert caught.value.parameter == parameter
    assert problem in caught.value.problem


def test_missing_required_parameter(registry: MetricRegistry) -> None:
    raw = {k: v for k, v in SEED.items() if k != "supplier_ids"}
    with pytest.raises(ParameterError, match="supplier_ids: required parameter is missing"):
        _bind(registry, "finance.aggregate_spend", raw)


@pytest.mark.parametrize(
    "attack",
    [
        "COMP-A' OR '1'='1",
        "COMP-A'; DROP TABLE marts.validated_invoice_lines; --",
        "COMP-A\x00",
        "' UNION SELECT tenant_id FROM app.api_keys --",
        "$$; select pg_sleep(10); $$",
    ],
)
def test_injection_text_is_rejected_by_the_parameter_pattern(registry: MetricRegistry, attack: str) -> None:
    for name in ("company_id", "supplier_ids", "product_codes"):
        value: object = [attack] if name != "company_id" else attack
        with pytest.raises(ParameterError) as caught:
            _bind(registry, "finance.aggregate_spend", {**SEED, name: value})
        assert caught.value.parameter.startswith(name)


def test_decimal_threshold_accepts_strings_and_ints_but_not_floats(registry: MetricRegistry) -> None:
    base = {"start_date": "2026-01-01", "end_date": "2026-04-01"}
    ok = _bind(registry, "finance.invoices_above_threshold", {**base, "threshold": "1000.50"})
    assert ok.values["threshold"] == Decimal("1000.50")
    assert _bind(registry, "finance.invoices_above_threshold", {**base, "threshold": 1000}).values[
        "threshold"
    ] == Decimal(1000)
    for bad, problem in [
        (1000.5, "not a float"),
        ("1e3", "decimal number written as a string"),
        ("12.345", "more than 2 decimal places"),
        ("-1", "below the minimum"),
        (True, "not a float"),
        ("1; select pg_sleep(5)", "decimal number"),
    ]:
        with pytest.raises(ParameterError, match=problem):
            _bind(registry, "finance.invoices_above_threshold", {**base, "threshold": bad})


def test_month_parameter(registry: MetricRegistry) -> None:
    bound = _bind(registry, "catalog.unit_price", {"product_code": "PRD-482", "month": "2026-03"})
    assert bound.values["month"] == dt.date(2026, 3, 1)
    assert bound.values["company_id"] is None
    with pytest.raises(ParameterError, match="month: must be a month YYYY-MM"):
        _bind(registry, "catalog.unit_price", {"product_code": "PRD-482", "month": "2026-3"})
    # Year 0000 matches the pattern but no calendar: a parameter error (422), never a 500 (found by fuzzing).
    with pytest.raises(ParameterError, match="month: is not a valid month"):
        _bind(registry, "catalog.unit_price", {"product_code": "PRD-482", "month": "0000-01"})


def test_command_line_values_are_parsed_from_text(registry: MetricRegistry) -> None:
    raw = {**SEED, "supplier_ids": "SUP-18, SUP-27", "product_codes": "PRD-482"}
    bound = _bind(registry, "finance.aggregate_spend", raw, from_text=True)
    assert bound.values["supplier_ids"] == ("SUP-18", "SUP-27")
    with pytest.raises(ParameterError, match="must be a list"):
        _bind(registry, "finance.aggregate_spend", raw)  # JSON callers must send lists


# --- period comparisons and partitions (issue 22) ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("start", "end", "compare", "expected"),
    [
        ("2026-04-01", "2026-07-01", "previous_period", ("2026-01-01", "2026-04-01")),
        ("2026-01-01", "2026-02-01", "previous_period", ("2025-12-01", "2026-01-01")),
        ("2026-03-01", "2027-03-01", "previous_period", ("2025-03-01", "2026-03-01")),
        ("2026-02-10", "2026-03-17", "previous_period", ("2026-01-06", "2026-02-10")),
        ("2026-01-01", "2026-04-01", "same_period_last_year", ("2025-01-01", "2025-04-01")),
        ("2024-02-29", "2024-03-01", "same_period_last_year", ("2023-02-28", "2023-03-01")),
    ],
)
def test_base_period(start: str, end: str, compare: str, expected: tuple[str, str]) -> None:
    from semantic.params import base_period

    got = base_period(dt.date.fromisoformat(start), dt.date.fromisoformat(end), compare)
    assert got == (dt.date.fromisoformat(expected[0]), dt.date.fromisoformat(expected[1]))


def test_partition_needs_the_parameter_or_the_grouping() -> None:
    from semantic.model import PartitionSpec
    from semantic.params import check_partition

    spec = PartitionSpec(parameter="document_currency", dimension="currency")
    check_partition(spec, ("currency",), {"document_currency": None})
    check_partition(spec, (), {"document_currency": "USD"})
    with pytest.raises(ParameterError, match=r"document_currency.*group_by includes 'currency'"):
        check_partition(spec, ("supplier_id",), {"document_currency": None})
