"""Rankings, shares and differences as users type them, read in the phrasing the readers know
(router/ranking_words.py); phrasings written for these tests."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from router.answer import Answer
from router.company_compare import CompanyAsk, ranked
from router.company_compare import detect as detect_compared
from router.entities import Company
from router.period_ranking import detect as detect_period_ranking
from router.ranking_words import read_ranking_words, with_reading_note
from router.romance import read_romance


def _read(question: str) -> str:
    """The question as the service reads it: French / Spanish words first, then the ranking words."""
    romance = read_romance(question) or question
    return read_ranking_words(romance) or romance


@pytest.mark.parametrize(("question", "expected"), [
    ("kestrel top 5 sups fy2025", "kestrel top 5 suppliers fy2025"),
    ("The three main vendors of Company B in Q2 2026", "the top three vendors of Company B in Q2 2026"),
    ("who is our main supplier in 2025, Company C?", "who is the top supplier in 2025, Company C?"),
    ("Company A, which vendor was number one in March 2026?", "Company A, top vendor in March 2026?"),
    ("Company A: which supplier was #1 in Q1 2026", "Company A: top supplier in Q1 2026"),
    ("kestrel product groups ranked by net spend, top 2, 2025", "kestrel top 2 product groups by net spend, 2025"),
])
def test_supplier_and_product_rankings(question: str, expected: str) -> None:
    assert read_ranking_words(question) == expected


@pytest.mark.parametrize(("question", "order", "grain"), [
    ("which quarter of 2025 was Company B's strongest by spend?", "desc", "quarter"),
    ("during FY2025, which month had Xenon Pharma's lowest spending?", "asc", "month"),
    ("which full quarter from Q2 2025 to Q4 2025 was the busiest?", "desc", "quarter"),
    ("which month H1 2026 had the highest spend at Company A?", "desc", "month"),
    ("Company C: priciest month of 2025?", "desc", "month"),
    ("Company C: the cheapest quarter in 2025", "asc", "quarter"),
    ("Xenon: mois le plus faible du T1 2026 ?", "asc", "month"),
])
def test_period_rankings_written_around_a_name(question: str, order: str, grain: str) -> None:
    found = detect_period_ranking(_read(question))
    assert found is not None and found.order == order and found.grain == grain and found.refused is None


def test_the_company_of_a_period_ranking_stays_in_the_base_question() -> None:
    found = detect_period_ranking(_read("which quarter of 2025 was Company B's weakest by spend?"))
    assert found is not None and "Company B" in found.base and "2025" in found.base


@pytest.mark.parametrize("question", [
    "Company C: best quarter of 2025", "Company A, peor mes del S1 2026", "Kestrel: meilleur mois 2025"])
def test_best_and_worst_read_with_the_reading_stated(question: str) -> None:
    found = detect_period_ranking(_read(question))
    assert found is not None and found.refused is None and "read as the" in found.words


@pytest.mark.parametrize(("question", "a", "b"), [
    ("kestrel minus alpenland spend march 2026", "kestrel", "alpenland"),
    ("Gap in spend between Company C and Company A for Q1 2026?", "Company C", "Company A"),
    ("diferencia de gasto entre Company B y Company C en 2025", "Company B", "Company C"),
])
def test_differences_read_as_how_much_more(question: str, a: str, b: str) -> None:
    read = _read(question)
    assert read.startswith(f"how much more did {a} spend than {b}")


@pytest.mark.parametrize(("question", "needle"), [
    ("Company B packaging pct of total 2025", "share of total spend"),
    ("share of Beta in Company A spend 2025 %", "2025, in %"),
    ("Part de Beta dans les achats de Company A en 2025, en % ?", "share of Beta in spend"),
])
def test_shares(question: str, needle: str) -> None:
    assert needle in _read(question)


def test_shorthand_and_glosses() -> None:
    assert read_ranking_words("Company B spend w/ Beta w/o credit notes") == \
        "Company B spend with Beta without credit notes"
    assert read_ranking_words("rank alpenland + kestrel by spend 2025") == "rank alpenland and kestrel by spend 2025"
    assert read_ranking_words("Company A net + tax 2025") is None  # amounts added up, not two names
    assert read_ranking_words("Company A + Company B spend 2025") is None  # their sum, no ranking asked
    assert read_ranking_words("Company B: weakest month (le plus faible) of 2025") == \
        "Company B: weakest month of 2025"
    assert _read("Company C: écart T2 vs T1 2026, en %").startswith("Company C: change Q2 vs Q1 2026")
    assert "companies" in _read("which two empresas had the highest gasto in 2025?")


@pytest.mark.parametrize("question", [
    "top 3 suppliers of Company A in 2025", "Company C spend by month in 2025", "the month with the highest spend",
    "how much more did Company A spend than Company B in Q1 2026?", "share of Beta in Company A's spend in 2025",
    "main street office supplies invoices", "select company, sum(spend) from invoices group by company",
    "what % of Company A's spend in 2025 was with Beta?", "Company C: variation Q2 vs Q1 2026 in EUR and %",
    "which month had the highest spend for Company C in FY2025"])
def test_canonical_phrasing_passes_unchanged(question: str) -> None:
    assert read_ranking_words(question) is None


@dataclass(frozen=True)
class _Named:
    start: int
    end: int
    resolved: str


def _named(text: str, *names: tuple[str, str]) -> list[_Named]:
    return [_Named(text.index(n), text.index(n) + len(n), cid) for n, cid in names]


def _per_company(values: dict[str, str]) -> Answer:
    return Answer(status="answered", text="All companies ... Read as: all companies.", inputs={}, sources=(),
                  result={"status": "complete", "metrics": [{"metric": "finance.company_spend", "currency": "EUR",
                                                             "rows": [{"company_id": k, "total_spend": v,
                                                                       "matched_line_count": 2}
                                                                      for k, v in values.items()]}]})


@pytest.mark.parametrize(("question", "limit", "direction"), [
    ("Company A, Company B, Company C: which two companies had the highest spend in 2025?", 2, "top"),
    ("Company A, Company B, Company C: which 2 companies spent the least in Q1 2026", 2, "bottom"),
    ("Company A, Company B, Company C: which company had the highest spend in 2025?", 0, "top"),
])
def test_company_rankings_keep_the_count_asked(question: str, limit: int, direction: str) -> None:
    named = _named(question, ("Company A", "COMP-A"), ("Company B", "COMP-B"), ("Company C", "COMP-C"))
    ask = detect_compared(question, named)
    assert ask is not None and ask.kind == "company_ranking" and ask.limit == limit and ask.direction == direction
    companies = [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
                 Company("COMP-C", "Company C", "EUR")]
    answer = ranked(ask, _per_company({"COMP-A": "30.00", "COMP-B": "10.00", "COMP-C": "20.00"}), companies)
    got = [r["company_id"] for r in answer.result["ranking"]]
    want = ["COMP-A", "COMP-C", "COMP-B"] if direction == "top" else ["COMP-B", "COMP-C", "COMP-A"]
    assert got == (want[:limit] if limit else want)


def test_a_tie_at_the_cut_of_a_company_ranking_keeps_every_tied_company() -> None:
    ask = CompanyAsk(kind="company_ranking", bases=("x",), words="w", limit=1)
    companies = [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")]
    answer = ranked(ask, _per_company({"COMP-A": "5.00", "COMP-B": "5.00"}), companies)
    assert len(answer.result["ranking"]) == 2 and "tied" in answer.text


def test_the_reading_is_stated_before_the_sources() -> None:
    text = with_reading_note("Top 1 supplier ... Sources: a, b.", "top supplier in H2 2025")
    assert text == ("Top 1 supplier ... Ranking, share and comparison words read as 'top supplier in H2 2025'. "
                    "Sources: a, b.")



def test_a_remark_after_the_ranked_ask_stays_after_its_breakdown() -> None:
    found = detect_period_ranking(_read("Q1 2026: which month was Company A's quietest? Asking for the budget memo."))
    assert found is not None and found.order == "asc"
    assert found.base.startswith("Q1 2026") and "by month? Asking for the budget memo." in found.base


@pytest.mark.parametrize(("question", "expected"), [
    ("Kestrel : top 3 fournisseurs T2 2026", "top 3 suppliers Q2 2026"),
    ("Company B: principales proveedores S1 2026", "the top suppliers H1 2026"),
])
def test_a_period_after_the_supplier_word_is_no_supplier_name(question: str, expected: str) -> None:
    assert expected in _read(question)


@pytest.mark.parametrize("question", [
    "difference between net and gross spend for Company A in 2025",
    "difference in spend between Q1 2026 and Q4 2025 for Company B",
    "Company A: which supplier was first invoiced in 2026?",
    "Kestrel: fournisseur le plus cher pour PRD-482 en mars 2026",
    "list our key suppliers for Company C",
])
def test_amounts_periods_and_prices_are_no_ranking_or_sides(question: str) -> None:
    read = _read(question)
    assert "how much more" not in read and "top" not in read and "highest" not in read
