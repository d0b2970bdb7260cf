"""The decision rule of asking back: answer what was read, ask only where an unread span is shaped like a constraint.

Over every training set the two generic asks ("I read <company>, <period>, but not which figure you want" and
"Could you say what you need: a number, a relationship, a document ...") fired mostly where an answer was expected:
"acumulado del año de Kestrel, todos los proveedores", "YTD Company A con Gamma, porfa", "comp b ytd (calendar)
pls", "alpenland trailing three months, full months only", "Hi, what is our exposure to Beta across all our
companies combined last quarter? the group-wide figure is what I need". The writer named a subject (a company,
several, all companies, a supplier, a product group or a product of the tenant) and a period (or a to-date
reading) and said no figure, or said it in words no reader took. In this product the figure of a subject over a
period is its spend, so asking "which figure?" answers nothing the writer did not already say. The rule answers
the governed spend, marked PARTIAL naming every word left unread ("I did not understand 'x', 'y': ..."), never
dropping them silently. Chat, courtesy, filler, function words of any language, common nouns and verbs do not
block it, however many: they are named.

The rule is about the SHAPE of each unread span, not about which word list holds it. It keeps asking where one is
shaped like a constraint the figure would silently leave out, or like another question:

* a name: a capitalised word inside the sentence (not where a sentence starts) that no closed class, legal form
  or currency holds, and that is no general word, is all capitals (a code: "BU", "PLC" aside), stands beside
  another capitalised word ("Labcorp Supplies", "Alpenland Umbrella") or in a name slot ("con X", "from X"); a
  lower-case word no list knows in a name slot ("from labcorp"); a slip of a word of the tenant's names, groups
  or catalogue ("cabels"): an unknown or misspelt name;
* a digit left unread (an amount, a code, an id: "top 2", "ref 4711"): :func:`unread_codes`;
* a field the invoice data does not carry: a figure (:data:`UNCARRIED_FIGURES`: budget, forecast, plan ...) or a
  dimension (router/dimensions.py's nouns: region, cost centre, project, site, department ...);
* a negation whose scope was not read (router/negation_scope.py's cues: "not", "without", "except", "sin",
  "ohne", "didn't"): answered without it the figure would be the opposite one;
* a price or its comparison (router/price_words.py's :data:`~router.price_words.PRICE_WORDS`: "cheaper",
  "precio", "günstiger"): a unit price, asked per product by its own template;
* a document (an invoice, credit note or agreement noun: the ids or the text asked, not a total);
* goods or a figure in the measure slot: a lone open-class noun, plural or mass ("furniture", "outliers",
  "discounts", "consulting"), standing where a measure or a group stands (:func:`measure_slot_noun`); modifiers of
  time or shape ("cumulative", "calendar", "rolling", "peak") and chat stay named on the PARTIAL;
* a bound of a period left unread (:data:`PERIOD_BOUNDS`: "since", "until", "desde"): the period read may be
  another than the one asked (a month word alone is no bound: "a couple of months ago (november)", "MTD (May so
  far)" gloss the period read, and "ago", "may", "mar" are words of the language too);
* a reading that asks something else than a total: invoices listed or counted, a threshold, a unit price,
  quantities, approvals, an agreement or a summary;
* an ask of another kind (an unknown name, a company, a period): only the measure asks are replaced, so a
  question with no subject in a multi-company tenant keeps asking which company.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from ingest.normalize import LEGAL_FORMS
from router.default_measure import thing_word
from router.dimensions import UNRECORDED_NOUN
from router.document_words import CREDIT_NOTES, INVOICES
from router.edits import without_diacritics
from router.envelope import CHAT_WORDS
from router.foreign_words import AGREEMENT, DOCUMENT_NOUNS
from router.negation_scope import EXCLUDED_AFTER, NOT_BEFORE, NOT_CONTRACTED, WITHOUT_BEFORE
from router.price_words import PRICE_WORDS
from router.reading import currency_code
from router.unread_words import CLOSED_CLASS_WORDS, FILLER_WORDS, FUNCTION_WORDS, NAME_SLOT_WORDS, closed_class

#: Figures the invoice data does not carry, in the languages the writers mix in (English, Spanish, Portuguese,
#: German, French, Italian, Dutch): a word of them beside a subject and a period asks another figure than the spend.
UNCARRIED_FIGURES: frozenset[str] = frozenset("""
budget budgets budgeted budgetary forecast forecasts forecasted plan plans planned planning target targets
outlook projection projections estimate estimates estimated accrual accruals accrued commitment commitments
committed savings saving variance variances
presupuesto presupuestos presupuestado previsión prevision previsiones pronóstico pronostico meta metas objetivo
objetivos orçamento orcamento orçamentos orcamentos orçado orcado previsão previsao previsões previsoes
planejado planejamento
planwert planwerte prognose prognosen ziel ziele zielwert soll
prévision prévisions previsions objectif objectifs prévu prevu
previsione previsioni obiettivo obiettivi preventivo
begroting prognoses doel
""".split())  # noqa: SIM905 - a word list reads better as text

#: The bounds of a period ("since", "until", "desde", "até", "seit", "depuis"): one left unread means the period
#: read may be another than the one asked ("since data start Jul-25" read as July alone), never answered as read.
PERIOD_BOUNDS: frozenset[str] = frozenset("""
since until till til thru through onwards onward starting beginning desde hasta ate até seit bis ab depuis jusqu
jusque jusqua sinds vanaf tot dal fino
""".split())  # noqa: SIM905 - a word list reads better as text

#: Closed words beyond router/unread_words.py's classes: the function, filler and courtesy words of every
#: language the readers know and the chat words ("thx", "pls"): never a name, whatever their case.
_CLOSED_WORDS = FUNCTION_WORDS | FILLER_WORDS | CHAT_WORDS
_LEGAL_FORMS = frozenset(LEGAL_FORMS)

#: Postfix negations that are everyday words too ("out", "aside", "removed"): a negation only right after the
#: constraint they scope (router/negation_scope.py reads them there), never alone in an unread span.
_EVERYDAY_POSTFIX = frozenset({"out", "aside", "removed", "dropped", "fora", "fuera", "aparte", "raus", "ignored",
                               "omitted", "exclu"})
#: One-word negation cues of every position and language (router/negation_scope.py's tables, one word each).
NEGATION_WORDS: frozenset[str] = frozenset(
    without_diacritics(w.casefold()) for w in (*WITHOUT_BEFORE, *NOT_BEFORE, *NOT_CONTRACTED, *EXCLUDED_AFTER)
    if " " not in w and w.strip(".") not in _EVERYDAY_POSTFIX).difference({"minus"})
#: The bare negators ("no", "non", "não"): "no 1T 2026" (Portuguese "in the"), "No. 5" and "no sorry" negate no
#: constraint; they are one only before a word.
_BARE = frozenset(without_diacritics(w.casefold()) for w in NOT_BEFORE)

#: Document nouns, one word each (invoices, credit notes, agreements, in the writers' languages): an unread one
#: asks the documents (their ids, their text, their count), never a total.
DOCUMENT_WORDS: frozenset[str] = frozenset(
    without_diacritics(w.casefold()) for phrase in (*DOCUMENT_NOUNS, *INVOICES, *CREDIT_NOTES, *AGREEMENT)
    for w in phrase.split() if len(w) >= 4) | frozenset("""
invoice invoices inv invs bill bills agreement agreements contract contracts nota notas fatura faturas
""".split())  # noqa: SIM905 - a word list reads better as text

#: The dimension nouns of router/dimensions.py, as one whole word ("region", "project", "site", "kostenstelle").
_DIMENSION = re.compile(rf"(?:{UNRECORDED_NOUN})", re.I)
#: The prepositions of a name slot ("con X", "from X", "bei X": router/unread_words.py's), with the joins a pair
#: of names is written with ("Orbis x Alpenland", "Beta @ Ypsilon") and the "of / from" of the writers' languages.
_NAME_SLOT = NAME_SLOT_WORDS | {"x", "@", "at", "of", "de", "da", "do", "od", "ot", "från", "fra"}

#: The asks this rule replaces: no intent read, or a company and a period read with no figure.
_MEASURE_ASKS = ("intent: no retrieval intent", "measure: the question names a company and a period")
#: Where a sentence starts: a capitalised word right after it is no name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n\-–—(\"“,]\s*|^spend\s+)$", re.I)
#: A token of the question: a word, or a run with a digit (a code, an amount, a date).
_TOKEN = re.compile(r"[^\s,;:()\[\]{}\"“”?!]+")


class _Cues(Protocol):
    invoices: bool
    invoice_count: bool
    threshold_words: bool
    unit_price: bool
    price_comparison: bool
    quantity: bool
    approved: bool
    agreement_question: bool
    summary: bool


def _other_ask(cues: _Cues) -> bool:
    """Whether the reading asks something else than a total (a list, a count, a price, a document ...)."""
    return any((cues.invoices, cues.invoice_count, cues.threshold_words, cues.unit_price, cues.price_comparison,
                cues.quantity, cues.approved, cues.agreement_question, cues.summary))


def _plain(word: str) -> str:
    return without_diacritics(word.casefold()).replace("’", "'")


def _found(text: str, word: str) -> re.Match[str] | None:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)


def _closed(word: str) -> bool:
    """A word of a closed class (function, courtesy, chat, verb, quantity, status, time, record, negation), a legal
    form or a currency: never a name (a negation is decided as one: :func:`_negation`)."""
    low = _plain(word)
    return (low in _CLOSED_WORDS or word.casefold() in _CLOSED_WORDS or closed_class(word) is not None
            or low in NEGATION_WORDS or low.strip(".") in _LEGAL_FORMS or currency_code(word) is not None)


def _document(low: str) -> bool:
    """A document noun, or a form of one of five letters and more ("faturalar", "facturen", "invoiced")."""
    return low in DOCUMENT_WORDS or any(len(d) >= 5 and low.startswith(d) for d in DOCUMENT_WORDS)


def _negation(text: str, word: str) -> bool:
    """A negation cue: every one-word cue, a bare negator only before a word ("no 1T", "No. 5" are none); a word
    right before "but" and a name too ("everything but Gamma", "all but Beta": every one except it)."""
    low = _plain(word)
    found = _found(text, word)
    after = text[found.end():] if found is not None else ""
    if re.match(r"\s+but\s+[^\W\d_]", after, re.I) and closed_class(word) in (None, "quantity"):
        return True
    if low not in NEGATION_WORDS:
        return False
    return low not in _BARE or re.match(r"\s+[^\W\d_]", after) is not None


def _beside_capitalised(text: str, found: re.Match[str]) -> bool:
    """Whether a capitalised word that no closed class holds stands right before or after the word (one name of
    several words: "Labcorp Supplies", "Alpenland Umbrella")."""
    before = re.search(r"([^\W\d_][\w&'’.-]*)\s+$", text[:found.start()])
    after = re.match(r"\s+([^\W\d_][\w&'’-]*)", text[found.end():])
    return any(m is not None and m.group(1)[:1].isupper() and not _closed(m.group(1).rstrip("."))
               and m.group(1).casefold() != "spend" for m in (before, after))


def _in_name_slot(text: str, found: re.Match[str]) -> bool:
    """Whether the word comes right after a name slot's preposition ("con X", "from X", "x X", "@ X")."""
    before = re.search(r"(\S+)\s+$", text[:found.start()])
    return before is not None and _plain(before.group(1)) in _NAME_SLOT


def name_shaped(text: str, word: str, general: frozenset[str], things: frozenset[str] = frozenset()) -> bool:
    """Whether the unread ``word`` of ``text`` is shaped like a name: capitalised inside a sentence and unknown, all
    capitals, beside another capitalised word or in a name slot; a lower-case unknown word in a name slot; a slip
    of a word of the tenant's names (``things``: router/default_measure.py's :func:`thing_words`).

    >>> G = frozenset({"umbrella", "porfa", "sorry", "supplies"})
    >>> name_shaped("spend Alpenland Umbrella Q1", "Umbrella", G), name_shaped("spend Porfa, Company B Q1", "Porfa", G)
    (True, False)
    >>> name_shaped("spend Q1 Kestrel Labcorp", "Labcorp", G), name_shaped("spend Q1 Kestrel, wibopu", "wibopu", G)
    (True, False)
    >>> name_shaped("spend Q1 Kestrel con wibopu", "wibopu", G), name_shaped("spend Kestrel BU Q1", "BU", G)
    (True, True)
    """
    found = _found(text, word)
    if found is None:
        return False
    low = _plain(word)
    known = low in general or word.casefold() in general
    if word.isupper() and len(word) >= 2:
        # all capitals: a code ("BU", "PLC-7") unless a closed word ("PLS", "FYI"), a legal form or a currency;
        # a longer word of the language ("URGENT") is a word written loud
        if low in _CLOSED_WORDS or low.strip(".") in _LEGAL_FORMS or currency_code(word) is not None:
            return False
        code = not known or len(word) <= 3
    elif _closed(word):
        return False
    else:
        code = False
    if len(low) >= 4 and things and thing_word(word, things):
        return True  # a slip or a form of a word of the tenant's names or catalogue ("cabels")
    if not word[:1].isupper():
        return not known and _in_name_slot(text, found)
    if len(word) < 2:
        return False
    if _SENTENCE_START.search(text[:found.start()]) is not None:
        # where a sentence starts a word is capitalised anyway: a name only beside another ("Labcorp Supplies")
        return (code or not known) and _beside_capitalised(text, found)
    return code or not known or _beside_capitalised(text, found) or _in_name_slot(text, found)


def constraint_shaped(text: str, word: str, general: frozenset[str], things: frozenset[str] = frozenset()) -> bool:
    """Whether the unread ``word`` of ``text`` is shaped like a constraint or another question: a name
    (:func:`name_shaped`), a digit, a negation, a price, a document, a field the data does not carry, a bound of a
    period; ``general`` is the general word list (router/unread_words.py), ``things`` the words of the
    tenant's names and catalogue.

    >>> G = frozenset({"umbrella", "todos", "presupuesto", "jul", "tedarikci", "cumulative"})
    >>> constraint_shaped("spend Alpenland Umbrella Q1", "Umbrella", G), constraint_shaped("spend todos Q1", "todos", G)
    (True, False)
    >>> constraint_shaped("Presupuesto Alpenland Q1", "Presupuesto", G), constraint_shaped("spend Q1 desde", "desde", G)
    (True, True)
    >>> constraint_shaped("spend Company B wibopu Q1", "wibopu", G), constraint_shaped("spend B didn't Q1", "didn't", G)
    (False, True)
    >>> constraint_shaped("spend B region Q1", "region", G), constraint_shaped("spend B cheaper Q1", "cheaper", G)
    (True, True)
    """
    low = _plain(word)
    if any(ch.isdigit() for ch in word) or low in PERIOD_BOUNDS or _negation(text, word):
        return True
    if low in UNCARRIED_FIGURES or word.casefold() in UNCARRIED_FIGURES or low.rstrip("s") in UNCARRIED_FIGURES:
        return True  # a figure the data does not carry: not the spend
    if low in PRICE_WORDS or word.casefold() in PRICE_WORDS or _document(low):
        return True  # a unit price (asked per product) or documents (their ids or text), not a total
    if _DIMENSION.fullmatch(word) is not None and closed_class(word) is None and low not in FUNCTION_WORDS:
        return True  # a field no invoice line records: a cost centre, a project, a region, a site
    return name_shaped(text, word, general, things)


#: Words set aside before the measure slot's open-class words are counted: the closed words and the units of time
#: ("mês a mês", "per week"), which say how a period is cut, never which figure is asked.
_NOT_MEASURE_WORDS = _CLOSED_WORDS | CLOSED_CLASS_WORDS["function"] | CLOSED_CLASS_WORDS["time"]
#: Modifiers of time or shape and pronoun-like words: they say how the figure is cut or framed, never another
#: figure or goods ("cumulative", "calendar", "full months only", "rolling", "anything", "peak").
_MODIFIERS = frozenset("""
cumulative calendar full only rolling trailing running anything everything something nothing peak whole total
overall entire complete combined net gross fiscal financial current latest recent last first final partial
exact rough approximate approx ballpark quick fast asap please thanks sorry number figure amount sum
""".split())  # noqa: SIM905 - a word list reads better as text
#: Mass nouns of goods and services the writers put in the measure slot (with the noun endings below).
_MASS_NOUNS = frozenset("""
furniture stationery consulting equipment software hardware catering cleaning shipping freight packaging
travel maintenance training marketing advertising printing security insurance energy fuel electricity
""".split())  # noqa: SIM905 - a word list reads better as text
#: Endings of English nouns ("furniture", "stationery", "equipment", "software", "insurance").
_NOUN_END = re.compile(r"(?:ture|ery|ment|ware|tion|sion|ance|ence|ity|age|ness)$")
#: Endings of adjectives and adverbs ("monthly", "cumulative", "annual", "various"): modifiers, no goods.
_MODIFIER_END = re.compile(r"(?:ly|ive|al|ous|ful|less|able|ible|ic|ed|est|ish)$")


def _goods_noun(word: str) -> bool:
    """Whether ``word`` is shaped like a noun of goods or of a figure: a plural ("outliers", "discounts",
    "returns"), a mass noun or a word with a noun's ending ("furniture", "stationery", "consulting"); a modifier of
    time or shape ("cumulative", "calendar", "rolling", "peak") is none."""
    low = _plain(word)
    if len(low) < 4 or not low.isalpha() or low in _MODIFIERS or low.rstrip("s") in _MODIFIERS:
        return False
    if low in _MASS_NOUNS or _NOUN_END.search(low) is not None:
        return True
    if _MODIFIER_END.search(low) is not None:
        return False
    return low.endswith("s") and not low.endswith(("ss", "us", "is", "ys"))


def measure_slot_noun(unread: Sequence[str]) -> str | None:
    """The lone open-class noun of ``unread`` standing where a measure or a group stands ("Company A Q1 2026
    furniture", "returns Company A H2 2025"): goods or a figure no reader read, asked back naming it, never
    answered as the spend. ``None`` when the open-class words are none, more than two, or no noun: modifiers and
    chat stay named on the PARTIAL.

    >>> measure_slot_noun(("furniture",)), measure_slot_noun(("con", "outliers", "porfa"))
    ('furniture', 'outliers')
    >>> measure_slot_noun(("cumulative",)), measure_slot_noun(("full", "months", "only"))
    (None, None)
    """
    open_words = [w for w in unread if _plain(w) not in _NOT_MEASURE_WORDS and w.casefold() not in _NOT_MEASURE_WORDS
                  and closed_class(w) is None]
    if not 1 <= len(open_words) <= 2:
        return None
    nouns = [w for w in open_words if _goods_noun(w)]
    return nouns[0] if nouns else None


#: A negated verb: "not pay", "never invoiced", "didn't buy", "did not receive" (the verb is the group).
_NEGATED_VERB = re.compile(
    r"\b(?:did\s+not|do\s+not|does\s+not|has\s+not|have\s+not|had\s+not|didn['’]?t|don['’]?t|doesn['’]?t|"
    r"hasn['’]?t|haven['’]?t|hadn['’]?t|not|never|no\s+longer)\s+(?:yet\s+|ever\s+|once\s+)?([^\W\d_]{3,})",
    re.I)
#: Stems of the status and exclusion participles the negation reader takes ("not approved", "never included").
_STATUS_STEMS = ("approv", "includ", "exclud", "count", "consider", "post", "cancel", "draft", "list", "contract",
                 "dupl")
#: The "do" / "have" auxiliaries a bare "not" negates a verb after ("did Company A not pay").
_AUXILIARY = re.compile(r"\b(?:did|do|does|have|has|had)\b", re.I)
#: A "which suppliers" / "who" subject: a listing of suppliers asked, never one total.
_WHO_SUBJECT = re.compile(r"\b(?:which|what)\s+(?:suppliers?|vendors?|sellers?)\b|\bwho\b", re.I)
#: Verbs the invoice data records (an invoice is issued and received): a listing of who did not can be read
#: (router/supplier_activity.py); "pay", "order", "deliver" are events the data does not carry.
INVOICING_VERBS = frozenset("""
invoice invoiced bill billed charge charged sell sold supply supplied
""".split())  # noqa: SIM905 - a word list reads better as text


#: A first-person subject right before a negation ("I didn't", "we haven't", "I've not"): the writer's own story.
#: Verbs of the trade the data records or could be asked about ("we didn't pay", "we never ordered"): never the
#: writer's own story, whoever the subject.
_TRADE_STEMS = ("pay", "paid", "invoic", "bill", "order", "buy", "bought", "purchas", "spen", "sourc", "procur",
                "use", "receiv", "get", "got", "contract", "approv", "deliver", "ship", "sell", "sold", "suppl")
_WRITER = re.compile(r"(?<![\w'’])(?:i|we)(?:['’](?:ve|d|m|re))?\s*$", re.I)


def negated_listing(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    """The spans of ``text`` that ask a negated listing no reading consumed: a negation with its verb ("not pay",
    "never invoiced") or a "which suppliers" / "who" subject. A total answered in their place would be the
    opposite figure, or one figure for a list: they ask back, naming them.

    >>> negated_listing("which suppliers did Company A not pay in Q1 2026", [(20, 29), (42, 49)])
    ('not pay', 'which suppliers')
    >>> negated_listing("spend Company A not counting Beta Q1", [(6, 15), (16, 33), (34, 36)])
    ()
    >>> negated_listing("Total spend of Company A in Q1 2026? I didn't find it", [(15, 24), (28, 35)])
    ()
    """
    def unread(m: re.Match[str]) -> bool:
        return not any(s < m.end() and m.start() < e for s, e in spans)

    def verbal(m: re.Match[str]) -> bool:
        # a bare "not" negates a verb only after a "do" / "have" auxiliary ("did Company A not pay"); "not
        # approved", "not included", "not counting Beta" are the negation reader's own (a status, an exclusion)
        if m.group(1).casefold().startswith(_STATUS_STEMS):
            return False  # "never approved", "not included": a status or an exclusion, the negation reader's
        if m.group(0).split()[0].casefold() != "not":
            return True
        return m.group(1).islower() and _AUXILIARY.search(text, 0, m.start()) is not None \
            and not m.group(1).casefold().endswith(("ed", "ing", "en"))

    def the_writers(m: re.Match[str]) -> bool:
        # "I didn't find it", "we haven't had it yet": the writer telling about themselves, no listing asked; "which
        # suppliers we didn't pay" keeps its subject, so it stays a listing
        return (_WRITER.search(text, 0, m.start()) is not None and _WHO_SUBJECT.search(text) is None
                and not m.group(1).casefold().startswith(_TRADE_STEMS))

    found = [m.group(0) for m in _NEGATED_VERB.finditer(text) if unread(m) and verbal(m) and not the_writers(m)
             and closed_class(m.group(1)) not in ("function", "quantity", "time")]
    if found:
        found += [m.group(0) for m in _WHO_SUBJECT.finditer(text) if unread(m)]
    return tuple(dict.fromkeys(found))


def negated_question(found: Sequence[str]) -> str:
    """The ask for :func:`negated_listing`'s spans: what the data cannot answer, and what it can."""
    said = ", ".join(repr(f) for f in found)
    verbs = {w.casefold() for f in found for w in f.split()[-1:]}
    cannot = "" if verbs & INVOICING_VERBS else (
        " The invoice data records invoices, not payments, orders or deliveries, so I cannot list who was not paid"
        " (or not ordered from).")
    return (f"I did not read {said}: a total spend would answer another question.{cannot} I can list the suppliers "
            "that did not invoice a company in a period, or give a total; which do you mean?")


def unread_codes(text: str, spans: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    """The tokens of ``text`` with a digit that no span the reading consumed covers: an amount, a code, an id, a
    count ("top 2", "ref 4711") the spend reading would drop.

    >>> unread_codes("spend Kestrel 2 tedarikci Q1", [(6, 13), (25, 27)])
    ('2',)
    """
    return tuple(m.group(0) for m in _TOKEN.finditer(text) if any(ch.isdigit() for ch in m.group(0))
                 and not any(s < m.end() and m.start() < e for s, e in spans))


def answers_as_read(text: str, unread: Sequence[str], reasons: Iterable[str], cues: _Cues,
                    general: frozenset[str], *, spans: Sequence[tuple[int, int]] | None = None,
                    things: frozenset[str] = frozenset()) -> bool:
    """Whether a question asked back for its measure alone is answered as the spend of what was read, naming the
    ``unread`` words; ``text`` is the fragment read with "spend" in front, ``reasons`` the ask's reasons,
    ``general`` the general word list, ``spans`` what the reading of ``text`` consumed (``None``: not checked for
    unread digits), ``things`` the words of the tenant's names and catalogue.

    >>> class C:
    ...     invoices = invoice_count = threshold_words = unit_price = price_comparison = quantity = False
    ...     approved = agreement_question = summary = False
    >>> G = frozenset({"con", "porfa", "umbrella"})
    >>> answers_as_read("spend YTD Company A con Gamma, porfa", ("con", "porfa"),
    ...                 ["intent: no retrieval intent reached the confidence threshold"], C(), G)
    True
    >>> answers_as_read("spend Company A Umbrella Q1", ("Umbrella",), ["intent: no retrieval intent"], C(), G)
    False
    >>> answers_as_read("spend YTD Company A, porfa", ("porfa",), ["entity: 'X' was not understood"], C(), G)
    False
    """
    reasons = list(reasons)
    if not unread or not reasons:
        return False
    if any(not r.startswith(_MEASURE_ASKS) for r in reasons) or _other_ask(cues):
        return False
    if any(constraint_shaped(text, w, general, things) for w in unread):
        return False
    if measure_slot_noun(unread) is not None:
        return False  # goods or a figure in the measure slot: asked back naming it, never the spend
    return spans is None or not unread_codes(text, spans)


__all__ = ["DOCUMENT_WORDS", "INVOICING_VERBS", "NEGATION_WORDS", "PERIOD_BOUNDS", "UNCARRIED_FIGURES",
           "answers_as_read", "constraint_shaped", "measure_slot_noun", "name_shaped", "negated_listing",
           "negated_question", "unread_codes"]
