"""Periods written in Italian, Dutch, Portuguese or Spanish words and numeric forms, written in English.

Managers write English with the period words of their own language: months ("settembre '25", "22 januari 2026",
"outubro de 2025", "julho/2025", "14 de dezembro de 2025"), quarters and halves ("kwartaal 1 2026", "trimestre
1/2026", "secondo semestre 2025", "tweede halfjaar 2025", "2º semestre de 2025"), relative periods ("this kwartaal
so far", "il mese scorso", "vorige maand", "o mês passado"), numeric months ("1-2026", "10-2025") and ranges whose
two ends use different notations ("14 de dezembro de 2025 - 08/02/2026", "15/11/2025 - 4 febbraio 2026"). Before
this module the period reader saw an unknown word beside a year and read the year alone: a confident whole-year
figure for a one-month question (the worst outcome). This module rewrites each of those forms into the English
notation router/periods.py reads ("September '25", "22 January 2026", "Q1 2026", "H2 2025", "this quarter so
far"), so every period goes through the one reader with its span accounting.

The vocabulary is one table per kind (months, ordinals, units, relative words) for all four languages, so a
phrasing never seen before ("terzo trimestre del 2025", "derde kwartaal 2025", "3º trimestre de 2025") is read
the same way. A question that carries such a word is written by a continental European, who writes a slashed or
dashed day day-first ("08/02/2026" is 8 February): those days are written day.month.year, the form the reader
takes as day-first. Names are never rewritten (``keep``). A month-like word the table does not know, in the
position of a month ("22 settembte 2025", "dezmbro/2025"), is left for :func:`unread_month_word`, which names it
back instead of letting the year stand alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher

from router.edits import without_diacritics

_I = re.I | re.UNICODE

#: Verbs of a change between two periods ("how did spend move from Sep to Oct", "how has spend changed from Q3 to
#: Q4"): "from X to Y" after one is a base and a current period, never one range (router/period_grammar.py,
#: router/periods.py).
CHANGE_VERBS = re.compile(r"\b(?:chang(?:e[ds]?|ing)|mov(?:e[ds]?|ing)|gr[eo]w(?:n|s|ing)?|evolv(?:e[ds]?|ing)|"
                          r"develop(?:s|ed|ing)?|shift(?:s|ed|ing)?|increas(?:e[ds]?|ing)|decreas(?:e[ds]?|ing)|"
                          r"rose|ris(?:e[ns]?|ing)|fell|fall(?:en|s|ing)?|drop(?:s|ped|ping)?|"
                          r"declin(?:e[ds]?|ing))\b", _I)

_MONTH_EN = ("", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")

#: Month names and their usual abbreviations, Italian, Dutch, Portuguese and Spanish (English ones the reader
#: knows already; French ones are read by router/romance.py).
_MONTH_WORDS: dict[str, int] = {
    # Italian
    "gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6, "luglio": 7, "agosto": 8,
    "settembre": 9, "ottobre": 10, "novembre": 11, "dicembre": 12,
    # Dutch ("juni", "juli", "oktober" are German words too: router/german.py reads them)
    "januari": 1, "februari": 2, "maart": 3, "mei": 5, "augustus": 8,
    # Portuguese
    "janeiro": 1, "fevereiro": 2, "março": 3, "marco": 3, "maio": 5, "junho": 6, "julho": 7, "setembro": 9,
    "outubro": 10, "novembro": 11, "dezembro": 12,
    # Spanish
    "enero": 1, "febrero": 2, "abril": 4, "mayo": 5, "junio": 6, "julio": 7, "septiembre": 9, "setiembre": 9,
    "octubre": 10, "noviembre": 11, "diciembre": 12,
    # Swedish, Danish, Norwegian (the others are German's or Dutch's words too: "januar", "juni", "oktober")
    "augusti": 8, "maj": 5, "marts": 3, "desember": 12,
    # Polish, nominative and genitive ("kwiecień 2026", "1 kwietnia 2026"), with and without diacritics
    "styczeń": 1, "styczen": 1, "stycznia": 1, "luty": 2, "lutego": 2, "marzec": 3, "marca": 3, "kwiecień": 4,
    "kwiecien": 4, "kwietnia": 4, "maja": 5, "czerwiec": 6, "czerwca": 6, "lipiec": 7, "lipca": 7, "sierpień": 8,
    "sierpien": 8, "sierpnia": 8, "wrzesień": 9, "wrzesien": 9, "września": 9, "wrzesnia": 9, "październik": 10,
    "pazdziernik": 10, "października": 10, "pazdziernika": 10, "listopad": 11, "listopada": 11, "grudzień": 12,
    "grudzien": 12, "grudnia": 12,
    # Czech, nominative and genitive ("leden 2026", "1. února 2026"), with and without diacritics ("listopad" is
    # Polish's too)
    "leden": 1, "ledna": 1, "únor": 2, "února": 2, "unor": 2, "unora": 2, "březen": 3, "března": 3, "brezen": 3,
    "brezna": 3, "duben": 4, "dubna": 4, "květen": 5, "května": 5, "kveten": 5, "kvetna": 5, "červen": 6,
    "června": 6, "cerven": 6, "cervna": 6, "červenec": 7, "července": 7, "cervenec": 7, "cervence": 7, "srpen": 8,
    "srpna": 8, "září": 9, "zari": 9, "říjen": 10, "října": 10, "rijen": 10, "rijna": 10, "listopadu": 11,
    "prosinec": 12, "prosince": 12,
    # Romanian ("mai", "august" are other languages' words too)
    "ianuarie": 1, "februarie": 2, "martie": 3, "aprilie": 4, "iunie": 6, "iulie": 7, "septembrie": 9,
    "octombrie": 10, "noiembrie": 11, "decembrie": 12,
    # Turkish, with and without its letters
    "ocak": 1, "şubat": 2, "subat": 2, "mart": 3, "nisan": 4, "mayıs": 5, "mayis": 5, "haziran": 6, "temmuz": 7,
    "ağustos": 8, "agustos": 8, "eylül": 9, "eylul": 9, "ekim": 10, "kasım": 11, "kasim": 11, "aralık": 12,
    "aralik": 12,
    # Ukrainian transliterated (nominative and genitive, with and without the soft sign's apostrophe; "serpen",
    # "cherven", "lystopad" spelled as Czech or Polish are theirs above), and Russian transliterated
    **{f"{stem}{end}": number for number, stems in enumerate((
        ("sichen", "sichnia", "sichnya"), ("lyutyi", "lyutyy", "liutyi", "liutyy", "lyutoho", "liutoho", "lyutogo"),
        ("berezen", "bereznia", "bereznya"), ("kviten", "kvitnia", "kvitnya"), ("traven", "travnia", "travnya"),
        ("cherven", "chervnia", "chervnya"), ("lypen", "lypnia", "lypnya", "lipen"),
        ("serpen", "serpnia", "serpnya"), ("veresen", "veresnia", "veresnya"),
        ("zhovten", "zhovtnia", "zhovtnya"), ("lystopad", "lystopada"),
        ("hruden", "hrudnia", "hrudnya", "gruden", "grudnya")), start=1)
       for stem in stems for end in ("", "'", "’") if not (end and stem[-1] not in "n")},
    "yanvar": 1, "yanvarya": 1, "fevral": 2, "fevralya": 2, "aprel": 4, "aprelya": 4, "iyun": 6, "iyunya": 6,
    "iyul": 7, "iyulya": 7, "avgust": 8, "avgusta": 8, "sentyabr": 9, "sentyabrya": 9, "oktyabr": 10,
    "oktyabrya": 10, "noyabr": 11, "noyabrya": 11, "dekabr": 12, "dekabrya": 12,
    # Hungarian ("november", "december" are English's already; "május" with and without its accent)
    "január": 1, "február": 2, "március": 3, "marcius": 3, "április": 4, "aprilis": 4, "május": 5, "majus": 5,
    "június": 6, "junius": 6, "július": 7, "julius": 7, "augusztus": 8, "szeptember": 9, "október": 10,
    # Finnish, with the genitive "-n" and the inessive "-ssa" ("tammikuussa 2026")
    **{f"{stem}{ending}": number for number, stem in enumerate(
        ("tammikuu", "helmikuu", "maaliskuu", "huhtikuu", "toukokuu", "kesäkuu", "heinäkuu", "elokuu", "syyskuu",
         "lokakuu", "marraskuu", "joulukuu"), start=1) for ending in ("", "n", "ssa", "ssä")},
    **{f"{stem}{ending}": number for number, stem in ((6, "kesakuu"), (7, "heinakuu"))
       for ending in ("", "n", "ssa")},
}
#: Abbreviations only these writers use ("gen", "mag", "giu", "lug", "ott", "dic", "mrt", "okt", "fev", "dez",
#: "out", "set", "ago", "abr", "ene"): several are English words ("out", "set"), so they are months only where a
#: month stands, beside a day or joined to a year by "/", "-", "." or "de" ("out/2025", "15 dez 2025").
_MONTH_ABBREVIATIONS: dict[str, int] = {
    "gen": 1, "ene": 1, "fev": 2, "mrt": 3, "abr": 4, "mag": 5, "giu": 6, "lug": 7, "ago": 8, "set": 9, "ott": 10,
    "okt": 10, "out": 10, "dic": 12, "dez": 12,
    # Polish abbreviations that are no English word
    "sty": 1, "kwi": 4, "cze": 6, "wrz": 9, "paź": 10, "gru": 12,
}
#: Words that are English words or names too ("out", "set", "ago", "Marco", "mei"): months only in a month's
#: place, beside a day or joined to a year by "/", "-", "." or "de"; the other abbreviations ("gen 2026", "ott 2025")
#: also with the year after a space.
_SHAPED_ONLY = {"out", "set", "ago", "marco", "mei", "mayo"}

#: Abbreviations German writes too ("Dez. 2024", "15. Okt 2025"): months here only as the Portuguese or Dutch
#: write them, with "/", "de" or a plain day ("dez/2025", "15 dez 2025", "okt-2025").
_GERMAN_SHARED = {"dez", "okt"}
_ALL_MONTHS = {**_MONTH_WORDS, **_MONTH_ABBREVIATIONS}
#: Every month word and abbreviation of this module's tables, and those read only in a month's place, for the other
#: period readers (router/period_grammar.py).
ALL_MONTHS: dict[str, int] = _ALL_MONTHS
SHAPED_ONLY_MONTHS: set[str] = _SHAPED_ONLY
_MONTH_W = "|".join(sorted(_ALL_MONTHS, key=len, reverse=True))
_MONTHS_EN_W = ("january|february|march|april|may|june|july|august|september|october|november|december|"
                "jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec")
_YEAR = r"(?:19|20)\d{2}"
#: Glue a day, a month and a year may have between them: "14 de dezembro de 2025", "settembre del 2025",
#: "julho/2025", "1° di marzo", "maart van 2026".
_DAY = r"(?P<day>\d{1,2})(?:º|°|ª|o|e|(?P<dotted>\.))?"
_DAY_GLUE = r"(?:\s+(?:de|di|del))?"
_YEAR_GLUE = r"(?:\s*[/.-]\s*|\s+(?:de|del|di|van|em|en)\s+|\s+)"
_SHORT_YEAR = r"['’]\s?\d{2}(?!\d)"

_DATED_MONTH = re.compile(
    rf"(?<![\w/.-])(?:{_DAY}{_DAY_GLUE}\s*)?(?P<month>{_MONTH_W})(?P<dot>\.)?"
    rf"(?:(?P<glue>{_YEAR_GLUE})(?P<year>{_YEAR})(?![\w/-]|[.,]\d)|\s*(?P<yy>{_SHORT_YEAR}))?(?![\w-])", _I)

#: Ordinals of a quarter or half, in the four languages and in digits ("1º", "1°", "1e", "2de", "3rd").
_ORDINALS: dict[str, int] = {
    "primo": 1, "prima": 1, "primeiro": 1, "primeira": 1, "primer": 1, "primero": 1, "primera": 1, "eerste": 1,
    "secondo": 2, "seconda": 2, "segundo": 2, "segunda": 2, "tweede": 2,
    "terzo": 3, "terza": 3, "terceiro": 3, "terceira": 3, "tercer": 3, "tercero": 3, "tercera": 3, "derde": 3,
    "quarto": 4, "quarta": 4, "cuarto": 4, "cuarta": 4, "vierde": 4,
    # English (beside a foreign unit, or after the unit: "the quarter fourth of 2025")
    "first": 1, "second": 2, "third": 3, "fourth": 4,
    # Polish, Swedish, Danish, Norwegian, Finnish
    "pierwszy": 1, "pierwsze": 1, "pierwsza": 1, "drugi": 2, "drugie": 2, "druga": 2, "trzeci": 3, "trzecie": 3,
    "trzecia": 3, "czwarty": 4, "czwarte": 4, "czwarta": 4,
    "första": 1, "forsta": 1, "første": 1, "forste": 1, "andra": 2, "anden": 2, "andre": 2, "tredje": 3,
    "fjärde": 4, "fjarde": 4, "fjerde": 4,
    "ensimmäinen": 1, "ensimmainen": 1, "toinen": 2, "kolmas": 3, "neljäs": 4, "neljas": 4,
}
_ORD_W = "|".join(sorted(_ORDINALS, key=len, reverse=True))
_DIGIT_ORD = r"([1-4])\s?(?:º|°|ª|o|e|ste|de|st|nd|rd|th|\.)?"
#: A quarter ("trimestre", "kwartaal", "quarter") or a half ("semestre", "halfjaar", "helft", "semester").
_QUARTER_W = (r"trimestres?|kwarta(?:a|)l(?:en)?|kwartał[uy]?|kvartal(?:et|en)?|kvartaali|(?:vuosi)?neljännes|"
              r"neljannes")
_HALF_W = (r"semestres?|semester|halfjaar|halfjaars|helft|halvår(?:et)?|halvar(?:et)?|półrocz[ea]|polrocz[ea]|"
           r"puolivuotis|puolivuotiskausi|vuosipuolisko|half[- ]?year")
#: English unit words: a quarter or half only with the year written after the number ("quarter 1/2026"), never
#: in prose ("half 2 pallets").
_ENGLISH_UNIT_W = r"quarter|qtr|half"
_PART_YEAR = rf"(?:\s*[/-]\s*|\s+(?:de|del|di|van|of|em|en|in)\s+|\s+)?(?P<year>{_YEAR})(?![\w/-]|[.,]\d)"
_PART_YY = r"(?:\s*[/-]\s*|\s+|\s*['’]\s?)(?P<yy>\d{2})(?![\w/.,'’-])"

#: "trimestre 1/2026", "kwartaal 4 2025", "quarter 1-2026", "semestre 2 de 2025": the unit, then its number.
_UNIT_NUMBER = re.compile(
    rf"\b(?P<unit>{_QUARTER_W}|{_HALF_W}|{_ENGLISH_UNIT_W})\s*(?:n[º°o.]?\s*)?(?P<n>[1-4])(?![\w.,]|/\d{{1,2}}/)"
    rf"(?:{_PART_YEAR}|{_PART_YY})?", _I)
#: "secondo semestre 2025", "1º trimestre de 2026", "eerste kwartaal van 2026", "2e halfjaar 2025": ordinal first.
_ORDINAL_UNIT = re.compile(
    rf"(?<![\w])(?:(?P<word>{_ORD_W})|{_DIGIT_ORD})\s+(?P<unit>{_QUARTER_W}|{_HALF_W})\b"
    rf"(?:{_PART_YEAR}|{_PART_YY})?", _I)

#: Units of time in the four languages, for relative periods ("this kwartaal", "il mese scorso", "vorige maand").
_UNITS: dict[str, str] = {
    "mese": "month", "maand": "month", "mês": "month", "mes": "month",
    "trimestre": "quarter", "kwartaal": "quarter",
    "anno": "year", "jaar": "year", "ano": "year", "año": "year",
    "semestre": "half", "halfjaar": "half",
    "settimana": "week", "semana": "week",
    # French ("le mois dernier", "l'année précédente", "ce trimestre"), for a French word in an English question
    "mois": "month", "année": "year", "annee": "year", "semaine": "week",
    # Swedish, Danish, Norwegian, Polish, Finnish ("last kvartal", "förra månaden", "forrige måned", "zeszły rok")
    "kvartal": "quarter", "kvartalet": "quarter", "kwartał": "quarter", "kwartal": "quarter", "kvartaali": "quarter",
    "månad": "month", "månaden": "month", "måned": "month", "måneden": "month", "manad": "month",
    "maned": "month", "miesiąc": "month", "miesiac": "month", "kuukausi": "month",
    "år": "year", "året": "year", "rok": "year", "vuosi": "year",
    "halvår": "half", "halvåret": "half", "półrocze": "half", "polrocze": "half",
    "vecka": "week", "veckan": "week", "uke": "week", "uken": "week", "uge": "week", "ugen": "week",
    "tydzień": "week", "tydzien": "week", "viikko": "week",
    # (Polish locatives and Finnish essives after "w"/"viime": "w zeszłym miesiącu", "viime kuussa")
    "miesiącu": "month", "miesiacu": "month", "kwartale": "quarter", "roku": "year", "półroczu": "half",
    "kuussa": "month", "vuonna": "year", "neljänneksellä": "quarter",
    # the fiscal year ("el ejercicio pasado", "l'exercice dernier", "vorig boekjaar", "förra räkenskapsåret"):
    # written "last fiscal year", read from the configured fiscal year start (router/period_phrases.py)
    "ejercicio": "fiscal year", "exercice": "fiscal year", "esercizio": "fiscal year", "exercício": "fiscal year",
    "exercicio": "fiscal year", "boekjaar": "fiscal year", "räkenskapsår": "fiscal year",
    "räkenskapsåret": "fiscal year", "regnskabsår": "fiscal year", "regnskabsåret": "fiscal year",
    "regnskapsår": "fiscal year", "regnskapsåret": "fiscal year", "tilikausi": "fiscal year",
}
_UNIT_W = "|".join(sorted(_UNITS, key=len, reverse=True))
#: "this"/"last" words before the unit (Dutch, Portuguese, Spanish, Italian, and English ones beside a foreign unit).
_BEFORE_UNIT = {
    "this": "this", "current": "this", "deze": "this", "dit": "this", "este": "this", "esta": "this",
    "neste": "this", "nesta": "this", "questo": "this", "questa": "this", "quest'": "this",
    "last": "last", "previous": "last", "prior": "last", "vorige": "last", "vorig": "last", "afgelopen": "last",
    "next": "next", "volgende": "next", "volgend": "next", "prossimo": "next", "próximo": "next",
    "ce": "this", "cette": "this", "dernier": "last", "dernière": "last", "derniere": "last",
    "förra": "last", "forra": "last", "forrige": "last", "sidste": "last", "siste": "last", "ubiegły": "last",
    "ubiegly": "last", "zeszły": "last", "zeszly": "last", "poprzedni": "last", "ostatni": "last", "viime": "last",
    "denna": "this", "detta": "this", "denne": "this", "dette": "this", "bieżący": "this", "biezacy": "this",
    "tämä": "this", "kuluva": "this", "nästa": "next", "nasta": "next", "næste": "next",
    "zeszłym": "last", "zeszlym": "last", "ubiegłym": "last", "ubieglym": "last", "poprzednim": "last",
    "ostatnim": "last", "tym": "this", "bieżącym": "this", "biezacym": "this", "tässä": "this", "tänä": "this",
}
_BEFORE_W = "|".join(re.escape(w) for w in sorted(_BEFORE_UNIT, key=len, reverse=True))
#: ... and after it ("il mese scorso", "o mês passado", "el año pasado", "il trimestre corrente").
_AFTER_UNIT = {
    "scorso": "last", "scorsa": "last", "passato": "last", "passata": "last", "passado": "last", "passada": "last",
    "pasado": "last", "pasada": "last",
    "corrente": "this", "attuale": "this", "atual": "this", "actual": "this", "in corso": "this",
    "prossimo": "next", "prossima": "next", "que vem": "next", "próximo": "next",
    "dernier": "last", "dernière": "last", "derniere": "last", "précédent": "last", "précédente": "last",
    "passé": "last", "passée": "last", "en cours": "this",
    "prochain": "next", "prochaine": "next",
}
_AFTER_W = "|".join(re.escape(w) for w in sorted(_AFTER_UNIT, key=len, reverse=True))
_ARTICLE = r"(?:(?:il|lo|l['’]|la|le|o|a|el|het|de|the)\s*)?"
_RELATIVE_BEFORE = re.compile(rf"(?:\b(?:le|la|w|we)\s+)?\b(?P<rel>{_BEFORE_W})\s+(?P<unit>{_UNIT_W})\b", _I)
#: Whole relative phrases of one word kind that name no unit word of the table ("i fjol": last year).
_RELATIVE_PHRASES = {"i fjol": "last year", "i fjor": "last year", "i fjord": "last year", "sidste år": "last year",
                     "i år": "this year", "i ar": "this year", "w tym roku": "this year", "tänä vuonna": "this year"}
_RELATIVE_PHRASE = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in
                                               sorted(_RELATIVE_PHRASES, key=len, reverse=True)) + r")(?!\w)", _I)
#: Words setting a period against another ("Q1 2026 par rapport au trimestre précédent"): the unit "précédent"
#: after them is the one before the period named, not the one before today.
_SET_AGAINST = re.compile(r"(?:\bpar\s+rapport\s+(?:au|à)|\bcompar[ée]e?s?\s+(?:au|à)|\bvs\.?)\s+(?:le\s+|la\s+)?$",
                          _I)
_RELATIVE_AFTER = re.compile(rf"(?<![\w'’]){_ARTICLE}(?P<unit>{_UNIT_W})\s+(?P<rel>{_AFTER_W})\b", _I)
#: "so far", "to date" and "the month before" in the four languages.
_SO_FAR = re.compile(r"\b(?:finora|fino\s+ad\s+ora|sinora|tot\s+nu\s+toe|tot\s+op\s+heden|até\s+agora|ate\s+agora|"
                     r"até\s+hoje|hasta\s+ahora|hasta\s+hoy|hasta\s+la\s+fecha|ad\s+oggi|a\s+oggi|"
                     # French, Swedish, Danish/Norwegian, Polish, Finnish
                     r"jusqu['’]\s?ici|jusqu['’]\s?(?:à|a)\s+(?:présent|present|maintenant|ce\s+jour)|à\s+ce\s+jour|"
                     r"hittills|(?:til|indtil)\s+nu|"
                     r"do\s+tej\s+pory|do\s+dzisiaj|do\s+dziś|tähän\s+mennessä)(?!\w)", _I)
#: "il mese prima", "o mês anterior", "el trimestre anterior", "il mese precedente", "de maand ervoor": the unit
#: before the other period of a comparison (not the last one before today, which "scorso"/"passado" say).
_UNIT_BEFORE = re.compile(
    # (the article a word of its own: "del año anterior" keeps its "del", never "dthe year before")
    rf"(?<![\w'’]){_ARTICLE}\b(?P<unit>{_UNIT_W})\s+(?:prima|ervoor|daarvoor|antes|anterior|precedente)\b"
    rf"|\b(?:de|het)\s+(?P<unit2>{_UNIT_W})\s+(?:daarvoor|ervoor)\b", _I)

#: A month written as number-dash-year ("1-2026", "10-2025"), as "11/2025" is (router/notation.py).
_DASHED_MONTH = re.compile(rf"(?<![\w/.\-])(0?[1-9]|1[0-2])-({_YEAR})(?![\w/\-]|[.,]\d)")
#: The word before a number that makes it a part of the year, not a month ("Q 1-2026", "week 3-2026").
_PART_BEFORE = re.compile(r"\b(?:q|h|t|s|quarter|qtr|half|kw|week|wk|cw|fy|gj|p|period|nr|no)\W*$", re.I)
#: Slashed and dashed days ("08/02/2026", "15-9-2025"): day-first in a question with these writers' words.
_SLASHED_DAY = re.compile(rf"(?<![\w/.-])(\d{{1,2}})[/-](\d{{1,2}})[/-]({_YEAR})(?![\w/-]|[.,]\d)")
#: Months listed with slashes ("jan/feb/mar 26"): written as a list the period reader joins when adjacent.
_SLASHED_MONTHS = re.compile(rf"\b((?:{_MONTHS_EN_W})\.?(?:\s*/\s*(?:{_MONTHS_EN_W})\.?)+)"
                             rf"(?=\s*(?:['’]\s?\d{{2}}|\d{{2}}\b|{_YEAR}))", _I)
#: Range glue in the four languages: "de janeiro a março", "da gennaio a marzo", "van januari tot maart",
#: "desde ... hasta", "tot en met" / "t/m" / "fino a" / "até" (the end included).
_RANGE = re.compile(
    rf"\b(?:da|dal|dall['’]|de|del|desde|van|vanaf|dai)\s+(?P<a>(?:\d{{1,2}}\s+)?(?:{_MONTHS_EN_W})(?:\s+{_YEAR})?)"
    rf"\s+(?P<glue>a|al|ao|à|hasta|tot(?:\s+en\s+met)?|t/m|fino\s+a|fino\s+al|até|ate)\s+"
    rf"(?P<b>(?:\d{{1,2}}\s+)?(?:{_MONTHS_EN_W})(?:\s+{_YEAR})?)\b", _I)
_THROUGH = {"tot en met", "t/m", "fino a", "fino al", "até", "ate", "hasta"}


def _kept(text: str, keep: Iterable[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for name in keep:
        if len(name) >= 3:
            spans.extend(m.span() for m in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", text, _I))
    return spans


def _in(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(span[0] < end and start < span[1] for start, end in spans)


def _months(text: str, keep: list[tuple[int, int]]) -> str:
    def sub(m: re.Match[str]) -> str:
        word = m.group("month").casefold()
        shaped = bool(m.group("day") or m.group("yy") or (m.group("year") and m.group("glue").strip()))
        if _in(m.span("month"), keep):
            return m.group(0)
        if word in _SHAPED_ONLY and not shaped:
            return m.group(0)  # "out", "set", "Marco": a month only where a month stands
        if word in _MONTH_ABBREVIATIONS and not (shaped or m.group("year")):
            return m.group(0)  # "gen", "mag" alone: no month without its year or day
        if word in _GERMAN_SHARED and (m.group("dot") or m.group("dotted") or not (
                m.group("day") or (m.group("glue") or "").strip())):
            return m.group(0)  # "dez. 2024", "15. Okt": German, read by router/german.py with its other words
        month = _MONTH_EN[_ALL_MONTHS[word]]
        # "22. Oktober": a German day keeps its dot (router/german.py reads "7. und 22. Oktober" as days)
        day = f"{int(m.group('day'))}{'.' if m.group('dotted') else ''} " if m.group("day") else ""
        year = f" {m.group('year')}" if m.group("year") else (f" {m.group('yy').replace(' ', '')}"
                                                             if m.group("yy") else "")
        return f"{day}{month}{year}"
    return _DATED_MONTH.sub(sub, text)


def _year_of(m: re.Match[str]) -> str:
    if m.group("year"):
        return f" {m.group('year')}"
    if m.group("yy"):
        return f" 20{m.group('yy')}"
    return ""


def _part(unit: str, number: int, m: re.Match[str]) -> str:
    half = re.match(rf"(?:{_HALF_W}|half)$", unit, _I) is not None
    if re.fullmatch(rf"{_ENGLISH_UNIT_W}|half[- ]?year", unit, _I) and not (m.group("year") or m.group("yy")):
        return m.group(0)
    if half and number > 2:
        return m.group(0)  # "semestre 3": no half of a year; left as written (the reader asks about it)
    return f"{'H' if half else 'Q'}{number}{_year_of(m)}"


#: The unit before its ordinal, as some writers order them ("the quarter fourth of 2025", "half year second of
#: 2025", "kvartal tredje 2025"): English units too, as no English writer orders them so.
_UNIT_ORDINAL = re.compile(
    rf"(?<![\w])(?:the\s+)?(?P<unit>{_QUARTER_W}|{_HALF_W}|quarter|half)\s+(?P<word>{_ORD_W})\b"
    rf"(?:\s+of)?(?:{_PART_YEAR}|{_PART_YY})", _I)
#: The year before the part ("2025 second half year", "2025 3. kvartal", "2025 Q3" is the reader's own): the part
#: of that year, one period (read apart, the year and its half were two conflicting periods).
_YEAR_THEN_PART = re.compile(
    rf"(?<![\w./-])(?P<year>{_YEAR})\s*,?\s+(?:the\s+)?(?:(?P<word>{_ORD_W})|{_DIGIT_ORD})\s+"
    rf"(?P<unit>{_QUARTER_W}|{_HALF_W}|quarter|half)\b", _I)


def _parts(text: str) -> str:
    def numbered(m: re.Match[str]) -> str:
        return _part(m.group("unit"), int(m.group("n")), m)

    def ordinal(m: re.Match[str]) -> str:
        word = m.group("word")
        number = _ORDINALS[word.casefold()] if word else int(m.group(2))
        return _part(m.group("unit"), number, m)

    def year_first(m: re.Match[str]) -> str:
        word = m.group("word")
        number = _ORDINALS[word.casefold()] if word else int(m.group(2))
        half = re.fullmatch(rf"{_HALF_W}|half", m.group("unit"), _I) is not None
        if half and number > 2:
            return m.group(0)
        return f"{'H' if half else 'Q'}{number} {m.group('year')}"

    text = _YEAR_THEN_PART.sub(year_first, text)
    text = _UNIT_ORDINAL.sub(ordinal, text)
    text = _ORDINAL_UNIT.sub(ordinal, text)
    return _UNIT_NUMBER.sub(numbered, text)


def _relative(text: str) -> str:
    text = _RELATIVE_PHRASE.sub(lambda m: _RELATIVE_PHRASES[" ".join(m.group(0).casefold().split())], text)
    text = _CURRENT_UNIT.sub(lambda m: f"this {_UNITS[m.group(1).casefold()]}", text)
    text = _RELATIVE_BEFORE.sub(lambda m: f"{_BEFORE_UNIT[m.group('rel').casefold()]} "
                                          f"{_UNITS[m.group('unit').casefold()]}", text)
    def after(m: re.Match[str]) -> str:
        rel = m.group("rel").casefold()
        if rel.startswith(("précédent", "precedent")) and _SET_AGAINST.search(m.string[: m.start()]):
            return m.group(0)  # (the period before the one named: the comparison readers', router/romance.py)
        return f"{_AFTER_UNIT[rel]} {_UNITS[m.group('unit').casefold()]}"

    text = _RELATIVE_AFTER.sub(after, text)
    text = _UNIT_BEFORE.sub(lambda m: f"the {_UNITS[(m.group('unit') or m.group('unit2')).casefold()]} before", text)
    text = _FISCAL_TO_DATE.sub("fiscal year to date", text)
    text = _YEAR_TO_DATE.sub("year to date", text)
    text = _BEFORE_THIS.sub(lambda m: f"last {m.group(1).casefold()}", text)
    text = _WEEK.sub(lambda m: f"week {m.group(1)}" + (f" of {m.group(2)}" if m.group(2) else ""), text)
    text = _SO_FAR.sub("so far", text)
    text = _THIS_TO_DATE.sub(r"\1 so far", text)
    return _so_far_aside(text)


#: "so far" set apart from its period, in brackets or after a comma at the end ("ce mois ci pour Kestrel (so
#: far)", "this quarter for Xenon, to date"): it bounds the one current unit the question names.
_SO_FAR_ASIDE = re.compile(r"\s*(?:\(\s*(?:so\s+far|to\s+date)\s*\)|,\s*(?:so\s+far|to\s+date)\s*(?=[?!.]*\s*$))", _I)
_THIS_UNIT = re.compile(r"\bthis\s+(?:month|mth|quarter|qtr|year|yr|half|week)\b(?!\s+(?:so\s+far|to\s+date))", _I)
#: A running total of the current unit ("running total this yr", "cumulative spend this quarter", "this month's
#: cumulative total"): the figure accumulated up to now, so the unit runs to the as-of date, as "so far" says.
_RUNNING_TOTAL = re.compile(r"\b(?:running|cumulative|cumulated|accumulated|cumul)\s+(?:total|sum|spend|amount|"
                            r"value|figure)s?\b|\b(?:total|spend)\s+(?:accumulated|cumulated)\b", _I)


def _so_far_aside(text: str) -> str:
    asides = list(_SO_FAR_ASIDE.finditer(text))
    units = list(_THIS_UNIT.finditer(text))
    if len(units) == 1 and not asides and _RUNNING_TOTAL.search(text):
        # (the running-total words stay: they are the figure's own, the "so far" only bounds its unit)
        return f"{text[:units[0].end()]} so far{text[units[0].end():]}"
    if len(asides) != 1 or len(units) != 1 or units[0].end() > asides[0].start():
        return text
    aside, unit = asides[0], units[0]
    return f"{text[:unit.end()]} so far{text[unit.end():aside.start()]}{text[aside.end():]}"


#: The year to date: "da inizio anno", "dall'inizio dell'anno", "sinds begin dit jaar", "desde o início do ano",
#: "en lo que va del año", "acumulado do ano".
_YEAR_TO_DATE = re.compile(
    r"\b(?:da(?:ll['’])?\s*inizio\s+(?:dell['’]\s*)?anno|sinds\s+(?:het\s+)?begin\s+(?:van\s+)?(?:dit|het)\s+jaar|"
    r"desde\s+(?:o\s+)?in[íi]cio\s+do\s+ano|desde\s+(?:el\s+)?inicio\s+del\s+año|en\s+lo\s+que\s+va\s+del\s+año|"
    r"(?:no\s+)?acumulado\s+do\s+ano|(?:el\s+)?acumulado\s+del\s+año|"
    # French: "depuis le début de l'année", "cumul de l'année"; English "since new year (till today)"
    r"depuis\s+(?:le\s+)?d[ée]but\s+(?:de\s+)?l['’]\s?ann[ée]e|cumul\s+(?:de\s+)?l['’]\s?ann[ée]e|"
    r"(?:since|from)\s+(?:the\s+)?new\s+year(?:['’]s(?:\s+day)?)?(?:\s+(?:till|until|to|up\s+to|through)\s+"
    r"(?:today|now|date))?|"
    # Swedish, Danish/Norwegian, Polish, Finnish
    r"sedan\s+årets\s+början|hittills\s+i\s+år|(?:siden|fra)\s+nyt[åa]r|(?:siden|fra)\s+årets\s+start|"
    r"od\s+pocz[ąa]tku\s+roku|vuoden\s+alusta|"
    # Turkish, Romanian, Czech/Slovak, Ukrainian, Hungarian; English "since begin of (the) year"
    r"y[ıi]l\s?ba[şs][ıi]ndan\s+(?:beri|bu\s+yana|itibaren)|de\s+la\s+[îi]nceputul\s+anului|"
    r"od\s+za[čc][áa]tku\s+roku|od\s+za[čc]iatku\s+roka|з\s+початку\s+року|[ée]v\s+eleje\s+[óo]ta)"
    r"(?![^\W\d_])", _I)
#: The fiscal year to date: "depuis le début de l'exercice" (router/periods.py reads "fiscal year to date").
_FISCAL_TO_DATE = re.compile(r"\b(?:depuis\s+(?:le\s+)?d[ée]but\s+(?:de\s+)?l['’]\s?exercice(?:\s+fiscal)?|"
                             r"cumul\s+(?:de\s+)?l['’]\s?exercice|sinds\s+(?:het\s+)?begin\s+van\s+het\s+boekjaar)\b",
                             _I)
#: The current unit in French ("ce mois-ci", "du mois en cours", "le trimestre courant"): this unit.
_CURRENT_UNIT = re.compile(r"\b(?:ce|cet|cette|du|le|la)\s+(mois|trimestre|ann[ée]e|semestre|semaine)"
                           r"(?:[- ]ci\b|\s+en\s+cours\b|\s+courante?\b)", _I)
#: ... and "à date" after it ("du mois en cours à date"): up to today.
_THIS_TO_DATE = re.compile(r"\b(this\s+(?:month|quarter|year|half|week))\s+(?:à|a)\s+date\b", _I)
#: The unit before the current one, in English words: "the month before this one", "the quarter before the
#: current one" (the previous unit, as "last month" is).
_BEFORE_THIS = re.compile(r"\b(?:the\s+)?(month|quarter|year|week|half)\s+(?:just\s+)?before\s+(?:this|the\s+"
                          r"(?:current|present))(?:\s+one|\s+(?:month|quarter|year|week|half))?\b", _I)
#: "settimana 12 del 2026", "semana 12 de 2026": a calendar week (router/periods.py reads "week 12 of 2026").
_WEEK = re.compile(rf"\b(?:settimana|semana)\s+(?:n[º°.]?\s*)?(\d{{1,2}})(?:\s+(?:del|de|di)\s+({_YEAR}))?\b", _I)
#: A remark on where the data starts ("(the files start in July)", ", data only from July 2025"): context that
#: explains the period, not a second period to ask about.
#: (Any remark of the data's coverage: "the files start in July", "data only available since Jul 2025", "we only
#: have records from July"; a constraint in brackets, "(only invoices from July)", is no such remark and stays.)
_COVERAGE = r"(?:(?:the\s+|our\s+)?(?:files?|data|records?|books|history|ledger)\s+(?:only\s+)?(?:start|starts|" \
            r"started|begin|begins|began|go(?:es)?\s+back|(?:is\s+|are\s+)?(?:only\s+)?available)|" \
            r"(?:we|i)\s+(?:only\s+)?have\s+(?:the\s+)?(?:files?|data|records?|books|history))\s+(?:only\s+)?" \
            r"(?:in|from|on|at|to|since)\s+[^(),;?!]*?"
_COVERAGE_ALONE = re.compile(rf"\s*\(\s*{_COVERAGE}\s*\)"
                             # "(jul-dec data only)", "(jul-dec is all we have)": the span the data covers, after it
                             r"|\s*\(\s*[^()]{1,40}?\s+(?:data\s+only|is\s+all\s+(?:we\s+have|there\s+is|the\s+data)|"
                             r"is\s+what\s+we\s+have|(?:is\s+)?all\s+(?:the\s+)?data\s+(?:we\s+have|there\s+is))\s*\)",
                             _I)
_COVERAGE_AFTER = re.compile(rf"\s*[,;]\s*{_COVERAGE}(?=\s*\))", _I)
#: A heading of bare period codes before a colon that the ask after it restates in full ("Alpenland H1 vs H2: Jan-Apr
#: 26 so far vs Jul-Dec 25?"): the heading is a title, the compared periods are the ones after the colon.
_CODE = r"(?:[QH][1-4]|FY\s?\d{2,4}|(?:19|20)\d{2})"
_HEADING = re.compile(rf"\b{_CODE}\s+(?:vs\.?|versus|v\.?|against)\s+{_CODE}\s*:\s*", re.I)
#: The comparison word of the ask after a heading, and a period named on either side of it.
_VS = re.compile(r"\b(?:vs\.?|versus|against|compared\s+(?:with|to))\s", re.I)
_A_PERIOD = re.compile(rf"\b(?:{_CODE}|(?:{_MONTHS_EN_W})\.?|\d{{1,2}}[./-]\d{{2,4}}|so\s+far|to\s+date|ytd|"
                       r"(?:this|last|previous|prior|next)\s+(?:year|quarter|month|half|week))\b", re.I)
#: A dashed month's "month-year" that is an amount range ("invoices of 1-2000 EUR", "between 1-2000"): an amount
#: word after it, or "of"/"between"/"from" before it in a question about amounts.
_AMOUNT_AFTER = re.compile(r"\s*(?:eur|euros?|usd|dollars?|gbp|chf|sek|nok|dkk|pln|[€$£]|k\b|m\b|bn\b|"
                           r"(?:thousand|million)\b)", re.I)
_AMOUNT_BEFORE = re.compile(r"\b(?:of|between|from|over|under|above|below)\s*[€$£]?\s*$", re.I)
_AMOUNT_WORD = re.compile(r"\b(?:eur|euros?|usd|dollars?|gbp|chf|amounts?|values?|worth|totals?|sized?)\b|[€$£]", re.I)


def _heading(text: str) -> str:
    """``text`` without a heading of period codes whose ask after the colon names two compared periods itself."""
    def sub(m: re.Match[str]) -> str:
        rest = text[m.end():].split(":", 1)[0]
        vs = _VS.search(rest)
        if vs and _A_PERIOD.search(rest, 0, vs.start()) and _A_PERIOD.search(rest, vs.end()):
            return ""
        return m.group(0)
    return _HEADING.sub(sub, text)


def _dashed_months(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        if _PART_BEFORE.search(text, 0, m.start()):
            return m.group(0)
        if _AMOUNT_AFTER.match(text, m.end()) or (_AMOUNT_BEFORE.search(text, 0, m.start())
                                                   and _AMOUNT_WORD.search(text)):
            return m.group(0)  # "invoices of 1-2000 EUR": an amount range, not January 2000
        return f"{_MONTH_EN[int(m.group(1))]} {m.group(2)}"
    return _DASHED_MONTH.sub(sub, text)


def _day_first(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        day, month = int(m.group(1)), int(m.group(2))
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return m.group(0)
        return f"{day}.{month}.{m.group(3)}"
    return _SLASHED_DAY.sub(sub, text)


def _ranges(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        glue = " ".join(m.group("glue").casefold().split())
        return f"from {m.group('a')} {'through' if glue in _THROUGH else 'to'} {m.group('b')}"
    return _RANGE.sub(sub, text)


def period_words(question: str, keep: Iterable[str] = ()) -> str:
    """``question`` with its Italian, Dutch, Portuguese and Spanish period words and numeric period forms in the
    English notation router/periods.py reads.

    >>> period_words("sensors spent 22 januari 2026 - 11 maart 2026")
    'sensors spent 22 January 2026 - 11 March 2026'
    >>> period_words("IVA of the faturas outubro de 2025, trimestre 1/2026 and secondo semestre 2025")
    'IVA of the faturas October 2025, Q1 2026 and H2 2025'
    >>> period_words("spend 14 de dezembro de 2025 - 08/02/2026, this kwartaal so far")
    'spend 14 December 2025 - 8.2.2026, this quarter so far'
    """
    kept = _kept(question, keep)
    text = _months(question, kept)
    text = _parts(text)
    text = _relative(text)
    foreign = text != question
    text = _COVERAGE_AFTER.sub("", _COVERAGE_ALONE.sub("", text))
    text = _heading(text)
    text = _dashed_months(text)
    text = _SLASHED_MONTHS.sub(lambda m: " and ".join(p.strip() for p in m.group(1).split("/")) + " ", text)
    text = re.sub(r"(\S) {2,}(?=\S)", r"\1 ", text)
    if foreign:
        # a writer of these languages writes a slashed or dashed day day-first (as router/romance.py reads French
        # and Spanish ones); an English question's slashed days stay for router/periods.py to settle or ask
        text = _day_first(text)
        text = _ranges(text)
    return text


def read_period_words(question: str, keep: Iterable[str] = ()) -> str | None:
    """:func:`period_words`, or ``None`` when the question has none of those forms."""
    text = period_words(question, keep)
    return text if text != question else None


#: A month-like word in a month's place the table above does not know: "22 settembte 2025", "dezmbro/2025",
#: "ottobr '25". Its first letters are a month's in one of the languages, so it is no other word there.
_MONTH_STEMS = ("jan", "gen", "ene", "feb", "fev", "fév", "mar", "maa", "mrt", "apr", "abr", "avr", "mag", "mai",
                "mei", "may", "giu", "jun", "jui", "lug", "jul", "ago", "aug", "aoû", "set", "sep", "ott", "out",
                "okt", "oct", "nov", "dic", "dez", "dec", "déc")
_MONTH_SHAPED = re.compile(
    rf"(?<![\w/.-])(?:\d{{1,2}}(?:º|°|\.)?\s+(?:de\s+)?(?P<a>[^\W\d_]{{3,12}})\.?(?:\s+(?:de|del|di|van)\s+|\s+){_YEAR}"
    rf"|(?P<b>[^\W\d_]{{3,12}})\.?(?:\s*/\s*|\s+(?:de|del|di|van)\s+){_YEAR}"
    rf"|(?P<c>[^\W\d_]{{3,12}})\s*['’]\s?\d{{2}}"
    rf"|(?P<d>[^\W\d_]{{4,12}})\s+{_YEAR})(?![\w/-])", _I)
_KNOWN_MONTHS = {*_ALL_MONTHS, *_MONTHS_EN_W.split("|"), "janvier", "février", "fevrier", "mars", "avril", "mai",
                 "juin", "juillet", "août", "aout", "septembre", "octobre", "décembre", "decembre", "januar",
                 "februar", "märz", "maerz", "juni", "juli", "oktober", "dezember", "janv", "févr", "fevr", "juil",
                 "sept", "déc", "dez", "mär"}
#: Every month word the readers know in any language, for the leftover-period reader (router/period_leftovers.py).
KNOWN_MONTHS: set[str] = _KNOWN_MONTHS


def _folded(word: str) -> str:
    """``word`` without its diacritics ("kwiecień" -> "kwiecien", "április" -> "aprilis")."""
    return without_diacritics(word.replace("ł", "l").replace("ø", "o"))


#: The first letters of every month word of the table, folded: a word beginning so, in a month's place, is a
#: month-like word of some language ("kwiecien", "augusti", "aprilis").
_TABLE_STEMS = tuple(sorted({_folded(w)[:3] for w in _KNOWN_MONTHS if len(w) >= 3} | set(_MONTH_STEMS)))


def _misspelt_month(word: str) -> bool:
    """Whether ``word`` is a month name of the table with a letter or two wrong ("maarch", "settembte")."""
    return any(SequenceMatcher(None, word, known).ratio() >= 0.8 for known in _KNOWN_MONTHS if len(known) >= 4)


def unread_month_word(question: str) -> tuple[str, tuple[int, int]] | None:
    """The phrase (and its span) of a day or year whose month word is none the reader knows ("22 settembte 2025"),
    or ``None``.

    Such a phrase is a period only partly readable: read alone, its year would be a silent whole-year figure.

    >>> unread_month_word("spend 22 settembte 2025 - 11 maart 2026")
    ('22 settembte 2025', (6, 23))
    >>> unread_month_word("spend 22 September 2025") is None
    True
    """
    for m in _MONTH_SHAPED.finditer(question):
        word = (m.group("a") or m.group("b") or m.group("c") or m.group("d")).casefold()
        if word in _KNOWN_MONTHS or not _folded(word).startswith(_TABLE_STEMS):
            continue
        if m.group("d") and not (_misspelt_month(word) or _misspelt_month(_folded(word))):
            continue  # "market 2026", "decisions 2025": a word beside a year, not a month's place
        return " ".join(m.group(0).split()), m.span()
    return None


#: The words for a quarter or a half in the languages around the tables', folded, in their base forms
#: ("kwartał", "kvartal", "kvartaali", "neljännes", "trimestre", "cuatrimestre", "semester", "halvår", "półrocze",
#: "pół roku", "puolivuotis", "čtvrtletí", "negyedév", "helft"). A word between a part's number and a year that is
#: one of these with a letter or two wrong or an ending unknown ("kvartil", "polroku", "semestr") is a part of the
#: year no table reads; a word merely sharing first letters ("polymers", "quality", "triggers", "semiconductors")
#: is a counted thing or a name, never a part.
_PART_UNIT_WORDS = ("quarter", "quartal", "kwartal", "kwartaal", "kvartal", "kvartaali", "neljannes",
                    "vuosineljannes", "trimestre", "cuatrimestre", "ctvrtleti", "negyedev", "cetrtletje", "tertial",
                    "semestre", "semester", "halfjaar", "helft", "halvar", "halbjahr", "polrocze", "polrok",
                    "puolivuotis", "puolivuosi", "vuosipuolisko", "felev", "pulrok", "halfyear")


def _part_like(word: str) -> bool:
    """Whether ``word`` (folded) is a quarter or half word of :data:`_PART_UNIT_WORDS` with a letter or two wrong
    or another ending ("kvartil", "polroku"), rather than a word that only begins like one ("polymers")."""
    return any(SequenceMatcher(None, word, unit).ratio() >= 0.8 for unit in _PART_UNIT_WORDS)


#: A number of a part (1 to 4, "3.", "2nd"), a word, a year: "3. kvartil 2025", "2 polroku 2025".
_PART_SHAPED = re.compile(
    rf"(?<![\w/.,-])(?P<n>[1-4])(?:\.|st|nd|rd|th|e|º|°)?\s+(?P<w>[^\W\d_]{{4,16}})\.?\s+(?:of\s+|de\s+|van\s+)?"
    rf"(?P<y>{_YEAR})(?![\w/-])", _I)
_KNOWN_PARTS = re.compile(rf"(?:{_QUARTER_W}|{_HALF_W}|quarter|qtr|half|halves|quarters)", _I)


def unread_part_word(question: str) -> tuple[str, tuple[int, int]] | None:
    """The phrase (and its span) of a part of a year whose unit word no table knows ("3. kvartil 2025",
    "2 polroku 2025"), or ``None``: read without it, the year alone would be a silent whole-year figure.

    >>> unread_part_word("spend 3. kvartil 2025")
    ('3. kvartil 2025', (6, 21))
    >>> unread_part_word("top 3 suppliers 2025") is None
    True
    >>> unread_part_word("spend on the top 3 polymers 2025") is None
    True
    """
    for m in _PART_SHAPED.finditer(question):
        word = m.group("w")
        if _KNOWN_PARTS.fullmatch(word) or not _part_like(_folded(word).casefold()):
            continue
        return " ".join(m.group(0).split()), m.span()
    return None
