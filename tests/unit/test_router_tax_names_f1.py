"""Negative cases of the tax-name and currency-example readers: a short or lower-case tax name after a bare "with"
is no tax (it may be a supplier's name), a tenant's name is never the tax, and currencies listed after an exclusion
word are left out, never examples of every currency's rows (router/tax_words.py, router/currency_lists.py)."""

from __future__ import annotations

from typing import Any

import pytest

from router.currency_lists import example_spans
from router.entities import Company, Gazetteer
from router.foreign_words import read_foreign_words
from tests.unit.test_router_analysis import GROUPS, SUPPLIERS
from tests.unit.test_router_company_sets import GAZETTEERS


def _read(text: str, gazetteer: Gazetteer = GAZETTEERS["letters"]) -> str:
    found = read_foreign_words(text, gazetteer)
    return found.text if found is not None else text


@pytest.mark.parametrize("question", ["Company A spend with PVM in Q1 2026", "Company A spend with pvn in Q1 2026",
                                      "Company B spend s DDS in Q1 2026", "Company C spend z ddv in March 2026",
                                      "Company A spend plus ALV in Q1 2026", "Company A spend with gst in Q1 2026"])
def test_a_short_tax_name_after_a_bare_with_stays_as_typed(question: str) -> None:
    assert "VAT" not in _read(question), _read(question)


@pytest.mark.parametrize("name", ["PVM", "pvm", "FPA", "dds", "AFA"])
def test_a_short_tax_name_alone_stays_as_typed(name: str) -> None:
    question = f"Company A spend on {name} in Q1 2026"
    assert _read(question) == question


@pytest.mark.parametrize(("question", "expected"), [
    ("Company A spend incl PVM in Q1 2026", "including VAT"), ("Company A spend ex-pvm in Q1 2026", "excluding VAT"),
    ("Company A spend with GST in Q1 2026", "including VAT"), ("Company A pvm amount in Q1 2026", "VAT amount"),
    ("Company A spend s DPH in Q1 2026", "including VAT"), ("Company A spend met btw in Q1 2026", "including VAT"),
])
def test_a_tax_name_beside_a_basis_word_or_a_tax_noun_is_the_tax(question: str, expected: str) -> None:
    assert expected in _read(question), _read(question)


def _gazetteer_with(supplier: str) -> Gazetteer:
    suppliers = [(sid, name) for sid, (name, _) in SUPPLIERS.items()] + [("SUP-PVM", supplier)]
    aliases = [(alias, sid) for sid, (_, found) in SUPPLIERS.items() for alias in found]
    return Gazetteer.build([Company("COMP-A", "Company A", "EUR")], suppliers, aliases, GROUPS)


@pytest.mark.parametrize(("supplier", "question"), [
    ("PVM Oy", "Company A spend incl PVM in Q1 2026"), ("GST Logistics", "Company A spend with GST in Q1 2026"),
    ("DDS Trading", "Company A spend excluding DDS in Q1 2026"), ("Hst Services", "total HST Company A 2025"),
])
def test_a_word_of_a_tenant_name_is_never_the_tax(supplier: str, question: str) -> None:
    read = _read(question, _gazetteer_with(supplier))
    assert "VAT" not in read, read


@pytest.mark.parametrize("text", ["Company A spend excluding USD and other foreign currencies in Q1 2026",
                                  "Company A spend except GBP, CHF etc in Q1 2026",
                                  "Company A spend without USD and the rest in Q1 2026",
                                  "Company A spend, USD and other currencies excluded, in Q1 2026",
                                  "Company A Ausgaben ohne USD und andere im Q1 2026",
                                  "dépenses de Company A sauf USD et autres au T1 2026"])
def test_currencies_listed_after_an_exclusion_are_no_examples(text: str) -> None:
    assert example_spans(text) == ()


def _routed(question: str) -> Any:
    from tests.unit.test_router_invoice_facts import _routed as routed

    return routed(question)


@pytest.mark.parametrize("question", ["Company A spend excluding USD and other foreign currencies in Q1 2026",
                                      "Company A spend except USD and other currencies in Q1 2026"])
def test_an_excluded_currency_list_is_never_answered_with_every_currency(question: str) -> None:
    routed = _routed(question)
    params = [dict(s.arguments.get("parameters") or s.arguments) for s in routed.execution_plan]
    every = any(s.arguments.get("metric") == "finance.document_currency_spend"
                and not (p.get("exclude_document_currencies") or p.get("document_currency")
                         or p.get("document_currencies")) for s, p in zip(routed.execution_plan, params, strict=True))
    assert routed.requires_clarification or not every, params
