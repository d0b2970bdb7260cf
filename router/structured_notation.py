"""Structured notation of BI analysts and API users, read as the phrases the readers already know.

Analysts type asks as query fragments and dashboard settings rather than sentences: "count distinct supplier_id
with spend", "AVG(invoice_total_eur) company c", "min invoice total ..., return the inv no", "dims: company |
metric: sum(net) | period ...", "pivot supplier x month", "vat_amount total", "CN-2025-0504 -> original_invoice_number",
"company ranking by spend", "filter: currency=USD". Each is made of three kinds of token:

* a *field name* (snake_case, dotted "invoices.gross_amount", or spaced "invoice total"), looked up in :data:`FIELDS`,
  the one table of the columns the governed data has: a measure (gross, net, tax, units, an invoice's total, a unit
  price, a list price), a dimension (supplier, company, product, product group, top-level group, a time grain,
  currency, status, document type) or a key/date column (invoice number, original invoice, invoice date);
* an *aggregate call* on a field, with or without parentheses ("sum(net_amount)", "count(distinct supplier)",
  "max unit price"), written as the measure's words ("net spend", "number of suppliers", "highest unit price");
* a *list or separator* of the notation: "dims:" / "group:" / "pivot a x b" lists (the breakdown "by a and b"),
  the labels "metric:", "filter:", "measure:" (dropped, their content kept), "|" and "->" between parts (commas).

The rewrite is to the readers' canonical words, never an executor: SQL text is never run. A field the table does
not have is never dropped or guessed: it stays as typed, and router/ap_fields.py names it where it stands as a
breakdown or a filter ("dims: supplier, buyer_name", "where po_number like 'PO-77%'"), so the rest is answered and
marked partial with the field named as not understood. A function the governed metrics do not compute on a field
("median(gross)", "sum(unit_price)") stays as typed too, and the reader names it back.

Ranges ("2025-07..2026-04", "Jan->Apr") are periods, read by the period readers: an arrow between two periods is
left alone here. SQL clauses with their own grammar (SELECT ... FROM, WHERE key = value, GROUP BY, ORDER BY ...
LIMIT) are read by router/keyword_query.py, which runs right after this reader and shares its field words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Kind = Literal["amount", "net", "tax", "units", "invoice_amount", "unit_price", "list_price", "dimension", "key",
               "date", "count_all"]


@dataclass(frozen=True)
class Field:
    """A column of the governed data as the readers name it."""

    kind: Kind
    words: str  # the reader's words: the measure ("net spend") or the dimension ("product group")
    plural: str = ""  # a dimension's plural, for "number of suppliers"


def _dim(words: str, plural: str) -> Field:
    return Field("dimension", words, plural)


#: The columns of the governed views and API, under the names analysts write them (normalized: lower case, "_"
#: between words, no currency suffix, no plural "s"). One table for every form of this notation.
FIELDS: dict[str, Field] = {
    # gross spend (net + tax, the governed spend)
    **dict.fromkeys(("gross", "gross_amount", "gross_total", "grand_total", "amount", "spend", "spend_amount",
                     "spend_reporting_amount", "total", "total_amount", "value", "line_gross_amount",
                     "gross_value", "spend_total", "cost"), Field("amount", "spend")),
    **dict.fromkeys(("net", "net_amount", "net_total", "net_value", "line_net_amount", "net_spend"),
                    Field("net", "net spend")),
    **dict.fromkeys(("vat", "vat_amount", "tax", "tax_amount", "line_tax_amount", "vat_total", "tax_total"),
                    Field("tax", "tax amount")),
    **dict.fromkeys(("unit", "quantity", "qty", "line_quantity", "units_bought", "volume"), Field("units", "units")),
    # an invoice's own total: averaged, the average invoice value; its extremes, the largest / smallest invoice
    **dict.fromkeys(("invoice_total", "invoice_value", "invoice_gross", "invoice_amount", "invoice_gross_total",
                     "invoice_grand_total", "document_total", "doc_total", "invoice_sum", "invoice"),
                    Field("invoice_amount", "spend")),
    **dict.fromkeys(("unit_price", "net_unit_price", "price", "price_per_unit", "line_unit_price", "unit_cost",
                     "unit_net_price", "net_price"), Field("unit_price", "unit price")),
    **dict.fromkeys(("list_price", "catalog_price", "catalogue_price", "price_list"),
                    Field("list_price", "list price")),
    # dimensions
    **dict.fromkeys(("supplier", "supplier_id", "supplier_name", "supplier_code", "vendor", "vendor_id",
                     "vendor_name", "supp", "sup"), _dim("supplier", "suppliers")),
    **dict.fromkeys(("company", "company_id", "company_name", "company_code", "entity", "legal_entity", "co", "comp"),
                    _dim("company", "companies")),
    **dict.fromkeys(("product", "product_code", "product_id", "product_name", "sku", "material", "item"),
                    _dim("product", "products")),
    **dict.fromkeys(("product_group", "product_group_id", "product_group_name", "group", "group_id", "group_name",
                     "category", "category_id", "pg", "product_category"),
                    _dim("product group", "product groups")),
    **dict.fromkeys(("top_group", "top_group_id", "top_level_group", "top_product_group", "parent_group",
                     "top_level_product_group"), _dim("top-level group", "top-level groups")),
    "month": _dim("month", "months"), "quarter": _dim("quarter", "quarters"), "year": _dim("year", "years"),
    "week": _dim("week", "weeks"), "day": _dim("day", "days"),
    **dict.fromkeys(("currency", "currency_code", "invoice_currency", "ccy"), _dim("currency", "currencies")),
    **dict.fromkeys(("status", "invoice_status", "document_status"), _dim("status", "statuses")),
    **dict.fromkeys(("document_type", "doc_type", "type"), _dim("document type", "document types")),
    # keys and dates: outputs and filters the readers know
    **dict.fromkeys(("invoice_number", "invoice_no", "inv_no", "invoice_id", "document_number", "document_id",
                     "doc_id", "doc_number"), Field("key", "invoice number")),
    **dict.fromkeys(("original_invoice_number", "original_invoice", "original_invoice_no", "original_invoice_id",
                     "reference_invoice", "referenced_invoice"), Field("key", "original invoice number")),
    **dict.fromkeys(("line_id", "invoice_line_id", "line", "invoice_line"), Field("count_all", "invoice lines")),
    **dict.fromkeys(("invoice_date", "posting_date", "document_date", "inv_date", "date", "period"),
                    Field("date", "date")),
    # a date column's grain ("InvMonth", "posting_month"): the time dimension
    **{f"{d}_{g}": _dim(g, f"{g}s") for d in ("invoice", "posting", "document", "period")
       for g in ("month", "quarter", "year", "week", "day")},
}

#: Abbreviations of a spreadsheet's or an export's column headers, one word of the name each ("InvTotal",
#: "DocType", "VendNo", "NetAmt"): written out before the name is looked up in :data:`FIELDS` (a closed class).
HEADER_WORDS: dict[str, str] = {
    "inv": "invoice", "invc": "invoice", "doc": "document", "amt": "amount", "amnt": "amount", "vend": "vendor",
    "vndr": "vendor", "supp": "supplier", "suppl": "supplier", "prod": "product", "grp": "group",
    "curr": "currency", "dt": "date", "mth": "month", "yr": "year", "qtr": "quarter", "no": "number",
    "num": "number", "nr": "number", "tot": "total",
}

#: Currency and unit suffixes of a column name that only say how it is reported ("gross_eur", "spend_in_eur").
_SUFFIX = re.compile(r"_(?:in_)?(?:eur|reporting|rc|lc)$")


#: the joint of a CamelCase header's words ("InvDate", "NetAmount", "ProductCode"; "GLAccount": "gl_account")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _normal(name: str) -> str:
    name = _CAMEL.sub("_", name.strip().strip("'\"`"))
    name = re.sub(r"[\s.\-]+", "_", name.casefold())
    name = re.sub(r"_+", "_", name).strip("_")
    return _SUFFIX.sub("", name)


def column_name(name: str) -> str:
    """A column header as the snake_case name the tables read ("InvDate": "invoice_date", "Co": "co").

    >>> column_name("DocType"), column_name("GL_Account"), column_name("Net Amt")
    ('document_type', 'gl_account', 'net_amount')
    """
    return _spelled_out(_normal(name))


def _spelled_out(name: str) -> str:
    """A normalized name with its header abbreviations written out ("inv_total": "invoice_total")."""
    return "_".join(HEADER_WORDS.get(w, w) for w in name.split("_"))


def field_of(name: str) -> Field | None:
    """The governed column ``name`` stands for, or ``None`` when the data has no such column.

    Dotted names are read with their table ("invoices.gross_amount") or without it; a plural is its singular; a
    sheet's CamelCase header is its words, abbreviations written out (:data:`HEADER_WORDS`: "InvTotal", "NetAmt").

    >>> field_of("invoice_total_eur").kind
    'invoice_amount'
    >>> field_of("Invoices.Net_Amount").words
    'net spend'
    >>> field_of("buyer_name") is None
    True
    >>> field_of("InvTotal").kind, field_of("NetAmt").words, field_of("DocType").words
    ('invoice_amount', 'net spend', 'document type')
    """
    candidates = [_normal(name)]
    if "." in name and not re.search(r"\s", name.strip()):  # ("incl. VAT" is an abbreviation, no table.column)
        candidates.append(_normal(name.rsplit(".", 1)[1]))
    # a header's abbreviations ("InvTotal", "DocType", "NetAmt"): the same name written out
    candidates.extend(s for c in list(candidates) if (s := _spelled_out(c)) != c)
    parts = candidates[0].split("_")
    if len(parts) == 2:
        candidates.append(f"{parts[1]}_{parts[0]}")  # "amount_net", "total_gross": a column's two words either way
    for cand in candidates:
        forms = (cand, cand[:-1] if cand.endswith("s") and not cand.endswith("ss") else "",
                 cand[:-2] if cand.endswith("es") else "")
        for form in forms:
            if form in FIELDS:
                return FIELDS[form]
    return None


# -- aggregate calls ----------------------------------------------------------------------------------------------
#: The functions of an aggregate call, by the names analysts write.
_FUNCTIONS = {"sum": "sum", "total": "sum", "count": "count", "cnt": "count", "avg": "avg", "average": "avg",
              "mean": "avg", "min": "min", "minimum": "min", "max": "max", "maximum": "max", "median": "median"}
_FN = r"(?P<fn>sum|count|cnt|avg|average|mean|min|minimum|max|maximum|median)"
#: "sum(net_amount)", "COUNT(DISTINCT supplier)", "avg( invoice value )", "max(invoice gross)"
#: ("total(...)" only with its parentheses: "total spend" is prose)
_CALL = re.compile(rf"\b{_FN.replace('(?P<fn>', '(?P<fn>total|')}\s*\(\s*(?P<distinct>distinct\s+)?"
                   r"(?P<arg>\*|[\w.\- ]{1,40}?)\s*\)", re.I)
#: a field written bare after its function: one snake/dotted token, or up to three plain words
_ARG_WORDS = r"(?P<arg>[a-z][\w]*(?:\.[a-z]\w*)?(?:\s+(?!for\b|of\b|in\b|by\b|per\b|from\b|with\b|where\b|and\b)" \
             r"[a-z]\w*){0,2})"
#: "count distinct supplier_id", "max unit price", "min invoice total", "avg invoice_value": no parentheses
#: (not "mean": "I mean the invoice total" is prose)
_BARE_CALL = re.compile(rf"\b{_FN.replace('|mean', '')}\s+(?P<distinct>distinct\s+)?{_ARG_WORDS}", re.I)

_EXTREME_INVOICE = {"min": "smallest invoice", "max": "largest invoice"}
_EXTREME_PRICE = {"min": "lowest unit price", "max": "highest unit price"}


def _call_words(fn: str, field: Field | None, distinct: bool, bare: bool = False) -> str | None:
    """The reader's words for the aggregate ``fn`` of ``field`` (``None``: no governed figure computes it).

    Without parentheses an average or an extreme is read only of an invoice's total or a unit price: "average spend
    per month" is a run rate and "the max spend" a ranking, never an invoice's value."""
    if field is None:
        return None
    kind = field.kind
    if bare and fn in ("avg", "min", "max") and kind not in ("invoice_amount", "unit_price"):
        return None
    if fn == "count":
        if kind == "dimension" and field.plural:
            return f"number of {field.plural}"
        if kind == "count_all":
            return "number of invoice lines"
        if kind in ("key", "invoice_amount") or (kind == "amount" and not distinct):
            return "number of invoices"
        return None
    if fn == "sum":
        return field.words if kind in ("amount", "net", "tax", "units", "invoice_amount") else None
    if fn == "avg":
        if kind in ("amount", "invoice_amount"):
            return "average invoice value"
        return "average unit price" if kind == "unit_price" else None
    if fn in ("min", "max"):
        if kind in ("amount", "invoice_amount"):
            return _EXTREME_INVOICE[fn]
        return _EXTREME_PRICE[fn] if kind == "unit_price" else None
    return None  # median: no governed metric computes it; left as typed, named back by the reader


def call_words(fn: str, field: Field | None, distinct: bool = False) -> str | None:
    """The reader's words for the aggregate ``fn`` ("sum", "count", "avg", "min", "max") of ``field``, or ``None``
    when no governed figure computes it (shared with the spreadsheet formulas of router/spreadsheet_formulas.py).

    >>> call_words("avg", field_of("InvTotal")), call_words("sum", field_of("NetAmount"))
    ('average invoice value', 'net spend')
    """
    return _call_words(fn, field, distinct)


def _call(match: re.Match[str], bare: bool) -> str:
    if match.group("fn").casefold() == "total" and not re.match(r"total\(", match.group(0), re.I):
        return match.group(0)  # "total (incl. VAT)", "total (net)": a remark on prose, no call
    fn = _FUNCTIONS[match.group("fn").casefold()]
    arg = match.group("arg").strip()
    distinct = bool(match.group("distinct"))
    if arg == "*":
        return "number of invoices" if fn == "count" else match.group(0)
    if bare:
        # a bare call reads the longest run of words that is a field ("max unit price paid": "unit price")
        words = arg.split()
        for n in range(len(words), 0, -1):
            field = field_of(" ".join(words[:n]))
            if fn == "count" and field is not None and field.kind == "dimension" and not distinct and \
                    not words[n - 1].lower().endswith("s"):
                continue  # "count company c", "cnt supplier Gamma": a count of one member's documents, no members
            said = _call_words(fn, field, distinct, bare=True)
            if said is not None:
                rest = " ".join(words[n:])
                return f"{said} {rest}".rstrip()
        return match.group(0)
    said = _call_words(fn, field_of(arg), distinct)
    return said if said is not None else match.group(0)


# -- lists, labels and separators ---------------------------------------------------------------------------------
_ITEM = r"[A-Za-z][\w.\-]*(?:\s+[A-Za-z][\w.\-]*)?"
#: "dims: supplier, buyer_name", "dimensions = company", "group: month", "breakdown: product_group": a breakdown list
_DIMS = re.compile(rf"\b(?:dims?|dimensions?|grouping|breakdown|split|rows|columns|axes|axis)\s*[:=]\s*"
                   rf"(?P<items>{_ITEM}(?:\s*(?:,|\+|/|&|\band\b)\s*{_ITEM})*)", re.I)
_SNAKE_NAME = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+\.[a-z][a-z0-9_]*", re.I)
#: "pivot supplier x month", "pivot: supplier by month", "supplier x month": two dimensions crossed
#: ("pivot w/ month on rows": "w/" is "with", no side of a pivot)
_PIVOT = re.compile(r"\bpivot(?:\s+table)?\s*:?\s*(?:on\s+|by\s+)?(?P<a>(?!w/)[A-Za-z][\w.\-]*)\s*"
                    r"(?:\bx\b|×|\*|\bby\b|,|/|\band\b|\bvs\.?)\s*(?P<b>[A-Za-z][\w.\-]*)", re.I)
_CROSS = re.compile(r"\b(?P<a>[A-Za-z][\w.\-]*)\s*(?:\bx\b|×)\s*(?P<b>[A-Za-z][\w.\-]*)\b", re.I)
#: "top_group breakdown", "product_group split": a column named before its breakdown word
#: (a column's own name only: in prose "last year split by supplier" the year is the period, not a breakdown)
_FIELD_BREAKDOWN = re.compile(r"\b(?P<f>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+(?:breakdown|split)\b", re.I)
#: "company ranking by spend", "supplier leaderboard": the dimension ranked
_RANKING = re.compile(r"\b(?P<f>[a-z][\w.]*)\s+(?:ranking|leaderboard|league\s+table)\s+(?P<by>by|on)\b", re.I)
#: "metric: sum(net)", "filter: currency=USD", "measure = gross": labels of a dashboard's parts (content kept)
_LABEL = re.compile(r"(?:^|(?<=[|,;(]))\s*(?:metrics?|measures?|kpis?|filters?|values?|aggregates?|aggs?|periods?|"
                    r"time(?:frame|_?range)?|date_?range|fields?|select)\s*:\s*",
                    re.I)
#: "|" between the parts of a dashboard ask
_PIPE = re.compile(r"\s*\|\s*")
#: "CN-2025-0504 -> original_invoice_number": an arrow before a field asked of what is before it
_ARROW = re.compile(r"\s*(?:->|→|=>)\s*(?P<f>[A-Za-z][\w.]*(?:\s+[a-z]\w*){0,2})")
#: "company b", "supplier sup-18", "entity comp-c": a dimension word with one member's letter or id after it
_NAMED_AFTER = re.compile(r"(?:comp-[a-z]|[A-Za-z][\w.]*\s+(?:[a-z]|[a-z]+-?\d+|comp-[a-z]))(?![\w-])", re.I)
#: "company_a", "comp_c": a company's id written as a column value (never "company_id", "company_name")
_COMPANY_VALUE = re.compile(r"\bcomp(?:any)?_(?P<l>[a-z])\b(?!_)", re.I)
#: a snake_case or dotted field name standing alone ("vat_amount total", "product_codes bought by", "list_price of")
#: (not before an operator: "invoice_date between ...", "supplier_id = ...", "company_id=..." are filters, read by
#: router/keyword_query.py and router/tool_syntax.py)
_SNAKE = re.compile(r"(?<![\w\-'\"(])(?P<f>[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+\.[a-z][a-z0-9_]*)(?![\w\-])"
                    r"(?!\s*(?:[=<>!:)]|\b(?:in|not|between|like|ilike|is)\b))", re.I)


#: '"company": "COMP-A"', "'period': '2026-Q1'", '"dims": ["supplier", "month"]': a JSON / YAML object's pair
_JSON_PAIR = re.compile(r"[\"'](?P<k>[A-Za-z][\w .-]{0,30})[\"']\s*:\s*"
                        r"(?P<v>\"[^\"]*\"|'[^']*'|\[[^\]]*\]|[^,{}\[\]]+)")
#: "... group by supplier_id having sum(gross) > 40000": the groups whose aggregate passes the condition
_HAVING = re.compile(r"\bby\s+(?P<dim>top-level\s+group|product\s+group|[a-z]+)\s+having\s+", re.I)


def _json_object(text: str) -> str:
    """A request written as a JSON / YAML object, as its "key: value" parts (braces and quotes are the notation's,
    not the ask's; a list value is its items)."""
    if not re.search(r"^\s*[{\[]|[\"']\w[\w .-]*[\"']\s*:", text):
        return text

    def pair(match: re.Match[str]) -> str:
        value = match.group("v").strip().strip("\"'")
        if value.startswith("["):
            value = ", ".join(v.strip().strip("\"'") for v in value.strip("[]").split(",") if v.strip())
        return f"{match.group('k')}: {value}"

    out = _JSON_PAIR.sub(pair, text)
    if out == text:
        return text
    return re.sub(r"^\s*[{\[]\s*|\s*[}\]]\s*$", "", out)


def _having(match: re.Match[str]) -> str:
    field = field_of(match.group("dim"))
    if field is None or field.kind != "dimension":
        return match.group(0)
    return f"{field.plural} with "


def _dimension_words(item: str) -> str:
    field = field_of(item)
    return field.words if field is not None and field.kind == "dimension" else item.strip()


def _by_list(items: list[str]) -> str:
    return "by " + " and ".join(_dimension_words(i) for i in items if i.strip())


#: a dimension list saying there is none: the total alone ("dims: none", "breakdown: -", "group: n/a")
_NO_DIMENSION = re.compile(r"none|no|nil|null|n/?a|total|totals?\s+only|-+", re.I)


def _dims(match: re.Match[str]) -> str:
    """The list's dimensions as a breakdown, up to the first item that is no column ("dims: supplier, period = Q1":
    the period is the ask's next part, kept after the breakdown)."""
    pieces = re.split(r"(\s*(?:,|\+|/|&|\band\b)\s*)", match.group("items"))
    items, seps = pieces[0::2], pieces[1::2]
    if _NO_DIMENSION.fullmatch(match.group("items").strip()):
        return ""
    if _NO_DIMENSION.fullmatch(items[0].strip()):
        rest = "".join(p for pair in zip(seps, items[1:], strict=True) for p in pair)
        return rest  # no breakdown asked: the total alone
    taken = 0
    for item in items:
        field = field_of(item)
        if not ((field is not None and field.kind == "dimension") or _SNAKE_NAME.fullmatch(item.strip())):
            break
        taken += 1
    if taken == 0:
        return match.group(0)
    rest = "".join(p for pair in zip(seps[taken - 1:], items[taken:], strict=False) for p in pair)
    return _by_list(items[:taken]) + rest


def _pivot(match: re.Match[str]) -> str:
    return _by_list([match.group("a"), match.group("b")])


def _cross(match: re.Match[str]) -> str:
    # "supplier x month" only when both sides are dimensions ("2 x 500 units", "box x 10" stay as written)
    a, b = field_of(match.group("a")), field_of(match.group("b"))
    if a is None or b is None or a.kind != "dimension" or b.kind != "dimension":
        return match.group(0)
    return _by_list([match.group("a"), match.group("b")])


def _field_breakdown(match: re.Match[str]) -> str:
    field = field_of(match.group("f"))
    if field is None or field.kind != "dimension":
        return match.group(0)
    return f"by {field.words}"


def _ranking(match: re.Match[str]) -> str:
    field = field_of(match.group("f"))
    if field is None or field.kind != "dimension" or not field.plural:
        return match.group(0)
    return f"rank {field.plural} {match.group('by').lower()}"


def _arrow(match: re.Match[str]) -> str:
    words = match.group("f")
    field = field_of(words) or field_of(words.split()[0])
    if field is None:
        return match.group(0)  # "Jan->Apr", "Q1 -> Q2": a range or a change, read by the period readers
    if field.kind == "dimension" and _NAMED_AFTER.match(match.string, match.start("f")):
        return match.group(0)  # "Beta -> company b", "-> supplier sup-18": one company / supplier named, no grouping
    return f", {field.words if field.kind != 'dimension' else 'by ' + field.words}"


#: a to-date period written as one snake_case name ("ytd_so_far", "year_to_date", "qtd"): the period's words
TO_DATE = re.compile(r"(?:ytd|qtd|mtd|(?:year|quarter|month)_to_date)(?:_so_far)?", re.I)


def _snake(match: re.Match[str]) -> str:
    name = match.group("f")
    field = field_of(name)
    if field is None and TO_DATE.fullmatch(name):
        return name.replace("_", " ")  # "ytd_so_far", "year_to_date": the period words, for the period readers
    if field is None:
        # a measure written as one compact name ("total_spend", "n_invoices", "avg_unit_price"), else a column the
        # data does not have: kept, named by router/ap_fields.py / the reader
        return measure_words(name) or name
    if field.kind == "date":
        return "invoice date" if "posting" not in name.lower() else "posting date"
    plural = name.lower().endswith("s") and not _normal(name).endswith("ss")
    if field.kind == "dimension":
        return field.plural if plural and field.plural else field.words
    if field.kind == "key":
        return f"{field.words}s" if plural else field.words
    words = "invoice total" if field.kind == "invoice_amount" else field.words
    # "gross_eur", "spend_in_eur": the reporting currency said with the measure
    return f"{words} in EUR" if re.search(r"_(?:in_)?eur$", name, re.I) else words


#: "by company" / "by company and month": a breakdown whose rows are the companies
#: (never "booked by Company A", "paid by company B": a company named after "by" is a name, no grouping)
_BY_COMPANY = re.compile(r"\bby\s+company\b(?![-_]\w|\s+(?:[A-Za-z]\b|(?-i:[A-Z])|[\w-]*\d))"
                         r"(?:\s+and\s+(?:by\s+)?(?:top-level\s+group|product\s+group|[a-z]+)\b)*",
                         re.I)
#: words that name the companies themselves or their scope: then the rows are theirs, nothing is added
_COMPANY_SCOPE = re.compile(r"\bcompan(?:y|ies)\b(?<!by company)|\bCOMP-[A-Z]\b|\bentit(?:y|ies)\b|\bcos\b|"
                            r"\btenant\b|\bgroup[- ]wide\b", re.I)


def _every_company(text: str) -> str:
    """A breakdown by company with no company named is every company's row: "for all companies" said, so the
    readers never ask "which company?" of a grouping whose rows are the companies."""
    grouped = _BY_COMPANY.search(text)
    if grouped is None:
        return text
    rest = text[:grouped.start()] + text[grouped.end():]
    if _COMPANY_SCOPE.search(rest) or re.search(r"\bcompan(?:y|ies)\b", grouped.group(0)[10:], re.I):
        return text
    return f"{text[:grouped.end()]} for all companies{text[grouped.end():]}"


def structured_style(text: str) -> str:
    """``text`` with its aggregate calls, field names, dimension lists, labels and separators written as the
    readers' phrases (unchanged when it has none).

    >>> structured_style("count distinct supplier_id with spend, all companies, 2026-Q1")
    'number of suppliers with spend, all companies, 2026-Q1'
    >>> structured_style("dims: company | metric: sum(net) | period 2025-H2")
    'by company for all companies, net spend, period 2025-H2'
    >>> structured_style("pivot supplier x month for COMP-B")
    'by supplier and month for COMP-B'
    >>> structured_style("AVG(invoice_total_eur) company_c, 2026-Q1")
    'average invoice value COMP-C, 2026-Q1'
    """
    if not re.search(r"[_|(:×→>]|\bby\s+company\b|\b(?:x|sum|count|cnt|avg|average|mean|min|max|minimum|maximum|"
                     r"median|pivot|ranking|leaderboard|breakdown|split|having)\b", text, re.I):
        return text
    out = _json_object(text)
    out = _CALL.sub(lambda m: _call(m, bare=False), out)
    out = _BARE_CALL.sub(lambda m: _call(m, bare=True), out)
    out = _DIMS.sub(_dims, out)
    out = _PIVOT.sub(_pivot, out)
    out = _CROSS.sub(_cross, out)
    out = _FIELD_BREAKDOWN.sub(_field_breakdown, out)
    out = _RANKING.sub(_ranking, out)
    out = _HAVING.sub(_having, out)
    out = re.sub(r"\bhaving\s+(?=\w)", "with ", out, flags=re.I)
    out = _ARROW.sub(_arrow, out)
    out = _PIPE.sub(", ", out)
    out = _LABEL.sub(" ", out)
    out = _COMPANY_VALUE.sub(lambda m: f"COMP-{m.group('l').upper()}", out)
    out = _SNAKE.sub(_snake, out)
    out = _every_company(out)
    out = re.sub(r"\s+([,?.!])", r"\1", re.sub(r",\s*,", ",", " ".join(out.split())))
    return out.strip(" ,")


# -- compact measure names ----------------------------------------------------------------------------------------
#: aggregate prefixes of a compact measure name ("n_invoices", "total_spend", "avg_unit_price", "share_of_spend")
_COUNT_WORDS = frozenset(("n", "no", "nr", "num", "number", "count", "cnt", "qty_of", "nb"))
_SUM_WORDS = frozenset(("total", "sum", "tot"))
_AVG_WORDS = frozenset(("avg", "average", "mean"))
_SHARE_WORDS = frozenset(("share", "pct", "percent", "percentage", "ratio"))
_JOINERS = frozenset(("of", "per", "in", "the"))
#: VAT qualifiers: "excl. VAT" / "ex VAT" / "w/o VAT" is the net, "incl. VAT" the gross
_EXCL = frozenset(("excl", "ex", "excluding", "without", "wo", "w/o", "exclusive", "pre"))
_INCL = frozenset(("incl", "including", "inc", "with", "inclusive"))
_TAX = frozenset(("vat", "tax", "taxes", "mwst"))
#: document nouns of a count: credit notes (router/document_words.py writes the shorthand out)
_CREDIT_NOTE_WORDS = re.compile(r"^(?:cns?|credit(?:_?notes?)?|credit_note(?:_docs?|_documents?)?|creditnotes?)$")


def measure_words(value: str) -> str | None:
    """The readers' words for a measure written as a value or a compact name, or ``None`` (not a measure).

    >>> measure_words("spend_excl_vat"), measure_words("avg price/unit"), measure_words("n_invoices")
    ('net spend', 'average unit price', 'number of invoices')
    >>> measure_words("total_spend"), measure_words("amount_net"), measure_words("count(CNs)")
    ('total spend', 'net spend', 'number of credit notes')
    >>> measure_words("share_of_spend"), measure_words("VAT"), measure_words("buyer_name") is None
    ('share of spend', 'tax amount', True)
    """
    words = [w for w in re.split(r"[^a-z0-9]+", value.casefold().replace("w/o", "wo")) if w]
    if not words or len(words) > 6:
        return None
    basis = ""
    for i in range(len(words) - 1):
        if words[i + 1] in _TAX and words[i] in _EXCL | _INCL:
            basis = "net" if words[i] in _EXCL else "gross"
            words = words[:i] + words[i + 2:]
            break
    fn = ""
    if words and words[0] in _COUNT_WORDS | _SUM_WORDS | _AVG_WORDS | _SHARE_WORDS:
        fn, words = words[0], words[1:]
    words = [w for w in words if w not in _JOINERS]
    if not words:
        words = ["spend"] if basis or fn in _SUM_WORDS else []
        if not words:
            return None
    if fn in _COUNT_WORDS:
        if _CREDIT_NOTE_WORDS.match("_".join(words)) or (words[0] in ("credit", "cn", "cns")):
            return "number of credit notes"
        if words[0] in ("doc", "docs", "document", "documents"):
            return "number of documents"
    field = _field(words)
    if field is None and len(words) > 1 and _field(words[:1]) is not None and _field(words[:1]).kind == "dimension":
        field = _field(words[1:])  # "category_spend", "supplier_spend": the measure, of the dimension's members
    if field is None:
        return None
    said = _measure_of(field, basis)
    if said is None:
        return None
    if fn in _COUNT_WORDS:
        return "number of invoices" if field.kind in ("invoice_amount", "key", "amount") else (
            f"number of {field.plural}" if field.kind == "dimension" and field.plural else None)
    if field.kind == "dimension":
        return None
    if fn in _AVG_WORDS:
        return "average unit price" if field.kind == "unit_price" else (
            "average invoice value" if field.kind in ("amount", "invoice_amount") else None)
    if fn in _SHARE_WORDS:
        return f"share of {said}"
    if fn in _SUM_WORDS and said == "spend":
        return "total spend"
    return said


def _field(words: list[str]) -> Field | None:
    """The field the words name in either order ("amount net", "price unit": the net amount, the unit price)."""
    for cand in ("_".join(words), "_".join(reversed(words))):
        field = field_of(cand)
        if field is not None:
            return field
    return None


def _measure_of(field: Field, basis: str) -> str | None:
    if field.kind == "amount" or field.kind == "invoice_amount":
        return "net spend" if basis == "net" else "spend"
    if field.kind in ("net", "tax", "units", "unit_price", "list_price", "dimension"):
        return field.words
    if field.kind == "key":
        return field.words
    return None


# -- aggregate calls no governed figure computes ------------------------------------------------------------------
#: what the governed figures are, named back with an aggregate that is none of them
_GOVERNED = ("spend (sum of gross), net spend, tax, units, invoice and supplier counts, the average, largest or "
             "smallest invoice, and the average, lowest or highest unit price")


#: the strict shape of a call named back: the function touching its parenthesis, one column or "distinct column"
_STRICT_CALL = re.compile(r"\w+\((?:distinct\s+)?\s*[A-Za-z][\w.]*\s*\)", re.I)


def unread_aggregates(text: str) -> str | None:
    """The clarification an aggregate call left as typed needs (its column unknown, or no governed figure computes
    that function of it), or ``None``: "sum(freight_cost)" answered as the total spend would be another figure
    presented as the one asked.

    >>> unread_aggregates("median(gross) Company A 2026-Q1")
    "I did not understand 'median(gross)': no governed figure computes a median of gross. I can give spend (sum of \
gross), net spend, tax, units, invoice and supplier counts, the average, largest or smallest invoice, and the average, \
lowest or highest unit price. Which one do you mean?"
    """
    for match in _CALL.finditer(text):
        arg = match.group("arg").strip()
        if not _STRICT_CALL.fullmatch(match.group(0)):
            continue  # "total (incl. VAT)", "max (approx.)": prose with a parenthesis, no call
        fn = _FUNCTIONS.get(match.group("fn").casefold(), "sum")
        field = None if arg == "*" else field_of(arg)
        if arg == "*" or _call_words(fn, field, bool(match.group("distinct"))) is not None:
            continue
        if field is None:
            why = f"the invoice data has no field {arg!r}"
        else:
            function = {"sum": "a sum", "count": "a count", "avg": "an average", "min": "a minimum",
                        "max": "a maximum", "median": "a median"}[fn]
            why = f"no governed figure computes {function} of {arg}"
        return f"I did not understand {match.group(0)!r}: {why}. I can give {_GOVERNED}. Which one do you mean?"
    return None


#: the governed figures, as a clarification names them
GOVERNED_FIGURES = _GOVERNED

__all__ = ["FIELDS", "GOVERNED_FIGURES", "HEADER_WORDS", "TO_DATE", "Field", "call_words", "column_name", "field_of",
           "measure_words", "structured_style", "unread_aggregates"]
