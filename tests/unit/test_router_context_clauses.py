"""Reason, occasion and hand-over clauses (no database): set aside in any position and language by their shape and
named back; a clause holding a name of the tenant, a filter word, or the only period of the message is kept, and a
period said twice (once in the clause) is no conflict. The metamorphic suite wraps questions the router reads
correctly in such clauses (positions, languages, several at once) and asserts the plan of the bare question. New
phrasings, written for these tests."""

from __future__ import annotations

import pytest

from router.context_clauses import set_aside_clauses
from router.context_noise import name_words, set_aside_context
from router.envelope import read_envelope

# (the routing fixture and plan fingerprint of the context-noise tests: one gazetteer, one cache of routed plans)
from tests.unit.test_router_context_noise import NAMES, _plan

KNOWN = name_words(NAMES)
ASK = "what did Company B spend with Supplier Beta in March 2026?"


def _clauses(message: str) -> tuple[str, tuple[str, ...]]:
    found = set_aside_clauses(message, KNOWN)
    return found.text, found.aside


# --- a clause opening the sentence, up to its comma or colon ------------------------------------------------------
@pytest.mark.parametrize(("lead", "kind"), [
    ("As we get ready for the vendor talks in May,", "reason"),
    ("Since I'm standing in for Oksana this week,", "reason"),
    ("Because the chairwoman brought it up at breakfast,", "reason"),
    ("As Henrik (our COO) is on the road and asked me to chase this,", "reason"),
    ("While Pieter is out of office,", "reason"),
    ("Given that the board asked again,", "reason"),
    ("Ahead of Thursday's steering committee,", "occasion"),
    ("Following this morning's call with the auditors,", "occasion"),
    ("For the investor briefing we're preparing,", "occasion"),
    ("Quick one ahead of my 1:1 with the treasurer:", "occasion"),
    ("Quick one as we're cleaning up our vendor base this month:", "reason"),
    ("On behalf of the CFO,", "hand-over"),
    ("Weil der Aufsichtsrat nachgefragt hat,", "reason"),
    ("Comme nous préparons le comité de direction,", "reason"),
    ("Omdat we het overleg met de directie voorbereiden,", "reason"),
    ("Ya que el comité lo pidió ayer,", "reason"),
    ("Poiché il consiglio lo chiede,", "reason"),
    ("Ponieważ zarząd pyta o to,", "reason"),
    ("Eftersom styrelsen frågar,", "reason"),
    ("Inför styrelsemötet,", "occasion"),
    ("Pour la réunion du comité,", "occasion"),
    ("As part of our supplier review,", "occasion"),
    ("Dans le cadre du comité d'audit,", "occasion"),
    ("I forbindelse med bestyrelsesmødet,", "occasion"),
    ("W ramach przeglądu dostawców,", "occasion"),
])
def test_a_clause_opening_the_sentence_is_set_aside(lead: str, kind: str) -> None:
    text, aside = _clauses(f"{lead} {ASK}")
    assert text == ASK[:1].upper() + ASK[1:]
    assert aside == (f"{kind} {lead.rstrip(',:')!r}",)


# --- the whole sentence, and a clause closing its sentence ---------------------------------------------------------
@pytest.mark.parametrize("sentence", [
    "This is as we prepare for the pricing talks in September.",
    "This is since I'm covering for Ingrid while she's on holiday.",
    "This is because the chairman raised it over coffee.",
    "This is ahead of the ExCo away-day next week.",
    "This is for a slide in Monday's leadership call.",
    "It's for the board pack.",
    "This is following yesterday's call with the supervisory board.",
    "Das ist für die Vorstandssitzung am Freitag.",
    "C'est pour la réunion de demain.",
    "Dit is voor het overleg met de CFO.",
    "The chairman wants to see the big tickets.",
    "Happy to discuss if anything is unclear.",
    "Let me know if you need anything from me.",
    "Sorry if this has been asked before!",
    "Before EOD if you can.",
    "Asap if poss.",
])
@pytest.mark.parametrize("where", ["after", "before"])
def test_a_context_sentence_is_set_aside_anywhere(sentence: str, where: str) -> None:
    message = f"{ASK} {sentence}" if where == "after" else f"{sentence} {ASK}"
    text, aside = _clauses(message)
    assert text == ASK
    assert len(aside) == 1 and sentence.rstrip(".!") in aside[0]


@pytest.mark.parametrize("tail", [", as we prepare for the negotiations in June", ", ahead of the board meeting",
                                  ", since the CFO has asked for it", ", because the board asked"])
def test_a_clause_closing_its_sentence_is_set_aside(tail: str) -> None:
    text, aside = _clauses(ASK[:-1] + tail + "?")
    assert text == ASK
    assert aside and tail.strip(", ") in aside[0]


# --- structural safety: a slot is never set aside -----------------------------------------------------------------
@pytest.mark.parametrize("message", [
    "Since Jan 2026, what did Company B spend with Supplier Beta?",              # a period after "since"
    "As of 31 March 2026, how many invoices did Company C get?",               # "as of"
    "As at month end, what did Company B spend with Supplier Beta?",           # "as at"
    "For Company B, what did we spend with Supplier Beta in March 2026?",      # a company after "for"
    "For the Sensors review, what did Company B spend in March 2026?",         # a tenant name in the clause
    "What did Company B spend with Supplier Beta in the following quarter?",   # "following" + a period noun
    "Ahead of plan, what did Company B spend with Supplier Beta in 2026?",     # no determiner, no occasion
    "As we prepare for the talks with Nortwind, what did Company B spend in March 2026?",  # maybe a supplier
    "Because the board wants only paid invoices, what did Company B spend in March 2026?",  # a filter
    "As we prepare for the negotiations in June, which suppliers are approved for Company B?",  # the only period
    "Since the start of the year, what did Company B spend with Supplier Beta?",  # no clause subject
    "Before the March close, what did Company B spend with Supplier Beta in Q1 2026?",  # a time, no event
])
def test_a_clause_holding_a_slot_is_kept(message: str) -> None:
    assert _clauses(message) == (message, ())


@pytest.mark.parametrize("sentence", ["Only paid ones please.", "I'd like to see how much came back from suppliers.",
                                      "It should be in USD.", "The figure should exclude credit notes.",
                                      "We only want posted invoices.", "I mean Nortwind.",
                                      "The group-wide figure is what I need."])
def test_a_sentence_with_a_slot_or_a_request_is_kept(sentence: str) -> None:
    message = f"{ASK} {sentence}"
    assert _clauses(message) == (message, ())


@pytest.mark.parametrize(("segment", "kind"), [("Whenever convenient", "courtesy"), ("If possible", "courtesy"),
                                             ("If it's no trouble to pull", "courtesy"), ("Asap if poss", "urgency")])
def test_a_courtesy_or_urgency_segment_before_a_dash_is_set_aside(segment: str, kind: str) -> None:
    text, aside = _clauses(f"{ASK} {segment} - the total is all I need.")
    assert text == f"{ASK} The total is all I need."
    assert aside == (f"{kind} {segment!r}",)


def test_a_short_condition_that_refers_back_is_kept() -> None:
    message = f"{ASK} If so, how much?"
    assert _clauses(message) == (message, ())


def test_nothing_is_set_aside_when_no_ask_would_be_left() -> None:
    assert _clauses("This is for the board meeting.") == ("This is for the board meeting.", ())


def test_the_same_period_in_the_clause_is_no_second_period() -> None:
    message = "Quick one as we're reviewing our vendor base this month: what did Company B spend so far this month?"
    text, _ = _clauses(message)
    assert text == "What did Company B spend so far this month?"
    assert _plan(message) == _plan(text)
    assert not _plan(message)[0]


# --- the envelope around long polite messages ----------------------------------------------------------------------
@pytest.mark.parametrize(("message", "ask"), [
    ("hi all What did Company B spend in March 2026?", "What did Company B spend in March 2026?"),
    ("hello team Could you tell me " + ASK, "Could you tell me " + ASK),
    ("Hi both,\n" + ASK, ASK),
    (ASK + " tks, M", ASK),
    (ASK + " Many thanks in advance,\nOla Nordmann\nAssistant to the CFO", ASK),
])
def test_run_on_greetings_and_split_signatures_are_set_aside(message: str, ask: str) -> None:
    assert read_envelope(message, KNOWN).text == ask


def test_an_announcing_lead_keeps_its_second_name_and_period() -> None:
    pruned = set_aside_context("Two things on Supplier Beta for Company B during Q3/25: (1) how much did we spend "
                               "with them, and (2) how many invoices did they send us?", NAMES)
    assert pruned.text.startswith("on Supplier Beta for Company B during Q3/25:")


def test_each_clause_is_named_back() -> None:
    pruned = set_aside_context("Dear all,\nSince I'm covering for Julia while she's on leave, " + ASK
                               + " This is ahead of the ExCo offsite next week.\nBest, R.", NAMES)
    assert pruned.text == ASK[:1].upper() + ASK[1:]
    assert "reason \"Since I'm covering for Julia while she's on leave\"" in pruned.aside
    assert "occasion 'This is ahead of the ExCo offsite next week'" in pruned.aside


# --- metamorphic: context clauses never change the reading ---------------------------------------------------------
BARE = ("Company B spend with Supplier Beta in March 2026?",
        "how many invoices did Company C get from Gamma Controls in 2025?",
        "top 3 suppliers of Company A in Q1 2026?")
LEADS = ("As we prepare for the supplier negotiations in June, ", "Since I'm covering for Julia while she's on leave, ",
         "Because the chairman raised it at lunch today, ", "Quick one ahead of the ExCo offsite next week: ",
         "Following yesterday's call with the supervisory board, ", "Weil der Vorstand nachgefragt hat, ",
         "Comme nous préparons le comité, ", "Inför styrelsemötet: ", "")
TAILS = (" This is as we're reviewing our supplier base this month.", " It's for the investor update we're drafting.",
         " Happy to discuss if anything is unclear.", " The chairman wants to see it.", " Dit is voor het overleg.",
         " Before EOD if you can.", "")


@pytest.mark.parametrize(("bare", "lead", "tail"), [
    (b, LEADS[(i * 2 + j) % len(LEADS)], TAILS[(i + j * 3) % len(TAILS)])
    for i, b in enumerate(BARE) for j in range(4)
])
def test_context_clauses_never_change_the_reading(bare: str, lead: str, tail: str) -> None:
    expected = _plan(bare[:1].upper() + bare[1:])
    assert not expected[0]
    assert _plan(lead + bare + tail) == expected


# --- negative: a clause that constrains the figure is never set aside (review f1) ---------------------------------
@pytest.mark.parametrize("message", [
    # the review's probes
    "What did Company A spend in Q1 2026, as we leave out the credit notes?",
    "Which Company A invoices are unpaid in Q1 2026? They should be overdue.",
    "Company A invoice count 2025, as we care about the unapproved ones",
    "Company A invoice count 2025, because we skip the reversed documents",
    "Company A invoices Q1 2026? It has to be the late ones.",
    # variants: other exclusion verbs, statuses, restriction words and a period bounded by an event
    "Because we don't count the drafts, what did Company B spend in March 2026?",
    "Company C spend in 2025, since we ignore the cancelled invoices.",
    "Company A spend in Q1 2026? These are not to be counted when reversed.",
    "Company B invoices in 2025, given that we omit anything still open.",
    "Company A spend in Q1 2026, as we look solely at posted documents.",
    "What did Company B spend since the new CFO started?",
    "What did Company C spend while Pieter was on leave?",
])
def test_a_constraining_clause_is_kept(message: str) -> None:
    text, aside = _clauses(message)
    assert aside == ()
    assert text == message


def test_constraint_words_are_no_filler_words() -> None:
    """A word that keeps a clause for the reader is never one the unread-word check lets pass as filler."""
    from router.context_clauses import CONSTRAINT_WORDS
    from router.unread_words import FILLER_WORDS, _plain

    words = {_plain(w) for phrases in CONSTRAINT_WORDS.values() for p in phrases for w in p.split()}
    assert not words & {_plain(w) for w in FILLER_WORDS}


def test_pure_context_is_still_set_aside() -> None:
    text, aside = _clauses("Since I'm covering for Julia while she's on leave, what did Company A spend in Q1 2026?")
    assert text == "What did Company A spend in Q1 2026?"
    assert aside
