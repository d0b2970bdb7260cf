"""A metric-shaped question is never answered with passages (router/metric_shape.py).

The passage fallback happens when the intent classifier's top intent (an identifier lookup) clears its floor and no
reader planned a figure. The classifier here is a stub that always proposes that lookup, so every question below
reaches the fallback exactly as in production; the rule must then answer the figure or ask back, naming what was
not read, and leave document questions to the passages. Database-free.
"""

from __future__ import annotations

import datetime as dt
import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procura.db.session import AuthContext
from router.contract import RoutingResult
from router.entities import Company, Gazetteer, ProductGroup
from router.invoice_facts import document_numbers
from router.metric_shape import names_price
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

SUPPLIERS = {"SUP-18": ("Supplier Beta", ("Beta Supplies GmbH",)),
             "SUP-31": ("Supplier Delta", ("Delta Enclosures Ltd", "Delta Enclosures")),
             "SUP-27": ("Supplier Gamma", ("Gamma Control Systems AG", "Gamma Controls"))}
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
     Company("COMP-C", "Company C", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    [ProductGroup("PG-PRES", "Pressure Sensors")],
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="k7", scopes=frozenset({"invoice:aggregate"}))
PASSAGES = {"identifier_lookup", "document_answer"}


class _LookupFirst:
    """The classifier as it behaves on an unread question: the identifier lookup above the floor."""

    def predict(self, text: str, rule_intents: object = None) -> dict[str, float]:
        return {"exact_lookup": 0.35, "lexical": 0.01, "semantic": 0.02, "aggregate": 0.05, "relationship": 0.02}


@functools.cache
def _inputs() -> RouterInputs:
    return RouterInputs(ctx=CTX, as_of=dt.date(2026, 5, 12), gazetteer=GAZETTEER,
                        classifier=_LookupFirst(),  # type: ignore[arg-type]
                        metrics=tuple(catalog_metrics(shipped_registry())))


@functools.cache
def _route(question: str) -> RoutingResult:
    return route(question, _inputs())


@pytest.mark.parametrize("question", [
    # a period in a notation no reader knows (letter O for zero, week codes), beside a company and a supplier
    "Company B monthly 10~12.2O25 with Beta",
    "Company A per quarter 2O25.07-2O26.03 Delta Enclosures",
    "Company B monthly 25w40~25w52 with Beta",
])
def test_unread_period_is_asked_never_passages(question: str) -> None:
    result = _route(question)
    assert result.workflow not in PASSAGES
    assert result.requires_clarification
    assert "period" in (result.clarification_question or "")


@pytest.mark.parametrize("question", [
    # the same asks in notations the period family reads: answered, never passages
    "Company B monthly 2025.10～2025.12 with Beta",
    "Gamma Controls for Company C: 2026/02 vs 2025/11 delta?",
    "Company A per quarter 2025.07-2026.03 Delta Enclosures",
])
def test_read_period_is_answered_never_passages(question: str) -> None:
    result = _route(question)
    assert result.workflow not in PASSAGES
    assert not result.requires_clarification


@pytest.mark.parametrize("question", [
    "Beta Supplies - what's the figure for Q3 2025?",
    "Delta Enclosures, the number for 2025 please",
])
def test_supplier_and_period_asks_the_company(question: str) -> None:
    result = _route(question)
    assert result.workflow not in PASSAGES
    assert result.requires_clarification
    assert "Which company" in (result.clarification_question or "")


def test_claimed_figure_with_a_complete_scope_is_the_spend() -> None:
    result = _route("the report says EUR 12,345.00 for Company A with Gamma Controls in Feb 2026, what is right?")
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow not in PASSAGES
    assert "read as the spend" in (result.interpretation or "")


@pytest.mark.parametrize("question", [
    "what does the agreement between Company A and Beta say about payment terms in 2026?",
    "Company B Delta Enclosures contract clauses on warranty",
    "how do I install the Gamma Controls module for Company C?",
])
def test_document_questions_keep_their_passages(question: str) -> None:
    result = _route(question)
    assert result.workflow in PASSAGES | {"clarification", "agreement_terms"} or result.workflow.startswith("agree")
    assert not any(r.startswith("passages:") for r in result.clarification_reasons)


def test_quoted_claim_with_names_is_read_as_asked() -> None:
    result = _route('pls verify "5 invoices above EUR 9,000 at Company B in Oct-Dec 2025" - which are they?')
    assert result.workflow not in PASSAGES
    assert not any(r.startswith("passages:") for r in result.clarification_reasons), result.clarification_question


@pytest.mark.parametrize("word,expected", [
    ("preço", True), ("prezzo", True), ("Stückpreis", True), ("単価", True), ("cena", True), ("quantidade", True),
    ("manual", False), ("datasheet", False), ("warranty", False),
])
def test_price_words_are_one_closed_class(word: str, expected: bool) -> None:
    assert names_price(f"{word} of PRD-100") is expected
    assert names_price(f"PRD-100 {word}?") is expected


@pytest.mark.parametrize("question", [
    "preço de tabela do PRD-100 no catálogo", "prezzo di listino PRD-100", "lijstprijs PRD-100",
    "listpris för PRD-100?", "cena katalogowa PRD-100",
])
def test_foreign_list_prices_are_the_catalogue_price(question: str) -> None:
    from router.foreign_words import read_foreign_words

    read = read_foreign_words(question, GAZETTEER)
    assert read is not None and "list price" in read.text


@pytest.mark.parametrize("question", [
    "preço médio unitário do PRD-100 em 2025", "prezzo medio unitario PRD-100 nel 2025",
    "gemiddelde stukprijs PRD-100 2025",
])
def test_foreign_average_unit_prices(question: str) -> None:
    from router.foreign_words import read_foreign_words

    read = read_foreign_words(question, GAZETTEER)
    assert read is not None and "average unit price" in read.text


@pytest.mark.parametrize("question", [
    "a qué factura corresponde la nota de crédito CN-2026-0042?",
    "CN-2026-0042: à quelle facture se rapporte cet avoir ?",
    "Gutschrift CN-2026-0042 - welche Rechnung?",
    "nota di credito CN-2026-0042, a quale fattura si riferisce?",
    "creditnota CN-2026-0042 hoort bij welke factuur?",
    "credit note CN-2026-0042 refer to which invoice?",
    "avoir CN-2026-0042 -> facture initiale ?",
])
def test_credit_note_origin_in_any_language(question: str) -> None:
    result = _route(question)
    assert result.workflow == "credit_note_origin", (result.workflow, result.clarification_question)
    assert document_numbers(question) == ("CN-2026-0042",) or "CN-2026-0042" in document_numbers(question)


_COMPANIES = ("Company A", "company b", "COMP-C")
_SUPPLIER_NAMES = ("Beta Supplies GmbH", "Delta Enclosures", "Gamma Controls")
_PERIODS = ("2026.01～2026.03", "2025/07～2025/12", "2026.02-2026.04", "２０２６．０１～２０２６．０３")
_FRAMES = ("{c} monthly {p} for {s} only", "{s} / {c} / {p} / by month", "{c}, {s}: per month {p} pls")


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_FRAMES), st.sampled_from(_COMPANIES), st.sampled_from(_SUPPLIER_NAMES),
       st.sampled_from(_PERIODS))
def test_metamorphic_never_passages(frame: str, company: str, supplier: str, period: str) -> None:
    """Any order, name spelling or unread period notation: a figure of the scope or a question, never passages."""
    result = _route(frame.format(c=company, s=supplier, p=period))
    assert result.workflow not in PASSAGES, result.question


@pytest.mark.parametrize("question", ["Zahlungsziel im Verpackungsvertrag von Company B am 1. März 2026?",
                                      "Gewährleistung im Laborvertrag von Company A am 1. März 2026?"])
def test_a_clause_of_an_agreement_asked_in_german_is_no_metric(question: str) -> None:
    # the agreement's clause is a document question: searched, never asked back as unread words of a figure
    result = _route(question)
    assert not result.requires_clarification, result.clarification_question


@pytest.mark.parametrize("question", ["Company B Ausgaben im Verpackungsvertrag Q1 2026 with Zorbix?",
                                      "How much did Company A spend in the Laborvertrag with Zorbix in Q1 2026?"])
def test_a_figure_beside_an_agreement_word_is_still_no_passage(question: str) -> None:
    # a figure asked beside the agreement's word is no clause: never passages (the unknown name is asked)
    result = _route(question)
    assert result.requires_clarification or result.workflow not in ("document_answer", "identifier_lookup"), result
