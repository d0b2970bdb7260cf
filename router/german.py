"""Questions phrased in German, read through the same reader as English ones.

German sites type "Ausgaben von Company A für Drucksensoren im 1. Quartal 2026". Group names in German already
resolve (the catalogue's synonyms); this module rewrites the German *function* vocabulary (metric words,
periods, prepositions, filters, breakdowns) into the English phrasing the reader knows, so that every constraint
goes through the one reading with its span accounting. Names are never rewritten: no pattern below touches a
capitalised word that is not in this vocabulary, so a supplier, company or group name reaches the reader as
typed (and an unknown one is still named back). A question is rewritten only when it carries a German marker
word; English questions, and English questions naming a German group, pass unchanged. The answer states the
rewritten reading, so a user can see how the German was understood.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Iterable

from router.catalog_words import MARKERS as CATALOG_MARKERS
from router.catalog_words import read_catalog_words
from router.german_shopfloor import expand_shorthand, is_shorthand_german

_I = re.I | re.UNICODE

#: Words that make a question German (a group synonym alone does not).
_MARKERS = re.compile(
    r"\b(?:ausgaben|gesamtausgaben|ausgegeben|wie\s+viel(?:e)?|quartal|halbjahr|gesch(?:ä|ae)ftsjahr|lieferant(?:en)?|"
    r"rechnung(?:en)?|gutschrift(?:en)?|f(?:ü|ue)r|bei|seit|zwischen|welche[rsn]?|waren|wurden|haben|hat|"
    r"unsere[rnm]?|ohne|au(?:ß|ss)er|anteil|anzahl|monatlich\w*|durchschnitt\w*|genehmigt\w*|zugelassen\w*|"
    r"st(?:ü|ue)ckpreis\w*|einzelpreis\w*|w(?:ä|ae)hrung\w*|"
    r"vorjahr\w*|vorquartal|vormonat|gegen(?:ü|ue)ber|ggü\.?|ver(?:ä|ae)nderung\w*|im|vom|bis|quartale?n?|monate?n?|tage?n?|wochen?|"
    r"\w*tausend|\w*hundert|millionen|mio|mrd|tsd|milliarden?|h(?:ä|ae)lfte|posten|st(?:ü|ue)ck|summe|"
    r"ausgenommen|exklusive|aufgeteilt|aufgeschl(?:ü|ue)sselt|prozent|viertel\w*|drittel|storniert\w*|entw(?:ü|ue)rf\w*|"
    r"beglichen\w*|strittig\w*|entw(?:ü|ue)rfe|nach|wie\s+hoch|betrag|(?:original)?betr(?:ä|ae)ge|st(?:ü|ue)ckzahl\w*|bezogen|eingekauft|"
    r"gekauft|rechnungs\w+|monats\w+|aufstellung|januar|februar|m(?:ä|ae)rz|mai|juni|juli|oktober|dezember)\b",
    _I,
)

_MONTHS_DE = {
    "januar": "January", "jänner": "January", "februar": "February", "märz": "March", "maerz": "March",
    "mai": "May", "juni": "June", "juli": "July", "oktober": "October", "dezember": "December",
    # the German abbreviations that differ from the English ones ("Okt bis Dez 2025", "Mrz.-Mai")
    "jän": "January", "mär": "March", "mrz": "March", "okt": "October", "dez": "December",
}
_ORD = {"1": "1", "erste": "1", "ersten": "1", "erstes": "1", "2": "2", "zweite": "2", "zweiten": "2",
        "zweites": "2", "3": "3", "dritte": "3", "dritten": "3", "4": "4", "vierte": "4", "vierten": "4"}
_ORD_WORDS = r"(?:([1-4])\.|(erste[nsr]?|zweite[nsr]?|dritte[nsr]?|vierte[nsr]?))"
#: (only the ordinals 1. to 4.: "5. Halbjahr", "13. Monat" name no period and are asked about in router/periods.py)
_ORD_EN = {"1": "first", "2": "second", "3": "third", "4": "fourth"}
_LAST = r"(?:letzte[nmsr]?|vorige[nmsr]?|vergangene[nmsr]?)"
_THIS = r"(?:diese[nmsr]?)"
#: The unit of a base period said as "<unit> davor" ("Quartal davor": the quarter before the one named).
_UNIT_BEFORE = {"monat": "month", "quartal": "quarter", "halbjahr": "half", "woche": "week", "zeitraum": "period",
                "periode": "period"}
_UNITS_DE = {"tag": "days", "tage": "days", "tagen": "days", "woche": "weeks", "wochen": "weeks",
             "monat": "months", "monate": "months", "monaten": "months", "quartal": "quarters",
             "quartale": "quarters", "quartalen": "quarters", "jahr": "years", "jahre": "years", "jahren": "years"}

# --- German numbers -------------------------------------------------------------------------------------------
_DE_UNITS = {
    "null": 0, "eins": 1, "einen": 1, "einer": 1, "eine": 1, "ein": 1, "zwei": 2, "zwo": 2, "drei": 3, "vier": 4,
    "fünf": 5, "fuenf": 5, "sechs": 6, "sieben": 7, "acht": 8, "neun": 9, "zehn": 10, "elf": 11, "zwölf": 12,
    "zwoelf": 12, "dreizehn": 13, "vierzehn": 14, "fünfzehn": 15, "fuenfzehn": 15, "sechzehn": 16, "siebzehn": 17,
    "achtzehn": 18, "neunzehn": 19, "zwanzig": 20, "dreißig": 30, "dreissig": 30, "vierzig": 40, "fünfzig": 50,
    "fuenfzig": 50, "sechzig": 60, "siebzig": 70, "achtzig": 80, "neunzig": 90,
}
_DE_SCALES = {"hundert": 100, "tausend": 1000, "million": 1_000_000, "millionen": 1_000_000,
              "milliarde": 1_000_000_000, "milliarden": 1_000_000_000}
_DE_MORPHEMES = "|".join(sorted({*_DE_UNITS, *_DE_SCALES, "und"}, key=len, reverse=True))
#: A number in words, one word ("zweihundertfünfzigtausend") or with its scale apart ("fünf Tausend", "eine Million").
_DE_NUMBER = re.compile(
    rf"(?<![\w-])(?<!\d\s)(?<![\d.,]\s)((?:{_DE_MORPHEMES})+)((?:\s+(?:{'|'.join(_DE_SCALES)}))*)(?![\w-])", _I)
_DE_MORPHEME = re.compile(_DE_MORPHEMES, _I)
#: Digits with a German scale word: "1,5 Mio.", "2 Millionen", "10 Tsd.", "5 Tausend", "3 Mrd.".
_DE_DIGIT_SCALE = re.compile(r"(?<![\w.,])(\d+(?:,\d+)?)\s?(mio\.?|millionen|million|mrd\.?|milliarden?|tsd\.?|"
                             r"tausend)(?![\w])", _I)
_DE_DIGIT_WORDS = {"mio": "million", "millionen": "million", "million": "million", "mrd": "billion",
                   "milliarde": "billion", "milliarden": "billion", "tsd": "thousand", "tausend": "thousand"}


def german_number(words: str) -> int | None:
    """An integer written in German words ("zehntausend", "fünf Tausend", "zweihundertfünfzig", "eine Million"),
    or ``None`` when the text is not one.

    >>> german_number("zweihundertfünfundzwanzigtausend"), german_number("fünf Tausend"), german_number("Tisch")
    (225000, 5000, None)
    """
    compact = re.sub(r"\s+", "", words.lower())
    morphemes = _DE_MORPHEME.findall(compact)
    if not morphemes or "".join(morphemes) != compact:
        return None
    total, current, seen = 0, 0, False
    for word in morphemes:
        if word == "und":
            continue
        if word in _DE_UNITS:
            current += _DE_UNITS[word]
        elif word == "hundert":
            current = (current or 1) * 100
        else:
            total += (current or 1) * _DE_SCALES[word]
            current = 0
        seen = True
    return total + current if seen else None


def _number_words(match: re.Match[str]) -> str:
    text = match.group(0)
    value = german_number(text)
    if value is None or text.lower() in ("ein", "eine", "einen", "einer", "eins", "und", "null"):
        return text  # an article ("eine Rechnung") or a bare "und" stays a word
    return str(value)


def _digit_scale(match: re.Match[str]) -> str:
    return f"{match.group(1).replace(',', '.')} {_DE_DIGIT_WORDS[match.group(2).lower().rstrip('.')]}"


#: Fractions before a scale or of a whole, read before the number words ("eine halbe Million" is no "1000000"):
#: amounts ("über eine Viertelmillion Euro") and shares ("mehr als ein Viertel der Ausgaben").
_DE_FRACTIONS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, _I), r) for p, r in (
    # as decimals: the number words below would read a bare "million" as 1000000
    (r"\b(?:eine\s+)?halbe\s+million\b", "0.5 million"),
    (r"\b(?:eine\s+)?viertel\s*million\b", "0.25 million"),
    (r"\b(?:anderthalb|eineinhalb)\s+millionen\b", "1.5 million"),
    (r"\b(?:die|der)\s+h(?:ä|ae)lfte\b", "half"),
    (r"\bein(?:e[nm]?)?\s+viertel\b", "a quarter"),
    (r"\bdrei\s+viertel\b|\bdreiviertel\b", "three quarters"),
    (r"\bein(?:e[nm]?)?\s+drittel\b", "a third"),
    (r"\bzwei\s+drittel\b", "two thirds"),
    (r"\s?prozent\b", "%"),
))


def german_fractions(text: str) -> str:
    """German fractions as English words, before the number words are read.

    >>> german_fractions("über eine Viertelmillion Euro, mehr als ein Viertel, über zehn Prozent")
    'über 0.25 million Euro, mehr als a quarter, über zehn%'
    """
    for pattern, replacement in _DE_FRACTIONS:
        text = pattern.sub(replacement, text)
    return text


def german_numbers(text: str) -> str:
    """German numbers in words and German scale words after digits as English digits and words.

    >>> german_numbers("über zehntausend Euro und unter 1,5 Mio. €")
    'über 10000 Euro und unter 1.5 million €'
    """
    text = _DE_DIGIT_SCALE.sub(_digit_scale, text)
    return _DE_NUMBER.sub(_number_words, text)


def _ordinal(match: re.Match[str]) -> str:
    return _ORD[(match.group(1) or match.group(2)).lower()]


_DAY_ORDINALS = ("erst", "zweit", "dritt", "viert", "fünft", "sechst", "siebt", "acht", "neunt", "zehnt", "elft",
                 "zwölft", "dreizehnt", "vierzehnt", "fünfzehnt", "sechzehnt", "siebzehnt", "achtzehnt", "neunzehnt",
                 "zwanzigst", "einundzwanzigst", "zweiundzwanzigst", "dreiundzwanzigst", "vierundzwanzigst",
                 "fünfundzwanzigst", "sechsundzwanzigst", "siebenundzwanzigst", "achtundzwanzigst",
                 "neunundzwanzigst", "dreißigst", "einunddreißigst")
_DAY_NUMBERS = {word: day for day, word in enumerate(_DAY_ORDINALS, start=1)}
_MONTH_NUMBERS = {"januar": 1, "jänner": 1, "februar": 2, "märz": 3, "maerz": 3, "april": 4, "mai": 5, "juni": 6,
                  "juli": 7, "august": 8, "september": 9, "oktober": 10, "november": 11, "dezember": 12}
#: The German month names and their numbers, for the other period readers (router/period_grammar.py).
GERMAN_MONTHS: dict[str, int] = _MONTH_NUMBERS
#: A German calendar day: "3. März 2026", "am dritten März 2026", "1. Januar" (its year then the next one named).
_DE_DAY = re.compile(
    rf"\b(?:(\d{{1,2}})\.|({'|'.join(sorted(_DAY_ORDINALS, key=len, reverse=True))})e[nrs]?)\s*"
    rf"({'|'.join(_MONTH_NUMBERS)})\b(?:\s+(\d{{4}}))?", _I)
_FOUR_DIGIT_YEAR = re.compile(r"(?<![\w.-])((?:19|20)\d{2})(?![\w.-])")


def german_days(text: str) -> str:
    """German calendar days as ISO dates; a day without its year takes the next year the question names
    ("vom 1. Januar bis 31. März 2026"), and stays as written when there is none.

    >>> german_days("vom dritten März 2026 bis zum 31. März 2026")
    'vom 2026-03-03 bis zum 2026-03-31'
    """
    def iso(match: re.Match[str]) -> str:
        day = int(match.group(1)) if match.group(1) else _DAY_NUMBERS[match.group(2).lower()]
        year_text = match.group(4)
        if year_text is None:
            later = _FOUR_DIGIT_YEAR.search(text, match.end())
            if later is None:
                return match.group(0)
            year_text = later.group(1)
        try:
            return dt.date(int(year_text), _MONTH_NUMBERS[match.group(3).lower()], day).isoformat()
        except ValueError:
            return match.group(0)

    return _DE_DAY.sub(iso, _DE_DAY_SPAN.sub(_day_span, text))


#: Days of one month, the first written as a bare day ("zwischen 1. und 15. März 2026", "1.-15. März"): both in
#: that month, read by router/periods.py's day span ("between 1 and 15 March 2026", the second day included).
#: Read as two ISO days, the bare first day would be dropped and the second read as an exclusive end.
_DE_DAY_SPAN = re.compile(
    rf"\b(\d{{1,2}})\.\s*(und|bis|-|–)\s*(\d{{1,2}})\.\s*({'|'.join(_MONTH_NUMBERS)})\b(?:\s+(\d{{4}}))?", _I)


def _day_span(match: re.Match[str]) -> str:
    month = calendar.month_name[_MONTH_NUMBERS[match.group(4).lower()]]
    glue = "and" if match.group(2).lower() == "und" else "to"
    year = f" {match.group(5)}" if match.group(5) else ""
    return f"{match.group(1)} {glue} {match.group(3)} {month}{year}"


#: What follows a comparator that compares amounts or shares: money, a number, or a fraction ("über die Hälfte",
#: read as "half" by :func:`german_fractions`); elsewhere "über" is "about".
_AHEAD = r"(?=\s*(?:[€$£]|\d|eur\b|half\b|a\s+(?:quarter|third)\b|two\s+thirds\b|three\s+quarters\b))"
_BOUGHT = r"(?:eingekauft|gekauft|bezogen|bestellt)\b"
_LISTED_DE = {"produkte": "products", "artikel": "products", "lieferanten": "suppliers",
              "warengruppen": "product groups"}
#: (pattern, replacement), applied in order; longer phrases before the words inside them.
_RULES: tuple[tuple[re.Pattern[str], object], ...] = tuple(
    (re.compile(p, _I), r)
    for p, r in (
        # what was bought, the verb last: "Bei welchen Lieferanten hat X im Q1 eingekauft?", "Welche Produkte hat
        # X von Beta bezogen?": the English listing frame ("which suppliers did X buy from")
        (rf"\b(?:bei|von)\s+welchen\s+lieferanten\s+(?:hat|haben)\s+(.+?)\s+{_BOUGHT}",
         r"which suppliers did \1 buy from"),
        (rf"\bwelche\s+(produkte|artikel|lieferanten|warengruppen)\s+(?:hat|haben)\s+(.+?)\s+{_BOUGHT}",
         lambda m: f"which {_LISTED_DE[m.group(1).lower()]} did {m.group(2)} buy"),
        # the invoices themselves: "Rechnungsnummern Company B, März", "Rechnungsliste ...", "Rechnungsübersicht"
        (r"\b(?:rechnungs(?:nummern|liste|(?:ü|ue)bersicht|aufstellung)|liste\s+(?:der|aller)\s+rechnungen)\b",
         "list invoices"),
        # monthly totals: "Monatssummen", "Monatliche Aufstellung", "Monatsübersicht": spend by month
        (r"\b(?:monats(?:summen?|werte|aufstellung|(?:ü|ue)bersicht|auswertung|aufschl(?:ü|ue)sselung)|"
         r"monatliche[nrsm]?\s+(?:aufstellung|(?:ü|ue)bersicht|auswertung|aufschl(?:ü|ue)sselung|summen?|werte))\b",
         "spend by month"),
        # quantities: "Stückzahl", "wie viele Stück": purchased units
        (r"\bwie\s+viele\s+st(?:ü|ue)ck\b", "how many units"),
        (r"\bst(?:ü|ue)ckzahl(?:en)?\b|\bmenge\b", "units"),
        # the amount asked for: "wie hoch ist der gebuchte Betrag", "wie hoch waren die Ausgaben": the spend
        (r"\bwie\s+hoch\s+(?:ist|war|sind|waren)\s+(?:der|die|das)\s+(?:gebuchte[nr]?\s+|gesamte[nr]?\s+)?"
         r"(?:betrag|summe|ausgaben|volumen|einkaufsvolumen)\b", "how much is the spend"),
        (r"\bgebuchte[nr]?\s+betrag\b|\bbetrag\b", "spend"),
        (rf"\bvon\s+([^,?;]+?)\s+{_BOUGHT}", r"from \1"),
        (rf"\b{_BOUGHT}", "bought"),
        # periods: an open start and an end ("vom 2026-01-01 bis Ende des ersten Quartals 2026")
        (r"\bvo[nm]\s+(\d{4}-\d{2}-\d{2})\s+bis\s+(?:zum\s+)?ende\b", r"since \1 bis ende"),
        (rf"\bbis\s+(?:zum\s+)?ende\s+(?:des\s+)?{_ORD_WORDS}\s*(?:quartals?|vierteljahr(?:es)?)\s+(\d{{4}})\b",
         lambda m: f"until the end of Q{_ordinal(m)} {m.group(3)}"),
        (rf"\bbis\s+(?:zum\s+)?ende\s+(?:des\s+|der\s+)?{_ORD_WORDS}\s*(?:halbjahr(?:es)?|(?:jahres)?h(?:ä|ae)lfte)\s+"
         rf"(\d{{4}})\b", lambda m: f"until the end of H{_ordinal(m)} {m.group(3)}"),
        # halves of a year and quarters as "Vierteljahr": "in der zweiten Hälfte 2025", "erste Jahreshälfte"
        (rf"\b(?:in\s+der\s+|die\s+)?{_ORD_WORDS}\s*(?:jahres)?h(?:ä|ae)lfte\s+(?:des\s+jahres\s+)?(\d{{4}})\b",
         lambda m: f" in H{_ordinal(m)} {m.group(3)}"),
        (rf"\b(?:in\s+der\s+|die\s+)?{_ORD_WORDS}\s*(?:jahres)?h(?:ä|ae)lfte\b",
         lambda m: f" in the {_ORD_EN[_ordinal(m)]} half"),
        (rf"\b(?:im|in)?\s*{_ORD_WORDS}\s*vierteljahr(?:es)?\s+(\d{{4}})\b",
         lambda m: f" in Q{_ordinal(m)} {m.group(3)}"),
        (rf"\b(?:im|in|für\s+das|fürs)?\s*{_ORD_WORDS}\s*quartals?\s+(\d{{4}})\b",
         lambda m: f" in Q{_ordinal(m)} {m.group(3)}"),
        (rf"\b(?:im|in)?\s*{_ORD_WORDS}\s*halbjahr\s+(\d{{4}})\b", lambda m: f" in H{_ordinal(m)} {m.group(3)}"),
        # without a year: the most recent one that has started, as "in the first quarter" reads in English
        (rf"\b(?:im|in|für\s+das|fürs)?\s*{_ORD_WORDS}\s*quartals?\b",
         lambda m: f" in the {_ORD_EN[_ordinal(m)]} quarter"),
        (rf"\b(?:im|in)?\s*{_ORD_WORDS}\s*halbjahr\b", lambda m: f" in the {_ORD_EN[_ordinal(m)]} half"),
        (r"\b(?:im\s+)?gesch(?:ä|ae)ftsjahr\s+(\d{4})\b", r"in FY\1"),
        (r"\b(?:im\s+)?jahre?\s+(\d{4})\b", r"in \1"),
        # comparisons with the year or month before, before "im Vorjahr" as a period
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|vs\.?|im\s+vergleich\s+zu[mr]?)\s+(?:dem\s+)?vorjahr\b",
         "compared with last year"),
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|vs\.?|im\s+vergleich\s+zu[mr]?)\s+(?:dem\s+)?vormonat\b",
         "compared with the previous month"),
        # "in den ersten drei Monaten 2026", "die letzten 2 Quartale des Jahres 2025": months of a named year
        (r"\b(?:in\s+den\s+|die\s+|der\s+)?(ersten|letzten)\s+(\d{1,2})\s+(monaten?|monate|quartalen?|quartale)\s+"
         r"(?:des\s+jahres\s+|von\s+|in\s+)?(\d{4})\b",
         lambda m: f" in the {'first' if m.group(1).lower() == 'ersten' else 'last'} {m.group(2)} "
                   f"{_UNITS_DE[m.group(3).lower()]} of {m.group(4)}"),
        # rolling windows: "in den letzten 3 Monaten", "letzte 90 Tage" (numbers in words are digits by now)
        (rf"\b(?:in\s+den\s+|während\s+der\s+|der\s+|die\s+)?{_LAST}\s+(\d{{1,3}})\s+"
         r"(tagen?|tage|wochen?|monaten?|monate|quartalen?|quartale|jahren?|jahre)\b",
         lambda m: f" in the last {m.group(1)} {_UNITS_DE[m.group(2).lower()]}"),
        (rf"\b(?:im\s+|in\s+der\s+)?{_LAST}\s+quartal\b", "last quarter"),
        (rf"\b(?:im\s+|in\s+der\s+)?{_LAST}\s+monat\b|\b(?:im\s+)?vormonat\b", "last month"),
        (rf"\b(?:im\s+|in\s+der\s+)?{_LAST}\s+jahr\b|\b(?:im\s+)?vorjahr\b", "last year"),
        (rf"\b(?:in\s+der\s+)?{_LAST}\s+woche\b|\bvorwoche\b", "last week"),
        (rf"\b(?:in\s+)?{_THIS}\s+quartal\b", "this quarter"),
        (rf"\b(?:in\s+)?{_THIS}\s+monat\b", "this month"),
        (rf"\b(?:in\s+)?{_THIS}\s+jahr\b", "this year"),
        (rf"\b(?:in\s+)?{_THIS}\s+woche\b", "this week"),
        (r"\b(?:im\s+)?(?:laufenden|aktuellen)\s+quartal\b", "this quarter"),
        (r"\b(?:im\s+)?(?:laufenden|aktuellen)\s+jahr\b|\bseit\s+jahres(?:beginn|anfang)\b", "year to date"),
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|vs\.?|im\s+vergleich\s+zum?)\s+(?:dem\s+)?vorjahres(?:quartal|zeitraum)\b",
         "compared with the same quarter last year"),
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|vs\.?|im\s+vergleich\s+zum?)\s+(?:dem\s+)?vorquartal\b",
         "compared with the previous quarter"),
        # the base said relative to the period named ("Q4 2025 im Vgl. zum Quartal davor", "ggü. Vorperiode"): the
        # period before the named one (router/comparison_words.py reads the English it becomes)
        (r"\bim\s+vgl\.?\s+zu[mr]?\b|\bverglichen\s+mit\b", "vs"),
        (r"\b(?:de[mnr]\s+|das\s+|die\s+)?(monat|quartal|halbjahr|woche|zeitraum|periode)\s+(?:davor|zuvor|vorher)\b",
         lambda m: f"the {_UNIT_BEFORE[m.group(1).lower()]} before"),
        (r"\b(?:de[mnr]\s+|die\s+)?vorperiode\b", "the previous period"),
        # "wie viel mehr ging an A ggü. B": how much more went to one side than to the other
        (r"\bwie\s?viel\s+(mehr|weniger)\s+(?:ging(?:en)?|wurde\s+(?:ausgegeben|bezahlt|gezahlt))\b",
         lambda m: f"how much {'more' if m.group(1).lower() == 'mehr' else 'less'} went"),
        # the change asked for itself ("Abweichung absolut und in %", "Differenz in EUR")
        (r"\babweichung(?:en)?\b", "change"),
        # "im Vorquartal" alone: the previous quarter as the period
        (r"\b(?:im\s+)?vorquartal\b", "last quarter"),
        # "Veränderung in %", "prozentuale Veränderung": the change between two periods
        (r"\b(?:prozentuale\s+)?ver(?:ä|ae)nderung(?:en)?\b", "change"),
        # "März gegenüber Februar 2026": two periods set against each other
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|im\s+vergleich\s+zu[mr]?)(?=\s)", "vs"),
        (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: f"{m.group(3)}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"),
        (r"\bzwischen\s+(\S+)\s+und\s+(\S+)", r"between \1 and \2"),
        (r"\bzwischen\b", "between"),
        # "vom 1. März bis zum 31. März": German "bis" includes its day (the English "until" does too)
        (r"\bvo[nm]\s+(\d{4}-\d{2}-\d{2})\s+bis\s+(?:zum\s+|einschlie(?:ß|ss)lich\s+)?(\d{4}-\d{2}-\d{2})",
         r"since \1 until \2"),
        # "2026 bisher", "seit Q3 2025 bis heute": up to the as-of date
        (r"\b(?:bisher|bislang|bis\s+heute|bis\s+dato|bis\s+jetzt)\b", "so far"),
        (r"\bgab\s+es\b", "were there"),
        (r"\bseit\s+(?:anfang|beginn)\s+", "since "),
        (r"\bseit\b", "since"),
        # open ends: "bis Ende März", "bis zum Ende des ersten Quartals", "bis März" (not "bis zu 5.000 €")
        (r"\bbis\s+(?:zum\s+)?ende\s+(?:des\s+|der\s+|von\s+)?", "until the end of "),
        (r"\bbis\s+(?:zum\s+|einschlie(?:ß|ss)lich\s+)?(?=\d{4}-\d{2}-\d{2}|q[1-4]\b|"
         + "|".join(_MONTHS_DE) + r"|april|august|september|november|(?:jan|feb|apr|jun|jul|aug|sept?|nov)\b)",
         "until "),
        (r"\bund\b", "and"),
        # "Okt. - Dez. 2025": an abbreviation's dot is no sentence end (read, "December. in 2025" splits the range)
        (r"\b(jän|mär|mrz|okt|dez)\.", lambda m: _MONTHS_DE[m.group(1).lower()]),
        (r"\b(" + "|".join(_MONTHS_DE) + r")\b", lambda m: _MONTHS_DE[m.group(1).lower()]),
        # changes ("Wie haben sich die Ausgaben ... verändert?")
        (r"\bwie\s+(?:hat|haben)\s+sich\b", "how did"),
        (r"\b(?:ver(?:ä|ae)nder(?:t|ten|ung)|entwickelt|entwicklung)\b", "change"),
        (r"\b(?:gestiegen|angestiegen|anstieg|zugenommen)\b", "increased"),
        (r"\b(?:gesunken|gefallen|r(?:ü|ue)ckgang|abgenommen)\b", "decreased"),
        # metric words and question frames
        (r"\bwie\s+viele\b", "how many"),
        (r"\bwie\s+viel\s+(?:haben\s+wir|hat)\b", "how much did"),
        (r"\bwie\s+viel\b", "how much"),
        # "die größten Lieferanten nach Ausgaben": what a ranking orders by
        (r"\b(?:nach|gemessen\s+an)\s+(?:den\s+|dem\s+)?(?:(?:gesamt)?ausgaben|einkaufsvolumen|volumen|umsatz)\b",
         "by spend"),
        (r"\ban\s+(?:den\s+)?(?:gesamt)?ausgaben\b|\bder\s+(?:gesamt)?ausgaben\b", "of the spend"),
        # "Anteil Company B am Gesamtvolumen": the whole of a share, the total spend
        (r"\b(?:am|an\s+dem|des)\s+(?:gesamt(?:einkaufs)?volumen|gesamtumsatz|einkaufsvolumen)\b",
         "of the total spend"),
        # "Anteil der Reagenzien an den Laborausgaben": the part of a share, then the whole it is a part of
        (r"\banteil\s+(?:der|des|von)\b", "share of"),
        (r"\ban\s+(?:den|der|dem)\s+(?=[^\W\d_]{3,}ausgaben\b)", "in the "),
        # a compound of what was bought and "Ausgaben" ("Laborausgaben", "Reagenzienausgaben"): its spend
        (r"\b(?!gesamt|jahres|monats|quartals|halbjahres)([^\W\d_]{3,}?)ausgaben\b", r"\1 spend"),
        (r"\b(?:gesamt)?ausgaben\b|\b(?:gesamt)?(?:einkaufs)?volumen\b", "spend"),
        (r"\bausgegeben\b", "spend"),
        (r"\b(?:durchschnittliche[rn]?\s+(?:st(?:ü|ue)ck)?preis|durchschnittspreis|durchschnittlicher\s+"
         r"einzelpreis)\b", "average unit price"),
        (r"\b(?:st(?:ü|ue)ck|einzel)preis(?:e)?\b", "unit price"),
        (r"\banzahl\s+(?:der\s+)?\b", "number of "),
        (r"\banteil\b", "share"),
        (r"\bzahlungsbedingungen\b", "payment terms"),
        (r"\b(?:in\s+)?(?:original|rechnungs)w(?:ä|ae)hrung\b", "in the invoice currency"),
        # "in welcher Währung", "Währung + Beträge", "Originalbeträge": the invoice currencies and their amounts
        (r"\b(?:in\s+)?welche[rnms]?\s+w(?:ä|ae)hrung(?:en)?\b", "which currency"),
        # (not "nach/je/pro Währung": the grouping, read by the reader as German)
        (r"(?<!nach\s)(?<!\bje\s)(?<!pro\s)(?<!der\s)\bw(?:ä|ae)hrung(?:en)?\b", "currency"),
        (r"\boriginalbetr(?:ä|ae)ge?\b", "original amounts"),
        (r"\bbetr(?:ä|ae)ge\b", "amounts"),
        # filters and breakdowns
        # the verb only: the grouping word after it ("nach Monat") is read by the rules below
        (r"\b(?:aufgeteilt|aufgeschl(?:ü|ue)sselt|gegliedert|unterteilt)\s+(?=(?:nach|pro|je)\b)", "broken down "),
        # the adjective before the spend ("monatliche Ausgaben"): its English adjective
        (r"\bmonatliche[nrsm]?\b", "monthly"),
        (r"\b(?:viertelj(?:ä|ae)hrliche[nrsm]?|quartalsweise[nrsm]?)\b(?=\s+\w)", "quarterly"),
        (r"\bj(?:ä|ae)hrliche[nrsm]?\b", "yearly"),
        (r"\b(?:nach|pro|je)\s+monat(?:en)?\b|\bmonatlich\b|\bmonatsweise\b", "by month"),
        (r"\b(?:nach|pro|je)\s+quartal(?:en)?\b|\bquartalsweise\b|\bviertelj(?:ä|ae)hrlich\b", "by quarter"),
        (r"\b(?:nach|pro|je)\s+jahr(?:en)?\b|\bj(?:ä|ae)hrlich\b", "by year"),
        (r"\b(?:nach|pro|je)\s+lieferant(?:en)?\b", "by supplier"),
        # the scope of all the tenant's companies: "alle Gesellschaften", "beide Firmen", "konzernweit"
        (r"\b(?:(?:ü|ue)ber|f(?:ü|ue)r)\s+(?:alle|s(?:ä|ae)mtliche)\s+(?:unsere[n]?\s+)?(?:gesellschaften|firmen|"
         r"unternehmen|konzerngesellschaften)\b", "across all companies"),
        (r"\b(?:alle[nr]?|s(?:ä|ae)mtliche[nr]?)\s+(?:unsere[nr]?\s+)?(?:gesellschaften|firmen|unternehmen|"
         r"konzerngesellschaften)\b", "all companies"),
        (r"\bbeide[nrn]?\s+(?:gesellschaften|firmen|unternehmen)\b", "both companies"),
        (r"\bkonzernweit\b", "group-wide"),
        # the level of the groups: "Hauptwarengruppe", "oberste Warengruppe", "(oberste Ebene)" name the top level
        (r"\b(?:nach|pro|je)\s+(?:(?:der|den)\s+)?(?:haupt(?:waren)?gruppen?|oberkategorien?|hauptkategorien?|"
         r"obersten?\s+(?:waren)?gruppen?)\b", "by top-level product group"),
        (r"\b(?:der\s+)?oberste[nr]?\s+(?:ebene|stufe)\b", "top level"),
        (r"\b(?:nach|pro|je)\s+warengruppe(?:n)?\b", "by product group"),
        (r"\b(?:nach|pro|je)\s+kategorien?\b", "by category"),
        (r"\b(?:nach|pro|je)\s+(?:produkt(?:en)?|artikel(?:n)?)\b", "by product"),
        # "Top 3 Artikel nach Ausgaben": the articles ranked are the products
        (r"\bartikeln?\b", "products"),
        # "welches Produkt der Sensoren": the products of a group ranked or listed
        (r"\bprodukte[n]?\b", "products"), (r"\bprodukt(?:s|es)?\b", "product"),
        (r"\b(products?)\s+(?:der|des|von|aus\s+den)\b", r"\1 of"),
        # "nach Kostenstelle": a grouping no governed metric offers, named back in English
        (r"\b(?:nach|pro|je)\s+(?:kostenstellen?)\b", "by cost center"),
        (r"\b(?:nach|pro|je)\s+(?:regionen?)\b", "by region"),
        (r"\b(?:nach|pro|je)\s+(?:abteilungen?)\b", "by department"),
        (r"\b(?:nach|pro|je)\s+(?:werken?|standorten?)\b", "by plant"),
        (r"\b(?:nach|pro|je)\s+(?:eink(?:ä|ae)ufern?)\b", "by buyer"),
        # invoice statuses: cancelled, disputed and draft invoices are named back, never totalled as spend
        (r"\bstorniert\w*\b", "cancelled"),
        (r"\b(?:strittig|bestritten|beanstandet)\w*\b", "disputed"),
        (r"\b(?:rechnungsentw(?:ü|ue)rfe|entw(?:ü|ue)rfe)\b", "draft invoices"),
        # "Rechnungen im Entwurf", "im Entwurfsstatus": invoices still in draft
        (r"\bim\s+entwurf(?:s(?:status|stadium))?\b", "in draft"),
        (r"\bentwurf(?:s(?:status|stadium))?\b", "draft"),
        (r"\bbeglichene[nr]?\b", "paid"),
        # the status "gebucht" (posted) where it names one ("gebucht, nicht bezahlt", "gebuchte Rechnungen"); the
        # verb ("wie viele Rechnungen hat X gebucht": booked) stays as written
        (r"\bgebucht(?=,?\s+(?:aber\s+)?(?:noch\s+)?nicht\s+(?:be)?zahlt)|\bgebuchte[nrs]?\b", "posted"),
        (r"(?:,\s*)?\bbitte\b", " "),
        (r"\b(?:genehmigte|genehmigten|zugelassene|zugelassenen|freigegebene|freigegebenen)\s+lieferanten\b",
         "approved vendors"),
        # "offene Posten" (open items): the unpaid invoices
        (r"\b(?:offene[nr]?|unbezahlte[nr]?)\s+posten\b", "unpaid invoices"),
        (r"\b(?:offene[nr]?|unbezahlte[nr]?|nicht\s+bezahlte[nr]?)\b", "unpaid"),
        # a price per piece: "im Schnitt pro Stück", "durchschnittlich je Stück"
        (r"\b(?:im\s+)?(?:schnitt|durchschnitt|durchschnittlich)\s+(?:pro|je)\s+st(?:ü|ue)ck\b",
         "average price per unit"),
        (r"\b(?:pro|je)\s+st(?:ü|ue)ck\b", "per unit"),
        # a state as the predicate: "sind noch offen", "ist noch nicht bezahlt", "sind unbezahlt"
        (r"\b(?:noch\s+)?nicht\s+(?:be)?zahlt\b", "not yet paid"),
        (r"\bunbezahlt\b", "unpaid"),
        (r"\b(?:noch\s+)?offen\b", "still open"),
        (r"\b(?:be)?zahlt\b", "pay"),
        (r"\bwas\s+(?:hat|haben)\b", "what did"),
        (r"\bbezahlte[nr]?\b", "paid"),
        # amount comparators (only before an amount: "über" is also "about")
        (rf"\bh(?:ö|oe)chstens{_AHEAD}", "at most"),
        (rf"\bmindestens{_AHEAD}", "at least"),
        (rf"\bunter{_AHEAD}", "under"),
        (rf"\b(?:ü|ue)ber{_AHEAD}", "over"),
        (rf"\bmehr\s+als{_AHEAD}", "more than"),
        (rf"\bweniger\s+als{_AHEAD}", "less than"),
        (rf"\bbis\s+zu{_AHEAD}", "up to"),
        (r"\bgutschriften\b", "credit notes"),
        (r"\bgutschrift\b", "credit note"),
        (r"\brechnungen\b", "invoices"),
        (r"\brechnung\b", "invoice"),
        # "Lieferant Iota Cables": the supplier by its name ("supplier Iota Cables" would read "Supplier Iota")
        (r"\blieferant\s+(?=(?-i:[A-Z]))", "from "),
        (r"\blieferanten\b", "suppliers"),
        (r"\blieferant\b", "supplier"),
        (r"\bwarengruppe\b", "product group"),
        (r"\bau(?:ß|ss)er\b", "except"),
        (r"\bohne\b|\bausgenommen\b|\bexklusive\b|\bexkl\.|\bnicht\s+eingerechnet\b", "excluding"),
        (r"\bgr(?:ö|oe)(?:ß|ss)te[nrs]?\b", "biggest"),
        (r"\bkleinste[nrs]?\b", "smallest"),
        # prepositions, pronouns and question words (after the phrases that contain them)
        (r"\bf(?:ü|ue)r\b", "on"),
        (r"\bbei\b|\bmit\b", "with"),
        (r"\bvo[nm]\b", "of"),
        (r"\ban\b", "to"),
        (r"\bim\b", "in"),
        (r"\baus\b", "from"),
        (r"\bsind\b", "are"),
        (r"\bist\b", "is"),
        (r"\bnoch\b", "still"),
        (r"\bwelche[rsn]?\b", "which"),
        (r"\bwas\s+(?:war|waren|sind|ist)\b", "what was"),
        (r"\b(?:haben|hat)\s+wir\b|\bhaben\b|\bhat\b", "did"),
        (r"\bwaren\b|\bwurden\b", "were"),
        (r"\bwar\b", "was"),
        (r"\bunsere[rnm]?\b", "our"),
        (r"\bwir\b", "we"),
        (r"\b(?:der|die|das|den|dem|des)\b", " "),
        (r"\bgesamt\b|\binsgesamt\b|\bsumme\b", "total"),
        (r"\bbetragen\b|\bbetrug(?:en)?\b|\bbekommen\b|\berhalten\b|\bhatten?\b", " "),
    )
)


def read_german(question: str, keep: Iterable[str] = ()) -> str | None:
    """The question with its German function vocabulary in English, or ``None`` when it is not German.

    >>> read_german("Ausgaben von Company A für Drucksensoren im 1. Quartal 2026")
    'spend of Company A on Drucksensoren in Q1 2026'
    >>> read_german("Company A spend on Drucksensoren in Q1 2026") is None
    True
    """
    if not (_MARKERS.search(question) or CATALOG_MARKERS.search(question) or is_shorthand_german(question)):
        return None
    # approval and catalogue words first ("für X freigegeben" holds the "für" the rules below translate), then the
    # shorthand ("Rg.", "GJ 2025", "zwischen 1. und 15. März"): the day and number rules need it spelled out
    text = german_days(german_numbers(german_fractions(expand_shorthand(read_catalog_words(question)))))
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)  # type: ignore[arg-type, call-overload]
    # ``keep``: the tenant's own German catalogue names (group synonyms such as "Temperaturfühler"): a word the
    # catalogue knows names its group as written, never an English product noun the catalogue may not have
    kept = {k.casefold() for k in keep}
    for pattern, replacement in _PRODUCT_NOUNS:
        text = pattern.sub(_unless_kept(replacement, kept), text)
    text = _YEAR.sub(_bare_year, " ".join(text.split()))
    return text if text != question else None


def _unless_kept(replacement: str, kept: set[str]) -> Callable[[re.Match[str]], str]:
    """A substitution that leaves a word the catalogue knows as written."""
    def sub(match: re.Match[str]) -> str:
        return match.group(0) if match.group(0).casefold() in kept else replacement
    return sub


#: German words for the kinds of product a catalogue names in English ("Kopierpapier A4" is "Copy paper A4"): the
#: common noun is translated, the model code after it ("A4", "DPS-482") is kept, so the product resolves by its
#: catalogue name. Group synonyms ("Drucksensoren") are the catalogue's own and are not listed here.
_PRODUCT_NOUNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"\b{p}\b", _I), r) for p, r in (
        (r"kopierpapiers?", "copy paper"), (r"druckerpapiers?", "copy paper"),
        (r"etikettenrollen", "label rolls"), (r"etikettenrolle", "label roll"),
        (r"differenzdrucksensor(?:en|s)?", "differential pressure sensor"),
        (r"relativdrucksensor(?:en|s)?", "gauge pressure sensor"),
        (r"pt100-temperaturf(?:ü|ue)hler[sn]?", "PT100 temperature probe"),
        (r"temperaturf(?:ü|ue)hler[sn]?", "temperature probe"),
        (r"temperaturmessumformer[sn]?", "temperature transmitter"),
        (r"durchflusssensor(?:en|s)?", "flow sensor"),
        (r"thermische[rnms]?\s+massedurchflussmesser[sn]?", "thermal mass flow meter"),
        (r"massedurchflussmesser[sn]?", "mass flow meter"),
        (r"(?:ü|ue)berwachungssteuerung(?:en)?", "monitoring controller"), (r"steuermodul(?:e|s)?", "control module"),
        (r"schaltschr(?:a|ä|ae)nke?s?", "control cabinet"), (r"steuerkabels?", "control cable"),
        (r"steuerleitung(?:en)?", "control cable"), (r"euro-?kisten?", "Euro crate"),
        (r"temperaturtransmitter[sn]?", "temperature transmitter"),
        (r"drehmomentschl(?:ü|ue)sselsatz(?:es)?|drehmomentschl(?:ü|ue)ssel-satz(?:es)?", "torque wrench set"),
        (r"scroll-?(?:verdichter|kompressor)(?:en|s)?", "scroll compressor"),
        (r"express(?:fracht|versand)", "express freight"), (r"sicherheitshandschuhe|schutzhandschuhe", "safety gloves"),
        (r"kabelverschraubungssatz(?:es)?", "cable gland set"), (r"kalibrierset|kalibrier-set", "calibration kit"),
        (r"pufferl(?:ö|oe)sung", "buffer solution"), (r"reagenzienkit|reagenzkit", "reagent kit"),
        (r"temperatur-?datenlogger[sn]?", "temperature data logger"), (r"faltkarton|faltschachtel", "folding box"),
        (r"vakuummeter[sn]?", "vacuum gauge"), (r"pr(?:ä|ae)zisionsmultimeter[sn]?", "precision multimeter"),
    )
)


_YEAR = re.compile(r"(?<![\w./-])(20\d{2})(?![\w./-])")
_PERIOD_WORDS = {"in", "since", "and", "between", "fy", "of", "until", *(m.lower() for m in _MONTHS_DE.values()),
                 "april", "august", "september", "november", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep",
                 "sept", "oct", "okt", "nov", "dec", "dez", "mär"}


def _bare_year(match: re.Match[str]) -> str:
    """A year standing alone ("Ausgaben 2025") is the calendar year, as "in 2025" is in English."""
    before = match.string[: match.start()].split()
    previous = before[-1].lower().rsplit("-", 1)[-1] if before else ""  # "Jan-Mar 2026": a range's last month
    previous = previous.lstrip("([")  # "aktuell (Q4 2025)": the quarter in parentheses is still the year's
    if previous in _PERIOD_WORDS or re.fullmatch(r"[qh][1-4]", previous):
        return match.group(0)
    return f"in {match.group(1)}"
