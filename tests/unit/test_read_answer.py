"""The answer-what-was-read decision rule (router/read_answer.py): subject and period read, no measure -> spend,
PARTIAL naming the unread words; constraint-shaped words and other asks keep asking."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from router.read_answer import answers_as_read, constraint_shaped, measure_slot_noun, negated_listing

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
    ("spend Company B con wibopu Q1", "wibopu"),  # an unknown word in a name slot: a name typed in lower case
    ("spend Company B since data start Jul-25", "since"),  # a period bound not read: the period may be another
    ("spend Company B desde jul 2025", "desde"),
])
def test_constraint_shaped_words_keep_asking(text: str, word: str) -> None:
    assert constraint_shaped(text, word, _G)
    assert not answers_as_read(text, (word,), _NO_INTENT, _Cues(), _G)


@pytest.mark.parametrize("cue", ["invoices", "invoice_count", "threshold_words", "unit_price", "price_comparison",
                                 "quantity", "approved", "agreement_question", "summary"])
def test_another_ask_keeps_asking(cue: str) -> None:
    assert not answers_as_read("spend Company B porfa Q1", ("porfa",), _NO_INTENT, replace(_Cues(), **{cue: True}), _G)


@pytest.mark.parametrize("words", [("furniture",), ("returns",), ("con", "furniture", "porfa"), ("outliers",),
                                   ("discounts",), ("stationery",), ("consulting",), ("the", "returns", "bitte"),
                                   ("equipment", "pls")])
@pytest.mark.parametrize("before", [True, False])
def test_goods_or_a_figure_noun_in_the_measure_slot_keeps_asking(words: tuple[str, ...], before: bool) -> None:
    # (a lone open-class noun where a measure or group stands names goods or a figure no reader read: never the
    # spend; the courtesy words around it are set aside before it is counted)
    text = f"spend {' '.join(words)} Company B Q1" if before else f"spend Company B Q1 {' '.join(words)}"
    assert measure_slot_noun(words) is not None
    assert not answers_as_read(text, words, _NO_INTENT, _Cues(), _G | {"the", "pls"})
    assert not answers_as_read(text, words, _NO_MEASURE, _Cues(), _G | {"the", "pls"})


@pytest.mark.parametrize("words", [("cumulative",), ("calendar",), ("full", "only"), ("rolling",), ("anything",),
                                   ("peak",), ("monthly",), ("sheet", "tab"), ("ganz", "sheet", "tab")])
def test_modifiers_of_time_or_shape_in_the_measure_slot_are_named_not_asked(words: tuple[str, ...]) -> None:
    assert measure_slot_noun(words) is None
    assert answers_as_read(f"spend Company B {' '.join(words)} Q1", words, _NO_INTENT, _Cues(), _G | set(words))


def test_a_time_unit_beside_a_courtesy_word_is_no_measure_word() -> None:
    # ("Kestrel com Gamma, mês a mês no 4T 2025": the unit of a period's cut is no figure named in the slot)
    assert answers_as_read("spend Kestrel com Gamma mês Q4", ("com", "mês"), _NO_INTENT, _Cues(),
                           _G | {"com", "mês", "mes"})


def test_other_clarifications_keep_asking() -> None:
    cues = _Cues()
    assert not answers_as_read("spend X porfa Q1", ("porfa",), ("entity: 'X' was not understood",), cues, _G)
    assert not answers_as_read("spend X porfa Q1", ("porfa",), (*_NO_INTENT, "period: the question names no period"),
                               cues, _G)
    assert not answers_as_read("spend Company B Q1", (), _NO_INTENT, cues, _G)


def test_a_capitalised_word_where_a_sentence_starts_is_no_name() -> None:
    assert not constraint_shaped("spend Porfa, Company B Q1", "Porfa", _G)
    assert not constraint_shaped("spend Company B Q1. Gracias", "Gracias", _G)


@pytest.mark.parametrize("text", ["Company A 2025-08 G/L 6110 total", "G/L account 4400 of Kestrel, May 2026"])
def test_a_gl_code_is_an_account_the_data_does_not_record(text: str) -> None:
    from router.dimensions import unknown_dimensions

    assert [d.label for d in unknown_dimensions(text)] == ["account"]


# --- the shape of the unread spans: metamorphic over subjects, languages and positions ---------------------------
_SUBJECTS = ("Company B", "Orbis x Company C", "all companies", "Kestrel Foods")
#: Chat, courtesy, foreign function words, common nouns and verbs of several languages: named, never asked.
_HARMLESS = (("thanks", "mate"), ("exposure", "across", "combined", "figure", "need"), ("cumulative",),
             ("calendar",), ("rolling",), ("lütfen",), ("proszę", "szybko"), ("bitte", "schnell"), ("vă", "rog"),
             ("anything",), ("sorry",), ("uno", "dos", "tres", "cuatro", "cinco", "seis"))


@pytest.mark.parametrize("subject", _SUBJECTS)
@pytest.mark.parametrize("words", _HARMLESS)
@pytest.mark.parametrize("before", [True, False])
def test_harmless_words_anywhere_are_named_not_asked(subject: str, words: tuple[str, ...], before: bool) -> None:
    fragment = " ".join(words)
    text = f"spend {fragment} {subject} Q1 2026" if before else f"spend {subject} Q1 2026 {fragment}"
    assert answers_as_read(text, words, _NO_MEASURE, _Cues(), _G | set(words))


@pytest.mark.parametrize("subject", _SUBJECTS)
@pytest.mark.parametrize("cue", ["not", "NOT", "didn't", "didnt", "without", "except", "sin", "ohne", "sem", "bez",
                                 "hariç", "excluding", "never"])
def test_a_negation_whose_scope_is_unread_keeps_asking(subject: str, cue: str) -> None:
    text = f"spend {subject}: which suppliers {cue} invoice Q1 2026"
    assert constraint_shaped(text, cue, _G | {"which", "invoice"})
    assert not answers_as_read(text, (cue, "invoice"), _NO_MEASURE, _Cues(), _G)


@pytest.mark.parametrize("text", ["spend Kestrel no 1T 2026", "spend Kestrel No. 5 Q1", "spend Kestrel Q1 no"])
def test_a_bare_negator_before_no_word_is_no_negation(text: str) -> None:
    assert not constraint_shaped(text, "no" if " no" in text else "No", _G | {"no"})


@pytest.mark.parametrize("word", ["cheaper", "precio", "barato", "günstiger", "goedkoper", "tańszy", "ucuz",
                                  "ieftin", "prix"])
def test_a_price_word_keeps_asking_for_the_product(word: str) -> None:
    assert not answers_as_read(f"spend Company B {word} Q1", (word,), _NO_INTENT, _Cues(), _G | {word})


@pytest.mark.parametrize("word", ["invoice", "invoices", "faktury", "faturas", "facturas", "contract", "umowa",
                                  "notas"])
def test_a_document_noun_keeps_asking(word: str) -> None:
    assert not answers_as_read(f"spend Company B last {word} Q1", ("last", word), _NO_INTENT, _Cues(), _G | {word})


@pytest.mark.parametrize("word", ["region", "project", "site", "department", "budget", "forecast", "presupuesto"])
def test_a_field_the_data_does_not_carry_keeps_asking(word: str) -> None:
    assert not answers_as_read(f"spend Company B {word} Q1", (word,), _NO_INTENT, _Cues(), _G | {word})


@pytest.mark.parametrize(("text", "word"), [
    ("spend Labcorp Supplies, Xenon Q1", "Labcorp"),  # two capitalised words where a sentence starts: a name
    ("spend Xenon Q1 from Labcorp", "Labcorp"),
    ("spend Xenon Q1 Labcorp", "Labcorp"),  # an unknown capitalised word inside the sentence
    ("spend Xenon Q1 @ labcorp", "labcorp"),  # lower case in a name slot
    ("spend Xenon QX7 Q1", "QX7"),  # a code
    ("spend Xenon Q1 cabels", "cabels"),  # a slip of a word of the tenant's catalogue
])
def test_a_name_shaped_word_keeps_asking(text: str, word: str) -> None:
    assert not answers_as_read(text, (word,), _NO_INTENT, _Cues(), _G, things=frozenset({"cables", "xenon"}))


@pytest.mark.parametrize(("text", "word"), [("spend URGENT Xenon Q1", "URGENT"), ("spend Xenon Q1 PLS", "PLS"),
                                            ("spend Xenon GmbH Q1", "GmbH"), ("spend Xenon Q1 EUR", "EUR")])
def test_loud_courtesy_legal_forms_and_currencies_are_no_names(text: str, word: str) -> None:
    assert answers_as_read(text, (word,), _NO_INTENT, _Cues(), _G | {"urgent", "pls"})


@pytest.mark.parametrize(("text", "spans", "asks"), [
    ("spend Kestrel top 2 tedarikci Q1", [(6, 13), (29, 31)], True),  # "2" unread: a count the spend drops
    ("spend Kestrel ref 4711 Q1", [(6, 13), (23, 25)], True),
    ("spend Kestrel tedarikci Q1", [(6, 13), (24, 26)], False),
])
def test_an_unread_digit_keeps_asking(text: str, spans: list[tuple[int, int]], asks: bool) -> None:
    unread = tuple(w for w in ("top", "tedarikci", "ref") if f" {w} " in text)
    assert answers_as_read(text, unread, _NO_INTENT, _Cues(), _G, spans=spans) is not asks


@pytest.mark.parametrize("word", ["faturalar", "facturen", "invoiced", "fakturami"])
def test_a_form_of_a_document_noun_keeps_asking(word: str) -> None:
    assert constraint_shaped(f"spend Xenon Q1 mükerrer {word}", word, _G)


@pytest.mark.parametrize("lead", ["everything", "anything", "everyone"])
@pytest.mark.parametrize("name", ["Gamma", "Beta Trading", "Orbis"])
def test_every_one_but_a_name_is_an_exclusion(lead: str, name: str) -> None:
    text = f"spend Kestrel Aug 2025, {lead} but {name}"
    assert constraint_shaped(text, lead, _G | {lead})
    assert not constraint_shaped("spend Kestrel Aug 2025, thanks but urgent", "thanks", _G | {"thanks"})


@pytest.mark.parametrize(("text", "found"), [
    ("which suppliers did Company A not pay in Q1 2026", ("not pay", "which suppliers")),
    ("who did Company A never pay in Q1", ("never pay", "who")),
    ("Company A suppliers we didn't pay Q1 2026", ("didn't pay",)),
    ("Company A spend Q1, suppliers not approved", ()),  # a status: the negation reader's own
    ("Company A spend Q1 (paid invoices not included)", ()),
    ("Company A spend Q1 not counting Beta", ()),  # an exclusion
    ("Company A spend Q1, not Beta", ()),
])
def test_a_negated_verb_left_unread_is_found(text: str, found: tuple[str, ...]) -> None:
    assert negated_listing(text, []) == found
