"""Question shapes routed before the general rules: follow-ups without context, invoice counts, and a figure
plus a document fact about the entity the figure selects.

:func:`route_extensions` is called by :func:`router.routing.route` right after the reading; it returns a whole
:class:`RoutingResult` for these shapes (a clarification or a plan) and ``None`` for every other question, which
then takes the general path unchanged. Each shape needs what a figure needs (one company, one unambiguous period,
every named constraint understood); a missing or unread one is a clarification that names it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from typing import Any

from router.company_set import every_restated, offer_all, resolves, tenant_wide
from router.compound import FACTS, CompoundRequest, compound_request, compound_steps, rule_hit, unknown_fact
from router.contract import (
    AuthorizationContextModel,
    Constraints,
    Entities,
    IntentScore,
    PlanStep,
    RoutingResult,
    TimeRange,
    Workflow,
)
from router.counts import count_request, count_rule, count_steps, is_count_question, trailing_count_word
from router.followups import clarification, context_reference
from router.off_contract import off_contract_request, route_off_contract
from router.planner import validate_plan
from router.reader import Reading, interpretation, unread_clarifications
from router.rules import RULE_CONFIDENCE
from router.status_counts import status_breakdown
from router.statuses import (
    HISTORY_START,
    StatusRequest,
    status_parameters,
    status_request,
    status_steps,
    whole_history,
)
from router.unknown_names import described_suppliers

#: "Which supplier's spend grew the most", "the supplier with the biggest increase": a ranking of changes between
#: two periods. The governed ranking orders one period's spend and the comparison gives each supplier's change, but
#: no governed metric orders by the change, so the question is a clarification naming it (never the company's
#: comparison presented as the answer).
_DIMENSION = r"(?:suppliers?|vendors?|product[- ]groups?|categor(?:y|ies)|products?)"
_CHANGE_RANKING = re.compile(
    r"\b(?:which|what|who)\s+(?:\w+\s+){0,2}?" + _DIMENSION + r"(?:['’]s?)?\s+(?:\w+\s+){0,4}?"
    r"(?:grew|grown|increased|rose|risen|dropped|fell|fallen|declined|decreased|changed)\s+(?:\w+\s+){0,2}?"
    r"(?:the\s+)?(?:most|least|fastest|slowest|strongest|weakest)\b|"
    r"\b(?:biggest|largest|highest|strongest|smallest|lowest|steepest|sharpest|fastest)\s+(?:spend(?:ing)?\s+)?"
    r"(?:increase|decrease|growth|rise|drop|fall|decline|change|jump)\b[^?.;]{0,60}?\b" + _DIMENSION + r"\b|"
    r"\b" + _DIMENSION + r"\s+(?:with|having|that had|that has)\s+the\s+(?:\w+\s+){0,2}?(?:increase|decrease|"
    r"growth|rise|drop|fall|decline|change|jump)\b|"
    r"\brank(?:ed|ing)?\b[^?.;]{0,40}?\b" + _DIMENSION + r"\s+by\s+(?:their\s+|the\s+)?(?:\w+\s+)?"
    r"(?:change|growth|increase|decrease|decline)\b",
    re.I,
)


def change_ranking(reading: Reading) -> str | None:
    """The words of a ranking by change between periods (as the user wrote them), or ``None``."""
    found = _CHANGE_RANKING.search(reading.cue_text)
    if found is None:
        return None
    # The cue text masks names in place (same offsets), so the span is quoted from the question itself.
    same = len(reading.cue_text) == len(reading.text)
    return " ".join((reading.text[found.start():found.end()] if same else found.group(0)).split())


def _scope_problems(reading: Reading, inputs: Any, needs_period: bool = True, every_company: bool = False) -> tuple[
        list[str], list[str], Entities, str | None]:
    """What a figure question lacks (reasons, questions), the entities with the company settled, and the
    company's reporting currency. ``every_company``: the question asks about all the tenant's companies together
    and the figure takes no company, so none is asked for."""
    entities = reading.entities
    gazetteer = inputs.gazetteer
    # Breakdown spans are left out: the shape's own allow-list names them.
    reasons, questions = unread_clarifications(reading.not_understood)
    for problem in reading.entity_problems:
        if every_company and resolves(problem):
            continue  # every company of the tenant named together ("alpenland + kestrel") is the scope
        reasons.append(f"entity: {problem}")
        questions.append(problem)
    # "our Swiss supplier": a supplier described by an attribute the data does not hold is asked about first
    described = [f"I cannot tell which supplier {what!r} is: the data records no such attribute of suppliers (no "
                 "country or place of a supplier), only their names. Which supplier do you mean?"
                 for what in described_suppliers(reading, gazetteer)]
    reasons.extend(f"entity: {problem}" for problem in described)
    questions.extend(described)
    currency = None
    if entities.company_id is None and not reading.entity_problems and not every_company and not described:
        if len(gazetteer.companies) == 1:
            only = gazetteer.companies[0]
            entities = entities.model_copy(update={"company_id": only.company_id, "company_name": only.company_name})
        else:
            names = ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies) or "none known"
            reasons.append("company: the question does not say which company")
            questions.append(f"Which company do you mean? Known companies: {names}.{offer_all(gazetteer)}")
    if entities.company_id is not None:
        company = gazetteer.company(entities.company_id)
        currency = company.reporting_currency if company else None
    elif every_company and len({c.reporting_currency for c in gazetteer.companies}) == 1:
        currency = gazetteer.companies[0].reporting_currency  # the tenant's companies share it
    period = reading.period
    if needs_period and period.ambiguous:
        reasons.append(f"period: {period.reason}")
        questions.append(f"Which period do you mean ({period.reason})? For example 2026-Q1, March 2026 or between "
                         "2026-01-01 and 2026-04-01.")
    elif needs_period and period.time_range is None:
        reasons.append("period: the question names no period")
        questions.append("For which period? For example last quarter, 2026-Q1, March 2026 or a date range.")
    return reasons, questions, entities, currency


def _result(text: str, reading: Reading, inputs: Any, *, workflow: Workflow, entities: Entities,
            steps: tuple[PlanStep, ...] = (), reasons: list[str] | None = None, questions: list[str] | None = None,
            intents: tuple[IntentScore, ...] = (), read_as: str = "", statuses: tuple[str, ...] = ("posted", "paid"),
            currency: str | None = None, rule: str = "") -> RoutingResult:
    tr = reading.period.time_range if not reading.period.ambiguous else None
    constraints = Constraints(time_range=tr, invoice_status=statuses, reporting_currency=currency)  # type: ignore[arg-type]
    auth = AuthorizationContextModel.from_auth(inputs.ctx)
    confidence = round(sum(i.confidence for i in intents) / len(intents), 4) if intents else 0.0
    if reasons:
        return RoutingResult(
            question=text, as_of=inputs.as_of, intents=intents, confidence=confidence, requires_clarification=True,
            clarification_question=" ".join(dict.fromkeys(questions or ())), clarification_reasons=tuple(reasons),
            entities=entities, constraints=constraints, authorization_context=auth, workflow="clarification",
            rule_hits=(rule,) if rule else (), interpretation=read_as,
        )
    validate_plan(steps)
    return RoutingResult(
        question=text, as_of=inputs.as_of, intents=intents, confidence=confidence, requires_clarification=False,
        entities=entities, constraints=constraints, authorization_context=auth, workflow=workflow,
        execution_plan=steps, rule_hits=(rule,) if rule else (), interpretation=read_as,
    )


def _aggregate(confidence_rule: str = "metric_word") -> tuple[IntentScore, ...]:
    confidence = RULE_CONFIDENCE.get(confidence_rule, 0.9)
    return (IntentScore(type="aggregate", confidence=round(confidence, 4), source="rule"),)


def route_extensions(text: str, reading: Reading, inputs: Any) -> RoutingResult | None:
    """A routing result for a follow-up without context, an invoice count or a figure-plus-document question;
    ``None`` for any other question.

    Args:
        text: the cleaned question.
        reading: its reading.
        inputs: the :class:`router.routing.RouterInputs` (who asks, as of when, the tenant's vocabulary).
    """
    e = reading.entities
    follow = context_reference(text, bool(e.company_id or e.supplier_ids or e.product_group or e.product_codes))
    if follow is not None:
        reason, question = clarification(follow)
        return _result(text, reading, inputs, workflow="clarification", entities=reading.entities,
                       reasons=[reason], questions=[question], rule=f"follow_up:clarification:{follow.words}")
    from router.supplier_activity import extreme_request, inactive_request, route_extreme, route_inactive

    inactive = inactive_request(reading)  # "which suppliers did NOT invoice Company B in April", "who didnt bill"
    if inactive is not None:
        return route_inactive(text, reading, inputs, inactive)  # type: ignore[no-any-return]
    extreme = extreme_request(reading)  # "Beta's latest invoice to Company A", "the first invoice of 2026 - which?"
    if extreme is not None:
        return route_extreme(text, reading, inputs, extreme)  # type: ignore[no-any-return]
    from router.first_time import first_time_request, route_first_time

    first_time = first_time_request(reading)  # "new suppliers of Company B in Q1", "who invoiced us for the first time"
    if first_time is not None:
        return route_first_time(text, reading, inputs, first_time)  # type: ignore[no-any-return]
    from router.overdue import overdue_request, route_overdue

    overdue = overdue_request(reading, inputs.as_of)  # "which invoices of Ypsilon are overdue today"
    if overdue is not None:
        return route_overdue(text, reading, inputs, overdue)  # type: ignore[no-any-return]
    from router.cutoff import cutoff_request

    cutoff = cutoff_request(reading)  # "invoices dated in December but only posted in January" (cut-off check)
    if cutoff is not None:
        return _route_cutoff(text, reading, inputs, cutoff)
    from router.agreement_clauses import clause_request, route_clause

    clause = clause_request(reading)  # "Gewährleistung im Vertrag von Company B am 1. März 2026", "quote the clause"
    if clause is not None:
        return route_clause(text, reading, inputs, clause)
    negated = off_contract_request(reading)
    if negated is not None:
        # "spend with suppliers not approved", "off-contract", "nicht freigegeben": the negation is never dropped
        return route_off_contract(text, reading, inputs, negated)  # type: ignore[no-any-return]
    ranked_change = change_ranking(reading)
    if ranked_change is not None:
        reason = f"combination: '{ranked_change}' ranks by the change between two periods, not a governed metric"
        question = (f"'{ranked_change}' asks for a ranking by the change between two periods; no governed metric "
                    "orders by a change. I can give each supplier's spend in both periods with its change (e.g. "
                    "'spend per supplier in 2026-Q1 compared with the previous quarter'), or the ranking of one "
                    "period's spend. Which do you want?")
        return _result(text, reading, inputs, workflow="clarification", entities=reading.entities,
                       reasons=[reason], questions=[question], intents=_aggregate(),
                       rule="change_ranking:clarification")
    unknown = unknown_fact(reading)
    if unknown is not None:
        known = ", ".join(f.label for f in FACTS)
        return _result(text, reading, inputs, workflow="clarification", entities=reading.entities,
                       reasons=[f"fact: '{unknown}' is not a fact the agreements hold"],
                       questions=[f"I can give the figure, but I do not know '{unknown}': the agreements state these "
                                  f"facts about a supplier: {known}. Which one do you mean?"],
                       intents=_aggregate(), rule="compound:unknown_fact")
    from router.invoice_facts import basis_request, document_request, route_basis, route_documents
    from router.netted_documents import netted_credit_notes, route_netted

    netted = netted_credit_notes(reading)  # "after credit note CN-...": the period's spend with it netted in
    routed_netted = route_netted(text, inputs, netted) if netted is not None else None
    if routed_netted is not None:
        return routed_netted  # type: ignore[no-any-return]
    named = document_request(reading)  # "the EUR total of INV-2026-0148", "which invoice does CN-... correct"
    if named is not None:
        return route_documents(text, reading, inputs, named)  # type: ignore[no-any-return]
    on_basis = basis_request(reading)  # "net spend excl. VAT with Gamma in Q1", "VAT per supplier"
    routed_basis = route_basis(text, reading, inputs, on_basis) if on_basis is not None else None
    if routed_basis is not None:
        return routed_basis  # type: ignore[no-any-return]
    from router.duplicates import duplicate_request, route_duplicates  # "which invoices were exported twice"

    duplicated = duplicate_request(reading)
    if duplicated is not None:
        return route_duplicates(text, reading, inputs, duplicated)  # type: ignore[no-any-return]
    from router.price_rankings import price_ranking  # suppliers or products ranked by unit price in a group

    ranking = price_ranking(reading, inputs.gazetteer.subgroups)
    if ranking is not None:
        return _route_price_ranking(text, reading, inputs, ranking)
    counted = is_count_question(reading)
    if status_breakdown(reading, counted):
        # "how many invoices per status (draft, posted, paid, cancelled)": the count of each status, before the
        # status words route the question to the cancelled and draft documents alone
        return _route_count(text, reading, inputs)
    status = status_request(reading)
    if status is not None:
        return _route_status(text, reading, inputs, status)
    from router.thresholds import route_threshold, total_threshold  # "suppliers with more than 50k spend"

    on_totals = total_threshold(reading)
    if on_totals is not None:
        return route_threshold(text, reading, inputs, on_totals)  # type: ignore[no-any-return]
    if counted:
        return _route_count(text, reading, inputs)
    compound = compound_request(reading)
    if compound is not None:
        return _route_compound(text, reading, inputs, compound)
    from router.unit_prices import price_request  # lowest/highest price, cheapest supplier, units

    price = price_request(reading) if reading.entities.product_codes or reading.mentions.products else None
    if price is None and reading.entities.product_group_id and not reading.entities.product_codes:
        from router.unit_prices import group_units

        # "kestrel crates: units", "qty of compressors": the units of a product group, never its spend
        grouped = group_units(reading, inputs.gazetteer)
        if grouped is not None:
            return _route_group_units(text, reading, inputs, *grouped)
    return _route_price(text, reading, inputs, price) if price is not None else None


def _route_group_units(text: str, reading: Reading, inputs: Any, price: Any, codes: tuple[str, ...]) -> RoutingResult:
    """Units of a product group (router/unit_prices.group_units): a group holding one catalogue product is that
    product's units (said so); a group of several products is asked about, since their units of measure need not
    add up (boxes and kits are no one figure)."""
    e = reading.entities
    group = f"{e.product_group} ({e.product_group_id})"
    if len(codes) == 1:
        entities = e.model_copy(update={"product_codes": codes, "product_group": None, "product_group_id": None})
        return _route_price(text, dataclasses.replace(reading, entities=entities), inputs, price,
                            note=f"{group} holds one catalogue product, {codes[0]}: the group's units are its units")
    from router.unit_prices import group_units_steps, rule_hit

    measures = {c: inputs.gazetteer.units_of_measure.get(c, frozenset()) for c in codes}
    one_measure = {m for ms in measures.values() for m in ms}
    tr = reading.period.time_range
    read_as = interpretation(e, tr.start if tr else None, tr.end if tr else None)
    if codes and len(one_measure) == 1 and all(measures.values()):
        # every product of the group is counted in the same unit: the group's units are their sum
        reasons, questions, entities, currency = _scope_problems(reading, inputs, every_company=tenant_wide(
            reading, inputs.gazetteer))
        kept = [(r, q) for r, q in zip(reasons, questions, strict=False) if not r.startswith("company:")]
        reasons, questions = [r for r, _ in kept], [q for _, q in kept]
        if reasons or tr is None:
            return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                           questions=questions, intents=_aggregate(), read_as=read_as,
                           rule="unit_price:clarification")
        unit = next(iter(one_measure))
        steps = group_units_steps(reading, entities.company_id, tr.start.isoformat(), tr.end.isoformat(), currency)
        return _result(text, reading, inputs, workflow="unit_price", entities=entities, steps=steps,
                       intents=_aggregate(), read_as=f"{read_as}; the units of {group}: its {len(codes)} catalogue "
                       f"products ({', '.join(codes)}) are all counted in {unit}, so their units add up",
                       statuses=reading.statuses, currency=currency,
                       rule=rule_hit(dataclasses.replace(price, kind="group_units")))
    names = {p.product_code: p.product_name for p in inputs.gazetteer.products}
    listed = ", ".join(f"{c} ({names.get(c, c)}, in {'/'.join(sorted(measures[c])) or 'an unknown unit'})"
                       for c in codes) or "none"
    reasons = [f"constraint: '{price.words}' of {group} adds up products counted in different units"
               if codes else f"constraint: {group} holds no catalogue product"]
    questions = [f"Units of {group} would add up products counted in different units of measure ({listed}), so no "
                 "total is given. Which product do you mean (its code or name)?" if codes else
                 f"{group} holds no product in your catalogue, so there are no units of it. Which product do you mean?"]
    return _result(text, reading, inputs, workflow="clarification", entities=e, reasons=reasons,
                   questions=questions, intents=_aggregate(), read_as=read_as, rule="unit_price:group_units")


def _route_price(text: str, reading: Reading, inputs: Any, price: Any, note: str = "") -> RoutingResult:
    """Lowest/highest unit price or cheapest supplier of one product (router/unit_prices.py). ``note``: how the
    product was read (a group of one product), said in the answer's "Read as"."""
    from router.unit_prices import COUNTING_NOUN, LATEST_FROM, price_steps, rule_hit

    if price.kind == "units":
        # "how many boxes of copy paper": the counting noun is the quantity's word, no name to look up
        reading = dataclasses.replace(reading, not_understood=tuple(u for u in reading.not_understood
                                                        if not COUNTING_NOUN.fullmatch(u.text.strip())))
    latest = price.kind == "latest"
    reasons, questions, entities, currency = _scope_problems(reading, inputs, needs_period=not latest,
                                                             every_company=tenant_wide(reading, inputs.gazetteer))
    # Unit prices and quantities are governed with the company optional (all companies), as the average is.
    kept = [(r, q) for r, q in zip(reasons, questions, strict=False) if not r.startswith("company:")]
    reasons, questions = [r for r, _ in kept], [q for _, q in kept]
    tr = reading.period.time_range
    vague = reading.period.ambiguous and all(m.lower() in ("recently", "recent", "lately") for m in
                                             reading.period.mentions)
    if latest and tr is None and (not reading.period.ambiguous or vague):
        # "the latest unit price" with no period ("most recently" names none): the most recent invoice day up
        # to the as-of date
        tr = TimeRange(start=LATEST_FROM, end=inputs.as_of + dt.timedelta(days=1), label="up to the as-of date",
                       source_text="")
    if len(entities.product_codes) != 1:
        reasons.append(f"constraint: '{price.words}' needs exactly one product")
        questions.append(f"'{price.words}' is computed for one product at a time: which product do you mean "
                         "(e.g. its product code)?")
    known = {p.product_code for p in inputs.gazetteer.products}
    unknown = [c for c in entities.product_codes if known and c not in known]
    if unknown:  # "no data" would read as "not bought": a code the catalogue does not know is named instead
        reasons.append(f"entity: unknown product {', '.join(unknown)}")
        questions.append(f"I do not know the product {', '.join(unknown)} in your catalogue (no product of that "
                         "code). Which product do you mean?")
    read_as = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    read_as = f"{read_as}; {note}" if note else read_as
    measures = sorted(inputs.gazetteer.units_of_measure.get(entities.product_codes[0], ())) \
        if price.kind == "units" and len(entities.product_codes) == 1 else []
    if measures:  # "boxes of", "pallets of": the units are the catalogue's unit of measure, said as such
        read_as = f"{read_as}; units of {entities.product_codes[0]} as invoiced, in {'/'.join(measures)}"
    asked = reading.analysis.document_currency or ("" if reading.analysis.original_currency else None)
    issued = None
    if asked and asked == currency:
        # "(EUR invoices)" where EUR is the reporting currency: a filter to those invoices, prices unchanged
        issued, asked = asked, None
    if asked is not None:
        # The lowest / latest price, cheapest supplier and units run in the reporting currency: a price asked "as
        # invoiced" or "in USD" is named, never given in EUR in its place.
        reasons.append(f"currency: '{price.words}' is computed in the reporting currency only")
        questions.append(f"'{price.words}' is computed in the reporting currency (converted on each posting date), "
                         "not in the invoice currency. Do you want it in the reporting currency, or the average unit "
                         "price in each invoice currency?")
    if latest and tr is None and not reasons:
        reasons.append(f"period: {reading.period.reason}")
        questions.append(f"Which period do you mean ({reading.period.reason})? For example 2026-Q1 or March 2026.")
    if reasons or tr is None:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=_aggregate(), read_as=read_as, rule="unit_price:clarification")
    steps = price_steps(price, reading, entities.company_id, tr.start.isoformat(), tr.end.isoformat(), currency,
                        document_currency=issued)
    return _result(text, reading, inputs, workflow="unit_price", entities=entities, steps=steps,
                   intents=_aggregate(), read_as=read_as, statuses=reading.statuses, currency=currency,
                   rule=rule_hit(price))


def _route_price_ranking(text: str, reading: Reading, inputs: Any, req: Any) -> RoutingResult:
    """Suppliers or products ranked by average unit price within a group (router/price_rankings.py): a period like
    any figure; the company optional (every company of the tenant, as the average unit price is)."""
    from router.price_rankings import ALL_TIME, nested_group, ranking_steps, rule_hit

    gazetteer = inputs.gazetteer
    inner = None if reading.entities.product_group_id else nested_group(reading, gazetteer.subgroups)
    whole = reading.period.time_range is None and not reading.period.ambiguous and ALL_TIME.search(reading.cue_text)
    reasons, questions, entities, currency = _scope_problems(reading, inputs, needs_period=not whole)
    kept = [(r, q) for r, q in zip(reasons, questions, strict=False) if not r.startswith("company:")
            and not (inner and q.startswith("Which product group do you mean"))]
    reasons, questions = [r for r, _ in kept], [q for _, q in kept]
    if inner is not None:
        # groups named one inside the other: the products in both, the innermost group
        entities = entities.model_copy(update={"product_group_id": inner, "product_group": next(
            g.group_name for g in gazetteer.product_groups if g.product_group_id == inner)})
    if entities.company_id is None:
        currencies = {c.reporting_currency for c in gazetteer.companies}
        currency = next(iter(currencies)) if len(currencies) == 1 else None
        if len(currencies) > 1:
            reasons.append("company: the tenant's companies report in different currencies")
            questions.append("Which company do you mean? The companies report in different currencies.")
    tr = reading.period.time_range
    if whole:
        tr = TimeRange(start=HISTORY_START, end=inputs.as_of + dt.timedelta(days=1),
                       label="all dates up to the as-of date", source_text="")
    read_as = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    groups = gazetteer.subgroups(entities.product_group_id) if entities.product_group_id else ()
    excluded = tuple(sorted({g for gid in reading.excluded_group_ids for g in gazetteer.subgroups(gid)}))
    if reading.excluded_product_codes:
        reasons.append("constraint: excluded products in a unit-price ranking")
        questions.append("The unit-price ranking cannot leave out single products; do you want it without that "
                         "exclusion, or the ranking of a narrower product group?")
    if excluded:
        read_as += f", excluding {', '.join(reading.excluded_group_ids)} and its subgroups"
    if reasons or tr is None:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=_aggregate(), read_as=read_as,
                       rule="unit_price_ranking:clarification")
    steps = ranking_steps(req, reading, groups, entities.company_id, tr.start.isoformat(), tr.end.isoformat(),
                          currency, excluded)
    routed = _result(text, reading, inputs, workflow="unit_price", entities=entities, steps=steps,
                     intents=_aggregate(), read_as=read_as, statuses=reading.statuses, currency=currency,
                     rule=rule_hit(req))
    # the period shown is the one the lines were selected by (the whole history for "all time")
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": tr})})


def _route_compound(text: str, reading: Reading, inputs: Any, compound: CompoundRequest) -> RoutingResult:
    """A figure that selects suppliers plus a fact about them: both workflows planned, or a clarification naming
    what the question leaves open."""
    reasons, questions, entities, currency = _scope_problems(reading, inputs)
    tr = reading.period.time_range
    read_as = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    read_as += f"; {compound.described}, then the {compound.fact.label} from its approving agreement"
    intents = (*_aggregate(), IntentScore(type="semantic", confidence=0.9, source="rule"))
    if compound.selection == "unit_price":
        if len(entities.product_codes) != 1 or entities.supplier_ids:
            # The cheapest supplier is the cheapest *for a product*: one product, and no named supplier beside it.
            named = ", ".join([*entities.supplier_ids, *entities.product_codes]) or "no product"
            reasons.append(f"constraint: '{compound.selector}' needs exactly one product (read: {named})")
            questions.append(f"'{compound.selector}' compares the average unit price of one product across "
                             "suppliers: which product do you mean (e.g. its product code)?")
    elif compound.selection != "named" and (entities.supplier_ids or entities.product_codes):
        # A named supplier or product beside "our biggest supplier": which one the fact is about is unclear
        # (the ranking filters categories, not products).
        named = ", ".join([*entities.supplier_ids, *entities.product_codes])
        reasons.append(f"constraint: {named} alongside '{compound.selector}'")
        questions.append(f"The question names {named} and also asks for '{compound.selector}'. Do you mean the "
                         f"{compound.direction} supplier overall, or {named}?")
    rule = rule_hit(compound)
    if reasons or tr is None or entities.company_id is None:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="compound:clarification")
    groups = inputs.gazetteer.subgroups(entities.product_group_id) if entities.product_group_id else ()
    steps = compound_steps(compound, reading, entities.company_id, tr.start.isoformat(), tr.end.isoformat(),
                           currency, groups)
    return _result(text, reading, inputs, workflow="figure_with_document", entities=entities, steps=steps,
                   intents=intents, read_as=read_as, statuses=reading.statuses, currency=currency, rule=rule)


def _route_count(text: str, reading: Reading, inputs: Any) -> RoutingResult:
    # "how many credit notes (both companies)": a count needs no reporting currency, so the tenant's companies
    # are counted together in one call
    every = tenant_wide(reading, inputs.gazetteer)
    word = trailing_count_word(reading)
    if word is not None:
        # "– Anzahl?" written last is the count's question word, read here (router/counts.py)
        reading = dataclasses.replace(reading, not_understood=tuple(
            u for u in reading.not_understood if not (word[0] <= u.start and u.end <= word[1])))
    reasons, questions, entities, currency = _scope_problems(reading, inputs, every_company=every)
    tr = reading.period.time_range
    intents = _aggregate()
    if reasons or tr is None or (entities.company_id is None and not every):
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, rule="invoice_count:clarification")
    req = count_request(reading, inputs.gazetteer, entities.company_id, tr.start.isoformat(), tr.end.isoformat(),
                        currency)
    for reason, question in req.unmapped:
        reasons.append(reason)
        questions.append(question)
    shown = entities.model_copy(update={
        "supplier_ids": tuple(s for s in entities.supplier_ids if s not in req.excluded_supplier_ids),
        "product_group": None if req.excluded_group else entities.product_group,
    })
    read_as = interpretation(shown, tr.start, tr.end)
    if every:
        read_as = f"{every_restated(inputs.gazetteer)}, {read_as}"
    if req.excluded_supplier_ids:
        read_as += ", excluding suppliers " + ", ".join(req.excluded_supplier_ids)
    if req.excluded_group:
        read_as += f", excluding {req.excluded_group} and its subgroups"
    read_as += f", document types {', '.join(req.parameters['document_types'])}, statuses " \
               f"{', '.join(req.by_status or req.parameters['invoice_statuses'])}"
    if req.by_status:
        read_as += " (one count per status)"
    issued = reading.analysis.document_currency
    if issued and not reasons:
        # "how many invoices ... in CHF": the count takes no invoice currency; the governed listing does, and its
        # rows are the count (router/currency_counts.py), never every currency's invoices counted instead
        from router.currency_counts import currency_count_question, listing_question, unlisted_reason
        from router.routing import _route

        why = unlisted_reason(req.parameters, req.group_by, req.by_status)
        listed = _route(listing_question(issued, req.parameters), inputs) if why is None else None
        if listed is not None and not listed.requires_clarification:
            return listed.model_copy(update={"interpretation": f"{listed.interpretation}; the invoices billed in "
                                             f"{issued} counted one by one (the number of invoices listed)"})
        reasons.append(f"currency: a count of {issued} invoices with {why or 'this scope'}")
        questions.append(currency_count_question(issued, why or "this scope"))
    if reasons:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="invoice_count:clarification")
    statuses = tuple(s for s in req.parameters["invoice_statuses"] if s in ("draft", "posted", "paid"))
    return _result(text, reading, inputs, workflow="invoice_count", entities=entities, steps=count_steps(req),
                   intents=intents, read_as=read_as, statuses=statuses or ("posted", "paid"), currency=currency,
                   rule=count_rule(req))


def _route_status(text: str, reading: Reading, inputs: Any, req: StatusRequest) -> RoutingResult:
    """Cancelled or draft documents asked for by status, or a listing of open or paid invoices
    (router/statuses.py): a company and a period like any figure; a listing without a period covers the whole
    history up to the as-of date."""
    unbounded = whole_history(req) and reading.period.time_range is None and not reading.period.ambiguous
    every = tenant_wide(reading, inputs.gazetteer)
    reasons, questions, entities, currency = _scope_problems(reading, inputs, needs_period=not unbounded,
                                                             every_company=every)
    tr = reading.period.time_range
    if unbounded:
        tr = TimeRange(start=HISTORY_START, end=inputs.as_of + dt.timedelta(days=1),
                       label="all dates up to the as-of date", source_text="")
    intents = _aggregate()
    read_as = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    read_as += f", statuses {', '.join(req.statuses)}"
    if every:
        read_as = f"{every_restated(inputs.gazetteer)}, {read_as}"
    if reasons or tr is None or (entities.company_id is None and not every):
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="status:clarification")
    params, unmapped = status_parameters(req, reading, inputs.gazetteer, entities.company_id, tr.start.isoformat(),
                                         tr.end.isoformat(), currency)
    steps, unserved = status_steps(req, reading, params)
    for reason, question in (*unmapped, *unserved):
        reasons.append(reason)
        questions.append(question)
    if reasons:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="status:clarification")
    routed = _result(text, reading, inputs, workflow="status_documents", entities=entities, steps=steps,
                     intents=intents, read_as=read_as, statuses=req.statuses, currency=currency,
                     rule=f"status:{req.kind}")
    # The period shown is the one the documents were selected by (the whole history for an unbounded listing).
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": tr})})


def _route_cutoff(text: str, reading: Reading, inputs: Any, req: Any) -> RoutingResult:
    """A cut-off list (router/cutoff.py): the invoice period read before the posting words, the posting bounds
    after them; no company named is every company of the tenant (a listing names each invoice's company) when they
    share a reporting currency. Unread spans other than the cut-off words, products and groups are asked about."""
    from router.company_set import resolves
    from router.cutoff import (
        currency_problem,
        cutoff_companies,
        cutoff_parameters,
        cutoff_statuses,
        cutoff_steps,
        own_word,
        unposted_statuses,
    )

    gazetteer = inputs.gazetteer
    entities = reading.entities
    unread = tuple(u for u in reading.not_understood if not own_word(u.text))
    reasons, questions = unread_clarifications(unread)
    # "Kestrel/Alpenland: which Aug invoices got posted in Sept": each listed invoice names its company, so the
    # companies named are listed together (one reporting currency), never asked to choose one of them
    named = cutoff_companies(reading, gazetteer)
    for problem in reading.entity_problems:
        if named and resolves(problem):
            continue
        reasons.append(f"entity: {problem}")
        questions.append(problem)
    currency = None
    every = False
    if named:
        entities = entities.model_copy(update={"company_id": None, "company_name": None})
        currency = gazetteer.company(named[0]).reporting_currency  # type: ignore[union-attr]
    elif entities.company_id is not None:
        company = gazetteer.company(entities.company_id)
        currency = company.reporting_currency if company else None
    elif not reading.entity_problems:
        shared = {c.reporting_currency for c in gazetteer.companies}
        if len(gazetteer.companies) == 1:
            only = gazetteer.companies[0]
            entities = entities.model_copy(update={"company_id": only.company_id, "company_name": only.company_name})
            currency = only.reporting_currency
        elif len(shared) == 1 and not reading.excluded_company_ids:
            every, currency = True, next(iter(shared))
        else:
            names = ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies) or "none known"
            reasons.append("company: the question does not say which company")
            questions.append(f"Which company do you mean? Known companies: {names}.")
    cannot = [*(["product group " + (entities.product_group or "")] if entities.product_group_id else []),
              *(["products " + ", ".join(entities.product_codes)] if entities.product_codes else []),
              # (the reader's zero bound of a plain invoice listing is no amount the question names)
              *(["an amount"] if reading.threshold is not None and any(a.text for a in reading.amounts) else []),
              *(["the exclusion of " + ", ".join([*reading.excluded_supplier_ids, *reading.excluded_group_ids,
                                                  *reading.excluded_product_codes])]
                if reading.excluded_supplier_ids or reading.excluded_group_ids or reading.excluded_product_codes
                else []),
              *([problem] if (problem := currency_problem(reading)) else [])]
    for what in cannot:
        reasons.append(f"cutoff: {what} cannot be applied to the cut-off list")
        questions.append(f"I can list the invoices dated in one period and posted in a later one by company, "
                         f"supplier, invoice currency and status, but not by {what}. Do you want them without it?")
    unposted = unposted_statuses(reading)
    if unposted:
        # a draft or cancelled invoice is never posted, so it has no posting date and no cut-off: listing the
        # posted and paid ones instead would answer another question
        said = " and ".join(unposted)
        reasons.append(f"cutoff: {said} invoices are never posted, so none can be posted in a later period")
        questions.append(f"{said.capitalize()} invoices are never posted, so none of them can be posted after "
                         "their invoice period (no cut-off). Do you want the posted and paid invoices dated in "
                         f"the period but posted later, or the {said} invoices dated in the period?")
    statuses = cutoff_statuses(reading)
    tr = TimeRange(start=req.start, end=req.end, label=f"{req.start.isoformat()} to {req.end.isoformat()}",
                   source_text=req.invoice_words)
    read_as = interpretation(entities, req.start, req.end) + " (invoice date)"
    read_as += (f", posted {req.posted_from.isoformat()} to {req.posted_before.isoformat()} (end exclusive)"
                if req.posted_before else f", posted on or after {req.posted_from.isoformat()}")
    read_as += f", statuses {', '.join(statuses)}"
    if every:
        read_as = f"{every_restated(gazetteer)}, {read_as}"
    if named:
        read_as = f"{', '.join(named)} listed together (each invoice with its company), {read_as}"
    intents = _aggregate()
    if reasons:
        return _result(text, reading, inputs, workflow="clarification", entities=entities, reasons=reasons,
                       questions=questions, intents=intents, read_as=read_as, rule="cutoff:clarification")
    params = cutoff_parameters(req, reading, entities.company_id, currency, statuses)
    if named:
        params["company_ids"] = list(named)
    routed = _result(text, reading, inputs, workflow="status_documents", entities=entities,
                     steps=cutoff_steps(params), intents=intents, read_as=read_as, statuses=statuses,
                     currency=currency, rule="cutoff:listing")
    return routed.model_copy(update={"constraints": routed.constraints.model_copy(update={"time_range": tr})})


__all__ = ["route_extensions"]
