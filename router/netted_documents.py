"""A spend figure "after" a named credit note: "After credit note CN-2026-0011, what is Company B's net spend with
Supplier Eta for Q1 2026?".

Governed spend already nets every counted credit note in (invoices and credit notes, credit notes negative), so the
figure asked is the period's governed spend itself, not the credit note alone and not the credit notes only. The
question is read with the cue and the number blanked out ("after credit note CN-..."), routed the ordinary way, and
one step is added: the credit note's governed row (``finance.document_amounts``) within the figure's own scope
(company, suppliers, period). The answer then says whether the credit note lies in that scope and so is included
in the figure, or lies outside it (the figure then does not contain it, which is said, never left implicit).

Only a plain spend figure is taken this way; any other base (a listing, a breakdown the reader routes elsewhere, a
clarification) keeps the named-document path, which names what it cannot combine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from router.contract import PlanStep, Ref

#: The step the answer reads the credit note's row from (router/answer.py).
NETTED_STEP = "netted-credit-notes"
AMOUNTS_METRIC = "finance.document_amounts"
#: The words before a credit-note number that net it into a figure: "after (credit note) CN-...", "net of CN-...",
#: "including CN-...", "nach Gutschrift CN-...".
_NETTED_BEFORE = re.compile(
    r"\b(?:after|net\s+of|netting(?:\s+in)?|including|incl\.?|inclusive\s+of|taking\s+into\s+account|"
    r"nach|inkl\.?|inklusive)\s+(?:the\s+|die\s+|der\s+)?(?:credit[- ]?notes?\s+|gutschrift\s+)?(?:no\.?\s*)?$",
    re.I)
#: The workflows whose figure is the governed spend (credit notes netted in).
_SPEND_WORKFLOWS = ("spend", "document_amounts")
#: Their figure's step: the governed spend, or the period's document rows (net spend excl. VAT, VAT).
_FIGURE_STEPS = ("calculate-spend", "net-spend", "document-amounts")
#: The rule hit saying the figure is limited to products or product groups, which the credit note's row
#: (``finance.document_amounts`` has no product filter) cannot be checked against.
PRODUCTS_UNCHECKED = "netted_credit_notes:products_unchecked"


@dataclass(frozen=True)
class NettedCreditNotes:
    """Credit notes named as netted into a spend figure, and the spans (cue and number) the base reading blanks."""

    numbers: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


def netted_credit_notes(reading: Any) -> NettedCreditNotes | None:
    """The credit notes "after" which a spend figure over a period is asked, or ``None``: every named document a
    credit note, each right after a netting cue, a spend figure and a period named."""
    from router.invoice_facts import _number_spans, document_numbers

    text = reading.text
    numbers = document_numbers(text)
    if not numbers or not all(n.upper().startswith("CN-") for n in numbers):
        return None
    if not reading.cues.spend or reading.period.time_range is None:
        return None
    spans: list[tuple[int, int]] = []
    for start, end in _number_spans(text):
        cue = _NETTED_BEFORE.search(text[:start])
        if cue is None:
            return None
        spans.append((cue.start(), end))
    return NettedCreditNotes(tuple(numbers), tuple(spans))


def route_netted(text: str, inputs: Any, req: NettedCreditNotes) -> Any | None:
    """The base spend figure's plan with the credit notes' scope check added, or ``None`` when the base is not a
    plain governed spend figure (the caller keeps the named-document path)."""
    from router.routing import route

    blanked = text
    for start, end in req.spans:
        blanked = blanked[:start] + " " * (end - start) + blanked[end:]
    base = route(" ".join(blanked.split()), inputs)
    if base.requires_clarification or base.workflow not in _SPEND_WORKFLOWS or base.constraints.time_range is None:
        return None
    figure = next((s for s in base.execution_plan if s.step_id in _FIGURE_STEPS), None)
    if figure is None:
        return None
    # the figure's own scope: the spend step's arguments, or the period rows' parameters (net spend, VAT)
    args = dict(figure.arguments.get("parameters") or figure.arguments)
    if args.get("exclude_supplier_ids") or "credit_note" not in (args.get("document_types") or ("credit_note",)):
        return None  # a scope that leaves suppliers or credit notes out: the named-document path says so
    e, tr = base.entities, base.constraints.time_range
    params: dict[str, Any] = {"invoice_numbers": list(req.numbers), "start_date": tr.start.isoformat(),
                              "end_date": tr.end.isoformat(), "document_types": ["credit_note"],
                              "invoice_statuses": list(args.get("invoice_statuses") or ("posted", "paid"))}
    if e.company_id:
        params["company_id"] = e.company_id
    currency = args.get("reporting_currency")
    currency = currency if isinstance(currency, str) else base.constraints.reporting_currency
    if currency:
        params["reporting_currency"] = currency  # the company's (the metric's default is EUR)
    suppliers = args.get("supplier_ids")
    if isinstance(suppliers, Ref):
        # the figure's suppliers come from another step (e.g. the products of a group): the same reference,
        # resolved by the executor to the same ids, so the check's supplier scope is the figure's
        params["supplier_ids"] = suppliers
    elif suppliers:
        params["supplier_ids"] = list(suppliers)
    # a product or product-group filter narrows the figure below the credit note's row: said, never implied
    products = any(v for k, v in args.items() if ("product" in k or "categor" in k) and k != "group_by")
    check = PlanStep(step_id=NETTED_STEP, tool="metrics.query",
                     arguments={"metric": AMOUNTS_METRIC, "parameters": params, "group_by": [], "grain": None},
                     depends_on=tuple(dict.fromkeys(v.ref for v in params.values() if isinstance(v, Ref))),
                     purpose=f"Whether {', '.join(req.numbers)} lies in the figure's scope (company, suppliers, "
                             "period), i.e. is netted into it.")
    at = next(i for i, s in enumerate(base.execution_plan) if s.step_id == figure.step_id) + 1
    steps = (*base.execution_plan[:at], check, *base.execution_plan[at:])
    note = (f"; {', '.join(req.numbers)} read as netted into the figure (governed spend counts invoices and credit "
            "notes, credit notes negative), its place in the figure's scope checked")
    return base.model_copy(update={"question": text, "execution_plan": steps,
                                   "interpretation": (base.interpretation or "") + note,
                                   "rule_hits": (*base.rule_hits, "netted_credit_notes",
                                                 *((PRODUCTS_UNCHECKED,) if products else ()))})


def _rows(m: Any) -> list[dict[str, Any]]:
    # (a single row comes as the metric's values, several as its rows)
    return list(getattr(m, "rows", ())) or ([dict(m.values)] if getattr(m, "values", {}).get("invoice_number")
                                            else [])


def _cents(raw: Any) -> str | None:
    try:
        return str(Decimal(str(raw)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    except (InvalidOperation, ValueError):
        return None


def netted_amounts(m: Any) -> set[tuple[str, str]]:
    """The credit notes' amounts the sentence may show (net, rounded to cents, in the reporting currency): inputs
    of the scope check, not the figure, so the validator takes them as optional (router/answer.py)."""
    if m is None or not getattr(m, "currency", None):
        return set()
    return {(c, str(m.currency)) for r in _rows(m) if (c := _cents(r.get("net_amount"))) is not None}


def planned_numbers(plan: Any) -> tuple[str, ...]:
    """The credit notes the plan's scope check asks for (said even when the check did not run)."""
    step = next((s for s in plan if s.step_id == NETTED_STEP), None)
    return tuple(step.arguments.get("parameters", {}).get("invoice_numbers") or ()) if step is not None else ()


def netted_sentence(outcome: Any, rule_hits: tuple[str, ...] = (), planned: tuple[str, ...] = ()) -> str:
    """What the answer says about the credit notes netted into the figure: in its scope (included, with its date
    and net amount) or not (not included), or that the check did not run. When the figure is limited to products
    or product groups the check (company, suppliers, period) does not cover them, which is said."""
    numbers = tuple(((outcome.arguments if outcome is not None else None) or {}).get("parameters", {})
                    .get("invoice_numbers") or planned)
    if outcome is None or outcome.status != "ok" or outcome.output is None:
        return (f" Whether {', '.join(numbers)} lies in the figure's scope could not be checked, so whether the "
                "figure contains it is not stated.")
    m = outcome.output
    rows = {str(r.get("invoice_number")): r for r in _rows(m)}
    unchecked = PRODUCTS_UNCHECKED in rule_hits
    said = []
    for n in numbers:
        row = rows.get(n)
        if row is not None:
            net = _cents(row.get("net_amount"))
            amount = f", net {net} {m.currency} excluding tax" if net is not None and m.currency else ""
            if unchecked:
                said.append(f"{n} (dated {row.get('invoice_date')}, {row.get('supplier_id')}{amount}) lies in the "
                            "figure's company, supplier and period scope; whether its lines are on the products the "
                            "figure is limited to was not checked, so how much of it the figure contains is not "
                            "stated")
                continue
            said.append(f"{n} (dated {row.get('invoice_date')}, {row.get('supplier_id')}{amount}) lies in the "
                        "figure's scope and is included in it (netted in as a negative amount)")
        else:
            said.append(f"{n} is not among the counted credit notes of the figure's scope (company, suppliers, "
                        "period), so the figure does not contain it")
    return " " + "; ".join(said) + "."


__all__ = ["NETTED_STEP", "PRODUCTS_UNCHECKED", "NettedCreditNotes", "netted_amounts", "netted_credit_notes",
           "netted_sentence", "planned_numbers", "route_netted"]

