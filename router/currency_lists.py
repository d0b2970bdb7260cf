"""Invoice currencies listed together by ISO code ("GBP and USD", "USD/GBP", "CHF, GBP and USD").

Pure text, no company: :mod:`router.currency` reads the list against the reporting currency, and the reader
counts its span as read (each code is a currency, never an unknown name to ask about).
"""

from __future__ import annotations

import re

from router.analysis import _CODE as CURRENCY_WORD
from router.analysis import _CURRENCY_PART as CURRENCY_PART
from router.negation_scope import negated

CODES = r"(?:EUR|USD|GBP|CHF|JPY|SEK|NOK|DKK|PLN|CZK|CAD|AUD|CNY)"
CODE = re.compile(rf"(?<![A-Za-z]){CODES}(?![A-Za-z])", re.I)
#: Two or more currency codes listed together ("GBP and EUR", "GBP/EUR", "GBP, CHF, EUR").
#: One currency by code, name or symbol, without the named group (so a list can repeat it).
_WORD = CURRENCY_WORD.replace("(?P<code>", "(?:")
#: (A list may name them by word too, "quid, francs, euros"; "GBP or USD invoices" is the two currencies' invoices.)
CODE_LIST = re.compile(rf"(?<![A-Za-z])(?:{CODES}|{_WORD})(?![A-Za-z])(?:\s*(?:,|/|&|\+|\band\b|\bplus\b|\bor\b)\s*"
                       rf"(?:and\s+)?(?:{CODES}|{_WORD}))+(?![A-Za-z])", re.I)
_ONE = re.compile(rf"(?<![A-Za-z]){CURRENCY_WORD}(?![A-Za-z])", re.I)


def list_codes(listed: str) -> tuple[str, ...]:
    """The ISO codes of a listed run of currencies, in order ("quid, francs, euros" -> GBP, CHF, EUR).

    >>> list_codes("quid, francs, euros"), list_codes("GBP or USD")
    (('GBP', 'CHF', 'EUR'), ('GBP', 'USD'))
    """
    from router.reading import currency_code

    return tuple(dict.fromkeys(c for m in _ONE.finditer(listed) if (c := currency_code(m.group("code")))))


#: Invoices issued in one currency, by code, word or symbol ("CHF-invoiced", "billed in pounds", "USD invoices",
#: "spend invoiced in $"): that currency's invoices are the figure's filter.
ISSUED = tuple(re.compile(p, re.I) for p in (
    rf"\b(?:invoiced|billed|denominated|issued)\s+in\s+{CURRENCY_WORD}(?![A-Za-z])",
    rf"(?<![A-Za-z]){CURRENCY_WORD}[- ](?:denominated\s+|invoiced\s+|billed\s+)?(?:invoices|invoiced|billed|"
    r"denominated)\b",
    rf"\binvoices\s+(?:in|denominated in|billed in|issued in)\s+{CURRENCY_WORD}(?![A-Za-z])",
    # "invoices of Company A in USD during 2026": the scope between the noun and the currency (names are blanked in
    # the cue text); euros are how most listings are shown, so only another currency is read as issued here
    rf"\binvoices\s+(?:of|from|for|at)\s+[^?.;:]{{1,40}}?\s+in\s+(?!eur|euro){CURRENCY_WORD}(?![A-Za-z])",
    rf"(?<![A-Za-z]){CURRENCY_WORD}[- ]Rechnungen\b",
    # "how much GBP did Ypsilon get billed", "how many USD were invoiced": an amount asked in one invoice currency
    rf"\bhow\s+(?:much|many)\s+{CURRENCY_WORD}(?![A-Za-z])(?=\s+(?:did|do|does|was|were|has|have|is|are)\b)",
    rf"\bin\s+{CURRENCY_WORD}\s+(?:abgerechnet|fakturiert|in\s+Rechnung\s+gestellt)\b",
    # "USD share of the spend", "share of GBP", "CHF-Anteil": a share whose part is that currency's invoices
    rf"(?<![A-Za-z]){CURRENCY_WORD}[- ](?:{CURRENCY_PART})\b",
    rf"\b(?:{CURRENCY_PART})\s+(?:of\s+|der\s+|an\s+)?{CURRENCY_WORD}(?![A-Za-z])(?!\s?\d)"
    r"(?!\s*(?:invoices|spend))",
))
#: Words that label amounts as invoiced ("native", "orig ccy", "as invoiced", "Originalwährung").
NATIVE = (r"(?:native|orig(?:inal)?(?:\s+(?:ccy|currenc(?:y|ies)))?|as\s+invoiced|as\s+billed|local|"
          r"in\s+(?:the\s+)?(?:invoice|original)\s+(?:ccy|currenc(?:y|ies))|devise\s+d['’]\s?origine|"
          r"moneda\s+original|valuta\s+originale|Original(?:w(?:ä|ae)hrung|betr(?:ä|ae)ge))")
#: A list of codes that labels the native amounts of a currency breakdown ("(GBP/CHF/USD native, total EUR)",
#: "native GBP/USD + EUR total"): the columns the user expects, not a filter of the invoices.
NATIVE_LABEL = re.compile(rf"{CODE_LIST.pattern}\s*(?:amounts?\s+)?{NATIVE}\b|\b{NATIVE}\s*(?:amounts?\s*)?[:(]?\s*"
                          rf"{CODE_LIST.pattern}", re.I)


#: Between two listed currencies: a comma, slash, "and", "or", "vs" ("quid vs euros vs anything else").
_SEP = (r"\s*(?:,|/|&|\+|;)?\s*"
        r"(?:\b(?:and|or|vs\.?|versus|v\.?|und|oder|et|ou|y|o|e|en|of|i|lub|veya|ve|și|si|nebo|a)\b)?\s*")
_LISTED = rf"(?<![A-Za-z]){_WORD}(?![A-Za-z])(?:{_SEP}(?<![A-Za-z]){_WORD}(?![A-Za-z]))*"
#: After a list: it names examples, the rest of the currencies included ("GBP, CHF etc", "quid vs euros vs anything
#: else", "USD and others", "GBP usw.", "EUR itd.", "TL vb."), in the languages the readers meet.
EXAMPLES_AFTER = (r"etc\.?|et\s+cetera|and\s+so\s+on|and\s+the\s+like|"
                  r"(?:and|or|vs\.?|versus|plus|\+|,|/)\s*(?:(?:all|any)\s+)?(?:the\s+)?(?:others?|rest|"
                  r"(?:any|every|what)(?:thing|ever)\s+else|other\s+currenc(?:y|ies)|remaining(?:\s+ones)?)|"
                  r"usw\.?|u\.\s?s\.\s?w\.?|und\s+andere|itd\.?|itp\.?|i\s+inne|vb\.?|ve\s+diğer(?:leri)?|"
                  r"ecc\.?|eccetera|y\s+otr[oa]s|et\s+autres|enz\.?|osv\.?|atd\.?|a\s+další|ș\.a\.|s\.a\.|"
                  # (a trailing "..." is no cue: "spend in GBP..." trails off, it does not list)
                  r"и\s+т\.\s?д\.?|тощо")
#: Before a list: it names examples ("e.g. GBP/USD", "such as CHF and GBP", "z.B. CHF", "np. EUR, PLN").
EXAMPLES_BEFORE = (r"e\.?\s?g\.?|for\s+(?:example|instance)|such\s+as|z\.\s?b\.|"
                   r"zum\s+beispiel|np\.|na\s+przykład|örneğin|ör\.|např\.|de\s+ex(?:emplu)?\.?|"
                   r"par\s+ex(?:emple)?\.?|p\.\s?ex\.|por\s+ejemplo|ad\s+es\.|per\s+esempio|bijv\.|"
                   r"bijvoorbeeld|t\.\s?ex\.|f\.\s?eks\.|напр\.|наприклад")
#: Currencies listed as examples of a breakdown's rows: every invoice currency is asked, never only the listed.
CURRENCY_EXAMPLES = re.compile(
    rf"{_LISTED}\s*[,;:]?\s*(?:{EXAMPLES_AFTER})(?![A-Za-z])|"
    rf"(?<![A-Za-z])(?:{EXAMPLES_BEFORE})\s*:?\s*{_LISTED}", re.I)


def example_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where currencies are listed as examples ("GBP, CHF etc", "quid vs euros vs anything else").

    >>> text = "spend by currency - GBP, CHF etc, Q3"
    >>> [text[a:b] for a, b in example_spans(text)]
    ['GBP, CHF etc']
    >>> example_spans("GBP or USD invoices only")
    ()

    A list left out of the figure ("excluding USD and other foreign currencies", "sauf USD et autres", "USD and
    the rest excluded") names no examples of the rows: it is an exclusion, never the every-currency split (which
    would answer with the very currencies left out, as if complete).

    >>> example_spans("spend excluding USD and other foreign currencies in Q1")
    ()
    """
    return tuple(m.span() for m in CURRENCY_EXAMPLES.finditer(text)
                 if negated(text, m.start(), _LIST_NOUN.match(text, m.end()).end()) is None)


#: The noun a list of examples may end with before a postfix exclusion ("USD and other currencies excluded").
_LIST_NOUN = re.compile(r"(?:\s*(?:foreign\s+)?(?:currenc(?:y|ies)|ccys?|ones|invoices))?", re.I)


def issued_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where the question names invoices as issued in a currency ("billed in USD", "CHF-invoiced")."""
    return tuple(m.span() for pattern in ISSUED for m in pattern.finditer(text))


def currency_list_spans(text: str) -> tuple[tuple[int, int], ...]:
    """Where two or more currency codes are listed together."""
    return tuple(m.span() for m in CODE_LIST.finditer(text)) + example_spans(text)


__all__ = ["CODE", "CODES", "CODE_LIST", "CURRENCY_EXAMPLES", "ISSUED", "NATIVE", "NATIVE_LABEL", "currency_list_spans",
           "example_spans", "issued_spans", "list_codes"]
