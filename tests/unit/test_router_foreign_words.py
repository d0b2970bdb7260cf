"""Foreign and plain entity / measure words (router/foreign_words.py), read as the concepts the reader knows.

Metamorphic: the same ask is written with each language's word for the slot (invoice, supplier, VAT basis, money,
the number of, biggest, approved) and each language's name of a product group, around other companies, suppliers
and periods; the routed reading must be the one of the English question. Unknown group-like words are asked back,
never dropped; a tenant's name is never rewritten.
"""

from __future__ import annotations

import datetime as dt

import pytest

from procura.db.session import AuthContext
from router.entities import Company, Gazetteer, ProductGroup
from router.foreign_words import read_foreign_words
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 20)
GAZETTEER = Gazetteer.build(
    [Company("COMP-P", "Pelikan Foods AG", "EUR"), Company("COMP-Q", "Quarzwerk GmbH", "EUR")],
    [("SUP-11", "Norvik Office Supplies"), ("SUP-12", "Castellan Reagents Ltd"), ("SUP-13", "Tormund Packaging SE"),
     ("SUP-14", "Supplier Omega")],
    [("norvik office", "SUP-11"), ("castellan", "SUP-12"), ("tormund pack", "SUP-13")],
    [ProductGroup("PG-LAB", "Laboratory Equipment"), ProductGroup("PG-LABC", "Lab Consumables", "PG-LAB"),
     ProductGroup("PG-OFF", "Office"), ProductGroup("PG-SHIP", "Shipping Services"),
     ProductGroup("PG-PACK", "Packaging"), ProductGroup("PG-BOX", "Boxes", "PG-PACK")],
)
CTX = AuthContext(tenant_id="tenant-7", principal_id="foreign-words", scopes=frozenset({"invoice:aggregate"}))
METRICS = catalog_metrics(shipped_registry())
PERIODS = [("in Q2 2025", dt.date(2025, 4, 1), dt.date(2025, 7, 1)),
           ("March 2026", dt.date(2026, 3, 1), dt.date(2026, 4, 1)),
           ("H1 2025", dt.date(2025, 1, 1), dt.date(2025, 7, 1))]
COMPANIES = [("Pelikan", "COMP-P"), ("Quarzwerk GmbH", "COMP-Q")]


def _route(question: str):
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))


def _period(result) -> tuple[dt.date, dt.date]:
    tr = result.constraints.time_range
    return tr.start, tr.end


@pytest.mark.parametrize("word", ["facturen", "fatture", "faturas", "fakturor", "faktury"])
@pytest.mark.parametrize("frame", ["how many {w} did {c} receive {p}?", "# {w} {c} {p}", "number of {w} {p} {c}",
                                   "quante {w} {c} {p}", "aantal {w} {c} {p}"])
@pytest.mark.parametrize("company,period", [("Pelikan", PERIODS[0][0]), ("Quarzwerk GmbH", PERIODS[2][0])])
def test_invoice_words_read_as_invoices(word: str, frame: str, company: str, period: str) -> None:
    reading = read_foreign_words(frame.format(w=word, c=company, p=period), GAZETTEER)
    assert reading is not None and "invoices" in reading.text and word not in reading.text
    assert company in reading.text and period.split()[-1] in reading.text


@pytest.mark.parametrize("word,company,cid,period", [
    ("facturen", "Pelikan", "COMP-P", PERIODS[0]), ("fatture", "Quarzwerk GmbH", "COMP-Q", PERIODS[1]),
    ("faturas", "Pelikan", "COMP-P", PERIODS[2])])
def test_invoice_words_count_invoices(word: str, company: str, cid: str, period: tuple[str, dt.date, dt.date]) -> None:
    result = _route(f"number of {word} {period[0]} {company}")
    assert not result.requires_clarification, result.clarification_question
    assert result.entities.company_id == cid and _period(result) == period[1:]


@pytest.mark.parametrize("word", ["fornecedor", "leverancier", "fornitore", "leverantör", "dostawca"])
@pytest.mark.parametrize("money", ["money spent with", "any money to", "money paid to", "geld to", "soldi a"])
@pytest.mark.parametrize("sup", ["Castellan Reagents", "Tormund Packaging"])
def test_money_and_supplier_words_read(word: str, money: str, sup: str) -> None:
    reading = read_foreign_words(f"Pelikan {money} {word} {sup} March 2026", GAZETTEER)
    assert reading is not None and word not in reading.text and "money" not in reading.text
    assert "spend" in reading.text and f"supplier {sup}" in reading.text


@pytest.mark.parametrize("word,money,sup,sid", [
    ("fornecedor", "money spent with", "Castellan Reagents", "SUP-12"),
    ("leverancier", "any money to", "Tormund Packaging", "SUP-13"),
    ("fornitore", "money paid to", "Castellan Reagents", "SUP-12")])
def test_money_and_supplier_words_are_supplier_spend(word: str, money: str, sup: str, sid: str) -> None:
    result = _route(f"Pelikan {money} {word} {sup} March 2026")
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow == "spend"
    assert tuple(result.entities.supplier_ids) == (sid,) and result.entities.company_id == "COMP-P"


@pytest.mark.parametrize("basis", ["without BTW", "excl. BTW", "zonder btw", "senza IVA", "sem IVA", "IVA esclusa",
                                   "exkl. moms", "ex MwSt", "ohne MwSt"])
def test_vat_basis_words_are_net(basis: str) -> None:
    reading = read_foreign_words(f"how much did Pelikan pay in Q1 2026 {basis}?", GAZETTEER)
    assert reading is not None and "excluding VAT" in reading.text


@pytest.mark.parametrize("tax", ["only the BTW part of the facturen", "the IVA amount of the fatture", "BTW-bedrag",
                                 "importo IVA", "valor do IVA"])
def test_vat_part_words_ask_the_tax(tax: str) -> None:
    reading = read_foreign_words(f"Quarzwerk - {tax} H2 2025", GAZETTEER)
    assert reading is not None and "VAT" in reading.text and "BTW" not in reading.text


def test_btw_as_chat_word_is_left_alone() -> None:
    assert read_foreign_words("btw, spend with Castellan in Q1 2026", GAZETTEER) is None


@pytest.mark.parametrize("phrase,gid", [
    ("kantoorartikelen", "PG-OFF"), ("articoli per ufficio", "PG-OFF"), ("artigos de escritório", "PG-OFF"),
    ("labapparatuur", "PG-LAB"), ("attrezzature di laboratorio", "PG-LAB"), ("equipamento de laboratório", "PG-LAB"),
    ("lab verbruiksmateriaal", "PG-LABC"), ("consumabili lab", "PG-LABC"), ("consumíveis de laboratório", "PG-LABC"),
    ("shipping svcs", "PG-SHIP"), ("verzendkosten", "PG-SHIP"), ("spedizioni", "PG-SHIP"),
    ("verpakkingen", "PG-PACK"), ("imballaggi", "PG-PACK"), ("kartonnen", "PG-BOX"),
])
@pytest.mark.parametrize("frame", ["{c} spend on {g} {p}", "{c}: total for {g} {p}", "{g} money spent {p} - {c}"])
def test_group_names_in_other_languages(phrase: str, gid: str, frame: str) -> None:
    reading = read_foreign_words(frame.format(c="Pelikan", g=phrase, p=PERIODS[1][0]), GAZETTEER)
    name = {g.product_group_id: g.group_name for g in GAZETTEER.product_groups}[gid]
    assert reading is not None and name in reading.text and (phrase, name) in reading.read


@pytest.mark.parametrize("phrase,gid,frame", [
    ("kantoorartikelen", "PG-OFF", "{c}: total for {g} {p}"),
    ("consumabili lab", "PG-LABC", "{g} money spent {p} - {c}"),
    ("shipping svcs", "PG-SHIP", "{c} spend on {g} {p}"), ("labapparatuur", "PG-LAB", "{c} spend on {g} {p}")])
def test_group_names_in_other_languages_route(phrase: str, gid: str, frame: str) -> None:
    period, start, end = PERIODS[1]
    result = _route(frame.format(c="Pelikan", g=phrase, p=period))
    assert not result.requires_clarification, result.clarification_question
    assert result.entities.product_group_id == gid and _period(result) == (start, end)


@pytest.mark.parametrize("frame", ["{c} spend on {g} {p}", "{c}: total for {g} {p}", "{g} money spent {p} - {c}",
                                   "{c} money for {g} {p}"])
@pytest.mark.parametrize("word", ["werkkleding", "brinquedos"])
def test_unknown_group_like_word_is_asked_back(frame: str, word: str) -> None:
    result = _route(frame.format(c="Quarzwerk", g=word, p="Q1 2026"))
    assert result.requires_clarification
    assert word in (result.clarification_question or "")


@pytest.mark.parametrize("typed,sid", [("Tormnd", "SUP-13"), ("Castelan", "SUP-12")])
@pytest.mark.parametrize("frame", ["how much did we pay {s} in Q1 2026? Pelikan", "Pelikan money to {s} Q1 2026"])
def test_supplier_one_edit_typo(typed: str, sid: str, frame: str) -> None:
    result = _route(frame.format(s=typed))
    assert not result.requires_clarification, result.clarification_question
    assert tuple(result.entities.supplier_ids) == (sid,)


def test_typo_near_two_suppliers_is_not_guessed() -> None:
    gazetteer = Gazetteer.build([Company("COMP-P", "Pelikan Foods AG", "EUR")],
                                [("SUP-1", "Orbis Packaging"), ("SUP-2", "Orbit Tools")], [], [])
    assert read_foreign_words("how much did we pay Orbi in Q1 2026", gazetteer) is None


@pytest.mark.parametrize("ask", ["who are we allowed to buy from at {c} in {p}?",
                                 "which leveranciers are approved for {c} in {p}?", "fornitori autorizzati {c} {p}",
                                 "who may we order from at {c} {p}"])
def test_allowed_to_buy_from_is_the_approved_list(ask: str) -> None:
    result = _route(ask.format(c="Quarzwerk", p="March 2026"))
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow == "approved_vendors" or "approved" in result.execution_plan[0].tool


def test_names_are_never_rewritten() -> None:
    gazetteer = Gazetteer.build([Company("COMP-P", "Pelikan Foods AG", "EUR")],
                                [("SUP-1", "Fornitore Spedizioni Srl")], [], [ProductGroup("PG-SHIP", "Shipping")])
    reading = read_foreign_words("Pelikan spend with Fornitore Spedizioni Srl in Q1 2026", gazetteer)
    assert reading is None


@pytest.mark.parametrize("word", ["biggest leverancier", "grootste leverancier", "fornitore principale",
                                  "maior fornecedor"])
def test_biggest_supplier_is_the_top_one(word: str) -> None:
    result = _route(f"{word} of Pelikan in H2 2025?")
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow in ("spend", "ranking") or "rank" in str(result.execution_plan).lower()


@pytest.mark.parametrize("tail", ["how much in total?", "how much altogether", "how much overall pls"])
@pytest.mark.parametrize("head", ["Pelikan fatture from Castellan in March 2026",
                                  "Quarzwerk invoices from Tormund Q1 2026"])
def test_invoices_then_how_much_in_total_is_one_ask(head: str, tail: str) -> None:
    from router.compound import split_asks
    from router.reader import read

    question = (read_foreign_words(head, GAZETTEER) or _Same(head)).text + ", " + tail
    assert split_asks(question, lambda t: read(t, GAZETTEER, AS_OF)) == ()


class _Same:
    def __init__(self, text: str) -> None:
        self.text = text


@pytest.mark.parametrize("purpose", ["for the MEC commentary", "for my monthly slides", "for the board deck",
                                     "for the QBR presentation"])
def test_the_deliverable_a_figure_goes_into_is_context(purpose: str) -> None:
    from router.context_noise import set_aside_context

    context = set_aside_context(f"Pelikan spend March 2026 {purpose}", ["Pelikan Foods AG"])
    assert purpose not in context.text and context.aside


def test_a_name_before_commentary_is_kept() -> None:
    from router.context_noise import set_aside_context

    context = set_aside_context("Pelikan spend March 2026 for the Quarzwerk commentary", ["Quarzwerk GmbH"])
    assert "Quarzwerk" in context.text


@pytest.mark.parametrize("period,quarter", [("kwartaal 3 2025", "Q3 2025"), ("4e kwartaal 2025", "Q4 2025"),
                                            ("2t26", "Q2 2026"), ("kwartaal 1 van 2026", "Q1 2026")])
def test_a_quarter_beside_foreign_words_is_never_the_year(period: str, quarter: str) -> None:
    # the Dutch quarters are router/period_words.py's (read when the question is cleaned); "2t26" is read here
    start, end = _period(_route(f"Pelikan money to Castellan {period}"))
    year, q = int(quarter.split()[1]), int(quarter[1])
    assert start == dt.date(year, 3 * q - 2, 1) and (end - start).days in (90, 91, 92)


# --- negatives: words that look like the vocabulary but ask something else -----------------------------------------
@pytest.mark.parametrize("question", ["what could we order from Supplier Omega for Pelikan?",
                                      "what can we buy from Castellan for Quarzwerk GmbH",
                                      "which items could I purchase from Norvik Office at Pelikan?"])
def test_buying_from_a_supplier_without_a_permission_word_is_no_approved_list(question: str) -> None:
    reading = read_foreign_words(question, GAZETTEER)
    assert reading is None or "approved" not in reading.text


@pytest.mark.parametrize("question", ["who are we allowed to buy from at Pelikan", "who may we order from, Pelikan",
                                      "which vendors are we authorised to purchase from for Quarzwerk GmbH"])
def test_buying_from_with_a_permission_word_is_the_approved_list(question: str) -> None:
    reading = read_foreign_words(question, GAZETTEER)
    assert reading is not None and "approved" in reading.text


@pytest.mark.parametrize("question", ["money we got back from Supplier Omega in Q1 2026, Pelikan",
                                      "money back from Castellan H1 2025 Pelikan",
                                      "money refunded by Castellan in March 2026, Quarzwerk GmbH",
                                      "any money credited or owed to Pelikan by Castellan?"])
def test_money_coming_back_is_no_spend(question: str) -> None:
    reading = read_foreign_words(question, GAZETTEER)
    assert reading is None or ("spend" not in reading.text and "spendt" not in reading.text)


@pytest.mark.parametrize("question", ["money we got back from Supplier Omega in Q1 2026, Pelikan",
                                      "Pelikan: money back from Castellan H1 2025?",
                                      "money they paid back to Quarzwerk GmbH, Castellan, March 2026"])
def test_money_given_back_by_a_supplier_is_its_credit_notes(question: str) -> None:
    """Money back from a supplier is what its credit notes hold; read as spend it was the whole spend, silently."""
    reading = read_foreign_words(question, GAZETTEER)
    assert reading is not None and "credit notes" in reading.text and "money" not in reading.text
    steps = _route(question).execution_plan
    assert steps and all("spend" not in str(s.arguments.get("document_types", "")) for s in steps)
    assert any("credit" in str(s.arguments).lower() for s in steps), steps


@pytest.mark.parametrize("question", ["VAT share of Pelikan spend Q1 2026", "BTW share of the Pelikan facturen",
                                      "IVA % of Quarzwerk GmbH spend H1 2025", "btw share Pelikan March 2026"])
def test_a_vat_share_is_not_the_vat_amount(question: str) -> None:
    reading = read_foreign_words(question, GAZETTEER)
    assert reading is None or "VAT part" not in reading.text


def test_a_vat_part_is_still_the_vat_amount() -> None:
    reading = read_foreign_words("only the BTW part of the facturen Pelikan Q1 2026", GAZETTEER)
    assert reading is not None and "VAT part" in reading.text


@pytest.mark.parametrize("phrase", ["lab consumables and laboratory equipment", "office and packaging",
                                    "shipping services & boxes"])
def test_english_group_runs_are_left_to_the_reader(phrase: str) -> None:
    assert read_foreign_words(f"Pelikan spend on {phrase} in Q1 2026", GAZETTEER) is None
