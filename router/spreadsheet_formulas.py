"""Spreadsheet formulas, read as the phrases the readers already know (never evaluated).

Spreadsheet users write the ask as the formula they would type in their sheet:

* a conditional aggregate with criteria pairs: ``=SUMIFS(NetAmount, Vendor, "Orbis", Co, "Company B") for Q2``,
  ``COUNTIFS(DocType,"Invoice",Company,"COMP-B")``, ``SUMIF(Vendor,"Orbis",Gross)``, ``AVERAGEIFS(InvTotal, ...)``;
* the same with the criteria written ``key=value`` (``COUNTIFS(Vendor="Helix", Co="Ypsilon", Feb-26 to May-26)``),
  with a date column bounded (``InvDate,">="&start`` or ``InvDate,">=2025-11-01"``), or elided to the names
  (``SUMIFS(..Helix Reagents..)``);
* a plain aggregate, a distinct list or a filter of one column: ``=AVERAGE(InvTotal)``, ``=MAX(UnitPrice)``,
  ``=UNIQUE(Vendor)``, ``=FILTER(InvNo, Vendor="Orbis")``;
* two formulas subtracted (``=SUMIFS(..A..) - SUMIFS(..B..)``): how much more one side is than the other;
* the function's name alone, as a verb ("SUMIFS for Co C, period 02/2026", "sumif spend where vendor=X"), a count
  above one (``COUNTIF>1``: the values that come twice, the duplicates), and a formula in a remark that restates
  the sentence ("(like =UNIQUE(Vendor))", "(MAX over company col)").

A formula is parsed into its function (:data:`FUNCTIONS`, a closed class) and its arguments: columns, values and
criteria. Every column goes through the ONE field table of router/structured_notation.py (:func:`field_of`, which
reads a sheet's headers: "InvDate", "NetAmount", "ProductCode", "DocType"), every criterion through the ONE slot table
of router/structured_asks.py (:func:`pair_words`). The rewrite is the readers' words: the measure ("net spend",
"number of invoices", "average invoice value", "spend by supplier" for a distinct list), each criterion where its
slot is read ("supplier Orbis", "for Company B", "invoice_date >= 2025-11-01"), the text around kept as typed.

What no governed figure computes is never answered as another figure: a function outside the table's computable
ones (VLOOKUP, SUMPRODUCT, MEDIAN ...) or an aggregate of a column the data does not have (``SUM(Freight)``) leaves
the formula as typed, and :func:`unread_formula` asks it back, naming it. A criterion on a column the data does not
have (``GL_Account, "620000"``) stays as typed, named by router/ap_fields.py (the rest answered, partial). Formula
text is never executed, and never goes to passage retrieval: a formula is either read here or asked back.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from router.structured_asks import pair_words
from router.structured_notation import GOVERNED_FIGURES, Field, call_words, column_name, field_of

Aggregate = Literal["sum", "count", "avg", "min", "max", "list", "top", "bottom", "none"]
#: how a function's arguments are laid out: the value column first then criteria pairs (SUMIFS), a range, a
#: criterion and an optional value column (SUMIF), criteria pairs only (COUNTIFS), one column (SUM, UNIQUE), a
#: column then conditions (FILTER), or none read (a lookup)
Shape = Literal["value_first", "range_criterion", "pairs", "single", "filter", "none"]


@dataclass(frozen=True)
class Function:
    """A spreadsheet function: the aggregate it computes and how its arguments are laid out."""

    aggregate: Aggregate
    shape: Shape
    sheet_only: bool = True  # a name only a sheet uses ("SUMIFS"); a generic one ("SUM") needs "=" or capitals


def _generic(aggregate: Aggregate, shape: Shape) -> Function:
    return Function(aggregate, shape, sheet_only=False)


#: The functions of a sheet, by name (Excel, Google Sheets, LibreOffice spell them alike). The ones with aggregate
#: "none" compute nothing the governed metrics compute: named back, never answered as another figure.
FUNCTIONS: dict[str, Function] = {
    "SUM": _generic("sum", "single"), "SUMIF": Function("sum", "range_criterion"),
    "SUMIFS": Function("sum", "value_first"),
    "COUNT": _generic("count", "single"), "COUNTA": Function("count", "single"),
    "COUNTIF": Function("count", "pairs"), "COUNTIFS": Function("count", "pairs"),
    "AVERAGE": _generic("avg", "single"), "AVERAGEA": Function("avg", "single"),
    "AVERAGEIF": Function("avg", "range_criterion"), "AVERAGEIFS": Function("avg", "value_first"),
    "MAX": _generic("max", "single"), "MIN": _generic("min", "single"),
    "MAXIFS": Function("max", "value_first"), "MINIFS": Function("min", "value_first"),
    "UNIQUE": _generic("list", "single"), "FILTER": _generic("list", "filter"),
    # the k-th largest / smallest: a ranking's side and size (the ranked dimension is the sentence's)
    "LARGE": _generic("top", "single"), "SMALL": _generic("bottom", "single"),
    **dict.fromkeys(("VLOOKUP", "XLOOKUP", "HLOOKUP", "SUMPRODUCT", "COUNTUNIQUE", "STDEV", "STDEV.S", "STDEV.P",
                     "VAR", "PERCENTILE", "QUARTILE", "MEDIAN", "MODE", "RANK", "INDEX", "MATCH",
                     "QUERY", "GETPIVOTDATA", "DSUM", "DCOUNT", "DAVERAGE"), Function("none", "none")),
}
_GENERIC_NAMES = frozenset(n for n, f in FUNCTIONS.items() if not f.sheet_only)
_NAMES = "|".join(sorted((re.escape(n) for n in FUNCTIONS), key=len, reverse=True))
#: the opening of a call: an optional "=", the name, "(" (the closing one is found by counting)
#: (no space before the "(": a sheet never writes one, prose does: "the MAX (approx.) spend")
#: (the "=" is the formula's own only where no key stands before it: in "values=Sum(Gross)" it is the pair's)
_OPENING = re.compile(rf"(?P<eq>(?:^|(?<=[\s(:;,]))=\s*)?(?<![\w.])(?P<fn>{_NAMES})\(", re.I)
#: a function's name alone, as a verb ("SUMIFS for Co C", "sumif spend where ..."): a sheet-only name, no "("
_BARE_NAME = re.compile(r"(?P<eq>=\s*)?(?<![\w.])(?P<fn>(?:sum|count|average|max|min)ifs?|counta)\b(?!\s*\()"
                        r"(?P<more>\s*(?:>|>=)\s*1\b)?(?P<prep>\s+(?:on|of|over)\b)?", re.I)
#: the measure a sentence names right after a bare name ("sumif spend", "SUMIFS on Spend"): the name is only a verb
_MEASURE_AFTER = re.compile(r"\s*(?:on|of|over)?\s*(?:the\s+)?(?:net\s+|gross\s+)?(?:spend|amount|total|value|"
                            r"invoices?|net|gross|tax|vat)\b", re.I)
#: a value written for a criterion: quoted, or a comparison before a reference ('">="&start', '"<="&B2')
_QUOTED = re.compile(r"^\s*(?P<q>[\"“”'])(?P<v>[^\"“”']*)[\"“”']\s*$")
_OP_VALUE = re.compile(r"^(?P<op><>|!=|>=|<=|=|>|<)\s*(?P<v>.*)$")
_REFERENCE = re.compile(r"^\s*(?P<q>[\"“”'])(?P<op><>|!=|>=|<=|=|>|<)[\"“”']\s*&\s*(?P<ref>[\w$.:]+)\s*$")
#: a criterion written "key=value" / "key>value" in one argument
_INLINE = re.compile(r"^\s*(?P<k>[A-Za-z][\w. ]{0,30}?)\s*(?P<op><>|!=|>=|<=|=|>|<)\s*(?P<v>.+?)\s*$")
#: a header: one token of letters, digits and "_" / "." ("InvDate", "GL_Account", "Invoices.Net")
_HEADER = re.compile(r"[A-Za-z][\w.]*")
#: an elided argument list ("..Helix Reagents..", "…beta logistics…"): the names only
_ELISION = re.compile(r"^\s*(?:\.{2,}|…)\s*|\s*(?:\.{2,}|…)\s*$")
#: a date or period value a date criterion can be bounded by
_DATE_VALUE = re.compile(r"\d")


@dataclass(frozen=True)
class Criterion:
    """One condition of a formula: a column, its operator and its value (a value or a reference), as typed."""

    column: str
    op: str
    value: str
    reference: bool = False


@dataclass(frozen=True)
class Formula:
    """A parsed call: its function's name, the column aggregated or listed, the criteria, the bare arguments (a
    name or a period with no column), and the call's own text."""

    name: str
    column: str
    criteria: tuple[Criterion, ...]
    bare: tuple[str, ...]
    text: str


# -- parsing ------------------------------------------------------------------------------------------------------
def _depths(text: str, start: int = 0, depth: int = 0) -> Iterator[tuple[int, str, int | None]]:
    """Each character from ``start`` with the bracket depth after it, ``None`` inside a quoted literal: both the
    call's end and its argument commas are read outside quotes ("Co, \"Smith, Jones Ltd\"")."""
    quote = ""
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = "" if ch == quote or (quote == "“" and ch == "”") else quote
            yield i, ch, None
            continue
        if ch in "\"“":
            quote = ch
            yield i, ch, None
            continue
        depth += 1 if ch == "(" else -1 if ch == ")" else 0
        yield i, ch, depth


def _closing(text: str, start: int) -> int | None:
    """The index of the ")" closing the "(" before ``start`` (quotes respected), or ``None``."""
    for i, ch, depth in _depths(text, start, 1):
        if ch == ")" and depth == 0:
            return i
    return None


def _arguments(body: str) -> list[str]:
    """The top-level arguments of a call ("," or ";" between them, as sheets of any locale write)."""
    args: list[str] = []
    current: list[str] = []
    for _, ch, depth in _depths(body):
        if ch in ",;" and depth == 0:
            args.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    args.append("".join(current).strip())
    if any(_ELISION.search(a) for a in args):
        # "..Helix Reagents..": the criteria elided to their values, each a name (quoted: never a column)
        return [f'"{_ELISION.sub("", a).strip()}"' for a in args if _ELISION.sub("", a).strip()]
    return [a for a in args if a and a != "*"]  # ("COUNT(*)": every row)


def _is_column(arg: str, before_value: bool = False) -> bool:
    """Whether an argument is a column header: a field of the table, a header-shaped token ("GL_Account",
    "CostCenter"), or any one word right before a quoted value (the range of a criteria pair: 'Account, "6200"')."""
    return bool(_HEADER.fullmatch(arg)) and (field_of(arg) is not None or bool(re.search(r"[_.]|[a-z][A-Z]", arg))
                                             or before_value)


def _criterion(column: str, raw: str) -> Criterion:
    reference = _REFERENCE.match(raw)
    if reference is not None:
        return Criterion(column, reference.group("op"), reference.group("ref"), reference=True)
    quoted = _QUOTED.match(raw)
    value = quoted.group("v") if quoted is not None else raw.strip()
    compared = _OP_VALUE.match(value)
    if compared is not None and compared.group("v"):
        return Criterion(column, compared.group("op"), compared.group("v").strip())
    return Criterion(column, "=", value)


def _parse_arguments(name: str, args: list[str], text: str) -> Formula:
    shape = FUNCTIONS[name].shape
    column = ""
    criteria: list[Criterion] = []
    bare: list[str] = []
    rest = list(args)
    # the value column of SUMIFS: before an even number of arguments, criteria pairs ("SUMIFS(Freight, Co, "A")")
    paired = len(rest) > 1 and len(rest) % 2 == 1 and _QUOTED.match(rest[-1]) is not None
    if shape in ("value_first", "single", "filter") and rest and _is_column(rest[0], paired or shape == "single"):
        column = rest.pop(0)
    elif shape == "range_criterion" and len(rest) >= 2 and _is_column(rest[0]):
        criteria.append(_criterion(rest[0], rest[1]))
        if len(rest) >= 3 and _is_column(rest[2]):
            column = rest[2]
        rest = rest[3:] if column else rest[2:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        inline = _INLINE.match(arg) if not _QUOTED.match(arg) else None
        if inline is not None and _is_column(inline.group("k").strip()):
            criteria.append(_criterion(inline.group("k").strip(), f"{inline.group('op')}{inline.group('v')}"
                                       if inline.group("op") != "=" else inline.group("v")))
        elif i + 1 < len(rest) and _is_column(arg, _QUOTED.match(rest[i + 1]) is not None) \
                and not _is_column(rest[i + 1]):
            criteria.append(_criterion(arg, rest[i + 1]))
            i += 1
        else:
            bare.append(_QUOTED.match(arg).group("v") if _QUOTED.match(arg) else arg)
        i += 1
    return Formula(name, column, tuple(criteria), tuple(bare), text)


def _calls(text: str) -> list[tuple[int, int, Formula]]:
    """Every formula call in ``text``: its span and its parse (a generic name only with "=" or in capitals)."""
    found: list[tuple[int, int, Formula]] = []
    pos = 0
    while (opening := _OPENING.search(text, pos)) is not None:
        name = opening.group("fn").upper()
        end = _closing(text, opening.end())
        generic_ok = opening.group("eq") or opening.group("fn").isupper()
        if end is None or (name in _GENERIC_NAMES and not generic_ok):
            pos = opening.end()
            continue
        body = text[opening.end():end]
        found.append((opening.start(), end + 1,
                      _parse_arguments(name, _arguments(body), text[opening.start():end + 1])))
        pos = end + 1
    return found


def formulas(text: str) -> tuple[Formula, ...]:
    """The formula calls ``text`` contains, parsed.

    >>> [(f.name, f.column, [(c.column, c.value) for c in f.criteria]) for f in formulas(
    ...     'SUMIFS(NetAmount, Vendor, "Orbis", Co, "Company B") for Q1')]
    [('SUMIFS', 'NetAmount', [('Vendor', 'Orbis'), ('Co', 'Company B')])]
    """
    return tuple(f for _, _, f in _calls(text))


# -- reading ------------------------------------------------------------------------------------------------------
def _measure(formula: Formula, criteria: list[Criterion]) -> str | None:
    """The readers' words for the formula's aggregate, or ``None`` (no governed figure computes it)."""
    function = FUNCTIONS[formula.name]
    field: Field | None = field_of(formula.column) if formula.column else None
    if formula.column and field is None:
        return None  # "SUM(Freight)": a column the data does not have
    if function.aggregate == "sum":
        return "spend" if field is None else call_words("sum", field)
    if function.aggregate == "count":
        kinds = [c for c in criteria if (f := field_of(c.column)) is not None and f.words == "document type"]
        credit = any(re.search(r"credit|\bcn\b|gutschrift", c.value, re.I) for c in kinds)
        for c in kinds:
            criteria.remove(c)  # the documents counted: in the measure's noun
        if field is not None and field.kind == "dimension":
            return call_words("count", field, distinct=True)
        return "number of credit notes" if credit else "number of invoices"
    if function.aggregate in ("avg", "min", "max"):
        return call_words(function.aggregate, field) if field is not None else None
    if function.aggregate in ("top", "bottom"):
        # "LARGE()" beside "top 2 suppliers": the function's name only, the sentence says the ranking; "LARGE(Gross,
        # 3)": the top 3 by that measure
        if not formula.column and not formula.bare:
            return ""
        size = formula.bare[0] if len(formula.bare) == 1 and formula.bare[0].isdigit() else ""
        measure = call_words("sum", field) if field is not None else None
        if not size or measure is None:
            return None
        return f"{function.aggregate} {size} by {measure}"
    if function.aggregate == "list":
        if field is None:
            return None
        if field.kind == "key":
            return "list the invoices"
        return f"spend by {field.words}" if field.kind == "dimension" else None
    return None


def _criterion_words(criterion: Criterion, elsewhere: bool) -> str | None:
    """A criterion where the readers read its slot; "" when it only points at cells whose values the message gives
    elsewhere ('InvDate,">="&start' beside "with 01.11.2025 - 30.11.2025"); ``None`` when it cannot be read (the
    formula is then asked back)."""
    field = field_of(criterion.column)
    name = column_name(criterion.column)
    if criterion.reference:
        return "" if elsewhere else None
    if field is None:
        # a column the data does not have: as a filter on that column, named by router/ap_fields.py
        return f"{name} = '{criterion.value}'"
    if field.kind == "date":
        return f"invoice_date {criterion.op} {criterion.value}"
    if field.kind in ("amount", "net", "invoice_amount", "tax", "units", "unit_price"):
        return f"{name} {criterion.op} {criterion.value}"
    if criterion.op in ("<>", "!="):
        return f"excluding {pair_words(name, criterion.value)}".replace("excluding for ", "excluding ")
    if criterion.op != "=":
        return None
    return pair_words(name, criterion.value)


def read_formula(formula: Formula, elsewhere: bool) -> str | None:
    """The readers' words for one formula, or ``None`` when a part of it cannot be read (then asked back).

    ``elsewhere``: whether the message gives a date or period outside the formula (a cell reference's value).

    >>> read_formula(formulas('SUMIFS(NetAmount, Vendor, "Orbis", Co, "Company B")')[0], False)
    'net spend, supplier Orbis, for COMP-B'
    >>> read_formula(formulas('=UNIQUE(ProductCode)')[0], False)
    'spend by product'
    """
    criteria = list(formula.criteria)
    measure = _measure(formula, criteria)
    if measure is None:
        return None
    words = [measure] if measure else []
    if FUNCTIONS[formula.name].aggregate in ("top", "bottom"):
        return measure  # its size is read into the measure's words
    for criterion in criteria:
        said = _criterion_words(criterion, elsewhere)
        if said is None:
            return None
        if said:
            words.append(said)
    words.extend(formula.bare)
    return ", ".join(words)


def _difference(a: str, b: str) -> str:
    """Two formulas subtracted: "<measure> <a's criteria> minus <b's>" when they share the measure."""
    ma, _, ra = a.partition(", ")
    mb, _, rb = b.partition(", ")
    if ma == mb and ra and rb:
        return f"{ma} {ra} minus {rb}"
    return f"{a} minus {b}"


#: a remark around a formula ("(like =UNIQUE(Vendor))", "(i.e. MAX over company col)"): a restatement
_REMARK = re.compile(r"\(\s*(?:like|i\.?e\.?|as\s+in|e\.?g\.?|cf\.?|=)?\s*(?P<body>[^()]*(?:\([^()]*\)[^()]*)?)\)")
#: a function over a column in words: "MAX over company col", "sumifs on category", "vlookup on inv no."
_OVER = re.compile(rf"^=?\s*(?P<fn>{_NAMES})\s+(?:over|on|of|by|per|in)\s+(?:the\s+)?(?P<col>[\w. ]{{1,30}}?)"
                   r"(?P<said>\s+(?:col|column|field|header))?\.?\s*$", re.I)
#: "= total/3": the figure's own arithmetic written after the ask (the average it restates)
_ARITHMETIC = re.compile(r"\s*=\s*(?:the\s+)?(?:total|sum)\s*/\s*\d+\b", re.I)
#: "<field> col(umn)": a sheet's column named as the field ("invoice no. column", "tax col")
_COLUMN = re.compile(r"\b(?P<w>[A-Za-z]\w*\s+)?(?P<f>[A-Za-z]\w*)\.?\s+(?:col|column)\b(?:\s+(?:filtered|filter)"
                     r"\s+(?:on|by|for|to)\b)?", re.I)


def _remark(match: re.Match[str]) -> str:
    """A remark that is only a formula without a criterion's value restates the sentence: set aside."""
    body = match.group("body").strip()
    over = _OVER.match(body)
    if over is not None and over.group("fn").upper() in ("MAX", "MIN") and (
            (column := field_of(over.group("col"))) is None or column.kind == "dimension"):
        # "(MAX over company col)": a ranking restated over a dimension column; its one reader is
        # router/layout_words.py (read_column_rank), which sets it aside only beside a ranking the same way
        return match.group(0)
    if over is not None and (over.group("fn").upper() not in _GENERIC_NAMES or over.group("fn").isupper()) and (
            over.group("said") or field_of(over.group("col")) is not None):
        return ""  # a sheet's function (in capitals when generic: "(max of 3)" is prose) over a column
    if _BARE_NAME.fullmatch(body):
        return ""
    calls = _calls(body)
    if len(calls) == 1 and calls[0][0] <= 1 and calls[0][1] == len(body) and not calls[0][2].criteria \
            and not calls[0][2].bare and FUNCTIONS[calls[0][2].name].aggregate != "none":
        return ""
    return match.group(0)


def _column(match: re.Match[str]) -> str:
    """The column named as its field (two words, else the last one: "the tax col"); a name no table knows stays."""
    lead = ""
    field = field_of(f"{match.group('w') or ''}{match.group('f')}")
    if field is None or not match.group("w"):
        lead, field = match.group("w") or "", field_of(match.group("f"))
    if field is None:
        return match.group(0)
    filtered = re.search(r"\bfilter", match.group(0), re.I) is not None
    if field.kind == "key":
        # "invoice no. column filtered on ...": the documents of the selection, listed
        return f"{lead}list the invoices," if filtered else f"{lead}{field.words}s"
    return f"{lead}{field.words}," if filtered else f"{lead}{field.words}"


def _bare_name(match: re.Match[str]) -> str:
    if match.group("more"):
        return "duplicate"  # COUNTIF > 1: the values that come more than once
    function = FUNCTIONS[match.group("fn").upper()]
    if _MEASURE_AFTER.match(match.string, match.end()):
        return ""  # "sumif spend where ...", "SUMIFS on Spend": the measure follows, the name is only the verb
    said = {"sum": "spend", "count": "number of invoices", "avg": "average invoice value"}.get(function.aggregate)
    return match.group(0) if said is None else said + (match.group("prep") or "")


def read_formulas(text: str) -> str:
    """``text`` with its spreadsheet formulas written as the readers' words (unchanged when it has none, or when
    a formula cannot be read: :func:`unread_formula` then names it).

    >>> read_formulas('=SUMIFS(Gross, Co, "Company A", Vendor, "Orbis") for Q1 2026')
    'spend, for COMP-A, supplier Orbis for Q1 2026'
    >>> read_formulas("=SUMIFS(..Helix..) - SUMIFS(..Beta..) for Ypsilon, Q1-26")
    'spend Helix minus Beta for Ypsilon, Q1-26'
    >>> read_formulas("unique list of vendors (like =UNIQUE(Vendor)) in 04/2026")
    'list of vendors in 04/2026'
    """
    if not re.search(r"\(|\bcol(?:umn)?\b|ifs?\b|\bcounta\b|=|(?-i:[a-z][A-Z])", text, re.I):
        return text
    if re.search(r"\bselect\b.+\bfrom\b", text, re.I | re.S):
        return text  # SQL, with its own clause grammar: router/keyword_query.py
    out = _REMARK.sub(_remark, text)
    calls = _calls(out)
    if calls:
        bounds = [0, *(x for start, end, _ in calls for x in (start, end)), len(out)]
        outside = "".join(out[bounds[i]:bounds[i + 1]] for i in range(0, len(bounds), 2))
        elsewhere = bool(_DATE_VALUE.search(outside))
        pieces: list[str] = []
        last = 0
        read: list[tuple[int, int, str]] = []
        ranked: set[int] = set()  # the calls whose reading runs on into the text after them ("top 3 by spend")
        for start, end, formula in calls:
            said = read_formula(formula, elsewhere)
            if said is None:
                return text  # a part not read: the formula as typed, asked back (unread_formula)
            if FUNCTIONS[formula.name].aggregate in ("top", "bottom") or formula.bare:
                ranked.add(start)  # (a bare argument, "Feb-26 to May-26", runs on into the text typed after it)
            read.append((start, end, said))
        i = 0
        while i < len(read):
            start, end, said = read[i]
            pieces.append(out[last:start])
            between = out[end:read[i + 1][0]] if i + 1 < len(read) else ""
            if i + 1 < len(read) and re.fullmatch(r"\s*[-−–]\s*=?\s*", between):
                said = _difference(said, read[i + 1][2])
                end = read[i + 1][1]
                i += 1
            # a name or a period typed right after the formula is a part of its own ("... Company A March 2026")
            if said and start not in ranked and re.match(
                    r"\s+(?!(?:for|in|with|from|to|during|over|at|of|on|between|by|and|since|until)\b)\w", out[end:],
                    re.I):
                said += ","
            pieces.append(said)
            last = end
            i += 1
        pieces.append(out[last:])
        out = "".join(pieces)
        out = re.sub(r"^\s*=\s*", "", out)
    out = _BARE_NAME.sub(_bare_name, out)
    out = _ARITHMETIC.sub("", out) if re.search(r"\b(?:avg|average|mean|run[- ]?rate|per\s+month|monthly)\b", out,
                                                 re.I) else out
    out = _COLUMN.sub(_column, out)
    out = _CAMEL_HEADER.sub(_camel_header, out)
    # "unique list of vendors": the sheet's UNIQUE said in words, the list itself ("unique vendors" alone is read by
    # router/count_asks.py)
    out = re.sub(r"\bunique\s+(?=list\s+of\s+\w)", "", out, flags=re.I)
    if out == text:
        return text
    # the joints a removed part left ("spend , for", "2027 )"): tidied, the rest of the message as typed
    out = re.sub(r"\s+([,)])", r"\1", re.sub(r",\s*,", ",", " ".join(out.split())))
    return out.strip(" ,") or text


#: a CamelCase column header standing in prose ("where InvDate between ...", "filter InvTotal > 10000")
_CAMEL_HEADER = re.compile(r"(?<![\w\-'\"])(?P<h>[A-Z][a-z]+(?:[A-Z][a-z]+)+)(?![\w\-])")


def _camel_header(match: re.Match[str]) -> str:
    """A header the field table knows, as its snake_case column name (the structured readers read it); any other
    CamelCase word (a name: "NorthWind") stays as typed."""
    field = field_of(match.group("h"))
    if field is None:
        return match.group(0)
    if field.kind == "dimension":
        return field.words  # "InvMonth on rows": the month
    name = column_name(match.group("h"))
    return name if field_of(name) is not None else match.group(0)


def unread_formula(text: str) -> str | None:
    """The clarification a formula left as typed needs (a function no governed figure computes, a column the data
    does not have, a criterion not read), or ``None`` when ``text`` has no formula left.

    >>> unread_formula('=VLOOKUP(A2, Invoices, 5, FALSE)')[:62]
    "I did not understand '=VLOOKUP(A2, Invoices, 5, FALSE)': no go"
    """
    for start, end, formula in _calls(text):
        typed = text[start:end]
        eq = typed.startswith("=")
        function = FUNCTIONS[formula.name]
        if not eq and not function.sheet_only:
            continue  # "SUM(Freight)" without "=": router/structured_notation.py's aggregate calls name it
        if function.aggregate == "none":
            why = f"no governed figure computes {formula.name} (formulas are read, never run)"
        elif formula.column and field_of(formula.column) is None:
            why = f"the invoice data has no column {formula.column!r}"
        else:
            why = "a part of it is not one the governed figures can apply"
        return f"I did not understand {typed!r}: {why}. I can give {GOVERNED_FIGURES}. Which one do you mean?"
    return None


def formula_not_answered(text: str) -> str:
    """The clarification for a message with a formula whose reading reached no governed figure (the invariant: a
    formula is never answered by a passage search)."""
    typed = ", ".join(repr(f.text) for f in formulas(text))
    return (f"I read {typed} as a spreadsheet formula, but not as a figure I can compute (formulas are read, never "
            f"run). I can give {GOVERNED_FIGURES}, for a company, supplier, product group and period. Which one do "
            "you mean?")


__all__ = ["FUNCTIONS", "Criterion", "Formula", "Function", "formula_not_answered", "formulas", "read_formula",
           "read_formulas", "unread_formula"]
