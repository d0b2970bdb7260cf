"""Review 37: payment terms stated in other common phrasings, and a version without a term.

The extractor reads the net term in the phrasings agreements use ("Payment shall be made within N days", "net N
days", "N days net", "payable within N days of invoice date"), varied (seeded) over the days, the clause, the
wording and the effective date; two different terms in one version stay refused, and a bare "within N days" that
is not about payment is no term. A version without a term lands no term row; marts.payment_terms then carries it
with term_days NULL from the front matter its chunks carry (checked against the built database elsewhere).
"""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ingest.errors import ParseError
from ingest.parsers import parse_item
from ingest.sources import SourceItem

WORDINGS = (
    "Payment shall be made within {d} days.",
    "Payment will be made within {d} calendar days of receipt of the invoice.",
    "Terms of payment: net {d} days.",
    "Invoices are settled {d} days net.",
    "Invoices are payable within {d} days of invoice date.",
    "Payment is due within {d} days of the invoice date.",
    "Payment is due {d} days net after receipt of a correct invoice.",
)


def _agreement(body: str, effective: str | None = "2026-01-01") -> SourceItem:
    front = ["---", "document_id: agreement-2031-02", "document_type: agreement", "title: Framework 2031-02",
             "company_id: COMP-B"] + ([f"effective_date: {effective}"] if effective else []) + ["---", ""]
    table = ("\n## 12. Approved Vendors\n\n| Supplier | Supplier ID | Scope | Valid from | Valid to |\n"
             "|---|---|---|---|---|\n| Beta | SUP-18 | Sensors | 2026-01-01 | open |\n")
    text = "\n".join(front) + "<!-- page 1 -->\n\n# Framework 2031-02\n\n" + body + "\n" + table
    return SourceItem("t-1", "/data/tenants/t-1/agreements/agreement-2031-02.md", "markdown", text.encode())


@pytest.mark.parametrize("seed", range(12))
def test_common_phrasings_land_the_term(seed: int) -> None:
    rng = random.Random(seed)
    days = rng.choice([7, 10, 14, 30, 45, 60, 90, 120])
    wording = WORDINGS[seed % len(WORDINGS)].format(d=days)
    wording = wording if rng.random() < 0.5 else wording[0].lower() + wording[1:]
    clause = f"{rng.randint(2, 9)}.{rng.randint(1, 6)}"
    effective = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 900))
    doc = parse_item(_agreement(f"## 6. Payment\n\n{clause} {wording} Credit notes are separate.\n",
                                effective.isoformat()))
    (term,) = doc.records.payment_terms
    assert (term.term_days, term.clause, term.effective_date) == (days, clause, effective)
    assert term.sentence == wording


@pytest.mark.parametrize("seed", range(6))
def test_two_different_terms_in_other_phrasings_stay_refused(seed: int) -> None:
    rng = random.Random(seed)
    first, second = rng.sample([10, 14, 30, 45, 60], 2)
    a, b = rng.sample(WORDINGS, 2)
    with pytest.raises(ParseError, match="different payment terms"):
        parse_item(_agreement(f"## 6. Payment\n\n6.1 {a.format(d=first)}\n\n6.2 {b.format(d=second)}\n"))


@pytest.mark.parametrize("seed", range(6))
def test_the_same_term_in_two_phrasings_is_one_term(seed: int) -> None:
    rng = random.Random(seed)
    days = rng.choice([14, 30, 45])
    a, b = rng.sample(WORDINGS, 2)
    doc = parse_item(_agreement(f"## 6. Payment\n\n6.1 {a.format(d=days)} {b.format(d=days)}\n"))
    (term,) = doc.records.payment_terms
    assert term.term_days == days


@pytest.mark.parametrize("body", [
    "Delivery shall be made within 30 days of the order.",
    "Defects are notified within 10 days.",
    "The cabinet 800x600 ships within 45 days.",
    "The Supplier answers a claim within 14 calendar days.",
])
def test_a_period_that_is_not_about_payment_is_no_term(body: str) -> None:
    assert parse_item(_agreement(f"## 7. Delivery\n\n7.1 {body}\n")).records.payment_terms == ()
