"""A named set of companies as one spend scope: "Xenon and Ypsilon combined", "Alpenland + Kestrel together",
"total spend across Company A, B and C", "group-wide spend excluding Company C".

Governed spend is one company's, all the tenant's companies' together, or (``finance.company_spend``'s allow-listed
``company_ids``) exactly the companies a question names together. A question naming several companies with a word
that adds them up is that set; without such a word (or with one that keeps them apart: "vs", "each", "per company")
it stays a question about which company is meant. Never one company's figure when several were named.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import pairwise

from router.entities import Company, Gazetteer
from router.reader import Reading
from router.scope import all_companies
from router.set_words import COMBINE_PATTERN
from router.tenant_scope import SCOPE_WORD

#: Words that add the named companies up into one figure.
#: (the one table of such words is router/set_words.py's; "gesamte", "Gesamtausgaben": the German compounds too)
_TOGETHER = re.compile(rf"(?<![\w-])(?:{COMBINE_PATTERN}|gesamt\w*)(?![\w-])", re.I)
#: "Alpenland + Kestrel": a plus between two company names adds them up.
_PLUS = re.compile(r"\s*\+\s*")
#: Words that keep the named companies apart (a comparison, a figure each): never their sum.
_APART = re.compile(
    r"\b(?:vs\.?|versus|compared?|compares|comparing|comparison|than|each|per\s+company|by\s+company|"
    r"respectively|separately|individually|side\s+by\s+side|differences?|split|broken\s+down|breakdown|"
    r"which\s+(?:company|one)|ranked|rank)\b", re.I)
#: Problems of the reading this module answers: several companies named, or several left by an exclusion.
#: Apart words that still ask one figure per named company, so a table of the named companies with their total
#: answers them ("X and Y spend per company and combined", "X vs Y ... per company"): not a difference, a
#: ranking or "which company".
_TABLE_APART = re.compile(
    r"vs\.?|versus|each|per\s+company|by\s+company|respectively|separately|individually|side\s+by\s+side|split|"
    r"broken\s+down|breakdown", re.I)
#: "spend per company (A, B, C)": the companies listed in a parenthesis after the per-company words (the name
#: reader takes "company (A" as the first company's name, so the breakdown is read from the words themselves).
_PER_COMPANY_LIST = re.compile(r"\b(?:per|by|for\s+each|split\s+by|broken\s+down\s+by)\s+company\s*\(", re.I)
#: Comparison words written between the two things compared ("X vs Y", "more than Y", "X against Y"): they keep
#: the named companies apart only when companies stand on both sides of them; "Group (X + Y) Q4 vs Q3", "Q4 vs Q3
#: for X and Y together" compare periods of the set.
_INFIX = re.compile(r"vs\.?|versus|than|against", re.I)
_SEVERAL_NAMED = re.compile(r"^Which company do you mean: .* The question names more than one\.$")
_SEVERAL_LEFT = re.compile(r"^'.*' \(excluded\) leaves the companies ")


@dataclass(frozen=True)
class CompanySet:
    """The companies a spend question adds up, and whether they were named (a subset needs ``company_ids``)."""

    companies: tuple[Company, ...]
    #: What made them one scope: the word that adds them up, or the exclusion that left them.
    cue: str

    @property
    def company_ids(self) -> tuple[str, ...]:
        return tuple(c.company_id for c in self.companies)

    def restated(self) -> str:
        """ "Company A (COMP-A), Company B (COMP-B)": the companies the figure covers, for the answer."""
        return ", ".join(f"{c.company_name} ({c.company_id})" for c in self.companies)


def adds_up(words: str) -> bool:
    """Whether ``words`` are only a word that adds companies up ("together", "combined")."""
    return _TOGETHER.fullmatch(words.strip()) is not None


def resolves(problem: str) -> bool:
    """Whether a reading problem is the one a company set answers (several companies named or left)."""
    return bool(_SEVERAL_NAMED.match(problem) or _SEVERAL_LEFT.match(problem))


def _company_starts(reading: Reading) -> list[int]:
    """Where the question names a company: by name (the reader's mentions) or by id ("COMP-A")."""
    starts = [m.start for m in reading.mentions.companies]
    for cid in reading.identifiers.company_ids:
        starts.extend(m.start() for m in re.finditer(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", reading.text, re.I))
    return starts


def kept_apart(reading: Reading) -> bool:
    """Whether a word keeps the named companies apart (a comparison of them, a figure each, a ranking): never
    their sum. A comparison word between two things ("vs", "than") keeps them apart only with a company named on
    each side of it; with every company on one side it compares something else of the set (its periods)."""
    starts = _company_starts(reading)
    for m in _APART.finditer(reading.cue_text):
        if _INFIX.fullmatch(m.group(0)) and not (any(s < m.start() for s in starts)
                                                  and any(s >= m.end() for s in starts)):
            continue
        return True
    return False


def company_set(reading: Reading, gazetteer: Gazetteer) -> CompanySet | None:
    """The companies a spend question adds up, or ``None`` when it names one company, all of them by a scope word
    (router/scope.py), or several without a word that adds them up (asked about)."""
    if len({c.reporting_currency for c in gazetteer.companies}) > 1:
        return None  # a sum across reporting currencies is no governed figure
    if reading.excluded_company_ids and all(set(m.candidates) <= set(reading.excluded_company_ids)
                                            for m in reading.mentions.companies):
        left = tuple(c for c in gazetteer.companies if c.company_id not in reading.excluded_company_ids)
        if len(left) > 1 and any(resolves(p) for p in reading.entity_problems):
            return CompanySet(left, "excluding " + ", ".join(reading.excluded_company_ids))
        return None
    if any(len(m.candidates) != 1 for m in reading.mentions.companies):
        return None  # a span close to several companies' names is asked about
    ids = list(dict.fromkeys([*reading.identifiers.company_ids,
                              *(m.candidates[0] for m in reading.mentions.companies)]))
    companies = [gazetteer.company(i) for i in ids]
    if len(ids) < 2 or any(c is None for c in companies):
        return None
    table = per_company_table(reading)
    if not table and kept_apart(reading):
        return None
    named = sorted(reading.mentions.companies, key=lambda m: m.start)
    plus = next((reading.text[a.end:b.start] for a, b in pairwise(named)
                 if _PLUS.fullmatch(reading.text, a.end, b.start)), None)
    cue = _TOGETHER.search(reading.cue_text)
    if cue is None and plus is None and not table:
        return None
    word = cue.group(0) if cue else (plus.strip() if plus else "per company")
    return CompanySet(tuple(c for c in companies if c is not None), word)


def several_named(reading: Reading) -> bool:
    """Whether the question names two or more companies (by name or by id: "COMP-A and COMP-B")."""
    return len({*reading.identifiers.company_ids, *(c for m in reading.mentions.companies for c in m.candidates)}) > 1


#: "split alpenland vs kestrel", "split between Company A and Company B", "broken down across X and Y": the split
#: word right before the companies named asks one row per company (the rows of a split are its parts).
_SPLIT_BEFORE = re.compile(r"\b(?:split|broken\s+(?:down|out)|breakdown|divided|allocated)\s+"
                           r"(?:(?:between|among|across|into|over|by)\s+)?(?:the\s+)?$", re.I)


#: "Alpenland and Kestrel spend in H2 2025, each", "X and Y spend respectively": one figure per named company (a
#: word of its own, not "each supplier" or "each month", which name another breakdown).
_EACH_AFTER = re.compile(r"\b(?:each|respectively|separately|individually)\b(?!\s+(?:of\s+)?(?!compan|entit)[a-z])",
                         re.I)


def split_between_companies(reading: Reading) -> Reading:
    """The reading with a per-company breakdown when the split word stands right before the first of several named
    companies ("monitoring spend split alpenland vs kestrel"): a table of the named companies and their total,
    never "which company do you mean?"."""
    named = sorted(reading.mentions.companies, key=lambda m: m.start)
    each = _EACH_AFTER.search(reading.cue_text) is not None  # (companies named by id are no mentions)
    if (reading.breakdown.group_by or reading.breakdown.grain or not several_named(reading)
            or not (each or (len(named) > 1 and _SPLIT_BEFORE.search(reading.text[:named[0].start])))):
        return reading
    return replace(reading, breakdown=replace(reading.breakdown, group_by=("company_id",)))


def per_company_table(reading: Reading) -> bool:
    """Whether the question asks a figure for each of the companies it names, one row each: its breakdown is by
    company alone (read from the structure "per/by/je <company noun>", whatever language taught the noun), and
    every word that keeps the companies apart only sets them side by side ("vs", "each", "split"), never a
    difference or a ranking of them. Their rows and their total are then one answer, not "which company?"."""
    if reading.breakdown.grain is not None or reading.breakdown.group_by not in (("company_id",), ()):
        return False
    if not reading.breakdown.group_by and not _PER_COMPANY_LIST.search(reading.text):
        return False
    return all(_TABLE_APART.fullmatch(m.group(0)) for m in _APART.finditer(reading.cue_text))


def restated_whole(reading: Reading, gazetteer: Gazetteer, scope: re.Match[str] | None) -> CompanySet | None:
    """ "Total group spend (Company A, B and C)", "group-wide spend (COMP-A + COMP-B + COMP-C)": an all-companies
    scope word (``scope``) with every company of the tenant named beside it restates the scope; the companies are
    read as that set (never asked which one). ``None`` when another set is named or the companies are kept apart
    ("group-wide spend, Company A vs Company B")."""
    if scope is None or len(gazetteer.companies) < 2 or kept_apart(reading):
        return None
    if any(len(m.candidates) != 1 for m in reading.mentions.companies):
        return None
    ids = {*reading.identifiers.company_ids, *(m.candidates[0] for m in reading.mentions.companies)}
    if len(ids) < 2 or ids != {c.company_id for c in gazetteer.companies}:
        return None
    if len({c.reporting_currency for c in gazetteer.companies}) > 1:
        return None
    return CompanySet(tuple(gazetteer.companies), scope.group(0))


def whole_tenant(reading: Reading, gazetteer: Gazetteer) -> re.Match[str] | None:
    """ "Alpenland + Kestrel", "Xenon and Ypsilon combined" in a tenant of exactly those companies: the named set
    is every company of the tenant, so any figure governed without a company (all companies, bounded by the
    tenant's row-level security) is its figure. The span from the first to the last company named, or ``None``."""
    named = company_set(reading, gazetteer)
    if named is None or named.cue.startswith("excluding") or len(gazetteer.companies) < 2:
        return None
    if {c.company_id for c in named.companies} != {c.company_id for c in gazetteer.companies}:
        return None
    spans = [(m.start, m.end) for m in reading.mentions.companies]
    if not spans:
        return None
    return _ANY.match(reading.text, min(s for s, _ in spans), max(e for _, e in spans))


def every_company(reading: Reading, gazetteer: Gazetteer) -> re.Match[str] | None:
    """The all-companies scope of a question: a scope word ("both companies", "group-wide", router/scope.py) or
    every company of the tenant named together (:func:`whole_tenant`)."""
    return all_companies(reading, len(gazetteer.companies)) or whole_tenant(reading, gazetteer)


def tenant_wide(reading: Reading, gazetteer: Gazetteer) -> bool:
    """Whether a figure is over every company of the tenant: they are named together or by a scope word
    (:func:`every_company`). Only when the companies share one reporting currency (a sum across currencies is no
    governed figure) and no company is excluded. A question naming no company at all is asked about (with all
    companies together offered as an answer), never answered for a silently chosen one."""
    companies = gazetteer.companies
    if reading.entities.company_id is not None or len(companies) < 2 or reading.excluded_company_ids:
        return False
    if len({c.reporting_currency for c in companies}) != 1:
        return False
    return every_company(reading, gazetteer) is not None


def every_restated(gazetteer: Gazetteer) -> str:
    """ "all companies of the tenant together (COMP-A, COMP-K)": the scope of a tenant-wide figure, restated."""
    return f"all companies of the tenant together ({', '.join(c.company_id for c in gazetteer.companies)})"


def offer_all(gazetteer: Gazetteer) -> str:
    """ " Or all of them together?": a question naming no company is asked about, with the tenant-wide figure
    offered when the companies share one reporting currency (it is then one governed figure)."""
    if len(gazetteer.companies) < 2 or len({c.reporting_currency for c in gazetteer.companies}) != 1:
        return ""
    return " Or all of them together (all companies of the tenant)?"


#: The company noun as typed in short asks ("both cos", "which co", "per entity", "the 3 comps", "rank the cies"),
#: singular and plural: read as "company"/"companies" after a word that makes it a noun (a determiner, a
#: quantifier, a grouping preposition), never in a company's name ("Co. A", "co a": a letter or number follows).
_NOUN_LEAD = (r"(?:which|what|each|every|per|by|both|all|any|either|the|our|my|of|between|across|among|two|three|"
              r"four|five|six|\d|split|rank|ranked|compare)")
_COMPANY_NOUN = re.compile(
    rf"(?P<lead>\b{_NOUN_LEAD}\s+(?:(?:the|our|of|two|three|four|five|six|\d)\s+){{0,2}})"
    r"(?:(?P<plural>co['’]s|cos|comps|cies|entities|legal\s+entities)\b\.?|"
    # (never an id: "COMP-A", "co-1" are the company's code, not its noun)
    r"(?P<single>co|comp|cie|entity|legal\s+entity)\b(?!\.?\s*(?:[a-z]|\d{1,2})\b|-\w)\.?)", re.I)
#: "whole grp", "entire grp", "grp-wide": the group, abbreviated (router/group_scope.py reads it written out).
_GROUP_SHORT = re.compile(r"\b(?:(?:whole|entire)\s+grp|grp[- ]wide)\b", re.I)


@dataclass(frozen=True)
class CompanyNouns:
    """The question with its short company nouns written out, and what was read (for the answer)."""

    text: str
    read: tuple[str, ...] = ()


def company_nouns(text: str, names: Iterable[str] = ()) -> CompanyNouns:
    """``text`` with the company noun written out where it is typed short ("both cos split q4" -> "both companies
    split q4", "whole grp" -> "group-wide"); a span inside one of the tenant's ``names`` is the name's.

    >>> company_nouns("rank the 3 cos h2 25").text
    'rank the 3 companies h2 25'
    >>> company_nouns("which co spent most q1").text, company_nouns("co a spend by co b").text
    ('which company spent most q1', 'co a spend by co b')
    >>> company_nouns("whole grp q4 vs q3 %?").text, company_nouns("spend of COMP-A in Q1").text
    ('group-wide q4 vs q3 %?', 'spend of COMP-A in Q1')
    """
    taken = [(m.start(), m.end()) for n in names if len(n) > 2
             for m in re.finditer(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text, re.I)]
    read: list[str] = []

    def noun(m: re.Match[str]) -> str:
        if any(s < m.end() and m.start() < e for s, e in taken):
            return m.group(0)
        word = (m.group("plural") or m.group("single")).lower()
        if word in ("companies", "company"):
            return m.group(0)
        read.append(m.group(0)[len(m.group("lead")):])
        return m.group("lead") + ("companies" if m.group("plural") else "company")

    out = _COMPANY_NOUN.sub(noun, text)

    def group(m: re.Match[str]) -> str:
        if any(s < m.end() and m.start() < e for s, e in taken):
            return m.group(0)
        read.append(m.group(0))
        return SCOPE_WORD

    out = _GROUP_SHORT.sub(group, out)
    return CompanyNouns(out, tuple(read))


#: A span of the question as a match (the restated words of a scope).
_ANY = re.compile(r".+", re.S)


__all__ = ["CompanyNouns", "CompanySet", "adds_up", "company_nouns", "company_set",
            "every_company", "every_restated", "kept_apart", "offer_all",
           "per_company_table",
           "resolves", "restated_whole", "several_named", "split_between_companies", "tenant_wide", "whole_tenant"]
