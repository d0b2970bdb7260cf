"""The default figure, stated: a complete ask whose measure word is unknown is answered with spend, never asked back.

A controller writes "actuals Co C H2 2025", "burn KESTREL FY25", "Ypsilon 10/2025-01/2026 outgoings pls": the
company and the period are read, and the one word left over stands where the figure's name stands. In
procurement data the figure of a company (supplier, group) over a period is its spend, so a word in that slot
that names no figure the data lacks is read as the spend. Asking back "which figure do you want?" answers
nothing the writer did not already say; giving the spend silently would hide that the word was not read. So the
answer is the spend (posted and paid invoices, gross: the governed default) and says how it read the word
("I read 'burn' as spend ..."), marked PARTIAL naming the word.

The slot is what is left once the names, the period and every
reader's words are consumed (router/elliptic.py's reading of a fragment with "spend" put in front), and the word
in it qualifies by its shape:

* one word, or two side by side ("refunds/credits"): a measure is named once; more words left over are another
  question the default would drop;
* written as a word of the language, not as a name: a word of the general word list (any language the readers
  know) or its stem ("actuals"), in lower case, capitalised only where a sentence starts, or all capitals
  ("BURN"); a capitalised word inside the ask ("Umbrella Supplies") is an unknown name and an invented token
  ("xyzzy") a slip or a code, both asked about;
* no slip or stem of a word of the tenant's names, groups or catalogue ("calibraton", "cables"): a thing, not a
  figure, whose name the group readers ask about;
* a word of the closed positive class of spend synonyms (:data:`SPEND_SYNONYMS`: actuals, burn, outgoings,
  expenditure, costs, purchases, Ausgaben, dépenses ...): any other word (goods, "returns", "discounts", a figure
  the data lacks: "budget", "emissions") is no name of the spend, and the clarification or refusal that names it
  stays. Figures the data lacks are listed once, in router/routing.py (``_UNSERVED_MEASURES``), where the retry
  is never tried when that list matched.

A word of the closed class of document reversals (:data:`CREDIT_WORDS`: "refunds", "credits", "reimbursements") is
read as the credit notes instead of the spend: the data carries that figure under another name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from router.edits import is_slip, without_diacritics
from router.reading import currency_code
from router.tax_words import GROSS_WORDS, TAX_NAME, alternation

#: Words that name the spend itself in a controller's shorthand, in the languages the readers know: a closed
#: positive class. A word outside it (goods: "laptops", "consulting"; figures the data lacks: "emissions",
#: "returns", "discounts", "budget") is never read as the spend; its question stays asked (or is refused by the
#: router's list of figures no metric computes, the one list of lacking figures: router/routing.py).
#: (Stems: a word is matched without a plural or participle ending.)
SPEND_SYNONYMS: frozenset[str] = frozenset("""
actual actuals burn drain spending spendings outgoing outgoings expenditure expenditures outflow outflows
outlay outlays cost costs
disbursement disbursements purchasing procurement purchase purchases bought expense expenses
ausgaben aufwand aufwendungen kosten einkauf einkaufsvolumen beschaffung
depenses dépenses achats achat couts coûts decaissements décaissements
gastos gasto compras egresos desembolsos spesa spese acquisti costi uscite
uitgaven inkoop kosten uitgaaf utgifter inköp kostnader indkøb udgifter wydatki zakupy koszty
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words of document reversals: the credit notes, a figure the data carries under its own name.
CREDIT_WORDS: frozenset[str] = frozenset("""
refund refunds credits reimbursement reimbursements chargeback chargebacks creditnote creditnotes
""".split())  # noqa: SIM905 - a word list reads better as text

#: The gross basis written beside the figure ("gross", "incl VAT", "brutto"): what the default figure already is, so
#: no second word in the measure slot and no other ask (a figure of the tax alone is "VAT", without "incl").
#: (The tax names and the gross words of every language: router/tax_words.py.)
GROSS_BASIS = re.compile(rf"\b(?:gross|{alternation(GROSS_WORDS)}|incl(?:\.|uding|usive|\b)\s*(?:of\s+)?"
                         rf"(?:{TAX_NAME}|tax(?:es)?)|with\s+(?:{TAX_NAME}|tax(?:es)?)|"
                         rf"(?:{TAX_NAME}|tax)[- ]?inclusive|(?:{TAX_NAME}|tax)\s+included)(?![\w])", re.I)

#: How the answer says what the default figure is.
DEFAULT_FIGURE = "spend (posted and paid invoice totals, incl. VAT)"
#: The same figure where the question asks it net of tax.
DEFAULT_NET_FIGURE = "spend (posted and paid invoice totals)"
CREDIT_FIGURE = "credit notes (their total, counted negative in spend)"

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
#: Between the two words of one measure phrase: nothing, a slash, an ampersand or "and"/"or".
_JOIN = re.compile(r"\s*(?:[/&+,]|\band\b|\bor\b|\bn\b)?\s*", re.I)
#: Where a sentence (or a fragment's clause) starts: a capitalised word right after it is no name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n\-–—(]\s*)$")


#: A preposition right before the word: it opens another slot ("w siemens", "by buyer", "on cabling", "for site"),
#: a party, a grouping or a thing, never the figure's name.
_PREPOSITION_BEFORE = re.compile(r"(?<![\w-])(?:with|w/?|from|at|to|by|per|for|on|in|of|via|across|under|into|"
                                 r"bei|von|mit|für|fur|chez|avec|pour|de|du|des|con|para|van|met|voor|bij|z|od|dla|"
                                 r"hos|från|fra|med)\s*$", re.I)
#: Function words of a follow-up or a clause ("what about last year?", "how about Q2?", "same again"): a closed
#: class that never names a figure; the follow-up without context is asked about with its words.
_FUNCTION_WORDS = frozenset("""
about around regarding concerning re than then also too again same other else instead what how which who why
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words of the quantity bought ("qty control cabinets company a Q1"): a figure the quantity readers own (units, and
#: units of different measures asked about), never the spend.
_QUANTITY_WORDS = frozenset("""
qty qtys quantity quantities units unit volume volumes pcs pieces stk stueck stück menge mengen
""".split())  # noqa: SIM905 - a word list reads better as text
#: A key of a key=value or JSON notation ("comp=", "\"period\":"): a field's name, never the measure slot.
_KEY_AFTER = re.compile(r"[\"'’]?\s*[=:]")
#: A field or function name in snake_case ("n_invoices", "share_of_spend", "avg_unit_price"): the measure is written
#: in the notation, which its own reader reads (router/structured_notation.py); no word is left for a default.
_FIELD_NAME = re.compile(r"\b[^\W\d_]+_[^\W\d_]+(?:_[^\W\d_]+)*\b")


#: Words of asking ("need", "pls", "show me") left unread around a fragment: the request, never the figure's name.
_REQUEST_WORDS = frozenset("""
need needs needed want wants wanted give gimme show send get pls plz please quick brauche bitte besoin svp
""".split())  # noqa: SIM905 - a word list reads better as text


@dataclass(frozen=True)
class AssumedMeasure:
    """The words read as the default figure and the question to route with them read."""

    words: tuple[str, ...]
    text: str
    figure: str


def _stem(word: str) -> str:
    low = without_diacritics(word.casefold()).replace("’", "'")
    for ending in ("'s", "ies", "s", "ed", "ing"):
        if low.endswith(ending) and len(low) - len(ending) >= 3:
            return low[: -len(ending)] + ("y" if ending == "ies" else "")
    return low


_CREDIT_STEMS = frozenset(_stem(c) for c in CREDIT_WORDS)


def _credit_word(word: str) -> bool:
    """Whether ``word`` is a document reversal of :data:`CREDIT_WORDS` ("refunds", "credit")."""
    return word.casefold() in CREDIT_WORDS or _stem(word) in _CREDIT_STEMS


def spend_synonym(word: str) -> bool:
    """Whether ``word`` names the spend in a word of the closed class :data:`SPEND_SYNONYMS`.

    >>> spend_synonym("Budgets"), spend_synonym("outgoings"), spend_synonym("burn"), spend_synonym("laptops")
    (False, True, True, False)
    """
    low = without_diacritics(word.casefold())
    synonyms = {without_diacritics(w) for w in SPEND_SYNONYMS}
    return low in synonyms or _stem(word) in synonyms


def thing_word(word: str, things: frozenset[str]) -> bool:
    """Whether ``word`` is a slip or a form of a word of the tenant's names or catalogue ("cables" of "cabling",
    "calibraton" of "calibration"); a word merely sharing a beginning ("actuals", "actuator") is not."""
    low, stem = without_diacritics(word.casefold()), _stem(word)
    for thing in things:
        other = _stem(thing)
        common = next((i for i, (a, b) in enumerate(zip(stem, other, strict=False)) if a != b),
                      min(len(stem), len(other)))
        if low == thing or (common >= 4 and max(len(stem), len(other)) - common <= 2):
            return True
        if len(low) >= 5 and is_slip(low, thing, 2 if len(low) >= 8 else 1):
            return True
    return False


def thing_words(names: Iterable[str]) -> frozenset[str]:
    """The words (four letters and more) of the tenant's names, groups, synonyms and products, accent-free."""
    return frozenset(without_diacritics(w.casefold()) for name in names for w in _WORD.findall(name) if len(w) >= 4)


def _word_shaped(text: str, start: int, word: str, general: frozenset[str]) -> bool:
    """A word written as a word, not as a name: a word of the language (the general word list, or its stem:
    "actuals", "outgoings"; an invented token or an unknown name is asked back); lower case, capitalised where a
    sentence or the fragment starts, or all capitals ("BURN", not "Umbrella" inside the ask)."""
    low = without_diacritics(word.casefold())
    if low not in general and _stem(word) not in general and low not in CREDIT_WORDS and not spend_synonym(word):
        return False
    if word.islower():
        return True
    if word[0].isupper() and word[1:].islower():
        before = text[:start]
        # ("spend " is the word router/elliptic.py put in front: the fragment starts after it)
        return _SENTENCE_START.search(before) is not None or before.strip().casefold() == "spend"
    return word.isupper() and len(word) >= 3


def assumed_measure(text: str, words: Sequence[str], things: frozenset[str],
                    general: frozenset[str], *, net: bool = False) -> AssumedMeasure | None:
    """The ``words`` a fragment left in its measure slot read as the default figure, or ``None``.

    ``text`` is the question as read (the fragment with "spend" put in front: router/elliptic.py), ``words`` the
    words no reader took, ``things`` the words of the tenant's names and catalogue (:func:`thing_words`),
    ``general`` the general word list (router/unread_words.py): a word in the slot must be one of its words.

    >>> GENERAL = frozenset({"burn", "refund", "credits", "budget", "umbrella", "supplies", "actual"})
    >>> m = assumed_measure("spend actuals Co C second half 2025?", ("actuals",), frozenset({"company"}),
    ...                     frozenset({"actual"}))
    >>> m.words, m.text, m.figure.split(" (")[0]
    (('actuals',), 'spend Co C second half 2025?', 'spend')
    >>> assumed_measure("spend year to date burn Kestrel, gross", ("burn", "gross"), frozenset(), GENERAL).words
    ('burn',)
    >>> assumed_measure("spend budget Co C Q1", ("budget",), frozenset(), GENERAL) is None
    True
    >>> assumed_measure("spend Xenon Umbrella Supplies nov", ("Umbrella", "Supplies"), frozenset(), GENERAL) is None
    True
    >>> assumed_measure("spend amount_net | comp=comp_y | aug'25", ("comp",), frozenset(), GENERAL) is None
    True
    >>> assumed_measure("spend how much w siemens q1 co a", ("siemens",), frozenset(), GENERAL | {"siemens"}) is None
    True
    >>> assumed_measure("spend comp C refunds/credits since January", ("refunds", "credits"), frozenset(),
    ...                 GENERAL).text
    'comp C credit notes since January'
    """
    gross = [m.span() for m in GROSS_BASIS.finditer(text)]
    # (the basis and the currency the default figure takes are no measure: the retry reads them)
    words = tuple(w for w in words if currency_code(w) is None and not any(
        s <= m.start() and m.end() <= e for s, e in gross
        for m in re.finditer(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)))
    # (a request word around the ask, "need burn FY25", "pls", is no measure: the slot is the word beside it)
    words = tuple(w for w in words if without_diacritics(w.casefold()) not in _REQUEST_WORDS)
    if not 1 <= len(words) <= 2 or _FIELD_NAME.search(text):
        return None
    spans: list[tuple[int, int]] = []
    for word in words:
        found = next((m for m in re.finditer(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)), None)
        if found is None or not (_credit_word(word) or spend_synonym(word)) \
                or word.casefold() in _FUNCTION_WORDS | _QUANTITY_WORDS or thing_word(word, things) \
                or _KEY_AFTER.match(text, found.end()) \
                or _PREPOSITION_BEFORE.search(text, 0, found.start()) \
                or not _word_shaped(text, found.start(), word, general):
            return None
        spans.append(found.span())
    spans.sort()
    if len(spans) == 2 and _JOIN.fullmatch(text[spans[0][1]:spans[1][0]]) is None:
        return None  # two words apart are two things left unread, not one measure
    if all(_credit_word(w) for w in words):
        start, end = spans[0][0], spans[-1][1]
        rest = text[:start] + "credit notes" + text[end:]
        if rest.lower().startswith("spend "):
            rest = rest[len("spend "):]  # the credit notes' own figure, not the spend of them
        return AssumedMeasure(tuple(words), rest, CREDIT_FIGURE)
    rest = text[:spans[0][0]] + text[spans[-1][1]:]
    return AssumedMeasure(tuple(words), re.sub(r"\s{2,}", " ", rest).strip(),
                          DEFAULT_NET_FIGURE if net else DEFAULT_FIGURE)


def assumed_note(words: Sequence[str], figure: str) -> str:
    """What the answer says about the words read as the default figure.

    >>> assumed_note(["burn"], DEFAULT_FIGURE)
    "I read 'burn' as spend (posted and paid invoice totals, incl. VAT): it names no governed figure, so the \
figure below is the one read for it."
    """
    said = ", ".join(repr(w) for w in words)
    one = len(words) == 1
    return (f"I read {said} as {figure}: {'it names' if one else 'they name'} no governed figure, so the figure "
            f"below is the one read for {'it' if one else 'them'}.")


def with_assumed_measure(answer: object, words: Sequence[str], figure: str) -> object:
    """``answer`` marked PARTIAL for the words read as the default figure (the figure stays, the reading said)."""
    if not words:
        return answer
    from router.ap_fields import with_not_understood

    return with_not_understood(answer, list(words), assumed_note(words, figure), reason="measure assumed")


__all__ = ["CREDIT_FIGURE", "CREDIT_WORDS", "DEFAULT_FIGURE", "SPEND_SYNONYMS", "AssumedMeasure", "assumed_measure",
           "assumed_note", "spend_synonym", "thing_word", "thing_words", "with_assumed_measure"]
