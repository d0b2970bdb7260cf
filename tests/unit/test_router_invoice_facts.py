"""Invoice- and credit-note-level questions read without a database: which documents are named, which amount
(gross, net excl. VAT, VAT) or the credit note's original invoice is asked, the period net/VAT shapes, a product
manual's fact as an ask of its own beside a figure, and documents named by their kind. Seeded slot variation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from retrieval.documents import named_with_kind
from router.compound import _segments
from router.invoice_facts import amount_basis, document_numbers

SEEDS = range(40)
NUMBERS = ("INV-2026-0148", "INV-2025-0515", "CN-2026-0009", "CN-2026-0501", "INV-2026-0211")
SPELLINGS = (lambda n: n, lambda n: n.lower(), lambda n: n.replace("-", " ", 1), lambda n: n.replace("-", "_"))
GROSS = ("What's the EUR gross total of {n}?", "Total of {n} incl. VAT?", "How much was {n}?",
         "Amount of {n} including tax", "{n} brutto?", "EUR value of {n}?", "Total of {n}, VAT inclusive")
NET = ("Net amount (excl. VAT) of {n}?", "{n}: value before tax?", "What is the net of {n}?",
       "Betrag von {n} ohne MwSt?", "{n} excluding VAT", "{n} amount w/o tax", "Netto von {n}?")
TAX = ("How much VAT is on {n}?", "VAT amount of {n}", "Tax on {n} in EUR?", "MwSt auf {n}?",
       "Combined VAT on {n} and {m}?", "sales tax of {n}")


@pytest.mark.parametrize("seed", SEEDS)
def test_numbers_and_basis_whatever_the_spelling(seed: int) -> None:
    rng = random.Random(seed)
    n, m = rng.sample(NUMBERS, 2)
    spell = rng.choice(SPELLINGS)
    for frames, basis in ((GROSS, "gross"), (NET, "net"), (TAX, "tax")):
        frame = rng.choice(frames)
        text = frame.format(n=spell(n), m=spell(m))
        assert document_numbers(text)[0] == n, text
        masked = text.replace(spell(n), " ").replace(spell(m), " ")
        assert amount_basis(masked) == basis, text


def test_document_numbers_keep_order_and_drop_non_numbers() -> None:
    assert document_numbers("CN-2026-0500 and CN-2026-0501 vs INV-2026-0503; PRD-482, 2026-03-15") == (
        "CN-2026-0500", "CN-2026-0501", "INV-2026-0503")
    assert document_numbers("spend in 2026-Q1 with SUP-18") == ()


@pytest.mark.parametrize("seed", range(12))
def test_a_manual_fact_beside_a_figure_is_an_ask_of_its_own(seed: int) -> None:
    rng = random.Random(seed)
    code = rng.choice(("PRD-482", "PRD-530", "PRD-710"))
    fact = rng.choice(("Calibration interval for {c}", "What's the maintenance interval of {c}",
                       "Operating temperature range of {c}", "the torque from the {c} manual",
                       "{c} accuracy"))
    figure = rng.choice(("how many {c} did Company A buy in Q1 2026?", "what did Company B spend on {c} last quarter?",
                         "units of {c} bought by Company C in 2025?"))
    question = f"{fact.format(c=code)}, and {figure.format(c=code)}"
    parts = _segments(question)
    assert len(parts) == 2, parts
    assert parts[0] == fact.format(c=code)


def test_a_figure_without_a_manual_fact_stays_one_ask() -> None:
    assert len(_segments("Spend on PRD-482 for Company A in Q1 2026 and by supplier")) == 1


@pytest.mark.parametrize(("text", "ids", "kept"), [
    ("What does service bulletin bulletin-0007 say?", ("bulletin-0007",), ("bulletin-0007",)),
    ("Show document memo-2026-01", ("memo-2026-01",), ("memo-2026-01",)),
    ("the certificate certificate-2031-x, please", ("certificate-2031-x",), ("certificate-2031-x",)),
    ("spend in mid-2026 for Company A", ("mid-2026",), ()),
    ("And what about q1-2026?", ("q1-2026",), ()),
])
def test_documents_named_by_their_kind_are_looked_up(text: str, ids: tuple[str, ...], kept: tuple[str, ...]) -> None:
    assert named_with_kind(text, ids) == kept


def test_a_document_asked_for_itself_keeps_its_passages() -> None:
    from router.invoice_facts import _AMOUNT_WORDS, _NUMBER

    for text in ("pull up INV-2026-0161", "Do we have invoice INV-2026-0777 on file?", "Show me invoice INV-2026-0148",
                 "What's the status of invoice INV-2026-0161?"):
        assert not _AMOUNT_WORDS.search(_NUMBER.sub(" ", text)), text


# --- routed (no database): a number is never the whole answer when it is not the whole question -------------------
def _routed(question: str, companies: list[Any] | None = None) -> Any:
    from router.entities import Company
    from router.routing import RouterInputs, route
    from tests.unit.test_router_analysis import AS_OF, CTX, METRICS
    from tests.unit.test_router_company_sets import GAZETTEERS, _gazetteer

    gazetteer = GAZETTEERS["letters"] if companies is None else _gazetteer([Company(*c) for c in companies])
    return route(question, RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS))


def _params(routed: Any, step: str = "document-amounts") -> dict[str, Any]:
    return next(dict(s.arguments["parameters"]) for s in routed.execution_plan if s.step_id == step)


EXCLUDING = ("without {n}", "excluding {n}", "excluding invoice {n}", "except {n}", "other than {n}",
             "but not {n}", "ohne {n}", "leaving out the invoice {n}", "excl. {n}")
FIGURES = ("Net spend excl. VAT for Company A in Q1 2026 {x}", "VAT for Company B in March 2026 {x}",
           "Company A spend in 2025 {x}", "Total spend with Supplier Gamma in Q4 2025, {x}",
           "What's the net amount (before tax) for Company C last quarter {x}?")


@pytest.mark.parametrize("seed", range(24))
def test_a_number_left_out_of_a_figure_is_asked_about_never_answered_as_its_amount(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([x for x in NUMBERS if x.startswith("INV")])
    spell = rng.choice(SPELLINGS)
    question = rng.choice(FIGURES).format(x=rng.choice(EXCLUDING).format(n=spell(n)))
    routed = _routed(question)
    assert routed.workflow == "clarification", (question, routed.workflow, routed.rule_hits)
    assert n in routed.clarification_question, question


MEMBERSHIP = ("Total spend with Supplier Gamma in Q1 2026, and is {n} in it?",
              "Company A VAT in Q1 2026 - was {n} included?", "Does Company B's Q4 2025 spend include {n}?",
              "What was the gross spend of Company A in 2025 and is {n} part of it?")
BESIDE_A_PERIOD = ("VAT on {n} in Q1 2026", "Net amount of {n} for Company A in March 2026",
                   "Company A total of {n} last quarter", "How much was {n} in 2025, by supplier?")


@pytest.mark.parametrize("seed", range(16))
def test_a_number_beside_a_period_or_a_membership_check_is_asked_about(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice(NUMBERS)
    question = rng.choice(MEMBERSHIP if seed % 2 else BESIDE_A_PERIOD).format(n=rng.choice(SPELLINGS)(n))
    routed = _routed(question)
    assert routed.workflow == "clarification", (question, routed.workflow, routed.rule_hits)
    assert not routed.execution_plan


@pytest.mark.parametrize("seed", range(24))
def test_a_named_documents_amount_alone_is_still_looked_up_in_the_reporting_currency(seed: int) -> None:
    rng = random.Random(seed)
    n, m = rng.sample(NUMBERS, 2)
    frame = rng.choice(GROSS + NET + TAX)
    question = frame.format(n=rng.choice(SPELLINGS)(n), m=m) + rng.choice(("", " (Company A)", " for Company B"))
    routed = _routed(question)
    assert routed.workflow == "document_amounts", (question, routed.workflow, routed.rule_hits)
    assert _params(routed)["reporting_currency"] == "EUR"
    assert _params(routed, "status-documents")["reporting_currency"] == "EUR"
    assert routed.constraints.reporting_currency == "EUR"


# --- period net spend / VAT: every filter carried, or named ------------------------------------------------------
BASES = ("Net spend excl. VAT for {c} in {p}{f}", "VAT for {c} in {p}{f}", "{c}: spend before tax in {p}{f}",
         "How much VAT did {c} pay in {p}{f}?")
COMPANIES = {"Company A": "COMP-A", "Company B": "COMP-B", "Company C": "COMP-C"}
PERIODS_ = ("Q1 2026", "March 2026", "2025", "Q4 2025")
STATUS_FILTERS = ((" on paid invoices", ["paid"]), (" (paid invoices only)", ["paid"]),
                  (" on unpaid invoices", ["posted"]), (" on open invoices", ["posted"]), ("", ["posted", "paid"]))
TYPE_FILTERS = ((" on credit notes", ["credit_note"]), (", invoices only", ["invoice"]),
                (" excluding credit notes", ["invoice"]), ("", None))


@pytest.mark.parametrize("seed", range(30))
def test_period_net_and_vat_carry_statuses_and_document_types(seed: int) -> None:
    rng = random.Random(seed)
    company = rng.choice(sorted(COMPANIES))
    words, expected = rng.choice(STATUS_FILTERS if seed % 2 else TYPE_FILTERS)
    question = rng.choice(BASES).format(c=company, p=rng.choice(PERIODS_), f=words)
    routed = _routed(question)
    if routed.workflow != "document_amounts":
        # another path may take the question; it must then not be a silent plain figure of this module
        assert not any(h.startswith("invoice_facts:period:") and h.count(":") == 3 and routed.execution_plan
                       for h in routed.rule_hits), question
        return
    params = _params(routed, "net-spend")
    assert params == _params(routed, "period-tax")  # the net and the VAT over the same rows
    assert params["company_id"] == COMPANIES[company] and params["reporting_currency"] == "EUR"
    if seed % 2:
        assert sorted(params["invoice_statuses"]) == sorted(expected), (question, params)
        assert list(routed.constraints.invoice_status) == params["invoice_statuses"]
    else:
        assert params.get("document_types") == expected, (question, params)


CURRENCY_FILTERS = (" on USD invoices", " on invoices issued in GBP", " on non-EUR invoices",
                    " on foreign-currency invoices", " on CHF invoices", " on GBP and USD invoices")


@pytest.mark.parametrize("seed", range(18))
def test_a_currency_filter_on_period_net_or_vat_is_named_never_dropped(seed: int) -> None:
    rng = random.Random(seed)
    question = rng.choice(BASES).format(c=rng.choice(sorted(COMPANIES)), p=rng.choice(PERIODS_),
                                        f=CURRENCY_FILTERS[seed % len(CURRENCY_FILTERS)])
    routed = _routed(question)
    assert routed.workflow == "clarification", (question, routed.rule_hits)
    for step in routed.execution_plan:
        # whatever path answers, a plain all-currency document listing is never the answer
        assert not (step.arguments.get("metric") in ("finance.document_amounts", "finance.net_spend",
                                                     "finance.period_tax")
                    and not step.arguments["parameters"].get("invoice_numbers")), (question, step.arguments)


# --- a company reporting in CHF: the plan carries its reporting currency -------------------------------------------
MIXED = [("COMP-A", "Company A", "EUR"), ("COMP-S", "Company S", "CHF")]


@pytest.mark.parametrize("seed", range(12))
def test_a_chf_company_is_read_in_chf_and_a_mixed_tenant_without_company_is_asked(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice(NUMBERS)
    frame = rng.choice(GROSS + NET + TAX)
    routed = _routed(frame.format(n=n, m=n) + " for Company S", MIXED)
    assert routed.workflow == "document_amounts", routed.rule_hits
    assert _params(routed)["reporting_currency"] == "CHF"
    assert _params(routed, "status-documents")["reporting_currency"] == "CHF"
    assert routed.constraints.reporting_currency == "CHF"
    period = _routed(rng.choice(("Net spend excl. VAT for Company S in {p}", "Company S spend before tax in {p}"))
                     .format(p=rng.choice(PERIODS_)), MIXED)
    assert period.workflow == "document_amounts" and _params(period, "net-spend")["reporting_currency"] == "CHF"
    assert period.constraints.reporting_currency == "CHF"
    alone = _routed(frame.format(n=n, m=n), MIXED)
    assert alone.workflow == "clarification" and "CHF" in alone.clarification_question


# --- the composed answer ----------------------------------------------------------------------------------------
def _composed(question: str, outcomes: dict[str, Any]) -> Any:
    import uuid

    from router.answer import compose
    from router.executor import RunResult, StepOutcome

    run = RunResult(run_id=uuid.uuid4())
    for step, (status, output) in outcomes.items():
        run.outcomes[step] = StepOutcome(step, "metrics.query", status, 1, {}, output, None, 1)
    return compose(_routed(question), run)


def _amounts(rows: tuple[dict[str, Any], ...], params: dict[str, Any]) -> Any:
    from router.tools import MetricToolResponse

    unit = {"type": "money", "unit": "EUR"}
    return MetricToolResponse(metric="finance.document_amounts", status="complete" if rows else "no_data",
                              currency="EUR", outputs={"net_amount": unit, "tax_amount": unit, "gross_amount": unit},
                              values={}, rows=rows, matched_line_count=len(rows), source_line_ids=(),
                              source_line_count=0, sources_truncated=False, policy={}, parameters=params)


def _row(n: str, company: str = "COMP-A", supplier: str = "SUP-18") -> dict[str, Any]:
    return {"invoice_number": n, "document_type": "invoice", "company_id": company, "supplier_id": supplier,
            "invoice_date": "2026-02-03", "invoice_status": "posted", "currency": "EUR", "net_amount": "100.0000",
            "tax_amount": "19.0000", "gross_amount": "119.0000", "document_gross_amount": "119.00",
            "document_net_amount": "100.00", "line_count": 2}


@pytest.mark.parametrize("failed", ["failed", "timeout", "invalid_output"])
def test_a_failed_cancelled_draft_check_is_never_said_as_not_found(failed: str) -> None:
    question = "Combined VAT on INV-2026-0148 and INV-2026-0149?"
    params = {"invoice_numbers": ["INV-2026-0148", "INV-2026-0149"], "start_date": "1990-01-01",
              "end_date": "2101-01-01"}
    answer = _composed(question, {"document-amounts": ("ok", _amounts((_row("INV-2026-0148"),), params)),
                                  "status-documents": (failed, None)})
    assert answer.status == "partial" and "Not found" not in answer.text, answer.text
    assert "could not be checked" in answer.text and answer.result["unchecked"] == ["INV-2026-0149"]
    alone = _composed("VAT on INV-2026-0149?", {
        "document-amounts": ("ok", _amounts((), {**params, "invoice_numbers": ["INV-2026-0149"]})),
        "status-documents": (failed, None)})
    assert alone.status == "failed" and "Not found" not in alone.text, alone.text


@pytest.mark.parametrize(("rows", "who"), [((_row("INV-2026-0148", "COMP-A"), _row("INV-2026-0148", "COMP-B")),
                                            "different companies"),
                                           ((_row("INV-2026-0148", supplier="SUP-18"),
                                             _row("INV-2026-0148", supplier="SUP-27")), "different suppliers")])
def test_one_number_of_several_documents_says_what_differs(rows: tuple[dict[str, Any], ...], who: str) -> None:
    params = {"invoice_numbers": ["INV-2026-0148"], "start_date": "1990-01-01", "end_date": "2101-01-01"}
    answer = _composed("Net amount of INV-2026-0148?", {"document-amounts": ("ok", _amounts(rows, params)),
                                                         "status-documents": ("ok", _amounts((), params))})
    assert answer.status == "partial" and who in answer.text, answer.text


def test_the_document_listing_is_checked_one_by_one_outside_this_modules_routing() -> None:
    from router.invoice_facts import AMOUNTS_METRIC, derived_amounts, rederived_metrics

    assert rederived_metrics(("catalog:finance.document_amounts",)) == frozenset()
    assert derived_amounts(("catalog:finance.document_amounts",), ()) == set()
    assert AMOUNTS_METRIC in rederived_metrics(("invoice_facts:net",))


# --- a period's net spend and VAT: governed sums, never a listing a row cap could cut --------------------------
def _sum(metric: str, name: str, value: str | None, lines: int, params: dict[str, Any],
         rows: tuple[dict[str, Any], ...] = ()) -> Any:
    from router.tools import MetricToolResponse

    return MetricToolResponse(metric=metric, status="complete" if value is not None or rows else "no_data",
                              currency="EUR", outputs={name: {"type": "money", "unit": "EUR"}},
                              values={} if rows or value is None else {name: value}, rows=rows,
                              matched_line_count=lines, source_line_ids=(), source_line_count=0,
                              sources_truncated=False, policy={}, parameters=params)


PERIOD = {"company_id": "COMP-A", "start_date": "2026-01-01", "end_date": "2026-04-01", "reporting_currency": "EUR",
          "invoice_statuses": ["posted", "paid"]}


@pytest.mark.parametrize(("question", "shown", "other"), [
    ("Net spend excl. VAT for Company A in Q1 2026", "75659.32", "VAT 9460.86 EUR"),
    ("Company A total spend excluding VAT for Q1 2026?", "75659.32", "VAT 9460.86 EUR"),
    ("VAT for Company A in Q1 2026", "9460.86", "net spend excluding VAT 75659.32 EUR")])
def test_period_net_and_vat_are_the_governed_sums(question: str, shown: str, other: str) -> None:
    routed = _routed(question)
    assert [s.step_id for s in routed.execution_plan] == ["net-spend", "period-tax"], routed.rule_hits
    answer = _composed(question, {"net-spend": ("ok", _sum("finance.net_spend", "net_spend", "75659.32", 25, PERIOD)),
                                  "period-tax": ("ok", _sum("finance.period_tax", "total_tax", "9460.86", 25, PERIOD))})
    assert answer.status == "answered" and f"was {shown} EUR, over 25 validated" in answer.text, answer.text
    assert other in answer.text


def test_period_vat_by_supplier_is_its_own_governed_breakdown_and_a_missing_one_is_partial() -> None:
    question = "VAT per supplier for Company A in Q1 2026"
    routed = _routed(question)
    steps = {s.step_id: s.arguments for s in routed.execution_plan}
    assert steps["by-group"]["metric"] == "finance.period_tax" and steps["by-group"]["group_by"] == ["supplier_id"]
    rows = ({"supplier_id": "SUP-27", "total_tax": "4982.95", "matched_line_count": 7},
            {"supplier_id": "SUP-22", "total_tax": "0.00", "matched_line_count": 6})
    totals = {"net-spend": ("ok", _sum("finance.net_spend", "net_spend", "75659.32", 13, PERIOD)),
              "period-tax": ("ok", _sum("finance.period_tax", "total_tax", "4982.95", 13, PERIOD))}
    answer = _composed(question, {**totals, "by-group": ("ok", _sum("finance.period_tax", "total_tax", None, 13,
                                                                    PERIOD, rows))})
    assert "By supplier: SUP-22 0.00 EUR (6 lines); SUP-27 4982.95 EUR (7 lines)." in answer.text, answer.text
    assert answer.result["rows"] == {"SUP-22": "0.00", "SUP-27": "4982.95"}
    cut = _composed(question, {**totals, "by-group": ("failed", None)})
    assert cut.status == "partial" and "PARTIAL RESULT" in cut.text, cut.text


def test_period_without_lines_is_no_data_not_zero() -> None:
    question = "Net spend excl. VAT for Company A in Q1 2026"
    answer = _composed(question, {"net-spend": ("ok", _sum("finance.net_spend", "net_spend", None, 0, PERIOD)),
                                  "period-tax": ("ok", _sum("finance.period_tax", "total_tax", None, 0, PERIOD))})
    assert answer.status == "no_data" and "no data" in answer.text, answer.text


GROUP_BASES = (("net", "{g} spend, {c}, {p}, net of VAT"), ("net", "spend on {g} for {c} in {p} excl. VAT"),
               ("net", "{c} {g} spend {p} excluding VAT"), ("net", "net spend excl. VAT on {g}, {c}, {p}"),
               ("tax", "VAT amount on {c} {g} invoices {p}"), ("tax", "VAT on {g} for {c} in {p}"),
               ("tax", "how much VAT did {c} pay on {g} in {p}?"))
GROUP_NAMES = {"sensors": "PG-SENS", "pressure sensors": "PG-PRES", "temperature sensors": "PG-TEMP",
               "control cabinets": "PG-CAB", "Consumables": "PG-CONS", "monitoring products": "PG-MON"}
SUBGROUPS = {"PG-SENS": ["PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"], "PG-PRES": ["PG-PRES", "PG-PRES-WL"],
             "PG-TEMP": ["PG-TEMP"], "PG-CAB": ["PG-CAB"], "PG-CONS": ["PG-CONS"],
             "PG-MON": ["PG-MON", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]}


@pytest.mark.parametrize("seed", range(24))
def test_a_product_groups_net_or_vat_is_derived_from_the_rankings_spend_and_net(seed: int) -> None:
    # net_spend and period_tax take no product-group filter: the group's figure comes from finance.spend_ranking's
    # spend and net outputs over the group and its subgroups (VAT = spend - net), never a tax-inclusive figure
    rng = random.Random(seed)
    basis, frame = rng.choice(GROUP_BASES)
    group = rng.choice(sorted(GROUP_NAMES))
    company = rng.choice(sorted(COMPANIES))
    question = frame.format(g=group, c=company, p=rng.choice(("Q1 2026", "2025", "March 2026")))
    routed = _routed(question)
    assert routed.workflow == "document_amounts", (question, routed.rule_hits)
    step = next(s for s in routed.execution_plan if s.step_id == "group-spend")
    params = dict(step.arguments["parameters"])
    assert step.arguments["metric"] == "finance.spend_ranking" and step.arguments["group_by"] == ["company_id"]
    assert params["product_group_ids"] == SUBGROUPS[GROUP_NAMES[group]], (question, params)
    assert params["company_id"] == COMPANIES[company] and params["order_by"] == "net_spend"
    row = {"company_id": COMPANIES[company], "total_spend": "119.05", "net_spend": "100.04",
           "matched_line_count": 3}
    ranked = _sum("finance.spend_ranking", "total_spend", None, 3, params, (row,))
    answer = _composed(question, {"group-spend": ("ok", ranked)})
    shown, other = ("100.04", "VAT 19.01 EUR") if basis == "net" else ("19.01", "net spend excluding VAT 100.04 EUR")
    assert answer.status == "answered" and f"was {shown} EUR, over 3 validated" in answer.text, answer.text
    assert other in answer.text and answer.result["total"] == shown
