"""Overdue invoices as at a day, from the governed payment terms ("which Ypsilon invoices are overdue today",
"Company A invoices more than 60 days past due as at 15 May 2026", "total overdue amount of Company C").

Overdue needs each invoice's due date: its invoice date plus the payment term of the company's agreement. The
term is structured data (extracted at ingestion per agreement version, ``marts.payment_terms``), served by two
governed listings: ``finance.payment_terms`` (every version of the company's terms, with clause and sentence) and
``finance.overdue_invoices`` (the open invoices whose due date lies more than N days before the as-at day).

Reading, said in every answer: the term applied is the one of the agreement version in force on the as-at day
(the term of the open items at that day), counted from the invoice date (the agreements count from "receipt of a
correct invoice", which no source records); an invoice due on the as-at day itself is not yet overdue. When an
earlier version stated another term, the answer says which invoices were dated under it. A company with no term,
or with agreements in force that state different terms, gets no overdue figure: it is said, never guessed.
The count and the total are derived from the listing's rows (the number of rows; the exact sum of their gross
totals), and the answer says so.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from router.answer import Citation, _Draft, cite_lines, composer
from router.contract import PlanStep
from router.reader import Reading

OVERDUE_METRIC = "finance.overdue_invoices"
TERMS_METRIC = "finance.payment_terms"
RULE = "overdue"
Measure = Literal["list", "count", "total"]

#: The overdue words ("overdue", "past due", "überfällig").
_OVERDUE = re.compile(r"\b(?:overdue|past[- ]due|(?:ü|ue)berf(?:ä|ae)llig\w*)\b", re.I)
#: "more than 30 days overdue", "over 90 days past due", "overdue by more than 60 days", "> 30 days".
_BEYOND = re.compile(
    r"(?:(?:more|longer)\s+than|over|>|beyond|in\s+excess\s+of)\s*(\d{1,4})\s+days?\b(?=[^.?!;]{0,40}?"
    r"(?:overdue|past[- ]due|late|(?:ü|ue)berf))|"
    r"(?:overdue|past[- ]due|late)\s+(?:by\s+)?(?:more\s+than|over|longer\s+than|>)\s*(\d{1,4})\s+days?\b|"
    r"\bmehr\s+als\s+(\d{1,4})\s+tage?n?\b", re.I)
#: "at least 30 days overdue": the due date 30 or more days back, i.e. more than 29.
_AT_LEAST = re.compile(r"\bat\s+least\s+(\d{1,4})\s+days?\b|\b(\d{1,4})\s*\+\s*days?\b|"
                       r"\b(\d{1,4})\s+or\s+more\s+days?\b", re.I)
#: Bounds the listing does not take ("less than 30 days overdue", "between 30 and 60 days", "up to 30 days").
_UNSERVED_BOUND = re.compile(r"\b(?:less|fewer)\s+than\s+\d+\s+days?\b|\bbetween\s+\d+\s+and\s+\d+\s+days?\b|"
                             r"\b(?:up\s+to|at\s+most|within)\s+\d+\s+days?\b|\bexactly\s+\d+\s+days?\b", re.I)
#: A bound in days the reader leaves as a status span ("more than 90 days"): read here (_BEYOND, _AT_LEAST) or
#: asked about (_UNSERVED_BOUND).
_DAYS_BOUND = re.compile(r"\b\d{1,4}\s*\+?\s*days?\b", re.I)
#: The whole overdue ask with its bound ("more than 60 days past due", "overdue by more than 90 days").
_BOUND_WORDS = r"(?:(?:more|longer|less)\s+than\s+|over\s+|at\s+least\s+)?\d{1,4}\s+days?"
_PHRASE = re.compile(r"\b" + _BOUND_WORDS + r"\s+(?:overdue|past[- ]due)\b|"
                     r"\b(?:overdue|past[- ]due)\s+by\s+" + _BOUND_WORDS + r"\b", re.I)
_COUNT = re.compile(r"\bhow\s+many\b|\bnumber\s+of\b|\bcount\b|\bwie\s+viele\b|\banzahl\b", re.I)
_TOTAL = re.compile(r"\b(?:amount|total|sum|how\s+much|value|worth|owed?|owing|exposure|balance|payables?|"
                    r"betrag|summe|portion)\b|€|\bin\s+EUR\b|\bEUR\b|\bgross\b", re.I)
_LIST = re.compile(r"\b(?:which|list|show|what\s+invoices|invoice\s+numbers?|welche)\b", re.I)
#: "today", "now", "currently", "as of now": the as-of date of the question.
_TODAY = re.compile(r"\b(?:today|now|currently|at\s+present|as\s+things\s+stand|heute|aktuell)\b", re.I)
#: Words of another figure asked beside the overdue one ("the open total ... and the overdue portion", "payment
#: terms, and which ... overdue"): a compound question, left to its own path.
_OTHER_ASK = re.compile(r"\b(?:and|plus|also|as\s+well\s+as)\b[^?.;]*\b(?:overdue|past[- ]due)\b|"
                        r"\b(?:overdue|past[- ]due)\b[^?.;]*\b(?:and|plus|also|as\s+well\s+as)\b\s+(?:the|its|their|"
                        r"what|which|how)\b", re.I)
#: The overdue word negated ("not yet overdue", "not past due", "before they become overdue", "noch nicht
#: überfällig"): the opposite of the overdue listing, asked about rather than answered with the overdue ones.
_NEGATED = re.compile(
    r"\b(?:not|never|nicht)\s+(?:(?:yet|noch|already)\s+)?(?:(?:be(?:en)?|become|gone)\s+)?"
    r"(?:overdue|past[- ]due|(?:ü|ue)berf(?:ä|ae)llig\w*)\b|"
    r"\b(?:isn't|aren't|wasn't|weren't)\s+(?:yet\s+)?(?:overdue|past[- ]due)\b|"
    r"\bbefore\b[^.?!;]{0,40}?\b(?:overdue|past[- ]due)\b|\bnoch\s+nicht\s+f(?:ä|ae)llig\b", re.I)
#: A question about what a document says of overdue payments ("what does the agreement say about overdue
#: invoices", "what interest is charged on overdue payments"): the document search answers it, not the listing.
_DOCUMENT = re.compile(r"\b(?:agreements?|contracts?|clauses?|terms|provisions?|vertrag\w*|klausel\w*)\b", re.I)
_DOCUMENT_ASK = re.compile(r"\b(?:say|says|said|state[sd]?|stipulat\w*|provide[sd]?|specif\w*|regulat\w*|"
                           r"what\s+happens|consequences?|remed\w*|regel\w*)\b", re.I)
_CHARGE_ASK = re.compile(r"\b(?:interest|penalt\w*|charged?|surcharges?|late\s+(?:payment\s+)?fees?|"
                         r"verzugszins\w*|mahngeb\w*)\b", re.I)


def document_ask(text: str) -> bool:
    """Whether an overdue question asks what a document says (a clause, an interest or penalty charge).

    >>> [document_ask(t) for t in ("What does the agreement of Company A say about overdue invoices?",
    ...                            "What interest is charged on overdue payments?",
    ...                            "Which invoices of Company A are overdue under its payment terms?")]
    [True, True, False]
    """
    return bool(_CHARGE_ASK.search(text) or (_DOCUMENT.search(text) and _DOCUMENT_ASK.search(text)))


@dataclass(frozen=True)
class OverdueRequest:
    """What an overdue question asks: the company, the as-at day (and the words that named it), the bound in
    days, the suppliers and the shape (list, count or total)."""

    company_id: str | None
    as_of: dt.date
    as_of_words: str
    beyond_days: int
    supplier_ids: tuple[str, ...]
    measure: Measure
    problem: str = ""
    #: The words that asked it ("at least 30 days overdue", "past due"): named back in a clarification.
    phrase: str = ""
    #: "since March", "from 1 March on": the first invoice date considered (the listing's ``start_date``).
    dated_from: dt.date | None = None
    dated_words: str = ""


def _beyond(text: str) -> int:
    found = _BEYOND.search(text)
    if found is not None:
        return int(next(g for g in found.groups() if g is not None))
    least = _AT_LEAST.search(text)
    if least is not None:
        return max(int(next(g for g in least.groups() if g is not None)) - 1, 0)
    return 0


def measure_of(text: str) -> Measure:
    """The shape asked: a count, a total amount, or the invoices themselves (the default).

    >>> [measure_of(t) for t in ("How many invoices are overdue?", "total overdue amount in EUR",
    ...                          "Which invoices are overdue today?", "What are the payables overdue in EUR?")]
    ['count', 'total', 'list', 'total']
    """
    if _COUNT.search(text):
        return "count"
    if _LIST.search(text) and not re.search(r"\b(?:amount|total|sum|how\s+much)\b", text, re.I):
        return "list"
    return "total" if _TOTAL.search(text) else "list"


#: "from 1 March on", "from March 1st onwards", "starting 1 March", "as from 2026-03-01": an open start written
#: with "from"; read as the "since" period it is.
_FROM_ON = re.compile(r"\b(?:as\s+from|from|starting(?:\s+(?:from|on|with))?|beginning(?:\s+(?:from|on|with))?|"
                      r"ab)\s+(?:the\s+)?(.{3,30}?)(?:\s+(?:on(?:wards?)?|forwards?|and\s+later|or\s+later)\b|"
                      r"(?=\s+(?:that|which|who|are|is|were|and|still|past|overdue)\b|\s*[?,;.]|\s*$))", re.I)


_STARTING = re.compile(r"\b(?:as\s+from|from|since|starting(?:\s+(?:from|on|with))?|beginning(?:\s+(?:from|on|with))?|"
                       r"ab|seit)\s+(?:the\s+)?$", re.I)


_SINCE = re.compile(r"\b(?:since|from|starting|beginning|onwards?|seit|ab)\b", re.I)


def _opens(text: str, tr: Any, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the period is an open start ("since March", "from 1 March on"): only then are the invoices dated
    from it; "at month end April" names the as-at day, never a first invoice date."""
    if _SINCE.search(tr.source_text or ""):
        return True
    return bool(spans) and _STARTING.search(text[:spans[0][0]]) is not None


def _dated_from(text: str, as_of: dt.date) -> Any:
    """The open period a "from <day> on" phrase names (up to the as-of day), or ``None``."""
    from router.periods import resolve_period

    for m in _FROM_ON.finditer(text):
        since = resolve_period(f"since {m.group(1)}", as_of)
        if since.time_range is not None and not since.ambiguous:
            return since.time_range.model_copy(update={"source_text": " ".join(m.group(0).split())})
    return None


def overdue_request(reading: Reading, as_of: dt.date) -> OverdueRequest | None:
    """The overdue question ``reading`` asks, or ``None`` (no overdue word, or a compound question)."""
    from router.as_at import find_as_at
    from router.clerk_dates import as_at_day_without_year, period_end_day

    text = reading.text
    if not _OVERDUE.search(text) or _OTHER_ASK.search(text) or document_ask(text):
        return None
    at = find_as_at(text)
    no_day = ""
    if at is None:
        # "overdue on 15 April 2026", "past due at 2026-04-15": the day is the as-at day (the period reader would
        # read a month there)
        from router.as_at import _DAY, AsAt, _day

        on = [(d, m) for m in re.finditer(rf"\b(?:on|at)\s+(?:the\s+)?{_DAY}(?![\w-]|\.\d)", text, re.I)
              if (d := _day(m.group("day"))) is not None]
        if len({d for d, _ in on}) == 1:
            at = AsAt(on[0][0], " ".join(on[0][1].group(0).split()), on[0][1].span())
        elif not on and (no_year := as_at_day_without_year(text, as_of)) is not None:
            if no_year[0] is None:
                no_day = no_year[1]
            else:
                at = AsAt(no_year[0], no_year[1], (0, 0))  # "as at 30 April": the latest 30 April up to today
    day, words = (at.day, at.words) if at is not None else (as_of, "today" if _TODAY.search(text) else "")
    e = reading.entities
    problem = f"'{no_day}' names no calendar day" if no_day else ""
    tr = reading.period.time_range if not reading.period.ambiguous else None
    if tr is None and not reading.period.ambiguous:
        tr = _dated_from(text, as_of)  # "from 1 March on", "starting 1 March": the invoices dated since that day
    elif (tr is not None and tr.end - tr.start == dt.timedelta(days=1) and len(reading.period.spans) == 1
          and _STARTING.search(text[:reading.period.spans[0][0]])):
        # "starting 2026-03-01", "from 01.03.2026 on": the day starts the invoice dates, it is no as-at day
        tr = tr.model_copy(update={"end": max(as_of + dt.timedelta(days=1), tr.end)})
    dated_from, dated_words = None, ""
    if (tr is not None and tr.end - tr.start > dt.timedelta(days=1) and tr.end > day and tr.start <= day
            and _opens(text, tr, reading.period.spans)):
        # "posted invoices since March that are past due today", "from 1 March on ... as of today": the invoices
        # dated from the period's start up to the as-at day (the listing's start_date; it never lists an invoice
        # dated after the as-at day), judged as at that day
        dated_from, dated_words = tr.start, tr.source_text or tr.label
        tr = None
    if at is None and tr is not None:
        spans = reading.period.spans
        end_day = period_end_day(text, tr, spans[0] if len(spans) == 1 else None)
        if tr.end - tr.start == dt.timedelta(days=1):
            day, words = tr.start, tr.source_text or f"on {tr.start}"  # "overdue on 15 April 2026": that day
        elif end_day is not None:
            day, words = end_day, f"as at {end_day} (the end of {tr.source_text or tr.label})"  # "at month end"
        else:
            # a period is no day to judge overdue at (invoices dated in it? the state at its end?): asked
            problem = (f"'{tr.source_text or tr.label}' is a period, and overdue is judged as at one day (say "
                       f"'as at <day>'; the invoices dated in a period are not filtered here)")
    elif at is None and reading.period.ambiguous:
        problem = f"the period was not understood ({reading.period.reason})"
    negated = _NEGATED.search(text)
    if negated is not None:
        # the opposite of the listing: answering with the overdue invoices would be a wrong list, so it is asked
        problem = (f"'{' '.join(negated.group(0).split())}' asks for the invoices not overdue, and the overdue "
                   "listing gives only those past their due date (I can list the open invoices, or the overdue "
                   "ones)")
    if problem:
        pass
    elif _UNSERVED_BOUND.search(text):
        problem = (f"the bound '{_UNSERVED_BOUND.search(text).group(0)}' "  # type: ignore[union-attr]
                   "is not one the overdue listing takes (it takes 'more than N days')")
    elif day > as_of:
        problem = f"the as-at day {day} is after today ({as_of}): no invoice is overdue in the future yet"
    phrase = negated or _PHRASE.search(text) or _OVERDUE.search(text)
    return OverdueRequest(company_id=e.company_id, as_of=day, as_of_words=words or f"as of {day}",
                          beyond_days=_beyond(text), supplier_ids=tuple(e.supplier_ids),
                          measure=measure_of(text), problem=problem,
                          phrase=" ".join(phrase.group(0).split()) if phrase else "overdue",
                          dated_from=dated_from, dated_words=dated_words)


def _intents() -> Any:
    from router.extensions import _aggregate

    return _aggregate()


#: An invoice currency named in the question ("overdue USD invoices", "dollar invoices"); the reader does not
#: always keep it, and the listing has no currency parameter (its amounts are in the reporting currency).
_CURRENCY = re.compile(r"\b(?:USD|GBP|CHF|JPY|CNY|SEK|NOK|DKK|PLN|CZK|HUF|EUR|dollars?|pounds?|francs?|yen)\b|[$£¥]",
                       re.I)
_CURRENCY_WORDS = {"dollar": "USD", "dollars": "USD", "$": "USD", "pound": "GBP", "pounds": "GBP", "£": "GBP",
                   "franc": "CHF", "francs": "CHF", "yen": "JPY", "¥": "JPY"}


def unserved_constraints(reading: Reading, reporting_currency: str) -> list[str]:
    """The constraints of ``reading`` that ``finance.overdue_invoices`` takes no parameter for (it takes company,
    as-at day, days bound, first invoice date and suppliers): a product group, products, excluded suppliers,
    groups, products or companies, an amount bound, an invoice currency other than the reporting one, a status
    other than the open (posted) one."""
    e = reading.entities
    # the reader's default statuses (posted, paid) are no ask; a status it read ("paid", "draft") is
    named = () if set(reading.statuses) == {"posted", "paid"} else reading.statuses
    statuses = list(dict.fromkeys(
        s for s in (*named, *reading.asked_statuses, *([reading.excluded_status] if reading.excluded_status else ()))
        if s not in ("posted", "open", "overdue")))
    excluded = [*reading.excluded_supplier_ids, *reading.excluded_group_ids, *reading.excluded_product_codes,
                *reading.excluded_company_ids]
    # a currency named inside an amount ("above 5000 EUR") is the amount's, asked about with it
    in_amount = {a.currency for a in reading.amounts if a.text}
    named_currencies = {*reading.currencies, *(_CURRENCY_WORDS.get(m.group(0).lower(), m.group(0).upper())
                                               for m in _CURRENCY.finditer(reading.text))}
    currencies = sorted(c for c in named_currencies if c != reporting_currency and c not in in_amount)
    return [*([f"product group {e.product_group or e.product_group_id}"] if e.product_group_id else []),
            *([f"products {', '.join(e.product_codes)}"] if e.product_codes else []),
            *([f"the exclusion of {', '.join(excluded)}"] if excluded else []),
            *([f"the amount '{a.text}'" for a in reading.amounts if a.text]),
            *([f"the invoice currency {', '.join(currencies)}"] if currencies else []),
            *([f"the status {', '.join(statuses)}"] if statuses else [])]


def route_overdue(text: str, reading: Reading, inputs: Any, req: OverdueRequest) -> Any:
    """The plan of an overdue question: the company's payment terms and its overdue invoices, or a clarification
    (no company, a bound or day the listing cannot take)."""
    from router.extensions import _result
    from router.reader import unread_clarifications

    e = reading.entities
    # span accounting: a word the reading could not place (an unknown company, a date) is asked about, never
    # dropped; the overdue word itself is what this plan reads
    unread = tuple(u for u in reading.not_understood
                   if not (u.kind == "status" and (_OVERDUE.search(u.text) or _DAYS_BOUND.search(u.text))))
    if unread:
        reasons, questions = unread_clarifications(unread)
        if reasons:
            return _result(text, reading, inputs, workflow="clarification", entities=e, reasons=reasons,
                           questions=questions, intents=_intents(), rule=f"{RULE}:unread:clarification")
    currency = next((c.reporting_currency for c in inputs.gazetteer.companies if c.company_id == req.company_id),
                    "EUR")
    cannot = unserved_constraints(reading, currency)
    if cannot:
        # the listing takes company, as-at day, days bound and suppliers only: any other constraint would be
        # silently dropped from the list, so each is named and asked about (as the cut-off list does)
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=[f"overdue: {what} cannot be applied to the overdue list" for what in cannot],
                       questions=[f"I can list the overdue invoices by company, as-at day, days past due and "
                                  f"supplier, but not by {what}. Do you want them without it?" for what in cannot],
                       intents=_intents(), rule=f"{RULE}:unserved:clarification")
    if req.problem:
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=[f"overdue: '{req.phrase}': {req.problem}"],
                       questions=[f"'{req.phrase}' is computed as at a day, over one company's open invoices, "
                                  f"with 'more than N days' past the due date; {req.problem}. Which do you want?"],
                       intents=_intents(), rule=f"{RULE}:clarification")
    if req.company_id is None:
        names = ", ".join(f"{c.company_name} ({c.company_id})" for c in inputs.gazetteer.companies)
        return _result(text, reading, inputs, workflow="clarification", entities=e,
                       reasons=["company: overdue needs one company (the payment term of its agreement)"],
                       questions=[f"Overdue is judged against the payment term of one company's agreement. Which "
                                  f"company do you mean: {names}?"],
                       intents=_intents(), rule=f"{RULE}:company:clarification")
    params: dict[str, Any] = {"company_id": req.company_id, "as_of_date": req.as_of.isoformat(),
                              "beyond_days": req.beyond_days, "reporting_currency": currency}
    if req.supplier_ids:
        params["supplier_ids"] = list(req.supplier_ids)
    if req.dated_from is not None:
        params["start_date"] = req.dated_from.isoformat()
    steps = (
        PlanStep(step_id="payment-terms", tool="metrics.query",
                 arguments={"metric": TERMS_METRIC, "parameters": {"company_id": req.company_id},
                            "group_by": [], "grain": None},
                 purpose=f"The payment terms of {req.company_id}'s agreement versions ({TERMS_METRIC})."),
        PlanStep(step_id="overdue-invoices", tool="metrics.query",
                 arguments={"metric": OVERDUE_METRIC, "parameters": params, "group_by": [], "grain": None},
                 purpose=f"{req.company_id}'s open invoices overdue as at {req.as_of} ({OVERDUE_METRIC})."))
    read_as = f"{e.company_name or req.company_id} ({req.company_id}), open invoices as at {req.as_of}"
    if req.supplier_ids:
        read_as += ", suppliers " + ", ".join(req.supplier_ids)
    if req.dated_from is not None:
        read_as += f", invoices dated from {req.dated_from} ('{req.dated_words}') up to {req.as_of}"
    routed = _result(text, reading, inputs, workflow="overdue_invoices", entities=e, steps=steps,
                     intents=_intents(), read_as=read_as, statuses=("posted",), currency=currency,
                     rule=f"{RULE}:{req.measure}:{req.beyond_days}:{req.as_of.isoformat()}")
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": None})})


# -- composing -----------------------------------------------------------------------------------------------------
def _rule(rule_hits: Sequence[str]) -> tuple[Measure, int, dt.date] | None:
    for hit in rule_hits:
        parts = hit.split(":")
        if len(parts) == 4 and parts[0] == RULE and parts[1] in ("list", "count", "total"):
            return parts[1], int(parts[2]), dt.date.fromisoformat(parts[3])  # type: ignore[return-value]
    return None


def _metric(d: _Draft, step: str) -> Any:
    from router.tools import MetricToolResponse

    o = d.run.outcomes.get(step)
    return o.output if o is not None and o.status == "ok" and isinstance(o.output, MetricToolResponse) else None


def _rows(m: Any) -> list[dict[str, Any]]:
    return list(m.rows) or ([dict(m.values)] if m.values.get("invoice_number") or m.values.get("agreement_id")
                            else [])


def _day(value: object) -> dt.date | None:
    if value is None or value == "":
        return None
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def terms_in_force(rows: Iterable[Mapping[str, Any]], day: dt.date) -> list[Mapping[str, Any]]:
    """The term rows whose validity [valid_from, valid_to) holds ``day``."""
    out = []
    for r in rows:
        start, end = _day(r.get("valid_from")), _day(r.get("valid_to"))
        if start is not None and start <= day and (end is None or end > day):
            out.append(r)
    return out


def _cents(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def overdue_total(rows: Iterable[Mapping[str, Any]]) -> Decimal:
    """The exact sum of the overdue invoices' gross totals (the listing's rows)."""
    return sum((Decimal(str(r.get("grand_total") or 0)) for r in rows), Decimal(0))


def overdue_rederived(rule_hits: Sequence[str]) -> frozenset[str]:
    """The overdue listing's amounts are exact (10 decimals) and shown rounded: the validator takes them from
    :func:`overdue_amounts`, not one by one."""
    return frozenset({OVERDUE_METRIC}) if _rule(rule_hits) is not None else frozenset()


def overdue_amounts(rule_hits: Sequence[str], metrics: Iterable[Any]) -> set[tuple[str, str]]:
    """The amounts the overdue composer may show beside the listing's own rows: their total."""
    if _rule(rule_hits) is None:
        return set()
    out: set[tuple[str, str]] = set()
    for m in metrics:
        if getattr(m, "metric", None) == OVERDUE_METRIC and m.currency:
            rows = _rows(m)
            out.add((_cents(overdue_total(rows)), str(m.currency)))
            out |= {(_cents(Decimal(str(r.get("grand_total") or 0))), str(m.currency)) for r in rows}
    return out


def _term_text(term: Mapping[str, Any], day: dt.date) -> str:
    clause = f", clause {term.get('clause')}" if term.get("clause") else ""
    return (f"{term.get('term_days')} days net from the invoice date, the term of {term.get('agreement_id')} "
            f"(version {term.get('agreement_version')}, effective {term.get('valid_from')}{clause}: "
            f"\"{term.get('sentence')}\"), the version in force on {day}")


def _earlier_terms(terms: Sequence[Mapping[str, Any]], term: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Earlier versions of the company's agreements that stated another term (the invoices of their days were
    issued under it)."""
    start = _day(term.get("valid_from"))
    return [t for t in terms if t.get("term_days") != term.get("term_days")
            and (_day(t.get("valid_from")) or dt.date.max) < (start or dt.date.min)]


@composer("overdue_invoices")
def _compose_overdue(d: _Draft) -> None:
    """``overdue_invoices``: the company's open invoices past their due date as at a day, by the governed term."""
    ruled = _rule(d.routing.rule_hits)
    terms_m, overdue_m = _metric(d, "payment-terms"), _metric(d, "overdue-invoices")
    if ruled is None or terms_m is None or overdue_m is None:
        d.status, d.result = "failed", {"status": "failed"}
        d.text = "The payment terms or the overdue invoices could not be read; no answer is given." + d.failure_text
        return
    measure, beyond, day = ruled
    company = str(terms_m.parameters.get("company_id") or overdue_m.parameters.get("company_id"))
    terms = _rows(terms_m)
    in_force = terms_in_force(terms, day)
    distinct = sorted({int(t.get("term_days") or 0) for t in in_force})
    if len(distinct) != 1:
        why = ("no agreement of it states a payment term in force on that day" if not in_force else
               "its agreements in force state different payment terms (" +
               ", ".join(f"{t.get('agreement_id')}: {t.get('term_days')} days" for t in in_force) + ")")
        d.status = "unsupported"
        d.result = {"status": "unsupported", "company_id": company, "as_of": day.isoformat(), "reason": why}
        d.text = (f"Overdue cannot be computed for {company} as at {day}: {why}, so no due date is known and no "
                  "invoice is called overdue. I can list its open (posted, not yet paid) invoices as at that day "
                  "instead.")
        return
    term = in_force[0]
    rows = _rows(overdue_m)
    cur = str(overdue_m.currency or "")
    bound = f"more than {beyond} days past" if beyond else "past"
    first = overdue_m.parameters.get("start_date")
    dated = f"from {first} up to {day}" if first and str(first) > "1990-01-01" else f"up to {day}"
    reading = (f"Read as: open invoices (posted, not paid; cancelled, draft and duplicate invoices excluded) dated "
               f"{dated} whose due date is {bound} {day}; due date = invoice date + {_term_text(term, day)}. "
               "An invoice due on the as-at day itself is not yet overdue.")
    if day < d.routing.as_of:
        # the invoices' statuses are those recorded today and no payment date is on file: an invoice paid after
        # the as-at day shows as paid, so it is missing from a past day's list
        reading += (f" The status is as recorded today ({d.routing.as_of}); no payment dates are on file, so an "
                    f"invoice open on {day} but paid since is not listed.")
    earlier = _earlier_terms(terms, term)
    start = term.get("valid_from")
    before = [str(r.get("invoice_number")) for r in rows if start and str(r.get("invoice_date")) < str(start)]
    if earlier:
        olds = "; ".join(f"{t.get('term_days')} days (version {t.get('agreement_version')}, effective "
                         f"{t.get('valid_from')})" for t in earlier)
        reading += (f" Earlier versions stated {olds}; the term in force on {day} is applied to every open invoice"
                    + (f" (of those listed, {', '.join(before)} were dated before {start})" if before else "") + ".")
    elif before:
        # no version on file was in force on these invoices' dates: the applied term is the later one
        reading += (f" Of those listed, {', '.join(before)} were dated before {start}, when the applied term took "
                    "effect; no term in force on their dates is on file, and the applied term is used for them.")
    numbers = [str(r.get("invoice_number")) for r in rows]
    total = overdue_total(rows)
    lines = sum(int(r.get("line_count") or 0) for r in rows)
    who = company + (f" from {', '.join(overdue_m.parameters.get('supplier_ids') or ())}"
                     if overdue_m.parameters.get("supplier_ids") else "")
    # the count and total are derived from the rows: a listing cut at its row cap, or partial, leaves some
    # overdue invoices out, so the figures are a lower bound and the answer is partial, never complete
    cut = [why for m, name in ((overdue_m, OVERDUE_METRIC), (terms_m, TERMS_METRIC))
           for why in ([f"{name} was truncated at its row cap"] if m.truncated else [])
           + ([f"{name} returned a partial result"] if m.status == "partial" else [])]
    partial = (f"PARTIAL: {'; '.join(cut)}, so the figures below cover only the {len(rows)} invoices returned, "
               "not every overdue invoice (the count and total are at least these).") if cut else ""
    if not rows and cut:
        head = f"No overdue invoice of {who} was returned as at {day}, but the result is incomplete."
    elif not rows:
        d.status = "no_data"
        head = f"No open invoice of {who} is {bound.replace('past', 'past due')} as at {day}."
    elif measure == "count":
        head = (f"{len(rows)} invoices of {who} are overdue{f' by more than {beyond} days' if beyond else ''} as at "
                f"{day} (the number of rows of {OVERDUE_METRIC}); together {_cents(total)} {cur} gross.")
    elif measure == "total":
        head = (f"The overdue amount of {who}{f' (more than {beyond} days past due)' if beyond else ''} as at {day} "
                f"is {_cents(total)} {cur} gross (net + VAT, converted at the corporate rate on each posting date), "
                f"the sum of {len(rows)} overdue invoices ({lines} invoice lines) of {OVERDUE_METRIC}.")
    else:
        head = (f"{len(rows)} invoices of {who} are overdue{f' by more than {beyond} days' if beyond else ''} as at "
                f"{day}, {_cents(total)} {cur} gross in total.")
    listed = "; ".join(f"{r.get('invoice_number')} ({r.get('supplier_id')}, dated {r.get('invoice_date')}, due "
                       f"{r.get('due_date')}, {r.get('days_overdue')} days overdue, "
                       f"{_cents(Decimal(str(r.get('grand_total') or 0)))} {cur})"
                       for r in rows)
    d.text = " ".join(p for p in (partial, head, f"Invoices: {listed}." if rows else "", reading) if p)
    if rows or cut:
        d.status = "partial" if cut else "answered"
    d.result = {"status": "partial" if cut else "complete" if rows else "no_data", "partial_reasons": cut,
                "company_id": company, "as_of": day.isoformat(), "dated_from": str(first) if first else None,
                "beyond_days": beyond, "measure": measure, "invoices": numbers, "count": len(rows),
                "total": _cents(total), "currency": cur, "lines": lines,
                "payment_term": {k: term.get(k) for k in ("agreement_id", "agreement_version", "term_days",
                                                          "valid_from", "clause", "sentence")}}
    record = Citation(source_id=f"{term.get('agreement_id')}:payment_term:v{term.get('agreement_version')}",
                      kind="record", document_id=str(term.get("agreement_id")),
                      role=f"payment term applied ({term.get('term_days')} days net)")
    d.citations = [*d.citations, record]
    d.sources = tuple(c.source_id for c in d.citations)
    cite_lines(d, overdue_m.source_line_ids, f"invoice line of an overdue invoice ({OVERDUE_METRIC})")
    d.inputs = {"metric": overdue_m.metric, "parameters": overdue_m.parameters}


__all__ = ["OverdueRequest", "measure_of", "overdue_amounts", "overdue_rederived", "overdue_request",
           "route_overdue", "terms_in_force"]
