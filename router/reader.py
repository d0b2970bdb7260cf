"""The question reader: question text -> one frozen :class:`Reading`, with span accounting.

Everything the router, the planner and the composers know about the words of a question comes from here: the
identifiers, the entity mentions and what they resolve to, the period, the money amounts, the breakdown, the
invoice statuses and currencies, the measure a figure question names, and the cue words that shape the plan
(every question-reading pattern of the router lives in this module or in the slot parsers it calls:
:mod:`router.rules`, :mod:`router.periods`, :mod:`router.reading`, :mod:`router.entities`). The planner works
from the reading only; it never sees the raw text.

Span accounting: every span the reading consumed is recorded, and a span that *looks like a constraint* (a name,
a category-like noun phrase after "spend on", a date, "by X") but maps to nothing is listed in
:attr:`Reading.not_understood`. A figure or relationship question with such a span is a clarification that
names it, never an answer with the constraint silently dropped.

Fuzzy names: a constraint-looking span that matches no spelling exactly is offered to a :class:`NameResolver`
(trigram similarity, ``pg_trgm`` inside the tenant in production, :class:`TrigramResolver` in memory); one
candidate above the threshold resolves it, several are an ambiguity listing them, none leaves it not understood.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Literal, Protocol

from ingest.normalize import LEGAL_FORMS, normalize_supplier_name
from router.analysis import _CODE as _CURRENCY_WORD
from router.analysis import (
    Analysis,
    Comparison,
    bare_exclusion_target,
    compare_rule,
    excluded_spans,
    parse_analysis,
    product_described,
    split_periods,
    subgroup_named_within,
)
from router.approval_words import approval_qualifiers, approval_targets
from router.as_at import snapshot_period
from router.company_lists import elided_companies, excepted_companies
from router.contract import Entities, TimeRange
from router.currency_lists import currency_list_spans, issued_spans
from router.date_tokens import unread_date_tokens
from router.dimensions import dimension_question, unknown_dimensions
from router.entities import (
    GENERIC_NAME_WORDS,
    EntityMentions,
    Gazetteer,
    Mention,
    find_mentions,
    fold,
    named_product_codes,
)
from router.figure_words import TAX_BASE, amount_of_approved_part, basis_only_spans, period_year
from router.group_lists import joined_groups, product_restating_groups, restated_subgroups
from router.group_words import leading_word_group, listed_group_words, tail_word_group, word_form_group
from router.measure_words import MEASURE_WORDS
from router.name_cues import cued_names, supplier_numbers
from router.name_match import KIND_MARKERS
from router.name_slots import READ_REASONS, company_units, name_core, plain_language, slotless
from router.negation_scope import inverted_scopes, negated
from router.per_item import priced_per_item
from router.periods import HISTORY_START, PeriodResolution, resolve_period
from router.possessives import possessive_mentions
from router.price_words import (
    asks_price,
    bare_product_price,
    price_change_asked,
    price_change_spans,
    product_price_spans,
)
from router.product_models import other_model_problems
from router.reading import (
    Amount,
    Breakdown,
    CatalogMetric,
    asked_statuses,
    currency_code,
    excluded_status,
    group_dimension,
    match_catalog_metric,
    parse_amounts,
    parse_breakdown,
    status_spans,
)
from router.rules import COMPANY_ID, Identifiers, find_identifiers, mask, quoted_spans
from router.rules import PRODUCT_CODE as _PRODUCT_CODE
from router.run_rate import RUN_RATE
from router.set_words import choice_cue, set_word_spans
from router.share_slots import share_part_phrases
from router.sound_alike import sound_alike

# --- cue words (moved here from routing, planner and answer: one place reads the question) ---------------------
_CURRENCY = re.compile(
    r"(?<![A-Za-z])(eur|euros?|usd|dollars?|gbp|pounds?|sterling|chf|francs?)(?![A-Za-z])|[€$£]", re.I
)
_NET_BASIS = re.compile(
    # "excluding VAT", "net of VAT": the tax named by its European name is the same tax
    r"\b(net of (?:tax|vat)|excluding (?:tax|vat)|excl\.? (?:tax|vat)|before (?:tax|vat)|pre-tax|without (?:tax|vat)|"
    r"net spend|net amount|"
    # the tax base under its own names: "taxable value", "assessable value", "tax base" (the amount the tax is on)
    + TAX_BASE + r")\b", re.I
)
#: Credit notes named beside "net spend" ("after the credit note: net spend"): net of the credit notes, which
#: governed spend already is, not net of tax.
_CREDIT_NOTE = re.compile(r"\bcredit[- ]?(?:notes?|memos?)\b|\bgutschrift(?:en)?\b"
                          # "net spend ... after credits", "net of credits/returns": the credits netted
                          r"|\b(?:after|net\s+of|less|minus|including|incl\.?|with|of)\s+(?:all\s+|the\s+|any\s+|our\s+)?"
                          r"(?:credits|refunds|returns)\b", re.I)


def _net_basis(text: str) -> bool:
    """Whether a tax-exclusive (net) figure is asked; "net spend" beside credit notes is net of them."""
    m = _NET_BASIS.search(text)
    if m is None:
        return False
    return not (m.group(0).lower() in ("net spend", "net amount") and _CREDIT_NOTE.search(text)
                and not re.search(r"\btax\b|\bvat\b|\bmwst\b", text, re.I))


_OTHER_BASIS = re.compile(
    r"\b(committed|commitments?|ordered|purchase orders?|budget(?:ed)?|accrued|accruals?|forecast(?:ed)?|"
    r"cash basis|accrual basis|payments? made)\b",
    re.I,
)
_PAID_ONLY = re.compile(r"\b(only paid|paid invoices|already paid|that were paid|settled)\b", re.I)
_POSTED_ONLY = re.compile(r"\b(only posted|posted invoices|unpaid|open invoices|open items?)\b", re.I)
#: Both recognized statuses named together ("posted or paid invoices", "paid and posted"): neither alone is meant.
_BOTH_STATUSES = re.compile(r"\b(?:posted|paid)\s*(?:,|/|&|\+|\bor\b|\band\b)\s*(?:posted|paid)\b", re.I)
#: "approval threshold", "approval limit": a rule of signatures in an agreement, no approved vendor.
_APPROVAL_RULE = r"(?!\s+(?:thresholds?|limits?|process(?:es)?|workflows?|matri(?:x|ces)|levels?|rules?|signator\w*))"
_APPROVED = re.compile(r"\b(approved|approval" + _APPROVAL_RULE + r"|authori[sz]ed(?!\s+signator))\b", re.I)
_APPROVES = re.compile(r"\bapprov\w*\b" + _APPROVAL_RULE, re.I)
_SPEND = re.compile(
    r"\b(spend|spent|spending|expenditure|expenditures|expenses?|outlay|bill|bills|billed|cost|costs|purchases?|"
    r"paid|pay|invoiced|how much|total|totals|sum|worth|owe|owed|outstanding|amt|run[- ]?rates?|"
    # "the value of our unpaid invoices": their total
    r"value of\s+(?:[\w'’-]+\s+){0,4}?(?:invoices?|credit notes?|bills|spend|purchases)|"
    # "the open amount with Beta": the total of posted (unpaid) invoices.
    r"open (?:amounts?|balances?|payables?|items?)|"
    # "supplier split for Company C", "category breakdown": a breakdown of spend named by its grouping alone
    r"(?:suppliers?|vendors?|(?:product\s+)?(?:groups?|categor(?:y|ies))|products?)\s+(?:split|breakdown|mix)|"
    # "breakdown per company, all suppliers", "breakdown split by supplier", "broken down per month": a breakdown of
    # spend named by its grouping after it (no other figure named: the spend is the figure broken down)
    r"(?:split|breakdown|broken\s+down)\s+(?:split\s+|out\s+)?(?:per|by)\s+(?:compan(?:y|ies)|(?:legal\s+)?"
    r"entit(?:y|ies)|suppliers?|vendors?|(?:product\s+)?(?:groups?|categor(?:y|ies))|products?|months?|"
    r"quarters?|weeks?|years?)|"
    # verbs of spending: "what did Kestrel book with Gamma", "how much did we rack up with Beta"
    r"(?:book|booked|books)(?=\s+(?:with|from|at|against|on|for|in|to)\b)|incurred|disbursed|"
    r"(?:rack|racked|run|ran|rung|shell|shelled|fork|forked|lay|laid|splash|splashed)\s+(?:up|out)|"
    # "anything from Northwind in Q4?", "anything bought from Beta": what was bought from them, its spend
    r"(?:anything|something)(?=\s+(?:at\s+all\s+)?(?:(?:bought|purchased|ordered|invoiced|billed)\s+)?(?:from|with)\s)|"
    # "Beta @ Ypsilon Aug-Oct 2025, anything?": the whole ask is whether anything was bought (none is no data)
    r"(?<=[,;:\-–—]\s)(?:anything|something)(?:\s+at\s+all)?(?=\s*[?!.]*\s*$)|"
    # "Helix cumulative since Jul 2025", "cumulated 2025 YTD": what accumulated over the period, its total
    r"cumulative(?:ly)?|cumulated|accumulated|"
    # "our monthly trend H2 2025", "trend by quarter": a series over time with no figure named is the spend's
    # (a price or a count named beside it is that figure's own cue)
    r"(?:monthly|quarterly|weekly)\s+trend|trend\s+(?:by|per)\s+(?:month|quarter|week)|"
    # "Helix avg per month Jul-Dec 25": a monthly run-rate is the period's spend per month (router/run_rate.py)
    rf"{RUN_RATE.pattern})\b",
    re.I,
)
_MONEY_WORD = _CURRENCY_WORD.replace("?P<code>", "?:")
#: Invoices shown in two currencies ("CHF invoices - in francs and in euros", "in GBP and EUR"): their amounts.
_IN_TWO_CURRENCIES = re.compile(rf"\bin\s+{_MONEY_WORD}\s*(?:,|and|&|plus|/|\+|as well as|und)\s*(?:also\s+)?"
                                rf"(?:in\s+)?{_MONEY_WORD}(?![A-Za-z])", re.I)
#: The two ends of a range written "from A to B" (a change between them).
_FROM_TO_ENDS = re.compile(r"(?:from\s+)?(.+?)\s+(?:to|until|till)\s+(.+)", re.I)
#: "... from Q1 to April": the later end of a change written as a bare month (its year taken as the reader's).
_TO_BARE_MONTH = re.compile(r"\s+(?:to|until|till|through)\s+((?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|"
                            r"june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
                            r"(?:\s+(?:19|20)\d{2})?)\b", re.I)
def _range_ends(words: Sequence[str], as_of: dt.date) -> tuple[TimeRange | None, TimeRange | None]:
    """The two ends of "from A to B" read alone ("February" takes the year written after "March 2026")."""
    first_words, last_words = words
    year = re.search(r"\b(?:19|20)\d{2}\b", last_words)
    if year and not re.search(r"\b(?:19|20)\d{2}\b|\d{2}\b", first_words):
        first_words = f"{first_words} {year.group(0)}"
    found = []
    for w in (first_words, last_words):
        one = resolve_period(w, as_of)
        if one.time_range is None and not one.ambiguous:
            one = resolve_period(f"in {w}", as_of)
        found.append(None if one.ambiguous else one.time_range)
    return found[0], found[1]


#: Another measure than spend: a change between two periods of it is not a spend comparison.
_OTHER_MEASURE = re.compile(r"\b(?:unit|units|price|prices|quantit(?:y|ies)|count|number of|how many|invoices|lines?|"
                            r"share)\b", re.I)


def _bare_comparison(cue_text: str, analysis: Analysis, entities: Entities) -> bool:
    """"Gamma at Company B - Q1 2026 vs Q4 2025, abs + %", "Kestrel / Gamma: Q1 26 vs Q4 25 growth": two named
    periods set against each other for a company or supplier, with no measure word, compare spend (the one measure
    a comparison of a scope's periods is governed for)."""
    comparison = analysis.comparison
    return (comparison is not None and comparison.base is not None
            and bool(entities.company_id or entities.supplier_ids) and not _OTHER_MEASURE.search(cue_text))


def _every_company_word(cue_text: str) -> bool:
    """ "both companies", "all entities", "group-wide": the company slot of a bare figure filled by every company
    (router/scope.py; imported here, as scope reads a :class:`Reading`)."""
    from router.scope import ALL_COMPANIES

    return ALL_COMPANIES.search(cue_text) is not None


def _bare_breakdown(cue_text: str, breakdown: Breakdown, entities: Entities, period: PeriodResolution,
                    several_companies: bool = False) -> bool:
    """"Company C by quarter, Q3 2025 through Q1 2026", "Company A 1H26 by supplier": a company's period broken
    down by a governed grouping with no measure word is its spend broken down (the one measure such a breakdown
    of a company's period is asked about); any other measure word, or a grouping no metric offers, keeps it out.
    Named companies broken down by company ("Alpenland and Kestrel, Q4 2025, by company") are the same: a row of
    spend each."""
    by_named = several_companies and breakdown.group_by == ("company_id",) and not breakdown.grain
    return (bool(breakdown.group_by or breakdown.grain) and not breakdown.unknown
            and (entities.company_id is not None or _every_company_word(cue_text) or by_named)
            and period.time_range is not None
            and not _OTHER_MEASURE.search(cue_text) and not _COUNTED.search(cue_text))


#: Words that make a company's product group and period another question than its spend: a listing, members or
#: suppliers of the group, an approval, a document, another measure.
_NOT_A_GROUP_FIGURE = re.compile(
    r"\b(?:list\w*|show|which|who|whom|why|explain\w*|describe\w*|summar\w+|terms|clauses?|documents?|pdf|details?|"
    r"lines?|items?|products?|articles?|approv\w*|authori[sz]ed|suppl(?:y|ies|iers?)|vendors?|sells?|catalog\w*|"
    r"members?|belong\w*|contain\w*|consist\w*|includes?|prices?|units?|quantit\w*|shares?|percent\w*|%|average|"
    r"invoices?|credit|tax|vat)\b|%", re.I)


#: "pressure sensors (incl. the wireless transmitters)", "control cabinets incl. accessories": the words after a
#: group that name what it includes.
_INCLUDING = re.compile(r"\s*[(,]?\s*(?:incl\.?|including|inclusive\s+of)\s+(?P<what>[^(),;:?!]{2,60}?)\s*(?:\)|"
                        r"(?=[,;:?!]|\.(?:\s|$)|$|\s+(?:in|for|during|over|and|at|from|by)\b))", re.I)


def _included_subgroups(text: str, mentions: EntityMentions, gazetteer: Gazetteer) -> list[tuple[int, int]]:
    """Spans of "incl. <a subgroup>" right after a product group: a group counts with its subgroups anyway, so the
    words restate the figure's scope (read, never left unread); any other inclusion stays not understood."""
    spans: list[tuple[int, int]] = []
    for mention in mentions.product_groups:
        including = _INCLUDING.match(text, mention.end)
        if (including is not None and mention.resolved
                and subgroup_named_within(including.group("what"), mention.resolved, gazetteer) is not None):
            spans.append(including.span())
    return spans


def _bare_group_figure(cue_text: str, entities: Entities, identifiers: Identifiers,
                       period: PeriodResolution) -> bool:
    """"Xenon Pharma lab consumables Q1 2026", "Kestrel – crates, Q1 2026": a company, a product group and one
    period with no measure word is the company's spend on that group (the one figure the three slots make); a word
    asking for members, suppliers, a listing, a document or another measure keeps it out."""
    if (not ((entities.company_id or _every_company_word(cue_text)) and entities.product_group_id)
            or period.time_range is None or period.ambiguous):
        return False
    if identifiers.invoice_numbers or identifiers.contract_ids or identifiers.document_ids:
        return False
    return not (_NOT_A_GROUP_FIGURE.search(cue_text) or _COUNTED.search(cue_text) or _QUANTITY.search(cue_text))


_SUMMARY_CUES = re.compile(r"\b(summar\w+|explain\w*|describe\w*|terms|clauses?|what does .{1,60} say)\b", re.I)
#: Words that make a product-group mention a traversal (members of the group, who supplies it): "which products
#: belong to Sensors", "suppliers of pressure sensors". Without them ("How often should the pressure sensor be
#: calibrated?") the group name is only the topic of a document question.
_GROUP_TRAVERSAL = re.compile(
    r"\b(products?|(?<!open )items?|articles?|members?|group|groups|suppliers?|vendors?|who|catalog(?:ue)?)\b", re.I
)
#: A price per unit is a catalogue/line metric, not company spend ("What did we pay per unit for PRD-482?").
#: "Which supplier did we spend more with, Beta or Gamma?": a choice between the named suppliers.
_WHICH_OF_THEM = re.compile(
    r"\bwhich\s+(?:of\s+(?:them|the\s+two|these|those|\w*\s+(?:and|or)\s+\w*)(?!\w)|(?:supplier|vendor|one)s?\b).*"
    r"\b(?:more|most|less|least|higher|highest|lower|lowest|bigger|biggest|larger|largest|smaller|smallest|greater)\b",
    re.I)
_UNIT_PRICE_WORDS = re.compile(r"\b(unit price|unit cost|per unit|per piece|per pc|price per|cost per|each unit|"
                               r"list price|(?:eur|usd|gbp|chf)\s*/\s*(?:unit|piece|pc)|(?:pro|je|per) st(?:ü|ue)ck)\b",
                               re.I)
#: Purchased quantities are measured over invoices like spend: they need a company and a period too.
#: A count asked for ("how many", "number of", "# of"): a figure question, like spend.
#: ("#1 supplier" is a rank, not a count)
_COUNTED = re.compile(r"\bhow many\b|\b(?:number|count|no\.|nr\.?)\s+of\b|(?<!\w)#(?!\s?1(?![\d.,]))\s*(?:of\b)?", re.I)
#: The unit noun of a quantity asked for ("how many sets", "number of pieces", "wie viele Stück").
_UNIT_NOUN = re.compile(r"\b(?:how\s+many|number\s+of|wie\s+viele?|anzahl(?:\s+der)?)\s+"
                        r"(sets|pieces|pcs|items|pairs|units|packs|st(?:ü|ue)ck|stk\.?)(?!\w)", re.I)
#: "qty" / "qtys" is the finance user's shorthand for the quantity ("qty of PRD-491 bought by Company A").
_QUANTITY = re.compile(r"\b(how many units|units|quantity|quantities|pieces|qtys?)\b", re.I)
#: "average per box", "per roll on average": a price per item asked, a figure.
_AVERAGE_PER = re.compile(r"\b(?:average|avg\.?|mean)\s+(?:[\w.]+\s+){0,2}?per\b|\bper\s+\w+\s+on\s+average\b", re.I)
_BOUGHT_FROM = re.compile(r"\b(?:buy|buys|bought|purchased?|ordered|order|get|got)\s+from\b", re.I)
_PURCHASE = re.compile(r"\b(buy|bought|purchase|purchased|order|ordered|receive|received)\b", re.I)
#: Invoices filtered by an amount ("which invoices are above 5,000 EUR") need a company and a period too.
_INVOICE_FILTER = re.compile(r"\binvoices\b", re.I)
_THRESHOLD_WORDS = re.compile(r"\b(above|below|over|under|exceed\w*|cross(?:es|ed|ing)?|surpass\w*|topped|beyond|"
                              r"more than|less than|at least|at most|"
                              r"north of|south of|no more than|not more than|up to|maximum|minimum)\b|[<>≤≥]", re.I)
#: Invoice states no governed figure records ("overdue invoices", "disputed spend"): asked about, never dropped.
_UNKNOWN_STATUS = re.compile(
    r"\b(overdue|past[- ]due|disputed|in dispute|on hold|blocked|rejected)\b"
    r"(?=[\s\w'’.-]{0,40}\b(?:invoices?|bills|spend|spending|amounts?|items|credit notes?)\b)"
    r"|(?<=\binvoices)\s+(?:that are |which are )?(overdue|past[- ]due|disputed|in dispute|on hold)\b"
    # "how much is overdue with Beta"
    r"|\b(?:is|are|was|were)\s+(?:still\s+)?(overdue|past[- ]due|disputed|in dispute|on hold)\b"
    # "invoices that are more than 60 days past due", "payables overdue by more than 90 days": a due date asked
    r"|\b(?:(?:more|less|longer)\s+than\s+|over\s+|at\s+least\s+)?\d+\s+days\s+(overdue|past[- ]due)\b"
    r"|\b(overdue|past[- ]due)\s+by\s+(?:(?:more|less)\s+than\s+|over\s+|at\s+least\s+)?\d+\s+days\b"
    r"|(?<=\bpayables\s)(overdue|past[- ]due)\b|\b(overdue|past[- ]due)\s+(?:amount|portion|part|share)\b", re.I)
#: "in local currency", "in whatever currency the invoices were in": the user has not chosen a currency.
_CURRENCY_UNCHOSEN = re.compile(
    r"\b(local|original|native|invoice|invoiced|transaction|source|document|whatever|any|their own|its own)\s+"
    r"currenc(?:y|ies)\b|\bcurrenc(?:y|ies)\s+(?:the|they|it|each)\b",
    re.I,
)
#: Paid and posted named as alternatives: the user is unsure which invoice statuses count.
_STATUS_CHOICE = re.compile(
    r"\b(paid\s+or\s+posted|posted\s+or\s+paid|paid\s+(?:vs\.?|versus)\s+posted|posted\s+(?:vs\.?|versus)\s+paid)\b",
    re.I,
)
#: "How many invoices", "number of invoices", "invoice count": a count of invoices.
_INVOICE_COUNT = re.compile(
    r"\b(how many (?:\w+\s+){0,2}invoices|number of (?:\w+\s+){0,2}invoices|invoice counts?|count (?:of )?(?:the )?"
    r"(?:\w+\s+)?invoices|invoice volume|how many times (?:did|has|have)\b[^?.;!]{1,60}?\binvoiced?|"
    # the noun first, the question after it: "Gamma invoices Company A, Feb 2026: how many?"
    r"invoices\b[^?.;!]{0,80}?[:,–-]\s*how many(?=\s*(?:[?.!]|$)))",
    re.I,
)
#: A price comparison between suppliers ("which supplier is cheaper"): unit prices compare per product only.
_CHEAPER = re.compile(r"\b(cheaper|cheapest|less expensive|least expensive|lower prices?|lowest prices?|"
                      r"best prices?|more expensive|most expensive|pricier)\b", re.I)
# Design note: the router decides *that* a figure is asked for; the measure decides *which* governed metric
# computes it. Each pattern names a measure, never a particular question.
_UNIT_PRICE = re.compile(
    r"\b(unit[- ]prices?|unit[- ]costs?|per unit|per piece|per pc|price per|cost per unit|average (?:net )?price|"
    r"prices? (?:of|for|paid)|(?:eur|usd|gbp|chf)\s*/\s*(?:unit|piece|pc|stk|st(?:ü|ue)ck)|"
    r"(?:pro|je|per) st(?:ü|ue)ck)\b", re.I
)
_TAX = re.compile(r"\b(tax|taxes|vat)\b", re.I)
#: "incl. VAT", "VAT included": spend is net + tax already (the governed amount), so the phrase restates the basis
#: and asks for no tax figure.
_WITH_TAX = re.compile(r"\b(?:incl\.?|including|inclusive of|with|gross of|inkl\.?)\s+(?:the\s+)?(?:vat|tax(?:es)?)\b"
                       r"|\b(?:vat|tax(?:es)?)\s+included\b", re.I)
_LINES = re.compile(r"\b(?:invoice )?lines?\b|\bline items?\b", re.I)
_PRODUCTS = re.compile(r"\b(products?|(?<!open )items?|articles?|catalog(?:ue)?|suppl(?:y|ies)|sells?|carr(?:y|ies)|"
                       r"stocks?)\b", re.I)
#: Personal and bank data of suppliers is not served by ask (minimization; the architecture's security rules).
_PERSONAL_DATA = re.compile(
    r"\b(iban|ibans|bic|swift|bank (?:account|details|data)s?|account numbers?|e-?mail address(?:es)?|"
    r"contact (?:details|e-?mails?|addresses)|phone numbers?|telephone numbers?)\b",
    re.I,
)
_SENTENCES = re.compile(r"(?<=[.?!;])\s+|,\s*(?:and|also|plus)\s+", re.I)
_CLAUSES = re.compile(r",\s*(?:and|also|plus)\s+|;\s*|\?\s+|\band also\b", re.I)
_QUOTED = re.compile(r"[\"“”„]([^\"“”„]{2,200})[\"“”]")
#: Words that name a company's agreement ("framework agreement", "purchasing contract", "agreements").
_AGREEMENT_WORDS = re.compile(r"\b(?:(?:framework|purchasing|supply|master)\s+)?(?:agreement|contract|agmt|agrmt|"
                              r"agreemt)s?\b|"
                              r"\b(?:rahmen|liefer|einkaufs)?(?:vertrag(?:e?s)?|verträge)\b", re.I)
_AGREEMENT_QUESTION = re.compile(r"\b(which|what) (agreements?|contracts?)\b", re.I)

MetricKind = Literal["unit_price", "tax_total", "units_purchased", "invoices_above_threshold", "unsupported"]


# --- names the reader cannot place --------------------------------------------------------------------------
#: Capitalized words that are vocabulary, not names: question words, units, period and document words.
_COMMON_CAPITALIZED = frozenset("""
entities entity subsidiaries firms cos tenant tenant-wide group-wide groupwide konzernweit cross-company
account accounted
a an the i we our us you my in on at of for from to by with and or but is are was were be been do does did what
whats how which who whom whose when where why can could should would will shall may might must please show list
give tell compare explain describe summarize summarise total totals sum spend spent spending invoice invoices
supplier suppliers vendor vendors company companies product products group groups agreement agreements contract
contracts framework manual manuals tax vat net gross eur usd gbp chf ytd qtd mtd fy h1 h2 q1 q2 q3 q4 january
february march april may june july august september october november december jan feb mar apr jun jul aug sep
sept oct nov dec monday tuesday wednesday thursday friday saturday sunday also all any each every find get let
me approved approval sku skus id ids iban bic swift pdf csv ok yes no not only just between since until before
after during per vs versus including excluding incl excl how's what's which's credit note notes line lines
purchase purchases purchased amount amounts paid posted status statuses year years quarter quarters month months
date dates price prices unit units quantity quantities report reports breakdown document documents terms payment
payments due spend spending expenditure cost costs figure figures number numbers count counts average avg mean
order orders item items article articles category categories catalog catalogue catalogs member members owner
owners approved approvals authorized authorised currency currencies euro euros dollar dollars pound pounds
swiss sterling franc francs denominated invoiced billed
tax taxes vat gross net threshold thresholds above below over under more less than most least top bottom
first last previous prior current this next second third fourth half halves fiscal calendar week weeks day days
today yesterday now please thanks thank hi hello dear team finance procurement buyer buyers analyst cfo
overview summary details detail breakdowns split grouped group-by by-month monthly quarterly yearly weekly daily
incl excl including excluding only also both either neither each every all any some none not no yes
which what who whom whose when where why how much many is are was were did does do has have had
clause clauses section sections page pages warranty liability calibration installation maintenance manual
framework master supply agreement agreements contract contracts amendment amendments version versions
everyone everybody anyone anybody everything thousand hundred million billion
up down went go goes going gone come came bill bills billing money cash spendings percent percentage percentages
proportion portion fraction slice share shares sold sell sells selling buy bought buying cheap cheaper cheapest
expensive pricier priciest high higher highest low lower lowest big bigger biggest large larger largest small
smaller smallest greatest most least much many more less few fewer number one two three four five six seven
eight nine ten rank ranked ranking ranks change changed changes growth grow grew grown increase increased
decrease decreased difference variance trend development developed move moved compared comparison relative
break broken out across against versus received receive got get send sent issued value worth overall whole
entire full sum summed add added together combined still already yet outstanding open unpaid settled cleared
owe owed owing draft drafts cancelled canceled paid give need needs want wants like would please help quick
question board deck review monthly quarterly annual annually weekly daily reporting numbers figure so far same
period periods calendar fiscal financial year-to-date quarter-to-date month-to-date rolling trailing past
name named who's where's there here other others else rest remaining apart besides except without minus plus
leaving leave counting counted count excl. incl. only just approx approximately roughly about around exact
exactly invoiced billed charged charge charges spent purchases purchasing procured procurement sourcing
direct indirect vendor's supplier's company's supplies supply supplied supplying fx convert conversion
book time times volume volumes wallet incur incurred rack racked shell shelled fork forked splash splashed lay laid
disburse disbursed run ran them those these they
exclude excluded removed omitted ignore ignored aside dropped disregard disregarding take taken taking took left out
recognise recognize booked actual realise realize
aggregate aggregated consolidated cumulative
""".split())  # noqa: SIM905 - a word list reads better as text
#: Request verbs that open a request ("Return total spend ...", "Fetch the invoices ..."): grammar where they open a
#: sentence, but nouns elsewhere ("returns spend" is spend on returns, named back when no group reads it).
_OPENING_VERBS = frozenset({"return", "fetch", "retrieve", "output", "provide", "confirm", "check", "verify",
                            "double-check", "lookup", "look", "pull", "query"})
#: Contractions of a pronoun or an auxiliary ("I'd", "we've", "didn't", "I'm"): grammar, never a name.
_CONTRACTION = re.compile(r"(?P<base>[a-z]+)['’](?P<tail>d|m|ve|ll|re|t)")
_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "it", "that", "there", "who", "what", "where", "how"})
#: Inflections of vocabulary words are vocabulary too ("Ranked", "Grows"); the base must be in the list.
_INFLECTIONS = ("s", "es", "ed", "d", "ing", "er", "est", "ly")
#: Words one space apart only: a masked (consumed) span between two words leaves several spaces.
_CAPITALIZED_RUN = re.compile(r"(?<![\w'’-])([A-Z][\w&'’.-]*[\w&]|[A-Z])(?: (?:[A-Z][\w&'’.-]*[\w&]|[A-Z]))*")
_SENTENCE_START = re.compile(r"(?:^|[.?!:;]\s*|\n\s*)$")
#: Where an opening verb is an imperative: a sentence start, or after a courtesy word ("for the review please provide
#: spend by company", "could you pull spend by supplier").
_IMPERATIVE_START = re.compile(r"(?:^|[.?!:;]\s*|\n\s*|\b(?:please|pls|plz|kindly|(?:can|could|would|will)\s+"
                               r"(?:you|u)(?:\s+please)?)\s+)$", re.I)
#: "spend on X", "purchases of X", "spent with X", "bought from X": X is a constraint (a group or a supplier).
_CONSTRAINT_OBJECT = re.compile(
    # (an object after a read period, "spend in March 2026 on catering", is found by noun_phrases, which checks
    # its words against the vocabulary: "invoiced for PRD-915 on a EUR invoice" names no object)
    r"\b(?:(?:spend|spent|spending|expenditure|purchases?|purchased|bought|paid|pay|invoiced|costs?) "
    # a name read already is blanked in the text this runs on: what is joined to it ("with Zeta and omega") is
    # an object of the same verb
    # ("spend w/ acme sensors": the chat abbreviation of "with")
    r"(?:on|for|with|w/|from|of|to)"
    # "how many invoices did we get from sigma parts": the sender of counted documents
    r"|(?:invoices?|credit[- ]?notes?|bills|received|receive|got|get) from)"
    r"(?: |\s+(?P<joined>&|\band\b|\bor\b|\bplus\b)\s+)"
    r"(?P<what>[a-z][\w&-]*(?: [a-z][\w&-]*){0,2})",
    re.I,
)
#: Words that may open an object without being it: "spend with supplier kappa" names kappa.
_OBJECT_LEAD = frozenset(["a", "an", "the", "our", "their", "its", "supplier", "vendor", "company", "manufacturer",
                          # "spend on just crates": the subgroup marked as the only one meant (router/group_only.py)
                          "just", "only", "solely", "specifically",
                          # the all-companies scope words ("spend of group-wide with Gamma", router/group_scope.py)
                          "group-wide", "groupwide", "tenant-wide", "company-wide", "companywide", "konzernweit"])
#: Lower-case words that may follow "spend on"/"spend with" without naming a constraint.
_OBJECT_WORDS = frozenset("""
a an the its their our all any each every this that these those his her them it everything anything approved
everyone everybody anyone anybody both
vendors vendors suppliers supplier vendor products product items item goods services invoices invoice lines
company companies average total overall the period last previous this current first second third fourth quarter
month year week day half in during over across by per since between from to until up and or
with of on for at via through
excluded left out aside removed ignored omitted dropped taken not excluding except without
percent percentage percentages pct
""".split())  # noqa: SIM905 - a word list reads better as text
# ("spend on X, Q1 vs Q4 in euros and percent": the units the change is given in, never a thing bought)


#: A threshold on a length of time ("more than 90 days past due", "over 30 days old", "mehr als 60 Tage
#: überfällig"): no amount (router/reading.py) and no period; named back when nothing else reads it.
_TIME_THRESHOLD = re.compile(
    r"\b(?:(?:more|less|fewer|longer|shorter)\s+than|over|under|above|below|at\s+least|at\s+most|beyond|"
    r"mehr\s+als|weniger\s+als|über|unter)\s+\d+\s+(?:business\s+|calendar\s+)?(?:days?|weeks?|months?|"
    r"tagen?|wochen|monaten?)\b(?:\s+(?:past\s+due|overdue|old|late|outstanding|unpaid|open|(?:ü|ue)berf(?:ä|ae)llig))?",
    re.I)


@dataclass(frozen=True)
class Unread:
    """A constraint-looking span that maps to nothing the tenant knows (or to several things)."""

    text: str
    start: int
    end: int
    kind: Literal["name", "category", "date", "breakdown", "status", "dimension"]
    candidates: tuple[str, ...] = ()  # "ID (name)" when several spellings are close


@dataclass(frozen=True)
class NameMatch:
    """One spelling a span resembles: its kind, canonical id, the spelling and its trigram similarity."""

    kind: Literal["company", "supplier", "product_group"]
    canonical_id: str
    spelling: str
    score: float


class NameResolver(Protocol):
    """Names of the tenant similar to a span (best first); ``pg_trgm`` in production (:mod:`router.names`)."""

    def similar(self, text: str) -> Sequence[NameMatch]:
        """Matches at or above the resolver's threshold, best first."""
        ...


# --- trigram similarity (pg_trgm's definition, for in-memory resolution and its tests) -----------------------
_TRGM_WORD = re.compile(r"[0-9A-Za-zÀ-ÖØ-öø-ÿß]+")


def trigrams(text: str) -> frozenset[str]:
    """pg_trgm's trigrams: each lower-cased alphanumeric word padded with two spaces before and one after.

    >>> sorted(trigrams("Cat"))
    ['  c', ' ca', 'at ', 'cat']
    """
    found: set[str] = set()
    for word in _TRGM_WORD.findall(text.lower()):
        padded = f"  {word} "
        found.update(padded[i:i + 3] for i in range(len(padded) - 2))
    return frozenset(found)


def similarity(a: str, b: str) -> float:
    """pg_trgm's ``similarity(a, b)``: shared trigrams over all trigrams of the two strings."""
    ta, tb = trigrams(a), trigrams(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


#: Words of a span that are not matched: the kind of name ("supplier", "vendor", "company") and articles. Category
#: nouns ("services", "products") are matched: "Monitoring Services" is not "Monitoring Products".
_GENERIC_WORDS = frozenset({"supplier", "suppliers", "vendor", "vendors", "company", "companies", "the", "of", "and",
                            "with", "from", "on", "for", "our", "its"})


def span_words(text: str) -> tuple[str, ...]:
    """The distinctive words of a span: normalized (lower case, no legal form), generic words dropped."""
    return tuple(w for w in (normalize_supplier_name(text) or "").split() if w not in _GENERIC_WORDS)


def name_score(words: Sequence[str], spelling: str) -> float:
    """How well a span's distinctive words and a spelling's match, word by word: every word of the span must
    match some word of the spelling, and every distinctive word of the spelling some word of the span (the
    smaller of the two, each the worst word's best pg_trgm ``similarity``; 0 when either side has no word).

    Word by word, so a shared generic word ("Sigma *Supplies*" vs "Beta *Supplies*"), an extra unknown word
    ("Zeta *Tech*") or a missing distinctive word ("Cables" vs "Iota Cables") never carries a different name over
    the threshold.
    """
    targets = (normalize_supplier_name(spelling) or "").split()
    if not words or not targets:
        return 0.0
    distinctive = [t for t in targets if t not in SKIPPED_WORDS] or targets
    forward = min(max(similarity(w, t) for t in targets) for w in words)
    backward = min(max(similarity(t, w) for w in words) for t in distinctive)
    return min(forward, backward)


#: Words of a spelling that need no counterpart in the span (generic nouns of names, legal forms, articles).
SKIPPED_WORDS = frozenset({*GENERIC_NAME_WORDS, *_GENERIC_WORDS, *LEGAL_FORMS})


#: A span is read as a name of the tenant from this word score on. Measured by :func:`router.names.measure` over
#: every one-edit typo (delete, substitute, insert, swap) of every word of 5+ letters of every spelling of the
#: demo vocabulary, and over made-up names that belong to nobody (the numbers are in router/names.py).
NAME_THRESHOLD = 0.4
#: At most this many spans of one question are looked up by similarity.
MAX_LOOKUPS = 4
#: A second candidate within this margin of the best makes the span ambiguous (a clarification listing both).
NAME_MARGIN = 0.08


def name_spellings(gazetteer: Gazetteer) -> tuple[tuple[str, str, str], ...]:
    """(kind, canonical id, spelling) for every name of the tenant: company names, supplier names and aliases
    (normalized), product-group names."""
    out: list[tuple[str, str, str]] = []
    for c in gazetteer.companies:
        out.append(("company", c.company_id, c.company_name))
    for spelling, ids in gazetteer.supplier_aliases.items():
        for sid in ids:
            out.append(("supplier", sid, spelling))
    for g in gazetteer.product_groups:
        out.append(("product_group", g.product_group_id, g.group_name))
    out.extend(("product_group", gid, synonym) for synonym, gid in gazetteer.group_synonyms)
    return tuple(dict.fromkeys(out))


def rank_matches(scored: Iterable[tuple[str, str, str, float]], threshold: float) -> list[NameMatch]:
    """The best spelling per canonical id at or above ``threshold``, best first."""
    best: dict[tuple[str, str], NameMatch] = {}
    for kind, cid, spelling, score in scored:
        if score >= threshold and ((kind, cid) not in best or score > best[(kind, cid)].score):
            best[(kind, cid)] = NameMatch(kind, cid, spelling, round(score, 4))  # type: ignore[arg-type]
    return sorted(best.values(), key=lambda m: (-m.score, m.kind, m.canonical_id))


@dataclass(frozen=True)
class TrigramResolver:
    """:class:`NameResolver` over a gazetteer in memory, with pg_trgm's similarity (the database-free twin of
    :class:`router.names.PgTrigramResolver`)."""

    gazetteer: Gazetteer
    threshold: float = NAME_THRESHOLD

    def similar(self, text: str) -> Sequence[NameMatch]:
        """Spellings at or above the threshold, best first (one per canonical id)."""
        words = span_words(text)
        if not words:
            return []
        return rank_matches(((k, c, s, name_score(words, s)) for k, c, s in name_spellings(self.gazetteer)),
                            self.threshold)


# --- the reading ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cues:
    """Cue words of the question (each one a fact about its wording the router or planner decides on)."""

    spend: bool = False
    unit_price: bool = False
    quantity: bool = False
    purchase: bool = False
    invoices: bool = False
    threshold_words: bool = False
    invoice_count: bool = False
    price_comparison: bool = False
    currency_unchosen: bool = False
    net_basis: bool = False
    other_basis: str | None = None
    status_choice: bool = False
    approved: bool = False
    approves: bool = False
    summary: bool = False
    group_traversal: bool = False
    products: bool = False
    agreement_question: bool = False
    personal_data_only: bool = False
    personal_data_mentioned: bool = False
    #: The question names invoices by status or document type ("open invoices with Beta", "credit notes from
    #: Gamma"), a company or supplier and a period, and nothing else to look up: the figure over those invoices.
    filtered_figure: bool = False
    #: "list Company A's invoices billed in USD", "which invoices ... were billed in GBP": the invoices themselves
    #: asked for with a listing verb, narrowed to an invoice currency.
    invoice_list_in_currency: bool = False


@dataclass(frozen=True)
class Reading:
    """One question, read: every slot with the span it came from, and what was not understood."""

    text: str
    as_of: dt.date
    identifiers: Identifiers
    mentions: EntityMentions
    entities: Entities
    #: Problems resolving the mentions (ambiguous or unknown names), as clarification questions.
    entity_problems: tuple[str, ...]
    period: PeriodResolution
    amounts: tuple[Amount, ...]
    breakdown: Breakdown
    statuses: tuple[str, ...]
    excluded_status: str | None
    currencies: tuple[str, ...]
    cues: Cues
    #: The governed measure a figure question names (None: spend or no figure).
    measure: MetricKind | None
    #: A catalog metric (without a workflow of its own) named by its label or synonyms, and its span.
    catalog_metric: CatalogMetric | None
    #: Quoted phrases (literal text to find) and their spans.
    quoted: tuple[str, ...]
    quote_spans: tuple[tuple[int, int], ...]
    #: The question text with identifiers masked (for the intent rules) and with every entity/quote masked.
    cue_text: str
    #: The clauses that ask for text in a mixed question, and the topic of a company-agreement question.
    text_part: str
    agreement_topic: str | None
    consumed: tuple[tuple[int, int], ...] = ()
    not_understood: tuple[Unread, ...] = ()
    #: Unread names in no constraint slot (framing, an aside: router/name_slots.py): named on a PARTIAL answer.
    unslotted: tuple[Unread, ...] = ()
    #: Organisation-unit nouns beside a resolved company read as that company ("alpenland site"): (word, company).
    unit_reads: tuple[tuple[str, str], ...] = ()
    #: Names resolved by similarity rather than exactly ("Monitring Prodcts" -> PG-MON), for the answer.
    fuzzy: tuple[tuple[str, NameMatch], ...] = ()
    #: The analyst slots (ranking, share, comparison, filters, currency, average price; :mod:`router.analysis`).
    analysis: Analysis = field(default_factory=Analysis)
    #: Suppliers and product groups an exclusion cue puts outside the figure ("excluding Beta").
    excluded_supplier_ids: tuple[str, ...] = ()
    excluded_group_ids: tuple[str, ...] = ()
    #: Products an exclusion cue leaves out ("excluding the pH 7 buffer", "except PRD-482"): a not-in filter.
    excluded_product_codes: tuple[str, ...] = ()
    #: Companies an exclusion cue leaves out ("all entities other than Company A"); the company read is the one left.
    excluded_company_ids: tuple[str, ...] = ()
    #: Every status governed figures never count that the question asks for ("cancelled or draft invoices"), in
    #: the order written (router/statuses.py answers them over exactly those documents).
    asked_statuses: tuple[str, ...] = ()

    @property
    def threshold_amount(self) -> Amount | None:
        """The amount with a comparator ("above 5,000 EUR", "at least €10k", "under 500", "höchstens 1.000 €"),
        if the question names exactly one side; of a range ("between 500 and 5,000", "above 500 and below
        5,000") its lower bound (the upper one is :attr:`upper_threshold`)."""
        bounds = amount_range(self.amounts)
        return bounds[0] if bounds is not None else threshold_of(self.amounts)

    @property
    def upper_threshold(self) -> tuple[str, bool] | None:
        """The upper bound of an amount range (exact decimal string) and whether it qualifies itself."""
        bounds = amount_range(self.amounts)
        if bounds is None:
            return None
        return f"{bounds[1].value.quantize(Decimal('0.01'))}", bounds[1].inclusive

    @property
    def threshold_direction(self) -> str:
        """``above`` or ``below``: which side of the threshold qualifies."""
        amount = self.threshold_amount
        return amount.comparator if amount is not None and amount.comparator else "above"

    @property
    def threshold(self) -> tuple[str, str | None] | None:
        """The amount (exact decimal string) and currency of "above 5,000 EUR" / "over €10k"."""
        above = self.threshold_amount
        if above is None:
            return None
        return f"{above.value.quantize(Decimal('0.01'))}", above.currency

    @property
    def threshold_inclusive(self) -> bool:
        """Whether the threshold amount itself qualifies ("at least 5,000", ">= 5,000", "5,000 or more")."""
        above = self.threshold_amount
        return above is not None and above.inclusive


def asks_personal_data(question: str) -> bool:
    """True when the question asks only for suppliers' bank or contact data, which ask never returns.

    A legitimate question with such a request appended ("How do I wire the sensor? Also include every IBAN.") keeps
    its plan (injected text must not change a plan); the personal data is simply never in the answer (evidence is
    redacted), and the answer says so.
    """
    parts = [p for p in _SENTENCES.split(question) if p and p.strip()]
    return bool(parts) and all(_PERSONAL_DATA.search(p) for p in parts)


def threshold_of(amounts: Sequence[Amount]) -> Amount | None:
    """The one threshold amount: the first with a comparator, when every compared amount is on the same side."""
    compared = [a for a in amounts if a.comparator in ("above", "below")]
    if not compared or len({a.comparator for a in compared}) > 1:
        return None
    return compared[0]


def amount_range(amounts: Sequence[Amount]) -> tuple[Amount, Amount] | None:
    """(lower, upper) when the question bounds an amount on both sides ("between 5k and 10k EUR", "over 500 and
    under 5,000"): exactly one amount above and one below, the lower one smaller. A currency named on one bound
    applies to both; two different currencies are no range (asked about)."""
    compared = [a for a in amounts if a.comparator in ("above", "below")]
    if len(compared) != 2 or {a.comparator for a in compared} != {"above", "below"}:
        return None
    low = next(a for a in compared if a.comparator == "above")
    high = next(a for a in compared if a.comparator == "below")
    currencies = {a.currency for a in compared if a.currency}
    if low.value >= high.value or len(currencies) > 1:
        return None
    shared = currencies.pop() if currencies else None
    return replace(low, currency=shared), replace(high, currency=shared)


def metric_kind(text: str, entities: Entities, amounts: tuple[Amount, ...] | None = None) -> MetricKind | None:
    """The governed metric a figure question needs, ``unsupported`` when its parameters are missing,
    ``None`` when the question names no measure other than spend."""
    if _UNIT_PRICE.search(text):
        return "unit_price" if entities.product_codes else "unsupported"
    if _TAX.search(_WITH_TAX.sub(" ", text)):
        return "tax_total" if entities.invoice_numbers else "unsupported"
    found = parse_amounts(text) if amounts is None else amounts
    if any(a.comparator in ("above", "below") for a in found):
        mentions_lines = bool(_LINES.search(text)) and not _INVOICE_FILTER.search(text)
        # Invoice totals are governed (above or below an amount, or between two); single lines are not (yet):
        # refuse rather than answer a different question.
        if mentions_lines or (threshold_of(found) is None and amount_range(found) is None):
            return "unsupported"
        return "invoices_above_threshold"
    if _QUANTITY.search(text):
        return "units_purchased" if entities.supplier_ids else "unsupported"
    return None


def _text_part(question: str) -> str:
    """The clauses of a mixed question that ask for text, not for the figure ("..., and how often must it be
    calibrated?"); the figure's words would otherwise steer retrieval to invoices. The whole question when it
    cannot be split."""
    clauses = [c.strip() for c in _CLAUSES.split(question) if c and c.strip()]
    any_entities = Entities(product_codes=("X",), invoice_numbers=("X",), supplier_ids=("X",))
    text = [c for c in clauses if metric_kind(c, any_entities) is None]
    return " ".join(text) if text and len(text) < len(clauses) else question


def _agreement_topic(question: str, entities: Entities, quoted: tuple[str, ...]) -> str | None:
    """The topic of a question about a named company's agreement ("What are the payment terms in Company A's
    framework agreement?" -> "What are the payment terms in"), or ``None`` when the question is not one.

    Design note: the company and the document kind become filters (company_ids, document_types); left in the
    query text they would rank the agreement's title and definition chunks above the section that answers.
    """
    if entities.company_id is None or not _AGREEMENT_WORDS.search(question) or quoted:
        return None
    text = question
    if entities.company_name:
        text = re.sub(re.escape(entities.company_name) + r"(?:['’]s)?", " ", text, flags=re.I)
    text = " ".join(_AGREEMENT_WORDS.sub(" ", text).split())
    return text if len(text) >= 3 else None


def _currencies(text: str) -> tuple[str, ...]:
    found = []
    for match in _CURRENCY.finditer(text):
        found.append(currency_code(match.group(0)) or match.group(0).upper())
    return tuple(dict.fromkeys(found))


def _covered(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


#: Words that narrow a figure (a status, a basis, an inclusion or exclusion): never vocabulary inside a compound.
_CONSTRAINT_PARTS = frozenset({"paid", "posted", "unpaid", "open", "draft", "cancelled", "only", "net", "gross",
                               "tax", "vat", "excluding", "excl", "including", "incl", "not", "no", "without",
                               "except", "credit", "above", "below", "over", "under", "more", "less", "than", "most",
                               "least", "top", "bottom", "first", "last", "previous", "prior", "next"})


def _marker_word(folded: str) -> bool:
    word = fold(folded)
    # with a plural ending: "Lieferanten", "Gesellschaften", "fournisseurs", "vendors"
    return any(word.endswith(end) and word[:len(word) - len(end)] in KIND_MARKERS
               for end in ("", "s", "en", "n") if len(word) - len(end) >= 4 or not end)


def _vocabulary(word: str) -> bool:
    folded = re.sub(r"['’]s$", "", word).lower().strip(".")
    # (a kind marker alone, "welche Gesellschaft", "Lieferanten", says "company"/"supplier": router/name_match.py)
    if folded in _COMMON_CAPITALIZED or folded in LEGAL_FORMS or _marker_word(folded):
        return True
    contraction = _CONTRACTION.fullmatch(folded)
    if contraction is not None:
        base, tail = contraction.group("base", "tail")
        return base in _PRONOUNS if tail != "t" else base.endswith("n")  # "didn't", "won't", "can't"
    if "-" in folded.strip("-"):
        # "FY-half", "Approved-vendor": a compound of vocabulary words is vocabulary, never an unknown name; one
        # with a word that narrows a figure ("paid-only", "net-of-tax") stays unread unless a cue reads it (taken
        # as vocabulary, its constraint would be dropped silently)
        parts = folded.split("-")
        return not _CONSTRAINT_PARTS.intersection(parts) and all(_vocabulary(part) for part in parts)
    return any(folded.endswith(end) and folded[: -len(end)] in _COMMON_CAPITALIZED
               for end in _INFLECTIONS if len(folded) > len(end) + 2)


def _name_vocabulary(word: str) -> bool:
    """A word that is no name in a name slot: the reader's vocabulary, object and courtesy words."""
    lower = word.lower()
    return _vocabulary(word) or lower in _OBJECT_WORDS or lower in _NP_VOCABULARY or lower in _OPENING_VERBS


def _candidate_names(text: str, masked: str) -> list[tuple[int, int, str]]:
    """Capitalized word runs of the (masked) text that are not vocabulary and do not start a sentence."""
    found: list[tuple[int, int, str]] = []
    for match in _CAPITALIZED_RUN.finditer(masked):
        words = match.group(0).split()
        start = match.start()
        # On the question itself: a read name masked before the word ("Could you tell me: Company B top 2 Kappa")
        # leaves it mid-sentence, not first after the colon.
        if _SENTENCE_START.search(text[:start]):
            # The first word of a sentence is capitalized anyway ("Summarize", "Ignore"): not a name by itself.
            if len(words) == 1:
                continue
            start = masked.index(words[1], start + len(words[0]))
            words = words[1:]
        # Drop vocabulary words at both ends ("Which", "EUR"), keep the name inside.
        while words and _vocabulary(words[0]):
            start = masked.index(words[1], start + len(words[0])) if len(words) > 1 else match.end()
            words = words[1:]
        while words and _vocabulary(words[-1]):
            words = words[:-1]
        if len(words) == 1 and len(words[0]) == 1 and match.group(0).split()[:-1]:
            # "Company Z": a one-letter name keeps the word that makes it one.
            words = match.group(0).split()[-2:]
            start = match.start() + match.group(0).rindex(words[0])
        if not words:
            continue
        phrase = " ".join(words)
        phrase = re.sub(r"['’]s$", "", phrase)
        end = start + len(phrase)
        if len(phrase) < 2 or any(ch.isdigit() for ch in phrase):
            continue  # a model or document code ("PS-Z1"), not a name of the tenant
        found.append((start, end, text[start:end]))
    return found


#: "how many suppliers for safety shoes", "number of vendors for cables": what counted suppliers are asked for (the
#: measure phrase is a catalog metric's and masked in the residual text, so this runs on the text before it).
#: (one space after "for": a blank run is a read name or period, and what follows it is another clause, "vendors for
#: [Q1 2026] supply monitoring products")
_COUNTED_FOR = re.compile(r"\b(?:suppliers|vendors) for (?!(?:supply|supplies|supplying|which|that|who|whom|the\s+"
                          r"period|period)\b)(?P<what>[a-z][\w&-]*(?: [a-z][\w&-]*){0,2})", re.I)


#: Words that start what is said about the object, never a word of it ("vendors for cabling after the amendment").
_CLAUSE_STARTS = frozenset({"after", "before", "following", "since", "until", "per", "under", "according", "during",
                            "as", "on", "at", "by", "from", "with", "in"})


def _counted_for(scratch: str, consumed: Sequence[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Category-like objects after "suppliers for" that no reading consumed: offered like any object phrase."""
    found: list[tuple[int, int, str]] = []
    for match in _COUNTED_FOR.finditer(scratch):
        kept: list[str] = []
        for w in match.group("what").split():
            if not kept and w.lower() in _OBJECT_LEAD:
                continue
            if w.lower() in _OBJECT_WORDS or w.lower() in _NP_VOCABULARY or w.lower() in _CLAUSE_STARTS:
                break
            kept.append(w)
        if not kept:
            continue
        phrase = " ".join(kept)
        start = scratch.index(kept[0], match.start("what"))
        if not _covered(start, start + len(phrase), consumed):
            found.append((start, start + len(phrase), phrase))
    return found


def _it_acronym(words: list[str], i: int, kept: list[str]) -> bool:
    """A lowercase "it" opening a spend object and followed by a noun is the acronym ("spend on it hardware", as a
    speech transcript writes "IT hardware"), never the pronoun ("spend on it with Beta", "spend on it in 2025")."""
    if kept or words[i].lower() != "it" or i + 1 >= len(words):
        return False
    after = words[i + 1]
    return after.isalpha() and after.lower() not in _AFTER_PRONOUN_IT


#: Words that follow the pronoun "it" in a spend question ("spend on it in 2025", "on it and ..."): no noun of the
#: acronym. Anything else after a lowercase "it" ("it hardware", "it services") is what was bought.
_AFTER_PRONOUN_IT = frozenset("""
in during over across by per since between from to until up and or with of on for at via through the a an last this
previous next so as is was were be been too also please again now then all both either total overall altogether
exactly roughly about approximately
""".split())  # noqa: SIM905 - a word list reads better as text


def _object_phrases(masked: str) -> list[tuple[int, int, str]]:
    """Category-like objects of spend verbs ("spend on widgets", "bought from acme") in the masked text."""
    found: list[tuple[int, int, str]] = []
    for match in _CONSTRAINT_OBJECT.finditer(masked):
        words = match.group("what").split()
        kept: list[str] = []
        for i, w in enumerate(words):
            if not kept and w.lower() in _OBJECT_LEAD:
                continue
            if w.lower() in _OBJECT_WORDS and not (len(w) > 1 and w.isupper()) and not _it_acronym(words, i, kept):
                break  # ("IT hardware" is not "it", nor is a transcript's lowercase "it hardware")
            if not kept and w.lower() in MEASURE_WORDS and (i + 1 == len(words)
                                                             or words[i + 1].lower() in _OBJECT_WORDS):
                # "total costs of purchases for ...": a measure word ending the object names the figure, never a
                # thing bought to ask back ("spend on price lists" keeps its object: the word is a modifier there)
                break
            kept.append(w)
        if not kept:
            continue
        phrase = " ".join(kept)
        start = masked.index(kept[0], match.start("what"))
        if match.group("joined") and not _joined_name(words, kept, masked[start + len(phrase):]):
            continue
        found.append((start, start + len(phrase), phrase))
    return found


_NP_WORD = re.compile(r"[^\W\d_][\w&'’-]*")
#: Nouns of a spend figure: the words before them name what was bought ("catering spend", "IT hardware costs").
_SPEND_NOUN = re.compile(r"\s+(?:spend|spending|spendings|expenditure|expenditures|expenses|purchases|costs|"
                         r"outlay|bill|bills|"
                         # "what did sparkle cleaning cost us": the subject of "cost us" is what was bought
                         r"cost(?:ed)?\s+(?:us|me|them|our\s+\w+|the\s+(?:company|business|plant|site)))\b", re.I)
#: Words around a figure that name no category and are not in the vocabulary of names (courtesy, scope words).
_NP_VOCABULARY = frozenset("""
pls plz asap fyi thx need needed quick approx tia btw group-wide groupwide company-wide companywide enterprise-wide
organisation-wide organization-wide tenant-wide entity entities three two
new various additional misc miscellaneous general own such specific particular different certain usual
distinct unique individual separate
just only solely specifically exclusively alone
pay pays paid paying
nach von der die das den dem des mit und im für fuer bei auf zum zur aus über ueber unter pro je ohne außer ausser
seit bis vom am
""".split())  # noqa: SIM905 - a word list reads better as text


#: A spend verb and its preposition right before a purchased thing; a read period may stand between them (blanked).
_SPEND_OBJECT_BEFORE = re.compile(
    r"\b(?:spend|spent|spending|expenditure|expenses|purchases?|purchased|bought|buy|buying|paid|pay|invoiced|"
    # (one space before the object: "spend for [a read period] expressed in EUR" has none)
    r"costs?|bills?)\s+(?:(?:in|during|over|for|since|from|between|last|this)\s+)?(?:on|for|of) (?:(?:the|our|all) )?$"
    # "spend w/ Beta on drone parts", "how much went on pumps at Company B": names and periods read between the
    # verb and its preposition are blanked; only scope words may stand there besides
    # (one space or one word per step: nested repeats of spaces would backtrack exponentially on blanked runs)
    r"|\b(?:spend|spent|spending|went|go|goes|gone|going)(?:\s|(?<=\s)(?:w/|with|at|from|by|of|in|during|over|"
    r"since|between|last|this|the|our|all|total|overall|company|supplier|vendor|"
    # a legal form left after a read name ("w/ delta enclosures ltd on ...")
    r"ltd\.?|limited|gmbh|ag|inc\.?|llc|plc|corp\.?|co\.?|kg|se|sa|bv|srl)(?=\s))+(?<=\s)on (?:(?:the|our|all) )?$"
    # "how much did Company A buy office furniture for", "purchased catering": the object of a buying verb
    r"|\b(?:buy|bought|buying|purchase|purchased|purchasing|order|ordered) (?:(?:the|our|any|all) )?$"
    # "how much office furniture did we buy"
    r"|\bhow\s+(?:much|many) $"
    # "Ypsilon: total for kantoorartikelen", "the amount on zorblax": what a total is of (an unknown word there is
    # asked about, never dropped for the total of everything)
    r"|\b(?:total|totals|amount|sum|figure) (?:for|on) (?:(?:the|our|all) )?$",
    re.I)
#: "company c spend hydraulics 2025", "comp a spend it hardware q1 26": a noun right after the spend noun and before
#: the period is what was bought; before anything else it is another clause's word ("which certificates must the
#: supplier with the largest share of our spend hold?"), not an object of the spend
_SPEND_DIRECT_BEFORE = re.compile(r"\bspend (?:it )?$", re.I)
_PERIOD_AFTER = re.compile(r"\s*(?:\d|(?:q[1-4]|h[12]|fy\w*|ytd|last|this|previous|jan\w*|feb\w*|mar\w*|apr\w*|"
                           r"may|jun\w*|jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*)\b)", re.I)
#: French and Spanish function words left by a partial reading ("spend por sociedad H2 2025" is a breakdown by
#: company): they open no name of a thing bought
_FUNCTION_WORD = re.compile(r"(?:por|par|pour|para|de|del|des|du|en|el|la|le|les|los|las|au|aux|sur)\b", re.I)
#: "how much did Alpenland pay kappa logistik": who was paid, right after the paying verb.
_PAID_OBJECT_BEFORE = re.compile(r"\b(?:pay|paid)\s+$", re.I)
#: Nouns of goods that are vocabulary too ("cleaning supplies", "sensor equipment"): part of a noun phrase they
#: stand in, never unknown by themselves, nor with a group name ("MRO supplies" is the group's supplies).
_HEAD_NOUNS = frozenset({"supplies", "supply", "products", "product", "items", "parts", "materials", "material",
                         "equipment", "goods", "articles", "consumables",
                         # "pantry category spend": the category's own name is the word before it, asked about
                         "category", "categories", "kategorie", "warengruppe", "catégorie", "categoria"})
#: Nouns of an activity ("calibration training", "sensor repairs"): part of a noun phrase, not unknown alone, but
#: with a group name they make another noun than the group ("sensor repairs" is no spend on sensors).
_TOPIC_NOUNS = frozenset({"calibration", "installation", "maintenance", "repair", "repairs", "warranty", "service",
                          "services"})


_NEXT_WORD = re.compile(r"[ \t]+([^\W\d_][\w'’-]*)")


def _measure_head(text: str, start: int, end: int) -> bool:
    """Whether the word at ``start:end`` is a measure word heading its phrase ("costs of expenses for Company A"):
    the figure's own word, nothing bought. Followed by another content word it is a modifier ("price lists")."""
    if text[start:end].lower() not in MEASURE_WORDS:
        return False
    after = _NEXT_WORD.match(text, end)
    return after is None or after.group(1).lower() in _OBJECT_WORDS


def noun_phrases(text: str, residual: str, group_spans: Sequence[tuple[int, int]],
                 consumed: Sequence[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """Category-like noun phrases the reading has not placed: runs of adjacent words, at least one of them neither
    vocabulary nor read, in the place of what was bought: right before a spend noun ("catering spend", "Company A
    office furniture spend") or right after a spend verb and its preposition ("spend on office furniture", "spend
    in March on catering"). A product-group name inside such a run ("office furniture" around the group Office,
    "sensor software") is a word of a longer noun, not the group: the run is named back as a whole, never read as
    the group alone.

    Design note: words are joined only by spaces (a comma, a dash or a masked name ends a run), a word is unknown
    only when it is no vocabulary word, no word of a name read and no courtesy word, and only the two places of a
    purchased thing count (a verb after a group, "which certificates must the supplier of Sensors hold", is not a
    noun of it), so a figure question in the demo vocabulary keeps its answer (measured by
    :mod:`evaluation.probes_exclusions`, class ``known``).

    >>> noun_phrases("A spend on office furniture", "A spend on        furniture", [(11, 17)], [(11, 17)])
    [(11, 27, 'office furniture')]
    """
    others = [span for span in consumed if span not in set(group_spans)]
    tokens: list[tuple[int, int, str]] = []  # (start, end, kind): G group word, U unknown, X anything else
    for match in _NP_WORD.finditer(text):
        start, end = match.span()
        word = match.group(0)
        if any(s <= start and end <= e for s, e in group_spans):
            kind = "G"
        elif word.lower() in _HEAD_NOUNS and not _covered(start, end, others):
            kind = "H"
        elif word.lower() in _TOPIC_NOUNS and not _covered(start, end, others):
            kind = "T"
        else:
            # read (a name, a period, a filter), vocabulary, or a courtesy word; else unknown
            lower = word.lower().strip("'’")
            known = (_covered(start, end, others) or _covered(start, end, group_spans) or len(word) < 2
                     or _vocabulary(word) or (lower in _OBJECT_WORDS and not word.isupper())
                     or _measure_head(text, start, end)
                     or lower in _NP_VOCABULARY
                     or (lower in _OPENING_VERBS and _IMPERATIVE_START.search(text[:start]) is not None))
            kind = "X" if known else "U"
        tokens.append((start, end, kind))
    found: list[tuple[int, int, str]] = []
    i = 0
    while i < len(tokens):
        if tokens[i][2] == "X":
            i += 1
            continue
        j = i
        while (j + 1 < len(tokens) and tokens[j + 1][2] != "X"
               and text[tokens[j][1]:tokens[j + 1][0]].isspace()):
            j += 1
        run = tokens[i:j + 1]
        kinds = {k for _, _, k in run}
        start, end = run[0][0], run[-1][1]
        unknown = "U" in kinds or {"G", "T"} <= kinds
        # (the paying verb of "how much did we pay kappa logistik" is the measure's cue, blanked in the residual)
        if unknown and (_SPEND_NOUN.match(text, end) or _SPEND_OBJECT_BEFORE.search(residual[:start])
                        or _PAID_OBJECT_BEFORE.search(text[:start])
                        or (_SPEND_DIRECT_BEFORE.search(residual[:start]) and _PERIOD_AFTER.match(text, end)
                            and not _FUNCTION_WORD.match(text, start))):
            phrase = re.sub(r"['’]s$", "", text[start:end])
            found.append((start, start + len(phrase), phrase))
        i = j + 1
    return found


#: What ends a name in a list ("with Zeta and omega in 2025", "... and omega?"): a period word, a number, the end.
_AFTER_A_LISTED_NAME = re.compile(r"\s*(?:$|[?.,;:!)]|\d|(?:in|for|during|since|from|between|last|this|over|"
                                  r"q[1-4]|h[12]|ytd|fy)\b)", re.I)
#: Words that open the next clause, not a name ("and which warranty applies", "and also ...").
_CLAUSE_START = re.compile(r"(?:wh\w*|how|also|then|is|are|was|were|does|do|did|can|could|should|show|list|give|"
                           r"tell|find|get|its|their|his|her)", re.I)


def _joined_name(words: list[str], kept: list[str], after: str) -> bool:
    """Whether what follows "and" after a read name is another name of the list, not the next clause ("and which
    warranty applies", "and the payment terms", "and also ...")."""
    return (words[0] == kept[0] and len(kept) <= 2 and not _CLAUSE_START.fullmatch(kept[0])
            and _AFTER_A_LISTED_NAME.match(after) is not None)


def _resolve_entities(
    identifiers: Identifiers, mentions: EntityMentions, gazetteer: Gazetteer
) -> tuple[Entities, list[str]]:
    """Resolve mentions to canonical ids; problems come back as clarification questions."""
    reasons: list[str] = []
    company_ids = list(identifiers.company_ids)
    for mention in mentions.companies:
        company_ids.extend(mention.candidates)
    company_ids = list(dict.fromkeys(company_ids))
    company_id: str | None = None
    company_name: str | None = None
    typo = next((m for m in mentions.companies if len(m.candidates) > 1), None)
    if typo is not None:
        # one span close to several companies' names (a typo between two names): the candidates, never a guess
        options = ", ".join(f"{c.company_name} ({c.company_id})" for c in map(gazetteer.company, typo.candidates)
                            if c is not None)
        reasons.append(f"{typo.text!r} names more than one company: {options}. Which one do you mean?")
    elif len(company_ids) > 1:
        reasons.append(f"Which company do you mean: {', '.join(company_ids)}? The question names more than one.")
    elif company_ids:
        known = gazetteer.company(company_ids[0])
        if known is None:
            reasons.append(f"I do not know a company {company_ids[0]!r} in your data. Which company do you mean?")
        else:
            company_id, company_name = known.company_id, known.company_name
    supplier_ids: list[str] = []
    supplier_names: list[str] = []
    for sid in identifiers.supplier_ids:
        if sid not in gazetteer.supplier_names:
            reasons.append(f"I do not know a supplier {sid!r} in your data. Which supplier do you mean?")
        else:
            supplier_ids.append(sid)
            supplier_names.append(gazetteer.supplier_names[sid])
    for mention in mentions.suppliers:
        if mention.resolved is None:
            options = ", ".join(f"{c} ({gazetteer.supplier_names.get(c, '?')})" for c in mention.candidates)
            reasons.append(f"{mention.text!r} names more than one supplier: {options}. Which one do you mean?")
        else:
            supplier_ids.append(mention.resolved)
            supplier_names.append(mention.text)
    group_ids = list(dict.fromkeys(c for m in mentions.product_groups for c in m.candidates))
    group_name: str | None = None
    group_id: str | None = None
    if len(group_ids) > 1:
        names = ", ".join(f"{g.product_group_id} ({g.group_name})" for g in gazetteer.product_groups
                          if g.product_group_id in group_ids)
        reasons.append(f"Which product group do you mean: {names}?")
    elif group_ids:
        group_id = group_ids[0]
        group_name = next(g.group_name for g in gazetteer.product_groups if g.product_group_id == group_id)
    entities = Entities(
        company_name=company_name,
        company_id=company_id,
        supplier_names=tuple(dict.fromkeys(supplier_names)),
        supplier_ids=tuple(dict.fromkeys(supplier_ids)),
        product_codes=named_product_codes(identifiers.product_codes, mentions, reasons),
        invoice_numbers=identifiers.invoice_numbers,
        contract_ids=identifiers.contract_ids,
        product_group=group_name,
        product_group_id=group_id,
    )
    return entities, reasons


def _with_fuzzy(mentions: EntityMentions, found: list[tuple[int, int, str, NameMatch]]) -> EntityMentions:
    """The mentions plus the spans resolved by similarity."""
    extra: dict[str, list[Mention]] = {"company": [], "supplier": [], "product_group": []}
    for start, end, text, match in found:
        extra[match.kind].append(Mention(match.kind, text, start, end, (match.canonical_id,)))
    return EntityMentions(
        companies=tuple(sorted((*mentions.companies, *extra["company"]), key=lambda m: m.start)),
        suppliers=tuple(sorted((*mentions.suppliers, *extra["supplier"]), key=lambda m: m.start)),
        product_groups=tuple(sorted((*mentions.product_groups, *extra["product_group"]), key=lambda m: m.start)),
        first_person=mentions.first_person,
        products=mentions.products,
    )


def unread_clarifications(spans: Sequence[Unread]) -> tuple[list[str], list[str]]:
    """(reasons, questions) for the spans a reading could not place: ambiguous names list their candidates, a
    date outside every period asks what it limits, anything else is named as unknown. Breakdown spans are left
    to the caller, which names the metric's allow-list."""
    reasons: list[str] = []
    questions: list[str] = []
    for span in spans:
        if span.kind == "breakdown" and not span.candidates:
            continue
        if span.candidates:
            reasons.append(f"entity: {span.text!r} is close to more than one name")
            questions.append(f"{span.text!r} could be {' or '.join(span.candidates)}. Which one do you mean?")
        elif span.kind == "status" and re.fullmatch(r"overdue|past[- ]due", span.text, re.I):
            # overdue is a due date before the as-at day: due dates need the agreements' payment terms, which are
            # no governed data (never read from retrieved clause text at answer time), so nothing is guessed
            reasons.append(f"status: {span.text!r} needs due dates, which no governed figure records")
            questions.append(f"{span.text!r} needs each invoice's due date (its invoice date plus the payment term "
                             "of the company's agreement); the payment terms are not governed data, so no invoice "
                             "is called overdue here. I can give the open (posted, not yet paid) invoices instead "
                             "(which ones, how many or their total, as at a day), or quote the agreement's payment "
                             "term clause. Which do you want?")
        elif span.kind == "status":
            reasons.append(f"status: {span.text!r} is no invoice status the governed figures know")
            questions.append(f"Governed figures know the invoice statuses unpaid (posted) and paid; {span.text!r} "
                             "is not one of them (no due-date or dispute status is recorded). Do you want the "
                             "figure over unpaid (posted) or paid invoices instead?")
        elif span.kind == "dimension" and (named := unknown_dimensions(span.text)):
            reasons.append(f"parameter: {span.text!r} is a dimension no governed figure records")
            questions.append(dimension_question(named[0]))
        elif span.kind == "date" and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", span.text):
            # a month, quarter or fiscal period the period reading left (router/date_tokens.py)
            reasons.append(f"period: {span.text!r} was not understood as part of a period")
            questions.append(f"I did not read {span.text!r} as part of the period. Which period do you mean?")
        elif span.kind == "date":
            reasons.append(f"period: the date {span.text!r} was not understood as part of a period")
            questions.append(f"What should {span.text} limit? Give the period as, for example, 'between "
                             f"{span.text} and ...' or 'on {span.text}'.")
        else:
            reasons.append(f"entity: {span.text!r} was not understood")
            questions.append(f"I do not know {span.text!r} in your data (no company, supplier, product group or "
                             "product of that name). Which one do you mean?")
    return reasons, questions


#: Ordinary measure words that are also suppliers' short names ("Supplier Delta"). Written in lower case in a
#: comparison ("Q4 vs Q3 - delta and percentage", "the delta in %") they are the change asked for, never the
#: supplier: read as the supplier, the comparison would silently be narrowed to it.
_MEASURE_WORDS = frozenset({"delta"})
_COMPARISON_CUE = re.compile(r"\b(?:vs\.?|versus|compared?|comparison|against|change|difference|percent\w*|pct)\b|%",
                             re.I)
_SUPPLIER_LEAD = re.compile(r"\b(?:with|from|by|of|for|to|supplier|vendor|and|or)\s+$", re.I)
_MEASURE_LEAD = re.compile(r"(?:\b(?:the|absolute|abs\.?|net|eur|in|as|plus|show|give|both)\s+|[-:(,]\s*)$", re.I)


def _without_measure_words(mentions: EntityMentions, text: str) -> EntityMentions:
    """``mentions`` without a supplier mention that is a measure word of a comparison (see :data:`_MEASURE_WORDS`)."""
    if not _COMPARISON_CUE.search(text):
        return mentions

    def measure(m: Mention) -> bool:
        if m.text not in _MEASURE_WORDS:  # lower case only: "Delta" stays the supplier's name
            return False
        before = text[:m.start]
        return _MEASURE_LEAD.search(before) is not None or (
            _SUPPLIER_LEAD.search(before) is None and re.match(r"\s*(?:and|&|/|in|as)\s+(?:the\s+)?(?:percent\w*|"
                                                               r"%|pct|change)", text[m.end:], re.I) is not None)

    kept = tuple(m for m in mentions.suppliers if not measure(m))
    return mentions if len(kept) == len(mentions.suppliers) else replace(mentions, suppliers=kept)


def _stated_base(analysis: Analysis, period: PeriodResolution) -> tuple[Analysis, PeriodResolution]:
    """The comparison and period once a bracket after a relative base is weighed ("11/2025 compared to last month
    (Oct'25)"): the relative base is taken from the period compared, never from the as-of date. A bracket that
    equals that base, or only names the year it lies in ("same quarter last year (2025)"), restates it: the
    computed base is kept. A bracket naming another period contradicts the base: the period is asked about,
    naming both (swapped silently, "previous quarter (Q3 2025)" of Q1 2026 compared with Q3 2025)."""
    comparison = analysis.comparison
    if comparison is None or comparison.stated_base is None or comparison.base is not None:
        return analysis, period
    current, stated = period.time_range, comparison.stated_base
    if current is None or period.ambiguous or (current.start, current.end) == (stated.start, stated.end):
        return analysis, period
    from semantic.params import base_period

    start, end = base_period(current.start, current.end, comparison.compare_to)
    if stated.start <= start and end <= stated.end:
        return analysis, period
    rule = "the same period a year earlier" if comparison.compare_to == "same_period_last_year" \
        else "the period before"
    reason = (f"the base in brackets, {stated.source_text.strip() or stated.start.isoformat()} "
              f"({stated.start.isoformat()} to {(stated.end - dt.timedelta(days=1)).isoformat()}), is not {rule} "
              f"{current.start.isoformat()} to {(current.end - dt.timedelta(days=1)).isoformat()} "
              f"(that is {start.isoformat()} to {(end - dt.timedelta(days=1)).isoformat()})")
    return analysis, replace(period, ambiguous=True, reason=reason)


def read(
    question: str,
    gazetteer: Gazetteer,
    as_of: dt.date,
    catalog: tuple[CatalogMetric, ...] = (),
    resolver: NameResolver | None = None,
) -> Reading:
    """Read ``question`` (already cleaned) into a :class:`Reading`.

    ``resolver`` places constraint-looking spans that match no spelling exactly (default: trigram similarity
    over ``gazetteer`` in memory).
    """
    # "with supplier 27", "Sup 27": the supplier's id when the tenant has it (router/name_cues.py), else asked about
    text = supplier_numbers(question, gazetteer.supplier_names)
    identifiers, manual_codes = _product_of_manual(text, find_identifiers(text))
    id_masked = mask(text, identifiers.spans)
    # A count is a figure too ("how many invoice lines for copy paper A4"): a product's catalogue name filters it
    # Product codes as written, so "the supplier of PRD-611" names the supplier, not a product filter.
    codes = [(m.start(), m.end(), f"PRD-{m.group(1)}") for m in _PRODUCT_CODE.finditer(text)
             if m.span() in identifiers.spans] + manual_codes
    figure = bool(_SPEND.search(id_masked) or _UNIT_PRICE.search(id_masked) or _QUANTITY.search(id_masked)
                  or _COUNTED.search(id_masked) or _AVERAGE_PER.search(id_masked) or asks_price(id_masked))
    mentions = find_mentions(id_masked, gazetteer, figure=figure, codes=codes,
                             hops=bool(_BOUGHT_FROM.search(id_masked)))
    # "Company Bs spend", "kestrals share": a name in the possessive without its apostrophe (router/possessives.py)
    mentions = possessive_mentions(id_masked, mentions, lambda t: find_mentions(
        t, gazetteer, figure=figure, codes=codes, hops=bool(_BOUGHT_FROM.search(t))))
    hopped = [(s, e, c) for s, e, c in codes if any(m.start <= s and e <= m.end for m in mentions.suppliers)]
    if hopped:
        # the code named its supplier: no product filter, and the hop is shown as written
        identifiers = replace(identifiers, product_codes=tuple(
            c for c in identifiers.product_codes if c not in {h[2] for h in hopped}
            or any(c == k and (s, e, k) not in hopped for s, e, k in codes)))
        mentions = replace(mentions, suppliers=tuple(replace(m, text=text[m.start:m.end]) for m in mentions.suppliers))
    mentions = _without_measure_words(mentions, id_masked)
    mentions = elided_companies(id_masked, mentions, gazetteer)  # "Company A, B and C"
    mentions = excepted_companies(id_masked, mentions, gazetteer)  # "all companies except C"
    quotes = quoted_spans(id_masked)
    quoted = tuple(p.strip() for p in _QUOTED.findall(text) if len(p.strip()) >= 2)[:5]
    # The analyst's phrases first: a comparison's base ("the same quarter last year") is not *the* period.
    analysis, hidden = parse_analysis(mask(id_masked, (*mentions.spans, *quotes)), as_of)
    if analysis.share and amount_of_approved_part(id_masked):
        analysis = replace(analysis, share=False)  # "how much of our spend was with approved vendors": that amount
    # "what did we pay per label roll": the price of one item of the product named, not the spend on it
    per_item_spans = priced_per_item(id_masked, [*((m.start, m.end) for m in mentions.products),
                                                 *((s, e) for s, e, _ in codes)])
    per_item = per_item_spans is not None
    if per_item_spans:
        analysis = replace(analysis, average_price=True, spans=tuple(sorted({*analysis.spans, *per_item_spans})))
        # "per sensor", "per module": the unit of the price, not a group filter nor a breakdown
        mentions = replace(mentions, product_groups=tuple(
            m for m in mentions.product_groups if not any(m.start < e and s < m.end for s, e in per_item_spans)))
        id_masked = mask(id_masked, per_item_spans)
    # "core temp probe - price increase Q1 vs Q4", "X: what are we paying on avg", "did we get it cheaper in Q1":
    # a product's price or a price change asked in words of router/price_words.py (read, not a breakdown)
    # (a price the reader knows already, "latest unit price", "price per piece", stays as it was read)
    named = [*((m.start, m.end) for m in mentions.products), *((s, e) for s, e, _ in codes)]
    known_price = per_item or analysis.average_price
    priced = () if known_price else product_price_spans(id_masked, named)
    bare = not known_price and not priced and bare_product_price(id_masked, named)
    if priced or bare:
        analysis = replace(analysis, average_price=True, spans=tuple(sorted({*analysis.spans, *priced})))
    changed = () if known_price else price_change_spans(id_masked)
    per_item = per_item or bool(priced) or bool(changed) or bare
    if analysis.comparison is None and price_change_asked(id_masked):
        # "did X get more expensive in Q1": a change against the period before (a base named after "than" or
        # "vs" alone is asked about by router/price_asks.py, never read as the period)
        analysis = replace(analysis, comparison=Comparison("previous_period"))
    id_masked = mask(id_masked, (*priced, *changed))
    period_text = mask(id_masked, hidden)
    # "as at 15 May 2026": the snapshot day the question is read at, not a period beside the one asked
    period = snapshot_period(period_text, resolve_period(period_text, as_of), as_of)
    if (analysis.comparison is not None or analysis.compare_words) and period.ambiguous:
        # Two named periods with a comparison word: the later is the period, the earlier its base.
        split = split_periods(period.mentions, as_of)
        if split is not None:
            current, base = split
            analysis = replace(analysis, comparison=Comparison(compare_rule(current, base), base),
                               spans=tuple(sorted({*analysis.spans, *analysis.compare_words})))
            period = PeriodResolution(current, False, None, period.mentions, period.spans)
    elif (analysis.comparison is not None and analysis.comparison.base is None and not hidden
          and period.time_range is not None and not period.ambiguous):
        # "How much did spend rise from February to March 2026": a change runs between the two ends, not over
        # the range they span.
        ends = _FROM_TO_ENDS.fullmatch(period.time_range.source_text.strip())
        # "change from Q1 to April": a bare month after "to" is no period the reader takes alone, yet it is the
        # change's later end (never dropped, never the range's first end compared with the period before it)
        tail = _TO_BARE_MONTH.match(period_text, period.spans[-1][1]) if ends is None and period.spans else None
        groups = ends.groups() if ends else (period.time_range.source_text.strip(), tail.group(1)) if tail else None
        first, last = _range_ends(groups, as_of) if groups else (None, None)
        if first is not None and last is not None and first.end <= last.start:
            analysis = replace(analysis, comparison=Comparison(compare_rule(last, first), first))
            spans = (*period.spans, tail.span(1)) if tail and not ends else period.spans
            period = PeriodResolution(last, False, None, period.mentions, spans)
    analysis, period = _stated_base(analysis, period)
    resolver = resolver if resolver is not None else TrigramResolver(gazetteer)

    # Constraint-looking spans outside every exact reading: offered to the fuzzy resolver, else not understood.
    consumed: list[tuple[int, int]] = [*identifiers.spans, *mentions.spans, *quotes, *period.spans, *hidden,
                                       *analysis.spans, *status_spans(id_masked), *currency_list_spans(id_masked),
                                       *basis_only_spans(id_masked)]
    # "how many sets did we buy", "wie viele Stück": the unit the quantity is counted in, no name to look up
    consumed.extend(m.span(1) for m in _UNIT_NOUN.finditer(id_masked))
    included_spans = _included_subgroups(id_masked, mentions, gazetteer)
    if included_spans:
        # "Sensors (incl. the flow sensors)": a subgroup named inside the inclusion is the group's scope restated,
        # not a second group to choose between
        mentions = replace(mentions, product_groups=tuple(
            m for m in mentions.product_groups if not any(s <= m.start and m.end <= e for s, e in included_spans)))
        consumed.extend(included_spans)
    restated = restated_subgroups(id_masked, mentions, gazetteer)
    if restated.spans:
        # "packaging spend (crates + boxes)": the subgroups listed after their group restate its scope (the group
        # with its subgroups), never a second group to choose between (router/group_lists.py)
        mentions = replace(mentions, product_groups=tuple(m for m in mentions.product_groups
                                                          if m not in restated.dropped))
        consumed.extend(restated.spans)
    joined = joined_groups(id_masked, mentions, gazetteer, consumed)
    if joined.union:
        # "cabinet accessories + cabinets": both groups, read as the one that holds the other
        mentions = replace(mentions, product_groups=tuple(
            sorted((*(m for m in mentions.product_groups if m not in joined.replaced), *joined.union),
                   key=lambda m: m.start)))
        consumed.extend(joined.spans)
    # (a product behind an exclusion cue is left out of the group, never restated by it: "sensor spend excluding
    # the PT100 probe" keeps the group as the scope)
    left_codes, kept_mentions = _left_out_products(id_masked, analysis, codes, mentions)
    restating = product_restating_groups(
        kept_mentions, tuple(c for c in identifiers.product_codes if c not in left_codes), gazetteer)
    if restating:
        # "avg unit price PRD-611 monitoring controller": the product's own group describes it, no second filter
        mentions = replace(mentions, product_groups=tuple(m for m in mentions.product_groups if m not in restating))
        consumed.extend((m.start, m.end) for m in restating)
    scratch = mask(id_masked, (*mentions.spans, *quotes, *period.spans))
    amounts_all = parse_amounts(scratch)
    consumed.extend((a.start, a.end) for a in amounts_all)
    breakdown_all = parse_breakdown(scratch)
    consumed.extend(breakdown_all.spans)
    catalog_hit = match_catalog_metric(scratch, catalog)
    if catalog_hit:
        consumed.append(catalog_hit[1])
    # "cost centre CC-4711", "buyer Jana Wolff": a dimension the invoices do not record, with its value; named
    # back as a whole (router/dimensions.py), never read as a name nor dropped
    dimensions = unknown_dimensions(text)
    # "alpenland site", "site Comp A", "Company C plant:": an organisation unit beside a resolved company is that
    # company, never a site limit nor an unknown name (router/name_slots.py)
    company_spans = [(m.start, m.end) for m in (*mentions.companies, *_company_id_mentions(text, identifiers))
                     if m.resolved]
    units = company_units(text, company_spans)
    # (each unit noun is said in the restatement: "'site' read as Alpenland Logistik AG itself")
    unit_reads = tuple(dict.fromkeys(
        (text[a:b], known.company_name) for a, b in units for m in mentions.companies
        if m.resolved and (0 <= a - m.end <= 3 or 0 <= m.start - b <= 3)
        and (known := gazetteer.company(m.resolved)) is not None))
    dimensions = tuple(d for d in dimensions if not (d.label == "site" and _covered(d.start, d.end, units)))
    consumed.extend(units)
    consumed.extend((d.start, d.end) for d in dimensions)
    # "either Beta or Orbis, combined", "Epsilon only": a set word beside the names read (router/set_words.py)
    consumed.extend(set_word_spans(text, _named_kinds(text, mentions, identifiers)))
    residual = mask(scratch, tuple(consumed))
    fuzzy: list[tuple[int, int, str, NameMatch]] = []
    unread: list[Unread] = [Unread(text[d.start:d.end], d.start, d.end, "dimension") for d in dimensions]
    # Longest first at each position: "Monitoring Services" is read as a whole before "Monitoring" alone.
    looks = sorted({*((s, e, t, "name") for s, e, t in _candidate_names(text, residual)),
                    *((s, e, t, "category") for s, e, t in _object_phrases(residual)),
                    # "how much w acme ltd", "Company D spend": a name slot's words (router/name_cues.py)
                    *((s, e, t, "name") for s, e, t in cued_names(residual, _name_vocabulary)),
                    # "approved cooling vendors": what the approval is for, a group or named back (never dropped)
                    *((s, e, t, "category") for s, e, t in approval_qualifiers(residual)),
                    # "approved vendors for Company B in cables": what the approval is asked for, after the list
                    *((s, e, t, "category") for s, e, t in approval_targets(residual)),
                    *((s, e, t, "category") for s, e, t in _counted_for(scratch, consumed)),
                    # "what % of Comp B's spend is cabling": a share's part slot names what is asked (looked up,
                    # or named back), never dropped to a generic "which supplier?" (router/share_slots.py)
                    *((s, e, t, "category")
                      for s, e, t in (share_part_phrases(id_masked, residual) if analysis.share else ())),
                    *((s, e, t, "category") for s, e, t in noun_phrases(
                        text, residual, [(m.start, m.end) for m in mentions.product_groups],
                        # an invoice state no figure records is asked about as a status, below
                        [*consumed, *(m.span() for m in _UNKNOWN_STATUS.finditer(scratch))]))},
                   key=lambda x: (x[0], -x[1]))
    lookups = 0
    for start, end, phrase, kind in looks:
        if _covered(start, end, [(s, e) for s, e, _, _ in fuzzy]) or _covered(start, end, [(u.start, u.end)
                                                                                          for u in unread]):
            continue
        # "foi em Compressors": the function words and verbs at a span's edges are no part of a name; only the
        # rest is looked up (the words cut off stay unread, named by the unread-word check: router/name_slots.py)
        a, b = name_core(text, start, phrase)
        start, end, phrase = start + a, start + b, phrase[a:b]
        # Bounded: a long pasted text is not looked up name by name (its spans stay not understood).
        lookups += 1
        matches = list(resolver.similar(phrase)) if lookups <= MAX_LOOKUPS else []
        lead = (leading_word_group(phrase, gazetteer)
                # "cabling", "temp sensors", "calibration gear": a group's name in other word forms
                or word_form_group(phrase, gazetteer)) if not matches else None
        if lead is not None:  # "laboratory spend": the word a group's names start with (router/group_words.py)
            matches = [NameMatch("product_group", lead[0], lead[1], 1.0)]
        elif not matches and lookups <= MAX_LOOKUPS:
            # "alpine land logistic": a transcript's misheard name, matched by its sound (router/sound_alike.py);
            # two names of one sound are both offered (a clarification)
            matches = [NameMatch(k, c, n, NAME_THRESHOLD)  # type: ignore[arg-type]
                       for k, c, n in sound_alike(phrase, name_spellings(gazetteer))]
        if matches and (len(matches) == 1 or matches[0].score - matches[1].score >= NAME_MARGIN):
            fuzzy.append((start, end, phrase, matches[0]))
            consumed.append((start, end))
        elif matches:
            close = [m for m in matches if matches[0].score - m.score < NAME_MARGIN]
            unread.append(Unread(phrase, start, end, kind,  # type: ignore[arg-type]
                                 tuple(f"{m.canonical_id} ({m.spelling})" for m in close)))
        else:
            unread.append(Unread(phrase, start, end, kind))  # type: ignore[arg-type]
    # An unread name in no constraint slot (framing, a gloss, a company's unit, "stuff") never asks back: read, or
    # named on a PARTIAL answer (router/name_slots.py)
    named_companies = [(m.start, m.end, known.company_name) for m in mentions.companies
                       if m.resolved and (known := gazetteer.company(m.resolved)) is not None]
    aside: list[Unread] = []
    for u in [u for u in unread if u.kind in ("name", "category") and not u.candidates]:
        why = slotless(text, u.start, u.end, u.text, consumed, units, named_companies)
        if why is None:
            continue
        unread.remove(u)
        if why.why in READ_REASONS:
            consumed.append((u.start, u.end))
        else:
            aside.append(u)
    for match in _UNKNOWN_STATUS.finditer(scratch):
        group = next(i for i in range(1, (match.re.groups or 0) + 1) if match.group(i))
        word, start = match.group(group), match.start(group)
        if not _covered(start, start + len(word), [(u.start, u.end) for u in unread]):
            unread.append(Unread(word, start, start + len(word), "status"))
    for match in _TIME_THRESHOLD.finditer(scratch):
        # "more than 90 days past due", "over 30 days old": an age of invoices no figure records, never dropped
        if not _covered(*match.span(), consumed) and not _covered(*match.span(), [(u.start, u.end) for u in unread]):
            unread.append(Unread(match.group(0), match.start(), match.end(), "status"))
    read_period = (period.time_range.start, period.time_range.end) \
        if period.time_range is not None and not period.ambiguous else None
    for token, (start, end) in unread_date_tokens(id_masked, consumed, read_period):
        # the period-coverage invariant: no date token dropped (router/date_tokens.py)
        unread.append(Unread(token, start, end, "date"))
    for what in breakdown_all.unknown:
        position = scratch.find(what)
        unread.append(Unread(what, max(position, 0), max(position, 0) + len(what), "breakdown"))
    if fuzzy:
        mentions = _with_fuzzy(mentions, fuzzy)
        consumed.extend(set_word_spans(text, _named_kinds(text, mentions, identifiers)))
    listed = listed_group_words(id_masked, [(m.start, m.end) for m in mentions.product_groups if m.resolved],
                                [*consumed, *mentions.spans], gazetteer)
    if listed:
        # "sensors & loggers": a word listed with a read group that names a group in another word form is the list's
        # next member (router/group_words.py), never left unread while the first group is applied alone
        mentions = replace(mentions, product_groups=tuple(sorted(
            (*mentions.product_groups, *(Mention("product_group", text[a:b], a, b, (gid,)) for a, b, gid in listed)),
            key=lambda m: m.start)))
        consumed.extend((a, b) for a, b, _ in listed)
    mentions, described = _inside_described_products(id_masked, analysis, mentions, gazetteer)
    product_ids = _product_code_mentions(text, identifiers)
    company_ids = _company_id_mentions(text, identifiers)
    included, excluded_suppliers, excluded_groups, excluded_products, exclusion_problems, bare = _exclusions(
        id_masked, analysis, mentions, gazetteer, (*_supplier_id_mentions(text, identifiers), *product_ids),
        company_ids)
    excluded_products = tuple(dict.fromkeys((*excluded_products, *described)))
    if excluded_products and identifiers.product_codes:
        # "excluding PRD-482": a code behind an exclusion cue is left out, never the figure's product filter
        identifiers = replace(identifiers, product_codes=tuple(c for c in identifiers.product_codes
                                                               if c not in excluded_products))
    included, excluded_companies, company_problems = _excluded_companies(
        id_masked, analysis, included, gazetteer, company_ids)
    exclusion_problems = [*exclusion_problems, *company_problems]
    if excluded_companies and identifiers.company_ids:
        # "all companies except COMP-C": an id behind an exclusion cue is left out, never the figure's company
        identifiers = replace(identifiers, company_ids=tuple(i for i in identifiers.company_ids
                                                             if i not in excluded_companies))
    if excluded_suppliers and identifiers.supplier_ids:
        # "except for SUP-18": an id behind an exclusion cue is left out, not asked for.
        identifiers = replace(identifiers, supplier_ids=tuple(i for i in identifiers.supplier_ids
                                                              if i not in excluded_suppliers))
    parents = [m.resolved for m in included.product_groups if m.resolved]
    for position in bare:
        one = product_described(id_masked, position, gazetteer)
        if one is not None:
            # "excluding the pH 7 buffer solution": a product described in other words than its catalogue name
            excluded_products = tuple(dict.fromkeys((*excluded_products, one[0])))
            consumed.append((position, one[1]))
            continue
        target = bare_exclusion_target(id_masked, position)
        inside = subgroup_named_within(target, parents[0], gazetteer) if target and len(parents) == 1 else None
        if inside is not None and target:
            # "control equipment spend excluding cabinets": the subgroup named by its own words within the group
            excluded_groups = tuple(dict.fromkeys((*excluded_groups, inside)))
            consumed.append((position, id_masked.index(target, position) + len(target)))
            continue
        loose = (leading_word_group(target, gazetteer) or word_form_group(target, gazetteer)
                 or tail_word_group(target, gazetteer)) if target else None
        if loose is not None and target:
            # "everything except cables", "excl. temp sensors": a group named in other word forms behind the cue is
            # left out like one named exactly (router/group_words.py), never asked about as an unknown name
            excluded_groups = tuple(dict.fromkeys((*excluded_groups, loose[0])))
            consumed.append((position, id_masked.index(target, position) + len(target)))
            continue
        if target:
            position = id_masked.index(target, position)
            # "excluding ninguna spend Q1 2026": the words of the period the period reader took end the target
            # (a period the reader wrote without "in" is never part of a name left out)
            cut = min((s for s, _ in period.spans if position < s < position + len(target)), default=None)
            target = id_masked[position:cut].rstrip() if cut is not None else target
        if target and not _covered(position, position + len(target), [(u.start, u.end) for u in unread]):
            # "not sure", "minus amount": plain words after the cue name nothing to leave out; named on a PARTIAL
            # answer, never asked as a name (router/name_slots.py)
            (aside if plain_language(id_masked, position, target) else unread).append(
                Unread(target, position, position + len(target), "name"))

    # Quoted phrases are literal text to find: no cue word, metric word or group name inside them counts.
    cue_text = mask(id_masked, (*mentions.spans, *quotes))
    entities, problems = _resolve_entities(identifiers, included, gazetteer)
    problems = [*problems, *exclusion_problems,
                # "the VG-2 vacuum gauge" when only the VG-1 is catalogued: another model, asked about
                *other_model_problems(id_masked, (*mentions.products, *mentions.product_groups), gazetteer,
                                      period.spans)]
    # a bare number the period reader took is the period's year, never an amount ("over 2025 Q4": the quarter)
    amounts = tuple(a for a in parse_amounts(cue_text) if not period_year(a, period.spans))
    company = gazetteer.company(entities.company_id) if entities.company_id else None
    # "(posted + paid)", "posted & paid": both counted statuses are every invoice the listing lists anyway
    status_text = _BOTH_STATUSES.sub(" ", cue_text)
    listed = invoice_listing(status_text, amounts, entities, identifiers, analysis,
                             company.reporting_currency if company else None) and not (
        status_spans(status_text) or _UNKNOWN_STATUS.search(status_text) or _PAID_ONLY.search(status_text)
        or _POSTED_ONLY.search(status_text) or asked_statuses(status_text) or excluded_status(status_text))
    if listed:
        # "list Company A's invoices from Zeta in Q1": every invoice of the scope is the governed listing of the
        # invoices at or above a zero grand total (credit notes are not invoices)
        amounts = (Amount(Decimal(0), None, 0, 0, "", "above", True),)
    breakdown = parse_breakdown(cue_text)
    # "more than 5,000 euros", "other than Beta": a "than" of an amount or an exclusion compares nothing
    compares = [(a, b) for a, b in analysis.compare_words
                if not (cue_text[a:b].lower() == "than" and (
                    any(x.start <= a < x.end or 0 <= x.start - b <= 8 for x in amounts)
                    or re.search(r"\b(?:other|rather)\s+$", cue_text[:a], re.I)))]
    if ((compares or _WHICH_OF_THEM.search(cue_text) or choice_cue(cue_text)) and analysis.comparison is None
            and len(entities.supplier_ids) > 1 and not breakdown.group_by):
        # "Compare our spend with Beta and Gamma", "which supplier did we spend more with, Beta or Gamma": one
        # figure per supplier, side by side, never their sum.
        breakdown = replace(breakdown, group_by=("supplier_id",))
    if breakdown.grain == "month" and RUN_RATE.search(cue_text):
        # "average monthly spend", "average spend per month": one rate of the period (its total over its calendar
        # months, router/run_rate.py), never the months one by one (for all companies together, the month rows
        # alone were answered and the rate lost)
        breakdown = replace(breakdown, grain=None)
    # Which level of the hierarchy "product group" means ("top-level category", "lowest level", or neither).
    level_dim = group_dimension(text, filtered=bool(entities.product_group_id))
    if "product_group_id" in breakdown.group_by:
        breakdown = replace(breakdown, group_by=tuple(level_dim if d == "product_group_id" else d
                                                      for d in breakdown.group_by))
    if analysis.ranking is not None and analysis.ranking.dimension == "product_group_id":
        analysis = replace(analysis, ranking=replace(analysis.ranking, dimension=level_dim))
    catalog_hit = match_catalog_metric(cue_text, catalog)
    statuses: tuple[str, ...] = ("posted", "paid")
    if analysis.statuses is not None:
        statuses = analysis.statuses
    elif _BOTH_STATUSES.search(cue_text):
        pass
    elif _PAID_ONLY.search(cue_text):
        statuses = ("paid",)
    elif _POSTED_ONLY.search(cue_text):
        statuses = ("posted",)
    # "paid vs posted (split by status)": both recognized statuses side by side, a row each (the spend metric's
    # invoice_status grouping); naming both against each other, or asking a row per status, answers the choice.
    choice = _STATUS_CHOICE.search(cue_text)
    by_status = "invoice_status" in breakdown.group_by
    if choice and re.search(r"\bv(?:s\.?|ersus)(?!\w)", choice.group(0), re.I) and not by_status:
        breakdown = replace(breakdown, group_by=(*breakdown.group_by, "invoice_status"))
        by_status = True
    if by_status and (choice or analysis.statuses is None):
        statuses = ("posted", "paid")
    # "(actuals, not forecast)", "sin presupuesto": another basis negated is the invoiced spend, never asked about
    other_basis = next((m for m in _OTHER_BASIS.finditer(cue_text) if negated(cue_text, m.start(), m.end()) is None),
                       None)
    filtered_figure = _filtered_figure(cue_text, analysis, entities, identifiers, period)
    cues = Cues(
        # amounts shown in currencies ("Beta at Company A in Q4 in invoice currency"): the spend
        spend=bool(_SPEND.search(cue_text) or _IN_TWO_CURRENCIES.search(cue_text) or analysis.original_currency)
        or filtered_figure
        or _bare_comparison(cue_text, analysis, entities)
        or _bare_breakdown(cue_text, breakdown, entities, period, several_companies=len(
            {*identifiers.company_ids, *(c for m in mentions.companies for c in m.candidates)}) > 1)
        or _bare_group_figure(cue_text, entities, identifiers, period)
        or _excluded_figure(cue_text, (*excluded_suppliers, *excluded_groups, *excluded_products), entities,
                            identifiers, period),
        unit_price=bool(_UNIT_PRICE_WORDS.search(cue_text)) or per_item,
        quantity=bool(_QUANTITY.search(cue_text)),
        purchase=bool(_PURCHASE.search(cue_text)),
        invoices=bool(_INVOICE_FILTER.search(cue_text)),
        threshold_words=bool(_THRESHOLD_WORDS.search(cue_text)),
        invoice_count=bool(_INVOICE_COUNT.search(cue_text)),
        price_comparison=bool(_CHEAPER.search(cue_text)),
        currency_unchosen=bool(_CURRENCY_UNCHOSEN.search(cue_text)),
        net_basis=_net_basis(cue_text),
        other_basis=other_basis.group(0) if other_basis else None,
        status_choice=bool(choice) and not by_status,
        approved=bool(_APPROVED.search(cue_text)),
        approves=bool(_APPROVES.search(text)),
        summary=bool(_SUMMARY_CUES.search(cue_text)),
        # (a breakdown's own words, "by sub group", "per supplier", ask for rows of a figure, not the group's members)
        group_traversal=bool(_GROUP_TRAVERSAL.search(mask(cue_text, breakdown.spans) if breakdown.group_by
                                                     and not breakdown.unknown else cue_text)),
        products=bool(_PRODUCTS.search(text)),
        agreement_question=bool(_AGREEMENT_QUESTION.search(text)),
        personal_data_only=asks_personal_data(text),
        personal_data_mentioned=bool(_PERSONAL_DATA.search(text)),
        filtered_figure=filtered_figure,
        invoice_list_in_currency=bool(_EXPLICIT_INVOICE_LISTING.search(cue_text) and _CURRENCY.search(cue_text)),
    )
    # "not just credit notes", "credit notes not excluded", "suppliers that are not SUP-27": the scope of the
    # constraint is the inverse of the one the readers apply as written; asked, never answered the other way round
    applied = (*(analysis.document_types or ()), *(statuses if frozenset(statuses) != {"posted", "paid"} else ()))
    problems.extend(f"You wrote {phrase!r}: do you mean it counted together with the rest, or left out? Read as "
                    "written it would answer the opposite question."
                    for phrase in inverted_scopes(cue_text, applied, text))
    return Reading(
        text=text, as_of=as_of, identifiers=identifiers, mentions=mentions, entities=entities,
        entity_problems=tuple(problems), period=period, amounts=amounts, breakdown=breakdown, statuses=statuses,
        excluded_status=excluded_status(_mask_excluded_statuses(cue_text, analysis)),
        asked_statuses=asked_statuses(_mask_excluded_statuses(cue_text, analysis)),
        currencies=_currencies(cue_text), cues=cues,
        measure="invoices_above_threshold" if listed else metric_kind(text, entities, tuple(
            a for a in parse_amounts(text) if not period_year(a, period.spans))) or (
            ("unit_price" if entities.product_codes else "unsupported") if per_item else None),
        catalog_metric=catalog_hit[0] if catalog_hit else None, quoted=quoted, quote_spans=quotes,
        cue_text=cue_text, text_part=_text_part(text), agreement_topic=_agreement_topic(text, entities, quoted),
        consumed=tuple(sorted(set(consumed))), not_understood=tuple(unread), unslotted=tuple(aside),
        unit_reads=unit_reads,
        fuzzy=tuple((t, m) for _, _, t, m in fuzzy), analysis=analysis,
        excluded_supplier_ids=excluded_suppliers, excluded_group_ids=excluded_groups,
        excluded_product_codes=excluded_products,
        excluded_company_ids=excluded_companies,
    )


#: "the product the manual-prd-600 covers", "the item described in manual-prd-600", "manual-prd-600's product": a
#: product named through its manual (a manual's id carries its product's code).
_PRODUCT_OF_MANUAL = re.compile(
    r"\bthe\s+(?:product|item|article|device|unit)\s+(?:(?:that|which)\s+)?(?:the\s+)?manual-prd-(?P<a>\d{3,6})\s+"
    r"(?:covers|covered|describes|described|documents|documented|is\s+(?:about|for)|was\s+written\s+for|refers\s+to)\b"
    r"|\bthe\s+(?:product|item|article|device|unit)\s+(?:covered|described|documented|explained)\s+(?:in|by)\s+"
    r"(?:the\s+)?manual-prd-(?P<b>\d{3,6})\b"
    r"|\bthe\s+(?:product|item|article|device)\s+(?:of|in|from|behind)\s+(?:the\s+)?manual-prd-(?P<c>\d{3,6})\b"
    r"|\bmanual-prd-(?P<d>\d{3,6})['’]s\s+(?:product|item|device)\b", re.I)


#: "list them", "show me the invoices", "which invoices did X get": the invoices themselves asked for.
_INVOICE_LISTING = re.compile(
    r"\b(?:list|show|give|display|pull|enumerate)\b(?:\s+me)?(?:\s+(?:all|every|each))?(?:\s+(?:the|of\s+the))?"
    r"[^?.;]{0,60}\binvoices\b|\bwhich\s+invoices\s+(?:(?:from|of|by)\s+[^?.;]{1,60}?\s+)?(?:did|has|have)\b"
    r"|\binvoices\b[^?.;]{0,80}[-–:,]\s*(?:please\s+)?(?:list|show|give\s+me)\s+(?:them|those|these|all|each)\b"
    # "only Beta invoices, list", "Company A invoices Q1: list pls": the bare verb ending the message asks the list
    r"|\binvoices\b[^?.;]{0,80}[-–:,]\s*(?:please\s+|pls\s+)?(?:list|listing|show)(?:\s+(?:pls|please))?\W*$"
    # "which Beta invoices (Company A) are dated between 1 and 15 March": the invoices selected by their date
    r"|\b(?:which|what)\s+[^?.;]{0,60}\binvoices\b[^?.;]{0,40}?\b(?:are|were)\s+(?:dated|issued|from|in|between|"
    r"billed|invoiced|denominated)\b"
    # a bare noun phrase, no verb asking anything else: "Company A invoices from 1 Jan through 24 Jan 2026?"
    r"|^(?!\s*(?:is|are|was|were|do|does|did|has|have|had|can|could|should|will|would|why|how|when|where|who|what|"
    # (names are blanked here: only determiners or a possessive may stand before the noun)
    r"which)\b)(?![^?.;:]*\b(?:is|are|was|were|do|does|did|has|have|had|get|got|receive|received|send|sent|cost|"
    r"costs|look|looks|come|came|how|what|which|much)\b)[^\w#]*(?:(?:all|the|our|my|its|their|any)\s+|['’]s\s+)*"
    # then only its scope: a supplier, a period (a state after the noun, "awaiting payment", is another question)
    # ("Beta invoices to      in May": "to" before a blanked name is the receiving company, never "to pay")
    r"invoices\b(?:\s*,|\s+to(?=\s{2,}\S)|\s+(?:from|with|of|in|during|for|between|dated|since|issued|on|at|by|over|"
    r"this|last|"
    r"previous|past|year|ytd|qtd|mtd|q[1-4]|h[12]|fy\w*|\d{4}|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|jul\w*|aug\w*|"
    r"sep\w*|oct\w*|nov\w*|dec\w*)\b|\s*$|\s*[?.!])[^?.;:]*[?.!\s]*$",
    re.I)
#: The invoices asked for with a listing verb or "which invoices" (never the bare noun phrase "USD invoices Q1",
#: which is their spend).
_EXPLICIT_INVOICE_LISTING = re.compile(
    r"\b(?:list|show|display|pull|enumerate)\b(?:\s+me)?(?:\s+(?:all|every|each))?(?:\s+(?:the|of\s+the))?"
    r"[^?.;]{0,60}\binvoices\b|\bwhich\s+(?:[^?.;]{0,60}\s)?invoices\b", re.I)
#: Words that make an invoice question another one: a count, a status, a document type, an amount, a fact.
_NOT_AN_INVOICE_LISTING = re.compile(
    r"\b(?:how\s+many|number|count|open|unpaid|overdue|paid|posted|outstanding|draft\w*|cancel\w*|duplicat\w*|"
    r"settled|void\w*|reject\w*|disputed|pending|blocked|approved|reversed|"
    r"credit|due|terms?|tax|vat|total|sum|amount|spend|spent|largest|biggest|highest|smallest|top|lines?|"
    r"currenc\w*|eur|usd|gbp|chf|why|when|explain)\b", re.I)


_EUROPEAN_DAY = re.compile(r"\b\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})\b")
#: How each reporting currency is written after "in": the currency the listing's amounts are shown in.
_CURRENCY_WORDS = {"EUR": r"eur|euros?|€", "USD": r"usd|us\s*dollars?|dollars?|\$", "GBP": r"gbp|pounds?|sterling|£",
                   "CHF": r"chf|swiss\s+francs?|francs?"}


def _in_reporting_currency(currency: str | None) -> re.Pattern[str] | None:
    """ "in EUR", "(with) amounts in EUR", "shown in euros": the listing's amounts in the reporting currency."""
    words = _CURRENCY_WORDS.get(currency or "")
    if words is None:
        return None
    return re.compile(r"(?:\b(?:with\s+)?(?:(?:all|the)\s+)?(?:amounts?|values?|figures?)\s+|\b(?:shown|expressed|"
                      r"stated|reported|given)\s+)?\b(?:in|into)\s+(?:" + words + r")(?![A-Za-z])", re.I)


def invoice_listing(text: str, amounts: Sequence[Amount], entities: Entities, identifiers: Identifiers,
                    analysis: Analysis, reporting_currency: str | None = None) -> bool:
    """Whether ``text`` asks for the invoices of a company in a scope themselves, with no amount, status, count or
    fact that would make it another question. "In EUR" naming the company's ``reporting_currency`` is how the
    listing's amounts are shown anyway: no other question (another currency is an invoice currency, the listing's
    filter)."""
    pattern = _in_reporting_currency(reporting_currency)
    if pattern is not None and not analysis.original_currency and not analysis.document_currency:
        text = pattern.sub(" ", text)
    # "the invoices billed in USD": one invoice currency is the listing's filter (router/routing.py), not a
    # figure in that currency
    # (read before the currency reading sets the invoice currency: "invoices of Company A in USD" is issued in it)
    issued = issued_spans(text)
    from router.scope import ALL_COMPANIES  # (router/scope.py reads this module)

    # "invoices dated 28.04.2026 to 30.04.2026": the dots of a European date end no sentence (same length)
    plain = _EUROPEAN_DAY.sub(lambda m: m.group(0).replace(".", "-"), text)
    # a listing names each invoice's company: every company of the tenant is a scope it takes ("all companies")
    return bool(_INVOICE_LISTING.search(plain) and not _NOT_AN_INVOICE_LISTING.search(mask(text, issued))
                and not amounts
                and (entities.company_id or ALL_COMPANIES.search(text))
                and not identifiers.invoice_numbers and not identifiers.document_ids
                and analysis.ranking is None and analysis.comparison is None and not analysis.share)


def _product_of_manual(text: str, identifiers: Identifiers) -> tuple[Identifiers, list[tuple[int, int, str]]]:
    """The identifiers with a product named through its manual read as the product (its code), not as the manual
    (a document to look up): the whole phrase is consumed. Also the phrases' (start, end, code)."""
    found = [(m.span(), f"PRD-{next(g for g in m.groups() if g)}") for m in _PRODUCT_OF_MANUAL.finditer(text)]
    if not found:
        return identifiers, []
    manuals = {f"manual-prd-{code[4:]}" for _, code in found}
    spans = [s for s in identifiers.spans if not any(a <= s[0] and s[1] <= b for (a, b), _ in found)]
    codes = tuple(dict.fromkeys((*identifiers.product_codes, *(c for _, c in found))))
    return replace(identifiers, product_codes=codes,
                   document_ids=tuple(d for d in identifiers.document_ids if d.lower() not in manuals),
                   spans=tuple(sorted((*spans, *(span for span, _ in found))))), [(a, b, c) for (a, b), c in found]


#: Words that make a status-filtered invoice question something other than their total: a listing, a document,
#: a question about a process ("why is it open", "when are they due").
_NOT_A_FILTERED_FIGURE = re.compile(
    # ("what is Company B's unpaid amount": a figure asked with "what", not a listing)
    r"\b(?:list|show|which|what(?!\s+(?:is|was|were|are)\b[^?]{0,60}\b(?:amount|total|balance|sum|value)s?\b)|"
    r"who|why|when|where|explain|describe|summar\w+|terms|due dates?|overdue|late|"
    r"documents?|pdf|copy|copies|details?|lines?|items?|"
    # "open invoices dated April": the documents of a date, unless their value is asked
    r"dated(?![^?]*\b(?:total|totals|sum|amount|value|worth|how\s+much|spend|spent)\b))\b", re.I)
_INVOICE_NOUNS = re.compile(r"\b(?:invoices?|bills|credit[- ]?notes?|credit memos?|credits)\b", re.I)
#: A status standing for the amount itself ("Company A unpaid Q1 2026", "outstanding with Beta in March"): the
#: figure is the total of the invoices in that status, as with the invoice nouns.
_STATUS_AS_FIGURE = re.compile(r"\b(?:unpaid|outstanding|open\s+(?:items?|amounts?|balances?)|offene\s+posten)\b",
                               re.I)


def _filtered_figure(text: str, analysis: Analysis, entities: Entities, identifiers: Identifiers,
                     period: PeriodResolution) -> bool:
    """True for "open invoices with Beta in Q1", "Company A credit notes from Gamma last quarter": a status or
    document-type phrase, invoices named, a company or supplier, one period, no identifier of a document and no
    word asking for a listing or a document. Design note: the figure is the total over exactly those invoices,
    and the answer restates the statuses and document types it counted, so nothing the question named is
    dropped; any other wording keeps the existing intent rules."""
    if analysis.statuses is None and analysis.document_types is None:
        return False
    if not (_INVOICE_NOUNS.search(text) or _STATUS_AS_FIGURE.search(text)) or _NOT_A_FILTERED_FIGURE.search(text):
        return False
    if identifiers.invoice_numbers or identifiers.contract_ids or identifiers.product_codes or identifiers.document_ids:
        return False
    return bool(entities.company_id or entities.supplier_ids) and period.time_range is not None \
        and not period.ambiguous


def _excluded_figure(text: str, excluded: Sequence[str], entities: Entities, identifiers: Identifiers,
                     period: PeriodResolution) -> bool:
    """True for "Company B monitoring products Jan-Apr 2026, Supplier Beta excluded", "Alpenland Q1 2026:
    everything except cooling equipment": a company, one period and something left out, with no measure word, no
    document and no listing word. Design note: leaving something out is only defined for an amount (the governed
    spend metrics' not-in filters), so the figure is the spend; the answer restates what was left out."""
    if not excluded or not entities.company_id or period.time_range is None or period.ambiguous:
        return False
    if identifiers.invoice_numbers or identifiers.contract_ids or identifiers.document_ids:
        return False
    return not (_OTHER_MEASURE.search(text) or _NOT_A_FILTERED_FIGURE.search(text))


#: The statuses an exclusion cue leaves out, also behind other excluded items of the same list ("excluding credit
#: notes, drafts and cancelled": the cue distributes over the whole list, so "drafts" is no request for drafts).
_EXCLUDED_STATUS_AFTER_CUE = re.compile(
    r"\s*(?:(?:the\s+|any\s+|all\s+)?(?:credit[- ]?notes?|credits|duplicates?)\s*(?:,|/|&|\band\b|\bor\b)\s*)*"
    r"(?:the\s+|any\s+|all\s+)?(?:draft|cancell?ed|void(?:ed)?)s?\b(?:\s*(?:,|/|&|\band\b|\bor\b)\s*"
    r"(?:the\s+|any\s+)?(?:draft|cancell?ed|void(?:ed)?)s?\b)*(?:\s+(?:invoices?|ones|documents?))?", re.I)


#: A list of left-out items with the cue after it ("credit notes, drafts and cancelled excluded"): its statuses are
#: left out, as "cancelled invoices excluded" is.
_EXCLUDED_LIST_POSTFIX = re.compile(
    r"(?:(?:the\s+|any\s+|all\s+)?(?:credit[- ]?notes?|credits|duplicates?|drafts?|cancell?ed|void(?:ed)?)"
    r"(?:\s+(?:invoices?|ones|documents?))?\s*(?:,|/|&|\band\b|\bor\b)\s*)+(?:the\s+|any\s+|all\s+)?"
    r"(?:credit[- ]?notes?|credits|duplicates?|drafts?|cancell?ed|void(?:ed)?)(?:\s+(?:invoices?|ones|documents?))?"
    r"\s*(?:(?:are|were|being|to be|is)\s+)?(?:excluded|left out|removed|omitted|not counted|not included|"
    r"ignored|set aside|aside|out)\b", re.I)


def _mask_excluded_statuses(text: str, analysis: Analysis) -> str:
    """``text`` without the statuses an exclusion cue leaves out ("excluding drafts", "drafts and cancelled
    excluded"): governed figures never count them anyway, so that is no request for them."""
    spans = [m.span() for m in _EXCLUDED_LIST_POSTFIX.finditer(text)
             if re.search(r"draft|cancel|void", m.group(0), re.I)]
    for _, end in analysis.exclusion_cues:
        match = _EXCLUDED_STATUS_AFTER_CUE.match(text, end)
        if match:
            spans.append(match.span())
    return mask(text, tuple(spans)) if spans else text


_SUPPLIER_ID_SPAN = re.compile(r"\bsup[\s_-]?(\d{1,6})\b", re.I)
_COMPANY_ID_SPAN = COMPANY_ID  # (the identifiers' own pattern: a span is read exactly where an id was found)


#: "leave the 16DI PLC module out": the verb before a description, "out" after it.
_LEAVE_OUT = re.compile(r"\b(?:leave|leaving|take|taking)\s+(?=[^,;?!]{1,60}?\s+out\b)", re.I)


def _described_span(text: str, start: int, stop: int | None, gazetteer: Gazetteer) -> tuple[int, int] | None:
    """The span of the words from ``start`` (to ``stop``) that describe one catalogue product, or None."""
    found = product_described(text, start, gazetteer, stop)
    if found is None:
        return None
    return len(text) - len(text[start:].lstrip()), found[1]


def _inside_described_products(text: str, analysis: Analysis, mentions: EntityMentions,
                               gazetteer: Gazetteer) -> tuple[EntityMentions, tuple[str, ...]]:
    """The mentions without the group (supplier, product) names inside a product's description after an exclusion
    cue ("if we ignore the MC-4 monitoring controller": one product, not the group Monitoring Controllers); the
    description is read as the product left out. A description must say more than the names inside it ("excluding
    PLC modules" stays the group)."""
    left_out: list[str] = []
    spans: list[tuple[int, int] | None] = [
        _described_span(text, e, None, gazetteer) for _, e in analysis.exclusion_cues]
    for verb in _LEAVE_OUT.finditer(text):
        out = _OUT_AFTER.search(text, verb.end())
        spans.append(_described_span(text, verb.end(), out.start() if out else None, gazetteer))
    for cue in _EXCLUDED_AFTER_NAME.finditer(text):
        # "the connector set M12 excluded": the longest run of words before the cue that describes one product
        starts = [w.start() for w in re.finditer(r"\S+", text[:cue.start()])][-6:]
        spans.append(next((found for found in (_described_span(text, a, cue.start(), gazetteer) for a in starts)
                           if found is not None), None))
    for span in spans:
        if span is None:
            continue
        start, stop = span

        def inside(m: Mention, start: int = start, stop: int = stop) -> bool:
            return start <= m.start and m.end <= stop
        within = [m for m in (*mentions.suppliers, *mentions.product_groups, *mentions.products) if inside(m)]
        rest = text[start:stop]
        for m in sorted((m for m in within if m.kind != "product"), key=lambda m: m.start, reverse=True):
            rest = rest[:m.start - start] + " " + rest[m.end - start:]
        if not re.search(r"\w*\d\w*|\b(?!the\b|a\b|an\b|our\b)\w{2,}", rest, re.I):
            continue
        mentions = replace(mentions, suppliers=tuple(m for m in mentions.suppliers if not inside(m)),
                           product_groups=tuple(m for m in mentions.product_groups if not inside(m)),
                           products=tuple(m for m in mentions.products if not inside(m)))
        found = product_described(text, start, gazetteer, stop)
        if found is not None:
            left_out.append(found[0])
    return mentions, tuple(left_out)


_PRODUCT_CODE_SPAN = re.compile(r"\bPRD-\d+\b", re.I)


def _named_kinds(text: str, mentions: EntityMentions, identifiers: Identifiers
                 ) -> tuple[tuple[tuple[int, int], ...], ...]:
    """The spans of the resolved names, one tuple per kind (suppliers, companies, groups, products), by name or id."""
    def spans(found: Iterable[Mention]) -> tuple[tuple[int, int], ...]:
        return tuple((m.start, m.end) for m in found if m.resolved)
    return (spans((*mentions.suppliers, *_supplier_id_mentions(text, identifiers))),
            spans((*mentions.companies, *_company_id_mentions(text, identifiers))),
            spans(mentions.product_groups),
            spans((*mentions.products, *_product_code_mentions(text, identifiers))))


def _product_code_mentions(text: str, identifiers: Identifiers) -> tuple[Mention, ...]:
    """The product codes written in the question as mentions with their spans (so an exclusion cue covers them)."""
    return tuple(Mention("product", m.group(0), m.start(), m.end(), (m.group(0).upper(),))
                 for m in _PRODUCT_CODE_SPAN.finditer(text) if m.group(0).upper() in identifiers.product_codes)


def _supplier_id_mentions(text: str, identifiers: Identifiers) -> tuple[Mention, ...]:
    """The supplier ids written in the question as mentions with their spans (so an exclusion cue covers them)."""
    return tuple(Mention("supplier", m.group(0), m.start(), m.end(), (f"SUP-{m.group(1)}",))
                 for m in _SUPPLIER_ID_SPAN.finditer(text)
                 if m.span() in identifiers.spans and f"SUP-{m.group(1)}" in identifiers.supplier_ids)


def _company_id_mentions(text: str, identifiers: Identifiers) -> tuple[Mention, ...]:
    """The company ids written in the question as mentions with their spans (so an exclusion cue covers them)."""
    return tuple(Mention("company", m.group(0), m.start(), m.end(), (f"COMP-{m.group(1).upper()}",))
                 for m in _COMPANY_ID_SPAN.finditer(text)
                 if m.span() in identifiers.spans and f"COMP-{m.group(1).upper()}" in identifiers.company_ids)


#: A cue after the names it leaves out: "MRO excluded", "with Beta and Gamma left out", "Zeta aside".
_EXCLUDED_AFTER_NAME = re.compile(
    # a restatement's closing parenthesis may stand between ("MRO (maintenance, repair and operations) aside")
    r"\s*[)\]\"”’]?\s*(?:(?:is|are|was|were|being|be|to be|should be|must be|has been|have been)\s+)?"
    r"(?:excluded|left out|"
    # ("spend with Beta dropped from Q3 to Q4": the change verb, no exclusion)
    r"removed|omitted|taken out|not included|not counted|ignored|disregarded|set aside|put aside|aside|"
    r"dropped(?!\s+(?:from|by|to|in|between|over|since|sharply|significantly|\d))|"
    r"ausgenommen|ausgeschlossen|nicht eingerechnet)\b", re.I)
#: The halves around a name of "leave Beta out", "take the MRO out": a verb before, "out" right after.
_OUT_VERB_BEFORE = re.compile(r"\b(?:leave|leaving|leaves|take|taking|keep|keeping|strip|stripping)\s+(?:the\s+)?$",
                              re.I)
_OUT_AFTER = re.compile(r"\s+out\b", re.I)


_CUE_AFTER_NAME = re.compile(r"\s*(?:(?:is|are|was|were|being|be|to be|should be|must be|has been|have been)\s+)?")
#: Cues that only ever lead their target ("excluding X", never "X excluding").
_PREFIX_ONLY_CUE = re.compile(r"(?:excluding|excl\.?|except(?:\s+for)?|without|other\s+than|apart\s+from|"
                              r"ohne|au(?:ß|ss)er|ausgenommen\s+von)", re.I)
_WORD_AFTER = re.compile(r"\s+(?:the\s+)?[^\W\d_]{3,}")
#: What may stand between a prefix cue and its target ("except Beta", "other than the Beta").
_TARGET_AFTER_CUE = re.compile(r"\s*(?:the\s+|for\s+)?", re.I)


def postfix_excluded(text: str, spans: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """The name spans an exclusion cue *after* them leaves out ("Company B spend, MRO excluded", "leave Beta and
    Gamma out"): the name right before the cue and every name joined to it by a list word before that."""
    ordered = sorted(spans)
    covered: set[tuple[int, int]] = set()
    for i, (start, end) in enumerate(ordered):
        cue = _EXCLUDED_AFTER_NAME.match(text, end) is not None
        if not cue and _OUT_AFTER.match(text, end):
            # "leave Beta out", "leave Beta and Gamma out": the verb stands before the first name of the list
            first = i
            while first > 0 and _list_gap(text[ordered[first - 1][1]:ordered[first][0]]):
                first -= 1
            cue = _OUT_VERB_BEFORE.search(text[max(0, ordered[first][0] - 30):ordered[first][0]]) is not None
        if not cue:
            continue
        covered.add((start, end))
        j = i
        while j > 0 and _list_gap(text[ordered[j - 1][1]:ordered[j][0]]):
            j -= 1
            covered.add(ordered[j])
    return covered


def _list_gap(gap: str) -> bool:
    """Whether only a list word stands between two names ("Beta and Gamma", "Beta, Gamma")."""
    return re.fullmatch(r"\s*(?:,|,?\s*(?:and|or|&|plus)\s)\s*", gap, re.I) is not None


#: What may stand between an exclusion cue and the product it leaves out ("excluding the PT100 probe").
_CUE_TO_PRODUCT = re.compile(r"\s*(?:(?:the|our|all|any|for|of)\s+)*", re.I)


def _left_out_products(text: str, analysis: Analysis, codes: Sequence[tuple[int, int, str]],
                       mentions: EntityMentions) -> tuple[frozenset[str], EntityMentions]:
    """The product codes an exclusion cue leaves out (a cue right before them, "excluding PRD-491", or after them,
    "PRD-491 excluded"), and the mentions with only the products no cue leaves out: the products a group word
    may only restate."""
    spans = [(s, e) for s, e, _ in codes] + [(m.start, m.end) for m in mentions.products]
    after = postfix_excluded(text, spans) if spans else set()

    def left_out(start: int, end: int) -> bool:
        return (start, end) in after or any(ce <= start and _CUE_TO_PRODUCT.fullmatch(text, ce, start)
                                            for _, ce in analysis.exclusion_cues)

    left = frozenset(c for s, e, c in codes if left_out(s, e))
    return left, replace(mentions, products=tuple(m for m in mentions.products if not left_out(m.start, m.end)))


def _exclusions(
    text: str, analysis: Analysis, mentions: EntityMentions, gazetteer: Gazetteer,
    id_mentions: tuple[Mention, ...] = (), company_ids: tuple[Mention, ...] = (),
) -> tuple[EntityMentions, tuple[str, ...], tuple[str, ...], tuple[str, ...], list[str], list[int]]:
    """The mentions left after the exclusion cues, the excluded supplier, group and product ids, problems (an
    excluded name that is ambiguous) and the positions of cues followed by no mention. ``id_mentions`` (supplier
    ids and product codes written as ids) are excluded like names when a cue covers them; ``company_ids`` (company
    ids written as ids) only take their cue (their exclusion is read by _excluded_companies)."""
    spans = [(m.start, m.end) for m in (*mentions.suppliers, *mentions.product_groups, *id_mentions,
                                        *mentions.products)]
    # a company behind a cue is no bare cue's target (its exclusion is read by _excluded_companies)
    spans_and_companies = [*spans, *((m.start, m.end) for m in (*mentions.companies, *company_ids))]
    after = postfix_excluded(text, spans)
    if not analysis.exclusion_cues and not after:
        return mentions, (), (), (), [], []
    # "leave out the PRD-482 sensors": a group word right next to a product code describes that product; it is
    # no second entity (leaving the whole group out too would drop far more than was asked)
    codes = [(m.start, m.end) for m in id_mentions if m.kind == "product"]
    described = {(m.start, m.end) for m in mentions.product_groups
                 if any((e <= m.start and not text[e:m.start].strip(" ()"))
                        or (m.end <= s and not text[m.end:s].strip(" ()")) for s, e in codes)}
    if described:
        mentions = replace(mentions, product_groups=tuple(m for m in mentions.product_groups
                                                          if (m.start, m.end) not in described))
        spans = [sp for sp in spans if sp not in described]
        spans_and_companies = [sp for sp in spans_and_companies if sp not in described]
    # "Beta excluded, please": a cue word after a name is that name's (postfix) cue, never one before a target;
    # but a cue with a name right after it ("on monitoring products except Beta") leaves that name out.
    # "Control Equipment excluding cabinets": a prepositional cue ("excluding", "except", "without") with words
    # after it leaves those words out, whatever name stands before it (only "excluded", "left out" are postfix).
    cues = [c for c in analysis.exclusion_cues
            if any(_TARGET_AFTER_CUE.fullmatch(text[c[1]:s]) for s, _ in spans_and_companies if s >= c[1])
            or (_PREFIX_ONLY_CUE.fullmatch(text[c[0]:c[1]].strip()) and _WORD_AFTER.match(text, c[1]))
            or not any(_CUE_AFTER_NAME.fullmatch(text[e:c[0]]) for _, e in spans if e <= c[0])]
    covered, bare = excluded_spans(text, cues, spans_and_companies,
                                   [(m.start, m.end) for m in (*mentions.companies, *company_ids)])
    covered |= after
    # Invariant: a name right behind an exclusion cue is never the figure's filter ("ex-Delta", "bar Beta"): whatever
    # the list grammar above decided, the cue before it leaves it out (an exclusion read as an inclusion answers the
    # opposite question with a confident figure).
    covered |= {(s, e) for s, e in spans
                if any(ce <= s and _TARGET_AFTER_CUE.fullmatch(text[ce:s]) for _, ce in analysis.exclusion_cues)}
    # A name restating an excluded one ("take out MRO (maintenance, repair and operations)") is left out with it:
    # one entity is never both kept and left out.
    left_out = {m.candidates for m in (*mentions.suppliers, *mentions.product_groups, *id_mentions,
                                       *mentions.products) if (m.start, m.end) in covered}
    covered |= {(m.start, m.end) for m in (*mentions.suppliers, *mentions.product_groups, *id_mentions,
                                           *mentions.products) if m.candidates in left_out}
    # a product left out is the metrics' exclude_product_codes filter (reported by the caller); one name that
    # fits several products is asked about
    problems: list[str] = [f"{m.text!r} (excluded) names more than one product: {', '.join(m.candidates)}. Which "
                           "one do you mean?" for m in mentions.products if (m.start, m.end) in covered
                           and m.resolved is None]
    suppliers: list[str] = [m.candidates[0] for m in id_mentions if (m.start, m.end) in covered
                            and m.kind == "supplier"]
    groups: list[str] = []
    for m in mentions.suppliers:
        if (m.start, m.end) in covered:
            if m.resolved is None:
                options = ", ".join(f"{c} ({gazetteer.supplier_names.get(c, '?')})" for c in m.candidates)
                problems.append(f"{m.text!r} (excluded) names more than one supplier: {options}. Which one do you "
                                "mean?")
            else:
                suppliers.append(m.resolved)
    for m in mentions.product_groups:
        if (m.start, m.end) in covered:
            if len(m.candidates) != 1:
                problems.append(f"{m.text!r} (excluded) names more than one product group: "
                                f"{', '.join(m.candidates)}. Which one do you mean?")
            else:
                groups.append(m.candidates[0])
    kept = EntityMentions(
        companies=mentions.companies,
        suppliers=tuple(m for m in mentions.suppliers if (m.start, m.end) not in covered),
        product_groups=tuple(m for m in mentions.product_groups if (m.start, m.end) not in covered),
        # a product named by its catalogue name stays a filter when an exclusion cue is about something else
        # ("excluding credit notes"); one behind the cue is asked about (above)
        products=tuple(m for m in mentions.products if (m.start, m.end) not in covered),
        first_person=mentions.first_person,
    )
    products = [m.candidates[0] for m in (*mentions.products, *id_mentions)
                if m.kind == "product" and m.resolved and (m.start, m.end) in covered]
    return (kept, tuple(dict.fromkeys(suppliers)), tuple(dict.fromkeys(groups)), tuple(dict.fromkeys(products)),
            problems, [position for position, _ in bare])


_COMPANY_LEFT_OUT = re.compile(r"\s*[)\]]?\s*(?:(?:is|are|being|be|to be)\s+)?(?:excluded|left out|not included|"
                               r"set aside|put aside|aside|ausgenommen|ausgeschlossen)\b", re.I)


def _excluded_companies(text: str, analysis: Analysis, mentions: EntityMentions, gazetteer: Gazetteer,
                        id_mentions: tuple[Mention, ...] = ()) -> tuple[EntityMentions, tuple[str, ...], list[str]]:
    """Companies an exclusion cue leaves out ("all entities other than Xenon Pharma AG", "excl. Company A",
    "except COMP-C"): the company left is read as the figure's company; several left are asked about (a
    company-spend figure is one company's or all of them together, never a subset). ``id_mentions`` are the company
    ids written in the question: left out like names when a cue covers them, kept as the figure's company if not."""
    named = (*mentions.companies, *id_mentions)
    spans = [(m.start, m.end) for m in named]
    if not spans:
        return mentions, (), []
    covered, _ = excluded_spans(text, analysis.exclusion_cues, spans)
    # after a company only words that do nothing else ("Company A spend dropped" is a change, no exclusion)
    covered |= {(s, e) for s, e in spans if _COMPANY_LEFT_OUT.match(text, e)}
    out = sorted((m for m in named if (m.start, m.end) in covered), key=lambda m: m.start)
    if not out:
        return mentions, (), []
    excluded = tuple(dict.fromkeys(c for m in out for c in m.candidates))
    kept = [m for m in mentions.companies if (m.start, m.end) not in covered]
    if any((m.start, m.end) not in covered for m in id_mentions):
        # "COMP-A spend excluding COMP-B": the id left stands for the figure's company (it stays an identifier)
        return replace(mentions, companies=tuple(kept)), excluded, []
    left = [c for c in gazetteer.companies if c.company_id not in excluded]
    problems: list[str] = []
    if not kept and len(left) == 1:
        kept = [Mention("company", left[0].company_name, out[0].start, out[0].end, (left[0].company_id,))]
    elif not kept:
        names = ", ".join(f"{c.company_name} ({c.company_id})" for c in left) or "none"
        problems.append(f"{out[0].text!r} (excluded) leaves the companies {names}: governed spend is one "
                        "company's or all companies' together. Which company do you mean, or all of them?")
    return replace(mentions, companies=tuple(kept)), excluded, problems


def interpretation(entities: Entities, period_start: dt.date | None, period_end: dt.date | None) -> str:
    """The reading restated for the answer: "Company A, suppliers SUP-18, Monitoring Products and its subgroups,
    2026-01-01 to 2026-04-01" (the period as half-open dates: the end day is not included)."""
    parts: list[str] = []
    if entities.company_id:
        parts.append(f"{entities.company_name or entities.company_id} ({entities.company_id})")
    if entities.supplier_ids:
        parts.append("suppliers " + ", ".join(entities.supplier_ids))
    if entities.product_group_ids:
        # a set of groups ("sensors or loggers"): every one of them, each with its subgroups
        parts.append("product groups " + " + ".join(entities.product_group_ids) + " (each with its subgroups)")
    elif entities.product_group:
        parts.append(f"{entities.product_group} and its subgroups")
    if entities.product_codes:
        parts.append("products " + ", ".join(entities.product_codes))
    if period_start and period_end and period_start <= HISTORY_START:
        # "ever", "all periods", a listing with no period: every date on file, said as such
        parts.append(f"all dates on file up to the as-of date {period_end - dt.timedelta(days=1)} ({period_start} to "
                     f"{period_end}, end exclusive)")
    elif period_start and period_end:
        parts.append(f"{period_start} to {period_end} (end exclusive)")
    return ", ".join(parts)


__all__ = [
    "NAME_MARGIN",
    "NAME_THRESHOLD",
    "SKIPPED_WORDS",
    "Cues",
    "MetricKind",
    "NameMatch",
    "NameResolver",
    "Reading",
    "TrigramResolver",
    "Unread",
    "amount_range",
    "asks_personal_data",
    "interpretation",
    "metric_kind",
    "name_score",
    "name_spellings",
    "rank_matches",
    "read",
    "similarity",
    "span_words",
    "trigrams",
]
