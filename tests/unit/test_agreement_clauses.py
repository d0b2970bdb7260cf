"""Clause questions about a company's agreement (no database): every company, clause topic (English and German
words, compounds such as "Produkthaftpflicht" and "Festpreise"), document word (an agreement named by its kind or
subject: "framework agreement", "Vertrag", "Verpackungsvertrag", "Laborvertrag", an amendment) and date read to
one search inside that company's agreements, dated on the day named, ranked by the topic's English words; a figure,
a listing or an unknown name is never read as one (class: agreement and manual documents, router/agreement_clauses).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from router.agreement_clauses import clause_topics
from tests.unit.test_router_analysis import routed

COMPANIES = (("Company A", "COMP-A"), ("Company B", "COMP-B"))
#: (topic label, the English words the search must hold, phrasings with {doc} and {co})
TOPICS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("payment terms", "payment", (
        "Which payment term applied to {co}'s supplier invoices under its {doc}{date}?",
        "Zahlungsziel im {doc} von {co}{date}?", "{co} {doc}: Zahlungsbedingungen{date}")),
    ("warranty", "warranty", (
        "was stand im {doc} von {co}{date} zur Gewährleistung?", "warranty period in {co}'s {doc}{date}",
        "Gewährleistung im {doc} von {co}{date}?")),
    ("liability and insurance", "insurance", (
        "Mindestdeckung Produkthaftpflicht im {doc} {co}{date}?", "{co} {doc}: minimum insurance cover{date}?")),
    ("price adjustments", "fixed", (
        "Wie lange gelten die Festpreise im {doc} von {co}{date}?", "How long are prices fixed under {co}'s {doc}?")),
    ("term of the agreement", "runs", ("Laufzeit {doc} {co}{date}?",)),
    ("notice period", "notice", ("Kündigungsfrist im {doc} von {co}{date}?",)),
    ("currency conversion", "converted", (
        "How are invoices in a currency other than EUR to be converted under {co}'s {doc}? Please quote the clause.",
    )),
)
DOCS_EN = ("agreement", "framework agreement", "purchasing agreement", "contract")
DOCS_DE = ("Vertrag", "Rahmenvertrag", "Verpackungsvertrag", "Laborvertrag")
DATES = (("", None), (" as at 10 April 2026", "2026-04-10"), (" am 1. März 2026", "2026-03-01"),
         (" on 2026-02-15", "2026-02-15"))


def _cases() -> list[tuple[str, str, str, str, str | None]]:
    out = []
    for (label, word, phrasings), (name, cid) in itertools.product(TOPICS, COMPANIES):
        for i, phrasing in enumerate(phrasings):
            german = any(w in phrasing for w in ("im ", "von ", "Laufzeit", "Zahlungs", "Kündigung", "Mindest"))
            docs = DOCS_DE if german else DOCS_EN
            doc = docs[(i + len(name)) % len(docs)]
            for date, iso in DATES[: 2 if "{date}" in phrasing else 1]:
                date_text = date if not german or not date else (" am 1. März 2026")
                date_iso = iso if not german or not date else "2026-03-01"
                out.append((phrasing.format(doc=doc, co=name, date=date_text), cid, label, word, date_iso))
    return out


def _search(result: Any) -> dict[str, Any]:
    steps = [s for s in result.execution_plan if s.tool == "documents.search"]
    assert len(steps) == 1, result
    return dict(steps[0].arguments)


@pytest.mark.parametrize(("question", "company", "label", "word", "day"), _cases())
def test_clause_question_searches_the_companys_agreement(question: str, company: str, label: str, word: str,
                                                         day: str | None) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.workflow == "document_answer"
    assert any(h.startswith("agreement_clause:") and label in h for h in result.rule_hits), result.rule_hits
    args = _search(result)
    assert args["filters"]["company_ids"] == [company]
    assert args["filters"]["document_types"] == ["agreement"]
    assert args["filters"].get("valid_at") == day  # no day named: the service dates it on the as-of date
    assert word in args["query_text"].split()


@pytest.mark.parametrize("question", [
    "What does Amendment No. 1 to Company B's agreement change regarding approved vendors?",
    "ab wann ist Iota bei Company A freigegeben laut Nachtrag?",
    "Was ändert der Nachtrag zum Vertrag von Company B?",
])
def test_amendment_questions_search_the_amendment(question: str) -> None:
    result = routed(question)
    assert result.workflow == "document_answer", result.clarification_question
    args = _search(result)
    assert "amendment" in args["query_text"].split()
    if "Iota" in question:
        assert "Iota" in args["query_text"] and "effective" in args["query_text"]


@pytest.mark.parametrize("question", [
    "Company A spend in Q1 2026",
    "How many invoices did Company B receive in March 2026 under its framework agreement?",
    "Which Company A invoices are overdue as at 15 May 2026 under the payment terms of its agreement?",
    "Total spend with Beta under Company A's agreement in 2026-Q1",
    "Company A top 3 suppliers in Q1 2026 under the agreement",
    "calibration interval for PRD-482 per the manual",
    "What are the payment terms in agreement-2025-09?",
])
def test_figures_listings_and_named_documents_are_not_clause_questions(question: str) -> None:
    result = routed(question)
    assert not any(h.startswith("agreement_clause:") for h in result.rule_hits), (question, result.rule_hits)


def test_an_unknown_name_is_asked_about_not_dropped() -> None:
    result = routed("Gewährleistung im Vertrag von Company B mit Zorblax Kabeltechnik?")
    assert result.requires_clarification
    assert "Zorblax" in (result.clarification_question or "")


@pytest.mark.parametrize(("text", "labels"), [
    ("Mindestdeckung Produkthaftpflicht", ["liability and insurance"]),
    ("Festpreise", ["price adjustments"]), ("Preisanpassung", ["price adjustments"]),
    ("Zahlungsziel", ["payment terms"]), ("Lieferbedingungen", ["delivery terms"]),
    ("Kündigungsfrist", ["notice period"]), ("Laufzeit", ["term of the agreement"]),
    ("Gewährleistung", ["warranty"]), ("Versicherung", ["liability and insurance"]),
    ("Vertragsstrafe", ["liquidated damages"]), ("freigegeben", ["approval"]),
])
def test_german_clause_words(text: str, labels: list[str]) -> None:
    assert [t.label for t in clause_topics(text)] == labels


@pytest.mark.parametrize(("question", "company", "words"), [
    ("Which document evidences that Supplier Delta's approval for Company A is limited to the 2026 retrofit?",
     "COMP-A", ("Delta", "retrofit", "approval")),
    ("Which clause shows that Beta's approval for Company B ends on 2026-10-01?", "COMP-B", ("Beta", "approval")),
    ("Please quote where Company A's agreement says Gamma is approved for control modules", "COMP-A",
     ("Gamma", "approved")),
])
def test_evidence_questions_quote_the_clause(question: str, company: str, words: tuple[str, ...]) -> None:
    result = routed(question)
    assert result.workflow == "document_answer", (question, result.rule_hits, result.clarification_question)
    args = _search(result)
    assert args["filters"]["company_ids"] == [company]
    for word in words:
        assert word in args["query_text"].split(), (word, args["query_text"])


@pytest.mark.parametrize(("question", "label", "day"), [
    ("What was Company B's payment term as at 10 April 2026?", "payment terms", "2026-04-10"),
    ("Kündigungsfrist Company A?", "notice period", None),
    ("Company B warranty period on 2026-03-01", "warranty", "2026-03-01"),
])
def test_a_companys_payment_term_is_its_agreements_clause(question: str, label: str, day: str | None) -> None:
    result = routed(question)
    assert any(h == f"agreement_clause:{label}" for h in result.rule_hits), (question, result.rule_hits)
    assert _search(result)["filters"].get("valid_at") == day


@pytest.mark.parametrize("question", [
    "How long is Delta's approval valid for Company A?", "Which vendors are approved for Company A?",
    "Company B: approved suppliers as at 10 April 2026",
])
def test_approval_lists_stay_the_graphs(question: str) -> None:
    assert not any(h.startswith("agreement_clause:") for h in routed(question).rule_hits)


@pytest.mark.parametrize(("co", "date"), [("Company A", "10 April 2026"), ("Company B", "2026-03-01")])
def test_a_clause_beside_an_approved_list_is_an_ask_of_its_own(co: str, date: str) -> None:
    from router.compound import split_asks
    from router.reader import read
    from tests.unit.test_router_analysis import AS_OF, GAZETTEER

    question = f"What was {co}'s payment term as at {date}, and which vendors were approved for it on that date?"
    parts = split_asks(question, lambda t: read(t, GAZETTEER, AS_OF))
    assert len(parts) == 2, parts
    assert any(h.startswith("agreement_clause:payment terms") for h in routed(parts[0].question).rule_hits)
    assert routed(parts[1].question).workflow == "approved_vendors"


@pytest.mark.parametrize("question", [
    "Based on the agreement as in force today, which suppliers will be approved vendors of Company B on 1 June 2026?",
    "Which vendors are approved under Company A's framework agreement?",
    "welche Lieferanten sind laut Vertrag für Company B freigegeben?",
    "Who is approved in Company A's agreement as at 2026-03-01?",
])
def test_approved_vendor_listings_under_an_agreement_stay_the_graphs(question: str) -> None:
    assert not any(h.startswith("agreement_clause:") for h in routed(question).rule_hits), question


def test_a_period_dates_the_passages_on_its_last_day() -> None:
    import datetime as dt

    from router.service import evidence_date

    result = routed("Company B warranty period under its agreement in March 2026")
    assert _search(result)["filters"].get("valid_at") is None
    assert evidence_date(result, dt.date(2026, 5, 15)) == dt.date(2026, 3, 31)


@pytest.mark.parametrize("question", [
    "Welche Frist gilt für Preisanpassungen im Vertrag mit Company B?",
    "Welche Regelung zur Haftung steht im Rahmenvertrag von Company A?",
])
def test_german_clause_nouns_are_read(question: str) -> None:
    result = routed(question)
    assert result.workflow == "document_answer", (question, result.clarification_question)


@pytest.mark.parametrize("question", [
    "approved vendors Company B as of today (incl. the amendment)",
    "approved vendors Company B for Q2 2026 — after amendment no. 1",
    "welche Lieferanten sind nach dem Nachtrag für Company A freigegeben?",
])
def test_approved_vendors_after_an_amendment_stay_the_graphs(question: str) -> None:
    assert not any(h.startswith("agreement_clause:") for h in routed(question).rule_hits), question


@pytest.mark.parametrize(("question", "label"), [
    ("Warranty period in the Cold Chain Equipment Agreement of Company A?", "warranty"),
    ("Notice period in the Laboratory Supply Agreement of Company B?", "notice period"),
    ("Approval threshold for orders in the Company B framework agreement?", "signatories"),
    ("Freigabegrenze für Bestellungen im Vertrag von Company A?", "signatories"),
])
def test_agreement_titles_and_signing_thresholds(question: str, label: str) -> None:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.rule_hits == (f"agreement_clause:{label}",), result.rule_hits


@pytest.mark.parametrize("question", [
    "Which agreement approves Supplier Beta as a vendor of Company A?",
    "Is Delta approved under Company A's framework agreement?",
])
def test_which_agreement_approves_is_the_graphs(question: str) -> None:
    assert routed(question).workflow == "approved_vendors", question
