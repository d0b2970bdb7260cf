"""The decision rule that a metric-shaped question is never answered with passages.

When no reader plans a figure, the router's last resort is the passage search: the classifier's top intent
(an identifier lookup or a document question) is selected above its floor, and the answer is "Found 5
passage(s) ..." of whatever text mentions the names. For a question that asks a figure this is a silent wrong:
the writer asked for a number or a table and got text that quotes neither, presented as the answer. It happened
whenever one slot of the figure was written in a notation no reader knew ("Company C monthly 2026.01～2026.03 for
Delta", a price word in a language the readers lack, a figure called "our number"), whoever the writer was.

The rule is one of shape, not of wording. A question has *metric evidence* when its reading holds:

* a company or supplier of the tenant together with a period (read, or digits that look like one and were not
  read), an amount, a breakdown, a ranking, a share or a comparison word: a figure of that scope; an amount with
  a period is one too, whatever names were not resolved (a claimed figure to check);
* a product of the catalogue with a price or quantity word (:data:`PRICE_WORDS`, a closed class over the
  languages the writers mix in): a price or a quantity of that product.

Such a question is a document question only when it names a document (an agreement, a clause, terms, a policy,
a manual: the router's document cues) or asks how or why; "the deck says EUR 1.2m" names a claimed figure, not a
document, so a saying verb beside an amount is no document cue. A metric-shaped question is answered with the
figure its slots give (the default figure, the spend, when none is named and nothing else is asked) or asked
back, naming what was not read (the period's text, the unknown words, the figure); never with passages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from router.agreement_clauses import clause_request
from router.reader import Reading
from router.unread_words import reading_spans, unread_words

#: Words that name a price or a quantity of a product, in the languages the writers mix into English (English,
#: German, French, Spanish, Portuguese, Italian, Dutch, Nordic, Polish, Finnish, Czech, Turkish, and the CJK
#: nouns). A closed class: with a product of the catalogue it makes the question a figure of that product.
PRICE_WORDS: tuple[str, ...] = (
    "price", "prices", "priced", "pricing", "cost", "costs", "unit price", "list price", "rate", "quantity",
    "quantities", "qty", "units", "volume", "how much", "how many",
    "preis", "preise", "stückpreis", "listenpreis", "menge", "stück", "stückzahl",
    "prix", "tarif", "quantité", "quantités", "combien",
    "precio", "precios", "cantidad", "cantidades", "unidades", "cuánto", "cuanto", "cuántos", "cuantos",
    "preço", "preços", "preco", "precos", "quantidade", "quantidades", "quanto", "quantos", "valor unitário",
    "prezzo", "prezzi", "listino", "quantità", "quantita", "pezzi",
    "prijs", "prijzen", "stukprijs", "hoeveelheid", "aantal", "hoeveel",
    "pris", "priser", "styckpris", "antal", "mængde", "mengde", "stykpris",
    "cena", "ceny", "ilość", "ilosc", "hinta", "hinnat", "määrä", "maara", "fiyat", "miktar",
    "価格", "単価", "値段", "数量", "价格", "单价", "價格", "單價", "가격", "단가", "수량",
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_PRICE = re.compile(
    r"(?<![\w-])(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(
        (w for w in PRICE_WORDS if not _CJK.match(w)), key=len, reverse=True)) + r")(?![\w-])", re.I)
#: CJK nouns stand inside a run of other characters (no word boundary there).
_CJK_PRICE = re.compile("|".join(re.escape(w) for w in PRICE_WORDS if _CJK.match(w)))
#: Verbs that introduce a claimed figure ("the deck says EUR 1.2m", "finance states 40k"): beside an amount they
#: quote a figure to check, not a document to read.
CLAIM_VERBS = re.compile(r"\b(?:says?|said|states?|stated|mentions?|mentioned|claims?|claimed|shows?|showed|"
                         r"reports?|reported)\b", re.I)
#: Digits that look like a period (a four-digit year with a month or quarter beside it, in any separator, or in
#: full-width digits): when the reader did not consume them, the period is what was not read.
_PERIOD_DIGITS = re.compile(
    r"(?<![\w-])(?:[12０-９][0-9０-９]{3}|'?[0-9０-９]{2})\s*(?:[./\-年~～〜]|\s)\s*[0-9０-９]{1,2}"
    r"(?:\s*[月Qq])?(?:\s*[~～〜\-–]+\s*(?:[12０-９][0-9０-９]{3}\s*[./\-年]\s*)?[0-9０-９]{1,2}\s*月?)?(?![\w-])|"
    r"(?<![\w-])[0-9０-９]{1,2}\s*[./\-月]\s*[12０-９][0-9０-９]{3}(?![\w-])|"
    r"(?<![\w-])[12０-９][0-9０-９]{3}\s*年|[0-9０-９]{4}(?=[^\w\s]*$)|"
    # "202603": a year and a month run together (a report's period key)
    r"(?<![\w-])(?:19|20)[0-9]{2}(?:0[1-9]|1[0-2])(?![\w-])")
_YEAR = re.compile(r"(?:19|20|１９|２０)[0-9０-９]{2}")


@dataclass(frozen=True)
class MetricShape:
    """Why a question is metric-shaped, and what of its figure was not read."""

    kind: Literal["scope", "product"]
    #: The slots read that make it a figure ("the company COMP-C", "the period 2026-Q1", "an amount").
    evidence: tuple[str, ...]
    #: Period-looking text the reader did not consume ("2026.01～2026.03").
    unread_periods: tuple[str, ...]
    #: Content words no reader took.
    unread_words: tuple[str, ...]
    #: Whether a company or supplier was read: a figure without one ("what's our MoM change Mar-26 vs Feb-26") is
    #: only ever asked back (the company, or what was not read), never answered from a retry's guess.
    scoped: bool = True


def _outside(span: tuple[int, int], consumed: Sequence[tuple[int, int]]) -> bool:
    return not any(s < span[1] and span[0] < e for s, e in consumed)


def unread_periods(reading: Reading) -> tuple[str, ...]:
    """Text with a year in it that looks like a period and that no reader consumed (the period's notation was
    not read: "2026.01～2026.03", "2025/07～2025/12", "2026 1Q" in a form no reader knows).

    The amounts' spans count as consumed: "EUR 2,026.50" is no period.
    """
    consumed = (*reading.consumed, *((a.start, a.end) for a in reading.amounts))
    found = []
    for match in _PERIOD_DIGITS.finditer(reading.text):
        said = match.group(0).strip()
        if _YEAR.search(said) and _outside(match.span(), consumed):
            found.append(said)
    return tuple(dict.fromkeys(found))


#: Double quotation marks of any typography (single ones are apostrophes as often).
_QUOTES = re.compile(r"[\"“”„«»「」『』]")


def unquoted(text: str) -> str:
    """``text`` without its double quotation marks: a claim quoted with the tenant's names in it is read as asked.

    >>> unquoted('confirm "4 invoices above EUR 25,000 at Kestrel" pls')
    'confirm 4 invoices above EUR 25,000 at Kestrel pls'
    """
    return " ".join(_QUOTES.sub(" ", text).split())


def names_price(text: str) -> bool:
    """Whether ``text`` names a price or a quantity (:data:`PRICE_WORDS`, any of the writers' languages).

    >>> names_price("preço de tabela do PRD-710"), names_price("Stückpreis PRD-1"), names_price("PRD-1 manual")
    (True, True, False)
    """
    return bool(_PRICE.search(text) or _CJK_PRICE.search(text))


def document_question(reading: Reading, document_cues: re.Pattern[str]) -> bool:
    """Whether the question asks what a document says (its noun, a how/why ask, a quote, a contract, invoice,
    credit-note or document id): the one kind of question passages answer. A saying verb beside an amount quotes
    a claimed figure, not a document."""
    text = reading.cue_text
    if reading.amounts:
        text = CLAIM_VERBS.sub(" ", text)
    names = reading.mentions.spans
    # a quote that is a name of the tenant ('Vendor, "Delta Enclosures"') is the name, not text to find
    quoted = any(not any(s <= a and b <= e for a, b in names) for s, e in reading.quote_spans)
    # (a clause of a company's agreement asked in German, "Zahlungsziel im Verpackungsvertrag von Company A am 1.
    # März 2026": router/agreement_clauses.py's own document and clause words, compounds included)
    return bool(document_cues.search(text) or quoted or reading.cues.summary
                or reading.cues.agreement_question or reading.identifiers.contract_ids
                # an invoice or credit-note number ("show INV-... of Company A from January") names the document
                or reading.identifiers.invoice_numbers or reading.identifiers.document_ids
                or clause_request(reading) is not None)


def metric_shape(reading: Reading, document_cues: re.Pattern[str], names: Sequence[str] = ()) -> MetricShape | None:
    """The metric evidence of ``reading`` (:class:`MetricShape`), or ``None``: no figure-shaped slots, or a
    document question (``document_cues``: the router's document words). ``names``: every spelling of the tenant's
    names, whose words are read (the words no reader took and no word list knows are named back)."""
    if document_question(reading, document_cues):
        return None
    e = reading.entities
    periods = unread_periods(reading)
    scope = [*([f"the company {e.company_id}"] if e.company_id else []),
             *(["a company named"] if not e.company_id and reading.mentions.companies else []),
             *([f"the supplier(s) {', '.join(e.supplier_ids)}"] if e.supplier_ids else [])]
    p, b, a = reading.period, reading.breakdown, reading.analysis
    figure = [*([f"the period {p.time_range.label}"] if p.time_range is not None else []),
              *(["a period"] if p.time_range is None and (p.ambiguous or periods) else []),
              *(["an amount"] if reading.amounts else []),
              *(["a breakdown"] if b.group_by or b.grain or b.unknown else []),
              *(["a ranking"] if a.ranking is not None else []),
              *(["a share"] if a.share else []),
              *(["a comparison"] if a.comparison is not None or a.compare_words else [])]
    words = unread_words(reading.text, reading_spans(reading), names)
    if scope and figure:
        return MetricShape("scope", (*scope, *figure), periods, words)
    if not scope and figure[:1] and _figure_of_period(reading, figure):
        # "what's our MoM change Mar-26 vs Feb-26?", "which suppliers did NOT invoice us in Q4 25?": a period with a
        # figure slot or word and no company is a figure whose company is missing, never a passage question
        return MetricShape("scope", tuple(figure), periods, words, scoped=False)
    if reading.amounts and (p.time_range is not None or p.ambiguous or periods):
        # "the deck says EUR 39,237.82 for X+Y in March 2026": an amount of a period is a figure to check, whatever
        # names the reader did not resolve (asked back by the figure's own reading)
        return MetricShape("scope", tuple(figure), periods, words)
    products = e.product_codes or tuple(m.text for m in reading.mentions.products)
    if products and (reading.cues.unit_price or reading.cues.quantity or names_price(reading.text)):
        return MetricShape("product", (f"the product(s) {', '.join(products)}", "a price or quantity word"),
                           periods, words)
    return None


#: Words that ask a figure of the buyer's own books (English: the foreign ones are read into it before the reading,
#: router/foreign_words.py): with a period and no company, the question is a figure whose company is missing.
FIGURE_WORDS = re.compile(r"\b(?:spend|spent|spending|expenditure|paid|pay|invoic(?:e|es|ed|ing)|bills?|billed|"
                          r"purchas(?:e|es|ed|ing)|bought|costs?|total|totals|sum|how\s+much|how\s+many|number\s+of|"
                          r"suppliers?|vendors?|mom|qoq|yoy|change|delta|growth|trend|average|avg|run[- ]rate)\b",
                          re.I)


def _figure_of_period(reading: Reading, figure: Sequence[str]) -> bool:
    """Whether a reading without a company asks a figure of a period: a period read (or period-like digits left
    unread) beside another figure slot (an amount, a breakdown, a ranking, a share, a comparison), a measure, or a
    figure word (:data:`FIGURE_WORDS`)."""
    period = reading.period.time_range is not None or reading.period.ambiguous or bool(unread_periods(reading))
    if not period:
        return False
    return len(figure) > 1 or reading.measure is not None or bool(FIGURE_WORDS.search(reading.cue_text))


def spend_compatible(reading: Reading) -> bool:
    """Whether the reading asks no figure but the spend could be its default: no other measure, no document
    type, price, count, approval or catalogue word read (those ask for another figure or a relationship)."""
    c = reading.cues
    return (reading.measure is None and reading.catalog_metric is None and not reading.identifiers.invoice_numbers
            and not reading.identifiers.product_codes
            # (the products cue also fires on a name's word, "Beta Supplies": the retry's own reading decides)
            and not (c.unit_price or c.quantity or c.invoices or c.invoice_count or c.price_comparison
                     or c.approved or c.approves or c.filtered_figure))


def named_unread(shape: MetricShape) -> str:
    """What of a metric-shaped question was not read, said ("" when every word was read)."""
    missing = [*(f"the period {t!r}" for t in shape.unread_periods),
               *(repr(w) for w in shape.unread_words if not any(w in t for t in shape.unread_periods))]
    return f"I did not understand {', '.join(missing)}." if missing else ""


def not_read_question(shape: MetricShape, scope: str) -> str:
    """The clarification of a metric-shaped question whose figure could not be planned: what was read, then
    what was not (the period's text, the words), then the figures that can be given."""
    said = f"{named_unread(shape)} " if named_unread(shape) else ""
    if shape.kind == "product":
        return (f"{said}I read {scope} with a price or quantity word, but not which figure: the catalogue list "
                "price, the average unit price paid (in which period?) or the units bought? Which one do you mean?")
    return (f"{said}I read {scope}, but not which figure you want. I can give spend (totals, breakdowns, rankings, "
            "shares, comparisons), invoice counts, invoices by amount, unit prices and units. Which one do you "
            "mean?")


__all__ = ["CLAIM_VERBS", "FIGURE_WORDS", "PRICE_WORDS", "MetricShape", "document_question", "metric_shape",
           "named_unread", "names_price", "not_read_question", "spend_compatible", "unquoted", "unread_periods"]
