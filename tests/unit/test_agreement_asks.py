"""Agreement-scoped asks: an approval's end without its supplier, thresholds named by an agreement, clauses."""

from __future__ import annotations

import pytest

from router.approval_validity import approval_unnamed


@pytest.mark.parametrize("text", [
    "When does the approval expire?",
    "until when does this approval run?",
    "what is the expiry date of the vendor approval?",
    "When will their authorisation lapse?",
    "Wann endet die Freigabe? valid until?",
])
def test_one_approval_without_supplier_is_asked_back(text: str) -> None:
    assert approval_unnamed(text, ())


@pytest.mark.parametrize("text,suppliers", [
    ("When does the approval expire?", ("SUP-07",)),           # a supplier is named
    ("until when do the approvals of Company B run?", ()),      # the list of approvals, each with its end
    ("When does the agreement expire?", ()),                    # no approval asked
    ("How many approvals does Company A have?", ()),
])
def test_not_an_unnamed_approval(text: str, suppliers: tuple[str, ...]) -> None:
    assert not approval_unnamed(text, suppliers)


# -- an amount bound described as a document's limit (router/stated_limits.py) -----------------------------------
from router.stated_limits import read_stated_limits  # noqa: E402

AMOUNTS = ("EUR 25,000", "€10k", "15.000 €", "1,50,000.00 INR", "7.5k USD", "CHF 40'000", "2 lakh")
DESCRIBED = (
    ("the {a} dual-signature threshold", "dual-signature threshold"),
    ("{a} (the two-signatory limit in the packaging agreement)", "the two-signatory limit in the packaging agreement"),
    ("{a} - the approval limit of our policy -", "the approval limit of our policy"),
    ("the {a} signing limit set by the framework contract", "signing limit set by the framework contract"),
    ("{a} (Freigabegrenze laut Vertrag)", "Freigabegrenze laut Vertrag"),
    ("the {a} seuil", "seuil"),
)


@pytest.mark.parametrize("amount", AMOUNTS)
@pytest.mark.parametrize("described,description", DESCRIBED)
@pytest.mark.parametrize("comparator", ("above", "over", "exceeding", "über"))
def test_described_limit_is_the_amount(amount: str, described: str, description: str, comparator: str) -> None:
    text = f"Orbis invoices {comparator} {described.format(a=amount)} in Q3 2025?"
    read = read_stated_limits(text)
    assert read is not None
    assert read.text == f"Orbis invoices {comparator} {amount} in Q3 2025?"
    assert read.descriptions == (description,)


@pytest.mark.parametrize("text", [
    "What is the dual-signature threshold in the Company C agreement?",  # the limit itself asked
    "Is EUR 25,000 the signing limit of the packaging agreement?",       # no bound on invoices
    "invoices over 10k for Beta in March",                               # no description
    "invoices above 2025 limits",                                        # a year, not an amount
])
def test_no_described_limit(text: str) -> None:
    assert read_stated_limits(text) is None


# -- clause questions: the effective date, a topic's complement (router/agreement_clauses.py) ---------------------
from tests.unit.test_router_analysis import routed  # noqa: E402


def _search_query(question: str) -> str:
    result = routed(question)
    assert not result.requires_clarification, (question, result.clarification_question)
    assert result.workflow == "document_answer", result.rule_hits
    return str(next(s for s in result.execution_plan if s.tool == "documents.search").arguments["query_text"])


@pytest.mark.parametrize("question,complement", [
    ("Company A supply agreement - warranty period from acceptance?", "acceptance"),
    ("Company B contract: warranty term from handover?", "handover"),
    ("warranty from commissioning in the framework agmt of Company A?", "commissioning"),
])
def test_topic_complement_is_searched_not_asked(question: str, complement: str) -> None:
    query = _search_query(question)
    assert complement in query.split()


@pytest.mark.parametrize("question", [
    "Effective date of the Company A framework purchasing agmt?",
    "Company B agreement: commencement date?",
    "Inkrafttreten des Rahmenvertrags von Company A?",
    "date of effect of Company B's contract, please confirm",
])
def test_effective_date_is_a_clause(question: str) -> None:
    assert "Effective" in _search_query(question).split()


def test_an_unknown_name_beside_a_clause_is_still_asked() -> None:
    result = routed("Company A agreement with Zorblax - warranty period?")
    assert result.requires_clarification and "Zorblax" in (result.clarification_question or "")


# -- an agreement named by its subject, its owner before it (router/agreement_subject.py) -------------------------
from router.agreement_subject import agreement_by_subject  # noqa: E402

GROUPS = ("Packaging", "Lab Equipment", "Office Supplies")


@pytest.mark.parametrize("owner", ("", "Kestrel ", "Company B ", "our "))
@pytest.mark.parametrize("group", GROUPS)
@pytest.mark.parametrize("frame,kept", [
    ("Approved vendors under the {o}{g} agreement as at today?",
     "Approved vendors under the {o}agreement as at today?"),
    ("spend with vendors outside the {o}{g} agreement's approved list in 2025",
     "spend with vendors outside the {o}agreement's approved list in 2025"),
    ("who is approved per the {o}{g} supply contract?", "who is approved per the {o}supply contract?"),
])
def test_subject_of_an_agreement_is_no_group_filter(owner: str, group: str, frame: str, kept: str) -> None:
    if owner == "our ":
        text, expected = frame.replace("the {o}", "our "), kept.replace("the {o}", "our ")
        read = agreement_by_subject(text.format(g=group), GROUPS)
        assert read is not None and read.text == expected and read.subject == group
        return
    read = agreement_by_subject(frame.format(o=owner, g=group), GROUPS)
    assert read is not None
    assert read.text == kept.format(o=owner)
    assert read.subject == group


@pytest.mark.parametrize("text", [
    "Approved packaging vendors of Kestrel under its agreement?",         # the group is the list's filter
    "warranty period in the packaging agreement of Kestrel?",             # a clause, no approved list
    "Approved vendors under the Kestrel agreement?",                      # no group subject
])
def test_group_kept_where_it_is_no_agreement_subject(text: str) -> None:
    assert agreement_by_subject(text, GROUPS) is None


# -- an agreement named by its number in prose (retrieval/documents.py) -------------------------------------------
from retrieval.documents import spelled_document_ids  # noqa: E402


@pytest.mark.parametrize("text,expected", [
    ("open the 2024-10 frame agreement - warranty clause?", ("agreement-2024-10",)),
    ("the 2023-07 master supply contract, effective date?", ("agreement-2023-07",)),
    ("effective date of the framework agmt (doc 2026-04)?", ("agreement-2026-04",)),
    ("agmt no. 2025-11: notice period", ("agreement-2025-11",)),
    ("document #2025-09 payment terms", ("agreement-2025-09",)),
    ("spend in 2025-10 under the agreement", ()),            # a month, then a preposition
    ("doc 2026-0148 amount", ()),                              # a longer number: no agreement id shape
    ("invoices of 2025-10 and the agreement", ()),
    # a month modifying the noun in a figure question is the figure's period, never a document lookup
    ("Company A 2025-10 contract spend", ()),
    ("total spend of Company A in 2025-10 agreement suppliers only", ()),
    ("how much did we pay on the 2025-10 contract?", ()),
    ("in 2025-10 contract clauses changed?", ()),                 # a preposition before the number: a month
    ("2025-10 supply contract", ()),                              # no document asked for: left to the period reader
    ("show the 2025-10 supply contract", ("agreement-2025-10",)),
])
def test_agreement_number_in_prose(text: str, expected: tuple[str, ...]) -> None:
    assert spelled_document_ids(text) == expected
