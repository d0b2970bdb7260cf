"""Elliptic questions: a company, a supplier or group and a period, and no word for the figure.

On the shop floor a question is often a fragment: "Theta letzter Monat, Company B", "Company B bei Eta im Q4
2025?", "company a dieses quartal bisher?", "Ypsilon: change last quarter vs the quarter before", "Kestrel sensors
2026 to date: Northwind's share?". Everything in them is read (the names, the period, "change" or "share"), only
the measure is left unsaid, and in procurement the unsaid measure of "X at Y in Q1" is the spend. The question is
then read once more with "spend" put in front; that reading is kept only when it answers (no clarification, no
unsupported figure), and the answer says that spend was assumed.

A fragment that names anything other than spend (documents, counts, prices, units, approvals, contracts, terms,
open or overdue items, taxes, currencies, listings) is never read as spend: those words ask for another figure or
a relationship, and a spend in their place would be a wrong answer presented as complete.
"""

from __future__ import annotations

import re

#: Words that ask for something other than the spend (English after the German rewrite, and German as typed).
_OTHER_ASK = re.compile(
    r"\b(?:invoices?|invoiced|rechnung\w*|credit|gutschrift\w*|lines?|documents?|approv\w*|freigegeben\w*|"
    r"genehmigt\w*|vendors?|suppliers|products|groups|contracts?|vertr(?:a|ä)g\w*|agreements?|terms?|clauses?|"
    r"manuals?|prices?|preis\w*|units?|st(?:ü|ue)ck\w*|quantit\w*|count\w*|number|anzahl|how\s+many|wie\s+viele|"
    r"list\w*|which|welche\w*|who|wer|open|overdue|unpaid|paid|due|tax|vat|mwst|currenc\w*|orders?|budget\w*|"
    r"forecast\w*|payment\w*|duplicat\w*|cancel\w*|draft\w*|disputed|average|max\w*|min\w*|top|rank\w*|"
    r"spend|spent|spending|expenditures?|expenses?|costs?|total|amount|ausgaben|betrag|summe)\b", re.I)
#: A word that refers back to a figure said before ("what share of it was sensors", a part of a compound
#: question): the whole is that figure, filtered as it was, never the plain spend put in front.
_REFERS_BACK = re.compile(r"\b(?:it|its|that|them|those|they|their|davon|dessen|deren)\b|"
                          r"\bthis\b(?!\s+(?:quarter|month|year|week|half))", re.I)
#: A question mark or a colon is no word; what is left must be names, a period and "change"/"share" at most.
_MIN_WORDS = re.compile(r"[^\W\d_]{2,}")


def elliptic_spend(text: str) -> str | None:
    """``text`` with "spend" put in front when it names no figure and asks for nothing else, or ``None``.

    >>> elliptic_spend("Theta last month, Company B")
    'spend Theta last month, Company B'
    >>> elliptic_spend("Company B approved vendors Q1 2026") is None, elliptic_spend("what share of it was sensors?")
    (True, None)
    """
    if _OTHER_ASK.search(text) or _REFERS_BACK.search(text) or not _MIN_WORDS.search(text):
        return None
    return f"spend {text.strip()}"


_NAMED_BACK = re.compile(r"I did not understand ((?:'[^']+'(?:, )?)+)|I do not know '([^']+)'")
#: Words a fragment may leave unread before "spend" is put in front: the scope of all companies ("change H1 vs
#: H2, all companies": without a measure "companies" is not read); any other word named back stays named back.
#: Legal forms are part of a supplier's name ("Zeta Sensorik GmbH"): read with the name once a measure is there.
_SCOPE_WORDS = frozenset({"companies", "company", "all", "group", "tenant", "gmbh", "ag", "inc", "ltd", "llc", "se",
                          "kg", "co", "plc", "sa", "bv", "nv", "oy", "ab", "spa", "srl"})


def names_back_other_words(clarification: str | None) -> bool:
    """Whether a clarification names back a word other than the scope words: such a fragment is not read as spend
    (the word would be dropped by the spend reading: "Company B bora in 2025" stays a clarification on 'bora').

    >>> names_back_other_words("I did not understand 'companies'. Could you say what you need")
    False
    >>> names_back_other_words("I did not understand 'bora'.")
    True
    """
    named = []
    for found in _NAMED_BACK.finditer(clarification or ""):
        named += re.findall(r"'([^']+)'", found.group(1)) if found.group(1) else [found.group(2)]
    return any(w.lower() not in _SCOPE_WORDS for w in named)


#: How the answer says what was assumed.
ELLIPTIC_NOTE = "no figure named: read as the spend of the names and period given"
