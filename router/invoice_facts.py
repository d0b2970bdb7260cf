"""Invoice- and credit-note-level facts and tax-exclusive figures (the AP helpdesk's questions).

* A named document's amount: "the EUR gross total of INV-2026-0148", "net (excl. VAT) of INV-2026-0211",
  "combined VAT on INV-a and INV-b", "EUR value of credit note CN-2026-0501", "billed in CHF, give both", "the
  cancelled invoice INV-2025-0515". An invoice or credit-note number identifies the document: no company or period
  is needed (a company named narrows it). The amounts are the rows of ``finance.document_amounts`` (one per
  document: net, tax and gross in the reporting currency, gross and net in the document's own currency); a named
  cancelled or draft document is read with its status and said to be no spend.
* The invoice a credit note corrects: "which invoice does CN-2026-0009 refer to": the credit note's own record (its
  passage states "for original invoice INV-..."), found by the document search and cited; never another credit
  note's passage.
* Net (excl. VAT) spend and VAT over a period ("net spend excl. VAT with Gamma in Q1", "VAT per supplier"): the exact
  sum of the same governed rows over the period (posted and paid, credit notes negative), by supplier or company
  when asked. Gross = net + tax holds per line (a dbt test), so the three figures are one reading of the same rows.

Every figure shown is re-derived from the tool rows by :func:`derived_amounts` for the answer validator, so only
these sums pass it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from router.answer import AnswerStatus, _Draft, cite_lines, composer
from router.contract import PlanStep
from router.document_words import INVOICES, alternation
from router.figure_words import TAX_BASE
from router.reader import Reading

AMOUNTS_METRIC = "finance.document_amounts"
#: A period's net spend (tax excluded) and its VAT: governed sums, by supplier or company when asked.
NET_METRIC = "finance.net_spend"
TAX_METRIC = "finance.period_tax"
#: The same sums by month, quarter or year ("monthly net spend with Iris Office", "net spend by quarter").
PERIOD_METRIC = "finance.net_spend_by_period"
PERIOD_STEP = "by-period"
_PERIOD_GRAINS = frozenset({"month", "quarter", "year"})
#: Cancelled and draft documents are never spend: a named one's value is read from the governed status listing.
STATUS_METRIC = "finance.cancelled_draft_invoices"
#: Net spend and VAT of a product group: the ranking's per-group spend and net outputs (the net and tax sums take no
#: product-group filter); grouped by company (or the grouping asked), never cut: its limit is the metric's maximum.
RANK_METRIC = "finance.spend_ranking"
GROUP_STEP = "group-spend"
RANK_LIMIT = 100
#: A named document is looked up over its whole history (its number identifies it, not a period).
HISTORY = (dt.date(1990, 1, 1), dt.date(2101, 1, 1))
STATUS_DOCUMENTS = ("cancelled", "draft")
Basis = Literal["gross", "net", "tax"]
_CENT = Decimal("0.01")

#: Invoice and credit-note numbers as typed ("INV-2026-0148", "inv 2026-0148", "CN-2026-0009", "cn_2026_0009").
_NUMBER = re.compile(r"(?<![A-Za-z0-9])(INV|CN)[-_ ]?(\d{4})[-_ ](\d{3,6})(?![A-Za-z0-9])", re.I)
_TAX_WORD = r"(?:vat|taxe?s?|mwst\.?|ust\.?|umsatzsteuer|mehrwertsteuer|steuern?|gst|sales\s+tax)"
#: "excl. VAT", "net of tax", "before tax", "ohne MwSt", "zzgl." (the amount without the tax).
_EXCLUDING_TAX = re.compile(r"\b(?:excl(?:uding|usive\s+of|\.)?|ex\.?|without|before|w/o|net\s+of|pre|less|minus|"
                            r"ohne|exkl\.?|zzgl\.?|vor)\s*-?\s*(?:the\s+|of\s+)?" + _TAX_WORD + r"(?![\w])|"
                            r"\b" + _TAX_WORD + r"[- ]exclusive\b|\btax[- ]?exclusive\b", re.I)
_INCLUDING_TAX = re.compile(r"\b(?:incl(?:uding|usive\s+of|\.)?|with|plus|inkl\.?|mit|after)\s*(?:the\s+)?"
                            + _TAX_WORD + r"(?![\w])|\b" + _TAX_WORD + r"[- ]inclusive\b|\bgross\b|\bbrutto\b|"
                            # "VAT included", "MwSt. inklusive": the basis restated after the tax word
                            r"\b" + _TAX_WORD + r"\s+(?:included|incl\.?|inklusive|inkl\.?|enthalten)(?![\w])",
                            re.I)
#: A tax rate or share is asked, not the tax amount.
_TAX_RATE = re.compile(r"\b(?:rates?|satz|s[aä]tze|percent(?:age)?|prozent)\b|%", re.I)
_NET = re.compile(r"\bnet(?:to)?\b|\bnet(?:to)?(?:betrag|summe|wert)\b|\b(?:" + TAX_BASE + r")\b", re.I)
#: "net of credit note", "netted against the credit", "net of the CN": a deduction, not a tax basis.
_NET_OF_CREDIT = re.compile(r"\bnet(?:ted)?\s+(?:of|against|with)\s+(?:the\s+|its\s+|any\s+|all\s+)?"
                            r"(?:credit|gutschrift|cn\b|#DOC|refund|return|avoir|nota\s+de\s+cr[ée]dito)", re.I)
_TAX = re.compile(r"(?<![\w])" + _TAX_WORD + r"(?![\w])", re.I)
#: "which" before a noun, in the languages the writers mix in ("a qué factura", "à quelle facture", "welche
#: Rechnung", "a qual fatura", "bij welke factuur", "vilken faktura", "której faktury", "mihin laskuun").
WHICH = ("which", "what", "qué", "que", "cuál", "cual", "cuáles", "cuales", "qual", "quais", "quale", "quali",
         "quel", "quelle", "quels", "quelles", "welche", "welcher", "welchem", "welchen", "welches", "welk", "welke",
         "vilken", "vilket", "vilka", "hvilken", "hvilket", "hvilke", "który", "która", "które", "której",
         "którego", "którym", "jaki", "jaka", "jakie", "jakiej", "mikä", "mihin", "minkä", "mille", "hangi")
#: Invoice nouns of every language (the credit note's original is an invoice), singular and plural, in any case.
_INVOICE_NOUNS = ("invoices", "invoice", "rechnungen", "rechnung", "factures", "facture", "facturas", "factura",
                  *INVOICES, "laskuun", "laskulle", "faktury", "fakturze", "fatury")
#: "which invoice" in any of those languages: asked of a credit note, its original invoice.
_WHICH_INVOICE = (rf"(?<![\w-])(?:{alternation(WHICH)})\s+(?:[\w'’]+\s+)?(?:{alternation(_INVOICE_NOUNS)})"
                  r"(?![\w-])")
#: "refer to", "original invoice", "issued against", "which invoice(s) ... correct": the credit note's reference.
_ORIGIN = re.compile(_WHICH_INVOICE + r"|"
    r"\b(?:refer(?:s|red|ring)?\s+(?:back\s+)?to|relat(?:e|es|ed|ing)\s+to|orig(?:inal(?:ly)?)?\b|issued\s+(?:against|for|"
    r"on)|raised\s+(?:against|for|on)|against\s+which|correct(?:s|ed|ing|ion)?\b|reverse[sd]?\b|underlying|"
    r"(?:which|what)\s+(?:\w+\s+)?invoices?\b|invoice\s+(?:numbers?\s+)?(?:does|do|did|is|was|were)\s+(?:it|they|"
    r"this|that|these)|belongs?\s+to|linked\s+to|tied\s+to|for\s+which\s+invoice|originalrechnung|ursprüngliche\w*|"
    r"bezieht\s+sich|beziehen\s+sich|zu\s+welche[rnm]?\s+rechnung\w*|welche\w*\s+rechnung\w*|"
    # "the reference invoice(s)", "Bezug auf", "which Rechnungsnr." (German read half-way), "facture d'origine",
    # "factura de origen", "fattura di riferimento": the credit note's reference in other words and languages
    r"referenc(?:e[ds]?|ing)\b|referenz\w*|bezug\b|(?:which|what)\s+(?:\w+\s+)?rechnung\w*|origine\b|origen\b|"
    r"riferimento\b|originale\b|"
    # "pertenece a", "se refiere a", "si riferisce", "hoort bij", "dotyczy": the credit note's relation to its
    # invoice, in the writers' languages
    r"pertenec\w*|pertence\w*|se\s+refiere|refere-se|se\s+refere|"
    r"se\s+rapporte|si\s+riferisce|hoort\s+bij|h[öo]r\s+till|h[øo]rer\s+til|dotycz\w*|koskee)", re.I)
#: "corresponds to", "corresponde a", "facture initiale", "factura inicial": the original invoice only when an
#: invoice noun is beside them ("which company does CN-... correspond to" asks a company, not the invoice)
_LOOSE_ORIGIN = re.compile(r"\b(?:correspond(?:s|e|en|ing)?|corrisponde\w*|initial\w*|inicial\w*|iniziale)\b",
                           re.I)
_INVOICE_NOUN = re.compile(rf"(?<![\w-])(?:{alternation(_INVOICE_NOUNS)})(?![\w-])", re.I)
#: "which company / supplier / date / when / who": another fact asked of the credit note, never its origin
_OTHER_FACT = re.compile(r"\b(?:(?:which|what)\s+(?:\w+\s+)?(?:company|companies|supplier|suppliers|vendor|vendors|"
                         r"entity|date|day|month)|when|who|whom)\b", re.I)
#: Amount words: a question with them about a credit note asks its value, not its reference.
_AMOUNT_WORDS = re.compile(r"\b(?:amounts?|value|total|worth|how\s+much|sum|add\s+up|betrag|wert|summe|eur|euros?|"
                           # German compounds: "Bruttobetrag", "Rechnungsbetrag", "Nettosumme", "Gesamtwert"
                           r"\w+betrag|\w+summe|\w+wert|brutto\w+|netto\w+|mwst\w*|"
                           r"usd|gbp|chf|net|netto|gross|brutto|vat|tax|mwst|ust|invoiced\s+for|billed\s+for|"
                           r"come\s+to|came\s+to|cost)\b|€|\$|£", re.I)
#: "how much was credited", "the credit amt", "credited amount": the credit note's value asked beside its reference.
_CREDITED = re.compile(r"\b(?:credited|credit\s+(?:amt|amount|value|sum)|amt|gutgeschrieben|how\s+much|"
                       # "and what was the credit?", "what's its credit": the credit note's value
                       r"(?:what|how\s+much)(?:\s+(?:was|is|were)|['’]s)\s+(?:the\s+|its\s+)?"
                       r"credit(?![- ]?notes?\b))\b",
                       re.I)
_ORIGINAL = re.compile(r"for original invoice\s+(INV[-_ ]?\d{4}[-_ ]\d{3,6})", re.I)
#: "the total tax (amount) across invoices ...": the phrasing finance.tax_total's own workflow answers.
_TAX_ACROSS = re.compile(r"\btotal\s+tax\b|\btax\b[^?.;]*\bacross\b", re.I)
_FIGURE_WORDS = re.compile(r"(?:purchases?|purchased|purchasing|buys?|bought|paid|pay|charged|charges?|spend|spent|"
                           r"spending|costs?|invoiced|billed|booked)", re.I)


def document_numbers(text: str) -> tuple[str, ...]:
    """The invoice and credit-note numbers ``text`` names, canonical and in order.

    >>> document_numbers("VAT on inv 2026-0125 and INV-2026-0127? And cn_2026_0009.")
    ('INV-2026-0125', 'INV-2026-0127', 'CN-2026-0009')
    """
    return tuple(dict.fromkeys(f"{m.group(1).upper()}-{m.group(2)}-{m.group(3)}" for m in _NUMBER.finditer(text)))


def _number_spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for m in _NUMBER.finditer(text))


def amount_basis(text: str) -> Basis:
    """Which amount a question asks: net (excluding tax), the tax alone, or the gross total (the default).

    >>> [amount_basis(t) for t in ("Net amount (excl. VAT) of INV-1?", "Total incl. VAT?", "Combined VAT on X?",
    ...                            "EUR gross total", "MwSt auf Rechnung X", "Betrag ohne MwSt", "amount of INV-1")]
    ['net', 'gross', 'tax', 'gross', 'tax', 'net', 'gross']
    """
    # "INV-1 net of credit note CN-1": the credit deducted, no tax basis (the remaining amount is gross)
    text = _NET_OF_CREDIT.sub(" ", text)
    if _EXCLUDING_TAX.search(text):
        return "net"
    if _INCLUDING_TAX.search(text):
        return "gross"
    if _NET.search(text):
        return "net"
    return "tax" if _TAX.search(text) else "gross"


@dataclass(frozen=True)
class DocumentRequest:
    """A question about named documents: their numbers, what is asked (an amount on a basis, or the invoices the
    credit notes correct) and the spans of the numbers. ``conflict``: the number is not the whole question (it is
    excluded from a figure, or a period or another figure is asked beside it); the reason is said back, never
    answered with the document's amount alone."""

    numbers: tuple[str, ...]
    kind: Literal["amount", "origin", "conflict"]
    basis: Basis
    spans: tuple[tuple[int, int], ...]
    reason: str = ""
    #: "cn ... -> which invoice, and how much was credited": the original invoice beside the amount
    with_origin: bool = False


#: "without INV-...", "excluding invoice INV-...", "other than credit note CN-...", "ohne Rechnung INV-...": the
#: document is left out of a figure (a figure the document lookup cannot give).
_EXCLUDED_BEFORE = re.compile(
    r"(?:\bwithout|\bexcl(?:uding|\.)?|\bexcept(?:\s+for)?|\bother\s+than|\bapart\s+from|\bbut\s+not|\bnot\s+"
    r"counting|\bleaving\s+out|\bminus|\bless|\bohne|\baußer|\bausgenommen|\bexkl\.?)\s+(?:the\s+)?(?:invoices?\s+|"
    r"credit[- ]?notes?\s+|documents?\s+|rechnung(?:en)?\s+|gutschrift(?:en)?\s+|nos?\.?\s+|numbers?\s+)?"
    r"(?:#DOC\s*(?:,|and|or|&|und)\s*)*$", re.I)
#: "is INV-... in it", "was CN-... included", "does that include INV-...": a membership check beside a figure.
_MEMBERSHIP = re.compile(r"\b(?:is|was|are|were)\s+(?:the\s+)?(?:invoice\s+|credit[- ]?note\s+)?#DOC\b[^?.;]*?"
                         r"\b(?:in\s+(?:it|that|this|there|the\s+\w+)|included|part\s+of|counted)\b|"
                         r"\b(?:include|contain)s?\s+(?:the\s+)?(?:invoice\s+|credit[- ]?note\s+)?#DOC\b", re.I)


def _conflict(reading: Reading, spans: Sequence[tuple[int, int]], figure: bool = True) -> str:
    """Why the named documents are not the whole question ("" when they are). Without ``figure`` (no amount
    asked: the document itself is looked up) only an exclusion or a membership check is one."""
    text = reading.text
    marked = text
    for start, end in sorted(spans, reverse=True):
        marked = marked[:start] + "#DOC" + marked[end:]
    for m in re.finditer("#DOC", marked):
        if _EXCLUDED_BEFORE.search(marked[:m.start()]):
            return "a document is left out of a figure ('without' / 'excluding' a number)"
    if _MEMBERSHIP.search(marked):
        return "whether a document is part of a figure is asked"
    if not figure:
        return ""
    p = reading.period
    described = (p.time_range is not None and not p.ambiguous and not p.point_in_time
                 and p.time_range.end - p.time_range.start == dt.timedelta(days=1))
    # "INV-1 + INV-2 (both Gamma, 02.02.2026)": one day beside the documents is their date, checked in the answer
    if (p.time_range is not None or p.ambiguous) and not described:
        return f"a period ('{p.time_range.source_text if p.time_range else p.reason}') is named beside the document"
    b, a = reading.breakdown, reading.analysis
    if b.group_by or b.grain or a.ranking is not None or a.share or a.comparison is not None or reading.amounts:
        return "another figure (a breakdown, ranking, share, comparison or amount) is asked beside the document"
    return ""


def document_request(reading: Reading) -> DocumentRequest | None:
    """The named-document question ``reading`` asks, or ``None`` (no invoice or credit-note number named)."""
    text = reading.text
    numbers = document_numbers(text)
    if not numbers:
        return None
    spans = _number_spans(text)
    masked = _NUMBER.sub(" ", text)
    credit_notes_only = all(n.startswith("CN-") for n in numbers)
    # "which invoice does CN-... refer to": the reference, unless an amount is what is asked ("the EUR value of
    # the credit note for invoice ...")
    origin = credit_notes_only and (_ORIGIN.search(masked) is not None or (
        _LOOSE_ORIGIN.search(masked) is not None and _INVOICE_NOUN.search(masked) is not None
        and not _OTHER_FACT.search(masked)))
    if origin and not _AMOUNT_WORDS.search(_ORIGIN.sub(" ", masked)) and not _CREDITED.search(masked):
        return DocumentRequest(numbers=numbers, kind="origin", basis="gross", spans=spans)
    figure = bool(_AMOUNT_WORDS.search(masked))
    basis = amount_basis(masked)
    # "spend in Q1 without INV-...", "total with Gamma in Q1, and is INV-... in it?": never the document alone
    reason = _conflict(reading, spans, figure)
    if reason:
        return DocumentRequest(numbers=numbers, kind="conflict", basis=basis, spans=spans, reason=reason)
    figure = figure or (origin and _CREDITED.search(masked) is not None)
    if not figure:
        return None  # "pull up INV-...", "status of INV-...", "do we have INV-... on file": the document itself
    if basis == "tax" and reading.measure == "tax_total" and not credit_notes_only and _TAX_ACROSS.search(masked):
        return None  # "the total tax across invoices ...": finance.tax_total itself (its own workflow)
    # "which invoice does it correct, and for how much": both asks are answered, neither dropped
    return DocumentRequest(numbers=numbers, kind="amount", basis=basis, spans=spans, with_origin=origin)


@dataclass(frozen=True)
class BasisRequest:
    """Net (excl. VAT) spend or the VAT over a period, optionally by supplier or company and by month, quarter or
    year (``grain``)."""

    basis: Basis
    group_by: tuple[str, ...]
    grain: str | None = None


_GROUPS = frozenset({"supplier_id", "company_id"})
#: Product dimensions: the ranking's per-group spend and net outputs (net_spend and period_tax take no product
#: grouping), every group listed (the metric's maximum) and none cut silently.
_PRODUCT_GROUPS = frozenset({"product_group_id", "top_product_group_id", "product_code"})


def basis_request(reading: Reading) -> BasisRequest | None:
    """A tax-exclusive spend or VAT question over a period the governed rows answer exactly, or ``None`` (every
    other question keeps its own path, which names what it cannot take)."""
    if document_numbers(reading.text):
        return None
    masked = reading.cue_text
    basis = amount_basis(masked)
    # "total spend excluding VAT" asks the tax-exclusive figure without the word "net"
    without_tax = _EXCLUDING_TAX.search(masked) is not None
    # "VAT for Company A in Q1 2026", "VAT per supplier for Company A?": the tax word with a period or a company
    # names the VAT figure (never its rate); a missing period is then asked for by its name
    period_tax = (basis == "tax" and _TAX_RATE.search(masked) is None
                  and (reading.period.time_range is not None or reading.entities.company_id is not None))
    if basis == "gross" or not (reading.cues.net_basis or without_tax or reading.measure == "tax_total" or
                                (basis == "tax" and reading.cues.spend) or period_tax):
        return None
    if basis == "net" and not (reading.cues.net_basis or without_tax):
        return None  # "net spend after credit notes" is governed spend itself
    b = reading.breakdown
    a = reading.analysis
    if (reading.period.point_in_time
            or reading.entities.product_codes or reading.excluded_supplier_ids
            or reading.excluded_group_ids or reading.excluded_product_codes or reading.excluded_company_ids
            or reading.asked_statuses or reading.excluded_status or b.unknown
            or (b.grain and b.grain not in _PERIOD_GRAINS)
            or not set(b.group_by) <= _GROUPS | _PRODUCT_GROUPS or len(b.group_by) > 1 or reading.amounts
            or (set(b.group_by) & _PRODUCT_GROUPS and (b.grain or reading.entities.product_group_id))
            or len(set(reading.currencies)) > 1
            or a.ranking is not None or a.share or a.comparison is not None):
        return None
    return BasisRequest(basis=basis, group_by=tuple(b.group_by), grain=b.grain)


# -- routing -------------------------------------------------------------------------------------------------------
def _reporting_currency(inputs: Any, company_id: str | None) -> str | None:
    """The reporting currency of the company (or of every company of the tenant, when they share one)."""
    found = {c.reporting_currency for c in inputs.gazetteer.companies if company_id in (None, c.company_id)}
    return found.pop() if len(found) == 1 else None


def _lookup_intents() -> Any:
    """A named document is an exact lookup and its amount an aggregate of its lines."""
    from router.contract import IntentScore
    from router.extensions import _aggregate

    exact = IntentScore(type="exact_lookup", confidence=_aggregate()[0].confidence, source="rule")
    return (exact, *_aggregate())


def _origin_steps(numbers: Sequence[str]) -> tuple[PlanStep, ...]:
    """The search of each credit note's own record, which states its original invoice."""
    return tuple(
        PlanStep(step_id=f"credit-note-{i}", tool="documents.search",
                 arguments={"query_text": f"Credit note {n} for original invoice",
                            "identifiers": {"product_codes": [], "invoice_numbers": [], "contract_ids": []},
                            "retrieval_modes": ["bm25"], "filters": {"document_types": ["credit_note"]},
                            "limit": 5},
                 purpose=f"The record of credit note {n} (its original invoice number).")
        for i, n in enumerate(numbers, start=1))


def route_documents(text: str, reading: Reading, inputs: Any, req: DocumentRequest) -> Any:
    """The plan of a named-document question: the governed rows of the documents, or the credit notes' records."""
    from router.extensions import _result

    e = reading.entities
    if req.kind == "conflict":
        # the document's own amount would answer another question than the one asked: say what and ask
        named = ", ".join(req.numbers)
        question = (f"The question names {named} and more than the document: {req.reason}. I can give the amount of "
                    f"{named} (net, VAT and gross, over its whole history), or the governed figure over a period "
                    f"(e.g. net spend excl. VAT for a company in 2026-Q1), but I cannot leave a single document out "
                    "of a figure or check it against one in one answer. Which do you want?")
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=[f"documents: {named}: {req.reason}"], questions=[question],
                       intents=_lookup_intents(), rule="invoice_facts:conflict:clarification")
    if req.kind == "origin":
        steps = _origin_steps(req.numbers)
        read_as = "credit notes " + ", ".join(req.numbers)
        routed = _result(text, reading, inputs, workflow="credit_note_origin", entities=e, steps=steps,
                         intents=_lookup_intents(), read_as=read_as, rule="invoice_facts:origin")
        # the number identifies the credit note: a date around it ("ref MTG-668 of 12/05") never dates its record
        # (the search would quote the version in force that day, before the credit note was issued)
        return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": None})})
    currency = _reporting_currency(inputs, e.company_id)
    if currency is None:
        # companies reporting in different currencies: the governed rows are per reporting currency, so a document
        # looked up in one would be "not found" in the other (a false not-found); the company settles it
        names = ", ".join(f"{c.company_name} ({c.company_id}, {c.reporting_currency})"
                          for c in inputs.gazetteer.companies)
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=["company: the companies report in different currencies and no company is named"],
                       questions=[f"Which company's document is {', '.join(req.numbers)}? The companies report in "
                                  f"different currencies: {names}."],
                       intents=_lookup_intents(), rule="invoice_facts:currency:clarification")
    params: dict[str, Any] = {"invoice_numbers": list(req.numbers), "start_date": HISTORY[0].isoformat(),
                              "end_date": HISTORY[1].isoformat(), "reporting_currency": currency}
    status_params: dict[str, Any] = {"start_date": HISTORY[0].isoformat(), "end_date": HISTORY[1].isoformat(),
                                     "invoice_statuses": list(STATUS_DOCUMENTS), "reporting_currency": currency}
    if e.company_id:
        params["company_id"] = status_params["company_id"] = e.company_id
    if e.supplier_ids:
        params["supplier_ids"] = status_params["supplier_ids"] = list(e.supplier_ids)
    steps = (PlanStep(step_id="document-amounts", tool="metrics.query",
                      arguments={"metric": AMOUNTS_METRIC, "parameters": params, "group_by": [], "grain": None},
                      purpose=f"The {req.basis} amount of {', '.join(req.numbers)} ({AMOUNTS_METRIC})."),
             # a number not among the counted documents may be a cancelled or draft one: its value, never spend
             PlanStep(step_id="status-documents", tool="metrics.query",
                      arguments={"metric": STATUS_METRIC, "parameters": status_params,
                                 "group_by": ["invoice_number", "invoice_status"], "grain": None},
                      purpose=f"Cancelled or draft documents among {', '.join(req.numbers)} ({STATUS_METRIC})."))
    if req.with_origin:
        steps = (*steps, *_origin_steps(req.numbers))
    read_as = ", ".join(req.numbers) + (f", {e.company_name or e.company_id} ({e.company_id})" if e.company_id else "")
    entities = e.model_copy(update={"invoice_numbers": tuple(n for n in req.numbers if n.startswith("INV-"))})
    routed = _result(text, reading, inputs, workflow="document_amounts", entities=entities, steps=steps,
                     intents=_lookup_intents(), read_as=read_as, rule=f"invoice_facts:{req.basis}",
                     currency=currency)
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": None})})


def route_basis(text: str, reading: Reading, inputs: Any, req: BasisRequest) -> Any:
    """The plan of a net-spend or VAT question over a period: the governed rows of the period's documents."""
    from router.company_set import every_restated, tenant_wide
    from router.extensions import _aggregate, _result, _scope_problems
    from router.reader import interpretation

    everyone = tenant_wide(reading, inputs.gazetteer)
    # "VAT on purchases", "VAT we paid": the words of the figure asked, read here, never an unknown name
    reading = dataclasses.replace(reading, not_understood=tuple(
        u for u in reading.not_understood if not _FIGURE_WORDS.fullmatch(u.text.strip())))
    # the company (one, or all of the tenant's together), the period and every word read, or a clarification
    reasons, questions, e, currency = _scope_problems(reading, inputs, needs_period=True, every_company=everyone)
    tr = reading.period.time_range
    if reasons or tr is None or reading.period.ambiguous:
        return _result(text, reading, inputs, workflow="clarification", entities=e, reasons=reasons,
                       questions=questions, intents=_aggregate(), rule="invoice_facts:period:clarification")
    a = reading.analysis
    reporting = {c.reporting_currency for c in inputs.gazetteer.companies
                 if e.company_id is None or c.company_id == e.company_id}
    # "VAT on USD invoices", "net spend on non-EUR invoices", "in invoice currency": the rows carry no currency
    # filter, so the filter is named and asked about, never dropped
    by_currency = ([f"invoices issued in {a.document_currency}"] if a.document_currency else []) + (
        [f"invoices issued in {', '.join(a.document_currencies)}"] if a.document_currencies else []) + (
        [f"invoices not issued in {a.excluded_currency or 'the reporting currency'}"]
        if a.excluded_currency is not None else []) + (
        ["amounts in the invoices' own currency"] if a.original_currency and not a.document_currency else [])
    if by_currency:
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=[f"currency filter: {f} cannot be applied to net spend or VAT" for f in by_currency],
                       questions=[f"Net spend and VAT over a period are given over all documents in the reporting "
                                  f"currency; the filter '{'; '.join(by_currency)}' cannot be applied to them. Shall I "
                                  "give the figure over all documents, or the spend by invoice currency?"],
                       intents=_aggregate(), rule="invoice_facts:period:currency:clarification")
    if reading.currencies and set(reading.currencies) != reporting:
        return None  # "net spend in USD": no conversion is governed; the general path names it
    if currency is None and len(reporting) != 1:
        # every company, reporting in different currencies: no one total exists (the rows are per currency)
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=["company: the companies report in different currencies"],
                       questions=["The companies report in different currencies (" + ", ".join(
                           f"{c.company_name}: {c.reporting_currency}" for c in inputs.gazetteer.companies)
                           + "); which company do you mean?"],
                       intents=_aggregate(), rule="invoice_facts:period:currency:clarification")
    currency = currency or next(iter(reporting))
    params: dict[str, Any] = {"start_date": tr.start.isoformat(), "end_date": tr.end.isoformat(),
                              "reporting_currency": currency, "invoice_statuses": list(reading.statuses)}
    if a.document_types:
        params["document_types"] = list(a.document_types)  # "invoices only", "on credit notes"
    if e.company_id:
        params["company_id"] = e.company_id
    if e.supplier_ids:
        params["supplier_ids"] = list(e.supplier_ids)
    read_as = interpretation(e, tr.start, tr.end)
    if everyone:
        read_as = f"{every_restated(inputs.gazetteer)}, {read_as}" if read_as else every_restated(inputs.gazetteer)
    # two governed sums over the period (never a listing of its documents, which a row cap would cut): the net
    # spend and the VAT, grouped as asked; their sum is the governed spend line by line
    steps: tuple[PlanStep, ...] = (
        PlanStep(step_id="net-spend", tool="metrics.query",
                 arguments={"metric": NET_METRIC, "parameters": params, "group_by": [], "grain": None},
                 purpose=f"Net spend excluding VAT over the period ({NET_METRIC})."),
        PlanStep(step_id="period-tax", tool="metrics.query",
                 arguments={"metric": TAX_METRIC, "parameters": params, "group_by": [], "grain": None},
                 purpose=f"VAT over the period ({TAX_METRIC})."))
    if req.group_by:
        # the breakdown of the figure asked, beside the totals (a total is never a sum of rounded parts)
        metric = TAX_METRIC if req.basis == "tax" else NET_METRIC
        by_params = params
        if req.group_by[0] in _PRODUCT_GROUPS:
            # "net spend by product group": the ranking's spend and net per group, every group (VAT = spend - net)
            metric = RANK_METRIC
            by_params = dict(params, order_by="net_spend", direction="top", limit=RANK_LIMIT)
        steps = (*steps, PlanStep(step_id="by-group", tool="metrics.query",
                                  arguments={"metric": metric, "parameters": by_params,
                                             "group_by": list(req.group_by), "grain": None},
                                  purpose=f"The {req.basis} figure by {req.group_by[0]} ({metric})."))
    if req.grain:
        # the figure by month, quarter or year beside the totals (grouped as asked as well)
        steps = (*steps, PlanStep(step_id=PERIOD_STEP, tool="metrics.query",
                                  arguments={"metric": PERIOD_METRIC, "parameters": params,
                                             "group_by": list(req.group_by), "grain": req.grain},
                                  purpose=f"The {req.basis} figure by {req.grain} ({PERIOD_METRIC})."))
    if e.product_group_id:
        # a product group (with its subgroups): net_spend and period_tax take no group filter, so the figure is read
        # from finance.spend_ranking's per-group spend and net outputs over the group's leaves, grouped as asked
        # (by company when no grouping is asked: one row per company); VAT = spend - net exactly, line by line
        ranked = dict(params, product_group_ids=list(inputs.gazetteer.subgroups(e.product_group_id)),
                      order_by="net_spend", direction="top", limit=RANK_LIMIT)
        ranked.pop("invoice_statuses", None)
        ranked["invoice_statuses"] = list(reading.statuses)
        steps = (PlanStep(step_id=GROUP_STEP, tool="metrics.query",
                          arguments={"metric": RANK_METRIC, "parameters": ranked, "group_by": ["company_id"],
                                     "grain": None},
                          purpose=f"Spend and net spend of {e.product_group_id} and its subgroups ({RANK_METRIC})."),)
        if req.group_by:
            # the rows asked beside the total (a total is never a sum of rounded parts)
            steps = (*steps, PlanStep(step_id="by-group", tool="metrics.query",
                                      arguments={"metric": RANK_METRIC, "parameters": ranked,
                                                 "group_by": list(req.group_by), "grain": None},
                                      purpose=f"The {req.basis} figure by {req.group_by[0]} ({RANK_METRIC})."))
        if req.grain:
            # the group's figure by month, quarter or year: the same sums over the group's product groups
            by_period = dict(params, product_group_ids=list(inputs.gazetteer.subgroups(e.product_group_id)))
            steps = (*steps, PlanStep(step_id=PERIOD_STEP, tool="metrics.query",
                                      arguments={"metric": PERIOD_METRIC, "parameters": by_period,
                                                 "group_by": list(req.group_by), "grain": req.grain},
                                      purpose=f"The {req.basis} figure by {req.grain} ({PERIOD_METRIC})."))
    by = "|".join(req.group_by)
    return _result(text, reading, inputs, workflow="document_amounts", entities=e, steps=steps,
                   intents=_aggregate(), read_as=read_as, rule=f"invoice_facts:period:{req.basis}:{by}",
                   statuses=tuple(reading.statuses), currency=currency)


# -- composing -----------------------------------------------------------------------------------------------------
def _cents(value: Decimal) -> str:
    return str(value.quantize(_CENT, rounding=ROUND_HALF_UP))


def _other_side(basis: str, net: Decimal, tax: Decimal, cur: str) -> str:
    """What a net, VAT or gross figure is said beside: the part of the spend that was not asked."""
    return (f"VAT {_cents(tax)} {cur}" if basis == "net" else f"net spend excluding VAT {_cents(net)} {cur}"
            if basis == "tax" else f"net {_cents(net)} {cur}, VAT {_cents(tax)} {cur}")


def _dec(value: object) -> Decimal:
    return Decimal(str(value)) if value is not None else Decimal(0)


_FIELD = {"gross": "gross_amount", "net": "net_amount", "tax": "tax_amount"}
_LABEL = {"gross": "gross total (net + VAT)", "net": "net amount (excluding VAT)", "tax": "VAT"}


def _document_amount(row: Mapping[str, Any], basis: Basis) -> Decimal:
    gross, net = _dec(row.get("document_gross_amount")), _dec(row.get("document_net_amount"))
    return {"gross": gross, "net": net, "tax": gross - net}[basis]


def _basis_of(rule_hits: Sequence[str]) -> tuple[Basis, bool, tuple[str, ...]]:
    """(basis, over a period, group-by) recorded by the router in the rule hit."""
    for hit in rule_hits:
        if hit.startswith("invoice_facts:period:"):
            _, _, basis, by = hit.split(":", 3)
            return basis, True, tuple(g for g in by.split("|") if g)  # type: ignore[return-value]
        if hit.startswith("invoice_facts:"):
            basis = hit.split(":", 1)[1]
            if basis in _FIELD:
                return basis, False, ()  # type: ignore[return-value]
    return "gross", False, ()


def _metric_of(d: _Draft, step: str = "document-amounts") -> Any:
    from router.tools import MetricToolResponse

    o = d.run.outcomes.get(step)
    return o.output if o is not None and o.status == "ok" and isinstance(o.output, MetricToolResponse) else None


def rederived_metrics(rule_hits: Sequence[str]) -> frozenset[str]:
    """The metrics whose amounts the answer validator takes from :func:`derived_amounts` (shown rounded or
    summed), not one by one: the document listing always, the status listing under this module's routing."""
    if any(h.startswith("invoice_facts:period:") for h in rule_hits):
        return frozenset({AMOUNTS_METRIC, STATUS_METRIC, RANK_METRIC})
    if any(h.startswith("invoice_facts:") for h in rule_hits):
        return frozenset({AMOUNTS_METRIC, STATUS_METRIC})
    # elsewhere derived_amounts re-derives nothing, so the listing's amounts are checked one by one like any other
    return frozenset()


def _rows(m: Any) -> list[dict[str, Any]]:
    return list(m.rows) or ([dict(m.values)] if m.values.get("invoice_number") else [])


def derived_amounts(rule_hits: Sequence[str], metrics: Iterable[Any]) -> set[tuple[str, str]]:
    """The amounts (value, currency) the document composer may show, re-derived from the tool rows: each row's
    amounts and document-currency amounts rounded, and the sums over all rows and per group."""
    if not any(h.startswith("invoice_facts:") for h in rule_hits):
        return set()
    out: set[tuple[str, str]] = set()
    for m in metrics:
        if getattr(m, "metric", None) == RANK_METRIC and m.currency:
            out |= {(_cents(v), m.currency) for v in _group_figures(m)}
            continue
        if getattr(m, "metric", None) == STATUS_METRIC and m.currency:
            out |= {(_cents(_dec(r.get("total_amount"))), m.currency) for r in _rows(m)}
            continue
        if getattr(m, "metric", None) != AMOUNTS_METRIC or not m.currency:
            continue
        rows = _rows(m)
        for basis in ("gross", "net", "tax"):
            field = _FIELD[basis]
            out.add((_cents(sum((_dec(r.get(field)) for r in rows), Decimal(0))), m.currency))
            for key in ("supplier_id", "company_id"):
                groups: dict[str, Decimal] = {}
                for r in rows:
                    groups[str(r.get(key))] = groups.get(str(r.get(key)), Decimal(0)) + _dec(r.get(field))
                out |= {(_cents(v), m.currency) for v in groups.values()}
            for r in rows:
                out.add((_cents(_dec(r.get(field))), m.currency))
                out.add((_cents(_document_amount(r, basis)), str(r.get("currency"))))
            currencies = {str(r.get("currency")) for r in rows}
            if len(currencies) == 1:
                out.add((_cents(sum((_document_amount(r, basis) for r in rows), Decimal(0))), currencies.pop()))
    return out


@composer("document_amounts")
def _compose_amounts(d: _Draft) -> None:
    """``document_amounts``: a named document's amount, or a period's net spend or VAT."""
    basis, period, group_by = _basis_of(d.routing.rule_hits)
    if period and any(s.step_id == GROUP_STEP for s in d.routing.execution_plan):
        _compose_group(d, basis, group_by)
        return
    m = _metric_of(d, "net-spend" if period else "document-amounts")
    if m is None or (period and _metric_of(d, "period-tax") is None):
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The documents' amounts could not be read; no answer is given." + d.failure_text
        return
    if period:
        _compose_period(d, m, _metric_of(d, "period-tax"), basis, group_by)
        return
    _compose_named(d, m, basis)
    cite_lines(d, m.source_line_ids, f"invoice line of {AMOUNTS_METRIC}")
    d.inputs = {"metric": m.metric, "parameters": m.parameters}
    if any(s.tool == "documents.search" for s in d.routing.execution_plan):
        _add_origin(d)  # "which invoice, and how much was credited": the reference beside the amount


def _origins(d: _Draft) -> tuple[dict[str, tuple[str, Any]], list[str]]:
    """Each searched credit note's original invoice with the record chunk stating it, and those not found."""
    from router.tools import DocumentSearchResponse

    steps = [s for s in d.routing.execution_plan if s.tool == "documents.search" and s.step_id.startswith("credit-")]
    found: dict[str, tuple[str, Any]] = {}
    for s in steps:
        n = str(s.arguments["query_text"]).split()[2]
        o = d.run.outcomes.get(s.step_id)
        if o is None or o.status != "ok" or not isinstance(o.output, DocumentSearchResponse):
            continue
        head = re.compile(rf"^\s*Credit note {re.escape(n)} \(", re.I)
        for chunk in o.output.chunks:
            if chunk.flagged_injection or not head.match(chunk.text):
                continue
            origin = _ORIGINAL.search(chunk.text.split("\n", 1)[0])
            if origin is not None:
                found[n] = (document_numbers(origin.group(1))[0], chunk)
                break
    numbers = [str(s.arguments["query_text"]).split()[2] for s in steps]
    return found, [n for n in numbers if n not in found]


def _add_origin(d: _Draft) -> None:
    """The original invoice of each credit note, added to its amount (a reference not found is said)."""
    found, missing = _origins(d)
    parts = [f"Credit note {n} refers to the original invoice {inv} (stated in its record, {c.document_id})."
             for n, (inv, c) in found.items()]
    if missing:
        parts.append(f"No record of credit note {', '.join(missing)} states an original invoice in your documents; "
                     "its original invoice is not answered.")
        if d.status == "answered":
            d.status = "partial"
            d.result = {**d.result, "status": "partial"}
    d.text = " ".join([d.text.strip(), *parts]).strip()
    d.result = {**d.result, "original_invoice_numbers": list(dict.fromkeys(inv for inv, _ in found.values())),
                "credit_notes": {n: inv for n, (inv, _) in found.items()}}
    from router.answer import Citation

    d.citations = [*d.citations, *(Citation(source_id=c.chunk_id, kind="chunk", document_id=c.document_id,
                                            page=c.page, role=f"record of credit note {n}")
                                   for n, (_, c) in found.items())]
    d.sources = tuple(dict.fromkeys([*d.sources, *(c.chunk_id for _, c in found.values())]))


def _compose_named(d: _Draft, m: Any, basis: Basis) -> None:
    cur = str(m.currency or "")
    rows = _rows(m)
    requested = list(m.parameters.get("invoice_numbers") or ())
    by_number: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        by_number.setdefault(str(r.get("invoice_number")), []).append(r)
    missing = [n for n in requested if n not in by_number]
    field = _FIELD[basis]
    parts: list[str] = []
    for n in requested:
        for r in by_number.get(n, []):
            kind = "credit note" if r.get("document_type") == "credit_note" else "invoice"
            value = _cents(_dec(r.get(field)))
            own = str(r.get("currency") or "")
            in_own = f" ({_cents(_document_amount(r, basis))} {own} as invoiced)" if own and own != cur else ""
            doc_status = str(r.get("invoice_status"))
            others = ", ".join(f"{_LABEL[b].split(' (')[0]} {_cents(_dec(r.get(_FIELD[b])))} {cur}"
                               for b in ("net", "tax", "gross") if b != basis)
            sentence = (f"The {_LABEL[basis]} of {kind} {n} ({r.get('company_id')}, {r.get('supplier_id')}, dated "
                        f"{r.get('invoice_date')}, {doc_status}, issued in {own}) is {value} {cur}{in_own}; {others}, "
                        f"over {r.get('line_count')} invoice lines")
            if kind == "credit note":
                sentence += " (a credit note counts negative)"
            parts.append(sentence + ".")
    status_listing = _metric_of(d, "status-documents")
    settled: list[str] = []
    for r in _rows(status_listing) if status_listing is not None else ():
        n = str(r.get("invoice_number"))
        if n not in missing:
            continue
        doc_status = str(r.get("invoice_status"))
        value = _cents(_dec(r.get("total_amount")))
        only = ("" if basis == "gross" else f" (its {_LABEL[basis].split(' (')[0]} alone is not served for "
                f"{doc_status} documents)")
        parts.append(f"{n} is a {doc_status} document: its value was {value} {status_listing.currency} (net + VAT, "
                     f"converted at the corporate rate on its posting date){only}. It is not spend: governed spend "
                     "figures exclude it (they count posted and paid invoices only).")
        settled.append(n)
        # (the listing's provenance is per listing: the lines of this document are the ones its id prefixes)
        prefix = ("credit-note-" if n.startswith("CN-") else "invoice-") + n.split("-", 1)[1].lower() + "-line-"
        cite_lines(d, [i for i in status_listing.source_line_ids if i.startswith(prefix)],
                   f"line of the {doc_status} document {n} (not spend)")
    missing = [n for n in missing if n not in settled]
    parts.extend(_described_day_note(d, by_number))
    ambiguous = [n for n, rs in by_number.items() if len(rs) > 1]
    text = " ".join(parts)
    status: AnswerStatus = "answered"
    result: dict[str, Any] = {"status": "complete", "basis": basis, "currency": cur,
                              "documents": [{k: r.get(k) for k in ("invoice_number", "document_type", "company_id",
                                                                   "supplier_id", "invoice_date", "invoice_status",
                                                                   "currency")}
                                            | {"amount": _cents(_dec(r.get(field))),
                                               "document_amount": _cents(_document_amount(r, basis))}
                                            for r in rows]}
    if len(rows) > 1 and not ambiguous:
        total = _cents(sum((_dec(r.get(field)) for r in rows), Decimal(0)))
        owns = {str(r.get("currency")) for r in rows}
        in_own = ""
        if len(owns) == 1 and owns != {cur}:
            code = owns.pop()
            in_own = f" ({_cents(sum((_document_amount(r, basis) for r in rows), Decimal(0)))} {code} as invoiced)"
        text = (f"The combined {_LABEL[basis]} of {', '.join(n for n in requested if n in by_number)} is {total} "
                f"{cur}{in_own}, over {sum(int(r.get('line_count') or 0) for r in rows)} invoice lines. " + text)
        result["total"] = total
    elif len(rows) == 1:
        result["total"] = _cents(_dec(rows[0].get(field)))
    if ambiguous:
        # one number, several documents: of different companies, or of different suppliers of one company
        rs = [r for n in ambiguous for r in by_number[n]]
        companies = len({str(r.get("company_id")) for r in rs}) > 1
        whose = "different companies" if companies else "different suppliers"
        narrow = "the company" if companies else "the supplier"
        text += (f" {', '.join(ambiguous)} names more than one document ({whose}); no combined figure is given. "
                 f"Name {narrow} to narrow it.")
        status, result["status"] = "partial", "partial"
    if settled and rows:
        text += " The combined figure, if any, is over the counted documents only."
    if not rows and settled:
        result["total"] = _cents(sum((_dec(r.get("total_amount")) for r in _rows(status_listing)
                                      if str(r.get("invoice_number")) in settled), Decimal(0)))
        result["status_documents"] = settled
    status_ran = status_listing is not None or "status-documents" not in d.run.outcomes
    if missing and not status_ran:
        # the cancelled/draft check failed: a number not among the counted documents may still be a cancelled or
        # draft one, so "not found" would be a guess; say which check did not run
        text += (f" {', '.join(missing)}: not among the posted and paid documents; whether it is a cancelled or "
                 "draft document could not be checked (that lookup failed), so nothing is given for it.")
        result["unchecked"] = missing
        status, result["status"] = ("partial", "partial") if rows else ("failed", "failed")
        if rows:
            text += " The figure is partial."
    elif missing:
        scope = f" of {m.parameters['company_id']}" if m.parameters.get("company_id") else ""
        text += (f" Not found: no invoice or credit note {', '.join(missing)}{scope} in your data (every document, "
                 "every status); nothing is given for it.")
        if rows:
            status, result["status"] = "partial", "partial"
            text += " The figure is partial."
        else:
            status, result["status"] = "not_found", "not_found"
        result["missing"] = missing
    if m.truncated:
        status, result["status"] = "partial", "partial"
        text += " The documents were cut at the row cap: the figure is partial."
    d.status, d.text, d.result = status, text.strip(), result


def _sums(m: Any, output: str, key: str | None) -> tuple[dict[str, Decimal], dict[str, int]]:
    """A governed sum's values (by ``key`` when grouped, else under "") and matched lines."""
    rows = list(m.rows) or ([dict(m.values)] if m.values else [])
    values = {str(r.get(key)) if key else "": _dec(r.get(output)) for r in rows if r.get(output) is not None}
    lines = {str(r.get(key)) if key else "": int(r.get("matched_line_count") or 0) for r in rows}
    if not key and rows:
        lines = {"": int(m.matched_line_count or 0)}
    return values, lines


def _compose_period(d: _Draft, net_m: Any, tax_m: Any, basis: Basis, group_by: tuple[str, ...]) -> None:
    cur = str(net_m.currency or "")
    params = net_m.parameters
    key = group_by[0] if group_by else None
    nets, lines = _sums(net_m, "net_spend", None)
    taxes, _ = _sums(tax_m, "total_tax", None)
    net, tax = nets.get("", Decimal(0)), taxes.get("", Decimal(0))
    count = sum(lines.values())
    value = {"gross": net + tax, "net": net, "tax": tax}[basis]
    who = d.routing.entities.company_name or params.get("company_id") or "All companies of the tenant together"
    scope = f" with {', '.join(params['supplier_ids'])}" if params.get("supplier_ids") else ""
    what = "net spend (excluding VAT)" if basis == "net" else "VAT charged" if basis == "tax" else "spend"
    # the filters the sums were read with, said back (a paid-only or credit-notes-only figure says so)
    statuses = ", ".join(params.get("invoice_statuses") or ("posted", "paid"))
    types = tuple(params.get("document_types") or ("invoice", "credit_note"))
    kinds = ("invoices only" if types == ("invoice",) else "credit notes only (negative)"
             if types == ("credit_note",) else "credit notes negative")
    result: dict[str, Any] = {"status": "complete", "basis": basis, "currency": cur, "total": _cents(value),
                              "net": _cents(net), "tax": _cents(tax), "line_count": count}
    d.inputs = {"metrics": [{"metric": m.metric, "parameters": m.parameters} for m in (net_m, tax_m)]}
    if net_m.status == "no_data" or not count:
        d.status = "no_data"
        result["status"] = "no_data"
        d.text = (f"{who}{scope}: no counted invoice or credit note in {d.period_text} (no data; no net spend or VAT "
                  "to report).")
        d.result = result
        return
    whose = f"{who}'s" if params.get("company_id") else f"{who}: the"
    other = _other_side(basis, net, tax, cur)
    text = (f"{whose} {what}{scope} in {d.period_text} was {_cents(value)} {cur}, over {count} validated invoice "
            f"lines ({other}; net + VAT is the governed spend; statuses {statuses}; {kinds}; converted at the "
            "corporate rate on each posting date; cancelled invoices and duplicates never count). From the "
            f"governed sums {NET_METRIC} and {TAX_METRIC}.")
    grouped = _metric_of(d, "by-group") if key else None
    if key and grouped is None:
        text += f" PARTIAL RESULT: the breakdown by {key.replace('_id', '')} could not be read."
        result["status"] = "partial"
    elif key and grouped is not None:
        shown, lines = _sums(grouped, "total_tax" if basis == "tax" else "net_spend", key)
        noun = "supplier" if key == "supplier_id" else "company"
        if grouped.metric == RANK_METRIC:
            from router.reading import dimension_phrase

            noun = dimension_phrase(key)
            rows = list(grouped.rows) or ([dict(grouped.values)] if grouped.values.get(key) else [])
            shown = {str(r.get(key)): {"gross": _dec(r.get("total_spend")), "net": _dec(r.get("net_spend")),
                                       "tax": _dec(r.get("total_spend")) - _dec(r.get("net_spend"))}[basis]
                     for r in rows}
            if len(rows) >= RANK_LIMIT or grouped.truncated:
                text += f" PARTIAL RESULT: the breakdown by {noun} was cut at the row cap."
                result["status"] = "partial"
        text += f" By {noun}: " + "; ".join(
            f"{k} {_cents(v)} {cur} ({lines.get(k, 0)} line{'' if lines.get(k, 0) == 1 else 's'})"
            for k, v in sorted(shown.items())) + "."
        result["rows"] = {k: _cents(v) for k, v in sorted(shown.items())}
    grain = next((s.arguments.get("grain") for s in d.routing.execution_plan if s.step_id == PERIOD_STEP), None)
    if grain:
        text, result = _with_periods(d, basis, str(grain), key, text, result)
    d.status = "partial" if result["status"] == "partial" else "answered"
    if net_m.status == "partial" or tax_m.status == "partial":
        d.status = "partial"
        result["status"] = "partial"
        text += " PARTIAL RESULT: a governed sum was only partly computed."
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    d.text, d.result = text, result
    cite_lines(d, (*net_m.source_line_ids, *tax_m.source_line_ids), f"invoice line of {NET_METRIC}")


def _bucket(value: object, grain: str) -> str:
    """A bucket's start date as the period it names: 2026-01 (month), 2026-Q1 (quarter), 2026 (year)."""
    day = dt.date.fromisoformat(str(value)[:10])
    return {"month": f"{day:%Y-%m}", "quarter": f"{day.year}-Q{(day.month - 1) // 3 + 1}"}.get(grain, str(day.year))


def _with_periods(d: _Draft, basis: Basis, grain: str, key: str | None, text: str,
                  result: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The figure asked by month, quarter or year (and by the grouping asked): the governed sums per bucket."""
    m = _metric_of(d, PERIOD_STEP)
    if m is None:
        return (text + f" PARTIAL RESULT: the breakdown by {grain} could not be read.",
                dict(result, status="partial"))
    cur = str(m.currency or "")
    output = {"net": "net_spend", "tax": "total_tax", "gross": "total_spend"}[basis]
    rows = list(m.rows) or ([dict(m.values)] if m.values.get("period_start") else [])
    cells: dict[str, tuple[Decimal, int]] = {}
    for r in rows:
        if r.get(output) is None or r.get("period_start") is None:
            continue
        label = _bucket(r.get("period_start"), grain) + (f" {r.get(key)}" if key else "")
        cells[label] = (_dec(r.get(output)), int(r.get("matched_line_count") or 0))
    shown = "; ".join(f"{k} {_cents(v)} {cur} ({n} line{'' if n == 1 else 's'})" for k, (v, n) in sorted(cells.items()))
    text += f" By {grain}{' and ' + key.replace('_id', '') if key else ''}: {shown or 'no counted line'}."
    result = dict(result, periods={k: _cents(v) for k, (v, _) in sorted(cells.items())}, grain=grain)
    if m.truncated or m.status == "partial":
        text += f" PARTIAL RESULT: the breakdown by {grain} was cut."
        result["status"] = "partial"
    cite_lines(d, m.source_line_ids, f"invoice line of {PERIOD_METRIC}")
    return text, result


def _group_rows(m: Any) -> list[tuple[str, Decimal, Decimal, int]]:
    """(key, spend, net, lines) per row of the ranking (a single row comes back as the values)."""
    rows = list(m.rows) or ([dict(m.values)] if m.values.get("total_spend") is not None else [])
    out = []
    for r in rows:
        k = str(next((r[g] for g in ("supplier_id", "company_id") if r.get(g) is not None), ""))
        out.append((k, _dec(r.get("total_spend")), _dec(r.get("net_spend")), int(r.get("matched_line_count") or 0)))
    return out


def _group_figures(m: Any) -> set[Decimal]:
    """Every figure the product-group composer may show: per row and in total, spend, net and spend - net."""
    rows = _group_rows(m)
    out: set[Decimal] = set()
    for _, gross, net, _ in (*rows, ("", sum((r[1] for r in rows), Decimal(0)),
                                     sum((r[2] for r in rows), Decimal(0)), 0)):
        out |= {gross, net, gross - net}
    return out


def _compose_group(d: _Draft, basis: Basis, group_by: tuple[str, ...]) -> None:
    """A product group's net spend or VAT over a period, from the ranking's spend and net per row."""
    m = _metric_of(d, GROUP_STEP)
    if m is None:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The product group's amounts could not be read; no answer is given." + d.failure_text
        return
    cur = str(m.currency or "")
    params = m.parameters
    rows = _group_rows(m)
    gross = sum((r[1] for r in rows), Decimal(0))
    net = sum((r[2] for r in rows), Decimal(0))
    tax = gross - net
    count = sum(r[3] for r in rows)
    value = {"gross": gross, "net": net, "tax": tax}[basis]
    who = d.routing.entities.company_name or params.get("company_id") or "All companies of the tenant together"
    scope = f" with {', '.join(params['supplier_ids'])}" if params.get("supplier_ids") else ""
    group = d.routing.entities.product_group or d.routing.entities.product_group_id
    what = "net spend (excluding VAT)" if basis == "net" else "VAT charged" if basis == "tax" else "spend"
    statuses = ", ".join(params.get("invoice_statuses") or ("posted", "paid"))
    result: dict[str, Any] = {"status": "complete", "basis": basis, "currency": cur, "total": _cents(value),
                              "net": _cents(net), "tax": _cents(tax), "line_count": count}
    d.inputs = {"metric": m.metric, "parameters": m.parameters}
    if m.status == "no_data" or not count:
        d.status, result["status"] = "no_data", "no_data"
        d.text = (f"{who}{scope}: no counted invoice line on {group} in {d.period_text} (no data; no net spend or "
                  "VAT to report).")
        d.result = result
        return
    whose = f"{who}'s" if params.get("company_id") else f"{who}: the"
    other = _other_side(basis, net, tax, cur)
    text = (f"{whose} {what} on {group} (with its subgroups){scope} in {d.period_text} was {_cents(value)} {cur}, "
            f"over {count} validated invoice lines ({other}; net + VAT is the governed spend "
            f"{_cents(gross)} {cur}; statuses {statuses}; credit notes negative; converted at the corporate rate on "
            "each posting date; cancelled invoices and duplicates never count). Derived from the governed "
            f"{RANK_METRIC} (its spend and net outputs per {(group_by or ('company_id',))[0].replace('_id', '')}, "
            "over the group's product groups): VAT = spend - net.")
    grouped = _metric_of(d, "by-group") if group_by else None
    if group_by and grouped is None:
        text += f" PARTIAL RESULT: the breakdown by {group_by[0].replace('_id', '')} could not be read."
        result["status"] = "partial"
    elif group_by and grouped is not None:
        noun = "supplier" if group_by[0] == "supplier_id" else "company"
        parts = _group_rows(grouped)
        if len(parts) >= RANK_LIMIT or grouped.truncated:
            result["status"] = "partial"
            text += " PARTIAL RESULT: the breakdown was cut at the row cap."
        shown = {k: {"gross": g, "net": n, "tax": g - n}[basis] for k, g, n, _ in parts}
        text += f" By {noun}: " + "; ".join(f"{k} {_cents(v)} {cur}" for k, v in sorted(shown.items())) + "."
        result["rows"] = {k: _cents(v) for k, v in sorted(shown.items())}
    grain = next((s.arguments.get("grain") for s in d.routing.execution_plan if s.step_id == PERIOD_STEP), None)
    if grain:
        text, result = _with_periods(d, basis, str(grain), group_by[0] if group_by else None, text, result)
    d.status = "partial" if result["status"] == "partial" else "answered"
    if m.status == "partial" or m.truncated or len(rows) >= RANK_LIMIT:
        d.status, result["status"] = "partial", "partial"
        text += " PARTIAL RESULT: the governed rows were cut, so the figure is incomplete."
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    d.text, d.result = text, result
    cite_lines(d, m.source_line_ids, f"invoice line of {RANK_METRIC}")


@composer("credit_note_origin")
def _compose_origin(d: _Draft) -> None:
    """``credit_note_origin``: the original invoice each named credit note states, from its own record."""
    from router.answer import Citation

    found, missing = _origins(d)
    numbers = [*found, *missing]
    cited = [Citation(source_id=c.chunk_id, kind="chunk", document_id=c.document_id, page=c.page,
                      role=f"record of credit note {n}") for n, (_, c) in found.items()]
    d.citations = cited
    d.sources = tuple(c.source_id for c in cited)
    parts = [f"Credit note {n} refers to the original invoice {inv} (stated in its record, {c.document_id})."
             for n, (inv, c) in found.items()]
    text = " ".join(parts)
    originals = list(dict.fromkeys(inv for inv, _ in found.values()))
    result: dict[str, Any] = {"status": "complete", "original_invoice_numbers": originals,
                              "credit_notes": {n: inv for n, (inv, _) in found.items()}}
    status: AnswerStatus = "answered"
    if missing:
        text += (f" Not found: no credit note {', '.join(missing)} stating an original invoice in your documents; "
                 "nothing is said about it.")
        status = "partial" if found else "not_found"
        result["status"] = status
        result["missing"] = missing
    d.status, d.text, d.result = status, text.strip(), result
    d.inputs = {"credit_notes": numbers}


__all__ = ["AMOUNTS_METRIC", "BasisRequest", "DocumentRequest", "amount_basis", "basis_request", "derived_amounts",
           "document_numbers", "document_request", "route_basis", "route_documents"]



def _described_day_note(d: _Draft, by_number: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The day the question writes beside the documents, checked against their own dates: a mismatch is said,
    never silently kept or dropped."""
    from router.clerk_dates import described_day

    day = described_day(d.routing.question, d.routing.as_of)
    if day is None or not by_number:
        return []
    other = {n: str(r.get("invoice_date")) for n, rows in by_number.items() for r in rows
             if str(r.get("invoice_date")) != day.isoformat()}
    if not other:
        return [f"Each document is dated {day}, as the question says."]
    return [f"The question describes the documents as dated {day}, but " + ", ".join(
        f"{n} is dated {date}" for n, date in sorted(other.items())) + "; the amounts are the documents' own."]
