"""Silent-answer invariants: a confident figure for another question is never answered. Each test varies the slot
of one invariant (other names, cue words, languages, positions) with phrasings written for these tests."""

from __future__ import annotations

import functools
import re

import pytest

from router.analysis import EXCLUSION_CUE, excluded_spans
from router.contract import PlanStep, RoutingResult
from router.duplicates import _DUPLICATE
from router.exclusion_words import NAME_ONLY, NAME_ONLY_CUE
from router.listings import read_purchase_listing
from router.reading import group_dimension
from router.silent_checks import mismatched_document_type, unrecorded_scopes
from router.vocabulary import normalise
from tests.unit.test_router_analysis import routed
from tests.unit.test_router_scope_probes import _filters

# --- an exclusion cue before a name makes it an exclusion, never the figure's filter --------------------------------
CUES = ["ex-", "ex ", "bar ", "less ", "sans ", "zonder ", "utan ", "bez ", "hors ", "sin ", "senza ", "oprócz ",
        "behalve ", "förutom ", "sauf ", "w/o ", "excl. "]


@pytest.mark.parametrize("cue", CUES)
def test_every_cue_covers_the_name_right_after_it(cue: str) -> None:
    # the readers see a name blanked to spaces: the cue must reach it over the blank too
    for name in ("Delta", "Gamma Controls"):
        text = f"Company A total spend in Q1 2026 {cue}{name}"
        start = text.index(name)
        blanked = text[:start] + " " * len(name)
        cues = [(m.start(), m.end()) for m in EXCLUSION_CUE.finditer(blanked)]
        covered, _ = excluded_spans(blanked, cues, [(start, start + len(name))])
        assert covered == {(start, start + len(name))}, (cue, cues)


@pytest.mark.parametrize(("frame", "cue", "name", "sid"), [
    ("Company A total spend in Q1 2026 {cue}{name}", "ex-", "Delta", "SUP-31"),
    ("Company A total spend in Q1 2026 {cue}{name}", "zonder ", "Gamma Controls", "SUP-27"),
    ("{cue}{name}, what did Company A spend in Q1 2026?", "bar ", "Iota Cable Works Ltd", "SUP-60"),
    ("Company A spend on Consumables {cue}{name} in Q1 2026", "sans ", "Beta", "SUP-18"),
    ("What was Company B's spend in March 2026 ({cue}{name})?", "ex-", "Iota Cable Works Ltd", "SUP-60"),
    ("Company B spend in March 2026 {cue}{name}", "oprócz ", "Delta", "SUP-31"),
])
def test_the_cue_excludes_in_any_position(frame: str, cue: str, name: str, sid: str) -> None:
    _, found = _filters(routed(frame.format(cue=cue, name=name)))
    assert found.get("exclude_supplier_ids") == [sid] and not found.get("supplier_ids"), found


def test_a_group_behind_ex_is_left_out() -> None:
    _, found = _filters(routed("Company A spend in Q1 2026 ex-Consumables"))
    assert found.get("exclude_product_group_ids") == ["PG-CONS"] and not found.get("product_group_ids"), found


@pytest.mark.parametrize("text", ["did Company A spend less with Beta than with Gamma in Q1 2026",
                                  "Company A spend in Q1 2026 with Beta, less than 5000 EUR per invoice"])
def test_less_in_a_comparison_or_an_amount_is_no_exclusion(text: str) -> None:
    _, found = _filters(routed(text))
    assert not found.get("exclude_supplier_ids"), found


def test_name_only_cues_lead_a_name_and_never_stand_alone() -> None:
    assert [m.group(0) for m in EXCLUSION_CUE.finditer("spend ex-VAT and bar charts")] == ["ex-", "bar"]
    # "excluding" stands alone too (its target is named back when it is no name): not a name-only cue
    assert "excluding" not in NAME_ONLY and "sans" in NAME_ONLY
    assert NAME_ONLY_CUE.match("less than 5000 EUR") is None
    # a net-of-VAT basis is no supplier left out
    _, found = _filters(routed("Company A spend in Q1 2026 zonder BTW"))
    assert not found.get("exclude_supplier_ids")


# --- a measure word is no name: "spend delta" is the change --------------------------------------------------------
@pytest.mark.parametrize("text", ["spend delta | comp=Company A | 2026-03 vs prev month",
                                  "Company B spend delta Q1 2026 vs Q4 2025",
                                  "what is the delta in spend for Company A between Q4 2025 and Q1 2026"])
def test_a_lower_case_measure_word_is_no_supplier(text: str) -> None:
    metric, found = _filters(routed(text))
    assert metric == "finance.spend_comparison" and not found.get("supplier_ids"), (metric, found)


@pytest.mark.parametrize("text", ["Company A Delta spend Q1 2026", "Company A spend with delta in Q1 2026",
                                  "spend w/ delta Company A Q1 2026", "how much did Company A pay delta in Q1 2026",
                                  "Company A spend on delta, 2026-Q1", "delta enclosures spend Company A Q1 2026"])
def test_a_name_in_a_payee_slot_or_capitalised_stays_a_name(text: str) -> None:
    _, found = _filters(routed(text))
    assert found.get("supplier_ids") == ["SUP-31"], (text, found)


def test_vocabulary_reads_the_one_word_name_only_outside_a_payee_slot() -> None:
    names = ("Supplier Delta", "Delta")
    assert normalise("spend delta Q1 vs Q4", names).text == "spend change Q1 vs Q4"
    # (with no comparison and no determiner a change has no base: the word is the name, "inv count delta comp a")
    assert normalise("spend delta Q1", names).text == "spend delta Q1"
    assert normalise("spend with delta Q1", names).text == "spend with delta Q1"
    assert normalise("Delta spend Q1", names).text == "Delta spend Q1"


# --- a breakdown is answered at the level asked ---------------------------------------------------------------------
@pytest.mark.parametrize(("frame", "words"), [
    ("what did Company A buy in Q1 2026, split by {w}?", "product type"),
    ("Company B spend Q1 2026 by {w}", "kind of product"),
    ("break down March 2026 for Company A by {w}", "product types"),
    ("Company A spend Q1 2026 per {w}", "type of goods"),
])
def test_a_product_type_breakdown_is_by_product_group(frame: str, words: str) -> None:
    _, found = _filters(routed(frame.format(w=words)))
    assert found.get("group_by") == ["product_group_id"], found


def test_an_explicit_grouping_wins_over_the_one_a_listing_implies() -> None:
    assert read_purchase_listing("what did Company B buy in Q2 2026, broken down by supplier") \
        == "spend of Company B in Q2 2026, broken down by supplier"
    # a listing that names its rows keeps them
    assert (read_purchase_listing("which products did Company A buy in March 2026 by supplier") or "").endswith(
        ", by product")


@pytest.mark.parametrize(("text", "dimension"), [
    ("break down Q4 for Company C by category", "product_group_id"), ("spend per category", "product_group_id"),
    ("split by categories please", "product_group_id"), ("by category (top level)", "top_product_group_id"),
    ("top 3 categories by spend", "top_product_group_id"), ("by top-level category", "top_product_group_id"),
])
def test_category_level_breakdown_versus_ranking(text: str, dimension: str) -> None:
    assert group_dimension(text) == dimension


# --- the document type asked is the one computed --------------------------------------------------------------------
@functools.cache
def _spend_plan() -> RoutingResult:
    return routed("Company A spend in Q1 2026")


def _planned(types: list[str]) -> RoutingResult:
    step = PlanStep(step_id="count-1", tool="finance.company_spend",
                    arguments={"company_id": "COMP-A", "document_types": types})
    return _spend_plan().model_copy(update={"execution_plan": (step,)})


@pytest.mark.parametrize("text", ["count(CNs) comp=Company A 2026-Q1", "# of cn's | Company B | 2026-03",
                                  "creditnota's Company A Q1 2026: aantal", "Company C credit memos Q1 count"])
def test_credit_notes_asked_and_invoices_planned_is_asked_about(text: str) -> None:
    said = mismatched_document_type(text, _planned(["invoice"]))
    assert said is not None and "invoices only" in said
    assert mismatched_document_type(text, _planned(["credit_note"])) is None


@pytest.mark.parametrize("text", ["Company A invoice count Q1 2026 (ignore CNs)",
                                  "number of invoices Company A Q1 excluding credit notes",
                                  "invoices and credit notes of Company A", "what about CN-2026-0042 of Company A",
                                  "Company A invoice count w/o CNs"])
def test_credit_notes_left_out_or_beside_invoices_are_no_mismatch(text: str) -> None:
    assert mismatched_document_type(text, _planned(["invoice"])) is None


def test_count_of_cns_notation_is_never_an_invoice_count() -> None:
    result = routed("count(CNs) comp=Company A [2026-01-01, 2026-04-01)")
    assert result.requires_clarification or all(
        "invoice" not in (s.arguments.get("document_types") or ()) for s in result.execution_plan)


# --- "sent two times" asks for duplicates ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["were any bills sent to Company B two times in Q3 2025",
                                  "did any vendor bill us more than once in March",
                                  "was an invoice received at Company A twice last month",
                                  "did Beta charge Company C twice for the same delivery"])
def test_a_document_that_came_twice_is_a_duplicate_ask(text: str) -> None:
    assert _DUPLICATE.search(text), text


@pytest.mark.parametrize("text", ["Company A spend received from Beta, double digits growth?",
                                  "spend sent to finance, and was it twice the Q4 figure"])
def test_a_frequency_across_clauses_is_no_duplicate(text: str) -> None:
    assert not _DUPLICATE.search(text), text


# --- what a figure is of is read or named -------------------------------------------------------------------------
@pytest.mark.parametrize("thing", ["sparkle cleaning", "fresh flower delivery"])
def test_the_subject_of_cost_us_is_named_when_unknown(thing: str) -> None:
    result = routed(f"what did {thing} cost us in Q1 2026? (Company A)")
    assert result.requires_clarification and re.search(thing.split()[0], result.clarification_question or "")


# --- an organisational unit no invoice records is named, never answered as the company's figure -------------------
@pytest.mark.parametrize(("text", "scopes"), [
    ("what did Company B spend in May 2026 for our department?", ("our department",)),
    ("total spend of Company C in Q2 for the warehouse crew, thanks", ("the warehouse crew",)),
    ("Company A spend in March for my team", ("my team",)),
    ("for the team meeting: Company A spend in March", ()),
    ("Company A spend in March (for my team's monthly deck)", ()),
    ("our team lead wants Company A's March spend", ()),
    ("I just started in the AP team: Company A's March spend?", ()),
    ("Company A spend in March by supplier for the division review", ()),
])
def test_an_unrecorded_unit_scope_is_named(text: str, scopes: tuple[str, ...]) -> None:
    assert unrecorded_scopes(text) == scopes


def test_the_unit_scope_reaches_the_answer_as_unread() -> None:
    result = routed("how much did Company B spend in Q1 2026 for my team")
    assert not result.requires_clarification and "my team" in result.unread
