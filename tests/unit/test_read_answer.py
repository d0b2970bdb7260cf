"""The answer-what-was-read decision rule (router/read_answer.py): subject and period read, no measure -> spend,
PARTIAL naming the unread words; constraint-shaped words and other asks keep asking."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from router.read_answer import answers_as_read, constraint_shaped

_NO_INTENT = ("intent: no retrieval intent reached the confidence threshold",)
#: The general word list, as far as these tests use it (router/unread_words.py's, loaded once by the router).
_G = frozenset("""
sheet tab view furniture returns porfa con todos ganz bitte stp nordwind pumpen presupuesto orcamento forecast jul
mar gracias bu since desde
""".split())  # noqa: SIM905 - a word list reads better as text
_NO_MEASURE = ("measure: the question names a company and a period but no figure the reading understood",)


@dataclass(frozen=True)
class _Cues:
    invoices: bool = False
    invoice_count: bool = False
    threshold_words: bool = False
    unit_price: bool = False
    price_comparison: bool = False
    quantity: bool = False
    approved: bool = False
    agreement_question: bool = False
    summary: bool = False


@pytest.mark.parametrize("subject", ["Company B", "Lambda Controls x Company C", "all companies", "Kestrel"])
@pytest.mark.parametrize("words", [("porfa",), ("con", "porfa"), ("todos",), ("ganz", "bitte"), ("stp",),
                                   ("sheet", "tab", "view")])
@pytest.mark.parametrize("reasons", [_NO_INTENT, _NO_MEASURE])
def test_filler_words_beside_subject_and_period_are_answered(subject: str, words: tuple[str, ...],
                                                             reasons: tuple[str, ...]) -> None:
    text = f"spend {subject} {' '.join(words)} 2026-Q1"
    assert answers_as_read(text, words, reasons, _Cues(), _G)


@pytest.mark.parametrize(("text", "word"), [
    ("spend Company B Nordwind Pumpen Q1", "Nordwind"),  # a capitalised unknown name inside the sentence
    ("spend Company B ref XK7 Q1", "XK7"),  # a code
    ("spend Company B BU Q1", "BU"),  # capitals: a code or a name
    ("spend Company B presupuesto Q1", "presupuesto"),  # a figure the data does not carry
    ("spend Company B orçamento Q1", "orçamento"),
    ("spend Company B forecast Q1", "forecast"),
    ("spend Company B jul a mar", "jul"),  # a period word not read
    ("spend Company B wibopu Q1", "wibopu"),
    ("spend Company B since data start Jul-25", "since"),  # a period bound not read: the period may be another
    ("spend Company B desde jul 2025", "desde"),  # an invented token: a slip of a name, or a code
])
def test_constraint_shaped_words_keep_asking(text: str, word: str) -> None:
    assert constraint_shaped(text, word, _G)
    assert not answers_as_read(text, (word,), _NO_INTENT, _Cues(), _G)


@pytest.mark.parametrize("cue", ["invoices", "invoice_count", "threshold_words", "unit_price", "price_comparison",
                                 "quantity", "approved", "agreement_question", "summary"])
def test_another_ask_keeps_asking(cue: str) -> None:
    assert not answers_as_read("spend Company B porfa Q1", ("porfa",), _NO_INTENT, replace(_Cues(), **{cue: True}), _G)


@pytest.mark.parametrize("words", [("furniture",), ("returns",), ("sheet", "tab")])
def test_an_open_class_word_alone_in_the_measure_slot_keeps_asking(words: tuple[str, ...]) -> None:
    assert not answers_as_read(f"spend Company B {' '.join(words)} Q1", words, _NO_INTENT, _Cues(), _G)


@pytest.mark.parametrize("words", [("con", "furniture", "porfa"), ("the", "returns", "por", "favor"),
                                   ("furniture", "bitte"), ("ganz", "sheet", "tab")])
def test_courtesy_words_do_not_let_an_open_word_through(words: tuple[str, ...]) -> None:
    # (the open-class words are counted once the closed-class ones are set aside)
    assert not answers_as_read(f"spend YTD Company A {' '.join(words)}", words, _NO_INTENT, _Cues(),
                               _G | {"the", "por", "favor"})


def test_a_time_unit_beside_a_courtesy_word_is_no_measure_word() -> None:
    # ("Kestrel com Gamma, mês a mês no 4T 2025": the unit of a period's cut is no figure named in the slot)
    assert answers_as_read("spend Kestrel com Gamma mês Q4", ("com", "mês"), _NO_INTENT, _Cues(),
                           _G | {"com", "mês", "mes"})


def test_other_clarifications_and_too_many_words_keep_asking() -> None:
    cues = _Cues()
    assert not answers_as_read("spend X porfa Q1", ("porfa",), ("entity: 'X' was not understood",), cues, _G)
    assert not answers_as_read("spend X porfa Q1", ("porfa",), (*_NO_INTENT, "period: the question names no period"),
                               cues, _G)
    many = ("uno", "dos", "tres", "cuatro", "cinco")
    assert not answers_as_read(f"spend Company B {' '.join(many)} Q1", many, _NO_INTENT, cues, _G)
    assert not answers_as_read("spend Company B Q1", (), _NO_INTENT, cues, _G)


def test_a_capitalised_word_where_a_sentence_starts_is_no_name() -> None:
    assert not constraint_shaped("spend Porfa, Company B Q1", "Porfa", _G)
    assert not constraint_shaped("spend Company B Q1. Gracias", "Gracias", _G)


@pytest.mark.parametrize("text", ["Company A 2025-08 G/L 6110 total", "G/L account 4400 of Kestrel, May 2026"])
def test_a_gl_code_is_an_account_the_data_does_not_record(text: str) -> None:
    from router.dimensions import unknown_dimensions

    assert [d.label for d in unknown_dimensions(text)] == ["account"]
