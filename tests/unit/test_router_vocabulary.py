"""The vocabulary table and its typo tolerance (router/vocabulary.py), by behaviour: shorthand reads as its word in
any position and beside any name, a question reads as its plain twin, real words are never corrected, the ledger
"AP" is no spend, and the other readers' phrases stay theirs; a one-edit slip of a vocabulary word reads as the word
or is asked back, never another figure. Routed in memory, bounded to stay fast."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.contract import RoutingResult
from router.foreign_words import read_foreign_words
from router.german import read_german
from router.period_words import read_period_words
from router.romance import read_romance
from router.routing import RouterInputs, route
from router.vocabulary import (
    KNOWN_WORDS,
    VOCABULARY,
    close_word,
    normalise,
    reader_words,
    vocabulary_note,
)
from tests.unit.test_router_analysis import METRICS
from tests.unit.test_router_reading_metamorphic import AS_OF, CTX, GAZETTEER

INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
NAMES = ("Company A", "Company B", "Supplier Delta", "Supplier Beta", "Orbis Packaging AG")


@functools.cache
def _reading(question: str) -> tuple[object, ...]:
    """What a question is read as, its notes aside: the workflow, the plan or the question asked back."""
    result: RoutingResult = route(question, INPUTS)
    return (result.workflow, result.requires_clarification, result.execution_plan,
            result.clarification_question if result.requires_clarification else None)


# --- the table, pure ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("frame", ["{w} Company A Q1 2026", "Company B, Q3 2025: {w}?", "for the plan - {w} - thx"])
@pytest.mark.parametrize(("typed", "read_as"), [
    ("AP total", "total spend"), ("A/P", "spend"), ("QoQ chg", "QoQ change"), ("diff.", "difference"),
    ("EUR equiv", "EUR equivalent"), ("orig ccy", "original currency"), ("invs", "invoices"), ("hw much", "how much"),
    ("Kreditoren", "Lieferanten"), ("Aufstellung", "breakdown"), ("payables", "spend"),
])
def test_shorthand_reads_as_its_word_in_any_position(frame: str, typed: str, read_as: str) -> None:
    got = normalise(frame.format(w=typed), NAMES)
    assert got.text == frame.format(w=read_as), got


# (real words one edit from a word the corrector reads: "percentile" is no "percentage", "quartet" no "quarter")
REAL_WORDS = ("percentile", "percentiles", "purchasers", "equivalence", "originate", "deference", "raking",
              "quartet", "costa", "marche", "marcy", "princes", "comparé")


@pytest.mark.parametrize("word", REAL_WORDS)
@pytest.mark.parametrize("frame", ["Company B {w} Q1 2026", "what {w} of spend, Company A 2025?"])
def test_a_real_word_is_never_corrected(word: str, frame: str) -> None:
    assert close_word(word) is None
    got = normalise(frame.format(w=word), NAMES)
    assert got.text == frame.format(w=word) and got.read == (), got


@pytest.mark.parametrize(("question", "twin"), [
    ("Company A Q1 2026: what percentile of spend went to SUP-27?",
     "Company A Q1 2026: what percentage of spend went to SUP-27?"),
    ("Company B 2025: what percentile of invoices came from SUP-27?",
     "Company B 2025: what percentage of invoices came from SUP-27?"),
    ("Company A H2 2025 percentile of spend with Supplier Beta",
     "Company A H2 2025 percentage of spend with Supplier Beta"),
])
def test_a_real_word_is_not_read_as_its_neighbour(question: str, twin: str) -> None:
    # (the probe was answered as a share: "percentile" read as "percentage")
    assert "read 'percentile'" not in (route(question, INPUTS).interpretation or "")
    assert _reading(question) != _reading(twin), question


@pytest.mark.parametrize("question", [
    "How many invoices are still in AP?", "open AP for Company A, Q1 2026", "outstanding payables Company B",
    "unpaid payables Company A as of March 2026",
])
def test_ap_as_the_ledger_or_its_open_items_is_no_spend(question: str) -> None:
    assert normalise(question, NAMES).read == (), question


@pytest.mark.parametrize(("question", "read_as"), [
    ("Company A payables 2025", "Company A spend 2025"), ("AP Company B Q1 2026", "spend Company B Q1 2026"),
])
def test_ap_beside_a_company_or_period_is_the_spend(question: str, read_as: str) -> None:
    assert normalise(question, NAMES).text == read_as


@pytest.mark.parametrize(("question", "twin"), [
    ("Ausgaben Company A Q1 2026 im Vergleich zum Zeitraum davor", "Company A spend Q1 2026 vs the previous period"),
    ("Ausgaben Company B Q4 2025 im Vgl. zum Quartal davor", "Company B spend Q4 2025 vs the previous quarter"),
    ("Ausgaben Company A im Zeitraum Q1 2026", "Ausgaben Company A in Q1 2026"),
])
def test_the_german_readers_phrases_are_theirs(question: str, twin: str) -> None:
    # (the table read "Zeitraum" as "in" and "Quartal davor" as "Vorquartal" before the German reader saw them:
    # "im Vergleich zum Zeitraum davor" asked which period)
    assert not _reading(question)[1], _reading(question)
    assert _reading(question) == _reading(twin)


def _foreign(text: str) -> str | None:
    found = read_foreign_words(text, GAZETTEER)
    return found.text if found is not None else None


@pytest.mark.parametrize("reader", [read_german, read_romance, read_period_words, _foreign])
def test_no_surface_is_read_differently_by_another_reader(reader: Callable[[str], str | None]) -> None:
    # a reader that reads a whole surface of the table must read the table's word for it the same way: otherwise
    # the table, which runs first, overrules the reader's rule ("Quartal davor" -> "Vorquartal": the quarter
    # before the one named became the quarter before today)
    frames = ("Ausgaben Company A Q1 2026 {w}", "Company A spend Q1 2026 {w}",
              "Ausgaben Company A Q1 2026 im {w} zum Vorquartal")
    for surface, word in VOCABULARY.items():
        if word.casefold() == surface:
            continue
        for frame in frames:
            typed = reader(frame.format(w=surface)) or frame.format(w=surface)
            if any(re.search(rf"(?<!\w){re.escape(t)}(?!\w)", typed.casefold()) for t in re.findall(r"\w+", surface)):
                continue  # (the reader leaves the surface, or a word of it, as it is)
            assert typed == (reader(frame.format(w=word)) or frame.format(w=word)), (surface, frame, typed)


@pytest.mark.parametrize(("typed", "word"), [
    ("spned", "spend"), ("sepnd", "spend"), ("totla", "total"), ("invocies", "invoices"),
    ("Rechnugen", "Rechnungen"), ("Ausgabn", "Ausgaben"), ("Lieferaten", "Lieferanten"), ("suppleirs", "suppliers"),
    ("largets", "largest"), ("expenditrue", "expenditure"), ("Gutschirften", "Gutschriften"),
    ("purchses", "purchases"), ("currecny", "currency"), ("brekadown", "breakdown"),
])
def test_a_slip_reads_as_the_one_word_it_is_close_to(typed: str, word: str) -> None:
    assert close_word(typed) == word.casefold()
    got = normalise(f"Company B {typed} Q1 2026", NAMES)
    assert got.text == f"Company B {word} Q1 2026"
    assert f"read {typed!r} as {word!r}" in vocabulary_note(got)


@pytest.mark.parametrize("typed", [
    "spen", "totl", "speed", "spends", "invoiced", "supplies", "totals", "chance", "charge", "xyzzy", "Stefan",
    "sxemd",  # (two letters off a five-letter word: too far)
    "invoicse",  # (one edit from "invoice" and from "invoices": a tie is asked back)
    "pend",  # (short)
    "zpend",  # (the first letter differs: left alone)
])
def test_short_real_and_far_words_are_left_alone(typed: str) -> None:
    assert close_word(typed) is None
    assert normalise(f"Company B {typed} Q1 2026", NAMES).text == f"Company B {typed} Q1 2026"


@pytest.mark.parametrize("word", ["exceeding", "fatture", "freigegebene", "credito", "lieferungen", "ranging"])
def test_a_word_another_reader_knows_is_no_slip(word: str) -> None:
    # (one or two edits from "excluding", "facture", "freigegeben", "credit", "lieferanten", "ranking")
    assert word in reader_words() | KNOWN_WORDS
    assert close_word(word) is None


@pytest.mark.parametrize(("question", "kept"), [
    ("Supplier Delta spend Q1 2026", "Supplier Delta"),  # a name's span
    ("spend with delta in Q1 2026", "delta"),  # a name word in a payee's slot
    ("Delta spend Q1 2026", "Delta"),  # a name word typed as a name
    ("Spend with Supplier Delta at Company A, H1 2026?", "Supplier Delta"),  # the gazetteer's name
    ("Orbis Packaging AG spend Q1 2026", "Orbis Packaging AG"),
    ("Maria (AP-Team) asked", "AP-Team"),  # a word of a longer token
])
def test_names_are_never_rewritten(question: str, kept: str) -> None:
    assert kept in normalise(question, NAMES).text


def test_a_name_word_is_read_as_vocabulary_where_it_is_no_name() -> None:
    assert normalise("Company A Q4 2025 vs prior quarter - QoQ delta in EUR", NAMES).text == \
        "Company A Q4 2025 vs prior quarter - QoQ change in EUR"


def test_a_typo_of_a_name_word_is_left_to_the_name_reader() -> None:
    assert normalise("spend with Orbsi Packaging Q1 2026", ("Orbis Packaging",)).text == \
        "spend with Orbsi Packaging Q1 2026"


# --- routed: the same reading ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("typed", "plain"), [
    ("Company A AP total Q1 2026", "Company A total spend Q1 2026"),
    ("AP spend company b q4 2025 in EUR? ty", "spend company b q4 2025 in EUR? ty"),
    ("total A/P Company B Jan-Mar 2026", "total spend Company B Jan-Mar 2026"),
    ("Company B Q1 2026 vs prior qtr - QoQ chg in EUR", "Company B Q1 2026 vs prior qtr - QoQ change in EUR"),
    ("Company A payables 2025 split by invoice ccy", "Company A spend 2025 split by invoice currency"),
    ("Anzahl Rechnugen Company B Q1 2026", "Anzahl Rechnungen Company B Q1 2026"),
    ("ranking Kreditoren Company A 2025, Top 2", "ranking suppliers Company A 2025, Top 2"),
])
def test_a_vocabulary_question_is_read_as_its_plain_twin(typed: str, plain: str) -> None:
    assert _reading(typed) == _reading(plain)
    assert not _reading(typed)[1], typed


def test_the_answer_says_what_was_read() -> None:
    result = route("Company B AP spned Q1 2026", INPUTS)
    assert "read 'spned' as 'spend'" in (result.interpretation or "")


_FIGURES = ("spend", "invoices", "expenditure", "purchases")
_LETTERS = "abcdefghijklmnoprstuvwy"


def _slip(word: str, kind: int, at: int, letter: str) -> str:
    at = 1 + at % (len(word) - 1)  # (any letter but the first: a slip there is left alone, tested above)
    if kind == 0:
        return word[:at] + word[at + 1:]
    if kind == 1:
        return word[:at] + letter + word[at:]
    if kind == 2:
        return word[:at] + letter + word[at + 1:]
    at = min(at, len(word) - 2)
    return word[:at] + word[at + 1] + word[at] + word[at + 2:]


@settings(max_examples=15, deadline=None, derandomize=True)
@given(word=st.sampled_from(_FIGURES), kind=st.integers(0, 3), at=st.integers(0, 20),
       letter=st.sampled_from(_LETTERS), company=st.sampled_from(("Company A", "company b")))
def test_a_one_edit_slip_gives_the_same_reading_or_a_question(word: str, kind: int, at: int, letter: str,
                                                              company: str) -> None:
    typed = _slip(word, kind, at, letter)
    got = _reading(f"{company} {typed} Q1 2026")
    assert got == _reading(f"{company} {word} Q1 2026") or got[1], (typed, got)


@pytest.mark.parametrize(("question", "read_as"), [
    ("spend w/Supplier Beta Q1 2026", "spend with Supplier Beta Q1 2026"),  # (glued: the name stays a word)
    ("Company A spend Q1 2026 w/o Supplier Beta", "Company A spend Q1 2026 w/o Supplier Beta"),
    ("Maria from the AP team asks: Company A spend Q1 2026", "Maria from the AP team asks: Company A spend Q1 2026"),
    ("NB: Company A spend Q1 2026", "NB: Company A spend Q1 2026"),  # (nota bene, no number)
    ("nb of invoices Company A Q1 2026", "number of invoices Company A Q1 2026"),
    ("Company A spend b/w Jan and Mar 2026", "Company A spend between Jan and Mar 2026"),
    ("Ausgaben Ges. Company A lt. Vertrag", "Ausgaben company Company A laut Vertrag"),
])
def test_shorthand_is_written_out_where_it_is_shorthand(question: str, read_as: str) -> None:
    assert normalise(question, NAMES).text == read_as


@pytest.mark.parametrize("company", ["Company A", "company b"])
@pytest.mark.parametrize(("frame", "typed", "word"), [
    ("Anzahl {w} {c} im 1. Quartal 2026", "Rechnugen", "Rechnungen"),
    ("Anzahl {w} {c} im 1. Quartal 2026", "Rechnungne", "Rechnungen"),
    ("{w} {c} im 1. Quartal 2026", "Ausgbaen", "Ausgaben"),
    ("Ausgaben nach {w}, {c}, im 1. Quartal 2026", "Lieferantne", "Lieferanten"),
])
def test_a_german_slip_reads_as_the_german_word(company: str, frame: str, typed: str, word: str) -> None:
    question = frame.format(w=typed, c=company)
    assert _reading(question) == _reading(frame.format(w=word, c=company))
    assert not _reading(question)[1], question


@pytest.mark.parametrize(("question", "kept"), [
    ("Spend with Supplier Delta at Kestrel, H1 2026?", "Supplier Delta"),  # (no such supplier: asked about)
    ("invoices from Delta, Q1 2026", "from Delta"),
])
def test_a_capitalised_word_in_a_names_slot_is_a_name_of_no_known_party(question: str, kept: str) -> None:
    assert kept in normalise(question, ()).text


@pytest.mark.parametrize(("question", "read_as"), [
    ("Ranking Kreditoren Comp. A, Zeitraum 11/2025 bis 2/2026, Top 3",
     "Ranking Lieferanten Comp. A, in 11/2025 bis 2/2026, Top 3"),
    ("Ausgaben Company B im Zeitraum vom 01.01.2026 bis 31.03.2026",
     "Ausgaben Company B in vom 01.01.2026 bis 31.03.2026"),
])
def test_zeitraum_before_a_period_is_in(question: str, read_as: str) -> None:
    assert normalise(question, NAMES).text == read_as
