"""Tables read by more than one reader come from their owner: the courtesy words before a name cue are the
envelope's (router/envelope.py), and the month tables the period readers share are public names of the modules that
own them. New phrasings, written for these tests."""

from __future__ import annotations

import pytest

from router import german, period_grammar, period_leftovers, period_words, romance
from router.envelope import CLOSINGS, GREETINGS, SIGN_OFF_WORDS
from router.name_cues import cued_names

_TABLE_WORDS = {w for table in (GREETINGS, CLOSINGS) for phrases in table.values() for p in phrases
                for w in p.split()}
#: The other spellings of table words ("ue" for "ü", "ss" for "ß"), and "love", which the tables leave out.
_OTHER_SPELLINGS = {"grueß", "grueße", "love"}


def test_every_sign_off_word_is_a_word_of_the_envelope_tables() -> None:
    assert {w for phrase in SIGN_OFF_WORDS for w in phrase.split()} - _TABLE_WORDS == _OTHER_SPELLINGS


def _known(word: str) -> bool:
    return word.lower() in {"spend", "in", "q3", "2025", "total"}


@pytest.mark.parametrize("courtesy", sorted(SIGN_OFF_WORDS))
@pytest.mark.parametrize(("cue", "place"), [("from", "Lisbon"), ("von", "Jonas"), ("bei", "Hamburg"),
                                             ("with", "Ingrid")])
def test_a_cue_after_a_sign_off_word_opens_no_name_slot(courtesy: str, cue: str, place: str) -> None:
    for written in (courtesy, courtesy.capitalize(), courtesy.upper()):
        assert cued_names(f"total    in q3. {written} {cue} {place}", _known) == []
        assert cued_names(f"total    in q3. {written}, {cue} {place}", _known) == []


@pytest.mark.parametrize("opener", ["spend", "total", "invoices", "budget", "lovely", "thanksgiving"])
def test_a_cue_after_any_other_word_is_a_name_slot(opener: str) -> None:
    assert cued_names(f"q3 {opener} with Oakridge", _known) == [(len(f"q3 {opener} with "),
                                                                  len(f"q3 {opener} with Oakridge"), "Oakridge")]


def test_the_shared_month_tables_are_the_owners_tables() -> None:
    assert german.GERMAN_MONTHS["dezember"] == 12 and german.GERMAN_MONTHS is german._MONTH_NUMBERS
    assert romance.ROMANCE_MONTHS["juillet"] == 7 and romance.ROMANCE_MONTHS is romance._MONTHS
    assert "mars" in romance.AMBIGUOUS_MONTHS and set(romance.ROMANCE_MONTHS) >= romance.AMBIGUOUS_MONTHS
    assert period_words.ALL_MONTHS["ott"] == 10 and "out" in period_words.SHAPED_ONLY_MONTHS
    assert set(period_words.ALL_MONTHS) <= period_words.KNOWN_MONTHS
    # the readers that share them read from the public names
    assert period_grammar._GERMAN_MONTHS is german.GERMAN_MONTHS
    assert period_grammar._ROMANCE_MONTHS is romance.ROMANCE_MONTHS
    assert period_grammar._ALL_MONTHS is period_words.ALL_MONTHS
    assert period_leftovers._KNOWN_MONTHS is period_words.KNOWN_MONTHS
