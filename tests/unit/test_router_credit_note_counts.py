"""Credit notes counted over a period that ends on a named day ("how many credit notes did X receive in 2026 up to
15 May 2026"): the day of the period's end is no amount ("up to 15" is not a threshold), so the count is the
governed finance.invoice_count of credit notes over the period, over every company, day, month spelling and
counted noun. No database."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from router.reading import parse_amounts
from tests.unit.test_router_analysis import FAST, routed

_MONTHS = ((1, "January"), (2, "Feb"), (3, "March"), (4, "April"), (5, "May"), (6, "June"))
_TEMPLATES = ("How many credit notes did {c} receive in 2026 up to {d}?",
              "number of credit notes {c} got in 2026 until {d}",
              "How many {what} did {c} receive in 2026 up to {d}?")
_WHAT = (("credit notes", ["credit_note"]), ("invoices", ["invoice"]))
_COMPANIES = (("Company A", "COMP-A"), ("company b", "COMP-B"))


@given(st.sampled_from(_TEMPLATES), st.sampled_from(_COMPANIES), st.integers(2, 28), st.sampled_from(_MONTHS),
       st.sampled_from(_WHAT), st.booleans())
@FAST
def test_a_count_up_to_a_named_day_is_the_governed_count(template: str, company: tuple[str, str], day: int,
                                                         month: tuple[int, str], what: tuple[str, list[str]],
                                                         iso: bool) -> None:
    named = f"2026-{month[0]:02d}-{day:02d}" if iso else f"{day} {month[1]} 2026"
    question = template.format(c=company[0], d=named, what=what[0])
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    params = step.arguments["parameters"]
    assert step.arguments["metric"] == "finance.invoice_count", (question, step.arguments)
    types = what[1] if "{what}" in template else ["credit_note"]
    assert params["document_types"] == types and params["company_id"] == company[1]
    end = dt.date(2026, month[0], day) + dt.timedelta(days=1)
    assert (params["start_date"], params["end_date"]) == ("2026-01-01", end.isoformat())


def test_a_day_of_a_month_is_no_amount_but_money_stays_money() -> None:
    assert parse_amounts("spend up to 15 May 2026") == ()
    assert parse_amounts("invoices until 3. März 2026") == ()
    assert parse_amounts("until 2026-05-15") == ()
    assert [a.value for a in parse_amounts("invoices up to 15 EUR in May 2026")] == [15]
    assert [a.value for a in parse_amounts("invoices over 5,000 in March 2026")] == [5000]


@given(st.sampled_from(("Gutschriften {c} {p} – Anzahl?", "credit notes {c} {p} - number?",
                        "Rechnungen {c} {p}: Anzahl?", "invoices {c} {p}: count?")),
       st.sampled_from(_COMPANIES),
       st.sampled_from((("2. Halbjahr 2025", "2025-07-01", "2026-01-01"), ("Q1 2026", "2026-01-01", "2026-04-01"))))
@FAST
def test_the_count_word_written_last_is_read(template: str, company: tuple[str, str],
                                             period: tuple[str, str, str]) -> None:
    question = template.format(c=company[0], p=period[0])
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    params = step.arguments["parameters"]
    assert step.arguments["metric"] == "finance.invoice_count"
    credit = template.startswith(("Gutschriften", "credit"))
    assert params["document_types"] == (["credit_note"] if credit else ["invoice"])
    assert (params["company_id"], params["start_date"], params["end_date"]) == (company[1], *period[1:])


def test_an_unknown_name_before_the_count_word_is_still_named() -> None:
    result = routed("Gutschriften Fooname Company A 2025 – Anzahl?")
    assert result.requires_clarification and "Fooname" in (result.clarification_question or "")
