"""Comparisons and currencies as treasury writes them, routed in memory (router/comparison_words.py,
router/company_compare.py, router/currency.py; no database).

* A base period said relative to the named one ("vs month before", "prev qtr", "par rapport au trimestre
  précédent", "frente al mes anterior", "vs vorig kwartaal", "ggü. Quartal davor", "same period LY", "N-1") is the
  period before the named one (or a year earlier): the governed comparison is called on the named period with that
  rule, never on the last complete period. Metamorphic: company x period notation x base word x language x
  position of the output words gives the call the bare "<period> vs the previous <unit>" ask gives.
* A tail that only says how the change is wanted ("- how much up/down (EUR and %)", "- chg in EUR", "- écart en
  %") is that comparison's own answer, never a second ask.
* Two sides: "gap between A and B", "écart entre A et B", "A minus B", "how much more went to X than to Y": one
  spend question per side, each the question with the pair replaced by the side (period and company shared).
* Company words ("co", "cos", "comps", "Gesellschaft", "société") in the ranking cues.
* Currencies: a code list labelling the native amounts of a currency breakdown is no filter; "how much GBP did X
  get billed" is the GBP invoices; every reporting-currency wording gives the bare ask's call.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from router.company_compare import implied_base
from router.comparison_words import change_output_only
from router.german import read_german
from router.reader import read
from tests.unit.test_router_company_compare import GAZETTEER, INPUTS, SPELLINGS, _ask
from tests.unit.test_router_company_sets import _route

SEED, N = 4207, 6
#: (period words, start, end, unit) as of 2026-05-15
PERIODS = (("Oct 2025", "2025-10-01", "2025-11-01", "month"), ("2025-11", "2025-11-01", "2025-12-01", "month"),
           ("March 2026", "2026-03-01", "2026-04-01", "month"), ("Q4 2025", "2025-10-01", "2026-01-01", "quarter"),
           ("Q1 2026", "2026-01-01", "2026-04-01", "quarter"), ("Q3 25", "2025-07-01", "2025-10-01", "quarter"))
#: Base words per unit and language (the period before the named one).
PREVIOUS = {
    "month": ("vs month before", "vs the month before", "vs prev month", "vs prior mo", "compared with preceding month",
              "par rapport au mois précédent", "frente al mes anterior", "vs vorige maand",
              "rispetto al mese precedente", "vs le mois d'avant"),
    "quarter": ("vs prior qtr", "vs prev qtr", "vs quarter before", "vs the previous quarter",
                "par rapport au trimestre précédent", "frente al trimestre anterior", "vs vorig kwartaal",
                "comparé au trimestre précédent", "rispetto al trimestre precedente"),
}
SAME_LAST_YEAR = ("vs LY", "vs prior year", "N-1", "par rapport à la même période l'année dernière",
                  "frente al mismo periodo del año anterior", "vs dezelfde periode vorig jaar", "interanual")
TAILS = ("", " - how much up/down (EUR and %)", " - chg in EUR", ", diff EUR + %", " - écart en EUR et en %",
         " - how much up/down?", " (variación en %)")
FRAMES = ("{c} spend {p} {b}{t}", "spend {c} {p} {b}{t}", "{p} {c} spend {b}{t}")


@functools.cache
def _comparison_calls(question: str) -> list[dict[str, Any]]:
    results = _route(question, "letters")
    assert len(results) == 1, (question, [r.question for r in results])
    (result,) = results
    assert not result.requires_clarification, (question, result.clarification_question)
    return [dict(s.arguments["parameters"]) for s in result.execution_plan
            if s.tool == "metrics.query" and s.arguments.get("metric") == "finance.spend_comparison"]


def _base_cases() -> list[tuple[str, str, str, str, str, str]]:
    rng = random.Random(SEED)
    out = []
    for _ in range(N):
        p, start, end, unit = rng.choice(PERIODS)
        if rng.random() < 0.7:
            base, rule = rng.choice(PREVIOUS[unit]), "previous_period"
        else:
            base, rule = rng.choice(SAME_LAST_YEAR), "same_period_last_year"
        company = rng.choice(("Company A", "company b", "COMP-A"))
        question = rng.choice(FRAMES).format(c=company, p=p, b=base, t=rng.choice(TAILS))
        out.append((question, start, end, rule, company, p))
    return out


@pytest.mark.parametrize(("question", "start", "end", "rule", "company", "period"), _base_cases())
def test_a_relative_base_is_read_against_the_named_period(question: str, start: str, end: str, rule: str,
                                                           company: str, period: str) -> None:
    calls = _comparison_calls(question)
    assert calls, question
    bare = _comparison_calls(f"{company} spend {period} "
                             f"{'vs the previous period' if rule == 'previous_period' else 'year over year'}")
    for got, want in zip(calls, bare, strict=True):
        assert (got["start_date"], got["end_date"]) == (start, end), question
        assert got["compare_to"] == rule, question
        assert got == want, question


@pytest.mark.parametrize("question", [
    "Veränderung Ausgaben Company A Q4 2025 im Vgl. zum Quartal davor",
    "Company A Ausgaben November 2025 ggü. Monat davor - Abweichung absolut und in %",
    "Company B Ausgaben Q1 2026 ggü. Vorperiode"])
def test_german_base_words_read_as_the_period_before(question: str) -> None:
    german = read_german(question)
    assert german is not None
    calls = _comparison_calls(german)
    assert calls and all(c["compare_to"] == "previous_period" for c in calls), german


@pytest.mark.parametrize("tail", ["how much up/down (EUR)", "chg in EUR and %", "diff EUR + %", "écart en %",
                                  "Abweichung absolut und in %", "how much higher, in EUR",
                                  "variación en EUR y %"])
def test_a_tail_of_output_words_only_is_the_change_itself(tail: str) -> None:
    assert change_output_only(tail), tail


@pytest.mark.parametrize("tail", ["how much with Beta", "list the invoices", "in EUR", "and", "top 3 suppliers",
                                  "Delta EUR + %",
                                  "EUR", "by supplier"])
def test_a_tail_with_an_ask_of_its_own_is_not(tail: str) -> None:
    assert not change_output_only(tail), tail


def test_a_written_period_never_becomes_the_last_complete_one() -> None:
    # a period the reader did not read ("11.2025") is the compared period: no implied base in its place
    assert implied_base("spend Company A 11.2025 compared with the previous month", False) is None
    assert implied_base("Company A spend Q4 vs last quarter", False) is None
    assert implied_base("did Company A spend go up or down versus last quarter", False) is not None


GAP_FRAMES = ("gap between {a} and {b} spend {p}", "écart entre {a} et {b} {p}", "{a} minus {b} spend {p}",
              "diferencia entre {a} y {b} {p}", "difference between {a} and {b} {p}, EUR",
              "Differenz Spend {a} minus {b}, {p}?", "{p}: diff between {a} and {b}")
SUPPLIER_NAMES = {"SUP-18": ("Beta", "Supplier Beta"), "SUP-27": ("Gamma", "Supplier Gamma")}
MORE_FRAMES = ("how much more went to {x} than to {y} {p} ({c})", "{c} {p}: how much more was spent with {x} vs {y}",
               "how much less went to {x} than {y} {p}, {c}")
GAP_PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in 2025", "2025-01-01", "2026-01-01"),
               ("in H2 2025", "2025-07-01", "2026-01-01"))


def _gap_cases() -> list[tuple[str, tuple[str, str], tuple[str, str], str, str]]:
    rng = random.Random(SEED + 1)
    out = []
    for _ in range(N):
        p, start, end = rng.choice(GAP_PERIODS)
        if rng.random() < 0.5:
            a, b = rng.sample(sorted(SPELLINGS), 2)
            q = rng.choice(GAP_FRAMES).format(a=rng.choice(SPELLINGS[a]), b=rng.choice(SPELLINGS[b]), p=p)
            out.append((q, (a, ""), (b, ""), start, end))
        else:
            c = rng.choice(sorted(SPELLINGS))
            x, y = rng.sample(sorted(SUPPLIER_NAMES), 2)
            frame = rng.choice((*MORE_FRAMES, "gap between {x} and {y} spend {p} for {c}", "{c} {p}: {x} minus {y}"))
            q = frame.format(c=rng.choice(SPELLINGS[c]), x=rng.choice(SUPPLIER_NAMES[x]),
                             y=rng.choice(SUPPLIER_NAMES[y]), p=p)
            out.append((q, (c, x), (c, y), start, end))
    return out


@pytest.mark.parametrize(("question", "side_a", "side_b", "start", "end"), _gap_cases())
def test_two_sides_read_as_one_spend_question_each(question: str, side_a: tuple[str, str],
                                                   side_b: tuple[str, str], start: str, end: str) -> None:
    from router.routing import route

    text = read_german(question) or question
    ask = _ask(text)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    assert ask.direction == ("bottom" if "less" in question else "top"), question
    for base, (company, supplier) in zip(ask.bases, (side_a, side_b), strict=True):
        result = route(base, INPUTS)
        assert not result.requires_clarification, (base, result.clarification_question)
        assert result.entities.company_id == company, base
        assert list(result.entities.supplier_ids) == ([supplier] if supplier else []), base
        period = result.constraints.time_range
        assert period is not None and (period.start.isoformat(), period.end.isoformat()) == (start, end), base


@pytest.mark.parametrize("question", [
    "which co spent more in Q1 2026, Company A or Company B", "which co spent most in 2025",
    "rank the 3 cos in H2 2025", "rank our cos by spend in 2025", "which entity had the highest spend in 2025",
    "which comp spent the least last quarter", "which société spent the most in 2025",
    "which entity had the highest AP in 2025", "rank our cos by AP spend in H2 2025",
    "which company had the lowest payables last quarter"])
def test_company_words_read_as_the_ranking_of_companies(question: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "company_ranking" and ask.refused is None and ask.bases, question


@pytest.mark.parametrize("question", ["rank the cos by invoice count in 2025", "how much did company a spend in 2025",
                                      "Beta and Gamma spend for Company A in 2025"])
def test_no_company_ranking_or_gap_without_its_cue(question: str) -> None:
    ask = _ask(question)
    assert ask is None or ask.kind != "company_ranking" or "count" not in question, question
    if "Beta and Gamma" in question:
        assert ask is None, question


@functools.cache
def _currency_calls(question: str) -> list[tuple[str, dict[str, Any], list[str]]]:
    results = _route(question, "letters")
    assert len(results) == 1, question
    (result,) = results
    assert not result.requires_clarification, (question, result.clarification_question)
    return [(s.arguments["metric"], dict(s.arguments["parameters"]), list(s.arguments.get("group_by") or []))
            for s in result.execution_plan if s.tool == "metrics.query"]


@pytest.mark.parametrize("question", [
    "ccy breakdown Company A Q1 2026 (GBP/CHF/USD native, total EUR)",
    "Company B H2 2025 currency breakdown: USD/GBP native amounts + EUR total",
    "fx split Company A 2025, native GBP, CHF, USD + total EUR",
    # (the grouping read first as "by currency": the codes still label, the currency reader owns them)
    "Company A H1 2026 currency breakdown: GBP/CHF native amounts + EUR total",
    "Company B 2025 breakdown by currency - USD/GBP native + EUR total"])
def test_codes_labelling_native_amounts_are_no_filter(question: str) -> None:
    calls = _currency_calls(question)
    assert calls, question
    assert all(not p.get("document_currencies") and not p.get("document_currency") for _, p, _ in calls), calls


@pytest.mark.parametrize(("question", "code"), [
    ("how much GBP did Company A get billed in 2025? native GBP + EUR equiv", "GBP"),
    ("how much USD was Company B invoiced in Q1 2026, orig ccy and EUR", "USD"),
    ("Company A GBP and USD invoices in 2025, native + EUR", None)])
def test_one_invoice_currency_asked_is_its_filter(question: str, code: str | None) -> None:
    calls = _currency_calls(question)
    currencies = {p.get("document_currency") for _, p, _ in calls} | {
        c for _, p, _ in calls for c in (p.get("document_currencies") or ())}
    if code:
        assert code in currencies and not currencies - {code, None}, calls
    else:
        assert {"GBP", "USD"} <= currencies, calls


REPORTING = (", EUR", " in EUR terms", " (EUR basis)", ", EUR equiv", " EUR-equivalent", " in euros",
             " converted to EUR", " in the reporting currency")


@pytest.mark.parametrize("suffix", REPORTING)
def test_reporting_currency_words_give_the_bare_figure(suffix: str) -> None:
    bare = "Company B spend Q4 2025 vs Q3 2025"
    assert _currency_calls(bare + suffix) == _currency_calls(bare), suffix
    assert not read(bare + suffix, GAZETTEER, INPUTS.as_of).not_understood, suffix


@pytest.mark.parametrize(("question", "start", "end"), [
    ("spend company b Q1 2026 par rapport au trimestre précédent", "2026-01-01", "2026-04-01"),
    ("Company A T4 2025 comparé au trimestre précédent", "2025-10-01", "2026-01-01"),
    ("dépenses Company B T3 2025 vs le trimestre précédent", "2025-07-01", "2025-10-01"),
])
def test_the_quarter_before_a_named_one_is_its_base(question: str, start: str, end: str) -> None:
    # ("trimestre précédent" was read as the quarter before today: "more than one period (2025-Q4, 2026-Q1)")
    calls = _comparison_calls(question)
    assert calls, question
    assert all((c["start_date"], c["end_date"], c["compare_to"]) == (start, end, "previous_period")
               for c in calls), calls
