"""Supplier activity over the invoice history: which suppliers did NOT invoice a company in a period, and the first
or last invoice of a selection ("Beta's latest invoice to Company A", "the first invoice of 2026 for Company B").

Two governed listings answer them, both over ``marts.validated_invoice_lines`` (RLS-bound, counted lines only):

* ``finance.inactive_suppliers``: the tenant's suppliers (the supplier master data, ``marts.dim_suppliers``) with no
  counted line to one company in the period; each with its last counted invoice to the company before the period,
  so "did not invoice" is told from "never invoiced". An empty list is a real answer ("none: every supplier
  invoiced"), never "no data".
* ``finance.invoice_date_extreme``: the counted invoice(s) dated on the earliest (``first``) or latest (``last``)
  invoice date of a selection (a company or all, suppliers or all, a period or the whole history up to the as-of
  date). Two invoices on that day are a tie, said as such.

The decision rules are closed-class, whatever the writer's language:

* inactive suppliers: a negated invoicing verb or an invoice noun with "no / zero / without" (:data:`NEGATED`, in
  English and the languages of the subsidiaries) *and* a supplier noun or "who" (:data:`SUBJECTS`) -- and not the
  approved vendors, whose idle list is router/idle_vendors.py's;
* first / last invoice: an ordinal of either end (:data:`FIRST_WORDS`, :data:`LAST_WORDS`) right before a singular
  invoice noun (names, "ever", a status in between), or the noun then "most recent"; never over a plural noun
  ("the first 3 invoices") nor beside suppliers asked for as new (router/first_time.py: "new suppliers", "who
  invoiced us for the first time", "which vendors sent their first invoice" are a list of suppliers).

What the listings cannot take (a product group, products, an amount, a currency, a cancelled status) is named in
a clarification, never dropped: the answer without it would be another list.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import Any, Literal

from router.answer import _Draft, cite_lines, composer
from router.contract import PlanStep
from router.document_words import INVOICES, alternation
from router.first_time import period_asks
from router.periods import HISTORY_START
from router.reader import Reading

INACTIVE_METRIC = "finance.inactive_suppliers"
EXTREME_METRIC = "finance.invoice_date_extreme"
INACTIVE_STEP = "inactive-suppliers"
EXTREME_STEP = "invoice-extreme"
#: How many suppliers / invoices the answer text names (the result carries every one).
LISTED = 60

_I = re.I | re.UNICODE

# --- the closed classes -------------------------------------------------------------------------------------------
#: Supplier nouns in the plural (the subject of a list of suppliers), every language of the writers.
SUPPLIER_NOUNS = ("suppliers", "vendors", "creditors", "sellers", "billers", "invoicers", "providers", "payees",
                  "lieferanten", "kreditoren", "fournisseurs", "proveedores", "fornitori", "fornecedores",
                  "leveranciers", "leverantörer", "leverandører", "dostawcy", "dostawców", "dostawcow",
                  "tedarikçiler", "tedarikciler", "tedarikçi", "tedarikci", "dodavatelé", "dodavatele",
                  "dodavatelů", "furnizori", "furnizorii", "furnizorilor", "постачальники", "постачальників",
                  "поставщики", "поставщиков")
#: "Who" as the subject of the list ("Kestrel Nov 2025, who did NOT invoice?").
WHO = ("who", "which ones", "wer", "qui", "quién", "quien", "quiénes", "quienes", "chi", "quem", "kto", "kim",
       "kdo", "cine", "хто", "кто")
SUBJECTS = (*SUPPLIER_NOUNS, *WHO)

_NOUN = r"(?:invoices?|bills?|inv(?:s|oices)?\b|invoicing|billing|" + alternation(INVOICES) + \
    r"|rechnung(?:en)?|factures?|facturas?|factur[ăi]|facturi|fattur[ae]|рахун(?:ок|ки|ків)|сч[её]т(?:а|ов)?)"
#: "No" / "without" before a noun, every language of the writers ("zero invoices", "keine Rechnung", "nessuna
#: fattura", "sin facturas", "geen facturen", "żadnej faktury", "hiç fatura", "nicio factură"); the nouns may be
#: the writer's own or already read in English ("keine invoice").
NO_WORDS = ("zero", "no", "nil", "0", "without", "without any", "with no", "not a single", "not one", "none",
            "kein", "keine", "keinen", "keiner", "ohne", "aucune", "aucun", "sans", "pas de", "ninguna", "ningún",
            "ninguno", "ningun", "sin", "nessuna", "nessun", "senza", "nenhuma", "nenhum", "sem", "geen", "zonder",
            "żadnej", "zadnej", "żadnych", "zadnych", "bez", "hiç", "hic", "žádné", "žádnou", "zadne", "nicio",
            "niciun", "fără", "fara", "жодного", "жодних", "без")
#: The negated auxiliary of a past action ("did not", "didn't", "did we not", "haven't", "never"): what makes
#: "buy from" an idle supplier's verb ("which suppliers can we not order from" is a permission, no activity).
_DID_NOT = (r"(?:did|do|does|have|has|had)(?:\s+(?:we|you|they|us|it|he|she))?\s*(?:n['’]?t|not)|didnt|dont|doesnt|"
            r"havent|hasnt|hadnt|never")
_NEG_AUX = rf"{_DID_NOT}|(?:was|were|is|are)\s*(?:n['’]?t|not)|(?<!can\s)(?<!could\s)not(?:\s+yet)?|no\s+longer"
#: A negated invoicing: "did not invoice", "didn't bill us", "never invoiced", "not invoiced", "haven't sent an
#: invoice", "with zero / no invoices", "without invoices", "nicht fakturiert", "keine Rechnung", "n'ont pas
#: facturé", "sin facturas", "nessuna fattura", "nie wystawili faktury", "fatura kesmeyen", "nefakturovali",
#: "nu au facturat".
NEGATED = re.compile(
    rf"\b(?:{_NEG_AUX})\s+(?:(?:yet|even|actually|ever|once|really)\s+)?(?:(?:send|sent|submit(?:ted)?|raise[d]?|"
    rf"issue[d]?)\s+(?:us\s+|them\s+)?(?:an?\s+|any\s+)?{_NOUN}|invoic\w*|bill(?:ed|ing)?\b|charg\w*)"
    rf"|\b(?:{_DID_NOT})\s+(?:(?:yet|even|actually|ever|once|really)\s+)?(?:buy|bought|purchas\w*|order(?:ed)?\b)"
    rf"|(?<!\w)(?:{alternation(NO_WORDS)})\s+(?:single\s+)?(?:{_NOUN}|activity|purchases|transactions)\b"
    r"|\bnothing\s+(?:at\s+all\s+)?(?:invoiced|billed)|\b(?:dormant|idle)\b"
    r"|\bnicht\s+(?:in\s+rechnung\s+gestellt|fakturiert|abgerechnet)|\bkeine[n]?\s+rechnung\w*"
    r"|\bn['’]\s*(?:ont|a)\s+pas\s+(?:été\s+)?factur\w*|\b(?:pas\s+de|aucune|sans)\s+factur\w*"
    r"|\bno\s+(?:han\s+|ha\s+)?factur\w*|\b(?:ninguna|sin)\s+factur\w*"
    r"|\bnon\s+(?:hanno\s+|ha\s+)?fattur\w*|\b(?:nessuna|senza)\s+fattur\w*"
    r"|\bn[aã]o\s+(?:emitiram\s+|faturaram|faturou)\w*|\b(?:nenhuma|sem)\s+fatura\w*"
    r"|\bniet\s+gefactureerd|\bgeen\s+factu\w*"
    r"|\bnie\s+(?:wystawi\w*|fakturow\w*|przys[łl]a\w*)|\bbez\s+faktur\w*|\b[żz]adnej\s+faktury"
    r"|\bfatura\s+(?:kesme\w*|göndermey\w*|gondermey\w*)|\bfaturas[ıi]z"
    r"|\bnefakturoval\w*|\bž[áa]dn(?:ou|á)\s+faktur\w*"
    r"|\bnu\s+(?:au\s+|a\s+)?facturat|\bnicio\s+factur\w*|\bf[ăa]r[ăa]\s+factur\w*"
    r"|\bне\s+(?:виставил\w*|выставил\w*)|\bбез\s+(?:рахунк\w*|сч[её]т\w*)",
    _I)
#: Verbs of sending an invoice beside the negation ("keine Rechnung geschickt", "n'ont pas envoyé de facture",
#: "nie przysłali faktury"): words of the question this rule reads (router/unread_words.py spells them known).
SENDING = ("sent", "send", "submitted", "issued", "raised", "received", "geschickt", "gesendet", "verschickt",
           "gestellt", "envoyé", "envoyée", "envoyés", "enviado", "enviada", "enviaron", "inviato", "inviata",
           "mandato", "enviou", "enviaram", "gestuurd", "verstuurd", "wysłali", "wysłał", "przysłali",
           "przysłał", "gönderdi", "göndermedi", "gönderen", "poslali", "poslal", "trimis", "надіслали",
           "прислали")
_SUBJECT = re.compile(rf"(?<!\w)(?:{alternation(SUBJECTS)})(?!\w)", _I)
_APPROVED = re.compile(r"\bapproved\b", re.I)

#: Ordinals of the first end ("first", "1st", "earliest", "erste", "première", "primera", "prima", "eerste",
#: "pierwsza", "ilk", "první", "перший").
FIRST_WORDS = ("first", "1st", "earliest", "oldest", "initial", "very first", "erste", "ersten", "erster",
               "erstes", "früheste", "frühesten", "première", "premiere", "premier", "1ère", "1re", "primera",
               "primer", "primero", "prima", "primo", "primeira", "primeiro", "eerste", "oudste", "pierwsza",
               "pierwszą", "pierwszej", "pierwszy", "ilk", "první", "prvni", "första",
               "første", "ensimmäinen", "перший", "перша", "першу", "первый", "первая", "первую")
#: Ordinals of the last end ("last", "latest", "most recent", "letzte", "dernière", "última", "ultima", "laatste",
#: "ostatnia", "son", "poslední", "останній").
LAST_WORDS = ("last", "latest", "most recent", "newest", "final", "very last", "most current", "letzte",
              "letzten", "letzter", "letztes", "neueste", "neuesten", "jüngste", "jüngsten", "dernière", "derniere",
              "dernier", "la plus récente", "última", "ultima", "último", "ultimo", "más reciente", "mais recente",
              "più recente", "laatste", "nieuwste", "meest recente", "ostatnia", "ostatnią", "ostatniej",
              "ostatni", "najnowsza", "najnowszą", "najnowszej", "son", "en son", "en yeni", "poslední",
              "posledni", "nejnovější", "cea mai recentă", "cea mai recenta", "senaste", "siste", "seneste",
              "viimeisin", "останній", "остання", "останню", "последний", "последняя", "последнюю")
_SINGULAR = (r"(?:invoice(?!s)|bill(?!s|ed|ing)|inv(?:oice)?\s*(?:#|no\b\.?|number\b)|inv\b(?!s)|rechnung(?!en)|"
             r"facture(?!s)|factura(?!s)|factur[ăa]|fattura|fatura(?!s|l|r)|factuur|faktur[aęuy](?!\w)|"
             r"рахун(?:ок|ку)|сч[её]т(?!а|ов))")
#: Between the ordinal and the noun: names (masked in the cue text), "ever", a status, a supplier noun.
_FILLER = (r"(?:\s+|\s*[-/]\s*|\s+(?:(?i:ever|one|single|posted|paid|booked|received|counted|recorded|supplier|"
           r"vendor|gmbh|ag|inc\.?|ltd\.?|llc|sa|srl|bv|oy|ab|as)|[A-Z][\w&.'’-]*)\b){0,4}?")
_ORDINAL = re.compile(
    rf"(?<!\w)(?P<ord>(?i:{alternation(FIRST_WORDS + LAST_WORDS)}))(?:['’]s)?{_FILLER}\s*(?i:ever\s+)?"
    rf"(?P<noun>(?i:{_SINGULAR}))(?!\w)", re.UNICODE)
#: The noun first, then the ordinal: "invoice, the most recent one", "fattura più recente", "factura más reciente".
_POSTPOSED = re.compile(
    rf"(?<!\w)(?P<noun>{_SINGULAR})\s*[-,:–—]?\s+(?:the\s+|la\s+|il\s+|a\s+|de\s+)?(?P<ord>most\s+recent|latest|"
    r"first|"
    r"last|earliest|más\s+reciente|mais\s+recente|più\s+recente|piu\s+recente|plus\s+récente|la\s+plus\s+récente)"
    r"(?:\s+(?:one|ever))?(?=\s*(?:[?.!,;)(]|$))", _I)
#: "when did Beta last invoice us", "when did Gamma first bill Company A".
_WHEN_VERB = re.compile(r"\bwhen\s+(?:did|was|were|has|have)\b[^?.;]{0,60}?\b(?P<ord>first|last)\s+(?:\w+\s+){0,3}?"
                        r"(?P<noun>invoic\w*|bill(?:s|ed)?)\b", re.I)
#: Suppliers asked for as new (router/first_time.py's list): "new suppliers", "first-time vendors", "for the
#: first time", "which vendors sent their first invoice".
_NEW = re.compile(r"\bfirst[- ]time\b|\bfor\s+the\s+(?:very\s+)?first\s+time\b|\bnew(?:ly\s+\w+)?\s+(?:suppliers?|"
                  r"vendors?)\b|\bneue[nrs]?\s+lieferanten\b|\berstmal\w*|\bzum\s+ersten\s+mal\b", re.I)
#: "never invoiced us before": a supplier new in the period, not one idle in it.
_BEFORE = re.compile(r"\b(?:never|not)\s+(?:\w+\s+){0,3}?before\b", re.I)
#: A measure of the invoice's lines ("unit price on the most recent PRD-650 invoice"): the price readers' question.
_LINE_MEASURE = re.compile(r"\b(?:unit\s+)?prices?\b|\bcost\s+per\b|\bper\s+(?:unit|piece|item)\b|\bquantit\w*|"
                           r"\bunits?\b", re.I)
#: One invoice per supplier or company asked ("latest invoice for each supplier", "first invoice per vendor").
_EACH = re.compile(r"\b(?:each|every|per|by)\s+(?:supplier|vendor|company|entity|creditor)\b", re.I)
_PLURAL_SUBJECT = re.compile(rf"(?<!\w)(?:{alternation(SUPPLIER_NOUNS)})(?!\w)", _I)
#: Words of the question the listings read themselves: not unknown names.
_OWN_WORDS = re.compile(
    r"(?:which|what|who|any|list|show|names?|ids?|pls|please|one|ones|ever|not|no|did|didnt|didn['’]t|never|zero|"
    r"nil|invoic\w*|bill\w*|inv#?|no\.?|number|date|when|was|were|from|to|for|at|of|us|we|our|got|booked|"
    r"received|sent|overall|apart|besides|know|about|known|latest|last|first|earliest|recent|most|newest|"
    r"vendors?|suppliers?|which\s+one)", re.I)

Order = Literal["first", "last"]
#: Ordinals that are other words too ("son", "prima", "final"): read only right before the invoice noun.
_ADJACENT_ONLY = frozenset({"son", "prima", "primo", "premier", "final", "initial", "primer"})


@dataclasses.dataclass(frozen=True)
class InactiveRequest:
    """A question for the suppliers that did not invoice: the words that said it."""

    words: str
    spans: tuple[tuple[int, int], ...]


@dataclasses.dataclass(frozen=True)
class ExtremeRequest:
    """A question for the first or last invoice of a selection: the end asked and the words that said it."""

    order: Order
    words: str
    spans: tuple[tuple[int, int], ...]


def inactive_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the words asking which suppliers did not invoice (empty when ``text`` asks no such thing)."""
    negated = [m.span() for m in NEGATED.finditer(text)]
    if not negated or _APPROVED.search(text) is not None or _NEW.search(text) is not None \
            or _BEFORE.search(text) is not None:
        return ()  # the approved vendors' idle list, or suppliers new in the period (router/first_time.py)
    subjects = [m.span() for m in _SUBJECT.finditer(text)]
    return tuple(sorted([*negated, *subjects])) if subjects else ()


#: The first end's words as read (casefolded, one space): every other ordinal matched is of the last end.
_FIRST_SET = frozenset(" ".join(w.casefold().split()) for w in FIRST_WORDS)


def _order(word: str) -> Order:
    return "first" if " ".join(word.casefold().split()) in _FIRST_SET else "last"


def extreme_match(text: str) -> tuple[Order, tuple[int, int]] | None:
    """The end asked ("first" / "last") and the span of the words asking for one invoice at that end of a
    selection, or ``None``."""
    if _NEW.search(text) is not None or _PLURAL_SUBJECT.search(text) is not None:
        return None  # suppliers asked for (as new, or as a list): router/first_time.py
    for pattern in (_ORDINAL, _POSTPOSED, _WHEN_VERB):
        for m in pattern.finditer(text):
            ordinal = m.group("ord")
            if pattern is _ORDINAL and ordinal.casefold() in _ADJACENT_ONLY \
                    and text[m.end("ord"):m.start("noun")].strip():
                continue  # a short word of another language reads as an ordinal only right before the noun
            return _order(ordinal), m.span()
    return None


def inactive_request(reading: Reading) -> InactiveRequest | None:
    """The did-not-invoice question ``reading`` asks, or ``None``. A named document keeps its own path."""
    spans = inactive_spans(reading.cue_text)
    ids = reading.identifiers
    if not spans or ids.invoice_numbers or ids.document_ids or ids.contract_ids:
        return None
    words = ", ".join(dict.fromkeys(reading.cue_text[a:b] for a, b in spans))
    return InactiveRequest(words=words, spans=spans)


def extreme_request(reading: Reading) -> ExtremeRequest | None:
    """The first-or-last-invoice question ``reading`` asks, or ``None``. A named document keeps its own path."""
    found = extreme_match(reading.cue_text)
    ids = reading.identifiers
    if found is None or ids.invoice_numbers or ids.document_ids or ids.contract_ids:
        return None
    if reading.entities.product_codes or _LINE_MEASURE.search(reading.cue_text) is not None:
        return None  # a price or quantity on the latest invoice of a product: router/unit_prices.py
    if reading.breakdown.group_by or _EACH.search(reading.cue_text) is not None:
        return None  # "the latest invoice of each supplier": one per row, a breakdown this listing does not give
    order, (a, b) = found
    return ExtremeRequest(order=order, words=" ".join(reading.cue_text[a:b].split()), spans=((a, b),))


def rule_spans(workflow: str, text: str) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` the rule of ``workflow`` read (none for another workflow's answer)."""
    if workflow == "inactive_suppliers":
        return inactive_spans(text)
    found = extreme_match(text) if workflow == "invoice_extreme" else None
    return (found[1],) if found is not None else ()


# --- routing ------------------------------------------------------------------------------------------------------
def _overlaps(start: int, end: int, spans: tuple[tuple[int, int], ...]) -> bool:
    return any(a < end and start < b for a, b in spans)


def _named_companies(reading: Reading) -> list[str]:
    return list(dict.fromkeys([*reading.identifiers.company_ids,
                               *(m.candidates[0] for m in reading.mentions.companies if len(m.candidates) == 1)]))


#: The statuses a governed listing counts by default, and those it can count at all.
_DEFAULT = ("posted", "paid")
_COUNTABLE = frozenset({"draft", "posted", "paid"})


def _statuses(reading: Reading) -> tuple[tuple[str, ...], str | None]:
    """The statuses asked ("the last paid invoice") and what cannot be counted (cancelled), or the default."""
    asked = tuple(dict.fromkeys((*reading.asked_statuses, *(reading.analysis.statuses or ()))))
    if not asked:
        return _DEFAULT, None
    if not set(asked) <= _COUNTABLE:
        return _DEFAULT, f"the status {', '.join(asked)} (cancelled documents never count as invoicing)"
    return tuple(s for s in ("draft", "posted", "paid") if s in asked), None


def _cannot(reading: Reading) -> list[str]:
    """What the question narrows by that neither listing takes (a product group, products, an amount, a currency;
    a product group, products or companies left out): asked back, never dropped. Suppliers left out are taken."""
    e = reading.entities
    left_companies = () if negation_took_companies(reading) else reading.excluded_company_ids
    return [*(["product group " + (e.product_group or "")] if e.product_group_id else []),
            *(["leaving out the product group(s) " + ", ".join(reading.excluded_group_ids)]
              if reading.excluded_group_ids else []),
            *(["leaving out the products " + ", ".join(reading.excluded_product_codes)]
              if reading.excluded_product_codes else []),
            *(["leaving out the companies " + ", ".join(left_companies)] if left_companies else []),
            *(["products " + ", ".join(e.product_codes)] if e.product_codes else []),
            *([f"the amount {m.text!r}" for m in reading.amounts if m.text.strip()]),
            *([f"the amount {reading.threshold_amount.text!r}"]
              if reading.threshold_amount is not None and reading.threshold_amount.text.strip()
              and not reading.amounts else []),
            *(["the currency " + ", ".join(reading.currencies)] if reading.currencies else [])]


def negation_took_companies(reading: Reading) -> bool:
    """Whether the companies the reader left out were left out by the listing's own negation ("without any
    invoices for Company A"): a negation of the invoicing precedes them, no exclusion word of their own does."""
    if not reading.excluded_company_ids:
        return False
    own = [m for m in NEGATED.finditer(reading.cue_text)]
    return bool(own) and re.search(r"\b(?:except|excluding|excl\.?|apart\s+from|other\s+than|besides|but\s+not|"
                                   r"ohne|außer|sauf|salvo|tranne|oprócz|hariç)\b", reading.cue_text, _I) is None


def _companies(reading: Reading, inputs: Any, *, required: bool, why: str) -> tuple[
        Any, tuple[str, ...], list[str], list[str]]:
    """(entities, companies, reasons, questions): the company scope of a listing. ``required``: one company at
    least (a listing per company named); otherwise none named is every company of the tenant."""
    from router.company_set import resolves

    e = reading.entities
    named = _named_companies(reading)
    if not named and negation_took_companies(reading):
        # "suppliers without any invoices for Company A": the general reader takes "without ... Company A" as
        # Company A left out (and the other company as meant); here "without" is the listing's own negation
        named = list(reading.excluded_company_ids)
    reasons: list[str] = []
    questions: list[str] = []
    known = [c.company_id for c in inputs.gazetteer.companies]
    several = len(named) > 1 and all(c in known for c in named)
    if several:
        e = e.model_copy(update={"company_id": None, "company_name": None})
        problems = [p for p in reading.entity_problems if not resolves(p)]
        return e, tuple(named), [f"entity: {p}" for p in problems], problems
    reasons.extend(f"entity: {p}" for p in reading.entity_problems)
    questions.extend(reading.entity_problems)
    if len(named) == 1 and e.company_id != named[0] and named[0] in known:
        only = inputs.gazetteer.company(named[0])
        e = e.model_copy(update={"company_id": named[0], "company_name": only.company_name if only else named[0]})
    if e.company_id:
        return e, (e.company_id,), reasons, questions
    if len(inputs.gazetteer.companies) == 1 and not reading.entity_problems:
        only = inputs.gazetteer.companies[0]
        e = e.model_copy(update={"company_id": only.company_id, "company_name": only.company_name})
        return e, (only.company_id,), reasons, questions
    if required and not reading.entity_problems:
        names = ", ".join(f"{c.company_name} ({c.company_id})" for c in inputs.gazetteer.companies)
        reasons.append(f"company: {why}; none named")
        questions.append(f"Which company do you mean ({why})? Known companies: {names}.")
    return e, (), reasons, questions


def _unread(reading: Reading, spans: tuple[tuple[int, int], ...]) -> tuple[list[str], list[str]]:
    from router.reader import unread_clarifications

    unread = tuple(u for u in reading.not_understood
                   if not _overlaps(u.start, u.end, spans) and not _OWN_WORDS.fullmatch(u.text.strip()))
    return unread_clarifications(unread)


def route_inactive(text: str, reading: Reading, inputs: Any, req: InactiveRequest) -> Any:
    """The routing result of a did-not-invoice question: the governed listing planned per company and for one
    period, or a clarification naming what is missing or what it cannot take."""
    from router.extensions import _aggregate, _result
    from router.reader import interpretation

    reasons, questions = _unread(reading, req.spans)
    e, companies, r2, q2 = _companies(reading, inputs, required=True,
                                      why="whether a supplier invoiced is asked of one company")
    reasons += r2
    questions += q2
    period = reading.period
    asked = period_asks(period, "In which period did the suppliers not invoice?")
    reasons.extend(a for a, _ in asked)
    questions.extend(q for _, q in asked)
    statuses, bad_status = _statuses(reading)
    for what in [*_cannot(reading), *([bad_status] if bad_status else [])]:
        reasons.append(f"inactive_suppliers: {what} cannot be applied to the suppliers that did not invoice")
        questions.append(f"I can list the suppliers that did not invoice a company in a period (no counted "
                         f"invoice), but not by {what}. Do you want the list without it?")
    tr = period.time_range if not period.ambiguous else None
    shown = e.model_copy(update={"supplier_ids": ()})
    read_as = interpretation(shown, tr.start, tr.end) if tr is not None else interpretation(shown, None, None)
    if reading.excluded_supplier_ids:
        read_as += f"; leaving out {', '.join(reading.excluded_supplier_ids)}"
    if e.supplier_ids:
        read_as += f"; only among {', '.join(e.supplier_ids)}"
    read_as += (f"; did not invoice: no counted invoice ({' or '.join(statuses)}; a credit note is no invoicing, "
                "cancelled documents and duplicates never count) of the supplier to the company dated in the period, "
                "over every supplier in the tenant's supplier master data (including suppliers that never dealt "
                "with the company)")
    if len(companies) > 1:
        read_as = f"each of {', '.join(companies)} on its own, {read_as}"
    if reasons or tr is None or not companies:
        return _result(text, reading, inputs, workflow="clarification", entities=e, reasons=reasons,
                       questions=questions, intents=_aggregate(), read_as=read_as,
                       rule="inactive_suppliers:clarification")
    parameters: dict[str, Any] = {"start_date": tr.start.isoformat(), "end_date": tr.end.isoformat()}
    if reading.excluded_supplier_ids:
        parameters["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if e.supplier_ids:
        parameters["supplier_ids"] = list(e.supplier_ids)
    if statuses != _DEFAULT:
        parameters["invoice_statuses"] = list(statuses)
    listings = tuple(PlanStep(step_id=f"{INACTIVE_STEP}-{i + 1}", tool="metrics.query",
                              arguments={"metric": INACTIVE_METRIC, "group_by": [], "grain": None,
                                         "parameters": {"company_id": company, **parameters}},
                              purpose=f"The suppliers without a counted line to {company} in the period "
                                      f"({INACTIVE_METRIC}).")
                     for i, company in enumerate(companies))
    steps = (*listings, PlanStep(step_id="validate-result", tool="validation.check_completeness",
                                 depends_on=tuple(s.step_id for s in listings),
                                 purpose="Completeness: the governed listing ran; an empty list is said as such."))
    return _result(text, reading, inputs, workflow="inactive_suppliers", entities=e, steps=steps,
                   intents=_aggregate(), read_as=read_as, statuses=statuses, rule="inactive_suppliers:list")


def route_extreme(text: str, reading: Reading, inputs: Any, req: ExtremeRequest) -> Any:
    """The routing result of a first-or-last-invoice question: the governed listing per company named (or over
    every company), over the period named or the whole history up to the as-of date."""
    from router.extensions import _aggregate, _result
    from router.reader import interpretation

    reasons, questions = _unread(reading, req.spans)
    e, companies, r2, q2 = _companies(reading, inputs, required=False, why="")
    reasons += r2
    questions += q2
    period = reading.period
    if period.ambiguous:
        reasons.append(f"period: {period.reason}")
        questions.append(f"Which period do you mean ({period.reason})? For example 2026-Q1, March 2026 or between "
                         "2026-01-01 and 2026-04-01.")
    statuses, bad_status = _statuses(reading)
    for what in [*_cannot(reading), *([bad_status] if bad_status else [])]:
        reasons.append(f"invoice_date_extreme: {what} cannot be applied to the {req.order} invoice")
        questions.append(f"I can give the {req.order} invoice of a company and supplier (in a period or ever), but "
                         f"not by {what}. Do you want it without that?")
    # the selection never runs past the as-of date: a "latest" invoice is the latest known on that day
    cap = inputs.as_of + dt.timedelta(days=1)
    tr = period.time_range if not period.ambiguous else None
    start = tr.start if tr is not None else HISTORY_START
    end = min(tr.end, cap) if tr is not None else cap
    if start >= end:
        reasons.append("period: the period begins after the as-of date")
        questions.append(f"The period begins after the as-of date {inputs.as_of}: which period do you mean?")
    read_as = interpretation(e, start, end)
    if reading.excluded_supplier_ids:
        read_as += f"; leaving out the invoices of {', '.join(reading.excluded_supplier_ids)}"
    if not companies:
        read_as = f"every company of the tenant, {read_as}" if read_as else "every company of the tenant"
    elif len(companies) > 1:
        read_as = f"each of {', '.join(companies)} on its own, {read_as}"
    read_as += (f"; the {req.order} invoice: the counted ({' or '.join(statuses)}) invoice with the "
                f"{'earliest' if req.order == 'first' else 'latest'} invoice date (credit notes, cancelled and "
                "duplicate documents never count)")
    if reasons:
        return _result(text, reading, inputs, workflow="clarification", entities=e, reasons=reasons,
                       questions=questions, intents=_aggregate(), read_as=read_as,
                       rule="invoice_date_extreme:clarification")
    parameters: dict[str, Any] = {"order": req.order, "start_date": start.isoformat(), "end_date": end.isoformat()}
    if e.supplier_ids:
        parameters["supplier_ids"] = list(e.supplier_ids)
    if reading.excluded_supplier_ids:
        parameters["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if statuses != _DEFAULT:
        parameters["invoice_statuses"] = list(statuses)
    scopes: tuple[str | None, ...] = companies or (None,)
    listings = tuple(PlanStep(step_id=f"{EXTREME_STEP}-{i + 1}", tool="metrics.query",
                              arguments={"metric": EXTREME_METRIC, "group_by": [], "grain": None,
                                         "parameters": {**({"company_id": c} if c else {}), **parameters}},
                              purpose=f"The {req.order} counted invoice of the selection ({EXTREME_METRIC}).")
                     for i, c in enumerate(scopes))
    steps = (*listings, PlanStep(step_id="validate-result", tool="validation.check_completeness",
                                 depends_on=tuple(s.step_id for s in listings),
                                 purpose="Completeness: the governed listing ran; no invoice is said as such."))
    routed = _result(text, reading, inputs, workflow="invoice_extreme", entities=e, steps=steps,
                     intents=_aggregate(), read_as=read_as, statuses=statuses,
                     rule=f"invoice_date_extreme:{req.order}")
    from router.contract import TimeRange

    # the answer states the selection it took (the whole history when no period was named)
    window = TimeRange(start=start, end=end, label=tr.label if tr is not None else "all dates on file",
                       source_text=tr.source_text if tr is not None else "")
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": window})})


# --- answers ------------------------------------------------------------------------------------------------------
def _rows(m: Any) -> list[dict[str, Any]]:
    # (a listing of one row comes back as the result's values, not as a row)
    return list(m.rows) or ([dict(m.values)] if m.values.get("supplier_id") or m.values.get("invoice_number")
                            else [])


def _who(d: _Draft, company: str | None) -> str:
    e = d.routing.entities
    if company is None:
        return "All companies"
    return (e.company_name or company) if e.company_id == company else company


def _listings(d: _Draft, prefix: str) -> tuple[list[Any], bool]:
    from router.tools import MetricToolResponse

    found = [o.output for step, o in d.run.outcomes.items()
             if step.startswith(prefix) and o.status == "ok" and isinstance(o.output, MetricToolResponse)]
    planned = [s for s in d.routing.execution_plan if s.step_id.startswith(prefix)]
    return found, bool(found) and len(found) == len(planned)


def _universe(m: Any, pool: Any) -> str:
    """The universe a did-not-invoice list is taken from, said plainly (the supplier master, not the company's
    suppliers), and the rule of what counts as invoicing."""
    if pool is None:
        return ""
    params = m.parameters
    rule = "invoicing = a counted invoice; a credit note alone is no invoicing"
    if params.get("supplier_ids"):
        return f" (of the {pool} suppliers asked about; {rule})"
    less = (f", less {', '.join(params['exclude_supplier_ids'])}" if params.get("exclude_supplier_ids") else "")
    return (f" (of the {pool} suppliers in the tenant's supplier master{less}, including suppliers that never "
            f"dealt with the company; {rule})")


def _inputs(metric: str, listings: list[Any]) -> dict[str, Any]:
    """The metric and its parameters as the answer records them: one mapping, or one per company listed."""
    if len(listings) == 1:
        return {"metric": metric, "parameters": listings[0].parameters}
    return {"metric": metric, "parameters": [m.parameters for m in listings]}


@composer("inactive_suppliers")
def _compose_inactive(d: _Draft) -> None:
    """``inactive_suppliers``: per company, the suppliers without a counted line in the period, or "none"."""
    listings, complete = _listings(d, INACTIVE_STEP)
    if not complete:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The suppliers that did not invoice could not be listed; no answer is given." + d.failure_text
        return
    texts: list[str] = []
    parts: list[dict[str, Any]] = []
    cut: list[str] = []
    masters: set[str] = set()
    for m in listings:
        rows = _rows(m)
        company = str(m.parameters.get("company_id"))
        who = _who(d, company)
        ids = list(dict.fromkeys(str(r.get("supplier_id")) for r in rows))
        masters |= {str(r["source_document_id"]) for r in rows if r.get("source_document_id")}
        if m.truncated or m.status == "partial":
            cut.append(f"{INACTIVE_METRIC} for {company} returned a partial result")
        if rows:
            shown = "; ".join(
                f"{r.get('supplier_id')} ({r.get('supplier_name')}, "
                + (f"last invoice to {who} before the period {r['last_invoice_before']})" if r.get(
                    "last_invoice_before") else f"no invoice to {who} before the period either)")
                for r in rows[:LISTED])
            more = f"; and {len(rows) - LISTED} more (all in the result)" if len(rows) > LISTED else ""
            noun = "supplier" if len(ids) == 1 else "suppliers"
            of = _universe(m, rows[0].get("supplier_count"))
            texts.append(f"{who}: {len(ids)} {noun}{of} did not invoice in {d.period_text}: {shown}{more}.")
        else:
            texts.append(f"{who}: none. Every supplier in scope invoiced {who} in {d.period_text} (an empty "
                         "list: each has a counted invoice dated in the period).")
        parts.append({"company_id": company, "supplier_ids": ids, "supplier_count": len(ids),
                      "suppliers": [{k: r.get(k) for k in ("supplier_id", "supplier_name", "last_invoice_before")}
                                    for r in rows]})
    ids = list(dict.fromkeys(i for p in parts for i in p["supplier_ids"]))
    status = "partial" if cut else "answered"
    text = " ".join(texts)
    if cut:
        text = f"PARTIAL: {'; '.join(cut)}. {text}"
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    d.status, d.text = status, text  # type: ignore[assignment]
    d.result = {"status": "complete" if not cut else "partial", "metric": INACTIVE_METRIC,
                "policy": listings[0].policy, "partial_reasons": cut,
                **({"supplier_ids": ids, "supplier_count": len(ids),
                    **{k: v for k, v in parts[0].items() if k not in ("supplier_ids", "supplier_count")}}
                   if len(parts) == 1 else {"companies": parts})}
    from router.answer import Citation

    cited = [*d.citations, *(Citation(source_id=doc, kind="record", document_id=doc,
                                      role="supplier master data (the suppliers listed)") for doc in sorted(masters))]
    d.citations = list({c.source_id: c for c in cited}.values())
    d.sources = tuple(c.source_id for c in d.citations)
    d.inputs = _inputs(INACTIVE_METRIC, listings)


@composer("invoice_extreme")
def _compose_extreme(d: _Draft) -> None:
    """``invoice_extreme``: the first (last) counted invoice of the selection, per company named; a tie is said."""
    listings, complete = _listings(d, EXTREME_STEP)
    if not complete:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The invoice could not be looked up; no answer is given." + d.failure_text
        return
    texts: list[str] = []
    numbers: list[str] = []
    invoices: list[dict[str, Any]] = []
    order = "first"
    for m in listings:
        order = str(m.parameters.get("order", "first"))
        company = m.parameters.get("company_id")
        who = _who(d, str(company) if company else None)
        sups = m.parameters.get("supplier_ids") or []
        frm = f" from {', '.join(d.routing.entities.supplier_names or sups)} ({', '.join(sups)})" if sups else ""
        if left := m.parameters.get("exclude_supplier_ids"):
            frm += f" other than {', '.join(left)}'s"  # the answer names the suppliers it left out
        rows = _rows(m)
        if not rows:
            texts.append(f"{who}: no counted invoice{frm} in {d.period_text}, so there is no {order} invoice.")
            continue
        day = rows[0].get("invoice_date")
        total = rows[0].get("invoice_count")
        said = "; ".join(f"{r.get('invoice_number')} from {r.get('supplier_id')} to {r.get('company_id')}, dated "
                         f"{r.get('invoice_date')}, {r.get('document_spend')} {r.get('currency')} gross "
                         f"({r.get('line_count')} line{'' if str(r.get('line_count')) == '1' else 's'})"
                         for r in rows[:LISTED])
        of = (f" (of {total} counted invoice{'' if str(total) == '1' else 's'} in the selection)"
              if total is not None else "")
        if len(rows) == 1:
            texts.append(f"{who}: the {order} invoice{frm} in {d.period_text} is {said}{of}.")
        else:
            texts.append(f"{who}: {len(rows)} invoices{frm} share the {order} invoice date {day} in "
                         f"{d.period_text}, a tie: {said}{of}.")
        numbers.extend(str(r.get("invoice_number")) for r in rows)
        invoices.extend({k: r.get(k) for k in ("invoice_number", "invoice_id", "company_id", "supplier_id",
                                               "invoice_date", "document_spend", "currency", "line_count")}
                        for r in rows)
        cite_lines(d, m.source_line_ids, f"invoice line of the {order} invoice")
    status = "answered" if numbers else "no_data"
    text = " ".join(texts)
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    d.status, d.text = status, text  # type: ignore[assignment]
    d.result = {"status": "complete" if numbers else "no_data", "metric": EXTREME_METRIC, "order": order,
                "policy": listings[0].policy, "invoice_numbers": list(dict.fromkeys(numbers)),
                "invoices": invoices}
    d.inputs = _inputs(EXTREME_METRIC, listings)


__all__ = [
    "EXTREME_METRIC",
    "FIRST_WORDS",
    "INACTIVE_METRIC",
    "LAST_WORDS",
    "NEGATED",
    "NO_WORDS",
    "SUBJECTS",
    "ExtremeRequest",
    "InactiveRequest",
    "extreme_match",
    "extreme_request",
    "inactive_request",
    "inactive_spans",
    "negation_took_companies",
    "route_extreme",
    "route_inactive",
    "rule_spans",
]
