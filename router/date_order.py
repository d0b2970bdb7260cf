"""The order of a slashed day ("01/03/2026": 1 March or 3 January) for one tenant.

A slashed day whose parts are both 12 or less is read in the order the question itself settles (a part above 12,
router/periods.py), else in the tenant's order: the one configured for the tenant (``slash_date_order_by_tenant``,
procura/settings.py), else the deployment's (``slash_date_order``), else the one the tenant's own data implies:
when every company of the tenant carries the legal form of a country that writes the day first ("Kestrel
Lebensmittel GmbH", "Xenon Pharma AG", "Orbis S.A.", "Helix Reagents Ltd"), the day is first; a company with a
month-first legal form ("Inc.", "LLC") or none at all ("Company A") leaves the order unsettled, and the period
reader asks back naming both readings, never guessing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from router.period_grammar import DateOrder

#: Legal forms of companies in countries that write the day before the month (German, Austrian, Swiss, French,
#: Italian, Spanish, Dutch, Belgian, British, Nordic, Polish, Czech companies), as the last words of a name.
DAY_FIRST_FORMS = ("gmbh", "ag", "se", "kg", "ohg", "ug", "kgaa", "gmbh & co. kg", "sa", "s.a.", "sas", "s.a.s.",
                   "sarl", "s.a.r.l.", "s.à r.l.", "spa", "s.p.a.", "srl", "s.r.l.", "sl", "s.l.", "bv", "b.v.", "nv",
                   "n.v.", "ltd", "ltd.", "limited", "plc", "llp", "oy", "oyj", "ab", "as", "a/s", "aps", "asa",
                   "sp. z o.o.", "s.r.o.", "a.s.", "kft", "lda", "ltda")
#: Legal forms of countries that write the month first.
MONTH_FIRST_FORMS = ("inc", "inc.", "llc", "l.l.c.", "corp", "corp.", "corporation", "incorporated")
_FORM = re.compile(r"(?:^|\s)(" + "|".join(re.escape(f) for f in sorted(
    (*DAY_FIRST_FORMS, *MONTH_FIRST_FORMS), key=len, reverse=True)) + r")\s*$", re.I)


def implied_order(company_names: Iterable[str]) -> DateOrder | None:
    """"day_first" when every company name ends in a day-first legal form, "month_first" when every one ends in a
    month-first form, else ``None`` (the data does not say).

    >>> implied_order(["Kestrel Lebensmittel GmbH", "Alpenland Logistik AG"])
    'day_first'
    >>> implied_order(["Company A", "Company B"]) is None
    True
    """
    forms = set()
    names = list(company_names)
    for name in names:
        found = _FORM.search(name.strip())
        if found is None:
            return None
        forms.add("day_first" if found.group(1).casefold() in DAY_FIRST_FORMS else "month_first")
    if len(forms) != 1 or not names:
        return None
    return "day_first" if forms == {"day_first"} else "month_first"


def date_order(tenant_id: str, company_names: Iterable[str], by_tenant: Mapping[str, str],
               deployment: str) -> DateOrder | None:
    """The tenant's order of a slashed day: configured for the tenant, for the deployment, or implied by its
    companies' legal forms; ``None`` when none says (asked back).

    >>> date_order("t1", ["Xenon Pharma AG"], {}, "ask")
    'day_first'
    >>> date_order("t1", ["Xenon Pharma AG"], {"t1": "month_first"}, "ask")
    'month_first'
    """
    for setting in (by_tenant.get(tenant_id), deployment):
        if setting in ("day_first", "month_first"):
            return "day_first" if setting == "day_first" else "month_first"
    return implied_order(company_names)


def tenant_date_order(tenant_id: str, company_names: Iterable[str]) -> DateOrder | None:
    """:func:`date_order` with the settings of this deployment (procura/settings.py)."""
    from procura.settings import get_settings

    settings = get_settings()
    return date_order(tenant_id, company_names, settings.slash_date_order_by_tenant, settings.slash_date_order)
