"""Which unread words are names (router/name_slots.py's plain-language rule, router/unread_words.py's closed-class
table): a span made only of closed-class words of any language the readers know is ordinary language, named on a
PARTIAL answer, never asked about as an unknown company or supplier; a made-up name in the same place, lowercase
after a cue, capitalised, all caps or code-shaped, is still asked about.
"""

from __future__ import annotations

import datetime as dt

import pytest

from router.entities import Company, Gazetteer, ProductGroup
from router.name_slots import name_core, plain_language
from router.reader import read
from router.unread_words import CLOSED_CLASS_WORDS, closed_class

AS_OF = dt.date(2026, 5, 15)
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Alpenland Logistik AG", "EUR"), Company("COMP-K", "Kestrel Lebensmittel GmbH", "EUR")],
    [("SUP-40", "Orbis Packaging AG"), ("SUP-18", "Northwind Sensors Ltd")],
    [("Orbis Packaging", "SUP-40"), ("Northwind Sensors", "SUP-18")],
    [ProductGroup("PG-PACK", "Packaging"), ProductGroup("PG-SENS", "Sensors")],
)
MADE_UP = ("Zorbix", "Quillon", "Vantrex")


def _asked(question: str) -> list[str]:
    return [u.text for u in read(question, GAZETTEER, AS_OF).not_understood if u.kind in ("name", "category")]


def _aside(question: str) -> list[str]:
    return [u.text for u in read(question, GAZETTEER, AS_OF).unslotted]


@pytest.mark.parametrize(("word", "kind"), [
    # one table, many languages: function words, verbs of asking and buying, quantities, states, time units, kinds
    ("nosotros", "function"), ("vocês", "function"), ("quelle", "function"), ("wieso", "function"),
    ("perché", "function"), ("waarom", "function"), ("dlaczego", "function"), ("proč", "function"),
    ("între", "function"), ("için", "function"), ("hvorfor", "function"), ("whether", "function"),
    ("necesitamos", "verb"), ("gostaria", "verb"), ("voudrais", "verb"), ("bräuchte", "verb"), ("vorrei", "verb"),
    ("gekocht", "verb"), ("kupiliśmy", "verb"), ("koupili", "verb"), ("cumpărat", "verb"), ("harcadık", "verb"),
    ("kjøpt", "verb"), ("heard", "verb"),
    ("menos", "quantity"), ("meisten", "quantity"), ("najwięcej", "quantity"), ("aucune", "quantity"),
    ("amount", "quantity"), ("più", "quantity"),
    ("vencidos", "status"), ("überfällig", "status"), ("pagado", "status"), ("openstaande", "status"),
    ("Tage", "time"), ("jours", "time"), ("miesiące", "time"), ("månad", "time"),
    ("productos", "record"), ("e-mail", "record"), ("groupe", "record"),
    ("Zorbix", None), ("hydraulics", None), ("catering", None),
])
def test_the_closed_class_table_covers_many_languages(word: str, kind: str | None) -> None:
    assert closed_class(word) == kind


def test_negation_and_exclusion_words_are_never_plain() -> None:
    # "sin Beta", "ohne Gamma": the word turns the name after it into a constraint, whichever table spells it
    assert all(closed_class(w) is None for w in ("sin", "ohne", "sans", "without", "not", "kein", "zonder"))


def test_every_class_is_a_set_of_single_words() -> None:
    assert all(" " not in w and w == w.strip() for ws in CLOSED_CLASS_WORDS.values() for w in ws)


@pytest.mark.parametrize(("text", "phrase", "plain"), [
    ("cuanto le vendimos y compramos a Orbis", "compramos", True),
    ("ich bräuchte bitte den Spend", "ich bräuchte", True),
    ("wie viele Tage netto", "Tage", True),            # a German noun, capitalised mid-sentence
    ("the deck says it was more", "deck says", True),
    ("spend with Zorbix in Q1", "Zorbix", False),
    ("spend with zorbix in Q1", "zorbix", False),      # lowercase, in a name slot, of no class: a name
    ("spend with supplier e in Q1", "e", False),       # one letter: a supplier's letter
    ("spend of company z in Q1", "company z", False),  # (after a kind noun, in any case)
    ("spend of Firma Q in Q1", "Firma Q", False),
    ("Kestrel Total spend", "Total", False),           # an English word capitalised mid-sentence
    ("spend for JP fiscal year", "JP", False),         # all capitals
    ("spend on FreshFruit lines", "FreshFruit", False),  # capitals inside
    ("3rd-party spend", "3rd-party", False),           # a digit inside
])
def test_plain_language_decides_by_class_and_shape(text: str, phrase: str, plain: bool) -> None:
    assert plain_language(text, text.index(phrase), phrase) is plain


@pytest.mark.parametrize("lead", ["foi em", "pueden pasar", "ich brauche", "we bought", "kupiliśmy w", "vorrei"])
@pytest.mark.parametrize("name", ["Zorbix Metal", "Quillon", "Vantrex GmbH"])
def test_name_core_cuts_plain_words_off_the_edges(lead: str, name: str) -> None:
    text = f"Kestrel: how much {lead} {name} in Q1?"
    phrase = f"{lead} {name}"
    a, b = name_core(text, text.index(phrase), phrase)
    assert phrase[a:b] == name


def test_name_core_never_cuts_a_name_to_a_letter_nor_a_capitalised_word() -> None:
    assert name_core("spend of Company D", 9, "Company D") == (0, 9)
    assert name_core("spend on it hardware", 9, "it hardware") == (0, 11)  # a lowercase core: the phrase whole
    assert name_core("spend with Da Costa", 11, "Da Costa") == (0, 8)


@pytest.mark.parametrize("plain", [
    "pueden pasar", "menos", "produto teve mais", "ya está pagado", "meisten", "wydaliśmy", "harcadık", "kjøpt",
])
@pytest.mark.parametrize("frame", ["Kestrel {w} spend Q4 2025", "how much {w} with Orbis at Kestrel in Q4 2025"])
def test_plain_words_in_a_slot_are_named_not_asked(plain: str, frame: str) -> None:
    question = frame.format(w=plain)
    assert not any(plain in t for t in _asked(question)), question
    # (named whole or in part: a reader may take a word of it, "ya está" read, "pagado" named)
    assert any(t in plain or plain in t for t in _aside(question)), question


@pytest.mark.parametrize("name", MADE_UP)
@pytest.mark.parametrize("frame", [
    "Kestrel {w} spend Q4 2025", "how much with {w} at Kestrel in Q4 2025", "how much with {l} at Kestrel in Q4 2025",
    "Kestrel spend on {w} Q4 2025", "Kestrel: how much compramos em {w} in Q4 2025?",
])
def test_made_up_names_in_the_same_slots_are_still_asked(name: str, frame: str) -> None:
    question = frame.format(w=name, l=name.lower())
    assert any(name.lower() in t.lower() for t in _asked(question)), question


def test_a_known_group_behind_plain_words_is_read() -> None:
    # "foi em Sensors": the plain words cut off, the group read; the figure's scope is the group
    reading = read("Kestrel: quanto foi em Sensors no Q1 2026?", GAZETTEER, AS_OF)
    assert reading.entities.product_group_id == "PG-SENS"
    assert not [u for u in reading.not_understood if u.kind in ("name", "category")]


@pytest.mark.parametrize("written", ["Alpenland Lgstk", "Alpenland Log.", "Alpenland Lo", "Kestrel Lbnsmttl"])
def test_an_abbreviated_next_word_of_a_company_name_is_the_company(written: str) -> None:
    reading = read(f"{written} spend in Q1 2026", GAZETTEER, AS_OF)
    assert reading.entities.company_id in ("COMP-A", "COMP-K")
    assert not [u for u in reading.not_understood if u.kind in ("name", "category")]


@pytest.mark.parametrize("written", ["Alpenland Brno", "Kestrel Zorbix"])
def test_another_word_after_a_company_is_still_asked(written: str) -> None:
    assert any(written.split()[1] in t for t in _asked(f"{written} spend in Q1 2026"))


@pytest.mark.parametrize("cue", ["not", "minus", "excluding"])
@pytest.mark.parametrize(("plain", "asked"), [("sure", False), ("amount", False), ("Zorbix", True)])
def test_an_exclusion_target_of_plain_words_is_named_not_asked(cue: str, plain: str, asked: bool) -> None:
    question = f"Kestrel spend Q1 2026 ({cue} {plain})"
    assert any(plain in t for t in _asked(question)) is asked, question
