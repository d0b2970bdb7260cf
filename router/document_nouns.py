"""Pronouns that stand for invoices in an AP check, written as the noun before the reader sees the question.

An AP clerk asking for documents above an amount often leaves the noun out: "Kestrel Q3 25 - anything at least
15,000?", "any single one over 10k for Gamma?", "something above 5000 EUR in March?", "stuff north of 20k". Each
asks for the invoices above the amount (the threshold listing), yet the pronoun blocked it as an unknown word. The
pronoun is read as "any invoice" only right before an amount bound (a comparator and a number), and not after a
verb of spending ("did we spend anything over 15k with Beta" is a spend question, left as typed).
"""

from __future__ import annotations

import re

#: A comparator and a number: "at least 15,000", "over 10k", ">= 5000", "above EUR 20,000", "north of 20k".
_BOUND = (r"(?:(?:that|which)\s+(?:is|was|are|were)\s+|(?:valued|worth|priced|amounting)\s+(?:at\s+)?)?"
          r"(?:at\s+least|over|above|more\s+than|greater\s+than|bigger\s+than|larger\s+than|higher\s+than|"
          r"exceeding|in\s+excess\s+of|north\s+of|upwards\s+of|of\s+at\s+least|>=?|≥|"
          r"below|under|less\s+than|smaller\s+than|lower\s+than|<=?|≤|"
          r"mindestens|über|ueber)\s*(?:EUR|USD|GBP|CHF|€|\$|£)?\s*\d")
#: "anything", "any single one", "any item", "something", "stuff", "any docs": the invoices asked without the noun.
_PRONOUN = re.compile(r"\b(?:anything|something|stuff|any(?:\s+(?:single\s+)?(?:one|ones|items?|documents?|docs?|"
                      r"entr(?:y|ies)))?|irgendwas|etwas)\s+(?=" + _BOUND + r")", re.I)
#: Verbs of spending or buying before the pronoun: "spend anything over 15k" is a spend question.
_SPENT_BEFORE = re.compile(r"\b(?:spen[dt]|spending|buy|bought|purchas\w*|pa(?:y|id)|order(?:ed)?|cost)\s+$", re.I)


def spell_document_nouns(text: str) -> str:
    """``text`` with an invoice pronoun before an amount bound written as "any invoices".

    >>> spell_document_nouns("Kestrel Q3 25 - anything at least 15,000?")
    'Kestrel Q3 25 - any invoices at least 15,000?'
    >>> spell_document_nouns("did we spend anything over 15k with Beta")
    'did we spend anything over 15k with Beta'
    """
    def sub(match: re.Match[str]) -> str:
        if _SPENT_BEFORE.search(match.string[:match.start()]):
            return match.group(0)
        return "any invoices "

    return _PRONOUN.sub(sub, text)


__all__ = ["spell_document_nouns"]
