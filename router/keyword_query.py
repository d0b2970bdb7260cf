"""Search-bar queries of BI users and data engineers, rewritten into the plain phrasing the reader knows.

A data engineer types the question as the query they would run: "select count(*) from invoices where status = 'paid'
and invoice_date between '2026-01-01' and '2026-03-31'", "sum(gross) where supplier = 'Gamma' group by month",
"net_amount by supplier_name q4 2025 company_id = COMP-B"; an analyst types keywords: "cn count zeta 2025", "avg inv
value kestrel h2 25", "top10 products by spend". Each form names a constraint the reader already takes in prose
(measure, company, supplier, group, product, period, amount, status, currency, document type, breakdown, top N,
exclusion); left as written, a keyword is asked back about, or (worse) dropped: "invoice_date >= 2026-01-01" read as
that one day, "cost_center = 4711" as the year 4711.

Design note: the SQL is only ever read as a question, never executed. Every rewrite is of one exact form with one
meaning, to the words a person would use; a column of the governed views ("supplier_name", "invoice_date",
"net_amount") becomes the constraint it names. A column the views do not have ("cost_center = 4711") is left as
written for router/dimensions.py, which names it back as not understood: it is never dropped. The rewriting runs
before router/tool_syntax.py, which reads the agent's parameter forms ("company_id=COMP-Y", "gross_total_eur >
13000") that both write alike.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal, InvalidOperation
from typing import Any

from router.reading import MULTIPLIER_WORDS, parse_number, scale
from router.structured_notation import FIELDS

_DATE = r"'?(?P<{}>\d{{4}}-\d{{2}}-\d{{2}})'?"
_A, _B = _DATE.format("a"), _DATE.format("b")
#: the date columns of the governed views: an invoice's date is the period's day
_DAY_COL = r"(?:invoice_date|posting_date|document_date|inv_date|date)"
_OP = r"(?P<op>>=|=>|<=|=<|>|<|=)"

#: any of these marks a question typed as a query (the rewriting leaves prose alone)
_SIGNAL = re.compile(
    r"[=<>()']|\b(?:select|where|group\s+by|order\s+by|limit|between|cn|cns|inv|invs|sup|supp|amt|avg|cnt|top\d+|"
    r"\w+_\w+|comp\s+[a-z]|mth|mths|qtr|quarter\s*[1-4]|h[12]\s+\d{2}|q[1-4]\s+\d{2})\b", re.I)

#: "select supplier_name, sum(net_amount) from invoices": the select list and the table, read below
_SELECT = re.compile(r"^\s*select\s+(?P<cols>.+?)\s+from\s+(?:marts\.)?(?:validated_)?(?:invoices?|invoice_lines?|"
                     r"lines|spend|fct_\w+|v_\w+)\b\s*", re.I)
_AGGREGATES: tuple[tuple[re.Pattern[str], str], ...] = (
    # the counted column names what is counted: documents (invoices and credit notes), lines, suppliers, products
    (re.compile(r"\bcount\s*\(\s*(?:distinct\s+)?(?:document_id|doc_id|document_number)\s*\)", re.I),
     "number of documents"),
    (re.compile(r"\bcount\s*\(\s*(?:distinct\s+)?(?:invoice_)?line_id\s*\)", re.I), "number of invoice lines"),
    (re.compile(r"\bcount\s*\(\s*distinct\s+(?:supplier_id|supplier_name|supplier|vendor_id|vendor)\s*\)", re.I),
     "number of suppliers"),
    (re.compile(r"\bcount\s*\(\s*distinct\s+(?:product_code|product_id|product)\s*\)", re.I),
     "number of products"),
    # (a count of credit notes is theirs, never every invoice's: "count(credit_notes)", "count(credit notes)")
    (re.compile(r"\bcount\s*\(\s*(?:distinct\s+)?(?:credit[_ -]?notes?|cns?|credit[_ -]?memos?)(?:_id)?\s*\)", re.I),
     "number of credit notes"),
    (re.compile(r"\bcount\s*\(\s*(?:\*|distinct\s+\w+|\w+)\s*\)", re.I), "number of invoices"),
    (re.compile(r"\bavg\s*\(\s*(?:gross\w*|amount|total\w*|spend\w*|invoice_\w+)?\s*\)", re.I),
     "average invoice value"),
    (re.compile(r"\bsum\s*\(\s*(?:net_amount|net|net_\w+|line_net_amount)\s*\)", re.I), "net spend"),
    (re.compile(r"\bsum\s*\(\s*(?:tax|tax_amount|vat|line_tax_amount)\s*\)", re.I), "tax amount"),
    (re.compile(r"\bsum\s*\(\s*(?:gross\w*|amount|spend\w*|total\w*|value|\*)?\s*\)", re.I), "spend"),
)
#: the view columns a select list or "group by" names, as the breakdown's word: the dimensions of the one field
#: table (router/structured_notation.py), so both notations read a column alike
_BREAKDOWNS = {name: field.words for name, field in FIELDS.items() if field.kind == "dimension"}
_PLURALS = {name: field.plural for name, field in FIELDS.items() if field.kind == "dimension"}
#: (a column after it: never "product group by spend", "top-level group by spend", the noun "group" before a breakdown)
_GROUP_COL = r"(?:\w+_\w+|month|quarter|year|supplier|vendor|company|product|category|currency|status)\b"
_GROUP_BY = re.compile(r"(?<!product )(?<!product_)(?<!material )(?<!commodity )(?<!level )\bgroup\s+by\s+"
                       rf"(?P<cols>{_GROUP_COL}(?:\s*,\s*{_GROUP_COL})*)", re.I)
#: "order by 2 desc limit 5", "order by sum(gross) desc limit 10": a ranking's length
_ORDER_LIMIT = re.compile(r"\border\s+by\s+[\w(),.* ]+?\s+(?P<dir>desc|asc)\s+limit\s+(?P<n>\d{1,3})\b", re.I)
_LIMIT = re.compile(r"\blimit\s+(?P<n>\d{1,3})\b", re.I)

#: "invoice_date between '2026-01-01' and '2026-03-31'": a closed range of days
_DATE_BETWEEN = re.compile(rf"\b{_DAY_COL}\s+between\s+{_A}\s+and\s+{_B}", re.I)
#: "invoice_date >= '2026-01-01' and invoice_date < '2026-04-01'": both ends, each with its kind
_DATE_BOTH = re.compile(rf"\b{_DAY_COL}\s*(?P<op1>>=|=>|>)\s*{_A}\s*(?:and|,)\s*{_DAY_COL}\s*(?P<op2><=|=<|<)\s*{_B}",
                        re.I)
_DATE_ONE = re.compile(rf"\b{_DAY_COL}\s*{_OP}\s*{_DATE.format('d')}", re.I)
#: "invoice_date in 2025-Q4", "invoice_date in Q4 2025": the period the dates fall in (never "in (...)", a list)
_DATE_IN = re.compile(rf"\b{_DAY_COL}\s+(?:in|within|during)\s+(?=[^\s(])", re.I)
#: "gross_total between 5k and 10k", "net_amount between 500 and 1000": an amount range (before the "and" of the
#: where clause is read as a joint between predicates)
_AMOUNT_BETWEEN = re.compile(r"\b(?P<f>gross(?:_(?:amount|total))?|net(?:_(?:amount|total))?|amount|invoice_(?:amount|"
                             r"total|value)|grand_total|total(?:_amount)?|value)(?:_eur)?\s+between\s+"
                             r"(?P<a>\d[\d,._]*(?:\.\d+)?)\s*(?P<ka>" + MULTIPLIER_WORDS + r")?(?!\w)\s+and\s+"
                             r"(?P<b>\d[\d,._]*(?:\.\d+)?)\s*(?P<kb>" + MULTIPLIER_WORDS + r")?(?!\w)", re.I)
#: "month = 2025-11", "quarter = '2025-Q4'", "year = 2025", "fiscal_year = 2026": the period named
_PERIOD_EQ = re.compile(r"\b(?:month|quarter|year|yr|fiscal_year|fy|period)\s*=\s*'?(?P<p>\d{4}(?:-(?:\d{2}|[qQ][1-4]|"
                        r"[hH][12]))?|[qQhH][1-4]\s*\d{4})'?(?![\w-])", re.I)

_VALUE = r"(?P<v>'[^']{1,60}'|\"[^\"]{1,60}\"|[A-Za-z0-9][\w.&-]*(?:\s+(?!and\b|or\b|group\b|order\b|limit\b)" \
         r"[A-Z][\w.&-]*){0,3})"
_LIST = r"\(\s*(?P<vs>[^()]{1,200})\s*\)"
#: key column -> the noun the reader knows ("supplier Gamma", "company COMP-B", "product group Sensors")
_KEYS = (
    (r"supplier(?:_name|_id|_code)?|vendor(?:_name|_id)?", "supplier"),
    (r"company(?:_name|_id|_code)?", "company"),
    (r"product_group(?:_name|_id)?|group_name|category|group", "product group"),
    (r"product(?:_code|_name|_id)?", "product"),
)
_KEY = "|".join(f"(?P<k{i}>{p})" for i, (p, _) in enumerate(_KEYS))
_KEY_EQ = re.compile(rf"\b(?:{_KEY})\s*(?:=|==)\s*{_VALUE}", re.I)
_KEY_IN = re.compile(rf"\b(?:{_KEY})\s+in\s+{_LIST}", re.I)
_KEY_NE = re.compile(rf"\b(?:{_KEY})\s*(?:!=|<>)\s*{_VALUE}", re.I)
_KEY_NOT_IN = re.compile(rf"\b(?:{_KEY})\s+not\s+in\s+{_LIST}", re.I)
#: "status = 'paid'", "invoice_status in ('posted', 'paid')"
_STATUS = re.compile(rf"\b(?:invoice_)?status\s*(?:(?:=|==)\s*{_VALUE}|\s+in\s+{_LIST})", re.I)
#: "document_type = 'credit_note'", "doc_type in (invoice)"
_DOCTYPE = re.compile(rf"\b(?:document_type|doc_type|type)\s*(?:(?:=|==)\s*{_VALUE}|\s+in\s+{_LIST})", re.I)
#: "currency = 'USD'", "invoice_currency = usd"
_CURRENCY = re.compile(r"\b(?:invoice_)?currency(?:_code)?\s*(?:=|==)\s*'?(?P<c>[A-Za-z]{3})'?(?!\w)", re.I)
#: "gross > 10k", "net_amount >= 5000", "amount > 10000": an amount compared
_AMOUNT = re.compile(r"\b(?P<f>(?:total_)?gross(?:_amount)?|(?:total_)?net(?:_amount)?|amount|"
                     r"invoice_(?:amount|total|value)|total|"
                     r"spend|value)\s*(?P<op>>=|=>|<=|=<|>|<)\s*(?P<n>\d[\d,._]*(?:\.\d+)?)\s*"
                     r"(?P<k>" + MULTIPLIER_WORDS + r")?(?!\w)",
                     re.I)
#: "invoices > 10k", "spend >= 5000": a comparison after the counted noun, the noun kept
_NOUN_AMOUNT = re.compile(r"\b(?P<w>invoices?|documents?|lines?)\s*(?P<op>>=|=>|<=|=<|>|<)\s*(?:€|eur\s*)?"
                          r"(?P<n>\d[\d,._]*(?:\.\d+)?)\s*(?P<k>" + MULTIPLIER_WORDS + r")?(?!\w)", re.I)
#: (">=" as "at least": "of 5000 or more" without a currency is not read as a threshold by every reader)
_AMOUNT_OPS = {">": "above", "<": "below", ">=": "of at least", "=>": "of at least", "<=": "of at most",
               "=<": "of at most"}
#: measure columns said alone ("net_amount by supplier_name"): the measure they name
_MEASURES = (
    (re.compile(r"\b(?:line_)?net_amount\b", re.I), "net spend"),
    (re.compile(r"\b(?:line_)?tax_amount\b", re.I), "tax amount"),
    (re.compile(r"\b(?:gross_amount|spend_amount|spend_reporting_amount)\b", re.I), "spend"),
)
#: a breakdown named by its column: "by supplier_name", "per product_group"
_BY_COL = re.compile(r"\b(?P<by>by|per)\s+(?P<col>" + "|".join(sorted((k for k in _BREAKDOWNS if "_" in k),
                                                                        key=len, reverse=True)) + r")\b", re.I)

#: keyword abbreviations of analysts, as whole words (never a code's prefix: "SUP-18", "INV-2026-0148", "CN-0011")
_ABBREVIATIONS: tuple[tuple[re.Pattern[str], Any], ...] = (
    (re.compile(r"\bcns?\b(?![-/]|\s*#|\s*\d)", re.I), "credit notes"),  # ("CN 2026-0501" is a number)
    # "inv 2026-0125" is an invoice number: only "inv" before a word or the end is the invoices
    (re.compile(r"\binv\b(?=\s+(?:value|amount|amt|count|cnt|total|number|no)\b)", re.I), "invoice"),
    # (nor before a spoken number: "invoice inv twenty twenty six zero nine" is a number said, router/spoken.py)
    (re.compile(r"\binvs?\b(?![-/]|\s*#|\s+\d|\s+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|"
                r"eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|nineteen)\b)", re.I), "invoices"),
    (re.compile(r"\b(?P<top>top\s*\d{1,3}\s+)supp?s?\b(?![-/])", re.I), r"\g<top>suppliers"),
    (re.compile(r"\bsupps?\b(?![-/])|\bsups\b(?![-/])", re.I), "suppliers"),
    (re.compile(r"\bsup\b(?![-/])", re.I), "supplier"),
    # (the abbreviation's dot goes with it: "avg. invoice value" is the average invoice value, no sentence end)
    (re.compile(r"\bamt\b\.?", re.I), "amount"),
    (re.compile(r"\bavg\b\.?", re.I), "average"),
    (re.compile(r"\bcnt\b\.?", re.I), "count"),
    (re.compile(r"\bmths?\b", re.I), "month"),
    (re.compile(r"\btop(?P<n>\d{1,3})\b", re.I), r"top \g<n>"),
    # "qtr 1 yr 2026", "quarter 2 fy26", "qtr 3 25": the quarter and its year, as one period (else the year alone is
    # read and the quarter dropped)
    (re.compile(r"\b(?:qtr|quarter)\s*(?P<q>[1-4])\s*(?:of\s+)?(?:yr\s*|year\s*|fy\s*)?'?(?P<y>(?:20)?\d{2})\b(?![-./:]?\d)",
                re.I), lambda m: f"Q{m.group('q')} {m.group('y') if len(m.group('y')) == 4 else '20' + m.group('y')}"),
    # "top10 products by spend tenant": the whole tenant, every company (never "tenant-17", "tenant 42")
    (re.compile(r"(?<![\w-])(?:the\s+)?(?:(?:whole|entire)\s+tenant|tenant[\s-]wide)\b", re.I), "for all companies"),
    # a bare "tenant" ends a terse query or stands before its period ("another tenant", "tenant-17" are no scope)
    (re.compile(r"(?<!another )(?<!other )(?<!my )(?<!our )(?<!your )(?<!this )(?<!that )(?<!each )(?<!every )"
                r"(?<![\w-])tenant\b(?=\s*$|\s+(?:q[1-4]|h[12]|fy\s*\d|ytd|(?:19|20)\d\d)\b)", re.I),
     "for all companies"),
    # "comp a", "comp b": the company's id said with a space (COMP-A), whatever the company is named
    (re.compile(r"\bcomp\s+(?P<l>[a-z])\b(?!-)", re.I), lambda m: f"COMP-{m.group('l').upper()}"),
    # "q1 26", "h2 25": a two-digit year of this decade after a quarter or half ("Q4 12" stays unclear, asked)
    (re.compile(r"\b(?P<p>[qh][1-4])\s+'?(?P<y>2\d)\b(?![-./:]?\d)", re.I), r"\g<p> 20\g<y>"),
)


def _bare(value: str) -> str:
    return value.strip().strip("'\"").strip()


def _values(listed: str) -> list[str]:
    return [_bare(v) for v in listed.split(",") if _bare(v)]


def _key_noun(match: re.Match[str]) -> str:
    return next(noun for i, (_, noun) in enumerate(_KEYS) if match.group(f"k{i}"))


def _joined(values: list[str]) -> str:
    return values[0] if len(values) == 1 else ", ".join(values[:-1]) + " and " + values[-1]


def _key_eq(match: re.Match[str]) -> str:
    return f"{_key_noun(match)} {_bare(match.group('v'))}"


def _key_in(match: re.Match[str]) -> str:
    values = _values(match.group("vs"))
    noun = _key_noun(match)
    plural = "product groups" if noun == "product group" else f"{noun}s" if noun != "company" else "companies"
    return f"{plural if len(values) > 1 else noun} {_joined(values)}"


def _key_not(match: re.Match[str]) -> str:
    named = match.groupdict()
    values = _values(named["vs"]) if named.get("vs") else [_bare(named["v"])]
    return f"excluding {_key_noun(match)} {_joined(values)}"


def _status(match: re.Match[str]) -> str:
    values = _values(match.group("vs")) if match.group("vs") else [_bare(match.group("v"))]
    if {v.lower() for v in values} == {"posted", "paid"}:
        # "status in ('posted', 'paid')" is the governed default, both statuses: never "posted or paid?" asked back
        return "status posted and paid"
    return "status " + " or ".join(v.lower() for v in values)


def _doctype(match: re.Match[str]) -> str:
    values = _values(match.group("vs")) if match.group("vs") else [_bare(match.group("v"))]
    words = {"credit_note": "credit notes", "credit note": "credit notes", "cn": "credit notes",
             "invoice": "invoices"}
    read = [words.get(v.lower().replace("-", "_").rstrip("s")) for v in values]
    if any(r is None for r in read):
        # a type the data does not have ("proforma", "purchase_order") stays a compared column, which
        # router/dimensions.py names back (as prose, "document type proforma" would be read as no constraint)
        return "doc_type = '" + "', '".join(values) + "'"
    return " and ".join(dict.fromkeys(r for r in read if r))


def _day(text: str, days: int = 0) -> str:
    return (dt.date.fromisoformat(text) + dt.timedelta(days=days)).isoformat()


def _date_one(match: re.Match[str]) -> str:
    op, day = match.group("op"), match.group("d")
    try:
        if op in (">=", "=>"):
            return f"since {day}"
        if op == ">":
            return f"since {_day(day, 1)}"
        if op == "<":
            return f"before {day}"
        if op in ("<=", "=<"):
            return f"before {_day(day, 1)}"
    except ValueError:
        return match.group(0)
    return f"on {day}"


def _date_both(match: re.Match[str]) -> str:
    try:
        start = match.group("a") if match.group("op1") != ">" else _day(match.group("a"), 1)
    except ValueError:
        return match.group(0)
    joint = "to before" if match.group("op2") == "<" else "through"
    return f"from {start} {joint} {match.group('b')}"


def _scaled(number: str, word: str | None) -> str:
    """``number`` times its multiplier, exactly (money in Decimal: a float makes "2.01k" 2009); the multipliers are
    router/reading.py's one table ("k", "mio", "million", "lakh", "crore"), the digits its one number reader
    ("1,00,000.00", "10.000,50")."""
    plain = number.replace("_", "")
    value = parse_number(plain)
    if value is None:
        try:
            value = Decimal(plain.replace(",", ""))
        except InvalidOperation:
            return number + (word or "")
    if not word:
        return format(value, "f")
    value = scale(value, word)
    return format(value.normalize() if value != value.to_integral_value() else value.to_integral_value(), "f")


#: a currency written after an amount range's upper bound
_CURRENCY_AFTER = re.compile(r"\s*(?:€|\$|£|(?:eur|euros?|usd|chf|gbp|sek|nok|dkk|pln)\b)", re.I)


def _amount_between(match: re.Match[str]) -> str:
    field = match.group("f").lower()
    basis = "net total" if field.startswith("net") else "gross total" if field.startswith(("gross", "grand")) \
        else "total"
    low, high = _scaled(match.group("a"), match.group("ka")), _scaled(match.group("b"), match.group("kb"))
    if _CURRENCY_AFTER.match(match.string, match.end()):
        return f"{basis} between {low} and {high}"  # "between 2k and 7500 eur": the currency said applies to both
    # each bound with the reporting currency the columns are in: bare, "between 2000 and 2100" is two years to the
    # period readers
    return f"{basis} between {low} EUR and {high} EUR"


def _amount(match: re.Match[str]) -> str:
    field = (match.groupdict().get("f") or "").lower()
    field = field.removeprefix("total_")  # "total_gross > 10k": the gross total, its words in either order
    basis = "net total" if field.startswith("net") else "gross total" if field.startswith("gross") else \
        "spend" if field == "spend" else "total"  # ("spend > 10k" as said: a supplier's spend or an invoice's)
    number = _scaled(match.group("n"), match.group("k"))
    op = _AMOUNT_OPS[match.group("op")]
    if "w" in match.groupdict():
        basis = match.group("w")  # "invoices > 10k": the invoices above it
    # the comma closes the amount: "of at least 5000 h2 2025" would read "5000 h2" as a half of the year 5000
    return f"{basis} {op} {number},"


#: a select list of document keys only: the documents are listed
_ID_COLUMNS = re.compile(r"(?:distinct\s+)?(?:\*|invoice_(?:number|no|id)|document_(?:id|number)|doc_id)"
                         r"(?:\s*,\s*(?:invoice_(?:number|no|id|date)|document_(?:id|number)|status|invoice_status))*",
                         re.I)
#: "distinct supplier_id", "distinct product_code": the members of a dimension
_DISTINCT_KEY = re.compile(r"distinct\s+(?P<col>" + "|".join(sorted(
    (name for name, field in FIELDS.items() if field.words in ("supplier", "product")), key=len, reverse=True)) + ")",
    re.I)


def _select(match: re.Match[str], grouped: bool) -> str:
    cols = match.group("cols")
    for pattern, words in _AGGREGATES:
        cols = pattern.sub(words, cols)
    if _ID_COLUMNS.fullmatch(cols.strip()):
        # "select invoice_number from invoices where ...": the invoices themselves, listed
        return "list the invoices "
    distinct = _DISTINCT_KEY.fullmatch(cols.strip())
    if distinct is not None:
        # "select distinct supplier_id from invoices where ...": the suppliers (products) with counted lines
        return f"distinct {_PLURALS[distinct.group('col').lower()]}, "
    kept = []
    for col in (c.strip() for c in cols.split(",")):
        # a key column beside an aggregate is the breakdown ("select supplier_name, sum(gross) ... group by
        # supplier_name"): the "group by" says it; without one it is the breakdown asked for
        if col.lower() in _BREAKDOWNS:
            if not grouped:
                kept.append(f"by {_BREAKDOWNS[col.lower()]}")
            continue
        kept.append(col)
    return " ".join(kept) + " "


#: a query's "where": followed by a compared column ("where Gamma was the supplier" is prose, left alone)
_SQL_WHERE = re.compile(r"\bwhere(?=\s+\w+\s*(?:=|!=|<>|>|<|\s(?:not\s+)?in\s*\(|\sbetween\b))", re.I)


#: Words of a measure in a rewritten query: with none, a bare "where" clause is the spend's filter.
_MEASURE_WORDS = re.compile(r"\b(?:spend|spent|total|sum|count|number|average|net|tax|invoices?|credit\s+notes?|"
                            r"price|prices|units?|quantit(?:y|ies)|amount|value|lines?|suppliers|vendors|list|show)\b",
                            re.I)


def _where_joints(text: str, sql: bool) -> str:
    """The "and" joining the predicates after "where" as commas (never inside a quoted value: 'Smith and Sons')."""
    where = re.search(r"\bwhere\b", text, re.I) if sql else None
    if where is None:
        return text
    # (nor the "and" of a range: "gross total between 5000 and 10000" is one predicate)
    parts = re.split(r"('[^']*'|\"[^\"]*\"|\bbetween\s+\S+(?:\s+EUR)?\s+and\b)", text[where.end():], flags=re.I)
    joined = "".join(p if i % 2 else re.sub(r"\s+and\s+", ", ", p, flags=re.I) for i, p in enumerate(parts))
    return text[:where.end()] + joined


def keyword_style(text: str) -> str:
    """``text`` with its SQL fragments and search-bar keywords written as the reader's phrases (unchanged without).

    >>> keyword_style("select count(*) from invoices where status = 'paid' and invoice_date between '2026-01-01' "
    ...               "and '2026-03-31'")
    'number of invoices, status paid, from 2026-01-01 through 2026-03-31'
    >>> keyword_style("sum(gross) where supplier = 'Gamma' group by month")
    'spend, supplier Gamma by month'
    >>> keyword_style("net_amount by supplier_name q4 2025 company_id = COMP-B")
    'net spend by supplier q4 2025 company COMP-B'
    >>> keyword_style("avg inv value gamma h2 25")
    'average invoice value gamma h2 2025'
    """
    if not _SIGNAL.search(text):
        return text
    out = text
    sql = _SQL_WHERE.search(out) is not None
    grouped = _GROUP_BY.search(out) is not None
    out = _SELECT.sub(lambda m: _select(m, grouped), out)
    for pattern, words in _AGGREGATES:
        out = pattern.sub(words, out)
    out = _ORDER_LIMIT.sub(lambda m: f"top {m.group('n')}" if m.group("dir").lower() == "desc"
                           else f"bottom {m.group('n')}", out)
    out = _LIMIT.sub(lambda m: f"top {m.group('n')}", out)
    out = _GROUP_BY.sub(lambda m: "by " + " and ".join(
        _BREAKDOWNS.get(c.strip().lower(), c.strip()) for c in m.group("cols").split(",")), out)
    out = _DATE_BETWEEN.sub(lambda m: f"from {m.group('a')} through {m.group('b')}", out)
    out = _AMOUNT_BETWEEN.sub(_amount_between, out)
    out = _DATE_IN.sub("in ", out)
    out = _where_joints(out, sql)
    out = _DATE_BOTH.sub(_date_both, out)
    out = _DATE_ONE.sub(_date_one, out)
    out = _PERIOD_EQ.sub(lambda m: f"in {m.group('p')}", out)
    out = _KEY_NOT_IN.sub(_key_not, out)
    out = _KEY_NE.sub(_key_not, out)
    out = _KEY_IN.sub(_key_in, out)
    out = _KEY_EQ.sub(_key_eq, out)
    out = _STATUS.sub(_status, out)
    out, typed = _DOCTYPE.subn(_doctype, out)
    out = _CURRENCY.sub(lambda m: f"in {m.group('c').upper()}", out)
    out = _AMOUNT.sub(_amount, out)
    out = _NOUN_AMOUNT.sub(_amount, out)
    for pattern, words in _MEASURES:
        out = pattern.sub(words, out)
    out = _BY_COL.sub(lambda m: f"{m.group('by')} {_BREAKDOWNS[m.group('col').lower()]}", out)
    # "where" and the "and" between predicates: the clauses' joints, read as a list of constraints
    out = re.sub(r"\s*\bwhere\b\s*", ", ", out, flags=re.I) if sql else out
    # "count(*) where document_type = 'credit_note'": the documents counted are the credit notes (only a type of
    # the query's own clause: "number of invoices and credit notes" is prose, both kinds)
    if typed:
        out = re.sub(r"\bnumber of invoices(?P<mid>(?:,[^,]{0,60}?)*?),\s*credit notes\b",
                     r"number of credit notes\g<mid>", out, flags=re.I)
    out = re.sub(r"\s*;\s*$", "", out)
    if sql and re.match(r"\s*where\b", text, re.I) and not _MEASURE_WORDS.search(out):
        # "where supplier_name = 'Gamma' and invoice_date >= ...": a bare where clause filters the governed
        # default figure, the spend (never "which figure?" for a query that selects none)
        out = "spend, " + out
    for pattern, words in _ABBREVIATIONS:
        out = pattern.sub(words, out)
    out = re.sub(r"\s+,", ",", re.sub(r",\s*,", ",", " ".join(out.split()))).strip(" ,")
    return out


__all__ = ["keyword_style"]
