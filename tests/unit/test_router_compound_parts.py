"""Compound questions (several asks in one question) and unit-price shapes in ``ask``'s router, without a database.

Metamorphic suites (Hypothesis, seeded and bounded) join two asks of different kinds with every connector analysts
use ("X and also Y", "X; Y", "X, plus Y", "X - and Y", "X? And Y?", "X as well as Y", German "und"), state the
company and period in each part, once for all parts, or carry the supplier over with a pronoun ("its invoice
count"): every part must be split off and planned with its own constraints (the shared ones carried over, a
ranking never narrowed to the other part's supplier). Single asks that merely contain "and" (two suppliers, two
periods) are never split. The merged answer names every part and says PARTIAL when one is not answered.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.answer import Answer
from router.compound import AskPart, _segments, merge_answers, price_change_parts, split_asks
from router.contract import RoutingResult
from router.german import read_german
from router.reader import read
from router.routing import RouterInputs, route
from router.unit_prices import price_request
from tests.unit.test_router_analysis import METRICS
from tests.unit.test_router_compound import AS_OF, CTX, GAZETTEER

INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)

SUITE = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))

SUPPLIERS = [("Supplier Beta", "SUP-18"), ("Beta", "SUP-18"), ("Supplier Gamma", "SUP-27"), ("Gamma", "SUP-27"),
             ("Supplier Zeta", "SUP-35"), ("Delta", "SUP-31")]
PERIODS = [("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01", "2026-01-01"),
           ("in Q4 2025", "2025-10-01", "2026-01-01"), ("in March 2026", "2026-03-01", "2026-04-01"),
           ("last quarter", "2026-01-01", "2026-04-01")]
COMPANIES = [("Company A", "COMP-A"), ("company a", "COMP-A"), ("Company B", "COMP-B")]
CONNECTORS = ["{a} and also {b}", "{a}; {b}", "{a}, plus {b}", "{a} - and {b}", "{a}? And {b}?", "{a} as well as {b}",
              "{a}, and {b}", "{a}. Also, {b}"]
#: Second asks: (full wording with {c} {p}, bare wording, carries the first part's supplier)
SECOND = [
    ("the top 3 suppliers of {c} {p}", "the top 3 suppliers", False),
    ("how many invoices {c} got from {s2} {p}", "how many invoices came from {s2}", False),
    ("{c}'s total spend {p}", "the total spend", False),
    ("{c}'s spend {p} by month", "the spend by month", False),
]
PRONOUN = ["how many invoices was that", "its invoice count", "what share of the total spend is that"]


def _read(text: str):  # type: ignore[no-untyped-def]
    return read(read_german(text) or text, GAZETTEER, AS_OF)


def _plan(result: RoutingResult) -> str:
    assert not result.requires_clarification, (result.question, result.clarification_question)
    return json.dumps([s.arguments for s in result.execution_plan], default=str)


def _check(part: AskPart, company: str, start: str, end: str, supplier: str | None, absent: str | None) -> None:
    plan = _plan(route(part.question, INPUTS))
    for value in (company, start, end, *([supplier] if supplier else [])):
        assert value in plan, (part, value, plan[:400])
    if absent:
        assert absent not in plan, (part, absent)


@SUITE
@given(st.sampled_from(SUPPLIERS), st.sampled_from(SUPPLIERS), st.sampled_from(PERIODS), st.sampled_from(COMPANIES),
       st.sampled_from(CONNECTORS), st.sampled_from(SECOND))
def test_two_full_asks_are_split_each_with_its_constraints(s1, s2, period, company, connector, second) -> None:  # type: ignore[no-untyped-def]
    (sname, sid), (s2name, s2id), (ptext, start, end), (cname, cid) = s1, s2, period, company
    first = f"how much did {cname} spend with {sname} {ptext}"
    question = connector.format(a=first, b=second[0].format(c=cname, p=ptext, s2=s2name))
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    _check(parts[0], cid, start, end, sid, None)
    other = s2id if "{s2}" in second[0] else None
    _check(parts[1], cid, start, end, other, sid if other is None and sid != s2id else None)


@SUITE
@given(st.sampled_from(SUPPLIERS), st.sampled_from(PERIODS), st.sampled_from(COMPANIES), st.sampled_from(CONNECTORS),
       st.sampled_from(PRONOUN))
def test_a_pronoun_carries_the_supplier_company_and_period(s1, period, company, connector, pronoun) -> None:  # type: ignore[no-untyped-def]
    (sname, sid), (ptext, start, end), (cname, cid) = s1, period, company
    question = connector.format(a=f"{cname} spend with {sname} {ptext}", b=pronoun)
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    assert parts[1].carried, parts
    _check(parts[1], cid, start, end, sid, None)


@SUITE
@given(st.sampled_from(SUPPLIERS), st.sampled_from(PERIODS), st.sampled_from(COMPANIES), st.sampled_from(CONNECTORS),
       st.sampled_from(SECOND))
def test_company_and_period_stated_once_are_shared(s1, period, company, connector, second) -> None:  # type: ignore[no-untyped-def]
    (sname, sid), (ptext, start, end), (cname, cid) = s1, period, company
    body = connector.format(a=f"the spend with {sname}", b=second[1].format(s2=sname))
    parts = split_asks(f"For {cname} {ptext}: {body}", _read)
    assert len(parts) == 2, (body, parts)
    _check(parts[0], cid, start, end, sid, None)
    _check(parts[1], cid, start, end, sid if "{s2}" in second[1] else None, None)


@SUITE
@given(st.sampled_from(SUPPLIERS), st.sampled_from(SUPPLIERS), st.sampled_from(PERIODS), st.sampled_from(PERIODS),
       st.sampled_from(COMPANIES))
def test_one_ask_with_and_between_names_or_periods_is_not_split(s1, s2, p1, p2, company) -> None:  # type: ignore[no-untyped-def]
    cname = company[0]
    for question in (f"{cname} spend with {s1[0]} and {s2[0]} {p1[0]}",
                     f"Which of {s1[0]} and {s2[0]} did {cname} spend more with {p1[0]}?",
                     f"{cname} spend {p1[0].removeprefix('in ')} and {p2[0].removeprefix('in ')}",
                     f"How did {cname}'s spend with {s1[0]} change {p1[0]} and how does that compare to last year?",
                     f"{cname} spend with {s1[0]} {p1[0]}, paid only",
                     f"{cname} spend with {s1[0]} {p1[0]}, settled invoices only"):
        assert len(_segments(question)) == 1, question


def test_german_und_splits_and_each_part_is_read() -> None:
    parts = split_asks("Die drei größten Lieferanten von Company A im Jahr 2025 und wie viele Rechnungen hat "
                       "Company A im Jahr 2025 von Supplier Delta erhalten?", _read)
    assert len(parts) == 2
    _check(parts[0], "COMP-A", "2025-01-01", "2026-01-01", None, "SUP-31")
    _check(parts[1], "COMP-A", "2025-01-01", "2026-01-01", "SUP-31", None)


def test_three_asks() -> None:
    parts = split_asks("How many invoices Company A got from Gamma in Q1 2026, Gamma's share of Company A's spend in "
                       "Q1 2026 and Company A's total spend in Q1 2026?", _read)
    assert len(parts) == 3, parts


def test_a_figure_plus_document_fact_stays_one_workflow() -> None:
    question = "What are the payment terms of our biggest supplier, and what did Company A spend with it in Q1 2026?"
    assert split_asks(question, _read) == ()


def _answer(status: str, text: str, **extra) -> Answer:  # type: ignore[no-untyped-def]
    return Answer(status=status, text=text, result=extra, inputs={}, sources=(), **(
        {"clarification_question": text} if status == "clarification" else {}))


def test_merged_answer_names_every_part_and_says_partial() -> None:
    parts = [AskPart("spend with Beta", "spend with Beta"), AskPart("its colour", "its colour")]
    merged = merge_answers([(parts[0], _answer("answered", "It was 10.00 EUR. Sources: a-line-1, a-line-2.")),
                            (parts[1], _answer("clarification", "Which colour do you mean?"))])
    assert merged.status == "partial"
    assert merged.text.startswith("PARTIAL RESULT")
    assert "NOT ANSWERED" in merged.text and "Which colour" in merged.text and "10.00 EUR" in merged.text
    assert merged.text.count("Sources:") == 1 and merged.text.endswith("a-line-1, a-line-2.")
    whole = merge_answers([(parts[0], _answer("answered", "A.")), (parts[0], _answer("no_data", "none."))])
    assert whole.status == "answered" and [p["status"] for p in whole.result["parts"]] == ["answered", "no_data"]
    asked = merge_answers([(parts[0], _answer("clarification", "Which?")), (parts[1], _answer("clarification", "?"))])
    assert asked.status == "clarification" and asked.clarification_question


def test_price_change_is_two_periods_and_the_change() -> None:
    parts = price_change_parts(_read("Did the unit price of PRD-482 go up in Q1 2026 vs Q4 2025 for Company A?"))
    assert [p.role for p in parts] == ["current", "base"]
    assert "from 2026-01-01 to before 2026-04-01" in parts[0].question
    assert "from 2025-10-01 to before 2026-01-01" in parts[1].question
    merged = merge_answers([(parts[0], _answer("answered", "x", unit_price="110.0000")),
                            (parts[1], _answer("answered", "y", unit_price="100.0000"))])
    assert "went up" in merged.text and "+10.0000" in merged.text and "+10.00 %" in merged.text


LOW = ["lowest unit price {c} paid for {p}", "minimum price per unit of {p} for {c}", "{c} cheapest unit price of {p}",
       "the least {c} paid per unit for {p}"]
HIGH = ["highest unit price {c} paid for {p}", "max unit price of {p} for {c}", "the most {c} paid per unit for {p}",
        "maximum net unit price of {p} for {c}"]
CHEAPEST = ["which supplier is cheapest for {p} ({c})", "cheapest supplier for {p} for {c}",
            "who sells {p} cheapest to {c}", "the supplier with the lowest unit price for {p}, {c}"]


@SUITE
@given(st.sampled_from([*((t, "range", "low") for t in LOW), *((t, "range", "high") for t in HIGH),
                        *((t, "cheapest_supplier", "low") for t in CHEAPEST)]),
       st.sampled_from([("PRD-482", "PRD-482"), ("Differential pressure sensor DPS-482", "PRD-482"),
                        ("PRD-611", "PRD-611")]),
       st.sampled_from(PERIODS), st.sampled_from(COMPANIES))
def test_unit_price_extremes_and_cheapest_supplier_are_planned(shape, product, period, company) -> None:  # type: ignore[no-untyped-def]
    (template, kind, direction), (ptext, code), (wtext, start, end), (cname, cid) = shape, product, period, company
    question = template.format(c=cname, p=f"{ptext} {wtext}")
    req = price_request(_read(question))
    assert req is not None and (req.kind, req.direction) == (kind, direction), question
    result = route(question, INPUTS)
    assert result.workflow == "unit_price", (question, result.clarification_question)
    step = result.execution_plan[0]
    metric = "catalog.unit_price_range" if kind == "range" else "catalog.average_unit_price"
    assert step.arguments["metric"] == metric
    params = dict(step.arguments["parameters"])
    assert {k: params.get(k) for k in ("product_code", "company_id", "start_date", "end_date")} == {
        "product_code": code, "company_id": cid, "start_date": start, "end_date": end}
    assert step.arguments["group_by"] == ([] if kind == "range" else ["supplier_id"])


def test_cheapest_supplier_without_a_product_is_a_clarification_naming_it() -> None:
    result = route("Which supplier is cheapest for Company A in Q1 2026?", INPUTS)
    assert result.requires_clarification and "product" in (result.clarification_question or "").lower()


UNITS = ["how many units of {p} did {c} buy", "quantity of {p} bought by {c}", "{c}: number of units of {p} purchased",
         "what quantity of {p} did {c} purchase"]


@SUITE
@given(st.sampled_from(UNITS), st.sampled_from([("PRD-482", "PRD-482"), ("Flow sensor FS-50", "PRD-510")]),
       st.sampled_from(PERIODS), st.sampled_from(COMPANIES), st.sampled_from([None, *SUPPLIERS]))
def test_units_of_one_product_are_its_governed_quantity(template, product, period, company, supplier) -> None:  # type: ignore[no-untyped-def]
    (ptext, code), (wtext, start, end), (cname, cid) = product, period, company
    question = template.format(c=cname, p=ptext) + (f" from {supplier[0]}" if supplier else "") + f" {wtext}"
    result = route(question, INPUTS)
    assert result.workflow == "unit_price", (question, result.clarification_question)
    step = result.execution_plan[0]
    assert step.arguments["metric"] == "catalog.average_unit_price" and step.arguments["group_by"] == []
    params = dict(step.arguments["parameters"])
    assert (params["product_code"], params["company_id"], params["start_date"], params["end_date"]) == (
        code, cid, start, end)
    assert params.get("supplier_ids") == ([supplier[1]] if supplier else None), question


@SUITE
@given(st.sampled_from(["Which product did {c} buy the most units of {p}?", "which supplier did {c} buy the most "
                        "units from {p}", "Which 2 products did {c} buy the most units of {p}",
                        "the product {c} bought the most units of {p}"]),
       st.sampled_from(PERIODS), st.sampled_from(COMPANIES))
def test_the_most_units_ranks_by_units_not_spend(template, period, company) -> None:  # type: ignore[no-untyped-def]
    question = template.format(c=company[0], p=period[0])
    result = route(question, INPUTS)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    assert step.arguments["metric"] == "finance.spend_ranking", question
    assert step.arguments["parameters"]["order_by"] == "units", question


@SUITE
@given(st.sampled_from(["price per unit we paid for {p} {w} ({c})", "what was the cost per unit we paid for {p} {w}, "
                        "{c}", "{c}: unit price we paid for {p} {w}"]),
       st.sampled_from(PERIODS), st.sampled_from(COMPANIES))
def test_price_per_unit_we_paid_is_no_breakdown(template, period, company) -> None:  # type: ignore[no-untyped-def]
    question = template.format(p="PRD-482", w=period[0], c=company[0])
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool in ("metrics.query", "catalog.unit_price"))
    # one calendar month is the monthly unit-price workflow; any other period the average over it
    assert step.tool == "catalog.unit_price" or (step.arguments["metric"], step.arguments["group_by"]) == (
        "catalog.average_unit_price", []), question


@pytest.mark.parametrize("question", [
    "Show me Company B's spend since March, excl. Sensors, per product",
    "What was Company B's spend last qtr, ex. pressure sensors, by product group?",
    "Company A spend with Epsilon Instr. in Q1 2026",
    "Company A spend in Jan. 2026 vs. Feb. 2026",
    "Company A spend incl. credit notes in Q1 2026, approx. by month",
])
def test_an_abbreviation_stop_ends_no_ask(question: str) -> None:
    # "excl. Sensors" split at its stop answered the company total and then Sensors on their own: the exclusion
    # was lost without a word.
    assert _segments(question) == [question]


def test_a_sentence_stop_still_ends_an_ask() -> None:
    assert _segments("Spend of Company A in Q1. Also the top 3 suppliers") == ["Spend of Company A in Q1",
                                                                              "the top 3 suppliers"]


def test_an_and_inside_a_group_name_joins_no_asks() -> None:
    question = "Iota Cable Work's share of COMP-C's cables and connectors spend last quarter"
    assert len(_segments(question)) == 2  # the bare grammar would cut there
    start = question.index("cables and connectors")
    assert _segments(question, [(start, start + len("cables and connectors"))]) == [question]


SWITCH_CUES = [", and separately {w}", " and separately {w}", ", and, separately, {w}", "; separately {w}",
               ", and individually {w}"]
SWITCH_TO = [("on pressure sensors", "PG-PRES"), ("on Monitoring Products", "PG-MON"), ("for Sensors", "PG-SENS"),
             ("on the Differential pressure sensor DPS-482", "PRD-482")]
SWITCH_FROM = ["spend with {s} at {c} {p}", "what did {c} spend with {s} {p}", "{c}: spend with {s} {p}"]


def _figure_args(question: str) -> dict[str, object]:
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    return next(dict(s.arguments) for s in result.execution_plan if "start_date" in s.arguments)


@settings(SUITE, max_examples=12)
@given(st.sampled_from(SUPPLIERS), st.sampled_from(PERIODS), st.sampled_from(COMPANIES), st.sampled_from(SWITCH_CUES),
       st.sampled_from(SWITCH_TO), st.sampled_from(SWITCH_FROM))
def test_separately_on_another_scope_is_a_second_figure(s1, period, company, cue, switch, first) -> None:  # type: ignore[no-untyped-def]
    """"spend with X at C in P, and separately on G": the first figure keeps its supplier without G, the second
    is G's over the same company and period without the supplier (neither scope leaks into the other part)."""
    (sname, sid), (ptext, start, end), (cname, cid), (words, target) = s1, period, company, switch
    question = first.format(s=sname, c=cname, p=ptext) + cue.format(w=words) + "?"
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    one, two = _figure_args(parts[0].question), _figure_args(parts[1].question)
    for part, args in zip(parts, (one, two), strict=True):
        assert (args["start_date"], args["end_date"]) == (start, end), (part, args)
        assert cid in _plan(route(part.question, INPUTS)), part
    assert one.get("supplier_ids") == [sid] and not one.get("product_group_ids") and not one.get("product_codes"), one
    assert not isinstance(two.get("supplier_ids"), list), two
    assert target in json.dumps(two, default=str) or "find-products" in json.dumps(two, default=str), two


ADD_UP = ["what do they add up to", "what do they come to", "what do they amount to", "what do they all add up to"]
UNITS = ["number of units", "units", "the quantity", "how many units"]
FROM_WHOM = ["which suppliers were they from", "which vendors were they from", "which suppliers did they come from"]


@settings(SUITE, max_examples=20)
@given(st.sampled_from(PERIODS), st.sampled_from(COMPANIES), st.sampled_from(ADD_UP + UNITS + FROM_WHOM),
       st.sampled_from(["{a} and {b}?", "{a}, and {b}?", "{a}? And {b}?"]))
def test_a_second_ask_about_what_the_first_selected(period, company, second, connector) -> None:  # type: ignore[no-untyped-def]
    """"how many credit notes ... and what do they add up to", "average unit price and number of units", "how many
    invoices ... and which suppliers were they from": the second part is the total, the units or the suppliers of
    exactly what the first selected (its company, period, document type and product carried over)."""
    (ptext, start, end), (cname, cid) = period, company
    first = (f"how many credit notes did {cname} get {ptext}" if second in ADD_UP else
             f"PRD-482 {ptext} for {cname}: average unit price" if second in UNITS else
             f"{cname}: how many invoices {ptext}")
    parts = split_asks(connector.format(a=first, b=second), _read)
    assert len(parts) == 2, (first, second, parts)
    result = route(parts[1].question, INPUTS)
    plan = _plan(result)
    step = next(s.arguments for s in result.execution_plan if "start_date" in json.dumps(s.arguments, default=str))
    params = step.get("parameters", step)
    assert (params["start_date"], params["end_date"]) == (start, end) and cid in plan, (parts[1], step)
    if second in ADD_UP:
        assert step["metric"] == "finance.company_spend" and params["document_types"] == ["credit_note"], step
    elif second in UNITS:
        assert params["product_code"] == "PRD-482", step
    else:
        assert "supplier_id" in json.dumps(step.get("group_by")), step


APPROVED_LISTS = ["Approved vendors of {c} {p}", "Which suppliers are approved for {c} {p}",
                  "{c}'s approved vendors {p}"]
THEIR_SPEND = ["their spend", "how much did we spend with them?", "their total spend in that period"]


@SUITE
@given(st.sampled_from(APPROVED_LISTS), st.sampled_from(THEIR_SPEND), st.sampled_from(PERIODS[:4]),
       st.sampled_from(COMPANIES), st.sampled_from(["{a} and {b}", "{a}, and {b}", "{a}; {b}"]))
def test_the_spend_of_listed_approved_vendors_is_with_those_vendors(listing, spend, period, company,
                                                                    connector) -> None:  # type: ignore[no-untyped-def]
    question = connector.format(a=listing.format(c=company[0], p=period[0]), b=spend)
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    assert "approved vendors" in parts[1].carried, (question, parts[1])
    result = route(parts[1].question, INPUTS)
    assert "graph.find_approved_vendors" in [s.tool for s in result.execution_plan], (question, parts[1])
    _check(parts[1], company[1], period[1], period[2], None, None)


FIRST_FIGURES = ["{c}: {p} spend per supplier", "{c} spend by month {p}", "{c}'s total spend {p}"]
STATUS_TOTALS = [("the open (posted) total", "posted"), ("the paid total", "paid"), ("the unpaid total", "posted"),
                 ("the outstanding total", "posted")]


@SUITE
@given(st.sampled_from(FIRST_FIGURES), st.sampled_from(STATUS_TOTALS), st.sampled_from(PERIODS[:4]),
       st.sampled_from(COMPANIES), st.sampled_from(["{a} and {b}?", "{a}, and {b}?"]))
def test_a_status_total_beside_a_figure_is_an_ask_of_its_own(first, total, period, company,
                                                             connector) -> None:  # type: ignore[no-untyped-def]
    question = connector.format(a=first.format(c=company[0], p=period[0]), b=total[0])
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    first_plan, second_plan = _plan(route(parts[0].question, INPUTS)), _plan(route(parts[1].question, INPUTS))
    assert f'"{total[1]}"' in second_plan and "status" not in parts[0].question, (question, parts)
    assert '["posted", "paid"]' in first_plan, (question, first_plan[:300])
    _check(parts[1], company[1], period[1], period[2], None, None)
