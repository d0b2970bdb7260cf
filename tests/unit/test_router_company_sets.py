"""Several companies in one spend question, unknown legal-form names and unread approval categories, routed in
memory (no database; the governed metrics' definitions come from the schema snapshot).

Classes (issue 20, the reader names or reads every constraint):
- a set of companies added up ("X and Y combined", "X + Y", "across Company A, B and C", "group-wide excluding
  Company C", "all companies except COMP-C" or "... except C") is one governed ``finance.company_spend`` call over
  exactly those companies (``company_ids``), never one company's figure; the same names kept apart ("X vs Y",
  "each") never become a sum;
- a legal-form name whose distinctive words are no known company's ("Alpenland Transport AG") is asked about, never
  resolved to the company its first word matches; every known company's own spellings still resolve;
- an approved-vendor question "for <category>" whose category the reading did not place is asked about.

Slots vary over every company spelling (full legal name, name without its legal form, short name, "Company X" and
its elided list form), every set cue, every period phrase; a seeded bounded sample.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from router.company_lists import elided_companies
from router.compound import split_asks
from router.contract import RoutingResult
from router.entities import Company, Gazetteer
from router.reader import read
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS, PERIODS, SUPPLIERS

SEED = 20
TENANTS = {
    "letters": [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
                Company("COMP-C", "Company C", "EUR")],
    "legal": [Company("COMP-A", "Alpenland Logistik AG", "EUR"), Company("COMP-K", "Kestrel Lebensmittel GmbH", "EUR"),
              Company("COMP-X", "Xenon Pharma AG", "EUR")],
}


def _gazetteer(companies: list[Company]) -> Gazetteer:
    return Gazetteer.build(companies, [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
                           [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases], GROUPS)


GAZETTEERS = {k: _gazetteer(v) for k, v in TENANTS.items()}


def _spellings(company: Company) -> list[str]:
    """How a question writes the company: its name, without its legal form, its first word (a trade name)."""
    name = company.company_name
    words = name.split()
    out = [name]
    if words[-1] in ("AG", "GmbH"):
        out += [" ".join(words[:-1]), words[0]]
    return out


def _route(question: str, tenant: str) -> list[RoutingResult]:
    """Each part's routing, split as the service splits a compound question."""
    gazetteer = GAZETTEERS[tenant]
    inputs = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS)
    parts = split_asks(question, lambda t: read(t, gazetteer, AS_OF))
    return [route(p.question, inputs) for p in parts] if parts else [route(question, inputs)]


def _spend_calls(result: RoutingResult) -> list[dict[str, Any]]:
    return [dict(s.arguments["parameters"]) for s in result.execution_plan
            if s.tool == "metrics.query" and s.arguments.get("metric") == "finance.company_spend"
            and not s.arguments.get("group_by")]


_TOGETHER_FRAMES = (
    "{a} and {b} combined spend {p}", "{a} + {b} combined spend {p}", "Total spend of {a} and {b} together {p}",
    "{a} and {b}: combined spend {p}?", "What did {a} and {b} spend in total {p}?", "{a} + {b} spend {p}",
)
_APART_FRAMES = ("{a} vs {b} spend {p}", "Compare {a} and {b} spend {p}", "{a} and {b} spend {p}, each separately",
                 "{a} and {b} spend {p}")


def _pairs(tenant: str) -> list[tuple[Company, Company]]:
    return list(itertools.permutations(TENANTS[tenant], 2))


def _together_cases(n: int) -> list[tuple[str, str, tuple[str, ...], str, str]]:
    rng = random.Random(SEED)
    out: list[tuple[str, str, tuple[str, ...], str, str]] = []
    for _ in range(n):
        tenant = rng.choice(sorted(TENANTS))
        a, b = rng.choice(_pairs(tenant))
        phrase, start, end = rng.choice(PERIODS)
        q = rng.choice(_TOGETHER_FRAMES).format(a=rng.choice(_spellings(a)), b=rng.choice(_spellings(b)), p=phrase)
        out.append((tenant, q, (a.company_id, b.company_id), start, end))
    return out


@pytest.mark.parametrize(("tenant", "question", "ids", "start", "end"), _together_cases(60),
                         ids=lambda v: str(v)[:50])
def test_companies_added_up_are_one_governed_call_over_exactly_them(
        tenant: str, question: str, ids: tuple[str, ...], start: str, end: str) -> None:
    [result] = _route(question, tenant)
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = _spend_calls(result)
    assert len(calls) == 1, (question, result.execution_plan)
    assert sorted(calls[0]["company_ids"]) == sorted(ids), (question, calls)
    assert "company_id" not in calls[0]
    assert (calls[0]["start_date"], calls[0]["end_date"]) == (start, end), question
    assert all(i in result.interpretation for i in ids), result.interpretation


@pytest.mark.parametrize("i", range(24))
def test_companies_kept_apart_are_never_summed(i: int) -> None:
    rng = random.Random(SEED * 100 + i)
    tenant = rng.choice(sorted(TENANTS))
    a, b = rng.choice(_pairs(tenant))
    phrase = rng.choice(PERIODS)[0]
    question = _APART_FRAMES[i % len(_APART_FRAMES)].format(a=rng.choice(_spellings(a)),
                                                            b=rng.choice(_spellings(b)), p=phrase)
    results = _route(question, tenant)
    for result in results:
        assert all(not s.arguments.get("parameters", {}).get("company_ids") for s in result.execution_plan), question
    answered = [r for r in results if not r.requires_clarification]
    if answered:  # a comparison or one part per company: both companies' own figures, never one alone
        ids = {str(v) for r in answered for s in r.execution_plan for k, v in s.arguments.items()
               if k == "company_id"} | {str(s.arguments.get("parameters", {}).get("company_id"))
                                         for r in answered for s in r.execution_plan}
        assert {a.company_id, b.company_id} <= ids or len(answered) < len(results), (question, ids)


@pytest.mark.parametrize(("excluded", "phrase"), list(itertools.product(["COMP-A", "COMP-B", "COMP-C"],
                                                                          [p[0] for p in PERIODS[:4]])))
def test_group_wide_excluding_a_company_is_the_companies_left(excluded: str, phrase: str) -> None:
    name = next(c.company_name for c in TENANTS["letters"] if c.company_id == excluded)
    for frame in ("Group-wide spend excluding {n}, {p}", "Total spend across all companies except {n} {p}"):
        question = frame.format(n=name, p=phrase)
        [result] = _route(question, "letters")
        assert not result.requires_clarification, (question, result.clarification_question)
        [call] = _spend_calls(result)
        assert sorted(call["company_ids"]) == sorted(c.company_id for c in TENANTS["letters"]
                                                      if c.company_id != excluded), (question, call)


_EXCLUDED_FRAMES = ("Group-wide spend excluding {n}, {p}", "Total spend across all companies except {n} {p}",
                    "Spend {p} for all entities other than {n}", "How much did all companies spend {p}, {n} excluded?",
                    "Group-wide spend without {n} {p}", "Spend {p} for all entities other than {n} please",
                    "Spend {p}, every company except {n}")


def _excluded_spellings(company: Company) -> list[str]:
    """Every way the excluded slot writes a company: its id (as typed, too), full name, name without its legal
    form, short name, or for "Company X" names the abbreviated word and the bare letter after "companies"."""
    out = [company.company_id, company.company_id.lower().replace("-", " "), *_spellings(company)]
    if company.company_name.startswith("Company "):
        out += [company.company_name.lower(), company.company_name.replace("Company", "Co."),
                company.company_name.removeprefix("Company ")]
    return out


def _excluded_cases() -> list[tuple[str, str, str, str, str]]:
    rng = random.Random(SEED + 7)
    out: list[tuple[str, str, str, str, str]] = []
    for tenant, companies in TENANTS.items():
        for company in companies:
            for name in _excluded_spellings(company):
                # a bare letter names a company only right after "companies except"
                frames = [f for f in _EXCLUDED_FRAMES if len(name) > 1 or ("compan" in f and "except {n}" in f)]
                phrase, start, end = rng.choice(PERIODS)
                out.append((tenant, rng.choice(frames).format(n=name, p=phrase), company.company_id, start, end))
    return out


@pytest.mark.parametrize(("tenant", "question", "excluded", "start", "end"), _excluded_cases(),
                         ids=lambda v: str(v)[:50])
def test_every_spelling_of_an_excluded_company_leaves_the_others(
        tenant: str, question: str, excluded: str, start: str, end: str) -> None:
    [result] = _route(question, tenant)
    assert not result.requires_clarification, (question, result.clarification_question)
    [call] = _spend_calls(result)
    assert sorted(call["company_ids"]) == sorted(c.company_id for c in TENANTS[tenant]
                                                  if c.company_id != excluded), (question, call)
    assert (call["start_date"], call["end_date"]) == (start, end), (question, call)


@pytest.mark.parametrize(("kept", "out"), [("COMP-A", "COMP-B"), ("COMP-C", "Company A"), ("Company B", "COMP-C")])
def test_a_company_named_beside_an_excluded_id_is_the_figures_company(kept: str, out: str) -> None:
    [result] = _route(f"{kept} spend excluding {out} in Q1 2026", "letters")
    assert not result.requires_clarification, result.clarification_question
    assert not any(s.arguments.get("parameters", {}).get("company_ids") for s in result.execution_plan)
    resolved = [s.arguments for s in result.execution_plan if s.tool == "entity.resolve_company"]
    kept_id = next(c.company_id for c in TENANTS["letters"] if kept in (c.company_id, c.company_name))
    assert resolved == [{"company_id": kept_id}], (kept, out, resolved)


def test_a_lower_case_word_after_all_companies_except_is_no_company() -> None:
    """ "except a few": a word that completes "Company" only as written in the name (the capital letter)."""
    [result] = _route("Total spend across all companies except a few in Q1 2026", "letters")
    assert not any(s.arguments.get("parameters", {}).get("company_ids") for s in result.execution_plan)


@pytest.mark.parametrize("lead", ["Company A", "Company B", "Company C"])
@pytest.mark.parametrize("joint", [", {x} and {y}", " and {x}", ", {x} & {y}", " + {x}", "/{x}"])
def test_an_elided_company_list_names_every_company(lead: str, joint: str) -> None:
    others = [c.company_name.split()[-1] for c in TENANTS["letters"] if c.company_name != lead]
    text = f"Total spend across {lead}{joint.format(x=others[0], y=others[1])} in Q1 2026"
    gazetteer = GAZETTEERS["letters"]
    mentions = read(text, gazetteer, AS_OF).mentions
    named = {m.candidates[0] for m in mentions.companies}
    listed = 1 + joint.count("{")
    assert len(named) == listed, (text, mentions.companies)
    [result] = _route(text, "letters")
    [call] = _spend_calls(result)
    assert len(call["company_ids"]) == listed, (text, call)
    # a word completing no known name is not read as a company
    unknown = elided_companies("Company A and Z spend", read("Company A spend", gazetteer, AS_OF).mentions,
                               gazetteer)
    assert len(unknown.companies) == 1


# --- unknown legal-form names -------------------------------------------------------------------------------------
_FOREIGN = ("Transport", "Holding", "Foods", "Digital", "Nord", "Chemie", "Services")
_NAME_FRAMES = ("Top suppliers of {n} in {p}", "{n} spend {p}", "What did {n} spend with Beta {p}?",
                "Approved vendors of {n} as of today")


@pytest.mark.parametrize("i", range(30))
def test_a_legal_form_name_of_no_known_company_is_asked_about(i: int) -> None:
    rng = random.Random(SEED * 1000 + i)
    company = rng.choice(TENANTS["legal"])
    first, *_, form = company.company_name.split()
    foreign = rng.choice(_FOREIGN)
    name = f"{first} {foreign} {rng.choice([form, 'AG', 'GmbH', 'Ltd'])}"
    question = rng.choice(_NAME_FRAMES).format(n=name, p=rng.choice(PERIODS)[0])
    [result] = _route(question, "legal")
    assert result.requires_clarification, (question, result.execution_plan)
    # the name as written (or its word no company has) is named back
    assert foreign in (result.clarification_question or ""), (question, result.clarification_question)


@pytest.mark.parametrize("company", TENANTS["legal"], ids=lambda c: c.company_id)
@pytest.mark.parametrize("frame", _NAME_FRAMES[:3])
def test_every_known_spelling_of_a_legal_name_still_resolves(company: Company, frame: str) -> None:
    words = company.company_name.split()
    typo = words[1][:-2] + words[1][-1] + words[1][-2]  # one transposition in the distinctive word
    for name in (*_spellings(company), f"{words[0]} {typo} {words[-1]}", company.company_name.upper()):
        question = frame.format(n=name, p="in Q1 2026")
        [result] = _route(question, "legal")
        text = result.clarification_question or ""
        assert "I do not know a company" not in text, (question, text)


# --- the category of an approved-vendor question ------------------------------------------------------------------
_UNKNOWN_CATEGORIES = ("hydraulics", "valves", "office chairs", "pneumatics", "forklift parts")


@pytest.mark.parametrize(("category", "company"), list(itertools.product(_UNKNOWN_CATEGORIES,
                                                                          ["Company A", "Company C"])))
def test_an_unread_approval_category_is_asked_about(category: str, company: str) -> None:
    for frame in ("Approved vendors of {c} for {g} in 2026?", "Who is approved for {g} at {c} as of today?"):
        question = frame.format(c=company, g=category)
        [result] = _route(question, "letters")
        assert result.requires_clarification, (question, result.execution_plan)
        assert category in (result.clarification_question or ""), (question, result.clarification_question)


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.product_group_id)
def test_a_known_approval_category_is_no_question(group: Any) -> None:
    question = f"Approved vendors of Company A for {group.group_name.lower()} in 2026?"
    [result] = _route(question, "letters")
    assert "I do not know the category" not in (result.clarification_question or ""), question


# --- compounds: each part read whole ------------------------------------------------------------------------------
def _metric_calls(result: RoutingResult) -> list[tuple[str, dict[str, Any], list[str]]]:
    out = []
    for step in result.execution_plan:
        if step.tool == "metrics.query":
            out.append((step.arguments["metric"], dict(step.arguments["parameters"]),
                        list(step.arguments.get("group_by") or [])))
        elif step.tool.startswith(("finance.", "graph.", "catalog.")):
            out.append((step.tool, {k: v for k, v in step.arguments.items() if isinstance(v, str | list)}, []))
    return out


def _company_of(result: RoutingResult) -> str | None:
    return result.entities.company_id


@pytest.mark.parametrize(("a", "b"), _pairs("legal"), ids=lambda c: c.company_id)
@pytest.mark.parametrize("joint", [" & ", " and "])
def test_one_figure_per_company_joined_by_an_ampersand(a: Company, b: Company, joint: str) -> None:
    rng = random.Random(f"{a.company_id}{b.company_id}{joint}")
    phrase = rng.choice(PERIODS)[0]
    question = f"{rng.choice(_spellings(a))} spend {phrase}{joint}{rng.choice(_spellings(b))} spend {phrase}?"
    results = _route(question, "legal")
    assert [_company_of(r) for r in results] == [a.company_id, b.company_id], (question, results)
    assert not any(r.requires_clarification for r in results), question


_NESTED = [(g, p) for g in GROUPS for p in GROUPS if g.parent_group_id == p.product_group_id]


@pytest.mark.parametrize(("part", "whole"), _NESTED, ids=lambda g: g.product_group_id)
@pytest.mark.parametrize("company", ["Company A", "Company B"])
def test_a_share_within_a_parent_group_named_first(part: Any, whole: Any, company: str) -> None:
    gazetteer = GAZETTEERS["letters"]
    for question in (f"Within {company}'s {whole.group_name.lower()} spend for FY25, what % was "
                     f"{part.group_name.lower()}?",
                     f"Of {company}'s {whole.group_name} spend in Q1 2026, what share was {part.group_name}?"):
        [result] = _route(question, "letters")
        assert not result.requires_clarification, (question, result.clarification_question)
        [(_, params, _)] = [c for c in _metric_calls(result) if c[0] == "finance.product_group_share"]
        assert sorted(params["product_group_ids"]) == sorted(gazetteer.subgroups(part.product_group_id)), question
        assert sorted(params["within_product_group_ids"]) == sorted(gazetteer.subgroups(whole.product_group_id))


@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g.product_group_id)
def test_a_share_of_the_total_asked_after_it(group: Any) -> None:
    gazetteer = GAZETTEERS["letters"]
    for lead in ("Company B: total for Q1 2026", "Company B total spend in Q1 2026"):
        question = f"{lead}, and what share of it was {group.group_name.lower()}?"
        _, second = _route(question, "letters")
        assert not second.requires_clarification, (question, second.clarification_question)
        [(_, params, _)] = [c for c in _metric_calls(second) if c[0] == "finance.product_group_share"]
        assert sorted(params["product_group_ids"]) == sorted(gazetteer.subgroups(group.product_group_id))
        assert params["company_id"] == "COMP-B" and "within_product_group_ids" not in params, question
    # the whole of "it" is a filtered figure: never read as the total spend
    question = f"Company B spend with Beta in Q1 2026, and what share of it was {group.group_name.lower()}?"
    for result in _route(question, "letters"):
        for metric, params, _ in _metric_calls(result):
            assert not (metric == "finance.product_group_share" and not params.get("supplier_ids")
                        and not params.get("within_supplier_ids")), (question, params)


@pytest.mark.parametrize("group", GROUPS[:5], ids=lambda g: g.product_group_id)
def test_who_is_approved_beside_a_figure_is_its_own_list(group: Any) -> None:
    question = (f"Company B: who is approved for {group.group_name} as of today, and what did B spend on "
                f"{group.group_name} in Q1 2026?")
    approved, spend = _route(question, "letters")
    assert any(s.tool == "graph.find_approved_vendors" for s in approved.execution_plan), question
    assert not spend.requires_clarification and spend.entities.company_id == "COMP-B", question
    assert not any(s.tool == "graph.find_approved_vendors" for s in spend.execution_plan), question


@pytest.mark.parametrize("sid", sorted(SUPPLIERS))
def test_which_companies_bought_and_how_much_each(sid: str) -> None:
    name = SUPPLIERS[sid][1][0]
    for question in (f"Which companies bought from {name} last quarter and how much each?",
                     f"Which companies bought from {name} in Q1 2026, and how much did each spend?"):
        [result] = _route(question, "letters")
        assert not result.requires_clarification, (question, result.clarification_question)
        grouped = [p for m, p, g in _metric_calls(result) if m == "finance.company_spend" and g == ["company_id"]]
        assert grouped and grouped[0]["supplier_ids"] == [sid], (question, _metric_calls(result))


@pytest.mark.parametrize("doc", ["agreement-2026-04", "agreement-2025-09"])
def test_a_named_documents_fact_beside_a_figure_is_its_own_ask(doc: str) -> None:
    question = f"Company A USD spend in Q1 2026 (USD and EUR) - and what are the payment terms in {doc}?"
    figure, fact = _route(question, "letters")
    assert figure.entities.company_id == "COMP-A" and not figure.requires_clarification, question
    assert doc in fact.question and "Company A" not in fact.question, fact.question


@pytest.mark.parametrize("code", ["PRD-482", "PRD-483", "PRD-701", "PRD-845"])
@pytest.mark.parametrize("period", [p[0] for p in PERIODS[:5]])
def test_units_asked_beside_a_products_price_take_the_product(code: str, period: str) -> None:
    question = f"For {code} at Company A {period}: average unit price and number of units bought?"
    parts = split_asks(question, lambda t: read(t, GAZETTEERS["letters"], AS_OF))
    assert len(parts) == 2, (question, parts)
    assert code in parts[1].question and "Company A" in parts[1].question, parts[1]


@pytest.mark.parametrize("doc", ["agreement-2025-09", "agreement-2026-04"])
@pytest.mark.parametrize("what", ["cabling", "sensors", "hydraulics"])
def test_an_approval_stated_in_a_named_document_needs_no_company(doc: str, what: str) -> None:
    question = f"Per the amendment to {doc}, from when is Iota approved for {what}?"
    [result] = _route(question, "letters")
    assert "Which company do you mean" not in (result.clarification_question or ""), question
    assert "I do not know the category" not in (result.clarification_question or ""), question


@pytest.mark.parametrize("company", ["Company A", "Company B", "Company C"])
@pytest.mark.parametrize("period", [p[0] for p in PERIODS[:4]])
def test_spend_with_them_after_who_is_approved_is_the_approved_vendors_spend(company: str, period: str) -> None:
    question = f"who is approved for {company} {period}, and what did {company} spend with them in that period?"
    approved, spend = _route(question, "letters")
    assert any(s.tool == "graph.find_approved_vendors" for s in approved.execution_plan), question
    assert any(s.tool == "graph.find_approved_vendors" for s in spend.execution_plan), (question, spend.question)


@pytest.mark.parametrize("verb", ["move", "change", "grow", "drop"])
@pytest.mark.parametrize("sid", sorted(SUPPLIERS)[:3])
def test_what_percent_did_spend_move_is_a_change_not_a_share(verb: str, sid: str) -> None:
    name = SUPPLIERS[sid][0].split()[-1]
    question = f"by what % did Company A's {name} spend {verb} from Q4 2025 to Q1 2026?"
    gazetteer = GAZETTEERS["letters"]
    assert not read(question, gazetteer, AS_OF).analysis.share, question
    shares = [f"Within Company A's {name} spend in Q1 2026, what % was pressure sensors?",
              "Of Company A's sensors spend in FY25, what % was pressure sensors?"]
    assert all(read(q, gazetteer, AS_OF).analysis.share for q in shares)


@pytest.mark.parametrize("letter", ["A", "B", "C"])
@pytest.mark.parametrize("now", ["right now", "now", "currently", "today"])
def test_a_company_letter_after_approved_for_is_no_category(letter: str, now: str) -> None:
    question = f"Company {letter} sensors spend in Q1 2026 + which sensors vendors are approved for {letter} {now}?"
    for result in _route(question, "letters"):
        assert "I do not know the category" not in (result.clarification_question or ""), question


@pytest.mark.parametrize("tail", ["?", " please", ", thanks", " pls?"])
def test_how_much_each_with_a_courtesy_is_no_ask_of_its_own(tail: str) -> None:
    question = f"Which companies bought from Supplier Beta in H2 2025, and how much did each spend{tail}"
    [result] = _route(question, "letters")
    grouped = [p for m, p, g in _metric_calls(result) if m == "finance.company_spend" and g == ["company_id"]]
    assert grouped and grouped[0]["supplier_ids"] == ["SUP-18"], (question, _metric_calls(result))
