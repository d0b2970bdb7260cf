"""The words around a question (no database): conversational preambles are consumed, all-companies scope words,
supplier names as typed, shortened company names, purchase lists and a supplier named by its product read as the
plain question; the pairs of ``evaluation/probes_wrappers.py`` (training seed) route to identical plans."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest

from evaluation.probes_wrappers import ALL_COMPANIES, WRAPPERS, Pair, pairs, typos
from procura.db.session import AuthContext
from retrieval.documents import spelled_document_ids
from router.entities import Company, Gazetteer, Product, ProductGroup, find_mentions
from router.listings import read_purchase_listing
from router.preamble import strip_preamble
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from tests.unit.shipped import shipped_registry

AS_OF = dt.date(2026, 5, 15)
GAZETTEER = Gazetteer(
    **{**Gazetteer.build(
        [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
         Company("COMP-C", "Company C", "EUR")],
        [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma")],
        [("Beta Supplies GmbH", "SUP-18"), ("Gamma Control Systems AG", "SUP-27"), ("Gamma Controls", "SUP-27")],
        [ProductGroup("PG-MON", "Monitoring Products"), ProductGroup("PG-SENS", "Sensors", "PG-MON"),
         ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS"), ProductGroup("PG-CTRL", "Control Equipment"),
         ProductGroup("PG-CMOD", "Control Modules", "PG-CTRL")],
        [], [Product("PRD-491", "PT100 temperature probe"), Product("PRD-625", "Control module CM-2")],
    ).__dict__, "product_suppliers": {"PRD-491": frozenset({"SUP-18"}), "PRD-625": frozenset({"SUP-27"})}},
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="wrappers", scopes=frozenset({"invoice:aggregate",
                                                                                  "procurement:read"}))
METRICS = catalog_metrics(shipped_registry())
#: Known-good questions every preamble is put in front of.
PLAIN = ("Company A spend with Supplier Beta in Q1 2026", "Top 3 suppliers of Company B in March 2026",
         "How many invoices did Company C get from Gamma Controls in H2 2025?",
         "Spend with Supplier Gamma in Q1 2026, all companies together",
         "Which vendors were approved for Company A on 1 Feb 2026?",
         "What are the payment terms in agreement-2025-09?")


def _plan(question: str) -> tuple[Any, ...]:
    r = route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS))
    steps = [(s.tool, json.dumps(s.arguments, sort_keys=True, default=str)) for s in r.execution_plan]
    return r.requires_clarification, r.clarification_question, r.workflow, tuple(steps)


# --- preambles ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_every_preamble_is_consumed(wrapper: str) -> None:
    for plain in PLAIN:
        assert strip_preamble(wrapper + plain) == plain


@pytest.mark.parametrize("text", [
    "Audit: which rights does agreement-2025-09 give?",  # a meta noun alone is a topic
    "For our board deck, spend in Q1 2026",  # "our" is a scope word: never consumed
    "Company A, Q1 2026: spend?", "Supplier Beta - spend in Q1 2026", "Q1 2026: Company A spend",
    "Hi",  # nothing after the preamble: the question itself
])
def test_a_clause_with_content_is_never_consumed(text: str) -> None:
    assert strip_preamble(text) == text


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_a_preamble_never_changes_the_plan(wrapper: str) -> None:
    for plain in PLAIN[:4]:
        assert _plan(wrapper + plain) == _plan(plain), wrapper + plain


# --- names as typed -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("short,company_id", [("Co. A", "COMP-A"), ("Co A", "COMP-A"), ("Comp B", "COMP-B"),
                                              ("Co C", "COMP-C"), ("co. c", "COMP-C")])
def test_shortened_company_words(short: str, company_id: str) -> None:
    mentions = find_mentions(f"{short}'s spend in Q1 2026", GAZETTEER)
    assert [m.candidates for m in mentions.companies] == [(company_id,)]


@pytest.mark.parametrize("scope", ALL_COMPANIES)
def test_all_companies_scope_words(scope: str) -> None:
    plan = _plan(f"Spend with Supplier Beta in Q1 2026{scope}")
    assert not plan[0], plan
    assert plan == _plan("Spend with Supplier Beta in Q1 2026, across all companies")


@pytest.mark.parametrize("word,supplier_id", [("Beta Supplies", "SUP-18"), ("Gamma Controls", "SUP-27")])
def test_every_typo_of_a_supplier_word_keeps_the_supplier(word: str, supplier_id: str) -> None:
    first, second = word.split()
    for typo in typos(second, ("swap", "double", "substitute")):
        mentions = find_mentions(f"Company A spend with {first} {typo} in Q1 2026", GAZETTEER, figure=True)
        assert [m.resolved for m in mentions.suppliers] == [supplier_id], typo


# --- purchase lists, suppliers by their products, documents by name ------------------------------------------------
@pytest.mark.parametrize("question,read", [
    ("which products did Alpenland actually buy from BETA TRADING in Aug 2025?",
     "spend of Alpenland with BETA TRADING in Aug 2025, by product"),
    ("Which suppliers did Co C buy control modules from in the first quarter of 2026?",
     "spend of Co C on control modules in the first quarter of 2026, by supplier"),
    ("Which product groups did Company B buy from Supplier Gamma in Q1 2026?",
     "spend of Company B with Supplier Gamma in Q1 2026, by product group"),
])
def test_purchase_lists_are_spend_breakdowns(question: str, read: str) -> None:
    assert read_purchase_listing(question) == read


@pytest.mark.parametrize("question", ["Which products does Supplier Beta supply?",
                                      "Which products are in the Sensors group?", "What did we spend in Q1 2026?",
                                      "Which suppliers are approved for Company A?"])
def test_catalogue_and_figure_questions_are_no_purchase_lists(question: str) -> None:
    assert read_purchase_listing(question) is None


def test_spelled_document_ids() -> None:
    assert spelled_document_ids("Agreement 2024-03 of Xenon Pharma: payment terms?") == ("agreement-2024-03",)
    assert spelled_document_ids("Show me the manual for PRD-710") == ("manual-prd-710",)
    assert spelled_document_ids("spend under the agreement in 2025-10") == ()


# --- the generated pairs route to one plan --------------------------------------------------------------------------
@pytest.mark.parametrize("pair", pairs(31, 10), ids=lambda p: f"{p.klass}:{p.question[:50]}")
def test_generated_pairs_route_to_the_plain_plan(pair: Pair) -> None:
    plain = _plan(pair.plain)
    assert not plain[0], (pair.plain, plain[1])
    assert _plan(pair.question) == plain, pair.question


# --- documents around an amendment: the date the question names, whatever the as-of date ----------------------------
def _amendment_dates(seed: int, n: int) -> list[tuple[str, dt.date]]:
    """Seeded (question, date) pairs on both sides of an amendment (effective 2026-03-15), as-of later."""
    import random

    rng = random.Random(seed)
    spellings = ("on {d:%d} {d:%B} {d:%Y}", "on {d:%Y-%m-%d}", "on {d:%B} {d.day}, {d:%Y}", "as of {d:%d %b %Y}")
    frames = ("What were the payment terms in the Company B framework agreement {when}? I know it was amended since",
              "What termination notice applied in Company B's framework agreement {when}?",
              "Which warranty period did the Company B agreement give {when}?")
    out = []
    for _ in range(n):
        day = dt.date(2026, 3, 15) + dt.timedelta(days=rng.randint(-40, 40))
        question = rng.choice(frames).format(when=rng.choice(spellings).format(d=day))
        out.append((rng.choice(("", *WRAPPERS)) + question, day))
    return out


@pytest.mark.parametrize(("question", "day"), _amendment_dates(31, 16), ids=lambda v: str(v)[:60])
def test_a_named_day_dates_the_documents_before_and_after_an_amendment(question: str, day: dt.date) -> None:
    from router.service import evidence_date
    from tests.unit.test_router_analysis import AS_OF as LATER
    from tests.unit.test_router_analysis import CTX as CTX_B
    from tests.unit.test_router_analysis import GAZETTEER as GAZ_B
    from tests.unit.test_router_analysis import METRICS as METRICS_B

    routing = route(question, RouterInputs(ctx=CTX_B, as_of=LATER, gazetteer=GAZ_B, metrics=METRICS_B))
    assert not routing.requires_clarification, (question, routing.clarification_question)
    assert evidence_date(routing, LATER) == day, question


# --- trailing clauses of courtesy and purpose, approvals as of today ---------------------------------------------
PURPOSES = (", please - needed for the accrual check", " - thanks", ", for the month-end close please",
            "; need it for the reconciliation, thanks", ", please")


@pytest.mark.parametrize("purpose", PURPOSES)
def test_a_trailing_purpose_clause_changes_no_plan(purpose: str) -> None:
    for plain in PLAIN[:4]:
        assert _plan(plain.rstrip("?") + purpose + ("?" if plain.endswith("?") else "")) == _plan(plain)


@pytest.mark.parametrize("tail", (", accruals", ", accrual basis", ", for all"))
def test_a_trailing_clause_with_a_constraint_word_is_kept(tail: str) -> None:
    assert strip_preamble("Company A spend in Q1 2026" + tail) == "Company A spend in Q1 2026" + tail


@pytest.mark.parametrize("company", ("Company A", "Company B", "Company C"))
@pytest.mark.parametrize("now", ("(as of today)", "as of today", "currently", "right now"))
@pytest.mark.parametrize("period", ("Q2 2026", "June 2026"))
def test_approved_vendors_as_of_today_are_asked_on_the_as_of_date(company: str, now: str, period: str) -> None:
    _, _, workflow, steps = _plan(f"Which vendors are approved for {company} in {period} {now}?")
    args = json.loads(next(a for tool, a in steps if tool == "graph.find_approved_vendors"))
    assert workflow == "approved_vendors"
    assert (args["start_date"], args["end_date"]) == ("2026-05-15", "2026-05-16")
    for other in ("", " (for the audit file, not for today)", " - not as of today"):
        _, _, _, steps = _plan(f"Which vendors are approved for {company} in {period}{other}?")
        args = json.loads(next(a for tool, a in steps if tool == "graph.find_approved_vendors"))
        assert args["start_date"] != "2026-05-15", other


@pytest.mark.parametrize("company", ("Company A", "Company B: "))
@pytest.mark.parametrize(("status", "statuses"), (("open", ["posted"]), ("unpaid", ["posted"]), ("paid", ["paid"])))
@pytest.mark.parametrize(("month", "start"), (("April", "2026-04-01"), ("March 2026", "2026-03-01"),
                                              ("May", "2026-05-01")))
def test_invoices_dated_a_month_are_listed_and_their_total_is_a_figure(company: str, status: str,
                                                                     statuses: list[str], month: str,
                                                                     start: str) -> None:
    question = f"{company} {status} invoices dated {month}"
    clarify, _, workflow, steps = _plan(question)
    args = json.loads(steps[0][1])
    assert not clarify and workflow == "status_documents", (question, workflow)
    assert (args["parameters"]["start_date"], args["parameters"]["invoice_statuses"]) == (start, statuses)
    _, _, workflow, _ = _plan(f"Total of {question}")
    assert workflow == "spend"
