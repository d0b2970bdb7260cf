"""Names a reading placed too generously, asked about instead of answered for another entity.

- A legal-form company name ("Alpenland Transport AG", "Kestrel Foods GmbH") whose distinctive words are not a known
  company's: its first word matched a known company's short name, but the name as written is another company. Never
  that company's figure (a silent wrong); the name is asked about.
- The category of an approved-vendor question ("approved vendors of Company A for hydraulics"): the approved list
  has no category filter but the product group's, so a category the reading did not place as a known product group
  is named back, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ingest.normalize import LEGAL_FORMS
from router.edits import ONE_EDIT_FROM_FIVE, budget, is_slip
from router.entities import Gazetteer, fold
from router.name_match import KIND_MARKERS, abbreviates
from router.reader import Reading

_LEGAL = frozenset(LEGAL_FORMS)
#: Legal forms that end a name. "Company" and "Co" start names as often ("Company A", "Co. B"): not read here.
_ENDING_FORMS = sorted((f for f in LEGAL_FORMS if f not in ("company", "co")), key=len, reverse=True)
#: Capitalized words ending in a legal form: "Alpenland Transport AG", "Kestrel Foods GmbH", "Acme Ltd."
_LEGAL_NAME = re.compile(
    r"\b(?P<name>(?:[A-Z][\w&'-]*\.?\s+){1,4})(?P<form>(?i:" + "|".join(map(re.escape, _ENDING_FORMS))
    + r"))\b\.?(?!\s*[A-Z0-9])")
_WORD = re.compile(r"[^\W_]+")


def _words(name: str) -> list[str]:
    # a kind marker before the name ("Gesellschaft Alpenland Logistik AG") is no word of the name
    return [w for w in (fold(x) for x in _WORD.findall(name.lower())) if w not in _LEGAL and w not in KIND_MARKERS]


def _close(word: str, known: str) -> bool:
    """The same word, a typo of it (one edit in a word of five letters or more), or its abbreviation after the
    name's first word ("Kestrel LM GmbH", "Alpenland Log. AG": router/name_match.py)."""
    return word == known or is_slip(word, known, budget(min(len(word), len(known)), ONE_EDIT_FROM_FIVE)) or (
        abbreviates(word, known))


#: Words that open a sentence or clause and are capitalized there ("Rank Xenon Pharma AG's suppliers", "Which
#: Xenon Pharma AG invoices", "List Kestrel Lebensmittel GmbH's invoices", "Welche Alpenland Logistik AG ..."):
#: question words, imperatives, auxiliaries, articles and prepositions, never a word of a company's name. A
#: closed list, so an unknown qualifier ("Acme Xenon Pharma AG") still makes the name another company's.
_OPENING_WORDS = frozenset({
    "which", "what", "who", "whose", "whom", "how", "when", "where", "why", "did", "does", "do", "is", "are", "was",
    "were", "has", "have", "had", "can", "could", "would", "should", "will", "may", "might", "list", "rank", "show",
    "give", "tell", "find", "get", "compare", "break", "sum", "total", "calculate", "compute", "report", "return",
    "provide", "name", "identify", "please", "and", "or", "but", "also", "then", "for", "of", "at", "by", "from",
    "with", "to", "in", "on", "the", "a", "an", "all", "our", "my", "per", "vs", "versus", "between", "since", "top",
    "sort", "order", "summarize", "summarise", "display", "count", "welche", "welcher", "welches", "welchen", "wie",
    "wer", "wann", "wo", "zeige", "zeig", "liste", "nenne", "gib", "summiere", "bitte", "und", "oder", "auch", "für",
    "fuer", "von", "bei", "mit", "der", "die", "das", "den", "dem", "des", "im", "am", "ab", "seit", "vergleiche",
    "sortiere", "ranke", "unsere", "unser"
})


def _opening_words_dropped(words: list[str]) -> list[str]:
    """The words of a legal-form name without the sentence-opening words glued before it ("rank xenon pharma"
    -> "xenon pharma"); a name made only of such words is kept as written."""
    i = 0
    while i < len(words) - 1 and words[i] in _OPENING_WORDS:
        i += 1
    return words[i:]


def unknown_companies(reading: Reading, gazetteer: Gazetteer) -> tuple[str, ...]:
    """Legal-form names read as a known company whose words are not all that company's (or another known
    company's): "Alpenland Transport AG" when only "Alpenland Logistik AG" is known."""
    known = [_words(c.company_name) for c in gazetteer.companies]
    suppliers = [(m.start, m.end) for m in reading.mentions.suppliers]
    out: list[str] = []
    for found in _LEGAL_NAME.finditer(reading.text):
        if found.group("form").islower():
            continue  # a legal form is written as one ("AG", "GmbH", "Ltd"), not as a word ("co", "se")
        start, end = found.span()
        if any(s < end and start < e for s, e in suppliers):
            continue  # a supplier's legal name is the supplier reading's
        if not any(m.start < end and start < m.end for m in reading.mentions.companies):
            continue  # no company read from it: nothing answered for another company
        words = _opening_words_dropped(_words(found.group("name")))
        if words and not any(all(any(_close(w, k) for k in name) for w in words) for name in known):
            out.append(found.group(0).strip())
    for mention in reading.mentions.companies:
        # "alpenland transport gmbh": a name typed in lowercase, read from its first word, that ends in a legal
        # form; the words from the company read to the form are the name as written (never the words before it)
        tail = _LOWER_LEGAL_TAIL.match(reading.text, mention.end)
        if tail is None or any(s < tail.end() and mention.start < e for s, e in suppliers):
            continue
        words = _words(reading.text[mention.start:tail.start("form")])
        if words and not any(all(any(_close(w, k) for k in name) for w in words) for name in known):
            out.append(reading.text[mention.start:tail.end()].strip())
    return tuple(dict.fromkeys(out))


#: Up to three lowercase words after a read company and a legal form in lowercase ("alpenland transport gmbh"); only
#: forms that are no English word ("co", "se", "sa" are read as words).
_LOWER_LEGAL_TAIL = re.compile(r"(?:\s+(?!(?:gmbh|ag|ltd|llc|inc|plc|kg|kgaa|sarl|bv|nv|oy|srl|spa)\b)[a-z][\w&'-]*)"
                               r"{0,3}?\s+(?P<form>gmbh|ag|ltd|llc|inc|plc|kg|kgaa|sarl|bv|nv|oy|srl|spa)\b\.?")


#: "approved vendors ... for hydraulics", "approved for valves": the category an approval is asked for.
_APPROVED_FOR = re.compile(r"\b(?:approved|qualified|authori[sz]ed|preferred|vendors?|suppliers?)\b[^?.;]{0,60}?"
                           r"\bfor\s+(?:the\s+|our\s+)?(?P<what>[a-z][a-z&/ -]{1,40}?)"
                           r"(?=\s*(?:$|[?.,;:!()]|\b(?:in|during|as\s+of|since|from|until|at|of|by|with|"
                           r"and|or|this|last|next|today|now|right\s+now|currently|q[1-4]|h[12]|fy\d*|\d{4})\b))", re.I)


def unread_category(reading: Reading, consumed: Sequence[tuple[int, int]] = ()) -> str | None:
    """The category words of an approved-vendor question that the reading placed nowhere ("hydraulics"), or None.

    A word inside a read span (a company, supplier, product group, product, period) is read; one of the
    reader's ordinary words (statuses, "today") is no category."""
    spans = [*reading.mentions.spans, *reading.period.spans, *reading.consumed, *consumed]
    for found in _APPROVED_FOR.finditer(reading.text):
        a, b = found.span("what")
        what = reading.text[a:b].strip()
        if not what or what.lower() in _NOT_A_CATEGORY or any(len(w) < 3 for w in what.split()) \
                or _time_scope(what):
            continue  # (a letter is a company's short name, "approved for C right now")
        if any(s < b and a < e for s, e in spans):
            continue
        return what
    return None


#: Words after "for" that are no category: the company ("for us"), the period or the purpose of the list.
_NOT_A_CATEGORY = frozenset({"us", "me", "them", "it", "this", "that", "which", "what", "whom", "all", "each",
                             "every", "any", "both", "now", "today", "the year", "the period", "the quarter",
                             "the month", "review", "approval", "reference", "sourcing", "purchasing",
                             "procurement", "company", "companies", "group", "now on", "the time being"})


#: Quantifiers and time nouns: "approved for every period", "for the whole year", "for all quarters" say how long
#: the approval runs, never what it is for.
_QUANTIFIERS = frozenset({"every", "each", "all", "any", "whole", "entire", "full", "the", "this", "that"})
_TIME_NOUNS = frozenset({"period", "periods", "time", "times", "year", "years", "quarter", "quarters", "month",
                         "months", "week", "weeks", "day", "days", "date", "dates", "term"})


def _time_scope(what: str) -> bool:
    words = what.lower().split()
    return bool(words) and words[-1] in _TIME_NOUNS and all(w in _QUANTIFIERS for w in words[:-1])


#: "our Swiss supplier", "the local vendor", "our Italian vendors": a supplier described by an attribute (a
#: country, a place) instead of its name. The data holds no such attribute of suppliers, so it is asked about
#: (never read as every supplier, nor dropped for the figure of all of them).
_DESCRIBED_SUPPLIER = re.compile(
    r"\b(?:our|the|my|a|an|that|this|unsere[mnrs]?|der|den|dem|die)\s+"
    r"(?P<what>(?-i:[A-Z][a-zäöü]+(?:-[A-Z][a-zäöü]+)?)|local|domestic|foreign|overseas|offshore|regional|"
    r"international|nearby|lokale[nmr]?|ausländische[nmr]?)\s+(?:suppliers?|vendors?|lieferanten?)\b", re.I)


#: Capitalised words before "supplier" that rank or qualify it ("Top", "Main", "Approved"): no attribute of place.
_NO_ATTRIBUTE = frozenset({
    "main", "top", "largest", "biggest", "smallest", "cheapest", "preferred", "approved", "new", "current", "other",
    "same", "single", "primary", "secondary", "key", "strategic", "sole", "only", "first", "last", "previous",
    "former", "old", "unapproved", "non-approved", "certified", "qualified", "framework", "contracted", "listed",
    "alternative", "backup", "usual", "regular", "default", "external", "internal", "given", "named", "said",
    "größte", "neue", "freigegebene",
})


def described_suppliers(reading: Reading, gazetteer: Gazetteer) -> tuple[str, ...]:
    """The supplier descriptions of :data:`_DESCRIBED_SUPPLIER` whose describing word the reading placed nowhere
    (no supplier, company, product group or product of that name): "Swiss supplier"."""
    spans = [*reading.mentions.spans]
    known = {w.lower() for name in (*gazetteer.supplier_names.values(), *(c.company_name for c in gazetteer.companies))
             for w in _WORD.findall(name)}
    known |= {a.lower() for aliases in gazetteer.supplier_aliases.values() for a in aliases}
    out: list[str] = []
    for found in _DESCRIBED_SUPPLIER.finditer(reading.text):
        a, b = found.span("what")
        if found.group("what").lower() in _NO_ATTRIBUTE:
            continue  # "our Main supplier", "the Approved vendors": a rank or a state, read elsewhere
        if any(s < b and a < e for s, e in spans) or found.group("what").lower() in known:
            continue  # "our Beta supplier", "the Sensors supplier": a name the reading placed
        out.append(reading.text[a:found.end()])
    return tuple(dict.fromkeys(out))


def unknown_name_problems(reading: Reading, gazetteer: Gazetteer) -> list[str]:
    """Clarification questions for the names above (none when every name was read as written)."""
    problems: list[str] = []
    names = ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies) or "none"
    problems.extend(f"I do not know a company {name!r} in your data (known companies: {names}). Which company do "
                    "you mean?" for name in unknown_companies(reading, gazetteer))
    problems.extend(f"I cannot tell which supplier {what!r} is: the data records no such attribute of suppliers "
                    "(no country or place of a supplier), only their names. Which supplier do you mean?"
                    for what in described_suppliers(reading, gazetteer))
    # (a named document's approval, "per agreement-2025-09, from when is Iota approved for cabling", is the
    # document's wording, read in the document: no category filter of the approved list)
    document = reading.identifiers.contract_ids or reading.identifiers.document_ids or reading.quoted
    if reading.cues.approved and not document and (what := unread_category(reading)) is not None:
        groups = ", ".join(g.group_name for g in gazetteer.product_groups if g.parent_group_id is None)
        problems.append(f"I do not know the category {what!r} in your data (no product group, product or supplier of "
                        f"that name; top-level product groups: {groups}). Which product group do you mean?")
    return problems


__all__ = ["described_suppliers", "unknown_companies", "unknown_name_problems", "unread_category"]
