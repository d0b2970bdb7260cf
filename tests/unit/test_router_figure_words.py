"""Figure words (router/figure_words.py, the one amount parser in router/reading.py, the share and change words):
South Asian amounts (lakh, crore, 1,00,000 grouping), a number never cut inside its digit groups, a multiplier never
dropped by a rewriter, a determiner before a named amount, the tax base as the net basis, the contribution of a part
as its share, "variance" as a change, and the invariant that a percentage asked beside an amount-only plan is named.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.analysis import compare_words, parse_analysis, parse_share
from router.comparison_words import CHANGE_RE, change_output_only
from router.figure_words import amount_of_approved_part, basis_only_spans, period_year, unanswered_percent
from router.invoice_facts import amount_basis
from router.keyword_query import keyword_style
from router.reading import parse_amounts, parse_number

_AS_OF = dt.date(2026, 4, 15)


# --- South Asian notation -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, value, currency", [
    ("suppliers with spend above EUR 1,00,000.00 in H2", "100000.00", "EUR"),
    ("invoices over 12,50,000 EUR for Company B", "1250000", "EUR"),
    ("vendors having spend > 0.5 lakh euro this quarter", "50000", "EUR"),
    ("any vendor above 1 lakh EUR spend?", "100000", "EUR"),
    ("invoices above 3 lakhs EUR", "300000", "EUR"),
    ("spend more than 1.5 lacs EUR", "150000", "EUR"),
    ("total spend over 2 crore EUR", "20000000", "EUR"),
    ("invoices above 17,000/- EUR", "17000", "EUR"),
    ("bills over €4,000/- in May", "4000", "EUR"),
    ("invoices above Rs. 1,50,000", "150000", "INR"),
    ("above ₹17,000/- please", "17000", "INR"),
])
def test_south_asian_amounts(text: str, value: str, currency: str) -> None:
    found = [a for a in parse_amounts(text) if a.comparator == "above"]
    assert [(a.value, a.currency) for a in found] == [(Decimal(value), currency)]


@given(lakhs=st.integers(min_value=1, max_value=99), thousands=st.integers(min_value=0, max_value=99),
       units=st.integers(min_value=0, max_value=999), cents=st.integers(min_value=0, max_value=99),
       lead=st.sampled_from(["above EUR ", "more than € ", "over ", "> EUR "]))
@settings(max_examples=60, deadline=None)
def test_indian_grouping_is_read_whole(lakhs: int, thousands: int, units: int, cents: int, lead: str) -> None:
    """Any number in South Asian grouping is its whole value, never its first group ("1,00" of "1,00,000")."""
    written = f"{lakhs},{thousands:02d},{units:03d}.{cents:02d}"
    found = parse_amounts(f"invoices {lead}{written} in Q1 2026")
    assert [a.value for a in found] == [Decimal(f"{lakhs * 100000 + thousands * 1000 + units}.{cents:02d}")]


@pytest.mark.parametrize("text", ["above 1,00,00 EUR", "over 12,3,456 EUR"])
def test_a_number_is_never_cut_inside_its_groups(text: str) -> None:
    """A malformed grouping is no amount at all (asked back as unread), never its first digits as the amount."""
    assert all(a.value >= 1000 for a in parse_amounts(text))


@pytest.mark.parametrize("written, value", [("1,00,000.00", "100000.00"), ("12,34,567", "1234567"),
                                            ("10,000.50", "10000.50"), ("10.000,50", "10000.50")])
def test_parse_number_reads_every_grouping(written: str, value: str) -> None:
    assert parse_number(written) == Decimal(value)


@pytest.mark.parametrize("scale, factor", [("k", 1000), ("million", 1_000_000), ("lakh", 100_000),
                                           ("crore", 10_000_000), ("mio", 1_000_000), ("thousand", 1000)])
@pytest.mark.parametrize("lead", ["spend > ", "amount >= ", "invoices > "])
def test_rewriters_keep_the_multiplier(scale: str, factor: int, lead: str) -> None:
    """The spreadsheet rewriter never cuts "0.5 million" to "0.5" (it uses the one multiplier table)."""
    out = keyword_style(f"vendors with {lead}0.5 {scale} EUR in Q1 2026")
    assert str(Decimal("0.5") * factor).rstrip("0").rstrip(".") in out


# --- a determiner between the comparator and a named amount -------------------------------------------------------
@pytest.mark.parametrize("text, value", [
    ("invoices above the EUR 25,000 dual-signature threshold", "25000"),
    ("bills over our €10k approval limit", "10000"),
    ("documents exceeding the 5,000 EUR cap", "5000"),
])
def test_determiner_before_named_amount(text: str, value: str) -> None:
    assert [(a.value, a.comparator) for a in parse_amounts(text)] == [(Decimal(value), "above")]


@pytest.mark.parametrize("text", ["spend over the 3 lines", "above the 2025 level", "over the hundred lines"])
def test_determiner_before_bare_number_is_no_amount(text: str) -> None:
    assert [a for a in parse_amounts(text) if a.comparator] == []


# --- a year the period reader took ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text, period", [("avg monthly spend over 2025 Q4", "2025 Q4"),
                                          ("spend above 2026 H1 for Co B", "2026 H1")])
def test_period_year_is_no_amount(text: str, period: str) -> None:
    start = text.index(period)
    spans = [(start, start + len(period))]
    assert [period_year(a, spans) for a in parse_amounts(text)] == [True]


def test_amount_with_currency_beside_period_stays() -> None:
    text = "invoices over 2025 EUR in Q4 2025"
    start = text.index("Q4 2025")
    assert [period_year(a, [(start, start + 7)]) for a in parse_amounts(text)] == [False]


# --- tax basis -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Company C spend, taxable value", "Kestrel H1 taxable amount", "the tax base of Co A",
                                  "assessable value of purchases", "Bemessungsgrundlage Q1"])
def test_tax_base_is_net(text: str) -> None:
    assert amount_basis(text) == "net"


@pytest.mark.parametrize("text, phrase", [("Q3 spend - taxable value only, without tax", "taxable value only"),
                                          ("H2 net amount only", "net amount only"),
                                          ("Co B tax only", "tax only"),
                                          ("only the VAT amount please", "only the VAT amount")])
def test_basis_only_is_read_with_the_basis(text: str, phrase: str) -> None:
    assert [text[a:b] for a, b in basis_only_spans(text)] == [phrase]


# --- shares and changes --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "Beta contribution % to total spend - Company B - H2 2025",
    "% contribution of Beta in Company B spend",
    "Beta contribution to Company A spend in 2025",
    "Beta spend as % to total for Kestrel",
    "weightage of Beta in overall spend, Q1",
    "Beta contribution (%) towards Company A purchases",
])
def test_contribution_is_a_share(text: str) -> None:
    assert parse_share(text)[0]


@pytest.mark.parametrize("text", ["Beta spend in Q1", "contribution margin", "total spend of Company A in 2025"])
def test_no_share_without_share_words(text: str) -> None:
    assert not parse_share(text)[0]


@pytest.mark.parametrize("word", ["variance", "Variance", "variances"])
@pytest.mark.parametrize("frame", ["{w} Nov 2025 vs prior month for Co C", "{w} of Xenon spend Q4 vs Q3",
                                   "Co B spend Q1 vs Q4, {w} in abs and %"])
def test_variance_is_a_change(word: str, frame: str) -> None:
    text = frame.format(w=word)
    assert CHANGE_RE.search(text)
    analysis, _ = parse_analysis(text, _AS_OF)
    assert analysis.comparison is not None


@pytest.mark.parametrize("part", ["need both abs and % change", "want abs + %", "kindly give both abs and %"])
def test_request_verbs_in_an_output_part(part: str) -> None:
    assert change_output_only(part)


# --- the percent invariant -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("word", ["%", "percent", "pct", "per cent", "Prozent", "pourcentage"])
def test_percent_beside_an_amount_plan_is_named(word: str) -> None:
    assert unanswered_percent(f"Beta weight in {word} - Company B - H2", ["entity.resolve_company",
                                                                          "finance.aggregate_spend"]) == word


@pytest.mark.parametrize("tools", [["finance.supplier_share"], ["finance.spend_comparison"],
                                   ["finance.product_group_share", "validation.check_completeness"], []])
def test_percent_beside_a_percent_plan_is_answered(tools: list[str]) -> None:
    assert unanswered_percent("Beta share in % of spend", tools) is None


def test_no_percent_no_note() -> None:
    assert unanswered_percent("Beta spend Q1 2026", ["finance.aggregate_spend"]) is None


# --- "how much of" with the approved set as its part -----------------------------------------------------------------
@pytest.mark.parametrize("text", ["Company A: how much of our Feb-26 spend was with approved vendors?",
                                  "how much of Kestrel's Q1 spend went to our approved suppliers",
                                  "How much of Co B 2025 purchases were from authorised vendors?"])
def test_how_much_of_approved_is_an_amount(text: str) -> None:
    assert amount_of_approved_part(text)


@pytest.mark.parametrize("text", ["how much of our spend was with approved vendors, in %",
                                  "what share of our spend was with approved vendors",
                                  "how much of our spend was with Beta"])
def test_share_of_approved_stays_a_share(text: str) -> None:
    assert not amount_of_approved_part(text)


# --- "share" the verb of a request ---------------------------------------------------------------------------------
@pytest.mark.parametrize("lead", ["Request you to", "pls", "Please", "Kindly", "can you", "Could you"])
@pytest.mark.parametrize("rest", ["share variance of Xenon spend Nov-25 vs Oct-25", "share the Q1 spend of Co B",
                                  "share us the invoice count"])
def test_share_as_a_request_verb_is_no_share(lead: str, rest: str) -> None:
    assert not parse_share(f"{lead} {rest}")[0]


@pytest.mark.parametrize("text", ["Beta share of Company A spend", "supplier share Q1 for Company A",
                                  "Beta spend share in 2025", "what is the share of Beta in Q1"])
def test_share_as_a_noun_stays(text: str) -> None:
    assert parse_share(text)[0]


# --- "against" a party or a document is no comparison --------------------------------------------------------------
@pytest.mark.parametrize("text", ["invoices booked against vendor Orbis, Q3 2025", "booked against PO 4711 in May",
                                  "spend against the agreement in Q1", "invoices posted against supplier Beta"])
def test_against_a_party_is_no_comparison(text: str) -> None:
    assert not compare_words(text)


@pytest.mark.parametrize("text", ["Q1 spend against the prev qtr", "Q1 2026 against Q4 2025",
                                  "variance of Kestrel spend for Q1 against the previous quarter"])
def test_against_a_period_compares(text: str) -> None:
    assert compare_words(text)
