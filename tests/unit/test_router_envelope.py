"""The message envelope (no database): salutations, sign-offs with signatures, chat closings, urgency and purpose
clauses in six languages are set aside by their place and shape and named back; a segment holding a tenant name, a
company, an id or a period is never set aside. The metamorphic suite wraps questions the router reads correctly in
generated envelopes (languages, positions, separators) and asserts the plan of the bare question. New phrasings,
written for these tests."""

from __future__ import annotations

import itertools

import pytest

from router.context_noise import name_words, set_aside_context
from router.envelope import CLOSINGS, GREETINGS, read_envelope

# (the routing fixture and plan fingerprint of the context-noise tests: one gazetteer, one cache of routed plans)
from tests.unit.test_router_context_noise import _plan

NAMES = ("Company A", "Company B", "Company C", "Supplier Beta", "Beta Supplies GmbH", "Gamma Controls",
         "Sensors", "Marlow Freight")
KNOWN = name_words(NAMES)
ASK = "Company B spend with Beta in March 2026?"


def _text(message: str) -> str:
    return read_envelope(message, KNOWN).text


# --- salutations ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("greeting", [
    "Liebe Kolleginnen", "Hallo zusammen", "Grüezi", "Bonjour à tous", "Chère Amélie", "Goedemorgen allemaal",
    "Beste Joost", "Buenos días equipo", "Hola Lucía", "Buongiorno a tutti", "Ciao Marco", "Good afternoon Priya",
    "Hey team", "Servus Leute", "Moin moin",
])
@pytest.mark.parametrize("layout", ["{g},\n{a}", "{g}, {a}", "{g}! {a}", "{g} - {a}"])
def test_a_salutation_in_any_language_is_set_aside(greeting: str, layout: str) -> None:
    envelope = read_envelope(layout.format(g=greeting, a=ASK), KNOWN)
    assert envelope.text == ASK
    assert envelope.aside == (f"greeting {greeting!r}",)


@pytest.mark.parametrize("message", ["@procura Company B spend with Beta in March 2026?",
                                     "@Procura: Company B spend with Beta in March 2026?"])
def test_a_chat_handle_is_set_aside(message: str) -> None:
    assert _text(message) == ASK


# --- sign-offs and signatures -----------------------------------------------------------------------------------
@pytest.mark.parametrize("sign_off", [
    "Viele Grüße, Jonas", "Danke und LG, Miriam", "lg aus Linz", "MfG K. Brandt (Kreditorenbuchhaltung)",
    "Cordialement,\nÉlise Martin", "Merci d'avance, P. Lefèvre (Comptabilité)", "Met vriendelijke groet,\nSanne",
    "Alvast bedankt / Team Inkoop", "Saludos, Carmen (Tesorería)", "Un saludo", "Grazie mille, Giulia",
    "Cordiali saluti\nRoberto Bianchi", "Kind regards,\nO. Adeyemi\nShared Services", "cheers, Tom",
    "Danke vorab, Ilse / SSC Graz",
])
@pytest.mark.parametrize("separator", ["\n", "\n\n"])
def test_a_sign_off_with_its_signature_is_set_aside(sign_off: str, separator: str) -> None:
    envelope = read_envelope(ASK + separator + sign_off, KNOWN)
    assert envelope.text == ASK
    assert len(envelope.aside) == 1 and envelope.aside[0].startswith("sign-off")


@pytest.mark.parametrize(("message", "ask"), [
    ("Company B spend with Beta in March 2026? thx", ASK),
    ("Company B spend with Beta in March 2026 merci", "Company B spend with Beta in March 2026"),
    ("Company B spend with Beta in March 2026 pls ty", "Company B spend with Beta in March 2026"),
    ("Company B spend with Beta in March 2026? - danke", ASK),
    ("Company B spend with Beta in March 2026, gracias!", "Company B spend with Beta in March 2026"),
    ("Company B spend with Beta in March 2026 asap", "Company B spend with Beta in March 2026"),
])
def test_a_chat_closing_at_the_end_is_set_aside(message: str, ask: str) -> None:
    assert _text(message) == ask


def test_a_signature_line_with_a_team_in_brackets_is_set_aside() -> None:
    assert _text(ASK + "\nR. Okafor (AP Team)") == ASK


# --- urgency and purpose ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lead", ["need asap:", "urgent -", "dringend:", "URGENT!", "urgente:", "treasury q:",
                                  "AP question -", "for the liquidity plan:", "pour le comité:",
                                  "für die Liquiditätsplanung:", "sanity check -", "ahead of the steerco:"])
def test_an_urgency_or_purpose_lead_is_set_aside(lead: str) -> None:
    envelope = read_envelope(f"{lead} {ASK}", KNOWN)
    assert envelope.text == ASK
    assert envelope.aside and lead.rstrip(":!- ").lower() in envelope.aside[0].lower()


@pytest.mark.parametrize("tail", [" - for the 13-week forecast", ", for the board deck", " (cash call tomorrow)",
                                  " ahead of the board meeting", " - pour la réunion de demain",
                                  " - für die Besprechung morgen", " (per il comitato)", ", para el cierre",
                                  " - voor het overleg"])
def test_a_purpose_clause_at_the_end_is_set_aside(tail: str) -> None:
    bare = "Company B spend with Beta in March 2026"
    envelope = read_envelope(bare + tail, KNOWN)
    assert envelope.text == bare
    assert envelope.aside and envelope.aside[0].startswith("purpose")


# --- a real constraint is never set aside -----------------------------------------------------------------------
@pytest.mark.parametrize("message", [
    "Company B spend in March 2026 - for the Q3 forecast",    # a period
    "Company B spend in March 2026 (Marlow Freight)",         # a supplier of the tenant
    "spend with Beta in March 2026\nThanks, Company C",       # a company
    "Hallo Gamma,\nspend in March 2026?",                     # a tenant name after a greeting word
    "Company B spend in March 2026, for the Sensors review",  # a product group
    "Company B spend in March 2026\nGruß, INV-2026-0042",     # a document id
    "Company B spend in March 2026 - best suppliers",         # a measure word
])
def test_a_segment_with_a_constraint_is_kept(message: str) -> None:
    assert read_envelope(message, KNOWN).aside == ()


@pytest.mark.parametrize("message", ["Hallo zusammen,\nDanke!", "thx", "Grüß Gott", "Hi, thanks"])
def test_nothing_is_set_aside_when_no_ask_would_be_left(message: str) -> None:
    assert read_envelope(message, KNOWN) == read_envelope(message, KNOWN).__class__(message, ())


def test_the_tables_cover_the_writers_languages() -> None:
    assert set(GREETINGS) == set(CLOSINGS) == {"en", "de", "fr", "nl", "es", "it", "pt", "pl", "sv", "hi", "tl"}


def test_what_is_set_aside_is_named_back() -> None:
    pruned = set_aside_context("Liebe Kollegen,\nCompany B spend with Beta in March 2026?\nBG, T. Huber (SSC Wien)",
                               NAMES)
    assert pruned.text == ASK
    assert pruned.aside == ("greeting 'Liebe Kollegen'", "sign-off 'BG, T. Huber (SSC Wien)'")


# --- metamorphic: the envelope never changes the reading ----------------------------------------------------------
BARE = ("Company B spend with Beta in March 2026", "how many invoices did Company C get from Gamma Controls in 2025",
        "top 3 suppliers of Company A in Q1 2026")
LEADS = ("Liebe Kollegen,\n", "Bonjour à tous, ", "need asap: ", "Hola equipo,\n", "treasury q: ", "@procura ",
         "Goedemiddag, ", "for the cash plan: ")
TAILS = ("\nGruß, Stefan (AP-Team)", " thx", " - for the 13wk forecast", "\nCordialement,\nA. Dubois",
         " (cash call tmrw)", "\nSaluti, Paolo", " - danke", "\nMet vriendelijke groet")


@pytest.mark.parametrize(("bare", "lead", "tail"), [
    (b, LEADS[i % len(LEADS)], TAILS[(i * 3 + j) % len(TAILS)])
    for i, (b, j) in enumerate(itertools.product(BARE, range(4)))
])
def test_an_envelope_never_changes_the_reading(bare: str, lead: str, tail: str) -> None:
    expected = _plan(bare)
    assert not expected[0]
    assert _plan(lead + bare + tail) == expected


@pytest.mark.parametrize(("message", "ask"), [
    ("Company B spend with Beta in March 2026?\nSent from my iPhone", ASK),
    ("Company B spend with Beta in March 2026?\nVon meinem iPhone gesendet", ASK),
    ("Company B spend with Beta in March 2026? We need the figure for the steerco on Monday.", ASK),
    (ASK + "\nThank you very much in advance.\nBest regards,\nNina Park\nHead of FP&A", ASK),
    ("hey procura quick q - Company B spend with Beta in March 2026?", ASK),
    ("Company B spend with Beta in March 2026? Looking forward to your reply. Regards, Ravi", ASK),
    ("Dear Sir/Madam,\nCompany B spend with Beta in March 2026?", ASK),
])
def test_long_polite_and_mobile_envelopes_are_set_aside(message: str, ask: str) -> None:
    assert _text(message) == ask


@pytest.mark.parametrize(("message", "ask"), [
    (ASK[:-1] + " (needed for tomorrow's board)", ASK[:-1]),
    (ASK[:-1] + " - many thanks, J.", ASK[:-1]),
    ("Company B spend with Beta in March 2026?\nthx\nMarkus", ASK),
])
def test_brackets_initials_and_split_sign_offs(message: str, ask: str) -> None:
    assert _text(message) == ask


def test_a_purpose_inside_brackets_with_a_company_is_kept() -> None:
    assert read_envelope("Company A spend in March 2026 (Company B, for the board)", KNOWN).aside == ()


# --- review f1: an urgency word or a "before ..." clause that can be a constraint stays in the question -------------
@pytest.mark.parametrize("message", [
    "Spend of Company A in Q1 2026 on priority",                            # the probe: after a preposition
    "How many invoices of Company A in Q1 2026 are flagged urgent",         # after a participle
    "Which invoices of Company B in March 2026 were marked as priority",    # after "as"
    "Company B invoices in March 2026 that are urgent",                     # after a verb
    "Company B spend with Beta in March 2026 urgent",                       # no separator, no closing word
])
def test_a_trailing_urgency_word_that_can_be_a_constraint_is_kept(message: str) -> None:
    assert read_envelope(message, KNOWN).aside == ()


@pytest.mark.parametrize(("message", "ask", "aside"), [
    ("How many invoices of Company A in Q1 2026 are flagged urgent thx",
     "How many invoices of Company A in Q1 2026 are flagged urgent", ("sign-off 'thx'",)),
    ("Company B spend with Beta in March 2026 urgent thx", ASK[:-1], ("sign-off 'urgent thx'",)),
    ("Company B spend with Beta in March 2026 - urgent", ASK[:-1], ("urgency 'urgent'",)),
    ("Company B spend with Beta in March 2026 priority pls", ASK[:-1], ("urgency 'priority pls'",)),
])
def test_an_urgency_word_goes_only_after_a_separator_or_beside_a_closing(message: str, ask: str,
                                                                         aside: tuple[str, ...]) -> None:
    envelope = read_envelope(message, KNOWN)
    assert (envelope.text, envelope.aside) == (ask, aside)


@pytest.mark.parametrize("message", [
    "How many invoices of Company A in Q1 2026 were approved before the month-end close?",  # the probe
    "Company B invoices posted in March 2026 prior to the quarter-end close",
    "Company B spend with Beta in March 2026, before the year-end",
    "Company B Rechnungen März 2026 vor dem Monatsabschluss",
    "Company B spend with Beta in March 2026, per review",                  # bare English "per": "as per"
    "Company B spend with Beta in March 2026 - per the board",
])
def test_a_before_clause_or_bare_per_that_can_be_a_constraint_is_kept(message: str) -> None:
    assert read_envelope(message, KNOWN).aside == ()


@pytest.mark.parametrize("tail", [" before the board meeting", ", prior to the steerco call", " - vor der Besprechung",
                                  " - avant la réunion", ", per la riunione"])
def test_a_before_clause_ending_on_a_meeting_is_still_set_aside(tail: str) -> None:
    envelope = read_envelope(ASK[:-1] + tail, KNOWN)
    assert envelope.text == ASK[:-1]
    assert envelope.aside and envelope.aside[0].startswith("purpose")
