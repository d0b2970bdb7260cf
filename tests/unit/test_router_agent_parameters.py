"""Parameters of a request, as a person or an AI agent writes them (router/dimensions.py, router/tool_syntax.py).

(a) A dimension the invoices do not record ("cost centre CC-4711", "buyer Jana Wolff", "project "Retrofit North"")
is named back in a clarification, never dropped for the figure of the whole scope; the same question without it
routes to the governed figure.
(b) Common English words (contractions, request verbs, "as", "every period") are never named as unknown names.
(c) Tool-style syntax (key=value, "[a, b)", "a..b", "period_start/period_end (exclusive)", "gross_total_eur > N",
"spend_eur by supplier_id", group ids) is read as the plain phrasing, with the same governed parameters.
Routed without a database; seeded slot variation over dimensions, values, dates, amounts and frames.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from router.dimensions import unknown_dimensions
from router.periods import resolve_period
from router.tool_syntax import tool_style
from tests.unit.test_router_invoice_facts import _routed

DIMENSIONS = ("cost centre", "cost center", "cost_center=", "project", "project code", "region", "sales region",
              "department", "buyer", "requested by", "approver", "PO number", "purchase order", "WBS element",
              "profit center", "site")
NAMES = ("Jana Wolff", "M. Keller", "Peter Brandt", "A. Novak")
FIGURES = ("Total spend of Company A in Q1 2026 for {d}",
           "Return total spend in EUR for company COMP-A, {d}, period 2026-01-01 to 2026-03-31.",
           "What did Company B spend with Supplier Gamma in Q4 2025, only {d}?",
           "Company C spend on Sensors in H2 2025 ({d})",
           "Return spend EUR grouped by month for company COMP-C, {d}, period 2026-01-01 to 2026-03-31.")


def _value(rng: random.Random, dimension: str) -> str:
    kind = rng.randrange(4)
    if kind == 0 or dimension in ("buyer", "requested by", "approver"):
        return rng.choice(NAMES) if kind != 1 else f'"{rng.choice(NAMES)}"'
    if kind == 1:
        return f'"{rng.choice(("Retrofit", "Nordlicht", "Alpha"))} {rng.choice(("North", "Phase Two", "East"))}"'
    letters = "".join(rng.choice("ABCDEFGHKLMNPRSTX") for _ in range(rng.randint(2, 4)))
    return rng.choice((f"{letters}-{rng.randint(10, 9999)}", f"{rng.randint(1000, 9999)}-{letters}", letters,
                       f"{letters}-{rng.choice(('North', 'South', 'West'))}", str(rng.randint(4500000000, 4599999999))))


@pytest.mark.parametrize("seed", range(30))
def test_an_unknown_dimension_is_named_never_dropped(seed: int) -> None:
    rng = random.Random(seed)
    dimension = rng.choice(DIMENSIONS)
    value = _value(rng, dimension)
    frame = rng.choice(FIGURES)
    q = frame.format(d=f"{dimension} {value}" if not dimension.endswith("=") else f"{dimension}{value}")
    routed = _routed(q)
    assert routed.workflow == "clarification", (q, routed.execution_plan)
    assert value.strip('"') in (routed.clarification_question or ""), (q, routed.clarification_question)
    # the same request without the dimension is the governed figure (the dimension alone made it a question)
    plain = _routed(frame.format(d="").replace(" for ?", "?").replace(", ,", ",").replace("()", ""))
    assert plain.workflow != "clarification", (frame, plain.clarification_question)


@pytest.mark.parametrize("text", [
    "which department asked for the project budget?", "spend by region please", "approved by Company A",
    "ordered by Spend", "Total project spend in Q1 2026 for Company A", "What is the PO for invoice INV-2026-0001?",
    "the buyer wants the cost centre view", "site visits in 2026", "region 2026-01-01"])
def test_a_dimension_noun_without_a_value_is_ordinary_english(text: str) -> None:
    assert unknown_dimensions(text) == (), text


COMMON = ("I'd like to know", "I'm asking for the board", "we've been asked twice", "I didn't find it",
          "we'd need it today", "Return it as a figure", "please confirm", "recognised spend only")


@pytest.mark.parametrize("seed", range(16))
def test_contractions_and_request_verbs_are_no_unknown_names(seed: int) -> None:
    rng = random.Random(seed)
    words = rng.sample(COMMON, 2)
    q = rng.choice(("Total spend of Company A in Q1 2026? {a}, {b}.", "{a}: what did Company B spend in 2025? {b}.",
                    "Company C spend with Supplier Gamma in H2 2025 - {a}. {b}"))
    q = q.format(a=words[0][0].upper() + words[0][1:], b=words[1])
    routed = _routed(q)
    assert routed.workflow != "clarification", (q, routed.clarification_question)


@pytest.mark.parametrize("q", [
    "Which vendors are approved as suppliers for Company A on 1 May 2026?",
    "Which vendors are approved for Company B on 1 March 2026? Somebody said Gamma is approved for every period.",
    "How long does Supplier Gamma's express-freight approval for Company A run - until which date?"])
def test_function_words_of_an_approval_are_no_category(q: str) -> None:
    routed = _routed(q)
    said = routed.clarification_question or ""
    assert not any(w in said for w in ("'as'", "every period", "freight")), (q, said)


def _day(rng: random.Random) -> dt.date:
    return dt.date(2025, 7, 1) + dt.timedelta(days=rng.randrange(300))


@pytest.mark.parametrize("seed", range(40))
def test_tool_style_periods_are_the_same_days(seed: int) -> None:
    rng = random.Random(seed)
    a = _day(rng)
    b = a + dt.timedelta(days=rng.randint(1, 120))
    form, end = rng.choice([
        (f"period [{a}, {b})", b), (f"period [{a}, {b}]", b + dt.timedelta(days=1)),
        (f"period {a}..{b}", b + dt.timedelta(days=1)),
        (f"period_start {a}, period_end {b} (exclusive)", b),
        # unmarked: an agent's period_end is inclusive by convention (review 38), stated in "Read as"
        (f"period_start={a}, period_end={b}", b + dt.timedelta(days=1)),
        (f"start_date: {a}; end_date: {b} (excl.)", b), (f"period {a} to {b} (exclusive)", b),
        (f"period {a} to {b} (inclusive)", b + dt.timedelta(days=1))])
    text = tool_style(f"Return total spend in EUR for company COMP-A, {form}.")
    found = resolve_period(text, dt.date(2026, 12, 31)).time_range
    assert found is not None and (found.start, found.end) == (a, end), (form, text, found)


def _step(routed: Any, step_id: str) -> dict[str, Any]:
    return next(dict(s.arguments) for s in routed.execution_plan if s.step_id == step_id)


@pytest.mark.parametrize("seed", range(16))
def test_tool_style_thresholds_equal_the_plain_question(seed: int) -> None:
    rng = random.Random(seed)
    amount = rng.choice((5000, 13000, 25000, 9999))
    company = rng.choice(("COMP-A", "COMP-B", "COMP-C"))
    a = _day(rng)
    b = a + dt.timedelta(days=rng.randint(30, 150))
    op, plain_op = rng.choice(((">", "above"), ("<", "below")))
    field = rng.choice(("gross_total_eur", "gross_total", "amount_eur", "total"))
    tool = _routed(f"Return invoice_numbers for company_id={company}, period {a}..{b}, {field} {op} {amount}.")
    plain = _routed(f"Which invoices of {company} from {a} through {b} are {plain_op} {amount} EUR?")
    assert tool.workflow != "clarification", tool.clarification_question
    got, want = _step(tool, "find-above-threshold"), _step(plain, "find-above-threshold")
    assert {k: got.get(k) for k in ("threshold", "start_date", "end_date")} == \
        {k: want.get(k) for k in ("threshold", "start_date", "end_date")}, (got, want)


@pytest.mark.parametrize("group", ["PG-TEMP", "PG-PRES", "PG-CAB", "PG-MON", "PG-PRES-WL"])
def test_a_group_id_is_a_spelling_of_its_group(group: str) -> None:
    routed = _routed(f"Return total spend in EUR for company COMP-A, category {group}, period 2026-01-01..2026-03-31.")
    assert routed.workflow != "clarification", routed.clarification_question
    assert routed.entities.product_group_id == group


@pytest.mark.parametrize("seed", range(8))
def test_key_value_day_lists_the_approved_vendors_on_that_day(seed: int) -> None:
    rng = random.Random(seed)
    day = _day(rng)
    company = rng.choice(("COMP-A", "COMP-B", "COMP-C"))
    routed = _routed(f"List approved supplier_ids for company_id={company}, valid_on={day}.")
    args = _step(routed, "find-approved-vendors")
    assert routed.entities.company_id == company
    assert (args["start_date"], args["end_date"]) == (str(day), str(day + dt.timedelta(days=1))), args


def test_a_breakdown_by_a_field_name_is_kept() -> None:
    routed = _routed("Return spend_eur by supplier_id for company COMP-A, period 2026-01-01 to 2026-03-31, "
                     "excluding supplier SUP-31.")
    args = _step(routed, "calculate-metric")
    assert "supplier" in str(args.get("group_by") or args), args


@pytest.mark.parametrize(("text", "value"), [
    ("Company B spend in 2025 for department Logistics", "Logistics"), ("Company A spend in Q1 2026, region Europe",
                                                                       "Europe"),
    ("Spend of Company C in H2 2025 on project Alpha", "Alpha"), ("Company A spend in 2025, buyer Keller", "Keller")])
def test_one_capitalized_word_after_a_dimension_is_its_value(text: str, value: str) -> None:
    routed = _routed(text)
    assert routed.workflow == "clarification" and f"'{value}'" in (routed.clarification_question or ""), text
    assert "cannot limit" in (routed.clarification_question or ""), routed.clarification_question


def test_a_request_verb_is_grammar_only_where_it_opens_the_request() -> None:
    opened = _routed("Return spend EUR for company COMP-A, period 2025-10-01 to 2025-12-31.")
    assert opened.workflow != "clarification", opened.clarification_question
    noun = _routed("What was Company A returns spend in Q1 2026?")  # spend on returns: no group reads it
    assert noun.workflow == "clarification" and "returns" in (noun.clarification_question or "")


@pytest.mark.parametrize("seed", range(8))
def test_tool_style_ranking_calls_the_governed_ranking_of_the_plain_question(seed: int) -> None:
    rng = random.Random(seed)
    company, n = rng.choice(("COMP-A", "COMP-B", "COMP-C")), rng.randint(2, 6)
    a = dt.date(2025, rng.randint(7, 12), 1)
    b = dt.date(2026, rng.randint(1, 6), 1)
    tool = _routed(f"Return spend_eur for company_id={company}, period_start={a}, period_end={b} (exclusive), "
                   f"group_by=supplier_id, top_n={n}.")
    plain = _routed(f"Top {n} suppliers of {company} by spend from {a} to before {b}")
    assert tool.execution_plan[0].arguments == plain.execution_plan[0].arguments, (tool.execution_plan[0], plain)
