"""Questions that need no period (an agreement's clause, a list price, what is overdue today), written in the
writers' own languages, read as the English the clause, list-price and overdue readers know
(router/foreign_words.py); a spend figure written with the same words keeps its own reading."""

from __future__ import annotations

import pytest

from router.agreement_clauses import clause_topics
from router.entities import Gazetteer
from router.foreign_words import read_foreign_words

EMPTY = Gazetteer()


def _read(text: str) -> str:
    read = read_foreign_words(text, EMPTY)
    return text if read is None else read.text


@pytest.mark.parametrize("term", ["plazo de pago", "prazo de pagamento", "délai de paiement", "termini di pagamento",
                                  "betalingstermijn", "termin płatności", "splatnost", "ödeme vadesi",
                                  "betalningsvillkor"])
@pytest.mark.parametrize("company", ["Company B", "Orbis Handel GmbH"])
def test_a_payment_term_in_any_language_is_the_payment_terms_clause(term: str, company: str) -> None:
    text = _read(f"{company}: {term} del contrato?")
    assert "payment terms" in text
    assert [t.label for t in clause_topics(text)] == ["payment terms"]


@pytest.mark.parametrize("kind", ["contrato de compras", "acuerdo marco", "accord-cadre", "contratto quadro",
                                  "raamovereenkomst", "umowa ramowa", "ramavtal"])
def test_an_agreement_named_by_its_kind_is_the_framework_agreement_never_spend(kind: str) -> None:
    text = _read(f"Company C - {kind}, plazo de pago en días?")
    assert "framework agreement" in text and "spend" not in text
    assert text.endswith(" days?")


@pytest.mark.parametrize(("how_many", "unit"), [("cuántos meses", "months"), ("quantos meses", "months"),
                                               ("combien de mois", "months"), ("hoeveel maanden", "months"),
                                               ("ile miesięcy", "months"), ("kaç ay", "months"),
                                               ("cuántos años", "years"), ("quanti giorni", "days")])
def test_how_many_of_a_duration_unit_is_a_duration(how_many: str, unit: str) -> None:
    assert f"how many {unit}" in _read(f"packaging agreement Kestrel: garantía de {how_many}?")


@pytest.mark.parametrize("warranty", ["garantía", "garantia", "garanzia", "gwarancja", "záruka"])
def test_a_warranty_word_beside_an_agreement_is_the_warranty(warranty: str) -> None:
    assert "warranty" in _read(f"Kestrel packaging agreement: {warranty} de cuántos meses?")


@pytest.mark.parametrize("list_price", ["precio de lista", "preço de lista", "prix catalogue", "prezzo di listino",
                                        "catalogusprijs", "cena katalogowa", "listpris"])
@pytest.mark.parametrize("per", ["según catálogo", "selon le catalogue", "volgens de catalogus", "według katalogu"])
def test_a_list_price_per_catalogue(list_price: str, per: str) -> None:
    text = _read(f"{list_price} del PRD-777 {per}?")
    assert "list price" in text and "per catalogue" in text


@pytest.mark.parametrize(("overdue", "today"), [("vencido e não pago", "hoje"), ("vencidas", "a la fecha"),
                                                 ("échues et non payées", "aujourd'hui"), ("scadute", "ad oggi"),
                                                 ("achterstallige", "vandaag"), ("przeterminowane", "dziś"),
                                                 ("förfallna", "idag")])
def test_overdue_today_in_any_language(overdue: str, today: str) -> None:
    text = _read(f"Company A: {overdue} {today}")
    assert "overdue" in text and text.rstrip().endswith("today")


@pytest.mark.parametrize("text", ["spend with Helix in 2025 (all suppliers)", "contrato de Company A: spend 2025?",
                                  "how many invoices in 2025", "Company A overdue lines in 2025"])
def test_other_questions_keep_their_words(text: str) -> None:
    assert _read(text) == text


@pytest.mark.parametrize("until_when", ["até quando", "hasta cuándo", "jusqu'à quand", "fino a quando",
                                        "tot wanneer", "do kiedy", "până când"])
def test_until_when_in_any_language_asks_for_the_end_date(until_when: str) -> None:
    assert "until when" in _read(f"{until_when} is Supplier Eta approved for Company B?")
