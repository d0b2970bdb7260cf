"""Counts, two-workflow plans, follow-ups without context, German group names and product names in ``ask``'s
router (no database): the demo tenant's vocabulary (procura/demo/masterdata.py) as the gazetteer.

Metamorphic suites (Hypothesis, seeded and bounded) generate questions from slot grammars: every supplier
spelling, period phrasing and status/type phrasing for counts; every German name of every group, spelled with
and without umlauts and with one-edit typos. The plan's parameters must be exactly the slot values the governed
metric would be called with (the database suites compare the figures), or the answer a clarification that names
the span; never a plan without the constraint.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procura.db.session import AuthContext
from procura.demo.masterdata import GROUP_SYNONYMS_DE, TENANT_42
from router.compound import compound_request
from router.contract import Ref, RoutingResult
from router.counts import document_types
from router.entities import Company, Gazetteer, Product, ProductGroup, fold, short_names
from router.followups import context_reference
from router.reader import read
from router.routing import RouterInputs, route

AS_OF = dt.date(2026, 5, 15)
CTX = AuthContext("tenant-42", "analyst", frozenset({"procurement:read", "invoice:aggregate"}))
_NAMES = {g.product_group_id: g.group_name for g in TENANT_42.groups}
GAZETTEER = Gazetteer.build(
    [Company(c.company_id, c.company_name, c.reporting_currency) for c in TENANT_42.companies],
    [(s.supplier_id, s.supplier_name) for s in TENANT_42.suppliers],
    [(a, s.supplier_id) for s in TENANT_42.suppliers for a in s.aliases],
    [ProductGroup(g.product_group_id, g.group_name, g.parent_group_id) for g in TENANT_42.groups],
    [(syn, g.product_group_id) for g in TENANT_42.groups for syn in GROUP_SYNONYMS_DE.get(g.group_name, ())],
    [Product(p.product_code, p.product_name) for p in TENANT_42.products],
)
INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER)
SUITE = settings(max_examples=300, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))

PERIODS = [
    ("in Q1 2026", "2026-01-01", "2026-04-01"),
    ("last quarter", "2026-01-01", "2026-04-01"),
    ("in the last quarter of 2025", "2025-10-01", "2026-01-01"),
    ("in H1 2026", "2026-01-01", "2026-07-01"),
    ("YTD", "2026-01-01", "2026-05-16"),
    ("in March 2026", "2026-03-01", "2026-04-01"),
    ("in FY2025", "2025-01-01", "2026-01-01"),
    ("between 2026-02-01 and 2026-03-15", "2026-02-01", "2026-03-15"),
]
#: (phrasing of what is counted, document types, statuses)
KINDS = [
    ("invoices", ["invoice"], ["posted", "paid"]),
    ("credit notes", ["credit_note"], ["posted", "paid"]),
    ("invoices and credit notes", ["invoice", "credit_note"], ["posted", "paid"]),
    ("unpaid invoices", ["invoice"], ["posted"]),
    ("open invoices", ["invoice"], ["posted"]),
    ("paid invoices", ["invoice"], ["paid"]),
    ("outstanding invoices", ["invoice"], ["posted"]),
]


def _ask(question: str) -> RoutingResult:
    return route(question, INPUTS)


def _count_parameters(result: RoutingResult) -> dict[str, Any]:
    assert result.workflow == "invoice_count", (result.question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.step_id == "count-invoices")
    assert step.arguments["metric"] == "finance.invoice_count"
    return dict(step.arguments["parameters"])


def _supplier_spellings() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for spelling, ids in GAZETTEER.supplier_aliases.items():
        if len(ids) == 1 and not re.search(r"\d", spelling):
            found.append((spelling, next(iter(ids))))
    for s in TENANT_42.suppliers:
        found.append((s.supplier_name, s.supplier_id))
        found.extend((n, s.supplier_id) for n in short_names(s.supplier_name)
                     if len(GAZETTEER.supplier_aliases.get(n, ())) == 1)
    return sorted(set(found))


SPELLINGS = _supplier_spellings()


# --- counts ------------------------------------------------------------------------------------------------------
@st.composite
def count_questions(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    spelling, sid = draw(st.sampled_from(SPELLINGS))
    spelling = draw(st.sampled_from([spelling, spelling.lower(), spelling.upper(), spelling.title()]))
    period, start, end = draw(st.sampled_from(PERIODS))
    kind, types, statuses = draw(st.sampled_from(KINDS))
    frame = draw(st.sampled_from([
        "How many {k} did Company A receive from {s} {p}?",
        "Number of {k} from {s} for Company A {p}",
        "Company A: count of {k} from {s} {p}",
        "how many {k} has Company A got from {s} {p}?",
        "What is the number of {k} of Company A with {s} {p}?",
    ]))
    expected = {"company_id": "COMP-A", "start_date": start, "end_date": end, "supplier_ids": [sid],
                "document_types": types, "invoice_statuses": statuses}
    return frame.format(k=kind, s=spelling, p=period), expected


@SUITE
@given(count_questions())
def test_every_supplier_period_and_kind_maps_to_the_count_metric(case: tuple[str, dict[str, Any]]) -> None:
    question, expected = case
    assert _count_parameters(_ask(question)) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("How many invoices did Company A get in Q1 2026 excluding Supplier Beta?",
     {"exclude_supplier_ids": ["SUP-18"]}),
    ("How many invoices for Sensors did Company A receive in Q1 2026?",
     {"product_group_ids": ["PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]}),
    ("How many invoices did Company A receive for Drucksensoren in Q1 2026?",
     {"product_group_ids": ["PG-PRES", "PG-PRES-WL"]}),
    ("Number of invoices of Company A with PRD-482 in Q1 2026", {"product_codes": ["PRD-482"]}),
    ("Number of invoices of Company A for the Flow sensor FS-50 in Q1 2026", {"product_codes": ["PRD-510"]}),
])
def test_count_filters_are_every_constraint_of_the_reading(question: str, expected: dict[str, Any]) -> None:
    params = _count_parameters(_ask(question))
    for key, value in expected.items():
        assert params[key] == value, (question, params)
    assert "supplier_ids" not in params or "exclude_supplier_ids" not in params


def test_count_breakdowns_are_the_metrics_allow_list() -> None:
    result = _ask("How many invoices did Company A receive in Q1 2026 per supplier, month by month?")
    split = next(s for s in result.execution_plan if s.step_id == "count-breakdown")
    assert split.arguments["group_by"] == ["supplier_id"] and split.arguments["grain"] == "month"
    refused = _ask("How many invoices did Company A receive in Q1 2026 per product?")
    assert refused.requires_clarification and "'product'" in (refused.clarification_question or "")


@pytest.mark.parametrize(("question", "named"), [
    ("How many invoices did Company A receive from Omega Widgets in Q1 2026?", "Omega Widgets"),
    ("How many invoices did Company A receive?", "period"),
    ("How many invoices did we receive in Q1 2026?", "Which company"),
])
def test_a_count_missing_or_unread_constraint_is_a_clarification_naming_it(question: str, named: str) -> None:
    result = _ask(question)
    assert result.requires_clarification and not result.execution_plan
    assert named in (result.clarification_question or ""), result.clarification_question


def test_document_types_of_count_phrasings() -> None:
    assert document_types("how many credit notes") == ("credit_note",)
    assert document_types("number of documents") == ("invoice", "credit_note")
    assert document_types("invoice count including credit notes") == ("invoice", "credit_note")


# --- a figure and a document fact about the entity it selects ---------------------------------------------------
@pytest.mark.parametrize("question", [
    "What are the payment terms of Company A's biggest supplier, and what did we spend with it last quarter?",
    "For Company A: payment terms of our largest vendor and our spend with it in Q1 2026",
    "Which warranty period applies to Company A's top supplier, and how much did we spend with it in 2026-Q1?",
])
def test_a_figure_and_a_document_fact_are_two_dependent_workflows(question: str) -> None:
    result = _ask(question)
    assert result.workflow == "figure_with_document", result.clarification_question
    steps = {s.step_id: s for s in result.execution_plan}
    rank = steps["rank-suppliers"]
    assert rank.arguments["metric"] == "finance.spend_ranking"
    assert rank.arguments["parameters"]["limit"] == 1 and rank.arguments["group_by"] == ["supplier_id"]
    assert rank.arguments["parameters"]["start_date"] == "2026-01-01"
    agreement = steps["find-agreement"]
    assert agreement.depends_on == ("rank-suppliers",)
    assert agreement.arguments["supplier_ids"] == Ref.model_validate({"$ref": "rank-suppliers",
                                                                      "field": "row_supplier_ids"})
    fact = steps["retrieve-fact"]
    assert fact.depends_on == ("find-agreement",) and fact.arguments["filters"]["document_types"] == ["agreement"]
    assert set(steps["validate-result"].depends_on) == {"rank-suppliers", "find-agreement", "retrieve-fact"}


def test_the_smallest_supplier_ranks_bottom_and_a_missing_period_is_asked() -> None:
    assert compound_request(read("payment terms of our smallest supplier in Q1 2026", GAZETTEER, AS_OF)).direction \
        == "bottom"
    result = _ask("What are the payment terms of Company A's biggest supplier?")
    assert result.requires_clarification and "period" in (result.clarification_question or "")


# --- follow-ups without context ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "words"), [
    ("and for the other one?", "the other one"),
    ("What about last year?", "What about last year"),
    ("same for Beta?", "same for"),
    ("and the previous quarter?", "and the previous quarter"),
    ("And for Supplier Beta?", "And for Supplier Beta"),
    ("how about Q2?", "how about Q2"),
    ("Do the same for Company B", "Do the same for"),
    ("What was the spend with that supplier in Q1 2026?", "that supplier"),
])
def test_a_follow_up_without_context_is_a_clarification_naming_its_words(question: str, words: str) -> None:
    result = _ask(question)
    assert result.requires_clarification and not result.execution_plan
    assert f"{words!r}" in (result.clarification_question or ""), result.clarification_question


@pytest.mark.parametrize("question", [
    "And what was Company A's total spend in Q1 2026?",
    "What about the payment terms in Company A's framework agreement?",
    "How often should the pressure sensor be calibrated?",
    "Which suppliers are approved for Company A?",
    "What was Company A's total spend on monitoring products supplied by its approved vendors during the last "
    "quarter?",
])
def test_a_whole_question_is_not_a_follow_up(question: str) -> None:
    assert context_reference(question) is None


# --- German group names, umlaut-free spellings, typos; products by name -----------------------------------------
_GERMAN = sorted({(syn, g.product_group_id) for g in TENANT_42.groups
                  for syn in GROUP_SYNONYMS_DE.get(g.group_name, ())})
_UMLAUT_DROPPED = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "Ä": "A", "Ö": "O", "Ü": "U"})


def _typos(word: str) -> list[str]:
    """One-edit typos (delete, substitute, insert, swap) at a few positions inside the word."""
    out = []
    for i in range(2, len(word) - 1, 3):
        out += [word[:i] + word[i + 1:], word[:i] + "x" + word[i + 1:], word[:i] + "e" + word[i:],
                word[:i] + word[i + 1] + word[i] + word[i + 2:]]
    return [t for t in out if t.lower() != word.lower()]


@st.composite
def german_questions(draw: st.DrawFn) -> tuple[str, str, str]:
    synonym, gid = draw(st.sampled_from(_GERMAN))
    variant = draw(st.sampled_from(["as", "folded", "dropped", "lower", "typo"]))
    if variant == "folded":
        spelled = re.sub(r"[äöüßÄÖÜ]", lambda m: {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe",
                                                 "Ü": "Ue"}[m.group(0)], synonym)
    elif variant == "dropped" and sum(c in "äöüÄÖÜ" for c in synonym) == 1:
        spelled = synonym.translate(_UMLAUT_DROPPED)
    elif variant == "lower":
        spelled = synonym.lower()
    elif variant == "typo":
        words = synonym.split()
        longest = max(range(len(words)), key=lambda i: len(words[i]))
        if len(words[longest]) >= 7:
            words[longest] = draw(st.sampled_from(_typos(words[longest])))
        spelled = " ".join(words)
    else:
        spelled = synonym
    frame = draw(st.sampled_from([
        "What was Company A's total spend on {g} in Q1 2026?",
        "How much did Company A spend on {g} last quarter?",
        "Spend of Company A on {g} in 2026-Q1",
    ]))
    return frame.format(g=spelled), gid, spelled


@SUITE
@given(german_questions())
def test_every_german_group_name_resolves_like_the_english_one(case: tuple[str, str, str]) -> None:
    question, gid, spelled = case
    result = _ask(question)
    if result.requires_clarification:
        # A typo between two names is asked about, naming the span; never a different group's figure.
        assert fold(spelled.split()[0])[:4] in fold(result.clarification_question or ""), (question, result)
        return
    assert result.entities.product_group_id == gid, (question, result.entities)
    steps = {s.step_id: s for s in result.execution_plan}
    assert steps["find-products"].arguments["group_name"] == _NAMES[gid]


def test_exact_and_folded_german_names_never_need_a_clarification() -> None:
    for synonym, gid in _GERMAN:
        for spelled in (synonym, re.sub(r"[äöüß]", lambda m: {"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"}[m.group(0)],
                                        synonym)):
            result = _ask(f"What was Company A's total spend on {spelled} in Q1 2026?")
            assert result.entities.product_group_id == gid, (spelled, result.clarification_question)


@pytest.mark.parametrize("product", TENANT_42.products[:12], ids=lambda p: p.product_code)
def test_spend_on_a_product_by_name_filters_by_that_product(product: Any) -> None:
    result = _ask(f"What was Company A's total spend on {product.product_name} in Q1 2026?")
    if result.requires_clarification:
        # A name two products share, or a name of a group as well: asked, naming the candidates.
        assert product.product_code in (result.clarification_question or "") or \
            product.product_name.lower() in (result.clarification_question or "").lower()
        return
    spend = next(s for s in result.execution_plan if s.step_id == "calculate-spend")
    assert spend.arguments["product_codes"] == [product.product_code], result.execution_plan


@pytest.mark.parametrize("question", [
    "How many units are on invoice INV-2026-0148?",
    "How many suppliers sent invoices to Company A in Q1 2026?",
    "How many line items are on the invoices of Supplier Beta in Q1 2026?",
    "How many invoices of Company A in Q1 2026 are above 5,000 EUR?",
])
def test_other_counts_are_not_invoice_counts(question: str) -> None:
    assert _ask(question).workflow != "invoice_count"


def test_a_demonstrative_with_its_antecedent_in_the_question_is_not_a_follow_up() -> None:
    assert context_reference("What did Company A spend with Supplier Beta in Q1 2026, and which products does that "
                             "supplier sell?", names_an_entity=True) is None
    assert context_reference("Compare Company A's spend in Q1 2026 with the same period last year") is None


def test_the_selecting_ranking_keeps_a_category_and_other_selector_phrasings() -> None:
    result = _ask("What is the warranty period of the supplier with the highest spend on Sensors for Company A in "
                  "Q1 2026, and what did we spend with it?")
    rank = next(s for s in result.execution_plan if s.step_id == "rank-suppliers")
    assert rank.arguments["parameters"]["product_group_ids"] == ["PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS",
                                                                 "PG-TEMP"]
    assert rank.arguments["parameters"]["direction"] == "top"
    named = _ask("What are the payment terms of Supplier Beta and of Company A's biggest supplier in Q1 2026?")
    assert named.requires_clarification and "SUP-18" in (named.clarification_question or "")


def test_product_names_in_plural_and_with_a_typo_and_never_a_document_topic() -> None:
    spend = _ask("What was Company A's total spend on torque wrench sets in Q1 2026?")
    assert spend.entities.product_codes == ("PRD-840",)
    typo = _ask("What was Company A's total spend on the Differental pressure sensor DPS-482 in Q1 2026?")
    assert typo.entities.product_codes == ("PRD-482",)
    # Without its model code the name is a document question's topic, not a product filter.
    assert _ask("At what temperature should the differential pressure sensor be stored?").entities.product_codes == ()


def test_a_count_above_an_amount_lists_the_invoices_above_it() -> None:
    result = _ask("How many invoices above 5,000 EUR did Company A have in Q1 2026?")
    assert [s.tool for s in result.execution_plan][1] == "finance.invoices_above_threshold"
    assert _count_parameters(_ask("Count unpaid invoices of Company A in Q1 2026"))["invoice_statuses"] == ["posted"]


# --- figure-plus-fact plans: every selection x every fact x period/company phrasings ---------------------------
from router.compound import FACTS, RANKING_METRIC, UNIT_PRICE_METRIC  # noqa: E402

_FACT_ASK = {"approval": "which product groups is {w} approved for", "payment terms": "what are the payment terms "
             "of {w}", "notice period": "what is the notice period for {w}", "term of the agreement": "what is the "
             "term of the agreement with {w}", "warranty": "what warranty period applies to {w}", "certificates":
             "which certificates must {w} hold", "liability and insurance": "what liability insurance must {w} "
             "carry", "delivery terms": "what are the delivery terms of {w}", "price adjustments": "what price "
             "adjustments apply to {w}", "confidentiality": "what does confidentiality cover for {w}",
             "audit rights": "what audit rights do we have over {w}"}
#: (selection, subject, direction, ranking group, named supplier)
_SELECT = [("rank", "{c}'s biggest supplier", "top", None, None), ("rank", "our smallest vendor of {c}", "bottom",
                                                                      None, None),
           ("rank", "{c}'s largest supplier of Sensors", "top", "PG-SENS", None),
           ("share", "the supplier with the largest share of {c}'s spend", "top", None, None),
           ("share", "the vendor with the smallest share of {c}'s spend", "bottom", None, None),
           ("unit_price", "the cheapest supplier of PRD-482 for {c}", "bottom", None, None),
           ("unit_price", "the most expensive supplier of the DPS-482 for {c}", "top", None, None),
           ("named", "Supplier Beta at {c}", "top", None, "SUP-18"), ("named", "Gamma for {c}", "top", None, "SUP-27")]
_ASK_FRAMES = ["{f}, and how much did we spend with it {p}?", "{p}: {f}? Also the spend with it.",
               "{f} and what was the figure {p}?"]


@given(st.sampled_from(_SELECT), st.sampled_from(FACTS), st.sampled_from(PERIODS), st.sampled_from(_ASK_FRAMES),
       st.sampled_from(["Company A", "company a", "COMP-A"]))
@settings(max_examples=200, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
def test_every_selection_and_fact_plans_the_figure_then_the_fact_by_reference(
    select: tuple[str, str, str, str | None, str | None], fact: Any, period: tuple[str, str, str], frame: str,
    company: str,
) -> None:
    kind, subject, direction, group, named = select
    phrase, start, end = period
    asked = _FACT_ASK[fact.label].format(w=subject.format(c=company))
    question = frame.format(f=asked[0].upper() + asked[1:], p=phrase)
    r = route(question, INPUTS)
    assert r.workflow == "figure_with_document", (question, r.clarification_question)
    assert any(h.startswith(f"compound:{kind}:{direction}:") and h.endswith(f"+{fact.label}") for h in r.rule_hits)
    steps = {s.step_id: s for s in r.execution_plan}
    figure = steps["rank-suppliers"].arguments
    params = figure["parameters"]
    assert (params["company_id"], params["start_date"], params["end_date"]) == ("COMP-A", start, end), question
    assert figure["group_by"] == ["supplier_id"]
    agreement = steps["find-agreement"].arguments
    if kind == "unit_price":
        assert figure["metric"] == UNIT_PRICE_METRIC and params["product_code"] == "PRD-482"
        field = "lowest_unit_price_supplier_ids" if direction == "bottom" else "highest_unit_price_supplier_ids"
        assert agreement["supplier_ids"] == Ref.model_validate({"$ref": "rank-suppliers", "field": field})
    elif kind == "named":
        assert figure["metric"] == RANKING_METRIC and params["supplier_ids"] == [named]
        assert agreement["supplier_ids"] == [named]  # the fact is about the named supplier, spend or not
    else:
        assert figure["metric"] == RANKING_METRIC and params["limit"] == 1 and params["direction"] == direction
        assert agreement["supplier_ids"] == Ref.model_validate({"$ref": "rank-suppliers",
                                                                "field": "row_supplier_ids"})
        assert params.get("product_group_ids") == (list(GAZETTEER.subgroups(group)) if group else None)
    if fact.kind == "clause":
        search = steps["retrieve-fact"]
        assert search.depends_on == ("find-agreement",) and search.arguments["query_text"] == fact.query
        assert search.arguments["filters"]["document_ids"] == Ref.model_validate(
            {"$ref": "find-agreement", "field": "agreement_ids"})
    else:
        assert "retrieve-fact" not in steps  # the approval row itself is the fact


@pytest.mark.parametrize(("question", "named"), [
    ("Company A's biggest supplier in Q1 2026: its spend and the colour of its logo?", "its logo"),
    ("What are the payment terms of the cheapest supplier for Company A in Q1 2026, and its spend?", "cheapest"),
    ("Which supplier's spend grew the most in Q1 2026 vs the previous quarter for Company A?", "grew the most"),
    ("Rank Company A's suppliers by their change in spend, Q1 2026 vs Q4 2025", "change"),
])
def test_a_figure_or_fact_not_understood_is_a_clarification_naming_it(question: str, named: str) -> None:
    r = route(question, INPUTS)
    assert r.workflow == "clarification" and not r.execution_plan, question
    assert named in (r.clarification_question or ""), r.clarification_question


def test_group_spend_without_a_supplier_set_is_the_company_metric_over_the_group() -> None:
    r = route("How much did Company A spend on Sensors in Q1 2026?", INPUTS)
    steps = {s.step_id: s for s in r.execution_plan}
    assert steps["calculate-spend"].tool == "finance.company_spend"
    assert steps["calculate-spend"].arguments["product_group_ids"] == list(GAZETTEER.subgroups("PG-SENS"))
    assert "supplier_ids" not in steps["calculate-spend"].arguments
    approved = route("How much did Company A spend on Sensors with its approved vendors in Q1 2026?", INPUTS)
    spend = {s.step_id: s for s in approved.execution_plan}["calculate-spend"]
    assert spend.tool == "finance.aggregate_spend" and isinstance(spend.arguments["supplier_ids"], Ref)


def test_a_product_name_without_its_model_code_filters_only_a_figure_question() -> None:
    figure = read("How much did Company A spend on the differential pressure sensors in Q1 2026?", GAZETTEER, AS_OF)
    assert figure.entities.product_codes == ("PRD-482",) and figure.entities.product_group_id is None
    topic = read("What is the measuring range of the differential pressure sensor?", GAZETTEER, AS_OF)
    assert topic.entities.product_codes == ()
