"""Two document scopes of one figure asked side by side: "invoices total vs net of credit notes", "invoices only
(excl credit notes) gross total vs. incl CNs", "gross of credits and net of credits", "Rechnungen ohne und mit
Gutschriften".

The reader knows each scope alone (router/analysis.py: "invoices only", "excluding credit notes" restrict the
document types; "net of credit notes" is governed spend itself), but the comparison word between them was read as
a comparison of two periods and asked back ("compare Q1 with which period?"), or one scope was dropped. The two
scopes are two asks of one figure: the question is answered as two parts (router/compound.py answers each and
merges them), the scope, company, supplier and period words shared, each part with its own document words.
"""

from __future__ import annotations

import re

_CN = r"(?:credit[- ]?notes?|credit[- ]?memos?|credits|cns?|gutschriften|gutschrift|avoirs?|notas?\s+de\s+cr[eé]dito)"
#: The invoices alone: "invoices only", "invoice total", "excl. credit notes", "gross of credits", "before CNs".
_EXCL = r"(?:excl(?:uding|\.)?|without|w/o|ex|before|not\s+counting)"
_INVOICES_ONLY = (r"(?:(?:only\s+invoices?|invoices?\s+(?:only|alone|total|totals|sum)|invoices?(?=\s*\(?\s*" + _EXCL
                  + r"))(?:\s*\(?\s*" + _EXCL + r"\s+(?:the\s+)?" + _CN + r"\s*\)?)?"
                  r"|gross\s+invoices?(?:\s+only)?|invoices?\s+gross"
                  r"|(?:excl(?:uding|\.)?|without|w/o|ex|before|not\s+counting|gross\s+of)\s+(?:the\s+|any\s+)?"
                  + _CN + r"|nur\s+rechnungen|rechnungen\s+ohne\s+" + _CN + r")")
#: Credit notes netted in: "net of credit notes", "incl CNs", "after credits", "with credit notes", "less CNs".
_NETTED = (r"(?:(?:net\s+of|after|incl(?:uding|\.)?|inclusive\s+of|with|less|minus|netted\s+(?:with|against)|"
           r"after\s+deducting|mit|inkl\.?|abz[uü]glich|nach)\s+(?:the\s+|all\s+)?" + _CN + r"|net(?:ted)?\s+" + _CN
           + r")")
#: The words between two scopes compared: "vs", "versus", "compared to", "and", "/", "or".
#: "net of credit notes" said of one scope: the credit notes netted in (never the VAT basis "net").
NETTED_CREDIT_NOTES = re.compile(r"\b" + _NETTED + r"(?!\w)", re.I)
_JOINT = (r"(?:\s*(?:vs\.?|versus|v\.|compared\s+(?:to|with)|against|and|und|or|oder|/|&|,)\s*(?:the\s+|a\s+)?"
          r"(?:(?:total|sum|gross|figure|amount|spend|summe)\s+)?)")
#: What may stand between the first scope and the joint: the measure of the figure ("gross total", "sum").
_MEASURE = r"(?:\s*[\w()]*\s*){0,3}?"
_BOTH = re.compile(r"(?P<first>" + _INVOICES_ONLY + r")(?P<between>" + _MEASURE + r")" + _JOINT
                   + r"(?P<second>" + _NETTED + r")|"
                   r"(?P<first2>" + _NETTED + r")(?P<between2>" + _MEASURE + r")" + _JOINT
                   + r"(?P<second2>" + _INVOICES_ONLY + r")", re.I)
_COUNT = re.compile(r"\b(?:how\s+many|count|number\s+of|wie\s+viele|anzahl)\b", re.I)
#: Measure words kept in both parts ("gross total vs. incl CNs": the gross total of each scope).
_KEPT = re.compile(r"\b(?:gross|total|totals|sum|amount|spend|value|brutto|summe|betrag)\b", re.I)


def document_scope_parts(question: str) -> tuple[str, str] | None:
    """The two questions ``question`` asks when it compares the invoices alone with credit notes netted in, or
    ``None`` (one scope or none).

    >>> document_scope_parts("Gamma Co A Q1 26: invoices total vs net of credit notes")
    ('Gamma Co A Q1 26: total, invoices only, excluding credit notes', 'Gamma Co A Q1 26: total net of credit notes')
    >>> document_scope_parts("Company A spend in Q1 net of credit notes") is None
    True
    """
    m = _BOTH.search(question)
    if m is None or _COUNT.search(question):
        return None  # (a count of documents in two scopes is not read here: its own path names what it reads)
    measures = " ".join(w.lower() for w in _KEPT.findall(f"{m.group(0)}"))
    words = list(dict.fromkeys(measures.split()))
    if not set(words) & {"total", "totals", "sum", "amount", "spend", "value", "summe", "betrag"}:
        words.append("total")  # "gross vs after credits": the gross total of each scope
    measure = " ".join(words)
    before, after = question[:m.start()].rstrip(), question[m.end():].strip()

    def part(scope: str) -> str:
        text = f"{before} {measure}{scope} {after}".strip()
        return re.sub(r"\s+([?.!,;:])", r"\1", " ".join(text.split()))

    return part(", invoices only, excluding credit notes"), part(" net of credit notes")


__all__ = ["NETTED_CREDIT_NOTES", "document_scope_parts"]
