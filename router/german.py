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

import re

_I = re.I | re.UNICODE

#: Words that make a question German (a group synonym alone does not).
_MARKERS = re.compile(
    r"\b(?:ausgaben|gesamtausgaben|ausgegeben|wie\s+viel(?:e)?|quartal|halbjahr|gesch(?:ä|ae)ftsjahr|lieferant(?:en)?|"
    r"rechnung(?:en)?|gutschrift(?:en)?|f(?:ü|ue)r|bei|seit|zwischen|welche[rsn]?|waren|wurden|haben|hat|"
    r"unsere[rnm]?|ohne|au(?:ß|ss)er|anteil|anzahl|monatlich|durchschnitt\w*|genehmigt\w*|zugelassen\w*|"
    r"vorjahr\w*|vorquartal|gegen(?:ü|ue)ber|im|vom|bis)\b",
    _I,
)

_MONTHS_DE = {
    "januar": "January", "jänner": "January", "februar": "February", "märz": "March", "maerz": "March",
    "mai": "May", "juni": "June", "juli": "July", "oktober": "October", "dezember": "December",
}
_ORD = {"1": "1", "erste": "1", "ersten": "1", "erstes": "1", "2": "2", "zweite": "2", "zweiten": "2",
        "zweites": "2", "3": "3", "dritte": "3", "dritten": "3", "4": "4", "vierte": "4", "vierten": "4"}
_ORD_WORDS = r"(?:(\d)\.|(erste[ns]?|zweite[ns]?|dritte[ns]?|vierte[ns]?))"


def _ordinal(match: re.Match[str]) -> str:
    return _ORD[(match.group(1) or match.group(2)).lower()]


#: (pattern, replacement), applied in order; longer phrases before the words inside them.
_RULES: tuple[tuple[re.Pattern[str], object], ...] = tuple(
    (re.compile(p, _I), r)
    for p, r in (
        # periods
        (rf"\b(?:im|in|für\s+das|fürs)?\s*{_ORD_WORDS}\s*quartal\s+(\d{{4}})\b",
         lambda m: f" in Q{_ordinal(m)} {m.group(3)}"),
        (rf"\b(?:im|in)?\s*{_ORD_WORDS}\s*halbjahr\s+(\d{{4}})\b", lambda m: f" in H{_ordinal(m)} {m.group(3)}"),
        (r"\b(?:im\s+)?gesch(?:ä|ae)ftsjahr\s+(\d{4})\b", r"in FY\1"),
        (r"\b(?:im\s+)?(?:letzten|vorigen|vergangenen)\s+quartal\b", "last quarter"),
        (r"\b(?:im\s+)?(?:letzten|vorigen|vergangenen)\s+monat\b", "last month"),
        (r"\b(?:im\s+)?(?:letzten|vorigen|vergangenen)\s+jahr\b", "last year"),
        (r"\b(?:im\s+)?(?:laufenden|aktuellen)\s+quartal\b", "this quarter"),
        (r"\b(?:im\s+)?(?:laufenden|aktuellen)\s+jahr\b|\bseit\s+jahres(?:beginn|anfang)\b", "year to date"),
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|vs\.?|im\s+vergleich\s+zum?)\s+(?:dem\s+)?vorjahres(?:quartal|zeitraum)\b",
         "compared with the same quarter last year"),
        (r"\b(?:gegen(?:ü|ue)ber|ggü\.?|vs\.?|im\s+vergleich\s+zum?)\s+(?:dem\s+)?vorquartal\b",
         "compared with the previous quarter"),
        (r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b", lambda m: f"{m.group(3)}-{int(m.group(2)):02d}-{int(m.group(1)):02d}"),
        (r"\bzwischen\s+(\S+)\s+und\s+(\S+)", r"between \1 and \2"),
        (r"\bvo[nm]\s+(\d{4}-\d{2}-\d{2})\s+bis\s+(?:zum\s+)?(\d{4}-\d{2}-\d{2})", r"between \1 and \2"),
        (r"\bseit\b", "since"),
        (r"\b(" + "|".join(_MONTHS_DE) + r")\b", lambda m: _MONTHS_DE[m.group(1).lower()]),
        # metric words and question frames
        (r"\bwie\s+viele\b", "how many"),
        (r"\bwie\s+viel\s+(?:haben\s+wir|hat)\b", "how much did"),
        (r"\bwie\s+viel\b", "how much"),
        (r"\ban\s+(?:den\s+)?(?:gesamt)?ausgaben\b", "of the spend"),
        (r"\b(?:gesamt)?ausgaben\b|\beinkaufsvolumen\b", "spend"),
        (r"\bausgegeben\b", "spend"),
        (r"\b(?:durchschnittliche[rn]?\s+(?:st(?:ü|ue)ck)?preis|durchschnittspreis|durchschnittlicher\s+"
         r"einzelpreis)\b", "average unit price"),
        (r"\banzahl\s+(?:der\s+)?\b", "number of "),
        (r"\banteil\b", "share"),
        (r"\bzahlungsbedingungen\b", "payment terms"),
        (r"\b(?:in\s+)?(?:original|rechnungs)w(?:ä|ae)hrung\b", "in the invoice currency"),
        # filters and breakdowns
        (r"\b(?:nach|pro|je)\s+monat\b|\bmonatlich\b", "by month"),
        (r"\b(?:nach|pro|je)\s+lieferant(?:en)?\b", "by supplier"),
        (r"\b(?:nach|pro|je)\s+warengruppe(?:n)?\b", "by product group"),
        (r"\b(?:genehmigte|genehmigten|zugelassene|zugelassenen|freigegebene|freigegebenen)\s+lieferanten\b",
         "approved vendors"),
        (r"\b(?:offene[nr]?|unbezahlte[nr]?|nicht\s+bezahlte[nr]?)\b", "unpaid"),
        (r"\bbezahlte[nr]?\b", "paid"),
        # amount comparators (only before an amount: "über" is also "about")
        (r"\bh(?:ö|oe)chstens(?=\s*(?:[€$£]|\d|eur\b))", "at most"),
        (r"\bmindestens(?=\s*(?:[€$£]|\d|eur\b))", "at least"),
        (r"\bunter(?=\s*(?:[€$£]|\d|eur\b))", "under"),
        (r"\b(?:ü|ue)ber(?=\s*(?:[€$£]|\d|eur\b))", "over"),
        (r"\bmehr\s+als(?=\s*(?:[€$£]|\d|eur\b))", "more than"),
        (r"\bweniger\s+als(?=\s*(?:[€$£]|\d|eur\b))", "less than"),
        (r"\bbis\s+zu(?=\s*(?:[€$£]|\d|eur\b))", "up to"),
        (r"\bgutschriften\b", "credit notes"),
        (r"\bgutschrift\b", "credit note"),
        (r"\brechnungen\b", "invoices"),
        (r"\brechnung\b", "invoice"),
        (r"\blieferanten\b", "suppliers"),
        (r"\blieferant\b", "supplier"),
        (r"\bwarengruppe\b", "product group"),
        (r"\bau(?:ß|ss)er\b", "except"),
        (r"\bohne\b", "excluding"),
        (r"\bgr(?:ö|oe)(?:ß|ss)te[nrs]?\b", "biggest"),
        (r"\bkleinste[nrs]?\b", "smallest"),
        # prepositions, pronouns and question words (after the phrases that contain them)
        (r"\bf(?:ü|ue)r\b", "on"),
        (r"\bbei\b|\bmit\b", "with"),
        (r"\bvo[nm]\b", "of"),
        (r"\ban\b", "to"),
        (r"\bim\b", "in"),
        (r"\bwelche[rsn]?\b", "which"),
        (r"\bwas\s+(?:war|waren|sind|ist)\b", "what was"),
        (r"\b(?:haben|hat)\s+wir\b|\bhaben\b|\bhat\b", "did"),
        (r"\bwaren\b|\bwurden\b", "were"),
        (r"\bunsere[rnm]?\b", "our"),
        (r"\bwir\b", "we"),
        (r"\b(?:der|die|das|den|dem|des)\b", " "),
        (r"\bgesamt\b|\binsgesamt\b", "total"),
    )
)


def read_german(question: str) -> str | None:
    """The question with its German function vocabulary in English, or ``None`` when it is not German.

    >>> read_german("Ausgaben von Company A für Drucksensoren im 1. Quartal 2026")
    'spend of Company A on Drucksensoren in Q1 2026'
    >>> read_german("Company A spend on Drucksensoren in Q1 2026") is None
    True
    """
    if not _MARKERS.search(question):
        return None
    text = question
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)  # type: ignore[arg-type]
    text = _YEAR.sub(_bare_year, " ".join(text.split()))
    return text if text != question else None


_YEAR = re.compile(r"(?<![\w./-])(20\d{2})(?![\w./-])")
_PERIOD_WORDS = {"in", "since", "and", "between", "fy", "of", *(m.lower() for m in _MONTHS_DE.values()),
                 "april", "august", "september", "november"}


def _bare_year(match: re.Match[str]) -> str:
    """A year standing alone ("Ausgaben 2025") is the calendar year, as "in 2025" is in English."""
    before = match.string[: match.start()].split()
    previous = before[-1].lower() if before else ""
    if previous in _PERIOD_WORDS or re.fullmatch(r"[qh][1-4]", previous):
        return match.group(0)
    return f"in {match.group(1)}"
