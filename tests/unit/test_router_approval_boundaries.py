"""The approval window as the period of the invoices asked (router/approval_boundaries.py): every relation x edge
word, language, date notation, supplier, company and ask (list / total / count) gives the window of the supplier's
approval-table row; the question's date is a check; remarks and approval questions are left alone. No database:
the reader and the approval table are stubs.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from router.approval_boundaries import (
    ApprovalRow,
    Named,
    approval_clauses,
    read_approval_window,
    with_window_note,
)

AS_OF = dt.date(2026, 5, 15)
TOMORROW = AS_OF + dt.timedelta(days=1)
SUPPLIERS = ("Orion Fasteners", "Kappa Chemie", "Lumen Optics SARL")
COMPANIES = ("Company Q", "Nordwerk GmbH", "Société Alpha")
_DOCS = re.compile(r"invoices?|rechnungen|factures|facturas", re.I)
_FIGURE = re.compile(r"total|sum|how many|wie viele|combien|spend|montant|summe", re.I)


def _named(text: str) -> Named:
    """The stub reader: the company and supplier of the test's names, documents and figures by their words."""
    company = next((c for c in COMPANIES if c in text), None)
    suppliers = tuple(s for s in SUPPLIERS if s in text)
    return Named(company, suppliers, bool(_DOCS.search(text)), bool(_FIGURE.search(text)))


def _table(*rows: tuple[dt.date, dt.date | None]) -> object:
    def approvals(company: str, supplier: str) -> tuple[ApprovalRow, ...]:
        return tuple(ApprovalRow(supplier, lo, hi, "agreement-x") for lo, hi in rows)
    return approvals


def _period(begin: dt.date, end: dt.date) -> str:
    return f"from {begin.isoformat()} through {(end - dt.timedelta(days=1)).isoformat()}"


def _notations(d: dt.date) -> tuple[str, ...]:
    return (d.isoformat(), f"{d.day:02d}.{d.month:02d}.{d.year}", f"{d.day} {d:%b} {d.year}",
            f"{d.day:02d}/{d.month:02d}/{d.year}")


#: (clause with {d}, relation, edge) in several languages.
_AFTER_END = ("after the expiry of their approval (valid to {d})", "after its approval lapsed on {d}",
              "on/after the end of the approval ({d})", "booked after approval expiry {d}",
              "nach Ablauf der Freigabe ({d})", "après l'expiration de leur agrément ({d})",
              "since their approval ran out on {d}")
_BEFORE_START = ("before the start of their approval ({d})", "prior to its approval start {d}",
                 "before their approval became valid (valid from {d})", "vor Beginn der Freigabe ({d})",
                 "avant le début de leur agrément ({d})", "antes del inicio de su aprobación ({d})")
_SINCE_START = ("since their approval start {d}", "after the approval began ({d})", "seit Beginn der Freigabe {d}",
                "depuis le début de leur agrément ({d})")
_ASKS = ("list the {s} invoices of {c} {w}", "{c}: total of {s} invoices {w}", "how many invoices did {c} get "
         "from {s} {w}?", "{c} - invoices from {s} {w} - list and total")

_FAST = settings(max_examples=12, deadline=None)


@given(st.sampled_from(_AFTER_END), st.sampled_from(_ASKS), st.sampled_from(SUPPLIERS), st.sampled_from(COMPANIES),
       st.integers(0, 3))
@_FAST
def test_after_the_end_starts_on_the_tables_valid_to(clause: str, ask: str, supplier: str, company: str,
                                                       notation: int) -> None:
    valid_to = dt.date(2026, 2, 1)
    question = ask.format(s=supplier, c=company, w=clause.format(d=_notations(valid_to)[notation]))
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 7, 1), valid_to)))
    assert found is not None, question
    assert _period(valid_to, TOMORROW) in found.text, (question, found.text)
    assert supplier in found.text and company in found.text
    assert not re.search(r"approv|freigabe|agrément|aprobaci", found.text, re.I), found.text
    assert "approval ended" in found.note and "as the date named" in found.note


@given(st.sampled_from(_BEFORE_START), st.sampled_from(_ASKS), st.sampled_from(SUPPLIERS),
       st.sampled_from(COMPANIES), st.integers(0, 3))
@_FAST
def test_before_the_start_ends_on_the_tables_valid_from(clause: str, ask: str, supplier: str, company: str,
                                                          notation: int) -> None:
    valid_from = dt.date(2025, 10, 1)
    question = ask.format(s=supplier, c=company, w=clause.format(d=_notations(valid_from)[notation]))
    found = read_approval_window(question, AS_OF, _named, _table((valid_from, None)))
    assert found is not None, question
    assert re.search(r"through 2025-09-30\b", found.text), (question, found.text)
    assert "approval starts" in found.note


@given(st.sampled_from(_SINCE_START), st.sampled_from(_ASKS), st.sampled_from(SUPPLIERS), st.sampled_from(COMPANIES))
@_FAST
def test_since_the_start_runs_to_the_as_of_date(clause: str, ask: str, supplier: str, company: str) -> None:
    valid_from = dt.date(2026, 1, 1)
    question = ask.format(s=supplier, c=company, w=clause.format(d="01.01.2026"))
    found = read_approval_window(question, AS_OF, _named, _table((valid_from, dt.date(2026, 7, 1))))
    assert found is not None, question
    assert _period(valid_from, TOMORROW) in found.text, (question, found.text)


@pytest.mark.parametrize("window", ["during its approval window so far", "within the validity period of its approval",
                                    "während der Freigabe-Laufzeit der Freigabe"])
def test_during_the_window_is_the_approval_cut_at_the_as_of_date(window: str) -> None:
    question = f"Nordwerk GmbH spend with Kappa Chemie {window}"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2026, 1, 1), dt.date(2026, 7, 1))))
    assert found is not None, question
    assert _period(dt.date(2026, 1, 1), TOMORROW) in found.text


def test_an_ended_window_stops_at_its_valid_to() -> None:
    question = "Company Q spend with Orion Fasteners during its approval window"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 9, 1), dt.date(2026, 3, 1))))
    assert found is not None
    assert _period(dt.date(2025, 9, 1), dt.date(2026, 3, 1)) in found.text


def test_the_other_side_of_the_period_is_the_questions_own() -> None:
    question = ("Company Q: Kappa Chemie invoices dated before its approval start 01.04.2026, since the framework "
                "took effect (01.12.2025)?")
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2026, 4, 1), None)))
    assert found is not None
    assert _period(dt.date(2025, 12, 1), dt.date(2026, 4, 1)) in found.text, found.text
    assert "framework" not in found.text  # the clause that only anchored the date went with it
    question = "Sum of Company Q invoices from Kappa Chemie after approval expiry (from 1 Jan 2026 through 31 Mar 2026)"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 1, 1), dt.date(2026, 1, 1))))
    assert found is not None
    assert _period(dt.date(2026, 1, 1), dt.date(2026, 4, 1)) in found.text, found.text


def test_a_date_that_differs_from_the_table_is_said_and_the_table_used() -> None:
    question = "list Kappa Chemie invoices of Company Q after the expiry of their approval (valid to 01.03.2026)"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 1, 1), dt.date(2026, 2, 1))))
    assert found is not None
    assert _period(dt.date(2026, 2, 1), TOMORROW) in found.text
    assert "differs from the approval table" in found.note


def test_without_a_table_row_the_questions_date_is_used_and_said() -> None:
    question = "list Kappa Chemie invoices of Company Q after the expiry of their approval (valid to 01.03.2026)"
    found = read_approval_window(question, AS_OF, _named, _table())
    assert found is not None
    assert _period(dt.date(2026, 3, 1), TOMORROW) in found.text
    assert "no approval of" in found.note


def test_the_ambiguous_day_month_is_settled_by_the_table() -> None:
    question = "list Orion Fasteners invoices of Company Q before the start of their approval (01/04/2026)"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2026, 4, 1), None)))
    assert found is not None and "through 2026-03-31" in found.text


@pytest.mark.parametrize("remark", ["- their approval only starts 1.10.2026, so all of these are outside validity.",
                                    "(not approved before 01/10/2026)", "- note the approval only starts 1 Oct 2026"])
def test_a_remark_beside_a_period_is_set_aside_and_checked(remark: str) -> None:
    question = f"Company Q invoices from Orion Fasteners in 2026 so far {remark}"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2026, 10, 1), None)))
    assert found is not None
    # the period asked stays (the approval starts after it: "outside validity" said of it is the same window)
    assert ("2026 so far" in found.text or "from 2026-01-01 through 2026-05-15" in found.text), found.text
    assert "approv" not in found.text.lower()
    assert "remark" in found.note and "agrees with" in found.note


@pytest.mark.parametrize("question", [
    "Until when is Orion Fasteners approved for Company Q?",
    "Till what date is Kappa Chemie approved at Company Q?",
    "which vendors are approved for Company Q in Q1 2026?",
    "Company Q spend with approved vendors in Q1 2026",
    "Company Q: Orion Fasteners approved from which date?",
])
def test_approval_questions_are_left_to_their_readers(question: str) -> None:
    assert read_approval_window(question, AS_OF, _named, _table((dt.date(2026, 1, 1), None))) is None


def test_two_suppliers_or_none_are_left_alone() -> None:
    question = "list Orion Fasteners and Kappa Chemie invoices of Company Q after their approval lapsed on 1.2.2026"
    assert read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 1, 1), dt.date(2026, 2, 1)))) is None


def test_clauses_name_relation_edge_and_date() -> None:
    (c,) = approval_clauses("invoices booked after their approval lapsed on 1 Feb 2026", AS_OF)
    assert (c.relation, c.edge, c.said) == ("after", "end", (dt.date(2026, 2, 1),))
    (c,) = approval_clauses("spend before the start of their approval (01/04/2026)", AS_OF)
    assert (c.relation, c.edge) == ("before", "start") and set(c.said) == {dt.date(2026, 4, 1), dt.date(2026, 1, 4)}


def test_the_note_stands_before_the_sources() -> None:
    assert with_window_note("Total 5 EUR. Sources: a", "x") == "Total 5 EUR. Approval window: x. Sources: a"
    assert with_window_note("Total", "") == "Total"


@pytest.mark.parametrize("outside", ["outside its approval window", "outside the validity of its approval",
                                     "außerhalb der Freigabe-Laufzeit der Freigabe", "hors de la période d'agrément"])
def test_outside_the_window_is_before_its_start_and_after_its_end(outside: str) -> None:
    question = f"Company Q: total of Kappa Chemie invoices {outside}"
    found = read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 10, 1), dt.date(2026, 4, 1))))
    assert found is not None, question
    assert "through 2025-09-30 and from 2026-04-01 through 2026-05-15" in found.text, found.text
    open_ended = read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 10, 1), None)))
    assert open_ended is not None and open_ended.text.endswith("through 2025-09-30"), open_ended


def test_outside_the_approved_list_is_no_window() -> None:
    question = "Company Q spend with Kappa Chemie (outside the approved vendor list) in Q1 2026"
    assert read_approval_window(question, AS_OF, _named, _table((dt.date(2025, 10, 1), None))) is None


@pytest.mark.parametrize(("clause", "edge"), [("after approval is finish (01.01.2026)", "end"),
                                              ("after the approval was over on 1.1.2026", "end"),
                                              ("after the approval was granted (01.01.2026)", "start"),
                                              ("nach Ablauf der Freigabe (01.01.2026)", "end")])
def test_non_native_and_other_edge_words(clause: str, edge: str) -> None:
    (c,) = approval_clauses(f"Kappa Chemie invoices {clause}", AS_OF)
    assert (c.relation, c.edge, c.said) == ("after", edge, (dt.date(2026, 1, 1),))
