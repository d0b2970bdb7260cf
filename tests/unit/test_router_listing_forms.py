"""Round-2 reading classes, varied over their slots (no database): a listing written in the passive ("products
bought by X from Y in P") or as "who did X buy from in P" reads as the spend broken down with every constraint
kept; a period followed by a measure word and "to date" ("2026 spend to date") opens to the as-of date. Seeded and
bounded; the expected reading is built here from the slots, never by the reader.
"""

from __future__ import annotations

import datetime as dt

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.listings import read_purchase_listing
from router.periods import resolve_period

FAST = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
_BUYERS = ("Alpenland", "Company B", "kestrel", "Xenon Pharma AG", "Co C")
_SUPPLIERS = ("Northwind", "Beta Supplies", "Supplier Gamma", "ETA", "Orbis Packaging")
_PERIODS = ("in Q1 2026", "in H2 25", "during March 2026", "since May 2025", "last quarter", "in 2025")
_NOUNS = {"products": "product", "items": "product", "articles": "product", "skus": "product",
          "suppliers": "supplier", "vendors": "supplier", "product groups": "product group"}


@given(noun=st.sampled_from(sorted(_NOUNS)), verb=st.sampled_from(("bought", "purchased", "ordered", "sourced")),
       buyer=st.sampled_from(_BUYERS), supplier=st.sampled_from((*_SUPPLIERS, None)),
       period=st.sampled_from((*_PERIODS, None)), lead=st.sampled_from(("", "the ", "list the ", "show me all ")),
       were=st.booleans(), mark=st.sampled_from(("", "?", ".")))
@FAST
def test_a_passive_listing_is_the_spend_broken_down(noun: str, verb: str, buyer: str, supplier: str | None,
                                                    period: str | None, lead: str, were: bool, mark: str) -> None:
    tail = (f" from {supplier}" if supplier else "") + (f" {period}" if period else "")
    question = f"{lead}{noun} {'that were ' if were else ''}{verb} by {buyer}{tail}{mark}"
    with_supplier = f" with {supplier}" if supplier else ""
    expected = f"spend of {buyer}{with_supplier}{' ' + period if period else ''}, by {_NOUNS[noun]}"
    assert read_purchase_listing(question) == expected


@given(buyer=st.sampled_from((*_BUYERS, "we")), aux=st.sampled_from(("did", "has", "have")),
       period=st.sampled_from((*_PERIODS, None)), mark=st.sampled_from(("", "?")))
@FAST
def test_who_a_company_bought_from_is_its_suppliers(buyer: str, aux: str, period: str | None, mark: str) -> None:
    verb = "buy" if aux == "did" else "bought"
    question = f"who {aux} {buyer} {verb} from{' ' + period if period else ''}{mark}"
    owner = "our spend" if buyer == "we" else f"spend of {buyer}"
    assert read_purchase_listing(question) == f"{owner}{' ' + period if period else ''}, by supplier"


def test_who_with_goods_or_a_ranking_is_not_this_listing() -> None:
    assert read_purchase_listing("who did Kestrel buy pumps from in Q1 2026") is None
    assert read_purchase_listing("who did Kestrel buy the most from in 2025") is None
    assert read_purchase_listing("who is the supplier of PRD-482") is None


@given(year=st.integers(2020, 2026), quarter=st.sampled_from((None, 1, 2, 3, 4)),
       word=st.sampled_from(("spend", "spending", "purchases")), opener=st.sampled_from(("to date", "so far")),
       frame=st.sampled_from(("Xenon Pharma's share of our total {p}", "Company A {p}", "{p} of Kestrel with Beta")),
       as_of=st.dates(min_value=dt.date(2026, 11, 1), max_value=dt.date(2027, 12, 31)))
@FAST
def test_a_period_with_its_measure_word_then_to_date_opens_to_the_as_of_date(
        year: int, quarter: int | None, word: str, opener: str, frame: str, as_of: dt.date) -> None:
    written = f"Q{quarter} {year}" if quarter else str(year)
    start = dt.date(year, 3 * quarter - 2, 1) if quarter else dt.date(year, 1, 1)
    resolved = resolve_period(frame.format(p=f"{written} {word} {opener}"), as_of, fiscal_start_month=1)
    assert not resolved.ambiguous, resolved.reason
    assert resolved.time_range is not None
    assert (resolved.time_range.start, resolved.time_range.end) == (start, as_of + dt.timedelta(days=1))


def test_what_was_received_in_credit_notes_is_no_purchase_listing() -> None:
    from router.listings import read_purchase_listing

    assert read_purchase_listing("what did Company C receive in credit notes in H1 2026, total in EUR?") is None
    assert read_purchase_listing("what did Company C receive in Q1 2026?") is not None
