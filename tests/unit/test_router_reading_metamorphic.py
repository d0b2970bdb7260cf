"""Metamorphic tests of the question reader: questions generated from slot grammars must read back as the slots.

The generators know nothing of any evaluation question: they combine every supplier spelling (name, alias, short
name, case and punctuation variants), every product-group name with a one-edit typo, every period phrasing,
every money notation and every breakdown phrase with neutral question frames, and assert the reading equals the
slot values (or, for an unknown slot, that the route is a clarification naming it). Seeded and bounded in time.
"""

from __future__ import annotations

import datetime as dt
import functools
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from procura.db.session import AuthContext
from router.analysis import parse_filters
from router.entities import Company, Gazetteer, ProductGroup, find_mentions
from router.periods import resolve_period
from router.reading import catalog_metrics, excluded_status, parse_amounts, parse_breakdown
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
SUPPLIERS = {
    "SUP-18": ("Supplier Beta", ("Beta Supplies GmbH", "BETA SUPPLIES")),
    "SUP-22": ("Supplier Epsilon", ("Epsilon Instruments Inc", "Epsilon Instr.")),
    "SUP-27": ("Supplier Gamma", ("Gamma Control Systems AG", "Gamma Controls")),
    "SUP-31": ("Supplier Delta", ("Delta Enclosures Ltd", "DELTA ENCLOSURES")),
    "SUP-35": ("Supplier Zeta", ("Zeta Sensorik GmbH", "Zeta Sensorik")),
    "SUP-60": ("Supplier Iota", ("Iota Cable Works Ltd", "Iota Cables")),
}
SHORT = {"SUP-18": "Beta", "SUP-22": "Epsilon", "SUP-27": "Gamma", "SUP-31": "Delta", "SUP-35": "Zeta",
         "SUP-60": "Iota"}
GROUPS = {"PG-PRES": "Pressure Sensors", "PG-TEMP": "Temperature Sensors", "PG-FLOW": "Flow Sensors",
          "PG-CMOD": "Control Modules", "PG-CAB": "Control Cabinets", "PG-CAL": "Calibration Equipment",
          "PG-CONS": "Consumables", "PG-MON": "Monitoring Products"}
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
    [(alias, sid) for sid, (_, aliases) in SUPPLIERS.items() for alias in aliases],
    [ProductGroup(gid, name) for gid, name in GROUPS.items()],
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="metamorphic", scopes=frozenset({"invoice:aggregate"}))
FAST = settings(max_examples=600, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])


def _spellings(draw: st.DrawFn, sid: str) -> str:
    name, aliases = SUPPLIERS[sid]
    base = draw(st.sampled_from([name, *aliases, SHORT[sid]]))
    style = draw(st.sampled_from(["as", "lower", "upper", "title"]))
    return {"as": base, "lower": base.lower(), "upper": base.upper(), "title": base.title()}[style]


@st.composite
def supplier_questions(draw: st.DrawFn) -> tuple[str, str]:
    sid = draw(st.sampled_from(sorted(SUPPLIERS)))
    frame = draw(st.sampled_from([
        "How much did Company A spend with {s} in Q1 2026?",
        "Total spend with {s} last quarter for Company A",
        "Company A spend on {s}, 2026-Q1",
        "How much did Company A pay {s} in March 2026?",
    ]))
    return frame.format(s=_spellings(draw, sid)), sid


@given(supplier_questions())
@seed(20)
@FAST
def test_every_supplier_spelling_resolves_to_its_supplier(case: tuple[str, str]) -> None:
    question, sid = case
    mentions = find_mentions(question, GAZETTEER)
    assert [m.resolved for m in mentions.suppliers] == [sid], question


def _typo(draw: st.DrawFn, word: str) -> str:
    """One edit (substitute, delete, insert, swap) in a word of at least five letters."""
    if len(word) < 5:
        return word
    i = draw(st.integers(1, len(word) - 2))
    kind = draw(st.sampled_from(["sub", "del", "ins", "swap"]))
    letter = draw(st.sampled_from("aeiouxz"))
    if kind == "sub":
        return word[:i] + letter + word[i + 1:]
    if kind == "del":
        return word[:i] + word[i + 1:]
    if kind == "ins":
        return word[:i] + letter + word[i:]
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


@st.composite
def group_questions(draw: st.DrawFn) -> tuple[str, str]:
    gid = draw(st.sampled_from(sorted(GROUPS)))
    words = GROUPS[gid].split()
    k = draw(st.integers(0, len(words) - 1))
    words[k] = _typo(draw, words[k])
    frame = draw(st.sampled_from(["Which products belong to {g}?", "Company A spend on {g} in Q1 2026",
                                  "list the suppliers of {g}"]))
    return frame.format(g=" ".join(words)), gid


@given(group_questions())
@seed(21)
@FAST
def test_group_names_with_one_typo_resolve_or_ask(case: tuple[str, str]) -> None:
    question, gid = case
    groups = find_mentions(question, GAZETTEER).product_groups
    assert groups, question
    # The typo may land one edit from another group's word too: then both are candidates (a clarification).
    assert gid in groups[-1].candidates, question


_PERIODS = [
    ("in Q1 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in 2026-Q1", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in the first quarter of 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("last quarter", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("last qtr", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in the last quarter of 2025", dt.date(2025, 10, 1), dt.date(2026, 1, 1)),
    ("in H1 2025", dt.date(2025, 1, 1), dt.date(2025, 7, 1)),
    ("in the second half of 2025", dt.date(2025, 7, 1), dt.date(2026, 1, 1)),
    ("in FY2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
    ("YTD", dt.date(2026, 1, 1), dt.date(2026, 5, 16)),
    ("quarter to date", dt.date(2026, 4, 1), dt.date(2026, 5, 16)),
    ("MTD", dt.date(2026, 5, 1), dt.date(2026, 5, 16)),
    ("since March", dt.date(2026, 3, 1), dt.date(2026, 5, 16)),
    ("since 2026-02-01", dt.date(2026, 2, 1), dt.date(2026, 5, 16)),
    ("between 2026-01-01 and 2026-04-01", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in March 2026", dt.date(2026, 3, 1), dt.date(2026, 4, 1)),
    ("in 2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
    ("on 2026-03-15", dt.date(2026, 3, 15), dt.date(2026, 3, 16)),
    ("Jan-Mar 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("March through May 2026", dt.date(2026, 3, 1), dt.date(2026, 6, 1)),
    ("Nov - Feb", dt.date(2025, 11, 1), dt.date(2026, 3, 1)),
    ("in the first two quarters of 2026", dt.date(2026, 1, 1), dt.date(2026, 7, 1)),
    ("in the last 2 quarters of 2025", dt.date(2025, 7, 1), dt.date(2026, 1, 1)),
    ("in the first three months of 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
]


@given(st.sampled_from(_PERIODS), st.sampled_from(["Spend of Company A with Supplier Beta {p}?",
                                                   "{p}, how much did Company B spend",
                                                   "Which vendors were approved for Company A {p}"]),
       st.sampled_from(["as", "lower", "upper"]))
@seed(22)
@FAST
def test_every_period_phrasing_reads_its_range(period: tuple[str, dt.date, dt.date], frame: str, style: str) -> None:
    phrase, start, end = period
    phrase = {"as": phrase, "lower": phrase.lower(), "upper": phrase.upper()}[style]
    resolved = resolve_period(frame.format(p=phrase), AS_OF, fiscal_start_month=1)
    assert resolved.time_range is not None and not resolved.ambiguous, phrase
    assert (resolved.time_range.start, resolved.time_range.end) == (start, end), phrase


def test_fiscal_year_start_is_configurable() -> None:
    resolved = resolve_period("spend in FY2026", AS_OF, fiscal_start_month=4)
    assert resolved.time_range is not None
    assert (resolved.time_range.start, resolved.time_range.end) == (dt.date(2025, 4, 1), dt.date(2026, 4, 1))


def _notations(value: Decimal) -> list[tuple[str, str | None]]:
    """Notations of one amount in whole currency units (and cents when it has them)."""
    whole = int(value)
    cents = value - whole
    en = f"{whole:,}" + (f".{int(cents * 100):02d}" if cents else "")
    de = en.replace(",", "_").replace(".", ",").replace("_", ".")
    ch = en.replace(",", "'")
    out = [(f"{en} EUR", "EUR"), (f"EUR {en}", "EUR"), (f"€{en}", "EUR"), (f"{de} €", "EUR"), (f"${en}", "USD"),
           (f"{en}", None), (f"CHF {ch}", "CHF"), (f"{ch} CHF", "CHF"), (f"{en.replace(',', ' ')} EUR", "EUR")]
    if not cents:
        out += [(f"{whole}.- CHF", "CHF"), (f"EUR {de},-", "EUR")]
    if not cents and whole % 1000 == 0:
        out += [(f"€{whole // 1000}k", "EUR"), (f"{whole // 1000}k EUR", "EUR"), (f"{whole // 1000} TEUR", "EUR"),
                (f"{whole // 1000} kEUR", "EUR"), (f"{whole // 1000}K €", "EUR")]
    if not cents and whole % 100_000 == 0 and whole >= 1_000_000:
        out += [(f"EUR {whole / 1_000_000:g}m", "EUR")]
    return out


@given(st.one_of(st.integers(1, 999).map(lambda n: Decimal(n * 1000)),
                 st.integers(1, 99).map(lambda n: Decimal(n * 100_000)),
                 st.integers(100, 99_999_999).map(lambda n: Decimal(n) / 100)),
       st.data(),
       st.sampled_from(["above", "over", "more than", "exceeding"]))
@seed(23)
@FAST
def test_every_money_notation_reads_the_same_amount(value: Decimal, data: st.DataObject, word: str) -> None:
    text, currency = data.draw(st.sampled_from(_notations(value)))
    amounts = parse_amounts(f"Which invoices of Company A were {word} {text} in Q1 2026?")
    assert [(a.value, a.currency, a.comparator) for a in amounts] == [(value, currency, "above")], text


#: Comparators before the amount (words and symbols) and after it, with whether the amount itself qualifies.
_COMPARATORS = [
    ("above {a}", "above", False), ("over {a}", "above", False), ("> {a}", "above", False),
    (">{a}", "above", False), ("at least {a}", "above", True), (">= {a}", "above", True),
    ("≥ {a}", "above", True), ("no less than {a}", "above", True), ("minimum {a}", "above", True),
    ("{a} or more", "above", True), ("{a} and above", "above", True), ("{a}+", "above", True),
    ("below {a}", "below", False), ("< {a}", "below", False), ("at most {a}", "below", True),
    ("<= {a}", "below", True), ("{a} or less", "below", True),
]


@given(st.integers(1, 99_999_999).map(lambda n: Decimal(n) / 100), st.data(), st.sampled_from(_COMPARATORS))
@seed(26)
@FAST
def test_every_comparator_reads_its_direction_and_inclusion(value: Decimal, data: st.DataObject,
                                                            comparator: tuple[str, str, bool]) -> None:
    text, currency = data.draw(st.sampled_from([n for n in _notations(value) if n[1] is not None]))
    frame, direction, inclusive = comparator
    amounts = parse_amounts(f"Invoices of Company A {frame.format(a=text)} in Q1 2026")
    assert [(a.value, a.currency, a.comparator, a.inclusive) for a in amounts] == [
        (value, currency, direction, inclusive)], frame.format(a=text)


def test_a_trailing_cue_alone_makes_no_amount() -> None:
    """"10 or more invoices" counts documents; without a currency or multiplier it is not money."""
    assert parse_amounts("Suppliers with 10 or more invoices in 2025") == ()


_BREAKDOWNS = [
    ("month by month", (), "month"), ("monthly", (), "month"), ("per month", (), "month"),
    ("by quarter", (), "quarter"), ("quarterly", (), "quarter"), ("per week", (), "week"),
    ("per supplier", ("supplier_id",), None), ("by vendor", ("supplier_id",), None),
    ("for each supplier", ("supplier_id",), None), ("by product code", ("product_code",), None),
    ("per product", ("product_code",), None), ("by product group", ("product_group_id",), None),
    ("per category", ("product_group_id",), None),
]


@given(st.sampled_from(_BREAKDOWNS), st.sampled_from(["Company A spend in Q1 2026 {b}",
                                                      "{b}, what did Company B spend last quarter?"]))
@seed(24)
@FAST
def test_every_breakdown_phrase_maps_to_the_allow_list(case: tuple[str, tuple[str, ...], str | None],
                                                       frame: str) -> None:
    phrase, dims, grain = case
    reading = parse_breakdown(frame.format(b=phrase))
    # the phrase reads "product group"; its level (top-level without a level word) is the reader's
    lexical = tuple("product_group_id" if d == "top_product_group_id" else d for d in dims)
    assert (reading.group_by, reading.grain, reading.unknown) == (lexical, grain, ()), phrase


@given(st.sampled_from(["colour", "region", "cost centre", "buyer"]))
@seed(25)
@settings(max_examples=20, deadline=None)
def test_an_unknown_breakdown_is_a_clarification_naming_it(what: str) -> None:
    result = route(f"Company A spend in Q1 2026 broken down by {what}",
                   RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER))
    assert result.requires_clarification
    assert what.split()[0] in (result.clarification_question or "")


@given(st.sampled_from(["cancelled", "canceled", "voided"]),
       st.sampled_from(["What is the total of {w} invoices of Company A in Q1 2026?",
                        "How much did Company A spend on {w} invoices last quarter?"]))
@seed(26)
@settings(max_examples=20, deadline=None)
def test_cancelled_invoices_are_their_own_figure_not_no_data(word: str, frame: str) -> None:
    # Asked for by name, cancelled invoices are answered over exactly those documents (router/statuses.py),
    # labelled as never spend; "no data" of the spend metric would read as "none were cancelled".
    question = frame.format(w=word)
    assert excluded_status(question) == "cancelled"
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER))
    assert result.workflow == "status_documents", result.clarification_question
    assert tuple(result.constraints.invoice_status) == ("cancelled",)


@given(supplier_questions())
@seed(27)
@settings(max_examples=200, deadline=None, derandomize=True)
def test_a_supplier_spelling_reaches_the_plan(case: tuple[str, str]) -> None:
    question, sid = case
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER))
    assert not result.requires_clarification, (question, result.clarification_question)
    spend = [s for s in result.execution_plan if s.tool in ("finance.aggregate_spend", "finance.company_spend")]
    assert spend and spend[0].arguments.get("supplier_ids") == [sid], question


_OPEN_ENDS = ["until March 2026", "till March 2026", "through March 2026", "up to the end of March 2026",
              "by the end of Q1 2026", "before April 2026", "prior to April 2026", "until 2026-03-31",
              "up to 2025", "no later than March"]
_CLOSED_BY_A_START = [
    ("in 2026 up to the end of March", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in 2026 before April", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("since February until March 2026", dt.date(2026, 2, 1), dt.date(2026, 4, 1)),
    ("since 2026-02-10 through Q1 2026", dt.date(2026, 2, 10), dt.date(2026, 4, 1)),
    ("from January to March 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("from November 2025 through February", dt.date(2025, 11, 1), dt.date(2026, 3, 1)),
    ("from Nov to Feb", dt.date(2025, 11, 1), dt.date(2026, 3, 1)),
]


@given(st.sampled_from(["Xenon: share of Helix in reagents spend {y}", "alpenland - orbis - {y} - total",
                        "{y} spend Company A with Supplier Beta", "Company B, Supplier Beta, {y}"]),
       st.sampled_from(["2024", "2025", "2026"]))
@seed(32)
@settings(max_examples=24, deadline=None, derandomize=True)
def test_a_year_alone_is_the_year_unless_it_is_an_amount(frame: str, year: str) -> None:
    resolved = resolve_period(frame.format(y=year), AS_OF, fiscal_start_month=1)
    assert resolved.time_range is not None, frame
    assert (resolved.time_range.start, resolved.time_range.end) == (dt.date(int(year), 1, 1),
                                                                    dt.date(int(year) + 1, 1, 1))
    for amount in (f"invoices over {year}", f"invoices of at least {year} EUR", f"top {year} lines",
                   f"{year}.50 EUR invoices", f"INV-{year}-0412"):
        assert resolve_period(amount, AS_OF, fiscal_start_month=1).time_range is None, amount
    assert resolve_period(f"spend {year} and 2023", AS_OF, fiscal_start_month=1).ambiguous
_SPEND_FRAMES = ["How much did Company A spend {p}?", "Company A spend with Supplier Beta {p}",
                 "{p}, what did Company B spend"]


@given(st.sampled_from(_OPEN_ENDS), st.sampled_from(_SPEND_FRAMES), st.sampled_from(["as", "lower"]))
@seed(27)
@settings(max_examples=60, deadline=None, derandomize=True)
def test_an_end_without_a_start_is_asked_never_read_as_the_named_period(phrase: str, frame: str,
                                                                         style: str) -> None:
    """"until March 2026" is neither March alone nor everything before it: the reader asks from when."""
    phrase = phrase.lower() if style == "lower" else phrase
    question = frame.format(p=phrase)
    assert resolve_period(question, AS_OF, fiscal_start_month=1).ambiguous, question
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER))
    assert result.requires_clarification, question
    assert "ends, not where it starts" in (result.clarification_question or ""), question


@given(st.sampled_from(_CLOSED_BY_A_START), st.sampled_from(_SPEND_FRAMES))
@seed(28)
@settings(max_examples=40, deadline=None, derandomize=True)
def test_an_end_closes_the_start_the_question_names(case: tuple[str, dt.date, dt.date], frame: str) -> None:
    phrase, start, end = case
    resolved = resolve_period(frame.format(p=phrase), AS_OF, fiscal_start_month=1)
    assert resolved.time_range is not None and not resolved.ambiguous, phrase
    assert (resolved.time_range.start, resolved.time_range.end) == (start, end), phrase


@given(st.sampled_from(["buyer", "cost center", "department", "country", "plant", "region", "business unit"]),
       st.sampled_from(["per {w}", "by {w}", "for each {w}", "split by {w}"]),
       st.sampled_from(["Company A spend in Q1 2026 {b}", "What did Company A spend with Supplier Beta {b} in 2025?",
                        "{b}: Company B spend last quarter"]))
@seed(29)
@settings(max_examples=80, deadline=None, derandomize=True)
def test_a_grouping_the_metric_lacks_is_named_never_dropped(word: str, connector: str, frame: str) -> None:
    """"per buyer" without the verb "split" is still a breakdown: the total alone would answer another question."""
    question = frame.format(b=connector.format(w=word))
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER))
    assert result.requires_clarification, question
    assert word.split()[0] in (result.clarification_question or ""), question


@given(st.sampled_from(["Top 5 suppliers by spend", "Suppliers ranked by amount", "Spend per unit of PRD-482",
                        "Company A spend by the end of the day", "Invoices sent by email",
                        "After that, call the metric for every company and e-mail the result"]))
@seed(30)
@settings(max_examples=10, deadline=None, derandomize=True)
def test_measure_and_manner_words_are_not_groupings(question: str) -> None:
    assert parse_breakdown(question).unknown == (), question


_NAMED_LIKE_GROUPS = Gazetteer.build(
    [Company("COMP-A", "Alpenland Logistik AG", "EUR")],
    [("SUP-40", "Orbis Packaging AG"), ("SUP-18", "Northwind Sensors Ltd"), ("SUP-50", "Vita Flow Sensors GmbH")],
    [("Orbis Packaging", "SUP-40"), ("Northwind Sensors", "SUP-18"), ("Vita Flow Sensors", "SUP-50")],
    [ProductGroup("PG-PACK", "Packaging"), ProductGroup("PG-SENS", "Sensors"), ProductGroup("PG-FLOW", "Flow Sensors")],
)


@given(st.sampled_from(["Orbis Packaging", "Orbis Packaging AG", "Northwind Sensors", "Nortwind Sensors",
                        "Vita Flow Sensors", "vita flow sensors gmbh"]),
       st.sampled_from(["How much did Alpenland spend with {s} last quarter?",
                        "Alpenland Logistik spend with {s} 2025"]))
@seed(31)
@settings(max_examples=24, deadline=None, derandomize=True)
def test_a_group_word_inside_a_supplier_name_is_no_group_filter(supplier: str, frame: str) -> None:
    """A supplier named like a product group ("Orbis Packaging") is one supplier, not a supplier plus a group."""
    mentions = find_mentions(frame.format(s=supplier), _NAMED_LIKE_GROUPS)
    assert len(mentions.suppliers) == 1, supplier
    assert mentions.product_groups == (), supplier


@given(st.sampled_from(["excluding credit notes", "excl. credit notes", "without the credit notes",
                        "credit notes excluded", "credit notes left out", "with credit notes removed",
                        "credit notes not included", "except credit notes"]),
       st.sampled_from(["Company A spend in Q1 2026, {f}", "{f}: what did Company B spend with Supplier Beta in 2025?",
                        "Total Company A spend ({f}) last quarter"]))
@seed(33)
@settings(max_examples=40, deadline=None, derandomize=True)
def test_credit_notes_left_out_before_or_after_are_invoices_only(phrase: str, frame: str) -> None:
    """A cue before ("excl.") or a participle after ("excluded") leaves credit notes out; never "credit notes only"."""
    assert parse_filters(frame.format(f=phrase))[1] == ("invoice",), phrase
    assert parse_filters(frame.format(f="credit notes only"))[1] == ("credit_note",), frame


@functools.cache
def _catalog() -> tuple[Any, ...]:
    """The metric catalog from the recorded schema: it bounds the spend workflow's breakdowns."""
    return tuple(catalog_metrics(shipped_registry()))  # shared with the other tests of this process


@given(st.sampled_from(["Which supplier did Company A spend more with {p}, {a} or {b}?",
                        "Which vendor got the most from Company A {p}: {a} or {b}?",
                        "Company A spend {p}: which one is bigger, {a} or {b}?"]),
       st.sampled_from(sorted(SHORT)), st.sampled_from(sorted(SHORT)), st.sampled_from(["in Q1 2026", "in 2025"]))
@seed(34)
@settings(max_examples=40, deadline=None, derandomize=True)
def test_a_choice_between_named_suppliers_is_one_figure_each(frame: str, first: str, second: str,
                                                             period: str) -> None:
    """"Which supplier did we spend more with, Beta or Gamma?" is answered side by side, never as their sum."""
    if first == second:
        return
    question = frame.format(p=period, a=SHORT[first], b=SHORT[second])
    result = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=_catalog()))
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool in ("finance.aggregate_spend", "metrics.query"))
    arguments = step.arguments if step.tool != "metrics.query" else {**step.arguments["parameters"],
                                                                       "group_by": step.arguments["group_by"]}
    # Side by side (the spend workflow grouped by supplier), or the ranking restricted to the two.
    assert sorted(arguments.get("supplier_ids") or ()) == sorted([first, second]), question
    assert arguments.get("group_by") == ["supplier_id"], (question, arguments)
