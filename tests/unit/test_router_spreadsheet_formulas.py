"""Spreadsheet formula notation read as the readers' words (router/spreadsheet_formulas.py), database-free.

The phrasings are new ones; the metamorphic tests vary the slots of the notation (function, column headers,
criteria order, separators, quoting, names, periods, position in the message).
"""

from __future__ import annotations

import pytest

from router.contract import clean_question
from router.spreadsheet_formulas import formulas, read_formulas, unread_formula
from router.structured_notation import column_name, field_of

# -- the field table reads a sheet's headers -------------------------------------------------------------------


@pytest.mark.parametrize(("header", "kind", "words"), [
    ("InvDate", "date", "date"),
    ("InvoiceDate", "date", "date"),
    ("InvTotal", "invoice_amount", "spend"),
    ("NetAmt", "net", "net spend"),
    ("NetAmount", "net", "net spend"),
    ("GrossAmount", "amount", "spend"),
    ("VendorName", "dimension", "supplier"),
    ("SuppName", "dimension", "supplier"),
    ("ProdCode", "dimension", "product"),
    ("DocType", "dimension", "document type"),
    ("InvMonth", "dimension", "month"),
    ("PostingQuarter", "dimension", "quarter"),
    ("TaxAmt", "tax", "tax amount"),
    ("InvNo", "key", "invoice number"),
])
def test_headers_are_read_through_the_one_field_table(header: str, kind: str, words: str) -> None:
    field = field_of(header)
    assert field is not None and (field.kind, field.words) == (kind, words)


@pytest.mark.parametrize("header", ["GL_Account", "CostCenter", "BuyerName", "NorthWind", "Freight"])
def test_a_header_the_data_does_not_have_is_no_field(header: str) -> None:
    assert field_of(header) is None


def test_column_names_are_snake_case() -> None:
    assert [column_name(h) for h in ("DocType", "GLAccount", "Vend No")] == ["document_type", "gl_account",
                                                                            "vendor_number"]


# -- conditional aggregates: value column, criteria pairs ---------------------------------------------------------
_SUM_VALUES = {"Gross": "spend", "GrossAmount": "spend", "NetAmount": "net spend", "NetAmt": "net spend",
               "TaxAmt": "tax amount", "Qty": "units"}


@pytest.mark.parametrize("column", sorted(_SUM_VALUES))
@pytest.mark.parametrize("sep", [",", ";", ", "])
@pytest.mark.parametrize("lead", ["=", "", "= "])
def test_sumifs_value_column_and_pairs(column: str, sep: str, lead: str) -> None:
    text = f'{lead}SUMIFS({column}{sep}Supplier{sep}"Kappa Tools"{sep}Entity{sep}"Company D") in March 2027'
    out = read_formulas(text)
    assert out.startswith(_SUM_VALUES[column])
    assert "supplier Kappa Tools" in out and "COMP-D" in out and out.endswith("in March 2027")
    assert "SUMIFS" not in out and "=" not in out


@pytest.mark.parametrize(("pairs", "expected"), [
    ('Vendor, "Lambda Co", Company, "Zeta AG"', ("supplier Lambda Co", "for Zeta AG")),
    ('Company, "Zeta AG", Vendor, "Lambda Co"', ("for Zeta AG", "supplier Lambda Co")),
    ("Vendor='Lambda Co', Company='Zeta AG'", ("supplier Lambda Co", "for Zeta AG")),
    ('Vendor = "Lambda Co"; Company = "Zeta AG"', ("supplier Lambda Co", "for Zeta AG")),
])
def test_countifs_criteria_in_any_order_and_notation(pairs: str, expected: tuple[str, str]) -> None:
    out = read_formulas(f"COUNTIFS({pairs}) during 2027-Q2")
    assert out.startswith("number of invoices")
    assert all(e in out for e in expected)


def test_countifs_document_type_is_the_noun_counted() -> None:
    assert read_formulas('=COUNTIFS(DocType;"Credit memo";Co;"Company E") 2027').startswith("number of credit notes")
    out = read_formulas('=COUNTIFS(DocType,"Invoice",Co,"Company E") 2027')
    assert out.startswith("number of invoices") and "DocType" not in out


def test_sumif_range_criterion_and_sum_range() -> None:
    out = read_formulas('=SUMIF(Vendor,"Omega Parts",NetAmount) Company F, May 2027')
    assert out.startswith("net spend, supplier Omega Parts,")


def test_not_equal_criterion_is_an_exclusion() -> None:
    assert "excluding supplier Omega Parts" in read_formulas('=SUMIFS(Gross,Vendor,"<>Omega Parts") for Company F 2027')


@pytest.mark.parametrize(("bounds", "expected"), [
    ('InvDate,">=2027-02-01",InvDate,"<2027-05-01"', "invoice_date >= 2027-02-01, invoice_date < 2027-05-01"),
    ('PostingDate,">=2027-02-01"', "invoice_date >= 2027-02-01"),
])
def test_date_criteria_are_period_bounds(bounds: str, expected: str) -> None:
    assert expected in read_formulas(f'=SUMIFS(Gross,Co,"Company G",{bounds})')


def test_cell_references_take_the_period_given_beside_the_formula() -> None:
    text = '=SUMIFS(Gross,Co,"Company G",InvDate,">="&B1,InvDate,"<="&B2) with 01.02.2027 - 28.02.2027'
    out = read_formulas(text)
    assert out == "spend, for COMP-G with 01.02.2027 - 28.02.2027"
    # with no period anywhere else the references cannot be read: left as typed, asked back
    alone = '=SUMIFS(Gross,Co,"Company G",InvDate,">="&B1)'
    assert read_formulas(alone) == alone and unread_formula(alone) is not None


def test_elided_arguments_are_names_and_a_subtraction_is_a_difference() -> None:
    out = read_formulas("=SUMIFS(…Omega Parts…) - SUMIFS(..Sigma Freight..) for Company H, 2027-Q1")
    assert out == "spend Omega Parts minus Sigma Freight for Company H, 2027-Q1"


@pytest.mark.parametrize(("formula", "measure"), [
    ("=AVERAGE(InvTotal)", "average invoice value"),
    ("=AVERAGEIFS(InvTotal,Co,\"Company J\")", "average invoice value, for COMP-J"),
    ("=MAX(UnitPrice)", "highest unit price"),
    ("=MIN(InvTotal)", "smallest invoice"),
    ("=MAXIFS(InvoiceTotal,Vendor,\"Rho\")", "largest invoice, supplier Rho"),
    ("=UNIQUE(Vendor)", "spend by supplier"),
    ("=UNIQUE(ProdCode)", "spend by product"),
    ("=FILTER(InvNo, Vendor=\"Rho\")", "list the invoices, supplier Rho"),
    ("=COUNTA(UNIQUE(Vendor))", "number of invoices"),
])
def test_plain_aggregates_lists_and_filters(formula: str, measure: str) -> None:
    assert read_formulas(f"{formula} for Company J in 2027").startswith(measure)


# -- what cannot be read is named, never dropped or run -----------------------------------------------------------
@pytest.mark.parametrize("formula", [
    '=VLOOKUP("INV-2027-0001", Invoices, 4, FALSE)',
    "=SUMPRODUCT(Qty, UnitPrice)",
    "=SUM(FreightCost) for Company K 2027",
    "=MEDIAN(InvTotal) for Company K 2027",
    '=SUMIFS(Freight, Co, "Company K")',
])
def test_a_formula_no_governed_figure_computes_is_asked_back(formula: str) -> None:
    assert read_formulas(formula) == formula
    said = unread_formula(clean_question(formula))
    assert said is not None and "I did not understand" in said


def test_a_criterion_on_a_column_the_data_lacks_stays_to_be_named() -> None:
    assert "cost_center = 'CC-77'" in read_formulas('SUMIFS(Gross, CostCenter, "CC-77") Company L 2027')


def test_formulas_are_parsed_with_quotes_and_nesting() -> None:
    (parsed,) = formulas('=SUMIFS(Gross, Vendor, "A, B & C (Holdings)", Co, "Company M")')
    assert parsed.column == "Gross"
    assert [(c.column, c.value) for c in parsed.criteria] == [("Vendor", "A, B & C (Holdings)"), ("Co", "Company M")]


# -- words around formulas ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("remark", ["(like =UNIQUE(Vendor))", "(i.e. =UNIQUE(Vendor))",
                                    "(sumifs on vendor)", "(countif > 1)"])
def test_a_formula_remark_without_criteria_restates_the_sentence(remark: str) -> None:
    assert read_formulas(f"suppliers of Company N in 2027 {remark}") == "suppliers of Company N in 2027"


@pytest.mark.parametrize("text", ["suppliers of Company N in 2027 (MAX over entity column)",
                                  "(MIN over vendor col) which supplier spent the least in 2027"])
def test_a_ranking_over_a_dimension_column_is_left_to_its_one_reader(text: str) -> None:
    # router/layout_words.py read_column_rank sets it aside only beside a ranking the same way, never here
    assert "(M" in read_formulas(text)


@pytest.mark.parametrize("prose", ["top suppliers (max of 3) for Company N 2027", "spend (sum of all) Company N",
                                   "what is the MAX (approx.) spend for Company N", "if (as I think) Company N paid"])
def test_prose_with_function_words_is_left_alone(prose: str) -> None:
    assert read_formulas(prose) == prose
    assert unread_formula(prose) is None


@pytest.mark.parametrize(("text", "expected"), [
    ("sumifs spend where vendor=Rho", "spend where vendor=Rho"),
    ("SUMIFS on Spend for Company P, 2027", "Spend for Company P, 2027"),
    ("SUMIFS for Company P, 2027", "spend for Company P, 2027"),
    ("COUNTIFS for Company P, 2027", "number of invoices for Company P, 2027"),
    ("repeated invoice numbers Company P (COUNTIF>1)", "repeated invoice numbers Company P"),
])
def test_a_function_name_alone_is_its_verb(text: str, expected: str) -> None:
    assert read_formulas(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("where InvDate between 2027-01-01 and 2027-02-01", "where invoice_date between"),
    ("filter InvTotal > 5000", "filter invoice_total > 5000"),
    ("with ProdCode on rows", "with product on rows"),
    ("NorthWind spend 2027", "NorthWind spend 2027"),
])
def test_camel_case_headers_in_prose(text: str, expected: str) -> None:
    assert expected in read_formulas(text)


def test_a_column_named_with_col_is_its_field() -> None:
    assert read_formulas("invoice no. column filtered on vendor Rho, Company Q, 2027") == \
        "list the invoices, vendor Rho, Company Q, 2027"
    assert read_formulas("sum of the tax col for Company Q") == "sum of the tax amount for Company Q"


def test_the_figure_own_arithmetic_is_set_aside_beside_an_average() -> None:
    said = read_formulas("average monthly spend Company R 2027-Q1 = total/3")
    assert said == "average monthly spend Company R 2027-Q1"
    assert read_formulas("spend Company R = total/3") == "spend Company R = total/3"


def test_sql_is_left_to_its_own_reader() -> None:
    sql = "SELECT SUM(gross_eur) FROM invoices WHERE company_id = 'COMP-B'"
    assert read_formulas(sql) == sql


@pytest.mark.parametrize("position", ["start", "end"])
def test_a_formula_reads_the_same_wherever_it_stands(position: str) -> None:
    formula = 'SUMIFS(NetAmount, Vendor, "Tau Metals", Co, "Company S")'
    text = f"{formula} for 2027-Q3" if position == "start" else f"for 2027-Q3: {formula}"
    out = read_formulas(text)
    assert "net spend" in out and "supplier Tau Metals" in out and "2027-Q3" in out


@pytest.mark.parametrize(("text", "expected"), [
    ("LARGE() top 3 vendors Company T 2027", "top 3 vendors Company T 2027"),
    ("bottom 2 suppliers (SMALL()) Company T, 2027-Q2", "bottom 2 suppliers Company T, 2027-Q2"),
    ("=LARGE(NetAmount, 4) suppliers of Company T 2027", "top 4 by net spend suppliers of Company T 2027"),
])
def test_large_and_small_are_a_ranking_side(text: str, expected: str) -> None:
    assert read_formulas(text) == expected


def test_large_of_a_column_the_data_lacks_is_asked_back() -> None:
    assert read_formulas("=LARGE(Freight, 3) suppliers") == "=LARGE(Freight, 3) suppliers"
    assert unread_formula("=LARGE(Freight, 3) suppliers") is not None


@pytest.mark.parametrize("text", ["pivot rows=ProdCode values=Sum(Gross) for Company U",
                                  "montant facturé à Company U en mars 2027 ?", "Company U (2027) ?? spend"])
def test_text_around_is_kept_as_typed(text: str) -> None:
    out = read_formulas(text)
    assert "values=Sum(Gross)" in out if "values" in text else out == text


def test_a_bare_argument_runs_on_into_the_text_after_the_formula() -> None:
    out = read_formulas('COUNTIFS(Vendor="Phi Labs", Co="Company V", Mar-27 to Jun-27) credit notes excluded')
    assert out.endswith("Mar-27 to Jun-27 credit notes excluded")
