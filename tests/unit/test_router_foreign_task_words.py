"""Task words in other languages (router/foreign_words.py, breakdown_words.py, ranking_words.py).

Metamorphic: the same ranking, share, count, breakdown, approval, duplicate or status ask is written with each
language's task word for the slot, around other companies, suppliers, numbers and periods; the reading must be the
English task word the readers know, and the routed plan the English question's. English words, tenant names and
a money word before "amount" are never read as such a task word.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest

from procura.db.session import AuthContext
from router.breakdown_words import read_breakdown_words
from router.entities import Company, Gazetteer, ProductGroup
from router.foreign_words import NUMBER_WORDS, read_foreign_words
from router.ranking_words import read_ranking_words
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 20)
GAZETTEER = Gazetteer.build(
    [Company("COMP-P", "Pelikan Foods AG", "EUR"), Company("COMP-Q", "Quarzwerk GmbH", "EUR")],
    [("SUP-11", "Norvik Office Supplies"), ("SUP-12", "Castellan Reagents Ltd"), ("SUP-13", "Premier Packaging SE")],
    [("norvik office", "SUP-11"), ("castellan", "SUP-12"), ("premier pack", "SUP-13")],
    [ProductGroup("PG-LAB", "Laboratory Equipment"), ProductGroup("PG-OFF", "Office")],
)
CTX = AuthContext(tenant_id="tenant-7", principal_id="task-words", scopes=frozenset({"invoice:aggregate"}))
METRICS = catalog_metrics(shipped_registry())
COMPANIES = [("Pelikan", "COMP-P"), ("Quarzwerk GmbH", "COMP-Q")]


def _route(question: str):
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _plan(result) -> str:
    return json.dumps([step.model_dump(exclude_none=True) for step in result.execution_plan], default=str)


def _read(question: str) -> str:
    reading = read_foreign_words(question, GAZETTEER)
    return reading.text if reading is not None else question


# --- rankings ------------------------------------------------------------------------------------------------------
TOP_N = [("les {n} plus gros fournisseurs", "fr"), ("los {n} mayores proveedores", "es"),
         ("i {n} maggiori fornitori", "it"), ("os {n} maiores fornecedores", "pt"),
         ("de {n} grootste leveranciers", "nl"),
         ("die {n} größten Lieferanten", "de"), ("de {n} största leverantörerna", "sv"),
         ("{n} største leverandører", "da"), ("{n} najwięksi dostawcy", "pl"), ("{n} suurinta toimittajaa", "fi"),
         ("classement des {n} premiers fournisseurs", "fr"), ("ranglijst van de {n} belangrijkste leveranciers", "nl")]


# (each language's phrase with another number, in words or digits, another company and another period)
_NUMBERS = [("2", "2"), ("3", "3"), ("4", "vier"), ("5", "cinq"), ("3", "tres"), ("2", "twee")]
_SCOPES = [("Pelikan", "Q1 2026"), ("Quarzwerk GmbH", "March 2026"), ("Pelikan", "H2 2025")]


@pytest.mark.parametrize("i,phrase,lang", [(i, *t) for i, t in enumerate(TOP_N)])
def test_top_n_in_every_language_is_the_top_n(i: int, phrase: str, lang: str) -> None:
    for n, typed in (_NUMBERS[i % len(_NUMBERS)], _NUMBERS[(i + 1) % len(_NUMBERS)]):
        company, period = _SCOPES[i % len(_SCOPES)]
        text = _read(f"{phrase.format(n=typed)} {company} {period}")
        assert f"top {n} suppliers" in text and company in text and period in text, (lang, text)


@pytest.mark.parametrize("question,n,cid", [
    ("les 2 plus gros fournisseurs de Pelikan en Q1 2026", 2, "COMP-P"),
    ("classement des 3 premiers fournisseurs, Quarzwerk GmbH, March 2026", 3, "COMP-Q"),
    ("de 4 grootste leveranciers van Pelikan in Q1 2026", 4, "COMP-P"),
    ("Quarzwerk GmbH Q1 2026: die zwei größten Lieferanten", 2, "COMP-Q"),
])
def test_top_n_routes_as_the_ranking(question: str, n: int, cid: str) -> None:
    result = _route(question)
    assert not result.requires_clarification, result.clarification_question
    plan = _plan(result)
    assert "spend_ranking" in plan and f'"limit": {n}' in plan and result.entities.company_id == cid


@pytest.mark.parametrize("phrase", ["le plus gros fournisseur", "el mayor proveedor", "il più grande fornitore",
                                    "o maior fornecedor", "de grootste leverancier", "der größte Lieferant",
                                    "den största leverantören", "największy dostawca", "suurin toimittaja",
                                    "le fournisseur le plus important"])
def test_the_biggest_supplier_is_the_top_one(phrase: str) -> None:
    assert "the top supplier" in _read(f"who is {phrase} of Pelikan in Q1 2026")


def test_number_words_are_no_english_words() -> None:
    # "to", "ti", "fire" would read English text as a ranking's N
    assert not {"to", "ti", "fire", "one", "a"} & set(NUMBER_WORDS)


@pytest.mark.parametrize("question", ["the 2 largest invoices of Pelikan in Q1 2026",
                                      "Premier Packaging spend Pelikan Q1 2026",
                                      "invoices due 2 weeks after March 2026"])
def test_english_and_names_are_no_foreign_ranking(question: str) -> None:
    assert "top" not in _read(question)


# --- shares ---------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("phrase", ["poids de {s} dans le total {c}", "part de {s} dans le total de {c}",
                                    "peso de {s} en el total {c}", "quota di {s} nel totale {c}",
                                    "aandeel van {s} in het totaal {c}", "andel av {s} i totalen {c}",
                                    "udział {s} w total {c}"])
def test_share_words_read_as_share(phrase: str) -> None:
    for supplier, (company, _) in zip(("Castellan Reagents", "Norvik Office"), COMPANIES, strict=True):
        text = _read(phrase.format(s=supplier, c=company) + " Q1 2026 %")
        assert f"share of {supplier}" in text and company in text, text


@pytest.mark.parametrize("how", ["combien de %", "what %", "hoeveel procent", "quel pourcentage", "wie viel %"])
@pytest.mark.parametrize("part", ["Castellan Reagents", "Office"])
def test_an_equation_of_a_percent_of_the_total_is_a_share(how: str, part: str) -> None:
    text = _read(f"{part} = {how} du total Pelikan (Q1 2026) ?")
    assert text.startswith(f"share of {part} in "), text


def test_a_share_word_without_a_total_is_left_alone() -> None:
    assert read_foreign_words("peso de la caja Pelikan", GAZETTEER) is None


@pytest.mark.parametrize("question", [
    "how big part of Pelikan spend is by Castellan Reagents in Q1 2026",
    "how large a share of Quarzwerk GmbH spending was with Norvik Office in March 2026?"])
def test_how_big_a_part_is_the_share(question: str) -> None:
    read = read_ranking_words(question)
    assert read is not None and read.startswith("share of ") and " in " in read


# --- counts, documents, VAT ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed", ["nb factures", "nbre factures", "n° facturen", "nb fakturor", "nb invoices",
                                   "nb avoirs"])
def test_number_shorthand_before_a_document_noun(typed: str) -> None:
    assert _read(f"{typed} Pelikan Q1 2026").startswith("number of ")


@pytest.mark.parametrize("noun", ["credit notas", "faktury korygujące", "faktury korygujace", "kreditfakturor",
                                  "hyvityslaskut", "creditnota's", "notes de crédit"])
def test_credit_note_nouns_count_credit_notes(noun: str) -> None:
    for frame, (company, _) in zip(("number of {w} {c} Q1 2026", "how many {w} did {c} get in Q1 2026"), COMPANIES,
                                   strict=True):
        text = _read(frame.format(w=noun, c=company))
        assert "credit notes" in text and noun not in text and company in text


@pytest.mark.parametrize("noun", ["credit notas", "faktury korygujące"])
def test_credit_note_nouns_route_as_credit_note_count(noun: str) -> None:
    result = _route(f"number of {noun} Pelikan Q1 2026")
    assert not result.requires_clarification, result.clarification_question
    assert "credit_note" in _plan(result) and result.workflow == "invoice_count"


@pytest.mark.parametrize("noun", ["invoices", "facturen", "fakturor", "credit notes"])
def test_the_amount_of_documents_is_their_number_and_their_total(noun: str) -> None:
    # in accounts payable "amount" is the documents' value as often as their number: both, over one scope
    read = _read(f"what is the amount of {noun} from Castellan for Pelikan in Q1 2026")
    assert read.endswith(": how many and total") and "from Castellan for Pelikan in Q1 2026" in read


@pytest.mark.parametrize("question", ["What is the amount of invoices from Castellan for Pelikan in 2025?",
                                      "amount of invoices from Castellan for Pelikan in Q1 2026 ??",
                                      "what's the amount of invoice from Castellan for Pelikan in 2025"])
def test_the_amount_of_invoices_is_never_a_count_alone(question: str) -> None:
    # "amount of invoices" was rewritten as "number of invoices": "4 invoices" answered where the value was meant
    read = _read(question)
    assert "number of" not in read and "how many and total" in read, read


def test_the_number_of_invoices_stays_a_count() -> None:
    assert "total" not in _read("what is the number of invoices from Castellan for Pelikan in 2025")


@pytest.mark.parametrize("money", ["total", "gross", "net", "EUR"])
def test_a_money_amount_of_documents_stays_money(money: str) -> None:
    assert "number of" not in _read(f"the {money} amount of invoices from Castellan for Pelikan in Q1 2026")


@pytest.mark.parametrize("tax", ["PTU", "ALV", "PTU/VAT", "moms"])
def test_vat_names(tax: str) -> None:
    text = _read(f"how much {tax} did we pay on invoices of Pelikan in Q1 2026" if tax != "moms"
                 else "what is the moms on purchases of Pelikan in Q1 2026")
    assert "VAT" in text and "VAT/VAT" not in text and tax.split("/")[0] not in text


# --- approvals, duplicates, statuses -------------------------------------------------------------------------------
@pytest.mark.parametrize("phrase", ["quels fournisseurs sont homologués chez {c}",
                                    "welke leveranciers zijn goedgekeurd bij {c}",
                                    "which leverantörer are godkända at {c}", "jakie dostawcy są zatwierdzeni {c}"])
@pytest.mark.parametrize("company", ["Pelikan", "Quarzwerk GmbH"])
def test_approved_after_a_verb_is_the_approved_list(phrase: str, company: str) -> None:
    text = _read(phrase.format(c=company) + " Q1 2026")
    assert "suppliers are approved" in text and company in text


@pytest.mark.parametrize("phrase", ["factures saisies 2 fois", "facturas registradas dos veces",
                                    "facturen twee keer geboekt",
                                    "fakturor bokförda två gånger", "faktury zaksięgowane dwukrotnie",
                                    "invoices entered two times"])
def test_entered_twice_is_received_twice(phrase: str) -> None:
    assert "received twice" in _read(f"{phrase} chez Pelikan en Q1 2026")


@pytest.mark.parametrize("adjective", ["dubbele", "doppelte", "duplicadas", "duplikaty", "dubletter"])
@pytest.mark.parametrize("noun", ["facturen", "invoices", "fakturor"])
def test_duplicate_adjectives(adjective: str, noun: str) -> None:
    assert "duplicate invoices" in _read(f"are there {adjective} {noun} at Pelikan in 2026")


def test_paid_twice_is_not_a_duplicate_entry() -> None:
    # (a double payment is another audit question than a document entered twice)
    assert "received twice" not in _read("invoices paid twice at Pelikan in 2026")


@pytest.mark.parametrize("listed,english", [
    ("concept, geboekt, betaald, geannuleerd", "draft, posted, paid, cancelled"),
    ("brouillon, comptabilisée, payée, annulée", "draft, posted, paid, cancelled"),
    ("utkast, bokförd, betald, makulerad", "draft, posted, paid, cancelled"),
    ("szkic / zaksięgowana / zapłacona / anulowana", "draft / posted / paid / cancelled")])
def test_statuses_listed_after_status(listed: str, english: str) -> None:
    assert f"status ({english})" in _read(f"Pelikan H2 2025: count of invoices per status ({listed})")


def test_status_words_outside_a_status_list_are_kept() -> None:
    assert "concept" in _read("the concept of spend for Pelikan in Q1 2026")


# --- breakdowns ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("typed,noun", [
    ("par sous-groupe de produits", "product group"), ("per subgroep", "product group"),
    ("per hoofdgroep", "top-level product group"), ("nach Hauptgruppe", "top-level product group"),
    ("per valuta", "currency"), ("według waluty", "currency"), ("per leverancier", "supplier"),
    ("per dostawca", "supplier"), ("per maand", "month"), ("per månad", "month"), ("efter leverandør", "supplier"),
    ("per bedrijf", "company"), ("kuukausittain", "month"), ("toimittajittain", "supplier"),
    ("per months", "month"), ("per quarters", "quarter")])
def test_grouping_nouns_of_other_languages(typed: str, noun: str) -> None:
    for frame in ("{c} spend {b} Q1 2026", "spend Q1 2026 {b}, {c}"):
        text = read_breakdown_words(frame.format(c="Pelikan", b=typed), ())
        assert text is not None and f" {noun}" in text and typed.split()[-1] not in text.split(), text


@pytest.mark.parametrize("question,noun", [
    ("split the spend of Pelikan on suppliers for Q1 2026", "supplier"),
    ("split on currency of invoices of Pelikan, Q1 2026", "currency"),
    ("split March 2026 spend over the companies", "compan")])
def test_split_on_a_dimension_is_a_grouping(question: str, noun: str) -> None:
    text = read_breakdown_words(question, ())
    assert text is not None and f"by {noun}" in text


def test_split_between_named_companies_is_no_grouping_of_the_noun() -> None:
    text = read_breakdown_words("spend split on Company A and Company C in Q1 2026", ("Company A", "Company C"))
    assert text is None or "by Company A" not in text


@pytest.mark.parametrize("typed", ["per months", "split on suppliers", "per valuta"])
def test_breakdowns_route_with_their_grouping(typed: str) -> None:
    result = _route(f"Pelikan Q1 2026 spend {typed}")
    assert not result.requires_clarification, result.clarification_question
    plan = _plan(result)
    assert '"grain": "month"' in plan or "supplier_id" in plan or "currency" in plan


@pytest.mark.parametrize("typed,status", [
    ("geannuleerde facturen", "cancelled"), ("fatture annullate", "cancelled"), ("makulerade fakturor", "cancelled"),
    ("anulowane faktury", "cancelled"), ("betaalde facturen", "paid"), ("fatture pagate", "paid"),
    ("geboekte facturen", "posted"), ("bokförda fakturor", "posted")])
def test_status_adjectives_beside_a_document_noun(typed: str, status: str) -> None:
    for frame in ("hoeveel {t} had {c} in Q1 2026", "{c} Q1 2026: {t}?"):
        text = _read(frame.format(t=typed, c="Pelikan"))
        assert f"{status} invoices" in text and "how much" not in text, text


@pytest.mark.parametrize("typed", ["topp 3 leverantörer", "top-3 suppliers", "Top - 3 vendors"])
def test_top_written_with_a_dash_or_nordic_spelling(typed: str) -> None:
    assert "top 3 " in _read(f"Pelikan {typed} 2025")


@pytest.mark.parametrize("how", ["ile", "kuinka monta", "montako", "hoeveel"])
def test_how_many_words_before_a_document_noun(how: str) -> None:
    assert _read(f"{how} faktur Pelikan Q1 2026").startswith("how many invoices")


@pytest.mark.parametrize("verb", ["comparer les dépenses de", "comparar el gasto de", "confronta la spesa di",
                                  "vergelijk de uitgaven van", "jämför spend för", "porównaj spend", "vertaa spend"])
def test_compare_verbs(verb: str) -> None:
    text = _read(f"{verb} Pelikan entre sept. et oct. 2025")
    assert text.startswith("compare ") and "Pelikan" in text


@pytest.mark.parametrize("clause", ["die zweimal ins System gelaufen sind", "die zweimal ins System eingelesen wurden",
                                    "die mehrfach eingelesen wurden"])
@pytest.mark.parametrize("company", ["Pelikan", "Quarzwerk GmbH"])
def test_german_twice_into_the_system_is_a_duplicate(clause: str, company: str) -> None:
    result = _route(f"{company}: Rechnungen 2025, {clause}?")
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow == "duplicate_documents"


def test_a_german_top_compound_is_left_to_its_reader() -> None:
    assert "Top-5-Lieferanten" in _read("Top-5-Lieferanten Pelikan Q4 2025")
