"""Combinations and exclusions on every answer shape, routed in memory (no database).

Rules (router/set_words.py, router/exclusion_shapes.py, router/possessives.py):
- a combination word ("combined", "together", "either", "łącznie", "birlikte", "zusammen") beside two or more names
  of one kind is read: the names are the figure's IN list, never an unread word or an unknown name;
- a restriction word ("only", "nur", "tylko", "sadece") right beside a read name is read;
- "everything but X", "anything except X" leave X out;
- groups written as one list ("A or B", "A + B", "A, B and C") are a set filter for an additive figure;
- an exclusion applies to the invoice listing (thresholds, ranges) and the invoice ranking; one the shape cannot
  take (a group left out of an invoice's grand total) is named back, never dropped;
- a name in the possessive without its apostrophe ("Company Bs") is that name.

Slots vary over names, languages, joins, positions and periods.
"""

from __future__ import annotations

from typing import Any

import pytest

from router.set_words import joined_as_set, set_word_spans
from tests.unit.test_router_analysis import PERIODS, routed

_PERIODS = PERIODS[:3]


def _params(result: Any, tool: str | None = None) -> list[dict[str, Any]]:
    out = []
    for step in result.execution_plan:
        args = dict(step.arguments)
        if tool is not None and step.tool != tool:
            continue
        out.append(dict(args.get("parameters") or args))
    return out


def _all_values(result: Any, key: str) -> list[Any]:
    return [p[key] for p in _params(result) if key in p]


@pytest.mark.parametrize("word", ["combined", "together", "zusammen", "łącznie", "birlikte", "împreună", "juntos",
                                  "insieme", "tillsammans", "dohromady", "ensemble", "razem"])
@pytest.mark.parametrize("where", ["{w} spend with {a} and {b} {p}", "spend with {a} + {b} {p}, {w}",
                                   "{a} or {b} ({w}) spend {p}"])
def test_combination_word_read_with_two_names(word: str, where: str) -> None:
    text = where.format(w=word, a="Beta", b="Gamma", p="Q1")
    a, b = text.index("Beta"), text.index("Gamma")
    spans = set_word_spans(text, [[(a, a + 4), (b, b + 5)]])
    assert any(text[s:e].casefold() == word.casefold() for s, e in spans)
    # with one name the word adds nothing up: left for the unread-word check to name
    assert not any(text[s:e].casefold() == word.casefold() for s, e in set_word_spans(text, [[(a, a + 4)]]))


@pytest.mark.parametrize(("phrase", "a", "b", "ids"), [
    ("Company A spend with either {a} or {b} in Q1 2026 (combined)", "Beta", "Gamma", {"SUP-18", "SUP-27"}),
    ("Company A in H2 2025: {a} + {b} combined spend", "Epsilon", "Iota", {"SUP-22", "SUP-60"}),
    ("Company A spend in Q1 2026, {a} and {b} together", "Gamma", "Epsilon", {"SUP-27", "SUP-22"}),
    ("Company A spend in H2 2025 with {a} or {b}, jointly", "Iota", "Beta", {"SUP-60", "SUP-18"}),
])
def test_suppliers_combined_are_one_in_list(phrase: str, a: str, b: str, ids: set[str]) -> None:
    result = routed(phrase.format(a=a, b=b))
    assert not result.requires_clarification, result.clarification_question
    assert set(result.entities.supplier_ids) == ids


@pytest.mark.parametrize(("phrase", "a", "sid"), [("Company A spend in Q1 2026, {a} only", "Beta", "SUP-18"),
                                                  ("Company A spend in Q1 2026 - only {a}", "Delta", "SUP-31"),
                                                  ("Company A spend in H2 2025, nur {a}", "Gamma", "SUP-27"),
                                                  ("Company A spend last quarter, tylko {a}", "Iota", "SUP-60")])
def test_restriction_word_beside_a_name_is_read(phrase: str, a: str, sid: str) -> None:
    result = routed(phrase.format(a=a))
    assert not result.requires_clarification, result.clarification_question
    assert result.entities.supplier_ids == (sid,)


def test_restriction_word_away_from_names_is_not_consumed() -> None:
    text = "only invoices over 5k from Gamma"
    assert set_word_spans(text, [[(27, 32)]]) == ()


@pytest.mark.parametrize(("whole", "a", "sid", "period"), [
    ("everything but", "Beta", "SUP-18", "in Q1 2026"), ("everything except", "Iota", "SUP-60", "in H2 2025"),
    ("anything but", "Gamma", "SUP-27", "last quarter"), ("everything other than", "Delta", "SUP-31", "in Q1 2026")])
def test_everything_but_leaves_the_name_out(whole: str, a: str, sid: str, period: str) -> None:
    result = routed(f"Company A spend {period}, {whole} {a}")
    assert not result.requires_clarification, result.clarification_question
    assert [sid] in _all_values(result, "exclude_supplier_ids")
    assert sid not in result.entities.supplier_ids


@pytest.mark.parametrize(("frame", "a", "sid", "period", "start", "end"), [
    ("Company A invoices over 5000 EUR {p} excluding {a}", "Beta", "SUP-18", *_PERIODS[0]),
    ("Company A {p}: invoices of at least 2000 EUR, excl {a}", "Epsilon", "SUP-22", *_PERIODS[1]),
    ("Company A invoices between 1000 and 5000 EUR {p}, except {a}", "Gamma", "SUP-27", *_PERIODS[2])])
def test_invoice_listing_takes_the_supplier_exclusion(frame: str, a: str, sid: str, period: str, start: str,
                                                      end: str) -> None:
    result = routed(frame.format(a=a, p=period))
    assert not result.requires_clarification, result.clarification_question
    listing = _params(result, "finance.invoices_above_threshold")
    assert listing and listing[0]["exclude_supplier_ids"] == [sid]
    assert (listing[0]["start_date"], listing[0]["end_date"]) == (start, end)


def test_invoice_listing_names_a_group_exclusion() -> None:
    result = routed("Company A invoices over 5000 EUR in Q1 2026 excluding Control Cabinets")
    assert result.requires_clarification
    assert "PG-CAB" in (result.clarification_question or "")


@pytest.mark.parametrize(("a", "sid"), [("Beta", "SUP-18"), ("Iota", "SUP-60")])
def test_invoice_ranking_takes_the_supplier_exclusion(a: str, sid: str) -> None:
    result = routed(f"Company A largest 2 invoices in Q1 2026 excl {a}")
    assert not result.requires_clarification, result.clarification_question
    assert [sid] in _all_values(result, "exclude_supplier_ids")


_CAB = ("Control Cabinets", "Consumables", {"PG-CAB", "PG-CONS"})
_SENS = ("Pressure Sensors", "Temperature Sensors", {"PG-PRES", "PG-TEMP"})


@pytest.mark.parametrize(("join", "a", "b", "ids"), [(" or ", *_CAB), (" + ", *_SENS), (" & ", *_CAB),
                                                     (" and ", *_SENS), (", ", *_CAB)])
def test_groups_written_as_one_list_are_a_set(join: str, a: str, b: str, ids: set[str]) -> None:
    result = routed(f"Company A spend on {a}{join}{b} in Q1 2026")
    assert not result.requires_clarification, result.clarification_question
    assert set(result.entities.product_group_ids) == ids
    used = {g for groups in _all_values(result, "product_group_ids") for g in groups}
    assert ids <= used


def test_groups_compared_stay_apart() -> None:
    assert not joined_as_set("Control Cabinets vs Consumables", [(0, 16), (20, 31)])
    result = routed("Company A unit price Control Cabinets or Consumables in March 2026")
    assert not result.entities.product_group_ids


@pytest.mark.parametrize(("written", "cid", "period"), [("Company Bs", "COMP-B", "in Q1 2026"),
                                                        ("company bs", "COMP-B", "in H2 2025"),
                                                        ("Company As", "COMP-A", "last quarter")])
def test_possessive_without_apostrophe_is_the_company(written: str, cid: str, period: str) -> None:
    result = routed(f"{written} spend with Beta {period}")
    assert not result.requires_clarification, result.clarification_question
    assert result.entities.company_id == cid


@pytest.mark.parametrize(("frame", "low", "high"), [("invoices {a} to {b} in Q1 2026", "1k", "5k"),
                                                    ("invoices EUR {a} to EUR {b} in H2 2025", "500", "2,000"),
                                                    ("invoices €{a} to €{b} last quarter", "2k", "10k")])
def test_money_bounds_joined_by_to_are_a_range(frame: str, low: str, high: str) -> None:
    result = routed("Company A " + frame.format(a=low, b=high))
    assert not result.requires_clarification, result.clarification_question
    listing = _params(result, "finance.invoices_above_threshold")
    assert listing and listing[0].get("upper_threshold") is not None


def test_two_numbers_joined_by_and_are_no_range() -> None:
    from router.reading import parse_amounts

    assert all(a.comparator != "below" for a in parse_amounts("invoices over 1k and 5k lines"))


@pytest.mark.parametrize(("cue", "word", "gid"), [("except", "cabinets", "PG-CAB"),
                                                  ("excluding", "consumable", "PG-CONS"),
                                                  ("everything but", "cabinets", "PG-CAB")])
def test_group_in_other_word_forms_behind_an_exclusion_is_left_out(cue: str, word: str, gid: str) -> None:
    result = routed(f"Company A spend in Q1 2026 {cue} {word}")
    assert not result.requires_clarification, result.clarification_question
    assert any(gid in groups for groups in _all_values(result, "exclude_product_group_ids"))


@pytest.mark.parametrize(("written", "ids"), [("Control Cabinets & consumable", {"PG-CAB", "PG-CONS"}),
                                              ("consumables or cabinets", {"PG-CONS", "PG-CAB"})])
def test_word_listed_with_a_group_is_the_next_member(written: str, ids: set[str]) -> None:
    result = routed(f"Company A spend on {written} in Q1 2026")
    assert not result.requires_clarification, result.clarification_question
    assert set(result.entities.product_group_ids) == ids
