"""AP invoice lists with their total and count (router/list_totals.py), varied over their slots (no database).

The scope slots (company, supplier, period, status, invoice currency, "all companies") and the ask slots (list /
total / count / spend words, English and foreign, in any order and joined by any coordinator) are generated here;
every generated question must read to the same scope (every slot kept, no ask word left in it) and the asks in the
order written. Questions that ask one thing of the invoices stay with their own readers.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.list_totals import list_total_parts, per_status_count, read_list_total
from router.reading import parse_amounts

FAST = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))

_COMPANIES = ("Company A", "co b", "Alpenland", "kestrel", "Xenon Pharma AG", "comp C")
_SUPPLIERS = ("", "Northwind", "Beta Supplies", "Orbis Packaging", "Gamma Controls")
_PERIODS = ("Q1 2026", "Feb 2026", "H2 2025", "Q4/25", "March 26", "FY25", "2025-11")
_STATUSES = ("", "paid", "open (posted)", "posted (not paid)", "unpaid")
_CURRENCIES = ("", "USD", "GBP", "CHF")
_LIST = ("list", "nos", "nos.", "invoice numbers", "show", "itemised", "Liste", "liste", "elenco", "lista")
_TOTAL = ("total", "sum", "gross total", "EUR total", "total eur", "grand total", "Summe", "somme", "totale", "soma")
_COUNT = ("#", "count", "how many", "no. of", "number of", "Anzahl", "combien")
_JOIN = (" + ", " & ", " and ", ", ", " with ", " plus ", " und ", " et ")
_LEAD = (" - ", ", ", ": ", " -> ", " ")


def _scope(company: str, supplier: str, period: str, status: str, currency: str) -> str:
    words = [w for w in (status, supplier, currency, "invoices", company, period) if w]
    return " ".join(words)


def _slots_kept(scope: str, *slots: str) -> None:
    for slot in slots:
        if slot:
            assert slot.lower() in scope.lower(), (slot, scope)


@given(company=st.sampled_from(_COMPANIES), supplier=st.sampled_from(_SUPPLIERS), period=st.sampled_from(_PERIODS),
       status=st.sampled_from(_STATUSES), currency=st.sampled_from(_CURRENCIES), lead=st.sampled_from(_LEAD),
       listed=st.sampled_from(_LIST), total=st.sampled_from(_TOTAL), join=st.sampled_from(_JOIN),
       total_first=st.booleans())
@FAST
def test_a_list_and_its_total_keep_every_slot_of_the_scope(company: str, supplier: str, period: str, status: str,
                                                           currency: str, lead: str, listed: str, total: str,
                                                           join: str, total_first: bool) -> None:
    scope = _scope(company, supplier, period, status, currency)
    asks = f"{total}{join}{listed}" if total_first else f"{listed}{join}{total}"
    question = f"{scope}{lead}{asks}"
    reading = read_list_total(question)
    assert reading is not None, question
    assert reading.asks == (("total", "list") if total_first else ("list", "total")), question
    _slots_kept(reading.scope, company, supplier, period, status, currency)
    # no ask word survives in the scope: every part is asked over the same documents only
    assert not re.search(r"\b(?:list|nos|sum|summe|somme|totale?|soma|liste|elenco|lista|show|itemised)\b",
                         reading.scope, re.I), (question, reading.scope)
    parts = list_total_parts(question)
    total_part = next(p.question for p in parts if p.question.startswith("total of"))
    # the total of a listing of invoices is over the invoices listed: credit notes left out, every slot kept
    assert total_part.endswith("credit notes excluded")
    _slots_kept(total_part, company, supplier, period, status, currency)
    assert any(p.question == f"list {reading.scope}" for p in parts)


@given(company=st.sampled_from(_COMPANIES), supplier=st.sampled_from(_SUPPLIERS), period=st.sampled_from(_PERIODS),
       status=st.sampled_from(_STATUSES), join=st.sampled_from((" + ", " & ", " and ", " with ", " plus ")),
       total=st.sampled_from(("total", "sum", "gross total", "the total", "their total", "total gross")))
@FAST
def test_the_noun_phrase_beside_a_total_is_the_list(company: str, supplier: str, period: str, status: str,
                                                    join: str, total: str) -> None:
    """"X invoices + total": the invoices named as an item of their own are asked themselves (the list)."""
    question = f"{_scope(company, supplier, period, status, '')}{join}{total}"
    reading = read_list_total(question)
    assert reading is not None and reading.asks == ("list", "total"), question
    _slots_kept(reading.scope, company, supplier, period, status)


@given(company=st.sampled_from(_COMPANIES), supplier=st.sampled_from(_SUPPLIERS[1:]), period=st.sampled_from(_PERIODS),
       count=st.sampled_from(_COUNT), join=st.sampled_from((", and ", " + ", " & ", " and ", " - ")))
@FAST
def test_spend_and_the_invoice_count_share_the_supplier(company: str, supplier: str, period: str, count: str,
                                                        join: str) -> None:
    """"X - Y spend Q1, and # of invoices": the count is of the same supplier's invoices, never the company's."""
    question = f"{company} - {supplier} spend {period}{join}{count} invoices"
    parts = list_total_parts(question)
    assert [p.question.split()[:2] for p in parts] == [["spend", company.split()[0]], ["how", "many"]], question
    for part in parts:
        _slots_kept(part.question, company, supplier, period)
    assert parts[0].question.startswith("spend ") and "invoices" not in parts[0].question


@pytest.mark.parametrize("question", [
    "Company A invoices in March 2026 - total?",
    "How many Company A invoices in March 2026?",
    "list Company A invoices in Q1 2026",
    "Company A paid invoices in March 2026?",
    "list Company A invoices above 5,000 EUR in Q1 2026 and their total",
    "top 3 suppliers by spend Company A Q1 2026 and their invoices",
    "Company A spend Q1 2026 vs Q4 2025 and # invoices",
    "Company A average invoice value 2025 and number of invoices",
    "total spend Company A Q1 2026",
])
def test_one_ask_or_another_question_is_not_a_list_total(question: str) -> None:
    assert list_total_parts(question) == ()


@pytest.mark.parametrize("noun, canonical", [("Rechnungen", "invoices"), ("fatture", "invoices"),
                                             ("factures", "invoices"), ("bills", "invoices"),
                                             ("credit notes", "credit notes"), ("Gutschriften", "credit notes")])
def test_foreign_document_nouns_are_asked_in_the_readers_words(noun: str, canonical: str) -> None:
    reading = read_list_total(f"Company B {noun} Q1 2026 - list + total")
    assert reading is not None and reading.noun == canonical
    assert canonical in reading.scope and (noun == canonical or noun not in reading.scope)
    total = next(p.question for p in part_parts(reading))
    assert total.startswith("total of") and (total.endswith("credit notes excluded") == (canonical == "invoices"))


def part_parts(reading: object) -> list[object]:
    from router.list_totals import part_questions

    return [p for p in part_questions(reading) if p.question.startswith("total")]  # type: ignore[arg-type]


def test_the_net_total_keeps_its_basis() -> None:
    parts = list_total_parts("Company A paid invoices Q1 2026: list and net total")
    assert [p.question for p in parts] == ["list Company A paid invoices Q1 2026",
                                           "net total of Company A paid invoices Q1 2026, credit notes excluded"]


@given(company=st.sampled_from(_COMPANIES), period=st.sampled_from(_PERIODS),
       statuses=st.permutations(("draft", "posted", "paid", "cancelled")).map(lambda s: s[:3]),
       sep=st.sampled_from((", ", "/", " / ", " + ", " & ")),
       frame=st.sampled_from(("{c} {p}: how many {s}?", "{c} {p} - # {s}", "{c} {p}: {s} counts",
                              "number of {s} invoices {c} {p}", "{s} count {c} {p}")))
@FAST
def test_several_statuses_counted_are_the_count_per_status(company: str, period: str, statuses: tuple[str, ...],
                                                           sep: str, frame: str) -> None:
    question = frame.format(c=company, p=period, s=sep.join(statuses))
    asked = per_status_count(question)
    assert asked is not None and asked.endswith("how many in each status?"), question
    _slots_kept(asked, company, period)
    assert not any(re.search(rf"\b{s}\b", asked) for s in statuses), asked


@pytest.mark.parametrize("question", ["how many paid invoices Company A Q1 2026", "Company A posted and paid spend",
                                      "Company A Q1 2026 paid / posted total",
                                      # the counted set itself, and one status named three ways: one count
                                      "how many invoices did Company B get in H1 2026 (paid + posted)?",
                                      "# of Company A invoices Q2 2026, posted/paid",
                                      "unpaid (open, posted) invoices of Company B - how many, dated 2025?"])
def test_one_status_or_a_figure_is_no_per_status_count(question: str) -> None:
    assert per_status_count(question) is None


@pytest.mark.parametrize("text", ["list Kestrel Q1/26 GBP invoices", "Company A Q1 2026 USD invoices",
                                  "mar 26 CHF bills Company B", "FY 2025 GBP-invoices"])
def test_a_year_before_an_invoice_currency_is_no_amount(text: str) -> None:
    assert parse_amounts(text) == ()


@pytest.mark.parametrize("text, value", [("invoices over 26 GBP", "26"), ("list 26 GBP invoices", "26"),
                                         ("invoices of 500 GBP", "500")])
def test_amounts_with_a_currency_stay_amounts(text: str, value: str) -> None:
    assert [str(a.value) for a in parse_amounts(text)] == [value]


@given(company=st.sampled_from(_COMPANIES), period=st.sampled_from(_PERIODS),
       codes=st.permutations(("USD", "GBP", "CHF")).map(lambda c: c[:2]),
       sep=st.sampled_from(("+", " or ", "/", " and ", ", ")),
       frame=st.sampled_from(("how many non-EUR invoices did {c} book in {p}? ({s})", "# of {s} invoices {c} {p}",
                              "number of invoices in {s} for {c} in {p}", "{c} {p}: how many {s} invoices")))
@FAST
def test_a_count_in_several_invoice_currencies_counts_each_currency(company: str, period: str,
                                                                    codes: tuple[str, ...], sep: str,
                                                                    frame: str) -> None:
    """Every currency named is counted (one governed count each, summed), never one of them alone."""
    question = frame.format(c=company, p=period, s=sep.join(codes))
    parts = list_total_parts(question)
    assert [p.asked for p in parts] == [f"{code} invoices" for code in codes], question
    for part, code in zip(parts, codes, strict=True):
        _slots_kept(part.question, company, period, f"{code} invoices")
        assert not any(other in part.question for other in codes if other != code), part.question
        assert "non-EUR" not in part.question


@pytest.mark.parametrize("question, asked", [
    ("cancelled invoices Alpenland YTD 2026? count", "how many cancelled invoices Alpenland YTD 2026"),
    ("Company B draft invoices in May 2026 - #", "how many Company B draft invoices in May 2026"),
])
def test_a_closing_count_word_is_the_count_of_the_documents_named(question: str, asked: str) -> None:
    assert [p.question for p in list_total_parts(question)] == [asked]


@pytest.mark.parametrize("both", ["(posted + paid)", "(posted & paid)", "posted and paid", "posted/paid"])
def test_both_counted_statuses_keep_the_listing(both: str) -> None:
    tools = [s.tool for s in _routed(f"list Company A invoices in Q1 2026 {both}").execution_plan]
    assert "finance.invoices_above_threshold" in tools, both


@functools.cache
def _inputs() -> object:
    from procura.db.session import AuthContext
    from router.entities import Company, Gazetteer
    from router.reading import catalog_metrics
    from router.routing import RouterInputs
    from semantic.loader import load_registry
    from semantic.schema import load_snapshot

    schema = load_snapshot(Path(__file__).parent / "fixtures" / "semantic" / "schema.json")
    gazetteer = Gazetteer.build([Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
                                [("SUP-18", "Supplier Beta")], [], [])
    ctx = AuthContext(tenant_id="tenant-42", principal_id="k1", scopes=frozenset({"invoice:aggregate"}))
    return RouterInputs(ctx=ctx, as_of=dt.date(2026, 5, 15), gazetteer=gazetteer,
                        metrics=tuple(catalog_metrics(load_registry(schema))))


def _routed(question: str) -> Any:
    from router.routing import route

    return route(question, _inputs())  # type: ignore[arg-type]


@pytest.mark.parametrize("question", [
    "Company B paid invoices Q4 2025: how many? And Company B paid invoices Q4 2025: total in EUR, invoices only?",
    "which invoices did Company A get from Beta in Q1 2026 and what is their total",
    "How many invoices and what total did Company B have with Gamma in 2025?",
])
def test_asks_written_out_or_in_a_sentence_stay_with_their_readers(question: str) -> None:
    assert read_list_total(question) is None


@given(company=st.sampled_from(_COMPANIES), supplier=st.sampled_from(_SUPPLIERS[1:]),
       period=st.sampled_from(_PERIODS), owner=st.sampled_from(("its", "the", "their")))
@FAST
def test_the_invoice_count_of_a_spend_keeps_the_supplier(company: str, supplier: str, period: str,
                                                         owner: str) -> None:
    parts = list_total_parts(f"spend with {supplier} in {period} for {company} and {owner} invoice count")
    assert [p.question.split()[0] for p in parts] == ["spend", "how"]
    for part in parts:
        _slots_kept(part.question, f"with {supplier}", period, company)
        assert " its " not in f" {part.question} " and "count" not in part.question


@pytest.mark.parametrize("abbreviated", ["avg. invoice value", "Avg. invoice value", "avg invoice value"])
def test_an_abbreviation_takes_its_dot(abbreviated: str) -> None:
    from router.contract import clean_question

    assert "average invoice value" in clean_question(f"Company B {abbreviated}, 2025")


# --- review findings (f3) ---------------------------------------------------------------------------------------

_NAMES = ("Company A", "Company B", "Supplier Beta", "Supplier Eta", "Beta Supplies GmbH")


@pytest.mark.parametrize("question", [
    "Company A invoices Q1 2026 net of credit notes - list and total",
    "Supplier Beta invoices Company A Feb 2026 after credit notes: list + sum",
    "paid invoices Company B H2 2025 incl. credit notes - nos. and total",
])
def test_net_of_credit_notes_is_the_netted_scope_never_the_excluded_total(question: str) -> None:
    """"net of credit notes" nets the credit notes in: never "net" (VAT basis) with "credit notes excluded", and
    never a leftover "of credit notes" in the scope (the list part was asked back)."""
    reading = read_list_total(question, _NAMES)
    assert reading is not None
    assert reading.netted and not reading.net
    assert "credit" not in reading.scope.lower(), reading.scope
    parts = {p.asked.rsplit(" - ", 1)[1]: p.question for p in list_total_parts(question, _NAMES)}
    total = next(asked for label, asked in parts.items() if "total" in label)
    assert "excluded" not in total and total.endswith("net of credit notes"), total
    assert any(label == "list" for label in parts)


def test_a_net_amount_is_still_the_net_basis() -> None:
    reading = read_list_total("Company A invoices Q1 2026 - list and net total")
    assert reading is not None and reading.net and not reading.netted


@pytest.mark.parametrize("question", [
    "Supplier Beta invoices Company A Q1 2026 - list and total",
    "Supplier Eta invoices Company B H2 2025 + total",
    "Company A invoices from Supplier Beta Q1 2026: list, sum",
])
def test_a_word_of_a_name_is_no_other_question(question: str) -> None:
    """"Supplier Beta": the word "supplier" inside a tenant's name is no per-supplier question (the list kept)."""
    parts = list_total_parts(question, _NAMES)
    assert [p.asked.rsplit(" - ", 1)[1] for p in parts][:1] == ["list"], parts
    assert all("Supplier" in p.question for p in parts)


@pytest.mark.parametrize("question", [
    "Company A invoices per supplier Q1 2026 - list and total",
    "Supplier Beta invoices above 5000 EUR Company A Q1 2026 - list and total",
])
def test_masking_names_keeps_other_questions_out(question: str) -> None:
    assert list_total_parts(question, _NAMES) == ()


def test_no_document_noun_is_no_reading_and_no_assert() -> None:
    from router.list_totals import NoDocumentNoun, _noun_match

    assert read_list_total("Company A Q1 2026 - list and total", _NAMES) is None
    with pytest.raises(NoDocumentNoun):
        _noun_match("Company A Q1 2026 - list and total")
