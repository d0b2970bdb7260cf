"""The unread-word invariant: a figure is never presented as complete while a content word was not read
(router/unread_words.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.answer import Answer
from router.unread_words import figure_answer, general_words, unread_note, unread_words, with_unread_words

#: Words no list knows, from languages and trades the tables do not cover (invented or rare on purpose).
_UNKNOWN = ("rangering", "vaegtning", "osuus", "kvartaali", "pozycja", "zestawienie", "teilmenge", "ponderacion",
            "avgrensning", "razbivka")
#: Everyday English a writer adds without a constraint.
_HARMLESS = ("please", "overall", "dashboard", "kindly", "quick", "for the board", "urgent", "thanks a lot",
             "ASAP", "as discussed", "if possible")


@pytest.mark.parametrize(("question", "unread"), [
    ("tabela rangering of the 3 biggest suppliers, Company B, 2025", ("tabela", "rangering")),
    ("vaegtning of Supplier Beta in the company total Q2 2025", ("vaegtning",)),
    ("Company A spend 2. kvartaali 2025", ("kvartaali",)),
])
def test_words_no_list_knows_are_unread(question: str, unread: tuple[str, ...]) -> None:
    assert unread_words(question, []) == unread


@pytest.mark.parametrize("extra", _HARMLESS)
def test_everyday_english_is_never_unread(extra: str) -> None:
    assert unread_words(f"{extra} total spend of Company A in Q1 2026 {extra}", []) == ()


@pytest.mark.parametrize("question", [
    "dépenses de la société A pour le trimestre, merci", "Ausgaben der Gesellschaft bitte", "hoeveel van onze facturen",
    "ile faktur dla firmy", "vad är vår totala", "quanto per favore",
])
def test_function_and_reader_words_of_other_languages_are_known(question: str) -> None:
    unread = unread_words(question, [])
    assert not {w.casefold() for w in unread} & {"de", "la", "pour", "der", "bitte", "van", "onze", "dla", "vad"}


def test_consumed_spans_and_names_are_read() -> None:
    text = "zestawienie Zorblax Qwimmet 2025"
    assert unread_words(text, []) == ("zestawienie", "Zorblax", "Qwimmet")
    assert unread_words(text, [(0, len("zestawienie"))], names=["Zorblax Qwimmet GmbH"]) == ()


def test_accents_case_and_hyphens() -> None:
    # accent-free lookup: "Données" is read like "donnees"; a hyphenated compound is checked part by part
    assert unread_words("Please SHOW the Dashboard", []) == ()
    assert unread_words("spend per sous-zestawienie", []) == ("zestawienie",)


@settings(max_examples=40, deadline=None)
@given(word=st.sampled_from(_UNKNOWN), harmless=st.sampled_from(_HARMLESS),
       position=st.integers(min_value=0, max_value=6),
       base=st.sampled_from(["total spend Company A Q1 2026", "top 3 suppliers by spend for Kestrel in 2025",
                             "share of Supplier Beta in Company B spend, H2 2025", "invoice count Xenon March"]))
def test_metamorphic_one_unknown_word_anywhere(word: str, harmless: str, position: int, base: str) -> None:
    """Adding everyday words changes nothing; adding one unknown word anywhere names exactly that word."""
    words, names = base.split(), ["Kestrel Lebensmittel GmbH", "Xenon AG"]
    assert unread_words(" ".join([harmless, *words]), [], names) == ()
    at = min(position, len(words))
    assert unread_words(" ".join([*words[:at], word, *words[at:], harmless]), [], names) == (word,)


def test_the_word_list_is_general_and_accent_free() -> None:
    known = general_words()
    assert {"please", "overall", "dashboard", "supplier", "quarter", "breakdown"} <= known
    assert not any(re.search(r"[^\x00-\x7f]", w) for w in known if w.isascii() is False and len(w) > 40)


def _answer(status: str, text: str = "Company A's total spend was 100.00 EUR.") -> Answer:
    return Answer(status=status, text=text, result={"status": "complete"}, inputs={}, sources=(),  # type: ignore[arg-type]
                  clarification_question=text if status == "clarification" else None)


def test_an_answered_figure_becomes_partial_and_keeps_its_figure() -> None:
    marked: Any = with_unread_words(_answer("answered"), ("rangering",))
    assert marked.status == "partial" and "100.00 EUR" in marked.text and "'rangering'" in marked.text
    assert marked.result["not_understood"] == ["rangering"] and marked.result["status"] == "partial"


@pytest.mark.parametrize("status", ["no_data", "not_found", "clarification"])
def test_other_statuses_keep_their_status_and_gain_the_note(status: str) -> None:
    marked: Any = with_unread_words(_answer(status, "No counted spend."), ("osuus", "pozycja"))
    assert marked.status == status and "'osuus', 'pozycja'" in marked.text


def test_nothing_unread_changes_nothing() -> None:
    answer = _answer("answered")
    assert with_unread_words(answer, ()) is answer
    assert "does not apply it" in unread_note(["x"]) and "does not apply them" in unread_note(["x", "y"])


@pytest.mark.parametrize(("workflow", "clarifying", "checked"), [
    ("spend", False, True), ("metric", False, True), ("approved_vendors", False, True),
    ("document_answer", False, False), ("clarification", True, False), ("spend", True, False)])
def test_the_invariant_is_checked_for_figures_lists_and_rankings(workflow: str, clarifying: bool,
                                                                 checked: bool) -> None:
    assert figure_answer(workflow, clarifying) is checked


@pytest.mark.parametrize("context", ["Asap if poss.", "This is for the ExCo offsite.", "Thx, the CFO asked.",
                                     "Vielen Dank im Voraus!"])
def test_a_sentence_naming_nothing_read_is_context(context: str) -> None:
    ask = "What did Company A spend with Supplier Beta in Q1 2026?"
    consumed = [(ask.index("Company A"), ask.index("Company A") + 9), (ask.index("Q1 2026"), ask.index("Q1 2026") + 7)]
    assert unread_words(f"{ask} {context}", consumed) == ()
    # the same words inside the sentence that is read are named
    inside = f"What did Company A spend with Supplier Beta zestawienie in Q1 2026? {context}"
    spans = [(inside.index("Company A"), inside.index("Company A") + 9)]
    assert unread_words(inside, spans) == ("zestawienie",)


@pytest.mark.parametrize(("word", "gloss"), [("snímače", "sensors"), ("korekta", "credit note"),
                                             ("osuus", "share")])
def test_a_word_glossed_in_brackets_is_read(word: str, gloss: str) -> None:
    assert unread_words(f"Company A {word} ({gloss}) in Q4 2025", []) == ()
    assert unread_words(f"Company A {word} in Q4 2025", []) == (word,)


@pytest.mark.parametrize(("slip", "word"), [("teh", "the"), ("wich", "which"), ("whcih", "which"), ("adn", "and")])
def test_a_function_word_with_one_slip_is_read(slip: str, word: str) -> None:
    assert unread_words(f"{slip} suppliers are approved for Company B", []) == ()


def _route(question: str) -> Any:
    from router.routing import route
    from tests.unit.test_router_context_noise import _inputs

    return route(question, _inputs())


@pytest.mark.parametrize(("question", "word"), [
    ("Company A spend Supplier Beta zestawienie Q1 2026", "zestawienie"),
    ("vaegtning of Supplier Beta in Company A spend, Q1 2026", "vaegtning"),
])
def test_route_carries_the_unread_words_of_a_figure(question: str, word: str) -> None:
    result = _route(question)
    assert not result.requires_clarification and word in result.unread


@pytest.mark.parametrize("question", ["Company A spend with Supplier Beta in Q1 2026, please",
                                      "overall spend of Company B in 2025 for the dashboard"])
def test_route_of_a_question_read_whole_carries_none(question: str) -> None:
    result = _route(question)
    assert not result.requires_clarification and result.unread == ()


@pytest.mark.parametrize(("cognate", "compound"), [("groupe", "sous-groupe"), ("contrat", "sous-contrat")])
def test_a_cognate_is_read_but_not_inside_a_compound(cognate: str, compound: str) -> None:
    assert unread_words(f"Company A spend for the {cognate} in 2025", []) == ()
    assert unread_words(f"Company A spend par {compound} in 2025", []) == (cognate,)


# --- review f2: restriction words, status participles, table words not consumed, kind nouns, chat words ------------
def _invoices_only(result: Any) -> bool:
    """Whether the plan of ``result`` keeps invoices only (credit notes left out)."""
    return any("invoice" in (step.arguments.get("document_types") or ()) for step in result.execution_plan
               if isinstance(step.arguments, dict)) or "invoice" in repr(result.execution_plan).split(
        "document_types")[-1][:40]


@pytest.mark.parametrize(("question", "word"), [
    ("Company A spend Q1 2026, seulement les factures", "seulement"),
    ("Company A spend Q1 2026, alleen facturen", "alleen"),
    ("Company A spend Q1 2026, tylko faktury", "tylko"),
    ("Company A spend Q1 2026, nur Rechnungen", "nur"),
    ("Company A spend Q1 2026, endast fakturor", "endast"),
])
def test_a_restriction_word_is_applied_or_named(question: str, word: str) -> None:
    # "only the invoices" in another language: the figure with credit notes is never presented as complete
    result = _route(question)
    assert word in result.unread or result.requires_clarification or _invoices_only(result)


@pytest.mark.parametrize("word", ["seulement", "uniquement", "nur", "alleen", "enkel", "solo", "solamente", "tylko",
                                  "endast", "bara", "kun"])
def test_a_restriction_word_is_no_filler(word: str) -> None:
    assert unread_words(f"Company A spend Q1 2026, {word} factures", []) == (word,)


@pytest.mark.parametrize("word", ["paye", "payes", "regle", "annule", "bezahlt", "betaald", "zaplacone", "pagados"])
def test_a_status_participle_not_consumed_is_unread(word: str) -> None:
    # a status the figure must apply: named unless a reader consumed it
    assert unread_words(f"Company A spend Q1 2026 {word}", []) == (word,)


@pytest.mark.parametrize("question", ["combien Comp C a payé à Supplier Beta sur 02/2026 ?",
                                      "combien on a payé chez Supplier Beta pour Company A en 2025"])
def test_a_participle_after_an_auxiliary_is_the_verb_of_the_spend(question: str) -> None:
    assert unread_words(question, [], ["Comp C"]) == ()


@pytest.mark.parametrize("word", ["osuus", "betaald", "bezahlt"])
def test_a_word_a_table_spells_is_unread_when_not_consumed(word: str) -> None:
    # a reader's table spelling a word is no proof the reader applied it in this question
    question = f"Supplier Beta {word} Company A spend 2025"
    assert unread_words(question, []) == (word,)
    at = question.index(word)
    assert unread_words(question, [(at, at + len(word))]) == ()


@pytest.mark.parametrize(("question", "word"), [
    ("Company A spend in 2025 with domestic suppliers", "domestic"),
    ("Company A spend in 2025 with strategic vendors", "strategic"),
    ("Company A spend on recurring invoices in 2025", "recurring"),
    ("Company B spend 2025, regional suppliers", "regional"),
])
def test_a_word_before_a_kind_noun_restricts_it(question: str, word: str) -> None:
    assert word in unread_words(question, [])
    result = _route(question)
    assert word in result.unread or result.requires_clarification


@pytest.mark.parametrize("question", ["how many suppliers did Company A use in 2025",
                                      "the 3 biggest suppliers of Company A in 2025", "teh suppliers of Company A"])
def test_a_counting_or_ranking_word_before_a_kind_noun_is_no_restriction(question: str) -> None:
    assert unread_words(question, []) == ()


@pytest.mark.parametrize("question", ["Company A spend Q1 2026 pls, gimme the number",
                                      "Company A spend Q1 2026 (ballpark figure is fine)",
                                      "lemme know Company A spend Q1 2026, thx"])
def test_chat_words_of_the_envelope_are_read(question: str) -> None:
    from router.envelope import CHAT_WORDS

    assert {"gimme", "ballpark"} <= CHAT_WORDS
    result = _route(question)
    assert not result.requires_clarification and result.unread == ()


def test_the_routed_question_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the unread-word check reuses the reading the routing made, never reads the question a second time
    import router.routing as routing

    calls: list[str] = []
    real = routing.read

    def counting(text: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(text)
        return real(text, *args, **kwargs)

    monkeypatch.setattr(routing, "read", counting)
    monkeypatch.setattr(routing, "_READINGS", type(routing._READINGS)())
    result = _route("Company A spend with Supplier Beta in Q1 2026, please")
    assert not result.requires_clarification
    assert all(n == 1 for n in (calls.count(t) for t in set(calls)))


def test_slips_and_cognates_are_looked_up_fast() -> None:
    import time

    question = " ".join(["zestawienie rangering vaegtning kvartaali teilmenge ponderacion avgrensning"] * 20)
    start = time.perf_counter()
    for _ in range(5):
        unread_words(question + " Company A spend 2025", [])
    assert time.perf_counter() - start < 1.5


# --- negative: an everyday word that narrows the figure is never passed as general (review f1) ----------------------
@pytest.mark.parametrize(("question", "unread"), [
    ("Company A invoice count 2025, because we skip the reversed documents", {"skip", "reversed"}),
    ("Company A invoices in Q1 2026, as we care about the unapproved ones", {"unapproved"}),
    ("Company B spend in 2025, ignoring the late ones", {"ignoring", "late"}),
])
def test_an_unconsumed_constraint_word_is_unread(question: str, unread: set[str]) -> None:
    assert unread <= set(unread_words(question, []))


# --- a restriction word beside a filter the plan applies ("credit notes only") is applied -------------------------
@pytest.mark.parametrize("question", ["Company A spend Q1 2026 - credit notes only",
                                      "Company B spend in 2025, invoices only",
                                      "only paid invoices of Company A in Q1 2026"])
def test_a_restriction_the_plan_applies_is_read(question: str) -> None:
    assert "only" not in _route(question).unread


def test_a_restriction_with_nothing_narrowed_is_named() -> None:
    # the default statuses are no narrowing: "only" restricts something no reader applied
    assert "only" in _route("Company A spend Q1 2026, only the domestic ones").unread


@pytest.mark.parametrize("noun", ["supplier", "month", "category", "currency", "entity"])
@pytest.mark.parametrize("joint", [" ", "-"])
def test_a_distributive_no_reader_took_is_named(noun: str, joint: str) -> None:
    assert f"{noun}{joint}wise" in unread_words(f"need {noun}{joint}wise summary of spend", [])


def test_otherwise_is_an_ordinary_word() -> None:
    assert unread_words("otherwise the total spend", []) == ()


@pytest.mark.parametrize(("question", "word"), [("Company A spend Q1 2026 with best", "best"),
                                                ("Company A spend Q1 2026 from ok", "ok"),
                                                ("Company A spend Q1 2026 avec bon", "bon")])
def test_the_last_word_of_a_name_slot_is_never_dropped(question: str, word: str) -> None:
    # a word list knowing the word ("best regards", "ok") does not make it no name where a name is written
    assert word in unread_words(question, [])


@pytest.mark.parametrize("question", ["How much did Company A spend in Q1 2026 with them?",
                                      "Company A spend Q1 2026 with all, thanks"])
def test_a_pronoun_or_quantifier_ends_a_name_slot_without_a_name(question: str) -> None:
    assert not {"them", "all"} & set(unread_words(question, []))
