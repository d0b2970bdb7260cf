"""Reading classes of issue 20, varied over their slots and checked against values computed here (no database):
a quarter or half with its fiscal or calendar year is one period; rolling windows written with their end ("the 30
days up to and including today", "trailing 60-day"); "the quarter ending <day>" is that quarter; "for the year,
as of today" is the year to date; listings of what was bought read as the spend broken down; "#1 supplier" is a
top-1 ranking; "net ... after credits" asks no tax question. Seeded and bounded.
"""

from __future__ import annotations

import calendar
import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.analysis import parse_ranking
from router.listings import read_purchase_listing
from router.periods import resolve_period
from router.reader import _net_basis, _vocabulary

FAST = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
AS_OFS = st.dates(min_value=dt.date(2023, 1, 1), max_value=dt.date(2028, 12, 31))
_FRAMES = ("Company A spend {p}", "What did Company A spend {p}?", "{p}: Company A spend with Beta",
           "Xenon Pharma lab consumables {p}", "total spend of Company A on Pressure Sensors {p}")
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth"}


def _read(question: str, as_of: dt.date) -> tuple[dt.date, dt.date]:
    resolved = resolve_period(question, as_of, fiscal_start_month=1)
    assert not resolved.ambiguous, (question, resolved.reason)
    assert resolved.time_range is not None, question
    return resolved.time_range.start, resolved.time_range.end


def _month(year: int, month: int) -> dt.date:
    return dt.date(year + (month - 1) // 12, (month - 1) % 12 + 1, 1)


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2019, 2030), half=st.booleans(), number=st.integers(1, 4),
       qualifier=st.sampled_from(("FY", "FY ", "FY-", "fiscal year ", "fiscal ", "financial year ", "calendar ",
                                  "calendar year ", "CY")),
       short_year=st.booleans(), order=st.sampled_from(("part first", "of", "year first", "ordinal")),
       as_of=AS_OFS)
@FAST
def test_a_part_with_its_fiscal_or_calendar_year_is_one_period(
        frame: str, year: int, half: bool, number: int, qualifier: str, short_year: bool, order: str,
        as_of: dt.date) -> None:
    number = min(number, 2) if half else number
    written = f"{qualifier}{year % 100:02d}" if short_year and qualifier.strip() in ("FY", "FY-", "CY") \
        else f"{qualifier}{year}"
    part = f"{'H' if half else 'Q'}{number}"
    phrase = {"part first": f"{part} {written}", "of": f"{part} of {written}",
              "year first": f"{written} {part}",
              "ordinal": f"the {_ORDINALS[number]} {'half' if half else 'quarter'} of {written}"}[order]
    months = 6 if half else 3
    start = _month(year, 1 + months * (number - 1))
    assert _read(frame.format(p=phrase), as_of) == (start, _month(start.year, start.month + months))


@pytest.mark.parametrize("start_month", [4, 7, 10])
@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_a_fiscal_quarter_counts_from_the_fiscal_years_first_month(start_month: int, number: int) -> None:
    resolved = resolve_period(f"Company A spend Q{number} FY2026", dt.date(2026, 5, 15), fiscal_start_month=start_month)
    assert resolved.time_range is not None and not resolved.ambiguous
    first = _month(2025, start_month + 3 * (number - 1))
    assert (resolved.time_range.start, resolved.time_range.end) == (first, _month(first.year, first.month + 3))


@given(frame=st.sampled_from(_FRAMES), count=st.integers(1, 120), unit=st.sampled_from(("day", "week", "month")),
       form=st.sampled_from(("the {n} {u}s up to and including today", "the {n} {u}s up to today",
                             "the {n} {u}s ending today", "the {n} {u}s until today", "trailing {n}-{u}",
                             "rolling {n}-{u}", "last {n}-{u}", "the {n} {u}s through today")),
       as_of=AS_OFS)
@FAST
def test_a_window_written_with_its_end_ends_at_the_as_of_date(frame: str, count: int, unit: str, form: str,
                                                              as_of: dt.date) -> None:
    end = as_of + dt.timedelta(days=1)
    if unit == "month" and not form.startswith(("the ", "rolling")):
        # "trailing 6-month", "last 6-month": the complete months before the as-of month (every training set's
        # convention for a month window); a window written with its end ("up to today") ends at the as-of date
        year, month = divmod(as_of.year * 12 + as_of.month - 1 - count, 12)
        start, end = dt.date(year, month + 1, 1), as_of.replace(day=1)
    elif unit == "month":
        year, month = divmod(end.year * 12 + end.month - 1 - count, 12)
        start = dt.date(year, month + 1, min(end.day, calendar.monthrange(year, month + 1)[1]))
    else:
        start = end - dt.timedelta(days=count * (7 if unit == "week" else 1))
    assert _read(frame.format(p=form.format(n=count, u=unit)), as_of) == (start, end)


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2019, 2030),
       unit=st.sampled_from((("quarter", 3), ("month", 1), ("half-year", 6), ("year", 12))),
       last=st.integers(1, 12), verb=st.sampled_from(("ending", "ended", "ending on", "that ended")),
       style=st.sampled_from(("{d} {m} {y}", "{m} {d}, {y}", "{y}-{mm}-{dd}")))
@FAST
def test_the_unit_ending_on_a_month_end_is_that_unit(frame: str, year: int, unit: tuple[str, int], last: int,
                                                      verb: str, style: str) -> None:
    word, months = unit
    day = calendar.monthrange(year, last)[1]
    written = style.format(d=day, m=calendar.month_name[last], y=year, mm=f"{last:02d}", dd=f"{day:02d}")
    question = frame.format(p=f"for the {word} {verb} {written}")
    end = _month(year, last + 1)
    start = _month(end.year, end.month - months)
    assert _read(question, dt.date(2031, 1, 1)) == (start, end)


def test_a_unit_ending_on_no_month_end_is_asked_about() -> None:
    resolved = resolve_period("Company B spend for the quarter ending 15 Feb 2026", dt.date(2026, 5, 15))
    assert resolved.ambiguous and resolved.time_range is None


@given(as_of=AS_OFS, form=st.sampled_from((
    "Where is Company A's spend for the year at, as of today?", "Company A spend for the year so far",
    "Company A: spend for the current year to date", "What is Company A's spend in the year as of now?")))
@FAST
def test_the_year_as_of_today_is_the_year_to_date(as_of: dt.date, form: str) -> None:
    assert _read(form, as_of) == (dt.date(as_of.year, 1, 1), as_of + dt.timedelta(days=1))


@pytest.mark.parametrize("word", ["FY-half", "FY-quarter", "Approved-vendor", "Year-to-date", "Month-to-date"])
def test_a_compound_of_vocabulary_words_is_no_name(word: str) -> None:
    assert _vocabulary(word)


@pytest.mark.parametrize("word", ["Acme-Corp", "Foo-half"])
def test_a_compound_with_a_name_in_it_stays_a_name(word: str) -> None:
    assert not _vocabulary(word)


@pytest.mark.parametrize("noun,dimension", [("product codes", "product"), ("catalog items", "product"),
                                            ("catalogue products", "product"), ("products", "product"),
                                            ("SKUs", "product"), ("suppliers", "supplier"), ("vendors", "supplier")])
@pytest.mark.parametrize("verb", ["purchased", "bought", "ordered"])
@pytest.mark.parametrize("frame", ["{c} Q2 2026 to date: list the {n} {v}", "List the {n} {c} {v} from Beta in Q1 2026",
                                   "show me all the {n} {c} has {v} in 2025", "{c}, H2 2025 - list the {n} {v}"])
@pytest.mark.parametrize("company", ["Ypsilon", "Company A", "Xenon Pharma AG"])
def test_a_listing_of_what_was_bought_is_the_spend_by_its_dimension(noun: str, dimension: str, verb: str,
                                                                      frame: str, company: str) -> None:
    question = frame.format(c=company, n=noun, v=verb)
    listing = read_purchase_listing(question)
    assert listing is not None and listing.endswith(f", by {dimension}"), (question, listing)
    assert company in listing and "spend" in listing


@pytest.mark.parametrize("question", [
    "Company C's active vendor list for Q1 2026 (anyone with a counted invoice)",
    "Kestrel active supplier list, H2 2025", "list of active vendors at Company B in 2025",
    "Company A: current vendor list for Q1 2026 (i.e. anyone with at least one posted invoice)"])
def test_an_active_vendor_list_is_the_spend_by_supplier(question: str) -> None:
    listing = read_purchase_listing(question)
    assert listing is not None and listing.endswith(", by supplier") and "invoice" not in listing


@pytest.mark.parametrize("question", ["Company C's approved vendor list for Q1 2026",
                                      "Company B preferred supplier list", "Which products does Beta supply?"])
def test_an_approved_list_or_a_catalogue_is_no_purchase_listing(question: str) -> None:
    assert read_purchase_listing(question) is None


@pytest.mark.parametrize("noun,dimension", [("supplier", "supplier_id"), ("vendor", "supplier_id"),
                                            ("product", "product_code"), ("product group", "product_group_id")])
@pytest.mark.parametrize("frame", ["who's our #1 {n} at Company C so far this year?", "Company A #1 {n} in 2025",
                                   "our # 1 {n} last quarter"])
def test_number_one_is_a_top_one_ranking(noun: str, dimension: str, frame: str) -> None:
    ranking, _ = parse_ranking(frame.format(n=noun))
    assert ranking is not None and ranking.limit == 1 and ranking.direction == "top"
    assert ranking.dimension == dimension


@pytest.mark.parametrize("after", ["after credits", "net of credits", "after credit notes", "less returns",
                                   "including the credit notes", "after all credits"])
def test_net_spend_after_credits_is_no_tax_question(after: str) -> None:
    assert not _net_basis(f"Net spend of Company B with Eta in Q1 2026 - {after}?")
    assert _net_basis(f"Net spend of Company B with Eta in Q1 2026 excluding tax - {after}?")


def test_net_spend_alone_stays_a_tax_question() -> None:
    assert _net_basis("Net spend of Company B with Eta in Q1 2026?")


@pytest.mark.parametrize("question,listed", [
    ("Which Company A invoices in Q1 2026 were billed in USD?", True),
    ("List Company A's invoices billed in GBP, Q1 2026", True),
    ("show me all the invoices Company B got in CHF last quarter", True),
    ("Company A USD invoices Q1 2026", False), ("Company A spend on invoices in USD in Q1 2026", False)])
def test_an_invoice_listing_is_asked_with_a_listing_verb(question: str, listed: bool) -> None:
    from router.reader import _EXPLICIT_INVOICE_LISTING

    assert bool(_EXPLICIT_INVOICE_LISTING.search(question)) is listed


@pytest.mark.parametrize("company", ["Company A", "Xenon Pharma", "Kestrel"])
@pytest.mark.parametrize("group", ["lab consumables", "crates", "Paper Products", "control cabinets"])
@pytest.mark.parametrize("words,figure", [("", True), ("only", True), ("incl. accessories", True),
                                          ("which products", False), ("suppliers", False), ("list", False),
                                          ("how many invoices", False), ("unit price", False), ("share", False)])
def test_a_company_group_and_period_alone_is_the_groups_spend(company: str, group: str, words: str,
                                                              figure: bool) -> None:
    from router.contract import Entities
    from router.reader import _bare_group_figure
    from router.rules import find_identifiers

    question = f"{company} {group} {words} Q1 2026"
    period = resolve_period(question, dt.date(2026, 5, 15))
    # the names are masked in the cue text the reader passes (only the words around them remain)
    cue_text = f"{' ' * len(company)} {' ' * len(group)} {words} Q1 2026"
    entities = Entities(company_id="COMP-X", company_name=company, product_group_id="PG-X", product_group=group)
    assert _bare_group_figure(cue_text, entities, find_identifiers(question), period) is figure
    assert not _bare_group_figure(cue_text, Entities(company_id="COMP-X", company_name=company),
                                  find_identifiers(question), period)


@pytest.mark.parametrize("word", ["paid-only", "Posted-only", "net-of-tax", "tax-excl", "top-supplier",
                                  "excluding-credit"])
def test_a_compound_with_a_constraint_word_is_never_silently_vocabulary(word: str) -> None:
    assert not _vocabulary(word)
