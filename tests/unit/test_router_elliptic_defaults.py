"""Elliptic asks and their defaults (router/elliptic.py, router/month_years.py, router/company_set.py's company
nouns, router/scope.py), routed without a database.

A short ask names a scope and leaves the measure out ("beta co a jan?", "both cos split q4", "rank the 3 cos h2").
Generated scopes (company spelling x supplier spelling x period notation x word order x trailing '?'/'pls') must
be planned exactly as the spelled-out spend question of the same scope; with an unknown word added the ask is a
clarification naming that word, never a figure without it. Months and day ranges without a year are the latest
such not after the as-of date. Bounded: six generated asks per seed.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest

from router.company_set import company_nouns
from router.elliptic import elliptic_spend, ranked_by_spend
from router.month_years import with_years
from router.periods import resolve_period
from router.routing import RouterInputs, route
from tests.unit.test_router_rankings_counts import CATALOG
from tests.unit.test_router_statuses import AS_OF, CTX, GAZETTEER, METRICS, _calls

_INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS, catalog=CATALOG)
_N = 6
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sept", "oct", "nov", "dec")
_FULL = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
         "November", "December")


def _plan(question: str) -> tuple[Any, ...]:
    result = route(question, _INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.workflow not in ("unsupported", "document_answer", "identifier_lookup"), (question, result.workflow)
    return tuple((m, sorted((k, str(v)) for k, v in p.items()), g) for m, p, g in _calls(result)) or tuple(
        (s.tool, sorted((k, str(v)) for k, v in dict(s.arguments).items())) for s in result.execution_plan)


def _latest(month: int, as_of: dt.date) -> int:
    return as_of.year if dt.date(as_of.year, month, 1) <= as_of else as_of.year - 1


# --- months and days without a year ---------------------------------------------------------------------------


@pytest.mark.parametrize("as_of", [dt.date(2026, 2, 10), dt.date(2026, 5, 15), dt.date(2025, 12, 31)])
@pytest.mark.parametrize("month", range(1, 13))
def test_a_month_without_a_year_is_the_latest_such_month(month: int, as_of: dt.date) -> None:
    for word in (_MONTHS[month - 1], _FULL[month - 1], _FULL[month - 1].upper()):
        # (a leading "May Company B ..." may as well ask a permission: only after the name)
        lead = () if month == 5 else (f"{word} Company B",)
        for form in (f"Company B {word}?", *lead, f"Company B spend {word} pls"):
            tr = resolve_period(form, as_of).time_range
            assert tr is not None, form
            year = _latest(month, as_of)
            assert (tr.start, tr.end) == (dt.date(year, month, 1),
                                          dt.date(year + month // 12, month % 12 + 1, 1)), form


@pytest.mark.parametrize(("ask", "as_of", "start", "end"), [
    ("zeta may so far", dt.date(2026, 5, 15), dt.date(2026, 5, 1), dt.date(2026, 5, 16)),
    ("Company C MAY MTD", dt.date(2026, 5, 20), dt.date(2026, 5, 1), dt.date(2026, 5, 21)),
    ("company a june to date?", dt.date(2026, 6, 3), dt.date(2026, 6, 1), dt.date(2026, 6, 4)),
    ("company b spend may 20-27", dt.date(2026, 5, 28), dt.date(2026, 5, 20), dt.date(2026, 5, 28)),
    ("company b 3-9 dec", dt.date(2026, 5, 28), dt.date(2025, 12, 3), dt.date(2025, 12, 10)),
    ("company b oct 2nd-5th", dt.date(2026, 5, 28), dt.date(2025, 10, 2), dt.date(2025, 10, 6)),
    # (numeric day ranges are router/period_grammar.py's: tests/unit/test_router_period_grammar.py)
])
def test_days_and_to_date_months_without_a_year(ask: str, as_of: dt.date, start: dt.date, end: dt.date) -> None:
    tr = resolve_period(ask, as_of).time_range
    assert tr is not None and (tr.start, tr.end) == (start, end), (ask, tr)


@pytest.mark.parametrize("ask", ["how much may we spend with Beta in Q1 2026", "Beta may deliver late, Q1 2026",
                                 "co a 1/2-3/4/25"])
def test_what_is_no_month_or_no_settled_day_stays_unread(ask: str) -> None:
    resolved = resolve_period(ask, dt.date(2026, 5, 15))
    assert resolved.time_range is None or resolved.time_range.label == "2026-Q1", resolved
    assert with_years(ask, dt.date(2026, 5, 15), resolved.spans) is None


@pytest.mark.parametrize("ask", [
    "Company A spend at March prices", "Company A spend may 2",  # the probes
    "Company B spend at May rates?", "co a spend on April terms", "Company B spend June levels pls",  # variants
    "Company A spend march 3", "beta spend may 12",
])
def test_a_month_not_in_a_period_slot_gets_no_year(ask: str) -> None:
    # a price basis, a rate, or a bare number after a month word with another reading: not the period asked
    assert with_years(ask, dt.date(2026, 5, 15), ()) is None, ask
    resolved = resolve_period(ask, dt.date(2026, 5, 15))
    assert resolved.time_range is None, (ask, resolved.time_range)


@pytest.mark.parametrize(("ask", "start"), [
    ("Company A spend in march?", dt.date(2026, 3, 1)), ("co b spend during oct on the new contract",
                                                         dt.date(2025, 10, 1)),
    ("Company A spend dec 3", dt.date(2025, 12, 3)), ("Company B spend since feb", dt.date(2026, 2, 1)),
])
def test_a_month_in_a_period_slot_gets_its_year(ask: str, start: dt.date) -> None:
    resolved = resolve_period(ask, dt.date(2026, 5, 15))
    assert resolved.time_range is not None and resolved.time_range.start == start, (ask, resolved)


def test_a_month_read_with_a_year_elsewhere_keeps_that_year() -> None:
    for ask in ("Jan-Mar 2026 spend", "spend January and February 2025", "March vs February 2025 spend"):
        resolved = resolve_period(ask, dt.date(2026, 5, 15))
        assert with_years(ask, dt.date(2026, 5, 15), resolved.spans) is None, ask


# --- the default measure: generated elliptic asks ----------------------------------------------------------------

_COMPANY = ("Company A", "company a", "Co. A", "co a", "comp a")
_SUPPLIER = ("Beta", "Delta Enclosures", "zeta sensorik", "Gamma Controls", "iota cables", "Supplier Eta")


def _periods(rng: random.Random) -> tuple[str, str]:
    kind = rng.choice(("month", "quarter", "half", "year"))
    if kind == "month":
        m = rng.randrange(1, 13)
        word = rng.choice((_MONTHS[m - 1], _FULL[m - 1]))
        return word, f"{_FULL[m - 1]} {_latest(m, AS_OF)}"
    if kind == "quarter":
        q = rng.randrange(1, 5)
        return rng.choice((f"q{q} 25", f"Q{q} 2025", f"Q{q}/2025")), f"Q{q} 2025"
    if kind == "half":
        h = rng.randrange(1, 3)
        return rng.choice((f"h{h} 25", f"H{h} 2025")), f"H{h} 2025"
    return rng.choice(("2025", "FY25", "fy2025")), "2025"


def _elliptic(rng: random.Random) -> list[tuple[str, str]]:
    cases = []
    for _ in range(_N):
        c, s = rng.choice(_COMPANY), rng.choice(_SUPPLIER)
        said, period = _periods(rng)
        parts = [c, s, said]
        rng.shuffle(parts)
        if parts[-1] == c and parts[0] == s:  # (a supplier right before the company reads as one name's words)
            parts.reverse()
        tail = rng.choice(("", "?", " pls", "??"))
        cases.append((" ".join(parts) + tail, f"Company A spend with {s} in {period}"))
    return cases


@pytest.mark.parametrize("seed", range(1))
def test_an_elliptic_ask_is_the_governed_spend_of_its_scope(seed: int) -> None:
    wrong = []
    for ask, spelled in _elliptic(random.Random(f"elliptic-{seed}")):
        try:
            if _plan(ask) != _plan(spelled):
                wrong.append((ask, spelled))
        except AssertionError as exc:
            wrong.append((ask, str(exc)[:200]))
    assert not wrong, wrong[:3]


@pytest.mark.parametrize("seed", range(2))
def test_an_unknown_word_in_an_elliptic_ask_is_named_back(seed: int) -> None:
    rng = random.Random(f"unknown-{seed}")
    for ask, _ in _elliptic(rng)[:4]:
        word = rng.choice(("frobnik", "quuxity", "zorblat"))
        at = rng.choice((0, len(ask.split())))
        words = ask.split()
        words.insert(at, word)
        result = route(" ".join(words), _INPUTS)
        # asked back naming it, or the spend of what was read answered PARTIAL naming it (router/read_answer.py)
        assert word in (result.clarification_question or "") or (
            not result.requires_clarification and word in result.unread), (words, result.clarification_question)


@pytest.mark.parametrize("seed", range(2))
def test_a_goods_or_figure_noun_in_an_elliptic_ask_is_asked_back(seed: int) -> None:
    # (a lone noun where the measure stands, "furniture", "outliers": goods or a figure no reader read; answered as
    # the spend it would be a silent wrong: asked back naming it, router/read_answer.py)
    rng = random.Random(f"goods-{seed}")
    for ask, _ in _elliptic(rng)[:4]:
        word = rng.choice(("furniture", "outliers", "discounts", "stationery"))
        at = rng.choice((0, len(ask.split())))
        words = ask.split()
        words.insert(at, word)
        result = route(" ".join(words), _INPUTS)
        assert result.requires_clarification or result.workflow == "unsupported", (words, result.workflow)
        assert word in (result.clarification_question or ""), (words, result.clarification_question)


# --- group-wide words, splits and rankings -----------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "written"), [
    ("both cos split q4", "both companies split q4"), ("which co spent most", "which company spent most"),
    ("spend per co.", "spend per company"), ("all legal entities", "all companies"),
    ("the 3 comps q1", "the 3 companies q1"), ("rank the cies", "rank the companies"),
    ("whole grp q1", "group-wide q1"), ("entire grp", "group-wide"),
    ("co a spend", "co a spend"), ("by co. B q1", "by co. B q1"), ("Co. C vs co b", "Co. C vs co b"),
])
def test_the_company_noun_typed_short_is_written_out(typed: str, written: str) -> None:
    assert company_nouns(typed).text == written


@pytest.mark.parametrize("scope", ["all cos", "all 3 cos", "the three companies", "all entities", "groupwide",
                                   "group-wide", "whole grp", "the 3 cos", "any co", "all legal entities"])
def test_group_wide_words_mean_all_companies(scope: str) -> None:
    rng = random.Random(scope)
    said, period = _periods(rng)
    form = rng.choice((f"{scope} {said}", f"{said} spend {scope}", f"spend {scope} {said}?"))
    assert _plan(form) == _plan(f"spend of all companies in {period}"), form


@pytest.mark.parametrize("scope", ["both cos", "either co", "the 2 companies"])
def test_a_count_other_than_the_tenants_is_no_all_companies_scope(scope: str) -> None:
    result = route(f"spend {scope} Q1 2026", _INPUTS)
    assert result.requires_clarification, result.workflow


@pytest.mark.parametrize("form", ["all cos Q4 2025 split", "split by co Q4 2025", "Q4 2025 spend per co",
                                  "all entities Q4 2025 - breakdown", "spend by entity q4 25 pls"])
def test_a_split_of_all_companies_is_by_company(form: str) -> None:
    assert _plan(form) == _plan("spend per company, all companies, Q4 2025"), form


@pytest.mark.parametrize(("ask", "want"), [
    ("rank the 3 cos h2 25", "rank the 3 companies by spend h2 25"),
    ("rank our companies 2025", "rank our companies by spend 2025"),
])
def test_a_ranking_of_the_companies_with_no_measure_is_by_spend(ask: str, want: str) -> None:
    assert ranked_by_spend(company_nouns(ask).text) == want
    assert ranked_by_spend("rank the companies by invoice count 2025") is None


@pytest.mark.parametrize("form", ["anything above 8k Q1 2026 all cos", "anything over 8k q1 26 any co"])
def test_anything_above_a_threshold_is_the_invoices_above_it(form: str) -> None:
    assert _plan(form) == _plan("invoices above 8000 EUR in Q1 2026, all companies"), form


def test_a_fragment_naming_another_figure_is_never_spend() -> None:
    for fragment in ("co a invoices q1 2026", "Beta co a approved q1 2026", "co a open items jan"):
        assert elliptic_spend(fragment) is None, fragment


@pytest.mark.parametrize("guess", ["prob 0", "probably nothing", "(maybe zero)", "- should be about 5k",
                                   "i think ~12,000 EUR", "likely none"])
def test_a_guess_at_the_answer_is_a_remark_never_a_constraint(guess: str) -> None:
    for ask in ("Beta co a sept?", "co b spend q1 2026"):
        said = f"{ask} {guess}"
        assert _plan(said) == _plan(ask), said
        assert guess.strip("()- ") in (route(said, _INPUTS).interpretation or ""), said
