"""Normalization of supplier names and of the identifiers that exact-match retrieval looks up.

The supplier-name rule is the one of docs/corpus.md and mirrors the dbt macro ``normalize_supplier_name``
(same legal-form list), so ``landing.supplier_aliases.alias_normalized`` equals what dbt computes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

#: Trailing legal-form tokens dropped by the supplier-name normalization (dbt var ``supplier_legal_forms``).
LEGAL_FORMS: tuple[str, ...] = (
    "gmbh", "mbh", "ag", "kg", "kgaa", "ug", "ohg", "se", "ltd", "limited", "plc", "llp", "llc", "inc",
    "incorporated", "corp", "corporation", "co", "company", "sa", "sas", "sarl", "srl", "spa", "bv", "nv", "oy",
    "ab", "as", "aps",
)
_LEGAL_FORMS = frozenset(LEGAL_FORMS)


def normalize_supplier_name(name: str) -> str | None:
    """Lower-case, turn punctuation into spaces, collapse whitespace, drop trailing legal-form suffixes.

    Design note: ``str.lower`` rather than ``str.casefold``: Postgres ``lower()`` (dbt's macro and
    ``ingest.normalize_supplier_name``) keeps "ß", and every side of the alias lookup must agree exactly.

    The first token is never dropped ("AG" alone stays "ag"), exactly like the SQL twin, whose suffix pattern
    needs a preceding space. Returns None when nothing is left (a name made only of punctuation).

    >>> normalize_supplier_name("Beta Supplies GmbH")
    'beta supplies'
    >>> normalize_supplier_name("  BETA-SUPPLIES, Ltd. ")
    'beta supplies'
    >>> normalize_supplier_name("Epsilon Instr.")
    'epsilon instr'
    """
    folded = "".join(ch if ch.isalnum() else " " for ch in name.lower())
    tokens = folded.split()
    while len(tokens) > 1 and tokens[-1] in _LEGAL_FORMS:
        tokens.pop()
    return " ".join(tokens) or None


@dataclass(frozen=True)
class IdentifierMatch:
    """One identifier found in text: normalized value, the raw spelling, and where it starts."""

    identifier_type: str
    value: str
    raw: str
    start: int


# Design note: the patterns accept the spelling variants people type (lower case, a space or underscore instead
# of the hyphen) and normalize to the canonical form, so an exact lookup of PRD-482 finds "prd 482" too; word
# boundaries keep PRD-4821 from matching PRD-482.
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("invoice_number", re.compile(r"(?<![A-Za-z0-9])INV[-_ ]?(\d{4})[-_ ](\d{3,6})(?![A-Za-z0-9])", re.I)),
    ("product_code", re.compile(r"(?<![A-Za-z0-9])PRD[-_ ]?(\d{3,6})(?![A-Za-z0-9])", re.I)),
    ("supplier_id", re.compile(r"(?<![A-Za-z0-9])SUP[-_ ]?(\d{1,6})(?![A-Za-z0-9])", re.I)),
    ("company_id", re.compile(r"(?<![A-Za-z0-9])COMP-([A-Z0-9]{1,8})(?![A-Za-z0-9-])")),
    ("product_group_id", re.compile(r"(?<![A-Za-z0-9])PG-([A-Z]{2,8}(?:-[A-Z]{2,8})?)(?![A-Za-z0-9-])")),
    ("contract_id", re.compile(r"(?<![A-Za-z0-9-])(agreement-\d{4}-\d{2,4})(?![A-Za-z0-9])", re.I)),
)


def _canonical(identifier_type: str, match: re.Match[str]) -> str:
    if identifier_type == "invoice_number":
        return f"INV-{match.group(1)}-{match.group(2)}"
    if identifier_type == "product_code":
        return f"PRD-{match.group(1)}"
    if identifier_type == "supplier_id":
        return f"SUP-{match.group(1)}"
    if identifier_type == "company_id":
        return f"COMP-{match.group(1)}"
    if identifier_type == "product_group_id":
        return f"PG-{match.group(1)}"
    return match.group(1).lower()


def find_identifiers(text: str) -> Iterator[IdentifierMatch]:
    """Every identifier occurrence in ``text``, normalized, in order of appearance per type."""
    for identifier_type, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            yield IdentifierMatch(identifier_type, _canonical(identifier_type, match), match.group(0), match.start())


def normalize_identifier(identifier_type: str, raw: str) -> str | None:
    """The canonical form of one identifier value, or None if ``raw`` is not an identifier of that type.

    >>> normalize_identifier("product_code", "prd 482")
    'PRD-482'
    """
    for kind, pattern in _PATTERNS:
        if kind == identifier_type:
            match = pattern.fullmatch(raw.strip())
            return _canonical(kind, match) if match else None
    raise ValueError(f"unknown identifier type {identifier_type!r}")


def distinct_identifiers(matches: Iterable[IdentifierMatch]) -> list[IdentifierMatch]:
    """One match per (type, value), keeping the first raw spelling, in a stable order."""
    seen: dict[tuple[str, str], IdentifierMatch] = {}
    for match in matches:
        seen.setdefault((match.identifier_type, match.value), match)
    return sorted(seen.values(), key=lambda m: (m.identifier_type, m.value))
