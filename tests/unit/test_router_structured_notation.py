"""Structured notation (router/structured_notation.py): aggregate calls, field names, dimension lists, labels and
separators read as the readers' words; columns the data does not have named, never dropped."""

from __future__ import annotations

import pytest

from router.ap_fields import fields_note, split_fields
from router.contract import clean_question
from router.keyword_query import keyword_style
from router.structured_notation import FIELDS, field_of, structured_style, unread_aggregates


@pytest.mark.parametrize(("name", "kind"), [
    ("gross_eur", "amount"), ("Net_Amount", "net"), ("VAT_AMOUNT", "tax"), ("lines.tax_amount", "tax"),
    ("invoice total", "invoice_amount"), ("invoice_value_eur", "invoice_amount"), ("net unit price", "unit_price"),
    ("qty", "units"), ("supplier_ids", "dimension"), ("product_codes", "dimension"), ("top_group", "dimension"),
    ("invoices.currency", "dimension"), ("original_invoice_number", "key"), ("posting_date", "date"),
])
def test_field_table_reads_every_spelling(name: str, kind: str) -> None:
    field = field_of(name)
    assert field is not None and field.kind == kind


@pytest.mark.parametrize("name", ["buyer_name", "po_number", "cost_center_code", "region", "freight_mode"])
def test_columns_the_data_lacks_are_not_fields(name: str) -> None:
    assert field_of(name) is None


def test_every_dimension_has_a_plural() -> None:
    assert all(f.plural for f in FIELDS.values() if f.kind == "dimension")


@pytest.mark.parametrize(("call", "words"), [
    ("SUM(net_amount)", "net spend"), ("sum( tax )", "tax amount"), ("total(vat_amount)", "tax amount"),
    ("sum(qty)", "units"), ("count(distinct vendor_id)", "number of suppliers"),
    ("COUNT(DISTINCT product_code)", "number of products"), ("count(*)", "number of invoices"),
    ("mean(invoice_total)", "average invoice value"), ("avg(unit_price)", "average unit price"),
    ("max(invoice gross)", "largest invoice"), ("min(document_total)", "smallest invoice"),
    ("minimum(net unit price)", "lowest unit price"), ("MAX(price)", "highest unit price"),
])
@pytest.mark.parametrize("tail", [" for Company B in 2026-Q1", ", alpenland, H2 2025", " kestrel fy2025"])
def test_aggregate_calls_become_the_measure(call: str, words: str, tail: str) -> None:
    assert structured_style(call + tail) == words + tail


@pytest.mark.parametrize(("ask", "read"), [
    ("count distinct vendor_id with lines, Company B, 2025-Q4", "number of suppliers with lines, Company B, 2025-Q4"),
    ("max unit price ever paid for PRD-7", "highest unit price ever paid for PRD-7"),
    ("min invoice value Gamma Q1 2026", "smallest invoice Gamma Q1 2026"),
    ("sum net_amount for Xenon in March", "net spend for Xenon in March"),
])
def test_aggregates_without_parentheses(ask: str, read: str) -> None:
    assert structured_style(ask) == read


@pytest.mark.parametrize("prose", [
    "average monthly spend of Kestrel over Q4",  # a run rate, never an invoice's average
    "which supplier had the max spend in Q1",  # a ranking, never the largest invoice
    "min order quantity of PRD-5",  # no column of the data
    "median(gross) for Company A in 2025",  # no governed median: kept for the reader to name
])
def test_prose_and_ungoverned_functions_stay_as_typed(prose: str) -> None:
    assert structured_style(prose) == prose


@pytest.mark.parametrize(("ask", "read"), [
    ("dims: supplier | metric: sum(gross) | period 2025-Q4", "by supplier, spend, period 2025-Q4"),
    ("dimensions = product_group, month; Xenon 2026", "by product group and month; Xenon 2026"),
    ("pivot vendor x quarter, Company C, 2025", "by supplier and quarter, Company C, 2025"),
    ("pivot: currency by supplier_id for Kestrel", "by currency and supplier for Kestrel"),
    ("Kestrel spend supplier x month 2025-H2", "Kestrel spend by supplier and month 2025-H2"),
    ("top_group breakdown for Ypsilon Q2", "by top-level group for Ypsilon Q2"),
    ("supplier ranking by net spend, Xenon, 2025", "rank suppliers by net spend, Xenon, 2025"),
    ("spend Company A | filter: currency=USD | 2025-H2", "spend Company A, currency=USD, 2025-H2"),
])
def test_lists_labels_and_separators(ask: str, read: str) -> None:
    assert structured_style(ask) == read


@pytest.mark.parametrize("ask", ["2 x 500 units of PRD-1 in Q1", "box x 10 bought by Kestrel", "Jan->Apr 2026 spend",
                                 "Q1 -> Q2 change for Xenon"])
def test_crosses_and_arrows_of_other_things_stay(ask: str) -> None:
    assert structured_style(ask) == ask


@pytest.mark.parametrize("doc", ["CN-2026-0007", "CN-2025-0011"])
@pytest.mark.parametrize("arrow", ["->", "→", "=>"])
def test_arrow_asks_a_field_of_what_is_before_it(doc: str, arrow: str) -> None:
    assert structured_style(f"{doc} {arrow} original_invoice_number ?") == f"{doc}, original invoice number?"


@pytest.mark.parametrize(("ask", "read"), [
    ("vat_amount total for Xenon, 2025", "tax amount total for Xenon, 2025"),
    ("list_price of PRD-9", "list price of PRD-9"),
    ("supplier_ids with spend, comp_x", "suppliers with spend, COMP-X"),
    ("net spend company_b 2026-Q1", "net spend COMP-B 2026-Q1"),
    ("gross_eur for Gamma", "spend in EUR for Gamma"),
])
def test_bare_field_names(ask: str, read: str) -> None:
    assert structured_style(ask) == read


def test_filters_on_known_columns_are_left_to_the_sql_reader() -> None:
    ask = "spend where supplier_id = 'SUP-1' and invoice_date >= 2026-01-01"
    assert structured_style(ask) == ask


@pytest.mark.parametrize(("ask", "read"), [
    ("by company, net spend, 2025-H2", "by company for all companies, net spend, 2025-H2"),
    ("tax amount by company and month, Q1", "tax amount by company and month for all companies, Q1"),
    ("spend for Company A and Company B by company", "spend for Company A and Company B by company"),
    ("spend by company, all companies", "spend by company, all companies"),
])
def test_a_breakdown_by_company_with_no_company_is_every_company(ask: str, read: str) -> None:
    assert structured_style(ask) == read


@pytest.mark.parametrize("column", ["buyer_name", "po_number", "cost_center", "delivery_region"])
@pytest.mark.parametrize(("template", "rest"), [
    ("spend by supplier and {c}, Xenon, 2025-H2", "spend by supplier, Xenon, 2025-H2"),
    ("spend alpenland 2026-Q1 where {c} like 'AB%'", "spend alpenland 2026-Q1"),
    ("net spend Kestrel Q4 2025, {c} in ('a', 'b')", "net spend Kestrel Q4 2025"),
    ("spend Company C 2025, {c} != 'x'", "spend Company C 2025"),
])
def test_unknown_columns_are_named_and_the_rest_kept(column: str, template: str, rest: str) -> None:
    split = split_fields(template.format(c=column))
    assert split is not None and [f.words for f in split.fields] == [column] and split.rest == rest


@pytest.mark.parametrize("ask", ["spend by supplier_id, Xenon, 2025-H2", "spend where currency_code = 'USD' in Q1",
                                 "spend by supplier, Xenon", "invoice_date in 2025-Q4 spend"])
def test_known_columns_are_no_unknown_column(ask: str) -> None:
    assert split_fields(ask) is None


@pytest.mark.parametrize("statuses", ["('posted','paid')", "(paid, posted)", "('PAID', 'Posted')"])
def test_the_default_statuses_are_no_choice(statuses: str) -> None:
    assert keyword_style(f"sum(gross) where company_id = 'COMP-A' and status in {statuses}").endswith(
        "status posted and paid")


@pytest.mark.parametrize(("field", "basis"), [("gross_total", "gross total"), ("net_amount", "net total"),
                                              ("invoice_value", "total")])
def test_amount_between_is_one_range(field: str, basis: str) -> None:
    read = keyword_style(f"invoices where {field} between 2k and 7500 eur, company C")
    assert f"{basis} between 2000 and 7500" in read


def test_date_column_in_a_period() -> None:
    assert keyword_style("sum(net_amount) where company_id = 'COMP-K' and invoice_date in 2025-Q4") == \
        "net spend, company COMP-K, in 2025-Q4"


def test_the_whole_cleaning_reads_a_dashboard_ask() -> None:
    assert clean_question("dims: company | metric: sum(tax) | period 2025-07-01..2025-12-31") == \
        "by company for all companies, tax amount, period from 2025-07-01 through 2025-12-31"


@pytest.mark.parametrize("none", ["none", "None", "nil", "total only"])
def test_a_dimension_list_of_none_is_the_total(none: str) -> None:
    assert structured_style(f"spend w/ Gamma, dims: {none}, period = 2026-Q1") == "spend w/ Gamma, period = 2026-Q1"


@pytest.mark.parametrize(("tail", "kept"), [(", period Q1 2026", ", period Q1 2026"), (", Xenon", ", Xenon"),
                                            (" | 2025-H2", ", 2025-H2")])
def test_a_dimension_list_ends_at_its_first_non_column(tail: str, kept: str) -> None:
    assert structured_style(f"dims: supplier, month{tail}") == f"by supplier and month{kept}"


@pytest.mark.parametrize("prose", ["Company A spend last year split by supplier and month",
                                   "Xenon spend in 2025 split per supplier", "supplier breakdown of Kestrel Q1"])
def test_a_breakdown_word_after_prose_is_no_column(prose: str) -> None:
    assert structured_style(prose) == prose


@pytest.mark.parametrize(("call", "named"), [("sum(freight_cost)", "freight_cost"), ("median(gross)", "median"),
                                             ("AVG(delivery_days)", "delivery_days"), ("sum(unit_price)", "a sum")])
@pytest.mark.parametrize("tail", [" Company A 2026-Q1", ", for Kestrel in H2 2025"])
def test_an_aggregate_no_figure_computes_is_asked_back(call: str, named: str, tail: str) -> None:
    problem = unread_aggregates(structured_style(call + tail))
    assert problem is not None and call in problem and named in problem


@pytest.mark.parametrize("ask", ["spend total (incl. VAT) for Xenon Q1", "max (approx.) spend of Gamma",
                                 "sum(net) by supplier, Xenon", "count(*) of invoices Company B",
                                 "average invoice value Ypsilon 2026-Q1"])
def test_governed_calls_and_prose_parentheses_are_not_asked_back(ask: str) -> None:
    assert unread_aggregates(structured_style(ask)) is None


@pytest.mark.parametrize("ask", ["spend total (incl. VAT) for Company A Q1", "the total (net) of Kestrel, 2025",
                                 "spend Xenon 2025 (approx. value)"])
def test_a_parenthesis_after_prose_is_no_call(ask: str) -> None:
    assert structured_style(ask) == ask


@pytest.mark.parametrize(("quote", "company", "period"), [('"', "COMP-A", "2026-Q1"), ("'", "COMP-C", "2025-H2")])
def test_a_json_object_is_its_key_value_parts(quote: str, company: str, period: str) -> None:
    q = quote
    ask = (f"{{{q}metric{q}: {q}net_amount{q}, {q}company{q}: {q}{company}{q}, {q}period{q}: {q}{period}{q}, "
           f"{q}dims{q}: [{q}vendor{q}, {q}quarter{q}]}}")
    assert structured_style(ask) == f"net spend, company: {company}, {period}, by supplier and quarter"


@pytest.mark.parametrize(("dim", "plural"), [("supplier_id", "suppliers"), ("product_code", "products")])
def test_having_keeps_the_groups_passing_it(dim: str, plural: str) -> None:
    read = clean_question(f"select {dim} from invoices where company_id = 'COMP-B' group by {dim} "
                          "having sum(net_amount) > 5000")
    assert read == f"company COMP-B {plural} with net spend above 5000"


@pytest.mark.parametrize("prose", ["I mean invoice total for Q1", "what do you mean by spend in Q1",
                                   "count of documents per status for Xenon", "30 min delay on the Gamma invoices"])
def test_prose_with_function_words_stays(prose: str) -> None:
    assert structured_style(prose) == prose


@pytest.mark.parametrize(("ask", "read"), [("count company c fy25", "count company c fy25"),
                                           ("count supplier Gamma 2025", "count supplier Gamma 2025"),
                                           ("count suppliers Company C 2025", "number of suppliers Company C 2025"),
                                           ("count distinct product Xenon", "number of products Xenon")])
def test_a_bare_count_of_one_member_is_no_count_of_members(ask: str, read: str) -> None:
    assert structured_style(ask) == read


@pytest.mark.parametrize("ask", ["Number of credit notes booked by Company A in Q1 2026?",
                                 "invoices paid by company b in 2025", "spend booked by company Alpenland 2025",
                                 "how much we spent by Company-B last quarter", "spend by COMP-C, 2025"])
def test_a_company_named_after_by_is_no_grouping(ask: str) -> None:
    assert structured_style(ask) == ask


# -- one reader of "a field the data does not have" (router/ap_fields.py), one note ---------------------------------
@pytest.mark.parametrize(("ask", "named", "rest"), [
    ("Company A spend 2025 where cost_center = 100 and supplier = SUP-31", ["cost_center"],
     "Company A spend 2025 and supplier = SUP-31"),
    ("Alpenland Feb 2026 total and the payment run date, where po_number like 'PO-7%'",
     ["the payment run date", "po_number"], "Alpenland Feb 2026 total"),
    ("Kestrel 2025 spend by supplier and buyer_name and the approver", ["the approver", "buyer_name"],
     "Kestrel 2025 spend by supplier"),
])
def test_a_column_and_an_ap_field_are_one_split_with_one_note(ask: str, named: list[str], rest: str) -> None:
    # (the column reader ran after the limits reader and its note was never reached)
    split = split_fields(ask)
    assert split is not None and [f.words for f in split.fields] == named and split.rest == rest
    note = fields_note(split.fields)
    assert all(repr(n) in note for n in named)
    assert ("not applied" if len(named) == 1 else "not answered or applied") in note


@pytest.mark.parametrize("ask", ["Beta -> company b spend 2025", "spend of beta -> company b, 2025",
                                 "beta -> comp-b spend 2025", "Beta → supplier sup-18 spend"])
def test_an_arrow_before_one_named_company_or_supplier_is_no_breakdown(ask: str) -> None:
    # the company after the arrow is a name: never rewritten to "by company for all companies" (a silent drop)
    read = structured_style(ask)
    assert "for all companies" not in read and "by company" not in read and "by supplier" not in read, read


def test_an_arrow_before_a_bare_dimension_is_still_a_breakdown() -> None:
    assert structured_style("spend 2025 -> company") == "spend 2025, by company for all companies"
