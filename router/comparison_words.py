"""The words of a period comparison, as data: the base period named relative to the period compared, and the
connectors that set one against the other, in the languages users write.

A base period is said relative to the period the question names ("Oct 2025 vs month before", "Q4 vs prior qtr",
"T4 2025 par rapport au trimestre précédent", "Q1 2026 vs mismo periodo del año anterior"): it is the period
before the named one (or the same period a year earlier), never the last complete period before the as-of date.
:func:`router.analysis.parse_comparison` reads these tables beside its own English patterns; each table here is
one kind of word, so a new language or abbreviation is a new row, not a new pattern in another module. German is
rewritten into English by :mod:`router.german` before the reader sees it (its words live there).
"""

from __future__ import annotations

import re

#: Period units as users abbreviate them (English, French, Spanish, Italian, Dutch).
UNITS = (r"(?:month|mo|mth|quarter|qtr|qrt|q|half(?:[- ]year)?|week|wk|period|"
         r"mois|trimestre|semestre|p[ée]riode|mes|periodo|per[íi]odo|mese|maand|kwartaal|periode|halfjaar)")

#: The period just before the one named, with the unit after the relative word or before it.
PREVIOUS_BASE = (
    # English: "month before", "prev qtr", "the quarter prior", "preceding month", "sequential"
    rf"(?:the\s+)?(?:prev|prv|previous|prior|preceding)\.?\s+{UNITS}\b",
    rf"(?:the\s+)?{UNITS}\s+(?:before|prior|earlier)(?:\s+(?:it|that))?\b",
    r"(?:q-o-q|m-o-m|h-o-h|hoh|h/h|wow|w/w|sequential(?:ly)?)\b",
    # French: "trimestre précédent", "le mois d'avant", "la période antérieure"
    rf"(?:(?:le|la|au|du|à\s+la)\s+)?{UNITS}\s+(?:pr[ée]c[ée]dent(?:e)?|d['’]\s?avant|ant[ée]rieur(?:e)?)\b",
    # (Spanish, Italian, Dutch and Portuguese base words, "mes anterior", "il mese prima", "de maand ervoor",
    # "vorige maand", are written in English by router/period_words.py before this table is read)
)

#: "the previous year" in the languages of the rows below, and in English once rewritten.
_LAST_YEAR = (r"(?:l['’]\s?(?:ann[ée]e|an)\s+(?:derni[èe]re?|pr[ée]c[ée]dente?|pass[ée]e?)|"
              r"a[ñn]o\s+(?:anterior|pasado)|anno\s+(?:precedente|scorso)|vorig\s+jaar|ano\s+(?:anterior|passado)|"
              r"(?:last|previous|prior)\s+year|the\s+year\s+before)\b")
#: The same period one year earlier.
SAME_PERIOD_LAST_YEAR = (
    # a base a year back is the same period a year earlier whatever the unit of the named one ("Q4 2025 vs the
    # year before" is Q4 2024, never Q3 2025; for a year both readings agree)
    r"(?:the\s+)?(?:year|yr)\s+(?:before|prior|earlier)(?:\s+(?:it|that))?\b",
    r"(?:vs\.?|versus|against|compared\s+(?:to|with)|than)\s+(?:the\s+)?(?:previous|prior|preceding)\s+(?:year|yr)\b",
    r"(?:vs\.?|versus|against|compared\s+(?:to|with))\s+(?:ly|py|prior\s+year|the\s+prior\s+year|pyear)\b",
    # "the same period of the previous year" in French, Spanish, Italian, Dutch, Portuguese, as written or after
    # router/period_words.py has written its year words in English ("dezelfde periode last year")
    rf"(?:la\s+|el\s+|lo\s+|o\s+)?(?:m[êe]me|mismo|stesso|(?:de)?zelfde|mesmo)\s+(?:p[ée]riode?|per[íi]odo|"
    rf"trimestre|mois|mes|mese|maand|kwartaal)\s+(?:\S+\s+){{0,2}}?{_LAST_YEAR}",
    r"(?<![\w-])n\s?-\s?1(?![\w-])", r"(?:en\s+)?glissement\s+annuel\b", r"interanual\b", r"anno\s+su\s+anno\b",
    r"jaar[- ]op[- ]jaar\b",
)

#: Words that set two periods or two sides against each other ("vs", "par rapport à", "frente a").
CONNECTORS = (
    # (French and Spanish "par rapport à", "frente a", "comparado con" are written "vs" by router/romance.py)
    r"compar[ée]e?s?\s+avec", r"contre", r"frente\s+al?", r"en\s+comparaci[óo]n\s+con", r"rispetto\s+(?:a|al|alla)",
    r"vergeleken\s+met", r"t\.o\.v\.", r"ten\s+opzichte\s+van",
    # "higher or lower as in Sep '25": the Dutch and Nordic "hoger dan"/"högre än" written "higher as" (before a
    # period only: "as in" after a comparative sets the periods against each other)
    r"(?:higher|lower|more|less|bigger|smaller|greater)\s+(?:or\s+(?:higher|lower|more|less|bigger|smaller)\s+)?"
    r"as(?=\s+(?:in|for|during|over)\b)",
    # "Q4 2025 over Q3 2025", "Mar-26 over Feb-26": "over" between two named periods sets the first against the
    # second (an analyst's growth "over" a base); never before an amount ("invoices in Q1 over 5000")
    r"(?<=\d\s)over(?=\s+(?:the\s+)?(?:q[1-4]|h[12]|fy|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
    r"(?:previous|prior|preceding|last)\s))",
)

#: Words asking for the change itself: its amount, its percent or both ("delta", "chg", "up/down", "écart").
CHANGE = (
    # ("delta" is left out: "Delta" names suppliers; "QoQ delta" compares through its QoQ)
    # ("variance" is the controller's word for the change between two periods; a price, budget or cost variance
    # is read before it as a measure no metric serves, router/routing.py)
    r"chg", r"variances?", r"up\s*/\s*down", r"down\s*/\s*up", r"[ée]cart", r"variation", r"variaci[óo]n",
    r"diferencia", r"variazione", r"differenza", r"verschil", r"afwijking",
)


#: Base words that compare by themselves, with no "vs" ("QoQ", "en glissement annuel", "N-1", "interanual").
INHERENT = (r"q-o-q", r"m-o-m", r"h-o-h", r"hoh", r"h/h", r"wow", r"w/w", r"sequential(?:ly)?", r"glissement",
            r"interanual", r"n\s?-\s?1", r"anno\s+su\s+anno", r"jaar[- ]op[- ]jaar")


#: ("delta" is left out: read as one question, "Delta EUR + %" names the supplier Delta where one exists, a silent
#: filter; as a part of its own it stays beside the comparison, which states its delta anyway.)
#: The words a part may consist of when it only asks how the change is given ("- how much up/down (EUR and %)",
#: "- diff EUR + %", "- Abweichung absolut und in %", "- écart en EUR et en %"): amount, percent, direction.
OUTPUT_WORDS = frozenset("""
how much many far big by did has it was is the what's whats what change changes changed chg diff difference
differences var variance move moved up down higher lower more less increase decrease rise fall went go gone abs
absolute absolut relative rel pct percent percentage prozent pourcentage porcentaje percentuale procent in en and
und et y e en als plus also both as well terms amount amounts eur euro euros € % qoq mom yoy q/q m/m y/y please pls
plz thx thanks ty asap écart ecart variation variación variacion diferencia variazione differenza verschil
afwijking abweichung veränderung differenz or
need needed want wanted require required give show provide share send kindly both
""".split())  # noqa: SIM905 - a word list reads better as text
_OUTPUT_TOKEN = re.compile(r"[%€]|[^\W\d_]+(?:['’][a-z]+)?|/|\+|&|\d+", re.I)


def change_output_only(part: str, reporting: str = "EUR") -> bool:
    """Whether ``part`` only says how the change before it is wanted (its amount, its percent, its direction), so
    it is that comparison's own answer and no ask of its own. ``reporting``: the currency the amount is in."""
    tokens = [t.lower() for t in _OUTPUT_TOKEN.findall(part) if t not in ("/", "+", "&")]
    words = OUTPUT_WORDS | {reporting.lower()}
    return bool(tokens) and all(t in words for t in tokens) and any(t not in _FILLER for t in tokens)


#: Output words that ask nothing by themselves ("in", "and", "EUR"): a part of only these is no change ask.
_FILLER = frozenset("""
in en and und et y e als plus also both as well terms amount amounts eur euro euros € please pls plz thx thanks ty
asap the it is was by need needed want wanted require required give show provide share send kindly
""".split())  # noqa: SIM905 - a word list reads better as text


#: Comparatives that set one side above the other ("how much more ... than", "quanto a mais ... do que", "cuánto
#: más ... que", "wie viel mehr ... als", "hoeveel meer ... dan", "di quanto in più ... che"), in the languages the
#: writers mix in; and the words that introduce the other side after one.
COMPARATIVES = (r"more|less|fewer|higher|lower|bigger|greater|smaller|larger|mais|menos|m[áa]s|plus|moins|mehr|"
                r"weniger|meer|minder|pi[ùu]|meno|mer|mindre|flere|wi[ęe]cej|mniej|enemm[äa]n|v[äa]hemm[äa]n")
THAN = r"than|do\s+que|da\s+que|que|als|dan|che|di|[äa]n|enn|end|ni[żz]|kuin"
#: Words that set two sides against each other by themselves ("vs", "compared with", "comparado com").
VERSUS = (r"vs\.?|versus|compared|comparado|comparada|compar[ée]e?s?|verglichen|vergeleken|confrontat[oa]|"
          r"jämfört|sammenlignet|w\s+por[óo]wnaniu")


def alternation(rows: tuple[str, ...]) -> str:
    """One regex alternative of a table's rows, each anchored at a word start."""
    return "|".join(rf"\b{row}" if row[0] not in "(?" else rf"\b(?:{row})" for row in rows)


PREVIOUS_RE = re.compile(alternation(PREVIOUS_BASE), re.I)
SAME_LAST_YEAR_RE = re.compile(alternation(SAME_PERIOD_LAST_YEAR), re.I)
CONNECTOR_RE = re.compile(alternation(CONNECTORS), re.I)
CHANGE_RE = re.compile(rf"(?:{alternation(CHANGE)})(?![\w])", re.I)
INHERENT_RE = re.compile(alternation(INHERENT), re.I)

__all__ = ["CHANGE", "CHANGE_RE", "COMPARATIVES", "CONNECTORS", "CONNECTOR_RE", "INHERENT", "INHERENT_RE",
           "OUTPUT_WORDS", "PREVIOUS_BASE", "PREVIOUS_RE", "SAME_LAST_YEAR_RE", "SAME_PERIOD_LAST_YEAR", "THAN",
           "UNITS", "VERSUS", "alternation", "change_output_only"]
