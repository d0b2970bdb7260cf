"""The rows of a breakdown named by their layout: "<dim>-wise", "rows = <dim>", "<dim> on rows", "one row per <dim>".

Two notation families name the dimension a figure is broken down by without a grouping preposition:

* the *-wise* suffix of Indian and British business English ("category-wise summary", "vendorwise split",
  "supplier wise breakup", "month-wise spend", "FCY wise", "main category wise (highest level only)"): the word (or
  the two or three words) before "wise" is the dimension, the nouns after it the figure ("summary", "breakup");
* a spreadsheet's *pivot layout* ("pivot rows=Vendor, values=Sum of Gross, filter Company=comp A", "company on
  rows", "like a pivot w/ InvMonth on rows", "one row per month", "rows = cost center, cols = supplier"): the
  field on the rows (and on the columns) is the dimension, "values =" the measure, "filter" a label of the limits
  after it, and "pivot" itself only the shape of the answer.

Left as typed, the dimension word was asked about as an unknown name, dropped (a total presented as the table
asked: a silent wrong) or read as a column the data lacks. Both are read here into the grouping phrase every reader
knows ("by supplier", "by top-level product group and by month"), before any other reader splits the question.
The dimension word is resolved by the one table of dimension words (router/breakdown_words.py
:func:`dimension_noun`: abbreviations, other languages, CamelCase headers, level words); a word that names a
dimension the invoices do not record ("cost center", "plant", "region") is written as a grouping too, so the reader
names it back as not understood, never drops it. Anything else ("otherwise", "likewise", "penny wise") is left
as typed.
"""

from __future__ import annotations

import re

from router.breakdown_words import dimension_noun
from router.dimensions import UNRECORDED_NOUN

_I = re.I | re.UNICODE

# -- "<dim>-wise" -------------------------------------------------------------------------------------------------
#: "wise" after a word, hyphenated, spaced or solid ("category-wise", "supplier wise", "vendorwise").
_WISE = re.compile(r"(?P<sep>[ \t]*-[ \t]*|[ \t]+|)wise(?![\w-])", _I)
#: The words a "-wise" grouping may be made of (up to three: "top level category wise", "product group wise").
_WORD = re.compile(r"[A-Za-z][A-Za-z&./]*(?:-[A-Za-z][A-Za-z&./]*)*")
#: Measures said with "-wise" ("top vendors spend-wise", "value wise"): a ranking or a sort by the spend.
_MEASURE_WISE = re.compile(r"spend|spending|value|amount|cost|expenditure|volume", _I)
#: The figure a "-wise" grouping qualifies, right after it ("summary", "spend breakup", "split of spend"): the
#: grouping is written after these nouns, where the reader reads a grouping ("spend breakup by month").
_HEAD_NOUNS = re.compile(
    r"(?:[ \t]+(?:spend|spending|purchases?|expenditure|expenses?|costs?|amounts?|totals?|payables|ap))?"
    r"(?:[ \t]+(?:summary|split|breakup|break-up|breakdown|bifurcation|details|detail|report|analysis|totals?|"
    r"figures?|view|position|statement|list|listing|data|mis|sheet|pivot|table))?"
    r"(?:[ \t]+of[ \t]+(?:the[ \t]+)?(?:spend|spending|purchases|expenditure|costs))?(?![\w-])", _I)
#: A parenthesis that only names the level of a group grouping ("(highest level only)", "(level 1)", "(leaf)").
_LEVEL_PAREN = re.compile(
    r"[ \t]*\(\s*(?:the\s+|at\s+(?:the\s+)?)?(?P<level>top|main|highest|parent|root|level\s*1|l1|first|lowest|leaf|"
    r"detailed|sub|level\s*2|l2|second|own)(?:[\s-]*(?:level|tier|groups?|categor(?:y|ies)|only|please|pls))*\s*\)",
    _I)
_TOP_LEVEL = re.compile(r"top|main|highest|parent|root|level\s*1|l1|first", _I)


def _level(noun: str, paren: re.Match[str] | None) -> str:
    """The group noun at the level a parenthesis names ("category wise (highest level only)": the top level)."""
    if paren is None or noun not in ("category", "product group", "top-level product group"):
        return noun
    return "top-level product group" if _TOP_LEVEL.match(paren.group("level")) else "product group"


#: English words that take "-wise" as an adverb, never a grouping ("otherwise", "time-wise", "penny-wise").
_ADVERB_STEMS = frozenset("""
other like clock counter anti step pair length side street penny pound time date price budget size
""".split())  # noqa: SIM905 - a word list reads better as text


def _wise_noun(words: str, hyphen: bool = False) -> str | None:
    """The grouping noun for the words before "wise": a dimension, a dimension the data lacks (named back by the
    reader), or ``None``. Hyphenated ("party-wise", "GL-wise", "plant-wise") any one word (or an abbreviation) is a
    grouping: written as one, the reader names it back when no governed dimension is it, never drops it."""
    noun = dimension_noun(words)
    if noun is not None:
        return noun
    if re.fullmatch(rf"(?:{UNRECORDED_NOUN})", words, _I):
        return " ".join(words.lower().split())
    if hyphen and (re.fullmatch(r"[a-z]{3,}", words) or re.fullmatch(r"(?-i:[A-Z]{2,4})", words)) \
            and words.lower() not in _ADVERB_STEMS:
        return words.lower()
    return None


def _wise_once(text: str) -> str | None:
    for m in _WISE.finditer(text):
        before = text[:m.start()]
        if m.group("sep"):
            # the word (or two, three) right before: the longest that names a dimension
            words = list(_WORD.finditer(before[-80:]))
            offset = max(0, len(before) - 80)
            found = None
            for k in range(min(3, len(words)), 0, -1):
                first = words[-k]
                span = before[offset + first.start():]
                if words[-1].end() + offset != len(before) or not re.fullmatch(r"[A-Za-z&./\s-]+", span):
                    continue
                # a grouping by its slot: hyphenated, or spaced before the figure it qualifies ("party wise spend")
                figure = _HEAD_NOUNS.match(text, m.end())
                hyphen = k == 1 and ("-" in m.group("sep") or (figure is not None and bool(figure.group(0))))
                noun = _wise_noun(span, hyphen) if len(span.strip()) >= 3 or hyphen else None
                if noun is None and k == 1 and _MEASURE_WISE.fullmatch(span.strip()):
                    noun = "spend"
                if noun is not None:
                    found = (offset + first.start(), noun)
                    break
            if found is None:
                continue
            start, noun = found
        else:
            stem = re.search(r"(?<![\w-])[A-Za-z]{3,}$", before)
            if stem is None:
                continue
            noun = _wise_noun(stem.group(0)) or ("spend" if _MEASURE_WISE.fullmatch(stem.group(0)) else None)
            if noun is None:
                continue
            start = stem.start()
        tail = text[m.end():]
        head = _HEAD_NOUNS.match(tail)
        heads = head.group(0) if head is not None else ""
        paren = _LEVEL_PAREN.match(tail, len(heads)) or _LEVEL_PAREN.match(tail)
        noun = _level(noun, paren)
        if paren is not None and paren.start() == 0:
            # "main category wise (highest level only) summary": the level said, then the figure
            rest = tail[paren.end():]
            head = _HEAD_NOUNS.match(rest)
            heads = head.group(0) if head is not None else ""
            after = rest[len(heads):]
        else:
            after = tail[paren.end():] if paren is not None else tail[len(heads):]
        lead = text[:start]
        phrase = f"{heads.strip()} by {noun}".strip()
        joint = " " if lead and not lead.endswith((" ", "\t", "(", "\n")) else ""
        return f"{lead}{joint}{phrase}{after}"
    return None


def read_wise(text: str) -> str:
    """``text`` with each "<dim>-wise" grouping written as "by <dim>" after the figure it qualifies.

    >>> read_wise("need category-wise summary of Xenon for Jul-Dec'25 with total")
    "need summary by category of Xenon for Jul-Dec'25 with total"
    >>> read_wise("vendorwise split of spend - Cmpny A - Jul-Dec'25")
    "split of spend by supplier - Cmpny A - Jul-Dec'25"
    >>> read_wise("otherwise the total, likewise for Q2")
    'otherwise the total, likewise for Q2'
    """
    for _ in range(4):  # ("supplier wise and month wise"): each grouping in turn
        out = _wise_once(text)
        if out is None:
            break
        text = out
    return text


# -- pivot layout -------------------------------------------------------------------------------------------------
#: A field as a pivot names it: a header ("ProductCode", "Vendor", "InvMonth", "product_group") or up to three words
#: ("cost center", "main category").
_FIELD = r"(?P<f>[A-Za-z][\w.]*(?:[ \t]+[A-Za-z][\w.]*){0,2}?)"
_FIELD_END = r"(?=\s*(?:[,;|)]|$|\s(?:values?|vals?|cols?|columns?|rows?|filters?|where|for|in|and|w/|with|period)\b))"
#: "rows = Vendor", "rows: supplier", "row field = ProductCode"
_ROWS_KEY = re.compile(rf"(?<![\w-])(?P<axis>rows?|cols?|columns?)(?:[ \t]+(?:fields?|labels?|area))?\s*(?:==|=|:)\s*"
                       rf"{_FIELD}{_FIELD_END}", _I)
#: "company on rows", "InvMonth on the rows", "supplier across the columns", "month as columns"
_ON_AXIS = re.compile(rf"(?<![\w-]){_FIELD}[ \t]+(?:on|in|as|across|down|along)[ \t]+(?:the[ \t]+)?"
                      r"(?P<axis>rows?|cols?|columns?)(?![\w-])", _I)
#: "one row per month", "a row for each supplier", "one column per currency"
_ONE_PER = re.compile(rf"(?<![\w-])(?:one|a|1|single|separate)[ \t]+(?P<axis>row|line|column|col)s?[ \t]+"
                      rf"(?:per|for[ \t]+each|for[ \t]+every|each|by)[ \t]+{_FIELD}(?![\w-])", _I)
#: "values = Sum of Gross", "values: Sum(Gross)", "val=sum of net": the measure of the pivot
_VALUES = re.compile(r"(?<![\w-])(?:values?|vals?|data|measures?)\s*(?:==|=|:)\s*(?P<v>[^,;|]+?)"
                     r"(?=\s*(?:[,;|]|$|\s(?:filters?|where|rows?|cols?|columns?|for|period)\b))", _I)
#: "sum of gross" said alone beside a layout: the measure
_SUM_OF = re.compile(r"(?<![\w-])(?P<v>(?:sum|total)\s*(?:of\s+|\(\s*)(?:the\s+)?(?:gross|net)(?:\s+amounts?)?\s*\)?)"
                     r"(?![\w-])", _I)
#: "pivot", "pivot:", "like a pivot w/", "as a pivot table with", "(pivot)": the shape of the answer only
_PIVOT_WORD = re.compile(r"(?:,?[ \t]*(?:like|as|in)[ \t]+a[ \t]+pivot(?:[ \t]+table)?(?:[ \t]*(?:w/|with)"
                         r"(?=\s))?|(?<![\w-])pivot(?:[ \t]+table)?(?:[ \t]*:)?)(?![\w-])", _I)
#: "filter Company=comp A", "filter: company = B": the label of the limits after it
_FILTER = re.compile(r"(?<![\w-])filters?(?:[ \t]+(?:on|by))?\s*:?\s*(?=[A-Za-z][\w ]{0,20}?\s*(?:==|=|:))", _I)


def _layout_noun(field: str) -> str | None:
    noun = dimension_noun(field)
    if noun is not None:
        return noun
    if re.fullmatch(rf"(?:{UNRECORDED_NOUN})", field.strip(), _I):
        return " ".join(field.lower().split())
    return None


#: A grain said as an adjective ("monthly split ... InvMonth on rows"): the rows already asked.
_GRAIN_ADJECTIVES = {"month": "monthly", "quarter": "quarterly", "year": "yearly|annual", "week": "weekly",
                     "day": "daily"}


def read_pivot(text: str) -> str:
    """``text`` with its pivot layout (the fields on the rows and the columns, the values, the filter label and the
    word "pivot") written as the grouping and the measure the readers know; unchanged when no layout is named.

    >>> read_pivot("pivot rows=Vendor, values=Sum of Gross, filter Company=comp A, Period=02/2026 thru 04/2026")
    'by supplier, total spend, Company=comp A, Period=02/2026 thru 04/2026'
    >>> read_pivot("split for COMP-B, Jan-26 to Jun-26, like a pivot w/ InvMonth on rows")
    'split for COMP-B, Jan-26 to Jun-26, by month'
    >>> read_pivot("monthly split for COMP-B, Jan-26 to Jun-26, like a pivot w/ InvMonth on rows")
    'monthly split for COMP-B, Jan-26 to Jun-26'
    >>> read_pivot("Xenon pivot: rows = cost center, cols = supplier, Q2-26")
    'Xenon by supplier and by cost center, Q2-26'
    """
    axes: list[tuple[int, int, str, str]] = []  # (start, end, axis, noun)
    for pattern in (_ROWS_KEY, _ON_AXIS, _ONE_PER):
        for m in pattern.finditer(text):
            if any(s < m.end() and m.start() < e for s, e, _, _ in axes):
                continue
            start, noun = m.start(), _layout_noun(m.group("f"))
            if noun is None and pattern is _ON_AXIS:
                # "spend with InvMonth on rows": the field is the last word(s) before "on rows"
                words = list(re.finditer(r"\S+", m.group("f")))
                for k in range(len(words) - 1, 0, -1):
                    noun = _layout_noun(m.group("f")[words[-k].start():])
                    if noun is not None:
                        start = m.start("f") + words[-k].start()
                        break
            if noun is None:
                continue
            axis = "rows" if m.group("axis").lower().startswith(("r", "l")) else "columns"
            axes.append((start, m.end(), axis, noun))
    if not axes:
        return text
    axes.sort()
    # the recorded dimensions first (the rows before the columns), then those the data lacks: the reader answers
    # the first and names the others back
    known = [n for _, _, a, n in sorted(axes, key=lambda x: x[2] != "rows") if dimension_noun(n) is not None]
    unknown = [n for _, _, _, n in axes if dimension_noun(n) is None]
    nouns = list(dict.fromkeys(known))
    phrase = "by " + " and ".join(nouns) if nouns else ""
    if unknown:
        phrase = " and ".join([phrase, *(f"by {n}" for n in dict.fromkeys(unknown))]) if phrase \
            else " and ".join(f"by {n}" for n in dict.fromkeys(unknown))
    cuts = [(s, e) for s, e, _, _ in axes]
    outside = "".join(text[a:b] for a, b in zip([0, *(e for _, e in cuts)], [*(s for s, _ in cuts), len(text)],
                                                strict=True))
    if all(re.search(rf"\b(?:(?:by|per)\s+{re.escape(n)}|{_GRAIN_ADJECTIVES.get(n, '(?!)')})\b", outside, _I)
           for _, _, _, n in axes):
        phrase = ""  # "spend by month ... (one row per month)": the grouping already said
    out = text
    for i, (s, e, _, _) in enumerate(reversed(axes)):
        last = i == len(axes) - 1
        out = out[:s] + (phrase if last else "") + out[e:]
    values = _VALUES.search(out)
    if values is not None:
        # (a value no governed measure is, "sum of gross in doc currency", stays as typed for its readers)
        out = _VALUES.sub(lambda m: f", {said}" if (said := _measure(m.group("v"))) else m.group(0), out)
    else:
        out = _SUM_OF.sub(lambda m: f", {said}" if (said := _measure(m.group("v"))) else m.group(0), out)
    out = re.sub(r"(?<![\w-])(?:with|w/)\s+(?=by\s)", "", _FILTER.sub("", out), flags=_I)
    out = _PIVOT_WORD.sub(lambda m: "," if m.group(0).startswith(",") else "", out)
    out = re.sub(r"\(\s*\)", "", re.sub(r"\(\s+", "(", out))
    out = re.sub(r"\s+([,;?.!)])", r"\1", re.sub(r"(?:\s*,){2,}", ",", out))
    out = re.sub(r"([,;])(?:\s*[,;])+", r"\1", out)
    return " ".join(out.split()).strip(" ,;:")


def _measure(value: str) -> str | None:
    from router.structured_notation import measure_words

    said = measure_words(value.strip())
    return said if said in ("total spend", "net spend", "spend", "tax amount", "units") else None


#: "(MAX over company col)", "(max of the month column)", "(top by vendor col)": a ranking restated as a column's
#: aggregate, beside the ranking it restates.
_COLUMN_RANK = re.compile(
    r"\s*\(\s*(?P<way>max(?:imum)?|min(?:imum)?|top|highest|lowest|largest|smallest)\s*(?:\(\s*|over|of|by|on|across|"
    r"per|in)\s+(?:the\s+)?"
    r"(?P<f>[A-Za-z][\w.]*(?:\s+(?!(?:col(?:umn)?s?|field)\b)[A-Za-z][\w.]*)?)"
    r"\s*(?:col(?:umn)?s?|field)?\s*\)?\s*\)", _I)
_RANK_WORDS = {"max": r"most|highest|largest|biggest|top|max", "min": r"least|lowest|smallest|bottom|min"}


def read_column_rank(text: str) -> str:
    """``text`` without a parenthesis that restates its ranking as a column aggregate, when the ranking outside it
    goes the same way ("which entity spent the most (MAX over company col)"); kept otherwise.

    >>> read_column_rank("which entity spent the most in 2H-25? (MAX over company col)")
    'which entity spent the most in 2H-25?'
    >>> read_column_rank("spend of Company A (MAX over company col)")
    'spend of Company A (MAX over company col)'
    """
    def sub(m: re.Match[str]) -> str:
        if dimension_noun(m.group("f")) is None:
            return m.group(0)
        way = "min" if m.group("way").lower().startswith(("min", "low", "small")) else "max"
        outside = text[:m.start()] + text[m.end():]
        return "" if re.search(rf"\b(?:{_RANK_WORDS[way]})\b", outside, _I) else m.group(0)

    return _COLUMN_RANK.sub(sub, text)


def read_layout(text: str) -> str:
    """``text`` with its "-wise" groupings, its pivot layout and its column restatement of a ranking in the
    readers' words."""
    return read_column_rank(read_pivot(read_wise(text)))


__all__ = ["read_column_rank", "read_layout", "read_pivot", "read_wise"]
