"""Breakdown requests in the words analysts actually type, rewritten into the grouping phrases the reader knows.

A breakdown is asked for in shorthand ("by pg", "per sup", "by suplier", "group by product_group"), in the finance
words of French and Spanish controllers ("por grupo de producto", "répartition par grande famille", "desglose por
divisa", "importes por moneda", "amounts per devise", "TTC por sociedad"), and with parentheses that illustrate the
grouping rather than restrict it ("by top-level category (Monitoring, Control, MRO...)", "(top level: A / B / C)",
"per month (Jan, Feb, Mar so far)", "by quarter (Q3 and Q4 are the only ones with data)"). Left as typed, the
grouping word is named back as a grouping no metric offers, or is dropped and a total is given, or the illustrating
names are read as filters to ask about.

Each rewrite has one meaning: a grouping word (by, per, por, par, group by, split by, ...) followed by a word that
names a dimension of the governed spend (product group, supplier, company, currency, a time grain) in an
abbreviation, a one-letter typo or another language. Only the dimension word is rewritten; names are never touched,
and a word that is no dimension reaches the reader as typed (and is named back there). A parenthesis directly after
a grouping is an illustration when it lists values of that grouping (two or more items, or a trailing "..."/"etc.",
or "top level: ..."); its level words ("top level", "detailed") are kept and its listed names dropped. Listed
companies after "by company" are the companies to compare, so they become the scope ("for Company A, Company B and
Company C by company"), never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from router.dimensions import UNRECORDED_NOUN
from router.edits import unique_typo
from router.entities import Gazetteer
from router.reading import parse_breakdown
from router.structured_notation import field_of

_I = re.I | re.UNICODE

#: Words that introduce a grouping, in English, SQL, French and Spanish.
_BY = (r"(?:group(?:ed)?\s+by|split\s+(?:by|per|into)|broken\s+(?:down|out)\s+by|breakdown\s+(?:by|per)|"
       r"(?:desglos(?:e|ado)|r[ée]partition|ventilation|reparto|distribuci[óo]n)\s+(?:par|por|per|by)|"
       # French participles: "ventilé par", "réparties par", "détaillé par"
       r"(?:ventil|r[ée]parti|d[ée]taill)[ée]*e?s?\s+par|"
       # German: "aufgeteilt nach", "aufgeschlüsselt nach", "gegliedert nach", "getrennt nach", "Aufstellung je"
       r"(?:aufgeteilt|aufgeschl(?:ü|ue)sselt|gegliedert|getrennt|unterteilt)\s+(?:nach|je|pro)|"
       r"(?:Aufstellung|Aufteilung|Aufschl(?:ü|ue)sselung|Gliederung|(?:Ü|Ue)bersicht)\s+(?:nach|je|pro)|"
       # SQL-like and report notation: "dims: supplier", "dimension = month", "rows: category"
       r"dim(?:ension)?s?\s*[:=]|rows?\s*[:=]|"
       # Nordic "efter" / "pr.", Polish "według" / "wg."
       r"by|per|por|par|je|pro|nach|efter|pr\.|według|wedlug)")

#: Dimension words as typed -> the English noun the reader reads. Abbreviations first (whole words only).
_NOUNS: tuple[tuple[str, str], ...] = (
    # the top level first ("top level cats", "Hauptwarengruppe", "oberste Warengruppe", "top_group"): a longer
    # phrase than the plain product-group words below, which would otherwise take its last word
    (r"top[- _]?level\s+(?:cats?|categor(?:y|ies)|groups?)|top[_ ]?(?:product[_ ])?groups?(?:_ids?)?|"
     r"hauptwarengruppen?|haupt-?wgs?|ober(?:st)?(?:e[nrs]?)?\s+(?:waren|produkt|artikel)gruppen?|"
     r"(?:grandes?\s+)?cat[ée]gories?\s+principales?|cat[ée]gor[íi]as?\s+principales?|"
     # the main group in Dutch, French, Spanish, Italian, Portuguese, German, Nordic, Polish, Finnish
     r"hoofdgroep(?:en)?|hoofdproductgroep(?:en)?|groupes?\s+principa(?:l|ux)|grupos?\s+principa(?:l|les)|"
     r"grupp[oi]\s+principal[ei]|hauptgruppen?|huvudgrupp(?:er(?:na)?)?|hovedgruppe(?:r|ne)?|"
     r"grup[ay]\s+g[łl][óo]wn[ae]|p[äa][äa]ryhm(?:ä|a|ät|at|ittäin)", "top-level product group"),
    # product groups: "pg", "prod grp", "product_group", "grupo de producto", "groupe de produits", "famille",
    # German "Warengruppe", "WG lt. Artikel", "Artikel-WG", "Produktgruppe" (a bare "category" is left to the
    # reader, which reads it as the top level: reading.group_dimension)
    # "by product type", "split by kind of product": what kind of product a line is is its catalogue group (the
    # product row below would take "product" and leave the type unread)
    (r"product[- ](?:types?|kinds?|class(?:es)?)|(?:types?|kinds?|sorts?)\s+of\s+(?:products?|goods|items?)|"
     r"pgs?|prod(?:uct|\.)?[\s_]?gro?u?ps?|product_groups?|product_group_ids?|"
     r"grupos?\s+de\s+productos?|groupes?\s+de\s+produits?|cat[ée]gor[íi]as?\s+de\s+productos?|"
     r"cat[ée]gories?\s+de\s+produits?|cats?|"
     # a subgroup is a product group of the catalogue: "sous-groupe de produits", "subgrupo", "subgroep"
     r"sous[- ]?groupes?(?:\s+de\s+produits?)?|sub[- ]?grupos?(?:\s+de\s+produc?tos?)?|sottogrupp[oi]|"
     r"subgroep(?:en)?|untergruppen?|undergrupp(?:er)?|undergrupper?|podgrup[ay]|alaryhm(?:ä|a|ät|at)|"
     r"sub[- ]?groups?|productgroep(?:en)?|produktgrupp(?:er)?|produktgruppe(?:r|n)?|gruppo\s+prodotti|"
     r"grupp[oi]\s+di\s+prodotti|grupa\s+produkt(?:ów|ow)|grupy\s+produktowe|tuoteryhm(?:ä|a|ät|at)|"
     r"(?:artikel-?)?(?:waren|produkt|material|artikel)gruppen?(?:\s*\(\s*artikel-?wg\s*\))?|"
     r"(?:artikel-?)?wgs?(?:\s+(?:lt\.?|laut|gem\.?|gem(?:ä|ae)(?:ß|ss))\s+(?:artikel|katalog))?",
     "product group"),
    # the top level of the catalogue: "grande famille", "familles de produits", "famille", "product family"
    (r"(?:grandes?\s+)?familles?(?:\s+de\s+produits?)?|(?:top[- ]level\s+)?(?:product\s+)?famil(?:y|ies)|"
     r"familias?(?:\s+de\s+productos?)?", "top-level product group"),
    (r"sups?|supps?|suppl?s?|vend|vndrs?|supplier_ids?|supplier_names?|proveedores|proveedor|fournisseurs?|"
     r"lieferant(?:en)?|kreditor(?:en)?|anbieter(?:n)?|suppliers?|vendors?|"
     r"leveranciers?|fornitor[ei]|fornecedor(?:es)?|leverant[öo]r(?:er|s)?|leverand[øo]r(?:er)?|"
     r"dostawc(?:a|y|ów|ow)|toimittaj(?:a|at|ittain)", "supplier"),
    # "by co", "per cos", "by entity", "Gesellschaft", "Mandant", "Buchungskreis"; never "by co a" / "by Co. B",
    # where the short word starts a company's name
    (r"sociedad(?:es)?|soci[ée]t[ée]s?|entidad(?:es)?|entit[ée]s?|empresas?|company_ids?|comp_ids?|"
     r"(?:legal\s+)?entit(?:y|ies)|subsidiar(?:y|ies)|"
     # (not "Gesellschaft": the German reader reads "je Gesellschaft (A, B, C)" with its list)
     r"cos?(?!\.?\s+(?:[a-z]|\d)(?![\w-]))(?!\.\s*[A-Za-z])|mandant(?:en)?|"
     r"bedrijf|bedrijven|vennootschap(?:pen)?|societ[àa]|bolag(?:et)?|selskab(?:er)?|selskap(?:er)?|"
     r"sp[óo][łl]k[aiy]|sp[óo][łl]ek|yhti[öo](?:t|ittäin)?|"
     r"buchungskreis(?:e)?|compan(?:y|ies)(?!\s+(?-i:[A-Z]|[a-z])(?![\w-]))", "company"),
    (r"(?:(?:original(?:e|es)?|d['’]\s*origine|de\s+origen)\s+)?(?:devises?|divisas?|monedas?)"
     r"(?:\s+(?:d['’]\s*origine|originale?s?|de\s+origen|de\s+factura))?|ccy|curr|currency_codes?|"
     r"(?:original|invoice|document)\s+devises?|(?:rechnungs|beleg|original)?w(?:ä|ae|a)hrung(?:en)?|"
     r"(?:invoice|original|billing)\s+ccys?|ccys|currenc(?:y|ies)|"
     # "FCY wise", "by FCY": the foreign (invoice) currency of a line, as Indian and British AP teams abbreviate it
     r"fcys?|foreign\s+currenc(?:y|ies)|"
     r"valut(?:a|as|e|aer|or)|walut(?:a|y)?|valuut(?:ta|at|oittain)|moedas?", "currency"),
    (r"mes(?:es)?|mois|month_start|invoice_month|monat(?:e|en)?|mths?|months?|maand(?:en)?|mes[ei]|m[êe]s|"
     r"m[åa]nad(?:er)?|m[åa]ned(?:er)?|miesi[ąa]c(?:e)?|miesi[ęe]cy|kuukau(?:si|det|sittain)|"
     # a controller's grain: "per P", "by period", "by fiscal month" (a period is a month of the fiscal year,
     # router/fiscal_periods.py); not "by period 7", which names one
     r"(?:fiscal[\s_]+)?(?:periods?|months?)(?!\s*\d)|fiscal_period|p(?!\s*\d)", "month"),
    (r"trimestres?|quarter_start|invoice_quarter|qtrs?|quartal(?:e|en)?|quarters?|kwarta(?:al|len)|"
     r"kvartal(?:er)?|kwarta[łl](?:y)?", "quarter"),
    (r"a[ñn]os?|ann[ée]es?|yr|invoice_year|jahr(?:e|en)?|years?", "year"),
    # "pro Artikel", "par article", "by article": the product ("Artikel" alone is no product group)
    (r"artikel(?:n)?|produkt(?:e|en)?|articles?|art[íi]culos?|produits?|productos?|product_codes?|skus?|products?",
     "product"),
)
#: Full dimension words a one-letter typo is measured against ("suplier", "supplir", "compnay", "curency").
_TYPO_TARGETS = ("supplier", "suppliers", "vendor", "vendors", "company", "companies", "currency", "currencies",
                 "category", "categories", "quarter", "quarters", "month", "months", "product", "products")


_NOUN_RULES = tuple((re.compile(rf"(?<![\w-])(?P<by>{_BY})\s+(?:the\s+)?(?P<noun>{pattern})(?![\w-])", _I), noun)
                    for pattern, noun in _NOUNS)
_TYPO = re.compile(rf"(?<![\w-])(?P<by>{_BY})\s+(?P<word>(?-i:[a-z]{{5,}}))(?![\w-])", _I)

#: "in the original invoice currencies and converted to euros", "in original currency and in EUR": both sides asked.
#: (the plural, or "converted", asks for the rows of a figure's currencies; "the total of invoice X in original
#: currency and in EUR" is one document's two amounts, read elsewhere)
_BOTH_CURRENCIES = re.compile(
    r"\b(?:in|by)\s+(?:the\s+|their\s+)?(?:original|invoice|document|local)(?:\s+(?:invoice|document))?\s+"
    r"(?:currencies\s*(?:,\s*)?(?:and|plus|as well as|&)\s+(?:also\s+)?(?:converted\s+(?:in)?to|in)|"
    r"currency\s*(?:,\s*)?(?:and|plus|as well as|&)\s+(?:also\s+)?converted\s+(?:in)?to)\s+(?:euros?|eur)\b", _I)
#: A document named by its number: its own amounts, never a breakdown of a figure.
_DOCUMENT = re.compile(r"\b(?:INV|CN|CRN)-\d{4}-\d+\b|\binvoice\s+(?:number\s+|no\.?\s*|#\s*)?\S*\d", _I)
#: "amounts by ... with the EUR contre-valeur / equivalent / total / converted": the reporting figure beside them.
_COUNTER_VALUE = re.compile(r"\bcontre[- ]valeur\b|\bcontravalor\b|\bcontrevaleur\b", _I)

#: French / Spanish breakdown nouns that stand alone ("monthly desglose", "une répartition").
_BREAKDOWN_NOUN = re.compile(r"\b(?:desglose|r[ée]partition|ventilation)\b", _I)

#: A parenthesis right after a grouping phrase (the phrase as rewritten above).
_GROUPING_HEAD = (r"(?P<head>\b(?:by|per|(?:for|in)\s+(?:each|every)|each|every)\s+"
                  r"(?:top-level\s+|top\s+level\s+|detailed\s+|(?:invoice|original|document|transaction)\s+"
                  r"(?=currenc))?"
                  r"(?:product\s+group|category|product\s+categor(?:y|ies)|product\s+groups|categories|groups?|company|companies|supplier|"
                  r"suppliers|month|quarter|year|currency)|\b(?:per|each)\s+(?:month|quarter|year)|"
                  r"\b(?:monthly|quarterly|yearly|annual)(?:\s+(?:totals?|figures?|breakdown|split|desglose))?)")
_PAREN_AFTER = re.compile(_GROUPING_HEAD + r"(?P<mid>(?:\s+[\w'’-]+){0,6}?)\s*(?P<stop>[?.!]?)\s*"
                          r"\((?P<inside>[^()]{1,160})\)", _I)
#: Words that make a parenthesis a restriction, not an illustration: kept as typed for the reader.
#: ("the only ones with data" remarks on the rows, it does not restrict them)
_RESTRICTING = re.compile(r"(?<!\bthe\s)\b(?:only(?!\s+ones?\b)|just|excluding|except|without|exclude|but\s+not|"
                          r"solely)\b", _I)
_TOP_WORDS = re.compile(r"(?<!not\s)(?<!not\sthe\s)\b(?:top[- ]level|top\s+level|highest[- ]level)\b", _I)
_LOWEST_WORDS = re.compile(r"\b(?:lowest[- ]level|detailed|leaf|most\s+granular|sub[- ]?groups?)\b", _I)
#: A parenthesis that only glosses the grouping ("(famille de produits)", "(por mes)", "(original currency)").
_GLOSS = re.compile(r"\s*(?:(?:by|per|por|par)\s+)?(?:the\s+)?(?:(?:top[- ]level|original|invoice)\s+)?"
                    r"(?:product\s+group|product\s+groups|groups?|categor(?:y|ies)|supplier|company|currency|"
                    r"currencies|month|quarter|year|famille\s+de\s+produits|familles?|devises?|divisas?|monedas?|"
                    r"grupos?\s+de\s+productos?|mes|mois)\s*", _I)
_MONTH_OR_QUARTER = re.compile(
    r"\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|q[1-4]|h[12])\b", _I)
#: Marks of examples or a remark, not a restriction: "...", "etc.", "e.g.", "so far", "the only ones with data".
_REMARK = re.compile(r"\.\.\.|…|\betc\b|\be\.\s?g\b|\bi\.\s?e\b|\bsuch\s+as\b|\bso\s+far\b|\bto\s+date\b|"
                     r"\bonly\s+ones?\b|\b(?:with|ha(?:ve|s|d))\s+(?:any\s+)?data\b|\bi\s+(?:believe|think)\b", _I)
#: A remark on which rows hold data ("only Q3 and Q4 have data, I think"): no restriction, whatever its words.
_DATA_REMARK = re.compile(r"\bonly\s+ones?\b|\b(?:with|ha(?:ve|s|d))\s+(?:any\s+)?data\b|\bi\s+(?:believe|think)\b",
                          _I)
#: A range of months or quarters: a period, never an illustration.
_RANGE = re.compile(r"\b(?:to|through|thru|until|till|bis|from|since)\b(?!\s+date)|[-–]", _I)
_COMPANY_ITEM = re.compile(r"(?-i:[A-Z])(?:[\w-]*)(?:\s+(?-i:[A-Z])[\w-]*)?")


#: A price word before "per" / "pro" / "je": the noun after it is the unit a price is quoted in ("Preis pro
#: Artikel", "price per article", "prix par produit"), never a grouping.
_PRICE_BEFORE = re.compile(r"(?:\bpreis\w*|\bprices?|\bcosts?|\bkost\w*|\bprix|\bprecios?|\bpaid|\bbezahlt|"
                           r"\b(?:ø|avg|average|durchschnitt\w*))\s*(?:\S+\s+){0,1}$", _I)


#: The reader's own English nouns: rewritten only after a foreign grouping word ("je supplier", "par month");
#: after an English one ("per month", "by company") they are read as typed.
_ENGLISH_NOUN = re.compile(r"suppliers?|vendors?|compan(?:y|ies)|currenc(?:y|ies)|months?|quarters?|years?|"
                           r"products?|entit(?:y|ies)|legal\s+entit(?:y|ies)|subsidiar(?:y|ies)|categor(?:y|ies)|"
                           r"top[- ]level\s+(?:categor(?:y|ies)|groups?)", _I)
#: A time grain typed in the plural after "per" / "by" ("per months"): the reader reads the grain in the singular.
_PLURAL_GRAIN = re.compile(r"months|quarters|years|weeks", _I)
#: Finnish grouping adverbs ("kuukausittain", "toimittajittain"): a grouping word and its noun in one word.
_SUFFIXED = {"kuukausittain": "month", "neljännesvuosittain": "quarter", "vuosittain": "year",
             "toimittajittain": "supplier", "yhtiöittäin": "company", "valuutoittain": "currency",
             "tuoteryhmittäin": "product group", "pääryhmittäin": "top-level product group"}
_SUFFIXED_WORD = re.compile(r"(?<![\w-])(?:" + "|".join(_SUFFIXED) + r")(?![\w-])", _I)
#: "split the spend ... on / over / across the suppliers": the grouping of a split ("split on currency").
_SPLIT_ON = re.compile(r"\b(?P<verb>split|divide|break\s+down)(?P<mid>(?:\s+[^\s?.;!]+){0,8}?)\s+"
                       r"(?:on|over|across|into)\s+(?:the\s+|all\s+(?:the\s+)?|our\s+)?(?=(?:"
                       r"suppliers?|vendors?|supliers?|compan(?:y|ies)|entit(?:y|ies)|currenc(?:y|ies)|months?|"
                       r"quarters?|product\s+groups?|groups?|categor(?:y|ies))\b(?!\s+(?-i:[A-Z0-9])\w*\b))", _I)


def _split_on(m: re.Match[str], companies: tuple[str, ...]) -> str:
    """"split ... across the suppliers": "by"; never before a tenant's company, in whatever case it is written
    ("split across company b and Company A" names the companies to compare, not a dimension "company")."""
    after = m.string[m.end():].casefold()
    if any(after.startswith(c.casefold()) and not after[len(c):len(c) + 1].isalnum() for c in companies if c):
        return m.group(0)
    return f"{m.group('verb')}{m.group('mid')} by "


_ENGLISH_BY = re.compile(r"by|per|group(?:ed)?\s+by|split\s+(?:by|per)|broken\s+(?:down|out)\s+by|"
                         r"breakdown\s+(?:by|per)", _I)


def _noun_rule(noun: str, text: str) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        if noun == "product" and _PRICE_BEFORE.search(text, 0, m.start()):
            return m.group(0)
        if _ENGLISH_BY.fullmatch(" ".join(m.group("by").split())) and _ENGLISH_NOUN.fullmatch(m.group("noun")):
            if _PLURAL_GRAIN.fullmatch(m.group("noun")):
                return f"{m.group('by')} {noun}"  # ("per months": the grain, as the reader reads it)
            return m.group(0)  # the reader's own phrase ("per month", "by supplier")
        return f"{_english_by(m.group('by'))} {noun}"

    return sub


def _nouns(text: str) -> str:
    for pattern, noun in _NOUN_RULES:
        text = pattern.sub(_noun_rule(noun, text), text)

    def typo(m: re.Match[str]) -> str:
        word = m.group("word").lower()
        if word in _TYPO_TARGETS:
            return m.group(0)
        # (the word is five letters or more by _TYPO: router/edits.py's ONE_EDIT_FROM_FIVE)
        close = unique_typo(word, _TYPO_TARGETS, 1)
        if close is None:
            return m.group(0)
        return f"{_english_by(m.group('by'))} {close}"

    return _TYPO.sub(typo, text)


#: Every dimension word a grouping may name, as typed (the table above) or in the reader's English.
_ANY_NOUN = "|".join([*(p for p, _ in _NOUNS), r"suppliers?|vendors?|compan(?:y|ies)|currenc(?:y|ies)|months?|"
                      r"quarters?|years?|weeks?|days?|products?|(?:top[- ]level\s+)?(?:product\s+)?groups?|"
                      r"(?:invoice\s+)?status(?:es)?"])

#: "dims: supplier, month", "rows = category", "group_by: vendor": a report's notation for the grouping.
_DIMS_KEY = re.compile(rf"(?<![\w-])(?:dim(?:ension)?s?|rows?|group[\s_]?by|breakdown|split)\s*[:=]\s*"
                       rf"(?=(?:{_ANY_NOUN})(?![\w-]))", _I)

#: The grouping named as the object, before a breakdown word or alone at the end: "alpenland top level cats 2025
#: breakdown", "ypsi ytd top level cats", "Hauptwarengruppen Q4": read as "by top-level product group" (never after
#: a grouping word, a ranking's "top 3", a question word or an article, where the words are read as they stand).
_TOP_LEVEL_OBJECT = re.compile(
    r"(?<![\w-])(?<!by\s)(?<!per\s)(?<!top\s)(?<!which\s)(?<!what\s)(?<!the\s)(?<!\d\s)(?<!across\s)(?<!on\s)"
    r"(?:top[- ]?level\s+(?:cats|categories|(?:product\s+)?groups)|hauptwarengruppen)(?![\w-])"
    r"(?P<mid>(?:\s+(?!(?:by|per|for|in|of|with|from|did|do|does|we|were|was|have|had|are|is)\b)[\w'’/-]+){0,3}?)"
    r"(?:\s+(?P<word>breakdown|split|mix)\b|(?=\s*[?.!,;]|\s*$|\s+(?:pls|please|thx|thanks|ty|asap)\b))", _I)

#: "both cos split q4 25", "all 3 entities jan-apr breakdown", "the two companies split": every company, a row each.
_COMPANIES_SPLIT = re.compile(
    r"(?<![\w-])(?P<all>both|all(?:\s+(?:\d|two|three|four|five|the))?|the\s+(?:two|three|\d)|our\s+(?:two|three|\d))"
    r"\s+(?P<noun>cos|companies|entities|subsidiaries|legal\s+entities|gesellschaften)"
    r"(?P<mid>(?:\s+[\w'’/-]+){0,3}?)\s+(?P<word>split|breakdown|side[- ]by[- ]side)(?![\w-])", _I)


#: A grouping the data records, then one it does not, joined to it: "by sup + po numbers", "per supplier and cost
#: centre", "by supplier - contract owner view". Read as written, the second was dropped and a one-dimension table
#: presented as complete; written as a grouping of its own ("and by po numbers"), the reader names it back.
_UNRECORDED_JOINED = re.compile(
    rf"(?P<head>(?<![\w-])(?:{_BY})\s+(?:the\s+)?(?:{_ANY_NOUN}))"
    r"(?P<joint>\s*(?:\+|&|/|,|\band\b|\bplus\b|\bund\b|\bet\b|\by\b|\s[-–—]\s)\s*(?:(?:by|per|je|pro|nach|par|por)\s+)?)"
    # (not a limit with its value: "by supplier, po 4500012345", "and cost centre 'CC-1'" are read as limits)
    rf"(?P<noun>(?:{UNRECORDED_NOUN}))(?![\w-])(?!\s*(?:[:=#]\s*)?(?:[\w/-]*\d|[\"'“‘]|(?-i:[A-Z]{{2,}})))"
    r"(?P<tail>\s+(?:view|level|split|breakdown|wise|perspective|sicht))?",
    _I)


def _unrecorded_joined(text: str) -> str:
    return _UNRECORDED_JOINED.sub(lambda m: f"{m.group('head')} and by {m.group('noun').lower()}", text)


#: The grouping noun before its breakdown word ("Status breakdown", "ccy split", "Lieferanten-Aufstellung",
#: "category mix"): the grouping it names. At the head of the message it is moved to the end ("Status breakdown
#: (counts) of all invoices H2" -> "(counts) of all invoices H2, by status"), where the reader reads a grouping.
_NOUN_BEFORE = re.compile(
    r"(?<![\w-])(?P<noun>(?:invoice\s+|payment\s+|document\s+)?status(?:es)?|ccys?|currenc(?:y|ies)|"
    # (not "supplier breakdown", "monthly split", "category mix": the reader reads those as they stand)
    r"w(?:ä|ae)hrungs?|lieferanten|kreditoren|cats?|warengruppen|compan(?:y|ies)|entit(?:y|ies))"
    r"[\s-]*(?P<word>breakdown|split|mix|aufstellung|aufteilung|aufschl(?:ü|ue)sselung)(?![\w-])", _I)
_NOUN_OF = {"status": "status", "statuses": "status", "invoice status": "status", "ccy": "currency",
            "ccys": "currency", "currency": "currency", "currencies": "currency", "monthly": "month",
            "month": "month", "quarterly": "quarter", "quarter": "quarter", "supplier": "supplier",
            "suppliers": "supplier", "vendor": "supplier", "vendors": "supplier", "lieferanten": "supplier",
            "kreditoren": "supplier", "category": "product group", "categories": "product group",
            "cat": "product group", "cats": "product group", "warengruppen": "product group",
            "company": "company", "companies": "company", "entity": "company", "entities": "company"}


#: "(GBP/CHF/USD native, total EUR)" beside a currency breakdown: how the rows are to be shown (the foreign ones
#: as invoiced, the total in EUR), not a limit to the codes listed (read as one, the EUR rows were dropped and the
#: total shrank to the foreign invoices: a silent wrong).
_CURRENCY_SHOWN = re.compile(
    r"\s*\(\s*(?:(?-i:[A-Z]{3})\s*(?:/|,|&|\+|and)\s*)+(?-i:[A-Z]{3})\s+(?:native|original|as\s+invoiced|in\s+their\s+"
    r"own\s+currenc(?:y|ies))(?:\s+amounts?)?\s*(?:(?:,|;|\+|and|&)\s*(?P<total>(?:the\s+)?total\s+(?:in\s+)?EUR|"
    r"EUR\s+total|(?:converted\s+)?(?:in(?:to)?\s+)?EUR))?\s*\)", _I)
_CURRENCY_GROUPING = re.compile(r"\b(?:ccys?|currenc(?:y|ies)|w(?:ä|ae)hrung(?:en)?|devises?|divisas?)\b", _I)


def _currency_shown(text: str) -> str:
    if not _CURRENCY_GROUPING.search(text):
        return text
    return _CURRENCY_SHOWN.sub(lambda m: ", with the EUR total" if m.group("total") else "", text)


def _noun_before(text: str) -> str:
    m = _NOUN_BEFORE.search(text)
    if m is None:
        return text
    noun = " ".join(m.group("noun").lower().split())
    noun = _NOUN_OF.get(noun, _NOUN_OF.get(noun.split()[-1], "")) or \
        ("currency" if noun.startswith(("w", "W")) else "")
    if not noun:
        return text
    if not text[:m.start()].strip(" -–—:,"):
        rest = text[m.end():].strip(" -–—:,")
        body = rest.rstrip(" ?.!")
        return f"{body}, by {noun}{rest[len(body):]}"
    return f"{text[:m.start()]}by {noun}{text[m.end():]}"


def _objects(text: str) -> str:
    """The grouping said as an object ("top level cats ... breakdown", "both cos split", "dims: supplier"): a
    grouping phrase the reader reads."""
    def top(m: re.Match[str]) -> str:
        mid = m.group("mid").strip()
        return f"{mid} by top-level product group" if mid else "by top-level product group"

    text = _TOP_LEVEL_OBJECT.sub(top, text)
    text = _COMPANIES_SPLIT.sub(lambda m: f"{m.group('all')} companies{m.group('mid')}, by company", text)
    return _noun_before(_currency_shown(_DIMS_KEY.sub("by ", text)))


def _english_by(word: str) -> str:
    """The grouping word in English: "group by", "split by", "breakdown by" keep their verb, the rest read "by"."""
    lower = " ".join(word.lower().split())
    if lower.startswith(("desglos", "répartition", "repartition", "ventilation", "reparto", "distribuci")):
        return "breakdown by"
    if lower.startswith("split"):
        return "split by"  # ("split into categories": the rows, as "split by")
    if lower.startswith(("group", "broken", "breakdown")):
        return lower if not lower.startswith("group") else "by"
    return "by"


def _illustrations(text: str, companies: tuple[str, ...]) -> str:
    def sub(m: re.Match[str]) -> str:
        inside = m.group("inside")
        head = m.group("head")
        if _RESTRICTING.search(inside) and not _DATA_REMARK.search(inside):
            return m.group(0)
        keep = " (lowest level)" if _LOWEST_WORDS.search(inside) else " (top level)" if _TOP_WORDS.search(inside) \
            else ""
        dropped = f"{head}{m.group('mid')}{keep}{m.group('stop')} "
        if re.search(r"\bcompan(?:y|ies)\b", head, re.I):
            named = _listed_companies(inside, companies)
            if len(named) >= 2:
                return f"for {' and '.join(named)} {head}{m.group('mid')}{m.group('stop')} "
            return m.group(0)
        if _GLOSS.fullmatch(inside) or _GLOSS.fullmatch(re.sub(r"\b(?:top[- ]level|top\s+level)\b", "", inside)):
            return dropped  # "(famille de produits)", "(por mes)": the grouping said again
        if re.search(r"\bnot\s+(?:the\s+)?(?:top[- ]level|top\s+level|detailed)", inside, re.I) and keep:
            return dropped  # "(the detailed groups, not the top level)": the level named
        items = len([p for p in re.split(r"\s*(?:,|/|\+|&|\band\b|\by\b|\bet\b)\s*", inside) if p.strip()])
        if re.search(r"month|quarter|year|monthly|quarterly|yearly|annual", head, re.I) and \
                _MONTH_OR_QUARTER.search(inside):
            # "per month (Jan, Feb, Mar, Apr so far)", "(Q3 and Q4 are the only ones with data)": the rows named,
            # said so by the remark; "(January to March)" and a bare list "(Jul, Aug, Sep)" may restrict the rows,
            # so they are read (or asked about) as typed
            if _RANGE.search(inside) or not _REMARK.search(inside):
                return m.group(0)
            return dropped
        if re.search(r"\d", inside):
            return m.group(0)  # "(ref MTG-597 of 12/05)": a reference, set aside as context elsewhere
        if re.search(r"currenc", head, re.I) and items >= 2 and re.fullmatch(
                r"\s*(?-i:[A-Z]{3})(?:\s*(?:,|/|\+|&|\band\b)\s*(?-i:[A-Z]{3}))+\s*", inside):
            return dropped  # "by invoice currency (GBP/USD/CHF/EUR)": the codes of the rows, a legend, no limit
        if items >= 2 and (_REMARK.search(inside) or re.match(r"\s*(?:top[- ]level|top\s+level)\s*:", inside, re.I)):
            return dropped  # "(Monitoring, Control, MRO...)", "(top level: A / B / C)": examples of the rows
        return m.group(0)

    return _PAREN_AFTER.sub(sub, text)


#: "split ... between Xenon Pharma and Ypsilon Retail", "split between our two companies, A and B": a split word,
#: then the named sides of the split (checked to be companies below).
_SPLIT_BETWEEN = re.compile(
    r"\b(?P<verb>split|splits|divided|breakdown|break\s+down|side\s+by\s+side)\b(?P<mid>[^.?!;]{0,80}?)"
    r"\b(?:between|entre)\s+(?:(?:our|the|nos|nuestras)\s+(?:two|three|deux|dos|\d)\s+"
    r"(?:companies|entities|soci[ée]t[ée]s|sociedades|empresas)\s*,?\s*)?"
    r"(?P<a>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)\s*(?:,|and|&|\+|et|y)\s*(?P<b>[A-Z][\w-]*(?:\s+[A-Z][\w-]*)?)")


def _split_between(text: str, companies: tuple[str, ...]) -> str:
    """"how does Q1 spend split between Alpenland and Kestrel": the named companies, a row each ("by company")."""
    def sub(m: re.Match[str]) -> str:
        sides = [m.group("a"), m.group("b")]
        if not all(_is_company(side, companies) for side in sides):
            return m.group(0)  # suppliers or groups split against each other: left for the reader
        return f"{m.group('verb')}{m.group('mid')}for {sides[0]} and {sides[1]}, by company"

    return _SPLIT_BETWEEN.sub(sub, text)


def _is_company(item: str, companies: tuple[str, ...]) -> bool:
    first = item.split()[0].casefold()
    return bool(re.fullmatch(r"(?:Company\s+[A-Z]|COMP-[A-Z])", item)) or any(
        c.casefold() == item.casefold() or c.casefold().split()[0] == first for c in companies)


#: "breakdown by company - all entities, Q4 2025, spend with Theta": a heading grouping before the figure it breaks
#: down; read after the figure, so the clauses of one ask are not cut into asks of their own.
_LEADING_GROUPING = re.compile(
    r"^\s*(?P<by>(?:breakdown|split|broken\s+down)\s+(?:by|per)\s+(?:product\s+group|supplier|company|currency|"
    r"month|quarter|year|category|product|top-level\s+product\s+group))\s*(?:[-–—:,]\s*)+(?P<rest>\S.*?)\s*$",
    _I | re.S)


#: "both companies (Alpenland + Kestrel)", "our two entities (A and B)": the companies named in the parenthesis.
_NAMED_COMPANIES = re.compile(r"\b(?P<lead>both|the\s+two|our\s+two|the\s+three|our\s+three|all\s+three|our|the)\s+"
                              r"(?:compan(?:y|ies)|entit(?:y|ies))\s*\((?P<inside>[^()]{1,120})\)", _I)


def _named_companies(text: str, companies: tuple[str, ...]) -> str:
    def sub(m: re.Match[str]) -> str:
        named = _listed_companies(m.group("inside"), companies)
        return f"for {' and '.join(named)}" if len(named) >= 2 else m.group(0)

    return _NAMED_COMPANIES.sub(sub, text)


def _leading_grouping(text: str) -> str:
    m = _LEADING_GROUPING.match(text)
    if m is None:
        return text
    rest = m.group("rest").rstrip(" ?.!")
    return f"{rest}, {m.group('by')}{m.group('rest')[len(rest):]}"


def _listed_companies(inside: str, companies: tuple[str, ...]) -> list[str]:
    """The companies a parenthesis lists: bare letters ("A, B and C") as "Company X", known names as written."""
    items = [p.strip(" .") for p in re.split(r"\s*(?:,|/|\+|&|\band\b|\by\b|\bet\b)\s*", inside) if p.strip(" .")]
    out = []
    for item in items:
        if re.fullmatch(r"(?-i:[A-Z])", item):
            out.append(f"Company {item}")
        elif _is_company(item, companies):
            out.append(item)
        else:
            return []  # something else listed: left as typed for the reader
    return out


#: Words that ask for every period on file: "all data", "all time", "full history", "since inception".
_ALL_PERIODS = re.compile(
    r"\ball\s+(?:the\s+)?(?:data|time|history|periods|dates)\b|\ball[- ]time\b|"
    r"\b(?:whole|full|entire|complete)\s+history\b|\bsince\s+(?:inception|the\s+(?:beginning|start))\b|"
    r"\b(?:everything|all)\s+on\s+file\b", _I)


#: The reader's own dimension nouns, as a dimension word may be typed alone ("Vendor", "entities", "InvMonth").
_READER_NOUNS: tuple[tuple[str, str], ...] = (
    (r"suppliers?|vendors?|supplier\s+names?|vendor\s+names?", "supplier"),
    (r"compan(?:y|ies)|entit(?:y|ies)|legal\s+entit(?:y|ies)|subsidiar(?:y|ies)|company\s+codes?", "company"),
    (r"months?|monthly", "month"), (r"quarters?|quarterly", "quarter"), (r"years?|yearly|annual", "year"),
    (r"weeks?|weekly", "week"), (r"days?|daily|dates?", "day"),
    (r"products?|items?|materials?|product\s+(?:codes?|ids?|names?)|item\s+codes?|material\s+codes?|parts?",
     "product"),
    (r"categor(?:y|ies)|product\s+categor(?:y|ies)", "category"),
    (r"(?:product\s+)?groups?", "product group"),
    (r"(?:invoice\s+)?status(?:es)?", "status"),
)
#: The level of the catalogue a group word names ("main category", "sub-category", "level 1 group"): the top level
#: or each product's own group (router/reading.py group_dimension reads the same words in a sentence).
_TOP_LEVEL_WORDS = (r"(?:top[- ]?level|top|main|highest[- ]level|parent|root|level[- ]?1|l1|first[- ]level|"
                    r"major|master)")
_OWN_LEVEL_WORDS = r"(?:sub|leaf|lowest[- ]level|detailed|level[- ]?2|l2|second[- ]level|own)"
_GROUP_WORDS = r"(?:product\s+)?(?:categor(?:y|ies)|groups?|families|family)"
_TOP_LEVEL_GROUP = re.compile(rf"{_TOP_LEVEL_WORDS}[\s-]*{_GROUP_WORDS}", _I)
_OWN_LEVEL_GROUP = re.compile(rf"{_OWN_LEVEL_WORDS}[\s-]*{_GROUP_WORDS}", _I)
#: Words before a dimension that only say which date or amount of the invoice it is taken from ("InvMonth",
#: "invoice currency", "posting quarter", "doc ccy"): the dimension itself.
_DATE_OR_DOCUMENT = re.compile(r"(?:inv(?:oice)?|posting|booking|doc(?:ument)?|txn|transaction|billing|original)"
                               r"[\s-]+(?=\S)", _I)


#: The dimensions of a sheet header (router/structured_notation.py field_of) in the readers' nouns; the document
#: type is no breakdown of the governed spend.
_HEADER_NOUNS = {"supplier": "supplier", "company": "company", "product": "product", "product group": "product group",
                 "top-level group": "top-level product group", "month": "month", "quarter": "quarter",
                 "year": "year", "week": "week", "day": "day", "currency": "currency", "status": "status"}


def dimension_noun(word: str) -> str | None:
    """The reader's noun for a dimension word typed alone (a column header, the word before "-wise", the value of
    "rows ="), or ``None`` when it names no dimension of the governed spend. CamelCase and snake_case are read as
    words; a level word before a group word names the level.

    >>> dimension_noun("ProductCode"), dimension_noun("InvMonth"), dimension_noun("vendor")
    ('product', 'month', 'supplier')
    >>> dimension_noun("main category"), dimension_noun("sub-category"), dimension_noun("FCY")
    ('top-level product group', 'product group', 'currency')
    >>> dimension_noun("cost center") is None
    True
    >>> dimension_noun("SupplierID"), dimension_noun("CompanyName"), dimension_noun("DocType")
    ('supplier', 'company', None)
    """
    text = " ".join(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", word).replace("_", " ").split()).strip(" .:-")
    if not text:
        return None
    if _TOP_LEVEL_GROUP.fullmatch(text):
        return "top-level product group"
    if _OWN_LEVEL_GROUP.fullmatch(text):
        return "product group"
    for pattern, noun in (*_READER_NOUNS, *_NOUNS):
        if re.fullmatch(pattern, text, _I):
            return noun
    qualified = _DATE_OR_DOCUMENT.match(text)
    if qualified is not None:
        return dimension_noun(text[qualified.end():])
    # a sheet header's other forms ("SupplierID", "CompanyName", "comp"): the one header table, field_of
    header = field_of(word.strip(" .:-"))
    if header is not None and header.kind == "dimension" and header.words in _HEADER_NOUNS:
        return _HEADER_NOUNS[header.words]
    if " " not in text and len(text) >= 5 and text.isalpha():
        close = unique_typo(text.lower(), _TYPO_TARGETS, 1)
        return dimension_noun(close) if close is not None else None
    return None


def every_period(question: str) -> bool:
    """Whether a question without a period asks for every period on file: it says so ("all data", "full
    history"), or it asks for a breakdown by a time grain ("spend by quarter", "group by month"), whose rows are
    the periods themselves; the answer states the range it used (up to the as-of date).

    >>> every_period("xenon spend by quarter all data"), every_period("kestrel spend by month")
    (True, True)
    >>> every_period("kestrel spend by supplier")
    False
    """
    return bool(_ALL_PERIODS.search(question)) or parse_breakdown(question).grain is not None


def company_spellings(gazetteer: Gazetteer) -> tuple[str, ...]:
    """The tenant's company names, the names a parenthesis after "by company" may list."""
    return tuple(c.company_name for c in gazetteer.companies)


def read_breakdown_words(question: str, companies: Iterable[str] = ()) -> str | None:
    """``question`` with its breakdown shorthand, typos and French / Spanish grouping words in English, and its
    illustrating parentheses dropped, or ``None`` when there is nothing to rewrite.

    >>> read_breakdown_words("Xenon H2 2025 spend by pg")
    'Xenon H2 2025 spend by product group'
    >>> read_breakdown_words("kestrel q3 spend by suplier")
    'kestrel q3 spend by supplier'
    >>> read_breakdown_words("Company A spend 2025") is None
    True
    """
    text = question if _DOCUMENT.search(question) else \
        _BOTH_CURRENCIES.sub("by invoice currency, with the EUR total", question)
    text = _COUNTER_VALUE.sub("equivalent", text)
    text = _SUFFIXED_WORD.sub(lambda m: f"by {_SUFFIXED[m.group(0).casefold()]}", text)
    text = _SPLIT_ON.sub(lambda m: _split_on(m, tuple(companies)), text)
    text = _unrecorded_joined(_nouns(_objects(text)))
    text = _BREAKDOWN_NOUN.sub("breakdown", text)
    text = _illustrations(text, tuple(companies))
    text = _split_between(text, tuple(companies))
    text = _named_companies(text, tuple(companies))
    text = _leading_grouping(text)
    if re.search(r"\bby\s+company\b", text, re.I):
        # "A and B side by side ... por sociedad": the rows are the companies; "side by side" says only that
        text = re.sub(r"\s*,?\s*\bside[- ]by[- ]side\b", "", text, flags=re.I)
    if text == question:
        return None
    return re.sub(r"\s+([?.!,])", r"\1", re.sub(r"[ \t]{2,}", " ", text)).strip()


#: The grouping words of every language above ("by", "per", "por", "par", "je", "pro", "nach", "według", ...): the
#: unused-span invariant (router/unused_spans.py) looks for a breakdown no reader took behind the same words.
GROUPING_WORDS = _BY

__all__ = ["GROUPING_WORDS", "company_spellings", "dimension_noun", "every_period", "read_breakdown_words"]
