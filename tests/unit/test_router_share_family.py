"""The share family: a part over a base in any order, notation and language, answered as one governed share, the
top-N concentration read in any frame, and a part slot whose words are no name named back (never dropped).

Database-free: the rewrites (router/ranking_words.py, router/foreign_words.py), the concentration reader
(router/derived.py), the part slot (router/share_slots.py) and the routed plan over the unit gazetteer. The slots
(part, base, period, order, number, language) are varied with seeded choices; the phrasings are written here.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest

from router.answer import share_two_decimals
from router.derived import detect, tail_text
from router.ranking_words import read_ranking_words
from router.share_slots import share_part_phrases
from tests.unit.test_router_analysis import call, routed

AS_OF = dt.date(2026, 5, 16)
GROUPS = ("Sensors", "Pressure Sensors", "Control Cabinets", "Consumables")
SUPPLIERS = ("Beta", "Gamma Controls", "Delta Enclosures Ltd", "Iota")
COMPANIES = ("Company A", "Company B")
PERIODS = ("Q1 2026", "H2 2025", "March 2026", "FY2025")

#: "P over the total" in the orders writers use; {p} the part, {c} the company, {t} the period.
TOTAL_ORDERS = (
    "share of wallet: {p} / total, {c} {t}",
    "{c}: how many percent is {p} of total, {t}?",
    "{c}: {p} how many % of total, {t}?",
    "{c} {t}: {p} in % of total",
    "% split: {p} / total spend, {c} {t}",
)


@pytest.mark.parametrize("seed", range(16))
def test_a_part_over_the_total_is_written_as_its_share(seed: int) -> None:
    rng = random.Random(seed)
    part = rng.choice(GROUPS + SUPPLIERS)
    company, period = rng.choice(COMPANIES), rng.choice(PERIODS)
    q = rng.choice(TOTAL_ORDERS).format(p=part, c=company, t=period)
    read = read_ranking_words(q)
    assert read is not None, q
    assert "share" in read.lower() and part in read and company in read and period in read, (q, read)
    assert "/" not in read and "how many" not in read.lower(), (q, read)


@pytest.mark.parametrize("seed", range(3))
def test_a_part_over_the_total_routes_to_the_share_of_that_part(seed: int) -> None:
    rng = random.Random(seed)
    group = rng.choice(GROUPS)
    q = rng.choice(TOTAL_ORDERS).format(p=group, c=rng.choice(COMPANIES), t="Q1 2026")
    metric, params, _ = call(read_ranking_words(q) or q)
    assert metric == "finance.product_group_share", (q, metric)
    assert params["start_date"] == "2026-01-01" and params["end_date"] == "2026-04-01", (q, params)


@pytest.mark.parametrize("seed", range(3))
def test_a_supplier_share_asked_with_have_at_routes_to_the_supplier_share(seed: int) -> None:
    rng = random.Random(seed)
    supplier, company = rng.choice(SUPPLIERS[:2]), rng.choice(COMPANIES)
    verb = rng.choice(("have at", "hold at", "take at", "represent in"))
    q = f"what {rng.choice(('share', 'percentage', '%'))} does {supplier} {verb} {company}, Q1 2026?"
    read = read_ranking_words(q)
    assert read is not None and f"share of {supplier}" in read, (q, read)
    metric, params, _ = call(read)
    assert metric == "finance.supplier_share" and params["company_id"].startswith("COMP-"), (q, metric, params)


@pytest.mark.parametrize("lead", ["Of", "Out of", "From"])
@pytest.mark.parametrize("word", ["percent", "%", "share", "percentage"])
def test_the_base_named_first_then_the_part(lead: str, word: str) -> None:
    q = f"{lead} group total Q1 2026, what {word} is Company B?"
    read = read_ranking_words(q)
    assert read is not None and read.startswith("what share of group total spend Q1 2026 is Company B"), (q, read)


@pytest.mark.parametrize("q", [
    "Company A Q1 2026 vs Q4 2025 - up or down, and how much percent?",
    "Company B spend 2025 vs 2024: increase or decrease? how many % ?",
    "how much % did Company A spend grow from Q4 2025 to Q1 2026",
])
def test_how_much_percent_beside_a_change_is_not_a_share(q: str) -> None:
    read = read_ranking_words(q)
    assert read is None or "share" not in read, (q, read)


# --- the top-N concentration in any frame ---------------------------------------------------------------------
FRAMES = (
    "what % of {c} {t} spend sits with the top {n} vendors?",
    "Pareto: share of spend w/ top {n} suppliers - {c} {t}",
    "supplier concentration {c} {t} (top{n} share %)",
    "{c} {t}: what share of spend is held by the {n} largest suppliers?",
    "{c}: how concentrated is spend? % of top {n} suppliers {t}",
    "{c} {t} - top-{n} share in %",
)
NUMBERS = {1: ("1",), 2: ("2", "two"), 3: ("3", "three"), 5: ("5", "five")}


@pytest.mark.parametrize("seed", range(24))
def test_a_top_n_share_is_read_as_the_concentration_in_any_frame(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice(list(NUMBERS))
    frame = rng.choice(FRAMES)
    said = rng.choice(NUMBERS[n]) if "{n} " in frame or "top {n}" in frame else str(n)
    company, period = rng.choice(COMPANIES), rng.choice(PERIODS)
    q = frame.format(c=company, t=period, n=said)
    found = detect(q, AS_OF)
    assert found is not None and found.kind == "concentration" and found.refused is None, q
    assert found.top_n == n, (q, found.top_n)
    assert company in found.base and period in found.base and "%" not in found.base, (q, found.base)
    assert "pareto" not in found.base.lower() and "concentrat" not in found.base.lower(), (q, found.base)


@pytest.mark.parametrize("q", [
    "top 3 suppliers of Company A in Q1 2026",
    "Pareto - top 5 vendors Company B 2025",
    "top 2 product groups share of Company A spend 2025",
])
def test_a_ranking_without_a_share_word_stays_a_ranking(q: str) -> None:
    found = detect(q, AS_OF)
    assert found is None or found.kind != "concentration", q


@pytest.mark.parametrize(("percent", "part", "whole", "two"), [
    ("53.5350", "220799.94", "412440.61", "53.53"), ("97.7024", "50004.14", "51180.07", "97.70"),
    ("47.1594", "55953.25", "118647.05", "47.16"), ("0.0000", "0.00", "27648.11", "0.00"),
])
def test_the_percent_is_stated_to_two_places_from_the_exact_part_and_whole(percent: str, part: str, whole: str,
                                                                           two: str) -> None:
    assert share_two_decimals(percent, part, whole) == two
    assert Decimal(two) == (Decimal(part) * 100 / Decimal(whole)).quantize(Decimal("0.01"))


# --- the part slot: read, or named back ------------------------------------------------------------------------
SLOT_ORDERS = (
    "what % of {c} spend in Q1 2026 was {x}?",
    "how big a slice of {c}'s Q1 2026 spend is {x} (percent pls)?",
    "share of {x} in total {c} spend, Q1 2026",
    "{x} as share of total {c} spend, Q1 2026 - %?",
    "is it true that {x} is about 4% of {c}'s spend for Q1 2026?",
)
UNKNOWN = ("zorbo", "quixa widgets", "tarkon", "flurbs")


@pytest.mark.parametrize("seed", range(5))
def test_an_unknown_part_is_named_back_never_dropped(seed: int) -> None:
    rng = random.Random(seed)
    word = rng.choice(UNKNOWN)
    q = rng.choice(SLOT_ORDERS).format(x=word, c=rng.choice(COMPANIES))
    result = routed(q)
    assert result.requires_clarification, q
    assert f"'{word}'" in (result.clarification_question or ""), (q, result.clarification_question)


@pytest.mark.parametrize("seed", range(4))
def test_a_known_part_in_the_slot_is_read(seed: int) -> None:
    rng = random.Random(seed)
    supplier = rng.choice(("Beta", "Beta Supplies GmbH", "Gamma Controls", "Iota"))
    q = rng.choice(SLOT_ORDERS[:4]).format(x=supplier, c=rng.choice(COMPANIES))
    metric, params, _ = call(q)
    assert metric == "finance.supplier_share" and params["supplier_ids"], (q, metric, params)


def test_the_slot_finder_skips_a_slot_with_a_read_name_in_it() -> None:
    q = "what share of Company A spend went to Beta Supplies GmbH?"
    residual = q.replace("Company A", " " * 9).replace("Beta Supplies", " " * 13)
    assert share_part_phrases(q, residual) == []
    q = "what share of Company A spend went to zorbo?"
    assert share_part_phrases(q, q.replace("Company A", " " * 9)) == [(38, 43, "zorbo")]


# --- the tail: every supplier outside the top N ----------------------------------------------------------------
TAILS = (
    "what share of {c} {t} spend is outside the top {n} suppliers?",
    "tail spend share beyond the top {n} vendors, {c} {t}",
    "% of spend not with the top {n} suppliers, {c} {t}",
    "{c} {t}: long tail share (all but the top {n} suppliers) in %",
    "{c} {t} - what % of spend sits outside the top {n} vendors?",
)


@pytest.mark.parametrize("seed", range(12))
def test_the_tail_outside_a_top_n_is_its_complement_never_the_top_n(seed: int) -> None:
    rng = random.Random(seed)
    n, company, period = rng.choice((1, 2, 3, 5)), rng.choice(COMPANIES), rng.choice(PERIODS)
    q = rng.choice(TAILS).format(c=company, t=period, n=n)
    found = detect(q, AS_OF)
    assert found is not None and found.kind == "concentration" and found.tail, q
    assert found.top_n == n and company in found.base and period in found.base, (q, found.base)
    for word in ("outside", "beyond", "tail", "not with", "all but"):
        assert word not in found.base.lower(), (q, found.base)


@pytest.mark.parametrize("seed", range(6))
def test_a_top_n_share_is_not_a_tail(seed: int) -> None:
    rng = random.Random(seed)
    q = rng.choice(FRAMES).format(c=rng.choice(COMPANIES), t=rng.choice(PERIODS), n=rng.choice((2, 3)))
    found = detect(q, AS_OF)
    assert found is not None and not found.tail, q


def test_the_tail_sentence_states_part_whole_and_the_top_n_it_is_the_rest_of() -> None:
    text = tail_text(2, ["SUP-07", "SUP-33"], "12.64", "6469.76", "44710.31", "51180.07", "EUR", 4)
    assert "12.64 %" in text and "6469.76 EUR of 51180.07 EUR" in text and "44710.31" in text
    assert "2 other suppliers" in text


@pytest.mark.parametrize("lead", ["Request you to share", "pls share", "kindly share", "can you share"])
def test_share_as_the_verb_of_a_request_is_no_concentration(lead: str) -> None:
    q = f"{lead} top-3 suppliers (Company A) for Q1 2026"
    found = detect(q, AS_OF)
    assert found is None or found.kind != "concentration", q


@pytest.mark.parametrize("q", [
    "comparar el gasto del Q1 2026 contra el Q4 2025: diferencia en EUR y porcentaje de variación",
    "Company A Q1 2026 vs Q4 2025, pourcentage d'évolution",
    "gasto Company B 2025 contra 2024, porcentaje de crecimiento",
])
def test_a_percent_of_a_change_in_spanish_or_french_is_no_share(q: str) -> None:
    from router.romance import read_romance

    read = read_romance(q) or q
    assert "percent change" in read and "what percentage" not in read, (q, read)
