"""SQL LIKE patterns on supplier names, resolved over the tenant's suppliers: "where supplier_name like 'north%'",
"vendor_name ilike '%gamma%'", "supplier not like 'beta%'".

A data engineer filters by a name pattern instead of the name. Left as written, the pattern is no name the reader
knows: the filter was dropped (the figure of every supplier presented as one supplier's) or the question asked back
about "like". The pattern is matched against each supplier's name and aliases (``%`` any run of characters, ``_``
one character, case-insensitive): one supplier matched is written as that supplier ("supplier_name = 'Northwind
Sensors Ltd'", which router/keyword_query.py reads); several are an ambiguity listing them, none a clarification
naming the pattern (never a guess, never every supplier).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from router.entities import Gazetteer

_LIKE = re.compile(r"\b(?P<col>supplier(?:_name)?|vendor(?:_name)?)\s+(?P<neg>not\s+)?i?like\s+"
                   r"(?P<quote>['\"])(?P<pattern>[^'\"]{1,60})(?P=quote)", re.I)


@dataclass(frozen=True)
class LikeReading:
    """The question with its supplier patterns written as suppliers, or the clarification one of them needs."""

    text: str
    problem: str | None = None


def _matcher(pattern: str) -> re.Pattern[str]:
    body = "".join(".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in pattern.casefold())
    return re.compile(body, re.S)


def matching_suppliers(pattern: str, gazetteer: Gazetteer) -> tuple[str, ...]:
    """The supplier ids whose name or an alias matches the LIKE ``pattern`` (sorted).

    (A pattern made of wildcards only names no supplier: every supplier is no filter a user writes this way.)"""
    if not pattern.strip("%_ "):
        return ()
    rx = _matcher(pattern.strip())
    spellings: list[tuple[str, str]] = [(name, sid) for sid, name in gazetteer.supplier_names.items()]
    spellings += [(alias, sid) for alias, ids in gazetteer.supplier_aliases.items() for sid in ids]
    return tuple(sorted({sid for name, sid in spellings if rx.fullmatch(name.casefold())}))


def read_likes(text: str, gazetteer: Gazetteer) -> LikeReading | None:
    """``text`` with each supplier LIKE pattern resolved, or ``None`` when it has none.

    A pattern matching one supplier becomes ``supplier_name = '<name>'`` (``!=`` after NOT LIKE); several or none
    make the clarification of :attr:`LikeReading.problem`."""
    if _LIKE.search(text) is None:
        return None
    problems: list[str] = []

    def resolved(match: re.Match[str]) -> str:
        pattern = match.group("pattern")
        ids = matching_suppliers(pattern, gazetteer)
        if len(ids) == 1:
            op = "!=" if match.group("neg") else "="
            return f"supplier_name {op} '{gazetteer.supplier_names.get(ids[0], ids[0])}'"
        if ids:
            listed = ", ".join(f"{gazetteer.supplier_names.get(i, i)} ({i})" for i in ids)
            problems.append(f"The supplier pattern {pattern!r} matches several suppliers: {listed}. Which supplier "
                            "do you mean?")
        else:
            problems.append(f"I do not know a supplier matching {pattern!r} in your data (no supplier name or alias "
                            "fits it). Which supplier do you mean?")
        return match.group(0)

    rewritten = _LIKE.sub(resolved, text)
    return LikeReading(rewritten, " ".join(problems) or None)


__all__ = ["LikeReading", "matching_suppliers", "read_likes"]
