"""The rows of a breakdown named by their layout (router/layout_words.py): "<dim>-wise", pivot rows and columns,
"one row per <dim>", a column restatement of a ranking; read into the grouping the reader knows."""

from __future__ import annotations

import itertools

import pytest

from router.breakdown_words import dimension_noun
from router.contract import clean_question
from router.layout_words import read_column_rank, read_layout, read_pivot, read_wise
from router.reading import group_dimension, parse_breakdown

#: dimension words as writers type them -> the allow-listed dimension (or grain) the reader reads
_DIMENSIONS = {
    "vendor": ("supplier_id", None), "supplier": ("supplier_id", None), "Lieferanten": ("supplier_id", None),
    "company": ("company_id", None), "entity": ("company_id", None), "legal entity": ("company_id", None),
    "product": ("product_code", None), "item": ("product_code", None), "SKU": ("product_code", None),
    "product group": ("product_group_id", None), "sub-category": ("product_group_id", None),
    "main category": ("top_product_group_id", None), "top level category": ("top_product_group_id", None),
    "month": (None, "month"), "quarter": (None, "quarter"), "year": (None, "year"),
}
_SEPARATORS = ("-", " ", "")
_HEADS = ("summary", "spend breakup", "split of spend", "")


def _read(question: str) -> tuple[str | None, str | None]:
    text = clean_question(question)
    found = parse_breakdown(text)
    dims = [d if d != "product_group_id" else group_dimension(text) for d in found.group_by]
    return (dims[0] if dims else None), found.grain


@pytest.mark.parametrize(("word", "sep", "head"), [
    # every dimension word, the separators and heads in turn (a solid "-wise" is written on one word only)
    (w, s if not (s == "" and (" " in w or "-" in w)) else "-", h)
    for w, s, h in zip(_DIMENSIONS, itertools.cycle(_SEPARATORS), itertools.cycle(_HEADS[:3]), strict=False)]
    + [("vendor", s, h) for s, h in itertools.product(_SEPARATORS, _HEADS)])
def test_wise_reads_the_dimension_whatever_the_separator_and_head(word: str, sep: str, head: str) -> None:
    question = f"please share {word}{sep}wise {head} for Orbis Trading for Q3 2025".replace("  ", " ")
    assert _read(question) == _DIMENSIONS[word], clean_question(question)


@pytest.mark.parametrize("template", [
    "{d}-wise spend of Orbis Trading, Jan-Mar 2026",
    "Orbis Trading: Jan-Mar 2026 spend, {d} wise pls",
    "need a {d} wise summary with total of Orbis Trading for 2026-Q1",
    "RE: spend Orbis Trading 2026-Q1 - {d}-wise breakup",
])
@pytest.mark.parametrize("word", ["vendor", "month", "company", "product group"])
def test_wise_reads_in_any_position_of_the_message(template: str, word: str) -> None:
    assert _read(template.format(d=word)) == _DIMENSIONS[word]


@pytest.mark.parametrize(("level", "expected"), [
    ("(highest level only)", "top_product_group_id"), ("(top level)", "top_product_group_id"),
    ("(level 1 only)", "top_product_group_id"), ("(leaf level)", "product_group_id"),
    ("(lowest level pls)", "product_group_id")])
def test_a_level_parenthesis_sets_the_group_level(level: str, expected: str) -> None:
    assert _read(f"need category wise {level} summary of Orbis for May 2026") == (expected, None)
    assert _read(f"Orbis May 2026 spend, category-wise {level}") == (expected, None)


def test_category_alone_keeps_the_reader_convention_and_fcy_is_the_currency() -> None:
    # a breakdown by a bare "category" is each product's own group (the answer names the level it used)
    assert _read("category-wise summary of Orbis for May 2026") == ("product_group_id", None)
    assert "by currency" in read_wise("FCY wise breakup for Orbis May 2026, with reporting ccy total")
    assert "by currency" in read_wise("currency-wise spend of Orbis (original currency + EUR equivalent)")


@pytest.mark.parametrize("text", ["otherwise give the total for Orbis", "likewise for Q2", "clockwise",
                                  "time-wise this is urgent", "other-wise", "penny wise and pound foolish",
                                  "stepwise approval", "pairwise compare", "penny wise spend of Orbis",
                                  "a wise choice for Orbis"])
def test_words_ending_in_wise_that_name_no_dimension_are_left_alone(text: str) -> None:
    assert read_wise(text) == text


@pytest.mark.parametrize(("word", "said"), [("region", "by region"), ("cost centre", "by cost centre"),
                                            ("plant", "by plant"), ("department", "by department"),
                                            ("party", "by party"), ("GL", "by gl"), ("BU", "by bu")])
def test_a_wise_dimension_the_data_lacks_is_a_grouping_named_back(word: str, said: str) -> None:
    out = read_wise(f"{word}-wise spend of Orbis for 2025")
    assert said in read_wise(f"{word} wise summary of Orbis for 2025")
    assert said in out
    assert said.split(" ", 1)[1] in parse_breakdown(out).unknown or said in out


_HEADERS = (("Vendor", "supplier_id"), ("SupplierName", "supplier_id"), ("ProductCode", "product_code"),
            ("product_code", "product_code"), ("Company", "company_id"), ("LegalEntity", "company_id"),
            ("ProductGroup", "product_group_id"))
_LAYOUTS = ("pivot rows={h}, values=Sum of Gross, {rest}", "pivot: {h} on rows, sum of gross, {rest}",
            "{rest}, like a pivot w/ {h} on rows", "{rest} (one row per {h} pls)", "{rest}; rows: {h}")


@pytest.mark.parametrize(("header", "expected", "layout"), [
    # every header in a layout in turn, and every layout with one header
    *((h, e, lay) for (h, e), lay in zip(_HEADERS, itertools.cycle(_LAYOUTS), strict=False)),
    *(("Company", "company_id", lay) for lay in _LAYOUTS)])
def test_pivot_rows_read_as_the_grouping(header: str, expected: str, layout: str) -> None:
    question = layout.format(h=header, rest="for Orbis Trading 2026-Q1")
    assert _read(question)[0] == expected, clean_question(question)


@pytest.mark.parametrize(("header", "grain"), [("InvMonth", "month"), ("InvoiceQuarter", "quarter"),
                                               ("PostingMonth", "month"), ("month", "month")])
def test_pivot_rows_of_a_date_part_read_as_the_grain(header: str, grain: str) -> None:
    assert _read(f"Orbis Trading spend 2025, pivot w/ {header} on rows") == (None, grain)


def test_pivot_values_and_filter_are_the_measure_and_the_limits() -> None:
    out = read_pivot("pivot rows=Vendor, values=Sum of Net, filter Company=comp A, Period=02/2026 thru 04/2026")
    assert out.startswith("by supplier, net spend")
    assert "filter" not in out and "pivot" not in out
    # a value no governed measure is stays as typed, for its reader
    assert "values = sum of gross in doc currency" in read_pivot("pivot rows = Currency, values = sum of gross in "
                                                                 "doc currency; ORBIS; 2025-10")


def test_a_pivot_column_the_data_lacks_is_kept_as_a_grouping_after_the_known_one() -> None:
    assert read_pivot("Orbis pivot: rows = cost center, cols = supplier, Q2-26") == \
        "Orbis by supplier and by cost center, Q2-26"
    assert read_pivot("Orbis pivot: rows = supplier, columns = month, 2026") == "Orbis by supplier and month, 2026"


def test_a_layout_already_said_is_not_added_twice() -> None:
    assert read_pivot("Orbis spend by month 2025 (one row per month)") == "Orbis spend by month 2025"
    assert read_pivot("quarterly split for Orbis, 2025, quarter on rows") == "quarterly split for Orbis, 2025"


def test_no_layout_no_change() -> None:
    for text in ("rows of invoices for Orbis in May", "Orbis spend 2025", "pivot supplier x month for COMP-B"):
        assert read_layout(text) == text


@pytest.mark.parametrize(("question", "kept"), [
    ("which entity spent the most in 2H-25? (MAX over company col)", False),
    ("which month had the lowest spend? (min of month column)", False),
    ("which entity spent the least in 2025? (MAX over company col)", True),  # another way: kept, asked about
    ("spend of Orbis (MAX over company col)", True),
    ("which entity spent the most in 2025? (MAX over buyer col)", True)])  # no dimension of ours: kept
def test_a_column_restatement_of_the_ranking_is_dropped_only_beside_it(question: str, kept: bool) -> None:
    assert (read_column_rank(question) == question) is kept


@pytest.mark.parametrize(("word", "noun"), [
    ("InvMonth", "month"), ("doc currency", "currency"), ("FCY", "currency"), ("vndrs", "supplier"),
    ("suplier", "supplier"), ("Warengruppe", "product group"), ("top-level group", "top-level product group"),
    ("subgroup", "product group"), ("entities", "company"), ("budget", None), ("Orbis", None)])
def test_dimension_noun_is_one_table_for_every_layout_reader(word: str, noun: str | None) -> None:
    assert dimension_noun(word) == noun


# -- one reader of "(MAX over company col)": read_column_rank, after read_formulas (router/contract.py) -------------


@pytest.mark.parametrize("text", [
    "which entity spent the most in 2H-25? (MAX over company col)",
    "(MAX over company col) which entity spent the most in 2H-25?",
    "which supplier had the least spend in Q1 (MIN over vendor column)",
    "(MIN over vendor column) which supplier had the least spend in Q1",
])
def test_column_rank_beside_the_same_ranking_is_set_aside(text: str) -> None:
    assert "MAX" not in clean_question(text) and "MIN" not in clean_question(text)


@pytest.mark.parametrize("text", [
    "spend of Company A in Q1 2026 (MAX over company col)",       # no ranking outside: the words stay, named
    "(MAX over company col) spend of Company A in Q1 2026",
    "which supplier had the least spend in Q1 (MAX over vendor col)",  # the other way: kept
    "which entity spent the most (MAX over foo col)",              # a column the data does not have
])
def test_column_rank_without_its_ranking_is_kept(text: str) -> None:
    assert "MAX" in clean_question(text)


@pytest.mark.parametrize("word,noun", [
    ("SupplierID", "supplier"), ("CompanyName", "company"), ("InvMonth", "month"), ("vendor", "supplier"),
    ("top_group_id", "top-level product group"), ("DocType", None), ("cost center", None),
])
def test_dimension_noun_reads_headers_through_field_of(word: str, noun: str | None) -> None:
    assert dimension_noun(word) == noun
