"""Suppliers or products ranked by their average unit price within a product group (products also without one).

"who's cheaper per unit on pressure sensors, Beta or Zeta", "temp sensors: cheapest supplier per unit in H2 2025",
"rank cable products by avg unit price, cheapest first", "welcher Drucksensor war am teuersten pro Stück",
"sensors: per-unit price ranking of products, high to low": a ranking by *price*, never by spend. Each key
(supplier or product code) gets its quantity-weighted average net unit price over the selection's counted lines,
``sum(net_reporting_amount) / sum(signed_quantity)`` (``catalog.unit_price_ranking``); a key whose quantity nets
to zero has no price and is left out (said). The selection is the named group with its subgroups, the named
suppliers (two named against each other are both kept and compared), a company or, when none is named, every
company of the tenant (as the average unit price of one product is), and a period.

The shape needs a price word ("per unit", "unit price", "EUR/unit", "pro Stück"), a ranking or comparison word
(cheapest, most expensive, rank, high to low, "A or B", "vs") and a product group, with no single product named
(one product's price by supplier is :mod:`router.unit_prices`). Products may also be ranked without a group (each
key is one product, priced per its own unit); suppliers may not (their average would mix unlike products' units).
"Top three" lists the first three and says how many were ranked. Without a direction word the ranking runs from
the most expensive down, as a ranking does; "cheaper", "cheapest", "low to high" run from the cheapest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from router import unit_prices as _unit_prices  # noqa: F401  # registers the unit_price composer, which delegates here
from router.contract import PlanStep
from router.outcome_words import did_not_run
from router.reader import Reading

METRIC = "catalog.unit_price_ranking"

#: A price per unit asked (not spend): the price words of the English reading and the German ones kept.
_PRICE = re.compile(
    r"\b(?:unit[- ]?(?:price|cost)s?|per[- ](?:unit|piece|pc|pcs|item|each)|price\s+per|cost\s+per|each\s+unit|"
    r"(?:eur|€|euros?|chf|usd|gbp)\s*/\s*(?:unit|piece|pc|stk|stück)|avg\.?\s+price|average\s+price|"
    # "by price/unit", "cost/piece"
    r"(?:price|cost)\s*/\s*(?:unit|piece|pc|ea|item)|"
    r"pro\s+st(?:ü|ue)ck|je\s+st(?:ü|ue)ck|st(?:ü|ue)ckpreis\w*|preis\s+pro\s+\w+)(?!\w)",
    re.I,
)
_LOW = re.compile(
    r"\b(?:cheap\w*|less\s+expensive|least\s+expensive|lowest|low\s+to\s+high|ascending|best[- ]priced|"
    r"g(?:ü|ue)nstig\w*|billig\w*|niedrigst\w*)\b", re.I)
_HIGH = re.compile(
    r"\b(?:most\s+expensive|more\s+expensive|priciest|pricier|dearest|dearer|highest|high\s+to\s+low|"
    r"descending|teuer\w*|teurer\w*|h(?:ö|oe)chst\w*)\b", re.I)
#: A ranking or a comparison of several keys ("rank", "which product", "A or B", "vs").
_RANKED = re.compile(
    r"\b(?:rank\w*|ranking|order(?:ed)?\s+by|sort(?:ed)?\s+by|vs\.?|versus|compare\w*|which|who(?:['’]s)?|"
    r"welche[rsmn]?|wer)\b|\bor\b", re.I)
_SUPPLIER_WORDS = re.compile(r"\b(?:suppliers?|vendors?|sellers?|sources?|who(?:['’]s)?|lieferant\w*|wer)\b", re.I)
_PRODUCT_WORDS = re.compile(r"\b(?:products?|items?|articles?|produkt\w*|artikel)\b", re.I)


@dataclass(frozen=True)
class PriceRanking:
    """What is ranked by average unit price, and from which end."""

    rank_by: Literal["supplier", "product"]
    direction: Literal["asc", "desc"]
    words: str
    #: "top three": only the first N keys are listed (the count of keys ranked is still said); None lists all
    limit: int | None = None


#: "all time", "ever": every invoice up to the as-of date.
ALL_TIME = re.compile(r"\b(?:all[- ]time|ever|over\s+all\s+time|since\s+(?:the\s+)?(?:start|beginning))\b", re.I)


def nested_group(reading: Reading, subgroups: Any) -> str | None:
    """"lab consumables – which reagent product": groups named one inside the other select the innermost (the
    products in both); ``None`` unless every named group lies on one branch. ``subgroups``: the gazetteer's."""
    named = list(dict.fromkeys(m.resolved for m in reading.mentions.product_groups if m.resolved))
    if len(named) < 2 or len(named) != len(reading.mentions.product_groups):
        return None
    inner = [g for g in named if all(g in subgroups(h) for h in named)]
    return inner[0] if len(inner) == 1 else None


def price_ranking(reading: Reading, subgroups: Any = None) -> PriceRanking | None:
    """The unit-price ranking a question asks for (see the module docstring), or ``None``."""
    text = reading.cue_text
    price = _PRICE.search(text) or _PRICE.search(reading.text)
    e = reading.entities
    group = e.product_group_id or (nested_group(reading, subgroups) if subgroups is not None else None)
    if price is None or len(e.product_codes) == 1:
        return None
    low, high = _LOW.search(text), _HIGH.search(text)
    compared = len(e.supplier_ids) > 1
    if not (low or high or compared or _RANKED.search(text)):
        return None
    by: Literal["supplier", "product"] = "supplier" if (compared or (
        _SUPPLIER_WORDS.search(text) and not _PRODUCT_WORDS.search(text))) else "product"
    # Without a group, products still rank by their own unit price (each key is one product); a supplier's average
    # over every product it sold mixes unlike units, so a supplier ranking keeps needing a group. A price word
    # without a group must never fall through to the spend ranking: that is another question's figure.
    if group is None and not (by == "product" and _PRODUCT_WORDS.search(text)):
        return None
    # the first direction word decides ("cheapest first" vs a later "high to low" never both in one question)
    if low and high:
        direction: Literal["asc", "desc"] = "asc" if low.start() < high.start() else "desc"
    else:
        direction = "asc" if low else "desc"
    asked = reading.analysis.ranking
    limit = asked.limit if asked is not None and asked.explicit_limit else None
    return PriceRanking(by, direction, " ".join(price.group(0).split()), limit)


def ranking_steps(req: PriceRanking, reading: Reading, groups: tuple[str, ...], company_id: str | None, start: str,
                  end: str, currency: str | None, excluded_groups: tuple[str, ...] = ()) -> tuple[PlanStep, ...]:
    """The governed call: every key's average unit price over the selection, ordered by the metric."""
    params: dict[str, Any] = {"rank_by": req.rank_by, "direction": req.direction, "start_date": start,
                              "end_date": end, "invoice_statuses": list(reading.statuses)}
    if groups:
        params["product_group_ids"] = list(groups)
    if company_id is not None:
        params["company_id"] = company_id
    if reading.entities.supplier_ids:
        params["supplier_ids"] = list(reading.entities.supplier_ids)
    if reading.excluded_supplier_ids:
        params["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if excluded_groups:
        params["exclude_product_group_ids"] = list(excluded_groups)
    if reading.entities.product_codes:
        params["product_codes"] = list(reading.entities.product_codes)
    if reading.excluded_product_codes:
        return ()  # no governed exclusion of products here: the caller clarifies
    if currency:
        params["reporting_currency"] = currency
    what = "suppliers" if req.rank_by == "supplier" else "products"
    return (
        PlanStep(step_id="unit-price", tool="metrics.query",
                 arguments={"metric": METRIC, "parameters": params, "group_by": [], "grain": None},
                 purpose=f"The {what} of the selection ranked by quantity-weighted average net unit price ({METRIC}), "
                         f"{'cheapest' if req.direction == 'asc' else 'most expensive'} first."),
        PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("unit-price",),
                 purpose="The ranking is present, or its absence is said (no data, not a price)."),
    )


def rule_hit(req: PriceRanking) -> str:
    return f"unit_price_ranking:{req.rank_by}:{req.direction}:{req.words}" + (f":top{req.limit}" if req.limit else "")


def compose_ranking(d: Any) -> None:
    """``unit_price_ranking``: every ranked key with its average unit price, net amount and quantity, in the
    metric's order; no data is said, never a price; a cut row list is partial."""
    from router.answer import Citation
    from router.tools import MetricToolResponse

    hit = next(r for r in d.routing.rule_hits if r.startswith("unit_price_ranking:"))
    _, by, direction, *rest = hit.split(":")
    limit = int(rest[-1][3:]) if rest and re.fullmatch(r"top\d+", rest[-1]) else None
    company = d.routing.entities.company_name or d.routing.entities.company_id or "all companies of the tenant"
    outcome = d.run.outcomes.get("unit-price")
    m = outcome.output if outcome is not None and outcome.status == "ok" else None
    if not isinstance(m, MetricToolResponse):
        d.status = "failed"
        d.text = did_not_run("The unit-price ranking", outcome) + "; nothing was calculated."
        d.result = {"status": "failed"}
        return
    citations = [*d.citations, *(Citation(source_id=i, kind="invoice_line", role=f"invoice line in {m.metric}")
                                 for i in m.source_line_ids)]
    cur = m.currency or ""
    p = m.parameters
    scope = [f"product groups {', '.join(p['product_group_ids'])} (the group and its subgroups)"
             if p.get("product_group_ids") else "every product group"]
    if p.get("supplier_ids"):
        scope.append(f"suppliers {', '.join(p['supplier_ids'])}")
    if p.get("exclude_product_group_ids"):
        scope.append(f"excluding product groups {', '.join(p['exclude_product_group_ids'])}")
    if p.get("exclude_supplier_ids"):
        scope.append(f"excluding suppliers {', '.join(p['exclude_supplier_ids'])}")
    statuses = ", ".join(p.get("invoice_statuses") or ("posted", "paid"))
    what = "suppliers" if by == "supplier" else "products"
    key = "supplier_id" if by == "supplier" else "product_code"
    # (a ranking of one key comes back as the result's values, not as a row)
    rows = [r for r in (m.rows or [m.values]) if r.get("unit_price") is not None and r.get(key)]
    result: dict[str, Any] = {"currency": cur, "rank_by": by, "order": direction}
    if m.status == "no_data" or not rows:
        d.status, d.result = "no_data", {**result, "status": "no_data", "ranking": []}
        d.text = (f"Not found: no counted invoice line with a net quantity for {company} ({'; '.join(scope)}) in "
                  f"{d.period_text}; no data, not a price.")
    else:
        ranked = [{"rank": i, key: str(r[key]), "unit_price": str(r["unit_price"]),
                   "net_amount": r.get("net_amount"), "quantity": r.get("quantity"),
                   "line_count": r.get("line_count")} for i, r in enumerate(rows, 1)]
        # "top three": the first N in the metric's order, the number of keys ranked said beside them
        ranked_count = len(ranked)
        if limit and limit < ranked_count:
            ranked = ranked[:limit]
        listed = "; ".join(f"{x['rank']}. {x[key]} {x['unit_price']} {cur} per unit (net {x['net_amount']} {cur} / "
                           f"{_count(x['quantity'])} units, {x['line_count']} lines)" for x in ranked)
        ties = len({Decimal(str(x["unit_price"])) for x in ranked}) < len(ranked)
        first = "cheapest" if direction == "asc" else "most expensive"
        d.text = (f"{what.capitalize()} of {company} by average net unit price, {first} first, in {d.period_text} "
                  f"({'; '.join(scope)}; quantity-weighted: net amount excluding tax / net quantity per "
                  f"{what[:-1]}, credit notes subtracted in both; statuses {statuses}; cancelled and duplicate "
                  f"invoices left out; in {cur}): {listed}."
                  + (" Some prices are tied (same rounded price)." if ties else "")
                  + (f" The first {len(ranked)} of {ranked_count} {what} ranked." if len(ranked) < ranked_count else "")
                  + f" {what.capitalize()} whose quantity nets to zero have no price and are left out."
                  + _AVERAGED[by])
        if by == "supplier" and p.get("supplier_ids"):
            # a supplier named against another but without priced lines is said, never silently left out
            absent = [s for s in p["supplier_ids"] if s not in {x[key] for x in ranked}]
            if absent:
                d.text += (f" No priced lines of {', '.join(absent)} in the selection (no data, not a price), so "
                           f"{'it is' if len(absent) == 1 else 'they are'} not ranked.")
                result["unpriced_supplier_ids"] = absent
        d.status = "answered"
        d.result = {**result, "status": "complete", "ranking": ranked}
        if m.truncated:
            d.text = "PARTIAL RESULT: the ranked rows were cut at the row limit. " + d.text
            d.status, d.result["status"] = "partial", "partial"
    if d.routing.interpretation:
        d.text += f" Read as: {d.routing.interpretation}."
    d.inputs = {"metric": m.metric, "parameters": dict(p)}
    d.citations = list({c.source_id: c for c in citations}.values())
    d.sources = tuple(c.source_id for c in d.citations)


#: What each key's average is over: a product's price is per its own invoiced unit, a supplier's mixes the units of
#: every product of the selection it sold (a finance user must not read it as one product's price).
_AVERAGED = {
    "product": " Each product's average is per its own invoiced unit; products sold in different units (pieces, "
               "litres, packs) are ranked side by side on that basis.",
    "supplier": " Each supplier's average is over every unit of the selection's products it sold, units of different "
                "products counted alike: a supplier of dearer products ranks as dearer whatever it charges per "
                "product (one product's price per supplier: name the product).",
}


def _count(quantity: Any) -> str:
    return f"{Decimal(str(quantity)).normalize():f}" if quantity is not None else "?"


__all__ = ["METRIC", "PriceRanking", "compose_ranking", "price_ranking", "ranking_steps", "rule_hit"]
