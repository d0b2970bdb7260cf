"""The router: question + authenticated context + as-of date -> :class:`RoutingResult` (with its plan).

Order of decisions: identifiers and entity mentions first (deterministic), then the cue-word rules, then the
classifier's calibrated probabilities; a rule's intent is never dropped by the classifier. Then the
clarification policy: an ambiguous or missing period, company, currency or accounting basis that the plan
needs stops execution with one focused question. The authorization context is copied from the
:class:`AuthContext` the application authenticated; nothing in the question can change it.
"""

from __future__ import annotations

import datetime as dt
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Literal

from ingest.normalize import LEGAL_FORMS
from procura.db.session import AuthContext
from router.agreement_subject import agreement_by_subject
from router.analysis import (
    AVERAGE_PRICE,
    COMPARISON,
    DOCUMENT_PRICE,
    RANKING,
    GovernedRequest,
    Slots,
    choose_metric,
    document_type_scope,
    governed_request,
    share_part,
    single_month,
)
from router.approval_dates import approval_day_reading, compared_approvals, context_note, remark_comparison
from router.approval_validity import (
    approval_unnamed,
    asks_approval_end,
    checked_claims,
    validity_interpretation,
    validity_reading,
)
from router.as_at import overdue_as_at
from router.breakdown_check import _groups, dropped_amount_range, dropped_breakdown
from router.breakdown_words import company_spellings, every_period, read_breakdown_words
from router.catalog_asks import read_catalog_ask
from router.catalog_relations import (
    company_lead_asked,
    group_asked,
    read_catalog_relation,
    read_relation_words,
    relation_in_names,
    several_groups,
)
from router.classifier import IntentClassifier
from router.company_probe import asks_only_company
from router.company_set import (
    adds_up,
    company_nouns,
    company_set,
    offer_all,
    per_company_table,
    restated_whole,
    several_named,
    split_between_companies,
    whole_tenant,
)
from router.company_set import resolves as resolves_company_set
from router.context_noise import set_aside_context, set_aside_note
from router.contract import (
    INTENT_TYPES,
    AuthorizationContextModel,
    Constraints,
    Entities,
    IntentScore,
    IntentType,
    PlanStep,
    RoutingResult,
    TimeRange,
    Workflow,
    clean_question,
)
from router.currency import currency_reading, issued_currencies
from router.date_order import tenant_date_order
from router.default_measure import AssumedMeasure, assumed_measure, thing_words
from router.dimensions import unknown_dimensions
from router.elliptic import ELLIPTIC_NOTE, elliptic_spend, guess_aside, named_back, read_spans, unread_words
from router.entities import Company, Gazetteer, ProductGroup
from router.exclusion_shapes import exclusion_parameters, unapplied_exclusions
from router.extensions import route_extensions
from router.figure_words import unanswered_percent
from router.first_time import first_time_spans
from router.foreign_words import foreign_note, read_foreign_words
from router.german import read_german
from router.group_only import subgroup_only
from router.group_scope import group_scope
from router.group_spend import spend_asked_of_group
from router.group_unions import joined_groups_union, restated_parts, slash_joined_unknown
from router.group_words import read_goods_heads, read_group_labels, read_group_typos, read_subgroup_joins
from router.idle_vendors import idle_clarification, idle_narrowing, idle_question, idle_spans
from router.injection import set_aside_instructions
from router.list_prices import list_price_route
from router.listings import read_purchase_listing, unknown_qualifiers
from router.measure_words import corrected, correction_note, measure_typos, unknown_words
from router.metric_shape import metric_shape, named_unread, not_read_question, spend_compatible, unquoted
from router.name_cues import names_a_company
from router.notation import read_notation
from router.open_amount import open_question, status_only, up_to
from router.open_reading import scope_invoices_only_step
from router.periods import HISTORY_START, ListedPeriods, PeriodResolution, add_months, invalid_period
from router.planner import PlanInput, plan, validate_plan
from router.preamble import strip_preamble
from router.price_asks import one_period_change, price_without_product
from router.price_words import asks_price
from router.product_models import unknown_specified_product
from router.read_answer import answers_as_read, negated_listing, negated_question
from router.reader import (
    NameResolver,
    Reading,
    interpretation,
    name_spellings,
    read,
    threshold_of,
    unread_clarifications,
)
from router.reading import Amount, Breakdown, CatalogMetric, dimension_phrase
from router.relation_shapes import read_relation_shape
from router.romance import read_romance
from router.rules import RULE_CONFIDENCE, RuleHit, apply_rules, mask
from router.scope import all_companies as all_companies_scope
from router.set_words import choice_cue, joined_as_set
from router.silent_checks import (
    inverted_document_type,
    mismatched_document_type,
    unrecorded_qualifiers,
    unrecorded_scopes,
)
from router.sole_products import group_products, sole_product_note, sole_product_reading
from router.sound_alike import sounded_names
from router.spoken import read_spoken
from router.supplier_activity import rule_spans
from router.tenant_scope import other_tenant_question, tenant_scope
from router.unknown_names import unknown_name_problems
from router.unread_words import figure_answer, general_words, narrowed_restrictions, reading_spans
from router.unread_words import unread_words as unread_content
from router.unused_spans import (
    breakdown_question,
    checked_sentences,
    comparison_question,
    counted_phrase,
    counted_question,
    figure_kinds,
    plan_counts,
    plan_periods,
    unplanned_amounts,
    unplanned_breakdown,
    unplanned_comparison,
    unplanned_percent,
    unused_digit_tokens,
)
from router.vocabulary import normalise, vocabulary_note
from router.wildcard_names import read_wildcards

#: An intent the classifier alone proposes is selected from this calibrated probability on.
INTENT_THRESHOLD = 0.5
#: Every question needs at least one intent: when none reaches the threshold, the most probable one is selected
#: if its probability is at least this floor, else the router asks what is needed. On the labeled set's
#: held-out folds the top intent was right 9 times in 11 above the floor and 3 times in 5 below it.
TOP_INTENT_FLOOR = 0.2
#: The governed metric behind the spend workflow; its catalog entry's allow-lists bound a spend breakdown.
SPEND_METRIC = "finance.company_spend"
#: Words that make a question about a company's period a document question (its text is the answer), not a
#: figure: the agreements, their clauses and terms, what a document says, how-to and why questions.
_DOCUMENT_CUES = re.compile(
    r"\b(agreements?|contracts?|clauses?|terms|documents?|manuals?|polic(?:y|ies)|says?|said|states?|stated|"
    r"mentions?|mentioned|describ\w*|explain\w*|summar\w*|warrant\w*|notice|penalt\w*|liabilit\w*|datasheets?|"
    r"specs?|specifications?|certificates?|sections?|pages?|passages?|wording|why|how (?:do|does|should|to|can)|"
    r"calibrat\w*|install\w*|wir(?:e|ing)|requirements?|obligations?|conditions?)\b",
    re.I,
)
#: Words of a catalogue question ("which products does Beta supply"), read outside the names ("Beta Supplies").
#: "which sensors does Beta carry / stock": a supplier's catalogue, like "supply" and "sell".
_CATALOG_WORDS = re.compile(r"\b(products?|(?<!open )items?|articles?|catalog(?:ue)?|suppl(?:y|ies)|sells?|"
                            r"carr(?:y|ies)|stocks?)\b", re.I)
#: Measures no governed metric computes: a figure over invoices or passages in their place would answer another
#: question, so they are named in a clarification (each a kind of measure, never a particular question).
_UNSERVED_MEASURES = re.compile(
    r"\b(days? payable(?: outstanding)?|dpo|dso|days? sales outstanding|payment days|days to pay|"
    r"(?:average )?(?:lead|delivery|cycle|processing|approval) times?|on[- ]time(?: delivery)?(?: rates?)?|"
    r"savings?|(?:co2\s+)?emissions?|co2|headcount|margins?|profit\w*|revenues?|"
    r"late(?: payment)? fees?|(?:return|defect|rejection|fill|discount) rates?|average discount|"
    r"contract values?|credit limits?|payment behaviou?r|dso|inventory|stock levels?|"
    # cost categories outside the purchase invoices' product groups (a group of that name is masked as an entity)
    # (a word of a compound or a noun's modifier is no measure: "Beta's express-freight approval", "the
    # shipping agreement" ask about an approval or a document, named after what it covers)
    r"(?<!-)(?:freight|shipping|logistics|travel|utilit(?:y|ies)|energy|payroll|salar(?:y|ies)|rent|insurance|"
    # (the guard reads past the space itself: after a bare \s* it was checked at the space, where it always passed)
    r"maintenance contract)(?:\s*(?:costs?|spend|spending|expenses?|charges?|fees?)|"
    r"(?!\s*(?:approvals?|approved|agreements?|contracts?|suppliers?|vendors?|providers?|carriers?|partners?|"
    r"clauses?|terms)\b))|"
    r"average invoice (?:value|amount|size)|median invoice\w*|maverick spend|tail spend|"
    # "spend per unit / piece / ea" of a product is its unit price (router/reader.py), a governed figure
    r"spend per (?!(?:units?|pieces?|pcs?|ea|each|suppliers?|vendors?|months?|quarters?|years?|weeks?|days?|"
    r"products?|groups?|categor\w+|"
    r"compan\w+|currenc\w+|invoices?|product group|supplier|status(?:es)?|(?:legal\s+)?entit\w+|subsidiar\w+|"
    # "spend per original currency": the invoices' own currencies (the currency grouping)
    r"(?:the\s+)?(?:(?:invoice|invoiced|original|document|transaction|billing|source|native)[\s-]+){1,2}currenc\w+|"
    r"(?:(?:invoice|original|billing)\s+)?ccys?|"
    # a level of the product groups before its noun ("spend per top-level category", "per sub-group")
    r"(?:top|main|leaf|lowest|highest|sub|material|commodit\w*|catalog\w*)(?=[\s-]))\b)\w+|"
    r"(?:price|budget|cost) variance|rebates?|spend under management|\w+ compliance|inflation)\b",
    re.I,
)
#: Supplier-performance measures a ranking may be asked to order by ("top 3 suppliers by number of complaints"):
#: no governed metric counts deliveries, complaints or quality events. Only in a ranking: "what compensation
#: applies to late deliveries" is a document question.
_UNSERVED_RANKING_MEASURES = re.compile(
    r"\b((?:late|delayed|missed|on[- ]time|early|partial)\s+deliver(?:y|ies)|(?:number|count) of deliveries|"
    r"complaints?|quality (?:issues?|incidents?|scores?|ratings?)|defects?|(?:supplier )?ratings?|"
    r"(?:purchase )?orders placed|number of (?:purchase )?orders)\b",
    re.I,
)


#: Words of a figure about a product (a quantity, a price, a purchase), also in French and Spanish.
_PRODUCT_FIGURE = re.compile(r"\b(?:how\s+(?:much|many)|bought|buy|purchase[sd]?|spen[dt]|paid|cost|price[sd]?|"
                             r"unit|units|quantit(?:y|ies)|volume|combien|achet\w*|prix|cu[aá]nt[oa]s?|compr\w*|"
                             r"precio)\b", re.I)


def _group_traversal(hits: list[RuleHit], reading: Reading) -> bool:
    """True when a product-group mention asks for a traversal (members, suppliers, spend over the group)."""
    if any(h.intent in ("relationship", "aggregate") for h in hits):
        return True
    return reading.cues.group_traversal


@dataclass(frozen=True)
class RouterInputs:
    """Everything the router reads besides the question: who asks, as of when, and the tenant's vocabulary."""

    ctx: AuthContext
    as_of: dt.date
    gazetteer: Gazetteer
    classifier: IntentClassifier | None = None
    #: The catalog metrics without a workflow of their own (e.g. one added in YAML only), askable by phrase.
    catalog: tuple[CatalogMetric, ...] = ()
    #: Every metric of the catalog (workflow ones too): their ``config.meta.procura`` allow-lists bound breakdowns.
    metrics: tuple[CatalogMetric, ...] = ()
    #: Places names that match no spelling exactly (pg_trgm in the tenant); default: trigram similarity in memory.
    resolver: NameResolver | None = None


def _combine(hits: tuple[RuleHit, ...], probabilities: dict[IntentType, float] | None) -> tuple[IntentScore, ...]:
    """One score per intent. A rule's intent is always selected (rules are never overruled).

    With the classifier, the confidence is its probability, which was calibrated together with the rules
    (``router.classifier``: the rule is a term of the calibration), so a rule the model disagrees with is
    reported with the lower confidence such disagreements earn on held-out questions. Without the classifier
    the rule's fixed confidence is reported.
    """
    scores: list[IntentScore] = []
    for intent in INTENT_TYPES:
        rule = max((h.confidence for h in hits if h.intent == intent), default=None)
        prob = probabilities.get(intent) if probabilities is not None else None
        if rule is not None and prob is None:
            scores.append(IntentScore(type=intent, confidence=round(rule, 4), source="rule"))
        elif rule is not None and prob is not None:
            agrees = prob >= INTENT_THRESHOLD
            scores.append(IntentScore(type=intent, confidence=round(prob, 4),
                                      source="rule+classifier" if agrees else "rule"))
        elif prob is not None:
            scores.append(IntentScore(type=intent, confidence=round(prob, 4), source="classifier",
                                      selected=prob >= INTENT_THRESHOLD))
    if scores and not any(s.selected for s in scores):
        top = max(scores, key=lambda s: s.confidence)
        if top.confidence >= TOP_INTENT_FLOOR:
            scores = [s.model_copy(update={"selected": True}) if s is top else s for s in scores]
    return tuple(scores)


def _unknown_qualifiers(text: str, result: RoutingResult, gazetteer: Gazetteer) -> RoutingResult:
    """The goods listing's result, or a clarification naming its qualifiers that no group, product or supplier
    name stands for ("new", "expensive"): the spend by product cannot apply them (router/listings.py)."""
    vocabulary = [*(n for _, _, n in name_spellings(gazetteer)),
                  *(p.product_name for p in gazetteer.products), *(p.product_code for p in gazetteer.products)]
    unknown = [w for w in unknown_qualifiers(text, vocabulary)
               if not re.search(rf"\b{re.escape(w)}\b", result.clarification_question or "", re.I)]
    if not unknown:
        return result
    named = ", ".join(repr(w) for w in unknown)
    question = (f"I do not know {named} as a product group, product or supplier, and I cannot select the products "
                f"bought by it (the listing is the spend by product). Which products do you mean, or do you want "
                f"every product bought?")
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": " ".join(filter(None, [result.clarification_question, question])),
        "clarification_reasons": (*result.clarification_reasons,
                                  *(f"listing: qualifier {w!r} not understood" for w in unknown))})


def _assumed_measure(elliptic: str, unread: tuple[str, ...], inputs: RouterInputs) -> AssumedMeasure | None:
    """The words a fragment left in its measure slot read as the default figure (router/default_measure.py)."""
    gazetteer = inputs.gazetteer
    things = thing_words((*_vocabulary_names(gazetteer), *(syn for syn, _ in gazetteer.group_synonyms)))
    return assumed_measure(elliptic, unread, things, general_words(), net=_reading_of(elliptic, inputs).cues.net_basis)


def _answers_as_read(elliptic: str, unread: tuple[str, ...], result: RoutingResult, inputs: RouterInputs) -> bool:
    """Whether the measure ask of ``result`` is answered as the spend of what the fragment read, naming the
    ``unread`` words (router/read_answer.py): the reading's own text, spans and cues decide."""
    reading = _reading_of(elliptic, inputs)
    spans = read_spans(reading)
    # (a figure no metric computes, "emissions", is asked; a name that spells one, "Beta Logistics", is no ask)
    unnamed = "".join(" " if any(s <= i < e for s, e in reading.consumed) else ch for i, ch in enumerate(reading.text))
    if _UNSERVED_MEASURES.search(unnamed):
        return False
    things = thing_words((*_vocabulary_names(inputs.gazetteer), *(syn for syn, _ in inputs.gazetteer.group_synonyms)))
    return answers_as_read(reading.text, unread, result.clarification_reasons, reading.cues, general_words(),
                           spans=spans, things=things)


def _compares(value: object) -> bool:
    """Whether an argument tree holds a comparison's keys (``compare_to``, ``base_start_date``)."""
    if isinstance(value, Mapping):
        return "compare_to" in value or "base_start_date" in value or any(_compares(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_compares(v) for v in value)
    return False


def _dropped_base_period(reading: Reading, workflow: str, steps: list[tuple[str, dict[str, object]]]) -> str | None:
    """The ask naming the base period of a comparison the reading read ("Q4 2025 -> Q1 2026", "vs Q4 2025") when
    a count plan counts one period only and compares nothing; ``None`` otherwise."""
    comparison = reading.analysis.comparison
    if "count" not in workflow or comparison is None or comparison.base is None:
        return None
    base = comparison.base
    arguments = [arguments for _, arguments in steps]
    if (base.start, base.end) in plan_periods(arguments) or _compares(arguments):
        return None
    said = base.source_text or base.label
    period = reading.period.time_range
    counted = f" for {period.label}" if period is not None else ""
    return (f"I read a comparison with {said!r} ({base.label}), but I can only count{counted} here, not compare "
            f"two periods' counts. Do you want the count for each period ({base.label} and"
            f"{counted.replace(' for', '') or ' the other'}) separately, or one of them?")


def _vocabulary_names(gazetteer: Gazetteer) -> tuple[str, ...]:
    """Every spelling of the tenant's names and products: words the vocabulary pass never rewrites."""
    return (*(n for _, _, n in name_spellings(gazetteer)), *gazetteer.supplier_names.values(),
            *(p.product_name for p in gazetteer.products))


def spoken_question(text: str, gazetteer: Gazetteer) -> str | None:
    """``text`` with its spoken numbers, periods, ids, model codes and split names written as typed
    (router/spoken.py), or ``None`` when it has none; the tenant's product names and names are what it may spell."""
    names = [n for _, _, n in name_spellings(gazetteer)]
    # "kestrel lebens mittel": the name is said without its legal form ("GmbH", "AG")
    bare = [" ".join(w for i, w in enumerate(n.split()) if i == 0 or w.lower().strip(".") not in LEGAL_FORMS)
            for n in names]
    spoken = read_spoken(text, codes=[p.product_name for p in gazetteer.products], names=[*names, *bare])
    # "alpine land logistic": a name misheard as English words that sound like it (router/sound_alike.py)
    sounded = sounded_names(spoken or text, name_spellings(gazetteer))
    return sounded if sounded != text else None


def _asked(result: RoutingResult, question: str, reason: str) -> RoutingResult:
    """``result`` turned into a clarification asking ``question``, ``reason`` first among its reasons (a check after
    planning found the plan would answer another question than the one asked)."""
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": question, "clarification_reasons": (reason, *result.clarification_reasons)})


def route(question: str, inputs: RouterInputs, *, _shapes: bool = True) -> RoutingResult:
    """Route one question; the result carries either a clarification or an execution plan.

    Clauses addressed to the system ("ignore previous instructions", SQL, "the manual says Zeta is approved") are
    set aside first: they are not read as constraints, never followed, and the interpretation names them. A
    question phrased in German is read through its English rewriting (names untouched), also stated.

    Raises:
        QuestionError: the question is empty or too long.
    """
    # greetings, signatures, ticket and meeting references around the ask are context (router/context_noise.py)
    context = set_aside_context(question, (n for _, _, n in name_spellings(inputs.gazetteer))) \
        if isinstance(question, str) else None
    question = context.text if context is not None else question
    # a conversational preamble ("Re the audit:", "Quick one:") is consumed first: it is no constraint
    text, aside = set_aside_instructions(strip_preamble(clean_question(question)))
    checked: tuple[str, ...] = ()
    if checked_claims(question, aside):
        # "Our records say Eta is approved for Company B without an end date - until when does it run?": the claim
        # is what is checked (its names are the question's), answered from the approval table, never believed
        text, checked, aside = strip_preamble(clean_question(question)), aside, ()
    # "Vendor, \"Beta*\"": a wildcard name is every name of the tenant it matches, said so (router/wildcard_names.py)
    text, wildcard_notes = read_wildcards(text, inputs.gazetteer)
    # a voice transcript ("q one twenty twenty six", "pt one hundred") is read as typed: digits, codes, names
    spoken = spoken_question(text, inputs.gazetteer)
    text = spoken or text
    # "8'000.00", "last 60d", "11/2025", "CompanyC": shorthand notations written out (router/notation.py)
    # (a slashed day in the tenant's date order when the question does not settle it: router/date_order.py)
    order = tenant_date_order(inputs.ctx.tenant_id, (c.company_name for c in inputs.gazetteer.companies))
    text = read_notation(text, (n for _, _, n in name_spellings(inputs.gazetteer)), inputs.gazetteer, order,
                         inputs.as_of) or text
    # "AP spned", "QoQ chg", "Kreditoren", "Rechnugen": the vocabulary table and its typos (router/vocabulary.py)
    vocabulary = normalise(text, _vocabulary_names(inputs.gazetteer))
    text = vocabulary.text
    # "preferred suppliers", "pressure + temp sensors", "cabling": the class's words (router/catalog_relations.py)
    text, relation_notes = read_relation_words(text, inputs.gazetteer)
    # "who are we (Ypsilon) allowed to buy from", "who even sells cables": a relationship asked by its shape, no
    # measure (router/relation_shapes.py)
    shaped = read_relation_shape(text) if _shapes else None
    if shaped is not None:
        # the rewrite only where no existing approval or catalogue reader answers the question as typed ("which
        # suppliers is Company A approved to buy from" is read as written; passages are no such reader)
        typed = route(question, inputs, _shapes=False)
        if not (typed.requires_clarification or typed.workflow == "unsupported"
                or typed.workflow in _PASSAGE_WORKFLOWS):
            return typed
    text = shaped or text
    # French / Spanish finance words and whole questions ("Cie A factures HT T1 2026"): English (router/romance.py)
    # "by pg", "per suplier", "desglose por divisa": grouping words as the reader knows them (breakdown_words.py)
    grouping = read_breakdown_words(text, company_spellings(inputs.gazetteer))
    text = grouping or text
    # "calibraton eqpt", "cables n connectors", "control cabinets + accessories": a group's name typed with a slip,
    # an "n" join or its own subgroup joined to it, read as the name (router/group_words.py)
    typed = read_group_typos(text, inputs.gazetteer)
    text = typed[0] if typed is not None else text
    joins = read_subgroup_joins(text, inputs.gazetteer)
    text = joins[0] if joins is not None else text
    goods = read_goods_heads(text, inputs.gazetteer)
    text = goods[0] if goods is not None else text
    text = read_group_labels(text, inputs.gazetteer) or text
    # "fatture", "leverancier", "without BTW", "money to Orbis", "kantoorartikelen": the concepts of a figure in any
    # writer's words, foreign group names as the tenant's groups (router/foreign_words.py)
    foreign = read_foreign_words(text, inputs.gazetteer)
    text = foreign.text if foreign is not None else text
    romance = read_romance(text, keep=(n for _, _, n in name_spellings(inputs.gazetteer)))
    text = romance or text
    german = read_german(text, keep=(syn for syn, _ in inputs.gazetteer.group_synonyms))
    # a German "Bei welchen Lieferanten hat X eingekauft" is an English listing once rewritten
    # (not over a dimension's words: "only purchase order 4500012345" is no "what did they purchase" listing; the
    # reader names the dimension back, router/dimensions.py)
    # (nor over first-time suppliers: "which vendors invoiced C for the first time" is no purchase listing)
    listing = read_purchase_listing(german or text) if not unknown_dimensions(german or text) \
        and not first_time_spans(german or text) else None
    # "What Helix sells in lab consumables": the catalogue's products of the supplier in the group
    # "does Theta have anything in sensors", "who can sell us crates": the catalogue relation family
    # (router/catalog_relations.py), its group slot required below
    relation = read_catalog_relation(german or text) if listing is None else None
    said_relation = relation  # (its supplier slot may name a company: no catalogue, asked back below)
    relation = relation_in_names(relation, inputs.gazetteer) if relation is not None else None
    # "what Zeta carries in pressure + temp sensors": the group holding both, when Zeta carries nothing else there
    several = several_groups(relation, inputs.gazetteer) if relation is not None else None
    relation = several[0] if several is not None else relation
    catalog_ask = (relation.text if relation is not None else read_catalog_ask(german or text)) \
        if listing is None else None
    # "paid-only spend": the status words (router/open_amount.py)
    base = status_only(listing or catalog_ask or german or text)
    # "the whole tenant", "tenant 99": the caller's tenant is all its companies; another tenant is named back
    tenant = tenant_scope(base, inputs.ctx.tenant_id)
    # "group spend", "the group's March spend": the group is every company of the tenant (router/group_scope.py)
    spellings = name_spellings(inputs.gazetteer)
    group = group_scope(tenant.text, (n for _, _, n in spellings),
                        (n for kind, _, n in spellings if kind == "product_group"))
    base = group.text
    # "both cos", "which co", "per entity", "whole grp": the company noun typed short (router/company_set.py)
    nouns = company_nouns(base, (n for _, _, n in spellings))
    # "orbis alpenland sept? prob 0": the writer's guess at the answer is a remark (router/elliptic.py)
    base, guess = guess_aside(nouns.text)
    # "approved vendors according to the packaging agreement": that agreement's list, no group filter
    # (router/agreement_subject.py)
    subject = agreement_by_subject(base, (n for kind, _, n in spellings if kind == "product_group"))
    base = subject.text if subject is not None else base
    result = _route(base, inputs)
    idle = _idle_vendors(base, inputs)
    if idle is not None:
        base, result = idle
    # "catalog list price of <product>": the catalogue's stated price, never a paid figure (router/list_prices.py)
    result = list_price_route(base, result, inputs.gazetteer) or result
    result = group_asked(relation, result, inputs.gazetteer)
    result = company_lead_asked(said_relation, result, inputs.gazetteer)
    if listing is not None and result.requires_clarification and all(
            r.startswith("period: the question names no period") for r in result.clarification_reasons):
        # "which products did Company B buy from Eta?": what was ever bought, i.e. every date on file up to the
        # as-of date (a listing of purchases, not a figure of one period); only when the period alone is missing
        retry = _route(up_to(base, inputs.as_of), inputs)
        if not retry.requires_clarification:
            base, result = up_to(base, inputs.as_of), retry.model_copy(update={"interpretation": "; ".join(
                [*([retry.interpretation] if retry.interpretation else []),
                 "no period named: every purchase on file up to the as-of date"])})
    if listing is None and result.requires_clarification and every_period(base) and all(
            r.startswith("period: the question names no period") for r in result.clarification_reasons):
        # "spend by quarter, all data", "group by month": the rows are the periods themselves, every one on file up
        # to the as-of date (router/breakdown_words.py); only when the period alone is missing
        retry = _route(up_to(base, inputs.as_of), inputs)
        if not retry.requires_clarification:
            base, result = up_to(base, inputs.as_of), retry.model_copy(update={"interpretation": "; ".join(
                [*([retry.interpretation] if retry.interpretation else []),
                 "no period named: every period on file up to the as-of date"])})
    opened = open_question(base) if result.requires_clarification else None
    if opened is not None:
        # "what's still open from Beta": the open (posted) amount; with no period, the state on the as-of date
        retry = _route(opened, inputs)
        if retry.requires_clarification and any(r.startswith("period: the question names no period")
                                                for r in retry.clarification_reasons):
            retry = _route(up_to(opened, inputs.as_of), inputs)
        if not retry.requires_clarification:
            base, result = opened, retry
            result = result.model_copy(update={"interpretation": "; ".join(
                [*([result.interpretation] if result.interpretation else []),
                 "'what is still open' read as the open (posted, not yet paid) spend"])})
    typos = measure_typos(base, (n for _, _, n in name_spellings(inputs.gazetteer))) \
        if result.requires_clarification or result.workflow == "unsupported" else ()
    if typos:
        # "Company B spnd YTD": a measure word one edit off is read as the word (router/measure_words.py)
        retry = _route(corrected(base, typos), inputs)
        typos = typos if not (retry.requires_clarification or retry.workflow == "unsupported") else ()
        result = retry if typos else result
    # (passages are no answer to names and a period: the fragment is read as spend before they are given)
    elliptic = elliptic_spend(base) if not typos and (
        result.requires_clarification or result.workflow == "unsupported"
        or result.workflow in _PASSAGE_WORKFLOWS) else None
    unread = unread_words(read(elliptic, inputs.gazetteer, inputs.as_of, inputs.catalog, inputs.resolver)) \
        if elliptic is not None else ()
    # "actuals Co C H2 2025", "burn KESTREL FY25": the word left in the measure slot read as the default figure,
    # stated and marked partial (router/default_measure.py); a figure the data lacks ("budget") stays asked
    # (a figure no metric computes, "emissions", keeps its refusal: never retried as the spend)
    assumed = _assumed_measure(elliptic, unread, inputs) if unread and elliptic is not None and (
        result.requires_clarification or result.workflow == "unsupported") \
        and not _UNSERVED_MEASURES.search(base) else None
    if assumed is not None:
        retry = _route(assumed.text, inputs)
        # (or asked only which company: the figure is settled, the company is the question left)
        answered = not (retry.requires_clarification or retry.workflow == "unsupported"
                        or retry.workflow in _PASSAGE_WORKFLOWS) or (
            retry.requires_clarification and asks_only_company(retry.clarification_reasons))
        assumed = assumed if answered else None
        if assumed is not None:
            result = retry.model_copy(update={"assumed_measure": assumed.words, "assumed_figure": assumed.figure})
            elliptic, unread = None, ()
    # "YTD Company A con Gamma, porfa": a subject and a period read, no measure: the spend, PARTIAL naming the words
    # left unread, unless they are shaped like a constraint or another ask (router/read_answer.py)
    read_only: tuple[str, ...] = ()
    if unread and elliptic is not None and result.requires_clarification and not asks_price(base) \
            and _answers_as_read(elliptic, unread, result, inputs):
        retry = _route(elliptic, inputs)
        if not (retry.requires_clarification or retry.workflow == "unsupported"
                or retry.workflow in _PASSAGE_WORKFLOWS):
            result, read_only, unread = retry, unread, ()
    if unread and result.requires_clarification:
        # "calibraton eqpt co a h2": a word no slot took is named back, never dropped by the spend reading
        result = result.model_copy(update={"clarification_question": named_back(result.clarification_question,
                                                                                unread)})
    if elliptic is not None and not unread and not read_only:
        # "Theta letzter Monat, Company B": names and a period, the measure unsaid, is the spend (router/elliptic.py)
        retry = _route(elliptic, inputs)
        elliptic = elliptic if not (retry.requires_clarification or retry.workflow == "unsupported") else None
        result = retry if elliptic else result
    elif not read_only:
        elliptic = None
    grouped = spend_asked_of_group(base, result, (n for kind, _, n in spellings if kind == "product_group"))
    if grouped:
        # "WG Papier, Xenon, 10.2025: Gesamtbetrag in EUR?": an amount of a group is its spend, not the catalogue's
        # list of it (router/group_spend.py); kept only when that reading answers
        retry = _route(f"spend {base}", inputs)
        grouped = not (retry.requires_clarification or retry.workflow in ("unsupported", "catalog_products"))
        result = retry if grouped else result
    # a metric-shaped question is never answered with passages: its figure, or what was not read asked back
    # (router/metric_shape.py)
    result, metric_note = _never_passages(base, result, inputs)
    # "which new products did X buy": a qualifier no known name stands for is asked about, never echoed unapplied
    result = _unknown_qualifiers(german or text, result, inputs.gazetteer) if listing is not None else result
    # a unit price or its change asked for no product: the product first, never a spend change (price_asks.py)
    result = price_without_product(base, result, inputs.gazetteer) or one_period_change(base, result) or result
    notes = [*([f"spoken numbers and names read as {spoken!r}"] if spoken else []),
             *([vocabulary_note(vocabulary)] if vocabulary.read else []),
             *relation_notes,
             *wildcard_notes,
             *([f"read as {shaped!r} (a relationship asked by its shape)"] if shaped else []),
             *([f"breakdown read as {grouping!r}"] if grouping else []),
             *([", ".join(f"{a!r} read as {b!r}" for a, b in typed[1])] if typed is not None else []),
             *([f"{', '.join(repr(w) for w in joins[1])} read with the group (its own subgroup, held in the group's "
                "figure)"] if joins is not None else []),
             *([f"{', '.join(repr(w) for w in goods[1])} read as the group's goods"] if goods is not None else []),
             *([foreign_note(foreign)] if foreign is not None else []),
             *([f"French/Spanish phrasing read as {romance!r}"] if romance else []),
             *([f"German phrasing read as {german!r}"] if german else []),
             *([f"read as {base!r}, listing the approved vendors with no counted spend"] if idle else []),
             *([f"read as {listing!r} (what was bought)"] if listing else []),
             *([f"read as {catalog_ask!r} (the catalogue)"] if catalog_ask else []),
             *([several[1]] if several is not None else []),
             *([correction_note(typos)] if typos else []),
             *([f"'the {subject.subject} agreement' read as the company's agreement of that subject (its approval "
                "list), not as a product-group filter"] if subject is not None else []),
             *([ELLIPTIC_NOTE] if elliptic else []),
             *([metric_note] if metric_note else []),
             *([f"{', '.join(repr(w) for w in assumed.words)} read as {assumed.figure}"] if assumed else []),
             *(["an amount of a product group read as the group's spend"] if grouped else []),
             *([set_aside_note(context.aside)] if context is not None and context.aside else []),
             *(["set aside as instructions, not followed: " + "; ".join(repr(a) for a in aside)] if aside else []),
             *(["the claim " + "; ".join(repr(c) for c in checked) + " checked against the approval table, not "
                "taken as true"] if checked else []),
             *([f"{guess!r} read as your guess at the answer, not as a constraint"] if guess else []),
             *([f"{', '.join(repr(r) for r in nouns.read)} read as the company noun (or the whole group)"]
               if nouns.read else []),
             *([f"{', '.join(repr(r) for r in tenant.read)} read as all companies of your tenant "
                f"({inputs.ctx.tenant_id})"] if tenant.read else []),
             *([f"{', '.join(repr(r) for r in group.read)} read as the group: all companies of your tenant "
                "together"] if group.read else [])]
    if tenant.other:
        # another tenant's name never widens or switches the scope (row-level security bounds it anyway): it is
        # named back, in the clarification the rest of the question needs (e.g. which company) or as a note
        said = other_tenant_question(tenant, inputs.ctx.tenant_id)
        notes.append(said)
        if result.requires_clarification:
            result = result.model_copy(update={
                "clarification_question": f"{said} {result.clarification_question}",
                "clarification_reasons": (f"tenant: {', '.join(tenant.other)} is not the caller's tenant",
                                          *result.clarification_reasons)})
    invalid = invalid_period(base)
    if invalid is not None and (result.workflow == "unsupported" or (
            result.requires_clarification and invalid[0] not in (result.clarification_question or ""))):
        # "KW 60", "the 5th half-year": a period that does not exist is named back whatever else the question
        # lacks (never a refusal, nor another question that leaves it out)
        said = (f"The period {invalid[0]!r} does not exist (a year has quarters Q1 to Q4, halves H1 and H2, twelve "
                "months and calendar weeks 1 to 52 or 53): which period do you mean?")
        result = _asked(result, f"{said} {result.clarification_question or ''}".strip(),
                        f"period: {invalid[0]!r} does not exist")
    if group.unclear:
        # "with group totals": totals per product group, per company or of the whole tenant? never guessed
        said = (f"I did not understand {', '.join(repr(u) for u in group.unclear)}: totals per product group, per "
                "company, or of all companies of your tenant together?")
        result = _asked(result, f"{said} {result.clarification_question or ''}".strip(),
                        f"group: {', '.join(group.unclear)} not understood")
    dropped = dropped_breakdown(german or text, result)
    if dropped is not None:
        # a breakdown asked and no grouping in the spend plan: named, never the total as complete (breakdown_check)
        result = _asked(result, dropped, "breakdown: asked but not in the plan")
    if figure_answer(result.workflow, result.requires_clarification):
        # "spend by L1 category" with no grouping planned: a breakdown phrase no reader took is asked about, never the
        # total presented as the breakdown (router/unused_spans.py)
        grouped_by = _reading_of(result.question, inputs)
        unplanned = unplanned_breakdown(grouped_by.text, reading_spans(grouped_by), result.workflow,
                                        [(step.tool, dict(step.arguments)) for step in result.execution_plan])
        # "quanto a mais ... do que com Beta": a comparison no reader took is asked about, never the sum of both sides
        compared = None if unplanned is not None else unplanned_comparison(
            grouped_by.text, reading_spans(grouped_by), result.workflow,
            [(step.tool, dict(step.arguments)) for step in result.execution_plan])
        if unplanned is not None or compared is not None:
            result = (_asked(result, breakdown_question(unplanned), f"breakdown: {unplanned!r} not read")
                      if unplanned is not None
                      else _asked(result, comparison_question(str(compared)), f"comparison: {compared!r} not read"))
    mismatched = mismatched_document_type(question, result)
    if mismatched is not None:
        # credit notes asked, invoices planned: named, never the other document type's figure (silent_checks)
        result = _asked(result, mismatched, "document type: asked but not in the plan")
    inverted = inverted_document_type(question, result)
    if inverted is not None:
        # credit notes left out or netted in, credit notes alone planned: named, never the opposite figure
        result = _asked(result, inverted, "document type: negated but planned")
    specified = unknown_specified_product(result.question, inputs.gazetteer)
    if specified is not None and specified not in (result.clarification_question or ""):
        # "27in monitors": a product named by a specification no catalogue name holds is asked about by name,
        # never the spend of everything else in its place (router/product_models.py)
        said = (f"I do not know the product {specified!r} in your catalogue (no catalogue product has that "
                "specification). Which product do you mean (its code, such as PRD-482, or its catalogue name)?")
        result = _asked(result, f"{said} {result.clarification_question or ''}".strip(),
                        f"product: {specified!r} is no product of the catalogue")
    if figure_answer(result.workflow, result.requires_clarification):
        # a word no reader took is named in the answer, never a figure of a broader question presented as complete
        # (router/unread_words.py)
        again = _reading_of(result.question, inputs)
        # (the words a listing's own rule read: "1st invoice", "did NOT invoice", router/supplier_activity.py)
        again = replace(again, consumed=(*again.consumed, *rule_spans(result.workflow, again.cue_text)))
        unread = unread_content(again.text, reading_spans(again), _vocabulary_names(inputs.gazetteer))
        unread = narrowed_restrictions(unread, [step.arguments for step in result.execution_plan])
        # an unread name in no constraint slot ("Re the Q-review deck —"): named, the figure stays (name_slots.py)
        unread = tuple(dict.fromkeys((*unread, *(u.text for u in again.unslotted))))
        # a token with a digit no reader took whole ("2025.10" read as 2025, "1Q" beside "2026") and no period of
        # the plan is written with: named, never the broader period's figure as complete (router/unused_spans.py)
        steps = [(step.tool, dict(step.arguments)) for step in result.execution_plan]
        unused = unused_digit_tokens(
            again.text, reading_spans(again), checked_sentences(again.text, reading_spans(again)),
            plan_periods([arguments for _, arguments in steps]),
            plan_counts([arguments for _, arguments in steps], len(inputs.gazetteer.companies)), figure_kinds(steps),
            grouped=any(_groups(arguments) for _, arguments in steps))
        unread = tuple(dict.fromkeys((*unread, *unused)))
        # "cumulative spend by month", "running total by month": the governed breakdown gives each period's own sum,
        # no running sum; the word is named back (the figure partial), never the monthly amounts shown as its reading
        running = _RUNNING_SUM.search(again.text) if again.breakdown.grain else None
        if running is not None and running.group(0) not in unread:
            unread = (*unread, running.group(0))
        negated = negated_listing(again.text, reading_spans(again))
        if negated:
            # "which suppliers did Company A not pay": a negated verb no reader took is never answered as the
            # total (the opposite figure, one figure for a list): asked, naming it (router/read_answer.py)
            result = _asked(result, negated_question(negated), f"negation: {', '.join(negated)} not read")
        dropped_base = _dropped_base_period(again, result.workflow, steps)
        if dropped_base is not None and not result.requires_clarification:
            # "how many invoices Q4 2025 -> Q1 2026, up or down?": a count planned for one period of a comparison
            # is never the answer: the base period is named back (no count comparison is planned)
            result = _asked(result, dropped_base, "comparison: the base period is not in the count plan")
        counted = counted_phrase(again.text, unused, result.workflow, steps)
        if counted is not None:
            # "2 productos con mayor gasto" planned as one total: N things asked, asked about (unused_spans.py)
            result = _asked(result, counted_question(counted), f"count: {counted!r} not read")
        result = result.model_copy(update={"unread": unread}) if unread else result
        # "Company A site": the unit noun read as the company, said in the restatement (router/name_slots.py)
        units_said = [f"'{word}' read as {name} itself" for word, name in again.unit_reads]
        if units_said:
            result = result.model_copy(update={"interpretation": "; ".join(
                [*([result.interpretation] if result.interpretation else []), *units_said])})
        # an amount range the plan does not bound its amounts by is named as not applied, never the figure of
        # every amount presented as the range's (router/breakdown_check.py)
        ranged = dropped_amount_range(german or text, result)
        if ranged is not None and ranged not in result.unread:
            result = result.model_copy(update={"unread": (*result.unread, ranged)})
        # "Company A spend 1.250 EUR Q1 2026": an amount a reader took and no step uses is named as not applied,
        # never the figure of every amount presented as complete (router/unused_spans.py)
        elif ranged is None and not result.requires_clarification:
            spare = tuple(a for a in unplanned_amounts(again.text, again.amounts, result.workflow, steps)
                          if a not in result.unread)
            if spare:
                result = result.model_copy(update={"unread": (*result.unread, *spare)})
        # "for my team": a unit no invoice records, named as not applied (router/silent_checks.py)
        scopes = tuple(s for s in unrecorded_scopes(german or text) if s not in result.unread)
        # a reference code of another system or a delivery place no reader took (silent_checks.py)
        scopes += tuple(q for q in unrecorded_qualifiers(again.text, reading_spans(again))
                        if q not in result.unread and q not in scopes)
        if scopes:
            result = result.model_copy(update={"unread": (*result.unread, *scopes)})
        # "Beta contribution % to total": a percentage asked, an amount planned; named, never the amount as the
        # share (router/figure_words.py)
        percent = unanswered_percent(german or text, [step.tool for step in result.execution_plan])
        # (any other figure than a percentage, a unit price or a count too: router/unused_spans.py)
        percent = percent or unplanned_percent(again.text, reading_spans(again), [
            (step.tool, dict(step.arguments)) for step in result.execution_plan])
        if percent is not None and percent not in result.unread:
            result = result.model_copy(update={"unread": (*result.unread, percent)})
        if read_only:
            # (the words the spend reading left unread: named, the figure marked partial)
            result = result.model_copy(update={"unread": tuple(dict.fromkeys((*result.unread, *read_only)))})
    if not notes:
        return result
    read_as = "; ".join([*([result.interpretation] if result.interpretation else []), *notes])
    return result.model_copy(update={"set_aside": aside, "interpretation": read_as})


class _FigureIntent:
    """The intent the metric-shape rule decides: a figure. It stands in for the classifier, whose passage intent
    (an identifier lookup above its floor) is what sent the metric-shaped question to passages; the rules'
    own intents stay selected, as always."""

    def predict(self, text: str, rule_intents: object = None) -> dict[IntentType, float]:
        return {"aggregate": 0.9, "exact_lookup": 0.0, "lexical": 0.0, "semantic": 0.0, "relationship": 0.0}


def _never_passages(base: str, result: RoutingResult, inputs: RouterInputs) -> tuple[RoutingResult, str | None]:
    """``result``, or for a metric-shaped question routed to passages (router/metric_shape.py) its figure or a
    clarification naming what was not read; with the note the answer states when the figure was assumed.

    The question is read again as a figure: with the spend put in front where the reading names no other measure
    or relationship (the default figure, said in the answer), else as typed with the figure intent decided. A
    complete plan is the answer (never when period-like text was left unread); what that reading asks back (the
    period, the company) is the clarification, with the unread period text and words named; otherwise the figure
    itself is asked.
    """
    if result.requires_clarification or result.workflow not in _PASSAGE_WORKFLOWS:
        return result, None
    reading = _reading_of(base, inputs)
    shape = metric_shape(reading, _DOCUMENT_CUES, _vocabulary_names(inputs.gazetteer))
    if shape is None:
        return result, None
    spend = shape.kind == "scope" and spend_compatible(reading)
    # (a claim quoted with the tenant's names in it, '"4 invoices above EUR 25,000 at Kestrel"', is the question's
    # own content: read without its quotation marks, which make it text to find)
    said = unquoted(base)
    retry = _route(f"spend {said}" if spend else said,
                   inputs if spend else replace(inputs, classifier=_FigureIntent()))  # type: ignore[arg-type]
    asked = retry.requires_clarification or retry.workflow == "unsupported"
    if not asked and retry.workflow not in _PASSAGE_WORKFLOWS and not shape.unread_periods and shape.scoped:
        return retry, ELLIPTIC_NOTE if spend else None
    reason = f"passages: a figure is asked ({'; '.join(shape.evidence)}) and its plan is not complete"
    said = named_unread(shape)
    if asked and retry.clarification_question and not all(
            r.startswith(("intent:", "measure:")) for r in retry.clarification_reasons):
        question = f"{said} {retry.clarification_question}".strip()
        # (which company alone stays the only reason: the service then asks each company's data, company_probe.py)
        reasons = (retry.clarification_reasons if asks_only_company(retry.clarification_reasons)
                   else (*retry.clarification_reasons, reason))
    else:
        question = not_read_question(shape, _interpretation(reading.entities, Constraints(
            time_range=reading.period.time_range)) or "your question")
        reasons = (reason,)
    return result.model_copy(update={
        "requires_clarification": True, "workflow": "clarification", "execution_plan": (),
        "clarification_question": question, "clarification_reasons": reasons}), None


def _compared_approvals(text: str, reading: Reading, inputs: RouterInputs) -> RoutingResult:
    """An approved-vendor list asked with a comparison between periods: asked about (router/approval_dates.py)."""
    from router.extensions import _result  # (extensions imports this module's helpers)

    reason = "combination: approved vendors compared between periods is not a governed figure"
    question = ("I can list the approved vendors of one period (or on one date), each with its validity dates, so "
                "that changes can be read from the list; a comparison of approvals between two periods is not a "
                "governed figure, and the spend comparison would answer another question. Which period (or date) "
                "do you want the approved vendors of?")
    return _result(text, reading, inputs, workflow="clarification", entities=reading.entities, reasons=[reason],
                   questions=[question], rule="approvals:compared")


def _idle_vendors(text: str, inputs: RouterInputs) -> tuple[str, RoutingResult] | None:
    """"Which approved vendors had no spend in Q1": routed as the approved vendors' spend in the period, whose
    vendors without a counted line are the answer (router/idle_vendors.py); ``None`` when it is no such question or
    that plan does not answer it."""
    if not idle_spans(text):
        return None
    gazetteer = inputs.gazetteer
    reading = currency_reading(read(text, gazetteer, inputs.as_of, inputs.catalog, inputs.resolver), gazetteer)
    narrowing = idle_narrowing(reading)
    if narrowing and not reading.entities.supplier_ids:
        # "approved vendors with no spend in USD / above 5,000 / no posted invoices": the list cannot carry the
        # narrowing, and dropping it (or the spend path's figure) would answer another question: asked about
        from router.extensions import _result  # (extensions imports this module's helpers)

        company = reading.entities.company_name or reading.entities.company_id
        return text, _result(text, reading, inputs, workflow="clarification", entities=reading.entities,
                             reasons=[f"combination: approved vendors without spend narrowed by {'; '.join(narrowing)}"
                                      " is not a governed list"],
                             questions=[idle_clarification(company, narrowing)], rule="approvals:idle_narrowed")
    asked = idle_question(reading)
    if asked is None:
        return None
    retry = _route(asked, inputs)
    if (retry.requires_clarification or retry.workflow != "spend"
            or not any(s.tool == "graph.find_approved_vendors" for s in retry.execution_plan)
            or not any(s.tool == "finance.aggregate_spend" for s in retry.execution_plan)):
        return None
    return asked, retry.model_copy(update={"idle_vendors": True})


def _listing_over_history(reading: Reading, as_of: dt.date) -> Reading:
    """A listing of invoices above an amount with no period ("Company A invoices over 30k", "any Xenon invoices
    above the 25k threshold?") covers every invoice on file up to the as-of date, as a listing of documents by
    status does (router/statuses.whole_history): documents are asked for as they stand, and the answer's "Read as"
    says which dates it took. A value (spend) with no period is still asked about."""
    cues, period = reading.cues, reading.period
    if (period.time_range is not None or period.ambiguous or not cues.invoices or reading.identifiers.invoice_numbers
            or not (cues.threshold_words or reading.measure == "invoices_above_threshold") or not reading.amounts
            or cues.spend):
        return reading
    everything = TimeRange(start=HISTORY_START, end=as_of + dt.timedelta(days=1),
                           label="all dates on file up to the as-of date", source_text="")
    return replace(reading, period=PeriodResolution(everything, False, None, period.mentions, period.spans))


#: The last readings made, by question: (the inputs they were read with, the reading). The unread-word check reuses
#: the reading of the question routed instead of reading it a second time (the same text and the same inputs
#: object read the same).
_READINGS: OrderedDict[str, tuple[RouterInputs, Reading]] = OrderedDict()
#: The API routes requests on several threads: the memo is changed under one lock.
_READINGS_LOCK = threading.Lock()


def _reading_of(text: str, inputs: RouterInputs) -> Reading:
    """The reading of ``text`` with ``inputs``: the one already made when this routing read it, else read now."""
    with _READINGS_LOCK:
        kept = _READINGS.get(text)
    if kept is not None and kept[0] is inputs:
        return kept[1]
    reading = read(text, inputs.gazetteer, inputs.as_of, inputs.catalog, inputs.resolver)
    _remember_reading(text, inputs, reading)
    return reading


def _remember_reading(text: str, inputs: RouterInputs, reading: Reading) -> None:
    with _READINGS_LOCK:
        _READINGS[text] = (inputs, reading)
        _READINGS.move_to_end(text)
        while len(_READINGS) > 16:
            _READINGS.popitem(last=False)


def _route(text: str, inputs: RouterInputs) -> RoutingResult:
    gazetteer = inputs.gazetteer
    # "in USD" / "foreign-currency invoices" read against the company's reporting currency (router/currency.py)
    reading = currency_reading(_reading_of(text, inputs), gazetteer)
    reading = _listing_over_history(reading, inputs.as_of)
    # "monitoring spend split alpenland vs kestrel": a row per named company (router/company_set.py)
    reading = split_between_companies(reading)
    # "crates: avg unit price": a group of one catalogue product names that product (router/sole_products.py),
    # and the answer says so
    sole = sole_product_reading(reading, gazetteer)
    # "for the Q3 planning round ... approved on 1 August 2026": the day is asked, the quarter is context
    # (router/approval_dates.py)
    dated_reading, dated = approval_day_reading(sole, inputs.as_of)
    # "... which vendors are approved in Q3? I believe the picture changes on 1 July.": a remark, no comparison
    dated_reading, remark = remark_comparison(dated_reading)
    if compared_approvals(dated_reading):
        return _compared_approvals(text, dated_reading, inputs)
    # "until when is Gamma approved for Alpenland": every approval of the supplier (router/approval_validity.py)
    valid = validity_reading(dated_reading)
    result = _route_reading(text, valid, inputs)
    if valid is not dated_reading:
        result = result.model_copy(update={"interpretation": validity_interpretation(result.interpretation)})
    if dated is not None and not result.requires_clarification:
        result = result.model_copy(update={"interpretation": "; ".join(
            [*([result.interpretation] if result.interpretation else []), context_note(dated)])})
    if remark is not None and not result.requires_clarification:
        result = result.model_copy(update={"interpretation": "; ".join(
            [*([result.interpretation] if result.interpretation else []),
             f"{remark!r} read as a remark (the approvals of the period asked show any change in it), not as a "
             "comparison asked"])})
    if sole is not reading and not result.requires_clarification and result.interpretation:
        note = sole_product_note(reading, sole, gazetteer)
        result = result.model_copy(update={"interpretation": f"{result.interpretation}; {note}"})
    return result


def _route_reading(text: str, reading: Reading, inputs: RouterInputs) -> RoutingResult:
    gazetteer = inputs.gazetteer
    # Follow-ups without context, invoice counts, a figure plus a document fact: their own plans (router/extensions).
    extended = route_extensions(text, reading, inputs)
    if extended is not None:
        return extended
    identifiers, mentions, cues = reading.identifiers, reading.mentions, reading.cues
    hits = list(apply_rules(text, identifiers, mentions.spans))
    document_fact = _named_document_fact(text, reading)
    if document_fact is not None:
        hits = [h for h in hits if h.intent != "relationship" or not _MANUAL_WORDS.search(text)]
        hits.append(RuleHit("named_document_fact", "semantic", RULE_CONFIDENCE["explanatory_words"], document_fact))
    groups = [m for m in mentions.product_groups
              if not any(s <= m.start and m.end <= e for s, e in reading.quote_spans)]
    if groups and _group_traversal(hits, reading):
        names = ", ".join(m.text for m in groups)
        hits.append(RuleHit("product_group_mention", "relationship", RULE_CONFIDENCE["product_group_mention"], names))
    if cues.filtered_figure and all(h.intent == "exact_lookup" for h in hits):
        # "Open invoices with Beta in Q1": the total over the invoices of that status (router/reader.py); the
        # only identifiers such a question may hold are the company's and suppliers' (COMP-A, SUP-18).
        hits.append(RuleHit("invoice_filter", "aggregate", RULE_CONFIDENCE["aggregation_words"], "invoice filter"))
    probabilities = (
        inputs.classifier.predict(text, rule_intents={h.intent for h in hits})
        if inputs.classifier is not None
        else None
    )
    intents = _combine(tuple(hits), probabilities)
    selected = {i.type for i in intents if i.selected}
    period, breakdown, amounts = reading.period, reading.breakdown, reading.amounts
    reasons: list[str] = []
    questions: list[str] = []

    entities, entity_reasons = reading.entities, list(reading.entity_problems)
    if (entities.company_id and "company_id" in breakdown.group_by
            and (len(breakdown.group_by) > 1 or breakdown.grain)):
        # "Alpenland spend by supplier and company": one company named, so its rows are the company's own; the
        # other grouping is the breakdown asked (the company metric takes no company grouping)
        breakdown = replace(breakdown, group_by=tuple(d for d in breakdown.group_by if d != "company_id"))
    entity_reasons += unknown_name_problems(reading, gazetteer)
    # "all entities other than Company A": the scope words are read with the exclusion (the company left)
    all_companies = all_companies_scope(reading, len(gazetteer.companies))
    # "across all companies", "group-wide", "all three entities", "spend per company": every company of the tenant
    # together (its rows are the tenant's under row-level security), when they share one reporting currency.
    company_scope = _company_scope(reading, all_companies, gazetteer)
    # "Xenon and Ypsilon combined", "group-wide excluding Company C": the companies named (or left) together
    # ("total group spend (Alpenland + Kestrel)": the scope word restated by the companies named together)
    # ("X and Y spend per company and combined": the per-company rows are the named companies', not the tenant's)
    named_set = company_set(reading, gazetteer) if company_scope is None or (
        (all_companies is not None and len(reading.mentions.companies) > 1)
        or (per_company_table(reading) and several_named(reading))) else None
    if named_set is None and company_scope is not None:
        named_set = restated_whole(reading, gazetteer, all_companies)
    if named_set is not None:
        company_scope = named_set.companies
    nested = _group_within_group(reading, gazetteer)
    if nested is not None:
        # "Pressure Sensors' share of our Sensors spend": two groups, one inside the other, in a share question
        # are its part and its whole, not an ambiguity.
        part = nested[0]
        entity_reasons = [r for r in entity_reasons if not r.startswith("Which product group do you mean")]
        entities = entities.model_copy(update={"product_group_id": part.product_group_id,
                                               "product_group": part.group_name})
    # "data loggers / sensors", "compressors and compressor spare parts": both groups meant, read as the one group
    # holding exactly their union (router/group_unions.py), never asked back as a choice between them
    union = joined_groups_union(reading.text, reading.mentions.product_groups, gazetteer) if nested is None else None
    # "packaging ... boxes + crates both": a group with parts of its own holding all its products is that group
    union = union or (restated_parts(reading.mentions.product_groups, gazetteer, reading.excluded_group_ids)
                      if nested is None and subgroup_only(reading.text, reading.mentions.product_groups,
                                                          gazetteer) is None else None)
    union_note = f"; {union.note}" if union is not None else ""
    # "crates only (not boxes in general)": the subgroup marked as the only one meant beside its parent set aside
    # as the general case is the reading (router/group_only.py), not a choice between the two
    alone = (subgroup_only(reading.text, reading.mentions.product_groups, gazetteer)
             if nested is None and union is None else None)
    if alone is not None:
        entity_reasons = [r for r in entity_reasons if not r.startswith("Which product group do you mean")]
        entities = entities.model_copy(update={"product_group_id": alone.product_group_id,
                                               "product_group": alone.group_name})
        union_note = f"; {alone.group_name} only (not its parent group in general)"
    # "sensors or cables", "temperature + flow sensors": groups written as one list are the set of them (each with
    # its subgroups), never a choice between them, for a figure that adds up (router/set_words.py)
    group_set = _group_set(reading, gazetteer) if nested is None and union is None and alone is None else ()
    if group_set:
        entity_reasons = [r for r in entity_reasons if not r.startswith("Which product group do you mean")]
        names = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
        entities = entities.model_copy(update={"product_group_id": group_set[0], "product_group": names[group_set[0]],
                                               "product_group_ids": group_set})
        union_note = f"; {' + '.join(names[g] for g in group_set)} read as one set of groups (added up)"
    elif union is not None:
        entity_reasons = [r for r in entity_reasons if not r.startswith("Which product group do you mean")]
        entities = entities.model_copy(update={"product_group_id": union.group_id, "product_group": union.group_name})
    else:
        mentioned = reading.mentions
        loose = slash_joined_unknown(reading.text, mentioned.product_groups, [
            (m.start, m.end) for m in (*mentioned.companies, *mentioned.suppliers, *mentioned.products,
                                       *mentioned.product_groups)])
        if loose is not None:
            # "pumps / sensors": the other item of the list names no group; asked, never left for Sensors alone
            entity_reasons.append(f"I do not know {loose!r} as a product group of your catalogue (it is listed with "
                                  "a product group by '/'). Which product group do you mean?")
    currencies = reading.currencies
    company = gazetteer.company(entities.company_id) if entities.company_id else None
    reporting_currency = company.reporting_currency if company else None

    # (a word of a read group's name, "Calibration Equipment", is no document's topic)
    document_cue = bool(_DOCUMENT_CUES.search(mask(text, tuple((m.start, m.end) for m in mentions.product_groups)))
                        or cues.summary or cues.agreement_question or reading.quoted
                        or identifiers.invoice_numbers or identifiers.contract_ids)
    unserved_measure = _UNSERVED_MEASURES.search(reading.cue_text) or (
        _UNSERVED_RANKING_MEASURES.search(reading.cue_text) if reading.analysis.ranking is not None else None)
    # a period named but impossible ("dated 30 February 2026") still scopes a figure: the period is asked about
    # (every company, a named set of them, or a figure per company is a company scope too: "which companies bought
    # from Iota last quarter and how much each")
    figure_scope = ((entities.company_id is not None or company_scope is not None)
                    and (period.time_range is not None or period.ambiguous)
                    and not document_cue and not unserved_measure)
    listed_by_amount = cues.invoices and reading.threshold_amount is not None
    # "product breakdown", "by product": the word names the breakdown's grouping, not a catalogue question
    catalog_question = bool(cues.approved or cues.approves
                            or _CATALOG_WORDS.search(mask(reading.cue_text, reading.breakdown.spans))
                            or (entities.product_group and cues.group_traversal))
    if (figure_scope and (cues.spend or listed_by_amount) and not cues.unit_price and "aggregate" not in selected
            and not catalog_question):
        # "What did Company B pay Epsilon last quarter?", "Company A invoices from Iota at least EUR 20,000 YTD": a
        # company, a period and a spend word (or invoices and an amount) with nothing to read in a document is a
        # figure, whatever the intent rules missed.
        selected.add("aggregate")
        intents = tuple(i.model_copy(update={"selected": True, "source": "rule"}) if i.type == "aggregate" else i
                        for i in intents)
        rule_aggregate = RuleHit("figure_scope", "aggregate", RULE_CONFIDENCE["aggregation_words"], "company+period")
        hits.append(rule_aggregate)
    spend_shaped = (
        "aggregate" in selected and cues.spend and not identifiers.invoice_numbers and not cues.unit_price
    )
    other_metric = "aggregate" in selected and not spend_shaped
    # Purchased units and amount-filtered invoice lists are measured over a company's invoices in a period,
    # exactly like spend, so a missing company or period is asked for the same way.
    quantity_shaped = other_metric and not cues.unit_price and cues.quantity and cues.purchase
    filter_shaped = other_metric and not identifiers.invoice_numbers and cues.invoices and (
        cues.threshold_words or reading.measure == "invoices_above_threshold")  # (a listing is one at zero)
    # (an approval a named document states, "per agreement-2025-09, from when is Iota approved for cabling?", is
    # read in that document: its company is the document's, never asked for)
    approved_question = ("relationship" in selected and cues.approved and not spend_shaped
                         and not (identifiers.contract_ids or identifiers.document_ids))
    needs_company = spend_shaped or approved_question or quantity_shaped or filter_shaped
    needs_period = spend_shaped or quantity_shaped or filter_shaped
    catalog_metric = reading.catalog_metric
    if (catalog_metric is not None and catalog_metric.name == "finance.invoice_count"
            and reading.measure == "invoices_above_threshold" and reading.threshold_amount is not None
            and reading.threshold_amount.text.strip()):
        # "invoice count over EUR 20k": the count takes no amount bound; the governed listing of the invoices
        # above it is the answer (its number of rows, each invoice named), never the count without the bound
        catalog_metric = None
    ranked_documents = _document_ranking(reading, catalog_metric, inputs.metrics)
    analyst, wanted = (None, None) if ranked_documents is not None else _analyst_metric(
        reading, entities, selected, spend_shaped, inputs.metrics)
    if ranked_documents is not None:
        catalog_metric = ranked_documents[0]
        if (company_scope is None and entities.company_id is None and entities.supplier_ids
                and not reading.mentions.companies and len(gazetteer.companies) > 1
                and len({c.reporting_currency for c in gazetteer.companies}) == 1):
            # "the 3 largest Gamma invoices since January": a supplier's invoices ranked over every company it
            # invoices (each invoice is named with its company), never "which company?"
            company_scope = tuple(gazetteer.companies)
    if wanted is not None and analyst is None:
        # The question needs a governed shape this catalog does not serve: never the plain total in its place.
        reasons.append(f"metric: {wanted} is not in the catalog")
        questions.append(f"This question needs the governed metric {wanted}, which this catalog does not serve "
                         "(/v1/metrics lists what can be computed). Do you want a plain total instead?")
    if analyst is not None:
        # A ranking, share, comparison, exclusion, document-type or currency request: its governed metric's own
        # parameters say what the question must give (the phrase-named catalog metric gives way to it).
        catalog_metric = analyst
    if catalog_metric is not None:
        # A metric the catalog names by phrase: its own parameters say what the question must give.
        required = {name for name, _, req in catalog_metric.parameters if req}
        spend_shaped, other_metric, quantity_shaped, filter_shaped, approved_question = False, True, False, False, False
        # A metric whose company may be left out for an explicit all-companies question still needs one otherwise.
        needs_company = "company_id" in required or (catalog_metric.name in _COMPANY_SCOPED and company_scope is None)
        needs_period = "start_date" in required or "month" in required
        selected.add("aggregate")
    elif cues.invoice_count and "aggregate" in selected and reading.threshold is None:
        # A count router/extensions.py did not read as one (it plans finance.invoice_count); with an amount it is
        # the listing of invoices above it. The total spend must not be served in its place.
        reasons.append("metric: the question counts something finance.invoice_count does not count")
        questions.append("I can count invoices and credit notes (finance.invoice_count: by company, period, "
                         "supplier, product group, product, status and document type). What should be counted?")
    if cues.price_comparison and not identifiers.product_codes and catalog_metric is None:
        # "Which supplier is cheaper?" compares unit prices, which exist per product and month only; passages
        # that happen to mention prices are not an answer.
        reasons.append("product: a price comparison needs the product it compares")
        questions.append("Cheaper for which product? Unit prices are compared per product (a product code such as "
                         "PRD-482) and calendar month.")
    elif (reading.measure == "unsupported" and cues.unit_price and not entities.product_codes
          and catalog_metric is None and not reading.not_understood):
        # "What is the average unit price Company A paid?": a unit price exists per product only; the missing
        # product is asked for, never a refusal (nor an average over everything bought).
        reasons.append("product: a unit price needs the product it is the price of")
        catalogue = {p.product_code: p.product_name for p in gazetteer.products}
        # a name several products share, or a group's name said of one product ("the pressure sensor"): the
        # products it could be are listed
        named_like = [(m, tuple(p.product_code for p in gazetteer.products
                                if m.text.lower().rstrip("s") in p.product_name.lower()))
                      for m in reading.mentions.product_groups]
        ambiguous = [(m.text, m.candidates) for m in reading.mentions.products if len(m.candidates) > 1] + [
            # "boxes": the group's own catalogue products unless several products are named like it
            (m.text, like if len(like) > 1 or not m.resolved else tuple(sorted(group_products(m.resolved, gazetteer))))
            for m, like in named_like]
        ambiguous = [(t, c) for t, c in ambiguous if 1 < len(c) <= 8]
        questions.append(
            f"{ambiguous[0][0]!r} could be " + " or ".join(f"{c} ({catalogue.get(c, c)})" for c in ambiguous[0][1])
            + ". Which one do you mean?" if ambiguous else
            "Which product do you mean? A unit price is computed for one product at a time (its product code, such "
            "as PRD-482, or its catalogue name).")
    # A traversal that is also a text question ("How do I wire the sensor? ... every supplier") searches
    # documents; its unknown capitalized words are search terms, not constraints.
    figure_or_relation = (spend_shaped or other_metric or needs_company or "aggregate" in selected
                          or ("relationship" in selected and not selected & {"semantic", "lexical"}))
    excluded = [*reading.excluded_supplier_ids, *reading.excluded_group_ids, *reading.excluded_product_codes]
    # the exclusions the planned list or ranking applies itself (router/set_words.py's rule: every shape whose
    # governed query can filter on an exclusion takes it; only the rest is named)
    excluded = unapplied_exclusions(reading, catalog_metric if analyst is None else None, excluded)
    if excluded and analyst is None and (figure_or_relation or "relationship" in selected):
        # An exclusion only a governed metric's not-in filter applies: never a list or total that drops it.
        reasons.append(f"exclusion: {', '.join(excluded)} cannot be left out of this answer")
        questions.append(f"I can leave {', '.join(excluded)} out of governed spend figures (totals, rankings, "
                         "shares, comparisons), but not out of this answer. Do you want such a figure instead?")
    # (the word that adds the named companies up, "... Kestrel Lebensmittel together", is read: the set's cue)
    not_understood = tuple(u for u in reading.not_understood if named_set is None or not adds_up(u.text))
    if figure_or_relation and not_understood:
        # Span accounting: a constraint the reading could not place is asked about, never dropped.
        # A breakdown span is asked below, with the metric's allow-list.
        unread_reasons, unread_questions = unread_clarifications(not_understood)
        reasons.extend(unread_reasons)
        questions.extend(unread_questions)
    elif company_slots := [u for u in not_understood if u.kind == "name" and names_a_company(u.text)]:
        # "Company D AP Q1 26": a company the tenant does not have is asked about, never passages in its place
        unread_reasons, unread_questions = unread_clarifications(company_slots)
        reasons.extend(unread_reasons)
        questions.extend(unread_questions)
    elif overdue_as_at(reading.text, not_understood):
        # "which invoices are overdue as at 15 May 2026, given its payment terms": invoices asked at a day, not a
        # clause; passages about payment terms would answer another question (router/as_at.py)
        unread_reasons, unread_questions = unread_clarifications(overdue_as_at(reading.text, not_understood))
        reasons.extend(unread_reasons)
        questions.extend(unread_questions)

    if unserved_measure and not document_cue and (catalog_metric is None or analyst is not None):
        # (a ranking, share or comparison "by number of complaints" orders by that measure, not by spend)
        # A measure no governed metric computes: never the spend of the named scope, nor passages, in its place.
        measure = unserved_measure.group(0)
        reasons.append(f"measure: {measure!r} is not a measure any governed metric computes")
        questions.append(f"I cannot compute {measure!r}: no governed metric measures it. Governed figures are "
                         "spend (totals, breakdowns, rankings, shares, comparisons), invoice counts, invoices by "
                         "amount, unit prices and units. Which of these do you want?")
    # "Total spend across all companies": the governed total of each company, side by side (companies may report
    # in different currencies, and no metric adds companies up).
    per_company = (tuple(gazetteer.companies) if all_companies is not None and entities.company_id is None
                   and spend_shaped and analyst is None and catalog_metric is None and len(gazetteer.companies) > 1
                   and not reading.excluded_supplier_ids and not reading.excluded_group_ids
                   and not reading.excluded_product_codes and company_scope is None
                   else ())
    # The scope's figure: the total of every company with each company's part ("spend per company", "total
    # spend group-wide", "control equipment spend across all companies w/o PLC modules"), a ranking across them,
    # or one company's share of their total ("Company A's share of group-wide spend").
    # "xenon+ypsilon" in a tenant of exactly those two: every company of the tenant, for any measure
    whole = whole_tenant(reading, gazetteer) if named_set is not None else None
    scope_kind: str | None = None
    if company_scope is not None and entities.company_id is None and (
            # "net of VAT", "unit price": a measure other than spend is never answered by the companies' spend
            (spend_shaped and catalog_metric is None and analyst is None and reading.measure is None)
            or (analyst is not None and analyst.name == SPEND_METRIC)):
        scope_kind = "total"
    elif (company_scope is not None and entities.company_id is None
          and ((analyst is not None and analyst.name in _COMPANY_SCOPED)
               or (analyst is None and catalog_metric is not None and catalog_metric.name in _COMPANY_SCOPED)
               # "invoices over 10k, all companies": the governed listing takes the company as optional
               or (analyst is None and catalog_metric is None and filter_shaped))
          and (named_set is None or whole is not None)):
        scope_kind = "ranking"  # a ranking or share over every company's lines, one governed call
    elif (company_scope is not None and all_companies is not None and entities.company_id is not None
          and not entities.supplier_ids and not entities.product_group_id and _SHARE_WORDS.search(reading.cue_text)):
        scope_kind = "company_share"
    if scope_kind in ("total", "company_share"):
        analyst, catalog_metric, spend_shaped, other_metric = None, None, True, False
    if named_set is not None and (scope_kind == "total" or whole is not None):
        # the companies named together are the scope: "which company do you mean" is answered
        entity_reasons = [r for r in entity_reasons if not resolves_company_set(r)]
    if named_set is not None and scope_kind != "total" and whole is not None:
        # every company of the tenant named together: the all-companies scope of any other measure
        named_set, all_companies = None, all_companies or whole
        company_scope = company_scope if scope_kind is not None else None
    elif named_set is not None and scope_kind != "total":
        company_scope = None  # a set of companies is governed for total spend only: asked about as before
    if scope_kind is not None and company_scope is not None:
        hits.append(RuleHit("company_set" if named_set is not None else "all_companies", "aggregate",
                            RULE_CONFIDENCE["aggregation_words"], ",".join(c.company_id for c in company_scope)))
        if breakdown.group_by == ("company_id",) and breakdown.grain is None:
            # "spend per company": the total and each company's part (a step of its own); with a second
            # dimension or a grain ("by company and quarter", "by company and supplier") the company stays a
            # dimension of the one governed call, never dropped for a one-dimension table
            breakdown = replace(breakdown, group_by=())
        reporting_currency = company_scope[0].reporting_currency
    juxtaposed = _juxtaposed_names(reading, gazetteer)
    if juxtaposed:
        # "Delta Gamma": two names side by side with no "and" between them are one unknown name or a list.
        entity_reasons.append(f"{juxtaposed!r} reads as two names side by side: do you mean each of them (write "
                              "'and' between them), or one name I do not know?")
    known_codes = {p.product_code for p in gazetteer.products}
    unknown_codes = [c for c in entities.product_codes if known_codes and c not in known_codes]
    if unknown_codes and (figure_scope or "aggregate" in selected or catalog_metric is not None or other_metric):
        # A product code the catalogue does not know: "no data" would read as "not bought"; it is named instead.
        entity_reasons.append(f"I do not know the product {', '.join(unknown_codes)} in your catalogue (no product of "
                              "that code). Which product do you mean?")
    elif unknown_codes and _PRODUCT_FIGURE.search(reading.text) and not document_cue:
        # "how much of PRD-123 did we buy", "average unit price of PRD-999": a figure of a product the catalogue
        # does not know is asked about, never passages that happen to mention other products in its place
        reasons.append(f"entity: product {', '.join(unknown_codes)} is not in the catalogue")
        questions.append(f"I do not know the product {', '.join(unknown_codes)} in your catalogue (no product of "
                         "that code). Which product do you mean?")
    if entity_reasons and (needs_company or "aggregate" in selected or "relationship" in selected):
        reasons.extend(f"entity: {r}" for r in entity_reasons)
        questions.extend(entity_reasons)
    elif scope_kind is not None:
        pass  # every company of the tenant, restated in the answer
    elif all_companies is not None and entities.company_id is not None:
        # "Company A spend across all companies": one company and all of them; neither is dropped silently.
        reasons.append(f"company: {entities.company_name or entities.company_id} and {all_companies.group(0)!r} "
                       "are both named")
        questions.append(f"Do you mean {entities.company_name or entities.company_id} only, or each of the tenant's "
                         f"companies ({_company_names(gazetteer)})?")
    elif (all_companies is not None and not per_company and (needs_company or "aggregate" in selected)
          # a unit price is governed over every company of the tenant when none is named (company optional)
          and not (analyst is not None and analyst.name in (AVERAGE_PRICE, DOCUMENT_PRICE))
          and not (analyst is None and catalog_metric is None and cues.unit_price and not spend_shaped)):
        # A ranking, share, comparison or listing is governed per company: a figure "across all companies" would
        # be one company's, or a sum no metric defines.
        reasons.append(f"company: {all_companies.group(0)!r} asks for a figure across companies")
        questions.append(f"This figure is governed per company, not across companies ({all_companies.group(0)!r}). "
                         f"Which company do you mean ({_company_names(gazetteer)}), or do you want the total spend "
                         "of each company?")
    elif needs_company and entities.company_id is None and not per_company:
        if len(gazetteer.companies) == 1:
            only = gazetteer.companies[0]
            entities = entities.model_copy(update={"company_id": only.company_id, "company_name": only.company_name})
            company = only
            reporting_currency = only.reporting_currency
        else:
            names = ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies) or "none known"
            reasons.append("company: the question does not say which company")
            questions.append(f"Which company do you mean? Known companies: {names}.{offer_all(gazetteer)}")
    elif (entities.company_id is None and not per_company and len(gazetteer.companies) > 1
          and (one := _ONE_COMPANY.search(reading.cue_text))
          and ("aggregate" in selected or catalog_metric is not None)):
        # A listing may span the tenant's companies, but "our company" names one of them without saying which:
        # all of them would answer another question.
        names = ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies)
        reasons.append(f"company: {one.group(0)!r} does not say which company")
        questions.append(f"Which company do you mean? Known companies: {names}.")
    if approval_unnamed(reading.text, entities.supplier_ids):
        # "When does the approval expire?": whose approval is asked first (the company alone names no approval)
        reasons.insert(0, "supplier: the question does not say whose approval")
        questions.insert(0, "Which supplier's (vendor's) approval do you mean?")
    if (entities.company_id is None and not entities.supplier_ids and not identifiers.contract_ids
            and not identifiers.document_ids and len(gazetteer.companies) > 1
            and (which := _ONE_AGREEMENT.search(reading.cue_text))):
        # "The payment terms in our agreement": each company has agreements with several suppliers; passages of
        # any of them would answer for an agreement the user did not mean.
        names = ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies)
        reasons.append(f"document: {which.group(0)!r} does not say which company's agreement")
        questions.append(f"Which agreement do you mean? {which.group(0)!r} names one agreement without saying which "
                         f"company's (known companies: {names}) or with which supplier; name the company and the "
                         "supplier, or the agreement id.")
    analysis_now = reading.analysis
    # "list the invoices billed in USD": the governed listing takes the invoice currency as a filter (the planner
    # passes it); another currency reading of a listing ("in original currency") is still asked about
    listed_in_code = (reading.measure == "invoices_above_threshold" and analysis_now.document_currency is not None
                      and analysis_now.document_currency in issued_currencies(reading.cue_text))
    if (reading.measure == "invoices_above_threshold" or cues.invoice_list_in_currency) and (
            analysis_now.original_currency or analysis_now.document_currency) and not listed_in_code:
        # "list Company A's invoices billed in USD": the governed invoice listing takes no invoice currency, and the
        # spend of those invoices is another answer; neither is given in the other's place.
        listed_in = f"{analysis_now.document_currency} " if analysis_now.document_currency else "one currency's "
        reasons.append(f"currency: the invoice listing cannot be limited to {listed_in.strip()} invoices")
        questions.append(f"I can list the invoices in every invoice currency (amounts in the reporting currency), or "
                         f"give the spend of the {listed_in}invoices in their own currency and in the reporting "
                         "currency; the invoice listing cannot be limited to an invoice currency. Which one do you "
                         "want?")
    compared = [a for a in amounts if a.comparator in ("above", "below")]
    amount_range = _AMOUNT_RANGE.search(reading.text)
    ranged = amount_range is not None or len({a.comparator for a in compared}) > 1
    if ranged and cues.invoices and catalog_metric is None and reading.measure != "invoices_above_threshold":
        # Two bounds the governed listing cannot take together (e.g. in two currencies, or the lower above the
        # upper): asked, never one side of them.
        bounds = repr(amount_range.group(0)) if amount_range else " and ".join(repr(a.text) for a in compared)
        reasons.append(f"amount: a range ({bounds}) is not one threshold")
        questions.append(f"I cannot list invoices for {bounds} as written: a range needs its two bounds in one "
                         "currency, the lower one first. Which amounts do you mean?")
    if compared and cues.invoices and catalog_metric is None and (
            len({a.comparator for a in compared}) == 1 or reading.upper_threshold is not None):
        named = next((a.currency for a in compared if a.currency), None)
        if named and reporting_currency and named != reporting_currency:
            # Invoice totals are compared in the reporting currency: an amount in another one is asked about.
            reasons.append(f"currency: the threshold is in {named}, not the reporting currency {reporting_currency}")
            questions.append(f"Invoice totals are compared in {reporting_currency}, {entities.company_name}'s "
                             f"reporting currency; a threshold in {named} is not converted. Do you mean the amount "
                             f"in {reporting_currency}?")
    # "Company A spend in Q3 2025 and Q1 2026": a plain total per part of a list that is no single range.
    # A plain company spend figure that one governed call per period can give: the shape both period-list plans
    # below take (the per-part steps carry no amount bound, breakdown, exclusion or analyst measure).
    # (spend with approved vendors is no plain total: the per-part calls carry no approval filter, so a list of
    # months would silently answer the company's whole spend; the approved-vendor plan takes the union instead)
    plain_total = (spend_shaped and analyst is None and catalog_metric is None and not breakdown.group_by
                   and not cues.approved
                   and not breakdown.grain and not amounts and entities.company_id is not None
                   and not reading.excluded_supplier_ids and not reading.excluded_group_ids
                   and not reading.excluded_product_codes)
    per_part = period.parts if period.ambiguous and period.parts and plain_total else ()
    # "Kestrel spend H2 2025 and Q1 2026": adjacent periods listed are their union, but the list may as well ask
    # for each part's figure; a plain total gives both, never one reading silently in place of the other.
    # (only over the recognized statuses: an open-invoices reading or an unread word keeps the union's own path,
    # which takes it or names it)
    listed = (period.time_range.parts if isinstance(period.time_range, ListedPeriods) and not period.ambiguous
              and plain_total and tuple(reading.statuses) == ("posted", "paid") and not reading.not_understood
              and not open_question(reading.text) else ())
    if needs_period or (approved_question and period.ambiguous):
        if period.ambiguous and not per_part:
            reasons.append(f"period: {period.reason}")
            questions.append(
                f"Which period do you mean ({period.reason})? For example 2026-Q1, March 2026 or "
                "between 2026-01-01 and 2026-04-01."
            )
        elif period.time_range is None and needs_period and not per_part:
            reasons.append("period: the question names no period")
            questions.append("For which period? For example last quarter, 2026-Q1, March 2026 or a date range.")
        elif needs_period and period.point_in_time and period.time_range is not None:
            # "Spend as of March 2026": cumulative to the end of March, or March alone? Either answer would be a
            # silent guess at a different period, so both are named with their dates.
            reasons.append(f"period: {period.point_in_time!r} names a point in time, not a period")
            questions.append(_point_in_time_question(period.point_in_time, period.time_range))
    if spend_shaped:
        if cues.currency_unchosen:
            reasons.append("currency: the question asks for an unspecified currency (local/original/invoice)")
            questions.append(
                f"Spend is reported in one currency, {reporting_currency or 'the reporting currency'} "
                "(converted at the corporate rate on each posting date). Report it in that currency?"
            )
        elif len(currencies) > 1:
            reasons.append(f"currency: more than one currency named ({', '.join(currencies)})")
            questions.append(f"Which currency should the total be reported in: {' or '.join(currencies)}?")
        elif currencies and reporting_currency and currencies[0] != reporting_currency:
            reasons.append(f"currency: {currencies[0]} is not the reporting currency {reporting_currency}")
            # Name the currency asked for: a figure is never converted to it, nor is a EUR figure labelled so.
            questions.append(
                f"Spend is reported in {reporting_currency}, {entities.company_name}'s reporting currency "
                f"(converted at the corporate rate on each posting date); a conversion to {currencies[0]} is not "
                f"governed. Report it in {reporting_currency}, or do you want the spend of the invoices issued in "
                f"{currencies[0]}, in their own currency?"
            )
        if cues.net_basis:
            reasons.append("basis: net (tax-exclusive) spend requested; governed spend includes tax")
            questions.append(
                "Governed spend is net amount plus tax, in the reporting currency. Do you want that gross spend, "
                "or a tax-exclusive figure (not available here)?"
            )
        if cues.status_choice:
            reasons.append("basis: paid and posted invoices are named as alternatives")
            questions.append(
                "Spend counts posted and paid invoices by default. Do you want both, or paid invoices only?"
            )
        if cues.other_basis:
            word = cues.other_basis
            reasons.append(f"basis: {word!r} is not the invoiced-spend basis")
            questions.append(
                f"Spend here means posted and paid supplier invoices, not {word}. Do you want invoiced spend?"
            )
    status_asked = reading.excluded_status
    # "draft invoices total": the marts hold drafts and the spend metric takes the status, so the total over drafts
    # is served, labelled as drafts (not recognized spend); cancelled documents no metric serves.
    drafts_total = (status_asked == "draft" and catalog_metric is None and analyst is None and spend_shaped
                    and not cues.invoice_count)
    if status_asked and not drafts_total and (catalog_metric is None or analyst is not None) and (
            spend_shaped or other_metric or "aggregate" in selected):
        # Governed figures never count cancelled or draft invoices; answering "no data" would read as "none
        # were cancelled".
        reasons.append(f"status: {status_asked} invoices are not counted by any governed figure")
        questions.append(
            f"Governed figures count posted and paid invoices only; {status_asked} invoices are excluded and cannot "
            "be totalled or counted here. Do you want the figure over posted and paid invoices instead?"
        )
    breakdown_metric = catalog_metric
    if breakdown_metric is None and (spend_shaped or other_metric):
        # The spend workflow's breakdowns are bounded by its metric's allow-list in the catalog; another measure
        # (unit price, tax, units, thresholds) is served without a breakdown.
        # (a breakdown asked with no figure named at all, "our monthly trend H2 2025, by month": a company's figure
        # over a period is its spend, router/default_measure.py, so the spend metric's groupings bound it too)
        unnamed = other_metric and not (cues.unit_price or cues.quantity or cues.invoices or cues.threshold_words
                                        or cues.invoice_count or identifiers.invoice_numbers)
        breakdown_metric = next((m for m in inputs.metrics if m.name == SPEND_METRIC), None) \
            if spend_shaped or unnamed else None
    if (spend_shaped or other_metric) and analyst is None:
        allowed_dims = breakdown_metric.group_by if breakdown_metric else ()
        allowed_grains = breakdown_metric.grains if breakdown_metric else ()
        unserved = [*breakdown.unknown, *(d for d in breakdown.group_by if d not in allowed_dims),
                    *([breakdown.grain] if breakdown.grain and breakdown.grain not in allowed_grains else [])]
        if unserved:
            what = ", ".join(repr(dimension_phrase(u)) for u in unserved)
            label = breakdown_metric.label if breakdown_metric else "This figure"
            offered = _offered(allowed_dims, allowed_grains)
            name = breakdown_metric.name if breakdown_metric else "the metric"
            reasons.append(f"breakdown: {what} is not a grouping {name} offers")
            questions.append(f"I cannot break {label.lower() if breakdown_metric else 'this figure'} down by "
                             f"{what}; {offered}. Which one do you want?")
    if analyst is not None and breakdown.unknown:
        # A ranking, share, comparison or filtered figure "per buyer": the grouping is named, never dropped.
        what = ", ".join(repr(dimension_phrase(u)) for u in breakdown.unknown)
        reasons.append(f"breakdown: {what} is not a grouping {analyst.name} offers")
        questions.append(f"I cannot break {analyst.label.lower()} down by {what}; "
                         f"{_offered(analyst.group_by, analyst.grains)}. Which one do you want?")
    if not selected:
        reasons.append("intent: no retrieval intent reached the confidence threshold")
        if reading.not_understood and not figure_or_relation:
            # "Company Z open items": the name not found is said, not only that the question was not understood
            unread_reasons, unread_questions = unread_clarifications(reading.not_understood)
            reasons.extend(unread_reasons)
            questions.extend(unread_questions)
        unknown = unknown_words(reading.text, reading.consumed) if figure_scope else ()
        if unknown:  # a company and a period read: what is left is the figure not understood, named back
            questions.append(f"I did not understand {', '.join(repr(w) for w in unknown)}.")
        questions.append(
            "Could you say what you need: a number (e.g. total spend in a period), a relationship (e.g. approved "
            "vendors), a document explanation, or a specific identifier?"
        )

    # "Approved for Company B in Q2 (as of today)": the approvals in effect on the as-of date, not every approval
    # that overlaps the quarter; without a period the approved-vendor plan asks on the as-of date.
    approved_now = (reading.cues.approved and not spend_shaped and reading.catalog_metric is None
                    and _APPROVED_NOW.search(reading.text) is not None)
    constraints = Constraints(
        time_range=period.time_range if not period.ambiguous and not approved_now else None,
        invoice_status=("draft",) if drafts_total else reading.statuses,  # type: ignore[arg-type]
        reporting_currency=(reporting_currency or (currencies[0] if len(currencies) == 1 else None))
        if (spend_shaped or company is not None or scope_kind is not None)
        else None,
    )
    catalog_parameters: dict[str, object] = {}
    governed: GovernedRequest | None = None
    if analyst is not None and not reasons:
        governed = _governed(reading, entities, constraints, gazetteer, analyst, currencies)
        for reason, question in governed.problems:
            reasons.append(reason)
            questions.append(question)
        catalog_parameters = dict(governed.parameters)
        if nested is not None and "within_product_group_ids" in {n for n, _, _ in analyst.parameters}:
            catalog_parameters["within_product_group_ids"] = list(gazetteer.subgroups(nested[1].product_group_id))
        elif nested is not None:
            reasons.append(f"share: {nested[0].group_name} within {nested[1].group_name} needs a whole of groups")
            questions.append(f"{analyst.label} cannot take {nested[1].group_name} as the whole of the share; do you "
                             f"want {nested[0].group_name}'s share of the company's total spend?")
    elif catalog_metric is not None and not reasons:
        catalog_parameters, unread = _catalog_parameters(
            catalog_metric, entities, constraints.time_range, constraints.invoice_status, amounts,
            constraints.reporting_currency,
            _group_scope(entities, gazetteer),
            _named_filters(reading, gazetteer) if _named_metric_filters(reading)
            # "largest 2 invoices excl Helix": the exclusions the metric declares (router/exclusion_shapes.py)
            else exclusion_parameters(reading, catalog_metric, gazetteer) or None,
        )
        if ranked_documents is not None:
            catalog_parameters.update(ranked_documents[1])
        for what in unread:
            reasons.append(f"parameter: {what}")
            questions.append(f"{catalog_metric.label} needs {what}, which the question does not give. "
                             "Could you name it?")
    compare_asked = [reading.cue_text[a:b] for a, b in reading.analysis.compare_words
                     if reading.cue_text[a:b].strip().lower() != "than"]
    if (compare_asked and reading.analysis.comparison is None and not reasons and (spend_shaped or analyst)
            and not breakdown.group_by and len(entities.supplier_ids) < 2 and constraints.time_range is not None
            # "X vs Y ... per company": the companies are set side by side in the table, no period comparison
            and not (per_company_table(reading) and several_named(reading))):
        # "Compare our spend in the last 6 months": a comparison with no base the reading could place. The
        # period's total alone would answer another question.
        reasons.append(f"comparison: {compare_asked[0]!r} names no second period to compare with")
        questions.append(f"Compare {constraints.time_range.label} with which period? For example the previous "
                         "period, the same period last year, or a named one ('Q1 2026 vs Q4 2025').")
    auth = AuthorizationContextModel.from_auth(inputs.ctx)
    confidence = _overall(intents)
    rule_hits = tuple(f"{h.rule}:{h.intent}:{h.evidence}" for h in hits)
    workflow: Workflow
    if not reasons and per_part:
        workflow, steps = "metric", _per_part_steps(per_part, entities, constraints, gazetteer)
    elif not reasons and listed and constraints.time_range is not None and scope_kind is None and not per_company:
        # the union first (the answer's figure), then each part of the list
        workflow, steps = "metric", _per_part_steps((constraints.time_range, *listed), entities, constraints,
                                                    gazetteer)
        rule_hits = (*rule_hits, f"period_list:parts:{'|'.join(part.label for part in listed)}")
    elif (not reasons and scope_kind in ("total", "company_share") and company_scope
          and constraints.time_range is not None):
        workflow, steps = "metric", _scope_steps(company_scope, scope_kind, entities, constraints, gazetteer, breakdown,
                                                 reading, named=named_set is not None)
    elif not reasons and per_company and constraints.time_range is not None:
        workflow, steps = "metric", _per_company_steps(per_company, entities, constraints, gazetteer, breakdown)
    elif not reasons:
        workflow, steps = plan(
            PlanInput(
                reading=reading,
                intents=frozenset(selected),
                entities=entities,
                constraints=constraints,
                as_of=inputs.as_of,
                spend=spend_shaped,
                other_metric=other_metric,
                approved=cues.approved,
                wants_documents=("semantic" in selected or "lexical" in selected)
                and (not spend_shaped or cues.summary),
                all_supplier_ids=tuple(sorted(gazetteer.supplier_names)),
                group_by=governed.group_by if governed is not None else
                catalog_metric.group_by[:1] if ranked_documents is not None and catalog_metric else
                breakdown.group_by if (spend_shaped or catalog_metric) else (),
                grain=governed.grain if governed is not None else
                breakdown.grain if (spend_shaped or catalog_metric) else None,
                catalog_metric=catalog_metric.name if catalog_metric else None,
                catalog_parameters=catalog_parameters,
                group_ids=_group_scope(entities, gazetteer),
            )
        )
        if workflow in _PASSAGE_WORKFLOWS and figure_scope:
            # A company and a period with no document word: passages that mention them are no answer to the
            # figure asked for; the question's scope is restated and the figure asked about.
            scope = _interpretation(entities, constraints)
            reasons.append("measure: the question names a company and a period but no figure the reading understood")
            unknown = unknown_words(reading.text, reading.consumed)
            if unknown:
                questions.append(f"I did not understand {', '.join(repr(w) for w in unknown)}.")
            questions.append(f"I read {scope}, but not which figure you want (measure not understood). I can give "
                             "spend (totals, breakdowns, rankings, shares, comparisons), invoice counts, invoices by "
                             "amount, unit prices and units. Which one do you mean?")
        # Every constraint the reading found must reach a step of a figure or relationship plan.
        elif workflow in _CONSTRAINED_WORKFLOWS:
            for what in unused_constraints(entities, constraints, steps, workflow, reading):
                reasons.append(f"constraint: {what} is not used by the {workflow} plan")
                questions.append(f"I cannot apply {what} to this question with a governed figure or the graph; "
                                 "do you want the answer without it, or a different question?")
    personal: Literal["only", "mentioned"] | None = ("only" if reading.cues.personal_data_only
                else "mentioned" if reading.cues.personal_data_mentioned else None)
    if reasons:
        return RoutingResult(
            question=text, as_of=inputs.as_of, intents=intents, confidence=confidence, requires_clarification=True,
            clarification_question=" ".join(dict.fromkeys(questions)), clarification_reasons=tuple(reasons),
            entities=entities, constraints=constraints, authorization_context=auth, workflow="clarification",
            rule_hits=rule_hits, interpretation=_interpretation(entities, constraints) + union_note,
            personal_data=personal,
        )
    return RoutingResult(
        question=text, as_of=inputs.as_of, intents=intents, confidence=confidence, requires_clarification=False,
        entities=entities, constraints=constraints, authorization_context=auth, workflow=workflow,
        execution_plan=steps, rule_hits=rule_hits,
        interpretation=(f"{'the companies' if named_set else 'all companies of the tenant'} "
                        f"({', '.join(c.company_id for c in company_scope)}), "
                        if scope_kind is not None and company_scope and entities.company_id is None else "")
        + _interpretation(entities, constraints) + union_note,
        personal_data=personal,
        named_suppliers_only=reading.cues.agreement_question or asks_approval_end(reading.text),
    )


#: Metrics whose company may be left out, only for a question about all the tenant's companies together.
_COMPANY_SCOPED = frozenset({"finance.company_spend", "finance.spend_ranking", "finance.supplier_share",
                             "finance.product_group_share", "finance.currency_share", COMPARISON,
                             # (company optional: all the tenant's companies, bounded by row-level security)
                             "finance.document_currency_spend", "finance.largest_invoices",
                             "finance.invoice_line_count", "finance.supplier_count", "finance.product_count",
                             "finance.invoice_count", "finance.units_purchased"})
_SHARE_WORDS = re.compile(r"\b(?:share|percentage|percent|portion|proportion|fraction)\b|%", re.I)


def _company_scope(reading: Reading, all_companies: re.Match[str] | None,
                   gazetteer: Gazetteer) -> tuple[Company, ...] | None:
    """The tenant's companies when the question asks about all of them ("across all companies", "group-wide",
    "spend per company" with no company named) and they report in one currency (a figure across currencies is
    no governed sum); ``None`` otherwise."""
    companies = tuple(gazetteer.companies)
    per_company = "company_id" in reading.breakdown.group_by and not reading.entities.company_id
    if (all_companies is None and not per_company) or len(companies) < 2:
        return None
    if len({c.reporting_currency for c in companies}) != 1:
        return None
    return companies


#: One agreement named without its parties ("the payment terms in our agreement"): with several companies, a
#: question.
_ONE_AGREEMENT = re.compile(r"\b(?:our|my|the)\s+(?:agreement|contract|framework agreement|supply agreement)\b"
                            r"(?!\s+(?:with|of|for|between|no\.?|number|id)\b)(?!s)", re.I)


#: One company named without its name ("our company's invoices"): with several companies, a question.
_ONE_COMPANY = re.compile(r"\b(?:our|my|this|the)\s+(?:company|firm|legal entity|entity)\b(?!\s*(?:and|or)\b)", re.I)


#: A manual named as the source of the answer ("according to its manual", "laut Handbuch").
_MANUAL_WORDS = re.compile(r"\b(?:manuals?|handbooks?|data\s?sheets?|user\s+guide|handbuch\w*|\w*anleitung\w*|"
                           r"datenblatt\w*)\b", re.I)
#: Words that ask for a figure over invoices: no document fact.
_FIGURE_WORDS = re.compile(
    r"\b(?:invoices?|invoiced|credit\s+notes?|spend|spent|paid|bought|purchased|ordered|total|rechnung\w*|"
    r"gutschrift\w*|ausgaben)\b", re.I)
#: Words that ask about a product's price, quantities or suppliers: no fact of its manual.
_PRODUCT_FIGURE_WORDS = re.compile(
    r"\b(?:prices?|priced|costs?|how\s+many|how\s+much(?!\s+(?:vibration|torque|voltage|clearance|notice))|"
    r"suppliers?|vendors?|sells?|sold|preis\w*|lieferant\w*)\b", re.I)


def _named_document_fact(text: str, reading: Reading) -> str | None:
    """The fact words of a question about one fact of a named product's manual or a named document ("maximum
    loop resistance for the DPS-482", "Welche Umgebungstemperatur gilt für MC-4 laut Handbuch?"), or None.

    Such a question names the document (its id, a contract id, a company's agreement, or a product whose manual
    holds the fact) and a fact a document states (a value, a period, a condition: retrieval.topics.FACT_WORDS),
    and no figure word: it is a semantic question about that document (router/evidence.py restricts the search
    to it), never a catalog traversal or a figure for the product.
    """
    from retrieval.topics import fact_words

    document = bool(reading.identifiers.document_ids or reading.identifiers.contract_ids or reading.agreement_topic)
    product = bool(reading.entities.product_codes) and not _PRODUCT_FIGURE_WORDS.search(text)
    if not (document or product) or _FIGURE_WORDS.search(text):
        return None
    found = fact_words(text)
    return ", ".join(found) if found else None


def _juxtaposed_names(reading: Reading, gazetteer: Gazetteer) -> str | None:
    """Two supplier or group mentions with only spaces between them ("Delta Gamma"), as written, or None."""
    spans = sorted((m.start, m.end, m.kind, len(m.text.split()), m.resolved)
                   for m in (*reading.mentions.suppliers, *reading.mentions.product_groups))
    for (s1, e1, k1, words, r1), (s2, e2, k2, _, r2) in pairwise(spans):
        if k1 == "supplier" and k2 == "product_group" and words >= 2:
            continue  # "Beta Trading temperature sensors": a whole supplier name, then what was bought from it
        if k1 == "supplier" and k2 == "product_group" and r1 and r2 and r1 in gazetteer.suppliers_of_group(r2):
            # "epsilon flow sensors": a supplier's short name, then a group the catalogue has it supply: what
            # was bought from it (the reading names both); a supplier that supplies no such group stays asked
            continue
        if e1 < s2 and not reading.text[e1:s2].strip():
            return reading.text[s1:e2]
    return None


def _company_names(gazetteer: Gazetteer) -> str:
    return ", ".join(f"{c.company_name} ({c.company_id})" for c in gazetteer.companies) or "none known"


def _per_company_steps(companies: tuple[Company, ...], entities: Entities, constraints: Constraints,
                       gazetteer: Gazetteer, breakdown: Breakdown) -> tuple[PlanStep, ...]:
    """One governed company-spend step per company of the tenant, each in its own reporting currency."""
    assert constraints.time_range is not None
    groups = _group_scope(entities, gazetteer)
    filters: dict[str, object] = {
        "start_date": constraints.time_range.start.isoformat(), "end_date": constraints.time_range.end.isoformat(),
        **({"supplier_ids": list(entities.supplier_ids)} if entities.supplier_ids else {}),
        **({"product_group_ids": list(groups)} if groups else {}),
        **({"product_codes": list(entities.product_codes)} if entities.product_codes else {}),
        **({"invoice_statuses": list(constraints.invoice_status)}
           if tuple(constraints.invoice_status) != ("posted", "paid") else {}),
    }
    steps = [PlanStep(step_id=f"calculate-company-{i}", tool="metrics.query",
                      arguments={"metric": SPEND_METRIC,
                                 "parameters": {**filters, "company_id": c.company_id,
                                                "reporting_currency": c.reporting_currency},
                                 "group_by": list(breakdown.group_by), "grain": breakdown.grain},
                      purpose=f"Governed spend of {c.company_name} ({c.company_id}), one company of the tenant.")
             for i, c in enumerate(companies, start=1)]
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: every company calculated, no data vs zero."))
    validate_plan(steps)
    return tuple(steps)


def _scope_steps(companies: tuple[Company, ...], kind: str, entities: Entities, constraints: Constraints,
                 gazetteer: Gazetteer, breakdown: Breakdown, reading: Reading, *,
                 named: bool = False) -> tuple[PlanStep, ...]:
    """The governed figure of all the tenant's companies together: the total and each company's part (one
    company-spend call without a company, grouped by company), or, for a company's share of the total, the
    companies ranked by spend (each row with its share of the ranked total) beside the total. ``named``: the
    companies a question names together ("Xenon and Ypsilon combined"), bound as the metric's ``company_ids``."""
    assert constraints.time_range is not None
    groups = _group_scope(entities, gazetteer)
    excluded_groups = sorted({g for gid in reading.excluded_group_ids for g in gazetteer.subgroups(gid)})
    filters: dict[str, object] = {
        "start_date": constraints.time_range.start.isoformat(), "end_date": constraints.time_range.end.isoformat(),
        "reporting_currency": companies[0].reporting_currency,
        **({"company_ids": [c.company_id for c in companies]} if named else {}),
        **({"supplier_ids": list(entities.supplier_ids)} if entities.supplier_ids else {}),
        **({"product_group_ids": list(groups)} if groups else {}),
        **({"product_codes": list(entities.product_codes)} if entities.product_codes else {}),
        **({"exclude_supplier_ids": list(reading.excluded_supplier_ids)} if reading.excluded_supplier_ids else {}),
        **({"exclude_product_group_ids": excluded_groups} if excluded_groups else {}),
        **({"exclude_product_codes": list(reading.excluded_product_codes)} if reading.excluded_product_codes else {}),
        **({"invoice_statuses": list(constraints.invoice_status)}
           if tuple(constraints.invoice_status) != ("posted", "paid") else {}),
        # "credit notes, all companies": the document type is a filter of the companies' figure too
        **({"document_types": list(reading.analysis.document_types)} if reading.analysis.document_types else {}),
    }
    names = ", ".join(f"{c.company_name} ({c.company_id})" for c in companies)
    whose = "the companies" if named else "all the tenant's companies"
    total = PlanStep(step_id="calculate-all-companies", tool="metrics.query",
                     arguments={"metric": SPEND_METRIC, "parameters": filters,
                                "group_by": list(breakdown.group_by), "grain": breakdown.grain},
                     purpose=f"Governed spend of {whose} together ({names}).")
    if kind == "company_share":
        parts = PlanStep(step_id="rank-companies", tool="metrics.query",
                         arguments={"metric": RANKING, "parameters": {**filters, "limit": len(companies),
                                                                       "direction": "top"},
                                    "group_by": ["company_id"], "grain": None},
                         purpose="Each company's spend and share of the companies' total (finance.spend_ranking).")
    else:
        parts = PlanStep(step_id="calculate-by-company", tool="metrics.query",
                         arguments={"metric": SPEND_METRIC, "parameters": filters, "group_by": ["company_id"],
                                    "grain": None},
                         purpose="Each company's part of that spend.")
    steps = [total, parts] if not breakdown.group_by and not breakdown.grain else [total]
    second = (scope_invoices_only_step(reading.text, filters)
              if kind != "company_share" and not breakdown.group_by and not breakdown.grain else None)
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: the total and every company's part, no data vs zero."))
    if second is not None:
        # an open total of the companies whose documents the question leaves open: both readings, as for one
        # company (router/open_reading.py); the second never decides completeness
        steps.append(second)
    validate_plan(steps)
    return tuple(steps)


def _per_part_steps(parts: tuple[TimeRange, ...], entities: Entities, constraints: Constraints,
                    gazetteer: Gazetteer) -> tuple[PlanStep, ...]:
    """One governed company-spend step per part of a period list, each with every filter of the reading."""
    groups = _group_scope(entities, gazetteer)
    filters: dict[str, object] = {
        "company_id": entities.company_id,
        **({"supplier_ids": list(entities.supplier_ids)} if entities.supplier_ids else {}),
        **({"product_group_ids": list(groups)} if groups else {}),
        **({"product_codes": list(entities.product_codes)} if entities.product_codes else {}),
        **({"invoice_statuses": list(constraints.invoice_status)}
           if tuple(constraints.invoice_status) != ("posted", "paid") else {}),
        **({"reporting_currency": constraints.reporting_currency} if constraints.reporting_currency else {}),
    }
    steps = [PlanStep(step_id=f"calculate-part-{i}", tool="metrics.query",
                      arguments={"metric": SPEND_METRIC, "parameters": {**filters, "start_date": part.start.isoformat(),
                                                                         "end_date": part.end.isoformat()},
                                 "group_by": [], "grain": None},
                      purpose=f"Governed spend for {part.label}, " + (
                          "the parts of the period list together." if isinstance(part, ListedPeriods)
                          else "one part of the period list."))
             for i, part in enumerate(parts, start=1)]
    steps.append(PlanStep(step_id="validate-result", tool="validation.check_completeness",
                          depends_on=tuple(s.step_id for s in steps),
                          purpose="Completeness: every part calculated, no data vs zero."))
    validate_plan(steps)
    return tuple(steps)


def _point_in_time_question(words: str, period: TimeRange) -> str:
    """The two readings of a figure "as of" a period, with their dates: the year to date up to the end of the
    period (from the start of its fiscal year), or the period alone."""
    from router.periods import fiscal_year_start_month

    last_day = period.end - dt.timedelta(days=1)
    month = fiscal_year_start_month()
    start = dt.date(last_day.year if last_day.month >= month else last_day.year - 1, month, 1)
    return (f"{words!r}: do you mean the year to date up to it ({start} to {period.end}, end exclusive; ask "
            f"'from {start} to before {period.end}') or {period.label} alone ({period.start} to {period.end}, end "
            "exclusive)?")


#: Workflows whose answer is a figure or a traversal: each constraint of the reading must be used by a step.
#: "as of today", "currently", "right now": a relationship asked on the as-of date ("not for today" is no such).
_APPROVED_NOW = re.compile(r"(?<!\bnot\s)\b(?:as\s+(?:of|at)\s+(?:today|now|this\s+moment)|right\s+now|currently|"
                           r"at\s+present|at\s+the\s+moment)\b", re.I)

_CONSTRAINED_WORKFLOWS = frozenset({"spend", "spend_with_documents", "metric", "approved_vendors", "catalog_products"})
#: Workflows whose answer is passages.
_PASSAGE_WORKFLOWS = frozenset({"document_answer", "identifier_lookup"})


def _values(value: object) -> set[str]:
    """Every string inside a step's arguments (refs excluded: their values are resolved at run time)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {v for item in value.values() for v in _values(item)}
    if isinstance(value, (list, tuple)):
        return {v for item in value for v in _values(item)}
    return set()


def _arguments(value: object, key: str) -> list[object]:
    """Every value of ``key`` anywhere in a step's (nested) arguments."""
    found: list[object] = []
    if isinstance(value, dict):
        for name, item in value.items():
            if name == key:
                found.append(item)
            found.extend(_arguments(item, key))
    elif isinstance(value, (list, tuple)):
        for item in value:
            found.extend(_arguments(item, key))
    return found


#: The governed invoice listing (thresholds, amount ranges, plain listings): invoices only, by its policy.
LISTING_TOOL = "finance.invoices_above_threshold"


def unused_constraints(
    entities: Entities, constraints: Constraints, steps: tuple[PlanStep, ...], workflow: str = "",
    reading: Reading | None = None,
) -> list[str]:
    """The constraints of the reading that no step of the plan carries (a named supplier, product, group,
    company, the period with both its bounds, an invoice status or document type filter, an exclusion, a
    comparison, a breakdown), each as the words to put to the user. Named suppliers of an approval question are
    applied by its composer (the approvals of the named suppliers), not by a step."""
    used: set[str] = set()
    for step in steps:
        used |= _values(step.arguments)
    arguments = [step.arguments for step in steps]
    missing: list[str] = []
    # The catalogue (which products sit under a group, who supplies them) is the tenant's, not a company's nor a
    # period's; and named invoices fix their own period.
    scoped = workflow != "catalog_products"
    by_invoice = any(step.arguments.get("invoice_numbers") for step in steps)
    if scoped and entities.company_id and entities.company_id not in used and not any(
        s.tool == "entity.resolve_company" for s in steps
    ):
        missing.append(f"the company {entities.company_name or entities.company_id}")
    for sid in entities.supplier_ids if workflow != "approved_vendors" else ():
        if sid not in used:
            missing.append(f"the supplier {sid}")
    for code in entities.product_codes:
        if code not in used:
            missing.append(f"the product {code}")
    if entities.product_group and entities.product_group not in used and (entities.product_group_id or "") not in used:
        missing.append(f"the product group {entities.product_group}")
    for gid in entities.product_group_ids[1:]:
        # a set of groups: each must reach the plan (a path taking one group would drop the others silently)
        if gid not in used:
            missing.append(f"the product group {gid}")
    tr = constraints.time_range
    if scoped and not by_invoice and tr is not None:
        month = tr.start.strftime("%Y-%m") if single_month(tr) else None
        if not ({tr.start.isoformat(), tr.end.isoformat()} <= used or (month is not None and month in used)):
            missing.append(f"the period {tr.label} ({tr.start} to {tr.end}, end exclusive)")
    if reading is None or workflow == "catalog_products":
        return missing
    statuses = tuple(constraints.invoice_status)
    if statuses != ("posted", "paid") and not any(
            set(v) == set(statuses) for v in _arguments(arguments, "invoice_statuses") if isinstance(v, list)):
        missing.append(f"the invoice status filter ({', '.join(statuses)} only)")
    analysis = reading.analysis
    # "only invoices >= 5k": the governed invoice listing lists invoices only (credit notes are no invoices), so an
    # invoice-only filter is its own scope, applied
    invoices_only = set(analysis.document_types or ()) == {"invoice"} and any(
        step.tool == LISTING_TOOL for step in steps)
    if analysis.document_types is not None and not invoices_only and not any(
            isinstance(v, list) and set(v) == set(analysis.document_types)
            for v in _arguments(arguments, "document_types")):
        missing.append(f"the document type filter ({', '.join(analysis.document_types)} only)")
    for excluded in (*reading.excluded_supplier_ids, *reading.excluded_group_ids, *reading.excluded_product_codes):
        if excluded not in used:
            missing.append(f"the exclusion of {excluded}")
    if analysis.comparison is not None and not _arguments(arguments, "compare_to"):
        missing.append("the comparison with another period")
    grouped = {str(d) for v in _arguments(arguments, "group_by") if isinstance(v, list) for d in v}
    for dim in reading.breakdown.group_by:
        if dim not in grouped:
            missing.append(f"the breakdown by {dimension_phrase(dim)}")
    grain = reading.breakdown.grain
    if grain and grain not in _arguments(arguments, "grain"):
        missing.append(f"the breakdown by {grain}")
    return missing


#: A running (cumulative) sum named as the figure ("cumulative spend", "running total", "accumulated amount"), not
#: a cumulative line the reader builds from the figures ("so I can build the cumulative line myself").
_RUNNING_SUM = re.compile(r"\b(?:cumulative(?:ly)?|cumulated|accumulated|running)\s+(?:total|sum|spend(?:ing)?|amount|"
                          r"figure|value|purchase|cost)s?\b|\bcumulative(?=\s+(?:by|per)\s)", re.I)


def _group_set(reading: Reading, gazetteer: Gazetteer) -> tuple[str, ...]:
    """The product groups a figure question names as one list ("sensors or data loggers"), in order; empty unless
    two or more distinct groups, each resolved, are joined only by signs and conjunctions, and the figure adds up
    (no unit price: a price of two groups is no one price)."""
    mentions = sorted(reading.mentions.product_groups, key=lambda m: m.start)
    ids = tuple(dict.fromkeys(m.resolved for m in mentions if m.resolved))
    if (len(ids) < 2 or any(m.resolved is None for m in mentions) or reading.analysis.average_price
            or reading.cues.unit_price or not joined_as_set(reading.text, [(m.start, m.end) for m in mentions])):
        return ()
    if any("group" in d for d in reading.breakdown.group_by) or (
            reading.analysis.ranking is not None and "group" in (reading.analysis.ranking.dimension or "")):
        return ()  # "by top category (Lab / Office / Shipping)": the groups listed are the rows asked, no filter
    if reading.cues.approved or (reading.cues.products and not reading.cues.spend):
        return ()  # "which sensors and loggers does Beta sell", "approved vendors for X / Y": no figure adds up
    if choice_cue(reading.cue_text):
        return ()  # "sensors or cables, which was higher?", "side by side": a choice between them, never their sum
    if any(a in gazetteer.subgroups(b) for a in ids for b in ids if a != b):
        return ()  # a group with its own subgroup is that group (router/group_unions.py), not a set
    return ids  # type: ignore[return-value]


def _group_scope(entities: Entities, gazetteer: Gazetteer) -> tuple[str, ...]:
    """The product groups a figure is filtered to: the named group, or every group of a named set, each with its
    subgroups (empty when no group is named)."""
    named = entities.product_group_ids or ((entities.product_group_id,) if entities.product_group_id else ())
    return tuple(dict.fromkeys(g for gid in named for g in gazetteer.subgroups(gid)))


def _interpretation(entities: Entities, constraints: Constraints) -> str:
    tr = constraints.time_range
    text = interpretation(entities, tr.start if tr else None, tr.end if tr else None)
    if tr is not None and (tr.label.startswith("the ") or " + " in tr.label or "-W" in tr.label):
        # A rolling window, a list or a week: its name beside the dates it was resolved to.
        text = text.replace(f"{tr.start} to {tr.end}", f"{tr.label}: {tr.start} to {tr.end}", 1)
    return text


_DIMENSION_WORDS = {"supplier_id": "supplier", "product_group_id": "product group", "product_code": "product",
                    "company_id": "company", "invoice_number": "invoice"}


def _offered(dims: tuple[str, ...], grains: tuple[str, ...]) -> str:
    """What a metric can be grouped by, in words, from its catalog allow-lists."""
    if not dims and not grains:
        return "it is served as one figure, without a breakdown"
    parts = []
    if dims:
        parts.append(", ".join(_DIMENSION_WORDS.get(d, d.replace("_", " ")) for d in dims))
    if grains:
        parts.append(", ".join(grains))
    return "it can be grouped by " + ", and by ".join(parts)


_RANK_COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
                     "ten": 10}
_RANK_END = r"(?:largest|biggest|highest|top|smallest|lowest|bottom|größte[nrs]?|höchste[nrs]?|kleinste[nrs]?)"
_RANK_LIMIT = re.compile(
    rf"\b(?:{_RANK_END}\s+(\d{{1,3}}|{'|'.join(_RANK_COUNT_WORDS)})|(\d{{1,3}}|{'|'.join(_RANK_COUNT_WORDS)})\s+"
    rf"{_RANK_END})\b", re.I)
_RANK_BOTTOM = re.compile(r"\b(?:smallest|lowest|bottom|kleinste[nrs]?)\b", re.I)
_RANKED_INVOICES = re.compile(
    # ("the lowest-value invoice", "highest value invoices": the value word only says what is ranked)
    rf"\b{_RANK_END}(?:[- ](?:value[ds]?|valued|amount|total|priced))?\s+"
    rf"(?:(?:\d{{1,3}}|{'|'.join(_RANK_COUNT_WORDS)})\s+)?(?:single\s+)?"
    # "the largest open (posted, unpaid) invoice": the status (a filter of its own) between the rank and the noun
    r"(?:(?:open|unpaid|outstanding|posted|paid|settled)\s+)?(?:\([^()]{0,40}\)\s+)?"
    r"(invoices?|rechnung(?:en)?)\b"
    # "which (single) invoice of Xenon was the largest in 2026": the superlative after the noun it ranks
    # (the gap never crosses a relative clause or another noun the superlative could rank: "which invoices are
    # from the supplier that was the largest" ranks suppliers, not invoices)
    # ("Company A", "Supplier Gamma" may stand there unmasked: only a common noun after an article stops it)
    rf"|\b(?:which|what)\s+(?:(?:single|individual|one)\s+)?(invoices?)\b(?:(?!\b(?:that|which|who|whose|whom|"
    rf"where|(?:the|a|an|each|every|this|that)\s+(?:suppliers?|vendors?|compan(?:y|ies)|customers?|entit(?:y|ies)))"
    rf"\b)[^?.;]){{0,80}}?\b(?:was|were|is|are)\s+"
    rf"(?:the\s+)?(?:(?:single|very)\s+)?{_RANK_END}\b",
    re.I)


def _document_ranking(
    reading: Reading, named: CatalogMetric | None, metrics: tuple[CatalogMetric, ...],
) -> tuple[CatalogMetric, dict[str, object]] | None:
    """"The biggest invoice", "the 3 largest invoices", "top 2 invoices": the catalog's ranking over one document
    dimension (its only grouping) with the limit and end the question names: one when it names a single invoice,
    the metric's default when it names invoices without a number."""
    ranked = _RANKED_INVOICES.search(reading.cue_text)
    metric = named if named is not None and "limit" in {n for n, _, _ in named.parameters} else None
    if metric is None and ranked is not None:
        metric = next((m for m in metrics if m.group_by == ("invoice_number",)
                       and "limit" in {n for n, _, _ in m.parameters}), None)
    if metric is None or ranked is None:
        return None
    count = _RANK_LIMIT.search(reading.cue_text)
    words = (count.group(1) or count.group(2)).lower() if count else None
    limit = int(words) if words and words.isdigit() else _RANK_COUNT_WORDS.get(words or "", 0)
    if not limit:
        limit = 1 if (ranked.group(1) or ranked.group(2)).lower() in ("invoice", "rechnung") else 5
    return metric, {"limit": limit, "direction": "bottom" if _RANK_BOTTOM.search(reading.cue_text) else "top"}


def _catalog_parameters(
    metric: CatalogMetric, entities: Entities, period: TimeRange | None, statuses: tuple[str, ...],
    amounts: tuple[Amount, ...], currency: str | None, group_ids: tuple[str, ...] = (),
    filters: Mapping[str, object] | None = None,
) -> tuple[dict[str, object], list[str]]:
    """A catalog metric's parameter values from the reading, and what a required parameter or a constraint the
    question names lacks (never a silent drop: a named supplier the metric cannot filter by is reported)."""
    values: dict[str, object] = {}
    unread: list[str] = []
    declared = {name for name, _, _ in metric.parameters}
    month = None
    if period is not None and period.start.day == 1 and period.end == add_months(period.start, 1):
        month = period.start.strftime("%Y-%m")
    above = threshold_of(amounts)
    slots: dict[str, object | None] = {
        "company_id": entities.company_id,
        "start_date": period.start.isoformat() if period else None,
        "end_date": period.end.isoformat() if period else None,
        "month": month,
        "supplier_ids": list(entities.supplier_ids) or None,
        "supplier_id": entities.supplier_ids[0] if len(entities.supplier_ids) == 1 else None,
        "product_codes": list(entities.product_codes) or None,
        "product_code": entities.product_codes[0] if len(entities.product_codes) == 1 else None,
        "invoice_numbers": list(entities.invoice_numbers) or None,
        # A named group counts with its subgroups, as in every spend figure.
        "product_group_ids": list(group_ids) or ([entities.product_group_id] if entities.product_group_id else None),
        # A threshold below an amount only for a metric that can take that side (never read as "above").
        "threshold": f"{above.value}" if above and (above.comparator == "above" or "direction" in declared) else None,
        "direction": "below" if above and above.comparator == "below" and "direction" in declared else None,
        "invoice_statuses": list(statuses) if tuple(statuses) != ("posted", "paid") else None,
        "reporting_currency": currency,
        **(filters or {}),
    }
    for name, _, required in metric.parameters:
        value = slots.get(name)
        if value is not None:
            values[name] = value
        elif required:
            unread.append(f"a value for {name.replace('_', ' ')}")
    named = {
        "supplier": bool(entities.supplier_ids), "product": bool(entities.product_codes),
        "invoice number": bool(entities.invoice_numbers), "product group": entities.product_group is not None,
    }
    takes = {
        "supplier": bool(declared & {"supplier_ids", "supplier_id"}),
        "product": bool(declared & {"product_codes", "product_code"}),
        "invoice number": "invoice_numbers" in declared,
        "product group": "product_group_ids" in declared,
    }
    for what, present in named.items():
        if present and not takes[what]:
            unread.append(f"no {what} filter (the question names one; {metric.name} cannot restrict by it)")
    return values, unread


#: Catalog metrics named by phrase that count (lines, suppliers) and take the spend filters themselves: a document
#: type or an exclusion next to them is their parameter, never a reason to answer with spend instead.
LINE_COUNT_METRIC = "finance.invoice_line_count"
_FILTERED_COUNTS = frozenset({LINE_COUNT_METRIC, "finance.supplier_count"})


def _named_metric_filters(reading: Reading) -> bool:
    """Whether the phrase-named catalog metric takes every analyst filter of the question by itself."""
    named, analysis = reading.catalog_metric, reading.analysis
    if named is None or named.name not in _FILTERED_COUNTS:
        return False
    if (analysis.ranking is not None or analysis.share or analysis.comparison is not None
            or analysis.original_currency or analysis.average_price):
        return False
    declared = {name for name, _, _ in named.parameters}
    needs = {"document_types"} if analysis.document_types else set()
    if reading.excluded_supplier_ids:
        needs.add("exclude_supplier_ids")
    if reading.excluded_group_ids:
        needs.add("exclude_product_group_ids")
    if reading.excluded_product_codes:
        needs.add("exclude_product_codes")
    return needs <= declared


def _named_filters(reading: Reading, gazetteer: Gazetteer) -> dict[str, object]:
    """The document types and exclusions of the question as parameters of a phrase-named count."""
    out: dict[str, object] = {}
    if reading.analysis.document_types:
        out["document_types"] = list(reading.analysis.document_types)
    elif reading.catalog_metric is not None and reading.catalog_metric.name == LINE_COUNT_METRIC \
            and document_type_scope(reading.cue_text)[0] is None:
        # "how many invoice lines": the lines of invoices, as "how many invoices" counts invoices (credit notes are
        # another document type); credit-note lines count only when the question takes them along
        out["document_types"] = ["invoice"]
    if reading.excluded_supplier_ids:
        out["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if reading.excluded_group_ids:
        out["exclude_product_group_ids"] = sorted({g for gid in reading.excluded_group_ids
                                                  for g in gazetteer.subgroups(gid)})
    if reading.excluded_product_codes:
        out["exclude_product_codes"] = list(reading.excluded_product_codes)
    return out


def _analyst_metric(
    reading: Reading, entities: Entities, selected: set[IntentType], spend_shaped: bool,
    metrics: tuple[CatalogMetric, ...],
) -> tuple[CatalogMetric | None, str | None]:
    """The catalog metric the analyst slots need (ranking, share, comparison, exclusion or document-type filter,
    original currency, average unit price over a period), or ``None`` when the existing workflows serve it.

    Rankings and average prices are figures by themselves; shares, comparisons, filters and currency requests
    only within a figure question (a document question mentioning "changes" stays a document question). The
    second value names the metric the question needs (also when the catalog lacks it).
    """
    analysis = reading.analysis
    if not (analysis.governed_shape or analysis.average_price or reading.excluded_supplier_ids
            or reading.excluded_group_ids or reading.excluded_product_codes):
        return None, None
    if _named_metric_filters(reading):
        return None, None  # "number of line items, invoices only": the named count takes the filters itself
    figure = spend_shaped or "aggregate" in selected or reading.cues.spend
    if not figure and analysis.ranking is None and not (analysis.average_price and entities.product_codes):
        return None, None
    if (reading.cues.invoice_count or (reading.measure in ("tax_total", "units_purchased", "invoices_above_threshold")
            and analysis.ranking is None)):
        return None, None  # another governed measure (or a count) is asked for: its own path decides
    slots = Slots(
        company_id=entities.company_id, supplier_ids=entities.supplier_ids, product_codes=entities.product_codes,
        product_group_ids=entities.product_group_ids
        or ((entities.product_group_id,) if entities.product_group_id else ()),
        exclude_supplier_ids=reading.excluded_supplier_ids,
        exclude_product_group_ids=reading.excluded_group_ids, period=reading.period.time_range,
        exclude_product_codes=reading.excluded_product_codes,
        statuses=reading.statuses, reporting_currency=None, group_by=reading.breakdown.group_by,
        grain=reading.breakdown.grain, share_of_groups=_share_of_groups(reading, entities),
    )
    name = choose_metric(analysis, slots, single_month(reading.period.time_range))
    if name is None:
        return None, None
    return next((m for m in metrics if m.name == name), None), name


#: "between 500 and 5,000 EUR", "from €1k to €5k": two amounts bounding invoice totals.
_AMOUNT_RANGE = re.compile(
    r"\b(?:between|from)\s+(?:[€$£]|eur|usd)?\s?\d[\d.,']*\s?(?:k|m|thousand)?\s?(?:eur|euros?|usd|€|\$)?\s+"
    r"(?:and|to|-)\s+(?:[€$£]|eur|usd)?\s?\d[\d.,']*\s?(?:k|m|thousand)?\s?(?:eur|euros?|usd|€|\$)",
    re.I,
)


def _group_within_group(reading: Reading, gazetteer: Gazetteer) -> tuple[ProductGroup, ProductGroup] | None:
    """(part, whole) when a share question names exactly two product groups and one lies under the other."""
    if not reading.analysis.share:
        return None
    named = {m.resolved for m in reading.mentions.product_groups if m.resolved} - set(reading.excluded_group_ids)
    if len(named) == 1:
        return _subgroup_by_rest(reading, gazetteer, next(iter(named)))
    if len(named) != 2:
        return None
    first, second = sorted(named)
    groups = {g.product_group_id: g for g in gazetteer.product_groups}
    if first not in groups or second not in groups:
        return None
    if first in gazetteer.subgroups(second):
        return groups[first], groups[second]
    if second in gazetteer.subgroups(first):
        return groups[second], groups[first]
    return None


def _stem(word: str) -> str:
    return word.lower().rstrip("s")


def _subgroup_by_rest(reading: Reading, gazetteer: Gazetteer,
                      whole_id: str) -> tuple[ProductGroup, ProductGroup] | None:
    """(part, whole) when a share names a group and, outside every read mention, the rest of one of its subgroups'
    names: "spare parts share of our compressor spend" (Compressor Spare Parts under Compressors). Left unread, the
    part was dropped and the group's share of the total was presented instead."""
    groups = {g.product_group_id: g for g in gazetteer.product_groups}
    whole = groups.get(whole_id)
    if whole is None:
        return None
    read_spans = tuple((m.start, m.end) for m in reading.mentions.product_groups)
    text = mask(reading.text, read_spans)
    whole_words = {_stem(w) for w in re.findall(r"[^\W\d_]+", whole.group_name)}
    found = []
    for sub_id in gazetteer.subgroups(whole_id):
        sub = groups.get(sub_id)
        if sub is None or sub_id == whole_id:
            continue
        rest = [w for w in re.findall(r"[^\W\d_]+", sub.group_name) if _stem(w) not in whole_words]
        if not rest or len(rest) == len(re.findall(r"[^\W\d_]+", sub.group_name)):
            continue  # the subgroup's name must be the whole's words plus the rest
        pattern = r"\b" + r"\s+".join(re.escape(w.rstrip("sS")) + r"s?" for w in rest) + r"\b"
        if re.search(pattern, text, re.I):
            found.append(sub)
    if len(found) != 1:
        return None
    return found[0], whole


def _share_of_groups(reading: Reading, entities: Entities) -> bool:
    """Whether a share question's part is the named product group (not the named suppliers)."""
    if not reading.analysis.share or not entities.product_group_id:
        return False
    excluded = set(reading.excluded_supplier_ids)
    suppliers = [(m.start, m.end) for m in reading.mentions.suppliers if m.resolved not in excluded]
    groups = [(m.start, m.end) for m in reading.mentions.product_groups
              if m.resolved not in set(reading.excluded_group_ids)]
    if not suppliers and set(entities.supplier_ids) - excluded:
        suppliers = [(0, 0)]  # named by id only (no mention span): present, and next to no part cue
    return share_part(reading.text, suppliers, groups) == "group"


def _governed(
    reading: Reading, entities: Entities, constraints: Constraints, gazetteer: Gazetteer, metric: CatalogMetric,
    currencies: tuple[str, ...],
) -> GovernedRequest:
    """The analyst metric's parameters from the final entities (the company defaulted), period and currency; a
    product group counts with its subgroups, in the part and whole of a share as in a filter or an exclusion."""
    groups = _group_scope(entities, gazetteer)
    excluded_groups = tuple(sorted({g for gid in reading.excluded_group_ids for g in gazetteer.subgroups(gid)}))
    slots = Slots(
        company_id=entities.company_id, supplier_ids=entities.supplier_ids, product_codes=entities.product_codes,
        product_group_ids=groups, exclude_supplier_ids=reading.excluded_supplier_ids,
        exclude_product_group_ids=excluded_groups, period=constraints.time_range,
        exclude_product_codes=reading.excluded_product_codes,
        statuses=constraints.invoice_status, reporting_currency=constraints.reporting_currency,
        group_by=reading.breakdown.group_by, grain=reading.breakdown.grain,
        share_of_groups=_share_of_groups(reading, entities),
    )
    declared = {"parameters": tuple(n for n, _, _ in metric.parameters), "group_by": metric.group_by,
                "grains": metric.grains}
    request = governed_request(reading.analysis, slots, declared, metric.name)
    problems = list(request.problems)
    shared = {c.reporting_currency for c in gazetteer.companies}
    # no company named (a unit price over every company): their one reporting currency is the one figures are in
    reporting = constraints.reporting_currency or (next(iter(shared)) if len(shared) == 1 else None)
    named = [c for c in currencies if c != reporting and c != reading.analysis.document_currency]
    if named:
        problems.append((f"currency: {', '.join(named)} is not the reporting currency {reporting}",
                         f"Figures are reported in {reporting or 'the reporting currency'} (converted at the "
                         f"corporate rate on each posting date). Report it in {reporting or 'that currency'}, or do "
                         f"you want spend in the invoices' own currency ({', '.join(named)} invoices)?"))
    cues = reading.cues
    parameters = dict(request.parameters)
    if cues.net_basis:
        if metric.name == "finance.spend_ranking":
            parameters["order_by"] = "net_spend"  # "top suppliers by net spend": the ranking's net output
        elif "unit_price" in metric.name or metric.name.startswith("finance.net_"):
            pass  # "unit price HT": a unit price is net of tax by definition, the basis asked is the figure's own
        else:
            problems.append(("basis: net (tax-exclusive) spend requested; this figure includes tax",
                             "This figure is net amount plus tax, in the reporting currency. Do you want that gross "
                             "figure, or a tax-exclusive one (not available here)?"))
    if cues.currency_unchosen and not reading.analysis.original_currency:
        problems.append(("currency: the question asks for an unspecified currency (local/original/invoice)",
                         f"Figures are reported in {reporting or 'the reporting currency'}; spend in the invoices' "
                         "own currency is a separate figure. Which one do you want?"))
    if cues.status_choice:
        problems.append(("basis: paid and posted invoices are named as alternatives",
                         "Figures count posted and paid invoices by default. Do you want both, or paid invoices "
                         "only, or posted (unpaid) invoices only?"))
    if cues.other_basis:
        problems.append((f"basis: {cues.other_basis!r} is not the invoiced-spend basis",
                         f"Spend here means posted and paid supplier invoices, not {cues.other_basis}. Do you want "
                         "invoiced spend?"))
    return GovernedRequest(request.metric, parameters, request.group_by, request.grain, tuple(problems))


def _overall(intents: tuple[IntentScore, ...]) -> float:
    chosen = [i.confidence for i in intents if i.selected]
    return round(sum(chosen) / len(chosen), 4) if chosen else 0.0


__all__ = ["INTENT_THRESHOLD", "SPEND_METRIC", "TOP_INTENT_FLOOR", "RouterInputs", "route", "unused_constraints"]
