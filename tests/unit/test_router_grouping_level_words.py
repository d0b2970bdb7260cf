"""A grouping's level word and a period's end word after a ranking measure: "spend by top category" is a breakdown
by top-level product group (never a top-1 ranking), and "by spend till today" is the ranking's measure followed by
a period, never a grouping "spend till". Seeded slot variation."""

from __future__ import annotations

import random

import pytest

from router.analysis import parse_ranking
from router.reading import group_dimension, parse_breakdown

WHOS = ("Kestrel", "Company A", "our", "company b's")
PERIODS = ("for H2 2025", "in 2025", "q1 26", "last quarter", "FY25")
TOP_GROUPS = ("by top category", "per top category", "by top categories", "by top group", "per top product group",
              "by top groups")


@pytest.mark.parametrize("seed", range(24))
def test_by_top_category_is_a_top_level_breakdown_not_a_ranking(seed: int) -> None:
    rng = random.Random(seed)
    text = f"{rng.choice(WHOS)} spend {rng.choice(TOP_GROUPS)} {rng.choice(PERIODS)}"
    b = parse_breakdown(text)
    assert b.group_by == ("product_group_id",) and not b.unknown, (text, b)
    assert group_dimension(text) == "top_product_group_id", text
    assert parse_ranking(text)[0] is None, text


@pytest.mark.parametrize("text", ["top 3 categories by spend in 2025", "Kestrel top category by spend in 2025",
                                  "our top 5 suppliers in 2025"])
def test_a_top_n_before_its_noun_stays_a_ranking(text: str) -> None:
    assert parse_ranking(text)[0] is not None, text


ENDS = ("till today", "thru today", "through now", "up to today", "so far", "as of today")


@pytest.mark.parametrize("seed", range(18))
def test_a_period_end_after_the_ranking_measure_is_no_grouping(seed: int) -> None:
    rng = random.Random(seed)
    noun = rng.choice(("products", "suppliers", "categories"))
    text = f"Top {rng.randint(2, 9)} {noun} of {rng.choice(WHOS)} in 2026 by spend {rng.choice(ENDS)}"
    assert not parse_breakdown(text).unknown, text


SHORT_GROUPS = (("lab", ("Laboratory Equipment", "Lab Consumables"), "PG-LAB"),
                ("med", ("Medical Devices", "Med Supplies"), "PG-MED"))


@pytest.mark.parametrize("seed", range(12))
def test_a_short_first_word_names_the_common_ancestor_of_the_groups_it_starts(seed: int) -> None:
    # "xenon lab spend": "lab" is the whole first word of Lab Consumables and cut short from Laboratory Equipment,
    # whose subgroup it is: the ancestor with its subgroups is meant; alone under one group name it names nothing
    from router.entities import Gazetteer, ProductGroup
    from router.group_words import leading_word_group

    rng = random.Random(seed)
    word, (parent, child), gid = rng.choice(SHORT_GROUPS)
    spelled = rng.choice((word, word.upper(), word.capitalize()))
    g = Gazetteer.build([], [], [], [ProductGroup(gid, parent), ProductGroup(gid + "C", child, gid),
                                     ProductGroup("PG-OFF", "Office Supplies")])
    assert leading_word_group(spelled, g) == (gid, parent), spelled
    alone = Gazetteer.build([], [], [], [ProductGroup(gid, parent)])
    assert leading_word_group(spelled, alone) is None, spelled
    unrelated = Gazetteer.build([], [], [], [ProductGroup(gid, parent), ProductGroup("PG-X", child)])
    assert leading_word_group(spelled, unrelated) is None, spelled


@pytest.mark.parametrize("seed", range(12))
def test_a_ranking_measure_between_the_year_and_its_end_word_keeps_the_year_to_date(seed: int) -> None:
    import datetime as dt

    from router.periods import resolve_period

    rng = random.Random(seed)
    noun = rng.choice(("products", "suppliers", "categories"))
    end = rng.choice(("till today", "until today", "up to now", "so far", "to date"))
    text = f"Top {rng.randint(2, 9)} {noun} of Company A in 2026 by spend {end}"
    resolved = resolve_period(text, dt.date(2026, 5, 20))
    assert resolved.time_range is not None and not resolved.ambiguous, text
    assert (resolved.time_range.start, resolved.time_range.end) == (dt.date(2026, 1, 1), dt.date(2026, 5, 21)), text
