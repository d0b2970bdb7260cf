"""The group as a scope (router/group_scope.py): "group spend", "the group's", "(group)" read as every company of
the tenant; a product group's "group" (per group, the Sensors group, the group Shipping, names holding the word)
left alone. Seeded over frames, periods and measures; plus the exclusion list that ends after a company."""

from __future__ import annotations

import random

import pytest

from router.analysis import excluded_spans
from router.group_scope import NOUN_WORDS, group_scope
from router.preamble import strip_preamble
from router.tenant_scope import SCOPE_WORD

PERIODS = ("in Q1 2026", "Q4 2025", "FY2025", "in H2 2025", "YTD", "in March 2026", "last quarter",
           "between 1 Dec 2025 and 28 Feb 2026 inclusive", "in the last 30 days")
SCOPE_FRAMES = ("Group spend {p}?", "What did the group spend {p}?", "{p} group spend",
                "Split group spend {p} by quarter",
                "What share of group spend {p} did Company A account for?", "Kestrel's share of the group's {p} spend",
                "Change in Northwind spend (group) {p}", "How many suppliers did the group use {p}?",
                "Total group spend {p}", "Currency exposure of the group {p}", "group-level spend {p}",
                "Top 3 products by group spend {p}", "Which products did the group buy from Gamma {p}?",
                "our group total {p}", "spend at group level {p}", "the whole group's spend {p}")
PRODUCT_GROUP_FRAMES = ("Spend per group {p}", "Spend by product group {p}", "the Sensors group spend {p}",
                        "pressure sensors group spend {p}", "Which suppliers are in the group Shipping {p}?",
                        "Which products belong to the group {p}?", "Acme Group spend {p}",
                        "spend on the group 'Packaging' {p}", "product group spend at Company A {p}",
                        "which group had the most spend {p}")


def _cases(frames: tuple[str, ...], seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(frames).format(p=rng.choice(PERIODS)) for _ in range(n)]


@pytest.mark.parametrize("question", _cases(SCOPE_FRAMES, 1, 60))
def test_group_as_scope_is_read_as_every_company(question: str) -> None:
    scope = group_scope(question, ("Acme Group",))
    assert scope.read, question
    assert SCOPE_WORD in scope.text or NOUN_WORDS in scope.text
    assert "group" not in scope.text.lower().replace(SCOPE_WORD, "")


@pytest.mark.parametrize("question", _cases(PRODUCT_GROUP_FRAMES, 2, 60))
def test_product_group_word_is_left_alone(question: str) -> None:
    scope = group_scope(question, ("Acme Group",))
    assert scope.read == () and scope.text == question


def test_the_group_beside_a_product_group_is_the_subject_only() -> None:
    groups = ("Sensors", "PLC modules")
    assert group_scope("Spend on Sensors in Q1: what share of the group went to Beta?", (), groups).read == ()
    scope = group_scope("What did the group spend on PLC modules in H1 2026?", (), groups)
    assert scope.text == f"What did {NOUN_WORDS} spend on PLC modules in H1 2026?"
    assert group_scope("Group spend on Sensors in Q1", (), groups).read == ("Group",)


def test_after_a_ranking_word_the_scope_follows_the_noun() -> None:
    assert group_scope("Top 3 products by group spend in H2 2025").text == (
        f"Top 3 products by spend across {NOUN_WORDS} in H2 2025")
    assert group_scope("Which groups drove the most group spend in Q1?").text == (
        f"Which groups drove the most spend across {NOUN_WORDS} in Q1?")


def test_title_case_verbs_and_nouns_are_no_names() -> None:
    assert group_scope("How Many Invoices did the Group Book in H2 2025?").read == ("the Group",)
    assert group_scope("What % of the Group's Spend YTD was Company B?").read == ("the Group's",)


def test_periods_and_names_survive() -> None:
    scope = group_scope("Company C's share of the group's March 2026 spend?")
    assert scope.text == f"Company C's share of {SCOPE_WORD} March 2026 spend?"
    assert scope.read == ("the group's",)


@pytest.mark.parametrize(("greeting", "rest"), [
    ("Hi AP, ", "how many invoices has Company B received this quarter so far?"),
    ("Hello procurement team: ", "spend with Beta in Q1 2026?"),
    ("Dear accounts payable, ", "Company A spend in March 2026"),
    ("Hi there - ", "spend of Company A in Q1"),
])
def test_greeting_to_a_desk_is_consumed(greeting: str, rest: str) -> None:
    assert strip_preamble(greeting + rest) == rest


def test_greeting_to_a_name_is_kept() -> None:
    assert strip_preamble("Hi Company B, spend?") == "Hi Company B, spend?"


@pytest.mark.parametrize(("gap", "covered"), [
    (" spend with ", 1), (" with ", 1), (" and ", 2), (", ", 2), (" or ", 2),
])
def test_exclusion_list_ends_after_a_company(gap: str, covered: int) -> None:
    text = "all companies except Company C" + gap + "Supplier Delta in 2026"
    cue = text.index("except")
    company = (text.index("Company C"), text.index("Company C") + len("Company C"))
    supplier = (text.index("Supplier Delta"), text.index("Supplier Delta") + len("Supplier Delta"))
    found, _ = excluded_spans(text, [(cue, cue + len("except"))], [company, supplier], [company])
    assert len(found) == covered and company in found


# review35: the group read as every company where it is not: totals added to a breakdown, and "the group spend"
# beside a product group's name (with a company named)
@pytest.mark.parametrize("frame", ["{c} spend {p} by supplier, with group totals",
                                   "Spend by product group {p} for {c}, and group totals",
                                   "{c} spend per month {p} including group totals",
                                   "What was the group spend on Sensors for {c} {p}?",
                                   "What is the group spend on Sensors at {c} {p}?",
                                   "Show the group spending on Sensors for {c} {p}"])
@pytest.mark.parametrize("company", ["Company A", "Kestrel", "Alpenland"])
def test_added_totals_and_a_product_groups_spend_are_not_the_tenant(frame: str, company: str) -> None:
    period = random.Random(frame + company).choice(PERIODS)
    found = group_scope(frame.format(c=company, p=period), [company, "Sensors"], ["Sensors"])
    assert found.read == () and NOUN_WORDS not in found.text and SCOPE_WORD not in found.text
    # totals added to a breakdown are asked about, named; the product group's spend is read as that
    assert bool(found.unclear) is ("total" in frame) and all("group" in u for u in found.unclear)


@pytest.mark.parametrize("frame", ["What did the group spend on Sensors {p}?",
                                   "How much has the group spent on Sensors {p}?",
                                   "What did the whole group spend on Sensors {p}?"])
def test_the_group_as_the_buyer_beside_a_product_group_stays_the_tenant(frame: str) -> None:
    for period in PERIODS[:4]:
        found = group_scope(frame.format(p=period), ["Sensors"], ["Sensors"])
        assert found.read and NOUN_WORDS in found.text
