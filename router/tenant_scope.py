"""The tenant named as a scope: "in the whole tenant", "total tenant spend", "tenant 99", "in tenant-42".

A question is always answered inside the caller's tenant (row-level security bounds every governed call to it);
naming the tenant only says "all of its companies together". So the caller's own tenant, however written, is read
as the all-companies scope word ``group-wide`` (router/scope.py), and the reading restates it. A tenant written
with another number or id never widens or switches the scope: it changes nothing (the question is read without it,
as the golden set's smuggled-tenant cases require), and it is named back, in the answer's reading or in the
clarification the rest of the question needs (e.g. which company), never dropped silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: What the tenant phrase is read as: an all-companies scope word every figure path knows (router/scope.py).
SCOPE_WORD = "group-wide"

_LEAD = r"(?:(?:in|across|for|within|over|of|from|im|in\s+ganzen|über|ueber)\s+)?(?:(?:the|our|my|this|den|dem)\s+)?"
#: "tenant 99", "tenant-42", "tenant #7", "Mandant 17": a tenant written with its number.
_NUMBERED = re.compile(_LEAD + r"\b(?P<word>tenant|mandant(?:en)?)\s*(?:[-#:]\s*|no\.?\s*)?(?P<num>\d{1,6})\b", re.I)
#: "the whole tenant", "entire tenant", "den ganzen Mandanten": the tenant without a number (the caller's).
_WHOLE = re.compile(_LEAD + r"\b(?:whole|entire|complete|full|all\s+of\s+the|ganzen|gesamten)\s+"
                    r"(?:tenant|mandanten?)\b", re.I)
#: "total tenant spend", "tenant total", "tenant-level spend": the tenant as an adjective of the figure.
_ADJECTIVE = re.compile(r"(?<=\btotal\s)tenant\b|(?<=\boverall\s)tenant\b|"
                        r"\btenant(?:[- ]level)?(?=\s+(?:total|spend|spending|volume|figures?|sum)\b)|"
                        r"\bmandantenweit\b", re.I)


@dataclass(frozen=True)
class TenantScope:
    """The question with the caller's tenant read as the all-companies scope, or the other tenant it names."""

    #: The question to read: each phrase naming the caller's tenant replaced by :data:`SCOPE_WORD`.
    text: str
    #: The phrases read as the caller's tenant ("the whole tenant", "tenant 99"), as written.
    read: tuple[str, ...] = ()
    #: The phrases naming another tenant ("tenant 42" asked by tenant-17), as written.
    other: tuple[str, ...] = ()


def _number(tenant_id: str) -> str | None:
    """The number of a tenant id of the form ``tenant-17`` (``None`` for another form)."""
    found = re.fullmatch(r"[A-Za-z]+[-_]?0*(\d+)", tenant_id)
    return found.group(1) if found else None


def tenant_scope(text: str, tenant_id: str) -> TenantScope:
    """Read the tenant phrases of ``text`` for a caller of ``tenant_id`` (pure; the text unchanged if none)."""
    own = _number(tenant_id)
    read: list[str] = []
    other: list[str] = []

    def numbered(m: re.Match[str]) -> str:
        if own is not None and m.group("num").lstrip("0") == own:
            read.append(m.group(0).strip())
            return SCOPE_WORD
        other.append(m.group(0).strip())
        return " "  # named back in the clarification, never read as the caller's tenant

    def whole(m: re.Match[str]) -> str:
        read.append(m.group(0).strip())
        return SCOPE_WORD

    out = _NUMBERED.sub(numbered, text)
    out = _WHOLE.sub(whole, out)
    out = _ADJECTIVE.sub(whole, out)
    if not read and not other:
        return TenantScope(text)
    return TenantScope(" ".join(out.split()), tuple(read), tuple(other))


def other_tenant_question(scope: TenantScope, tenant_id: str) -> str:
    """What is said of another tenant's name: it changes nothing (the caller's tenant is the only scope)."""
    named = ", ".join(repr(o) for o in scope.other)
    return (f"{named} names another tenant than yours ({tenant_id}): it changes nothing, only your own tenant's "
            "data is read (never another tenant's, nor more than yours).")


__all__ = ["SCOPE_WORD", "TenantScope", "other_tenant_question", "tenant_scope"]
