"""Category levels, two-dimension breakdowns, period phrases and product names, read without a database: each slot
varied (count words, units, week numbers and years, grouping nouns in either order, model codes), compared with the
range, dimensions or clarification it must give. The end-to-end checks against the governed metrics called
directly are in evaluation/probes_levels.py."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.answer import Answer
from router.compound import PRODUCT_PRICE_ROLE, AskPart, _segments, merge_answers
from router.entities import Gazetteer, Mention, Product
from router.periods import resolve_period
from router.product_models import other_model_problems
from router.reading import parse_breakdown

AS_OF = dt.date(2026, 5, 15)
_COUNTS = {"2": 2, "two": 2, "3": 3, "three": 3, "6": 6, "six": 6}


@pytest.mark.parametrize(("lead", "count", "unit", "adjective"), list(itertools.product(
    ("over the trailing", "in the last", "for the past", "over the most recent", "the previous"),
    ("2", "three", "six"), ("months", "quarters"), ("full", "complete"))))
def test_whole_units_before_the_as_of_unit(lead: str, count: str, unit: str, adjective: str) -> None:
    found = resolve_period(f"Company B spend {lead} {count} {adjective} {unit}", AS_OF).time_range
    assert found is not None
    n = _COUNTS[count]
    if unit == "months":
        end = dt.date(2026, 5, 1)
        index = 2026 * 12 + 4 - n
    else:
        end = dt.date(2026, 4, 1)
        index = 2026 * 12 + 3 - 3 * n
    assert (found.start, found.end) == (dt.date(index // 12, index % 12 + 1, 1), end)


@pytest.mark.parametrize("phrase", ["FY2026 YTD", "FY 2026 ytd", "FY2026 year to date", "fiscal year 2026 to date",
                                    "FY2026 so far", "FY2026-YTD"])
def test_fiscal_year_to_date_is_one_period(phrase: str) -> None:
    found = resolve_period(f"Company C {phrase} spend by top-level category", AS_OF)
    assert not found.ambiguous, found.reason
    assert found.time_range is not None
    assert (found.time_range.start, found.time_range.end) == (dt.date(2026, 1, 1), dt.date(2026, 5, 16))


@pytest.mark.parametrize(("year", "week"), list(itertools.product((2020, 2024, 2025, 2026), (1, 7, 12, 33, 52))))
def test_iso_weeks(year: int, week: int) -> None:
    monday = dt.date.fromisocalendar(year, week, 1)
    for words in (f"in week {week} of {year}", f"in calendar week {week}, {year}", f"in {year}-W{week:02d}",
                  f"in KW {week} {year}"):
        found = resolve_period(f"Company B spend {words}", dt.date(2026, 12, 31)).time_range
        assert found is not None, words
        assert (found.start, found.end) == (monday, monday + dt.timedelta(days=7)), words


@pytest.mark.parametrize("words", ["week 54 of 2025", "week 53 of 2025", "week 0 of 2026", "calendar week 60, 2026",
                                   "KW 99 2025", "2025-W54", "week 53 of 2023"])
def test_weeks_no_year_has_are_asked_about(words: str) -> None:
    found = resolve_period(f"Company B spend in {words}?", AS_OF)
    assert found.time_range is None and found.ambiguous
    assert "period" in (found.reason or "")


def test_week_53_of_a_long_year_is_a_week() -> None:
    found = resolve_period("spend in week 53 of 2026", dt.date(2027, 2, 1)).time_range
    assert found is not None and found.start == dt.date(2026, 12, 28)


_SECOND = {"quarter": ("grain", "quarter"), "month": ("grain", "month"), "supplier": ("dim", "supplier_id"),
           "vendor": ("dim", "supplier_id"), "top-level category": ("dim", "top_product_group_id"),
           "product": ("dim", "product_code")}


@pytest.mark.parametrize(("lead", "second", "company_first"), list(itertools.product(
    ("by", "per", "split by", "broken down by"), tuple(_SECOND), (True, False))))
def test_company_coordinated_with_another_grouping(lead: str, second: str, company_first: bool) -> None:
    pair = f"company and {second}" if company_first else f"{second} and company"
    found = parse_breakdown(f"Spend of all companies {lead} {pair} in Q1 2026")
    kind, name = _SECOND[second]
    assert "company_id" in found.group_by
    if kind == "grain":
        assert found.grain == name
    else:
        assert name in found.group_by or (name == "top_product_group_id" and "product_group_id" in found.group_by)
    assert not found.unknown


@pytest.mark.parametrize("name", ["Company A", "company a", "Company B"])
def test_a_named_company_after_and_stays_a_scope(name: str) -> None:
    assert "company_id" not in parse_breakdown(f"spend by supplier and {name} in Q1").group_by


@pytest.mark.parametrize(("lead", "ask"), list(itertools.product(
    ("By top-level category", "Per supplier", "By main category and quarter", "Broken down by month", "Per vendor"),
    ("what did Company A spend in Q1 2026?", "how much did all companies spend in 2025?",
     "which total did we reach?"))))
def test_a_leading_grouping_phrase_is_no_ask_of_its_own(lead: str, ask: str) -> None:
    assert len(_segments(f"{lead}, {ask}")) == 1


_GAZ = Gazetteer(products=(Product("PRD-487", "Vacuum gauge VG-1"), Product("PRD-611", "Monitoring controller MC-4"),
                           Product("PRD-491", "PT100 temperature probe"), Product("PRD-495", "Copy paper A4")))


@pytest.mark.parametrize(("text", "code", "asked"), [
    ("average price of the VG-2 vacuum gauge in 2026", "PRD-487", True),
    ("average price of the vacuum gauge VG-3 in 2026", "PRD-487", True),
    ("average price of the VG-1 vacuum gauge in 2026", "PRD-487", False),
    ("spend on the MC-9 monitoring controller", "PRD-611", True),
    ("spend on the MC-4 monitoring controller", "PRD-611", False),
    ("Q1 vacuum gauge spend", "PRD-487", False),
    ("A4 copy paper spend", "PRD-495", False),
    ("PT100 copy paper spend", "PRD-495", False),
])
def test_another_model_beside_a_product_name(text: str, code: str, asked: bool) -> None:
    words = {"PRD-487": "vacuum gauge", "PRD-611": "monitoring controller", "PRD-495": "copy paper"}[code]
    start = text.lower().index(words)
    mention = Mention("product", text[start:start + len(words)], start, start + len(words), (code,))
    problems = other_model_problems(text, (mention,), _GAZ)
    assert bool(problems) == asked
    if asked:
        assert "product" in problems[0]


def _price(code: str, price: str | None, status: str = "answered") -> tuple[AskPart, Answer]:
    return (AskPart(f"average unit price of {code}", f"average unit price of {code} in 2026",
                    role=f"{PRODUCT_PRICE_ROLE}{code}"),
            Answer(status=status, text=f"The average net unit price of {code} was {price} EUR per unit.",  # type: ignore[arg-type]
                   result={"unit_price": price, "currency": "EUR", "product_code": code}, inputs={}, sources=()))


@pytest.mark.parametrize(("a", "b"), [("189.8425", "170.4669"), ("10.00", "10.50"), ("3.0000", "2.9999")])
def test_which_product_is_cheaper_is_said_first(a: str, b: str) -> None:
    text = merge_answers([_price("PRD-482", a), _price("PRD-530", b)]).text
    cheaper = "PRD-482" if float(a) < float(b) else "PRD-530"
    dearer = "PRD-530" if cheaper == "PRD-482" else "PRD-482"
    assert text.index(cheaper) < text.index(dearer)
    assert f"{cheaper} is the cheapest" in text


def test_no_order_without_both_prices() -> None:
    text = merge_answers([_price("PRD-482", "1.00"), _price("PRD-530", None, "no_data")]).text
    assert "cheapest" not in text
