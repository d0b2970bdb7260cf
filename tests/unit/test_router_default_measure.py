"""The default figure, stated (router/default_measure.py), relationship asks by their shape
(router/relation_shapes.py) and the count shapes of router/count_asks.py, without a database.

A fragment with a company and a period and one unknown word where the figure's name stands is the spend, the
word named as read ("I read 'burn' as spend"), marked partial; a figure word the data lacks keeps the question
back; a name or a slip of a catalogue word is never a measure. The slots are varied: the word (English,
other languages, invented), its position (first, middle, last), the company's spelling and the period notation.
"""

from __future__ import annotations

import pytest

from router.count_asks import count_asks
from router.default_measure import (
    CREDIT_FIGURE,
    DEFAULT_FIGURE,
    DEFAULT_NET_FIGURE,
    assumed_measure,
    spend_synonym,
    thing_words,
    with_assumed_measure,
)
from router.elliptic import elliptic_spend
from router.relation_shapes import read_relation_shape
from router.routing import RouterInputs, route
from router.unread_words import general_words
from tests.unit.test_router_rankings_counts import CATALOG
from tests.unit.test_router_statuses import AS_OF, CTX, GAZETTEER, METRICS

_INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG)
_THINGS = thing_words(["Company A", "Supplier Beta", "Cabling", "Calibration Equipment", "Actuator kit"])
#: The general word list (router/unread_words.py): English and the words of every reader's table.
_GENERAL = general_words()

# --- the pure rule ---------------------------------------------------------------------------------------------------

_MEASURE_WORDS = ("burn", "actuals", "outgoings", "spendings", "uitgaven", "wydatki", "drain", "Burn")
_SCOPES = ("Co A H2 2025", "company a Q3/2025", "COMP-A 10/2025 - 01/2026", "comp a fy25")


@pytest.mark.parametrize("word", _MEASURE_WORDS)
@pytest.mark.parametrize("scope", _SCOPES)
@pytest.mark.parametrize("where", ["first", "last"])
def test_a_word_in_the_measure_slot_is_read_as_the_spend(word: str, scope: str, where: str) -> None:
    word = word if where == "first" else word.lower()  # (capitalised only where the fragment starts)
    fragment = f"{word} {scope}?" if where == "first" else f"{scope} {word} pls"
    text = f"spend {fragment}"
    found = assumed_measure(text, (word,), _THINGS, _GENERAL)
    assert found is not None, fragment
    assert found.words == (word,) and found.figure == DEFAULT_FIGURE
    assert word not in found.text and scope in found.text  # the word goes, every other slot stays


@pytest.mark.parametrize("word", ["budget", "Budgets", "forecast", "plan", "targets", "headcount", "margin",
                                  "revenue", "payroll", "accruals", "ordered"])
def test_a_figure_the_data_lacks_keeps_the_question_back(word: str) -> None:
    assert not spend_synonym(word)
    assert assumed_measure(f"spend {word} Co A H2 2025", (word,), _THINGS, _GENERAL) is None


@pytest.mark.parametrize(("text", "words"), [
    ("spend Company A Umbrella Supplies nov 2025", ("Umbrella", "Supplies")),  # a name, capitalised inside
    ("spend Company A Umbrella nov 2025", ("Umbrella",)),
    ("spend co a ACMEX nov 2025", ("ACMEX",)),  # all capitals, no word of the language: an acronym or a name
    ("spend co a xyzzy nov 2025", ("xyzzy",)),  # an invented token: a slip or a code, asked about
    ("spend co a frobnik nov 2025", ("frobnik",)),
    ("spend calibraton co a h2", ("calibraton",)),  # a slip of a group's word
    ("spend cables co a 2025", ("cables",)),  # a form of a group's word
    ("spend co a sensors h2 stuff", ("sensors", "stuff")),  # two words apart: two things, not one measure
    ("spend co a a b c h2", ("alpha", "beta", "gamma")),  # three words: another question
    ("spend how much w siemens q1 co a", ("siemens",)),  # after a preposition: a party's slot
    ("spend co c h2 by supplier and by buyer", ("buyer",)),  # a grouping's slot
    ("spend co a on widgets h2", ("widgets",)),  # a thing's slot
    ("spend comp=Company A period=2025-Q4 scope=all", ("scope",)),  # a key of a key=value notation
    ('spend {"company": "Company A", "period": "2025-Q4"}', ("period",)),  # a JSON key
    ("spend n_invoices where company=Company A and period=2025-Q4", ("period",)),  # the measure as a field name
    ("spend What last year?", ("about",)),  # a follow-up's function word ("What about last year?")
    ("spend how Q2 co a?", ("about",)),
    ("spend same again for Q3 company b", ("same", "again")),
])
def test_names_things_and_several_words_are_never_a_measure(text: str, words: tuple[str, ...]) -> None:
    assert assumed_measure(text, words, _THINGS, _GENERAL) is None


def test_a_word_sharing_only_a_beginning_with_a_catalogue_word_is_still_a_measure() -> None:
    assert assumed_measure("spend actuals co a h2", ("actuals",), _THINGS, _GENERAL) is not None  # "Actuator kit"


def test_a_capitalised_word_starting_the_fragment_and_a_shouted_general_word_are_words() -> None:
    assert assumed_measure("spend Burn KESTREL FY25", ("Burn",), _THINGS, _GENERAL) is not None
    assert assumed_measure("spend BURN co a FY25", ("BURN",), _THINGS, _GENERAL) is not None


@pytest.mark.parametrize("basis", ["gross", "incl VAT", "including VAT", "brutto", "(EUR, incl. VAT)", "EUR"])
def test_the_gross_basis_and_the_currency_are_no_second_measure_word(basis: str) -> None:
    text = f"spend co a burn Q1 2026 {basis}"
    words = ("burn", *(w for w in basis.replace("(", " ").replace(",", " ").replace(")", " ").split()
                        if w.isalpha() and w.lower() not in ("incl", "including")))
    found = assumed_measure(text, words, _THINGS, _GENERAL)
    assert found is not None and found.words == ("burn",), (text, words)


@pytest.mark.parametrize("basis", ["incl VAT", "gross"])
def test_the_gross_basis_leaves_a_fragment_elliptic(basis: str) -> None:
    assert elliptic_spend(f"Ypsilon 10/2025 - 01/2026 {basis}") is not None
    assert elliptic_spend("Ypsilon 10/2025 VAT") is None  # the tax alone is another figure


def test_the_net_basis_is_said_without_vat() -> None:
    found = assumed_measure("spend co a burn q1 net of VAT", ("burn",), _THINGS, _GENERAL, net=True)
    assert found is not None and found.figure == DEFAULT_NET_FIGURE


@pytest.mark.parametrize("words", [("refunds",), ("credits",), ("refunds", "credits"), ("reimbursements",)])
def test_reversal_words_are_the_credit_notes(words: tuple[str, ...]) -> None:
    text = f"spend comp C {'/'.join(words)} since January"
    found = assumed_measure(text, words, _THINGS, _GENERAL)
    assert found is not None and found.figure == CREDIT_FIGURE
    assert found.text == "comp C credit notes since January"


def test_the_answer_says_how_it_read_the_word_and_is_partial() -> None:
    from router.answer import Answer

    answer = Answer(status="answered", text="Company A's total spend ... was 10.00 EUR.", result={"status": "ok"},
                    inputs={}, sources=())
    marked = with_assumed_measure(answer, ("burn",), DEFAULT_FIGURE)
    assert marked.status == "partial"
    assert marked.text.startswith("PARTIAL: I read 'burn' as spend (posted and paid invoice totals, incl. VAT)")
    assert marked.result["not_understood"] == ["burn"]
    assert with_assumed_measure(answer, (), DEFAULT_FIGURE) is answer


# --- routed (the tenant of the unit fixtures) ------------------------------------------------------------------------


@pytest.mark.parametrize("ask", ["actuals Company A H2 2025?", "Company A outgoings Q3 2025 pls",
                                 "comp a 10/2025 - 01/2026 burn (EUR, incl VAT)"])
def test_a_routed_fragment_with_a_measure_word_is_the_spend_stated(ask: str) -> None:
    result = route(ask, _INPUTS)
    assert not result.requires_clarification, result.clarification_question
    assert result.assumed_measure and result.assumed_figure == DEFAULT_FIGURE
    assert any(step.tool == "semantic_metric" or "spend" in step.tool for step in result.execution_plan) or \
        result.workflow in ("spend", "metric"), result.workflow
    assert "read as spend" in result.interpretation


@pytest.mark.parametrize("ask", ["budget Company A H2 2025?", "Company A forecast Q3 2025"])
def test_a_routed_fragment_asking_a_lacking_figure_is_not_answered_as_spend(ask: str) -> None:
    result = route(ask, _INPUTS)
    assert not result.assumed_measure
    assert result.requires_clarification or result.workflow == "unsupported"


# goods, figures the data lacks and other words outside the closed class of spend synonyms: never the spend
@pytest.mark.parametrize("word", ["laptops", "furniture", "consulting", "returns", "discounts", "emissions",
                                  "drinks", "rebates", "volume"])
def test_a_word_outside_the_spend_synonyms_is_never_the_spend(word: str) -> None:
    assert not spend_synonym(word)
    assert assumed_measure(f"spend {word} Co A H2 2025", (word,), _THINGS, _GENERAL | {word}) is None


@pytest.mark.parametrize("ask", ["laptops Company A H2 2025", "furniture Company A H2 2025",
                                 "consulting Company A H2 2025", "returns Company A H2 2025",
                                 "discounts Company A H2 2025", "Company A stationery Q3 2025"])
def test_a_routed_fragment_with_goods_or_a_lacking_figure_is_not_answered_as_spend(ask: str) -> None:
    result = route(ask, _INPUTS)
    assert not result.assumed_measure, ask
    assert result.requires_clarification or result.workflow == "unsupported", (ask, result.workflow)


@pytest.mark.parametrize("ask", ["emissions Company A H2 2025", "Company A CO2 emissions Q3 2025",
                                 "headcount Company A H2 2025"])
def test_an_unserved_measure_keeps_its_refusal_never_retried_as_spend(ask: str) -> None:
    result = route(ask, _INPUTS)
    assert not result.assumed_measure, ask
    assert result.requires_clarification and "cannot compute" in (result.clarification_question or ""), \
        result.clarification_question


@pytest.mark.parametrize("asking", ["need", "pls", "gimme"])
def test_a_request_word_beside_the_measure_is_no_second_measure_word(asking: str) -> None:
    found = assumed_measure(f"spend {asking} burn FY25 Q3 Co A, gross", (asking, "burn", "gross"), _THINGS,
                            _GENERAL)
    assert found is not None and found.words == ("burn",)
    assert assumed_measure(f"spend {asking} laptops Co A FY25", (asking, "laptops"), _THINGS, _GENERAL) is None


@pytest.mark.parametrize("word", ["expenditure", "outlays", "disbursements", "purchases", "Ausgaben", "dépenses"])
def test_spend_synonyms_of_the_closed_class_are_read_as_spend(word: str) -> None:
    assert spend_synonym(word)


# --- relationship asks by shape ------------------------------------------------------------------------------------


@pytest.mark.parametrize("wh", ["who", "which suppliers", "which vendors", "what vendors", "which of our suppliers"])
@pytest.mark.parametrize("permission", ["are we (Company A) allowed to", "can Company A", "may Company A",
                                        "is Company A permitted to", "is Company A cleared to"])
@pytest.mark.parametrize("verb", ["buy", "order", "purchase", "source"])
def test_whom_one_may_buy_from_is_the_approved_vendor_list(wh: str, permission: str, verb: str) -> None:
    said = read_relation_shape(f"hi, {wh} {permission} {verb} from right now?")
    assert said is not None and "approved suppliers" in said and "Company A" in said and "right now" in said


@pytest.mark.parametrize("ask", ["which suppliers did we buy from in Q1", "who do we order from",
                                 "what can we buy from Supplier Beta", "how much did we buy from Beta"])
def test_purchases_made_and_goods_asked_are_not_the_approved_list(ask: str) -> None:
    assert read_relation_shape(ask) is None


def test_a_routed_permission_ask_plans_the_approved_vendors() -> None:
    result = route("hello, who are we (Company A) allowed to buy from right now?", _INPUTS)
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow == "approved_vendors"


@pytest.mark.parametrize("ask", ["who are we (Company A) no longer allowed to buy from",
                                 "which suppliers can Company A not order from",
                                 "which vendors are we not permitted to buy from?",
                                 "who can't we order from", "who are we never allowed to source from",
                                 "which suppliers are we allowed to buy from anymore"])
def test_a_negated_permission_is_never_the_approved_list(ask: str) -> None:
    assert read_relation_shape(ask) is None
    result = route(ask, _INPUTS)
    assert result.workflow != "approved_vendors", (ask, result.workflow)


def test_the_shape_is_rewritten_only_when_no_reader_answers_the_question_as_typed(monkeypatch) -> None:
    import router.routing as routing

    seen: list[str] = []
    monkeypatch.setattr(routing, "read_relation_shape", lambda text: seen.append(text) or "approved suppliers")
    result = route("who sells cabling?", _INPUTS)  # the catalogue reader answers it as typed
    assert seen and result.workflow == "catalog_products", result.workflow


@pytest.mark.parametrize("hedge", ["else", "now", "all"])
def test_a_meaningful_word_before_a_selling_verb_is_kept(hedge: str) -> None:
    assert read_relation_shape(f"who {hedge} sells cabling?") is None


@pytest.mark.parametrize("hedge", ["even", "actually", "really", "currently"])
def test_a_hedge_before_a_selling_verb_is_dropped(hedge: str) -> None:
    assert read_relation_shape(f"who {hedge} sells cabling?") == "who sells cabling?"


# --- count shapes -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", ["no. of", "No. of", "n° of", "nr. of", "number of"])
@pytest.mark.parametrize("noun", ["supplier invoices", "vendor credit notes"])
def test_count_words_before_a_payables_noun_are_the_number_of_the_documents(count: str, noun: str) -> None:
    out = count_asks(f"{count} {noun} Company B FY25?")
    assert out.startswith("number of ") and noun.split()[0] not in out


@pytest.mark.parametrize("count", ["number of", "no. of", "# of", "qty of", "count of"])
@pytest.mark.parametrize("thing", ["'Cable gland set M20'", "\"Control cable 5x1.5\"", "PRD-495"])
def test_a_count_of_a_named_product_is_how_many_units(count: str, thing: str) -> None:
    assert count_asks(f"company b: {count} {thing} ordered sept to dec 2025") == \
        f"company b: how many {thing} ordered sept to dec 2025"


def test_a_count_of_documents_is_not_a_count_of_units() -> None:
    assert "how many" not in count_asks("number of invoices Company B FY25")



@pytest.mark.parametrize("ask", ["What about last year?", "how about Q2?", "and what about Q3 2025?"])
def test_a_follow_up_word_is_no_measure_word(ask: str) -> None:
    # "about" in the measure slot was read as spend, and the follow-up without context was asked "which company?"
    # instead of naming its words
    result = route(ask, _INPUTS)
    assert not result.assumed_measure, result.assumed_measure


@pytest.mark.parametrize("ask", ["qty control cabinets company a Q1 2026", "company b cabling volume H2 2025",
                                 "Quantity Company A Q1 2026"])
def test_a_quantity_word_is_never_read_as_the_spend(ask: str) -> None:
    # "qty" in the measure slot was answered as spend (a quantity asked, a money figure given)
    result = route(ask, _INPUTS)
    assert not result.assumed_measure, result.assumed_measure


@pytest.mark.parametrize("ask", ["which suppliers did Company A not pay in Q1 2026",
                                 "who did Company A never pay in H2 2025",
                                 "which vendors didn't Company A order from in Q1 2026",
                                 "Company A suppliers we did not pay Q1 2026",
                                 "which suppliers have we never paid for Company A in Q1 2026"])
def test_a_negated_verb_no_reader_took_is_never_answered_as_spend(ask: str) -> None:
    # (the total would be the opposite figure, or one figure for a list: asked, naming the negation, and saying
    # the data has no payments; router/read_answer.py negated_listing)
    # (or, an invoicing verb, the listing of suppliers that did not invoice: router/supplier_activity.py)
    result = route(ask, _INPUTS)
    if result.workflow == "inactive_suppliers":
        return
    assert result.requires_clarification or result.workflow == "unsupported", (ask, result.workflow)
    assert "not" in (result.clarification_question or "") or "n't" in (result.clarification_question or ""), \
        (ask, result.clarification_question)


@pytest.mark.parametrize("ask", ["how many invoices did Company A get Q4 2025 -> Q1 2026, up or down?",
                                 "how many invoices did Company A get Q1 2026 vs Q4 2025",
                                 "number of invoices Company A Q1 2026 versus Q4 2025"])
def test_a_count_never_drops_the_comparison_period(ask: str) -> None:
    # (a count planned for one period of a comparison: the base period is named back, never left out silently)
    result = route(ask, _INPUTS)
    if not result.requires_clarification:
        assert result.workflow != "invoice_count" or "2025" in str(result.execution_plan), (ask, result.workflow)
        return
    assert "Q4 2025" in (result.clarification_question or "") or "2025-Q4" in (result.clarification_question or ""), \
        (ask, result.clarification_question)


def test_a_count_over_a_range_is_still_answered() -> None:
    result = route("how many invoices did Company A get from Q4 2025 to Q1 2026", _INPUTS)
    assert not result.requires_clarification and result.workflow == "invoice_count", result.clarification_question
