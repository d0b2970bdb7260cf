"""Questions across the companies of a tenant: which company spent the most, and how much more one side spent.

"Which of our companies spent the most last quarter", "rank our companies by spend for 2025", "who spent more in
Q4, Alpenland or Kestrel", "which of the two companies spent more in Q1 2026": a ranking of the tenant's companies
(or of the ones the question names) by spend. "How much more did Company A spend than Company B in Q1", "how much
more did Company A spend with Gamma than with Beta last year": the difference of two spend figures.

Each is read as base questions the ordinary reading answers (every other span still read or named as not
understood): the ranking as "spend per company <the rest of the question>" (one governed call grouped by company,
beside the tenant's total), the difference as one spend question per side. The caller (router/service.py) answers
them; this module only reads the question (:func:`detect`) and composes the answer from the base answers
(:func:`ranked`, :func:`difference`). Nothing is computed that the base answers do not state: the ranking sorts
the governed per-company figures, the difference subtracts two governed figures (each as presented, to cents), and
the answer says so.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Literal

from router.answer import Answer, PolicyCheck
from router.comparison_words import change_output_only
from router.derived import base_total, one_figure
from router.entities import Company, Mention

Kind = Literal["company_ranking", "difference", "implied_base"]

#: The words for a company of the group, as users write them ("co", "cos", "comps", "Gesellschaft", "société").
_COMPANIES = (r"(?:compan(?:y|ies)|entit(?:y|ies)|subsidiar(?:y|ies)|firms?|cos?\b\.?|comps?\b\.?|"
              r"(?:legal\s+)?entities|gesellschaft(?:en)?|soci[ée]t[ée]s?|entit[ée]s?|empresas?|entidad(?:es)?|"
              r"societ[àa]|bedrijf|bedrijven)")
#: A word without which no question is read here (the common question skips the reading).
COMPARISON_CUE = re.compile(
    rf"\b(?:compan|entit|subsidiar|firm|who|than|vs|versus|against|compared|relative|rank|sort|gap|diff|minus|"
    rf"between|ggü|gegen|vergl|mehr|weniger|how\s+much\s+(?:more|less|higher|lower)|entre|rapport|frente|"
    rf"{_COMPANIES})", re.I)
_N_WORD = r"(?:two|three|four|five|six|\d{1,2})"
_VERB = r"(?:spent|spend|spends|spending|bought|buys|paid|pays|purchased|used)"
#: What a company ranking is ranked on when named: spend and its finance synonyms ("AP", "payables", "AP volume").
_SPEND_NOUN = (r"(?:(?:total|gross|overall|ap|a/p)\s+)?(?:spend|spending|ap|a/p|payables|purchases|"
               r"(?:ap\s+|invoice\s+)?volume|invoiced\s+amount)")
_MOST = r"(?P<dir>most|least|more|less|highest|lowest|biggest|smallest|largest|fewest)"
#: "which of our companies spent the most", "which company spent less", "what company has spent the most".
_WHICH = re.compile(
    rf"\b(?:which|what)\s+(?:one\s+|(?P<n>{_N_WORD})\s+)?(?:(?:of\s+(?:our|the|my|these|those|both)\s+(?:{_N_WORD}\s+)?{_COMPANIES})|"
    rf"{_COMPANIES})\s+(?:has\s+|had\s+|did\s+|have\s+)?{_VERB}\s+(?:the\s+)?{_MOST}\b(?:\s+money)?", re.I)
#: "which company has the highest spend", "which company had the largest spend".
_WHICH_HIGHEST = re.compile(
    rf"\b(?:which|what)\s+(?:one\s+|(?P<n>{_N_WORD})\s+)?(?:of\s+(?:our|the|my)\s+(?:{_N_WORD}\s+)?)?{_COMPANIES}\s+"
    r"(?:has|had)\s+"
    rf"the\s+{_MOST}\s+{_SPEND_NOUN}\b", re.I)
#: "company with the highest total", "the entity with the most spend", "the two companies with the lowest AP": the
#: company named by its rank, the criterion after "with" (a total or spend; "the most invoices" is a count, below).
_WITH_HIGHEST = re.compile(
    rf"(?<![\w-])(?:(?:the|which|what)\s+)?(?:(?P<n>{_N_WORD})\s+)?{_COMPANIES}\s+(?:with|having|that\s+had|"
    rf"that\s+has)\s+(?:the\s+)?{_MOST}\s+(?:{_SPEND_NOUN}|totals?|amounts?|sum)\b", re.I)
#: "rank our companies by spend", "rank all companies by spend", "order the companies by spend".
_RANK = re.compile(
    rf"\b(?:rank|order|sort)\s+(?:(?:all\s+)?(?:of\s+)?(?:our|the|my|all)\s+)?(?:{_N_WORD}\s+)?{_COMPANIES}"
    # "rank the 3 cos h2 25": no measure named is the spend ranked ("by invoice count" is another measure)
    rf"(?:\s+by\s+(?:their\s+)?{_SPEND_NOUN}\b|(?!\s+(?:by|on|per|according)\b))", re.I)
#: "who spent more ... A or B": the subject is one of the named companies (two or more must be named).
_WHO = re.compile(rf"\bwho\s+(?:has\s+|had\s+|did\s+)?{_VERB}\s+(?:the\s+)?{_MOST}\b(?:\s+money)?", re.I)
_DOWN = frozenset({"least", "less", "lowest", "smallest", "fewest"})
#: Right after the cue, a count the ranking by spend would replace ("paid the most invoices", "used the most
#: suppliers"), or a comparison ("more than 150,000 EUR", "more with Beta than with Gamma"): not a spend ranking.
_COUNT_AFTER = re.compile(
    r"^\s*(?:of\s+)?(?:(?:different|distinct|unique|separate)\s+)?(?:invoice\s+lines?|purchase\s+orders?|invoices?|units?|"
    r"suppliers?|vendors?|orders?|pos?|products?|lines?|items?|transactions?|payments?|documents?)\b", re.I)
_THAN = re.compile(r"\bthan\b", re.I)
#: Between the named companies of a ranking: "Alpenland or Kestrel", "A, B and C", "between A and B".
_JOINER = re.compile(r"^[\s,]*(?:or|and|vs\.?|versus|,)?[\s,]*$", re.I)
_BETWEEN_BEFORE = re.compile(r"\b(?:between|among|of)\s*$", re.I)

#: "how much more did <A> spend <mid> than <B> <rest>".
_MORE_THAN = re.compile(
    r"\bhow\s+much\s+(?P<dir>more|less)\s+(?:money\s+)?(?:did|has|have|does|do)\s+(?P<a>.+?)\s+"
    r"(?P<verb>spend|spent|pay|paid|buy|bought|purchase|purchased)\b(?P<mid>.*?)\s+than\s+(?P<b>.+)$", re.I | re.S)
#: "<A> spent how much more than <B> <rest>", "A paid how much less ... than B": the subject written first (speech,
#: chat), read as the "how much more did <A> spend ... than <B>" above.
_FRONTED_MORE = re.compile(
    r"^\s*(?P<a>\S.*?)\s+(?P<verb>spent|spends|paid|pays|bought|buys|purchased)\s+how\s+much\s+(?P<dir>more|less)\b"
    r"(?:\s+money)?(?P<mid>.*?)\s+than\s+(?P<b>.+)$", re.I | re.S)
#: The verb of a base question ("how much did A <verb>"): the present form the auxiliary takes.
_BASE_VERB = {"spent": "spend", "spends": "spend", "paid": "pay", "pays": "pay", "bought": "buy", "buys": "buy",
              "purchased": "purchase"}
#: A side after "than" that names what was bought from (the subject stays): "than with Beta", "than on Zeta".
_OBJECT_SIDE = re.compile(r"^(?:with|on|from|at|for)\b", re.I)
#: Where the side after "than" ends and the rest of the question (its period, its filters) begins.
_SIDE_END = re.compile(
    r"\s+(?:did|does|do|has|have|had)\b|\s+(?:in|during|over|since|between|from|until|through|within|last|this|"
    r"previous|prior|year|ytd|qtd|mtd|q[1-4]|h[12]|fy\s?\d+|\d{4}|january|february|march|april|may|june|july|"
    r"august|september|october|november|december)\b|\s*[?.!,;]|"
    # what was bought, and from whom, said after the side ("than Company C with Beta", "than with Gamma for
    # Company A"): shared by both sides, so it ends the side (never a part of side b only)
    r"\s+(?:with|on|from|at|for|excluding|except|only|not|without|of)\b", re.I)
#: The rest after side b opens with what was bought or from whom (not only a period).
_REST_QUALIFIER = re.compile(r"^\s*(?:with|on|from|at|for|excluding|except|only|not|without|of)\b", re.I)


@dataclass(frozen=True)
class CompanyAsk:
    """A question across companies (or two sides), read as the base questions that answer it."""

    kind: Kind
    #: the ranking: one base question; the difference: side a's and side b's
    bases: tuple[str, ...]
    #: the words the comparison was read from (said in the answer)
    words: str
    #: the ranking's direction ("top": most first) and whether the named companies bound it
    direction: Literal["top", "bottom"] = "top"
    named: tuple[str, ...] = ()
    #: the difference: "more" (a - b) or "less" (b - a), and each side as written
    sides: tuple[str, ...] = ()
    #: why the comparison cannot be answered (its side after "than" names nothing governed): a clarification
    refused: str | None = None
    #: the ranking: how many companies are asked for ("which two companies ..."); 0 is every company
    limit: int = 0


def _spans_of(mentions: Sequence[Any]) -> list[tuple[int, int, str]]:
    return sorted((int(m.start), int(m.end), str(m.resolved or "")) for m in mentions)


#: "rank Xenon and Ypsilon by spend", "sort Company A, B and C by total spend": the named companies ranked.
_RANK_VERB = re.compile(r"\b(?:rank|order|sort)\s+(?:the\s+)?$", re.I)
#: "by spend", "by their total spend", "by H2 2025 spend", "by 2025 gross spend": the spend ranked on, the period
#: written before it left in the rest of the question (only the "by" is the cue's).
_BY_SPEND = re.compile(
    r"\s*by\s+(?:(?:their\s+)?(?:total\s+)?(?:spend|spending)\b|"
    r"(?=(?:(?:q[1-4]|[12]?h[12]|fy\s?\d{2,4}|cy\s?\d{2,4}|\d{4}|\d{1,2}[-/]\d{2,4}|ytd|last|this|previous|prior|full|"
    r"year|quarter|half|month|january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|gross|net|total|their)[\s,'-]+){1,5}"
    r"(?:spend|spending)\b))", re.I)


def _rank_named(text: str, named: Sequence[tuple[int, int, str]]) -> re.Match[str] | None:
    """The span "rank <A> and <B> by spend" as one cue when the ranked objects are exactly the named companies
    (two or more, joined by "and", "or" or commas): the companies themselves take the place of "companies"."""
    if len({n for _, _, n in named if n}) < 2:
        return None
    verb = _RANK_VERB.search(text, 0, named[0][0])
    if verb is None or any(not _JOINER.match(text[e:named[i + 1][0]]) for i, (_, e, _) in enumerate(named[:-1])):
        return None
    by = _BY_SPEND.match(text, named[-1][1])
    return re.compile(re.escape(text[verb.start():by.end()].rstrip())).search(text, verb.start()) if by else None


_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _count(word: str) -> int:
    return _COUNTS.get(word.lower()) or int(word)


def _ranking(text: str, companies: Sequence[Any]) -> CompanyAsk | None:
    named = _spans_of(companies)
    cue = _WHICH.search(text) or _WHICH_HIGHEST.search(text) or _WITH_HIGHEST.search(text) or _RANK.search(text) \
        or _rank_named(text, named)
    if cue is None:
        who = _WHO.search(text)
        if who is None or len({n for _, _, n in named if n}) < 2:
            return None  # "who spent the most" without two companies named: suppliers, people, ... (not read here)
        cue = who
    after = text[cue.end():]
    count = _COUNT_AFTER.match(after)
    than = _THAN.search(after)
    if count is not None or than is not None:
        # what is compared is a count, or spend against an amount or another side: ranking every company by its
        # spend would answer another question, so it is asked (never the spend ranking in its place)
        upto = count.end() if count is not None else than.end() if than is not None else 0
        said = re.sub(r"\s+", " ", cue.group(0) + after[:upto]).strip()
        what = (f"counts {count.group(0).strip()} per company" if count is not None
                else "compares each company's spend with an amount or another side")
        return CompanyAsk(kind="company_ranking", bases=(), words=cue.group(0), refused=(
            f"'{said} ...' {what}, which I do not read as one governed figure per company. I can rank the "
            "companies by spend (net + tax) for a period, or give one company's figure. Which do you mean?"))
    # the companies named in the question bound the ranking ("Alpenland or Kestrel"); their words, and the words
    # that join them, are consumed here
    cut = [(cue.start(), cue.end())]
    ids: list[str] = []
    for i, (s, e, cid) in enumerate(named):
        if not cid:
            return None  # an ambiguous company name: the ordinary reading asks which one
        ids.append(cid)
        cut.append((s, e))
        if i + 1 < len(named) and _JOINER.match(text[e:named[i + 1][0]]):
            cut.append((e, named[i + 1][0]))
    if named:
        before = _BETWEEN_BEFORE.search(text, 0, named[0][0])
        if before is not None and before.start() >= cue.end() - 1:
            cut.append((before.start(), named[0][0]))
    if len(set(ids)) == 1:
        return None  # one company named ("which supplier did Company A spend the most with"): not across companies
    merged: list[tuple[int, int]] = []
    for s, e in sorted(cut):  # ("rank A and B by spend": the names lie inside the cue)
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    rest = text
    for s, e in reversed(merged):
        rest = rest[:s] + " " + rest[e:]
    rest = re.sub(r"\s+", " ", rest).strip(" ,?.!")
    direction = cue.group("dir") if "dir" in cue.groupdict() and cue.group("dir") else "most"
    count = cue.groupdict().get("n")
    return CompanyAsk(kind="company_ranking", bases=(f"spend per company {rest}".strip(),), words=cue.group(0),
                      direction="bottom" if direction.lower() in _DOWN else "top", named=tuple(dict.fromkeys(ids)),
                      limit=_count(count) if count else 0)


_PERIOD_START = re.compile(
    r"(?:in|during|over|since|between|until|through|within|last|this|previous|prior|q[1-4]|h[12]|fy\s?\d+|\d{4}|"
    r"january|february|march|april|may|june|july|august|september|october|november|december)\b", re.I)


_PERIOD_WORD = re.compile(
    r"\b(?:year|quarter|month|week|period|q[1-4]|h[12]|fy\s?\d+|\d{4}|ytd|qtd|mtd|january|february|march|april|may|"
    r"june|july|august|september|october|november|december|before|earlier|ago)\b", re.I)


def _overlaps(spans: Sequence[tuple[int, int, str]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e, _ in spans)


#: "Company A: how much more with Gamma than with Beta, Q1 2026", "how much more (did we spend) on Zeta than on Beta
#: for Company C": two sides of what was bought, the company said elsewhere in the question (shared by both).
_MORE_OBJECT = re.compile(
    r"\bhow\s+much\s+(?P<dir>more|less)\s+(?:money\s+)?(?:(?:did|have|has|do)\s+we\s+(?P<verb>spend|spent|pay|paid|buy|"
    # ("than Beta" after "on Zeta": the preposition of the first side is the second's too; "then" is the spoken
    # or typed slip of "than", unambiguous after "how much more ... on X")
    r"bought|purchase|purchased)\s+)?(?P<mid>(?:with|on|from|at)\s+.+?)\s+th[ae]n\s+(?P<b>(?:(?:with|on|from|at)\s+)?.+)$",
    re.I | re.S)


def _object_difference(text: str, others: Sequence[Any]) -> CompanyAsk | None:
    """Two sides of what was bought with no subject in the "how much more" clause: each side the question with
    the other side's words replaced, so the company and period said anywhere else apply to both."""
    m = _MORE_OBJECT.search(text)
    if m is None:
        return None
    start = m.start("b")
    named = _spans_of(others)
    b = text[start:]
    end = next((x for x in _SIDE_END.finditer(b) if x.start() > 0 and not _overlaps(named, start + x.start(),
                                                                                     start + x.end())), None)
    side, rest = (b[:end.start()], b[end.start():]) if end else (b, "")
    mid = m.group("mid").strip()
    if not (_overlaps(named, m.start("mid"), m.end("mid")) and _overlaps(named, start, start + len(side))):
        return None  # a side naming no supplier, group or product: the ordinary reading names it
    before = text[:m.start()].strip(" :,-")
    if not _OBJECT_SIDE.match(side):
        side = f"{mid.split()[0]} {side.strip()}"  # "on Zeta than Beta": "on Beta"
    bases = tuple(re.sub(r"\s+", " ", f"{before} spend {x} {rest}").strip(" ,") for x in (mid, side.strip()))
    return CompanyAsk(kind="difference", bases=bases, words=m.group(0)[:m.end("dir") - m.start()],
                      direction="top" if m.group("dir").lower() == "more" else "bottom",
                      sides=(f"{before} spend {mid}".strip(), f"{before} spend {side.strip()}".strip()))


def _bought_sides(m: re.Match[str], side_span: tuple[int, int], companies: Sequence[Any],
                  others: Sequence[Any]) -> tuple[str, str] | None:
    """The prepositions of two sides that are both something bought (no company), or ``None``: "with" a supplier,
    "on" a product group or product."""
    def prep(start: int, end: int) -> str | None:
        if _overlaps(_spans_of(companies), start, end):
            return None
        kinds = [o.kind for o in others if o.start < end and start < o.end]
        return None if not kinds else "with" if kinds[0] == "supplier" else "on"

    a, b = prep(m.start("a"), m.end("a")), prep(*side_span)
    return (a, b) if a and b else None


#: A bracket or a comma clause of the rest: "(abs diff)", ", EUR and %".
_REST_CLAUSE = re.compile(r"\(([^()]{1,40})\)|,\s*([^,()?]{1,40}?)\s*(?=[?.!]*\s*$)")


def _without_output_words(rest: str) -> str:
    """The rest of a difference without the words that say how the difference is given ("(abs diff)", ", EUR and
    %"): they are the comparison's own answer, never a constraint of each side's figure."""
    return _REST_CLAUSE.sub(lambda m: " " if change_output_only(m.group(1) or m.group(2) or "") else m.group(0), rest)


def _shared_lead(lead: str, companies: Sequence[Any]) -> str:
    """The words before a comparison clause, as every side's own (its period, statuses, basis), with the company
    names in it left out (each side names its own company, and a side that names a slot overrides that slot only):
    ``""`` or the words followed by one space."""
    for s, e, _ in sorted(_spans_of(companies), reverse=True):
        if e <= len(lead):
            lead = lead[:s] + " " + lead[e:]
    lead = re.sub(r"\s+", " ", lead).strip(" :;,-–—")
    return f"{lead}, " if lead else ""


def _difference(text: str, companies: Sequence[Any], others: Sequence[Any]) -> CompanyAsk | None:
    m = _MORE_THAN.search(text) or _FRONTED_MORE.search(text)
    if m is None or m.group("a").strip().lower() in ("we", "i"):
        return _object_difference(text, others)  # ("how much more did we spend with X than with Y")
    a, verb, mid = m.group("a").strip(), m.group("verb"), m.group("mid").rstrip()
    verb = _BASE_VERB.get(verb.lower(), verb) if m.re is _FRONTED_MORE else verb
    start = m.start("b")
    lead = re.match(r"\s*(?:(?:did|does|do)\s+)?", text[start:])
    start += lead.end() if lead else 0
    b = text[start:]
    if _PERIOD_START.match(b):
        return None  # "than in Q4": a change between periods (the ordinary comparison reading)
    # the side ends at the first boundary word outside a name ("Parts on Demand", "March Supplies" stay whole)
    named = [*_spans_of(companies), *_spans_of(others)]
    end = next((x for x in _SIDE_END.finditer(b) if not _overlaps(named, start + x.start(), start + x.end())), None)
    side, rest = (b[:end.start()], b[end.start():]) if end else (b, "")
    rest = re.sub(r"^\s+(?:did|does|do|has|have|had)\b", "", rest, flags=re.I)  # "than Company B did in Q1"
    rest = _without_output_words(rest)
    side = side.strip()
    if not side or not a:
        return None
    side_span = (start, start + len(side))
    spend = "spend" if verb.lower() in ("spend", "spent") else verb.lower()
    # what is said before the clause ("Q4 2025: how much more did A spend than B", "From July to March, how much
    # more did C spend with X than with Y") is the ask's shared slots: each side inherits it
    lead = _shared_lead(text[:m.start()], companies)
    preposition = re.match(r"\s*(with|on|from|at|for)\b", mid, re.I)
    if _OBJECT_SIDE.match(side) or (preposition is not None and not _overlaps(_spans_of(companies), *side_span)
                                    and _overlaps(_spans_of(others), *side_span)):
        if preposition is None:
            return None  # "how much more did A spend than with B": the first side's object is not said
        side = side if _OBJECT_SIDE.match(side) else f"{preposition.group(1)} {side}"
        base_a = f"{lead}how much did {a} {spend}{mid} {rest}"
        base_b = f"{lead}how much did {a} {spend} {side} {rest}"
        sides = (f"{a}{mid}", f"{a} {side}")
    elif _overlaps(_spans_of(companies), *side_span):
        if mid.strip() and _REST_QUALIFIER.match(rest):
            # "how much more did A spend with Beta than B with Gamma": each side has its own qualifier; not read
            # here as one shared rest (never one side's qualifier applied to both)
            return CompanyAsk(kind="difference", bases=(), words=m.group(0)[:m.end("dir") - m.start()],
                              sides=(f"{a}{mid}", f"{side}{rest}"), refused=(
                                  f"'{a}{mid}' and '{side}{rest.rstrip(' ?.!')}' each name what was bought; I read a "
                                  "difference of two companies' spend on the same suppliers or products, or of one "
                                  "company's spend with two suppliers. Which difference do you mean?"))
        base_a = f"{lead}how much did {a} {spend}{mid} {rest}"
        base_b = f"{lead}how much did {side} {spend}{mid} {rest}"
        sides = (a, side)
    elif _PERIOD_WORD.search(side):
        return None  # "than the quarter before": a change between periods (the ordinary comparison reading)
    elif (bought := _bought_sides(m, side_span, companies, others)) is not None:
        # "difference between Beta and Gamma spend for Company A": both sides are what was bought (suppliers,
        # groups, products), the company said around them is shared by both
        prep_a, prep_b = bought
        before = text[:m.start()].strip(" :,-")
        base_a = f"{before} spend {prep_a} {a}{mid} {rest}"
        base_b = f"{before} spend {prep_b} {side}{mid} {rest}"
        sides = (f"{before} spend {prep_a} {a}".strip(), f"{before} spend {prep_b} {side}".strip())
    else:
        # "than planned", "than budget", "than Delta Corp" (unknown): nothing governed to subtract; never the first
        # side's figure alone in its place
        return CompanyAsk(kind="difference", bases=(), words=m.group(0)[:m.end("dir") - m.start()],
                          sides=(a, side), refused=(
                              f"'{m.group('dir')} ... than {side}' compares with '{side}', which is no company, "
                              "supplier, product group or product I know and no period. I can give the difference "
                              "between two companies' spend, between the spend with two suppliers or product groups, "
                              "or a change against another period. Which one do you mean?"))
    clean = [re.sub(r"\s+", " ", q).strip(" ,") for q in (base_a, base_b)]
    return CompanyAsk(kind="difference", bases=tuple(clean), words=m.group(0)[:m.end("dir") - m.start()],
                      direction="top" if m.group("dir").lower() == "more" else "bottom",
                      sides=tuple(re.sub(r"\s+", " ", s).strip() for s in sides))


#: "did Company B's spend go up or down versus last quarter": only the base of a change is named.
_VERSUS_LAST = re.compile(
    r"\b(?:compared\s+(?:to|with)|vs\.?|versus|against|relative\s+to|than)\s+(?:the\s+)?(?:last|previous|prior)\s+"
    r"(?P<unit>quarter|month|year|half[- ]year|half|week)\b", re.I)


#: A token that writes a period (a month and year in digits, a quarter, a half, a fiscal year, a month name).
_DATE_LIKE = re.compile(
    r"(?<![\w.])(?:\d{1,2}[./-](?:19|20)?\d{2}|(?:19|20)\d{2}[./-]\d{1,2}|(?:19|20)\d{2}|[1-4]q\d{2}|q[1-4]|"
    r"h[12]|fy\s?\d{2,4})(?![\w])|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s*['’]?\d{2,4}\b",
    re.I)


def implied_base(text: str, period_named: bool) -> CompanyAsk | None:
    """A change whose question names only its base ("versus last quarter"), read as the last complete period of
    that unit against the one before it; ``period_named``: the question names a period of its own (then the
    ordinary comparison reading answers it)."""
    m = _VERSUS_LAST.search(text)
    if m is None or period_named or _DATE_LIKE.search(text[:m.start()] + " " + text[m.end():]):
        # a period written in the question but not read ("11.2025 vs. Vormonat") is the compared period, never
        # the last complete one: the ordinary reading names what it could not read
        return None
    unit = m.group("unit").lower().replace("half-year", "half").replace("half year", "half")
    base = f"{text[:m.start()]}in the last {unit} compared with the previous {unit}{text[m.end():]}"
    return CompanyAsk(kind="implied_base", bases=(re.sub(r"\s+", " ", base).strip(),), words=m.group(0))


def implied_note(ask: CompanyAsk, base: Answer) -> Answer:
    """The base answer of an implied-base change with its reading stated first."""
    if base.status == "clarification":
        return base
    unit = ask.bases[0].rsplit(" previous ", 1)[-1].split()[0] if " previous " in ask.bases[0] else "period"
    note = (f"'{ask.words}' names only the period compared with, so it is read as the last complete {unit} against "
            f"the {unit} before it (the current {unit} has not ended; for it so far, ask for this {unit} to date "
            f"versus last {unit}). ")
    return base.model_copy(update={"text": note + base.text,
                                   "inputs": {**base.inputs, "implied_base": {"words": ask.words,
                                                                              "reading": "last complete " + unit}}})


def company_mentions(text: str, mentions: Sequence[Mention], company_ids: Sequence[str]) -> tuple[Mention, ...]:
    """The companies a question names: by name (the reader's mentions) and by id ("COMP-A", read as an
    identifier), each with its span in ``text``."""
    found = list(mentions)
    for cid in company_ids:
        for m in re.finditer(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", text, re.I):
            if not any(x.start < m.end() and m.start() < x.end for x in found):
                found.append(Mention("company", m.group(0), m.start(), m.end(), (cid,)))
    return tuple(sorted(found, key=lambda x: x.start))


#: "Company A vs Company B", "compare A and B", "A compared with B": two companies side by side.
_PAIR_JOIN = re.compile(r"^\s*(?:,?\s*(?:vs\.?|versus|v\.?|compared\s+(?:to|with)|against|and|with|to)\s+)$", re.I)
_COMPARE_WORD = re.compile(r"\b(?:compare|comparing|comparison|vs\.?|versus|compared|against)\b", re.I)
#: A table of the named companies is asked (router/company_set.py answers it), or another measure than spend.
_NOT_PAIR = re.compile(r"\b(?:per|by|each|split|breakdown|broken\s+down|combined|together|"
                       r"total|invoices?|count|number|units?|price|share|percent\w*|change|growth|trend|rank\w*|"
                       r"more|less|than)\b", re.I)


def _pair(text: str, companies: Sequence[Any]) -> CompanyAsk | None:
    named = _spans_of(companies)
    if len(named) != 2 or not all(cid for _, _, cid in named) or named[0][2] == named[1][2]:
        return None
    (s1, e1, _), (s2, e2, _) = named
    join = _PAIR_JOIN.match(text[e1:s2])
    if join is None or _COMPARE_WORD.search(text) is None or _NOT_PAIR.search(text):
        return None
    if not re.search(r"\b(?:spend|spent|spending|purchases|expenditure)\b", text, re.I):
        return None
    head = re.sub(r"\b(?:compare|comparing)\s+(?:the\s+)?(?=$|\S)", "", text[:s1], flags=re.I)
    tail = text[e2:]
    bases = tuple(re.sub(r"\s+", " ", f"{head}{text[s:e]}{tail}").strip(" ,") for s, e in ((s1, e1), (s2, e2)))
    return CompanyAsk(kind="difference", bases=bases, words=f"{text[s1:e1]}{join.group(0)}{text[s2:e2]}".strip(),
                      sides=(text[s1:e1], text[s2:e2]))


#: The word of a difference of two sides, in the languages users write ("gap", "diff", "Differenz", "écart").
_GAP_WORD = re.compile(
    r"\b(?:gap|difference|diff|differenz|unterschied|[ée]cart|diff[ée]rence|diferencia|differenza|verschil)\b"
    r"(?:\s+(?:in\s+)?(?:the\s+)?(?:spend|spending|ausgaben|d[ée]penses|gasto|spesa|uitgaven))?"
    r"(?:\s+(?:between|zwischen|entre|tra|fra|tussen|of))?", re.I)
#: "how much more went to A than to B", "how much less was spent with A vs B": the cue of a difference whose sides
#: are said after it, joined by "than" or "vs" (the company and period anywhere in the question).
_MORE_CUE = re.compile(
    r"\bhow\s+much\s+(?P<dir>more|less|higher|lower)\b(?:\s+money)?(?:\s+(?:went|goes|go|was\s+(?:spent|paid|invoiced|"
    r"billed)|did\s+we\s+(?:spend|pay)|have\s+we\s+(?:spent|paid)))?", re.I)
_MORE_JOIN = re.compile(r"^\s*,?\s*(?:than|vs\.?|versus|compared\s+(?:to|with)|against)\s+(?:(?:to|with|on|from|at|for)"
                        r"\s+)?$", re.I)
_SIDE_PREPOSITION = re.compile(r"\b(?:to|with|on|from|at|for)\s*$", re.I)
#: Between the two sides: "A and B", "A et B", "A minus B" (side a first, b subtracted).
_GAP_JOIN = re.compile(r"^\s*(?:and|und|et|y|e|en|&|minus|-|–)\s*$", re.I)
#: "Helix vs Iris spend gap": the pair joined by "vs" with the difference word right after it (the cue follows).
_VS_JOIN = re.compile(r"^\s*(?:vs\.?|versus)\s*$", re.I)
_CUE_AFTER = re.compile(r"^\s*(?:spend(?:ing)?|ausgaben|d[ée]penses)?\s*$", re.I)
_MINUS_JOIN = re.compile(r"^\s*minus\s*$", re.I)
#: Between a difference word and its pair: nothing, or the measure and the pair's preposition ("between spend with").
_CUE_TO_PAIR = re.compile(r"^(?:(?:the\s+)?(?:spend|spending|purchases)(?:\s+(?:with|on|at|from))?)?$", re.I)
#: "A vs B spend gap", "A / B Differenz": the pair said first, the difference word after it (only spend words between).
_VS_JOIN = re.compile(r"^\s*(?:vs\.?|versus|v\.?|/|and|und|et|y|e|en|&|-|–)\s*$", re.I)
_TRAILING_CUE_GAP = re.compile(r"^\s*(?:spend|spending|ausgaben|d[ée]penses|gasto|spesa|uitgaven)?\s*$", re.I)
_SPEND_WORD = re.compile(r"\b(?:spend|spent|spending|ausgaben|d[ée]penses|gasto|spesa|uitgaven|purchases|"
                         r"how\s+much|amount|total|ap|payables|invoiced)\b", re.I)


def _gap(text: str, companies: Sequence[Any], others: Sequence[Any]) -> CompanyAsk | None:
    """"gap between A and B spend Q1", "Differenz Spend A minus B, Company C, Q3", "écart entre A et B": the
    difference of two sides of one kind (two companies, or two suppliers / groups / products of the same scope),
    each side the question with the pair replaced by that side (everything else said applies to both)."""
    more = _MORE_CUE.search(text)
    cue = None if more is not None else _GAP_WORD.search(text)
    spans = sorted([(int(m.start), int(m.end), "company") for m in companies]
                   + [(int(o.start), int(o.end), str(o.kind)) for o in others])
    for first, second in itertools.pairwise(spans):
        join = text[first[1]:second[0]]
        trailing = (cue is not None and second[1] <= cue.start() and _VS_JOIN.match(join) is not None
                    and _TRAILING_CUE_GAP.match(text[second[1]:cue.start()]) is not None)
        if trailing:
            pass  # "Gamma vs Iota spend gap": the pair, then its difference word
        elif more is not None:
            if first[0] < more.end() or not _MORE_JOIN.match(join) or "company" in (first[2], second[2]):
                continue  # (two companies: "how much more did A spend than B", read by _difference)
        elif (cue is not None and _VS_JOIN.match(join) and cue.start() >= second[1]
              and _CUE_AFTER.match(text[second[1]:cue.start()])):
            # "A vs B spend gap": the cue after the pair; it leaves the question, the rest applies to both sides
            text = text[:second[1]] + text[cue.end():]
            cue = None
        elif not _GAP_JOIN.match(join) or (cue is None and not _MINUS_JOIN.match(join)):
            continue
        # ("diff between spend with Gamma and Beta": the measure and the pair's preposition may stand between)
        leads = (cue is not None and cue.end() <= first[0]
                 and _CUE_TO_PAIR.match(text[cue.end():first[0]].strip(" :,")) is not None)
        if cue is not None and not trailing and not leads and not _MINUS_JOIN.match(join):
            continue  # the cue word does not introduce this pair (and no "minus" says which side is subtracted)
        if (first[2] == "company") != (second[2] == "company"):
            return None  # a company against a supplier: no one difference of like sides
        start = cue.start() if cue is not None and cue.end() <= first[0] else first[0]
        sides = (text[first[0]:first[1]], text[second[0]:second[1]])
        before, after = text[:start], text[second[1]:]
        if trailing:
            # the pair's own words end at the difference word; what follows it (the period) is shared
            after = f" spend {text[cue.end():]}" if cue is not None else after
        if more is not None:
            # the cue leaves the question; what was said between it and the pair (a period) stays
            lead = text[:first[0]]
            prep = _SIDE_PREPOSITION.search(lead)
            lead = lead[:prep.start()] if prep is not None else lead
            before = lead[:more.start()] + lead[more.end():]
        if first[2] == "company":
            bases = tuple(f"{before}{side}{after}" for side in sides)
        else:
            preps = tuple("with" if kind == "supplier" else "on" for kind in (first[2], second[2]))
            bases = tuple(f"{before}{p} {side}{after}" for p, side in zip(preps, sides, strict=True))
        bases = tuple(b if _SPEND_WORD.search(b) else f"spend {b}" for b in bases)
        words = (more.group(0) if more is not None else text[first[0]:cue.end()] if trailing and cue is not None
                 else text[start:second[1]])
        down = more is not None and more.group("dir").lower() in ("less", "lower")
        return CompanyAsk(kind="difference", bases=tuple(re.sub(r"\s+", " ", b).strip(" ,") for b in bases),
                          words=words, sides=sides, direction="bottom" if down else "top")
    return None


def detect(text: str, companies: Sequence[Any], others: Sequence[Any] = ()) -> CompanyAsk | None:
    """The comparison across companies or sides ``text`` asks, or ``None``. ``companies``: the reading's company
    mentions (spans in ``text``, each with its candidates); ``others``: its supplier, product group and product
    mentions (a side after "than" that names one is what was bought, the subject unchanged)."""
    return (_difference(text, companies, others) or _ranking(text, companies) or _pair(text, companies)
            or _gap(text, companies, others))


def _decimal(value: object) -> Decimal | None:
    try:
        return Decimal(str(value)) if value is not None else None
    except (InvalidOperation, ValueError):
        return None


def _cents(value: Decimal) -> str:
    return str(value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _read_as(text: str) -> str:
    found = re.search(r" ?Read as: .*?(?= Sources:|$)", text, re.S)
    return found.group(0).strip() if found else ""


def _clarify(text: str, inputs: Mapping[str, Any]) -> Answer:
    text = f"I need a clarification before answering: {text}"
    return Answer(status="clarification", text=text, result={}, inputs=dict(inputs), sources=(),
                  clarification_question=text)


def _company_rows(result: Mapping[str, Any]) -> tuple[list[Mapping[str, Any]], str | None] | None:
    """The governed per-company rows of a "spend per company" answer and their one currency (``None``: not that
    shape, or companies in different currencies)."""
    rows: list[Mapping[str, Any]] = []
    currencies: set[str] = set()
    for m in result.get("metrics") or ():
        if not isinstance(m, Mapping):
            continue
        got = [r for r in m.get("rows") or () if isinstance(r, Mapping) and "company_id" in r]
        if got:
            if any(set(r) - {"company_id", "total_spend", "matched_line_count"} for r in got):
                return None  # a second dimension: not one figure per company
            rows.extend(got)
            currencies.add(str(m.get("currency")))
    if not rows or len(currencies) != 1:
        return None
    return rows, currencies.pop()


def ranked(ask: CompanyAsk, base: Answer, companies: Sequence[Company]) -> Answer:
    """The companies ranked by their governed spend (the base answer's per-company rows), in the direction asked,
    bounded by the companies the question names."""
    if base.status == "clarification":
        return base
    if base.status not in ("answered",):
        return base
    got = _company_rows(base.result)
    if got is None:
        return _clarify("a ranking of companies compares one spend figure per company in one currency, and this "
                        "question does not read as that (a second breakdown, or companies reporting in different "
                        "currencies). Which figure do you want per company?", base.inputs)
    rows, currency = got
    named = {c.company_id: c for c in companies}
    scope = [cid for cid in (ask.named or tuple(named))]
    by_id = {str(r["company_id"]): r for r in rows}
    items = [(cid, _decimal(by_id[cid]["total_spend"]), int(str(by_id[cid].get("matched_line_count") or 0)))
             for cid in scope if cid in by_id]
    if any(v is None for _, v, _ in items):
        return _clarify("a company's governed figure is missing. Which companies do you mean?", base.inputs)
    down = ask.direction == "bottom"
    order = sorted(items, key=lambda x: (x[1], x[0]) if down else (-x[1], x[0]))  # type: ignore[operator]
    # "which two companies spent the most": the first two; a tie at the cut keeps every tied company (never broken)
    if 0 < ask.limit < len(order):
        cut = order[ask.limit - 1][1]
        order = [row for row in order if (row[1] <= cut if down else row[1] >= cut)]  # type: ignore[operator]
    without = [cid for cid in scope if cid not in by_id]
    label = {cid: (named[cid].company_name if cid in named else cid) for cid in scope}
    lines = [f"{i}. {label[cid]} ({cid}) {_cents(v)} {currency} ({n} lines)"  # type: ignore[arg-type]
             for i, (cid, v, n) in enumerate(order, start=1)]
    if not order:
        text = ("None of the companies has spend in scope (no data, not zero), so none spent the "
                f"{'least' if down else 'most'}.")
        return base.model_copy(update={"status": "no_data", "text": f"{text} {_read_as(base.text)}".strip()})
    first = order[0]
    tied = [cid for cid, v, _ in order if v == first[1]]
    word = "least" if down else "most"
    if len(tied) > 1:
        lead = f"{' and '.join(f'{label[c]} ({c})' for c in tied)} are tied for the {word} spend."
    elif len(order) == 1:
        lead = f"Only {label[first[0]]} ({first[0]}) has spend in scope."
    else:
        lead = f"{label[first[0]]} ({first[0]}) spent the {word}."
    whose = "the companies named" if ask.named else "the tenant's companies"
    text = (f"{lead} {whose.capitalize()} by spend (net + tax), {'smallest' if down else 'largest'} first, read "
            f"from the governed spend per company ('{ask.words}'): " + "; ".join(lines) + ".")
    if without:
        text += (" No spend in scope (no data, not zero) for " +
                 ", ".join(f"{label[c]} ({c})" for c in without) + "; not ranked.")
    body = base.text.split(" Sources:", 1)[0]
    text = f"{text} From: {body}"
    if base.sources:
        text += " Sources: " + ", ".join(base.sources) + "."
    ranking = [{"rank": i, "company_id": cid, "company_name": label[cid], "total_spend": _cents(v),  # type: ignore[arg-type]
                "matched_line_count": n} for i, (cid, v, n) in enumerate(order, start=1)]
    result = {**base.result, "measure": "company_ranking", "direction": ask.direction, "ranking": ranking,
              "currency": currency, "companies_without_spend": without}
    inputs = {**base.inputs, "company_ranking": {"words": ask.words, "direction": ask.direction,
                                                 "companies": scope}}
    return Answer(status="answered", text=text, result=result, inputs=inputs, sources=base.sources,
                  citations=base.citations, checks=base.checks)


def _figure(answer: Answer) -> tuple[Decimal, int, str] | None:
    if answer.status != "answered" or not one_figure(answer.result):
        return None
    if any(k in answer.result for k in ("ranking", "rows", "comparison", "share_percent")):
        return None
    if answer.result.get("status") not in (None, "complete"):
        return None
    total, lines = base_total(answer.result)
    if total is None and answer.result.get("basis") == "net":
        # a net (tax-exclusive) figure (router/invoice_facts.py): its total is the net spend, its lines counted
        total, lines = answer.result.get("net"), answer.result.get("line_count")
    value = _decimal(total)
    currency = answer.result.get("currency")
    if currency is None and isinstance(answer.result.get("metrics"), list) and answer.result["metrics"]:
        currency = answer.result["metrics"][0].get("currency")
    if value is None or currency is None:
        return None
    return value, int(str(lines or 0)), str(currency)


def difference(ask: CompanyAsk, a: Answer, b: Answer) -> Answer:
    """How much more (or less) side a spent than side b: the two governed figures and their difference."""
    inputs = {"sides": [{"question": q, "inputs": x.inputs} for q, x in zip(ask.bases, (a, b), strict=True)]}
    for side, x in zip(ask.sides, (a, b), strict=True):
        if x.status == "clarification":
            return x.model_copy(update={"text": f"{x.text} (for '{side}', one side of '{ask.words}')",
                                        "inputs": inputs})
    fa, fb = _figure(a), _figure(b)
    if fa is None or fb is None:
        missing = [s for s, f, x in zip(ask.sides, (fa, fb), (a, b), strict=True)
                   if f is None and x.status == "no_data"]
        if missing:
            text = (f"No spend in scope for {', '.join(repr(s) for s in missing)} (no data, not zero), so no "
                    "difference is stated. " + " ".join(_read_as(x.text) for x in (a, b)))
            return Answer(status="no_data", text=text.strip(), result={"status": "no_data"}, inputs=inputs,
                          sources=())
        return _clarify(f"'{ask.words}' compares two spend figures, and '{ask.sides[0]}' or "
                        f"'{ask.sides[1]}' does not read as one complete spend figure. Which two figures do you "
                        "mean?", inputs)
    (va, na, ca), (vb, nb, cb) = fa, fb
    if ca != cb:
        return _clarify(f"'{ask.sides[0]}' is in {ca} and '{ask.sides[1]}' in {cb}; a difference across "
                        "reporting currencies is no governed figure. In which currency do you want them?", inputs)
    delta = va - vb
    more = ask.direction == "top"
    shown = delta if more else -delta
    percent = None if vb == 0 else (delta * 100 / abs(vb)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    word = "more" if (shown >= 0) == more else "less"
    amount = abs(shown)
    lead = (f"'{ask.sides[0]}' spent {_cents(amount)} {ca} {word} than '{ask.sides[1]}': {_cents(va)} {ca} "
            f"({na} lines) against {_cents(vb)} {cb} ({nb} lines)")
    if delta == 0:
        lead = f"'{ask.sides[0]}' and '{ask.sides[1]}' spent the same: {_cents(va)} {ca}"
    lead += (f"; difference {_cents(delta)} {ca}" + (f" ({percent} % of '{ask.sides[1]}')" if percent is not None
                                                    else f" ('{ask.sides[1]}' is zero: no percent)") + ".")
    lead += (" The difference is of the two governed figures as presented (each rounded to cents). Side a: "
             f"{a.text.split(' Sources:', 1)[0]} Side b: {b.text.split(' Sources:', 1)[0]}")
    sources = tuple(dict.fromkeys((*a.sources, *b.sources)))
    if sources:
        lead += " Sources: " + ", ".join(sources) + "."
    result = {"status": "complete", "measure": "difference", "current": _cents(va), "base": _cents(vb),
              "delta": _cents(delta), "change_percent": str(percent) if percent is not None else None,
              "currency": ca, "sides": list(ask.sides)}
    return Answer(status="answered", text=lead, result=result, inputs=inputs, sources=sources,
                  citations=(*a.citations, *b.citations), checks=(*a.checks, *b.checks))


def check_compared(answer: Answer) -> tuple[PolicyCheck, ...]:
    """The composed figure recomputed from the governed inputs the answer states: the difference is side a minus
    side b and is the figure the text states; the ranking is in the order of its figures. A composition its own
    inputs do not give is withheld."""
    r = answer.result
    if r.get("measure") == "difference":
        a, b, delta = _decimal(r.get("current")), _decimal(r.get("base")), _decimal(r.get("delta"))
        ok = a is not None and b is not None and delta == a - b and str(abs(delta)) in answer.text
        return (PolicyCheck(check="compared_difference", passed=ok, detail=f"{r.get('current')} - {r.get('base')} "
                            f"= {r.get('delta')}" if ok else "the difference is not side a minus side b as stated"),)
    if r.get("measure") == "company_ranking":
        values = [_decimal(x.get("total_spend")) for x in r.get("ranking") or ()]
        down = r.get("direction") == "bottom"
        ok = bool(values) and all(v is not None for v in values) and values == sorted(
            values, reverse=not down)  # type: ignore[type-var]
        ok = ok and all(f"({x['company_id']}) {x['total_spend']}" in answer.text for x in r.get("ranking") or ())
        return (PolicyCheck(check="compared_ranking", passed=ok,
                            detail="in the order of the governed figures" if ok else "the order or a figure differs"),)
    return ()


__all__ = ["COMPARISON_CUE", "CompanyAsk", "check_compared", "company_mentions", "detect", "difference",
           "implied_base", "implied_note", "ranked"]
