"""Derived FP&A measures: run-rate projections, the average invoice value and supplier concentration.

"Annualise Company A's Q1 2026 spend", "if Company B keeps April's pace, what would Q2 land at", "average invoice
value (incl. tax) for Alpenland in Q1", "the top-2 vendors' share of Company A's spend": each is a governed figure
read the usual way (the company, period, suppliers and product groups of the question) and then one measure of it.

:func:`detect` finds the measure's words and takes them out of the question, leaving the base question (the spend
total, or for concentration the top-N supplier ranking) that the ordinary reading answers, every other span still
read or named as not understood. The caller (router/service.py) answers the base question, rebuilds the governed
parameters from its inputs (:func:`base_params`), calls the measure's governed metric directly with them and checks
that the call reproduces the base figure (otherwise a filter was not carried over and nothing is derived):

* projection: ``finance.spend_projection`` (exact sum x horizon / calendar months of the base period, months without
  spend included, rounded once; a derivation from the cent-rounded total would carry its rounding error times
  horizon / months, so it is the metric that multiplies);
* average invoice value: ``finance.average_invoice_value`` (exact gross sum of the invoices / their number, credit
  notes are not invoices);
* concentration: ``finance.spend_ranking`` (the top N suppliers; a tie at the cut is said, not broken) and
  ``finance.supplier_share`` with those suppliers (the exact share of the same lines).
* period ranking (router/period_ranking.py): the base is the selection's spend by month (quarter), and its
  governed breakdown rows are ranked as they are (no further call; a tie at the cut is asked about).

The answer states the formula and the inputs, so the figure can be checked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from router.period_ranking import PeriodRanking
from router.period_ranking import detect as detect_period_ranking
from router.periods import resolve_period
from router.run_rate import whole_months

Kind = Literal["projection", "average_invoice_value", "concentration", "period_ranking"]
PROJECTION_METRIC = "finance.spend_projection"
AVERAGE_METRIC = "finance.average_invoice_value"
RANKING_METRIC = "finance.spend_ranking"
SHARE_METRIC = "finance.supplier_share"
SPEND_METRICS = ("finance.company_spend", "finance.aggregate_spend")

_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
            "ten": 10, "twelve": 12}
_N = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"


@dataclass(frozen=True)
class DerivedAsk:
    """A derived measure asked for: its kind, the base question it is computed from and its own parameter."""

    kind: Kind
    base: str
    #: the words the measure was read from (said in the answer)
    words: str
    horizon_months: int | None = None
    top_n: int | None = None
    #: why the measure's words cannot be read as the measure of one base figure (a comparison with it, a listing
    #: filtered by it, a share of something other than spend): the answer is a clarification naming the words
    refused: str | None = None
    #: a period ranking's own reading (router/period_ranking.py)
    periods: PeriodRanking | None = None
    #: a concentration's complement: the share of the tail, every supplier outside the top N
    tail: bool = False


# -- words around a measure that make it something else than the measure of one figure --------------------------
#: A comparator or listing right before the measure: "invoices above the average invoice value", "exceeding".
_COMPARED_BEFORE = re.compile(
    r"\b(?:above|below|over|under|beyond|exceed(?:s|ed|ing)?|than|vs\.?|versus|against|compared?\s+(?:to|with)|"
    r"relative\s+to|within)\s*$", re.I)
#: A comparison or a listing anywhere in the question: the measure is then a threshold or one side of a comparison.
_COMPARISON = re.compile(
    r"\b(?:than|compar(?:e|ed|es|ing|ison)|vs\.?|versus|exceed(?:s|ed|ing)?|outperform\w*|differen(?:ce|t))\b"
    r"|\b(?:which|list|how\s+many|number\s+of)\b|\bshow\s+(?:me\s+)?(?:all\s+|the\s+)*(?:invoices|documents|bills)\b"
    r"|\b(?:invoices|documents|bills)\s+(?:that|which|where|whose)\b", re.I)
#: The object of a share that is not spend: "what percentage of the invoices", "share of the invoice count".
_COUNT_SHARE = re.compile(r"\b(?:invoices|documents|bills|transactions|orders|lines|count|number\s+of)\b", re.I)


def _refused(kind: Kind, words: str, why: str) -> DerivedAsk:
    return DerivedAsk(kind, "", words, refused=f"'{words}' {why}")


def _compared(question: str, span: tuple[int, int], kind: Kind, words: str) -> DerivedAsk | None:
    """A refusal when the measure is compared with or filters a listing (never answered as the measure alone)."""
    if _COMPARED_BEFORE.search(question[:span[0]]) or _COMPARISON.search(question[:span[0]] + " " + question[span[1]:]):
        return _refused(kind, words, "is compared with or used to select something (a threshold, a listing or a "
                        "comparison), which is not one figure I can derive; ask for the measure on its own")
    return None


# -- projections ---------------------------------------------------------------------------------------------------
#: Words that ask for a year's worth of the base period's pace on their own ("annualise", "annualised run-rate").
_ANNUAL = re.compile(
    r"\b(?:(?:on|in)\s+(?:an?\s+)?annuali[sz]ed\s+(?:basis|terms)"
    r"|annuali[sz](?:e|ed|es|ing)(?:\s+(?:figure|equivalent|basis))?"
    r"|(?:annual|full[- ]year|yearly)\s+(?:run[- ]?rate|projection|equivalent)"
    r"|(?:extrapolat\w+|project(?:ed|ion)?)\s+(?:to|over|for)\s+(?:a|the)\s+(?:full|whole)\s+year"
    # "projected full-year spend", "a full-year projection", "12-month extrapolation"
    r"|project(?:ed|ion)\s+(?:of\s+(?:the\s+)?)?(?:full[- ]year|annual|yearly|12[- ]months?)"
    r"|(?:full[- ]year|yearly|12[- ]months?)\s+(?:projection|extrapolation|estimate))\b", re.I)
#: A pace the question projects: "at the Q1 monthly pace", "keeps April's pace", "at this run-rate".
#: The nouns of a pace: "pace", "run-rate", "tempo", and a rate of spending ("monthly rate", "burn rate"; never a
#: bare "rate", which may be an exchange rate). A "trend" is a pace only as a condition ("if the trend continues"):
#: "the spend trend over 6 months" asks the months, not a projection.
_PACE_NOUN = (r"(?:pace|run[- ]?rate|tempo|rhythm|(?:monthly|spending|spend|burn)\s+rate|"
              r"trend(?=\s+(?:holds|continues|persists)))")
_PACE = re.compile(
    r"\b(?:if\s+)?(?:at\s+(?:the|this|that|its|their|a|current)\s+)?(?:current\s+|same\s+|monthly\s+)*"
    rf"{_PACE_NOUN}\b"
    # "if Q1's monthly pace holds": the condition's verb after the pace
    r"(?:\s+(?:holds|held|continues|continued|persists|persisted|stays(?:\s+the\s+same)?|stayed|"
    r"(?:is|was)\s+(?:maintained|sustained|kept(?:\s+up)?)))?"
    rf"|\b(?:if\s+)?(?:keeps?|holds?|maintains?|sustains?|continues?(?:\s+at)?)\s+(?=[\w'’ ]*\b{_PACE_NOUN}\b)",
    re.I)
#: The verb of a pace's condition said after the pace's period ("if the tempo of March 2026 holds").
_HOLDS = re.compile(r"\b(?:holds|held|continues|continued|persists|persisted|stays\s+the\s+same|stayed|"
                    r"(?:is|was)\s+(?:maintained|sustained|kept\s+up))\b"
                    r"(?=\s*[,;?.!]|\s*$|\s+(?:what|where|how|for|at|in)\b)", re.I)
#: The "if" ("at the") of a pace's condition left before the pace's period once the pace went ("if H2-25 pace
#: continued", "at the Q1-26 pace").
_IF_BEFORE = re.compile(r"\b(?:if|at)\s+(?:the\s+)?(?=[^\s,;?]{2,12}(?:['’]s)?\s*$)", re.I)
#: The projected span: "for a full half-year", "over a full year", "for 6 months".
_SPAN = re.compile(
    r"\b(?:for|over|across)\s+(?:a|an|the)?\s*(?:(?:full|whole|entire|complete)\s+"
    r"(?P<unit>half[- ]?year|half|year|quarter|twelve\s+months)|(?:full\s+)?(?P<n>\d{1,2})\s+months)\b", re.I)
#: The projected period: "what would Q2 2026 land at", "where would H2 end up".
_TARGET = re.compile(
    r"[,;]?\s*\b(?:what|where|how\s+much)\s+(?:would|will|could)\s+(?P<target>[\w' -]+?(?:\s*\([\w' -]+\))?)\s+"
    r"(?:land(?:\s+at)?|come\s+(?:in\s+)?(?:at|to)|end\s+up(?:\s+at)?|total|reach|be)\b", re.I)
#: A span named as the projected period: "what would a full year be", "where would the whole half-year land".
_TARGET_SPAN = re.compile(
    r"(?:(?:a|an|the)?\s*(?:(?:full|whole|entire|complete)\s+)?(?P<unit>half[- ]?year|year|quarter|twelve\s+months)"
    r"|(?:a|an|the)?\s*(?:full\s+|next\s+)?(?P<n>\d{1,2})\s+months)"
    # "what would 6 months of spend come to": the span's spend named after it
    r"(?:\s+(?:of\s+)?(?:spend|spending|purchases|costs))?", re.I)
#: A projection named with its projected period: "full-year 2026 projection" (written "in 2026 projection" by the
#: period notation), "a forecast for H2 2026", "projected Q2 spend".
_PROJECTION_NOUN = r"(?:projection|forecast|estimate|extrapolation|outlook)"
_PROJECTED = re.compile(
    rf"\b(?:in|for|over)\s+(?P<target>[\w' -]{{2,20}}?)\s+{_PROJECTION_NOUN}\b"
    rf"|\b{_PROJECTION_NOUN}\s+(?:for|of|over)\s+(?:the\s+)?(?P<target2>[\w' -]{{2,20}}?)(?=\s*(?:[,;?.!]|$))", re.I)
_BASED_ON = re.compile(r"\b(?:based\s+on|from|using|on\s+the\s+basis\s+of)\s+(?=(?:the\s+)?(?:last|past|previous|"
                       r"Q[1-4]|H[12]|FY|\w+\s+\d{4}|\d{4}|january|february|march|april|may|june|july|august|"
                       r"september|october|november|december))", re.I)
#: Words that only say what the figure is for.
_PURPOSE = re.compile(r"\b(?:for\s+(?:the|our|a)\s+(?:forecast|budget|plan(?:ning)?|projection)s?)\b", re.I)
_SPEND_WORD = re.compile(r"\b(?:spend|spent|spending|expenditure|costs?|purchases?)\b", re.I)
_UNIT_MONTHS = {"year": 12, "twelve months": 12, "half-year": 6, "half year": 6, "halfyear": 6, "half": 6,
                "quarter": 3}


def _months_of(unit: str | None, n: str | None) -> int:
    if n:
        return int(n)
    return _UNIT_MONTHS[re.sub(r"\s+", " ", str(unit).lower())]


def _strip(question: str, spans: list[tuple[int, int]]) -> str:
    """``question`` without the spans, its spaces and commas tidied."""
    out, last = [], 0
    for start, end in sorted(spans):
        if start < last:
            start = last
        out.append(question[last:start])
        last = max(last, end)
    out.append(question[last:])
    text = " ".join("".join(out).split())
    text = re.sub(r"\s+([,.;?!)])", r"\1", text)
    text = re.sub(r"^[,;\s]+|[,;]\s*(?=[?.!]|$)", "", text)
    text = re.sub(r"\(\s*\)", "", text)
    # an article left before a preposition once its noun went ("give me a for Kestrel")
    # (only after a verb or at the start: "Company A in Q1" keeps its letter)
    text = re.sub(r"(?:^|(?<=\bme\s)|(?<=\bis\s)|(?<=\bwas\s))(?:[Aa]|[Aa]n|[Tt]he)\s+"
                  r"(?=(?:for|of|at|in|from|with|to|across|based)\b)", "", text)
    return " ".join(text.split())


def _with_spend(base: str) -> str:
    """The base question with a spend noun (the measure's words may have been its only figure word)."""
    if _SPEND_WORD.search(base):
        return base
    if re.match(r"(?:for|of|at|in|across|with|from)\b", base, re.I):
        return f"spend {base}"  # "for Company A in Q1": the noun before its complements
    body = base.rstrip("?.! ")
    return f"{body} spend{base[len(body):]}".strip()


def _target_months(target: str, as_of: dt.date) -> int | None:
    """The whole months of a projected period ("Q2 2026", "a full quarter", "a full quarter (Q2)"), or ``None``."""
    target = target.strip()
    glossed = re.fullmatch(r"(?P<head>.*?)\s*\((?P<gloss>[^()]*)\)", target)
    for text in ((glossed.group("head"), glossed.group("gloss")) if glossed else (target,)):
        period = resolve_period(text, as_of).time_range
        if period is not None:
            months = whole_months(period.start, period.end)
            if months is not None:
                return months
        named = _TARGET_SPAN.fullmatch(text.strip())
        if named is not None:
            return _months_of(named.group("unit"), named.group("n"))
    return None


def _projection(question: str, as_of: dt.date) -> DerivedAsk | None:
    annual = _ANNUAL.search(question)
    paces = list(_PACE.finditer(question))
    span = _SPAN.search(question)
    target = _TARGET.search(question)
    horizon: int | None = None
    cut: list[tuple[int, int]] = []
    words: list[str] = []
    target_months: int | None = None
    projected = _PROJECTED.search(question) if paces and target is None and span is None else None
    if target is not None:
        target_months = _target_months(target.group("target"), as_of)
    elif projected is not None:
        target_months = _target_months(projected.group("target") or projected.group("target2"), as_of)
        if target_months is not None:
            # (cut as a target's words are: the projected period is not the base period)
            target = projected
    if annual is not None:
        horizon, words = 12, [annual.group(0)]
        cut.append(annual.span())
    elif paces and span is not None:
        horizon, words = _months_of(span.group("unit"), span.group("n")), [span.group(0)]
        cut.append(span.span())
    elif paces and target_months is not None:
        assert target is not None
        horizon, words = target_months, [target.group("target")]
    if horizon is None:
        return None
    # "what would Q2 land at": the target names the horizon (its period is not the base period)
    if target is not None:
        if target_months is not None:
            cut.append(target.span())
            if target is projected:
                words = [target.group(0)]
        else:
            # "what would reagents spend be": the question words go, the words between them stay
            cut.extend([(target.start(), target.start("target")), (target.end("target"), target.end())])
    cut.extend(m.span() for m in paces)
    cut.extend(m.span() for m in _BASED_ON.finditer(question))
    cut.extend(m.span() for m in _PURPOSE.finditer(question))
    if paces:
        # "if the pace of March holds": the condition's verb after the pace's own period ("of March")
        cut.extend(m.span() for m in _HOLDS.finditer(question))
        # "if H2-25 pace continued": the condition's "if" before the pace's own period
        for pace in paces:
            before = _IF_BEFORE.search(question, 0, pace.start())
            if before is not None:
                cut.append(before.span())
    base = _strip(question, cut)
    base = re.sub(r"^(?:if|at)\b\s*", "", base, flags=re.I)
    base = re.sub(r"^(?:the|its|their)\s+(?:of\s+)?", "", base, flags=re.I)
    base = re.sub(r"\b(?:if|at)(?:\s+(?:the|its|their|this|that))?\s*(?=[,?.!]|$)", "", base, flags=re.I).strip(" ,:")
    return DerivedAsk("projection", _with_spend(base), " ".join(words), horizon_months=horizon)


# -- the average invoice value -------------------------------------------------------------------------------------
_AVERAGE = re.compile(
    # ("ticket": the trade's word for one invoice's amount, "average ticket size")
    r"\b(?:the\s+)?(?:average|avg\.?|mean)\s+(?:gross\s+)?(?:invoice|bill|ticket)\s+(?:value|size|amount|total)s?\b"
    r"|\b(?:the\s+)?(?:average|avg\.?|mean)\s+(?:gross\s+)?(?:value|size|amount|total)\s+(?:of\s+an?\s+|of\s+the\s+|"
    r"per\s+|of\s+)?invoices?\b"
    # "how big is the average invoice at Company B": the invoice itself, not its count, lines or dates
    r"|\b(?:the\s+)?(?:average|avg\.?|mean)\s+(?:gross\s+)?(?:invoice|bill)"
    r"(?=\s*(?:[,?.!]|$|\b(?:at|for|of|in|from|with|to|across)\b))"
    # "average spend per invoice", "average per invoice", "mean amount per bill": the spend divided by invoices
    r"|\b(?:the\s+)?(?:average|avg\.?|mean)\s+(?:gross\s+)?(?:(?:spend(?:ing)?|amount|value|cost|total)\s+)?"
    r"(?:per|an?|each)\s+(?:invoice|bill)\b"
    # "avg invoice Epsilon Instruments": a name right after (capitalised), not "average invoice count"
    r"|\b(?:the\s+)?(?:average|avg\.?|mean)\s+(?:gross\s+)?(?:invoice|bill)(?=\s+(?-i:[A-Z]))", re.I)
#: The reporting currency said beside the measure ("(EUR, gross)", "in EUR"): the unit of the answer, not a filter
#: on the invoices' own currency.
_REPORTING = re.compile(r"\(\s*(?:in\s+)?EUR\s*(?:,\s*gross\s*)?\)|,?\s*\b(?:in\s+)?EUR\b(?!\s*[-\d(]|\s+invoices)",
                        re.I)
#: The gross reading the metric gives ("gross", "incl. tax", "including VAT"); said, so it is consumed.
_GROSS = re.compile(
    r"\(?\s*\b(?:gross(?:\s+amount)?|incl(?:\.|uding)?\s+(?:tax|vat)|inc\.?\s+(?:tax|vat)|tax\s+included|"
    r"with\s+(?:tax|vat))\b(?:\s*[,/]\s*(?:incl(?:\.|uding)?\s+(?:tax|vat)|gross))?\s*\)?", re.I)
#: Readings the metric does not give: a net average, excluding tax, or per line.
_NOT_GROSS = re.compile(r"\bnet\b|\bexcl(?:\.|uding)?\s+(?:tax|vat)\b|\bbefore\s+tax\b|\bper\s+line\b|\bmedian\b",
                        re.I)


def _average(question: str) -> DerivedAsk | None:
    found = _AVERAGE.search(question)
    if found is None or _NOT_GROSS.search(question):
        return None
    compared = _compared(question, found.span(), "average_invoice_value", found.group(0))
    if compared is not None:
        return compared
    cut = [found.span(), *(m.span() for m in _GROSS.finditer(question)),
           *(m.span() for m in _REPORTING.finditer(question))]
    base = _strip(question, cut)
    base = re.sub(r"^(?:what(?:'s|\s+is|\s+was)?|give\s+me|show|how\s+(?:big|large|high)\s+(?:is|was))\s*\b", "",
                  base, flags=re.I).strip(" ,")
    # "Alpenland's average spend per invoice with Gamma": the possessive's noun went with the measure
    base = re.sub(r"(?<=\w)['’]s(?=\s+(?:with|from|at|for|in|on|to|across)\b)", "", base)
    return DerivedAsk("average_invoice_value", _with_spend(base), found.group(0))


# -- concentration -------------------------------------------------------------------------------------------------
#: The suppliers' nouns of a concentration (English; router/romance.py and router/foreign_words.py write the other
#: languages' "proveedores", "fournisseurs", "Lieferanten" as "suppliers" before this reader runs).
_SUPPLIERS = r"(?:suppliers?|vendors?|sups?)"
_TOP = re.compile(
    rf"\btop[- ]?(?P<n>{_N})\s+{_SUPPLIERS}(?:['’]s?)?"
    # "the 3 largest vendors", "2 biggest suppliers": the top N said with a superlative after the number
    rf"|\b(?P<n4>{_N})\s+(?:largest|biggest|main|major|top|leading)\s+{_SUPPLIERS}(?:['’]s?)?"
    # "top-3 concentration", "top 2 vendor concentration": a concentration is of suppliers unless said otherwise
    # ("top1 share %", "top-2 share": the share of the top N, suppliers unless another ranked noun follows)
    rf"|\btop[- ]?(?P<n2>{_N})(?:\s+(?:supplier|vendor))?\s+(?:concentration(?:\s+ratio)?|share)(?:\s+of)?"
    rf"(?!\s+(?:products?|product\s+groups?|groups?|categor\w+|items?|invoices?|months?|quarters?)\b)"
    rf"|\bconcentration(?:\s+ratio)?\s+(?:of|in|for)\s+(?:the\s+)?top[- ]?(?P<n3>{_N})(?:\s+{_SUPPLIERS})?"
    rf"(?:\s+(?:in|of))?", re.I)
#: The words that make a top N a share: the concentration noun in the writers' languages (English, Spanish,
#: Portuguese, Italian, French, German stems), the share nouns, the percent sign or word, "Pareto".
_CONCENTRATION_WORDS = re.compile(
    r"\b(?:how\s+)?concentra(?:t|d|ci[óo]n|ç[ãa]o|cao|zione|tion)\w*(?:\s+is)?\b|\bkonzentration\b|"
    # "share" as a noun, not the verb of a request ("request you to share the top-3 suppliers", "pls share")
    r"(?<!\bto\s)(?<!\bpls\s)(?<!\bplz\s)(?<!\bplease\s)(?<!\bkindly\s)(?<!\byou\s)(?<!\bcan\s)(?<!\bwill\s)"
    r"(?<!\bpl\s)\bshare\b|"
    r"\bproportion\b|\bpercent(?:age)?\b|\bpct\b|%", re.I)
#: Words around a concentration that only frame it ("what share of ... sits with", "i.e.", "Pareto:", "qué tan
#: concentrado está").
_FRAME = re.compile(
    r"\b(?:supplier|vendor)\s+concentration\s*:?|\bwhat\s+(?:share|proportion|percentage|%)\s+of\b|"
    r"(?:\bwhat\s+)?%\s+of\b|\bpareto\b(?:\s+(?:analysis|view|check))?\s*[:-]?|"
    r"\b(?:qu[ée]\s+tan|qu[ãa]o|how)\s+concentra\w*(?:\s+(?:est[áa]|[ée]|is))?|"
    r"\b(?:sits?|lies|is|are|goes|went|going|falls?)\s+(?:with|to)\s+(?:the\s+)?(?=top|\d)|"
    r"\bheld\s+by\s+(?:the\s+)?(?=top|\d)|\bi\.?\s*e\.?,?|\bthe\s+(?=top)|\bshare(?:\s+of)?(?:\s+spend)?\s+"
    r"(?:with|w/)\s+(?:the\s+)?(?=top)|\bshare(?:\s+of)?\b|\bconcentrat\w*(?:\s+is)?\b|\bhow\b|"
    r"\(\s*(?:in\s+)?(?:%|percent|pct)\s*\)|\bin\s+(?:%|percent|pct)(?!\w)|%|\?(?=.)|[,:]", re.I)


#: The tail of a concentration: the suppliers outside the top N ("outside the top 5", "the long tail beyond the top
#: 3", "not with the top 2", "all but the top 3"): the share asked is the rest of the spend, never the top N's.
_TAIL_WORD = re.compile(r"\b(?:long[- ])?tail(?:[- ]end)?(?:\s+(?:spend|suppliers|vendors))?\b", re.I)
_TAIL_BEFORE = re.compile(
    r"(?:\b(?:is|are|was|were|sits?|lies|goes|went)\s+)?\b(?:outside(?:\s+of)?|beyond|below|not\s+(?:with|in|from|held\s+by|among|going\s+to)|other\s+than|"
    r"except(?:\s+for)?|excluding|excl\.?|apart\s+from|besides|all\s+but|(?:the\s+)?rest\s+(?:of|after)|"
    r"remaining\s+(?:after|beyond)|after)\s+(?:the\s+|our\s+)?$", re.I)


def _concentration(question: str) -> DerivedAsk | None:
    top = _TOP.search(question)
    if top is None or not _CONCENTRATION_WORDS.search(question):
        return None
    said = top.group("n") or top.group("n2") or top.group("n3") or top.group("n4")
    n = _NUMBERS.get(said.lower()) or int(said)
    if n < 1:
        return None
    outside = question[:top.start()] + " " + question[top.end():]
    if _COUNT_SHARE.search(outside):
        # "what percentage of Company A's invoices were from the top 3": a count share, not the spend share
        return _refused("concentration", top.group(0), "reads as a share of invoices, documents or a count, and "
                        "the governed concentration is a share of spend (say 'share of spend' for that)")
    compared = _compared(question, top.span(), "concentration", top.group(0))
    if compared is not None:
        return compared
    before = _TAIL_BEFORE.search(question[:top.start()])
    tail = before is not None or _TAIL_WORD.search(question) is not None
    cut = [top.span(), *(m.span() for m in _FRAME.finditer(question)),
           *(m.span() for m in _TAIL_WORD.finditer(question))]
    if before is not None:
        cut.append(before.span())
    base = _strip(question, cut)
    base = re.sub(r"\(\s*\)", "", base).strip()
    base = re.sub(r"^(?:what|which)\b\s*", "", base, flags=re.I).strip(" ,-–—")
    # the spend noun before the scope ("spend of Company A Jul 2025-Jun 2026 baseline"): after it, the scope's last
    # word would read as the name of goods bought ("baseline spend")
    lead = "spend " if re.match(r"(?:for|of|at|in|across|with|from|by)\b", base, re.I) else "spend of "
    body = (base if _SPEND_WORD.search(base) or not base else f"{lead}{base}").rstrip("?.! ")
    # the scope first, the ranking after it: "by all companies' spend" would read as a breakdown by company
    return DerivedAsk("concentration", f"{body}: top {n} suppliers by spend?", top.group(0), top_n=n, tail=tail)


def detect(question: str, as_of: dt.date) -> DerivedAsk | None:
    """The derived measure ``question`` asks for, with its base question, or ``None``."""
    return _average(question) or _concentration(question) or _projection(question, as_of) or _periods(question, as_of)


#: The separators of a list of candidate periods ("Q3 25 / Q4 25 / Q1 26", "Q3-25, Q4-25 or Q1-26").
_LIST_SEPARATOR = re.compile(r"(\s*(?:[,/;|]|\bor\b|\band\b|\bvs\.?|\bversus\b)\s*)", re.I)
#: What may follow the last candidate in a ranking's base (the breakdown the ranking reader appended).
_RANKED_TAIL = re.compile(r"\s*(?:spend\s+)?(?:by\s+(?:month|quarter))?\s*[?.!]*\s*$", re.I)


def _one_unit(chunk: str, grain: str, as_of: dt.date) -> tuple[dt.date, dt.date] | None:
    """The one month (quarter) ``chunk`` is written as alone ("Q4 25", "Q1-26", "Jan 2026"), or ``None``."""
    tail = _RANKED_TAIL.search(chunk)
    body = chunk[:tail.start()] if tail is not None else chunk
    if not body.strip() or len(body.strip()) > 14 or not re.search(r"\d", body):
        return None
    found = resolve_period(body.strip(), as_of)
    period = found.time_range
    if period is None or found.ambiguous or whole_months(period.start, period.end) != (3 if grain == "quarter" else 1):
        return None
    return period.start, period.end


def _candidates_as_range(base: str, grain: str, as_of: dt.date) -> str:
    """``base`` with a list of candidate periods of the ranked grain ("Q3 25 / Q4 25 / Q1 26") written as the one
    range they make: the candidates are the periods ranked, so a list of consecutive ones is their range (a list
    with a gap is left as written, and its several periods are asked about)."""
    parts = _LIST_SEPARATOR.split(base)
    # the first candidate may follow the scope in its chunk ("Kestrel: Jan 2026, Feb 2026"): its last words
    first = re.search(r"(?:^|\s)(?P<unit>\S+(?:\s+\S+)?)\s*$", parts[0])
    if first is not None and _one_unit(first.group("unit"), grain, as_of) is not None:
        parts = [parts[0][:first.start("unit")], "", first.group("unit"), *parts[1:]]
    chunks = parts[0::2]
    units = [_one_unit(c, grain, as_of) for c in chunks]
    i = 0
    while i < len(chunks):
        j = i
        while j < len(chunks) and units[j] is not None:
            j += 1
        if j - i >= 2:
            run = sorted(u for u in units[i:j] if u is not None)
            if all(a[1] == b[0] for a, b in itertools.pairwise(run)):
                last = chunks[j - 1]
                tail = _RANKED_TAIL.search(last)
                head = "".join(parts[:2 * i])
                written = f"from {run[0][0].isoformat()} through {(run[-1][1] - dt.timedelta(days=1)).isoformat()}"
                rest = (last[tail.start():] if tail is not None else "") + "".join(parts[2 * j - 1 + 1:])
                return f"{head}{written}{rest}"
        i = j + 1
    return base


def _periods(question: str, as_of: dt.date) -> DerivedAsk | None:
    ranking = detect_period_ranking(question)
    if ranking is None:
        return None
    if ranking.refused is None:
        ranking = dataclasses.replace(ranking, base=_candidates_as_range(ranking.base, ranking.grain, as_of))
    return DerivedAsk("period_ranking", ranking.base, ranking.words, top_n=ranking.n, refused=ranking.refused,
                      periods=ranking)


# -- the governed parameters of the base answer --------------------------------------------------------------------
SPEND_CARRIED = ("company_id", "company_ids", "start_date", "end_date", "supplier_ids", "exclude_supplier_ids",
                  "product_group_ids", "exclude_product_group_ids", "product_codes", "document_types",
                  "invoice_statuses", "reporting_currency")
#: Parameters of the spend metrics each derived metric takes (any other filter set in the base: not derived).
_TAKES: dict[str, frozenset[str]] = {
    PROJECTION_METRIC: frozenset(SPEND_CARRIED),
    AVERAGE_METRIC: frozenset({"company_id", "company_ids", "start_date", "end_date", "supplier_ids",
                               "exclude_supplier_ids", "invoice_statuses", "reporting_currency"}),
    SHARE_METRIC: frozenset({"company_id", "start_date", "end_date", "product_group_ids", "exclude_supplier_ids",
                             "exclude_product_group_ids", "exclude_product_codes", "invoice_statuses",
                             "document_types", "reporting_currency"}),
}


def base_params(inputs: Mapping[str, Any], plan: Sequence[Mapping[str, Any]] = ()) -> tuple[str, dict[str, Any]] | None:
    """The governed metric and parameters behind a base answer's one figure, or ``None`` when it has not one.

    ``plan`` is the base routing's plan (steps with ``tool`` and ``arguments``): a spend answer's inputs name its
    company, suppliers and period but not every filter (product groups), which its plan step carries.
    """
    metrics = inputs.get("metrics")
    if isinstance(metrics, list):
        # (all companies: the total and its rows by company are one call twice, the same parameters)
        if not metrics or not all(isinstance(m, Mapping) and m == metrics[0] for m in metrics):
            return None
        name, params = str(metrics[0].get("metric")), dict(metrics[0].get("parameters") or {})
    else:
        name = str(inputs.get("metric"))
        params = {k: inputs.get(k) for k in SPEND_CARRIED}
        steps = [dict(step.get("arguments") or {}) for step in plan if step.get("tool") == name]
        if len(steps) > 1:
            return None
        for key, value in (steps[0] if steps else {}).items():
            if isinstance(value, Mapping):
                continue  # a reference to another step's output (the company): the inputs carry its value
            if params.get(key) in (None, [], ()):
                params[key] = value
            elif value not in (None, [], ()) and value != params[key]:
                return None
    if name not in (*SPEND_METRICS, RANKING_METRIC):
        return None
    return name, {k: v for k, v in params.items() if v not in (None, [], ())}


def one_figure(result: Mapping[str, Any]) -> bool:
    """Whether a spend answer is one total (rows by company of an all-companies total are its parts, nothing
    more); a breakdown the question asked for ("per supplier", "by month") is not one figure to derive from."""
    if any(k in result for k in ("breakdown", "by_supplier", "items")):
        return False
    for m in result.get("metrics") or ():
        for row in (m.get("rows") or ()) if isinstance(m, Mapping) else ():
            if isinstance(row, Mapping) and set(row) - {"company_id", "total_spend", "matched_line_count"}:
                return False
    return True


def base_total(result: Mapping[str, Any]) -> tuple[object, object]:
    """The base answer's one total and its line count (an all-companies answer carries them in its first call)."""
    if result.get("total_spend") is None and isinstance(result.get("metrics"), list) and result["metrics"] and \
            isinstance(result["metrics"][0], Mapping):
        result = result["metrics"][0]
    return result.get("total_spend"), result.get("matched_line_count")


def carried(metric: str, params: Mapping[str, Any], *, drop: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """``params`` for ``metric``, or ``None`` when the base sets a filter the metric does not take."""
    takes = _TAKES[metric]
    extra = {k for k in params if k not in takes and k not in drop}
    if extra:
        return None
    return {k: v for k, v in params.items() if k in takes}


def projection_text(total: str, months: int, horizon: int, rate: str, projected: str, currency: str,
                    words: str) -> str:
    """The sentence of a projection, with its formula."""
    unit = "month" if months == 1 else "months"
    return (f"Projected spend over {horizon} month{'s' if horizon != 1 else ''} ('{words}'): {projected} {currency}"
            f" = base spend {total} {currency} / {months} calendar {unit} in the base period x {horizon} (monthly "
            f"run-rate {rate} {currency}; months without spend count; computed from the exact governed sum and "
            "rounded to the cent once, at the end).")


def average_text(average: str, total: str, count: int, currency: str) -> str:
    """The sentence of an average invoice value, with its formula."""
    return (f"Average invoice value (gross, net + tax, in {currency}): {average} {currency} = {total} {currency} "
            f"over {count} invoice{'s' if count != 1 else ''} (credit notes are not invoices and are left out; "
            "posted and paid invoices, each document once; cancelled invoices and duplicates never count; "
            "computed from the exact governed sum and rounded to the cent once).")


def concentration_text(n: int, ids: list[str], percent: str, part: str, whole: str, currency: str,
                       ranked: int) -> str:
    """The sentence of a top-N concentration."""
    suppliers = "supplier" if n == 1 else "suppliers"
    return (f"Top-{n} supplier concentration: {percent} % of the spend is with the top {n} {suppliers} "
            f"({', '.join(ids)}): {part} {currency} of {whole} {currency} ({ranked} suppliers with spend in scope; "
            "share = spend with the top suppliers / all the spend in scope, the same governed lines).")


def tail_text(n: int, ids: list[str], percent: str, tail: str, top: str, whole: str, currency: str,
              ranked: int) -> str:
    """The sentence of the tail outside a top N: the rest of the spend, with the top N's part it is the rest of."""
    outside = ranked - n
    return (f"Tail outside the top {n} supplier{'s' if n != 1 else ''}: {percent} % of the spend is with the "
            f"{outside} other supplier{'s' if outside != 1 else ''}: {tail} {currency} of {whole} {currency} (tail = "
            f"all the spend in scope - the top {n} ({', '.join(ids)}) {top} {currency}, the same governed lines; "
            f"{ranked} suppliers with spend in scope).")


__all__ = ["AVERAGE_METRIC", "PROJECTION_METRIC", "RANKING_METRIC", "SHARE_METRIC", "SPEND_CARRIED", "SPEND_METRICS",
           "DerivedAsk", "average_text", "base_params", "base_total", "carried", "concentration_text", "detect",
           "one_figure", "projection_text", "tail_text"]
