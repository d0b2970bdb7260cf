"""Payment terms as structured data (ingest/payment_terms.py) and the overdue reading (router/overdue.py).

The extraction varies the term, the clause, the wording and the effective date (seeded), and the refusals (two
terms in one version, a term without an effective date) go to the dead-letter queue as parse errors. The reading
varies the bound in days, the shape asked and the as-at day; the term in force is read from validity ranges.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

import pytest

from ingest.errors import ParseError
from ingest.parsers import parse_item
from ingest.payment_terms import PAYMENT_TERMS_EXTRACTION
from ingest.sources import SourceItem
from router.overdue import _beyond, measure_of, terms_in_force

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ingest" / "tenant" / "agreements" / "agreement-2026-04.md"


def _agreement(body: str, effective: str | None = "2026-01-01", company: str = "COMP-A") -> SourceItem:
    front = ["---", "document_id: agreement-2030-01", "document_type: agreement", "title: Framework 2030-01",
             f"company_id: {company}"] + ([f"effective_date: {effective}"] if effective else []) + ["---", ""]
    table = ("\n## 12. Approved Vendors\n\n| Supplier | Supplier ID | Scope | Valid from | Valid to |\n"
             "|---|---|---|---|---|\n| Beta | SUP-18 | Sensors | 2026-01-01 | open |\n")
    text = "\n".join(front) + "<!-- page 1 -->\n\n# Framework 2030-01\n\n" + body + "\n" + table
    return SourceItem("t-1", "/data/tenants/t-1/agreements/agreement-2030-01.md", "markdown", text.encode())


def test_the_fixture_agreement_lands_its_term_with_clause_sentence_and_chunk() -> None:
    doc = parse_item(SourceItem("t-1", str(FIXTURE), "markdown", FIXTURE.read_bytes()))
    (term,) = doc.records.payment_terms
    assert (term.agreement_id, term.company_id, term.term_days, term.clause) == ("agreement-2026-04", "COMP-A", 30,
                                                                                "6.1")
    assert term.sentence == "Payment is due 30 days net after receipt of a correct invoice."
    assert term.chunk_id is not None and term.chunk_id.startswith("agreement-2026-04-p")
    assert term.extraction_version == PAYMENT_TERMS_EXTRACTION


@pytest.mark.parametrize("seed", range(6))
def test_terms_vary_by_days_clause_wording_and_effective_date(seed: int) -> None:
    rng = random.Random(seed)
    days = rng.choice([5, 10, 14, 30, 45, 60, 90])
    clause = f"{rng.randint(2, 9)}.{rng.randint(1, 6)}"
    wording = rng.choice(["Payment is due {d} days net after receipt of a correct invoice.",
                          "Payment shall be due within {d} days net.",
                          "payment is due {d} calendar days net of the invoice."]).format(d=days)
    lead = rng.choice(["", "Invoices quote the Order number. "])
    effective = dt.date(2025, 1, 1) + dt.timedelta(days=rng.randint(0, 700))
    doc = parse_item(_agreement(f"## 6. Payment\n\n{clause} {lead}{wording} Credit notes are separate.\n",
                                effective.isoformat()))
    (term,) = doc.records.payment_terms
    assert (term.term_days, term.clause, term.effective_date) == (days, clause, effective)
    assert term.sentence == wording


def test_no_term_sentence_lands_no_term() -> None:
    doc = parse_item(_agreement("## 6. Payment\n\n6.1 Invoices quote the Order number.\n"))
    assert doc.records.payment_terms == ()


@pytest.mark.parametrize(("body", "effective", "message"), [
    ("6.1 Payment is due 30 days net. 6.2 Payment is due 45 days net.", "2026-01-01", "different payment terms"),
    ("6.1 Payment is due 30 days net.", None, "no effective_date"),
])
def test_an_ambiguous_or_undated_term_is_refused(body: str, effective: str | None, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_item(_agreement(body, effective))


@pytest.mark.parametrize("seed", range(8))
def test_the_bound_in_days_and_the_shape_vary(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([7, 30, 45, 60, 90, 120])
    phrase, want = rng.choice([(f"more than {n} days overdue", n), (f"over {n} days past due", n),
                               (f"overdue by more than {n} days", n), (f"at least {n} days overdue", n - 1),
                               ("overdue", 0)])
    assert _beyond(f"Which invoices of Company A are {phrase} as at 15 May 2026?") == want
    shape, asked = rng.choice([("count", f"How many invoices are {phrase}?"),
                               ("total", f"What is the total amount {phrase} in EUR?"),
                               ("list", f"List the invoices {phrase}."),
                               ("list", f"Which invoices are {phrase} today?")])
    assert measure_of(asked) == shape


def test_the_term_in_force_follows_the_versions_validity() -> None:
    rows = [{"agreement_id": "a", "term_days": 14, "valid_from": "2025-09-01", "valid_to": "2026-04-20"},
            {"agreement_id": "a", "term_days": 5, "valid_from": "2026-04-20", "valid_to": None}]
    assert [r["term_days"] for r in terms_in_force(rows, dt.date(2026, 4, 19))] == [14]
    assert [r["term_days"] for r in terms_in_force(rows, dt.date(2026, 4, 20))] == [5]
    assert terms_in_force(rows, dt.date(2025, 8, 31)) == []
