"""Comparison sides and compound parts inherit the ask's shared slots (k5), read and routed in memory.

The slots a message states once (its period, company) are every side's and every part's: a period said before a
"how much more did A spend than B" clause, or before "X vs Y spend gap", is each side's period; a part that names
only its own measure (net, gross, VAT, average invoice value, a count, a supplier count) is asked with the scope of
the other parts, and the period carried is the range the donor part read. Frames vary the companies, suppliers,
periods, positions and separators. No database.
"""

from __future__ import annotations

import pytest

from router.compound import split_asks
from router.routing import route
from tests.unit.test_router_company_compare import INPUTS as COMPARE_INPUTS
from tests.unit.test_router_company_compare import SPELLINGS, SUPPLIERS, _ask
from tests.unit.test_router_compound_parts import INPUTS as PART_INPUTS
from tests.unit.test_router_compound_parts import _read

#: (words, start, end exclusive) as of the compare tests' date (2026-05-15)
LEADS = (("Q1 2026", "2026-01-01", "2026-04-01"), ("In H2 2025", "2025-07-01", "2026-01-01"),
         ("For March 2026", "2026-03-01", "2026-04-01"), ("FY2025", "2025-01-01", "2026-01-01"))
SEPARATORS = (": ", ", ", " - ")


def _period(result) -> tuple[str, str] | None:  # type: ignore[no-untyped-def]
    period = result.constraints.time_range
    return None if period is None else (period.start.isoformat(), period.end.isoformat())


# (each lead with another separator and pair of companies: the slots vary together, the test stays fast)
@pytest.mark.parametrize(("lead", "start", "end", "sep", "a", "b"), [
    (*lead, SEPARATORS[i % 3], *[("COMP-A", "COMP-B"), ("COMP-C", "COMP-A")][i % 2]) for i, lead in enumerate(LEADS)])
def test_a_period_before_the_company_difference_is_each_sides(lead: str, start: str, end: str, sep: str, a: str,
                                                              b: str) -> None:
    question = f"{lead}{sep}how much more did {SPELLINGS[a][0]} spend than {SPELLINGS[b][-1]}?"
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    for base, company in zip(ask.bases, (a, b), strict=True):
        result = route(base, COMPARE_INPUTS)
        assert not result.requires_clarification, (base, result.clarification_question)
        assert result.entities.company_id == company and _period(result) == (start, end), base


@pytest.mark.parametrize(("lead", "start", "end", "x", "y"), [(*LEADS[1], "SUP-18", "SUP-27"),
                                                               (*LEADS[3], "SUP-22", "SUP-18")])
def test_a_period_before_the_supplier_difference_is_each_sides(lead: str, start: str, end: str, x: str,
                                                               y: str) -> None:
    question = f"{lead}, how much more did Company C spend with {SUPPLIERS[x][1]} than with {SUPPLIERS[y][0]}?"
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    for base, supplier in zip(ask.bases, (x, y), strict=True):
        result = route(base, COMPARE_INPUTS)
        assert not result.requires_clarification, (base, result.clarification_question)
        assert result.entities.company_id == "COMP-C" and list(result.entities.supplier_ids) == [supplier], base
        assert _period(result) == (start, end), base


@pytest.mark.parametrize(("x", "y", "join", "cue"), [("SUP-18", "SUP-27", " vs ", "spend gap"),
                                                      ("SUP-27", "SUP-22", " versus ", "gap"),
                                                      ("SUP-22", "SUP-18", " / ", "difference")])
def test_a_pair_then_its_difference_word_is_a_difference(x: str, y: str, join: str, cue: str) -> None:
    question = f"Company B: {SUPPLIERS[x][1]}{join}{SUPPLIERS[y][1]} {cue} in Q1 2026 (EUR)"
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    for base, supplier in zip(ask.bases, (x, y), strict=True):
        result = route(base, COMPARE_INPUTS)
        assert not result.requires_clarification, (base, result.clarification_question)
        assert result.entities.company_id == "COMP-B" and list(result.entities.supplier_ids) == [supplier], base
        assert _period(result) == ("2026-01-01", "2026-04-01"), base


def test_the_leads_company_is_left_to_the_sides() -> None:
    ask = _ask("Company C, Q1 2026: how much more did Company A spend than Company B?")
    assert ask is not None and ask.kind == "difference"
    assert all("Company C" not in base for base in ask.bases), ask.bases


_SCOPES = (("Company B", "in Q4 2025", "COMP-B", "2025-10-01", "2026-01-01"),
           ("company a", "for H2 2025", "COMP-A", "2025-07-01", "2026-01-01"),
           ("Company C", "in March 2026", "COMP-C", "2026-03-01", "2026-04-01"))
#: (first part, second part, a word the second part's question must read as)
_MEASURE_PAIRS = (("net of VAT", "also the gross total", "gross"),
                  ("what's the VAT amount", "the gross incl. VAT as well", "gross spend"),
                  ("how many invoices", "what's the avg invoice value", "avg"),
                  ("the number of invoices", "the average ticket size", "average"),
                  ("total spend", "# active vendors", "vendors"))


@pytest.mark.parametrize(("company", "period", "cid", "start", "end", "first", "second", "word", "join"), [
    (*_SCOPES[i % 3], *pair, (" and ", ", and ", " and also ")[(i + 1) % 3]) for i, pair in enumerate(_MEASURE_PAIRS)])
def test_a_part_naming_only_its_measure_inherits_company_and_period(company: str, period: str, cid: str, start: str,
                                                                    end: str, first: str, second: str, word: str,
                                                                    join: str) -> None:
    question = f"{company} {period}: {first}{join}{second}?"
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    assert word in parts[1].question.lower(), parts[1]
    result = route(parts[1].question, PART_INPUTS)
    assert result.entities.company_id == cid, (parts[1].question, result.clarification_question)
    assert _period(result) == (start, end), parts[1].question


@pytest.mark.parametrize(("remark", "count", "supplier", "sid"), [
    (" (rough is fine)", "how many invoices was that?", "Gamma", "SUP-27"),
    ("", "# of invoices", "Supplier Beta", "SUP-18"),
    (" (exact please)", "number of invoices", "Gamma", "SUP-27")])
def test_a_bare_count_inherits_the_supplier_despite_a_remark(remark: str, count: str, supplier: str,
                                                             sid: str) -> None:
    question = f"What did Company A spend with {supplier} in Q1 2026 and {count}{remark}"
    parts = split_asks(question, _read)
    assert len(parts) == 2, (question, parts)
    result = route(parts[1].question, PART_INPUTS)
    assert list(result.entities.supplier_ids) == [sid], parts[1].question
    assert _period(result) == ("2026-01-01", "2026-04-01"), parts[1].question


def test_the_carried_period_is_the_range_read() -> None:
    parts = split_asks("What did Company B spend with Gamma from Oct 2025 through Jan 2026 and the number of invoices",
                       _read)
    assert len(parts) == 2
    assert "2025-10-01" in parts[1].question and "2026-01-31" in parts[1].question, parts[1]


@pytest.mark.parametrize(("first", "second"), [
    ("What did Company A spend in Q4 2025", "how does that trend vs the prior quarter in %?"),
    ("How much did company c spend last quarter", "how does that trend vs. prior qtr in %?")])
def test_a_measureless_part_with_a_pronoun_refers_to_the_figure_before(first: str, second: str) -> None:
    parts = split_asks(f"{first}, and {second}", _read)
    assert len(parts) == 2 and parts[1].refers, parts
    assert "spend" in parts[1].question, parts[1]


@pytest.mark.parametrize(("question", "period"), [
    ("how much more did Company A spend than Company B in Q1 2026 (abs diff)", ("2026-01-01", "2026-04-01")),
    ("How much less did company c spend than Company A in H2 2025, EUR and %?", ("2025-07-01", "2026-01-01"))])
def test_how_the_difference_is_given_is_no_sides_constraint(question: str, period: tuple[str, str]) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    for base in ask.bases:
        assert "abs" not in base and "%" not in base, base
        result = route(base, COMPARE_INPUTS)
        assert not result.requires_clarification and _period(result) == period, (base, result.clarification_question)


@pytest.mark.parametrize("lead", ["For the audit cttee -", "for the risk committee:", "Ahead of the finance cmte -"])
def test_a_committee_lead_is_set_aside_so_the_parts_stay_whole(lead: str) -> None:
    from router.envelope import read_envelope

    ask = "What was Company B's total spend in Q1 2026, and also who were the top 2 suppliers by spend?"
    envelope = read_envelope(f"{lead} {ask}", frozenset())
    assert envelope.text == ask and envelope.aside, envelope
    assert len(split_asks(envelope.text, _read)) == 2


@pytest.mark.parametrize("clause", ["if we take Gamma out", "if we leave Supplier Beta out", "if we exclude Gamma"])
def test_an_if_clause_that_leaves_something_out_is_no_courtesy(clause: str) -> None:
    from router.context_clauses import _LEAVES_OUT

    assert _LEAVES_OUT.search(clause)
    assert not _LEAVES_OUT.search("if it's easy to pull")


@pytest.mark.parametrize(("question", "sid"), [("if we take Gamma out, what did Company A spend in Q1 2026", "SUP-27"),
                                               ("Company B spend in H2 2025 leaving Supplier Beta out", "SUP-18")])
def test_a_verb_and_out_around_a_name_exclude_it(question: str, sid: str) -> None:
    result = route(question, PART_INPUTS)
    assert sid not in result.entities.supplier_ids, (question, result.entities.supplier_ids)
