"""Search-bar queries of BI users and data engineers (router/keyword_query.py), routed without a database.

Class k7: terse keyword and SQL-like queries ("sum(gross) where supplier = 'Gamma' group by month", "cn count zeta
2025", "avg inv value gamma h2 25", "invoice_date >= 2026-01-01", "cost_center = 4711"). Sub-classes:
(a) SQL shells: select list, aggregates (sum/count/avg of the view's columns), where/and joints, group by, order by
    ... limit n;
(b) predicates on the governed views' columns: company/supplier/product group/product keys (=, in, !=, not in),
    invoice_date ranges (between, >=/</<=, both ends), month/quarter/year equalities, status, document type,
    currency, amount comparisons (with "10k");
(c) measure and breakdown columns said alone ("net_amount by supplier_name");
(d) analyst abbreviations and two-digit years (cn, inv, sup, amt, avg, cnt, mth, top10, comp a, q1 26, h2 25,
    qtr 1 yr 2026);
(e) a column the views do not have ("cost_center = 4711", "sales_channel = 'web'") is named as not understood,
    never dropped nor read as a year.
A metamorphic generator (hypothesis, seeded, bounded) renders one reading as prose and as keyword / SQL strings and
asserts the same governed call; the hand-written cases pin each sub-class.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# (_routed imports its fixture modules lazily: imported here, their own @given tests are not built inside ours)
import tests.unit.test_router_company_sets  # noqa: F401
from router.contract import RoutingResult, clean_question
from router.keyword_query import keyword_style
from tests.unit.test_router_analysis import AS_OF
from tests.unit.test_router_invoice_facts import _routed

BOUNDED = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

#: company -> (prose spelling, keyword spellings, SQL predicates)
COMPANIES = {
    "COMP-A": ("Company A", ("comp a", "comp-a", "COMP-A", "company a"),
               ("company_id = 'COMP-A'", "company = COMP-A", "company_name = 'Company A'", "company_id='comp-a'")),
    "COMP-B": ("Company B", ("comp b", "comp-b", "COMP-B"),
               ("company_id = 'COMP-B'", "company = 'COMP-B'", "company_name = 'Company B'")),
    "COMP-C": ("Company C", ("comp c", "comp-c", "company c"), ("company_id = 'COMP-C'", "company = COMP-C")),
}
#: supplier -> (prose, keyword, SQL)
SUPPLIERS = {
    "SUP-27": ("Supplier Gamma", ("gamma", "sup-27", "Gamma Controls"),
               ("supplier = 'Gamma'", "supplier_id = 'SUP-27'", "supplier_name = 'Gamma Control Systems AG'")),
    "SUP-18": ("Supplier Beta", ("beta", "SUP-18", "beta supplies"),
               ("supplier = 'Beta'", "supplier_id = 'SUP-18'", "supplier_name = 'Beta Supplies GmbH'")),
    "SUP-31": ("Supplier Delta", ("delta", "sup-31"), ("vendor = 'Delta'", "supplier_id='SUP-31'")),
}
#: period -> (prose, keyword, SQL)
PERIODS = {
    "2026-Q1": ("in Q1 2026", ("q1 26", "q1 2026", "qtr 1 yr 2026", "Q1 '26"),
                ("invoice_date between '2026-01-01' and '2026-03-31'",
                 "invoice_date >= '2026-01-01' and invoice_date < '2026-04-01'",
                 "invoice_date >= 2026-01-01 and invoice_date <= 2026-03-31", "quarter = 2026-Q1")),
    "2025-H2": ("in H2 2025", ("h2 25", "h2 2025"),
                ("invoice_date between '2025-07-01' and '2025-12-31'",
                 "invoice_date >= '2025-07-01' and invoice_date < '2026-01-01'")),
    "2025-11": ("in November 2025", ("nov 2025", "2025-11"), ("month = 2025-11", "month = '2025-11'")),
    "2025": ("in 2025", ("fy25", "2025"), ("year = 2025", "invoice_date between '2025-01-01' and '2025-12-31'")),
}
#: measure -> (prose, keyword, SQL aggregate)
MEASURES = {
    "spend": ("total spend", ("spend", "total amt", "spend amt"), ("sum(gross)", "sum(spend)", "sum(amount)")),
    "count": ("number of invoices", ("inv count", "invoice cnt", "no of invs"), ("count(*)", "count(invoice_id)")),
}
#: breakdown -> (prose, keyword, SQL group by)
BREAKDOWNS = {
    "": ("", ("",), ("",)),
    "month": ("by month", ("by month", "by mth"), ("group by month",)),
}


def _plan(routed: RoutingResult) -> list[tuple[str, Any]]:
    return [(s.tool, s.arguments) for s in routed.execution_plan]


@functools.cache
def _route(question: str) -> RoutingResult:
    return _routed(question)


@st.composite
def _readings(draw: Any) -> tuple[str, str, str]:
    company = draw(st.sampled_from(sorted(COMPANIES)))
    supplier = draw(st.sampled_from(["", *sorted(SUPPLIERS)]))
    period = draw(st.sampled_from(sorted(PERIODS)))
    measure = draw(st.sampled_from(sorted(MEASURES)))
    breakdown = draw(st.sampled_from(sorted(BREAKDOWNS))) if measure == "spend" else ""
    c_prose, c_kw, c_sql = COMPANIES[company]
    p_prose, p_kw, p_sql = PERIODS[period]
    m_prose, m_kw, m_sql = MEASURES[measure]
    b_prose, b_kw, b_sql = BREAKDOWNS[breakdown]
    s_prose, s_kw, s_sql = SUPPLIERS[supplier] if supplier else ("", ("",), ("",))
    prose = f"{m_prose} of {c_prose}" + (f" with {s_prose}" if supplier else "") + f" {p_prose} {b_prose}"
    keyword = " ".join(w for w in draw(st.permutations([
        draw(st.sampled_from(m_kw)), draw(st.sampled_from(c_kw)), draw(st.sampled_from(s_kw)),
        draw(st.sampled_from(p_kw))])) if w) + f" {draw(st.sampled_from(b_kw))}"
    predicates = [draw(st.sampled_from(c_sql)), draw(st.sampled_from(s_sql)), draw(st.sampled_from(p_sql))]
    where = " and ".join(p for p in draw(st.permutations(predicates)) if p)
    aggregate = draw(st.sampled_from(m_sql))
    group = draw(st.sampled_from(b_sql))
    shell = draw(st.sampled_from(("select {a} from invoices where {w} {g}", "{a} where {w} {g}",
                                  "select {a} from marts.validated_invoice_lines where {w} {g};")))
    sql = shell.format(a=aggregate, w=where, g=group)
    return prose.strip(), keyword.strip(), sql.strip()


@BOUNDED
@given(_readings())
def test_keyword_and_sql_forms_read_as_the_prose_question(forms: tuple[str, str, str]) -> None:
    prose, keyword, sql = forms
    want = _route(prose)
    assert want.workflow != "clarification", (prose, want.clarification_question)
    for form in (keyword, sql):
        got = _route(form)
        assert _plan(got) == _plan(want), (form, clean_question(form), prose)


@pytest.mark.parametrize(("query", "prose"), [
    # (a) SQL shells
    ("select supplier_name, sum(gross) from invoices where company_id = 'COMP-A' and invoice_date >= '2026-01-01' "
     "and invoice_date < '2026-04-01' group by supplier_name order by 2 desc limit 3",
     "top 3 suppliers of Company A by spend in Q1 2026"),
    ("select sum(gross) from invoices where company_id = 'COMP-B' group by month; ",
     "spend of Company B by month in 2026 so far") if False else
    ("select sum(gross) from invoices where company_id = 'COMP-B' and year = 2025 group by month",
     "spend of Company B in 2025 by month"),
    ("SELECT COUNT(*) FROM invoices WHERE company = 'COMP-C' AND status = 'paid' AND invoice_date BETWEEN "
     "'2026-01-01' AND '2026-03-31'", "number of paid invoices of Company C in Q1 2026"),
    ("sum(net_amount) where company_id = 'COMP-A' and invoice_date between '2025-10-01' and '2025-12-31'",
     "net spend of Company A in Q4 2025"),
    # (b) predicates
    ("spend comp-b invoice_date >= 2026-01-01", "spend of Company B since 2026-01-01"),
    ("spend comp-a where invoice_date > '2025-12-31' and invoice_date <= '2026-02-28'",
     "spend of Company A from 2026-01-01 through 2026-02-28"),
    ("spend comp-a supplier != 'Gamma' q1 2026", "spend of Company A in Q1 2026 excluding Supplier Gamma"),
    ("spend comp-b where supplier not in ('Gamma', 'Beta') and year = 2025",
     "spend of Company B in 2025 excluding Supplier Gamma and Supplier Beta"),
    ("spend comp-a where supplier_id in ('SUP-18', 'SUP-27') 2025",
     "spend of Company A with Supplier Beta and Supplier Gamma in 2025"),
    ("count(*) where company = COMP-B and status = 'posted' and year = 2025",
     "number of posted invoices of Company B in 2025"),
    ("invoice count comp-a status in (posted, paid) 2026", "number of posted or paid invoices of Company A in 2026"),
    ("count(*) where document_type = 'credit_note' and company = COMP-A 2025",
     "number of credit notes of Company A in 2025"),
    ("spend where currency = 'USD' comp-a 2025", "Company A spend on invoices in USD in 2025"),
    ("invoices > 10k comp-b march 2026", "invoices of Company B above 10000 in March 2026"),
    ("comp-c invoices where gross >= 5k and year = 2025", "invoices of Company C of at least 5000 in 2025"),
    ("comp-a suppliers where spend > 10k 2025", "Company A suppliers with spend above 10000 in 2025"),
    ("spend product_group = 'Pressure Sensors' comp-a q1 2026", "Company A spend on Pressure Sensors in Q1 2026"),
    ("spend comp-b where category in ('Sensors') h2 25", "Company B spend on Sensors in H2 2025"),
    # (c) measure and breakdown columns
    ("net_amount by supplier_name q4 2025 company_id = COMP-B", "net spend of Company B by supplier in Q4 2025"),
    ("tax_amount comp-a q1 26", "tax amount of Company A in Q1 2026"),
    ("spend per product_group comp-a fy25", "spend of Company A by product group in 2025"),
    # (d) abbreviations and two-digit years
    ("cn count gamma comp-a 2025", "number of credit notes of Company A with Supplier Gamma in 2025"),
    ("top10 products by spend comp-a 2025", "top 10 products of Company A by spend in 2025"),
    ("comp a top5 sup fy25", "top 5 suppliers of Company A in 2025"),
    ("total amt comp-c mth 2026-03", "spend of Company C in March 2026"),
    ("spend comp-b qtr 1 yr 2026", "spend of Company B in Q1 2026"),
    ("sup-27 spend comp a qtr 4 25", "spend of Company A with Supplier Gamma in Q4 2025"),
    # the whole tenant
    ("top10 products by spend tenant 2025", "top 10 products by spend for all companies in 2025"),
    ("tenant-wide spend q1 26", "spend of all companies in Q1 2026"),
    ("whole tenant top 5 sup fy25", "top 5 suppliers of all companies in 2025"),
    ("spend tenant h2 25", "spend of all companies in H2 2025"),
])
def test_a_keyword_query_reads_as_its_prose(query: str, prose: str) -> None:
    got, want = _route(query), _route(prose)
    assert want.workflow != "clarification", (prose, want.clarification_question)
    assert _plan(got) == _plan(want), (query, clean_question(query), _plan(got), _plan(want))


@pytest.mark.parametrize(("query", "prose"), [
    ("avg inv value gamma comp b h2 25", "average invoice value of Company B with Supplier Gamma in H2 2025"),
    ("avg(gross) where company = 'COMP-A' and year = 2025", "average invoice value of Company A in 2025"),
    ("avg invoice amt comp-c q1 26", "average invoice value of Company C in Q1 2026"),
    ("comp a avg inv value fy25", "average invoice value of Company A in 2025"),
])
def test_an_average_keyword_query_is_the_derived_average(query: str, prose: str) -> None:
    from router.derived import detect

    got, want = detect(clean_question(query), AS_OF), detect(prose, AS_OF)
    assert want is not None and got is not None, (query, clean_question(query))
    assert got.kind == want.kind and _plan(_route(got.base)) == _plan(_route(want.base)), (got, want)


@pytest.mark.parametrize(("query", "named"), [
    ("spend comp-a cost_center = 4711 q1 2026", "4711"),
    ("sum(spend) where cost_center = 'CC-4100' and company = 'COMP-A' and year = 2025", "CC-4100"),
    ("select sum(gross) from invoices where company_id = 'COMP-B' and sales_channel = 'web' and year = 2025", "web"),
    ("spend comp-c 2025 cost center 4711", "4711"),
    ("count(*) where company = COMP-A and region_code in ('DACH') and year = 2025", "DACH"),
    ("spend comp-b where buyer_id = 'JW-17' q1 26", "JW-17"),
    # a document type the data does not have
    ("comp-b spend where document_type = 'purchase_order' 2025", "purchase_order"),
    ("count(*) where document_type = 'debit_note' and company = COMP-A and year = 2025", "debit_note"),
    ("comp-c spend where doc_type = 'proforma' h2 25", "proforma"),
    ("select sum(gross) from invoices where company = 'COMP-A' and document_type = 'order' and year = 2025", "order"),
])
def test_a_column_the_views_lack_is_named_never_dropped(query: str, named: str) -> None:
    routed = _route(query)
    assert routed.workflow == "clarification", (query, clean_question(query), _plan(routed))
    assert named in (routed.clarification_question or ""), routed.clarification_question


@pytest.mark.parametrize("text", [
    "What was Company B's total spend in Q1 2026?", "Top 5 suppliers of Company A last quarter",
    "Which invoices of Company C are above 5000 EUR in 2025?", "How many credit notes did Company A receive in 2025?",
    "Company A spend with Supplier Gamma and Supplier Beta in H2 2025", "pls confirm gross amount of inv 2026-0125",
    "Was INV-2026-0148 paid?", "Company A spend where Gamma was the supplier in 2025",
    "can you find invoice inv twenty twenty six zero nine nine nine", "show me another tenant's spend in 2025",
    "what did tenant-17 spend in 2025?"])
def test_prose_is_left_as_written(text: str) -> None:
    # (a spoken invoice number after "inv" stays for router/spoken.py; another tenant is no scope of ours)
    assert keyword_style(text) == text or keyword_style(text).lower() == text.lower(), keyword_style(text)


# -- money is scaled exactly; an amount range stays one predicate, with its currency --------------------------------
from decimal import Decimal  # noqa: E402

from router.keyword_query import _scaled  # noqa: E402

_FACTORS = {"k": 1000, "m": 1_000_000, "mio": 1_000_000, "bn": 1_000_000_000}


@pytest.mark.parametrize(("number", "scale", "scaled"), [("2.01", "k", "2010"), ("4.35", "k", "4350"),
                                                         ("1.15", "k", "1150"), ("0.29", "m", "290000"),
                                                         ("2.0005", "k", "2000.5"), ("1,250", "k", "1250000")])
def test_a_scaled_amount_is_exact(number: str, scale: str, scaled: str) -> None:
    assert _scaled(number, scale) == scaled  # (a float made "2.01k" 2009)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999.99"), places=2),
       st.sampled_from(sorted(_FACTORS)))
def test_scaling_any_two_decimal_amount_is_exact(amount: Decimal, scale: str) -> None:
    assert Decimal(_scaled(str(amount), scale)) == amount * _FACTORS[scale]


@pytest.mark.parametrize(("query", "bounds"), [
    ("select count(*) from invoices where company = company a and gross_total between 1.15k and 4.35k and "
     "invoice_date in 2025-Q3", "between 1150 EUR and 4350 EUR"),
    ("select sum(gross) from invoices where gross_total between 2000 and 2100 and invoice_date in 2025-Q3",
     "between 2000 EUR and 2100 EUR"),
    ("sum(net) where net_amount between 0.5mio and 1.25mio", "between 500000 EUR and 1250000 EUR"),
])
def test_an_amount_range_is_money_never_two_years(query: str, bounds: str) -> None:
    # bare, "between 2000 and 2100" named two periods; split at its "and", the range was lost
    assert bounds in keyword_style(query)


# -- one field table: a column structured_notation knows is a breakdown here too ------------------------------------
@pytest.mark.parametrize(("query", "said"), [
    ("sum(gross) where supplier = 'Gamma' group by legal_entity", "by company"),
    ("sum(gross) where supplier = 'Gamma' group by group_id", "by product group"),
    ("net_amount by top_group q4 2025 company_id = COMP-B", "by top-level group"),
    ("select distinct vendor_id from invoices where company_id = COMP-B", "distinct suppliers"),
])
def test_a_dimension_of_the_field_table_is_a_breakdown(query: str, said: str) -> None:
    # (the copy here lacked entity, group_id, top_group ...: the column stayed as typed)
    assert said in keyword_style(query)
