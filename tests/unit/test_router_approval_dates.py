"""Approval questions over time: a named day beside context periods, approval end dates, the off-contract list of
a company's suppliers (router/approval_dates.py, router/approval_validity.py, router/off_contract.py).

Seeded variations of the slots (company, supplier, day, context period, phrasing); each compared with the reading
the class rule demands (the day alone, or still two periods to ask about)."""

from __future__ import annotations

import datetime as dt
import random

from router.approval_dates import context_periods
from router.approval_validity import asks_approval_end, described_spans
from router.off_contract import _NEGATION, _TRANSACTED, _WHICH_SUPPLIERS
from router.periods import resolve_period

_AS_OF = dt.date(2026, 5, 15)
_COMPANIES = ("Company A", "Company C", "Alpenland Logistik AG", "Xenon Pharma")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def _day(rng: random.Random) -> dt.date:
    return dt.date(2026, rng.randint(1, 12), rng.randint(1, 28))


def _context(day: dt.date, rng: random.Random) -> str:
    """A wider period that holds the day, as a writer would name it beside the question."""
    quarter, half = (day.month - 1) // 3 + 1, 1 if day.month <= 6 else 2
    return rng.choice([f"for the Q{quarter} planning round", f"for the Q{quarter} {day.year} review",
                       f"in the {'first' if half == 1 else 'second'} half of the year", f"for the {day.year} budget"])


def test_day_beside_containing_context_is_the_day() -> None:
    rng = random.Random(38)
    checked = 0
    for _ in range(40):
        day, company = _day(rng), rng.choice(_COMPANIES)
        said = f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
        question = rng.choice([
            f"{_context(day, rng).capitalize()}, which vendors will {company} be approved to buy from on {said}?",
            f"I'm checking the sourcing setup {_context(day, rng)}. Which vendors are approved for {company} on "
            f"{said}?",
        ])
        period = resolve_period(question, _AS_OF)
        if not period.ambiguous:
            continue  # the reader took one period already (nothing for this rule)
        found = context_periods(question, period, _AS_OF)
        assert found is not None, question
        assert (found.day.start, found.day.end) == (day, day + dt.timedelta(days=1)), question
        checked += 1
    assert checked >= 10  # the rule is exercised, not skipped


def test_day_outside_the_other_period_stays_two_periods() -> None:
    rng = random.Random(7)
    for _ in range(30):
        day, company = _day(rng), rng.choice(_COMPANIES)
        other = rng.choice([q for q in (1, 2, 3, 4) if q != (day.month - 1) // 3 + 1])
        question = (f"Which vendors were approved for {company} in Q{other} 2026 and on {day.day} "
                    f"{_MONTHS[day.month - 1]} {day.year}?")
        period = resolve_period(question, _AS_OF)
        assert period.ambiguous, question
        assert context_periods(question, period, _AS_OF) is None, question


def test_two_days_stay_two_periods() -> None:
    question = "Which vendors are approved for Company A on 1 March 2026 and on 1 August 2026?"
    period = resolve_period(question, _AS_OF)
    assert period.ambiguous
    assert context_periods(question, period, _AS_OF) is None


def test_approval_end_asked() -> None:
    rng = random.Random(5)
    suppliers = ("Supplier Gamma", "Helix Reagents", "Beta Logistics'", "Eta Industrial Supply")
    for _ in range(30):
        s, c = rng.choice(suppliers), rng.choice(_COMPANIES)
        asked = rng.choice([f"Until when is {s} approved for {c}?", f"Until when was {s} approved for {c}?",
                            f"When does {s}'s approval for {c} end?", f"When did {s}'s approval for {c} expire?",
                            f"How long does {s}' approval for {c} run - until which date?",
                            f"What is the end date of {s}'s approval for {c}?"])
        assert asks_approval_end(asked), asked
        plain = rng.choice([f"Which vendors are approved for {c} on 1 June 2026?",
                            f"Is {s} approved for {c}?", f"How much did {c} spend with {s} until March 2026?"])
        assert not asks_approval_end(plain), plain


def test_approval_descriptions_are_spanned() -> None:
    for text, words in [("Until when is Supplier Gamma approved as compressor supplier for Alpenland?",
                         "as compressor supplier"),
                        ("How long does Beta Logistics' express-freight approval for Ypsilon run?", "express-freight"),
                        ("Eta is approved for Company B without an end date. Until when does it run?",
                         "without an end date")]:
        assert any(words in text[s:e] for s, e in described_spans(text)), text


def test_off_contract_list_of_a_companys_suppliers() -> None:
    rng = random.Random(11)
    for _ in range(20):
        c = rng.choice(_COMPANIES)
        q = rng.choice([f"Which of {c}'s suppliers in Q2 2026 are not on {c}'s approved vendor list?",
                        f"Which of {c}'s vendors so far this quarter are not on the approved list?"])
        assert _NEGATION.search(q) and _WHICH_SUPPLIERS.search(q) and _TRANSACTED.search(q), q


def test_idle_vendor_phrasings_are_read() -> None:
    from router.idle_vendors import idle_spans

    rng = random.Random(3)
    for _ in range(30):
        c, period = rng.choice(_COMPANIES), rng.choice(["Q1 2026", "Q4 2025", "March 2026", "H2 2025"])
        asked = rng.choice([
            f"Which approved vendors of {c} had no recognised spend in {period}?",
            f"Were there any approved vendors of {c} without spend in {period}?",
            f"Which vendors approved for {c} in {period} did not invoice anything we recognised in that quarter?",
            f"Did every approved vendor of {c} have spend in {period}? Name those that had none.",
            f"For the dormant-vendor review: which of {c}'s approved vendors had no invoices in {period}?",
        ])
        assert idle_spans(asked), asked
        assert not idle_spans(f"Which vendors were approved for {c} in {period}?")
        assert not idle_spans(f"Which suppliers had no spend for {c} in {period}?")  # no approval asked


def test_idle_answer_lists_only_the_idle_vendors() -> None:
    from router.idle_vendors import idle_answer

    text, result = idle_answer("Company C", "", "2026-Q1", ("SUP-52", "SUP-60"), ("SUP-52",), "-490.56", "EUR", 4)
    assert result["idle_supplier_ids"] == ["SUP-52"] and "SUP-60" not in text
    text, result = idle_answer("Company A", "", "2025-Q4", ("SUP-07", "SUP-18"), (), "90381.20", "EUR", 27)
    assert result["idle_supplier_ids"] == [] and "SUP-" not in text and text.startswith("None")


def test_largest_invoice_asked_with_the_superlative_after_the_noun() -> None:
    from router.routing import _RANKED_INVOICES

    rng = random.Random(17)
    for _ in range(30):
        c, adj = rng.choice(_COMPANIES), rng.choice(["largest", "biggest", "highest", "smallest"])
        single = rng.choice(["", "single "])
        asked = rng.choice([f"Which {single}invoice of {c} was the {adj} in 2026 so far?",
                            f"What {single}invoice was the {adj} for {c} in Q1 2026?",
                            f"Which invoices of {c} were the {adj} in 2025?"])
        found = _RANKED_INVOICES.search(asked)
        assert found is not None, asked
        assert (found.group(1) or found.group(2)).lower().startswith("invoice"), asked
    assert _RANKED_INVOICES.search("Which invoices of Company A were paid in Q1 2026?") is None


def test_figure_asked_in_a_currency_is_no_agreement_fact() -> None:
    from router.compound import _FIGURE_WORDS

    for what in ("EUR amounts", "amounts", "gross totals", "net amount", "values", "invoice amounts"):
        assert _FIGURE_WORDS.match(what), what
    assert not _FIGURE_WORDS.match("payment terms")


def test_approved_vendor_lists_compared_between_periods_are_told_apart() -> None:
    from router.approval_dates import _DOCUMENT_WORDS, _SPEND_WORDS, _VENDOR_LIST

    rng = random.Random(23)
    for _ in range(20):
        c = rng.choice(_COMPANIES)
        listed = rng.choice([f"Which vendors are approved for {c} in Q3 2026 compared with Q2 2026?",
                             f"Who is approved to supply {c} this quarter versus last quarter?",
                             f"List the approved suppliers of {c} in 2026 vs 2025"])
        assert _VENDOR_LIST.search(listed) and not _SPEND_WORDS.search(listed), listed
        spend = f"How did {c}'s spend with approved vendors change from Q1 2026 to Q2 2026?"
        assert _SPEND_WORDS.search(spend), spend
    assert _DOCUMENT_WORDS.search("What does Amendment No. 1 change regarding approved vendors?")
