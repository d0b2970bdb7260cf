"""The analyst's phrases: rankings, shares, period comparisons, exclusions, status and document-type filters,
original-currency requests and the average unit price over a period, read into typed slots with their spans.

Every parser is a pure function of the (identifier-masked) question text. The reader adds each span it returns
to the consumed spans (so "YoY" or "top 5" is never left as an unread name) and the router maps the slots to
the governed metric that serves them (:func:`governed_request`): ``finance.spend_ranking``,
``finance.supplier_share``, ``finance.spend_comparison``, ``finance.document_currency_spend``,
``catalog.average_unit_price``, or ``finance.company_spend`` with its exclusion and document-type filters. A
combination no metric allows comes back as a clarification that names it, never as a dropped slot.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from router import comparison_words as _CW
from router.contract import TimeRange
from router.exclusion_words import NAME_ONLY_CUE, NAME_ONLY_CUE_PATTERN
from router.negation_scope import negated, negation_after, negation_before, netted_before
from router.periods import add_months, resolve_period
from router.reading import currency_code, parse_breakdown

Direction = Literal["top", "bottom"]
CompareTo = Literal["previous_period", "same_period_last_year", "custom"]

_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                 "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20, "fifty": 50}
_NUM = r"(?P<n>\d{1,3}|" + "|".join(_NUMBER_WORDS) + r")"
_DIMENSION_NOUNS: tuple[tuple[str, str], ...] = (
    # the level words ("top-level", "leaf") are read by router.reading.group_dimension
    ("product_group_id", r"(?:(?:top[- ]level|leaf|lowest[- ]level|main)\s+)?(?:(?:product|material|catalog)[- ])?"
                         r"(?:sub[- ]?)?"
                         r"(?:groups?|categor(?:y|ies))"),
    ("product_code", r"(?:products?|items?|articles?|skus?)"),
    ("supplier_id", r"(?:suppliers?|vendors?)"),
)
_DIM = "|".join(f"(?P<{name}>{noun})" for name, noun in _DIMENSION_NOUNS)
#: "top-level" is a level of the product groups, no ranking ("spend by top level product group").
_LEVEL_AFTER = r"(?![\s-]+(?:(?:product[\s-]+)?(?:groups?|categor(?:y|ies))[\s-]+)?level)"
#: ("our #1 supplier": the "1" after "#", the word boundary before it standing between them)
#: ("spend by top category", "per top group": the level of a grouping, router.reading.group_dimension's; no ranking)
_TOP_WORDS = (r"(?:(?<!\bby\s)(?<!\bper\s)top|top(?!\s+(?:product\s+)?(?:groups?|categor(?:y|ies))\b))"
              r"(?![\s-]level)|biggest|largest|highest" + _LEVEL_AFTER
              + r"|number one|no\.? ?1|(?:(?<=#)|(?<=#\s))1(?![\d.,])")
#: "lowest product group level", "lowest-level groups": a level of the product groups, no ranking.
_BOTTOM_WORDS = r"bottom|smallest|lowest" + _LEVEL_AFTER + r"|least|fewest|tiniest"
#: "top 5 suppliers", "the 3 biggest vendors", "our largest supplier", "bottom ten product groups", "top-3".
_RANKINGS = tuple(re.compile(p, re.I) for p in (
    rf"\b{_NUM}\s+(?P<dir>{_TOP_WORDS}|{_BOTTOM_WORDS})(?:\s+|-(?=spend))(?:[a-z]+[\s-]+){{0,2}}?(?:{_DIM})\b",
    # "our lowest-spend vendor", "the highest-spend suppliers": a hyphenated measure between
    rf"\b(?P<dir>{_TOP_WORDS}|{_BOTTOM_WORDS})(?:[\s-]+{_NUM})?(?:\s+|-(?=spend))(?:[a-z]+[\s-]+){{0,2}}?(?:{_DIM})\b",
    rf"\b(?P<dir>top|bottom)[\s-]+{_NUM}\b",
))
_SPEND_VERB = r"(?:spen[dt]|spending|paid|pay|bought|buy|purchased?|invoiced)"
#: "which supplier did we spend the most with", "who received the least", "rank suppliers by spend".
_MOSTS = tuple(re.compile(p, re.I) for p in (
    # "which 2 leaf product groups (lowest level) had the most": a parenthesis after the noun qualifies it
    rf"\b(?:which|what)\s+(?:{_NUM}\s+)?(?:{_DIM})\s+(?:\([^)]{{1,30}}\)\s+)?(?:\w+\s+){{0,5}}?(?:the\s+)?"
    rf"(?P<dir>most|least|fewest|highest|largest|biggest|lowest|smallest|meisten|wenigsten)\b",
    # "the 2 suppliers with the highest spend", "vendors having the fewest invoices": the number before the noun
    # (German "die 5 Lieferanten mit den meisten Rechnungen" reaches here with its article dropped)
    rf"\b(?:{_NUM}\s+)?(?:{_DIM})\s+(?:\([^)]{{1,30}}\)\s+)?(?:with|having|that (?:had|have|has))\s+(?:the\s+)?"
    rf"(?P<dir>most|least|fewest|highest|largest|biggest|lowest|smallest|meisten|wenigsten)\b",
    # "of the suppliers Company C bought from in H2, which two had the lowest spend": the ranked noun stands in
    # the partitive before the question word
    rf"\b(?:of|among(?:st)?|out\s+of)\s+(?:the\s+|all\s+(?:the\s+)?|our\s+|its\s+|their\s+)?(?:\s*['’]s\s+)?"
    rf"(?:{_DIM})\b"
    rf"[^?;.]{{0,80}}?,?\s+(?:which|what|who)\s+(?:{_NUM}\s+)?(?:(?:ones?)\s+)?(?:\w+\s+){{0,4}}?(?:the\s+)?"
    rf"(?P<dir>most|least|fewest|highest|largest|biggest|lowest|smallest)\b",
    # "the product we bought the most units of", "the 3 suppliers Company A spent the least with"
    rf"\bthe\s+(?:{_NUM}\s+)?(?:{_DIM})\s+(?:that\s+|which\s+)?(?:\S+\s+){{0,3}}?{_SPEND_VERB}\s+(?:the\s+)?"
    rf"(?P<dir>most|least)\b",
    # "who did we spend the most with": a supplier; "where did we spend the most": what is ranked is asked.
    rf"\b(?P<who>who|whom)\s+(?:\w+\s+){{0,4}}?{_SPEND_VERB}\s+(?:\w+\s+){{0,3}}?(?:the\s+)?(?P<dir>most|least)\b",
    r"\b(?P<who>who)\s+(?:received|got|earned|billed|invoiced)\s+(?:us\s+)?the\s+(?P<dir>most|least)\b",
    # "who sent Company A the fewest invoices": a supplier ranked by what it sent
    r"\b(?P<who>who)\s+(?:sent|issued|submitted|raised)\s+(?:\w+\s+){0,3}?the\s+(?P<dir>most|least|fewest)\b",
    rf"\bwhere\s+(?:\w+\s+){{0,4}}?{_SPEND_VERB}\s+(?:\w+\s+){{0,3}}?(?:the\s+)?(?P<dir>most|least)\b",
    # "rank Company A's suppliers": the company is masked, its "'s" stays
    # "rank all four of Kestrel's suppliers": a number there counts them all, it cuts nothing
    rf"\b(?P<rank>rank)(?:ed|ing|s)?\s+(?:(?:of|the|our|all|each|every|['’]s|\d{{1,3}}|"
    rf"{'|'.join(_NUMBER_WORDS)})\s+)*(?:{_DIM})\b",
    rf"\b(?:{_DIM})\s+(?P<rank>ranked)\b",
))
#: "highest first", "lowest first", "in ascending order": the order a ranked list is given in.
_ORDER_WORDS = re.compile(r"\b(highest|largest|biggest|most|lowest|smallest|least)\s+first\b"
                          r"|\bin\s+(ascending|descending)\s+order\b", re.I)
#: The largest limit a ranking metric takes: "rank the suppliers" without a number lists every one of them.
ALL_RANKS = 100
_ORDER_BY = (
    ("units", re.compile(r"\bby (?:units|quantity|volume|number of units)\b|\b(?:the\s+)?(?:most|fewest|least)\s+"
                         r"(?:units|pieces|items)\b", re.I)),
    ("net_spend", re.compile(r"\bby net(?: spend| amount)?\b", re.I)),
    ("matched_line_count", re.compile(r"\bby (?:number of )?(?:invoice )?lines\b", re.I)),
    # The number of invoices: served by finance.invoice_count grouped by supplier (router/counts.py).
    ("invoice_count", re.compile(
        r"\bby (?:the\s+|their\s+)?(?:number|count|#|no\.?) of (?:invoices|bills|documents|credit[- ]?notes)\b"
        r"|\bby (?:invoice|document|credit[- ]?note) (?:count|volume|numbers)\b"
        r"|\b(?:the\s+)?(?:most|fewest|least|highest number of|largest number of|lowest number of|smallest number of)"
        r"\s+(?:invoices|bills|documents|credit[- ]?notes)\b"
        r"|\b(?:invoiced|billed)\s+(?:\w+\s+){0,3}?(?:(?:the\s+)?(?:most|least)\s+(?:often|frequently)|"
        r"(?:most|least) often)\b"
        r"|\b(?:meisten|wenigsten)\s+(?:invoices|Rechnungen)\b", re.I)),
)
_SHARE = re.compile(
    r"\b(?:what|which)\s+(?:share|percentage|percent|proportion|fraction|portion)\b"
    r"|\b(?:share|percentage|proportion|fraction|portion)\s+(?:of|in)\b"
    # "what part (percent) of Company C's spend is in GBP", "which part of our spend was Beta": a part of a whole
    r"|\b(?:what|which)\s+part\s+(?:\(\s*(?:in\s+)?(?:percent|per\s?cent|%|percentage|share)\s*\)\s+)?of\b"
    r"|['’]s\s+share\b|\bhow (?:big|large|much) (?:a|of a|is the) share\b"
    # "share" alone, but not the verb of a request ("request you to share variance", "pls share the report",
    # "kindly share us"): after a request word or before an object pronoun or determiner it asks to send
    r"|(?<!\bto\s)(?<!\bpls\s)(?<!\bplz\s)(?<!\bplease\s)(?<!\bkindly\s)(?<!\byou\s)(?<!\bcan\s)(?<!\bwill\s)"
    r"(?<!\bdo\s)(?<!\bpl\s)\bshare\b(?!\s+(?:the|us|me|it|this|that|these|those|your|details|with\s+(?:us|me))\b)"
    r"|\bhow much of\b[^?]{0,80}\b(?:went to|was with|was from|with|from)\b"
    # "from 2025-07-01 to ...", "from March": a period, not the part of a share
    r"(?!\s+(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|q[1-4]\b|h[12]\b|last\b|this\b))"
    r"|%\s+of\b|\bper ?cent of\b"
    # "Beta contribution % to total spend", "% contribution of Beta", "weightage in overall spend", "% to total": the
    # part's contribution to a whole (a percent sign or a whole word beside the contribution noun)
    r"|\b(?:contribution|weightage)\b(?=\s*(?:\(?\s*(?:%|in\s+%|(?:percent|per\s?cent|pct)\b)|\s+(?:to|of|in|towards)\b))"
    r"|(?:%|\bpercent|\bper\s?cent|\bpct)\s*(?:contribution|weightage)\b"
    r"|%\s*(?:to|in|of)\s+(?:the\s+|our\s+)?(?:total|overall|whole|entire|all)\b"
    # "how much of co a 2025 was control eqpt %": the part asked in percent (the sign or word after the part)
    r"|\bhow much of\b[^?]{0,80}\b(?:was|were|is|are|went)\b[^?]{0,60}(?:%|\bper\s?cent\b|\bpct\b)"
    # "within Company A's sensor spend, what % was pressure sensors": the whole named before the part
    r"|\bwhat\s+%\s+(?:was|were|is|are|went|goes)\b(?!\s+(?:the\s+)?(?:change|increase|decrease|growth|drop|rise))"
    # a part of the whole in other words: "how big a slice of our spend was sensors", "how much of Company A's
    # 2025 spend was Beta" (the measure word before "was" makes it a part of spend, not an amount asked for)
    r"|\bhow (?:big|large) (?:a|of a|is the) (?:slice|chunk|part|piece|portion)\b|\b(?:slice|chunk)\s+of\b"
    # "more than a quarter of Company A's spend", "over half of the spend" (not "a quarter of a million")
    # (not "the second half of last year": a period)
    r"|(?<!first\s)(?<!second\s)(?<!1st\s)(?<!2nd\s)(?<!last\s)(?<!this\s)"
    r"\b(?:half|a\s+quarter|a\s+third|two\s+thirds|three\s+quarters)\s+of\b(?!\s+(?:a|one)\s+(?:thousand|"
    r"million|billion)\b)(?=[^?]{0,80}\b(?:spend|spending|purchases|expenditure)\b)"
    r"|\bhow much of\b[^?]{0,80}\b(?:spend|spending|purchases|purchasing|expenditure)\b[^?]{0,30}?\b(?:was|were)\b",
    re.I,
)
# --- comparisons ----------------------------------------------------------------------------------------------
#: "What percentage" asking how much a change was, not which part of a whole (no "of"/"in" after it).
_PERCENT_OF_A_CHANGE = re.compile(r"(?:what|which)\s+(?:percentage|percent)", re.I)
_PART_OF = re.compile(r"\s+(?:of|in)\b", re.I)
_CHANGE_WORDS = re.compile(
    # "abs change", "absolute difference", "abs. delta", "abs + %": the change asked in absolute terms
    r"\b(?:abs\.?|absolute)(?:\s*(?:\+|&|and|/)\s*(?:%|pct|percent(?:age)?|relative))?\s+(?:change[ds]?|difference|delta|"
    r"diff|variance)\b|\b(?:abs\.?|absolute)(?:(?=\s*(?:\+|&|and|/)\s*"
    r"(?:%|pct\b|percent\w*|relative\b)))|"
    r"\b(?:change[ds]?|changing|increased?|increases|decreased?|decreases|grow|grew|grown|growth|rise|rose|risen|"
    r"fall|fell|fallen|drop|drops|dropped|declined?|evolve[ds]?|evolution|develop(?:ed)?|trend|move[ds]?|moving|shift(?:ed|s)?|"
    r"swing|more or less|up or down)\b|(?:" + _CW.alternation(_CW.CHANGE) + r")(?!\w)",
    re.I,
)
#: Words for a path over time rather than a change between two periods: with a grain and no base ("the trend
#: in 2025 by quarter") they ask for the series, which the breakdown gives.
_TRAJECTORY = re.compile(r"trend|evolution|evolve[ds]?|develop(?:ed)?", re.I)
_COMPARE_WORDS = re.compile(r"\b(?:compare[ds]?|comparing|comparison|vs\.?|versus|difference|relative to|"
                            # "invoices booked against vendor X", "against PO 4711", "against the agreement": the
                            # document or party a booking is made on, no base of a comparison
                            r"(?<!booked\s)(?<!posted\s)(?<!charged\s)(?<!raised\s)(?<!billed\s)(?<!invoiced\s)"
                            r"against(?!\s+(?:the\s+|this\s+|that\s+|our\s+|a\s+)?(?:vendors?|suppliers?|compan(?:y|ies)|"
                            r"po|purchase\s+orders?|orders?|invoices?|agreements?|contracts?|budget|cost\s+cent(?:er|re)s?|"
                            r"accounts?|gl)\b)|"
                            r"than)\b|" + _CW.alternation(_CW.CONNECTORS), re.I)
_SAME_LAST_YEAR = re.compile(
    r"\b(?:the\s+)?same\s+(?:period|quarter|qtr|month|time|half|week|year|yr)\s+(?:of\s+|in\s+)?"
    r"(?:last|the previous|the prior|a|one|the)\s+(?:year|yr)(?:\s+(?:before|earlier|ago))?\b"
    r"|\b(?:the\s+)?same\s+(?:period|quarter|qtr|month|time|half|week)\s+(?:a|one)\s+(?:year|yr)\s+(?:earlier|before|ago)\b"
    r"|\b(?:last|previous|prior)\s+(?:year|yr)['’]?s\s+same\s+(?:period|quarter|qtr|month|half)\b"
    r"|\b(?:a|one)\s+(?:year|yr)\s+(?:earlier|before|ago)\b"
    r"|\byear[- ]on[- ]year\b|\byear[- ]over[- ]year\b|\byoy\b|\by/y\b"
    r"|\b(?:compared (?:to|with)|vs\.?|versus|against|relative to|(?<!\bother\s)than|over)\s+(?:the\s+)?"
    r"(?:last|previous|prior)\s+(?:year|yr)\b|" + _CW.alternation(_CW.SAME_PERIOD_LAST_YEAR),
    re.I,
)
_PREVIOUS = re.compile(
    r"\b(?:quarter|month|period|week)[- ]over[- ](?:quarter|month|period|week)\b|\b(?:qoq|q/q|mom|m/m)\b"
    r"|\b(?:the\s+)?(?:previous|prior|preceding)\s+(?:period|quarter|qtr|month|year|half|week)\b"
    r"|\bthe\s+(?:period|quarter|month|year|half|week)\s+before(?:\s+(?:it|that))?\b"
    # "last quarter vs the one before": the period before the one just named
    r"|(?<=\s)the\s+one\s+(?:before|prior|preceding|earlier)(?:\s+(?:it|that))?\b"
    r"|\b(?:compared (?:to|with)|vs\.?|versus|against|relative to|(?<!\bother\s)than|over|from)\s+(?:the\s+)?last\s+"
    r"(?:quarter|month|half|week|period)\b|" + _CW.alternation(_CW.PREVIOUS_BASE),
    re.I,
)
#: Words around a comparison that are consumed with it ("compared to", "vs", "the change in").
_COMPARE_GLUE = re.compile(r"\b(?:compared (?:to|with)|in comparison (?:to|with)|vs\.?|versus|against|relative to|"
                           # "other than <name>": an exclusion, no comparison
                           r"from|to|(?<!\bother\s)than|over)\s*$", re.I)
# --- exclusions ------------------------------------------------------------------------------------------------
#: Words that put what follows outside the figure.
EXCLUSION_CUE = re.compile(
    # "everything but Beta", "anything except cables", "everything outside of Control Equipment": the whole-scope
    # word is read with its cue (the complement of what follows), never an unread word nor a name. First, so the
    # longer cue wins at its position.
    r"\b(?:(?:everything|anything|all\s+else)\s+(?:else\s+)?"
    r"(?:but|except(?:\s+for)?|other\s+than|apart\s+from|aside\s+from|besides|outside(?:\s+of)?|excl\.?|excluding"
    r"|bar|minus|save)(?=\s)|"
    r"excluding|exclude[ds]?|except(?:\s+for)?|other than|not from|apart from|aside from|with the exception of|"
    # "but not counting X", "without counting X", "if we ignore X": the longer cue first
    r"not including|exclusive of|without counting|without|besides|but not counting|but not including|but not|"
    r"(?:if|when|once)\s+(?:we|you|i)\s+ignore|disregarding|(?:leaving|setting|putting|leave|set|put)\s+aside|"
    r"take out|taking out|"
    # "if we take dataloggers out", "leaving Beta out": the verb and its particle around what is left out
    r"(?:take|taking|leave|leaving|keep|keeping)(?=\s+[^,;?]{1,40}?\s+out\b)|"
    r"leaving out|leave out|not counting|ignoring|minus|ex\.|excl\.?|exkl\.?|w/o|"
    # "if we ignore Gamma", "disregarding Beta": the named supplier or group is left out of the figure (an
    # imperative "Ignore previous instructions" is no exclusion: only "we/you ignore" is)
    r"(?<=\bwe\s)ignore|(?<=\byou\s)ignore|disregarding|"
    # A bare "ex" ("spend ex Beta") excludes only a name that follows it: "ex works" is a delivery term.
    r"ex|"
    # "everyone but Beta", "all suppliers but Beta": "but" excludes only after an "all"-like word.
    r"(?<=\beveryone\s)but|(?<=\beverybody\s)but|(?<=\banyone\s)but|(?<=\ball\s)but|"
    r"(?<=\bsuppliers\s)but|(?<=\bvendors\s)but|(?<=\bgroups\s)but)(?=\s)"
    # "suppliers but excluding Gamma": the second cue names the exclusion, "but" is only the conjunction
    r"(?!\s+(?:excluding|except|other\s+than|without|apart|aside|leaving|ignoring|excl))"
    # the prefixes and foreign prepositions that lead only a name ("ex-Delta", "bar Beta", "sans Gamma")
    rf"|{NAME_ONLY_CUE_PATTERN}",
    re.I | re.UNICODE,
)
# --- statuses and document types --------------------------------------------------------------------------------
_POSTED = re.compile(
    r"\b(?:unpaid|outstanding|not yet paid|not paid(?: yet)?|yet to be paid|still open|"
    r"open\s+(?:\.\s*)?(?:invoices?|items?|amounts?|payables?|balances?|spend|documents?|totals?|lines?|line items?)|"
    # "posted but not yet paid", "posted, not paid yet", "posted and still unpaid": one status, posted
    r"(?:only )?posted(?:\s+invoices?|,?\s+(?:but\s+|and\s+)?(?:still\s+)?(?:not\s+(?:yet\s+)?paid(?:\s+yet)?|"
    r"unpaid)| only)?|(?:that|which) are open|"
    r"awaiting payment|due for payment|pending payment|"
    # "how much do we (still) owe Beta": what is invoiced and not yet paid.
    r"(?:still\s+)?(?:owe|owed|owing)|"
    # "how much of our spend is open": the status as the predicate of the spend
    r"(?<=\bis\s)(?:still\s+)?open|(?<=\bare\s)(?:still\s+)?open)\b",
    re.I,
)
#: Both recognized statuses named together ("posted or paid", "paid and posted", "paid/posted").
#: Any joiner of a status list counts ("posted+paid", "posted & paid", "paid/posted", "gebucht und bezahlt"):
#: reading one of them alone answers a different figure as if complete.
_JOIN = r"\s*(?:,|/|&|\+|\bor\b|\band\b|\bplus\b|\bund\b|\boder\b|\bsowie\b|\bbzw\.?)\s*"
_POSTED_WORD = r"(?:posted|gebucht(?:e[nrs]?)?)"
_PAID_WORD = r"(?:paid|bezahlt(?:e[nrs]?)?)"
_BOTH = re.compile(rf"\b(?:{_POSTED_WORD}{_JOIN}{_PAID_WORD}|{_PAID_WORD}{_JOIN}{_POSTED_WORD})\b", re.I)
_PAID = re.compile(
    # A name between the status and its noun is masked to spaces ("open Beta invoices"), a trailing "." of an
    # abbreviated name ("open Epsilon Instr. invoices") may stay: hence \s+ and an optional dot.
    r"\b(?:only paid|paid\s+(?:\.\s*)?(?:invoices?|documents?|line items?|lines?)|"
    # "paid-status spend", "invoices in paid status", "status = paid": the status named with its own noun
    r"paid[- ]status|(?:in|with|of)\s+(?:the\s+)?paid\s+status|status\s*(?:[:=]|is)?\s*paid|"
    r"invoices? (?:that|which) (?:were|have been|are|was|has been) (?:already )?paid|"
    r"already paid|fully paid|that (?:were|have been) paid|settled(?:\s+invoices?)?|"
    # "cleared" items are paid ones in accounts-payable usage (the payment cleared the open item).
    r"cleared(?:\s+invoices?|\s+items?)?|paid only|"
    # "invoices in status paid", "with status 'paid'", "status: paid": the status named after its noun
    r"status\s*(?:[:=]\s*|is\s+)?[\"'“‘]?paid|"
    r"paid (?:spend|spending|amounts?|totals?|purchases|invoice (?:amounts?|totals?)))\b"
    # "..., paid", "(paid)", "... with Beta and Gamma paid?": a status appended to the figure, not the verb of
    # "how much have we paid?" (an auxiliary or a pronoun before it).
    r"|(?<=[,(])\s*paid\b|\bpaid(?=\s*\))"
    r"|(?<!\bhave)(?<!\bhas)(?<!\bhad)(?<!\bwe)(?<!\bi)(?<!\bthey)(?<!\byou)(?<!\bwas)(?<!\bwere)(?<!\bbeen)"
    r"(?<!\bbe)(?<!\bdid)(?<!\bdo)(?<!\bis)(?<!\bare)(?<!\bit)(?<!\bget)(?<!\bgot)(?<!\byet)(?<!\bnot)"
    r" paid(?=[?.!]*\s*$)"
    # "how much of our Q1 spend is paid": the part of the spend in that status
    r"|(?<=\bis\s)(?:already\s+)?paid(?=[?.!]*\s*(?:$|[,;(]))",
    re.I,
)
#: The status as the predicate of the documents or the spend asked about ("how many invoices from Q1 have been
#: paid", "how much of April's spend has been paid", "invoices paid in Q1"), not the verb of a payer ("how much have
#: we paid", "what was paid to Beta": no document or spend noun before it).
_PAID_PREDICATE = re.compile(
    r"\b(?:(?:are|is|were|was|have\s+been|has\s+been|had\s+been|got|get|been)\s+(?:already\s+|fully\s+|now\s+)?"
    r"paid(?:\s+(?:already|off|in\s+full))?\b"
    r"|(?<=\binvoices\s)paid(?=\s+(?:in|during|for|since|so\s+far|already|yet|as\s+(?:at|of)|by|until|up\s+to)\b"
    r"|[?.!]*\s*$))", re.I)
_PAID_SUBJECT = re.compile(r"\b(?:invoices?|bills?|documents?|credit[- ]?notes?|spend|spending|purchases|lines?|"
                           r"line\s+items?|items?)\b", re.I)
_CREDIT_NOTES = re.compile(
    r"\bcredit[- ]?notes?\b|\bcredit memos?\b|\bcredits\b(?=\s+(?:received|issued|from|by))"
    # "how much did Beta credit us": the supplier's credit notes (a buyer issues none).
    r"|(?<=\bdid\b)[^?;]{1,40}?\bcredit\b(?!\s*(?:notes?|memos?|limit|cards?|terms?|rating|checks?|risk|line))"
    r"|\bcredited\b(?!\s*(?:notes?|memos?))",
    re.I)
# --- currency -----------------------------------------------------------------------------------------------------
_CODE = (r"(?P<code>eur|euros?|usd|(?:u\.?s\.?[\s-]?)?dollars?|gbp|(?:british\s+)?pounds?(?:\s+sterling)?|sterling|chf|"
         r"(?:swiss\s+)?francs?|(?:schweizer\s+)?franken|(?:britischen?\s+)?pfund|€|\$|£|"
         # other ISO currencies a tenant may be asked about: read as currencies (an empty filter says "none"), never
         # as unknown names
         r"jpy|(?:japanese\s+)?yen|¥|sek|nok|dkk|pln|czk|huf|cny|yuan|renminbi|"
         # the colloquial names of the same currencies ("quid", "bucks", "złoty"): router/reading.py's table
         r"quids?|bucks|z[łl]oty(?:s|ch)?|forints?|korun[ay]?)")

#: "which currency", "what currencies do they bill in", "in which ccy are we invoiced": the invoice currencies asked.
_WHICH_CURRENCY = (r"\b(?:in\s+)?(?:which|what)\s+(?:invoice\s+|invoicing\s+|billing\s+|original\s+)?"
                   r"(?:currenc(?:y|ies)|ccys?)(?:\s+(?:do|does|did|are|is|were|was)\s+(?:they|it|we|you|the\s+supplier)"
                   r"|\s+(?:they|it)(?=\s+(?:bill|invoice)))?(?:\s+(?:bill|bills|billed|invoice|invoices|invoiced|use|"
                   r"uses|used)(?:\s+(?:us|in|with))*)?\b")
_ORIGINAL = re.compile(
    # "local currency" of a spend figure: the currencies the invoices were issued in (the reporting currency is
    # beside each of them in the answer, so a reader who meant the company's own currency is answered too)
    r"\b(?:original|invoice|invoiced|invoicing|document|transaction|source|billing|billed|native|local)\s+"
    r"(?:currenc(?:y|ies)|ccys?)\b"
    # "which currency (do they bill in)", "what ccy", "billing ccy", "per ccy", "currency + amounts": the spend of
    # each invoice currency (the rows say which currencies there are, each with its amount)
    rf"|{_WHICH_CURRENCY}"
    r"|\b(?:per|by)\s+ccys?\b"
    r"|\b(?:currenc(?:y|ies)|ccys?)\s*(?:\+|&|/|,|\band\b|\bplus\b)\s*(?:the\s+|their\s+)?(?:amounts?|totals?|figures?)\b"
    r"|\b(?:amounts?|totals?)\s*(?:\+|&|/|,|\band\b|\bplus\b)\s*(?:the\s+|their\s+)?(?:currenc(?:y|ies)|ccys?)\b"
    r"|\b(?:original|native|as[- ](?:invoiced|billed)|invoiced|billed)\s+(?:amounts?|totals?|figures?|values?)\b"
    r"|\bin\s+each\s+invoice['’]?s?\s+(?:own\s+)?currency\b"
    r"|\b(?:Original|Rechnungs|Beleg|Transaktions|Landes)w(?:ä|ae)hrung(?:en)?\b"
    r"|\b(?:nach|je|pro)\s+(?:der\s+)?W(?:ä|ae)hrung(?:en)?\b"
    r"|\bin\s+(?:their|its|the invoices['’]?|each invoice['’]s)\s+own\s+currenc(?:y|ies)\b"
    r"|\bin\s+the\s+invoices['’]?\s+currenc(?:y|ies)\b"
    r"|\bin\s+the\s+currenc(?:y|ies)\s+(?:of\s+the\s+invoices?|(?:they|it)\s+(?:were|was)\s+(?:invoiced|billed|issued)"
    r"(?:\s+in)?|invoiced|billed)\b"
    r"|\bas\s+(?:invoiced|billed)\b|\bunconverted\b|\bnot\s+converted\b"
    r"|\b(?:without|before|no|prior to)\s+(?:any\s+)?(?:fx\s+|currency\s+)?conversion\b"
    r"|\b(?:original|document)[- ]currency\s+(?:amounts?|spend|totals?|figures?)\b"
    # "spend by currency": one figure per invoice currency, each in that currency (never converted and summed).
    r"|\b(?:per|by|for each|broken down by|split by|grouped by)\s+(?:the\s+|their\s+)?"
    r"(?:(?:invoice|invoiced|original|document|transaction|billing|source|native)[\s-]+){0,2}(?:currenc(?:y|ies)|ccys?)\b"
    # "FX exposure", "currency exposure", "foreign-exchange exposure" (treasury's word): how much is owed in each
    # invoice currency, i.e. the spend of each invoice currency as invoiced with the reporting-currency total
    r"|\b(?:fx|currency|ccy|foreign[- ]exchange|w(?:ä|ae)hrungs)[- ]?(?:exposures?|risiko)\b",
    re.I,
)
#: Share words after or before a currency code ("USD share", "share of GBP"): a share of one currency's invoices.
_CURRENCY_PART = r"share|portion|proportion|percentage|fraction|slice|Anteil"
_IN_CURRENCIES = tuple(re.compile(p, re.I) for p in (
    rf"\b(?:invoiced|billed|denominated|issued|paid)\s+in\s+{_CODE}(?![A-Za-z])",
    rf"(?<![A-Za-z]){_CODE}[- ](?:denominated\s+)?(?:invoices|spend|purchases|amounts)\b",
    # "CHF-invoiced spend", "USD-billed invoices", "GBP denominated"
    rf"(?<![A-Za-z]){_CODE}[- ](?:invoiced|billed|denominated)\b",
    rf"\b(?:spend|purchases|amounts?)\s+(?:denominated|invoiced|billed)\s+in\s+{_CODE}(?![A-Za-z])",
    rf"\binvoices\s+(?:in|denominated in)\s+{_CODE}(?![A-Za-z])",
    # "GBP exposure", "exposure to USD", "our exposure in CHF": treasury's word for what is invoiced in a currency
    rf"(?<![A-Za-z]){_CODE}[- ](?:fx[- ])?exposures?\b",
    rf"\bexposures?\s+(?:to|in)\s+(?:the\s+)?{_CODE}(?![A-Za-z])(?!\s?\d)",
    # "USD share of the spend", "GBP-Anteil", "share of USD": the invoices of that currency are the share's part
    rf"(?<![A-Za-z]){_CODE}[- ](?:{_CURRENCY_PART})\b",
    rf"\b(?:{_CURRENCY_PART})\s+(?:of\s+|der\s+|an\s+)?{_CODE}(?![A-Za-z])(?!\s?\d)(?!\s*(?:invoices|spend))",
))
#: A currency code before an amount noun only ("EUR amounts", "USD spend"): of the phrases of _IN_CURRENCIES, the
#: one that may just name the currency the amounts are given in.
_CODE_AMOUNT = re.compile(rf"(?<![A-Za-z]){_CODE}[- ](?:spend|purchases|amounts)\b", re.I)
#: "in USD", "in Swiss francs", "paid in £": a currency the figure is asked in; the router reads it as the invoices
#: issued in it when it is not the company's reporting currency (a conversion into it is no governed figure).
_NAMED_CURRENCY = tuple(re.compile(p, re.I) for p in (
    # (not "in EUR 5,000", an amount; "in USD 2025" is the currency, then the year)
    rf"\bin\s+(?:the\s+)?{_CODE}(?![A-Za-z])(?!\s?(?!20\d\d(?![\d.,]))\d)",
    rf"(?<![A-Za-z]){_CODE}[- ]Rechnungen\b",
    # "EUR-equivalent", "EUR terms", "EUR basis": the figure asked in that currency (router/currency.py)
    rf"(?<![A-Za-z]){_CODE}[- ](?:equiv(?:alent)?s?|terms|basis)\b",
))
#: "non-EUR invoices", "invoices not in euros", "in currencies other than EUR", "foreign-currency invoices": the
#: invoices of every currency but one (``code``; none named: the reporting currency).
_NON_CURRENCY = tuple(re.compile(p, re.I) for p in (
    rf"\bnon[- ]?{_CODE}(?![A-Za-z])(?:[- ](?:denominated|invoiced|billed))?",
    rf"\b(?:not|other than)\s+(?:in\s+|denominated in\s+|invoiced in\s+|billed in\s+)?{_CODE}(?![A-Za-z])",
    rf"\bin\s+(?:a\s+)?currenc(?:y|ies)\s+other\s+than\s+(?:the\s+)?{_CODE}(?![A-Za-z])",
    r"\bforeign[- ]currenc(?:y|ies)\b|\bforeign\s+(?:invoices|spend)\b",
    r"\bFremdw(?:ä|ae)hrung\w*",
))
_CODE_NEAR = re.compile(rf"(?:\bin\s+)?(?<![A-Za-z]){_CODE}(?![A-Za-z])", re.I)
# --- average unit price --------------------------------------------------------------------------------------------
#: Units a product is counted in ("per set", "per metre", "per box"); a price per one of them is a unit price.
_UNIT_OF_MEASURE = (r"sets?|kits?|metres?|meters?|m|box(?:es)?|parcels?|pairs?|rolls?|packs?|packages?|cartons?|"
                    r"bottles?|items?|each|ea|pieces?|pcs|units?|probes?|controllers?|modules?|cabinets?|sensors?|"
                    r"meters?|litres?|liters?|l|kg|kilos?|tonnes?|t")
_AVERAGE_PRICE = re.compile(
    r"\b(?:(?:quantity[- ])?weighted\s+)?(?:average|avg\.?|mean)\s+(?:net\s+)?(?:unit\s+)?prices?(?:\s+per\s+unit)?\b"
    r"|\b(?:average|avg\.?|mean)\s+(?:price|cost)\s+per\s+(?:unit|piece|pc)\b|\bunit[- ](?:prices?|costs?)\b"
    r"|\b(?:price|cost)\s+per\s+(?:unit|piece|pc)\b|\bper[- ](?:unit|piece)\s+(?:price|cost)\b"
    # "the price of PRD-482 in 2025", "price paid for PRD-482": a product's price over a period is its
    # quantity-weighted average unit price (only with a product code: ``choose_metric``). Not "list price":
    # that is the catalogue's, not what was paid.
    r"|(?<!list )\bprices?\s+(?:of|for|paid(?:\s+for)?)(?=\s)"
    # "what did we pay (on average) per unit", "paid on average per unit", "cost us per unit on average"
    r"|\b(?:pay|paid|cost(?:\s+us)?)\s+(?:on\s+average\s+|in\s+average\s+|an\s+average\s+of\s+)?per\s+"
    rf"(?:unit|piece|pc|{_UNIT_OF_MEASURE})\b"
    # the unit of measure named: "average price per set", "avg cost per metre", "what did we pay per box"
    rf"|\b(?:average|avg\.?|mean)\s+(?:net\s+)?(?:price|cost)\s+per\s+(?:{_UNIT_OF_MEASURE})\b"
    # "avg EUR/unit", "EUR per unit", "Preis pro Stück": the price of one unit in a currency
    r"|\b(?:eur|usd|gbp|chf)\s*(?:/|per\s+)\s*(?:unit|piece|pc|stk|st(?:ü|ue)ck)\b"
    r"|\b(?:preis|kosten)\s+(?:pro|je)\s+st(?:ü|ue)ck\b|\bst(?:ü|ue)ckpreis\w*",
    re.I,
)
#: "which supplier was cheapest for PRD-482", "who sold PRD-482 cheapest": the product's average unit price per
#: supplier (the cheapest is the lowest row); without a product the router asks which product.
_CHEAPEST_SUPPLIER = re.compile(
    r"\b(?:which|what)\s+(?:supplier|vendor)s?\b[^?]{0,60}?\b(?:cheapest|cheaper|lowest\s+(?:unit\s+)?price|"
    r"least\s+expensive|best\s+price)\b"
    r"|\bwho\s+(?:sold|sells|offered|offers|supplied|supplies|delivered)\b[^?]{0,60}?\b(?:cheapest|cheaper)\b"
    r"|\b(?:cheapest|least\s+expensive)\s+(?:supplier|vendor)s?\b",
    re.I,
)


@dataclass(frozen=True)
class Ranking:
    """"Top 5 suppliers": the dimension ranked, how many ranks, which end and by which output."""

    dimension: str | None
    limit: int
    direction: Direction
    order_by: str = "total_spend"
    explicit_limit: bool = False
    #: The word after "the most" when it names no measure a ranking orders by ("the most returns"): asked about.
    unknown_measure: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Comparison:
    """A period comparison: the base is a rule (previous period, same period last year) or a named period."""

    compare_to: CompareTo
    base: TimeRange | None = None
    #: The period a bracket after a relative base restates ("compared to last month (Oct'25)"): the base as the
    #: writer worked it out; the relative base is still taken from the period compared (router/reader.py).
    stated_base: TimeRange | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Analysis:
    """The analyst slots of one question, each with the spans it was read from."""

    ranking: Ranking | None = None
    share: bool = False
    comparison: Comparison | None = None
    #: Where each exclusion cue ends (what follows it is excluded) and its text.
    exclusion_cues: tuple[tuple[int, int], ...] = ()
    #: Invoice statuses asked for (None: the default, posted and paid).
    statuses: tuple[str, ...] | None = None
    #: Document types asked for (None: both).
    document_types: tuple[str, ...] | None = None
    #: Spend in the invoices' own currency; ``document_currency`` when one currency is named with it.
    original_currency: bool = False
    document_currency: str | None = None
    #: "EUR amounts", "by EUR spend": the one currency named only before an amount noun (no "invoice currency",
    #: no "EUR invoices"); when it is the reporting currency it restates the figure's basis, nothing to choose.
    amount_currency: bool = False
    #: "GBP and USD invoices": two or more invoice currencies named together (each its own row, never added).
    document_currencies: tuple[str, ...] = ()
    #: "in USD": the currency a figure is asked in (document currency unless it is the reporting currency).
    named_currency: str | None = None
    #: "non-EUR invoices": the one currency left out ("" for "foreign currency": the reporting currency).
    excluded_currency: str | None = None
    average_price: bool = False
    #: "which supplier was cheapest for PRD-482": the average unit price per supplier.
    price_by_supplier: bool = False
    #: "vs", "compared with": a comparison when the question names two periods (the reader splits them).
    compare_words: tuple[tuple[int, int], ...] = ()
    spans: tuple[tuple[int, int], ...] = ()

    @property
    def governed_shape(self) -> bool:
        """True when the question needs a metric other than the plain spend workflow's."""
        return bool(self.ranking or self.share or self.comparison or self.original_currency
                    or self.document_currency or self.document_types)


def _number(text: str | None) -> int | None:
    if not text:
        return None
    return int(text) if text.isdigit() else _NUMBER_WORDS.get(text.lower())


def _dimension(match: re.Match[str]) -> str | None:
    for name, _ in _DIMENSION_NOUNS:
        if match.groupdict().get(name):
            return name
    return "supplier_id" if match.groupdict().get("who") else None


def _plural(match: re.Match[str], dimension: str | None) -> bool:
    word = (match.groupdict().get(dimension) or "") if dimension else ""
    return word.lower().endswith(("s", "ies"))


#: Words that may follow "the most"/"the least" in a ranking without naming another measure: the measures a
#: ranking orders by, their synonyms, and the function and period words that end the phrase.
_AFTER_MOST = frozenset("""
spend spending spent money euros euro eur dollars units unit pieces items invoices invoice bills documents credit
lines line business volume purchases purchasing purchased value amount amounts often frequently net gross paid
with on from in at for of to by during over since between last this the our us we overall total altogether and or
than across among per so far ytd year quarter month week meisten wenigsten cash
unpaid open outstanding posted settled cleared
""".split())  # noqa: SIM905 - a word list reads better as text


def _measure_after(text: str, end: int) -> str | None:
    """The noun right after a "most"/"least" when it is no measure a ranking knows ("the most returns")."""
    words = re.match(r"\s*([^\W\d_][\w-]*)(?:\s+([^\W\d_][\w-]*))?", text[end:])
    if words is None or words.group(1).lower() in _AFTER_MOST:
        return None
    return " ".join(w for w in words.groups() if w and w.lower() not in _AFTER_MOST) or None


def parse_ranking(text: str) -> tuple[Ranking | None, tuple[tuple[int, int], ...]]:
    """A ranking request and its spans.

    >>> parse_ranking("Who were our top 5 suppliers last quarter?")[0]
    Ranking(dimension='supplier_id', limit=5, direction='top', order_by='total_spend', explicit_limit=True)
    >>> parse_ranking("our biggest supplier in 2025")[0].limit
    1
    """
    spans: list[tuple[int, int]] = []
    found: Ranking | None = None
    for match in (m for pattern in _RANKINGS for m in pattern.finditer(text)):
        if any(s < match.end() and match.start() < e for s, e in spans):
            continue
        word = match.group("dir").lower()
        direction: Direction = "bottom" if re.fullmatch(_BOTTOM_WORDS, word, re.I) else "top"
        number = _number(match.groupdict().get("n"))
        dimension = _dimension(match)
        limit = number if number else (5 if dimension is None or _plural(match, dimension) else 1)
        if found is None:
            found = Ranking(dimension, max(1, min(limit, 100)), direction, explicit_limit=number is not None)
        spans.append(match.span())
    for match in (m for pattern in _MOSTS for m in pattern.finditer(text)):
        if any(s < match.end() and match.start() < e for s, e in spans):
            continue
        if match.groupdict().get("dir") and re.search(r"\bat\s+$", text[: match.start("dir")], re.I):
            continue  # "which suppliers had at least 10k": a bound on an amount, not a ranking
        dimension = _dimension(match)
        word = (match.groupdict().get("dir") or "").lower()
        direction = "bottom" if word in ("least", "lowest", "smallest", "fewest", "wenigsten") else "top"
        number = _number(match.groupdict().get("n"))
        if found is None:
            # "rank the suppliers" without a number asks for all of them, not a silent top 5
            limit = number or (1 if word and not _plural(match, dimension) else
                               ALL_RANKS if match.groupdict().get("rank") else 5)
            found = Ranking(dimension, max(1, min(limit, ALL_RANKS)), direction, explicit_limit=number is not None,
                            unknown_measure=_measure_after(text, match.end()) if word else None)
        elif found.dimension is None and dimension is not None:
            found = Ranking(dimension, found.limit, found.direction, found.order_by, found.explicit_limit)
        spans.append(match.span())
    if found is None:
        return None, ()
    order = _ORDER_WORDS.search(text)
    if order is not None and found.limit == ALL_RANKS:
        # "rank suppliers by spend, lowest first": the order the whole list is given in (a cut ranking keeps its
        # end: "top 3, lowest first" only orders the three)
        low = (order.group(1) or order.group(2)).lower() in ("lowest", "smallest", "least", "ascending")
        found = Ranking(found.dimension, found.limit, "bottom" if low else "top", found.order_by,
                        found.explicit_limit, found.unknown_measure)
        spans.append(order.span())
    for order_by, pattern in _ORDER_BY:
        ordered = pattern.search(text)
        if ordered:
            found = Ranking(found.dimension, found.limit, found.direction, order_by, found.explicit_limit)
            spans.append(ordered.span())
            break
    by_spend = re.search(r"\bby (?:total |gross )?spend(?:ing)?\b", text, re.I)
    if by_spend:
        spans.append(by_spend.span())
    return found, tuple(spans)


#: "the most invoices", "invoiced us most often": a ranking by the number of documents with no ranked noun (the
#: count ranks suppliers, the only dimension a document count partitions by).
_MOST_DOCUMENTS = re.compile(
    r"\b(?:the\s+)?(?P<dir>most|fewest|least|highest number of|largest number of|lowest number of|"
    r"smallest number of|meisten|wenigsten)\s+(?:invoices|bills|documents|credit[- ]?notes)\b"
    r"|\b(?:invoiced|billed)\s+(?:\w+\s+){0,3}?(?:the\s+)?(?P<often>most|least)\s+(?:often|frequently)\b",
    re.I,
)


def ranking_by_count(text: str) -> tuple[Ranking | None, tuple[tuple[int, int], ...]]:
    """The ranking of a count question ("top 3 suppliers by number of invoices", "who sent the fewest invoices",
    "rank suppliers by invoice count"): :func:`parse_ranking`, or one supplier for "the most invoices" alone.

    >>> ranking_by_count("which supplier sent the fewest invoices")[0]
    Ranking(dimension='supplier_id', limit=1, direction='bottom', order_by='invoice_count', explicit_limit=False)
    """
    ranking, spans = parse_ranking(text)
    if ranking is not None:
        return ranking, spans
    match = _MOST_DOCUMENTS.search(text)
    if match is None:
        return None, ()
    word = (match.group("dir") or match.group("often")).lower()
    direction: Direction = "bottom" if word.startswith(("fewest", "least", "lowest", "smallest", "wenigsten")) \
        else "top"
    return Ranking(None, 1, direction, "invoice_count"), (match.span(),)


def parse_share(text: str) -> tuple[bool, tuple[tuple[int, int], ...]]:
    """A share request ("what share of our spend went to Beta", "Beta's share of pressure sensor spend")."""
    spans = [m.span() for m in _SHARE.finditer(text)]
    return bool(spans), tuple(spans)


def _resolve_base(phrase: str, as_of: dt.date) -> TimeRange | None:
    resolved = resolve_period(phrase, as_of)
    return None if resolved.ambiguous else resolved.time_range


def compare_words(text: str) -> tuple[tuple[int, int], ...]:
    """Spans of words that compare ("vs", "compared with"): a comparison once two periods are named."""
    return tuple(m.span() for m in _COMPARE_WORDS.finditer(text))


def parse_comparison(text: str, as_of: dt.date) -> tuple[Comparison | None, tuple[tuple[int, int], ...],
                                                          tuple[tuple[int, int], ...], bool]:
    """A period comparison: the rule or base, the spans to consume, the spans to hide from the period reader (the
    base phrases) and whether the question compares at all (cue words with or without a base).

    The base phrases are hidden from :func:`router.periods.resolve_period` so "Q1 2026 compared with the same
    quarter last year" reads Q1 2026 as *the* period; two named periods ("Q1 2026 vs Q4 2025") are split by
    :func:`split_periods`.
    """
    spans: list[tuple[int, int]] = []
    hidden: list[tuple[int, int]] = []
    compare_to: CompareTo | None = None
    stated: TimeRange | None = None
    for pattern, rule in ((_SAME_LAST_YEAR, "same_period_last_year"), (_PREVIOUS, "previous_period")):
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in hidden):
                continue
            span = match.span()
            gloss = _base_gloss(text, span[1], as_of)
            if gloss is not None:
                # "02/2026 compared to last month (JAN 2026)": the bracket restates the base, so it is hidden with
                # it; read by the period reader it was a second period (taken for the current one)
                span, stated = (span[0], gloss[0]), stated or gloss[1]
            hidden.append(span)
            spans.append(span)
            compare_to = compare_to or rule  # type: ignore[assignment]
    change = [m.span() for m in _CHANGE_WORDS.finditer(text)]
    compare = [m.span() for m in _COMPARE_WORDS.finditer(text)]
    if (change and compare_to is None and not compare and parse_breakdown(text).grain is not None
            and all(_TRAJECTORY.fullmatch(text[s:e]) for s, e in change)):
        return None, tuple(change), (), False
    asks = bool(change) or (bool(compare) and compare_to is not None)
    if compare_to is not None and not (change or compare):
        # "year over year", "QoQ" compare by themselves; "the previous quarter" alone is just a period.
        inherent = any(re.search(r"over|yoy|y/y|qoq|q/q|mom|m/m|on[- ]year", text[s:e], re.I)
                       or _CW.INHERENT_RE.search(text[s:e]) for s, e in hidden)
        if not inherent:
            return None, (), (), False
        asks = True
    if not asks:
        return None, (), (), False
    spans.extend(change)
    spans.extend(compare)
    return ((Comparison(compare_to, stated_base=stated) if compare_to else None), tuple(spans), tuple(hidden),
            True)


#: A bracket right after a relative base ("last month (Oct'25)", "QoQ (Jul to Sep 2025)", "the prior quarter (i.e.
#: Q3 2025)"): what it holds, read as a period.
_BASE_BRACKET = re.compile(r"\s*\(\s*(?:i\.\s?e\.?,?\s*|ie\s+|=\s*|that\s+is,?\s+|viz\.?\s*)?(?P<p>[^()]{2,40}?)\s*\)")


def _base_gloss(text: str, end: int, as_of: dt.date) -> tuple[int, TimeRange] | None:
    """Where a bracket restating the base phrase ending at ``end`` ends, and its period; ``None`` when none
    follows or it names no single period."""
    found = _BASE_BRACKET.match(text, end)
    if found is None:
        return None
    read = resolve_period(found.group("p"), as_of)
    if read.time_range is None or read.ambiguous:
        return None
    return found.end(), read.time_range


def split_periods(mentions: Sequence[str], as_of: dt.date) -> tuple[TimeRange, TimeRange] | None:
    """Two named periods of a comparison as (current, base): the later one is the period, the earlier the base
    (a change runs from the earlier period to the later one)."""
    ranges = [r for r in (_resolve_base(m, as_of) for m in mentions) if r is not None]
    distinct = list({(r.start, r.end): r for r in ranges}.values())
    if len(distinct) != 2:
        return None
    base, current = sorted(distinct, key=lambda r: (r.start, r.end))
    return current, base


def compare_rule(current: TimeRange, base: TimeRange) -> CompareTo:
    """The base-period rule a named base period matches, or ``custom``."""
    from semantic.params import base_period

    for rule in ("previous_period", "same_period_last_year"):
        if base_period(current.start, current.end, rule) == (base.start, base.end):
            return rule  # type: ignore[return-value]
    return "custom"


def parse_filters(text: str) -> tuple[tuple[str, ...] | None, tuple[str, ...] | None, tuple[tuple[int, int], ...]]:
    """Invoice statuses and document types asked for, and their spans.

    >>> parse_filters("unpaid invoices from Beta")[0], parse_filters("credit notes only")[1]
    (('posted',), ('credit_note',))
    """
    spans: list[tuple[int, int]] = []
    statuses: tuple[str, ...] | None = None
    paid = [m for m in _PAID.finditer(text)
            # "How much has Company A paid?": a trailing "paid" after a perfect tense is the verb.
            if not (m.group(0).strip() == "paid" and m.end() >= len(text.rstrip("?.! "))
                    and re.search(r"\b(?:have|has|had)\b", text[: m.start()], re.I))]
    paid.extend(m for m in _PAID_PREDICATE.finditer(text)
                if _PAID_SUBJECT.search(text, 0, m.start()) and not any(p.start() <= m.start() < p.end() for p in paid))
    # "not yet paid invoices": the negated status wins over the "paid invoices" inside it.
    paid = [m for m in paid if not any(p.start() < m.start() < p.end() for p in _POSTED.finditer(text))]
    posted = [m for m in _POSTED.finditer(text) if not any(p.start() <= m.start() < p.end() for p in paid)]
    # A status behind an exclusion cue is left out ("excluding unpaid invoices" = the paid ones).
    flip = {"posted": "paid", "paid": "posted"}
    asked = {("posted" if m in posted else "paid") if not _status_left_out(text, m) else
             flip["posted" if m in posted else "paid"] for m in (*paid, *posted)}
    # "posted or paid invoices", "paid/posted": both named together are both (the default), never the one whose
    # noun happens to follow it
    both = list(_BOTH.finditer(text))
    if both:
        asked = {"posted", "paid"}
    if len(asked) == 1:
        statuses = (asked.pop(),)
    spans.extend(m.span() for m in (*paid, *posted, *both))
    types, type_spans = document_type_scope(text)
    if types == ("invoice", "credit_note"):
        types = None  # both types are every governed figure's default: no filter to add
    spans.extend(type_spans)
    return statuses, types, tuple(spans)


#: Document-type phrases. A credit-note mention is read by the words around it: left out ("no credit notes",
#: "leave the credit notes out", "ignore credit notes") -> invoices only; taken along ("invoices and credit notes",
#: "credit notes netted in", "incl. credit notes") -> both; otherwise ("credit notes only", "how many credit notes")
#: -> credit notes only. Reading a left-out or taken-along mention as "credit notes only" answers another question
#: with a confident figure, so every cue is listed here and the generator in evaluation.probes_doctypes varies them.
_CN = r"(?:credit[- ]?notes?|credit[- ]?memos?|gutschrift(?:en)?)"
_INV = r"(?:invoices?|bills?|rechnung(?:en)?)"
_TYPES_BOTH = re.compile(
    rf"\b{_INV}\s*(?:,?\s*(?:and|&|plus|\+|/|or|as well as|together with|along with|with|und|sowie)\s+|/\s*)"
    rf"(?:(?:the|their|any|all|related)\s+)?{_CN}\b"
    rf"|\b{_CN}\s*(?:(?:and|&|plus|\+|or|as well as|und|sowie)\s+|/\s*)(?:(?:the|all)\s+)?{_INV}\b", re.I)
_BOTH_BEFORE = re.compile(
    r"(?:net of|netting(?:\s+in)?|netted(?:\s+(?:in|with|against))?|including|include|includes|incl\.?|inclusive of|"
    r"after|with|plus|counting|together with|along with|inkl\.?|inklusive|einschlie(?:ß|ss)lich|mit|samt|"
    # "after that credit note": the one named before (a compound's first part) netted in, not credit notes only
    r"abz(?:ü|ue)glich|abzgl\.?|nach)\s+(?:(?:the|any|all|our|their|related|that|this|these|those|its|each|every|"
    r"die|den|der|dieser|diese)\s+)?$", re.I)
_BOTH_AFTER = re.compile(
    r"\s*(?:(?:are|were|being|to be|is|should be)\s+)?(?:netted(?:\s+(?:in|off|out|against))?|"
    r"included|deducted|subtracted|taken into account|factored in|counted in|counted too|counted as well|"
    r"(?:as\s+)?(?:negative|negatives)|included too|included as well|too|as well|verrechnet|abgezogen|"
    r"eingerechnet|ber(?:ü|ue)cksichtigt)\b", re.I)
#: A credit note named as a fact of the context ("there was a credit note", "we received a credit note"), not as
#: what is asked for.
_CONTEXT_MENTION = re.compile(r"\b(?:there\s+(?:was|were|is|are|has\s+been|have\s+been|had\s+been)|we\s+"
                              r"(?:got|received|had|have\s+(?:got|received|had)))\s+(?:(?:a|an|one|some|two|three|"
                              r"several|also|also\s+a|a\s+full|a\s+partial|partial|full)\s+)*$", re.I)
#: The net figure asked for (net of credit notes; "net of VAT" is another figure and no cue here).
_NET_ASKED = re.compile(r"\bnet\b(?!\s+(?:of|excluding|excl\.?|before|without)\s+(?:vat|tax|taxes|mwst)\b)", re.I)
_EXCLUDED_TYPE_BEFORE = re.compile(
    r"(?:excluding|exclude[ds]?|except(?:\s+for)?|other than|apart from|without|besides|but not|not|no|leaving out|"
    r"leave out|leave|leaving|not counting|not including|exclusive of|ignoring|ignore|ignored|disregard(?:ing)?|"
    # "spend ex credit notes": "ex" as the finance shorthand of "excluding"
    r"omit(?:ting)?|drop(?:ping)?|skip(?:ping)?|minus|rather than|instead of|ex\.|(?<![\w.-])ex|excl\.?|exkl\.?|"
    # "gross invoiced amount before credit notes", "gross of credit notes": the invoices before any credit note
    # is netted in (the opposite of "net of" / "after credit notes")
    r"before|prior to|gross of|ahead of|vor|"
    r"exklusive|w/o|"
    r"ohne|au(?:ß|ss)er|keine?|nicht)\s+(?:(?:the|any|all|our|their|related|die|den|der)\s+)?$", re.I)
_EXCLUDED_TYPE_AFTER = re.compile(
    r"\s*(?:(?:are|were|being|to be|is|should be|must be)\s+)?(?:excluded|out|left out|removed|omitted|taken out|"
    r"not included|not counted|ignored|disregarded|aside|set aside|dropped|aside|ausgenommen|ausgeschlossen|"
    r"nicht eingerechnet|weggelassen)\b", re.I)
#: An exclusion cue before a list whose last item is the credit-note mention ("excluding drafts, cancelled and
#: credit notes", "w/o duplicates or credit notes"): the cue distributes over every item of the list.
_EXCLUDED_TYPE_LIST_BEFORE = re.compile(
    r"\b(?:excluding|exclude[ds]?|except(?:\s+for)?|other than|apart from|without|besides|but not|no|leaving out|"
    r"not counting|not including|exclusive of|ignoring|ignore|disregarding|omitting|excl\.?|exkl\.?|ohne|w/o|"
    r"(?<![\w.-])ex\.?)\s+"
    r"(?:(?:the|any|all)\s+)?(?:(?:drafts?|cancell?ed|void(?:ed)?|duplicates?)(?:\s+(?:invoices?|ones|documents?))?"
    r"\s*(?:,|/|&|\band\b|\bor\b|\bnor\b)\s*)+(?:(?:the|any|all)\s+)?$", re.I)
_TYPES_INVOICES_ONLY = re.compile(
    r"\b(?:only (?:the )?invoices|invoices only|invoices? alone|just (?:the )?invoices|invoice documents only|"
    r"nur (?:die )?(?:rechnungen|invoices)|rechnungen only|ausschlie(?:ß|ss)lich rechnungen)\b", re.I)


#: Words after a credit-note mention that list further left-out items and then leave them all out ("credit notes,
#: drafts and cancelled excluded"): the postfix cue distributes back over the list.
_EXCLUDED_TYPE_LIST_AFTER = re.compile(
    r"(?:\s*(?:,|/|&|\band\b|\bor\b)\s*(?:(?:the|any|all)\s+)?(?:drafts?|cancell?ed|void(?:ed)?|duplicates?)"
    r"(?:\s+(?:invoices?|ones|documents?))?)+\s*(?:(?:are|were|being|to be|is|should be|must be)\s+)?"
    r"(?:excluded|left out|removed|omitted|taken out|not included|not counted|ignored|disregarded|set aside|"
    r"aside|dropped|out)\b", re.I)


def document_type_scope(text: str) -> tuple[tuple[str, ...] | None, tuple[tuple[int, int], ...]]:
    """The document types a question asks for (``None`` when it names none) and the spans of its phrases.

    A credit note left out wins over every other mention (the question then asks for invoices only); a credit note
    taken along makes both types; "invoices only" without a credit-note mention is invoices only; a bare mention is
    credit notes only.

    >>> document_type_scope("spend (invoices only, no credit notes)")[0]
    ('invoice',)
    >>> document_type_scope("lines (invoices and credit notes)")[0], document_type_scope("credit notes netted in")[0]
    (('invoice', 'credit_note'), ('invoice', 'credit_note'))
    >>> document_type_scope("leave the credit notes out")[0], document_type_scope("credit notes only")[0]
    (('invoice',), ('credit_note',))
    """
    spans: list[tuple[int, int]] = []
    both_spans = [m.span() for m in _TYPES_BOTH.finditer(text)]
    spans.extend(both_spans)
    left_out = taken_along = alone = False
    for match in (*_CREDIT_NOTES.finditer(text), *re.finditer(r"\bgutschrift(?:en)?\b", text, re.I)):
        spans.append(match.span())
        before = text[max(0, match.start() - 48): match.start()]
        cue_before = _EXCLUDED_TYPE_BEFORE.search(before)
        cue_after = _EXCLUDED_TYPE_AFTER.match(text, match.end()) or _EXCLUDED_TYPE_LIST_AFTER.match(text, match.end())
        if cue_before is None:
            cue_before = _EXCLUDED_TYPE_LIST_BEFORE.search(before)
        # "leave the credit notes out" needs both halves; a bare "leave"/"not" before is no exclusion by itself
        # only when another reading is closer ("not only credit notes" is not a case the reader meets).
        if cue_after is not None or (cue_before is not None and not re.fullmatch(
                r"(?:leave|leaving)\s+(?:\w+\s+)?", before[cue_before.start():], re.I)):
            left_out = True
            if cue_before is not None:
                spans.append((match.start() - len(before) + cue_before.start(), match.start()))
            if cue_after is not None:
                spans.append(cue_after.span())
            continue
        # the negation cues of every language, before or after ("sem notas de crédito", "(credit note exclude)",
        # "credit note not include", "Gutschriften ausgenommen"): router/negation_scope.py
        shared = negated(text, match.start(), match.end())
        if shared is not None:
            left_out = True
            spans.append(shared)
            continue
        in_both = any(s <= match.start() < e for s, e in both_spans)
        # "net of", "neto de", "líquido de", "after": the credit notes netted in, never the credit notes alone
        netted = netted_before(text, match.start())
        cue_both = _BOTH_BEFORE.search(before)
        if netted is not None and cue_both is None:
            taken_along = True
            spans.append(netted)
            continue
        if cue_both is None and _CONTEXT_MENTION.search(before) and _NET_ASKED.search(text):
            # "I know there was a credit note, I want the net figure": the note is context, the net figure is the
            # invoices with it netted in (credit notes alone would be another figure, confidently wrong)
            cue_both = _CONTEXT_MENTION.search(before)
        after_both = _BOTH_AFTER.match(text, match.end())
        if in_both or cue_both is not None or after_both is not None:
            taken_along = True
            if cue_both is not None:
                spans.append((match.start() - len(before) + cue_both.start(), match.start()))
            if after_both is not None:
                spans.append(after_both.span())
            continue
        alone = True
    if not (left_out or taken_along or alone) and both_spans:
        taken_along = True
    only = _TYPES_INVOICES_ONLY.search(text)
    if only and re.search(r"\b(?:paid|unpaid|posted|open|outstanding|settled)\s*$", text[: only.start()], re.I):
        only = None  # "paid invoices only" restricts the status, not the document type
    if only:
        spans.append(only.span())
    if left_out:
        return ("invoice",), tuple(spans)
    if taken_along:
        return ("invoice", "credit_note"), tuple(spans)
    if only:
        return ("invoice",), tuple(spans)
    if alone:
        return ("credit_note",), tuple(spans)
    return None, tuple(spans)


_EXCLUDED_BEFORE = re.compile(
    r"(?:excluding|exclude[ds]?|except(?:\s+for)?|other than|apart from|without|besides|but not|leaving out|"
    r"not counting|ignoring|minus|ex\.|excl\.?|w/o)\s+(?:the\s+|any\s+|all\s+)?$", re.I)


_EXCLUDED_AFTER = re.compile(
    r"\s*(?:are\s+|were\s+|being\s+|to\s+be\s+)?(?:excluded|left out|removed|omitted|taken out|not included|"
    r"not counted|ignored|aside)\b", re.I)


def _after_exclusion(text: str, position: int) -> bool:
    """Whether an exclusion cue stands right before ``position`` ("excluding the unpaid invoices")."""
    return _EXCLUDED_BEFORE.search(text[max(0, position - 40): position]) is not None


#: The document noun a status word qualifies ("paid invoices", "the unpaid ones"), before a postfix cue.
_STATUS_NOUN = re.compile(r"\s+(?:invoices?|bills?|documents?|docs|ones|items?|lines?)\b", re.I)


def _status_left_out(text: str, match: re.Match[str]) -> bool:
    """Whether a status phrase is left out: a cue before it ("excluding the unpaid invoices", "sin facturas
    pagadas") or a postfix one after it and its noun ("paid invoices excluded", "paid ones not included"). The
    bare negators are not asked here: "not paid" is itself a status (posted), read by ``_POSTED``."""
    end = match.end()
    noun = _STATUS_NOUN.match(text, end)
    end = noun.end() if noun is not None else end
    return (_after_exclusion(text, match.start()) or negation_before(text, match.start(), bare=False) is not None
            or negation_after(text, end) is not None)


def parse_currency(text: str) -> tuple[bool, str | None, tuple[tuple[int, int], ...]]:
    """A request for spend in the invoices' own currency, and the one currency named with it."""
    spans: list[tuple[int, int]] = []
    code: str | None = None
    original = False
    for match in _ORIGINAL.finditer(text):
        original = True
        spans.append(match.span())
        window = text[max(0, match.start() - 24): match.end() + 24]
        near = _CODE_NEAR.search(window)
        if near and code is None:
            code = currency_code(near.group("code"))
            offset = max(0, match.start() - 24)
            spans.append((offset + near.start(), offset + near.end()))
    for match in (m for pattern in _IN_CURRENCIES for m in pattern.finditer(text)):
        original = True
        spans.append(match.span())
        code = code or currency_code(match.group("code"))
    return original, code, tuple(spans)


def parse_currency_scope(text: str) -> tuple[str | None, str | None, tuple[tuple[int, int], ...]]:
    """The currency a figure is asked in ("in USD") and the currency left out ("non-EUR", "foreign-currency": "",
    the reporting currency), with their spans.

    >>> parse_currency_scope("spend on non-EUR invoices")[1]
    'EUR'
    >>> parse_currency_scope("spend in US dollars in Q1")[0]
    'USD'
    """
    spans: list[tuple[int, int]] = []
    excluded: str | None = None
    for pattern in _NON_CURRENCY:
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in spans):
                continue
            spans.append(match.span())
            code = match.groupdict().get("code")
            found = currency_code(code) if code else ""
            excluded = found if excluded is None or excluded == "" else excluded
    named: str | None = None
    for match in (m for pattern in _NAMED_CURRENCY for m in pattern.finditer(text)):
        if any(s < match.end() and match.start() < e for s, e in spans):
            continue
        spans.append(match.span())
        named = named or currency_code(match.group("code"))
    return named, excluded, tuple(spans)


def _blank(text: str, spans: Sequence[tuple[int, int]]) -> str:
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def parse_analysis(text: str, as_of: dt.date) -> tuple[Analysis, tuple[tuple[int, int], ...]]:
    """Every analyst slot of ``text`` and the spans hidden from the period reader (comparison base phrases)."""
    ranking, ranking_spans = parse_ranking(text)
    share, share_spans = parse_share(text)
    comparison, compare_spans, hidden, compares = parse_comparison(text, as_of)
    if share and compares and all(_PERCENT_OF_A_CHANGE.fullmatch(text[s:e]) and not _PART_OF.match(text, e)
                                  for s, e in share_spans) and _CHANGE_WORDS.search(text):
        # "by what percentage did spend grow from Q3 to Q4": the size of a change, asked in percent, not a part
        share, share_spans = False, ()
    statuses, types, filter_spans = parse_filters(text)
    named, excluded, scope_spans = parse_currency_scope(text)
    # "non-EUR spend" is no EUR spend: the exclusion's span is read first and hidden from the other readers
    original, code, currency_spans = parse_currency(_blank(text, scope_spans if excluded is not None else ()))
    amount_currency = bool(original and code and currency_spans
                           and all(_CODE_AMOUNT.fullmatch(text[s:e]) for s, e in currency_spans))
    currency_spans = (*currency_spans, *scope_spans)
    average = [m.span() for m in _AVERAGE_PRICE.finditer(text)]
    cheapest = [m.span() for m in _CHEAPEST_SUPPLIER.finditer(text)]
    if cheapest and ranking is not None and ranking.dimension == "supplier_id":
        ranking, ranking_spans = None, ()  # "the cheapest supplier" ranks prices, not spend
    cues = tuple((m.start(), m.end()) for m in EXCLUSION_CUE.finditer(text))
    if compares and comparison is None:
        comparison = Comparison("previous_period")
    analysis = Analysis(
        ranking=ranking, share=share, comparison=comparison, exclusion_cues=cues, statuses=statuses,
        document_types=types, original_currency=original or excluded is not None, document_currency=code,
        amount_currency=amount_currency and excluded is None,
        named_currency=named, excluded_currency=excluded,
        average_price=bool(average or cheapest), price_by_supplier=bool(cheapest), compare_words=compare_words(text),
        spans=tuple(sorted({*ranking_spans, *share_spans, *compare_spans, *filter_spans, *currency_spans, *average,
                            *cheapest, *cues})),
    )
    return analysis, hidden


# --- exclusions: which mentions a cue puts outside the figure ---------------------------------------------------------
#: Words that may stand between an exclusion cue and the names it covers, or between those names.
_LIST_GLUE_WORDS = frozenset("""
and or nor & the our supplier suppliers vendor vendors product group groups category categories any all those
anything everything spend spending purchases invoices lines items products from with of on by for
a o os el la los las al le les lo il gli die den der dem
""".split())  # noqa: SIM905 - a word list reads better as text
# (the last line: the articles a Romance or German writer puts before a name, "exceto a Beta", "sem o Gamma",
# "ohne den Delta": the name is still the one the cue leaves out, never kept as the figure's filter)


#: A spend word between two names: the list of names an exclusion cue covers has ended before it.
_SPEND_BETWEEN = re.compile(r"\b(?:spend|spending|spent|purchases)\b", re.I)


#: The words of a plain list between two names ("Company C and Company B", "A, B or C").
_LIST_ONLY = re.compile(r"[\s,;&]*(?:(?:and|or|nor|as\s+well\s+as)\b[\s,]*)?(?:the\s+)?", re.I)


def _glue(gap: str) -> bool:
    from ingest.normalize import LEGAL_FORMS

    words = re.findall(r"[^\s,;]+", gap.lower())
    # a name's own abbreviation point ("Epsilon Instr. and Zeta") is no word between the names
    return all(not w.strip(".") or w.strip(".") in _LIST_GLUE_WORDS or w.strip(".") in LEGAL_FORMS for w in words)


def _name_only(text: str, start: int, end: int) -> bool:
    """Whether the cue at [start, end) is one that only ever leads a name (router/exclusion_words.py)."""
    found = NAME_ONLY_CUE.match(text, start)
    return found is not None and found.end() == end


def excluded_spans(text: str, cues: Sequence[tuple[int, int]], mentions: Sequence[tuple[int, int]],
                   companies: Sequence[tuple[int, int]] = ()) -> tuple[set[tuple[int, int]], list[tuple[int, int]]]:
    """The mentions each exclusion cue covers ("excluding Beta and Gamma", "except for pressure sensors"), and the
    cues followed by no mention (their target is named back to the user when it is not a filter word).

    After a company (``companies``: the spans of ``mentions`` that are companies) the list goes on only with a
    list word ("except Company C and Company B"): "except Company C with Supplier Delta" leaves the company out
    and keeps the supplier as the figure's filter."""
    ordered = sorted(mentions)
    covered: set[tuple[int, int]] = set()
    bare: list[tuple[int, int]] = []
    for cue_start, cue_end in cues:
        cursor = cue_end
        took = False
        last: tuple[int, int] | None = None
        for start, end in ordered:
            if start < cursor:
                continue
            gap = text[cursor:start]
            if not _glue(gap) or (took and (_SPEND_BETWEEN.search(gap) or (
                    last in companies and not _LIST_ONLY.fullmatch(gap)))):
                # "all companies except Company C spend with Supplier Delta": a spend word after a covered name
                # opens the figure's own clause; the name after it is a filter, never left out with the first
                break
            covered.add((start, end))
            cursor, took, last = end, True, (start, end)
        # a cue that only leads a name ("ex", "bar", "sans") is no cue without one
        if not took and not _name_only(text, cue_start, cue_end):
            bare.append((cue_end, cue_end))
    return covered, bare


#: Words after an exclusion cue that are filters or bases, not entities ("excluding tax", "without credit notes").
_NOT_ENTITY = re.compile(
    # "posted but not yet paid": the status itself after "but not", not an excluded name
    r"^(?:the\s+|any\s+|all\s+)?(?:yet\s+)?(?:tax|taxes|vat|credit[- ]?notes?|credit memos?|drafts?|"
    r"draft invoices?|cancell?ed|duplicates?|invoices?|conversion|fx|currency|currency conversion|posted|paid|unpaid)\b"
    # "in currencies other than EUR": a currency left out (parse_currency_scope), not an unknown name
    rf"|^(?:in\s+)?{_CODE}(?![A-Za-z])",
    re.I,
)


def bare_exclusion_target(text: str, position: int) -> str | None:
    """The words after an exclusion cue that name no known entity and no filter word (to name back), or None."""
    rest = text[position:].lstrip()
    if _NOT_ENTITY.match(rest):
        return None
    words = re.match(r"[^\W\d][\w&'-]*(?:\s+[^\W\d][\w&'-]*){0,2}", rest)
    if words is None:
        return None
    phrase = re.split(r"\s+(?:in|during|for|from|over|last|this|since|between|and|or|by|per)\b", words.group(0),
                      maxsplit=1)[0].strip()
    if re.match(r"(?:in|during|for|from|over|last|this|since|between|by|per)\b", phrase, re.I):
        return None  # a period or a grouping follows the cue, not a name ("without [SUP-31] in Q4 2025")
    return phrase or None


def _name_words(name: str) -> set[str]:
    """Lower-case words of a name, plural "s" dropped ("Control Cabinets" -> {control, cabinet})."""
    words = re.findall(r"[^\W\d_]+", name.lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def subgroup_named_within(target: str, parent_id: str, gazetteer: Any) -> str | None:
    """The one subgroup of ``parent_id`` that ``target`` names with the parent's words left out ("control equipment
    excluding cabinets": Control Cabinets; "sensors without pressure": Pressure Sensors), or None.

    A subgroup matches when every word of the target is in its name and every other word of its name is one of
    the parent's (a word of the context, not a different group: "Cabinet Accessories" is not "cabinets" of
    Control Equipment). Several matches are no match (the target stays not understood)."""
    names = {g.product_group_id: g.group_name for g in gazetteer.product_groups}
    if parent_id not in names:
        return None
    # "the temperature ones", "the cabinet subgroup": words that point at a group without naming it
    wanted = _name_words(re.sub(r"^(?:the|any|all|our)\s+", "", target.strip(), flags=re.I)) - {
        "one", "group", "subgroup", "category", "subcategory", "categorie", "subcategorie"}
    context = _name_words(names[parent_id])
    if not wanted:
        return None
    found = [gid for gid in gazetteer.subgroups(parent_id) if gid != parent_id
             and wanted <= _name_words(names[gid]) and _name_words(names[gid]) - wanted <= context]
    return found[0] if len(found) == 1 else None


#: Where the words naming an excluded product end: a period, a grouping, a clause or the end of the question.
_DESCRIBED_END = re.compile(r"\s+(?:in|during|for|from|over|last|this|since|between|by|per|and|or|at|with|"
                            r"please|thanks)\b|\s*[,;:?!()]|\.(?:\s|$)|$", re.I)
#: Words of a description that name no product ("the", "our" ...).
_DESCRIBED_STOP = frozenset(["the", "a", "an", "any", "all", "our", "their", "its", "of"])


def _described_words(text: str) -> set[str]:
    words = re.findall(r"[^\W_]+(?:[.,]\d+)?", text.lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words} - \
        _DESCRIBED_STOP


def product_described(text: str, position: int, gazetteer: Any, stop: int | None = None) -> tuple[str, int] | None:
    """The one catalogue product the words after an exclusion cue describe, in any word order ("excluding the pH 7
    buffer solution": "Buffer solution pH 7 (1 l)"), and where those words end; None when no product or several
    fit. Every described word must be a word of the product's name, and at least two must be given (one word such
    as "sensor" names a kind of product, not one product)."""
    rest_start = len(text) - len(text[position:].lstrip())
    if stop is None:
        end = _DESCRIBED_END.search(text, rest_start)
        stop = end.start() if end is not None else len(text)
    wanted = _described_words(text[rest_start:stop])
    if len(wanted) < 2:
        return None
    found = [p.product_code for p in getattr(gazetteer, "products", ())
             if wanted <= _described_words(p.product_name)]
    codes = set(found)
    return (found[0], stop) if len(codes) == 1 else None


# --- the governed request --------------------------------------------------------------------------------------------
RANKING = "finance.spend_ranking"
SHARE = "finance.supplier_share"
GROUP_SHARE = "finance.product_group_share"
COMPARISON = "finance.spend_comparison"
DOCUMENT_CURRENCY = "finance.document_currency_spend"
AVERAGE_PRICE = "catalog.average_unit_price"
DOCUMENT_PRICE = "catalog.document_currency_unit_price"
COMPANY_SPEND = "finance.company_spend"
CURRENCY_SHARE = "finance.currency_share"


@dataclass(frozen=True)
class Slots:
    """What the reading resolved, as the governed request needs it (ids only)."""

    company_id: str | None
    supplier_ids: tuple[str, ...]
    product_codes: tuple[str, ...]
    product_group_ids: tuple[str, ...]
    exclude_supplier_ids: tuple[str, ...]
    exclude_product_group_ids: tuple[str, ...]
    period: TimeRange | None
    statuses: tuple[str, ...]
    reporting_currency: str | None
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    #: The part of a share is the product groups (their share of the company's or the suppliers' spend).
    share_of_groups: bool = False
    exclude_product_codes: tuple[str, ...] = ()


#: Words right before the part of a share: "went to X", "was (spent) on X", "spent with X".
_PART_BEFORE = re.compile(
    r"\b(?:(?:went|goes|go|going)\s+(?:to|on|into)|(?:was|were|is|are)\s+(?:spent\s+)?(?:with|on|from)|"
    r"spent\s+(?:on|with)|(?:share|percentage|proportion|portion|fraction|percent)\s+(?:of\s+)?(?:spend\s+)?"
    r"(?:on|for)|"
    # "what % of the spend with Zeta was Pressure Sensors": the copula before the part, after the whole
    r"(?:was|were))\s+(?:the\s+|our\s+)?$",
    re.I,
)
_PART_AFTER = re.compile(r"^(?:['’]s?)?\s+(?:share|percentage|proportion|portion|fraction)\b", re.I)


def share_part(text: str, suppliers: Sequence[tuple[int, int]], groups: Sequence[tuple[int, int]]) -> str:
    """Which named entities are the part of a share: ``supplier`` or ``group`` (the others bound the whole).

    Only groups named: the groups. Both named: the kind a part cue stands next to ("went to pressure sensors",
    "Pressure Sensors' share"); without such a cue the suppliers, as in "Beta's share of our sensor spend".
    """
    if groups and not suppliers:
        return "group"
    if not groups:
        return "supplier"

    def cued(span: tuple[int, int]) -> bool:
        return bool(_PART_BEFORE.search(text[max(0, span[0] - 40): span[0]]) or _PART_AFTER.match(text[span[1]:]))

    return "group" if any(cued(g) for g in groups) and not any(cued(s) for s in suppliers) else "supplier"


@dataclass(frozen=True)
class GovernedRequest:
    """The metric call a question maps to, or the clarification naming what no metric allows."""

    metric: str | None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    problems: tuple[tuple[str, str], ...] = ()  # (reason, question)


def choose_metric(analysis: Analysis, slots: Slots, single_month: bool) -> str | None:
    """The governed metric the analyst slots need, or ``None`` when the existing workflows serve the question.

    A unit-price question over exactly one calendar month with no supplier, exclusion or breakdown stays with
    ``catalog.unit_price`` (its own workflow); any other period, a supplier or a per-supplier breakdown needs the
    quantity-weighted average over a period.
    """
    if analysis.average_price and slots.product_codes:
        if analysis.original_currency or analysis.document_currency:
            return DOCUMENT_PRICE  # "in invoice currency", "in USD": the price as invoiced, per currency
        if (single_month and not slots.supplier_ids and not slots.exclude_supplier_ids and not slots.group_by
                and not analysis.price_by_supplier and not analysis.document_types
                and not slots.grain and not analysis.ranking and not analysis.comparison
                # "in invoice currency": the governed request names what the monthly workflow would drop
                and not analysis.original_currency and not analysis.document_currency):
            return None
        return AVERAGE_PRICE
    if analysis.ranking is not None:
        return RANKING
    if analysis.share:
        if ((analysis.document_currency or analysis.original_currency) and not slots.supplier_ids
                and not slots.share_of_groups):
            return CURRENCY_SHARE  # "what share of spend was invoiced in USD": the currency is the part
        return GROUP_SHARE if slots.share_of_groups else SHARE
    if analysis.comparison is not None:
        return COMPARISON
    if analysis.original_currency:
        return DOCUMENT_CURRENCY
    if (slots.exclude_supplier_ids or slots.exclude_product_group_ids or slots.exclude_product_codes
            or analysis.document_types):
        # One named supplier's total under such filters is that supplier's row of the ranking (the company
        # metric has no supplier filter); several named suppliers are asked about.
        return RANKING if len(slots.supplier_ids) == 1 else COMPANY_SPEND
    return None


def governed_request(analysis: Analysis, slots: Slots, declared: Mapping[str, tuple[str, ...]],
                     metric: str) -> GovernedRequest:
    """The parameters of ``metric`` from the slots; every slot the metric cannot take is a problem that names it.

    Args:
        analysis: the analyst slots.
        slots: the resolved ids, period, statuses and currency.
        declared: the metric's parameter names and allow-listed dimensions (``{"parameters": ..., "group_by":
            ...}``) from the catalog.
        metric: the metric :func:`choose_metric` chose.
    """
    params: dict[str, Any] = {}
    problems: list[tuple[str, str]] = []
    names = set(declared.get("parameters", ()))
    group_by: tuple[str, ...] = slots.group_by
    grain = slots.grain

    def put(name: str, value: Any, what: str) -> None:
        if value in (None, (), []):
            return
        if name not in names:
            problems.append((f"combination: {metric} has no {name} parameter",
                             f"{_LABELS.get(metric, metric)} cannot be restricted by {what} (the governed metric "
                             f"{metric} has no such filter). Do you want the figure without it, or a different "
                             "question?"))
            return
        params[name] = list(value) if isinstance(value, tuple) else value

    tr = slots.period
    put("company_id", slots.company_id, "company")
    if tr is not None:
        put("start_date", tr.start.isoformat(), "period")
        put("end_date", tr.end.isoformat(), "period")
    if metric == SHARE:
        if not slots.supplier_ids:
            problems.append(("share: no supplier named as the part",
                             "A share is computed for named suppliers (their share of the company's or a product "
                             "group's spend). Which supplier's share do you want?"))
        put("supplier_ids", slots.supplier_ids, "supplier")
    elif metric == GROUP_SHARE:
        if not slots.product_group_ids:
            problems.append(("share: no product group named as the part",
                             "Which product group's share of the spend do you want?"))
        put("supplier_ids", slots.supplier_ids, "supplier")
    elif metric in (AVERAGE_PRICE, DOCUMENT_PRICE):
        if len(slots.product_codes) != 1:
            problems.append(("unit price: one product is needed",
                             "The average unit price is computed for one product at a time. Which product do you "
                             "mean?"))
        else:
            params["product_code"] = slots.product_codes[0]
        put("supplier_ids", slots.supplier_ids, "supplier")
        if analysis.price_by_supplier and not group_by:
            group_by = ("supplier_id",)
    else:
        put("supplier_ids", slots.supplier_ids, "supplier")
        if slots.product_codes:
            put("product_codes", slots.product_codes, "product")
    put("product_group_ids", slots.product_group_ids, "product group")
    put("exclude_supplier_ids", slots.exclude_supplier_ids, "excluded suppliers")
    put("exclude_product_group_ids", slots.exclude_product_group_ids, "excluded product groups")
    put("exclude_product_codes", slots.exclude_product_codes, "excluded products")
    if analysis.document_types is not None:
        put("document_types", analysis.document_types, "document type (credit notes / invoices)")
    if tuple(slots.statuses) != ("posted", "paid"):
        put("invoice_statuses", slots.statuses, "invoice status")
    put("reporting_currency", slots.reporting_currency, "reporting currency")
    if metric == CURRENCY_SHARE and analysis.excluded_currency and not analysis.document_currency:
        # "share of non-EUR spend": every invoice currency but the one left out is the part
        put("exclude_document_currencies", (analysis.excluded_currency,), "a currency left out")
        group_by = tuple(d for d in group_by if d != "currency")
    elif metric == CURRENCY_SHARE:
        if not analysis.document_currency and not analysis.document_currencies:
            problems.append(("share: no invoice currency named as the part",
                             "An invoice currency's share of the spend is computed for a named currency (e.g. USD, "
                             "GBP or CHF). Which currency's share do you want, or the spend per invoice currency "
                             "(amounts, not shares)?"))
        put("document_currencies", analysis.document_currencies or (analysis.document_currency,), "invoice currency")
        group_by = tuple(d for d in group_by if d != "currency")  # "by currency" is the question above
    elif metric in (DOCUMENT_CURRENCY, DOCUMENT_PRICE):
        if analysis.document_currency:
            params["document_currency"] = analysis.document_currency
        elif "currency" not in group_by:
            group_by = ("currency", *group_by)
        # the currencies named together: only their rows (and their total beside them), never added
        put("document_currencies", analysis.document_currencies, "several invoice currencies")
        if analysis.excluded_currency:
            put("exclude_document_currencies", (analysis.excluded_currency,), "a currency left out")
        elif analysis.excluded_currency == "":
            problems.append(("currency: 'foreign currency' without a reporting currency",
                             "Foreign to which currency? Name the currency to leave out (e.g. non-EUR invoices)."))
    elif (analysis.document_currency or analysis.original_currency) and not (
            analysis.amount_currency and analysis.document_currency == slots.reporting_currency):
        problems.append((f"combination: {metric} is not served in the invoices' own currency",
                         f"{_LABELS.get(metric, metric)} is computed in the reporting currency only; spend in the "
                         "invoices' own currency is a separate figure. Which one do you want?"))
    if metric == RANKING and analysis.ranking is None:
        # One supplier's filtered total: its single ranked row (the composer states it as a total).
        group_by, grain = ("supplier_id",), None
        params.update({"limit": 1, "direction": "top", "order_by": "total_spend"})
    elif metric == RANKING:
        ranking = analysis.ranking
        assert ranking is not None
        dimension = ranking.dimension or next((d for d in group_by if d != "currency"), None)
        if dimension is None:
            problems.append(("ranking: what to rank is not named",
                             "What should be ranked: suppliers, product groups or products?"))
        else:
            group_by = (dimension,)
        if grain:
            problems.append(("combination: a ranking has no time grain",
                             "A ranking covers one period as a whole; it cannot also be split by "
                             f"{grain}. Do you want the ranking over the whole period?"))
            grain = None
        if analysis.comparison is not None:
            problems.append(("combination: a ranking of changes is not a governed metric",
                             "Rankings order the spend of one period; ranking by the change against another "
                             "period is not a governed metric. Do you want the ranking, or the comparison?"))
        if ranking.unknown_measure:
            problems.append((f"measure: '{ranking.unknown_measure}' is not a measure a governed ranking orders by",
                             f"I cannot rank by '{ranking.unknown_measure}': governed rankings order by spend, net "
                             "spend, units, invoice lines or the number of invoices. Which of these do you want?"))
        if ranking.order_by == "invoice_count":
            # Served by the count (router/counts.py); reaching here means the count did not read the question.
            problems.append(("ranking: by the number of invoices with a filter the count does not take",
                             "I can rank suppliers by their number of invoices (finance.invoice_count per supplier) "
                             "or by spend; which one do you want?"))
        params.update({"limit": ranking.limit, "direction": ranking.direction, "order_by": ranking.order_by})
    elif metric == COMPARISON:
        comparison = analysis.comparison
        assert comparison is not None
        params["compare_to"] = comparison.compare_to
        if comparison.compare_to == "custom" and comparison.base is not None:
            params["base_start_date"] = comparison.base.start.isoformat()
            params["base_end_date"] = comparison.base.end.isoformat()
        if grain:
            problems.append(("combination: a comparison has no time grain",
                             f"A comparison sets one period against its base; it cannot also be split by {grain}. "
                             "Do you want the comparison of the whole periods?"))
            grain = None
    if metric in (SHARE, GROUP_SHARE, CURRENCY_SHARE) and analysis.comparison is not None:
        problems.append(("combination: a change of a share is not a governed metric",
                         "A share is computed for one period; its change against another period is not a governed "
                         "metric. Do you want the share, or the change of spend?"))
    allowed = set(declared.get("group_by", ()))
    for dim in group_by:
        if dim not in allowed:
            problems.append((f"breakdown: {dim} is not a grouping {metric} offers",
                             f"{_LABELS.get(metric, metric)} cannot be broken down by {dim.replace('_id', '')}."))
    grains = set(declared.get("grains", ()))
    if grain and grain not in grains:
        problems.append((f"breakdown: {grain} is not a grain {metric} offers",
                         f"{_LABELS.get(metric, metric)} cannot be split by {grain}."))
        grain = None
    return GovernedRequest(metric, params, group_by, grain, tuple(problems))


_LABELS = {RANKING: "A spend ranking", SHARE: "A supplier's share", GROUP_SHARE: "A product group's share",
           CURRENCY_SHARE: "An invoice currency's share",
           COMPARISON: "A period comparison",
           DOCUMENT_CURRENCY: "Spend in the invoices' own currency", AVERAGE_PRICE: "The average unit price",
           DOCUMENT_PRICE: "The average unit price in the invoices' own currency",
           COMPANY_SPEND: "Company spend"}


def single_month(period: TimeRange | None) -> bool:
    """True for exactly one calendar month."""
    return period is not None and period.start.day == 1 and period.end == add_months(period.start, 1)


__all__ = [
    "AVERAGE_PRICE",
    "COMPANY_SPEND",
    "COMPARISON",
    "CURRENCY_SHARE",
    "DOCUMENT_CURRENCY",
    "DOCUMENT_PRICE",
    "EXCLUSION_CUE",
    "GROUP_SHARE",
    "RANKING",
    "SHARE",
    "Analysis",
    "Comparison",
    "GovernedRequest",
    "Ranking",
    "Slots",
    "bare_exclusion_target",
    "choose_metric",
    "compare_rule",
    "document_type_scope",
    "excluded_spans",
    "governed_request",
    "parse_analysis",
    "parse_comparison",
    "parse_currency",
    "parse_filters",
    "parse_ranking",
    "parse_share",
    "ranking_by_count",
    "share_part",
    "single_month",
    "split_periods",
]
