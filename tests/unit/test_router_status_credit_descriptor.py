"""Slots read as a whole, not by their parts: both recognized statuses named together ("posted or paid
invoices") are both, never the last one; credit notes named as the basis of supplier totals ("net of credit
notes") are no per-document listing; a group word right next to a product code ("leave out the PRD-482 sensors")
describes the product and is not left out as a group. No database."""

from __future__ import annotations

import pytest

from evaluation.probes_exclusions import _ABOVE, PRODUCTS
from tests.unit.test_router_rankings_counts import _queries, _routed

GROUP_WORDS = {"PG-SENS": "sensors", "PG-MON": "monitoring products", "PG-CTRL": "control equipment",
               "PG-MRO": "MRO"}


@pytest.mark.parametrize("both", ["posted or paid", "paid or posted", "posted and paid", "paid/posted"])
@pytest.mark.parametrize("frame", [
    "How many different suppliers have {s} invoices at Company A in Q1 2026?",
    "How many {s} invoices did Company B get in H2 2025?",
])
def test_both_statuses_named_together_are_both(frame: str, both: str) -> None:
    for query in _queries(frame.format(s=both)):
        args = query.get("parameters") or query
        statuses = args.get("invoice_statuses")
        assert statuses is None or set(statuses) == {"posted", "paid"}, (frame, both, args)


@pytest.mark.parametrize("basis", ["(net of credit notes)", "after credit notes", "net of credit memos",
                                   "including credit notes"])
@pytest.mark.parametrize(("frame", "direction"), [
    ("Which suppliers got less than 6k from Company B in Q1 2026 {b}?", "below"),
    ("Which vendors did Company A pay more than 20k in 2025, {b}?", "above"),
])
def test_credit_notes_as_the_basis_keep_the_totals_threshold(frame: str, direction: str, basis: str) -> None:
    result = _routed(frame.format(b=basis))
    assert not result.requires_clarification, result.clarification_question
    assert result.workflow == "spend_threshold", (frame, basis, result.workflow)


# (an upper-case group word after a code, "PRD-825 MRO", reads as a name of its own and is asked about)
@pytest.mark.parametrize("code", sorted(c for c in PRODUCTS if GROUP_WORDS[_ABOVE[PRODUCTS[c][0]]].islower()))
@pytest.mark.parametrize("frame", [
    "Company A spend with Beta Supplies in Q1 2026 but leave out the {code} {g}",
    "Company B spend in 2025 excluding the {code} {g}",
])
def test_a_group_word_next_to_a_product_code_describes_it(frame: str, code: str) -> None:
    group = _ABOVE[PRODUCTS[code][0]]
    (query,) = _queries(frame.format(code=code, g=GROUP_WORDS[group]))
    args = query.get("parameters") or query
    assert args.get("exclude_product_codes") == [code], args
    assert not args.get("exclude_product_group_ids"), args
    assert not args.get("product_group_ids"), args


@pytest.mark.parametrize("noun", ["Supplier", "supplier", "Vendor"])
@pytest.mark.parametrize("word", ["split", "breakdown", "mix"])
@pytest.mark.parametrize("frame", ["{n} {w} Company A for H2 2025", "Company B {n} {w} in Q1 2026?"])
def test_a_grouping_named_before_its_breakdown_word_is_the_spend_breakdown(frame: str, noun: str, word: str) -> None:
    result = _routed(frame.format(n=noun, w=word))
    assert not result.requires_clarification, result.clarification_question
    (query,) = [dict(s.arguments) for s in result.execution_plan if "spend" in s.tool or s.tool == "metrics.query"]
    assert query.get("group_by") == ["supplier_id"] or (query.get("parameters") or {}).get("group_by") == [
        "supplier_id"] or query.get("group_by") == ("supplier_id",), query


@pytest.mark.parametrize("cue", ["After the credit note: what is", "Net of the credit notes, what is",
                                 "Including the credit memo, what is"])
def test_net_spend_beside_credit_notes_is_governed_spend(cue: str) -> None:
    result = _routed(f"{cue} Company B's net spend with Beta Supplies between 1 Jan and 31 Mar 2026?")
    assert not result.requires_clarification, result.clarification_question


def test_net_spend_naming_tax_stays_a_tax_question() -> None:
    # net of tax (credit notes are negative in it anyway): the sum of the documents' net amounts, never gross spend
    result = _routed("After the credit note: Company B's net spend excluding tax with Beta Supplies in Q1 2026?")
    assert result.workflow == "document_amounts", result.clarification_question
    assert any(h.startswith("invoice_facts:period:net") for h in result.rule_hits), result.rule_hits


@pytest.mark.parametrize("name", ["Company Z", "Firma Q", "Company Omega"])
@pytest.mark.parametrize("what", ["open items", "open invoices", "invoices"])
def test_an_unknown_company_is_named_when_the_measure_is_not_understood(name: str, what: str) -> None:
    result = _routed(f"{name} {what} Q1 2026?")
    assert result.requires_clarification
    assert f"{name.split()[-1]}'" in (result.clarification_question or ""), result.clarification_question


@pytest.mark.parametrize("n", [2, 3, 5])
@pytest.mark.parametrize("tail", ["? top {n} pls", ", top {n}", "? just the top {n}", "? top {n} only"])
def test_a_bare_cut_off_after_a_ranking_is_its_limit(n: int, tail: str) -> None:
    question = "Which supplier did Company B spend the most with in 2025" + tail.format(n=n)
    queries = [q for q in _queries(question) if q.get("metric") == "finance.spend_ranking"]
    assert len(queries) == 1, (question, queries)
    assert queries[0]["parameters"]["limit"] == n, queries[0]


@pytest.mark.parametrize("kind", ["original", "invoice", "document", "transaction"])
@pytest.mark.parametrize("frame", ["Company A Q1 2026 spend per {k} currency and total in EUR?",
                                   "Company B 2025 spend per {k} currency"])
def test_spend_per_own_currency_is_the_currency_grouping(frame: str, kind: str) -> None:
    metrics = [q.get("metric") for q in _queries(frame.format(k=kind))]
    assert "finance.document_currency_spend" in metrics, metrics


@pytest.mark.parametrize(("question", "limit"), [
    ("Top 3 Artikel nach Ausgaben bei Company A im Q1 2026?", 3),
    ("Top 5 Artikel nach Ausgaben bei Company B im Jahr 2025?", 5),
])
def test_german_articles_ranked_are_products(question: str, limit: int) -> None:
    (query,) = _queries(question)
    assert query["group_by"] == ["product_code"] and query["parameters"]["limit"] == limit, query


@pytest.mark.parametrize("question", [
    "Anteil Company B am Gesamtvolumen Q1 2026?",
    "Anteil Company A am Gesamtvolumen im Jahr 2025?",
    "What is the share of Company A in the total spend in 2025?",
    "Share of Company B of our overall spend in H2 2025",
])
def test_a_company_share_with_the_share_word_first_is_of_all_companies(question: str) -> None:
    queries = _queries(question)
    assert any(q.get("group_by") == ["company_id"] for q in queries), queries
    assert all("company_id" not in q["parameters"] for q in queries), queries
