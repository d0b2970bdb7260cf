"""A figure split between named companies ("monitoring spend split alpenland vs kestrel, FY25"): a row per named
company and their total, never "which company do you mean?"; without the split word the companies set against
each other are still asked about. Routed without a database; seeded slot variation."""

from __future__ import annotations

import random

import pytest

from tests.unit.test_router_invoice_facts import _routed

NAMES = {"Company A": "COMP-A", "company b": "COMP-B", "Company C": "COMP-C"}
SPLITS = ("split {a} vs {b}", "split between {a} and {b}", "split {a} / {b}", "broken down between {a} and {b}",
          "split across {a} and {b}", "split {a} versus {b}")
WHATS = ("sensors spend", "spend", "pressure sensors spend", "consumables spend")
PERIODS = ("FY25", "Q1 2026", "2025", "march 2026")


@pytest.mark.parametrize("seed", range(24))
def test_a_split_between_named_companies_is_a_row_each(seed: int) -> None:
    rng = random.Random(seed)
    a, b = rng.sample(sorted(NAMES), 2)
    q = f"{rng.choice(WHATS)} {rng.choice(SPLITS).format(a=a, b=b)}, {rng.choice(PERIODS)}"
    routed = _routed(q)
    assert routed.workflow != "clarification", (q, routed.clarification_question)
    steps = [s.arguments for s in routed.execution_plan if s.tool == "metrics.query"]
    assert any("company_id" in (s.get("group_by") or []) for s in steps), (q, steps)
    companies = {c for s in steps for c in (s["parameters"].get("company_ids") or [])}
    assert companies == {NAMES[a], NAMES[b]}, (q, steps)


def test_companies_set_against_each_other_without_a_split_word_are_asked() -> None:
    routed = _routed("sensors spend Company A vs Company C, FY25")
    assert routed.workflow == "clarification"


@pytest.mark.parametrize("question", ["sensors spend split across company b and Company A, Q1 2026",
                                      "spend split over company b and company c, 2025",
                                      "consumables spend divided across company c and company b, FY25"])
def test_a_split_across_lowercase_companies_is_no_dimension(question: str) -> None:
    # "split across <dimension>" means "by"; before a tenant's company written in lower case it named the
    # companies as a dimension ("by company b and ...") and asked about breaking spend down by "and"
    routed = _routed(question)
    assert routed.workflow != "clarification", (question, routed.clarification_question)
    steps = [s.arguments for s in routed.execution_plan if s.tool == "metrics.query"]
    companies = {c for s in steps for c in (s["parameters"].get("company_ids") or [])}
    assert len(companies) == 2, (question, steps)
