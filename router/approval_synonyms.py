"""The words category managers use for an approved vendor, and the approved-vs-not contrast asked in one breath.

* Vocabulary: "preferred suppliers", "contracted vendors", "nominated / whitelisted suppliers", the AVL
  ("approved vendor list") and "on-contract spend" all name the company's approved vendors (the approval table of
  its agreements). Left as written, "preferred suppliers Co. B" reached a passage search and "on-contract spend"
  the company's whole spend (the approval silently dropped). Each is written as "approved" for the reader; the
  off-contract side ("off-contract", "maverick", "non-approved") is :mod:`router.off_contract`'s. ("panel
  suppliers" is left alone: "control panel suppliers" names goods.)
* Contrast: "approved vs non-approved spend", "on- and off-contract spend", "approved and unapproved spend" ask two
  figures, the spend with the approved vendors and the spend with every other supplier. Read as one, the second
  side alone was answered (a silent wrong); here the question is written as its two asks, each with the rest of
  the question (company, period, group) so the compound reader answers both.
"""

from __future__ import annotations

import re

_I = re.I

_VENDORS = r"(?:vendors?|suppliers?|partners?|sources?)"
#: (pattern, replacement): each an approval synonym, written as the word the reader knows.
_SYNONYMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, _I), r) for p, r in (
    (r"\b(?:preferred|contracted|nominated|whitelisted|white-listed|framework|on-contract|on\s+contract)\s+"
     r"(?:vendor|supplier)(?=s?\b)", "approved vendor"),
    # the approved vendor list by its acronym ("approved vendor list" itself is the reader's already)
    (r"\bAVL\b", "approved vendor list"),
    # "approved vendor(s)": the plural the reader knows (the bracket read as a document word's notation)
    (r"\b(vendor|supplier)\(s\)", r"\1s"),
    # "on-contract spend", "on contract suppliers": the spend with / the list of the approved vendors
    # (only as an adjective before a spend / supplier noun: "payment terms on contract with Beta" is no approval)
    (r"\bon[- ]contract\b(?:\s*\(approved\))?(?=\s+(?:spend|spending|spent|expenditure|purchases?|volume|"
     r"suppliers?|vendors?)\b)", "approved"),
    (r"\bapproved\s*\(approved\)", "approved"),
))

_APPROVED_SIDE = r"(?:approved|on[- ]contract|preferred|contracted)"
_OTHER_SIDE = r"(?:non[- ]?approved|un-?approved|not[- ]approved|off[- ]?contract|non[- ]?contract(?:ed)?|maverick)"
#: "approved vs non-approved", "on- and off-contract", "approved / unapproved": both sides of the approval.
_CONTRAST = re.compile(
    rf"\b(?P<first>{_APPROVED_SIDE}|{_OTHER_SIDE})(?:-)?\s*(?:vs\.?|versus|v\.|and|&|/|or|\+|compared\s+(?:to|with))\s*"
    rf"(?P<second>{_APPROVED_SIDE}|{_OTHER_SIDE})\b", _I)
#: "- both numbers", "(both)", "side by side": the contrast's own words, said once the asks are written apart.
_BOTH = re.compile(r"\s*(?:[-–—,:]\s*)?\(?\b(?:both|each)(?:\s+(?:numbers?|figures?|totals?|amounts?|sides?|"
                   r"values?))?\)?(?:\s+please|\s+pls)?(?=\s*[?.!]?\s*$)|\s*(?:[-–—,:]\s*)?side\s+by\s+side", _I)
_SPEND = re.compile(r"\b(?:spend|spent|spending|expenditure|purchases?|invoiced|volume)\b", _I)


def read_approval_synonyms(question: str) -> str | None:
    """``question`` with its approval synonyms written as "approved", or ``None`` when it has none.

    >>> read_approval_synonyms("preferred suppliers Co. B - full list pls")
    'approved vendors Co. B - full list pls'
    >>> read_approval_synonyms("Alpenland on-contract spend Q1 2026")
    'Alpenland approved spend Q1 2026'
    >>> read_approval_synonyms("off-contract spend Q1") is None
    True
    """
    text = question
    for pattern, replacement in _SYNONYMS:
        text = pattern.sub(replacement, text)
    return text if text != question else None


def _side(word: str) -> str:
    return "non-approved" if re.fullmatch(_OTHER_SIDE, word, _I) else "approved"


def read_approval_contrast(question: str) -> str | None:
    """``question`` written as its two asks when it contrasts the approved and the other vendors' spend, else
    ``None``.

    >>> read_approval_contrast("Co B: approved vs non-approved spend for Jan+Feb 2026 - both numbers")
    'Co B: approved spend for Jan+Feb 2026, and Co B: non-approved spend for Jan+Feb 2026'
    >>> read_approval_contrast("Company B approved vendors Q1") is None
    True
    """
    found = _CONTRAST.search(question)
    if found is None or not _SPEND.search(question):
        return None
    first, second = _side(found.group("first")), _side(found.group("second"))
    if first == second:
        return None  # "approved and preferred": one side said twice, no contrast
    rest = _BOTH.sub("", question).strip()
    found = _CONTRAST.search(rest)
    if found is None:
        return None
    before, after = rest[: found.start()], rest[found.end():]
    return f"{before}{first}{after}".rstrip(" ?.!") + f", and {before}{second}{after}".rstrip()


#: A BI analyst's approval column ("vendor_approved = true", "is_approved = 0", "approval_status = 'approved'",
#: "approved IS NOT TRUE"): the approval as a field of the invoice rows, which the data holds as the approval table.
_FIELD = r"(?:(?:vendor|supplier)_?)?(?:is_)?(?:approved|approval(?:_status|_flag)?)(?:_(?:flag|status))?"
_TRUE = r"(?:true|1|'?\s*y(?:es)?\s*'?|'true'|'approved'|\"approved\"|approved)"
_FALSE = r"(?:false|0|'?\s*no?\s*'?|'false'|'not[ _]approved'|'unapproved'|'rejected')"
_APPROVAL_FIELD = re.compile(
    rf"\b(?P<field>{_FIELD})\s*(?:(?P<eq>==?|\bis\b)\s*(?P<neg>not\s+)?|(?P<ne>!=|<>|\bis\s+not\b)\s*)"
    rf"(?:(?P<true>{_TRUE})|(?P<false>{_FALSE}))(?![\w'])", _I)


def read_approval_fields(question: str) -> str | None:
    """``question`` with its approval column conditions written as the approved / non-approved vendors the data
    holds, or ``None`` when it has none.

    >>> read_approval_fields("SELECT SUM(amount) FROM invoices WHERE company='X' AND vendor_approved = true")
    "SELECT SUM(amount) FROM invoices WHERE company='X' AND with approved vendors"
    >>> read_approval_fields("... WHERE is_approved = 0 AND quarter = '2026-Q1'")
    "... WHERE with non-approved vendors AND quarter = '2026-Q1'"
    """
    def side(found: re.Match[str]) -> str:
        negated = bool(found.group("neg") or found.group("ne"))
        approved = bool(found.group("true")) != negated
        return "with approved vendors" if approved else "with non-approved vendors"

    text = _APPROVAL_FIELD.sub(side, question)
    return text if text != question else None


__all__ = ["read_approval_contrast", "read_approval_fields", "read_approval_synonyms"]
