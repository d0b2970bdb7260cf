"""Terse chat wording of a spend figure: an unknown name after "w/" is asked about (never swallowed into the
group word beside it, nor dropped), and "paid-status spend" / "in paid status" / "status paid" select the paid
invoices. Routed without a database; seeded slot variation over names, groups, companies and periods."""

from __future__ import annotations

import random

import pytest

from router.analysis import parse_analysis
from tests.unit.test_router_analysis import AS_OF
from tests.unit.test_router_invoice_facts import _routed

UNKNOWN = ("acme", "zorbo", "quixa", "nordwind", "tarkon")
GROUPS = ("sensors", "pressure sensors", "control cabinets", "", "consumables")
COMPANIES = ("company a", "Company B", "company c")
PERIODS = ("q1 26", "Q1 2026", "2025", "march 2026")


@pytest.mark.parametrize("seed", range(30))
def test_an_unknown_name_after_w_slash_is_asked_about(seed: int) -> None:
    rng = random.Random(seed)
    name = rng.choice(UNKNOWN)
    group = rng.choice(GROUPS)
    q = f"spend w/ {name} {group} {rng.choice(COMPANIES)} {rng.choice(PERIODS)}".replace("  ", " ")
    routed = _routed(q)
    assert routed.workflow == "clarification", (q, routed.workflow)
    assert f"'{name}" in (routed.clarification_question or "").lower(), (q, routed.clarification_question)


@pytest.mark.parametrize("seed", range(12))
def test_a_known_supplier_after_w_slash_is_read(seed: int) -> None:
    rng = random.Random(seed)
    name = rng.choice(("beta", "Gamma", "beta supplies", "delta"))
    q = f"spend w/ {name} {rng.choice(COMPANIES)} {rng.choice(PERIODS)}"
    routed = _routed(q)
    assert routed.workflow != "clarification" and routed.entities.supplier_ids, (q, routed.workflow)


PAID = ("how much paid-status spend w/ beta for {c} in {p}", "{c} spend with gamma in paid status, {p}",
        "{c} spend {p}, status paid", "paid status spend {c} {p}", "{c} {p} spend (status: paid)")


@pytest.mark.parametrize("seed", range(15))
def test_paid_status_words_select_paid_invoices(seed: int) -> None:
    rng = random.Random(seed)
    q = rng.choice(PAID).format(c=rng.choice(COMPANIES), p=rng.choice(PERIODS))
    analysis, _ = parse_analysis(q, AS_OF)
    assert analysis.statuses == ("paid",), (q, analysis.statuses)


COUNTED = ("how many suppliers for {x} ({c})", "number of vendors for {x}, {c}, {p}",
           "how many vendors for {x} {c} {p}")


@pytest.mark.parametrize("seed", range(12))
def test_an_unknown_category_of_counted_suppliers_is_offered_even_under_a_catalog_phrase(seed: int) -> None:
    # the catalog's measure phrase ("how many suppliers") masks "suppliers" in the residual text: the category
    # after it is read from the text before that mask, never dropped for the count over every supplier
    from router.reader import _counted_for

    rng = random.Random(seed)
    word = rng.choice(("safety shoes", "welding gas", "zorbos", "hydraulics"))
    text = rng.choice(COUNTED).format(x=word, c=rng.choice(COMPANIES), p=rng.choice(PERIODS))
    start = text.index(word)
    assert _counted_for(text, []) == [(start, start + len(word), word)], text
    measure = (0, text.index(" for "))
    assert _counted_for(text, [measure]) == [(start, start + len(word), word)], text
    assert _counted_for(text, [(start, start + len(word))]) == [], text
