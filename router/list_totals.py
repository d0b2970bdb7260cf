"""Invoice lists with their total and count: the AP clerk's "X invoices - list & total" as one scope, several asks.

An accounts-payable question names one set of documents (a company, a supplier, a period, statuses, an invoice
currency: "open Beta invoices Company A Q1, posted not paid") and asks several things *of that same set*: the
documents themselves ("list", "nos.", "which", or the noun phrase standing as an item of its own, "X invoices +
total"), their total ("sum", "total gross", "EUR total"), their number ("#", "no. of", "how many") or the spend.
The generic splitter (router/compound.py) carries only the company and period to a bare "total", so a status, a
currency, a supplier or "all companies" of the listing was silently dropped from the figure beside it, and a
"list, sum" tail was read as the spend alone (no list). This module reads the whole question as

    scope (every filter word, said once) x asks (list / total / count / spend, in the order asked)

and asks every part over the *same* scope text, so each filter applies to every part or, when a word of the scope
is not understood, every part names it (never a figure for a wider set presented as the listed one's).

The total of a listing is the total of the documents listed: invoices only, credit notes left out (a listing of
invoices never lists credit notes, so its total must not net them in); "spend" keeps the governed spend (credit
notes netted), as asked. "How many drafts, posted, paid?" asks the count per status of one scope: the per-status
count (one question), never the count of the first status named.

Vocabulary is a table (English first, then German, French, Spanish, Italian, Portuguese), not phrasings: any
order of scope words and ask words reads the same.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from router.answer import Answer
from router.compound import AskPart
from router.document_scopes import NETTED_CREDIT_NOTES
from router.periods import resolve_period

Ask = Literal["list", "total", "count", "spend"]

#: The documents an AP list is of (English and the foreign nouns an AP clerk writes), and how the parts name them.
_DOCUMENT_NOUNS: tuple[tuple[str, str], ...] = (
    (r"credit[- ]?notes?|credit\s+memos?|gutschriften|avoirs?|notas?\s+de\s+cr[eé]dito|note\s+di\s+credito",
     "credit notes"),
    (r"invoices?|bills|rechnungen|rechnung|factures?|facturas?|fatture|fattura|faturas?", "invoices"),
)
_NOUN = re.compile(r"\b(?:" + "|".join(p for p, _ in _DOCUMENT_NOUNS) + r")\b", re.I)

#: The ask words, per ask. ``nos.`` / "numbers" are the invoice numbers (the list); "no. of" / "#" the count.
_ASK_WORDS: dict[Ask, str] = {
    "list": (r"list(?:ed|ing)?|show(?:\s+me)?|itemi[sz]ed?|line\s+by\s+line|one\s+by\s+one|nos\b\.?|numbers|"
             r"(?:invoice\s+)?(?:ids|numbers)|which\s+(?:ones|invoices|bills)|details?|"
             r"liste|auflisten|aufstellung|welche|lister|lista[rs]?|elenc[oa]|elencare|quais|quali|cu[aá]les"),
    "total": (r"(?:grand\s+|sum\s+)?totals?|sum(?:med)?|add(?:ed)?\s+up|how\s+much|summe|gesamt(?:betrag|summe)?|"
              r"insgesamt|somme|montant\s+total|suma|importe\s+total|totale|somma|soma|valor\s+total"),
    # ("counted" alone qualifies the documents, "(counted)": the counted statuses, no count asked)
    "count": (r"#|counts?|how\s+many|number\s+of|no\.\s*of|nr\.?\s+of|qty\s+of|anzahl|wie\s+viele|combien|"
              r"nombre\s+de|cu[aá]nt[ao]s|quant[ei]|quant[ao]s|numero\s+di|n[uú]mero\s+de"),
    "spend": r"spen[dt]|spending|ausgaben|d[eé]penses|gasto|spesa",
}
_ASK = re.compile("|".join(rf"(?P<{k}>(?<![\w#])(?:{v})(?!\w))" for k, v in _ASK_WORDS.items()), re.I)

#: Words that only join the asks or qualify the total ("+ total gross", "with EUR total", "-> list and sum").
_JOINERS = re.compile(
    r"(?<!\w)(?:and|&|\+|plus|with|w/|incl\.?|including|also|then|pls|please|->|=>|>|:|;|-|und|mit|et|avec|y|con|"
    # the verbs that hand over an ask ("and give the total", "provide the sum", "gib die Summe", "donne le total")
    r"give|provide|tell\s+me|state|report|gib|nenne|donne[rz]?|indique[rz]?|dame|indica(?:r|me)?|"
    r"e|com|the|their|its|them|of|in|eur|euros?|€|gross|brutto|brut|bruto|lordo|inkl\.?\s+mwst|all\s+(?=(?:of\s+)?"
    r"(?:them|it)\b))(?!\w)", re.I)
#: A bare count word closing the question after the documents named ("...? count", "... - #", ", number pls").
_COUNT_TAIL = re.compile(r"[?:,;\-]\s*(?:the\s+)?(?:#|count|number|no\.|anzahl|nombre|numero|n[uú]mero)"
                         r"(?:\s+(?:pls|please|only))?\s*[?.!]*\s*$", re.I)
_JOIN = _JOINERS.pattern
_NOUN_BEFORE = re.compile(rf"(?:\s*(?:{_JOIN}|[,;:+&/>-]))*\s*\b(?:invoice|rechnungs?|credit[- ]note)\s*$", re.I)
_LEADING = re.compile(rf"(?:\s*(?:{_JOIN}|[,;:+&/>-]))*\s*$", re.I)
#: (after an ask, "with", "in", "for" open the scope again: "spend with Gamma", "total in Q1"; "in EUR" does not)
_TRAILING = re.compile(rf"(?:\s*(?:in\s+(?:eur|euros?|€)(?!\w)|(?!(?:with|w/|in|mit|con|avec|com)(?!\w)){_JOIN}|"
                       rf"[,;:+&/>?!.-]))*", re.I)
#: Asks already written out one sentence each ("<scope>: how many? And <scope>: total in EUR?",
#: router/document_asks.py): each is a question of its own (a short closing tail, "...? count", is not).
_SEVERAL_ASKED = re.compile(r"\?\s*\S[^?]{12,}")
#: A sentence with a verb ("which invoices did we get ... and what did they add up to"): the sentence readers'.
_SENTENCE = re.compile(r"\b(?:what|did|does|do|have|has|had|is|are|was|were|get|got|receive[ds]?|book(?:ed)?)\b|"
                       r"['’]s\b", re.I)
_NET = re.compile(r"\b(?:net|netto|hors\s+taxes?|neto)\b", re.I)

#: The documents' numbers asked as a noun ("invoice numbers", "credit note nos.", "Rechnungsnummern"): the listing.
_NUMBERS_ASKED = re.compile(r"\b(?:invoice|credit[- ]?note|document|bill)\s+(?:numbers|nos\b\.?|ids)\b|"
                            r"\brechnungsnummern\b|\bnum[ée]ros\s+de\s+factures?\b", re.I)
#: An amount, a ranking, a comparison or a share: another question (thresholds, rankings...) with its own reader.
_AMOUNT = (r"(?<![\w./-])(?!(?:19|20)\d\d\b)(?:\d{1,3}(?:[.,' ]\d{3})+|\d{3,}|\d+(?:[.,]\d+)?\s*k\b)(?:[.,]\d+)?"
           r"(?:,-)?\s*(?:€|eur\b|euros?\b|usd\b|\$|gbp\b|£|chf\b)?|(?:€|\$|£)\s*\d")
_OTHER_QUESTION = re.compile(
    _AMOUNT + r"|\b(?:above|over|below|under|"
    r"more\s+than|less\s+than|greater|larger|smaller|exceed\w*|at\s+least|at\s+most|top|bottom|largest|biggest|"
    r"smallest|highest|lowest|rank\w*|vs\.?|versus|compared?|share|percent\w*|%|average|avg|mean|per\s+supplier|"
    r"by\s+supplier|per\s+month|by\s+month|per\s+company|by\s+company|overdue|due|late|duplicat\w*|approved|"
    r"payment\s+terms?|vat|tax(?:es)?|unit\s+price|price)\b"
    # a named document ("INV-2026-0148 lines and total") or a listing of something else than the documents
    r"|\b(?:INV|CN|CRN|PO|DOC)-?\d|\b(?:suppliers?|vendors?|products?|product\s+groups?|categor(?:y|ies)|lines?|"
    r"line\s+items?|items?|positions?|agreements?|contracts?|manuals?)\b",
    re.I)

#: The invoice statuses a clerk names in a per-status count ("drafts / posted / paid / cancelled").
_STATUS = r"(?:drafts?|entw[uü]rfe?|posted|gebucht|paid|bezahlt|cancel+ed|storniert|open|offen|unpaid)"
_STATUS_SERIES = re.compile(rf"\b{_STATUS}\b(?:\s*(?:,|/|\+|&|\band\b|\bor\b|\bund\b)\s*{_STATUS}\b)+", re.I)


#: Each status word's status: "open (posted, unpaid)" names one status three ways.
_STATUS_OF = (("draft", r"drafts?|entw[uü]rfe?"), ("posted", r"posted|gebucht|open|offen|unpaid"),
              ("paid", r"paid|bezahlt"), ("cancelled", r"cancel+ed|storniert"))


def _several_statuses(series: str) -> bool:
    """Whether a series of status words asks a count per status: two statuses or more, one of them a status spend
    never counts (draft, cancelled). "(posted + paid)" is the counted set itself, the one total; "open (posted,
    unpaid)" one status named three ways."""
    named = {status for status, words in _STATUS_OF if re.search(rf"\b(?:{words})\b", series, re.I)}
    return len(named) >= 2 and bool(named & {"draft", "cancelled"})


@dataclass(frozen=True)
class ListTotalReading:
    """One document scope and what is asked of it, in the order asked."""

    scope: str
    asks: tuple[Ask, ...]
    #: "credit notes" or "invoices": the documents the scope is of.
    noun: str
    net: bool = False
    #: "net of / after credit notes": the credit notes netted into the total (router/document_scopes.py), not the
    #: VAT basis "net" (the total then never says "credit notes excluded").
    netted: bool = False


class NoDocumentNoun(ValueError):
    """The question names no document (invoices, credit notes): no AP list question."""


def _masked(text: str, names: Sequence[str]) -> str:
    """``text`` with the tenant's company and supplier names masked ("Supplier Beta", "Top Gear GmbH"): a word of a
    name is no ask or filter word of the question."""
    for name in sorted({n for n in names if n and n.strip()}, key=len, reverse=True):
        text = re.sub(rf"(?<!\w){re.escape(name)}(?!\w)", "Name", text, flags=re.I)
    return text


def _noun(text: str) -> str | None:
    found = _NOUN.search(text)
    if found is None:
        return None
    return next(name for pattern, name in _DOCUMENT_NOUNS if re.fullmatch(pattern, found.group(0), re.I))


def _asks(text: str) -> list[tuple[Ask, int, int]]:
    """Every ask word of ``text`` (kind, start, end), "no. of invoices" counted, not a list of numbers."""
    out: list[tuple[Ask, int, int]] = []
    for found in _ASK.finditer(text):
        kind = next(k for k in _ASK_WORDS if found.group(k) is not None)
        if kind == "total" and re.match(r"how\s+much", found.group(0), re.I) and re.search(
                r"\b(?:spen[dt]|spending|paid|pay)\b", text[found.end():found.end() + 25], re.I):
            kind = "spend"  # "how much did we spend": the spend
        out.append((kind, found.start(), found.end()))
    return out


def _implied_list(text: str, noun_end: int, asks: list[tuple[Ask, int, int]]) -> bool:
    """"X invoices + total", "X invoices, all, with total", "paid invoices kestrel mar 2026: nos. + sum": the noun
    phrase stands as an item of its own beside the total, the documents themselves asked (the list)."""
    after = [(k, a) for k, a, _ in asks if a >= noun_end]
    if not after or any(a < noun_end for _, a, _ in asks):
        return False
    kind, start = after[0]
    if kind not in ("total", "count"):
        return False
    between = text[noun_end:start]
    # the total joined to the noun phrase by an adding coordination ("+ total", "and the sum", "with total"), not
    # "invoices totalling" nor "X invoices - total?" (a dash or colon says what is asked of them: the total alone)
    return bool(re.search(r"(?:\+|&|\band\b|\bwith\b|\bplus\b|\bund\b|\bmit\b|\bet\b|\bavec\b|\by\b|\bcon\b|\be\b|"
                          r"\bcom\b)", between, re.I))


def _noun_match(text: str) -> re.Match[str]:
    found = _NOUN.search(text)
    if found is None:
        raise NoDocumentNoun(text)
    return found


def read_list_total(text: str, names: Sequence[str] = ()) -> ListTotalReading | None:
    """The document scope and the asks of an AP list question, or None when ``text`` is not one. ``names`` are the
    tenant's company and supplier names, masked before the other-question and sentence checks."""
    noun = _noun(text)
    checked = _masked(text, names)
    if noun is None or _OTHER_QUESTION.search(checked) or _SENTENCE.search(checked) or _SEVERAL_ASKED.search(text):
        return None
    asks = _asks(text)
    kinds = [k for k, _, _ in asks]
    noun_match = _noun_match(text)
    if "list" not in kinds and _implied_list(text, noun_match.end(), asks):
        asks = [("list", noun_match.start(), noun_match.start()), *asks]
        kinds = ["list", *kinds]
    ordered: list[Ask] = list(dict.fromkeys(kinds))
    if "spend" in ordered and "total" in ordered:
        # "total spend": one figure, the spend
        ordered.remove("total")
    if ordered == ["count"] and _COUNT_TAIL.search(text):
        pass  # "cancelled invoices Alpenland YTD? count": the count of the documents named before, one question
    elif ordered == ["list"] and _NUMBERS_ASKED.search(text) and len(asks) == 1:
        pass  # "Kestrel: invoice numbers from Orbis Q4": the documents' numbers, the listing (one question)
    elif len(ordered) < 2:
        return None
    if "list" not in ordered and "count" not in ordered:
        return None  # total and spend of one scope: one figure
    if ordered == ["list", "count"] or ordered == ["count", "list"]:
        return None  # a listing states how many it lists: one question (its own reader)
    scope = text
    for kind, start, end in sorted(asks, key=lambda a: -a[1]):
        if end > start:
            # the ask word with the joiners around it ("- list &", ", and # of", "+ EUR total in"): scope words stay
            head = _LEADING.search(scope[:start])
            tail = _TRAILING.match(scope[end:])
            a = head.start() if head else start
            compound = _NOUN_BEFORE.search(scope[:start])
            if compound is not None and kind in ("count", "total"):
                # "its invoice count", "the invoice total": the noun is part of the ask (the scope gets it back)
                a = compound.start()
            b = end + (tail.end() if tail else 0)
            scope = scope[:a] + " " + scope[b:]
    # the documents in the words every reader of the parts knows ("fatture", "Rechnungen": the invoices)
    # "net of credit notes": the credit notes netted in (the document scope), not the VAT basis
    netted = bool(NETTED_CREDIT_NOTES.search(scope))
    scope = NETTED_CREDIT_NOTES.sub(" ", scope)
    scope = _NOUN.sub(lambda found: next(name for pattern, name in _DOCUMENT_NOUNS
                                         if re.fullmatch(pattern, found.group(0), re.I)), scope)
    net = bool(_NET.search(scope))
    scope = _NET.sub(" ", scope)
    scope = _clean(scope)
    if not scope or (_NOUN.search(scope) is None and noun == "invoices"):
        scope = f"invoices {scope}".strip()  # "spend with Gamma in Q1 and its invoice count": "invoices with Gamma"
    return ListTotalReading(scope, tuple(ordered), noun, net, netted)


def _clean(scope: str) -> str:
    """The scope words without the joiners the asks left behind, at either end or doubled in the middle."""
    words = re.sub(r"\s+", " ", scope).strip()
    # (at the start only pure joiners go: "with Gamma", "in Q1", "EUR invoices" open the scope)
    edge = re.compile(rf"^(?:(?:and|plus|also|then|pls|please|the|their|its|of|und|et|y|e)(?!\w)|[,.;:?!\-+&/>]|\s)+|"
                      rf"(?:{_JOINERS.pattern}|[,.;:?!(\-+&/>]|\s)+$", re.I)
    previous = None
    while previous != words:
        previous = words
        words = edge.sub("", words).strip()
        # a trailing currency of the total ("total eur" read away above leaves "eur")
        words = re.sub(r"(?:[,\-+&]\s*)+(?=[,\-+&])", "", words)
    words = re.sub(r"\s*(?:[,+&]|\s-\s)\s*(?:[,+&]|\s-\s|\s)*(?=\s*$)", "", words)
    words = re.sub(r"\(\s*\)", "", words)
    # a bracket of the total's own words only ("(EUR gross)", "(in EUR)"): said by the total part, no scope word
    words = re.sub(rf"\(\s*(?:(?:{_JOINERS.pattern})[\s,/]*)+\)", "", words, flags=re.I)
    return re.sub(r"\s+", " ", words).strip(" ,;:-")


#: "all X invoices" (every one on file) in the languages of the document nouns.
_ALL = re.compile(r"\b(?:all|alle[nsr]?|tou(?:te)?s|tod[oa]s|tutt[ei])\b", re.I)


def part_questions(reading: ListTotalReading) -> tuple[AskPart, ...]:
    """One part per ask over the same scope, in the words the readers of each measure know."""
    scope = reading.scope
    if "list" in reading.asks and _ALL.search(scope) and not resolve_period(scope, dt.date.today()).mentions:
        # "list all X invoices and give the total": every invoice on file, listed and totalled alike (the listing
        # reads "all" as the whole history; the total, asked alone, would ask for a period)
        scope = f"{scope} over the whole history"
    basis = "net " if reading.net else ""
    only = ", credit notes excluded" if reading.noun == "invoices" else ""
    if reading.netted:
        only = " net of credit notes"  # the total asked with credit notes netted in, never "excluded"
    bare = _NOUN.sub(" ", scope)
    bare = re.sub(r"\s+", " ", bare).strip()
    words: dict[Ask, tuple[str, str]] = {
        "list": ("list", f"list {scope}"),
        "total": (f"{basis}total{only if reading.netted else ''}", f"{basis}total of {scope}{only}"),
        "count": ("count", f"how many {scope}"),
        "spend": (f"{basis}spend", f"{basis}spend {bare}"),
    }
    return tuple(AskPart(f"{scope} - {words[k][0]}", words[k][1]) for k in reading.asks)


def per_status_count(text: str, names: Sequence[str] = ()) -> str | None:
    """"kestrel q1 26: how many draft, posted, paid?", "drafts/posted/paid/cancelled counts": the count per status
    of the scope (one question, every status a row), or None. A single status ("how many paid") is its own count."""
    series = _STATUS_SERIES.search(text)
    if series is None or not _several_statuses(series.group(0)) or not re.search(
            r"#|\bcounts?\b|\bhow\s+many\b|\bnumber\b|\bno\.|\bnos?\b|\banzahl\b|\bwie\s+viele\b", text, re.I):
        return None
    checked = _masked(text, names)
    if _OTHER_QUESTION.search(checked) or re.search(r"\b(?:total|sum|amount|value|spen[dt]|how\s+much|vs)\b", checked,
                                                    re.I):
        return None
    rest = text[:series.start()] + " " + text[series.end():]
    rest = re.sub(r"#|\bcounts?\b|\bhow\s+many\b|\bnumber\s+of\b|\bnumber\b|\bno\.(?:\s*of)?|\bnos?\b", " ", rest,
                  flags=re.I)
    scope = _clean(rest)
    if _NOUN.search(scope) is None:
        scope = f"{scope} invoices"
    return f"{scope} - how many in each status?"


def list_total_parts(text: str, names: Sequence[str] = ()) -> tuple[AskPart, ...]:
    """The parts an AP list question is answered as (empty: not one). A per-status count is one part. ``names``: the
    tenant's company and supplier names (a word of a name, "Supplier Beta", is no word of the question's)."""
    counted = per_status_count(text, names)
    if counted is not None:
        return (AskPart(text, counted),)
    by_currency = currency_count_parts(text)
    if by_currency:
        return by_currency
    reading = read_list_total(text, names)
    return part_questions(reading) if reading is not None else ()


def with_list_reading(text: str | None, question: str) -> str:
    """An answer's text with the question it was answered as stated before its sources (the answer unchanged)."""
    head, sep, tail = (text or "").partition(" Sources:")
    return f"{head.rstrip()} Asked as {question!r}.{sep}{tail}"


#: Two or more invoice currencies named together ("GBP+CHF", "USD or GBP", "in CHF and GBP"), in parentheses or not.
_CODES = r"(?:EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|PLN|CZK|CAD|AUD|CNY)"
_CODE_SET = re.compile(rf"\(?\s*(?:in\s+)?(?<![A-Za-z]){_CODES}(?:\s*(?:,|/|&|\+|\band\b|\bor\b|\bplus\b|\bund\b|"
                       rf"\boder\b)\s*{_CODES})+(?![A-Za-z])\s*\)?", re.I)
#: "non-EUR", "foreign-currency": the set is the one named beside it (never guessed).
_NOT_REPORTING = re.compile(r"\b(?:non|not)[- ]?(?:eur|euro)\b|\bforeign[- ]currency\b|\bfx\b", re.I)
_COUNT_WORD = re.compile(r"#|\bhow\s+many\b|\bnumber\s+of\b|\bno\.\s*of\b|\bcount\b|\banzahl\b|\bwie\s+viele\b", re.I)


def currency_count_parts(text: str) -> tuple[AskPart, ...]:
    """"How many non-EUR invoices did X book in Q1? (GBP+CHF)": the count of invoices in several invoice
    currencies, one governed count per currency (each the listing of that currency's invoices), summed by
    :func:`with_currency_total`. Empty when ``text`` is no such count."""
    found = _CODE_SET.search(text)
    if found is None or not _COUNT_WORD.search(text) or _noun(text) != "invoices":
        return ()
    if re.search(r"\b(?:spen[dt]|spending|total|sum|amount|value|share|per|each|by|vs|versus|list)\b", text, re.I):
        return ()  # a figure or a breakdown per currency: their own readers
    codes = tuple(dict.fromkeys(c.upper() for c in re.findall(_CODES, found.group(0), re.I)))
    rest = text[:found.start()] + " " + text[found.end():]
    rest = _NOT_REPORTING.sub(" ", rest)
    rest = re.sub(r"\s+", " ", rest).strip()
    noun = _NOUN.search(rest)
    if noun is None or len(codes) < 2:
        return ()
    return tuple(AskPart(f"{code} invoices", f"{rest[:noun.start()]}{code} {noun.group(0)}{rest[noun.end():]}",
                         role="currency_count") for code in codes)


def with_currency_total(merged: Answer, answered: Sequence[tuple[AskPart, Answer]]) -> Answer:
    """The merged per-currency counts with their sum said first (each invoice is in one currency: the counted
    invoice numbers of the parts, together); unchanged unless every part is such a count and each was counted."""
    if not answered or any(p.role != "currency_count" for p, _ in answered):
        return merged
    numbers: list[str] = []
    for _, answer in answered:
        listed = answer.result.get("invoice_numbers") if isinstance(answer.result, dict) else None
        if answer.status not in ("answered", "no_data") or not isinstance(listed, list):
            return merged  # a currency not counted: the parts say which, no sum over the others
        numbers += [str(n) for n in listed]
    codes = " or ".join(p.asked.split()[0] for p, _ in answered)
    total = len(dict.fromkeys(numbers))
    return merged.model_copy(update={"text": f"{total} invoices in {codes} together (each invoice is in one currency, "
                                             f"counted once; per currency below). {merged.text}"})
