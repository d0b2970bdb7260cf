"""Conversational preambles: the words before the question that say why or how it is asked, not what.

"Re the audit:", "Quick one:", "For the month-end pack,", "Sorry to bother -", "Need this for the CFO deck:",
"Hi," carry no constraint. Read as part of the question they do harm: "audit" is also a document fact (audit
rights) and "review" or "pack" are nouns a category-like phrase may be built from. So a leading clause made only of
courtesy words and the nouns of a report or a meeting is consumed before anything is read, and the rest of the
question is read as if typed alone; the answer stays the one the bare question gets.

Design note: the clause must end at a separator (":", a dash between spaces, ","), have at most eight words, and
every word must be a courtesy word or a meta noun, with at least one courtesy word. A clause with any other word (a
name, a period, a measure, "our") is never consumed, so a preamble can never hide a real constraint; and a meta noun
alone ("Audit: ...") is a topic, not a preamble. The first-person words are deliberately absent: "we"/"our" scope
a question to all of the tenant's companies.
"""

from __future__ import annotations

import re

from router.envelope import ADDRESSEES

#: Words of courtesy, address and request; none of them can name, date or measure anything.
COURTESY_WORDS = frozenset("""
hi hello hey dear morning afternoon all team folks guys quick one question q re regarding fyi pls plz please sorry to
bother need needed this that for the a an my me you can could would will check something asked asks asking wants
wanted ask before after from thanks thank tia just small urgent follow up follow-up btw also so ok okay kurze frage
hallo bitte
""".split())  # noqa: SIM905 - a word list reads better as text
#: Nouns of the occasion a question is asked for (a report, a meeting, a person asking); none is a constraint.
META_NOUNS = frozenset("""
audit auditor auditors review deck pack month-end quarter-end-pack cfo ceo cfo's ceo's controller controller's boss
board meeting committee slides slide memo email call friday's monday's tuesday's wednesday's thursday's
tomorrow's today's weekly monthly-close close-out manager manager's
""".split())  # noqa: SIM905 - a word list reads better as text
#: Nouns of the task a trailing clause says the answer is for ("needed for the accrual check"); none is a
#: constraint there, though "accrual" read as the measure asks for another basis of spend.
_PURPOSE_NOUNS = frozenset("""
accrual accruals check checks reconciliation recon reporting report forecast planning budget sign-off signoff
month-end year-end quarter-end close closing cutoff cut-off
""".split())  # noqa: SIM905 - a word list reads better as text
#: Who a greeting addresses ("Hi AP,", "Hello procurement team,", "Liebe Kollegen,"): a desk or a team, never a
#: constraint; consumed only in a clause with a courtesy word, like the meta nouns (one table: router/envelope.py).
_ADDRESSEES = ADDRESSEES
_WORDS_MAX = 8
#: "all" closes a question as a scope ("spend in Q1, for all"), never as a purpose.
_TRAILING_WORDS = (COURTESY_WORDS - {"all", "one", "before", "after", "from"}) | META_NOUNS | _PURPOSE_NOUNS
#: The separators before a trailing clause: a comma, a semicolon or a dash between spaces.
_TRAILING_SEPARATOR = re.compile(r"\s*(?:[,;]|\s[-–—]\s)\s*")
_END_MARK = re.compile(r"[\s?.!]*$")
#: A leading clause and its separator: a colon, a dash between spaces or a comma.
_CLAUSE = re.compile(r"^\s*(?P<clause>[^:,?–—]{1,80}?)\s*(?::|\s[-–—]\s|,)\s*")
_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+")
#: A hedge before the question proper ("approx. how much"): the figure asked for is the exact one all the same.
_HEDGE = re.compile(r"^(?:approx\.?|approximately|roughly|circa|ca\.)\s+(?=\S)", re.I)


def _preamble(clause: str) -> bool:
    words = [w.lower().replace("’", "'") for w in _WORD.findall(clause)]
    if not words or len(words) > _WORDS_MAX or len(words) != len(clause.split()):
        return False
    return all(w in COURTESY_WORDS or w in META_NOUNS or w in _ADDRESSEES for w in words) and any(
        w in COURTESY_WORDS for w in words)


def _purpose(clause: str) -> bool:
    words = [w.lower().replace("’", "'") for w in _WORD.findall(clause)]
    if not words or len(words) > _WORDS_MAX or len(words) != len(clause.split()):
        return False
    if clause.count(")") > clause.count("(") or "A" in _WORD.findall(clause):
        return False  # "(Company C, A)", "Company B, A": the last name of a list, never the article "a"
    return all(w in _TRAILING_WORDS for w in words) and any(w in COURTESY_WORDS for w in words)


def strip_purpose(question: str) -> str:
    """``question`` without its trailing clauses of courtesy and purpose ("please - needed for the accrual check").

    A trailing clause made only of courtesy words and nouns of the task the answer is for carries no constraint;
    read as part of the question, "accrual" asks for another basis of spend. The question mark stays.

    >>> strip_purpose("Spend with Beta at Company B, Q1 2026, please - needed for the accrual check")
    'Spend with Beta at Company B, Q1 2026'
    >>> strip_purpose("Company A spend in March 2026, thanks!")
    'Company A spend in March 2026!'
    >>> strip_purpose("Company A spend on an accrual basis, Q1 2026?")
    'Company A spend on an accrual basis, Q1 2026?'
    >>> strip_purpose("Company A spend in Q1 2026, accruals")
    'Company A spend in Q1 2026, accruals'
    >>> strip_purpose("Spend in Q1 2026, for all")
    'Spend in Q1 2026, for all'
    """
    text = question
    while True:
        mark = _END_MARK.search(text)
        end = mark.start() if mark else len(text)
        cuts = list(_TRAILING_SEPARATOR.finditer(text, 0, end))
        if not cuts:
            return text
        cut = cuts[-1]
        if not text[:cut.start()].strip() or not _purpose(text[cut.end():end]):
            return text
        text = text[:cut.start()] + text[end:].strip()


def strip_preamble(question: str) -> str:
    """``question`` without its leading conversational clauses (the question itself when it has none).

    >>> strip_preamble("Re the audit: spend with Gamma in Q1 2026?")
    'spend with Gamma in Q1 2026?'
    >>> strip_preamble("Hi, quick one: Company A spend in March 2026")
    'Company A spend in March 2026'
    >>> strip_preamble("Sorry to bother - Before Friday's review, top 3 suppliers of Company B?")
    'top 3 suppliers of Company B?'
    >>> strip_preamble("Hi, approx. how much did Company C spend in Q1 2026?")
    'how much did Company C spend in Q1 2026?'
    >>> strip_preamble("Audit: which rights does agreement-2025-09 give?")
    'Audit: which rights does agreement-2025-09 give?'
    >>> strip_preamble("For our board deck, spend in Q1 2026")
    'For our board deck, spend in Q1 2026'
    >>> strip_preamble("For the month-end pack, Company C's spend in Q1 2026?")
    "Company C's spend in Q1 2026?"
    >>> strip_preamble("Company A, Q1 2026: spend?")
    'Company A, Q1 2026: spend?'
    """
    text = strip_purpose(question)
    while True:
        match = _CLAUSE.match(text)
        if match is None or not _preamble(match.group("clause")) or not text[match.end():].strip():
            return _HEDGE.sub("", text)
        text = text[match.end():]
