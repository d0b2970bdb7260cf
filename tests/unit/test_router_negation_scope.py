"""Negation scope (no database): a "not / without / except / sem / sin / ohne / NO / hariç" cue, before, after or in
a bracket around a constraint, leaves that constraint out (or, for "net of", nets the credit notes in) in every
language of the cue table; the constraint is never read as asked. Metamorphic suites vary the cue, its language
and position, the scoped constraint (document type, approval, supplier, basis) and the rest of the question."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from router.analysis import document_type_scope
from router.negation_scope import (
    EXCLUDED_AFTER,
    NEGATED_APPROVAL,
    NETTED_BEFORE,
    WITHOUT_BEFORE,
    negated,
    negation_after,
    negation_before,
)
from router.off_contract import EXCLUDE_STEP
from router.silent_checks import inverted_document_type
from tests.unit.test_router_analysis import FAST, PERIODS, routed

INVOICE = ("invoice",)
CREDIT = ("credit_note",)
BOTH = ("invoice", "credit_note")
#: Credit-note nouns as the document reader sees them (the writers' nouns are written in English before it).
_NOUNS = ("credit notes", "credit note", "credit memos", "Gutschriften")
_HEADS = ("Company A spend in Q1 2026", "how many invoices for Company B in H2 2025?", "Kestrel total 2026/01～04",
          "Company A: gasto con Supplier Beta 1T 2026")
#: Prefix cues of many languages, written before the noun ("sem notas", "hors avoirs", "zonder creditnota's").
_PREFIX = ("without", "excluding", "except", "other than", "apart from", "sin", "sem", "sans", "hors", "ohne",
           "außer", "senza", "tranne", "zonder", "behalve", "bez", "oprócz", "w/o", "excl.", "exkl.", "no", "not",
           "não", "sin contar", "sem contar", "sans compter", "do not include", "hariç", "除了", "不含")
#: Postfix cues, written after the noun ("credit notes excluded", "(credit note exclude)").
_POSTFIX = ("excluded", "exclude", "not included", "not include", "not counted", "excluidas", "excluídas",
            "não incluídas", "exclues", "non incluse", "ausgenommen", "ausgeschlossen", "uitgesloten",
            "wyłączone", "hariç", "除く", "left out")
_NETTED = ("net of", "neto de", "neto of", "líquido de", "after", "netto van", "nach Abzug von", "al netto di")


@given(st.sampled_from(_HEADS), st.sampled_from(_PREFIX), st.sampled_from(_NOUNS),
       st.sampled_from(("{c} {n}", "({c} {n})", "- {c} the {n}", "[{c} {n}]")))
@FAST
def test_a_prefix_cue_leaves_the_credit_notes_out(head: str, cue: str, noun: str, shape: str) -> None:
    phrase = shape.format(c=cue, n=noun)
    assert document_type_scope(f"{head} {phrase}")[0] == INVOICE, phrase


@given(st.sampled_from(_HEADS), st.sampled_from(_POSTFIX), st.sampled_from(_NOUNS),
       st.sampled_from(("{n} {c}", "({n} {c})", "- {n}: {c}", "{n} are {c}.")))
@FAST
def test_a_postfix_cue_leaves_the_credit_notes_out(head: str, cue: str, noun: str, shape: str) -> None:
    phrase = shape.format(c=cue, n=noun)
    assert document_type_scope(f"{head} {phrase}")[0] == INVOICE, phrase


@pytest.mark.parametrize("cue", _NETTED)
@pytest.mark.parametrize("noun", ["credit notes", "Gutschriften"])
def test_a_netting_cue_takes_the_credit_notes_along(cue: str, noun: str) -> None:
    # "neto de notas de crédito" is the figure with the credit notes netted in, never the credit notes alone
    assert document_type_scope(f"Company B spend with Supplier Eta Q1 2026 {cue} {noun}")[0] == BOTH


@pytest.mark.parametrize("text", [
    "No. of credit notes in Q1 2026", "credit notes only, Company A", "how many credit notes no 1T 2026",
    "Company A credit notes total", "total de credit notes 2026",
    "credit notes (minus amount) for Beta",
])
def test_a_credit_note_asked_stays_asked(text: str) -> None:
    # "No." is a number, "no 1T" is Portuguese "in the": neither negates the credit notes
    assert document_type_scope(text)[0] == CREDIT, text


@pytest.mark.parametrize("table", [WITHOUT_BEFORE, EXCLUDED_AFTER, NETTED_BEFORE])
def test_the_cue_tables_hold_no_subtraction_word(table: tuple[str, ...]) -> None:
    # "minus", "less", "abzüglich", "menos" subtract: of names they exclude, of credit notes they net them in
    assert not {"minus", "less", "abzüglich", "menos"} & set(table)


@pytest.mark.parametrize(("text", "word"), [
    ("spend (actuals, not forecast)", "forecast"), ("spend, no budget", "budget"),
    ("gasto sin forecast", "forecast"), ("Ausgaben, nicht budget", "budget"), ("forecast excluded", "forecast"),
])
def test_the_span_reader_finds_the_cue_on_either_side(text: str, word: str) -> None:
    start = text.index(word)
    assert negated(text, start, start + len(word)) is not None


@pytest.mark.parametrize("text", ["actual spend vs forecast", "spend for the forecast", "No. forecast"])
def test_no_cue_no_negation(text: str) -> None:
    start = text.index("forecast")
    assert negation_before(text, start) is None and negation_after(text, start + len("forecast")) is None


_NEGATORS = ("NO", "not", "não", "non", "nicht", "niet", "nie", "non-", "nao")
_ADJECTIVES = ("approved", "homologados", "aprovados", "aprobados", "approuvés", "freigegebene", "goedgekeurde",
               "zatwierdzone", "approvati")


@pytest.mark.parametrize("neg", _NEGATORS)
@pytest.mark.parametrize("adjective", _ADJECTIVES)
def test_a_negated_approval_is_read_in_every_language(neg: str, adjective: str) -> None:
    glue = "" if neg.endswith("-") else " "
    assert NEGATED_APPROVAL.search(f"spend with suppliers {neg}{glue}{adjective} in Q1")


@pytest.mark.parametrize("text", ["spend with approved suppliers", "No. approved vendors", "the approved list"])
def test_an_approval_not_negated_is_not_read_as_negated(text: str) -> None:
    assert NEGATED_APPROVAL.search(text) is None


@pytest.mark.parametrize("text", ["gasto fora de contrato", "Ausgaben außerhalb des Vertrags",
                                  "dépenses hors contrat", "spesa fuori contratto", "spend outside the contract"])
def test_outside_the_contract_is_off_contract(text: str) -> None:
    assert NEGATED_APPROVAL.search(text)


@pytest.mark.parametrize(("neg", "company", "period"), [
    ("NO", "Company A", PERIODS[0]), ("não", "company b", PERIODS[2]), ("nicht", "Company A", PERIODS[3]),
    ("non", "company b", PERIODS[5]), ("not", "Company A", PERIODS[6]),
])
def test_spend_with_suppliers_negated_approved_is_the_off_contract_figure(neg: str, company: str,
                                                                           period: tuple[str, str, str]) -> None:
    result = routed(f"{company} spend with suppliers {neg} approved {period[0]}")
    assert not result.requires_clarification, result.clarification_question
    steps = {s.step_id: s for s in result.execution_plan}
    # the negation is never dropped: the company's spend without the approved set, never the set's own spend
    assert steps["calculate-spend"].arguments["exclude_supplier_ids"].ref == EXCLUDE_STEP


@pytest.mark.parametrize("cue", ["sin contar a", "sem contar com", "sans compter", "senza contare", "not counting"])
@pytest.mark.parametrize(("name", "sid"), [("Supplier Gamma", "SUP-27"), ("Delta Enclosures Ltd", "SUP-31")])
def test_not_counting_a_supplier_excludes_it(cue: str, name: str, sid: str) -> None:
    result = routed(f"Company A top 3 suppliers Q1 2026 {cue} {name}")
    assert not result.requires_clarification, result.clarification_question
    args = [s.arguments for s in result.execution_plan if "exclude_supplier_ids" in str(s.arguments)]
    assert args and any(sid in str(a) for a in args), args


@pytest.mark.parametrize("remark", ["(actuals, not forecast)", "- no budget, actuals", "(not the forecast)"])
def test_a_negated_other_basis_is_the_invoiced_spend(remark: str) -> None:
    result = routed(f"Company A spend in Q1 2026 {remark}")
    assert "not forecast. Do you want" not in (result.clarification_question or "")
    assert "not budget. Do you want" not in (result.clarification_question or "")


def test_another_basis_asked_is_still_asked() -> None:
    result = routed("Company A forecast spend in Q1 2026")
    assert result.requires_clarification


@pytest.mark.parametrize("question", [
    "Company A spend Q1 2026 (sem notas de crédito)", "Company A spend Q1 2026, credit notes excluded",
    "Company A spend Q1 2026 neto de notas de crédito", "Company A spend Q1 2026 (credit note exclude)",
])
def test_a_plan_over_credit_notes_alone_is_not_the_answer_to_a_negation(question: str) -> None:
    # the invariant: whichever reader built the plan, a negated credit note is never answered by the credit notes
    planned = routed("Company A credit notes only in Q1 2026")
    assert not planned.requires_clarification
    said = inverted_document_type(question, planned)
    assert said is not None and "credit notes only" in said


@pytest.mark.parametrize("question", ["Company A credit notes Q1 2026", "credit notes only, not invoices, Q1 2026",
                                      "Company A spend Q1 2026"])
def test_credit_notes_asked_pass_the_invariant(question: str) -> None:
    planned = routed("Company A credit notes only in Q1 2026")
    assert inverted_document_type(question, planned) is None


def _args(question: str) -> dict[str, object]:
    result = routed(question)
    assert not result.requires_clarification, result.clarification_question
    merged: dict[str, object] = {}
    for step in result.execution_plan:
        args = dict(step.arguments)
        merged.update({k: v for k, v in dict(args.get("parameters", args)).items() if v})
    return merged


@pytest.mark.parametrize(("phrase", "status"), [
    ("paid invoices excluded", "posted"), ("(paid invoices not included)", "posted"),
    ("- unpaid ones excluded", "paid"), ("sem faturas pagas", "posted"), ("ohne bezahlte Rechnungen", "posted"),
    ("excluding the unpaid invoices", "paid"), ("facturas no pagadas", "posted"), ("paid invoices only", "paid"),
])
def test_a_status_left_out_is_the_other_status(phrase: str, status: str) -> None:
    # "paid invoices excluded" is the posted (unpaid) ones, never the paid ones
    assert _args(f"Company A spend in Q1 2026, {phrase}")["invoice_statuses"] == [status]


@pytest.mark.parametrize("cue", ["exceto a", "excepto a", "sem a", "sans le", "ohne den", "senza il", "except"])
@pytest.mark.parametrize(("name", "sid"), [("Supplier Beta", "SUP-18"), ("Delta Enclosures Ltd", "SUP-31")])
def test_an_article_after_the_cue_does_not_turn_the_exclusion_into_a_filter(cue: str, name: str, sid: str) -> None:
    args = _args(f"Company A spend in Q1 2026 {cue} {name}")
    assert args.get("exclude_supplier_ids") == [sid] and not args.get("supplier_ids"), args


@pytest.mark.parametrize("phrase", ["proveedores aprobados sin ninguna compra",
                                    "fornecedores aprovados sem nenhuma compra",
                                    "fournisseurs agréés sans aucun achat"])
def test_approved_vendors_without_any_spend_are_the_idle_list(phrase: str) -> None:
    result = routed(f"Company A {phrase} en el 1T 2026?")
    assert not result.requires_clarification, result.clarification_question
    assert result.idle_vendors


@pytest.mark.parametrize("question", ["How many invoices did Company A get from Supplier Beta in Q1 2026, no?",
                                      "Company A spend with Supplier Beta in Q1 2026, não?"])
def test_a_tag_question_does_not_negate_the_name_before_it(question: str) -> None:
    args = _args(question)
    assert args.get("supplier_ids") == ["SUP-18"] and not args.get("exclude_supplier_ids"), args


@pytest.mark.parametrize("cue", ["sem a", "hors", "ohne den"])
def test_a_count_leaves_out_the_supplier_a_cue_of_any_language_scopes(cue: str) -> None:
    args = _args(f"How many invoices did Company A get in Q1 2026 {cue} Supplier Beta?")
    assert args.get("exclude_supplier_ids") == ["SUP-18"] and not args.get("supplier_ids"), args


@pytest.mark.parametrize("question", ["Company A spend excluding Zorbix Quillon Q1 2026?",
                                      "Company A spend sin Zorbix en el 1T 2026?"])
def test_a_period_after_an_excluded_name_ends_the_name_but_the_name_is_asked(question: str) -> None:
    # the period ends the words left out ("ninguna spend Q1" is "ninguna spend"), never the ask of a real name
    result = routed(question)
    assert result.requires_clarification and "Zorbix" in result.clarification_question, result
    assert "Q1" not in result.clarification_question.split("Zorbix")[1].split("'")[0], result.clarification_question


@pytest.mark.parametrize("question", ["Company A spend Q1 2026 not just credit notes",
                                      "Company A spend Q1 2026, credit notes not excluded",
                                      "How many invoices did Company A get in Q1 2026, not only paid ones?",
                                      "Company A spend Q1 2026 with suppliers that are not SUP-27 or SUP-18",
                                      "Company A spend in Q1 2026 with suppliers which are not Supplier Beta",
                                      "Company A spend Q1 2026, not only the posted invoices"])
def test_a_scope_inverted_by_its_words_is_asked_never_answered_as_written(question: str) -> None:
    # "not just X" / "X not excluded" / "that are not X": read as written, the figure of X alone (or with X) is the
    # answer to the opposite question
    result = routed(question)
    assert result.requires_clarification, result
    assert "opposite question" in (result.clarification_question or ""), result.clarification_question


@pytest.mark.parametrize("question", ["Company A paid-only spend Q1 2026 (status paid, not just posted)",
                                      "How much did Company A spend in Q1 2026 with suppliers that are not approved?"])
def test_a_not_only_beside_what_is_not_applied_is_read_as_written(question: str) -> None:
    result = routed(question)
    assert "opposite question" not in (result.clarification_question or ""), result.clarification_question
