"""Tool-style requests of an AI agent, rewritten into the plain phrasing the reader knows.

An agent writes parameters, not sentences: "company_id=COMP-Y, valid_on=2026-09-15", "period 2025-07-01..2025-12-31",
"period [2026-01-01, 2026-04-01)", "period_start 2026-01-01, period_end 2026-04-01 (exclusive)",
"gross_total_eur > 13000", "spend_eur by supplier_id". Each form has one meaning, so it is rewritten to the words a
person would use ("company COMP-Y on 2026-09-15", "2025-07-01 to 2025-12-31", "above 13000 EUR", "spend in EUR by
supplier"); left as written, a period was asked about, a breakdown dropped or the request read as a document
search.

Design note: the reader reads "from a to b" with b excluded unless it is a month's last day (router/periods.py), so
a half-open end ("[a, b)", "period_end b (exclusive)") is written "to before b" and a closed one ("[a, b]", "a..b")
"through b": each keeps its own end whatever day it is. An unmarked "start_date=a, end_date=b" is closed: such
parameters are inclusive by convention (the answer's period, "[a, b+1)", says the reading). Only exact forms are
rewritten: any other token is left for the reader, which names what it cannot place.
"""

from __future__ import annotations

import re

_DATE = r"\d{4}-\d{2}-\d{2}"


#: "period [2026-01-01, 2026-04-01)", "[2026-01-01, 2026-03-31]": a half-open or closed interval.
_INTERVAL = re.compile(rf"\[\s*(?P<a>{_DATE})\s*[,;]\s*(?P<b>{_DATE})\s*(?P<close>[)\]])")
#: "period_start 2026-01-01, period_end 2026-04-01 (exclusive)", "start_date=..., end_date=...".
_START_END = re.compile(
    rf"\b(?:period_start|start_date|date_from|from_date|valid_from|start)\s*(?:=|:)?\s*(?P<a>{_DATE})\s*[,;]?\s*"
    rf"(?:and\s+)?\b(?:period_end|end_date|date_to|to_date|valid_to|end)\s*(?:=|:)?\s*(?P<b>{_DATE})"
    r"(?P<excl>\s*\(?\s*(?:exclusive|excl\.?|end[- ]exclusive|not\s+included)\s*\)?)?", re.I)
#: "2025-07-01..2025-12-31": a closed range of days.
_DOTS = re.compile(rf"(?P<a>{_DATE})\s*\.\.\.?\s*(?P<b>{_DATE})")
#: "2026-01-01 to 2026-04-01 (exclusive)", "2025-07-01 - 2025-09-30 (inclusive)": a range whose end says its kind.
_MARKED_END = re.compile(rf"(?P<a>{_DATE})\s+(?:to|-|–|until|till)\s+(?P<b>{_DATE})\s*\(\s*(?:end\s+)?"
                         r"(?P<kind>exclusive|excl\.?|inclusive|incl\.?)\s*\)", re.I)
#: "valid_on=2026-09-15", "as_of_date: 2026-05-15": the one day asked about.
#: (not a bare "date:": "due date: 2026-03-01" is another date than the one asked)
_ON_DAY = re.compile(rf"\b(?:valid_on|valid_at|on_date|effective_on)\s*(?:=|:)\s*(?P<d>{_DATE})", re.I)
#: "group_by=month", "groupby: supplier_id": the breakdown; "top_n=5", "limit=3": a ranking's length; "as_of=D".
_GROUP_BY = re.compile(r"\b(?:group_?by|grouped_by|breakdown)\s*(?:=|:)\s*", re.I)
_TOP_N = re.compile(r"\b(?:top_?n|top|limit)\s*(?:=|:)\s*(?P<n>\d{1,3})\b", re.I)
_AS_OF = re.compile(rf"\bas_of(?:_date)?\s*(?:=|:)\s*(?P<d>{_DATE})", re.I)
#: "company_id=COMP-Y", "supplier_id: SUP-18": a key and its value, written as the noun and the value.
_KEY_VALUE = re.compile(r"\b(?P<key>company|supplier|product|product_group|category|group|currency|status|"
                        r"document_type)(?:_ids?|_codes?)?\s*(?:=|:)\s*", re.I)
#: "gross_total_eur > 13000", "amount >= 5000": a comparison of an invoice amount with a number.
_COMPARED = re.compile(
    r"\b(?P<field>(?:gross|net|grand)?_?(?:total|amount|value)(?:_eur|_in_eur)?|(?:gross|net)_eur)\s*"
    r"(?P<op>>=|=>|<=|=<|>|<|≥|≤)\s*(?P<pre>eur\s*)?(?P<n>\d(?:[\d_]|[.,](?=\d))*)(?:\s*(?P<ccy>eur)\b)?", re.I)
_OPS = {">": "above", "<": "below", ">=": "or more", "=>": "or more", "≥": "or more", "<=": "or less",
        "=<": "or less", "≤": "or less"}
#: snake_case field names of a request: "spend_eur", "supplier_id", "invoice_numbers", "product_group_id".
_FIELDS = (
    (re.compile(r"\bspend_eur\b", re.I), "spend in EUR"),
    (re.compile(r"\b(?:spend|total)_(?:amount|value)\b", re.I), "spend"),
    (re.compile(r"\bproduct_group_ids?\b", re.I), "product group"),
    (re.compile(r"\b(?P<noun>supplier|company|product|invoice)_(?:ids?|codes?|numbers?)\b", re.I), None),
)


def _field(match: re.Match[str]) -> str:
    noun = match.group("noun").lower()
    plural = match.group(0).lower().endswith("s")
    if noun == "invoice":
        return "invoice numbers" if plural else "invoice number"
    return f"{noun}s" if plural else noun


def _compared(match: re.Match[str]) -> str:
    field = match.group("field").lower()
    basis = "net total" if field.startswith("net") else "gross total" if "gross" in field or "grand" in field \
        else "total"
    number = match.group("n").replace("_", "").replace(",", "")
    op = _OPS[match.group("op")]
    # the currency as written: EUR in the field or after the number, else none (another code may follow, "> 5000
    # USD", and the reader reads it there)
    amount = f"{number} EUR" if "eur" in field or match.group("ccy") or match.group("pre") else number
    if op in ("above", "below"):
        return f"{basis} {op} {amount}"
    return f"{basis} of {amount} {op}"


def tool_style(text: str) -> str:
    """``text`` with its tool-style parameters written as the reader's phrases (unchanged without any).

    >>> tool_style("List approved supplier_ids for company_id=COMP-Y, valid_on=2026-09-15.")
    'List approved suppliers for company COMP-Y, on 2026-09-15.'
    >>> tool_style("period_start 2026-01-01, period_end 2026-04-01 (exclusive), grouped by month")
    'from 2026-01-01 to before 2026-04-01, grouped by month'
    >>> tool_style("start_date=2026-03-01, end_date=2026-03-18: spend of COMP-A")
    'from 2026-03-01 through 2026-03-18: spend of COMP-A'
    >>> tool_style("Return invoice_numbers for COMP-B, period 2025-07-01..2025-12-31, gross_total_eur > 13000.")
    'Return invoice numbers for COMP-B, period from 2025-07-01 through 2025-12-31, gross total above 13000 EUR.'
    >>> tool_style("price for PRD-625, period [2026-01-01, 2026-04-01).")
    'price for PRD-625, period from 2026-01-01 to before 2026-04-01.'
    """
    if not re.search(r"[_=<>≥≤\[]|\.\.|period_|exclusive|inclusive|\((?:ex|in)cl", text, re.I):
        return text

    def interval(match: re.Match[str]) -> str:
        joint = "to before" if match.group("close") == ")" else "through"
        return f"from {match.group('a')} {joint} {match.group('b')}"

    def start_end(match: re.Match[str]) -> str:
        # an agent's end_date / period_end / date_to / valid_to is inclusive by convention unless marked exclusive:
        # written "to" it would be read end-exclusive and the last day dropped from the figure
        joint = "to before" if match.group("excl") else "through"
        return f"from {match.group('a')} {joint} {match.group('b')}"

    out = _INTERVAL.sub(interval, text)
    out = _START_END.sub(start_end, out)
    def marked(match: re.Match[str]) -> str:
        joint = "to before" if match.group("kind").lower().startswith("ex") else "through"
        return f"from {match.group('a')} {joint} {match.group('b')}"

    out = _MARKED_END.sub(marked, out)
    out = _DOTS.sub(lambda m: f"from {m.group('a')} through {m.group('b')}", out)
    out = _ON_DAY.sub(lambda m: f"on {m.group('d')}", out)
    out = _AS_OF.sub(lambda m: f"as of {m.group('d')}", out)
    out = _GROUP_BY.sub("grouped by ", out)
    out = _TOP_N.sub(lambda m: f"top {m.group('n')}", out)
    out = _COMPARED.sub(_compared, out)
    for pattern, words in _FIELDS:
        out = pattern.sub(words if words is not None else _field, out)
    out = _KEY_VALUE.sub(lambda m: m.group("key").replace("_", " ").lower() + " ", out)
    return out


__all__ = ["tool_style"]
