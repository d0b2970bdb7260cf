"""Limits the data cannot apply, answered without them and marked PARTIAL: "spend for department Maintenance
only", "by supplier for the Bavaria region", "in region south", "plant Rosenheim", "buyer = m.huber", "gl acct 4711",
"invoices that failed the three-way match", "... and the remaining budget".

The governed invoice lines carry a company, a supplier, products, product groups, statuses and dates, but no
department, region, plant, buyer, account, project, purchase order, three-way-match result or budget. A user who
adds such a limit wants the figure of the scope the data does record, told plainly that the limit was not applied:
the question is answered without the limit's words and the answer is PARTIAL, naming the limit as not understood.
Never the figure presented as the narrower one asked (a silent wrong), and never a question back that computes
nothing (the user would only answer "yes, without it").

A *name* the data might hold (a company, supplier, product group or product) is no such limit: an unknown one stays
a clarification naming it (router/unknown_names.py, the reader's span accounting).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from router.ap_fields import with_not_understood
from router.dimensions import unknown_dimensions

#: Labels of router/dimensions.py's lexicon: dimensions of a purchase no invoice line records (a snake_case column
#: of a query outside the lexicon, "supplier_name = ...", is a filter other readers rewrite, never stripped here).
_LIMIT_LABELS = frozenset({"cost centre", "profit centre", "project", "region", "department",
                           "buyer, requester or approver", "purchase order", "account", "budget or forecast", "site"})

#: Dimension nouns a value may stand before ("the Bavaria region", "our R&D department", "the Rosenheim plant").
_NOUN_AFTER = r"(?:sales\s+)?regions?|areas?|districts?|territor(?:y|ies)|departments?|divisions?|plants?|sites?|" \
              r"warehouses?|cost[\s_-]?cent(?:re|er)s?|business\s+units?"
#: "the Bavaria region", "for the logistics department": a determiner, a value and the noun (a lowercase value
#: only after a preposition and a determiner, where it cannot be the question's subject: "the procurement
#: department asked" is no limit)
_VALUE_BEFORE = re.compile(
    r"(?:\b(?:for|in|at|from|of|within|across)\s+(?P<det>the|our)\s+(?P<low>[a-z][\w&-]{2,}(?:\s+[a-z][\w&-]{2,})?)"
    r"|\b(?P<det2>the|our)\s+(?P<cap>(?-i:[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)?)))\s+(?P<noun>" + _NOUN_AFTER + r")\b",
    re.I)
#: Words before such a noun that name no value ("the whole region", "the same plant", "the company department").
_NOT_VALUES = frozenset("""
whole entire same other each every any all one given said respective relevant company supplier vendor our the this
that these those spend total overall which what
""".split())  # noqa: SIM905 - a word list reads better as text

#: "region south", "department maintenance", "plant rosenheim", "cost center lab ops": a lowercase value right after
#: a dimension noun (a cost centre's name may run to a second word; a question word there ends it, see below).
_LOWER_AFTER = re.compile(r"(?<![\w-])(?P<noun>(?:sales\s+)?region|department|plant|site|division|territory|"
                          r"(?P<centre>cost[\s_-]?cent(?:re|er)))"
                          r"\s+(?P<value>[a-z][\w&-]{2,})\b(?:\s+(?P<second>[a-z][\w&-]{1,})\b)?", re.I)
#: "..., north region", "for logistics department only": a bare value right before a dimension noun, after a clause
#: boundary or a preposition (never after "by"/"per"/"each", where the noun is a grouping: those words are in
#: _NOT_VALUES or _NOT_A_LIMIT_BEFORE below, as are quantities: "in several regions").
_BARE_BEFORE = re.compile(
    r"(?:^|[,;:(]\s*|\b(?:for|in|at|from|within|only|just)\s+)(?P<value>[a-z][\w&-]{2,})\s+"
    r"(?P<noun>(?:sales\s+)?region|department|division|plant|site|warehouse|territory|district|business\s+unit|"
    r"cost[\s_-]?cent(?:re|er))\b(?!\s*(?:[-_]\s*)?(?:level|wise|code|codes|manager|managers|head|split|breakdown))",
    re.I)
_QUANTITIES = frozenset("""
multiple several many various different both two three four five some most other another single one same
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words after a dimension noun that are the question's own ("by region and supplier", "per plant in 2025").
_NOT_LOWER_VALUES = frozenset("""
and or for in of on at by with from to per only the a an spend total totals split breakdown please pls is was are
were which what that this these those each every as via under over during since until between q1 q2 q3 q4 h1 h2 fy
ytd last next current code codes id ids name names level levels wise manager managers head heads lead budget
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words before a dimension noun that make it the question's subject or a breakdown, not a limit with a value.
_NOT_A_LIMIT_BEFORE = frozenset("""
which what whose the a an our their its each every per by any all that this those these no one
""".split())  # noqa: SIM905 - a word list reads better as text

#: "buyer = m.huber", "department: QC lab", "requester = 'j.doe'": a keyed value, whatever its shape, up to the
#: clause's end.
_KEYED = re.compile(
    r"(?<![\w-])(?P<noun>buyer|requester|requestor|approver|purchaser|department|dept|region|plant|site|project|"
    r"cost[\s_-]?cent(?:re|er)|profit[\s_-]?cent(?:re|er)|gl[\s_-]?account|account|po[\s_-]?number|po)"
    r"\s*(?:==|=|:)\s*(?P<value>'[^']{1,60}'|\"[^\"]{1,60}\"|[\w.@&/-]+(?:\s+(?!(?:and|or|only|in|for|by|q[1-4]|"
    r"h[12]|fy\w*|\d)\b)[a-z][\w.&-]*)?)", re.I)
#: "gl acct 4711", "G/L account no. 6300", "ledger acct 6200": an account with its number.
_ACCOUNT = re.compile(r"(?<![\w-])(?P<noun>(?:gl|g/l|general\s+ledger|ledger)\s+(?:acct|account)s?|acct)"
                      r"\s*(?:no\.?|number|#)?\s*[:=]?\s*(?P<value>\d[\w-]*)", re.I)
#: "failed the three-way match", "that passed 3-way matching", "with a two-way match exception": a matching
#: result no invoice line records.
_MATCH_RESULT = re.compile(
    r"(?:\b(?:that|which|who)\s+)?\b(?:(?:have\s+|has\s+|had\s+)?(?:failed|passed|failing|passing|did\s+not\s+pass|"
    r"didn't\s+pass|not\s+passing)|with(?:out)?|fail(?:s|ed)?\s+on)\s+(?:the\s+|a\s+|an\s+)?"
    r"(?:three|3|two|2|four|4)[\s-]way[\s-]match(?:ing)?(?:\s+(?:check|control|test|exceptions?))?", re.I)
#: "... and the remaining budget", "and budget left", "... compared to budget": a budget asked beside the figure.
_BUDGET = re.compile(
    r"(?:\s*[,;—–-]\s*|\s+)(?:(?:and|plus|also|with)\s+)?(?:the\s+|our\s+|its\s+)?(?:remaining|left[\s-]?over|"
    r"available|open|unused)\s+budgets?(?:\s+left)?|(?:\s*[,;—–-]\s*|\s+)(?:(?:and|plus|also)\s+)?"
    r"(?:the\s+|our\s+)?budgets?\s+(?:left|remaining|still\s+available)", re.I)
#: "How does X compare to budget?": the figure X asked against a budget; answered as the figure alone.
_COMPARED_TO_BUDGET = re.compile(
    r"\bhow\s+(?:does|do|did|is|are|was|were)\s+(?P<figure>.+?)\s+(?:compare|stack\s+up|measure\s+up|look)\s+"
    r"(?:to|with|against|versus|vs\.?)\s+(?:the\s+|our\s+|its\s+)?(?P<words>budget(?:ed)?(?:\s+figures?)?)", re.I)
#: "If you can't do the budget, the spend alone is fine too.": the user's own fallback, said by the partial answer.
_FALLBACK = re.compile(r"(?:^|(?<=[.?!]))\s*(?:if|in\s+case)\s+(?:you|the\s+system|it)\s+(?:can['’]t|cannot|can\s+not|"
                       r"are\s+unable\s+to|is\s+unable\s+to|don['’]t|do\s+not)\b[^.?!]*[.?!]?", re.I)


#: The words a plain fallback is made of ("..., the spend alone is fine too"); any other word may be a constraint.
_FALLBACK_WORDS = frozenset({
    "the", "a", "that", "this", "figure", "spend", "spending", "total", "number", "amount", "alone", "only", "just",
    "is", "are", "will", "would", "be", "fine", "ok", "okay", "too", "also", "then", "enough", "without", "it",
    "give", "me", "us", "please", "plain", "as", "well"})


def _fallback(match: re.Match[str]) -> str:
    """The user's fallback sentence dropped when it only says "the rest is fine"; kept (and read) when it carries
    words of its own ("..., only count paid invoices"), which may be a constraint."""
    sentence = match.group(0)
    tail = sentence.split(",", 1)[1] if "," in sentence else ""
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", tail)}
    return "" if words <= _FALLBACK_WORDS else sentence


@dataclass(frozen=True)
class Limit:
    """A limit (or a figure beside the asked one) the data cannot apply: its words as written and its label."""

    words: str  # "department Maintenance"
    label: str  # "department"
    start: int
    end: int


@dataclass(frozen=True)
class LimitSplit:
    """The limits a question puts that the data cannot apply, and the question asked without them."""

    limits: tuple[Limit, ...]
    rest: str


def _label(noun: str) -> str:
    lower = re.sub(r"[\s_-]+", " ", noun.lower())
    if lower.startswith(("region", "sales region", "area", "district", "territor")):
        return "region"
    if lower.startswith(("department", "dept", "division", "business unit")):
        return "department"
    if lower.startswith(("plant", "site", "warehouse")):
        return "site"
    if "acct" in lower or "account" in lower:
        return "account"
    if lower.startswith(("po", "purchase")):
        return "purchase order"
    if lower.startswith(("cost", "profit")):
        return lower.replace("center", "centre")
    if lower.startswith("project"):
        return "project"
    return "buyer, requester or approver"


def _plain(value: str) -> str:
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in value.casefold().split())


def unapplied_limits(text: str, known: Iterable[str] = (), units: Sequence[tuple[int, int]] = ()) -> tuple[Limit, ...]:
    """Every limit of ``text`` the invoice data cannot apply, in text order (overlaps kept once, longest first).

    ``known``: the tenant's names (companies, suppliers, product groups, products); a value before or after a
    dimension noun that is one of them ("the sensors area", "the Control Equipment division") is a filter the data
    can apply, read by the entity reader, never an unapplied limit.

    >>> [(x.words, x.label) for x in unapplied_limits("xenon Sept 2025 by supplier, department Maintenance")]
    [('department Maintenance', 'department')]
    >>> [x.words for x in unapplied_limits("Company B Sept 2025 by supplier, the Bavaria region")]
    ['the Bavaria region']
    >>> unapplied_limits("which department asked for the spend by region?")
    ()
    """
    names = {_plain(n) for n in known}
    found: list[Limit] = []
    for d in unknown_dimensions(text):
        if d.label in _LIMIT_LABELS:
            found.append(Limit(text[d.start:d.end], d.label, d.start, d.end))
    for m in _VALUE_BEFORE.finditer(text):
        value = (m.group("low") or m.group("cap") or "").lower()
        if not value or value.split()[0] in _NOT_VALUES or value.split()[-1] in _NOT_VALUES or _plain(value) in names:
            continue
        start = m.start("det") if m.group("low") else m.start("det2")
        found.append(Limit(text[start:m.end()], _label(m.group("noun")), start, m.end()))
    for m in _LOWER_AFTER.finditer(text):
        if m.group("value").lower() in _NOT_LOWER_VALUES or any(ch.isdigit() for ch in m.group("value")) \
                or _plain(m.group("value")) in names:
            continue
        before = re.search(r"([\w']+)\s*$", text[:m.start()])
        if before is not None and before.group(1).lower() in _NOT_A_LIMIT_BEFORE:
            continue  # "which department asked", "the region managers": the noun is the question's subject
        end = m.end("value")
        second = m.group("second")
        if m.group("centre") and second and second.lower() not in _NOT_LOWER_VALUES \
                and not any(ch.isdigit() for ch in second) and _plain(second) not in names:
            end = m.end("second")  # "cost center lab ops": a two-word name of the cost centre
        found.append(Limit(text[m.start():end], _label(m.group("noun")), m.start(), end))
    for m in _BARE_BEFORE.finditer(text):
        value = m.group("value").lower()
        if value in _NOT_VALUES or value in _NOT_A_LIMIT_BEFORE or value in _QUANTITIES \
                or value in _NOT_LOWER_VALUES or _plain(value) in names \
                or any(n.split()[-1] == _plain(value) for n in names if n):
            continue  # (the last word of a known name, "the Control Equipment division", is that name's)
        found.append(Limit(text[m.start("value"):m.end()], _label(m.group("noun")), m.start("value"), m.end()))
    for m in _KEYED.finditer(text):
        found.append(Limit(m.group(0), _label(m.group("noun")), m.start(), m.end()))
    for m in _ACCOUNT.finditer(text):
        found.append(Limit(m.group(0), "account", m.start(), m.end()))
    for m in _MATCH_RESULT.finditer(text):
        words = re.sub(r"^(?:that|which|who)\s+", "", m.group(0), flags=re.I)
        found.append(Limit(words, "three-way match result", m.end() - len(words), m.end()))
    for m in _BUDGET.finditer(text):
        words = re.sub(r"^[\s,;—–-]*(?:(?:and|plus|also|with)\s+)?", "", m.group(0), flags=re.I)
        found.append(Limit(words, "budget", m.end() - len(words), m.end()))
    for m in _COMPARED_TO_BUDGET.finditer(text):
        found.append(Limit(m.group("words"), "budget", m.start("words"), m.end("words")))
    # ``units``: organisation-unit nouns beside a company read ("alpenland site"): the company, no limit
    # (router/name_slots.py)
    found = [x for x in found if not any(s < x.end and x.start < e for s, e in units)]
    kept: list[Limit] = []
    for limit in sorted(found, key=lambda x: (x.start, -x.end)):
        if kept and limit.start < kept[-1].end:
            if limit.end > kept[-1].end:  # overlapping readings of one limit: their union
                last = kept.pop()
                kept.append(Limit(text[last.start:limit.end], last.label, last.start, limit.end))
            continue
        kept.append(limit)
    return tuple(kept)


#: The words that tie a limit to the question, dropped with it ("for the Bavaria region", ", department X only").
_JOINT_BEFORE = re.compile(r"(?:\s*[,;—–-]\s*|\s+)"
                           r"(?:(?:and|plus|also|but|only|just|all|where|with|whose|that|which)\s+)?"
                           # "approved by buyer 'M. Keller'": the verb of the limit goes with it
                           r"(?:(?:approved|ordered|placed|requested|raised|booked|released|signed(?:\s+off)?)\s+)?"
                           r"(?:(?:for|in|at|from|of|within|on|under|by|across|via|in\s+the|for\s+the)\s+)?"
                           r"(?:(?:only|just)\s+)?$", re.I)
_JOINT_AFTER = re.compile(r"\s+(?:only|alone)\b", re.I)


def split_limits(text: str, known: Iterable[str] = (), units: Sequence[tuple[int, int]] = ()) -> LimitSplit | None:
    """The question without its unapplied limits (each with the words tying it in), or ``None`` when it puts none
    or nothing would be left to answer; ``known`` and ``units`` as in :func:`unapplied_limits`."""
    limits = unapplied_limits(text, known, units)
    if not limits:
        return None
    rest, cursor = "", 0
    for limit in limits:
        before = text[cursor:limit.start]
        joint = _JOINT_BEFORE.search(before)
        rest += before[:joint.start()] if joint is not None else before
        after = _JOINT_AFTER.match(text, limit.end)
        cursor = after.end() if after is not None else limit.end
        if limit.label == "budget" and (how := _COMPARED_TO_BUDGET.search(text)) is not None \
                and how.start("words") == limit.start:
            # "How does X compare to budget?" asks X: the figure itself
            rest = rest[:how.start()] + "What was " + how.group("figure")
            cursor = how.end()
    rest = (rest + text[cursor:]).strip()
    rest = _FALLBACK.sub(_fallback, rest).strip()
    rest = re.sub(r"\s+([?.!,;])", r"\1", rest)
    rest = re.sub(r"([,;])\s*([?.!])", r"\2", rest)
    rest = re.sub(r"^[\s,;:&+—–-]+|[\s,;:&+—–-]+$", "", rest)
    if len(re.findall(r"[A-Za-z0-9]{2,}", rest)) < 2:
        return None
    if text.rstrip().endswith("?") and not rest.endswith("?"):
        rest += "?"
    return LimitSplit(limits=limits, rest=rest)


def limits_note(limits: Sequence[Limit], answered: bool = True) -> str:
    """The sentence naming the limits not applied (to an answer, or to the figure a clarification would give)."""
    words = ", ".join(repr(x.words) for x in limits)
    labels = ", ".join(dict.fromkeys(x.label for x in limits))
    applied = ("that limit is NOT applied and the answer covers the rest of the question only" if answered else
               "that limit cannot be applied to the figure either")
    return (f"I did not understand {words}: the invoice data records no {labels} (only the company, supplier, "
            f"products, product groups, invoice status, dates and amounts), so {applied}.")


def with_unapplied_limits(answer: Any, limits: Sequence[Limit]) -> Any:
    """``answer`` to the question without its limits, marked: an answered figure becomes PARTIAL (the limits named
    as not understood); no data, a clarification or a refusal keep their status and name them too."""
    note = limits_note(limits, answered=answer.status in ("answered", "partial"))
    return with_not_understood(answer, [x.words for x in limits], note, reason="not applied")


__all__ = ["Limit", "LimitSplit", "limits_note", "split_limits", "unapplied_limits", "with_unapplied_limits"]
