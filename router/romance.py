"""Questions from French- and Spanish-speaking controllers, read through the same reader as English ones.

Subsidiary controllers write English with the finance words of their own language ("Cie A factures HT T1
2026", "gasto por proveedor 1S 2026") or whole short questions in French or Spanish ("Quel est le total des
factures de la Cie A au T1 2026 ?", "¿Cuánto gastó Xenon con Helix en el primer semestre?"). Like
router/german.py, this module rewrites that *function* vocabulary (measures, VAT basis, document types, periods,
breakdowns, comparators, company prefixes, day-first dates) into the English phrasing the reader already knows,
so every constraint goes through the one reading with its span accounting. Names are never translated; a word
outside this vocabulary reaches the reader as typed and is named back when unknown ("centre de coût" becomes
"by cost centre", a dimension the data lacks, named as not understood).

A question is rewritten only when it carries a French or Spanish marker; English passes unchanged. In such a
question a slashed day is day-first ("03/02/2026" is 3 February), as these writers mean it; the answer states
the rewritten reading, so a user sees how the question was understood.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterable

_I = re.I | re.UNICODE

#: Words only a French or Spanish writer uses (case-insensitive).
_WORDS = (
    r"fournisseurs?|proveedor(?:es)?|factures?|facturas?|avoirs|notas?\s+de\s+cr[ée]dito|abonos?|hors\s+taxes?|"
    r"toutes\s+taxes\s+comprises|sin\s+iva|con\s+iva|iva\s+incluido|base\s+imponible|tva|iva|trimestres?|"
    r"semestres?|exercice|ejercicio|chiffres?|cifras?|montants?|importes?|d[ée]penses?|d[ée]pens[ée]s?|gastos?|"
    r"gast[óo]|gastamos|gastaron|par\s+mois|por\s+mes|par\s+fournisseur|por\s+proveedor|centres?\s+de\s+co[ûu]ts?|"
    r"centros?\s+de\s+cost[eo]s?|soci[ée]t[ée]|empresa|sté|cie|c[íi]a|quel(?:le)?s?|combien|cu[áa]nto|cu[áa]ntas?|"
    r"cu[áa]ntos|cu[áa]l(?:es)?|qu[ée]|janvier|janv|f[ée]vrier|f[ée]vr|avril|juin|juillet|juil|ao[ûu]t|"
    r"septembre|octobre|novembre|d[ée]cembre|enero|ene|febrero|marzo|abril|mayo(?=\s+(?:del?\s+)?(?:19|20)\d{2})|junio|julio|agosto|septiembre|"
    r"setiembre|octubre|noviembre|diciembre|dic|chez|aupr[èe]s|depuis|desde|hasta|jusqu|entre|mensuel(?:le)?s?|"
    r"mensual(?:es)?|achats?|compras?|pendientes?|pay[ée]e?s|pagadas?|impay[ée]e?s|"
    # duplicates, the close, approvals, the currency and the payment term in French and Spanish
    r"doublons?|duplicad[oa]s?|dupliqu[ée]e?s|en\s+double|deux\s+fois|dos\s+veces|cierre|cl[ôo]ture|"
    r"homologad[oa]s?|homologu[ée]e?s?|agr[ée][ée]e?s?|aprobad[oa]s?|approuv[ée]e?s?|devises?|divisas?|plazos?\s+de\s+pago|"
    r"d[ée]lais?\s+de\s+paiement|conditions\s+de\s+paiement|condiciones\s+de\s+pago|garant[íi]a|"
    r"mars(?=\s+(?:19|20)\d{2}\b)|"
    # abbreviated months only these writers use, with their dot ("déc. 2025", "ene.-mar. 2026"), and the words
    # of unit prices, units, shares and informal group names ("prix unitaire", "unidades", "gastos de envío")
    r"d[ée]c(?=\.)|avr(?=\.)|ene(?=\.)|abr(?=\.)|prix|precio|unidades|unit[ée]s|porcentaje|pourcentage|"
    r"fournitures|env[íi]os?|inclus(?:e|es)?"
)
_MARKERS = re.compile(rf"(?<![\w-])(?:{_WORDS})(?![\w-])|[¿¡]", _I)
#: Notations only these writers use, case as written: "HT", "TTC", "T1 2026", "1T26", "S1 2026", "2S 2025".
_CASED_MARKERS = re.compile(r"\b(?:HT|TTC|T\d(?=[\s/-]*(?:20)?\d{2}\b)|\d[TS](?=[\s/-]*(?:20)?\d{2}\b)|"
                            r"S\d(?=[\s/-]*(?:20)?\d{2}\b))\b|\b[1-4][TS]\d{2}\b")

_MONTHS = {
    "janvier": 1, "janv": 1, "février": 2, "fevrier": 2, "févr": 2, "fevr": 2, "mars": 3, "avril": 4, "avr": 4,
    "mai": 5, "juin": 6, "juillet": 7, "juil": 7, "août": 8, "aout": 8, "septembre": 9, "octobre": 10,
    "novembre": 11, "décembre": 12, "decembre": 12, "déc": 12,
    "enero": 1, "ene": 1, "febrero": 2, "marzo": 3, "abril": 4, "abr": 4, "mayo": 5, "junio": 6, "julio": 7,
    "agosto": 8, "ago": 8, "septiembre": 9, "setiembre": 9, "sept": 9, "set": 9, "octubre": 10, "noviembre": 11,
    "diciembre": 12, "dic": 12,
    # abbreviations shared with English, months only beside a year ("mar. 2026", "ene.-mar. 2026")
    "mar": 3, "feb": 2, "jun": 6, "jul": 7, "sep": 9, "oct": 10, "nov": 11, "dec": 12,
}
_MONTH_EN = ("", "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December")
#: Month words that are English words or names too ("set", "mars", "ago"): months only beside a day or a year.
_AMBIGUOUS_MONTHS = {"mars", "set", "ago", "sept", "mai", "ene", "dic", "avr", "abr", "mayo", "mar", "feb", "jun",
                     "jul", "sep", "oct", "nov", "dec"}
#: The French and Spanish month words and the ambiguous ones among them, for the other period readers
#: (router/period_grammar.py).
ROMANCE_MONTHS: dict[str, int] = _MONTHS
AMBIGUOUS_MONTHS: set[str] = _AMBIGUOUS_MONTHS
_MONTH_W = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MONTHS_EN = "January|February|March|April|May|June|July|August|September|October|November|December"
_ORDINALS = {
    "1": 1, "1er": 1, "1re": 1, "1ère": 1, "1.er": 1, "1º": 1, "1°": 1, "1o": 1, "premier": 1, "première": 1,
    "primer": 1, "primero": 1, "primera": 1,
    "2": 2, "2e": 2, "2ème": 2, "2eme": 2, "2nd": 2, "2nde": 2, "2º": 2, "2°": 2, "2o": 2, "deuxième": 2,
    "deuxieme": 2, "second": 2, "seconde": 2, "segundo": 2, "segunda": 2,
    "3": 3, "3e": 3, "3ème": 3, "3eme": 3, "3º": 3, "3°": 3, "3er": 3, "3o": 3, "troisième": 3, "troisieme": 3,
    "tercer": 3, "tercero": 3, "tercera": 3,
    "4": 4, "4e": 4, "4ème": 4, "4eme": 4, "4º": 4, "4°": 4, "4o": 4, "quatrième": 4, "quatrieme": 4,
    "cuarto": 4, "cuarta": 4,
}
_ORD_W = "|".join(re.escape(o) for o in sorted(_ORDINALS, key=len, reverse=True) if not o.isdigit())
_ORD_EN = ("", "first", "second", "third", "fourth")
_YEAR = r"((?:19|20)\d{2})"
#: Words between an ordinal period and its year: "du", "de", "del", "de l'année", "de la".
_OF_YEAR = r"(?:\s+(?:de\s+l['’]ann[ée]e|de\s+l['’]exercice|del\s+a[ñn]o|de|del|d['’]|du))?\s*"
_ARTICLE = r"(?:(?:au|en\s+el|en\s+le|en|le|el|la|du|del|pour\s+le|para\s+el|sur\s+le)\s+)?"


def _ordinal(word: str) -> int:
    return _ORDINALS[word.lower()]


def _day(match: re.Match[str], day: str, month: str, year: str | None, text: str) -> str:
    """An ISO day; a day written without its year takes the next year the question names, else stays."""
    if year is None:
        later = re.search(rf"(?<![\w./-]){_YEAR}(?![\w./-])", text[match.end():])
        if later is None:
            return match.group(0)
        year = later.group(1)
    number = 1 if day.lower() in ("1er", "premier", "primero", "1º", "1°") else int(re.sub(r"\D", "", day))
    try:
        return dt.date(int(year), _MONTHS[month.lower().rstrip(".")], number).isoformat()
    except ValueError:
        return match.group(0)  # "31 févr. 2026": no day of any calendar, left for the reader to ask about


#: A day with its month in words: "3 févr. 2026", "le 1er mars 2026", "el 3 de febrero de 2026".
_DAY_WORDS = re.compile(
    rf"(?<![\w/.-])(1er|premier|primero|[1-3]?\d(?:º|°)?)\s+(?:de\s+)?({_MONTH_W})\.?(?![\w])"
    rf"(?:\s*(?:de\s+|del\s+)?{_YEAR}(?![\w./-]))?", _I)
#: A slashed or dashed day, day first as these writers write it: "03/02/2026", "3-2-2026", "03/02/26".
_SLASHED = re.compile(r"(?<![\w/.-])(\d{1,2})[/-](\d{1,2})[/-]((?:19|20)?\d{2})(?![\w/-]|[.,]\d)")


def romance_days(text: str) -> str:
    """French and Spanish calendar days as ISO dates (day first).

    >>> romance_days("depuis le 3 févr. 2026 et le 03/02/2026, el 1 de marzo de 2026")
    'depuis le 2026-02-03 et le 2026-02-03, el 2026-03-01'
    """
    def words(match: re.Match[str]) -> str:
        return _day(match, match.group(1), match.group(2), match.group(3), text)

    def slashed(match: re.Match[str]) -> str:
        year = match.group(3) if len(match.group(3)) == 4 else f"20{match.group(3)}"
        try:
            return dt.date(int(year), int(match.group(2)), int(match.group(1))).isoformat()
        except ValueError:
            return match.group(0)

    return _SLASHED.sub(slashed, _DAY_WORDS.sub(words, text))


def _month(match: re.Match[str]) -> str:
    word = match.group(1)
    return _MONTH_EN[_MONTHS[word.lower().rstrip(".")]]


def _quarter(n: int, year: str | None) -> str:
    return f" Q{n} {year}" if year else f" the {_ORD_EN[n]} quarter"


def _half(n: int, year: str | None) -> str:
    return f" H{n} {year}" if year else f" the {_ORD_EN[n]} half"


_AMOUNT_AHEAD = r"(?=\s*(?:[€$£]|\d|eur\b|usd\b))"
_SUPPLIER = r"(?:fournisseurs?|proveedor(?:es)?)"
#: (pattern, replacement), applied in order; longer phrases before the words inside them.
_RULES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p, _I), r)
    for p, r in (
        (r"[¿¡]", " "),
        # --- question frames of whole French / Spanish questions
        (r"\bcombien\s+(?:avons[-\s]nous|a[-\s]t[-\s]on|a)\s+d[ée]pens[ée]\b", "how much did we spend"),
        (r"\bcombien\s+(?:avons[-\s]nous|a[-\s]t[-\s]on|a)\s+pay[ée]\s+(?:[àa]\s+|au\s+)?", "how much did we pay "),
        (r"\bcu[áa]nto\s+(?:le\s+)?(?:hemos\s+pagado|pagamos|pag[óo])\s+(?:a\s+|al\s+)?", "how much did we pay "),
        # the invoices themselves, and what is asked of them
        (r"\b(?:la\s+)?(?:liste|lista|relev[ée])\s+(?:des|de\s+las|de\s+los|de)\s+(?=factur)", "list "),
        (r"\b(factures?|facturas?)\s+(?:(?:la|le|les|las|los|el)\s+)?(?:plus\s+(?:[ée]lev[ée]e?s?|grosses?|gros|"
         r"importantes?)|m[áa]s\s+(?:altas?|grandes?|elevadas?|importantes?)|mayor(?:es)?)\b",
         lambda m: f"largest {m.group(1)}"),
        (r"\b(factures?|facturas?)\s+(?:(?:la|le|les|las|los|el)\s+)?(?:plus\s+(?:petites?|faibles?)|"
         r"m[áa]s\s+(?:peque[ñn]as?|bajas?)|menor(?:es)?)\b", lambda m: f"smallest {m.group(1)}"),
        (r"\b(?:(?:la\s+|le\s+|el\s+)?(?:moyenne|montant\s+moyen|valeur\s+moyenne|promedio|importe\s+medio|"
         r"valor\s+medio)\s+(?:par|des|de\s+las|de\s+los|por|de)\s+factur\w*)\b", "average invoice value"),
        (r"\b(factures?|facturas?)\s+(?:impay[ée]e?s?|non\s+pay[ée]e?s?|pendientes?(?:\s+de\s+pago)?|no\s+pagadas?|"
         r"ouvertes?|abiertas?)\b", r"unpaid \1"),
        (r"\b(factures?|facturas?)\s+(?:pay[ée]e?s?|r[ée]gl[ée]e?s?|pagadas?)\b", r"paid \1"),
        # all the tenant's companies: "toutes sociétés", "l'ensemble des sociétés", "todas las empresas"
        (r"\b(?:(?:pour\s+|sur\s+)?(?:toutes\s+(?:les\s+|nos\s+)?|l['’]ensemble\s+des\s+)(?:soci[ée]t[ée]s|entit[ée]s)|"
         r"(?:para\s+|de\s+)?todas\s+(?:las\s+|nuestras\s+)?(?:empresas|sociedades|entidades))\b", " all companies "),
        # two periods set against each other
        (r"\b(?:par\s+rapport\s+(?:au|[àa](?:\s+la)?|aux)|compar[ée]e?s?\s+(?:au|[àa](?:\s+la)?)|frente\s+(?:al|a(?:\s+la)?)|"
         r"comparad[oa]s?\s+con(?:\s+el|\s+la)?|respecto\s+(?:al|a(?:\s+la)?))(?=\s)", " vs"),
        (r"\b(?:quel(?:le)?s?|cu[áa]l(?:es)?|qu[ée])\s+(?:a|ont)\s+[ée]t[ée]\b|\b(?:a|ont)\s+[ée]t[ée]\b",
         "what was"),
        # "combien d'avoirs en €": an amount asked in a currency is the value, never the number of documents
        (r"\bcombien\s+(?:de|d['’])\s*(?=(?:avoirs|factures|credit\s+notes|invoices)\s+(?:en|in)\s+"
         r"(?:€|eur\b|euros?\b|usd\b|gbp\b|chf\b|\$|£))", "total of "),
        (r"\bcombien\s+(?:de|d['’])\s*", "how many "),
        (r"\bcombien\b", "how much"),
        (r"\bcu[áa]nt[oa]s\b", "how many"),
        (r"\bcu[áa]nto\s+(?:se\s+)?(?:gast[óo]|gastamos|gastaron|ha\s+gastado|hemos\s+gastado)\b",
         "how much did spend"),
        (r"\bcu[áa]nto\b", "how much"),
        (r"\b(?:quel(?:le)?s?|cu[áa]l(?:es)?|qu[ée])\s+(?:est|sont|[ée]tait|es|son|fue|era)\b", "what is"),
        (r"\b(?:quel(?:le)?s?|cu[áa]l(?:es)?)\b", "which"),
        (r"\b(?:a[-\s]t[-\s]on|avons[-\s]nous|a|ont)\s+d[ée]pens[ée]\b", "spent"),
        (r"\bd[ée]pens(?:é|ée|és|ées)(?!\w)|\bgastó(?!\w)|\bgastamos\b|\bgastaron\b|\bha\s+gastado\b|"
         r"\bhemos\s+gastado\b", "spent"),
        # --- VAT basis: "HT", "hors taxes", "sin IVA", "base imponible" are net; "TTC", "con IVA" gross
        (r"\b(?:hors\s+taxes?|hors\s+tva|sin\s+iva|base\s+imponible|(?-i:HT)|(?-i:H\.T\.))(?!\w)", "net of VAT"),
        (r"\b(?:toutes\s+taxes\s+comprises|tva\s+comprise|con\s+iva|iva\s+incluido|(?-i:TTC)|(?-i:T\.T\.C\.))(?!\w)",
         "including VAT"),
        (r"\b(?:tva|iva)\b", "VAT"),
        # "the TTC figure": the total including VAT (the governed spend); "the TTC amount" in English word order
        # (an "amount TTC" of one invoice stays the document's amount, never a total of its own)
        (r"\bincluding\s+VAT\s+(?:figure|number|value)s?\b", "total including VAT"),
        (r"\bincluding\s+VAT\s+(amounts?|sums?)\b", r"\1 including VAT"),
        # --- days (before the months and the comparators that hold their words)
        # --- periods: quarters and halves with a year, then without one
        # "T5 2026", "S3": no quarter or half of any year, written as the English one so it is asked about
        (rf"\b{_ARTICLE}(?-i:T)([05-9])(?=[\s/-]*(?:20)?\d{{2}}\b)", r" Q\1"),
        (rf"\b{_ARTICLE}(?-i:S)([03-9])(?=[\s/-]*(?:20)?\d{{2}}\b)", r" H\1"),
        (rf"\b{_ARTICLE}([05-9])(?-i:T)(?=[\s/-]*(?:20)?\d{{2}}\b)", r" Q\1"),
        (rf"\b{_ARTICLE}([03-9])(?-i:S)(?=[\s/-]*(?:20)?\d{{2}}\b)", r" H\1"),
        (rf"\b{_ARTICLE}(?-i:T)([1-4])[\s/-]*(?:20)?(\d{{2}})\b", lambda m: f" Q{m.group(1)} 20{m.group(2)}"),
        (rf"\b{_ARTICLE}([1-4])(?-i:T)[\s/-]*(?:20)?(\d{{2}})\b", lambda m: f" Q{m.group(1)} 20{m.group(2)}"),
        (rf"\b{_ARTICLE}(?-i:S)([12])[\s/-]*(?:20)?(\d{{2}})\b", lambda m: f" H{m.group(1)} 20{m.group(2)}"),
        (rf"\b{_ARTICLE}([12])(?-i:S)[\s/-]*(?:20)?(\d{{2}})\b", lambda m: f" H{m.group(1)} 20{m.group(2)}"),
        (rf"\b{_ARTICLE}(?-i:T)([1-4])\b", lambda m: f" Q{m.group(1)}"),
        (rf"\b{_ARTICLE}(?-i:S)([12])\b", lambda m: f" H{m.group(1)}"),
        (rf"\b{_ARTICLE}({_ORD_W}|[1-4](?=\s))\s*trimestre{_OF_YEAR}{_YEAR}\b",
         lambda m: _quarter(_ordinal(m.group(1)), m.group(2))),
        (rf"\b{_ARTICLE}trimestre\s+([1-4]){_OF_YEAR}{_YEAR}\b", lambda m: _quarter(int(m.group(1)), m.group(2))),
        (rf"\b{_ARTICLE}({_ORD_W})\s*trimestre\b", lambda m: _quarter(_ordinal(m.group(1)), None)),
        (rf"\b{_ARTICLE}({_ORD_W}|[12](?=\s))\s*semestre{_OF_YEAR}{_YEAR}\b",
         lambda m: _half(_ordinal(m.group(1)), m.group(2))),
        (rf"\b{_ARTICLE}semestre\s+([12]){_OF_YEAR}{_YEAR}\b", lambda m: _half(int(m.group(1)), m.group(2))),
        (rf"\b{_ARTICLE}({_ORD_W})\s*semestre\b", lambda m: _half(_ordinal(m.group(1)), None)),
        (r"\b(?:(?:sur|pour|en|durant|dans|de)\s+)?l['’]\s*exercice(?:\s+fiscal)?\s+(?:de\s+)?" + _YEAR + r"\b",
         r" FY\1"),
        (r"\b(?:(?:au\s+cours\s+de|sur|pour|en|durant|de|del|para)\s+)?(?:l['’]\s*|el\s+)?"
         r"(?:exercice|ejercicio|a[ñn]o\s+fiscal)(?:\s+fiscal)?\s+(?:de\s+)?" + _YEAR + r"\b", r" FY\1"),
        # (set against a named period, the quarter before is that period's: "Q1 2026 par rapport au trimestre
        # précédent" is Q4 2025 vs Q1 2026, whatever the day asked)
        (r"\b(?:par\s+rapport\s+(?:au|à)|compar[ée]e?s?\s+(?:au|à)|frente\s+al?|comparad[oa]s?\s+con|vs\.?)\s+"
         r"(?:le\s+|el\s+)?trimestre\s+(?:pr[ée]c[ée]dent|anterior)\b", "vs the previous quarter"),
        (r"\b(?:le\s+|el\s+)?trimestre\s+(?:dernier|pr[ée]c[ée]dent|pasado|anterior)\b|"
         r"\b(?:le\s+|el\s+)?(?:dernier|[úu]ltimo)\s+trimestre\b", "last quarter"),
        (r"\b(?:le\s+|el\s+)?mois\s+(?:dernier|pr[ée]c[ée]dent)\b|\b(?:el\s+)?mes\s+(?:pasado|anterior)\b",
         "last month"),
        (r"\b(?:l['’]\s*)?ann[ée]e\s+(?:derni[èe]re|pr[ée]c[ée]dente)\b|\b(?:el\s+)?a[ñn]o\s+(?:pasado|anterior)\b",
         "last year"),
        (r"\b(?:ce|este)\s+trimestre\b", "this quarter"),
        (r"\b(?:ce|este)\s+mois\b|\beste\s+mes\b", "this month"),
        (r"\b(?:cette\s+ann[ée]e|este\s+a[ñn]o)\b", "this year"),
        (r"\b(?:depuis\s+le\s+d[ée]but\s+de\s+l['’]ann[ée]e|en\s+lo\s+que\s+va\s+(?:de|del)\s+a[ñn]o)\b",
         "year to date"),
        # --- month ranges of one year written with a dash: "ene.-mar. 2026" is January to March 2026 (read as
        # one month before, the first month was dropped silently)
        (rf"\b(?:(?:for|in|en|pour|para|de|del|du|desde|au)\s+)?({_MONTH_W})\.?\s*[-–]\s*({_MONTH_W})\.?\s+"
         rf"(?:de\s+|del\s+)?{_YEAR}\b",
         lambda m: f"from {_month(m)} {m.group(3)} to {_MONTH_EN[_MONTHS[m.group(2).lower()]]} {m.group(3)}"),
        # --- months: "janv. 2026", "marzo de 2026", "en enero"; an English-looking month word only with its year
        (rf"\b(?:entre|de|du|desde|del)\s+((?!(?:{'|'.join(_AMBIGUOUS_MONTHS)})\b(?!\.))(?:{_MONTH_W}))\.?\s+(?:[àa]|al|et|y|"
         rf"hasta)\s+((?:{_MONTH_W}))\b\.?(?:\s+(?:de|del)(?=\s+(?:19|20)\d{{2}}))?", lambda m: f"from {_month(m)} to "
                                              f"{_MONTH_EN[_MONTHS[m.group(2).lower().rstrip('.')]]}"),
        (rf"\b({_MONTH_W})\.?\s+(?:de\s+|del\s+)?(?={_YEAR}\b)", lambda m: f"{_month(m)} "),
        (rf"\b((?!(?:{'|'.join(_AMBIGUOUS_MONTHS)})\b)(?:{_MONTH_W}))\.?(?![\w])", _month),
        # "juillet 2025 à avril 2026 inclus": a range of whole months, both included (as "to" reads them)
        (rf"\b(?:(?:de|du|desde|depuis)\s+)?({_MONTHS_EN})\s+{_YEAR}\s*(?:[àa]|au|al|hasta|jusqu['’]\s*(?:[àa]|en)|"
         rf"[-–])\s*({_MONTHS_EN})\s+{_YEAR}(?:\s*,?\s*\(?(?:inclus(?:e|es)?|compris(?:e|es)?|inclusivement|"
         rf"incluid[oa]s?|inclusive)\b\)?)?", r"from \1 \2 to \3 \4"),
        # --- open and closed ranges of days and months
        # "du 01/02/2026 au 15/03/2026", "del 1 al 15 de marzo": the last day is included ("until" includes it)
        (r"\b(?:du|del|de|desde(?:\s+el)?)\s+(\d{4}-\d{2}-\d{2})\s+(?:au|al|[àa]|hasta(?:\s+el)?|jusqu['’]\s*au)\s+"
         r"(\d{4}-\d{2}-\d{2})\b", r"since \1 until \2"),
        (r"\bentre\s+(?:le\s+|el\s+)?(\d{4}-\d{2}-\d{2})\s+(?:et|y)\s+(?:le\s+|el\s+)?(\d{4}-\d{2}-\d{2})\b",
         r"since \1 until \2"),
        (r"\bentre\s+(\S+(?:\s+\S+)?)\s+(?:et|y)\s+", r"between \1 and "),
        (r"\b(?:depuis|desde)(?:\s+(?:le|el|la))?\b", "since"),
        # "à partir de sept.", "a partir de octubre": a start, as "from" (before "de" is read as "of")
        (r"(?<!\w)(?:[àa]\s+partir\s+(?:de(?:l)?|d['’]|du)\s*(?:(?:le|la|el)\s+)?)", "from "),
        (r"\b(?:jusqu['’]\s*(?:au|[àa](?:\s+la)?|en)|hasta(?:\s+(?:el|la))?)\b", "until"),
        # --- breakdowns; a cost centre is a dimension the data does not have, named back (router/dimensions.py)
        (r"\b(?:par|por)\s+(?:centres?\s+de\s+co[ûu]ts?|centros?\s+de\s+cost[eo]s?)\b", "by cost centre"),
        (r"\b(?:centres?\s+de\s+co[ûu]ts?|centros?\s+de\s+cost[eo]s?)\b", "cost centre"),
        # other groupings the data does not have, in English so the reader names them back (router/dimensions.py)
        (r"\b(?:par|por)\s+(?:r[ée]gions?|regi[óo]n(?:es)?)\b", "by region"),
        (r"\b(?:par|por)\s+(?:d[ée]partements?|departamentos?|services?)\b", "by department"),
        (r"\b(?:par|por)\s+(?:projets?|proyectos?)\b", "by project"),
        (r"\b(?:par|por)\s+(?:acheteurs?|compradore?s?)\b", "by buyer"),
        (r"\b(?:par|por)\s+(?:sites?|usines?|plantas?|[ée]tablissements?)\b", "by plant"),
        (r"\b(?:par|por)\s+mois\b|\bpor\s+mes(?:es)?\b|\bmensuel(?:le)?(?:ment)?s?\b|\bmensual(?:es|mente)?\b|"
         r"\bmois\s+par\s+mois\b|\bmes\s+a\s+mes\b", "by month"),
        (r"\b(?:par|por)\s+trimestres?\b|\btrimestriel(?:le)?s?\b|\btrimestral(?:es)?\b", "by quarter"),
        (rf"\b(?:par|por)\s+{_SUPPLIER}\b", "by supplier"),
        (r"\b(?:par|por)\s+cat[ée]gor(?:ie|[íi]a)s?\b", "by category"),
        (r"\b(?:par|por)\s+produc?(?:it|to)s?\b", "by product"),
        (r"\b(?:par|por)\s+soci[ée]t[ée]s?\b|\bpor\s+empresas?\b", "by company"),
        # --- duplicates: "facturas duplicadas", "doublons", "factures reçues deux fois" (router/duplicates.py)
        (r"\b(?:factures?|facturas?)\s+(?:duplicad[oa]s?|dupliqu[ée]e?s?|en\s+double)\b", "duplicate invoices"),
        (r"\b(?:doublons?|duplicad[oa]s?|dupliqu[ée]e?s?)\b", "duplicates"),
        (r"\b(?:re[çc]ue?s?|recibid[oa]s?|enregistr[ée]e?s?|registrad[oa]s?|export[ée]e?s?|exportad[oa]s?|"
         r"comptabilis[ée]e?s?|contabilizad[oa]s?)\s+(?:deux\s+fois|dos\s+veces)\b", "received twice"),
        (r"\b(?:deux\s+fois|dos\s+veces|en\s+double)\b", "twice"),
        # --- the close of a period ("booked after the cierre"): the period end of a cut-off (router/cutoff.py)
        (r"\b(?:cierre|cl[ôo]ture)(?:\s+(?:del?\s+|de\s+la\s+)?(?:periodo|per[íi]odo|mes|trimestre|ejercicio|"
         r"p[ée]riode|mois|exercice))?\b", "period end"),
        # --- approved vendors: "proveedores homologados", "fournisseurs agréés" (the approval list)
        (rf"\b{_SUPPLIER}\s+(?:homologad[oa]s?|agr[ée][ée]e?s?|aprobad[oa]s?|approuv[ée]e?s?|r[ée]f[ée]renc[ée]s)\b",
         "approved suppliers"),
        (r"\b(?:homologad[oa]s?|homologu[ée]e?s?|agr[ée][ée]e?s?|aprobad[oa]s?|approuv[ée]e?s?)(?!\w)", "approved"),
        # --- a document's currency and an agreement's payment term and warranty
        (r"\b(?:devises?|divisas?)\b", "currency"),
        (r"\b(?:(?:le|el|les|los)\s+)?(?:plazos?\s+de\s+pago|d[ée]lais?\s+de\s+paiement|conditions\s+de\s+paiement|"
         r"condiciones\s+de\s+pago)\b", "payment terms"),
        (r"\bgarant[íi]a\b", "warranty"),
        # --- documents and measures
        (r"\bnotas?\s+de\s+cr[ée]dito\b|\babonos\b|\bavoirs\b", "credit notes"),
        (r"\b(?:(?<=un\s)|(?<=l['’])|(?<=cet\s)|(?<=chaque\s))avoir\b|\babono\b", "credit note"),
        (r"\b(?:nombre|n[úu]mero|cantidad)\s+(?:de|d['’])\s*", "number of "),
        (r"\bfactures\b|\bfacturas\b", "invoices"),
        (r"\bfacture\b|\bfactura\b", "invoice"),
        (r"\b(?:montant|importe|chiffre|cifra)s?\s+(?:total(?:e|es)?\s+)?(?:des|de\s+las|de\s+los|de\s+la|de|del)\s+"
         r"(?=invoices?|credit)", "total of "),
        (r"\b(?:le|el|la)?\s*(?:total|somme|suma)\s+(?:des|de\s+las|de\s+los|de)\s+(?=invoices?\b)", "total of "),
        (r"\b(?:montant|importe|chiffre|cifra)s?(?:\s+total(?:e|es)?)?\b", "total"),
        # unit prices and units: "prix unitaire moyen", "precio medio unitario", "unidades", "unités"
        (r"\bprix\s+(?:unitaire\s+moyen|moyen\s+unitaire)\b|\bprecio\s+(?:medio|promedio)\s+unitario\b|"
         r"\bprecio\s+unitario\s+(?:medio|promedio)\b", "average unit price"),
        (r"\bprix\s+unitaire\b|\bprecio\s+unitario\b|\bprecio\s+por\s+unidad\b", "unit price"),
        (r"\bunidades\b|\bunit[ée]s\b", "units"),
        # "porcentaje de variación", "pourcentage d'évolution": the change in percent, never a share of a whole
        (r"\b(?:porcentaje|pourcentage|porcentagem)\s+(?:de\s+|d['’]\s*)(?:la\s+|l['’]\s*)?(?:variaci[óo]n|varia[çc][ãa]o|"
         r"variation|cambio|mudan[çc]a|changement|[ée]volution|evoluci[óo]n|crecimiento|crescimento|croissance|"
         r"aumento|augmentation|incremento|diferencia|diferen[çc]a|diff[ée]rence)\b", "percent change"),
        (r"\b(?:qu[ée]\s+|quel\s+)?(?:porcentaje|pourcentage)\b", "what percentage"),
        # informal names of the usual catalogue groups, in the English a catalogue names them with
        (r"\b(?:gastos\s+de\s+(?:env[íi]os?|transporte|porte)|frais\s+de\s+(?:port|transport|livraison)|"
         r"frais\s+d['’](?:envoi|exp[ée]dition)|env[íi]os?)\b", "shipping"),
        (r"\b(?:fournitures|mat[ée]riel)\s+de\s+bureau\b|\b(?:material|suministros|art[íi]culos)\s+de\s+oficina\b",
         "office supplies"),
        (r"\b(?:d[ée]penses?|gastos?|achats?|compras?)(?:\s+totale?s?)?\b", "spend"),
        (r"\bmoyenne\b|\bpromedio\b|\bmoyen(?:ne)?\b|\bmedio\b", "average"),
        (r"\bimpay[ée]e?s?\b|\bpendientes?\s+de\s+pago\b|\bno\s+pagadas?\b|\bpendientes?\b", "unpaid"),
        (r"\bpay[ée]e?s\b|\bpagadas?\b", "paid"),
        # --- suppliers: "fournisseur Helix", "chez Helix", "con Helix", "auprès de Helix"
        # (a capital after the word is a name, not a period: "top 2 fournisseurs S2 2025", "proveedores T1")
        (rf"\b(?<=with\s)(?:le\s+|el\s+)?{_SUPPLIER}\s+(?=(?-i:[A-Z]))(?!(?-i:[QHST][1-4]|[1-4][TS]|FY)\b)", ""),
        (rf"\b(?:du|del|de|le|el)?\s*{_SUPPLIER}\s+(?=(?-i:[A-Z]))(?!(?-i:[QHST][1-4]|[1-4][TS]|FY)\b)", " from "),
        (r"\b(?:les|los)\s+(\d{1,2})\s+(?:plus\s+gros|principaux|principales|premiers|mayores|primeros)\s+"
         + _SUPPLIER + r"\b", r"top \1 suppliers"),
        (r"\btop\s+(\d{1,2})\s+(?:des\s+|de\s+)?" + _SUPPLIER + r"\b", r"top \1 suppliers"),
        (rf"\b{_SUPPLIER}\b", "suppliers"),
        (r"\b(?:chez|aupr[èe]s\s+(?:de|du|d['’])|con|avec)\s+", "with "),
        # --- comparators before an amount ("12 500,50 €" is read by router/reading.py as written)
        (rf"\b(?:sup[ée]rieur(?:e|es|s)?\s+[àa]|plus\s+de|au[-\s]dessus\s+de|m[áa]s\s+de|superior(?:es)?\s+a|"
         rf"por\s+encima\s+de){_AMOUNT_AHEAD}", "over"),
        (rf"\b(?:inf[ée]rieur(?:e|es|s)?\s+[àa]|moins\s+de|en[-\s]dessous\s+de|menos\s+de|inferior(?:es)?\s+a|"
         rf"por\s+debajo\s+de){_AMOUNT_AHEAD}", "under"),
        (rf"\b(?:au\s+moins|al\s+menos|como\s+m[íi]nimo){_AMOUNT_AHEAD}", "at least"),
        (rf"\b(?:au\s+plus|como\s+m[áa]ximo){_AMOUNT_AHEAD}", "at most"),
        # --- exclusions and function words (after the phrases that hold them)
        # ("sin contar a X", "sans compter X": the whole cue is read by router/exclusion_words.py, kept as typed)
        (r"\b(?:sauf|hors|excepto|salvo|sin|except[ée])\b(?!\s+(?:contar|incluir|compter|inclure)\b)", "excluding"),
        (r"\b(?:pour|para)\s+(?:le|la|les|el|los|las|l['’])?\s*", "for "),
        (r"\b(?:au|aux|en)\s+(?=(?:[QH][1-4]|FY|\d{4}|January|February|March|April|May|June|July|August|September|"
         r"October|November|December)\b)", "in "),
        # a space after the word ("DELTA ENCLOSURES" starts with "DEL", no article)
        (r"\b(?:(?:de\s+la|de\s+las|de\s+los|des|du|del|de)\s+|d['’]\s*)(?=(?-i:[A-Z]))", "of "),
        (r"\b(?:et|y)\b(?=\s+(?-i:[a-zA-Z]))", "and"),
        (r"\b(?:la|le|les|el|los|las|l['’]|un|une|una|uno)(?=\s|$)", " "),
        (r"\bl['’]", " "),
        (r"\b(?:de|des|du|del|d['’])(?=\s|$)", " of "),
        (r"\b(?:en|au|aux|dans)\b", "in"),
        (r"\b(?:est|es|sont|son|fue|era)\b(?!-)", "is"),
        (r"\b(?:total(?:e|es)?|totaux|somme|suma)\b", "total"),
        (r"\b(?:tiene|tienen|tenemos|hay|y\s+a[-\s]t[-\s]il|a[-\s]t[-\s]il|a[-\s]t[-\s]elle)\b", " "),
        (r"\b(?:nous|nosotros|avons|hemos|ont|sur|s['’]il\s+vous\s+pla[îi]t|svp|por\s+favor)\b", " "),
    )
)


#: A company prefix: "la Cie A", "Sté B", "Empresa C" (a bare letter is the tenant's "Company A"), "Société
#: Kestrel" (the prefix dropped, the name kept as typed).
_PREFIX = re.compile(r"\b(?:(?:la|l['’])\s*)?(cie|c[íi]a|sté|ste|soci[ée]t[ée]|empresa|compa[ñn][íi]a)\.?\s+"
                     r"(?=(?-i:[A-Z]))", _I)


def _company_prefixes(text: str, keep: Iterable[str]) -> str:
    """``text`` without its company prefixes; a prefix that begins a known name ("Société Générale") stays."""
    kept = tuple(k.casefold() for k in keep)

    def sub(match: re.Match[str]) -> str:
        rest = text[match.start(1):].casefold()
        if any(rest.startswith(name) for name in kept):
            return match.group(0)
        letter = re.match(r"[A-Z]\b", text[match.end():])
        if letter is not None:
            return " Company "
        return match.group(0) if match.group(1).lower() in ("ste", "compañía", "compania", "compañia") else " "

    return _PREFIX.sub(sub, text)


#: A gloss in brackets: "shipping services (gastos de envío)", "average unit price (prix unitaire moyen)".
_BRACKETED = re.compile(r"\s*\(([^()]{1,80})\)")
#: The same words twice across a slash: "office supplies / fournitures de bureau", once both are in English.
_SLASHED_TWICE = re.compile(r"\b([^\W\d][\w ]{2,40}?)\s*/\s*\1\b", _I)
#: What names a figure; without any of them a bare "TTC" asks for the total including VAT.
_MEASURED = re.compile(r"\b(?:spend|spent|total|cost|costs|paid|pay|amounts?|invoices?|credit\s+notes?|prices?|"
                       r"units?|how\s+much|how\s+many|share|percent(?:age)?|average|top|largest|smallest|rank\w*|"
                       r"count|number|list|which|what|who)\b|%", _I)


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"\w+", text)}


def _drop_glosses(text: str) -> str:
    """``text`` without the translations its writer glossed beside the English words, once both read the same.

    A bracket whose every word the text already says before it restates them ("shipping services (shipping)"):
    dropped, so it is neither read twice nor named as unknown; a bracket with a word of its own stays.
    """
    def bracket(match: re.Match[str]) -> str:
        inner = _words(match.group(1))
        return "" if inner and inner <= _words(text[:match.start()]) else match.group(0)

    return _SLASHED_TWICE.sub(r"\1", _BRACKETED.sub(bracket, text))


def _gross_alone(text: str) -> str:
    """"Company A, Delta, July 2025 to April 2026, TTC": a VAT basis with no figure named asks for the total."""
    if "including VAT" not in text or _MEASURED.search(text.replace("including VAT", "")):
        return text
    return text.replace("including VAT", "total including VAT", 1)


#: A dashed range of months with a French or Spanish month word: "ene-abr 2026", "janv.-mars 2026".
#: (the other end may be abbreviated as in English, "ene-mar 2026"; a range of English words alone is not this
#: module's: the period reader reads it)
_ENGLISH_ABBREVIATIONS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
                          "oct": 10, "nov": 11, "dec": 12}
_ENGLISH_MONTHS = {"mars", "mai", "sept", "set", *_ENGLISH_ABBREVIATIONS}
_RANGE_MONTHS = {**_ENGLISH_ABBREVIATIONS, **_MONTHS}
_RANGE_W = "|".join(sorted(_RANGE_MONTHS, key=len, reverse=True))
_MONTH_RANGE = re.compile(
    rf"(?<![\w-])({_RANGE_W})\.?\s*[-–]\s*({_RANGE_W})\.?\s+(?:de\s+|del\s+)?{_YEAR}(?![\w-])", _I)


def _month_range(match: re.Match[str]) -> str:
    first, last = (_RANGE_MONTHS[w.lower().rstrip('.')] for w in (match.group(1), match.group(2)))
    return f"{_MONTH_EN[first]} through {_MONTH_EN[last]} {match.group(3)}"


def is_romance(question: str) -> bool:
    """Whether ``question`` carries French or Spanish words or notations this module reads."""
    return bool(_MARKERS.search(question) or _CASED_MARKERS.search(question) or any(
        w.lower().rstrip(".") not in _ENGLISH_MONTHS for m in _MONTH_RANGE.finditer(question) for w in m.groups()[:2]))


def read_romance(question: str, keep: Iterable[str] = ()) -> str | None:
    """The question with its French / Spanish function vocabulary in English, or ``None`` when there is none.

    >>> read_romance("Quel est le total des factures de la Cie A au T1 2026 ?")
    'what is total of invoices of Company A Q1 2026 ?'
    >>> read_romance("Company A spend in Q1 2026") is None
    True
    """
    if not is_romance(question):
        return None
    # ``keep``: the tenant's names; one that starts with a prefix word ("Société Générale") is a name, kept whole
    text = _MONTH_RANGE.sub(_month_range, _company_prefixes(romance_days(question), keep))
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)  # type: ignore[arg-type, call-overload]
    text = _gross_alone(_drop_glosses(" ".join(text.split())))
    return text if text != question else None
