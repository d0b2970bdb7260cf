"""Unit-price questions beyond the average (the lowest / highest price paid per unit, the cheapest supplier) and
the quantity bought of one product.

* "lowest unit price we paid for PRD-482 in 2025", "max price per unit of X", "the most we paid per unit for X":
  ``catalog.unit_price_range`` (the lowest and highest net unit price of a counted invoice line), never the average
  presented in their place;
* "which supplier is cheapest for PRD-482", "who sells X cheapest", "the most expensive vendor of X": the
  quantity-weighted average unit price of the product per supplier (``catalog.average_unit_price`` by
  ``supplier_id``); the lowest (highest) average names the supplier, ties all named;
* "how many units of PRD-482 did we buy", "quantity of X purchased from Beta": the product's net quantity
  (the ``quantity`` output of ``catalog.average_unit_price``), with or without a supplier.

Both need one product (by code or catalogue name), a company and a period; without them the question is a
clarification naming what is missing. A question that also asks a document fact about the cheapest supplier is
the two-workflow shape of :mod:`router.compound`, routed before this one.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from router.answer import Citation, _Draft, composer
from router.contract import PlanStep
from router.outcome_words import did_not_run
from router.reader import Reading

RANGE_METRIC = "catalog.unit_price_range"
AVERAGE_METRIC = "catalog.average_unit_price"
RANKING_METRIC = "finance.spend_ranking"
#: The governed ranking's largest limit: a group's products beyond it make the sum partial (said so).
GROUP_UNITS_LIMIT = 100

_PRICE_WORDS = r"(?:net\s+)?(?:unit\s+(?:price|cost)|price\s+per\s+(?:unit|piece|pc)|per[- ]unit\s+(?:price|cost)|" \
               r"price(?:\s+paid)?|cost\s+per\s+(?:unit|piece))"
#: A second extreme word glossing the first: "best (lowest) unit price", "lowest/min price", "max. (peak) price".
_GLOSS = r"(?:\s*(?:\(\s*|/\s*)(?:lowest|minimum|min\.?|cheapest|smallest|best|highest|maximum|max\.?|peak|" \
         r"largest|biggest)\s*\)?)?"
_EXTREME = re.compile(
    r"\b(?:(?P<low>lowest|minimum|min\.?|cheapest|smallest|best)|(?P<high>highest|maximum|max\.?|peak|"
    r"largest|biggest))" + _GLOSS + r"\s+" + _PRICE_WORDS + r"\b|"
    r"\b(?:the\s+)?(?:(?P<high2>most)|(?P<low2>least))\s+(?:\w+\s+){0,3}?(?:paid|pay|payed)\s+per\s+(?:unit|piece)\b",
    re.I,
)
_SUPPLIER = r"(?:suppliers?|vendors?|sources?|sellers?)"
_CHEAPEST_SUPPLIER = re.compile(
    r"\b(?:(?P<low>cheapest|least expensive|lowest[- ]priced|lowest[- ]cost|best[- ]priced)|"
    r"(?P<high>most expensive|priciest|dearest|highest[- ]priced))\s+" + _SUPPLIER + r"\b|"
    r"\b(?:which|what)\s+" + _SUPPLIER + r"\s+(?:is|was|are|were|offers?|offered|sells?|sold|charges?|charged|"
    r"gives?|gave|has|had|have)\s+(?:\w+\s+){0,4}?(?:(?P<low2>cheapest|cheaper|least expensive|lowest (?:unit )?price)|"
    r"(?P<high2>most expensive|dearer|pricier|highest (?:unit )?price))\b|"
    r"\bwho\s+(?:sells|sold|supplies|supplied|offers|offered)\s+(?:[^?.;]{0,60}?)\b(?:(?P<low3>cheapest|cheaper)|"
    r"(?P<high3>most expensive|dearest))\b|"
    r"\b" + _SUPPLIER + r"\s+with\s+the\s+(?:(?P<low4>lowest|cheapest|best)|(?P<high4>highest))\s+(?:average\s+)?"
    r"(?:unit\s+)?price\b",
    re.I,
)


#: What "how many" counts when it is no quantity of goods: documents, suppliers, products, days (the count
#: questions, router/counts.py).
_COUNTED_THINGS = (r"(?:invoices?|credit\s+notes?|documents?|lines?|invoice\s+lines?|suppliers?|vendors?|products?|"
                   r"items?|articles?|skus?|product\s+groups?|groups?|categories|companies|orders?|times|days|months|"
                   r"weeks|years|currencies|agreements?|contracts?|approvals?|payments?|clauses?|pages?|euros?|eur|usd|"
                   r"chf|gbp|different|distinct|unique|separate)\b")
_NOT_COUNTED_THINGS = r"(?!" + _COUNTED_THINGS + r")"
#: "How many units of PRD-482", "quantity of X bought", "number of units of X": the product's net quantity.
_UNITS = re.compile(
    r"\bhow many\s+(?:units|pieces|pcs|items|sets|pairs)\b|\b(?:what|which|the|total|net)\s+(?:quantity|"
    r"quantities|volume|number of units)\b|\bquantit(?:y|ies)\s+(?:of|bought|purchased|ordered)\b|"
    r"\bnumber of (?:units|pieces)\b|(?<!per )(?<!per-)\bunits?\s+(?:of|bought|purchased)\b"
    # "how many scroll compressors did we buy", "how many PRD-510 were purchased" (the product itself is masked)
    r"|\bhow many\s+" + _NOT_COUNTED_THINGS + r"(?:[^\s?.;]+\s+){0,6}?(?:did|do|does|have|has|had|were|was|are)\s+"
    r"(?:[^\s?.;]+\s+){0,3}?"
    r"(?:buy|bought|purchase|purchased|order|ordered|receive|received|get|got|procure|procured|take|took|taken|"
    r"billed|invoiced|deliver|delivered)\b"
    # "number of compr. valve kits bought", "# of X purchased", "count of X received": a count of the product
    # itself, said with the verb of buying (a count of documents or suppliers is the count questions')
    r"|(?:\b(?:number|count|no\.|nr\.?)|(?<!\w)#)\s*of\s+" + _NOT_COUNTED_THINGS + r"(?:[^\s?.;]+\s+){0,8}?"
    r"(?:bought|purchased|ordered|received|procured|delivered|billed|invoiced|taken)\b"
    # "qty of PRD-491", "RK-12 qty Xenon": the finance user's shorthand for the quantity
    r"|\bqtys?\b"
    # "X bought by Company C - how many?", "how many boxes of A4 paper": "how many" of the product itself (the
    # product is masked; counts of invoices, suppliers or products are the count questions, routed before)
    r"|\bhow\s+many\b(?!\s+" + _COUNTED_THINGS + r")"
    # "boxes of copy paper", "express freight parcels billed to Ypsilon": a counting noun of the product bought
    r"|\b(?:boxes|parcels|packs|packages|rolls|pallets|cartons|cases|pcs|sets|pairs|bottles)\s+(?:of|bought|"
    r"purchased|ordered|billed|invoiced|delivered|received|taken)\b"
    # "kestrel crates: units and avg unit price": units asked outright ("per unit" is a price, not a quantity)
    r"|(?<!per )(?<!per-)\bunits\b(?!\s*(?:price|cost))",
    re.I,
)
#: "latest unit price of PRD-482", "the most recent price we paid per unit", "last price paid for X", "what did we
#: pay per unit most recently": the average unit price on the product's most recent invoice day.
_LATEST = re.compile(
    r"\b(?:latest|most\s+recent|last|newest|current|recent)\s+(?:(?:net|average|avg\.?)\s+)?(?:unit\s+(?:price|cost)|"
    r"price(?:s)?(?:\s+(?:paid|per\s+(?:unit|piece)))?|per[- ]unit\s+(?:price|cost)|purchase\s+price|cost\s+per\s+unit)"
    r"\b|\b(?:pay|paid|cost)\s+[^?.;]{0,60}?\b(?:most\s+recently|last\s+time|the\s+last\s+time)\b"
    # "unit price on the most recent X invoice", "price of our last PRD-650 bill": the price on the latest document
    r"|\b(?:unit\s+)?(?:price|cost)\s+(?:on|of|from|in|per)\s+(?:the\s+|our\s+)?(?:latest|most\s+recent|last|newest)"
    r"\s+(?:[^\s?.;]+\s+){0,6}?(?:invoices?|bills?|purchases?|orders?|lines?|deliver(?:y|ies))\b"
    r"|\b(?:letzte[nr]?|aktuelle[nr]?|j(?:ü|ue)ngste[nr]?)\s+(?:St(?:ü|ue)ck)?[Pp]reis\b",
    re.I,
)
#: The earliest day a governed period may start: "the latest price" without a period looks back to it.
LATEST_FROM = dt.date(1990, 1, 1)
#: Spend asked of a product, read as net (tax excluded) only beside a net-basis word (router/reader.py _NET_BASIS).
_NET_SPEND = re.compile(r"\b(?:spen[dt]|spending|purchases?|paid|pay|cost)\b", re.I)
#: A ranking of products or suppliers by units is the governed ranking's (router/analysis.py), not one product's.
_RANKED = re.compile(r"\b(?:top|bottom|rank\w*|most|least|largest|biggest|smallest|which (?:products?|suppliers?|"
                     r"vendors?))\b", re.I)


#: The nouns goods are counted in ("boxes of copy paper", "parcels"): the quantity's words, not names.
COUNTING_NOUN = re.compile(r"(?:boxes|box|parcels|parcel|packs|pack|packages|rolls|pallets|cartons|cases|pcs|pieces|"
                           r"sets|pairs|bottles)", re.I)


@dataclass(frozen=True)
class PriceRequest:
    """An extreme unit price of one product, or the supplier with the lowest/highest average price of it."""

    kind: Literal["range", "cheapest_supplier", "units", "latest", "group_units", "net_spend"]
    direction: Literal["low", "high"]
    words: str


def price_request(reading: Reading) -> PriceRequest | None:
    """The unit-price shape a question asks for (see the module docstring), or ``None``."""
    text = reading.cue_text
    found = _LATEST.search(text)
    if found is not None:
        return PriceRequest("latest", "high", " ".join(found.group(0).split()))
    found = _CHEAPEST_SUPPLIER.search(text)
    if found is not None:
        low = any(found.group(g) for g in ("low", "low2", "low3", "low4"))
        return PriceRequest("cheapest_supplier", "low" if low else "high", " ".join(found.group(0).split()))
    found = _EXTREME.search(text)
    if found is not None:
        low = bool(found.group("low") or found.group("low2"))
        return PriceRequest("range", "low" if low else "high", " ".join(found.group(0).split()))
    found = _UNITS.search(text)
    if found is not None and not _RANKED.search(text):
        return PriceRequest("units", "high", " ".join(found.group(0).split()))
    found = _NET_SPEND.search(text)
    if (found is not None and reading.cues.net_basis and not reading.cues.unit_price and not _RANKED.search(text)
            and not reading.breakdown.group_by and not reading.breakdown.grain):
        # "net spend (excl. VAT) on PRD-612", "how much net did Co. A spend on X, without tax": the product's net
        # amount (tax excluded) is the governed net purchases of its lines (the unit price's numerator)
        return PriceRequest("net_spend", "high", " ".join(found.group(0).split()))
    return None


def group_units(reading: Reading, gazetteer: Any) -> tuple[PriceRequest, tuple[str, ...]] | None:
    """The units of the product group the question names ("kestrel crates: units", "qty compressors Q1"): the
    request and the catalogue products under the group and its subgroups; ``None`` when no units are asked.

    The governed quantity is per product (``catalog.average_unit_price``); a group of one product is that product,
    a group of several is asked about (their units of measure need not add up)."""
    group = reading.entities.product_group_id
    req = price_request(reading)
    if group is None or req is None or req.kind != "units":
        return None
    under = set(gazetteer.subgroups(group))
    codes = tuple(sorted(code for code, groups in gazetteer.product_group_of.items() if groups & under))
    return req, codes


def group_units_steps(reading: Reading, company_id: str | None, start: str, end: str,
                      currency: str | None) -> tuple[PlanStep, ...]:
    """The units of a product group whose products share one unit of measure: ``finance.spend_ranking`` of the
    group's products by units (every product, up to the governed limit), summed by the composer; a cut row list is
    said as partial, never summed as complete."""
    params: dict[str, Any] = {"product_group_ids": [reading.entities.product_group_id], "start_date": start,
                              "end_date": end, "invoice_statuses": list(reading.statuses), "limit": GROUP_UNITS_LIMIT,
                              "direction": "top", "order_by": "units"}
    if company_id is not None:
        params["company_id"] = company_id
    if currency:
        params["reporting_currency"] = currency
    if reading.entities.supplier_ids:
        params["supplier_ids"] = list(reading.entities.supplier_ids)
    if reading.excluded_supplier_ids:
        params["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if reading.analysis.document_types == ("invoice",):
        params["document_types"] = ["invoice"]
    return (
        PlanStep(step_id="unit-price", tool="metrics.query",
                 arguments={"metric": RANKING_METRIC, "parameters": params, "group_by": ["product_code"],
                            "grain": None},
                 purpose=f"The net units of each product of {reading.entities.product_group_id} and its subgroups "
                         f"({RANKING_METRIC} by product, units); their sum is the group's units."),
        PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("unit-price",),
                 purpose="The figure is present, or its absence is said (no data, not zero units)."),
    )


def price_steps(req: PriceRequest, reading: Reading, company_id: str | None, start: str, end: str,
                currency: str | None, *, document_currency: str | None = None) -> tuple[PlanStep, ...]:
    """The governed call: the range of line prices, the average price per supplier, or the quantity; without a
    company, over every company of the tenant (as the average unit price is). ``document_currency``: only the
    invoices issued in that currency ("(EUR invoices)"), prices still in the reporting currency."""
    params: dict[str, Any] = {"product_code": reading.entities.product_codes[0], "start_date": start,
                              "end_date": end, "invoice_statuses": list(reading.statuses)}
    if company_id is not None:
        params["company_id"] = company_id
    if currency:
        params["reporting_currency"] = currency
    if document_currency:
        params["document_currency"] = document_currency
    types = reading.analysis.document_types
    if types == ("invoice",) and req.kind != "range":
        params["document_types"] = ["invoice"]  # "invoices only": the range never counts credit notes anyway
    if reading.excluded_supplier_ids:
        params["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if req.kind == "latest":
        if reading.entities.supplier_ids:
            params["supplier_ids"] = list(reading.entities.supplier_ids)
        metric = AVERAGE_METRIC
        purpose = (f"The average net unit price of {params['product_code']} per invoice day ({AVERAGE_METRIC} by "
                   "day); the most recent day is the latest price.")
        return (
            PlanStep(step_id="unit-price", tool="metrics.query",
                     arguments={"metric": metric, "parameters": params, "group_by": [], "grain": "day"},
                     purpose=purpose),
            PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("unit-price",),
                     purpose="The figure is present, or its absence is said (no data, not a price)."),
        )
    if req.kind in ("range", "units", "net_spend"):
        if reading.entities.supplier_ids:
            params["supplier_ids"] = list(reading.entities.supplier_ids)
        metric, group_by = (RANGE_METRIC if req.kind == "range" else AVERAGE_METRIC), []
        purpose = (f"The lowest and highest net unit price of {params['product_code']} on a counted invoice line "
                   f"({RANGE_METRIC})." if req.kind == "range" else
                   f"The net quantity of {params['product_code']} purchased, with its net amount ({AVERAGE_METRIC}).")
    else:
        metric, group_by = AVERAGE_METRIC, ["supplier_id"]
        purpose = (f"The average unit price of {params['product_code']} per supplier ({AVERAGE_METRIC}); the "
                   f"{'lowest' if req.direction == 'low' else 'highest'} names the supplier (ties kept).")
    return (
        PlanStep(step_id="unit-price", tool="metrics.query",
                 arguments={"metric": metric, "parameters": params, "group_by": group_by, "grain": None},
                 purpose=purpose),
        PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("unit-price",),
                 purpose="The figure is present, or its absence is said (no data, not a price)."),
    )


def rule_hit(req: PriceRequest) -> str:
    return f"unit_price:{req.kind}:{req.direction}:{req.words}"


def _rule(rules: tuple[str, ...]) -> tuple[str, str]:
    hit = next((r for r in rules if r.startswith("unit_price:")), "unit_price:range:low:")
    bits = hit.split(":")
    return bits[1], bits[2]


@composer("unit_price")
def _compose_unit_price(d: _Draft) -> None:
    """``unit_price``: the extreme line price (with the invoiced price before discounts), or the cheapest supplier
    by average unit price with every supplier's average beside it; no data is said, never a price."""
    from router.tools import MetricToolResponse

    if any(r.startswith("unit_price_ranking:") for r in d.routing.rule_hits):
        from router.price_rankings import compose_ranking  # suppliers or products ranked by unit price

        compose_ranking(d)
        return
    kind, direction = _rule(d.routing.rule_hits)
    company = d.routing.entities.company_name or d.routing.entities.company_id or "all companies"
    outcome = d.run.outcomes.get("unit-price")
    m = outcome.output if outcome is not None and outcome.status == "ok" else None
    citations = list(d.citations)
    if not isinstance(m, MetricToolResponse):
        d.status = "failed"
        d.text = did_not_run("The unit-price figure", outcome) + "; nothing was calculated."
        d.result = {"status": "failed"}
        return
    for line_id in m.source_line_ids:
        citations.append(Citation(source_id=line_id, kind="invoice_line", role=f"invoice line in {m.metric}"))
    code = m.parameters.get("product_code")
    cur = m.currency or ""
    who = company + (f", suppliers {', '.join(m.parameters['supplier_ids'])}" if m.parameters.get("supplier_ids")
                     else "")
    if m.parameters.get("document_currency"):
        who += f", invoices issued in {m.parameters['document_currency']} only"
    if m.parameters.get("document_types") == ["invoice"]:
        who += ", invoices only (credit notes left out)"
    result: dict[str, Any] = {"product_code": code, "currency": cur}
    if kind == "latest":
        text, status = _latest_sentence(m, company, who, d.period_text, result)
    elif kind == "range":
        v = m.values
        value = v.get("lowest_unit_price" if direction == "low" else "highest_unit_price")
        if m.status == "no_data" or value is None:
            text = _no_line(code, who, d.period_text, "a price")
            status = "no_data"
            result["unit_price"] = None
        else:
            word = "lowest" if direction == "low" else "highest"
            statuses = ", ".join(m.parameters.get("invoice_statuses") or ("posted", "paid"))
            scope = who.removeprefix(company).removeprefix(", ")
            text = (f"The {word} net unit price {company} paid for {code}{f' ({scope})' if scope else ''} in "
                    f"{d.period_text} was {value} {cur} per "
                    f"unit (line net amount after discounts / quantity, tax excluded, on a counted invoice line). Over "
                    f"{m.matched_line_count} counted lines the net unit price ranged from "
                    f"{v.get('lowest_unit_price')} {cur} to {v.get('highest_unit_price')} {cur} (credit notes, "
                    f"cancelled and duplicate invoices left out; statuses {statuses}; in {cur}).")
            status = "answered"
            result.update({f"{word}_unit_price": value, "lowest_unit_price": v.get("lowest_unit_price"),
                           "highest_unit_price": v.get("highest_unit_price")})
    elif kind == "units":
        v = m.values
        if m.status == "no_data" or v.get("quantity") is None:
            text = _no_line(code, who, d.period_text, "zero units")
            status = "no_data"
            result["quantity"] = None
        else:
            text = (f"{company} purchased {_count(v.get('quantity'))} units of {code}"
                    + (f" from {', '.join(m.parameters['supplier_ids'])}" if m.parameters.get("supplier_ids") else "")
                    + f" in {d.period_text} (net quantity: credit notes subtracted; cancelled and duplicate invoices "
                    f"left out), over {m.matched_line_count} counted lines; net amount {v.get('net_amount')} {cur}, an "
                    f"average net unit price of {v.get('unit_price')} {cur}.")
            status = "answered"
            result.update({"quantity": v.get("quantity"), "net_amount": v.get("net_amount"),
                           "unit_price": v.get("unit_price")})
    elif kind == "net_spend":
        v = m.values
        if m.status == "no_data" or v.get("net_amount") is None:
            text = _no_line(code, who, d.period_text, "zero spend")
            status = "no_data"
            result["net_amount"] = None
        else:
            text = (f"{company}'s net spend on {code} (tax excluded)"
                    + (f" with {', '.join(m.parameters['supplier_ids'])}" if m.parameters.get("supplier_ids") else "")
                    + f" in {d.period_text} was {v.get('net_amount')} {cur}, over {m.matched_line_count} counted "
                    f"invoice lines (net line amounts after discounts, credit notes subtracted; cancelled and "
                    f"duplicate invoices left out; in {cur}); {_count(v.get('quantity'))} units, an average net unit "
                    f"price of {v.get('unit_price')} {cur}.")
            status = "answered"
            result.update({"net_amount": v.get("net_amount"), "quantity": v.get("quantity"),
                           "unit_price": v.get("unit_price")})
    elif kind == "group_units":
        text, status = _group_units_sentence(m, company, who, d.period_text, result)
    else:
        priced = [r for r in m.rows if r.get("unit_price") is not None and r.get("supplier_id")]
        if not priced:
            text = f"Not found: no priced invoice line of {code} ({who}) in {d.period_text}; no data, not a price."
            status = "no_data"
        else:
            best = (min if direction == "low" else max)(Decimal(str(r["unit_price"])) for r in priced)
            chosen = [str(r["supplier_id"]) for r in priced if Decimal(str(r["unit_price"])) == best]
            word = "cheapest" if direction == "low" else "most expensive"
            only = " (the only supplier with priced lines in the period)" if len(priced) == 1 else ""
            tie = f" (a tie of {len(chosen)} suppliers)" if len(chosen) > 1 else ""
            listed = "; ".join(f"{r['supplier_id']} {r['unit_price']} {cur} per unit (net {r.get('net_amount')} {cur} "
                               f"/ {r.get('quantity')} units)" for r in priced)
            text = (f"The {word} supplier of {code} for {company} in {d.period_text} by quantity-weighted average net "
                    f"unit price is {', '.join(chosen)}{tie}{only}: {best} {cur} per unit. By supplier: {listed}.")
            status = "answered"
            result.update({"supplier_ids": chosen, "unit_price": str(best),
                           "rows": [dict(r) for r in priced]})
    if d.routing.interpretation:
        text += f" Read as: {d.routing.interpretation}."
    result["status"] = "complete" if status == "answered" else status
    citations = list({c.source_id: c for c in citations}.values())
    d.status, d.text, d.result = status, text, result  # type: ignore[assignment]
    d.inputs = {"metric": m.metric, "parameters": m.parameters}
    d.citations, d.sources = citations, tuple(c.source_id for c in citations)


def _group_units_sentence(m: Any, company: str, who: str, period_text: str,
                          result: dict[str, Any]) -> tuple[str, str]:
    """The units of a product group: the sum of its products' net units (one unit of measure, checked when
    routed), each product's units beside it; no counted line is no data, never zero units."""
    groups = ", ".join(m.parameters.get("product_group_ids") or ())
    rows = [r for r in m.rows if r.get("units") is not None and r.get("product_code")]
    if m.status == "no_data" or not rows:
        result["quantity"] = None
        return _no_line(groups, who, period_text, "zero units"), "no_data"
    total = sum((Decimal(str(r["units"])) for r in rows), Decimal(0))
    lines = sum(int(r.get("matched_line_count") or 0) for r in rows) or m.matched_line_count
    by_product = "; ".join(f"{r['product_code']} {_count(r['units'])}" for r in rows)
    result.update({"quantity": str(total), "product_group_ids": list(m.parameters.get("product_group_ids") or ()),
                   "rows": [{"product_code": r["product_code"], "units": r["units"]} for r in rows]})
    supplier = (f" from {', '.join(m.parameters['supplier_ids'])}" if m.parameters.get("supplier_ids") else "")
    text = (f"{company} purchased {_count(total)} units of {groups} (the group and its subgroups){supplier} in "
            f"{period_text} (net quantity: credit notes subtracted; cancelled and duplicate invoices left out), over "
            f"{lines} counted lines; the sum of its products' units: {by_product}.")
    if m.truncated:
        return ("PARTIAL RESULT: the products were cut at the row limit, so the sum misses some. " + text, "partial")
    return text, "answered"


def _no_line(code: Any, who: str, period_text: str, not_what: str) -> str:
    """The answer when no counted line of the product falls in the period: no data, never a zero or a price."""
    return f"Not found: no counted invoice line of {code} ({who}) in {period_text}; no data, not {not_what}."


def _count(quantity: Any) -> str:
    """A net quantity as "how many" is answered: without trailing zeros ("26", not "26.0000"; "580.5")."""
    return f"{Decimal(str(quantity)).normalize():f}"


def _latest_sentence(m: Any, company: str, who: str, period_text: str, result: dict[str, Any]) -> tuple[str, str]:
    """The latest unit price: the last invoice day's row of the day-grain average (quantity-weighted over that
    day's lines), with the day and the lines behind it; a cut row list is said, never read as complete."""
    code, cur = m.parameters.get("product_code"), m.currency or ""
    priced = [r for r in m.rows if r.get("unit_price") is not None]
    if m.status == "no_data" or not priced:
        result["unit_price"] = None
        return _no_line(code, who, period_text, "a price"), "no_data"
    last = priced[-1]
    day = str(last.get("period_start") or last.get("invoice_date") or "")[:10]
    result.update({"unit_price": last.get("unit_price"), "invoice_date": day, "quantity": last.get("quantity"),
                   "net_amount": last.get("net_amount")})
    scope = f"in {period_text}" if period_text else f"up to {m.parameters.get('end_date')} (exclusive)"
    text = (f"The latest net unit price {company} paid for {code} ({scope}) was {last.get('unit_price')} "
            f"{cur} per unit, on {day}, the most recent invoice day of {code} (net {last.get('net_amount')} {cur} / "
            f"{last.get('quantity')} units over {last.get('matched_line_count')} counted lines that day; "
            f"quantity-weighted, tax excluded, credit notes subtracted; in {cur}).")
    if len(priced) > 1:
        before = priced[-2]
        text += (f" The invoice day before, {str(before.get('period_start') or '')[:10]}, it was "
                 f"{before.get('unit_price')} {cur} per unit.")
    if m.truncated:
        text = "PARTIAL RESULT: the day rows were cut at the row limit, so a later day may be missing. " + text
        return text, "partial"
    return text, "answered"


__all__ = ["AVERAGE_METRIC", "COUNTING_NOUN", "GROUP_UNITS_LIMIT", "RANGE_METRIC", "RANKING_METRIC", "PriceRequest",
           "group_units", "group_units_steps", "price_request", "price_steps", "rule_hit"]
