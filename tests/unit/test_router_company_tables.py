"""Several named companies asked "per company", and company names after a sentence-opening word, routed in memory
(no database; the governed metrics' definitions come from the schema snapshot).

Classes (issue 20, g4):
- two or more companies named with a per-company breakdown ("X and Y ... per company and combined", "X plus Y
  ... per company and in total", "X vs Y ... per company", "X and Y ... split by company") are one table: the
  governed ``finance.company_spend`` total over exactly those companies (``company_ids``) and its rows by company,
  never "which company do you mean?" and never the tenant's other companies; a difference or a ranking of the
  named companies is no such table;
- a measure other than spend beside the named set ("net of VAT") is never answered by their spend;
- a sentence-opening word glued before a legal-form name ("Rank Xenon Pharma AG's", "Which Xenon Pharma AG
  invoices", "List Kestrel Lebensmittel GmbH's") is no part of the name: the company resolves, while an unknown
  qualifier ("Rank Xenon Chemie AG") is still asked about.

Slots vary over the companies and their spellings, the set cue, the per-company phrase and the period; a seeded
bounded sample.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from router.entities import Company
from tests.unit.test_router_company_sets import PERIODS, TENANTS, _pairs, _route, _spellings

SEED = 36


def _table_calls(result: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(totals, rows by company) of the plan's governed company-spend calls."""
    totals, rows = [], []
    for s in result.execution_plan:
        if s.tool == "metrics.query" and s.arguments.get("metric") == "finance.company_spend":
            (rows if s.arguments.get("group_by") == ["company_id"] else totals).append(dict(s.arguments["parameters"]))
    return totals, rows


_TABLE_FRAMES = (
    "Spend of {a} and {b} for {p}, per company and combined.",
    "{a} plus {b} spend {p}, per company and in total.",
    "What did {a} and {b} spend per company {p}?",
    "{a} vs {b} spend {p} per company",
    "{a} and {b} spend {p}, split by company, with the total",
    "{a} + {b}: spend {p} by company",
    "Spend {p} per company ({a}, {b})",
)


def _table_cases(n: int) -> list[tuple[str, str, tuple[str, str], str, str]]:
    rng = random.Random(SEED)
    out = []
    for i in range(n):
        tenant = rng.choice(sorted(TENANTS))
        a, b = rng.choice(_pairs(tenant))
        phrase, start, end = rng.choice(PERIODS)
        q = _TABLE_FRAMES[i % len(_TABLE_FRAMES)].format(a=rng.choice(_spellings(a)), b=rng.choice(_spellings(b)),
                                                         p=phrase)
        out.append((tenant, q, (a.company_id, b.company_id), start, end))
    return out


@pytest.mark.parametrize(("tenant", "question", "ids", "start", "end"), _table_cases(36), ids=lambda v: str(v)[:50])
def test_named_companies_per_company_are_their_table_and_total(
        tenant: str, question: str, ids: tuple[str, str], start: str, end: str) -> None:
    [result] = _route(question, tenant)
    assert not result.requires_clarification, (question, result.clarification_question)
    totals, rows = _table_calls(result)
    assert len(totals) == 1 and len(rows) == 1, (question, result.execution_plan)
    for call in (*totals, *rows):
        assert sorted(call["company_ids"]) == sorted(ids), (question, call)  # never the tenant's third company
        assert (call["start_date"], call["end_date"]) == (start, end), question
        assert "company_id" not in call


@pytest.mark.parametrize("letters", [("A", "B"), ("A", "B", "C"), ("B", "C"), ("C", "A")])
@pytest.mark.parametrize("phrase", [p[0] for p in PERIODS[:3]])
def test_letters_listed_after_per_company_are_those_companies(letters: tuple[str, ...], phrase: str) -> None:
    question = f"Spend {phrase} per company ({', '.join(letters)})"
    [result] = _route(question, "letters")
    assert not result.requires_clarification, (question, result.clarification_question)
    totals, rows = _table_calls(result)
    assert len(totals) == 1 and len(rows) == 1, (question, result.execution_plan)
    assert sorted(rows[0]["company_ids"]) == sorted(f"COMP-{x}" for x in letters), (question, rows)


@pytest.mark.parametrize("i", range(8))
def test_a_difference_or_another_measure_of_named_companies_is_no_table(i: int) -> None:
    rng = random.Random(SEED * 10 + i)
    tenant = rng.choice(sorted(TENANTS))
    a, b = rng.choice(_pairs(tenant))
    frame = ("Difference between {a} and {b} spend {p} per company",
             "Net of VAT, what did {a} and {b} spend per company {p}?",
             "{a} and {b} spend excluding VAT {p}, per company and combined")[i % 3]
    question = frame.format(a=rng.choice(_spellings(a)), b=rng.choice(_spellings(b)), p=rng.choice(PERIODS)[0])
    for result in _route(question, tenant):
        totals, rows = _table_calls(result)
        assert not any(c.get("company_ids") for c in (*totals, *rows)), (question, result.execution_plan)


# --- a sentence-opening word before a legal-form name ---------------------------------------------------------------
_OPENERS = ("Rank {n}'s suppliers by spend {p}", "Which {n} invoices {p} were above EUR 5,000?",
            "List {n}'s invoices {p} above EUR 1,000", "Show {n} spend {p}", "Give {n}'s top 3 suppliers {p}",
            "Welche {n} Rechnungen {p} lagen über 5.000 EUR?")


@pytest.mark.parametrize("company", TENANTS["legal"], ids=lambda c: c.company_id)
@pytest.mark.parametrize("frame", _OPENERS)
def test_a_sentence_opening_word_is_no_part_of_the_company_name(company: Company, frame: str) -> None:
    question = frame.format(n=company.company_name, p=random.Random(f"{company.company_id}{frame}").choice(PERIODS)[0])
    for result in _route(question, "legal"):
        text = result.clarification_question or ""
        assert "I do not know a company" not in text, (question, text)
        assert not result.execution_plan or company.company_id in repr(result.execution_plan), question


@pytest.mark.parametrize("company", TENANTS["legal"], ids=lambda c: c.company_id)
@pytest.mark.parametrize("opener", ("Rank", "Which", "List"))
def test_an_unknown_qualifier_after_an_opening_word_is_still_asked_about(company: Company, opener: str) -> None:
    first, *_, form = company.company_name.split()
    question = f"{opener} {first} Chemie {form}'s suppliers by spend in Q1 2026"
    [result] = _route(question, "legal")
    assert result.requires_clarification and "Chemie" in (result.clarification_question or ""), question


# --- "any company": every company of the tenant ----------------------------------------------------------------------
@pytest.mark.parametrize("any_word", ["any company", "any of our companies", "any entity", "any of the companies"])
@pytest.mark.parametrize("frame", ["List all invoices of {w} above EUR {n} dated {p}.",
                                   "Invoices over {n} EUR of {w} {p}"])
def test_any_company_is_every_company_of_the_tenant(any_word: str, frame: str) -> None:
    rng = random.Random(f"{any_word}{frame}")
    phrase = rng.choice(PERIODS)[0]
    question = frame.format(w=any_word, n=rng.choice(["5,000", "0.025m", "12k"]), p=phrase)
    [result] = _route(question, "letters")
    assert not result.requires_clarification, (question, result.clarification_question)
    assert all(c.company_id in result.interpretation for c in TENANTS["letters"]), (question, result.interpretation)


# --- a supplier described by an attribute the data does not hold ---------------------------------------------------
@pytest.mark.parametrize("attribute", ["Swiss", "German", "Italian", "local", "overseas", "Austrian"])
@pytest.mark.parametrize("frame", ["Which open invoices do we have with our {a} supplier as at 15 May 2026?",
                                   "What did Company A spend with our {a} vendor {p}?",
                                   "How many invoices did Company B get from the {a} supplier {p}?",
                                   "List invoices above 5000 EUR from our {a} supplier {p}, all companies"])
def test_a_supplier_described_by_an_attribute_is_asked_about(attribute: str, frame: str) -> None:
    question = frame.format(a=attribute, p=random.Random(f"{attribute}{frame}").choice(PERIODS)[0])
    [result] = _route(question, "letters")
    text = result.clarification_question or ""
    assert result.requires_clarification and f"{attribute} " in text and "supplier" in text, (question, text)


@pytest.mark.parametrize("name", ["Beta", "Sensors"])
def test_a_supplier_described_by_a_known_name_is_read(name: str) -> None:
    [result] = _route(f"What did Company A spend with our {name} supplier in Q1 2026?", "letters")
    assert "cannot tell which supplier" not in (result.clarification_question or "")


@pytest.mark.parametrize("first", ["B", "C"])
@pytest.mark.parametrize("frame", ["Spend {p} (Company {f}, A)", "Spend of Company {f}, A {p}",
                                   "Spend {p} per company (Company {f}, A)"])
def test_a_company_letter_a_ending_a_list_is_no_article(first: str, frame: str) -> None:
    question = frame.format(f=first, p=random.Random(f"{first}{frame}").choice(PERIODS)[0])
    [result] = _route(question, "letters")
    # the list's last name is kept: asked about, or both companies' table; never Company B or C alone
    assert result.requires_clarification or "COMP-A" in result.interpretation, (question, result.interpretation)
