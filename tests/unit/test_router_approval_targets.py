"""What an approved-vendor list is asked for after it ("approved vendors for Company B in cables"): a product group
narrows the list, an unknown word is asked about; never the whole approved list with the category dropped.
Routed without a database; seeded slot variation over companies, groups, prepositions and time words."""

from __future__ import annotations

import random

import pytest

from router.approval_words import approval_targets
from tests.unit.test_router_invoice_facts import _routed

COMPANIES = {"company b": "COMP-B", "Company A": "COMP-A", "company c": "COMP-C"}
GROUPS = {"sensors": "PG-SENS", "pressure sensors": "PG-PRES", "control cabinets": "PG-CAB",
          "consumables": "PG-CONS", "temperature sensors": "PG-TEMP"}
UNKNOWN = ("hydraulics", "zorbos", "welding gas", "catering")
FRAMES = ("approved vendors for {c} in {g}, as of today", "approved vendors for {c} for {g}",
          "approved suppliers of {c} in {g} right now", "which are the approved vendors for {c} in {g} today?",
          "approved vendors for {c} in {g}")


@pytest.mark.parametrize("seed", range(24))
def test_a_group_after_the_approved_list_narrows_it(seed: int) -> None:
    rng = random.Random(seed)
    company, group = rng.choice(sorted(COMPANIES)), rng.choice(sorted(GROUPS))
    q = rng.choice(FRAMES).format(c=company, g=group)
    routed = _routed(q)
    assert routed.workflow != "clarification", (q, routed.clarification_question)
    assert routed.entities.product_group_id == GROUPS[group] and routed.entities.company_id == COMPANIES[company], q


@pytest.mark.parametrize("seed", range(16))
def test_an_unknown_category_after_the_approved_list_is_asked(seed: int) -> None:
    rng = random.Random(seed)
    word = rng.choice(UNKNOWN)
    q = rng.choice(FRAMES).format(c=rng.choice(sorted(COMPANIES)), g=word)
    routed = _routed(q)
    assert routed.workflow == "clarification" and word in (routed.clarification_question or ""), q


@pytest.mark.parametrize("masked", ["approved vendors for           in force today", "approved vendors for us",
                                    "approved vendors for           in     ", "approved suppliers for the time being"])
def test_scope_and_time_words_are_no_target(masked: str) -> None:
    assert approval_targets(masked) == [], masked


SUPPLY = ("Which of {c}'s approved vendors for {p} supply {g}?", "Which approved vendors of {c} supply {g} in {p}?",
          "approved suppliers of {c} for {p} supplying {g}")


@pytest.mark.parametrize("seed", range(12))
def test_a_supply_clause_after_a_read_name_or_period_is_no_category(seed: int) -> None:
    # "approved vendors for [Q1 2026] supply monitoring products": the verb after a blanked name or period opens
    # the clause that names the group, never an unknown category 'supply'
    rng = random.Random(seed)
    company, group = rng.choice(sorted(COMPANIES)), rng.choice(sorted(GROUPS))
    q = rng.choice(SUPPLY).format(c=company, g=group, p=rng.choice(("Q1 2026", "H1 2026", "2025")))
    routed = _routed(q)
    assert "supply" not in (routed.clarification_question or ""), (q, routed.clarification_question)
    assert "'supplying'" not in (routed.clarification_question or ""), (q, routed.clarification_question)
