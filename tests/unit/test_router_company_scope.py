"""Company scope in a tenant of several companies, routed in memory (no database).

Classes:
- no company named: "which company?" is asked only where the answer depends on it. The question is read once per
  company (a gazetteer of that company alone: the one-company rule names it); the one company with matching lines
  is answered and said, no company with lines is "no data" for all, two or more (or a reading not measured in
  lines) is asked back (router/company_probe.py). The decision is metamorphic: the order of the companies, their
  names and the line counts beyond zero / non-zero never change it;
- every company named together with a period comparison ("Group (X + Y) Q4 vs Q3", "X and Y together: Q1 versus
  Q4") is the all-companies comparison; "X vs Y" (a company on each side) stays apart;
- "A spent how much more than B", "A paid how much less than B" are the difference of two companies' spend; "rank
  A vs B by <period> spend" ranks the named companies over the period;
- "A as % of total group spend" is A's share of the group, the group word kept.

Slots vary over companies, their spellings, suppliers, periods and frames; seeded bounded samples.
"""

from __future__ import annotations

import itertools
import random
import uuid
from typing import Any

import pytest

from router.company_compare import company_mentions, detect
from router.company_probe import (
    Decision,
    Probed,
    asks_only_company,
    decide,
    decision_note,
    first_person,
    matched_lines,
    one_company,
    several_note,
)
from router.entities import Company, Gazetteer
from router.executor import RunResult, StepOutcome
from router.ranking_words import read_ranking_words
from router.reader import read
from router.routing import RouterInputs, route
from router.tools import ApprovedVendorsToolResponse, CompletenessResponse, MetricToolResponse, SpendResponse
from tests.unit.test_router_analysis import AS_OF, CTX, GROUPS, METRICS

SEED = 61
TENANTS = {
    "pair": [Company("COMP-X", "Xenon Pharma AG", "EUR"), Company("COMP-Y", "Ypsilon Retail GmbH", "EUR")],
    "three": [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
              Company("COMP-C", "Company C", "EUR")],
}
SUPPLIERS = {"SUP-18": ("Northwind Sensors", "Northwind"), "SUP-33": ("Gamma Kaeltetechnik", "Gamma"),
             "SUP-98": ("Iris Office Supplies", "Iris Office")}
GAZETTEERS = {k: Gazetteer.build(v, [(sid, n[0]) for sid, n in SUPPLIERS.items()],
                                 [(a, sid) for sid, n in SUPPLIERS.items() for a in n], GROUPS)
              for k, v in TENANTS.items()}
SPELLINGS = {"COMP-X": ("Xenon", "Xenon Pharma", "xenon"), "COMP-Y": ("Ypsilon", "Ypsilon Retail", "ypsilon"),
             "COMP-A": ("Company A", "company a"), "COMP-B": ("Company B", "company b"),
             "COMP-C": ("Company C", "company c")}
#: (words, start, end) as of 2026-05-15
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
           ("in Q4 2025", "2025-10-01", "2026-01-01"), ("in 2025", "2025-01-01", "2026-01-01"),
           ("in March 2026", "2026-03-01", "2026-04-01"))
NO_COMPANY_FRAMES = ("how much did we spend with {s} {p}?", "spend with {s} {p}", "{s} spend {p} total",
                     "what was our spend with {s} {p}", "total spent at {s} {p}")


def _inputs(gazetteer: Gazetteer) -> RouterInputs:
    return RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS)


def _no_company_cases(n: int) -> list[tuple[str, str, str, str, str]]:
    rng = random.Random(SEED)
    out = []
    for i in range(n):
        tenant = rng.choice(sorted(TENANTS))
        sid = rng.choice(sorted(SUPPLIERS))
        p, start, end = rng.choice(PERIODS)
        q = NO_COMPANY_FRAMES[i % len(NO_COMPANY_FRAMES)].format(s=rng.choice(SUPPLIERS[sid]), p=p)
        out.append((tenant, q, sid, start, end))
    return out


@pytest.mark.parametrize(("tenant", "question", "supplier", "start", "end"), _no_company_cases(6))
def test_no_company_is_asked_and_each_company_reading_names_it(tenant: str, question: str, supplier: str,
                                                               start: str, end: str) -> None:
    gazetteer = GAZETTEERS[tenant]
    asked = route(question, _inputs(gazetteer))
    assert asked.requires_clarification and asks_only_company(asked.clarification_reasons), (
        question, asked.clarification_reasons)
    for company in gazetteer.companies:
        one = route(question, _inputs(one_company(gazetteer, company.company_id)))
        assert not one.requires_clarification, (question, one.clarification_question)
        assert one.entities.company_id == company.company_id
        assert list(one.entities.supplier_ids) == [supplier]
        tr = one.constraints.time_range
        assert tr is not None and (tr.start.isoformat(), tr.end.isoformat()) == (start, end)


@pytest.mark.parametrize(("reasons", "only"), [
    (("company: the question does not say which company",), True),
    (("company: 'our company' does not say which company",), True),
    (("company: the question does not say which company", "period: no period"), False),
    (("entity: I do not know 'freight'",), False),
    ((), False),
    (("company: 'all companies' asks for a figure across companies",), False)])
def test_only_the_which_company_reason_is_probed(reasons: tuple[str, ...], only: bool) -> None:
    assert asks_only_company(reasons) is only


def test_decision_depends_only_on_which_companies_have_lines() -> None:
    # every distribution of lines over two to four companies (none / zero / some / many, or not measured)
    rnd = random.Random(SEED)
    for size in (2, 3, 4):
        for lines in itertools.product((None, 0, 1, 37), repeat=size):
            probed = [Probed(f"COMP-{i}", n) for i, n in enumerate(lines)]
            decision = decide(probed)
            shuffled = list(probed)
            rnd.shuffle(shuffled)
            assert decide(shuffled) == decision, lines  # the order of the companies never matters
            scaled = [Probed(p.company_id, None if p.lines is None else p.lines * 7) for p in probed]
            assert decide(scaled) == decision, lines  # nor how many lines, only whether there are any
            with_data = [p.company_id for p in probed if p.lines]
            if None in lines or len(with_data) > 1:
                assert decision is None, lines
            else:
                assert decision == Decision(with_data[0] if with_data else None), lines


def test_one_company_is_never_probed() -> None:
    assert decide([Probed("COMP-A", 3)]) is None


def _run(*outputs: Any, status: str = "ok", arguments: dict[str, Any] | None = None) -> RunResult:
    run = RunResult(run_id=uuid.uuid4())
    for i, out in enumerate(outputs):
        run.outcomes[f"s{i}"] = StepOutcome(f"s{i}", "t", status, 1, arguments or {}, out, None,  # type: ignore[arg-type]
                                            0.0)
    return run


def _metric(name: str, lines: int) -> MetricToolResponse:
    return MetricToolResponse.model_construct(metric=name, matched_line_count=lines,
                                              status="complete" if lines else "no_data")


def test_matched_lines_counts_governed_figures_only() -> None:
    spend = SpendResponse.model_construct(metric="finance.company_spend", matched_line_count=4, status="complete")
    check = CompletenessResponse(status="complete")
    assert matched_lines(_run(spend, _metric("finance.invoice_count", 0), check)) == 4
    assert matched_lines(_run(_metric("catalog.average_unit_price", 0), check)) == 0
    assert matched_lines(_run(check)) is None  # nothing measured in lines
    assert matched_lines(_run(ApprovedVendorsToolResponse.model_construct(supplier_ids=()), spend)) is None
    assert matched_lines(_run(spend, status="failed")) is None
    assert matched_lines(None) is None


@pytest.mark.parametrize(("metric", "arguments"), [
    ("finance.invoices_above_threshold", {"threshold": "5000.00"}),
    ("finance.cancelled_draft_invoices", {}),
    ("finance.overdue_invoices", {}),
    ("finance.company_spend", {"parameters": {"invoice_statuses": ["draft"]}}),
    ("finance.company_spend", {"parameters": {"invoice_statuses": ["posted"]}}),
    ("finance.invoice_count", {"parameters": {"document_types": ["credit_note"]}})])
def test_a_narrowed_selection_never_reads_as_no_data(metric: str, arguments: dict[str, Any]) -> None:
    # drafts, open invoices, credit notes alone, invoices over an amount: a company with activity and none of
    # them answers "none", which differs from the company that has some; asked back, never answered for one
    for lines in (0, 3):
        assert matched_lines(_run(_metric(metric, lines), arguments=arguments)) is None


@pytest.mark.parametrize("tenant", sorted(TENANTS))
def test_note_says_whose_data_it_is(tenant: str) -> None:
    companies = TENANTS[tenant]
    for c in companies:
        note = decision_note(Decision(c.company_id), companies)
        assert f"only {c.company_name} ({c.company_id})" in note
        assert all(o.company_id in note for o in companies)
    assert "none of the tenant's companies" in decision_note(Decision(None), companies)


#: every company of the pair named together, then two periods compared
SET_FRAMES = ("Group ({a} + {b}) {p} vs {q} total", "{a} and {b} together: {p} versus {q} spend",
              "{a} + {b} combined spend {p} vs {q}")
COMPARED = (("Q4 2025", "Q3 2025", "2025-10-01"), ("Q1 2026", "Q4 2025", "2026-01-01"))


@pytest.mark.parametrize("i", range(4))
def test_every_company_named_together_compares_periods_of_the_group(i: int) -> None:
    rng = random.Random(SEED + i)
    a, b = rng.sample(TENANTS["pair"], 2)
    p, q, start = COMPARED[i % len(COMPARED)]
    question = SET_FRAMES[i % len(SET_FRAMES)].format(a=rng.choice(SPELLINGS[a.company_id]),
                                                      b=rng.choice(SPELLINGS[b.company_id]), p=p, q=q)
    result = route(question, _inputs(GAZETTEERS["pair"]))
    assert not result.requires_clarification, (question, result.clarification_question)
    calls = [s.arguments["parameters"] for s in result.execution_plan if s.tool == "metrics.query"]
    assert calls and all(not c.get("company_id") for c in calls), calls
    assert calls[0]["start_date"] == start


@pytest.mark.parametrize("question", ["Xenon vs Ypsilon spend in Q4 2025", "Ypsilon versus Xenon spend H2 2025"])
def test_companies_on_each_side_of_vs_stay_apart(question: str) -> None:
    result = route(question, _inputs(GAZETTEERS["pair"]))
    calls = [s.arguments["parameters"] for s in result.execution_plan if s.tool == "metrics.query"]
    assert result.requires_clarification or not any(c.get("company_ids") for c in calls)


def _ask(question: str, tenant: str) -> Any:
    gazetteer = GAZETTEERS[tenant]
    reading = read(question, gazetteer, AS_OF)
    m = reading.mentions
    return detect(reading.text, company_mentions(reading.text, m.companies, reading.identifiers.company_ids),
                  (*m.suppliers, *m.product_groups, *m.products))


FRONTED = ("{a} spent how much more than {b} {p}", "{a} paid how much less than {b} {p}?",
           "so {a} spent how much more money than {b} {p}")


@pytest.mark.parametrize("i", range(4))
def test_subject_first_difference_is_two_companies_spend(i: int) -> None:
    rng = random.Random(SEED * 3 + i)
    tenant = rng.choice(sorted(TENANTS))
    a, b = rng.sample(TENANTS[tenant], 2)
    p, start, end = rng.choice(PERIODS)
    frame = FRONTED[i % len(FRONTED)]
    question = frame.format(a=rng.choice(SPELLINGS[a.company_id]), b=rng.choice(SPELLINGS[b.company_id]), p=p)
    ask = _ask(question, tenant)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    assert ask.direction == ("bottom" if "less" in frame else "top")
    for base, company in zip(ask.bases, (a, b), strict=True):
        result = route(base, _inputs(GAZETTEERS[tenant]))
        assert not result.requires_clarification, (base, result.clarification_question)
        assert result.entities.company_id == company.company_id, base
        tr = result.constraints.time_range
        assert tr is not None and (tr.start.isoformat(), tr.end.isoformat()) == (start, end), base


RANK_PERIODS = (("H2 2025", "2025-07-01", "2026-01-01"), ("Q1 2026", "2026-01-01", "2026-04-01"),
                ("2025", "2025-01-01", "2026-01-01"))


@pytest.mark.parametrize("i", range(4))
def test_rank_named_companies_by_a_periods_spend(i: int) -> None:
    rng = random.Random(SEED * 5 + i)
    a, b = rng.sample(TENANTS["pair"], 2)
    p, start, end = RANK_PERIODS[i % len(RANK_PERIODS)]
    joiner = ("vs", "and", "or")[i % 3]
    question = (f"Rank {rng.choice(SPELLINGS[a.company_id])} {joiner} {rng.choice(SPELLINGS[b.company_id])} by {p} "
                f"{rng.choice(('spend', 'gross spend', 'total spend'))}")
    ask = _ask(question, "pair")
    assert ask is not None and ask.kind == "company_ranking", question
    assert set(ask.named) == {a.company_id, b.company_id}
    result = route(ask.bases[0], _inputs(GAZETTEERS["pair"]))
    assert not result.requires_clarification, (ask.bases[0], result.clarification_question)
    tr = result.constraints.time_range
    assert tr is not None and (tr.start.isoformat(), tr.end.isoformat()) == (start, end)


@pytest.mark.parametrize(("question", "words"), [
    ("Company A as % of total group spend FY2025", "share of total group spend"),
    ("Ypsilon pct of the total group-wide spend 2025", "share of total group-wide spend"),
    ("what is Company C as percent of total tenant spend in Q1", "share of total tenant spend"),
    ("Helix as % of total spend 2025", "share of total spend")])
def test_share_of_the_group_keeps_the_group_word(question: str, words: str) -> None:
    read_as = read_ranking_words(question)
    assert read_as is not None and words in read_as and "spend group" not in read_as, read_as


@pytest.mark.parametrize(("text", "personal"), [
    ("Total of our purchases from Iris Office in April 2026?", True), ("what did we spend with Gamma in Q4", True),
    ("how much did my company pay Beta", True), ("send us the Northwind total for 2025", True),
    ("nuestras compras a Beta en 2025", True), ("unsere Ausgaben bei Gamma 2025", True),
    ("spend with Northwind Q1 2026?", False), ("US suppliers spend 2025", False),
    ("invoice nos + total eur, H2 2025", False), ("wireless transmitter spend only, H2 2025", False)])
def test_first_person_speaks_of_the_askers_company(text: str, personal: bool) -> None:
    assert first_person(text) is personal


@pytest.mark.parametrize("size", [2, 3])
def test_the_askers_company_is_asked_where_one_company_has_data(size: int) -> None:
    # "our purchases from X": the asker's company may be one with no data, so one company with lines is asked
    # about (saying which has data); no company with lines is "no data" whoever asks
    companies = TENANTS["three"][:size]
    for i, c in enumerate(companies):
        probed = [Probed(o.company_id, 5 if o is c else 0) for o in companies]
        assert decide(probed, personal=True) is None
        assert decide(probed, personal=False) == Decision(c.company_id)
        assert several_note(probed, companies).startswith(f"Only {c.company_name} ({c.company_id}) has data"), i
    none = [Probed(o.company_id, 0) for o in companies]
    assert decide(none, personal=True) == decide(none) == Decision(None)
