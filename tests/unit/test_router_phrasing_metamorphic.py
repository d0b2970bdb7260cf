"""Metamorphic tests of analyst phrasings: every phrasing of a question reads to the plan of its canonical question.

The slot grammar (measure words, status phrases, unit-price phrases, grain abbreviations, amount ranges, noise of
case and abbreviation) is the one of ``evaluation/probes_reading.py``; it is written from the governed metrics'
parameters, never from an evaluation question. Each generated question must route to the same governed call
(tool or metric, and every argument) as its canonical wording, or, for a slot the metrics do not know, to a
clarification that names it. Database-free, seeded, bounded in time.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from procura.db.session import AuthContext
from router.contract import RoutingResult
from router.entities import Company, Gazetteer, ProductGroup
from router.reading import catalog_metrics, parse_amounts, parse_breakdown
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
SUPPLIERS = {
    "SUP-18": ("Supplier Beta", ("Beta Supplies GmbH",)),
    "SUP-22": ("Supplier Epsilon", ("Epsilon Instruments Inc", "Epsilon Instr.")),
    "SUP-27": ("Supplier Gamma", ("Gamma Control Systems AG", "Gamma Controls")),
    "SUP-31": ("Supplier Delta", ("Delta Enclosures Ltd",)),
}
SPELLINGS = {"SUP-18": ("Supplier Beta", "Beta", "beta", "beta supplies"),
             "SUP-22": ("Supplier Epsilon", "Epsilon", "epsilon instr."),
             "SUP-27": ("Supplier Gamma", "gamma controls", "Gamma"),
             "SUP-31": ("Supplier Delta", "delta enclosures", "DELTA")}
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    [ProductGroup("PG-PRES", "Pressure Sensors"), ProductGroup("PG-CAB", "Control Cabinets")],
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="phrasings", scopes=frozenset({"invoice:aggregate"}))
COMPANIES = {"COMP-A": ("Company A", "company a", "COMP-A", "comp a"), "COMP-B": ("Company B", "company b")}
PERIODS = {"q1": ("in Q1 2026", "q1 2026", "last quarter", "last qtr", "in 2026-Q1"),
           "2025": ("in 2025", "for 2025", "in FY2025")}
BOUNDED = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def _inputs() -> RouterInputs:
    metrics = tuple(catalog_metrics(shipped_registry()))  # shared with the other tests of this process
    return RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=metrics)


@functools.cache
def _route(question: str) -> RoutingResult:
    return route(question, _inputs())


def governed_call(result: RoutingResult) -> tuple[str, dict[str, Any]]:
    """The plan's one governed figure call: (tool or metric, its arguments without run-time references)."""
    assert not result.requires_clarification, (result.question, result.clarification_question)
    for step in result.execution_plan:
        if step.tool == "metrics.query":
            args = dict(step.arguments)
            return str(args.pop("metric")), args
        if step.tool.startswith(("finance.", "catalog.")):
            return step.tool, {k: v for k, v in step.arguments.items() if not hasattr(v, "ref")}
    raise AssertionError(f"no governed call in {[s.tool for s in result.execution_plan]} for {result.question!r}")


def _fill(draw: st.DrawFn, frame: str) -> tuple[str, str, str, str]:
    sid = draw(st.sampled_from(sorted(SPELLINGS)))
    cid = draw(st.sampled_from(sorted(COMPANIES)))
    pid = draw(st.sampled_from(sorted(PERIODS)))
    question = frame.format(s=draw(st.sampled_from(SPELLINGS[sid])), c=draw(st.sampled_from(COMPANIES[cid])),
                            p=draw(st.sampled_from(PERIODS[pid])))
    return question, sid, cid, pid


def _canonical(sid: str, cid: str, pid: str, tail: str = "") -> str:
    period = {"q1": "in Q1 2026", "2025": "in 2025"}[pid]
    return f"How much did {COMPANIES[cid][0]} spend with {SPELLINGS[sid][0]} {period}{tail}?"


_SPEND_FRAMES = (
    "how much did {c} pay {s} {p}", "what's {c}'s bill with {s} {p}", "spend w/ {s} {p} for {c}",
    "{s} total {p} {c}", "amt paid to {s} by {c} {p}", "{c} expenses with {s} {p}", "{c} spend {s} {p}",
    "total {c} spend w/ {s}, {p}", "{c} - {s} - {p} - total", "{c} overall spend with {s} {p}",
)


@given(st.data(), st.sampled_from(_SPEND_FRAMES))
@seed(40)
@BOUNDED
def test_measure_words_read_as_the_canonical_spend(data: st.DataObject, frame: str) -> None:
    question, sid, cid, pid = _fill(data.draw, frame)
    assert governed_call(_route(question)) == governed_call(_route(_canonical(sid, cid, pid))), question


#: Status phrasings and the statuses they ask for (the canonical question says "paid invoices only" /
#: "unpaid invoices only").
_STATUS_FRAMES = (
    ("{c} unpaid spend with {s} {p}", "posted"), ("{c} open invoices with {s} {p}", "posted"),
    ("how much is outstanding with {s} {p} for {c}", "posted"), ("{c} open amount with {s} {p}", "posted"),
    ("how much do we still owe {s} {p} ({c})", "posted"), ("{c} outstanding invoices from {s} {p}", "posted"),
    ("total open {s} invoices {p} for {c}", "posted"), ("{c} invoices awaiting payment from {s} {p}", "posted"),
    ("{c} posted but unpaid invoices {s} {p}", "posted"),
    ("settled spend with {s} {p} {c}", "paid"), ("{c} paid invoices from {s} {p}", "paid"),
    ("cleared invoices from {s} {p} for {c}", "paid"), ("{c} spend with {s} {p}, paid only", "paid"),
    ("{c} paid spend with {s} {p}", "paid"),
)


@given(st.data(), st.sampled_from(_STATUS_FRAMES))
@seed(41)
@BOUNDED
def test_status_phrasings_read_as_the_canonical_status(data: st.DataObject, case: tuple[str, str]) -> None:
    frame, status = case
    question, sid, cid, pid = _fill(data.draw, frame)
    tail = ", paid invoices only" if status == "paid" else ", unpaid invoices only"
    tool, args = governed_call(_route(question))
    assert (tool, args) == governed_call(_route(_canonical(sid, cid, pid, tail))), question
    assert args["invoice_statuses"] == [status], question


_CREDIT_FRAMES = ("credit notes from {s} {p} {c}", "{c} credit notes {s} {p}", "{c} credits from {s} {p}",
                  "how much did {s} credit {c} {p}")


@given(st.data(), st.sampled_from(_CREDIT_FRAMES))
@seed(42)
@BOUNDED
def test_credit_note_phrasings_read_as_credit_notes_only(data: st.DataObject, frame: str) -> None:
    question, sid, cid, pid = _fill(data.draw, frame)
    canonical = _canonical(sid, cid, pid, ", credit notes only")
    call = governed_call(_route(question))
    assert call == governed_call(_route(canonical)), question
    assert call[1]["parameters"]["document_types"] == ["credit_note"], question


_UNIT_PRICE_FRAMES = ("avg price per unit of {prd} {p} for {c}", "what did {c} pay per piece for {prd} {p}",
                      "{c} per-unit cost of {prd} {p}", "price of {prd} {p} ({c})", "{prd} unit cost {p} at {c}",
                      "avg cost per unit of {prd} {p} for {c}", "{c}: price per unit {prd} {p}")


@given(st.sampled_from(_UNIT_PRICE_FRAMES), st.sampled_from(["PRD-482", "PRD-491", "prd 510"]),
       st.sampled_from(sorted(COMPANIES)), st.sampled_from(["in Q1 2026", "in 2025", "last qtr"]))
@seed(43)
@BOUNDED
def test_unit_price_phrasings_read_as_the_average_unit_price(frame: str, product: str, cid: str, period: str) -> None:
    question = frame.format(prd=product, c=COMPANIES[cid][0], p=period)
    canonical = f"What was the average unit price of {product} {period} for {COMPANIES[cid][0]}?"
    assert governed_call(_route(question)) == governed_call(_route(canonical)), question
    assert governed_call(_route(question))[0] == "catalog.average_unit_price", question


_GRAIN_ABBREVIATIONS = [("by qtr", "quarter"), ("qtrly", "quarter"), ("per qtr", "quarter"), ("qtr by qtr", "quarter"),
                        ("per mo", "month"), ("by mth", "month"), ("mthly", "month"), ("by yr", "year"),
                        ("per wk", "week"), ("monthly", "month")]


@given(st.sampled_from(_GRAIN_ABBREVIATIONS), st.sampled_from(["{c} spend {p} {g}", "{g} {c} spend with {s} {p}"]),
       st.data())
@seed(44)
@BOUNDED
def test_grain_abbreviations_read_as_the_grain(case: tuple[str, str], frame: str, data: st.DataObject) -> None:
    phrase, grain = case
    question, *_ = _fill(data.draw, frame.replace("{g}", phrase))
    assert (parse_breakdown(question).grain, parse_breakdown(question).unknown) == (grain, ()), question
    assert governed_call(_route(question))[1].get("grain") == grain, question


_RANGES = [("between {lo} and {hi}", True), ("from {lo} to {hi}", True), ("over {lo} and under {hi}", False)]


@given(st.integers(1, 40), st.integers(1, 60), st.sampled_from(_RANGES),
       st.sampled_from(["{n}k EUR", "€{n},000", "EUR {n},000", "{n}.000 €", "{n}k €"]),
       st.sampled_from(["{c} invoices {r} {p}", "which {c} invoices {p} were {r}"]), st.data())
@seed(45)
@BOUNDED
def test_amount_ranges_keep_both_bounds(low: int, span: int, rng: tuple[str, bool], notation: str, frame: str,
                                        data: st.DataObject) -> None:
    words, inclusive = rng
    high = low + span
    text = words.format(lo=notation.format(n=low), hi=notation.format(n=high))
    amounts = parse_amounts(text)
    assert [(int(a.value), a.comparator, a.currency) for a in amounts] == [
        (low * 1000, "above", "EUR"), (high * 1000, "below", "EUR")], text
    question, *_ = _fill(data.draw, frame.replace("{r}", text))
    tool, args = governed_call(_route(question))
    assert tool == "finance.invoices_above_threshold", question
    assert (args["threshold"], args.get("upper_threshold")) == (f"{low * 1000}.00", f"{high * 1000}.00"), question
    assert (args.get("inclusive", False), args.get("upper_inclusive", False)) == (inclusive, inclusive), question
    # A range is never read as one side of it.
    assert args.get("direction", "above") == "above", question


@given(st.sampled_from(["between 10k and 5k EUR", "between 5k EUR and 10k USD"]), st.sampled_from(sorted(COMPANIES)))
@seed(46)
@settings(max_examples=8, deadline=None, derandomize=True)
def test_a_range_the_listing_cannot_take_is_named(words: str, cid: str) -> None:
    result = _route(f"{COMPANIES[cid][0]} invoices {words} in Q1 2026")
    assert result.requires_clarification
    assert words.split()[1] in (result.clarification_question or ""), result.clarification_question


@given(st.sampled_from(["buyer", "cost center", "region", "plant"]),
       st.sampled_from(["{c} top 5 suppliers {p} per {w}", "what share of {c} spend went to {s} {p}, per {w}",
                        "{c} spend {p} excluding {s}, split by {w}", "{c} spend by currency {p} per {w}",
                        "{c} open invoices with {s} {p} per {w}"]), st.data())
@seed(47)
@settings(max_examples=60, deadline=None, derandomize=True)
def test_an_unknown_grouping_of_an_analyst_figure_is_named(word: str, frame: str, data: st.DataObject) -> None:
    """Rankings, shares, exclusions and currency figures name a grouping they lack, like plain spend does."""
    question, *_ = _fill(data.draw, frame.replace("{w}", word))
    result = _route(question)
    assert result.requires_clarification, question
    assert word in (result.clarification_question or ""), (question, result.clarification_question)


@given(st.sampled_from(["Northwind", "Omega Corp", "Acme"]),
       st.sampled_from(["{c} open invoices with {x} {p}", "what's {c}'s bill with {x} {p}",
                        "amt paid to {x} by {c} {p}", "{c} invoices from {x} between 5k and 10k EUR {p}"]),
       st.data())
@seed(48)
@settings(max_examples=40, deadline=None, derandomize=True)
def test_an_unknown_name_in_a_new_phrasing_is_named(name: str, frame: str, data: st.DataObject) -> None:
    """The new vocabulary never swallows a name: an unknown supplier is still a clarification naming it."""
    question, *_ = _fill(data.draw, frame.replace("{x}", name))
    result = _route(question)
    assert result.requires_clarification, question
    # Named without its legal form ("Omega" of "Omega Corp"), as the reader compares names.
    assert name.split()[0] in (result.clarification_question or ""), (question, result.clarification_question)
