"""Invariants checked on a planned figure before it is answered: each one a way a confident figure could answer
another question than the one asked (a silent wrong), caught on the question as read and the plan as built.

Every reader along the way may lose a constraint; these checks do not re-read the question, they compare what the
question names with what the plan computes, and when the two disagree the figure is not presented as complete:

* the document type: a question that names credit notes (and no invoices) answered over invoices only ("count(CNs)"
  counted as invoices) is asked about, never counted over the other document type.

* the scope: "for my team", "for our department", "for the logistics team" limit the figure to an organisational
  unit the invoices do not record; the figure of the whole company is answered with that limit named as not
  applied (partial), never as the team's figure.

(The exclusion invariant, a name right behind an exclusion cue never kept as a filter, is applied where the names
are read: router/reader.py ``_exclusions``; the breakdown invariant lives in router/breakdown_check.py.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from router.analysis import EXCLUSION_CUE
from router.contract import RoutingResult
from router.document_words import CREDIT_NOTES, INVOICES, alternation, document_words
from router.negation_scope import negated, netted_before
from router.netted_documents import NETTED_STEP

#: Credit notes by their name in English and the writers' languages (the shorthand "CN" is written out first).
_CREDIT_NOTE = re.compile(rf"\bcredit[- ]?notes?\b|(?<![\w-])(?:{alternation(CREDIT_NOTES)})(?![\w-])", re.I)
#: The same with the German noun (a credit note left out is checked in every language the negation reader knows).
_ANY_CREDIT_NOTE = re.compile(rf"{_CREDIT_NOTE.pattern}|\bgutschrift(?:en)?\b", re.I)
#: Invoices by their name (a credit-note word is no invoice word: "credit invoice" is not read here).
_INVOICE = re.compile(rf"\b(?:invoices?|invs?|bills?)\b|(?<![\w-])(?:{alternation(INVOICES)})(?![\w-])", re.I)
#: A document number ("INV-2025-0042", "CN-2026-0007"): an identifier, not a document type asked for.
_DOCUMENT_NUMBER = re.compile(r"\b(?:INV|CN|CRN)[-_ ]?\d{4}[-_]\d+\b", re.I)
#: A document named by its number, with its type word before it ("credit note CN-2026-0011", "Gutschrift CN 2026-7").
_NAMED_DOCUMENT = re.compile(rf"(?:(?:credit[- ]?notes?|gutschrift(?:en)?)\s*(?:no\.?|nr\.?|#)?\s*)?"
                             rf"{_DOCUMENT_NUMBER.pattern}", re.I)
#: At most this many characters between an exclusion cue and the credit notes it leaves out ("ignore the CNs").
_CUE_REACH = 24
#: Words that leave documents out without being a cue of the names' grammar ("invoices only, ignore CNs").
_LEFT_OUT = re.compile(r"\b(?:ignore|ignoring|no|not)\b", re.I)


#: An exclusion said after the documents it leaves out ("(credit notes excluded)", "CNs not included").
_LEFT_OUT_AFTER = re.compile(r"\s*(?:are\s+|were\s+|to\s+be\s+|being\s+)?(?:excluded|not\s+(?:included|counted)|"
                             r"left\s+out|omitted|ignored|removed|out)\b", re.I)


def _excluded(text: str, start: int, end: int | None = None) -> bool:
    """Whether the document word at ``start`` (to ``end``) stands behind an exclusion cue ("excluding credit notes",
    "w/o CNs", "sem notas de crédito") or before one ("credit notes excluded", "(credit note exclude)")."""
    before = text[max(0, start - _CUE_REACH):start]
    return bool(EXCLUSION_CUE.search(before) or _LEFT_OUT.search(before)
                or (end is not None and _LEFT_OUT_AFTER.match(text, end))
                or negated(text, start, end if end is not None else start) is not None)


def _document_types(value: Any) -> Iterable[tuple[str, ...]]:
    """Every ``document_types`` argument in an argument tree."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == "document_types" and isinstance(item, (list, tuple)):
                yield tuple(str(i) for i in item)
            else:
                yield from _document_types(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _document_types(item)


def mismatched_document_type(text: str, result: RoutingResult) -> str | None:
    """The clarification for a plan that counts or sums invoices only where ``text`` asks about credit notes (and
    names no invoices), or ``None``."""
    if result.requires_clarification or not result.execution_plan or result.workflow == "identifier_lookup":
        return None  # (a document looked up by its number is that document, whatever its type: no figure)
    plain = _DOCUMENT_NUMBER.sub(" ", document_words(text))
    asked = [m for m in _CREDIT_NOTE.finditer(plain) if not _excluded(plain, m.start(), m.end())]
    if not asked or _INVOICE.search(_CREDIT_NOTE.sub(" ", plain)):
        return None
    planned = {types for step in result.execution_plan for types in _document_types(dict(step.arguments))}
    if not planned or any("credit_note" in types for types in planned):
        return None
    said = asked[0].group(0)
    return (f"I read {said!r} in your question, but this figure was planned over invoices only (credit notes not "
            "included), so it is not answered as if it were the credit notes' figure. Do you want the credit notes "
            "(their count or their amount), or the invoices?")


def inverted_document_type(text: str, result: RoutingResult) -> str | None:
    """The clarification for a plan over credit notes only where ``text`` names credit notes only to leave them out
    ("só faturas (sem notas de crédito)", "(credit note exclude)") or to net them in ("neto de notas de crédito",
    "after credit notes"), or ``None``.

    The mirror of :func:`mismatched_document_type`: the negation (or the netting) read by router/negation_scope.py
    is checked against the plan whichever reader built it, so a negation lost on the way is never answered with the
    credit notes' own figure, the opposite question."""
    if result.requires_clarification or not result.execution_plan or result.workflow == "identifier_lookup":
        return None
    # (a credit note named by its number is one document, "after credit note CN-2026-0009": no type asked)
    plain = _NAMED_DOCUMENT.sub(" ", document_words(text))
    mentions = list(_ANY_CREDIT_NOTE.finditer(plain))
    if not mentions:
        return None
    cues = []
    for m in mentions:
        cue = negated(plain, m.start(), m.end()) or netted_before(plain, m.start())
        if cue is None:
            return None  # credit notes asked for somewhere: a plan over them may be right
        cues.append(plain[min(cue[0], m.start()):max(cue[1], m.end())].strip(" ()[]:"))
    # (the scope check of a named credit note reads that note's own row: not the figure, router/netted_documents.py)
    planned = {types for step in result.execution_plan if step.step_id != NETTED_STEP
               for types in _document_types(dict(step.arguments))}
    if not planned or not all(types == ("credit_note",) for types in planned):
        return None
    return (f"I read {cues[0]!r} as leaving the credit notes out (or netting them in), but this figure was planned "
            "over credit notes only, so it is not answered as if it were the figure asked. Do you want the invoices "
            "only (credit notes left out), or the invoices with the credit notes netted in?")


#: Organisational units below a company that no invoice line records (a company's own words for itself, "our
#: site", "my plant", "the shop", are read as the company by the company readers and are not listed here).
_UNITS = r"(?:team|teams|department|departments|dept|depts|division|divisions|section|crew|squad|desk|cost\s+unit)"
#: "for my team", "for our department", "for the logistics team": the figure limited to a unit. Not when the unit
#: noun only qualifies what follows ("for the team meeting", "for my team's deck", "for my team lead"), nor after
#: "in" (where the writer works: "I started in the AP team").
_UNIT_SCOPE = re.compile(
    r"\b(?:for|of|by|within)\s+(?P<scope>(?:my|our|the|this|that)\s+(?:[^\W\d_]+\s+)?" + _UNITS + r")\b"
    r"(?!['’]s|\s*[-–]?\s*(?:meetings?|leads?|leaders?|managers?|heads?|calls?|reviews?|decks?|updates?|reports?|"
    r"presentations?|syncs?|stand-?ups?|huddles?|members?|discussions?|chats?|channels?|workshops?|off-?sites?)\b)",
    re.I)


def unrecorded_scopes(text: str) -> tuple[str, ...]:
    """The organisational units ``text`` limits its figure to ("my team"): named as not applied.

    >>> unrecorded_scopes("how much did Company A spend in Q1 for my team cheers")
    ('my team',)
    >>> unrecorded_scopes("for the team meeting: Company A spend in Q1")
    ()
    """
    return tuple(dict.fromkeys(" ".join(m.group("scope").split()) for m in _UNIT_SCOPE.finditer(text)))


#: A reference code: letters, then a dash or slash and a digit ("LIT-2026-014", "WBS/4471", "PRJ-88"): a matter,
#: project or order of another system. Two letters at least, so a period ("Q1-2026", "H2-25") is none.
_CODE = re.compile(r"(?<![\w/-])(?P<code>[A-Za-z]{2,8}(?:[-/][A-Za-z]+)*[-/]\d[\w]*(?:[-/.][\w]+)*)(?![\w/-])")
#: Code prefixes of the product's own records and of periods: read by their readers, never a foreign reference
#: (an own id no reader took is asked about there: a document, product or supplier not found).
_OWN_CODES = frozenset(("inv", "cn", "crn", "po", "prd", "sup", "comp", "pg", "agr", "fy", "cy", "kw", "cw", "wk",
                        "qtr", "ytd", "mtd", "qtd", "iso", "din", "en", "eur", "usd", "gbp", "chf"))
#: The words a code's noun phrase is headed by, walking back from the code: nouns and abbreviations of reference,
#: stopping at a function word or punctuation ("for matter no. LIT-2026-014" names "matter no. LIT-2026-014").
_CODE_HEAD = re.compile(r"(?:(?<=\s)|^)((?:[^\W\d_][\w'’]*\.?\s+){1,3})$")
#: Where a place is given for the goods: a verb of delivery or placement and its preposition ("delivered to
#: building B", "shipped to the Brno warehouse", "installed at site 4").
_PLACED = re.compile(r"\b(?:delivered|shipped|dispatched|installed|located|stored|deployed|sent|routed|"
                     r"geliefert|livr[ée]e?s?|entregad[oa]s?|consegnat[oi])\s+(?:to|at|into|in|nach|an|à|a)\s+"
                     r"(?P<place>(?:the\s+|our\s+)?[^\W\d_][\w'’-]*(?:\s+(?:[A-Z0-9][\w-]*))?)", re.I)
#: A place noun with its designator ("building B", "warehouse 3", "hall 7", "dock 2", "Gebäude C"): a delivery
#: point the invoice lines do not record.
_PLACE = re.compile(r"\b(?P<place>(?:building|bldg|warehouse|hall|floor|room|dock|gate|wing|block|depot|yard|"
                    r"campus|lab|laboratory|gebäude|gebaude|halle|lager|b[âa]timent|entrep[ôo]t|edificio|almac[ée]n|"
                    r"magazzino|capannone)\.?\s+(?-i:[A-Z]{1,2}|\d{1,3}[A-Za-z]?))(?![\w-])", re.I)


def _function(word: str) -> bool:
    from router.unread_words import FUNCTION_WORDS

    return word.lower().strip(".") in FUNCTION_WORDS or word.lower().strip(".") in {
        "in", "on", "at", "to", "of", "by", "as", "or", "and", "is", "it", "re"}


def unrecorded_qualifiers(text: str, consumed: Iterable[tuple[int, int]]) -> tuple[str, ...]:
    """The qualifiers of ``text`` no reader consumed that the invoice lines cannot apply: a reference code of
    another system with its noun phrase ("matter no. LIT-2026-014") and a delivery place ("delivered to building
    B", "warehouse 3"). Named as not applied on a PARTIAL answer, never dropped.

    >>> unrecorded_qualifiers("Company A spend in Q1 2026 for matter no. LIT-2026-014?", [(0, 9), (19, 26)])
    ('matter no. LIT-2026-014',)
    >>> unrecorded_qualifiers("avg unit price of VG-1 gauges delivered to building B", [(18, 22)])
    ('delivered to building B',)
    >>> unrecorded_qualifiers("Company A spend Q1-2026", [(0, 9), (16, 23)])
    ()
    """
    spans = list(consumed)

    def read(start: int, end: int) -> bool:
        return any(s < end and start < e for s, e in spans)

    found: list[str] = []
    for m in _CODE.finditer(text):
        code = m.group("code")
        prefix = re.split(r"[-/]", code)[0].lower()
        # (a code is written in capitals: "total/3", "per-2" in lower case are prose or a formula)
        if read(m.start(), m.end()) or prefix in _OWN_CODES or re.split(r"[-/]", code)[0].islower():
            continue
        head = _CODE_HEAD.search(text[:m.start()])
        words: list[str] = []
        for word in reversed(head.group(1).split() if head else []):
            if _function(word):
                break
            words.insert(0, word)
        # (only the reference nouns right before the code: never a word a reader took)
        start = m.start() - len(" ".join(words)) - 1 if words else m.start()
        if words and read(start, m.start()):
            words = []
        found.append(" ".join([*words, code]))
    for m in (*_PLACED.finditer(text), *_PLACE.finditer(text)):
        if read(m.start("place"), m.end("place")):
            continue
        said = " ".join(m.group(0).split())
        if not any(said in f or f in said for f in found):
            found = [f for f in found if f not in said]
            found.append(said)
    return tuple(dict.fromkeys(found))


__all__ = ["inverted_document_type", "mismatched_document_type", "unrecorded_qualifiers", "unrecorded_scopes"]
