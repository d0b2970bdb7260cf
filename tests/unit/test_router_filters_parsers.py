"""The parser pieces behind ask's filters: amounts in words and below a threshold, exclusion cues, statuses
behind an exclusion, the part of a share, German comparators, a year before the figure word."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from router.analysis import (
    EXCLUSION_CUE,
    GROUP_SHARE,
    SHARE,
    Analysis,
    Slots,
    choose_metric,
    governed_request,
    parse_filters,
    share_part,
)
from router.german import read_german
from router.periods import resolve_period
from router.reader import threshold_of
from router.reading import parse_amounts, words_to_number


@pytest.mark.parametrize(("words", "value"), [
    ("fifty thousand", 50_000), ("two hundred and fifty thousand", 250_000), ("a million", 1_000_000),
    ("twenty-five thousand", 25_000), ("ten thousand five hundred", 10_500), ("one", 1),
])
def test_words_to_number(words: str, value: int) -> None:
    assert words_to_number(words) == Decimal(value)


@pytest.mark.parametrize(("text", "value", "currency", "side", "inclusive"), [
    ("invoices over fifty thousand euros", 50_000, "EUR", "above", False),
    ("invoices of at least twenty thousand EUR", 20_000, "EUR", "above", True),
    ("invoices under 500 EUR", 500, "EUR", "below", False),
    ("invoices at most €1,000", 1_000, "EUR", "below", True),
    ("invoices <= 2000 EUR", 2_000, "EUR", "below", True),
    ("invoices up to 3,000 EUR", 3_000, "EUR", "below", True),
    ("invoices no more than 750 EUR", 750, "EUR", "below", True),
    ("invoices above 10 thousand euro", 10_000, "EUR", "above", False),
    ("invoices under a million dollars", 1_000_000, "USD", "below", False),
])
def test_threshold_amounts(text: str, value: int, currency: str, side: str, inclusive: bool) -> None:
    amount = threshold_of(parse_amounts(text))
    assert amount is not None
    assert (amount.value, amount.currency, amount.comparator, amount.inclusive) == (
        Decimal(value), currency, side, inclusive)


@pytest.mark.parametrize("text", ["top five suppliers", "more than five invoices", "one supplier in Q1"])
def test_counts_in_words_are_no_amounts(text: str) -> None:
    assert parse_amounts(text) == ()


def test_a_range_is_no_single_threshold() -> None:
    assert threshold_of(parse_amounts("invoices above 500 EUR and below 5,000 EUR")) is None


@pytest.mark.parametrize(("text", "cue"), [
    ("spend excl. Beta", "excl."), ("spend excl Beta", "excl"), ("everyone but Beta", "but"),
    ("all suppliers but Beta", "but"), ("all but Beta", "but"),
])
def test_exclusion_cues(text: str, cue: str) -> None:
    assert [m.group(0) for m in EXCLUSION_CUE.finditer(text)] == [cue]


def test_but_alone_excludes_nothing() -> None:
    assert [m.group(0) for m in EXCLUSION_CUE.finditer("nothing but Beta")] == []


@pytest.mark.parametrize(("text", "statuses"), [
    ("spend excluding unpaid invoices", ("paid",)), ("spend without the paid invoices", ("posted",)),
    ("unpaid invoices", ("posted",)), ("paid spend of Company A", ("paid",)), ("spend of Company A", None),
])
def test_statuses_behind_an_exclusion_flip(text: str, statuses: tuple[str, ...] | None) -> None:
    assert parse_filters(text)[0] == statuses


def _spans(text: str, *names: str) -> list[tuple[int, int]]:
    return [(text.index(n), text.index(n) + len(n)) for n in names]


@pytest.mark.parametrize(("text", "supplier", "group", "part"), [
    ("What share of Company A's spend went to pressure sensors?", None, "pressure sensors", "group"),
    ("What share of Beta's spend went to pressure sensors?", "Beta", "pressure sensors", "group"),
    ("Pressure Sensors' share of Beta's spend", "Beta", "Pressure Sensors", "group"),
    ("Beta's share of our pressure sensors spend", "Beta", "pressure sensors", "supplier"),
    ("What percentage of our pressure sensors spend was with Beta?", "Beta", "pressure sensors", "supplier"),
    ("Beta's share of our spend", "Beta", None, "supplier"),
])
def test_share_part(text: str, supplier: str | None, group: str | None, part: str) -> None:
    suppliers = _spans(text, supplier) if supplier else []
    groups = _spans(text, group) if group else []
    assert share_part(text, suppliers, groups) == part


def _slots(**kw: object) -> Slots:
    base: dict[str, object] = dict(company_id="COMP-A", supplier_ids=(), product_codes=(), product_group_ids=(),
                                   exclude_supplier_ids=(), exclude_product_group_ids=(), period=None,
                                   statuses=("posted", "paid"), reporting_currency="EUR")
    return Slots(**{**base, **kw})  # type: ignore[arg-type]


def test_group_share_is_chosen_for_a_group_part() -> None:
    analysis = Analysis(share=True)
    assert choose_metric(analysis, _slots(product_group_ids=("PG-PRES",), share_of_groups=True), False) == GROUP_SHARE
    assert choose_metric(analysis, _slots(supplier_ids=("SUP-18",)), False) == SHARE
    declared = {"parameters": ("company_id", "product_group_ids", "supplier_ids", "reporting_currency"),
                "group_by": ("supplier_id",)}
    request = governed_request(analysis, _slots(product_group_ids=("PG-PRES",), supplier_ids=("SUP-18",),
                                                share_of_groups=True), declared, GROUP_SHARE)
    assert request.problems == ()
    assert request.parameters == {"company_id": "COMP-A", "product_group_ids": ["PG-PRES"],
                                  "supplier_ids": ["SUP-18"], "reporting_currency": "EUR"}


def test_several_suppliers_under_a_type_filter_take_company_spend() -> None:
    analysis = Analysis(document_types=("credit_note",))
    assert choose_metric(analysis, _slots(supplier_ids=("SUP-18", "SUP-27")), False) == "finance.company_spend"


@pytest.mark.parametrize(("german", "english"), [
    ("Rechnungen von Company A unter 1.000 € im 1. Quartal 2026", "under 1.000 €"),
    ("Rechnungen von Company A höchstens 2.000 EUR", "at most 2.000 EUR"),
    ("Rechnungen von Company A über 5.000 EUR", "over 5.000 EUR"),
    ("Rechnungen mindestens 5.000 EUR", "at least 5.000 EUR"),
])
def test_german_comparators(german: str, english: str) -> None:
    assert english in (read_german(german) or "")


def test_ueber_without_an_amount_stays() -> None:
    assert "over" not in (read_german("Was sagt der Vertrag über Lieferanten?") or "")


@pytest.mark.parametrize(("text", "year"), [("Company A's 2025 spend on sensors", 2025), ("the 2024 invoices", 2024)])
def test_a_year_before_the_figure_word_is_the_period(text: str, year: int) -> None:
    period = resolve_period(text, dt.date(2026, 5, 15)).time_range
    assert period is not None and (period.start, period.end) == (dt.date(year, 1, 1), dt.date(year + 1, 1, 1))


@pytest.mark.parametrize(("text", "statuses"), [
    ("Company A spend with Beta and Gamma in Q1 2026, paid", ("paid",)), ("spend with Beta (paid)?", ("paid",)),
    ("spend with Beta and Gamma paid", ("paid",)), ("How much have we paid?", None),
    ("How much has Company A paid?", None), ("What was paid to Beta in Q1?", None),
])
def test_an_appended_paid_is_a_status(text: str, statuses: tuple[str, ...] | None) -> None:
    assert parse_filters(text)[0] == statuses


@pytest.mark.parametrize(("text", "currency"), [
    ("over 5,000 US dollars", "USD"), ("over US$ 5,000", "USD"), ("over 5000 pounds sterling", "GBP"),
    ("over 5000 swiss francs", "CHF"), ("over fifty thousand US dollars", "USD"),
])
def test_currency_words_of_an_amount(text: str, currency: str) -> None:
    (amount,) = parse_amounts(text)
    assert amount.currency == currency
