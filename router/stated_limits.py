"""An amount bound described as a document's limit: the stated amount is the bound, the description context.

"Invoices above the EUR 25,000 dual-signature threshold", "over €10k (the two-signatory limit in the packaging
agreement)", "above 5,000 - the approval limit of our policy -": the user states the amount *and* says where it
comes from. The amount is the threshold of the listing; the description (a signatory rule, an agreement, a
policy) is why it matters, not a filter the data can apply. Left in the question, the description's words were
read as an agreement's clause, a product group ("packaging") or an unknown figure, and the listing was refused or
asked back.

Structural rule: an amount (a currency mark or code, or a k/m/lakh magnitude) right after a comparator, followed
by a noun phrase ending in a limit noun (:data:`LIMIT_NOUNS`, a closed class in several languages), either
directly ("the EUR 25,000 dual-signature threshold"), in parentheses after it, or as an apposition between
dashes or commas. The description is cut out and named back in the answer; the amount stays where it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from router.document_words import alternation

#: Nouns that name an amount as a limit (English and the subsidiaries' languages).
LIMIT_NOUNS = ("threshold", "thresholds", "limit", "limits", "cap", "ceiling", "trigger", "trigger value",
               "trigger point", "level", "schwelle", "schwellenwert", "wertgrenze", "grenze", "grenzwert", "limit",
               "freigabegrenze", "seuil", "plafond", "soglia", "limite", "umbral", "límite", "drempel",
               "drempelwaarde", "gräns", "gränsvärde", "tröskel", "próg")
_LIMIT = rf"(?:{alternation(LIMIT_NOUNS)})"
#: A comparator before the amount ("above", "over", "exceeding", ">", "über", "au-dessus de", "oltre").
_COMPARATOR = (r"(?:above|over|exceeding|exceeds?|beyond|more\s+than|greater\s+than|higher\s+than|in\s+excess\s+of|"
               r"at\s+or\s+above|at\s+least|north\s+of|under|below|less\s+than|within|>=?|<=?|≥|≤|über|ueber|"
               r"oberhalb|unter|au-dessus\s+de|supérieures?\s+à|superiori\s+a|oltre|por\s+encima\s+de|boven)")
_CURRENCY = r"(?:EUR|USD|GBP|CHF|INR|SEK|NOK|DKK|PLN|€|\$|£|₹|Rs\.?)"
_NUMBER = r"\d[\d,.'’ ]*\d|\d"
_MAGNITUDE = r"(?:k|K|m|M|mn|million|thousand|lakhs?|lacs?|crores?|Tsd\.?|Mio\.?)"
#: The amount: a currency before or after the number, or a magnitude (a bare number is too often a year or a count).
_AMOUNT = (rf"(?:{_CURRENCY}\s*(?:{_NUMBER})(?:\s*{_MAGNITUDE})?(?![\w])|"
           rf"(?:{_NUMBER})\s*{_MAGNITUDE}(?:\s*{_CURRENCY})?(?![\w])|"
           rf"(?:{_NUMBER})\s*(?:{_CURRENCY}|euros?)(?![\w]))")
#: The document a limit is stated in ("... threshold in the packaging agreement"): a closed class of nouns.
_DOCUMENT = (r"(?:agreements?|agmts?|contracts?|polic(?:y|ies)|framework|terms|rules?|guidelines?|sops?|"
             r"\w*vertr(?:a|ä)g\w*|richtlinie\w*|contrats?|contratt[oi]|contratos?|accord[oi]?|acuerdos?|"
             r"overeenkomst|avtal(?:et)?)\b")
#: "above the EUR 25,000 dual-signature threshold (of the agreement)": the description after the amount.
_DIRECT = re.compile(
    rf"(?P<head>\b{_COMPARATOR}\s+)(?:the\s+|our\s+|its\s+|their\s+|this\s+|that\s+)?(?P<amount>{_AMOUNT})"
    rf"(?P<desc>\s+(?:[\w'’-]+\s+){{0,4}}?{_LIMIT}(?:\s+(?:in|of|under|per|from|set\s+(?:by|in)|according\s+to|"
    rf"stated\s+in|named\s+in)\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:[\w'’-]+\s+){{0,4}}?{_DOCUMENT})?)"
    rf"(?=\s*[),;:?.!]|"
    rf"\s+(?:in|for|from|between|during|since|dated|issued|received|booked|posted)\b|\s*$)", re.I)
#: "over €10k (the two-signatory limit in the packaging agreement)", "above 5,000 - the policy's approval limit -".
_APPOSITION = re.compile(
    rf"(?P<head>\b{_COMPARATOR}\s+)(?P<amount>{_AMOUNT})(?P<desc>\s*(?:\((?P<paren>[^()]*?\b{_LIMIT}\b[^()]*)\)|"
    rf"[,–—-]\s+(?P<dash>(?:the|our|its|their|which\s+is\s+the|i\.e\.|being\s+the)\s+[^,;:?()–—]*?\b{_LIMIT}\b"
    rf"[^,;:?()–—]*?)(?:\s*[,–—-](?!\s*\d)|(?=\s*[;:?.!]|\s*$))))", re.I)


@dataclass(frozen=True)
class StatedLimit:
    """The question with a limit's description cut out, and that description."""

    text: str
    descriptions: tuple[str, ...]


def read_stated_limits(text: str) -> StatedLimit | None:
    """``text`` with the descriptions of its amount bounds set aside, or None when it has none.

    >>> read_stated_limits("Company C invoices above the EUR 25,000 dual-signature threshold, Jul 2025-Apr 2026")
    StatedLimit(text='Company C invoices above EUR 25,000, Jul 2025-Apr 2026', descriptions=('dual-signature \
threshold',))
    >>> read_stated_limits("Kestrel invoices over €10k (the two-signatory limit in the packaging agreement) in 2026?")
    StatedLimit(text='Kestrel invoices over €10k in 2026?', descriptions=('the two-signatory limit in the packaging \
agreement',))
    >>> read_stated_limits("what is the signing limit in the Company B agreement?") is None
    True
    """
    descriptions: list[str] = []

    def cut(match: re.Match[str]) -> str:
        desc = match.group("desc")
        inner = (match.groupdict().get("paren") or match.groupdict().get("dash") or desc).strip(" ,–—-")
        descriptions.append(re.sub(r"\s+", " ", inner))
        return f"{match.group('head')}{match.group('amount')}"

    out = _APPOSITION.sub(cut, text)
    out = _DIRECT.sub(cut, out)
    if not descriptions:
        return None
    return StatedLimit(re.sub(r"\s{2,}", " ", out).strip(), tuple(descriptions))


def limit_note(text: str, descriptions: tuple[str, ...]) -> str:
    """An answer's text with the descriptions named as context before its sources.

    >>> limit_note("2 invoices. Sources: a.", ("the approval limit of the policy",))
    "2 invoices. The amount stated is the bound; 'the approval limit of the policy' is read as context (where the \
amount comes from), not as a filter. Sources: a."
    """
    head, sep, tail = text.partition(" Sources:")
    said = ", ".join(repr(d) for d in descriptions)
    return (f"{head.rstrip()} The amount stated is the bound; {said} is read as context (where the amount comes "
            f"from), not as a filter.{sep}{tail}")


__all__ = ["LIMIT_NOUNS", "StatedLimit", "limit_note", "read_stated_limits"]
