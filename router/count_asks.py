"""Terse asks for counts and lists of entities, written as the questions the count and listing readers answer.

Users ask for a number of documents, lines or entities in shorthand the count reader (router/counts.py) and the
purchase listing (router/listings.py) do not see as a count or a list, and the question then fell through to the
spend of the same scope (a silent wrong figure) or was asked back:

* a count word the reader does not know: "nr of invoices", "nbr of credit notes", "qty of invoices";
* a count marker after the counted noun: "credit notes Ypsilon H2 25 #", "Credit notes received in FY2025
  (count)" (also inside one part of a longer request);
* a count request before its noun: "quick count please: invoices booked for Co A", "count pls - credit notes";
* the payables adjective before the noun: "count of supplier invoices" (every invoice here is a supplier's);
* bare line nouns: "invoice lines Company C Q1 2026" (with no amount word: their number);
* "distinct vendors Company B FY25", "unique product codes Ypsilon Q1": the entities with counted lines, i.e. the
  purchase listing (whose answer names how many there are);
* a listing with its buyer after a passive verb ("products bought Alpenland from Northwind 2026") or before its
  verb ("vendors Company C used in Q2"): the listing's own shapes.

:func:`count_asks` returns the question in those words, or unchanged when it has none of these shapes; it is
idempotent (its output has none of them). Nothing is dropped: every other word stays for the readers, which name
what they cannot place.
"""

from __future__ import annotations

import re

#: The counted nouns (documents, lines, entities).
_NOUN = (r"(?:credit[- ]?notes|invoices|documents|bills|invoice\s+lines|line\s+items|suppliers|vendors|products|"
         r"product\s+codes)")

#: Count words the reader does not know: "nr of", "nbr. of", "num of", "cnt of" (before a counted noun). Not
#: "qty of" for products or suppliers: a quantity of products is units bought, not how many different products;
#: "qty of invoices" is their number.
_NR_OF = re.compile(rf"(?:\b(?:nr|nbr|num|cnt)\.?|\bno\.|\bn[°º]\.?)\s*of\b(?=\s+(?:\w+\s+){{0,3}}?{_NOUN}\b)|"
                    r"\bqty\.?\s+of\b(?=\s+(?:\w+\s+){0,3}?(?:credit[- ]?notes|invoices|documents|bills|"
                    r"invoice\s+lines|line\s+items)\b)", re.I)
#: A count word before a named product (quoted, or its code): the units bought of it ("number of 'Cable gland M20'
#: ordered", "no. of PRD-495"), asked as "how many", the count of a thing the reader reads as units.
_COUNT_OF_NAMED = re.compile(r"\b(?:(?:total\s+)?number|no\.|nr\.?|nbr\.?|n[°º]\.?|count|qty|quantity)\s*of\s+"
                             r"(?:the\s+)?(?=[\"'‘“„«]|PRD-\d)|(?<!\w)#\s*of\s+(?=[\"'‘“„«]|PRD-\d)", re.I)
#: Analysts' plural shorthand for suppliers ("which sups did X buy from").
_SUPS = re.compile(r"\bsupps?\b(?![-/])(?=\s+(?:did|do|does|have|has|we|of|for|used|by|in)\b)|\bsups\b(?![-/])", re.I)
#: "inv lines" is expanded to "invoices lines" by router/keyword_query.py: the lines of invoices.
_INVOICES_LINES = re.compile(r"\binvoices\s+(lines|line\s+items)\b", re.I)
#: "invoice lines + credit note lines", "credit note lines and invoice lines": the lines of both document types.
_BOTH_LINES = re.compile(r"\b(?:invoice\s+(?P<a>lines|line\s+items)\s*(?:\+|&|\band\b|\bplus\b)\s*"
                         r"credit[- ]?note\s+(?:lines|line\s+items)|credit[- ]?note\s+(?P<b>lines|line\s+items)\s*"
                         r"(?:\+|&|\band\b|\bplus\b)\s*invoice\s+(?:lines|line\s+items))\b", re.I)
#: "quick count please: credit notes booked for ...", "count pls - invoices of ...": a count asked before its noun.
_COUNT_FIRST = re.compile(
    rf"\b(?:(?:a|the)\s+)?(?:quick\s+)?count\s*,?\s*(?:please|pls|plz)?\s*[:–-]\s*"
    rf"(?=(?:(?:the|all|our|any)\s+)?(?:[\w'-]+\s+){{0,2}}?{_NOUN}\b)", re.I)
#: A count marker after the noun, in the noun's clause: "credit notes Ypsilon H2 2025 #", "... (count)", "(#)".
_MARKED = re.compile(
    rf"(?<![\w-])(?P<noun>{_NOUN})\b(?P<mid>[^.;?!\n()#:]{{0,80}}?)\s*"
    r"(?:\(\s*(?:count|#|number|nr|no\.?|qty|how\s+many)\s*\??\s*\)|(?<![\w#])#(?=\s*(?:[.?!;,]|$)))", re.I)
#: Words that already make the noun counted ("number of credit notes ... (count)" needs no second count word).
_COUNTED_BEFORE = re.compile(r"\b(?:number|count|how\s+many|total\s+number|no\.?)\s+(?:of\s+)?(?:the\s+)?"
                             r"(?:[\w'-]+\s+){0,2}$", re.I)
#: "count of supplier invoices", "number of vendor credit notes": the payables documents, i.e. the documents.
_PAYABLES = re.compile(r"\b(?P<count>number\s+of|count\s+of|how\s+many|count)\s+(?:the\s+)?"
                       r"(?:supplier|vendor|purchase|ap|payables?)\s+(?P<noun>invoices|credit[- ]?notes|bills)\b", re.I)
#: Invoice lines named bare, first ("invoice lines Company C Q1 2026 (invoices only)").
_BARE_LINES = re.compile(r"^(?P<noun>(?:invoice\s+)?(?:lines|line\s+items)|invoice\s+line\s+items)\b(?P<rest>.*)$",
                         re.I | re.S)
#: What makes a bare noun something else than its number (an amount, a listing, a bound, a ranking).
_NOT_A_COUNT = re.compile(r"\b(?:spend|spent|amounts?|totals?|sum|value|net|gross|tax|vat|price|cost|eur|usd|gbp|chf|"
                          r"list|show|which|what|above|below|over|under|exceed\w*|largest|biggest|highest|lowest|top|"
                          r"bottom|most|least|average|avg|per|by|each|number|count|how)\b|[€$£%<>=]", re.I)
#: "distinct vendors Company B FY25", "unique product codes Ypsilon Q1 2026": the entities of the scope.
_DISTINCT = re.compile(
    r"^(?P<lead>[^?:]{1,60}?(?::|\s[-–]\s)\s*)?(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:of\s+)?(?:all\s+)?"
    r"(?:the\s+)?(?:distinct|unique|different)\s+"
    r"(?P<noun>product[\s_]codes?|products?|skus?|items|articles|suppliers?|vendors?|supplier_ids?)[\s,]+"
    r"(?P<rest>[^?]+?)[\s?.!]*$", re.I | re.S)
#: A listing's verb, or a count word: the distinct entities are then asked in a shape the readers know already.
_VERB_OR_COUNT = re.compile(r"\b(?:did|does|do|has|have|had|bought|purchased|ordered|used|buy|purchase|order|"
                            r"count|number|how\s+many|list|show|which|what|spend|spent|amount|total)\b|#", re.I)
#: "products bought Alpenland from Northwind 2026": the passive without "by", its buyer right after the verb.
_PASSIVE_BUYER = re.compile(
    r"^(?P<head>(?:[^?:]{1,60}?(?::|\s[-–]\s)\s*)?(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?"
    r"(?:(?:distinct|different|unique)\s+)?(?:product\s+codes|products|items|articles|skus)\s+"
    r"(?:actually\s+)?(?:bought|purchased|ordered|sourced))\s+"
    r"(?!(?:by|from|in|during|over|between|since|for|on|at|last|this|that|which|with|the\s+most|most|less|more)\b)"
    # (a period right after the verb is no buyer: "products purchased Q1 2026 by Company A" has its "by")
    r"(?!(?:q[1-4]|h[12]|fy\w*|ytd|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|"
    r"dec\w*)\b)(?P<rest>[A-Za-z](?:(?!\bby\b).)*)$", re.I | re.S)
#: "vendors Company C used in Q2 2026", "suppliers we worked with in 2025": the buyer before a use verb.
_USED_BY = re.compile(
    r"^(?P<lead>[^?:]{1,60}?(?::|\s[-–]\s)\s*)?(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?"
    r"(?P<noun>suppliers|vendors)\s+(?:that\s+|which\s+)?"
    r"(?P<subject>(?!(?:that|which|who|in|during|over|for|from|since|between|with|of|by|approved|were|was|are|is)\b)"
    r"[^?,;:]{1,40}?)\s+(?:has\s+|have\s+|had\s+)?(?:actually\s+|really\s+)?"
    r"(?P<verb>used|engaged|worked\s+with|dealt\s+with|did\s+business\s+with|traded\s+with|relied\s+on)\b"
    r"(?P<tail>.*)$", re.I | re.S)
#: "suppliers used by Company B in FY25": the same listing in the passive (the buyer runs to the scope words).
_USED_PASSIVE = re.compile(
    r"^(?P<lead>[^?:]{1,60}?(?::|\s[-–]\s)\s*)?(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?"
    r"(?P<noun>suppliers|vendors)\s+(?:(?:that|which)\s+(?:were|was|have\s+been|has\s+been)\s+)?"
    r"(?:actually\s+)?(?P<verb>used|engaged|relied\s+on)\s+by\s+(?P<subject>[^?,;:]{1,60}?)"
    r"(?P<tail>(?:\s*,.*|\s+(?:in|during|over|between|since|for|on|at|last|this|so\s+far)\b.*)?[\s?.!]*)$", re.I | re.S)
#: The buyer of a passive said as an object pronoun ("used by us"): the subject of the active question.
_SUBJECT_OF = {"us": "we", "me": "I", "them": "they"}
_USE_BASE = {"used": "use", "engaged": "engage", "worked with": "work with", "dealt with": "deal with",
             "did business with": "do business with", "traded with": "trade with", "relied on": "rely on"}


def _marked(match: re.Match[str]) -> str:
    text = match.string
    mid = re.sub(r"\s*[-–,]\s*$", "", match.group("mid"))  # "credit notes X 2025 - #": the separator goes too
    if _COUNTED_BEFORE.search(text[max(0, match.start() - 40):match.start()]):
        return f"{match.group('noun')}{mid}"  # the count word is there already: the marker goes
    return f"number of {match.group('noun')}{mid}"


def _plural(noun: str) -> str:
    word = re.sub(r"[\s_]+", " ", noun.lower()).replace("supplier ids", "suppliers").replace("supplier id", "supplier")
    return word if word.endswith("s") else word + "s"


def _distinct(text: str) -> str:
    """"distinct vendors Company B FY25" as the listing "Company B FY25: which suppliers did we buy from"."""
    found = _DISTINCT.match(text)
    if found is None or _VERB_OR_COUNT.search(found.group("rest")):
        return text
    lead, rest, noun = found.group("lead") or "", found.group("rest").strip(" ,"), _plural(found.group("noun"))
    if noun in ("suppliers", "vendors"):
        return f"{lead}{rest}: which {noun} did we buy from"
    return f"{lead}{rest}: list the {noun} purchased"


def _used_by(match: re.Match[str]) -> str:
    verb = _USE_BASE.get(re.sub(r"\s+", " ", match.group("verb").lower()), "use")
    subject = match.group("subject").strip()
    subject = _SUBJECT_OF.get(subject.lower(), subject)
    return (f"{match.group('lead') or ''}which {match.group('noun')} did {subject} "
            f"{verb}{match.group('tail')}")


def count_asks(text: str) -> str:
    """``text`` with its terse count and entity-list asks in the readers' words (unchanged without).

    >>> count_asks("nr of invoices company a 2026 ytd")
    'number of invoices company a 2026 ytd'
    >>> count_asks("credit notes ypsilon h2 2025 #")
    'number of credit notes ypsilon h2 2025'
    >>> count_asks("2. Credit notes received in FY2025 (count).")
    '2. number of Credit notes received in FY2025.'
    >>> count_asks("Hi, quick count please: invoices booked for Co A in H2 2025.")
    'Hi, number of invoices booked for Co A in H2 2025.'
    >>> count_asks("Count of supplier invoices booked for Kestrel, H2 2025 (no credit notes)")
    'Count of invoices booked for Kestrel, H2 2025 (no credit notes)'
    >>> count_asks("invoices lines company c q1 2026 (invoices only)")
    'number of invoice lines company c q1 2026 (invoices only)'
    >>> count_asks("line count xenon invoice lines + credit note lines mar 2026")
    'line count xenon invoice lines including credit notes mar 2026'
    >>> count_asks("distinct vendors company b fy25")
    'company b fy25: which vendors did we buy from'
    >>> count_asks("distinct product ypsilon q1 2026")
    'ypsilon q1 2026: list the products purchased'
    >>> count_asks("products bought alpenland from nortwind 2026")
    'products bought by alpenland from nortwind 2026'
    >>> count_asks("vendors company c used in q2 2026 so far?")
    'which vendors did company c use in q2 2026 so far?'
    >>> count_asks("suppliers used by Company B in FY25")
    'which suppliers did Company B use in FY25'
    >>> count_asks("list of distinct vendors company b fy25")
    'company b fy25: which vendors did we buy from'
    >>> count_asks("which sups did kestrel buy from in q1 2026")
    'which suppliers did kestrel buy from in q1 2026'
    >>> count_asks("invoices of Company A above 5000 EUR #")
    'number of invoices of Company A above 5000 EUR'
    >>> count_asks("no. of supplier invoices Company B FY25?")
    'number of invoices Company B FY25?'
    >>> count_asks("company b: number of 'Cable gland set M20' ordered sept to dec 2025")
    "company b: how many 'Cable gland set M20' ordered sept to dec 2025"
    >>> count_asks("spend of Company A in Q1 2026")
    'spend of Company A in Q1 2026'
    """
    out = _SUPS.sub("suppliers", text)
    out = _INVOICES_LINES.sub(lambda m: f"invoice {m.group(1)}", out)
    out = _BOTH_LINES.sub(lambda m: f"invoice {m.group('a') or m.group('b')} including credit notes", out)
    out = _NR_OF.sub("number of", out)
    out = _COUNT_OF_NAMED.sub("how many ", out)
    out = _COUNT_FIRST.sub("number of ", out)
    out = _MARKED.sub(_marked, out)
    out = _PAYABLES.sub(lambda m: f"{m.group('count')} {m.group('noun')}", out)
    bare = _BARE_LINES.match(out)
    if bare is not None and len(bare.group("rest")) <= 80 and not _NOT_A_COUNT.search(bare.group("rest")):
        noun = bare.group("noun")
        out = f"number of {noun if noun.lower().startswith('invoice') else 'invoice ' + noun}{bare.group('rest')}"
    out = _distinct(out)
    passive = _PASSIVE_BUYER.match(out)
    if passive is not None:
        out = f"{passive.group('head')} by {passive.group('rest')}"
    used = _USED_PASSIVE.match(out) or _USED_BY.match(out)
    if used is not None:
        out = _used_by(used)
    return out


__all__ = ["count_asks"]
