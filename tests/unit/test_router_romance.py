"""French- and Spanish-speaking controllers: their finance words, notations and short questions read like English.

Metamorphic: one reading (company, supplier, period, measure, basis, breakdown, amount) is rendered in English, in
the mixed English-with-French/Spanish-terms style and in French or Spanish; every rendering must route to the same
workflow and plan as the English one. Slot values come from the router fixtures (companies written with "Cie",
"Société", "Empresa"; periods as T1 / 1T / S1 / French and Spanish months; amounts in decimal-comma notations).
Database-free, seeded, bounded.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from router.periods import resolve_period, slashed_days, unsettled_slashed_day
from router.romance import read_romance, romance_days
from tests.unit.test_router_routing import AS_OF, routed

BOUNDED = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _plan(question: str) -> tuple[str, Any]:
    result = routed(question)
    if result.requires_clarification:
        return result.workflow, result.clarification_question
    return result.workflow, [(s.tool, s.arguments) for s in result.execution_plan]


# --- slots -----------------------------------------------------------------------------------------------------
#: The fixture's companies as these writers prefix them.
COMPANY = {"A": ("Company A", "Cie A", "la Cie A", "Société A", "Empresa A", "la Empresa A", "Sté A", "Cía. A"),
           "B": ("Company B", "Cie B", "Société B", "Empresa B", "la Empresa B"),
           "C": ("Company C", "Cie C", "Société C", "Empresa C")}
#: (English, renderings) of one period each.
PERIODS: dict[str, tuple[str, tuple[str, ...]]] = {
    "q1-26": ("in Q1 2026", ("T1 2026", "au T1 2026", "en el 1T 2026", "1T26", "premier trimestre 2026",
                             "au 1er trimestre 2026", "en el primer trimestre de 2026", "1er trimestre 2026",
                             "T1-2026", "el 1T 2026")),
    "q4-25": ("in Q4 2025", ("T4 2025", "4T 2025", "4T25", "au quatrième trimestre 2025",
                             "en el cuarto trimestre de 2025", "4e trimestre 2025")),
    "h1-26": ("in H1 2026", ("S1 2026", "1S 2026", "au premier semestre 2026", "en el primer semestre de 2026",
                             "1er semestre 2026")),
    "h2-25": ("in H2 2025", ("S2 2025", "2S 2025", "au second semestre 2025", "en el segundo semestre de 2025",
                             "2e semestre 2025")),
    "fy25": ("in FY2025", ("exercice 2025", "sur l'exercice 2025", "ejercicio 2025", "en el ejercicio 2025")),
    "feb-26": ("in February 2026", ("février 2026", "en févr. 2026", "febrero de 2026", "en feb. 2026",
                                    "en febrero 2026")),
    "mar-26": ("in March 2026", ("mars 2026", "en mars 2026", "marzo de 2026", "en marzo de 2026")),
    "jan-26": ("in January 2026", ("janvier 2026", "janv. 2026", "enero 2026", "ene. 2026")),
    "dec-25": ("in December 2025", ("décembre 2025", "déc. 2025", "diciembre de 2025", "dic. 2025")),
    "since-3feb": ("since 2026-02-03", ("depuis le 03/02/2026", "depuis le 3 févr. 2026", "desde el 3 de febrero de "
                                        "2026", "desde el 03/02/2026", "depuis le 3 février 2026")),
}
SUPPLIER = {"SUP-18": ("Supplier Beta", ("chez Supplier Beta", "con Supplier Beta", "auprès de Supplier Beta",
                                          "with fournisseur Supplier Beta", "con el proveedor Supplier Beta")),
            "SUP-27": ("Supplier Gamma", ("chez Supplier Gamma", "con Supplier Gamma",
                                           "with proveedor Supplier Gamma"))}

#: (English frame, romance frames): {c} company, {p} period, {s} supplier phrase.
SPEND = ("{c} spend {p}", ("{c} dépenses {p}", "Dépenses de {c} {p}", "Gasto de {c} {p}", "Gastos {c} {p}",
                           "{c} gasto {p}", "Quel est le total des factures de {c} {p} ?",
                           "Montant total des factures de {c} {p}", "Importe total de las facturas de {c} {p}"))
WITH_SUPPLIER = ("{c} spend with {s} {p}", ("Dépenses de {c} {s} {p}", "Gasto de {c} {s} {p}",
                                             "Combien {c} a dépensé {s} {p} ?", "¿Cuánto gastó {c} {s} {p}?"))
NET = ("{c} spend net of VAT {p}", ("{c} spend HT {p}", "{c} dépenses hors taxes {p}", "{c} gasto sin IVA {p}",
                                    "{c} spend base imponible {p}", "Dépenses HT de {c} {p}"))
GROSS = ("{c} spend including VAT {p}", ("{c} spend TTC {p}", "{c} gasto con IVA {p}", "Dépenses TTC de {c} {p}"))
COUNT = ("number of invoices of {c} {p}", ("Nombre de factures de {c} {p}", "Combien de factures pour {c} {p} ?",
                                           "¿Cuántas facturas tiene {c} {p}?", "Número de facturas de {c} {p}",
                                           "{c} nombre de factures {p}"))
BY_MONTH = ("{c} spend by month {p}", ("Dépenses de {c} par mois {p}", "Gasto por mes de {c} {p}",
                                       "{c} spend por mes {p}", "{c} dépenses mensuelles {p}"))
BY_SUPPLIER = ("{c} spend by supplier {p}", ("Dépenses par fournisseur de {c} {p}", "Gasto por proveedor de {c} {p}",
                                             "{c} spend par fournisseur {p}"))
CREDIT = ("{c} credit notes {p}", ("Avoirs de {c} {p}", "Notas de crédito de {c} {p}", "{c} abonos {p}",
                                   "{c} avoirs {p}"))
FRAMES = (SPEND, NET, GROSS, COUNT, BY_MONTH, BY_SUPPLIER, CREDIT)


@given(st.data(), st.sampled_from(FRAMES), st.sampled_from(sorted(COMPANY)), st.sampled_from(sorted(PERIODS)))
@seed(808)
@BOUNDED
def test_a_romance_rendering_routes_as_its_english_twin(data: st.DataObject, frame: tuple[str, tuple[str, ...]],
                                                        company: str, period: str) -> None:
    english = frame[0].format(c=COMPANY[company][0], p=PERIODS[period][0])
    rendered = data.draw(st.sampled_from(frame[1])).format(c=data.draw(st.sampled_from(COMPANY[company])),
                                                           p=data.draw(st.sampled_from(PERIODS[period][1])))
    assert _plan(rendered) == _plan(english), (rendered, read_romance(rendered), english)


@given(st.data(), st.sampled_from(sorted(COMPANY)), st.sampled_from(sorted(PERIODS)), st.sampled_from(sorted(SUPPLIER)))
@seed(809)
@BOUNDED
def test_a_supplier_named_in_french_or_spanish_routes_as_in_english(data: st.DataObject, company: str, period: str,
                                                                    supplier: str) -> None:
    name, phrases = SUPPLIER[supplier]
    english = WITH_SUPPLIER[0].format(c=COMPANY[company][0], s=name, p=PERIODS[period][0])
    rendered = data.draw(st.sampled_from(WITH_SUPPLIER[1])).format(
        c=data.draw(st.sampled_from(COMPANY[company])), s=data.draw(st.sampled_from(phrases)),
        p=data.draw(st.sampled_from(PERIODS[period][1])))
    assert _plan(rendered) == _plan(english), (rendered, read_romance(rendered), english)


#: Thresholds in decimal-comma notations, and the comparators of both languages.
AMOUNTS = {"12500.50": ("12 500,50 €", "12.500,50 EUR", "12\u00a0500,50 €", "12500,50 EUR"),
           "1234500": ("1 234,5 k€", "1.234,5 k€"), "5000": ("5 000 €", "5.000 EUR", "5000 €")}


@given(st.data(), st.sampled_from(sorted(AMOUNTS)), st.sampled_from(sorted(COMPANY)),
       st.sampled_from(["q1-26", "h2-25", "fy25", "mar-26"]))
@seed(810)
@BOUNDED
def test_thresholds_in_decimal_comma_notation_read_as_in_english(data: st.DataObject, amount: str, company: str,
                                                                 period: str) -> None:
    above = data.draw(st.booleans())
    english = f"{COMPANY[company][0]} invoices {'over' if above else 'under'} {amount} EUR {PERIODS[period][0]}"
    words = ("supérieures à", "de plus de", "de más de", "superiores a") if above else \
        ("inférieures à", "de moins de", "de menos de", "inferiores a")
    rendered = (f"{data.draw(st.sampled_from(('Factures', 'Facturas')))} de "
                f"{data.draw(st.sampled_from(COMPANY[company]))} {data.draw(st.sampled_from(words))} "
                f"{data.draw(st.sampled_from(AMOUNTS[amount]))} {data.draw(st.sampled_from(PERIODS[period][1]))}")
    assert _plan(rendered) == _plan(english), (rendered, read_romance(rendered), english)


# --- hand-written sub-classes -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("romance", "english"), [
    ("Quel est le total des factures de la Cie A au T1 2026 ?", "Company A spend in Q1 2026"),
    ("¿Cuánto gastó Company B con Supplier Beta en el primer semestre de 2026?",
     "Company B spend with Supplier Beta in H1 2026"),
    ("Combien avons-nous dépensé chez Supplier Gamma avec la Cie C en 2025 ?",
     "Company C spend with Supplier Gamma in 2025"),
    ("Top 5 fournisseurs de la Cie A en 2025", "Top 5 suppliers of Company A in 2025"),
    ("Los 5 principales proveedores de la Empresa B en 2025", "Top 5 suppliers of Company B in 2025"),
    ("Les 3 plus gros fournisseurs de la Société C au S2 2025", "Top 3 suppliers of Company C in H2 2025"),
    ("Dépenses de la Cie A hors Supplier Beta au T1 2026", "Company A spend excluding Supplier Beta in Q1 2026"),
    ("Gasto de la Empresa A excepto Supplier Gamma en 2025", "Company A spend excluding Supplier Gamma in 2025"),
    ("Company A dépenses le trimestre dernier", "Company A spend last quarter"),
    ("Gasto de la Empresa A el mes pasado", "Company A spend last month"),
    # the last day of "du ... au ..." / "del ... al ..." is included
    ("Dépenses Cie A du 01/02/2026 au 15/03/2026", "Company A spend since 2026-02-01 until 2026-03-15"),
    ("Gasto Empresa B del 1 de enero al 31 de marzo de 2026", "Company B spend since 2026-01-01 until 2026-03-31"),
    ("Gasto Empresa C desde el 03/02/2026 hasta el 10/04/2026", "Company C spend since 2026-02-03 until 2026-04-10"),
    ("Company A spend entre le 01/02/2026 et le 15/03/2026", "Company A spend since 2026-02-01 until 2026-03-15"),
    ("Company A spend entre janvier et mars 2026", "Company A spend from January to March 2026"),
    ("Company B gasto de enero a marzo de 2026", "Company B spend from January to March 2026"),
    ('Liste des factures de la Cie A au T1 2026', 'List invoices of Company A in Q1 2026'),
    ('Lista de facturas de la Empresa B en marzo de 2026', 'List invoices of Company B in March 2026'),
    ('Montant de TVA de la Cie A au T1 2026', 'VAT total for Company A in Q1 2026'),
    ('Factures impayées de la Cie A', 'unpaid invoices of Company A'),
    ('Quel a été le total des dépenses de la Cie B en 2025 ?', 'Company B spend in 2025'),
    ('Quelles ont été les dépenses de la Société C au T2 2025 ?', 'Company C spend in Q2 2025'),
    ('¿Cuál fue el gasto total de la Empresa A en 2025?', 'Company A spend in 2025'),
    ('¿Cuál es el importe total de las facturas de la Empresa B en el 4T 2025?', 'Company B spend in Q4 2025'),
    ('Dépenses de la Cie A avec Supplier Beta et Supplier Gamma au T1 2026',
     'Company A spend with Supplier Beta and Supplier Gamma in Q1 2026'),
    ('Company A spend T1 2026 vs T1 2025', 'Company A spend Q1 2026 vs Q1 2025'),
    ('Dépenses de la Cie A au T1 2026 par rapport au T4 2025', 'Company A spend Q1 2026 vs Q4 2025'),
    ('Company B dépenses cette année', 'Company B spend this year'),
    ('Gasto de la Empresa C este trimestre', 'Company C spend this quarter'),
    ('Company A gasto en lo que va de año', 'Company A spend year to date'),
    ("Dépenses de la Cie A depuis le début de l'année", 'Company A spend year to date'),
    ('Facture la plus élevée de la Cie A au T1 2026', 'largest invoice of Company A in Q1 2026'),
    ('Moyenne par facture de la Cie A au T1 2026', 'average invoice value of Company A in Q1 2026'),
    ('Dépenses totales toutes sociétés au T1 2026', 'total spend of all companies in Q1 2026'),
    ('Gasto de todas las empresas en el 1T 2026', 'total spend of all companies in Q1 2026'),
    ('Company A spend 1er trimestre', 'Company A spend in the first quarter'),
    ('Combien avons-nous payé à Supplier Beta au T1 2026 ?', 'how much did we pay Supplier Beta in Q1 2026'),
])
def test_whole_questions_route_as_their_english_twins(romance: str, english: str) -> None:
    assert _plan(romance) == _plan(english), (romance, read_romance(romance))


@pytest.mark.parametrize("question", [
    "Company A spend by centre de coût Q1 2026", "Gasto de la Empresa A por centro de coste en el 1T 2026",
    "Dépenses de la Cie B par centre de coûts en 2025", "Cie C spend per centro de costo T4 2025",
])
def test_a_cost_centre_is_named_as_not_understood(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification, (question, read_romance(question))
    assert "cost centre" in (result.clarification_question or "")


def test_the_answer_states_the_reading() -> None:
    result = routed("Dépenses de la Cie A au T1 2026")
    assert "French/Spanish phrasing read as 'spend of Company A Q1 2026'" in result.interpretation


@pytest.mark.parametrize("question", [
    "Company A spend in Q1 2026", "Top 5 suppliers of Company B last quarter?",
    "List invoices of Company A dated between 29/12/2025 and 31/12/2025", "Spend with Supplier Beta in March 2026",
    "How many credit notes did Ypsilon get since 01/01/2025?", "Company C spend H2 2025 by month",
    "Mars Inc spend in 2025", "invoices over 12,500.50 EUR in 2025", "Company A con-call costs Q1 2026",
])
def test_english_questions_pass_unchanged(question: str) -> None:
    assert read_romance(question) is None


@pytest.mark.parametrize(("text", "iso"), [
    ("depuis le 3 févr. 2026", "2026-02-03"), ("el 3 de febrero de 2026", "2026-02-03"),
    ("le 03/02/2026", "2026-02-03"), ("le 1er mars 2026", "2026-03-01"), ("el 15 de diciembre de 2025", "2025-12-15"),
    ("au 31/12/25", "2025-12-31"), ("le 7 janv. 2026", "2026-01-07"), ("el 9 sept. 2025", "2025-09-09"),
])
def test_day_first_days_of_these_writers(text: str, iso: str) -> None:
    assert iso in romance_days(text)


def test_an_impossible_day_is_left_for_the_reader() -> None:
    assert romance_days("le 31/02/2026") == "le 31/02/2026"


# --- slashed days in English: decided by the question, else asked back naming both readings -------------------
@pytest.mark.parametrize("question", [
    "Company A spend since 03/02/2026", "Company B spend from 04/05/2025 to 06/07/2025",
    "invoices of Company C dated 11/10/2025", "Company A spend until 02/03/2026",
])
def test_an_unsettled_slashed_day_is_asked_back_with_both_readings(question: str) -> None:
    resolution = resolve_period(question, AS_OF)
    assert resolution.time_range is None and resolution.ambiguous
    assert "day first" in (resolution.reason or "") and "month first" in (resolution.reason or "")
    assert unsettled_slashed_day(question) is not None


@pytest.mark.parametrize(("question", "start"), [
    ("Company A spend from 01.02.2026 to 03/04/2026", "2026-02-01"),  # a dotted day: day first
    ("Company A spend between 03/02/2026 and 28/02/2026", "2026-02-03"),  # a day above 12: day first
    ("Company A spend between 02/03/2026 and 02/28/2026", "2026-02-03"),  # a month part above 12: month first
    ("Company A spend since 04/04/2026", "2026-04-04"),  # the same both ways
    ("Dépenses de la Cie A depuis le 03/02/2026", "2026-02-03"),  # French: day first
    ("Gasto de la Empresa A desde el 03/02/2026", "2026-02-03"),  # Spanish: day first
])
def test_a_slashed_day_settled_by_the_question(question: str, start: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, result.clarification_question
    starts = [s.arguments.get("start_date") or s.arguments.get("parameters", {}).get("start_date")
              for s in result.execution_plan]
    assert start in starts, (slashed_days(question), starts)


@pytest.mark.parametrize(("order", "start"), [("day_first", "2026-02-03"), ("month_first", "2026-03-02")])
def test_the_deployment_setting_settles_a_slashed_day(monkeypatch: pytest.MonkeyPatch, order: str, start: str) -> None:
    monkeypatch.setenv("PROCURA_SLASH_DATE_ORDER", order)
    resolution = resolve_period("Company A spend since 03/02/2026", AS_OF)
    assert resolution.time_range is not None and resolution.time_range.start.isoformat() == start


def test_a_name_that_starts_with_a_prefix_word_is_kept_whole() -> None:
    assert read_romance("Dépenses chez Société Générale au T1 2026", keep=["Société Générale"]) == \
        "spend with Société Générale Q1 2026"
    assert read_romance("Dépenses chez Société Kestrel au T1 2026") == "spend with Kestrel Q1 2026"


@pytest.mark.parametrize("question", [
    "Dépenses de la Cie A par région au T1 2026", "Gasto de la Empresa B por departamento en 2025",
    "Company C spend por proyecto T4 2025", "Dépenses de la Cie A par acheteur au S1 2026",
    "Dépenses de la Cie A au T5 2026", "Gasto de la Empresa B en el 6T 2025", "Company C spend S3 2025",
])
def test_what_the_data_does_not_have_is_asked_never_answered(question: str) -> None:
    result = routed(question)
    assert result.requires_clarification, (question, read_romance(question))
