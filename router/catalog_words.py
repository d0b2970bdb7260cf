"""German approval and catalogue words, read before the German function vocabulary (:mod:`router.german`).

Plant sites ask "wer ist für Überwachungsprodukte freigegeben", "freigegebene Lieferanten Company B aktuell
(Q4 2025)", "wer liefert laut Katalog Messtechnik", "Welche Artikel gibt es in der Gruppe Kalibriergeräte",
"Listenpreis PRD-486 laut Katalog". Left unread, "freigegeben" dropped the approval (a product list or the
company's spend was answered: silent wrong) and "Katalog" / "Listenpreis" were asked back as unknown names. The
words here are rewritten into the English phrasing the reader knows (approved vendors, products of a group, who
supplies a group, the catalog list price); names are never touched (every pattern is function vocabulary).

"aktuell" / "derzeit" next to a named period ("aktuell (Q4 2025)") is the named period itself, never a second
one: the word only says the approval is the one in force then, so it is dropped when the question names a period,
and read as "currently" (the as-of date) when it does not.
"""

from __future__ import annotations

import re

_I = re.I | re.UNICODE

#: Words that make a question German for the catalogue and approval vocabulary (the function words of
#: :mod:`router.german` make most questions German already; these alone do too).
MARKERS = re.compile(
    r"\b(?:freigegeben\w*|freigabe\w*|kostet|listenpreis\w*|katalogpreis\w*|katalog\w*|artikel\w*|liefert|wer)\b", _I)

#: A period named in the question (a quarter, half year, year, month or date): "aktuell" then means that period.
_NAMED_PERIOD = re.compile(
    r"\b(?:q[1-4]|h[12]|[1-4]\.\s*(?:quartal|hj|halbjahr)|(?:19|20)\d{2}|\d{4}-\d{2}-\d{2}|januar|februar|m(?:ä|ae)rz|"
    r"april|mai|juni|juli|august|september|oktober|november|dezember)\b", _I)
_NOW = re.compile(r"\b(?:aktuell|derzeit|zurzeit|momentan|gerade)\b", _I)

#: Approval is a vendor's ("welche Lieferanten", "freigegebene Lief.", "wer ist ... freigegeben"); invoices or
#: payments "freigegeben" are released for payment, another question: left unread, so it is asked back.
_VENDOR_WORDS = re.compile(r"\b(?:lieferant\w*|lief\.|wer|anbieter\w*|vendors?|suppliers?)(?!\w)", _I)
_RELEASED_DOCUMENTS = re.compile(r"\b(?:rechnung\w*|rg\.|zahlung\w*|gutschrift\w*|bestellung\w*|auftr(?:ä|ae)g\w*)"
                                 r"(?!\w)", _I)
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, _I), r) for p, r in (
    # catalogue list price: the price the catalogue states, not what was paid
    (r"\b(?:listen|katalog)preis(?:e|es)?\b", "catalog list price"),
    # "was kostet PRD-486 laut Katalog": the catalogue's price of the product
    (r"\bwas\s+kost(?:et|en)\b(?=.*\bkatalog)", "catalog list price of"),
    (r"\b(?:laut|lt\.?|gem(?:ä|ae)(?:ß|ss)|nach|im|aus\s+dem)\s+katalog\b", "according to the catalog"),
    # "wer liefert X": the suppliers of a group (the catalogue's, "laut Katalog", or as the reader decides)
    (r"\bwer\s+liefert\b", "which suppliers supply"),
    (r"\bwelche\s+lieferanten\s+liefern\b", "which suppliers supply"),
    # "Welche Artikel gibt es in der Gruppe X", "Artikel unter X", "Artikel der Warengruppe X"
    (r"\bwelche\s+(?:artikel|produkte)\s+gibt\s+es\s+(?:in|unter)\s+(?:der|die)\s+(?:waren)?gruppe\b",
     "which products are under"),
    (r"\bwelche\s+(?:artikel|produkte)\s+gibt\s+es\s+(?:in|unter)\b", "which products are under"),
    (r"\b(artikel|produkte)\s+(?:unter|in)\s+(?:der\s+)?(?:waren)?gruppe\b", r"\1 under"),
    (r"\b(artikel|produkte)\s+unter\b", r"\1 under"),
    # approval: "freigegebene Lieferanten / Lief.", "für X freigegeben", "wer ist ... freigegeben"
    (r"\bfreigegebene[nr]?\s+(?:lieferanten|lief\.?)(?!\w)", "approved vendors"),
    (r"\bwer\s+(?:ist|sind|war|waren)\b(?=.*\bfreigegeben)", "which vendors are"),
    (r"\bwelche\s+lieferanten\s+(?:sind|waren)\b(?=.*\bfreigegeben)", "which vendors are"),
    (r"\bf(?:ü|ue)r\s+([^?,;]+?)\s+freigegeben\b", r"approved for \1"),
    (r"\bfreigegeben\w*\b", "approved"),
    # (a negated approval, "ohne (eine) Freigabe", "nach Ablauf der Freigabe", stays as written: router/off_contract.py
    # reads it, the spend with suppliers not approved)
    (r"(?<!ohne\s)(?<!ohne\seine\s)(?<!keine\s)(?<!der\s)\bfreigaben?\b", "approvals"),
))


def read_catalog_words(question: str) -> str:
    """The question with its German approval and catalogue words in English (unchanged when it has none).

    >>> read_catalog_words("Kestrel: wer ist für Überwachungsprodukte freigegeben, Q2 2026?")
    'Kestrel: which vendors are approved for Überwachungsprodukte, Q2 2026?'
    >>> read_catalog_words("freigegebene Lieferanten Company B aktuell (Q4 2025)?")
    'approved vendors Company B (Q4 2025)?'
    >>> read_catalog_words("freigegebene Rechnungen Company A Q1 2026")
    'freigegebene Rechnungen Company A Q1 2026'
    >>> read_catalog_words("wer liefert laut Katalog Kabel und Steckverbinder?")
    'which suppliers supply according to the catalog Kabel und Steckverbinder?'
    """
    text = question
    approval = bool(_VENDOR_WORDS.search(question)) and not _RELEASED_DOCUMENTS.search(question)
    for pattern, replacement in _RULES:
        if not approval and ("freigeg" in pattern.pattern or "freigab" in pattern.pattern):
            continue
        text = pattern.sub(replacement, text)
    if text != question or _NOW.search(text):
        # "aktuell" beside a named period is that period; alone it is the as-of date ("currently")
        text = _NOW.sub("" if _NAMED_PERIOD.search(text) else "currently", text)
        text = " ".join(text.split()).replace(" ?", "?").replace(" ,", ",")
    return text


__all__ = ["MARKERS", "read_catalog_words"]
