"""The AP clerk's ticket phrasings of document questions, written as the questions the readers answer.

A clerk's ticket puts the scope first and the asks last, in shorthand the compound splitter and the readers do not
see as asks of their own:

* "Company B paid invoices Q4 2025: count and EUR total": two figures of one selection, the number of documents
  and their amount, read as "<scope>: how many? And <scope>: total in EUR?" (the status, supplier and period of
  the scope carried to both; never the amount alone, which is a silently missing count);
* "open (posted, unpaid) invoices of Xenon - how many, dated 2026?": the count word between the selection and its
  last qualifier, read as "<selection> dated 2026: how many?" (never the amount of the selection);
* "Gamma Controls: invoices vs credit notes Q1 2026 for Company A - gross invoiced and credited": the invoices and
  the credit notes as two figures ("<scope>: invoices only, gross total? And <scope>: credit notes only, gross
  total?"), never their netted sum alone;
* "GBP invoices of Alpenland in Q1 2026 - list the numbers", "Which Company B invoices from Zeta in Q1 2026?": a
  listing of the invoices, read as "list the <invoices>" (never a figure of them);
* "what did Eta Industrial net out to ... after the credit note?": the spend with the credit notes netted in (the
  governed default; "net" here is the netting of documents, not the tax basis).

:func:`document_asks` returns the question in those words (the answer's parts restate them), or the question
unchanged when it has none of these shapes; it is idempotent (its output has none of them).
"""

from __future__ import annotations

import re

_CCY = r"(?:EUR|USD|GBP|CHF)"
#: "count and EUR total", "number & value", "how many and how much", "total and count" (either order) at the end.
_COUNT_WORD = r"(?:count|number|how\s+many|no\.|#)"
_AMOUNT_WORD = (rf"(?:(?:the\s+)?(?:(?P<ccy>{_CCY})\s+)?(?:total|amount|value|sum|spend)(?:\s+(?:amount|value))?"
                rf"(?:\s+(?:in\s+)?(?P<ccy2>{_CCY}))?|"
                rf"how\s+much(?:\s+in\s+(?P<ccy3>{_CCY}))?)")
_PAIR = re.compile(
    rf"\s*[:;,–-]\s*(?:(?:the\s+)?{_COUNT_WORD}\s*(?:and|&|\+|/|,)\s*{_AMOUNT_WORD}|"
    rf"{_AMOUNT_WORD.replace('?P<ccy>', '?P<ccy4>').replace('?P<ccy2>', '?P<ccy5>').replace('?P<ccy3>', '?P<ccy6>')}"
    rf"\s*(?:and|&|\+|/|,)\s*(?:the\s+)?{_COUNT_WORD})\s*(?:pls|please)?\s*[?.!]*\s*$", re.I)
#: "<selection> - how many, dated 2026?": the count word before the selection's last qualifier.
_COUNT_BEFORE_REST = re.compile(r"\s*[:;–-]\s*how\s+many\s*,\s*(?P<rest>[^?;:,]{3,60}?)\s*[?.!]*\s*$", re.I)
#: "invoices vs credit notes", "credit notes versus invoices", "invoices and credit notes separately".
_TYPES_PAIR = re.compile(
    r"\b(?:invoices?\s+(?:vs\.?|versus|against|compared\s+(?:to|with))\s+credit\s+notes?|"
    r"credit\s+notes?\s+(?:vs\.?|versus|against|compared\s+(?:to|with))\s+invoices?)\b", re.I)
#: The measure after such a pair: "- gross invoiced and credited", ", invoiced vs credited".
_TYPES_TAIL = re.compile(r"\s*[:;,–-]?\s*(?:(?P<basis>gross|net)\s+)?(?:amounts?\s+)?invoiced\s+(?:and|vs\.?|&|/)\s+"
                         r"credited\s*[?.!]*\s*$", re.I)
#: A pair of document types asked as another measure: counted ("how many invoices vs credit notes"), a ratio or
#: share, a listing; those readers take the question as written.
_OTHER_MEASURE = re.compile(r"\b(?:how\s+many|number|count|counts|ratio|share|percent\w*|proportion|list|which|"
                            r"per|by)\b|%", re.I)
_BASIS = re.compile(r"\b(gross|net)\b", re.I)
#: "what did X net out to": the netted figure (invoices less credit notes), not the tax-exclusive basis.
_NET_OUT = re.compile(r"\bnet(?:ted)?\s+out(?:\s+to)?\b", re.I)
_AFTER_CREDIT = re.compile(r"\s*,?\s*\b(?:after|net\s+of|less)\s+(?:the\s+|its\s+|their\s+|any\s+|all\s+)?"
                           r"credit\s+notes?\b(?!\s*(?:no\.?\s*)?#?\s*CN[-_ ]?\d)", re.I)


#: "<invoices of a scope> - list the numbers": the listing asked last.
_LIST_LAST = re.compile(r"\s*[:;,–-]\s*(?:pls\s+|please\s+)?(?:list|give|show|send)\s+(?:me\s+|us\s+)?"
                        r"(?:the\s+|their\s+|all\s+)?(?:invoice\s+)?(?:numbers|nos\.?|ids|list)\s*(?:pls|please)?"
                        r"\s*[?.!]*\s*$", re.I)
#: "Which Company B invoices from Zeta in Q1 2026?": a listing asked by "which" with no verb after the noun.
_WHICH_INVOICES = re.compile(r"^\s*which\s+(?P<scope>(?:[\w&.'-]+\s+){0,4}invoices\s+(?:from|of|with|by|for)\s+"
                             r"[^?;:]{3,80}?)\s*[?.!]*\s*$", re.I)
#: A verb makes a "which invoices ..." question another ask ("which invoices of Beta are above 5k", "... did X pay").
_VERB = re.compile(r"\b(?:did|do|does|are|is|were|was|have|has|had|exceed\w*|got|get|received?|sent|contain\w*|"
                   r"include\w*|show\w*|mention\w*|refer\w*|still|above|below|over|under|more|less|than|"
                   r"overdue|paid|open|unpaid|without|lack\w*)\b", re.I)
_INVOICES = re.compile(r"\binvoices\b", re.I)


_INVOICES_ONLY = re.compile(r"\b(?:invoices?|bills?)\b", re.I)
_CREDIT = re.compile(r"\bcredit\s*notes?\b|\bcredits\b|\bdocuments?\b", re.I)


def _clean_scope(scope: str) -> str:
    # the scope's own separators ("Gamma Controls: ... - ...") would read as the asks' boundaries
    scope = re.sub(r"\s*[:;]\s*", " ", scope)
    return re.sub(r"\s+", " ", scope).strip(" ,–-")


def document_asks(text: str) -> str:
    """``text`` with a ticket's document asks written out (see the module docstring), else ``text``.

    >>> document_asks("Company B paid invoices Q4 2025: count and EUR total")
    'Company B paid invoices Q4 2025: how many? And Company B paid invoices Q4 2025: total in EUR, invoices only?'
    >>> document_asks("open (posted, unpaid) invoices of Xenon - how many, dated 2026?")
    'open (posted, unpaid) invoices of Xenon dated 2026: how many?'
    >>> document_asks("GBP invoices of Alpenland in Q1 2026 - list the numbers")
    'list the GBP invoices of Alpenland in Q1 2026'
    >>> document_asks("Which Company B invoices from Zeta in Q1 2026?")
    'list the Company B invoices from Zeta in Q1 2026'
    >>> document_asks("what did Eta net out to for Company B in Q1 2026 after the credit note?")
    'what did Eta spend, credit notes netted in, for Company B in Q1 2026?'
    """
    listed = _LIST_LAST.search(text)
    if listed is not None and _INVOICES.search(text[:listed.start()]):
        return f"list the {_clean_scope(text[:listed.start()])}"
    which = _WHICH_INVOICES.match(text)
    if which is not None and not _VERB.search(which.group("scope")):
        return f"list the {_clean_scope(which.group('scope'))}"
    pair = _PAIR.search(text)
    if pair is not None and pair.start() > 0:
        scope = _clean_scope(text[:pair.start()])
        ccy = next((c for c in (pair.group(g) for g in ("ccy", "ccy2", "ccy3", "ccy4", "ccy5", "ccy6")) if c), None)
        in_ccy = f" in {ccy.upper()}" if ccy else ""
        # the count counts the invoices alone: the total is of the same documents, not netted with credit notes
        only = ", invoices only" if _INVOICES_ONLY.search(scope) and not _CREDIT.search(scope) else ""
        return f"{scope}: how many? And {scope}: total{in_ccy}{only}?"
    rest = _COUNT_BEFORE_REST.search(text)
    if rest is not None and rest.start() > 0:
        return f"{_clean_scope(text[:rest.start()])} {rest.group('rest')}: how many?"
    types = _TYPES_PAIR.search(text)
    if types is not None and not _OTHER_MEASURE.search(text):
        tail = _TYPES_TAIL.search(text, types.end())
        basis_match = (tail.group("basis") if tail else None) or next(
            (m.group(1) for m in _BASIS.finditer(text)), None)
        basis = f"{basis_match.lower()} " if basis_match else ""
        scope = _clean_scope(text[:types.start()] + " " + text[types.end():tail.start() if tail else len(text)])
        scope = re.sub(r"[?.!]+$", "", _BASIS.sub("", scope)).strip()
        scope = re.sub(r"\s+", " ", scope)
        return f"{scope}: invoices only, {basis}total? And {scope}: credit notes only, {basis}total?"
    if _NET_OUT.search(text) and _AFTER_CREDIT.search(text):
        return _NET_OUT.sub("spend, credit notes netted in,", _AFTER_CREDIT.sub("", text))
    return text
