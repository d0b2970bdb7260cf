"""A credit note's referenced invoice in any wording and language, "net of a credit note" as a deduction (gross
unless net is asked), list + total compounds over one scope, money that "went to" approved vendors and the
maverick check: the readers' decisions over generated phrasings; no database."""

from __future__ import annotations

import itertools

import pytest

from router.approval_synonyms import read_approval_fields
from router.invoice_facts import amount_basis, document_request
from router.list_totals import list_total_parts
from router.off_contract import _NEGATION
from router.reader import read
from tests.unit.test_router_routing import AS_OF, GAZETTEER, routed

#: Credit-note id notations: canonical, lower case, underscores, spaces.
_IDS = ("CN-2026-0042", "cn-2026-0042", "CN_2026_0042", "cn 2026-0042")
#: The reference asked, in several languages and word orders ({n}: the credit note).
_REFERENCE = ("confirm the reference invoice of {n}", "{n} - reference invoice?", "Gutschrift {n} - Bezug auf welche "
              "Rechnungsnr.?", "{n}: quelle est la facture d'origine ?", "{n} relates to which invoice?",
              "which invoice is {n} referencing", "{n}: factura de origen?", "fattura di riferimento della {n}?")


@pytest.mark.parametrize(("template", "number"), list(itertools.product(_REFERENCE, _IDS)))
def test_each_wording_and_notation_asks_the_referenced_invoice(template: str, number: str) -> None:
    question = template.format(n=number)
    req = document_request(read(question, GAZETTEER, AS_OF))
    assert req is not None and req.kind == "origin", (question, req)
    assert req.numbers == ("CN-2026-0042",)


def test_several_credit_notes_are_each_looked_up() -> None:
    req = document_request(read("Pls confirm the reference invoices of CN-2026-0042 and cn_2026_0043.", GAZETTEER,
                                AS_OF))
    assert req is not None and req.kind == "origin" and req.numbers == ("CN-2026-0042", "CN-2026-0043")


@pytest.mark.parametrize("text", ["INV-2026-0101 net of credit note CN-2026-0042 - remaining EUR amount?",
                                  "INV-2026-0101 netted against the credit CN-2026-0042: what is left?",
                                  "amount of INV-2026-0101 net of CN-2026-0042"])
def test_net_of_a_credit_note_is_a_deduction_the_remaining_amount_gross(text: str) -> None:
    assert amount_basis(text) == "gross"


@pytest.mark.parametrize("text", ["INV-2026-0101 net of credit note CN-2026-0042, excl. VAT",
                                  "net amount of INV-2026-0101 after CN-2026-0042"])
def test_net_asked_beside_the_credit_note_stays_net(text: str) -> None:
    assert amount_basis(text) == "net"


@pytest.mark.parametrize("joiner", ["and give the total", "and provide the sum", "then tell me the total"])
def test_a_verb_handing_over_the_total_is_no_scope_word(joiner: str) -> None:
    parts = list_total_parts(f"List all Company B invoices from Orbis (counted) {joiner} in EUR.", ("Orbis",))
    assert [p.asked.rsplit(" - ", 1)[1] for p in parts] == ["list", "total"], parts
    assert all("give" not in p.question and "provide" not in p.question and "tell" not in p.question for p in parts)
    # "all" with no period: the whole history for the list and the total alike
    assert all("whole history" in p.question for p in parts)


@pytest.mark.parametrize("bracket", ["(EUR gross)", "(gross, EUR)", "(in EUR)"])
def test_a_bracket_of_the_totals_words_is_no_scope(bracket: str) -> None:
    parts = list_total_parts(f"Company B, Orbis, Jan-Mar 2026: invoice numbers and sum {bracket}.", ("Orbis",))
    assert len(parts) == 2
    assert "(" not in parts[0].question, parts[0].question


@pytest.mark.parametrize("who", ["approved vendors", "approved suppliers", "our approved vendors"])
@pytest.mark.parametrize("verb", ["how much went to", "how much was paid to"])
def test_money_that_went_to_approved_vendors_is_a_figure(verb: str, who: str) -> None:
    result = routed(f"Company A: {verb} {who} in Q1 2026?")
    assert result.workflow != "approved_vendors", result.workflow
    assert any(s.tool == "graph.find_approved_vendors" for s in result.execution_plan)
    assert any(s.tool.startswith("finance.") for s in result.execution_plan)


@pytest.mark.parametrize("text", ["Maverick buying check: spend with vendors outside the approved vendor table",
                                  "maverick spend review Company A Q1", "spend off the approved supplier register"])
def test_the_maverick_check_and_the_approved_table_are_the_negated_approval(text: str) -> None:
    found = _NEGATION.search(text)
    assert found is not None
    assert "check" not in text[found.end():found.end() + 6]


@pytest.mark.parametrize("field", ["vendor_approved", "supplier_approved", "is_approved", "approved", "approval_status",
                                   "vendor_approval_flag"])
@pytest.mark.parametrize(("condition", "side"), [("= true", "approved"), ("=1", "approved"), ("= 'Y'", "approved"),
                                                 ("IS NOT TRUE", "non-approved"), ("= false", "non-approved"),
                                                 ("!= 1", "non-approved"), ("<> 'approved'", "non-approved"),
                                                 ("= 'approved'", "approved")])
def test_an_approval_column_is_the_approved_or_other_vendors(field: str, condition: str, side: str) -> None:
    written = read_approval_fields(f"SELECT SUM(amount) FROM invoices WHERE company='Q' AND {field} {condition} "
                                   "AND quarter='2026-Q1'")
    assert written is not None
    assert f"AND with {side} vendors AND quarter" in written, written


def test_approved_words_that_are_no_column_stay_as_written() -> None:
    assert read_approval_fields("spend with approved vendors in Q1") is None
    assert read_approval_fields("which vendors were approved on 1.1.2026?") is None


@pytest.mark.parametrize("ask", ["invoice numbers", "invoice nos.", "credit note numbers", "invoice ids"])
@pytest.mark.parametrize("scope", ["Company B: {a} from Orbis Q4 2025", "{a} of Company B with Orbis, Jan 2026"])
def test_the_documents_numbers_alone_are_their_listing(ask: str, scope: str) -> None:
    (part,) = list_total_parts(scope.format(a=ask), ("Orbis",))
    assert part.question.startswith("list ") and "Orbis" in part.question, part
