"""No company named in a tenant of several companies: asked back only where the answer depends on the company.

"PT100 probe price Q1 vs Q4", "spend with Epsilon Instr. in 2H 2025", "what did we spend in Nov 2025": a figure of
one company, and the question does not say which. The reading alone cannot tell whether the company matters: a
supplier, product or product group that only one company buys, or a period in which no company has any data, has
one answer whoever asks. So the question is read once per company (each reading its own governed, traced ask) and

* when exactly one company has matching lines, that company's answer is given, and the answer says whose data it
  is (the tenant's figure is that company's: the other companies add nothing); unless the question speaks of the
  asker's own company ("our purchases from Iris", "what did we spend with Beta"): the asker's company may be one
  whose answer is "no data", so it is asked, saying which company has data;
* when no company has any, the answer is "no data" for each of them, said so, never a zero;
* when two or more companies have lines, or a reading is not measured in lines (approved vendors, passages,
  another clarification), the question is asked back as before: the answer would differ by company.

The decision is pure (:func:`decide`) over what each company's ask matched (:func:`matched_lines`); the asks
themselves are run by :mod:`router.service`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from router.entities import Company, Gazetteer
from router.executor import RunResult
from router.tools import (
    CompletenessResponse,
    FindProductsToolResponse,
    MetricToolResponse,
    ResolveCompanyResponse,
    SpendResponse,
)

#: The clarification reasons that only ask which company ("company: the question does not say which company",
#: "company: 'our company' does not say which company"); any other reason keeps the clarification.
_WHICH_COMPANY = re.compile(r"company: (?:the question|'[^']*'|\"[^\"]*\") does not say which company")


def asks_only_company(reasons: Iterable[str]) -> bool:
    """Whether the clarification ``reasons`` ask nothing but which company (and at least that)."""
    listed = tuple(reasons)
    return bool(listed) and all(_WHICH_COMPANY.fullmatch(r.strip()) for r in listed)


def one_company(gazetteer: Gazetteer, company_id: str) -> Gazetteer:
    """``gazetteer`` as if the tenant had only ``company_id``: every reading then takes that company (the
    one-company tenant's rule), and nothing else about the names changes."""
    return replace(gazetteer, companies=tuple(c for c in gazetteer.companies if c.company_id == company_id))


#: The governed figures whose matched lines say whether a company has data for the question's scope (its suppliers,
#: products, groups, period, currency): spend, its shares and comparisons, counts, units and unit prices. A listing
#: or a document selection (invoices over an amount, drafts, overdue, duplicates, first-time suppliers, payment
#: terms) narrows the scope to what it lists: a company with activity in the scope and none listed answers "none"
#: (another answer than the company that has some), so it is never read as "no data for that company".
_SCOPE_MEASURES = frozenset({
    "finance.aggregate_spend", "finance.company_spend", "finance.spend_comparison", "finance.spend_ranking",
    "finance.net_spend", "finance.net_spend_by_period", "finance.period_tax", "finance.document_currency_spend",
    "finance.currency_share", "finance.supplier_share", "finance.product_group_share", "finance.invoice_count",
    "finance.invoice_line_count", "finance.units_purchased", "finance.average_invoice_value",
    "finance.supplier_count", "finance.product_count", "finance.spend_projection", "catalog.unit_price",
    "catalog.average_unit_price", "catalog.unit_price_range", "catalog.document_currency_unit_price",
    "catalog.unit_price_ranking"})


def _narrowed(arguments: object) -> bool:
    """Whether a governed call narrows the scope by a document property (statuses other than the counted posted and
    paid, credit notes alone, an amount): the same selection rule as a listing (see :data:`_SCOPE_MEASURES`)."""
    if not isinstance(arguments, dict):
        return False
    params = arguments.get("parameters") if isinstance(arguments.get("parameters"), dict) else arguments
    statuses = params.get("invoice_statuses")
    if statuses and sorted(statuses) != ["paid", "posted"]:
        return True
    if list(params.get("document_types") or ()) == ["credit_note"]:
        return True
    return any(params.get(k) is not None for k in ("threshold", "upper_threshold", "min_amount", "max_amount"))


def matched_lines(run: RunResult | None) -> int | None:
    """The invoice lines a run's governed figures matched, or ``None`` where that says nothing of the company's
    data: no run (a clarification), a step that did not succeed, or a step not measured in lines (approved vendors,
    passages, a catalogue list price) or narrowed to a selection of documents (:data:`_SCOPE_MEASURES`), whose
    answer may differ by company with no line behind it."""
    if run is None or not run.outcomes:
        return None
    lines = 0
    measured = False
    for outcome in run.outcomes.values():
        if outcome.status != "ok" or outcome.output is None:
            return None
        output = outcome.output
        if isinstance(output, (SpendResponse, MetricToolResponse)):
            if output.metric not in _SCOPE_MEASURES or _narrowed(outcome.arguments):
                return None
            lines += output.matched_line_count
            measured = True
        elif not isinstance(output, (ResolveCompanyResponse, CompletenessResponse, FindProductsToolResponse)):
            # (the company, the completeness check and the catalogue's products of a group are the same for
            # every company: they say nothing of its data, and nothing else)
            return None
    return lines if measured else None


@dataclass(frozen=True)
class Probed:
    """What one company's reading of the question matched."""

    company_id: str
    #: Matched invoice lines; ``None``: not measured in lines (the answer may differ by company regardless).
    lines: int | None


@dataclass(frozen=True)
class Decision:
    """The company whose answer is given, or ``None``: no company has data (each answer is "no data")."""

    company_id: str | None


#: The asker's own company ("we", "our", "us"; "nuestro", "notre", "unser", "bei uns", "nostro", "onze", "nosso"
#: ...): the question is about one company, the asker's, whose answer is "no data" if it is not the one with lines.
#: (Not the French "nos": "invoice nos" are numbers.)
_FIRST_PERSON = re.compile(
    r"\b(?:we|our|ours|ourselves|my|mine|nuestr[oa]s?|nosotros|notre|nous|wir|uns|unser(?:e[mnrs]?)?|"
    r"nostr[oaie]|noi|onze|wij|nosso|nossa|nossos|nossas|nós)\b|\bus\b", re.I)


def first_person(text: str) -> bool:
    """Whether the question speaks of the asker's own company ("what did we spend", "our purchases"); a lower-case
    "us" only (never the country "US")."""
    return any(m.group(0).lower() != "us" or m.group(0) == "us" for m in _FIRST_PERSON.finditer(text))


def decide(probed: Sequence[Probed], personal: bool = False) -> Decision | None:
    """The one company with data, no company with data, or ``None`` (ask back: the answer depends on the company,
    or a reading is not measured in lines). ``personal``: the question speaks of the asker's own company ("our
    purchases from Iris"): one company with data is then still asked about (the asker's may be another, whose answer
    is "no data"); no company with data is "no data" whoever asks."""
    if len(probed) < 2 or any(p.lines is None for p in probed):
        return None
    with_data = [p.company_id for p in probed if p.lines]
    if len(with_data) > 1 or (with_data and personal):
        return None
    return Decision(with_data[0] if with_data else None)


def _name(company: Company) -> str:
    return f"{company.company_name} ({company.company_id})"


def decision_note(decision: Decision, companies: Sequence[Company]) -> str:
    """What the answer says of the company it was read for (the question named none)."""
    if decision.company_id is None:
        listed = ", ".join(_name(c) for c in companies)
        return (f"No company was named: none of the tenant's companies ({listed}) has data for this selection, "
                "so the answer is the same for each of them and for all of them together.")
    one = next(c for c in companies if c.company_id == decision.company_id)
    others = ", ".join(_name(c) for c in companies if c.company_id != decision.company_id)
    return (f"No company was named: only {_name(one)} has data for this selection (none for {others}), so this is "
            f"{one.company_name}'s figure, and also the total of all companies.")


def several_note(probed: Sequence[Probed], companies: Sequence[Company]) -> str:
    """What a "which company?" clarification adds when two or more companies have data: which ones (and which
    have none), so the user sees why it is asked; "" when a reading was not measured in lines."""
    if any(p.lines is None for p in probed):
        return ""
    by_id = {c.company_id: c for c in companies}
    with_data = [_name(by_id[p.company_id]) for p in probed if p.lines and p.company_id in by_id]
    without = [_name(by_id[p.company_id]) for p in probed if not p.lines and p.company_id in by_id]
    if not with_data:
        return ""
    if len(with_data) == 1:
        return f"Only {with_data[0]} has data for it ({', '.join(without)} none)."
    return (f"The answer differs by company: {', '.join(with_data)} have data for it"
            + (f" ({', '.join(without)} none)." if without else "."))


__all__ = ["Decision", "Probed", "asks_only_company", "decide", "decision_note", "first_person", "matched_lines",
           "one_company", "several_note"]
