"""A subgroup asked for alone beside its parent ("crates only (not boxes in general)"): read as the subgroup,
never asked back as a choice between the two; without the contrast (two groups side by side, a comparison, an
exclusion) the reading is unchanged. Routed without a database; seeded slot variation."""

from __future__ import annotations

import random

import pytest

from tests.unit.test_router_invoice_facts import _routed

PAIRS = (("pressure sensors", "sensors", "PG-PRES"), ("temperature sensors", "sensors", "PG-TEMP"),
         ("sensors", "monitoring products", "PG-SENS"), ("control cabinets", "control equipment", "PG-CAB"),
         ("wireless pressure transmitters", "pressure sensors", "PG-PRES-WL"))
FRAMES = ("spend on {i} only (not {o} in general), {c}, {p}", "{c} spend on just {i}, not all {o}, {p}",
          "{c} {p} spend: {i} only, rather than {o} overall", "spend on {i} alone, not {o} as a whole, {c} {p}",
          "{c} spend {p} on specifically {i} (not {o} in general)", "spend on {i} only - not {o} in general - {c}, {p}")
COMPANIES = {"Company A": "COMP-A", "company b": "COMP-B", "Company C": "COMP-C"}
PERIODS = ("Q1 2026", "2025", "march 2026")


@pytest.mark.parametrize("seed", range(30))
def test_the_subgroup_alone_is_read(seed: int) -> None:
    rng = random.Random(seed)
    inner, outer, gid = rng.choice(PAIRS)
    company = rng.choice(sorted(COMPANIES))
    q = rng.choice(FRAMES).format(i=inner, o=outer, c=company, p=rng.choice(PERIODS))
    routed = _routed(q)
    assert routed.workflow != "clarification", (q, routed.clarification_question)
    assert routed.entities.product_group_id == gid and routed.entities.company_id == COMPANIES[company], q


@pytest.mark.parametrize("q", ["Company A spend on pressure sensors and sensors in Q1 2026",
                               "Company A pressure sensors vs sensors spend Q1 2026"])
def test_two_nested_groups_without_the_contrast_are_still_asked(q: str) -> None:
    routed = _routed(q)
    assert routed.entities.product_group_id != "PG-PRES" or routed.workflow == "clarification", q
