"""Review findings on supplier activity (router/supplier_activity.py, semantic/finance.yml), negative tests:

* the first/last invoice never drops an exclusion: suppliers left out are a parameter of
  ``finance.invoice_date_extreme`` (its SQL takes them in the selection, the count and the extreme day) and the
  answer names them; a product group, products or companies left out, which the listing cannot take, are asked
  back (never a figure presented as complete without them);
* ``finance.inactive_suppliers`` counts only invoices as invoicing (a supplier whose only document in the period
  is a credit note did not invoice, as "last invoice before" reads it) and the answer says the rule and the
  universe: every supplier of the tenant's supplier master.
"""

from __future__ import annotations

import re

import pytest

from router.supplier_activity import (
    EXTREME_METRIC,
    EXTREME_STEP,
    INACTIVE_METRIC,
    INACTIVE_STEP,
    _compose_extreme,
    _compose_inactive,
)
from tests.unit.shipped import shipped_registry
from tests.unit.test_supplier_activity_k2 import _draft, _idle, _invoice, _params, _response, _routed


@pytest.mark.parametrize(("question", "left_out"), [
    ("Company A first invoice in 2026 other than SUP-18", ["SUP-18"]),  # the review's probe
    ("latest invoice of Company B in Q1 2026 excluding Beta Supplies GmbH", ["SUP-18"]),
    ("Company A: last invoice except Epsilon?", ["SUP-22"]),
])
def test_a_supplier_left_out_of_the_extreme_is_a_parameter_never_dropped(question: str, left_out: list[str]) -> None:
    result = _routed(question)
    assert result.workflow == "invoice_extreme", result.clarification_question
    params = _params(result, EXTREME_METRIC)
    assert params and all(p["exclude_supplier_ids"] == left_out for p in params)
    assert all(s in (result.interpretation or "") for s in left_out)


@pytest.mark.parametrize(("question", "said"), [
    ("last invoice of Company A in Q1 2026 excluding sensors", "product group"),
    ("most recent invoice in Q1 2026 except Company B", "companies"),
    ("Company A: which suppliers did not invoice in Q1 2026, excl. sensors", "product group"),
])
def test_an_exclusion_the_listing_cannot_take_is_asked_back(question: str, said: str) -> None:
    result = _routed(question)
    assert result.requires_clarification and result.workflow == "clarification", result.workflow
    assert said in (result.clarification_question or ""), result.clarification_question
    assert not _params(result, EXTREME_METRIC) and not _params(result, INACTIVE_METRIC)


def _sql(metric: str) -> str:
    return " ".join(shipped_registry().get(metric).definition.sql.split())


def test_the_extreme_sql_leaves_the_suppliers_out_of_the_selection_the_count_and_the_day() -> None:
    sql = _sql(EXTREME_METRIC)
    for alias in ("scoped", "validated_invoice_lines", "extreme"):
        assert f"not ({alias}.supplier_id = any(:exclude_supplier_ids))" in sql, alias


def test_a_credit_note_alone_is_no_invoicing() -> None:
    sql = _sql(INACTIVE_METRIC)
    activity = sql[sql.index("and not exists"):]
    assert "validated_invoice_lines.document_type = 'invoice'" in activity
    assert not re.search(r"credit", activity)


def test_the_inactive_answer_says_the_universe_and_the_rule() -> None:
    d = _draft(INACTIVE_STEP, [_response(INACTIVE_METRIC, [{**r, "supplier_count": 9} for r in _idle(["SUP-44"])],
                                         {"company_id": "COMP-C"})], "COMP-C")
    _compose_inactive(d)
    assert "of the 9 suppliers in the tenant's supplier master" in d.text
    assert "never dealt with the company" in d.text and "credit note alone is no invoicing" in d.text
    asked = _draft(INACTIVE_STEP, [_response(INACTIVE_METRIC, [{**r, "supplier_count": 2} for r in _idle(["SUP-44"])],
                                             {"company_id": "COMP-C", "supplier_ids": ["SUP-44", "SUP-18"]})],
                   "COMP-C")
    _compose_inactive(asked)
    assert "of the 2 suppliers asked about" in asked.text and "supplier master" not in asked.text


def test_the_extreme_answer_names_the_suppliers_left_out() -> None:
    params = {"company_id": "COMP-B", "order": "first", "exclude_supplier_ids": ["SUP-18"]}
    d = _draft(EXTREME_STEP, [_response(EXTREME_METRIC, [_invoice("INV-2026-0120")], params)], "COMP-B")
    _compose_extreme(d)
    assert "other than SUP-18" in d.text and "INV-2026-0120" in d.text
    none = _draft(EXTREME_STEP, [_response(EXTREME_METRIC, [], params)], "COMP-B")
    _compose_extreme(none)
    assert none.status == "no_data" and "other than SUP-18" in none.text
