"""The group as a scope: "group spend", "the group's March spend", "did the group buy", "Northwind spend (group)".

Finance users call all the companies of their tenant "the group" (group controlling, group spend). A figure asked
for the group is the tenant-wide figure: every company of the tenant together, one governed call without a company
(row-level security bounds it), as the scope word ``group-wide`` already is (router/scope.py). So the group written
as a scope is read as that word, and the reading restates it (never dropped silently).

"group" is also the product group's word ("spend per group", "the Sensors group", "the group Shipping", "product
group spend", "Warengruppe"), so it is read as the scope only where it cannot be one: as a modifier of a figure
noun ("group spend", "group total", "group-level"), after a function word or a period only (never after a name or
a product word: "pressure sensors group spend" stays the product group's); as "the group" / "the group's" / "our
group" not followed by a name ("the group Shipping"); as "(group)" after a figure; and never inside a name of the
tenant that holds the word ("Acme Group").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from router.tenant_scope import SCOPE_WORD

#: What "the group" as a noun phrase is read as (router/scope.py knows it as every company of the tenant).
NOUN_WORDS = "all companies"

#: The nouns a bare "group" modifies when it is the scope ("group spend", "group total", "group YTD").
_FIGURE_NOUN = (r"(?:spend|spending|spendings|spent|expenditures?|expenses|purchases|purchasing|costs?|volume|totals?|"
                r"figures?|sum|ytd|qtd|mtd|level|run[- ]rate|invoices?|suppliers?|vendors?|exposure|share|amounts?)\b")
#: "group spend", "group-level spend", "group total": the group as a modifier of a figure.
#: Words between the modifier and its noun: a kind of figure or a period ("group monthly run-rate", "group Q1 2026
#: invoice amounts").
_BETWEEN = (r"(?:(?:monthly|quarterly|yearly|annual\w*|average|avg|net|gross|overall|q[1-4]|h[12]|fy\s?\d+|"
            r"\d{2,4}|ytd|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*)"
            r"\s+){0,3}")
_MODIFIER = re.compile(r"\bgroup(?:[- ]level)?(?=\s+" + _BETWEEN + _FIGURE_NOUN + ")|\bgroup[- ]level\b|"
                       r"\b(?:at|on)\s+(?:the\s+)?group\s+level\b", re.I)
#: After a ranking word the scope word follows the figure's noun ("ranked by spend group-wide", "the most spend
#: group-wide"): before it, "by group-wide" would read as a grouping and "most group-wide" as a ranking measure.
_RANKED_BY = frozenset({"by", "most", "highest", "lowest", "largest", "biggest", "least"})
_NOUN_AFTER = re.compile(r"\s+(?:spend|spending|expenditures?|expenses|purchases|costs?|volume)\b", re.I)
#: "the group", "the group's", "our group", "the whole group", "for the group": the group as a noun phrase.
_NOUN = re.compile(r"\b(?:the|our|my)\s+(?:whole\s+|entire\s+)?"
                   r"group(?:['’]s)?(?![\w-])", re.I)
#: "Northwind spend (group)": the scope in brackets after a figure.
_BRACKETED = re.compile(r"\(\s*(?:the\s+|whole\s+|entire\s+)?group\s*\)", re.I)
#: The words a bare modifier "group" may follow as the scope: a function word, a share or total word, a verb.
_BEFORE_MODIFIER = frozenset("""
of in by for on at with to from across over within per than vs versus and or what whats what's was is were are did
does do how much many total overall whole entire full consolidated our my the share percent % split break show
give list compare rank ranked top bottom biggest largest most highest lowest which where when all
""".split())  # noqa: SIM905 - a word list reads better as text
#: A period word the modifier may follow ("Q1 2026 group spend", "FY25 group total", "March group spend").
_PERIOD_WORD = re.compile(r"(?:\d[\w/.-]*|q[1-4]\w*|h[12]\w*|fy\w*|ytd|qtd|mtd|jan\w*|feb\w*|mar\w*|apr\w*|may|"
                          r"jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*|year|quarter|month|week|today|"
                          r"yesterday|last|this|prior|previous)", re.I)
#: After "the group" a name makes it a product group's word ("the group Shipping", "the group 'Packaging'"); a
#: period written in capitals ("the group in Q1", "the group's March spend") does not.
_NAME_AFTER = re.compile(r"\s*[\"'„“‘]|\s+(?!(?:Q[1-4]|H[12]|FY|YTD|QTD|MTD|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|"
                         r"Nov|Dec|I\b|EUR|USD|GBP|CHF)\w*)[A-Z]")
#: Words that make the noun phrase a product group's ("the group of", "belongs to the group", "in the group" of a
#: catalogue question): the question is about the catalogue's groups, not about the companies.
_CATALOGUE = re.compile(r"\b(?:belong\w*|member\w*|contain\w*|consist\w*|assigned|catalog\w*|subgroups?|parent|"
                        r"leaf|root|under)\b", re.I)


#: "the group" as the subject of a buying verb: the companies, even beside a product group's name.
_SUBJECT = re.compile(r"\s+(?:spend|spent|buy|bought|use|used|purchase|purchased|order|ordered|book|booked|pay|"
                      r"paid|source|sourced|receive|received)\b", re.I)


#: Before a verb "spend" the group is its subject ("what did the group spend on PLC modules"); after "was", "is" or
#: an article "the group spend" is a noun phrase, which beside a product group's name is that group's spend.
_AUXILIARY = frozenset(["did", "does", "do", "has", "have", "had", "will", "would", "could", "should", "can",
                        "much", "many"])
#: "with group totals", "and group subtotals": totals added to a listing or breakdown (per product group, per
#: company: which is not said), never the tenant as the scope of the figure.
_ADDED_TOTALS = re.compile(r"\s+(?:sub)?(?:totals?|sums?)\b", re.I)
_ADDING = frozenset(["with", "and", "plus", "including", "incl", "incl.", "add", "show"])


@dataclass(frozen=True)
class GroupScope:
    """The question with each phrase naming the group as a scope replaced by :data:`SCOPE_WORD`."""

    text: str
    #: The phrases read as every company of the tenant ("group spend" gives "group"), as written.
    read: tuple[str, ...] = ()
    #: Phrases with the word that are neither the tenant nor a product group's name ("with group totals"): asked
    #: about, named (totals of which groups?).
    unclear: tuple[str, ...] = ()


def _previous_word(text: str, start: int) -> str:
    words = re.findall(r"[\w%'’-]+|[(,;:.?!]", text[:start])
    return words[-1].lower() if words else ""


def _inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in spans)


def _names_in(text: str, names: Iterable[str]) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for n in names if len(n) > 2
            for m in re.finditer(r"(?<!\w)" + re.escape(n) + r"(?!\w)", text, re.I)]


def group_scope(text: str, names: Iterable[str] = (), group_names: Iterable[str] = ()) -> GroupScope:
    """Read the group scope phrases of ``text`` (pure; the text unchanged if none). ``names`` are the tenant's
    names (companies, suppliers, product groups, synonyms): a phrase inside one of them is the name's.
    ``group_names`` are the product groups' names: with one of them in the question, "the group" may point back
    to it ("spend on Sensors: what share of the group went to Beta?"), so it is the scope only as the subject of
    a buying verb ("what did the group spend on PLC modules")."""
    if not re.search(r"group", text, re.I):
        return GroupScope(text)
    named = [s for s in _names_in(text, names) if re.search(r"\bgroup\b", text[s[0]:s[1]], re.I)]
    product_group_named = bool(_names_in(text, group_names))
    found: list[tuple[int, int]] = []
    unclear: list[str] = []
    moved: dict[int, str] = {}  # start of a "group <noun>" read as "<noun> group-wide"
    for m in _MODIFIER.finditer(text):
        before = _previous_word(text, m.start())
        noun = _NOUN_AFTER.match(text, m.end())
        if before in _ADDING and m.group(0).lower() == "group" and _ADDED_TOTALS.match(text, m.end()):
            totals = _ADDED_TOTALS.match(text, m.end())
            assert totals is not None
            unclear.append(text[m.start():totals.end()].strip())
            continue  # "with group totals": asked about (totals per product group, per company or the tenant's?)
        if product_group_named and before in ("the", "this", "that") and _NOUN_AFTER.match(text, m.end()):
            continue  # "the group spend on Sensors": the product group's spend (see below)
        if before in _RANKED_BY and noun is not None and m.group(0).lower() == "group":
            found.append((m.start(), noun.end()))
            moved[m.start()] = f"{noun.group(0).strip()} across {NOUN_WORDS}"
        elif m.group(0).lower().startswith(("at", "on")) or not before or before in _BEFORE_MODIFIER \
                or before in "(,;:.?!" or _PERIOD_WORD.fullmatch(before):
            found.append((m.start(), m.end()))
    for m in _NOUN.finditer(text) if not _CATALOGUE.search(text) else ():
        # (a catalogue question's "the group" is a product group's: "which products belong to the group")
        whole = re.search(r"\b(?:whole|entire)\s", m.group(0), re.I) is not None  # never a product group's
        if product_group_named and not whole and not (
                (_SUBJECT.match(text, m.end()) and _previous_word(text, m.start()) in _AUXILIARY | {""})
                or re.match(r"\s+(?:spent|bought|used|purchased|ordered|booked|paid|sourced|received)\b",
                            text[m.end():], re.I)):
            continue
        # a capitalized verb or figure noun after it is Title Case, no name ("the Group Book", "the Group's Spend")
        name_after = _NAME_AFTER.match(text, m.end()) is not None and not (
            _SUBJECT.match(text, m.end()) or re.match(r"\s+" + _FIGURE_NOUN, text[m.end():], re.I))
        if not name_after and not re.match(r"\s+of\b", text[m.end():]):
            found.append((m.start(), m.end()))
    found.extend((m.start(), m.end()) for m in _BRACKETED.finditer(text))
    spans = sorted({s for s in found if not _inside(named, *s)})
    kept: list[tuple[int, int]] = []
    for span in spans:  # overlapping phrases ("at the group level" and "the group"): the first, longest one
        if kept and span[0] < kept[-1][1]:
            if span[1] > kept[-1][1]:
                kept[-1] = (kept[-1][0], span[1])
            continue
        kept.append(span)
    if not kept:
        return GroupScope(text, unclear=tuple(unclear))
    out: list[str] = []
    last = 0
    for begin, end in kept:
        # "the group" as a noun ("cost the group the most", "did the group buy") reads as the noun phrase "all
        # companies"; as a modifier or possessive ("group spend", "the group's spend") as the adjective
        as_noun = _NOUN.fullmatch(text, begin, end) is not None and not re.search(r"['’]s$", text[begin:end])
        out += [text[last:begin], f" {moved.get(begin) or (NOUN_WORDS if as_noun else SCOPE_WORD)} "]
        last = end
    out.append(text[last:])
    read = tuple(text[begin:end].strip() for begin, end in kept)
    return GroupScope(" ".join("".join(out).split()).replace(" ,", ",").replace(" ?", "?"), read, tuple(unclear))


__all__ = ["GroupScope", "group_scope"]
