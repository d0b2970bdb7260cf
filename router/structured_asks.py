"""Structured asks of integration engineers: one grammar for every notation, every key read or named.

An engineer types the ask as the call they would make rather than a sentence:

* key=value pairs, inline or between pipes: "spend | comp=comp_a | 2026-03 vs prev month",
  "n_invoices where company=Alpenland and period=202603", "total_spend comp=comp_c month=2025-12";
* a JSON / YAML object: '{"company": "Kestrel", "period": "dec-25", "compare_to": "2025-11"}',
  '{"rank": "supplier", "n": 3, "company": "COMP-X", "period": "2025-Q3"}';
* a function call with keyword arguments: "category_spend(company=COMP-Y, group=\"PG-LABC\", period=2025-Q3)";
* a REST path with a query string: "GET /invoices/INV-2026-0527 -> gross_eur", "GET /spend?company=X&period=Y";
* labels between semicolons: "metric: spend; company: Xenon; period: 2025-10";
* an arrow naming the field asked of what stands before it: "credit_note=CN-2025-0502 -> original_invoice_number".

Each is parsed into the same parts (:class:`Pair` of a key and its value, bare text, the field after an arrow); each
key goes through ONE table to a slot: the column names of :data:`router.structured_notation.FIELDS` (company,
supplier, product / sku, product group, period, ...) and the closed class of the notation's own keys
(:data:`NOTATION_KEYS`: measure, metric, rank, n, compare_to, field ...). The key is notation: it is consumed when its
value is written where the readers read that slot ("of Company A", "supplier Orbis", "product group Monitoring",
the period as typed, "compared with 2025-11", "top 3 suppliers"). A slot's key with an exclusion word before or after
it ("supplier_excl", "exclude_supplier", "not_company") is that slot's exclusion ("excluding supplier SUP-18"); a rank
direction ("direction", "order", "sort": "bottom" / "asc" / "desc") the ranking's side, one not read written so the
reader names it. A key no table knows is never dropped: the pair stays as typed, and router/ap_fields.py / the
reader names it as not understood. Nothing typed is dropped: a REST query's part without "=" stays as text, and a
parse that lost a word of the input leaves the input as typed (:func:`_covers`).

Values are left to the readers of their slot: a company's name to the name readers (only the id shapes "comp_a",
"company-b", "CompC" written as the id "COMP-A"), a period to the period readers (only "202512", a year and month
run together, and "year_to_date" written with their separators). Period bounds ("from=", "to=", "date_from:",
"[a, b)") are left exactly as typed for the period-range readers.

A structured ask whose parts name no measure is a spend figure (the governed default): '{"company": "X",
"product_group": "Y", "period": "Z"}' asks the group's spend, never its product list. A document id with a field
(an arrow, a "field" key or a REST path) is a lookup of that field of that document; "invoice_numbers" asked of a
selection is the invoice listing.

The rewrite is to prose the readers already know; nothing here computes, resolves a name or checks a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from router.period_bounds import is_bound_key
from router.structured_notation import TO_DATE, field_of, measure_words

Slot = Literal["company", "supplier", "product", "group", "top_group", "period", "bound", "base", "measure",
               "rank", "limit", "direction", "exclude", "document", "field", "breakdown", "currency", "status",
               "doc_type", "action", "filter"]

#: The notation's own keys (no column of the data): a closed class, each the slot its value fills.
NOTATION_KEYS: dict[str, Slot] = {
    **dict.fromkeys(("measure", "metric", "kpi", "figure", "aggregate", "agg", "calc", "calculation"), "measure"),
    **dict.fromkeys(("field", "fields", "attribute", "attr", "column", "col", "return", "select", "output"),
                    "field"),
    **dict.fromkeys(("rank", "rank_by", "ranking", "rank_dim", "top_by", "leaderboard"), "rank"),
    **dict.fromkeys(("n", "top", "top_n", "topn", "limit", "first", "count_limit", "k"), "limit"),
    **dict.fromkeys(("compare_to", "compare", "compared_to", "compare_with", "vs", "versus", "base",
                     "base_period", "baseline", "against", "prior", "reference_period"), "base"),
    # the bounds of the period ("from", "date_to", "period_start", ...) are router/period_bounds.py's (is_bound_key)
    **dict.fromkeys(("valid_on", "as_of"), "bound"),
    # a period named by its span ("range": "mtd", "timeframe": "2025-Q3"): the period's value, as typed
    **dict.fromkeys(("range", "date_range", "time_range", "timeframe", "time_frame", "window", "span",
                     "horizon"), "period"),
    **dict.fromkeys(("direction", "order", "sort", "sort_order", "sort_dir", "order_dir", "asc", "desc",
                     "ascending", "descending", "bottom", "lowest", "smallest", "highest", "largest"), "direction"),
    **dict.fromkeys(("group_by", "groupby", "by", "breakdown", "split", "dims", "dim", "dimension", "dimensions"),
                    "breakdown"),
    # an action's value is the ask itself ("list": "approved_vendors"); a filter's is a condition, kept as typed
    **dict.fromkeys(("list", "show", "get", "query", "report", "action", "op", "operation", "ask", "question"),
                    "action"),
    **dict.fromkeys(("filter", "filters", "where", "condition", "conditions"), "filter"),
    **dict.fromkeys(("credit_note", "creditnote", "credit_note_number", "cn", "document", "doc", "invoice",
                     "inv", "invoice_no", "invoice_number", "invoice_id", "document_number", "id"), "document"),
}

#: A field of the data, by its kind and words, as the slot its value fills.
_DIMENSION_SLOTS: dict[str, Slot] = {
    "company": "company", "supplier": "supplier", "product": "product", "product group": "group",
    "top-level group": "top_group", "month": "period", "quarter": "period", "year": "period", "week": "period",
    "day": "period", "currency": "currency", "status": "status", "document type": "doc_type",
}


def slot_of(key: str) -> Slot | None:
    """The slot a key of a structured ask fills, or ``None`` (a key no table knows: named back, never dropped).

    >>> slot_of("comp"), slot_of("SKU"), slot_of("compare_to"), slot_of("product_group"), slot_of("cost_center")
    ('company', 'product', 'base', 'group', None)
    """
    name = re.sub(r"[\s.\-]+", "_", key.strip().strip("'\"`").casefold())
    if name in NOTATION_KEYS:
        return NOTATION_KEYS[name]
    if is_bound_key(name):
        return "bound"
    if excluded_slot(name) is not None:
        return "exclude"
    field = field_of(name)
    if field is None:
        return None
    if field.kind == "dimension":
        return _DIMENSION_SLOTS.get(field.words)
    if field.kind == "date":
        return "period"
    if field.kind == "key":
        return "document" if field.words == "invoice number" else "field"
    return None  # a measure column as a key ("gross=..."): a condition, read by router/keyword_query.py


#: the words of an exclusion in a key ("supplier_excl", "exclude_supplier", "not_supplier", "ex_supplier")
_EXCLUSION_WORDS = frozenset(("excl", "exclude", "excluded", "excluding", "exclusion", "exclusions", "not", "without",
                              "ex", "except", "exkl", "minus"))


def excluded_slot(key: str) -> Slot | None:
    """The slot a key excludes ("supplier_excl": "supplier"), or ``None`` (no exclusion word, or none before or
    after a slot's name: such a key is one no table knows, named back).

    >>> excluded_slot("supplier_excl"), excluded_slot("exclude_supplier"), excluded_slot("not_company")
    ('supplier', 'supplier', 'company')
    >>> excluded_slot("supplier"), excluded_slot("excl_foo")
    (None, None)
    """
    words = re.sub(r"[\s.\-]+", "_", key.strip().strip("'\"`").casefold()).split("_")
    for cut, rest in ((words[0], words[1:]), (words[-1], words[:-1])) if len(words) > 1 else ():
        if cut not in _EXCLUSION_WORDS:
            continue
        slot = slot_of("_".join(rest))
        if slot in ("company", "supplier", "product", "group", "top_group", "currency", "status", "doc_type"):
            return slot
    return None


@dataclass(frozen=True)
class Pair:
    """One key of the ask with its value, as typed (``text``: the pair's own characters)."""

    key: str
    value: str
    text: str


# -- values -------------------------------------------------------------------------------------------------------
#: a company's id written as a column value: "comp_a", "company-b", "CompC", "co_x", "A" (a letter, after the noun
#: or alone: the value of a company key)
_COMPANY_ID = re.compile(r"(?:(?:comp(?:any)?|co)[\s_-]?)?(?P<l>[a-z])", re.I)
#: "202512": a year and month run together (never a six-digit amount: a month 01-12 of a year 19xx-20xx)
_YEAR_MONTH = re.compile(r"(?<![\w.-])(?P<y>(?:19|20)\d{2})(?P<m>0[1-9]|1[0-2])(?![\w.-])")
#: a document's number: an invoice or a credit note
_DOCUMENT_ID = re.compile(r"\b(?:INV|CN)-\d{4}-\d{3,5}\b", re.I)
_CREDIT_NOTE_ID = re.compile(r"\bCN-\d{4}-\d{3,5}\b", re.I)


def _plain(value: str) -> str:
    """A value without its quotes, its snake_case written with spaces (an id keeps its dashes)."""
    value = value.strip().strip("\"'`").strip()
    return value if _DOCUMENT_ID.fullmatch(value) else re.sub(r"(?<=[A-Za-z])_(?=[A-Za-z])", " ", value)


def company_value(value: str) -> str:
    """A company as typed, its id shapes as the id.

    >>> company_value("comp_k"), company_value("CompB"), company_value("company-c"), company_value("xenon_pharma")
    ('COMP-K', 'COMP-B', 'COMP-C', 'xenon pharma')
    """
    plain = _plain(value)
    letter = _COMPANY_ID.fullmatch(plain)
    return f"COMP-{letter.group('l').upper()}" if letter else plain


def period_value(value: str) -> str:
    """A period as typed for the period readers, a year and month run together split ("202603": "2026-03").

    >>> period_value("202603"), period_value("year_to_date"), period_value("2025-Q4")
    ('2026-03', 'year to date', '2025-Q4')
    """
    plain = value.strip().strip("\"'`").strip()
    if TO_DATE.fullmatch(plain):
        return plain.replace("_", " ")
    return _YEAR_MONTH.sub(lambda m: f"{m.group('y')}-{m.group('m')}", plain)  # bounds ("date_from: ...") as typed


def _document_field(field_text: str) -> str | None:
    """The words of a field asked of one document ("net_eur": "net amount", "original_invoice_number")."""
    field = field_of(field_text) or field_of(field_text.split()[0]) if field_text.strip() else None
    if field is None:
        return None
    return {"amount": "gross amount", "invoice_amount": "gross amount", "net": "net amount", "tax": "VAT amount",
            "units": "units", "key": field.words, "date": "invoice date"}.get(field.kind)


# -- parsing ------------------------------------------------------------------------------------------------------
_KEY = r"[A-Za-z][\w.\-]{0,30}"
#: a JSON / YAML pair: '"company": "X"', "'n': 3", "company: alpenland_logistik" (in braces), '"dims": [...]'
_JSON_PAIR = re.compile(rf"(?P<q>[\"']?)(?P<k>{_KEY})(?P=q)\s*:\s*(?P<v>\"[^\"]*\"|'[^']*'|\[[^\]]*\]|[^,{{}}\"]+)")
#: an inline pair "key=value": the value a quoted string, or a token and the words after it up to the next pair,
#: separator, joint, operator, bracket or number (a period after a name: "comp=Xenon 2026-01" is two slots)
_INLINE_PAIR = re.compile(
    rf"(?<![\w<>!=-])(?P<k>{_KEY})=(?!=)(?P<v>\"[^\"]*\"|'[^']*'|\[[^\]\[()]*[\])]|"
    r"(?:(?![A-Za-z][\w.\-]*\s?=)[^\s,;|&=\[\]()]+)"
    r"(?:\s+(?!(?:and|or|where|vs\.?|versus|from|to|since|until|in|for|by|limit|desc|asc)\b)"
    r"(?![A-Za-z][\w.\-]*\s?[=<>!])(?=[A-Za-z])[^\s,;|&=<>\[\]()_]+(?=[\s,;|&)]|$))*)", re.I)
#: labels between semicolons / pipes: "metric: spend; company: Xenon"
_LABEL_PAIR = re.compile(rf"^\s*(?P<k>{_KEY})\s*:\s*(?P<v>.+?)\s*$")
#: "GET /invoices/INV-2026-0527", "/approved-suppliers?company=X&period=Y": a REST path and its query
_REST = re.compile(r"^\s*(?:(?:GET|POST|PUT|QUERY)\s+)?(?P<path>/[\w\-/.]*)(?:\?(?P<query>[^>]*?))?\s*(?=->|→|$)",
                   re.I)
#: "name(key=value, ...)": a function call with keyword arguments
_FUNCTION = re.compile(r"^\s*(?P<name>[A-Za-z][\w.]*)\s*\((?P<args>[^()]*=.*)\)\s*(?=->|→|$)")
#: "... -> field": the field asked of what stands before the arrow (never a period after it: "Jan->Apr")
_ARROW_FIELD = re.compile(r"\s*(?:->|→|=>)\s*(?P<f>[A-Za-z][\w.()]*(?:\s+[A-Za-z]\w*)?)\s*\??\s*$")
#: "period=from=...", "period: date_from: ...": a period key whose value is itself bounds (the bounds are read)
_NESTED_PERIOD = re.compile(r"\bperiod\s*[=:]\s*(?=[A-Za-z_]+\s*(?:[=:]|[<>]=?))", re.I)
#: SQL with its own clause grammar, read by router/keyword_query.py (a bare "SELECT field WHERE k=v" is an ask)
_SQL = re.compile(r"\bselect\b.+\bfrom\b|\bgroup\s+by\b|\border\s+by\b", re.I)
#: the most words of one pipe-separated field ("rank suppliers desc limit 2 | CompB | 202512"); a longer part
#: is a sentence ("Best regards | Julia"), the pipe a signature's
_FIELD_WORDS = 5
#: the placeholder of a pair in an inline ask's text
_HOLE = "\x00{}\x00"
_HOLES = re.compile("\x00(?P<i>\\d+)\x00")


@dataclass(frozen=True)
class Ask:
    """A structured ask in parts: its pairs (in order), the text around them with a placeholder for each pair
    (``template``; empty for an object, a call or a path, whose parts have no order), the field after an arrow,
    and a call's or a REST path's name."""

    pairs: tuple[Pair, ...]
    template: str
    arrow: str
    head: str


def _inline(text: str, offset: int = 0) -> tuple[list[Pair], str]:
    pairs: list[Pair] = []

    def hole(match: re.Match[str]) -> str:
        pairs.append(Pair(match.group("k"), match.group("v"), match.group(0)))
        return _HOLE.format(offset + len(pairs) - 1)

    return pairs, _INLINE_PAIR.sub(hole, text)


#: a label of a YAML block or a settings line: "metric: spend company: Kestrel period: 2025-Q4" (its lines joined)
_LABEL = re.compile(r"(?:^|(?<=\s))-?\s*(?P<k>[A-Za-z][\w.\-]{0,30})\s*:\s+")


def _label_block(text: str) -> Ask | None:
    """A YAML block / settings line of "key: value" labels, every one a key the tables know, from the first word on
    ("company: Kestrel period: 2025-Q4 metric: spend"); ``None`` otherwise (prose: "Subject: ...", "Re: ...").

    >>> [(p.key, p.value) for p in _label_block("metric: spend company: Kestrel GmbH period: 2025-Q4").pairs]
    [('metric', 'spend'), ('company', 'Kestrel GmbH'), ('period', '2025-Q4')]
    """
    if re.search(r"[|;=]", text):
        return None  # fields between pipes / semicolons, or pairs inside the values: the parts' own grammar
    labels = [m for m in _LABEL.finditer(text) if slot_of(m.group("k")) is not None]
    if len(labels) < 2 or labels[0].start() > 0 or any(slot_of(m.group("k")) == "bound" for m in labels[:1]):
        return None
    if len([m for m in _LABEL.finditer(text)]) != len(labels):
        return None  # a label no table knows among them: prose with a colon, left to the readers
    pairs: list[Pair] = []
    for i, label in enumerate(labels):
        end = labels[i + 1].start() if i + 1 < len(labels) else len(text)
        value = text[label.end():end].strip(" ,;")
        if slot_of(label.group("k")) == "bound" and pairs:
            # "period: date_from: 2025-08-01 date_to: ...": the bounds are the period's, typed for the period readers
            last = pairs[-1]
            pairs[-1] = Pair(last.key, f"{last.value} {text[label.start():end].strip()}".strip(),
                             f"{last.text} {text[label.start():end].strip()}")
            continue
        if value or slot_of(label.group("k")) == "period":
            pairs.append(Pair(label.group("k"), value, text[label.start():end].strip()))
    return Ask(tuple(pairs), "", "", "")


def parse(text: str) -> Ask | None:
    """The parts of ``text`` written in a structured notation, or ``None`` (prose: no pair, path, call or pipe).

    >>> [(p.key, p.value) for p in parse('{"rank":"supplier","n":3,"period":"2025-Q3"}').pairs]
    [('rank', '"supplier"'), ('n', '3'), ('period', '"2025-Q3"')]
    >>> [(p.key, p.value) for p in parse("spend | comp=comp_a | 2026-03").pairs]
    [('comp', 'comp_a')]
    >>> parse("what did we spend with Gamma in March?") is None
    True
    """
    if _SQL.search(text):
        return None  # a query with its own clauses (SELECT ... FROM, GROUP BY, ORDER BY): router/keyword_query.py
    block = _label_block(text)
    if block is not None:
        return block
    text = _NESTED_PERIOD.sub("", text)
    arrow = ""
    tail = _ARROW_FIELD.search(text)
    if tail is not None and (_document_field(tail.group("f")) or measure_words(tail.group("f"))):
        arrow, text = tail.group("f"), text[:tail.start()]
    obj = re.fullmatch(r"\s*\{(?P<body>.*)\}\s*", text, re.S)
    function = _FUNCTION.match(text)
    rest = _REST.match(text)
    if obj is not None or re.search(r"[\"']\w[\w .-]*[\"']\s*:", text):
        body = obj.group("body") if obj is not None else text
        pairs = [Pair(m.group("k"), m.group("v").strip(), m.group(0)) for m in _JSON_PAIR.finditer(body)]
        # a value left after the pairs (a period "2025-08-01/2025-09-30" written unquoted) stays, as a bare part
        left = " | ".join(b.strip() for b in re.split(r"\s*,\s*", _JSON_PAIR.sub(" ", body)) if b.strip())
        return Ask(tuple(pairs), left, arrow, "") if pairs else None
    if function is not None and "=" in function.group("args"):
        # the arguments, split before each next key ("[2026-01-01, 2026-05-01)" is one value)
        pairs, left = _inline(re.sub(r"\s*,\s*(?=[A-Za-z_][\w.]*\s*[=:])", " | ", function.group("args")))
        return Ask(tuple(pairs), left, arrow, function.group("name"))
    if rest is not None and rest.group("path").strip("/"):
        segments = [s for s in rest.group("path").split("/") if s]
        pairs = [Pair("document", s, s) for s in segments if _DOCUMENT_ID.fullmatch(s)]
        template = [_HOLE.format(i) for i in range(len(pairs))]
        for part in (rest.group("query") or "").split("&"):
            key, sep, value = part.partition("=")
            if sep and re.fullmatch(_KEY, key.strip()):
                pairs.append(Pair(key, value, part))
                template.append(_HOLE.format(len(pairs) - 1))
            elif part.strip():
                # a part with no "=" ("excluding Supplier Beta", "paid only", a range already read as words) is
                # the ask's text, as inline (never dropped: an exclusion or a status lost is a silent wrong)
                found, left = _inline(part, len(pairs))
                pairs.extend(found)
                template.append(left)
        head = " ".join(s for s in segments if not _DOCUMENT_ID.fullmatch(s))
        template.append(text[rest.end():])
        return Ask(tuple(pairs), " | ".join(t for t in template if t.strip()), arrow, head)
    if not re.search(r"[|;]", text) and _LISTING.match(text) and _FLOW_ARROW.search(text):
        text = _FLOW_ARROW.sub(" | ", text)  # "inv nos SUP-98 -> comp_x aug'25": the documents' flow, two names
    parts = re.split(r"\s*[|;]\s*", text) if re.search(r"[|;]", text) else [text]
    pairs = []
    template: list[str] = []
    for part in parts:
        label = _LABEL_PAIR.match(part) if len(parts) > 1 and "=" not in part else None
        if label is not None and slot_of(label.group("k")) is not None:
            pairs.append(Pair(label.group("k"), label.group("v"), part))
            template.append(_HOLE.format(len(pairs) - 1))
            continue
        found, left = _inline(part, len(pairs))
        pairs.extend(found)
        template.append(left)
    if not any(slot_of(p.key) is not None for p in pairs) and not arrow and not (
            len(parts) > 1 and all(len(p.split()) <= _FIELD_WORDS for p in parts)):
        return None  # prose: no key any table knows, no arrow's field, no short fields between pipes
    return Ask(tuple(pairs), " | ".join(template), arrow, "")


# -- rendering ----------------------------------------------------------------------------------------------------
#: the listing of a selection's documents: "list invoice_numbers", "SELECT invoice_number", "inv nos"
_LISTING = re.compile(r"^\s*(?:(?:list|select|get|show|return)\s+)?(?:the\s+|all\s+)?"
                      r"(?:invoice[_ ]?(?:numbers?|nos?\.?|ids?)|inv(?:oices?)?[_ ]?(?:nos?\.?|numbers?)|invoices)"
                      r"(?=\s|$|\|)(?:\s+where\b)?", re.I)
#: a compact measure name: "total_spend", "n_invoices", "avg_unit_price", "count(CNs)", "sum(quantity)" (never a
#: column compared: "total_gross > 10k" is a condition, read by router/keyword_query.py)
_COMPACT = re.compile(r"(?<![\w(-])(?:[a-z]+(?:_[a-z]+)+|(?:count|n|cnt)\s*\([^()]{1,40}\))(?![\w-])"
                      r"(?!\s*[<>=!])", re.I)
#: "pct spend Gamma vs all", "share of spend SUP-18 vs total": a part's share of the whole
_SHARE_VS_ALL = re.compile(r"\b(?:pct|percent|percentage|share)\s+(?:of\s+)?spend\s+(?P<part>.+?)\s+vs\.?\s+"
                           r"(?:all|total|everything|the\s+rest|all\s+suppliers)\b", re.I)
#: "spend delta | ...": the measure's change, in the head (first part) of a structured ask
_MEASURE_DELTA = re.compile(r"^\s*(?P<m>(?:net\s+|gross\s+|total\s+)?spend|net\s+spend|tax\s+amount|units)\s+"
                            r"(?:delta|diff|change|chg)(?=\s*(?:[|,;]|$))", re.I)
#: a measure named in the bare text (a breakdown beside it is that measure's)
_MEASURE_NOUN = re.compile(r"\b(?:spend\w*|spent|costs?|net|gross|tax|vat|units?|quantity|qty|invoices?|"
                           r"credit[ _]notes?|count|number|price|amount|total|average|avg|share|pct|sum)\b", re.I)
#: "SUP-98 -> comp_x": an arrow between two names (the flow of the documents, from a supplier to a company)
_FLOW_ARROW = re.compile(r"\s*(?:->|→)\s*(?=[A-Za-z])(?![A-Za-z]{3}\b)")


def _bare_words(bare: str) -> str:
    """Bare text with its compact measure names as the measure's words, a year-month run together with its dash,
    and a part that is a company's id shape alone as the id (others kept as typed)."""
    def one(match: re.Match[str]) -> str:
        said = measure_words(match.group(0))
        if "(" in match.group(0) and said not in ("number of credit notes", "number of documents"):
            return match.group(0)  # "count(*)", "count(invoices)": read by router/keyword_query.py
        if field_of(match.group(0)) is not None:
            return match.group(0)  # a column ("spend_eur", "net_amount"): router/structured_notation.py, its currency
        return said if said is not None else match.group(0)

    out = _COMPACT.sub(one, bare)
    # "spend delta", "net delta": a measure's change, asked in the head of the ask (a name is a slot's value there)
    out = _MEASURE_DELTA.sub(lambda m: f"change in {m.group('m')}", out)
    out = _YEAR_MONTH.sub(lambda m: f"{m.group('y')}-{m.group('m')}", out)
    out = _SHARE_VS_ALL.sub(lambda m: f"share of {m.group('part')} in total spend", out)
    fields = out.split("|")
    if len(fields) == 1:
        return out
    # a pipe field alone is one slot's value: a company's id shape is the id, a snake_case period its words
    return "|".join(company_value(p) if _COMPANY_ID.fullmatch(p.strip()) else
                    period_value(p) if re.fullmatch(r"\s*[a-z]+(?:_[a-z]+)+\s*", p) else p for p in fields)


def _pair_words(pair: Pair, slot: Slot | None) -> str:
    """One pair where it stands: the slot's words with the value (a key no table knows stays as typed)."""
    value = _plain(pair.value)
    if slot == "exclude":
        base = excluded_slot(pair.key)
        if base == "doc_type":
            return f"excluding {value.replace('_', ' ')}s"
        inner = _pair_words(pair, base) if base is not None else value
        return "excluding " + re.sub(r"^(?:for|on|in)\s+", "", inner)
    if slot == "direction" and _direction((pair,)) is None:
        # a ranking order no word of which is read ("sort": "weird"): in the column shape the reader names as a
        # field it does not have (PARTIAL), never a silent "top"
        return f"sort_order = {value}"
    key = pair.key.strip().strip("\"'`")
    if slot is None and re.fullmatch(r"[A-Za-z]+", key) and field_of(key) is None and measure_words(key) is None \
            and value and measure_words(value) is None:
        # a one-word key no table knows ("foo": "bar", "basis": "x"): the reader names only a column's shape
        # (router/ap_fields.py), and dropped the word silently; written so, it is named (PARTIAL)
        return f"{key.casefold()}_field = " + (f"'{value}'" if re.search(r"\s", value) else value)
    if slot is None or slot in ("document", "field", "rank", "limit", "direction"):
        # not read here (a key no table knows, or a lookup's part without its document): as typed, its quotes
        # the notation's ('"doc":"agreement-7"' is "doc: agreement-7"), named back by the reader when unknown
        return re.sub(r"[\"'](?P<k>[^\"']*)[\"']\s*:\s*[\"']?(?P<v>[^\"']*)[\"']?", r"\g<k>: \g<v>",
                      pair.text.strip())
    if slot == "bound":
        return pair.text.strip()
    if slot == "action":
        # "list": "approved_vendors" is "list approved vendors" (the verb is the ask's; "op": "x" is the value alone)
        verb = pair.key.strip().strip("\"'").lower()
        return f"{verb} {value}" if verb in ("list", "show", "get") else value
    if slot == "filter":
        return pair.value.strip().strip("\"'`")
    if slot == "company":
        return f"for {company_value(pair.value)}"
    if slot == "period":
        return period_value(pair.value)
    if slot == "base":
        return f"compared with {period_value(pair.value)}"
    if slot == "measure":
        return measure_words(value) or value
    if slot == "breakdown":
        items = [i.strip().strip("\"'") for i in value.strip("[]").split(",") if i.strip()]
        words = []
        for item in items:
            field = field_of(item)
            words.append(field.words if field is not None and field.kind == "dimension" else item)
        return "by " + " and ".join(words)
    if slot == "currency":
        return f"in {value}"
    if slot == "doc_type":
        return value.replace("_", " ") + "s only"
    if slot in ("group", "top_group"):
        # "on <group>": the readers resolve a group named so, and name one the data does not have (after "product
        # group" an unknown name was dropped: the company's whole spend, a silent wrong)
        return f"on {value}"
    words = {"supplier": "supplier", "product": "product", "status": "status"}[slot]
    return f"{words} {value}"


def pair_words(key: str, value: str) -> str:
    """One key and its value in the readers' words, through the one slot table ("vendor", '"Orbis"':
    "supplier Orbis"; "Co", "Company B": "for Company B"); a key no table knows stays as typed, named back. Shared
    with the criteria of a spreadsheet formula (router/spreadsheet_formulas.py)."""
    return _pair_words(Pair(key, value, f"{key}={value}"), slot_of(key))


_BOTTOM = frozenset(("bottom", "lowest", "smallest", "least", "asc", "ascending", "min", "low", "worst"))
_TOP = frozenset(("top", "highest", "largest", "most", "desc", "descending", "max", "high", "best"))


def _direction(pairs: tuple[Pair, ...]) -> str | None:
    """The ranking's direction the direction keys state ("bottom" / "top"), or ``None`` (none, or one not read:
    the pair then stays as typed, named back by the reader, never a silent "top")."""
    said: set[str] = set()
    for pair in pairs:
        if slot_of(pair.key) != "direction":
            continue
        key = re.sub(r"[\s.\-]+", "_", pair.key.strip().strip("'\"`").casefold())
        value = _plain(pair.value).casefold()
        if key in _BOTTOM | _TOP and (value.isdigit() or value in ("true", "yes", "1", "")):
            said.add("bottom" if key in _BOTTOM else "top")
        elif value in _BOTTOM | _TOP:
            said.add("bottom" if value in _BOTTOM else "top")
        else:
            return None
    return said.pop() if len(said) == 1 else None


def _tidy(text: str) -> str:
    out = re.sub(r"\s*[|;]\s*", ", ", text)
    out = re.sub(r"(?:\s*,(?!\d))+\s*", ", ", " ".join(out.split()))
    return out.strip(" ,")


def render(ask: Ask) -> str:
    """The readers' prose for a parsed structured ask."""
    slots: dict[Slot, list[str]] = {}
    for pair in ask.pairs:
        slot = slot_of(pair.key)
        if slot is not None:
            slots.setdefault(slot, []).append(pair.value.strip())
    documents = [_plain(v) for v in slots.get("document", ()) if _DOCUMENT_ID.fullmatch(_plain(v))]
    if not documents and ask.arrow:  # "CN-2025-0504 -> original_invoice_number": the field of the id before it
        documents = [m.group(0).upper() for m in _DOCUMENT_ID.finditer(_HOLES.sub("", ask.template))]
    field_text = _plain((slots.get("field") or [""])[0]) or ask.arrow
    measure_text = _plain((slots.get("measure") or [""])[0])
    measure = (measure_words(measure_text) or measure_text) if measure_text else None

    # a document with a field asked of it: the lookup ("net amount of invoice INV-..")
    if documents and (field_text or measure):
        asked = _document_field(field_text) if field_text else None
        if asked is None and measure:
            asked = {"spend": "gross amount", "total spend": "gross amount", "net spend": "net amount",
                     "tax amount": "VAT amount"}.get(measure, measure)
        if asked is not None:
            if asked == "original invoice number":
                return f"original invoice of credit note {' and '.join(documents)}"
            noun = "credit note" if _CREDIT_NOTE_ID.fullmatch(documents[0]) else "invoice"
            return f"{asked} of {noun} {' and '.join(documents)}"

    template = ask.template
    if not template and not ask.head:
        # an object's keys have no order: its measure or action first, as a sentence opens with what it asks
        first = sorted(range(len(ask.pairs)), key=lambda i: slot_of(ask.pairs[i].key) not in ("measure", "action"))
        template = " | ".join(_HOLE.format(i) for i in first)
    elif ask.head and not _HOLES.search(template):
        template = " | ".join([template, *(_HOLE.format(i) for i in range(len(ask.pairs)))])
    listing = _LISTING.match(template) is not None or (
        bool(re.fullmatch(r"invoices?", ask.head.strip(), re.I)) and not documents)
    if _LISTING.match(template):
        template = _LISTING.sub("list the invoices", template, count=1)
    template = _FLOW_ARROW.sub(", ", template)

    ranked = slots.get("rank", ())
    lead = ""
    direction = _direction(ask.pairs)
    if ranked:
        field = field_of(_plain(ranked[0]))
        plural = field.plural if field is not None and field.kind == "dimension" and field.plural else \
            _plain(ranked[0])
        limit = _plain((slots.get("limit") or [""])[0])
        if not limit.isdigit():
            limit = next((_plain(p.value) for p in ask.pairs if slot_of(p.key) == "direction"
                          and _plain(p.value).isdigit()), limit)  # '"bottom": 3'
        if limit.isdigit():
            lead = f"{direction or 'top'} {limit} {plural} by {measure or 'spend'}"
        else:
            lead = f"ranking of {plural} by {measure or 'spend'}" + (", smallest first" if direction == "bottom"
                                                                      else "")
    skip = {"rank", "limit"} if ranked else set()
    if ranked and direction is not None:
        skip.add("direction")  # read into the lead; a direction no word of which is known stays, named back
    if ranked and measure:
        skip.add("measure")

    def hole(match: re.Match[str]) -> str:
        pair = ask.pairs[int(match.group("i"))]
        slot = slot_of(pair.key)
        return "" if slot in skip else f"\x01{_pair_words(pair, slot)}\x01"

    out = _bare_words(_HOLES.sub(hole, template))
    # "where" / "and" / "AND" between pairs: the joints of a list of constraints
    out = re.sub(r"\s*\b(?:where|and)\b\s*(?=\x01)|(?<=\x01)\s*\b(?:and)\b\s*", " | ", out, flags=re.I)
    # "for company_id=COMP-Y": the preposition typed before the pair is the slot's own
    out = re.sub(r"\b(?P<p>for|of|at|in|on)\s+\x01(?:for|on)\s+", lambda m: f"{m.group('p')} \x01", out, flags=re.I)
    out = out.replace("\x01", "")
    head = ""
    if ask.head:
        head = measure_words(ask.head) or ask.head.replace("-", " ").replace("_", " ")
    said = _tidy(" | ".join(x for x in (lead, head, out) if x))
    if ask.arrow and not documents and (_document_field(ask.arrow) or "") == "invoice number":
        said = f"list the invoices, {said}"  # "{...} -> invoice_numbers": the selection's documents
    elif ask.arrow and not documents:
        said = f"{measure_words(ask.arrow) or ask.arrow}, {said}"
    elif not lead and not listing and not measure and "breakdown" in slots and not _MEASURE_NOUN.search(
            f"{_HOLES.sub('', ask.template)} {ask.head}"):
        said = f"spend {said}"  # a breakdown with no measure: the governed default's, the spend
    elif not lead and not listing and not measure and all(
            slot_of(p.key) not in (None, "document", "field", "action", "filter") for p in ask.pairs) \
            and not re.search(r"[A-Za-z]", _tidy(_HOLES.sub("", ask.template)
                                                                                     + " " + ask.head)):
        said = f"spend, {said}"  # a structured ask that names no measure asks the governed default, the spend
    return _group_after_measure(said, slots) if not (lead or listing or "action" in slots) else said


def _group_after_measure(said: str, slots: dict[Slot, list[str]]) -> str:
    """The group right after the measure it narrows ("spend on catering, for Company A"): an unknown group named
    later in a list of parts was dropped by the reader (the company's whole spend, a silent wrong)."""
    for value in (v for slot in ("group", "top_group") for v in slots.get(slot, ())):
        group = f"on {_plain(value)}"
        found = re.search(rf",\s*{re.escape(group)}(?=,|$)", said)
        if found is None:
            continue  # typed with its own preposition, or already after the measure
        said = said[:found.start()] + said[found.end():]
        first, sep, rest = said.partition(", ")
        said = f"{first} {group}{sep}{rest}"
    return said


def structured_ask(text: str) -> str:
    """``text`` written in a structured notation as the readers' prose (unchanged when it is prose).

    >>> structured_ask('{"company":"Kestrel","period":"dec-25","compare_to":"2025-11"}')
    'spend, for Kestrel, dec-25, compared with 2025-11'
    >>> structured_ask("n_invoices where company=comp_k and period=202603")
    'number of invoices, for COMP-K, 2026-03'
    >>> structured_ask("credit_note=CN-2025-0502 -> original_invoice_number")
    'original invoice of credit note CN-2025-0502'
    """
    if not re.search(r"[=|;{}]|->|→|^\s*(?:GET\s+)?/\w|\"\w+\"\s*:|^\s*-?\s*\w+\s*:\s", text):
        return text
    ask = parse(text)
    if ask is None or not _covers(text, ask):
        return text
    return render(ask)


_WORD = re.compile(r"[^\W_]+")


def _covers(text: str, ask: Ask) -> bool:
    """Whether every word of ``text`` is in a part of ``ask`` (a pair, its text around them, the arrow's field, the
    call's or path's name): a word the parse lost would be a constraint silently dropped; then the text is left to
    the readers as typed."""
    kept = " ".join([*(p.text for p in ask.pairs), _HOLES.sub(" ", ask.template), ask.arrow, ask.head])
    have = {w.casefold() for w in _WORD.findall(kept)}
    said = _NESTED_PERIOD.sub("", text)
    said = re.sub(r"^\s*(?:GET|POST|PUT|QUERY)\s+", "", said, flags=re.I)
    return all(w.casefold() in have for w in _WORD.findall(said))


__all__ = ["NOTATION_KEYS", "Ask", "Pair", "company_value", "pair_words", "parse", "period_value", "render",
           "slot_of", "structured_ask"]
