"""A name written with spreadsheet wildcards ("Beta*", "Hel?x") stands for every name of the tenant it matches.

A formula criterion such as ``Vendor, "Beta*"`` filters every row whose value matches the pattern, so the pattern is
read as all the suppliers, companies or products of the tenant's gazetteer whose name matches it, and the answer says
which ones. A pattern no name matches is left as typed: the unknown-name clarification asks about it. One name is
never picked silently out of several.
"""

from __future__ import annotations

import fnmatch
import re

from router.entities import Gazetteer

#: A word with a "*" in it, or a "?" inside it ("Hel?x"; a trailing "?" ends a question), with at least two letters.
_PATTERN = re.compile(r"(?<![\w*?&./-])(?!\*\*)(?=[\w&.*?-]*[A-Za-z][\w&.*?-]*[A-Za-z])"
                      r"(?P<p>[\w&.-]*\*[\w&.*?-]*|[\w&.*-]*\w\?\w[\w&.*?-]*)(?![\w&=-])")


def _matches(pattern: str, names: dict[str, str]) -> list[str]:
    """The ids (in ``names``: spelling -> id) whose spelling matches ``pattern``, case-insensitive, in order."""
    folded = pattern.casefold()
    return list(dict.fromkeys(i for n, i in names.items() if fnmatch.fnmatchcase(n.casefold(), folded)))


def matching_names(pattern: str, gazetteer: Gazetteer) -> tuple[str, tuple[str, ...]] | None:
    """The kind and the names of everything ``pattern`` matches (suppliers first, then companies, then products),
    or ``None`` when nothing matches.

    >>> from router.entities import Company
    >>> g = Gazetteer.build([Company("COMP-A", "Company A", "EUR")], [("SUP-1", "Beta Supplies GmbH"),
    ...                     ("SUP-2", "Betamax AG"), ("SUP-3", "Helix Ltd")], [], [])
    >>> matching_names("Beta*", g)
    ('supplier', ('Beta Supplies GmbH', 'Betamax AG'))
    >>> matching_names("Zeta*", g) is None
    True
    """
    suppliers = {name: sid for sid, name in gazetteer.supplier_names.items()}
    for alias, ids in gazetteer.supplier_aliases.items():
        for sid in sorted(ids):
            suppliers.setdefault(alias, sid)
    found = _matches(pattern, suppliers)
    if found:
        return "supplier", tuple(gazetteer.supplier_names.get(i, i) for i in sorted(found))
    companies = {c.company_name: c.company_name for c in gazetteer.companies}
    found = _matches(pattern, companies)
    if found:
        return "company", tuple(found)
    products = {p.product_name: p.product_code for p in gazetteer.products}
    products.update({p.product_code: p.product_code for p in gazetteer.products})
    found = _matches(pattern, products)
    if found:
        return "product", tuple(sorted(found))
    return None


def read_wildcards(text: str, gazetteer: Gazetteer) -> tuple[str, tuple[str, ...]]:
    """``text`` with each wildcard name written as every name it matches, and the notes saying so.

    >>> from router.entities import Company
    >>> g = Gazetteer.build([Company("COMP-A", "Company A", "EUR")], [("SUP-1", "Beta Supplies GmbH"),
    ...                     ("SUP-2", "Betamax AG")], [], [])
    >>> read_wildcards("spend, for COMP-A, supplier Beta* for Q1 2026", g)[0]
    'spend, for COMP-A, supplier Beta Supplies GmbH and Betamax AG for Q1 2026'
    >>> read_wildcards("spend for Beta? and COUNT of **Company A**", g)[0]
    'spend for Beta? and COUNT of **Company A**'
    """
    notes: list[str] = []

    def expand(match: re.Match[str]) -> str:
        pattern = match.group("p")
        found = matching_names(pattern, gazetteer)
        if found is None:
            return pattern  # asked about by the unknown-name clarification
        kind, names = found
        noun = kind if len(names) == 1 else {"company": "companies"}.get(kind, f"{kind}s")
        notes.append(f"{pattern!r} read as every {kind} whose name matches it: {noun} {', '.join(names)}")
        return " and ".join(names)

    out = _PATTERN.sub(expand, text)
    return out, tuple(notes)


__all__ = ["matching_names", "read_wildcards"]
