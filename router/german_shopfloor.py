"""German shop-floor and board-pack shorthand, spelled out before the German reader (router/german.py) runs.

Phone messages and board packs abbreviate: "Rg." (Rechnungen), "Lief." (Lieferanten), "GJ 2025" (Geschäftsjahr),
"2. HJ", "Halbjahr 2/2025", "Okt bis Dez 2025", "zwischen 1. und 15. März 2026", "netto ohne MwSt", "je
Gesellschaft", "Konzernausgaben", "Differenz", "wie viel % gingen an X". Each is rewritten here into the full
German (or English) phrase the German reader already knows, so the one reading with its span accounting still
decides; a word this table does not know is left as typed and named back. Umlauts may be typed as ae/oe/ue and
capitals may be missing (every pattern ignores case).

Why here and not in the reader's word table: these forms must be expanded *before* the German day and number
rules ("zwischen 1. und 15. März 2026" must become two full dates, or the first day is silently lost and the
period read as 15 March alone), and the abbreviations also mark a question as German ("Top 2 Lief. Kestrel").
"""

from __future__ import annotations

import re

_I = re.I | re.UNICODE

_MONTH_ABBR = {
    "jan": "Januar", "feb": "Februar", "mär": "März", "maer": "März", "mrz": "März", "apr": "April",
    "jun": "Juni", "jul": "Juli", "aug": "August", "sep": "September", "sept": "September", "okt": "Oktober",
    "nov": "November", "dez": "Dezember",
}
_MONTH_FULL = (r"(?:januar|j(?:ä|ae)nner|februar|m(?:ä|ae)rz|april|mai|juni|juli|august|september|oktober|"
               r"november|dezember)")
_ABBR = "|".join(sorted(_MONTH_ABBR, key=len, reverse=True))
_UE = r"(?:ü|ue)"
_OE = r"(?:ö|oe)"
_AE = r"(?:ä|ae)"

#: Marks a question as German although it carries none of the reader's own marker words.
MARKERS = re.compile(
    rf"(?<![\w-])(?:rgn?\.|rg\b|lief\.|gj\b|hj\b|halbjahr\w*|gesch{_AE}ftsjahr\w*|je|artikel\w*|produkte|bisher|"
    rf"gesellschaft\w*|konzern\w*|netto|mwst\.?|differenz|ggue?\.|gg{_UE}\.?|hauptwarengruppe\w*|"
    rf"einzelrechnung\w*|rechnungsposition\w*|positionen|st{_UE}ckzahl\w*|gr{_OE}(?:ß|ss)te[nrs]?|"
    rf"g{_UE}nstigste[nrs]?|h{_OE}chste[nrs]?|niedrigste[nrs]?|teuerste[nrs]?|letzte[nrms]?|diese[nrms]?|"
    rf"meter|nur|oder|jahresbeginn|jahresanfang|gingen|ging|"
    # (only the abbreviations English does not share: "Jan 1 2026" is English too)
    rf"(?:m(?:ä|ae)r|mrz|okt|dez)\.?(?=\s*(?:\d|bis\b|[-–])))",
    _I,
)
_AVERAGE_SIGN = re.compile(r"[ø⌀]\s*(?:st(?:ü|ue)ck|einzel)?preis\b", _I)

#: (pattern, replacement) in order, on the question as typed (before German days and numbers are read).
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, _I), r) for p, r in (
    # month abbreviations where they name a period: before a year, a day, a range or after a day ("Okt bis Dez
    # 2025", "15. Okt 2025", "Jan-Mär 2026"); elsewhere ("Jan" the name) they stay as typed
    (rf"(?<![\w-])(?<=\d\.\s)({_ABBR})\.?(?![\w])", "<M:\\1>"),
    (rf"(?<![\w-])(?<=\d\.)({_ABBR})\.?(?![\w])", " <M:\\1>"),
    (rf"(?<![\w-])({_ABBR})\.?(?=\s*(?:\d{{4}}|'\d{{2}}\b|bis\b|und\b|[-–/]\s*(?:{_ABBR}|{_MONTH_FULL})))",
     "<M:\\1>"),
    (rf"(?<=\bbis\s)({_ABBR})\.?(?![\w])|(?<=[-–])({_ABBR})\.?(?![\w])", "<M:\\1\\2>"),
    # a day range in one month with its month as a number: "vom 1. bis 15.3.2026", "1.-15.3.2026" (one with the
    # month's name, "zwischen 1. und 15. März 2026", is read by router/german.py's day span, both days included)
    (r"\b(zwischen|vo[nm])\s+(?:dem\s+)?(\d{1,2})\.?\s*(und|bis(?:\s+zum)?|[-–])\s*(?:dem\s+|zum\s+)?"
     r"(\d{1,2})\.(\d{1,2})\.(\d{4})\b", "vom \\2.\\5.\\6 bis \\4.\\5.\\6"),
    (r"(?<![\w.])(\d{1,2})\.\s*[-–]\s*(\d{1,2})\.(\d{1,2})\.(\d{4})\b", "vom \\1.\\3.\\4 bis \\2.\\3.\\4"),
    # the fiscal year: "GJ 2025", "Geschäftsjahr 2025", "im 1. Quartal des GJ 2026" (a calendar year here)
    (rf"\b(?:im\s+)?(\d)\.\s*(?:quartal|q)\s+(?:des|im)\s+(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)\s*(\d{{4}})\b",
     "Q\\1 \\2"),
    (rf"\bq([1-4])\s+(?:des\s+)?(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)\s*(\d{{4}})\b", "Q\\1 \\2"),
    (rf"\b(?:im\s+)?(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)\s*(\d{{4}})\b", "im Geschäftsjahr \\1"),
    (rf"\b(?:im\s+)?(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)\s*'?(\d{{2}})\b(?![.,]\d)", "im Geschäftsjahr 20\\1"),
    # the fiscal year and the half without a number: "lfd. GJ", "letztes GJ", "dieses HJ", "voriges Halbjahr"
    (rf"\b(?:im\s+)?(?:lfd\.?|laufende[nms]?|aktuelle[nms]?)\s+(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)(?![\w])",
     "year to date"),
    (rf"\b(?:im\s+)?(?:letzte[nms]?|vorige[nms]?|vorherige[nms]?|vergangene[nms]?|vorjahres-?)\s*"
     rf"(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)(?![\w])", "last year"),
    (rf"\b(?:im\s+|in\s+)?diese[nms]?\s+(?:gj\.?|gesch{_AE}ftsjahr(?:es|s)?)(?![\w])", "this year"),
    (r"\b(?:im\s+|in\s+)?(?:letzte[nms]?|vorige[nms]?|vorherige[nms]?|vergangene[nms]?)\s+(?:hj\.?|halbjahr(?:es)?)(?![\w])",
     "last half-year"),
    (r"\b(?:im\s+|in\s+)?(?:diese[nms]?|laufende[nms]?|aktuelle[nms]?|lfd\.?)\s+(?:hj\.?|halbjahr(?:es)?)(?![\w])",
     "this half-year"),
    # halves: "2. HJ 2025", "HJ 2/2025", "Halbjahr 2/2025", "H2/2025"; quarters "Q1/2026", "Quartal 1/2026"
    (r"\b(?:im\s+)?(?:hj\.?|halbjahr(?:es)?|h)\s*([12])\s*/\s*(\d{4})\b", " in H\\1 \\2"),
    (r"\b(?:im\s+)?(?:quartal|q)\s*([1-4])\s*/\s*(\d{4})\b", " in Q\\1 \\2"),
    (r"(?<![\w-])hj\.?(?![\w])", "Halbjahr"),
    (rf"\b(?:im\s+)?h{_AE}lfte\s+([12])\s*/\s*(\d{{4}})\b", " in H\\1 \\2"),
    # "H1 2026 bisher", "dieses Quartal bisher": up to the as-of date (the reader's "so far")
    (r"\bbis\s+dato\b|\bbislang\b", "bisher"),
    # "nur bereits bezahlte Rg.": "only" the filter, "already" no constraint
    (r"\bnur\s+(?:noch\s+)?(?:bereits|schon)\b", "nur"),
    (r"\bnur\b", "only"),
    # documents and their lines: "Rg.", "Rgn.", "Einzelrechnung", "Rechnungspositionen"
    (r"(?<![\w-])(?:welche[rs]?|die|eine?)\s+einzelrechnung\b", "welche Rechnung"),
    (r"(?<![\w-])einzelrechnung(en)?\b", "Rechnung\\1"),
    (r"(?<![\w-])(?:rgn?|rechn)\.(?=\s|$|[,;:?!])|(?<![\w-])rgn?\b", "Rechnungen"),
    (r"(?<![\w-])(?:rechnungs)?(?:positionen|zeilen)\b|\brechnungszeile\b|\brechnungsposition\b", "invoice lines"),
    # "Gutschriften Anzahl Q1": the count named after what is counted
    (r"\b(gutschriften|rechnungen|invoice lines)\s+(?:[-–:,]\s*)?anzahl\b(?!\s*\?*\s*$)", "Anzahl \\1"),
    # suppliers: "Lief." ("welcher Lief." is one, "Top 2 Lief." several)
    (r"(?<![\w-])(welcher|der|ein|einzige[rn]?)\s+lief\.?(?![\w])", "\\1 Lieferant"),
    (r"(?<![\w-])lief\.(?=\s|$|[,;:?!])|(?<![\w-])lief\b", "Lieferanten"),
    # the tenant's companies: "je Gesellschaft (A, B, C)", "aller drei Gesellschaften", "Konzern(ausgaben)"
    (r"\b(?:je|pro|nach)\s+(?:gesellschaft|firma|unternehmen|buchungskreis)(?:en)?\b(?:\s*\((?:[A-Z](?:\s*,\s*|\s+"
     r"und\s+|\s*\+\s*))*[A-Z]\))?", "by company"),
    (r"\b(alle[nr]?|s(?:ä|ae)mtliche[nr]?)\s+(?:\d+|zwei|drei|vier|f(?:ü|ue)nf|beiden?)\s+(gesellschaften|firmen|"
     r"unternehmen)\b", "\\1 \\2"),
    (r"\b(?:an\s+den|der)\s+konzern(?:gesamt)?ausgaben\b", "of the group spend"),
    (r"\bkonzern(?:gesamt)?ausgaben\b", "group spend"),
    (r"\b(?:im\s+|des\s+|der\s+|vom\s+)?konzerns?\b(?!\w)", "group"),
    # the top level of the product groups
    # (not after "nach/je/pro": the German reader reads "nach Hauptwarengruppe" as the top-level breakdown)
    (r"(?<!nach\s)(?<!\bje\s)(?<!pro\s)\bhaupt(?:waren)?gruppen\b", "top-level product groups"),
    (r"(?<!nach\s)(?<!\bje\s)(?<!pro\s)\bhaupt(?:waren)?gruppe\b", "top-level product group"),
    # net of VAT: "netto ohne MwSt", "exkl. MwSt", "netto"
    (r"\b(?:netto\s*)?(?:ohne|exkl\.?|exklusive|excl\.?|zzgl\.?)\s*(?:mwst|ust|mehrwertsteuer|umsatzsteuer)\.?"
     r"(?![\w])(?:\s*netto\b)?", "net spend"),
    (r"\bnetto(?:ausgaben|betrag|summe)?\b", "net spend"),
    # a change: "Differenz", "ggue. Vorjahr"; a share: "wie viel % gingen an X"
    (r"\bdifferenz\b|\bunterschied\b", "difference"),
    (r"\bggue?\.(?=\s)", "ggü."),
    # ("um wie viel Prozent ... gestiegen" is a change, read by the German reader)
    (r"(?<!\bum\s)\bwie\s*viele?\s*(?:%|prozent)\s+(?:der|des|von\s+den)?\s*([^\W\d_][\w-]*?)-?ausgaben\b",
     "what share of \\1 spend"),
    (r"(?<!\bum\s)\bwie\s*viele?\s*(?:%|prozent)(?:\s+(?:der|des)\s+(?:gesamt)?ausgaben)?", "what share of spend"),
    (r"\b(?:gingen|ging|entfielen|entfiel|flossen|floss)\s+(?:an|auf|zu)\b", "went to"),
    # a breakdown by invoice status: "nach Status bezahlt / gebucht" names the rows, not a filter
    (r"\b(?:nach|je|pro)\s+(?:rechnungs)?status\b(?:\s*\(?\s*(?:bezahlt|gebucht|offen)(?:\s*(?:/|,|und|vs\.?|"
     r"-)\s*(?:bezahlt|gebucht|offen))*\s*\)?)?", "by status"),
    # quantities: "Meter Steuerleitung", "Stückzahl", "Anzahl Euro-Kisten" (units bought, not documents counted)
    (r"^\s*(?:meter|laufmeter|lfm\.?|liter|st(?:ü|ue)ck|stk\.?)\s+(?=[^\W\d_])", "Stückzahl von "),
    (r"\bst(?:ü|ue)ckzahl(?:en)?\s+(?!(?:von|der|des|an|f(?:ü|ue)r|bei|im|in)\b)(?=[^\W\d_])", "Stückzahl von "),
    # "Gutschriften Xenon 2. Halbjahr 2025 – Anzahl?": the count asked last
    (r"\s*[-–:,]?\s*\banzahl\s*\?*\s*$", " – how many?"),
    # "Board Pack: ...", "Vorstandsvorlage: ...": the occasion, no constraint
    (r"^\s*(?:f(?:ü|ue)r\s+(?:das|den|die)\s+)?(?:board[\s-]*pack|vorstandsvorlage|vorstandsbericht|"
     r"aufsichtsratsvorlage|monatsbericht)\s*:\s*", ""),
    # "Top-5-Lieferanten": a ranking of five
    (r"\btop-(\d{1,2})-", "Top \\1 "),
    # "welche Artikel im Q1 bei Beta gekauft?": the verb last and no auxiliary, what was bought from a supplier
    (r"\bwelche\s+(artikel|produkte)\s+((?:(?!\b(?:hat|haben|wurden)\b)[^?,;])*?)\s*\b(?:bei|von)\s+"
     r"([^?,;]+?)\s+(?:gekauft|bezogen|eingekauft|bestellt)\b", "which products did we buy \\2 from \\3"),
    # unit prices: "höchster / günstigster Stückpreis" is the extreme line price, never the average
    (r"\b(?:g(?:ü|ue)nstigste[rnsm]?|niedrigste[rnsm]?|billigste[rnsm]?|minimale[rnsm]?|tiefste[rnsm]?|"
     r"kleinste[rnsm]?)\s+(?:st(?:ü|ue)ck|einzel)?preis(?:e)?\b", "lowest unit price"),
    (r"\b(?:h(?:ö|oe)chste[rnsm]?|teuerste[rnsm]?|maximale[rnsm]?|gr(?:ö|oe)(?:ß|ss)te[rnsm]?)\s+"
     r"(?:st(?:ü|ue)ck|einzel)?preis(?:e)?\b", "highest unit price"),
    # "welcher Lief. ist pro Stück am günstigsten", "welcher ist pro Stück teurer": ranked by unit price
    (r"\b(ist|war|sind|waren)\s+(?:pro|je)\s+st(?:ü|ue)ck\s+am\s+(?:g(?:ü|ue)nstigsten|billigsten)\b",
     "\\1 cheapest per unit"),
    (r"\b(ist|war|sind|waren)\s+(?:pro|je)\s+st(?:ü|ue)ck\s+am\s+teuersten\b", "\\1 most expensive per unit"),
    (r"\b(ist|war|sind|waren)\s+(?:pro|je)\s+st(?:ü|ue)ck\s+(?:g(?:ü|ue)nstiger|billiger)\b",
     "\\1 cheaper per unit"),
    (r"\b(ist|war|sind|waren)\s+(?:pro|je)\s+st(?:ü|ue)ck\s+teurer\b", "\\1 more expensive per unit"),
    (r"(?<=\w)\s+oder\s+(?=\w)", " or "),
    # "Ø Preis": the average
    (r"(?:ø|⌀|durchschn\.)\s*(?:st(?:ü|ue)ck|einzel)?preis(?![\w])", "durchschnittlicher Stückpreis"),
))

_MONTH_TOKEN = re.compile(r"<M:(\w+)>")
_MONTH_DASH = re.compile(rf"\b({_MONTH_FULL})\s*[–—]\s*({_MONTH_FULL})\b", _I)
#: Words that make "Anzahl" a count of documents or parties, not of units bought.
_COUNTED = re.compile(r"\b(?:rechnung|gutschrift|lieferant|invoice|credit|supplier|artikel|produkt|warengruppe|"
                      r"bestellung|position|beleg|dokument|transaktion|buchung|firma|firmen|gesellschaft)\w*", _I)
_ANZAHL = re.compile(r"\banzahl\s+(?:an\s+|von\s+)?(?=[^\W\d_])", _I)


def expand_shorthand(text: str) -> str:
    """``text`` with German shop-floor and board-pack shorthand spelled out.

    >>> expand_shorthand("Company C Ausgaben vom 1. bis 15.3.2026")
    'Company C Ausgaben vom 1.3.2026 bis 15.3.2026'
    >>> expand_shorthand("Top 2 Lief. Kestrel, Okt bis Dez 2025, GJ 2025")
    'Top 2 Lieferanten Kestrel, Oktober bis Dezember 2025, im Geschäftsjahr 2025'
    """
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    if not _COUNTED.search(text):
        # "Anzahl Euro-Kisten": with no document or party named, the number asked is of units bought
        text = _ANZAHL.sub("Stückzahl von ", text)
    text = _MONTH_TOKEN.sub(lambda m: _MONTH_ABBR.get(m.group(1).lower(), m.group(1)), text)
    # "Aug.–Okt. 2025": a month range with a dash is one period (an en dash would part the months from the year)
    return _MONTH_DASH.sub("\\1-\\2", text)


def is_shorthand_german(text: str) -> bool:
    """Whether ``text`` carries a German shorthand word (it is then read as German)."""
    return MARKERS.search(text) is not None or _AVERAGE_SIGN.search(text) is not None
