"""The all-companies scope of a question: "both companies together", "across all companies", "group-wide".

A tenant may hold several companies. A figure asked for all of them together is one governed call without a
company (the tenant's row-level security bounds the rows) when the metric takes no company; shared here by the
general routing and the shapes routed before it (invoice counts).
"""

from __future__ import annotations

import re

from router.reader import Reading

ALL_COMPANIES = re.compile(
    r"\b(?:all|every|each|both)\s+(?:of\s+)?(?:our\s+|the\s+|my\s+)?(?:(?:two|three|four|five|six|\d)\s+)?"
    r"compan(?:y|ies)\b|"
    # "all three of our companies": the count before "of"
    r"\ball\s+(?:two|three|four|five|six|\d)\s+of\s+(?:our|the)\s+(?:compan(?:y|ies)|entities|subsidiaries)\b|\bacross\s+(?:the\s+)?(?:group|"
    r"companies|tenant|entities|business)\b|\bgroup[- ]?wide\b|\bcross[- ]compan(?:y|ies)\b|"
    r"\bconsolidated\b|\b(?:whole|entire)\s+group\b|"
    r"\ball\s+(?:of\s+)?(?:our\s+|the\s+)?(?:(?:two|three|four|five|six|\d)\s+)?(?:entities|subsidiaries|"
    r"legal entities)\b|"
    # "both entities", "both cos.", "all 3 cos", "all firms": the companies under another noun
    r"\b(?:all|both)\s+(?:of\s+)?(?:our\s+|the\s+)?(?:(?:two|three|four|five|six|\d)\s+)?(?:entities|"
    r"subsidiaries|legal\s+entities|cos\b\.?|firms|business(?:es)?\s+units?)|"
    # "the 3 companies", "our two entities": the companies counted (a count other than the tenant's is no scope)
    r"\b(?:the|our)\s+(?:two|three|four|five|six|\d)\s+(?:compan(?:y|ies)|entities|subsidiaries|firms)\b|"
    # "invoices of any company", "any of our companies", "any entity", "either company": whichever company, so
    # every one of them
    r"\b(?:any|either)\s+(?:of\s+)?(?:our\s+|the\s+)?(?:compan(?:y|ies)|entit(?:y|ies)|subsidiar(?:y|ies)|legal\s+entit(?:y|ies))"
    r"\b|"
    # "tenant-wide" (router/tenant_scope.py reads "whole tenant", "tenant 99" as it), German "konzernweit"
    r"\b(?:tenant|enterprise)[- ]wide\b|\bkonzernweit\b", re.I)


_COUNTS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}

#: "Company A's share of our total spend": a company's share whose whole is the spend of every company.
_SHARE_OF_OUR_TOTAL = re.compile(r"\s*['’]s?\s+(?:\w+\s+){0,2}?(?:share|percentage|portion|proportion)\s+of\s+"
                                 r"(?:our|the)\s+(?:\w+\s+){0,3}?(?:total|overall|combined|entire|whole|"
                                 r"aggregate)\b", re.I)

#: "any company spent / has bought / exceeded": the company is the subject of the figure's verb.
_ANY_AS_SUBJECT = re.compile(r"\s+(?:\w+\s+){0,2}?(?:spen[dt]|spending|pa(?:y|id|ys)|b(?:uy|ought|uys)|purchas\w*|"
                             r"exceed\w*|cross\w*|go(?:es)?\s+over|went\s+over|ha(?:s|ve|d)\b|reach\w*)", re.I)
_SHARE_BEFORE = re.compile(r"\b(?:share|percentage|portion|proportion)\s+(?:of\s+)?(?:the\s+)?$", re.I)
_OF_OUR_TOTAL = re.compile(r"\s+(?:of|in)\s+(?:our|the)\s+(?:\w+\s+){0,3}?(?:total|overall|combined|entire|whole|"
                           r"aggregate)\b", re.I)


#: "how much of the total Q4 spend was Ypsilon (in percent)", "what percent of total spend in 2025 was Company C":
#: the company is what the share is of, and the total before it, owned by no company, is every company's.
_SHARE_OF_TOTAL_WAS = re.compile(r"\b(?:share|percentage|percent|portion|proportion|fraction|how\s+much)\s+of\s+"
                                 r"(?:the\s+|our\s+)?(?:(?:total|overall|combined|entire|whole|aggregate)\s+)"
                                 r"(?:[\w-]+\s+){0,4}?(?:spend|spending|purchases|volume)\b(?:\s+[\w-]+){0,4}?"
                                 r"\s+(?:was|is|were|came\s+from|went\s+to|belongs\s+to|did)\s+$", re.I)


def all_companies(reading: Reading, companies: int = 2) -> re.Match[str] | None:
    """"All companies", "group-wide" in the sentence that names the figure's company (or anywhere, when no company
    is named): in another sentence ("..., then call X for every company") it is no scope of this figure.

    An exclusion of a company ("all entities other than Company A") is a scope of its own, never all of them;
    "both companies" of a tenant with ``companies`` other than two names no set of its companies."""
    if reading.excluded_company_ids:
        return None
    for m in reading.mentions.companies:
        if len(reading.mentions.companies) == 1 and not reading.mentions.suppliers:
            share = _SHARE_OF_TOTAL_WAS.search(reading.text, 0, m.start)
            if share is not None:
                return share
        share = _SHARE_OF_OUR_TOTAL.match(reading.text, m.end)
        if share is not None:
            return share
        # "the share of Company B in the total spend" (German "Anteil Company B am Gesamtvolumen"): the share word
        # before the company, the total after it
        if _SHARE_BEFORE.search(reading.text, 0, m.start):
            share = _OF_OUR_TOTAL.match(reading.text, m.end)
            if share is not None:
                return share
    found = ALL_COMPANIES.search(reading.cue_text)
    if found is not None and found.group(0).lower().startswith(("both", "either")) and companies != 2:
        return None
    counted = re.search(r"\b(two|three|four|five|six|\d)\b", found.group(0), re.I) if found is not None else None
    if counted is not None and _COUNTS.get(counted.group(1).lower(), counted.group(1)) != str(companies):
        return None  # "the 3 companies" of a tenant of two: no set of its companies
    if found is not None and found.group(0).lower().startswith(("any", "either")) and _ANY_AS_SUBJECT.match(
            reading.cue_text, found.end()):
        # "did any company spend more than X": whether one of them did, each company on its own; never the
        # companies' total compared in its place ("invoices of any company" stays every company's)
        return None
    if found is None or not reading.mentions.companies:
        return found
    bounds = [0, *(m.end() for m in re.finditer(r"[.?!;]\s+", reading.text)), len(reading.text) + 1]
    sentence = next(i for i in range(len(bounds) - 1) if bounds[i] <= found.start() < bounds[i + 1])
    named = {next(i for i in range(len(bounds) - 1) if bounds[i] <= m.start < bounds[i + 1])
             for m in reading.mentions.companies}
    return found if sentence in named else None


__all__ = ["ALL_COMPANIES", "all_companies"]
