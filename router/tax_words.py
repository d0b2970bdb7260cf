"""The closed class of tax and basis words: the names of VAT and the words that say a figure's basis, in the
languages the readers meet.

The governed spend already includes VAT (net + tax, router/invoice_facts.py): "incl GST", "gross", "brutto",
"TTC", "KDV dahil", "s DPH", "cu TVA" restate it; "ex-GST", "excl. VAT", "HT", "netto", "bez VAT", "KDV hariç",
"fără TVA" ask the net measure; a tax name alone ("total VAT on ...", "GST for Q1") asks the tax measure. Every
sales tax of the kind is the one tax measure of this product: GST (AU/NZ/IN/CA), HST, TVA, IVA, MwSt, BTW, KDV,
DPH, ÁFA, ПДВ, НДС ... are read as VAT and the answer says so.

A word of this table missed is a silent wrong at the worst ("total spend incl GST" answered with the VAT alone,
"ex-GST" asked about as an unknown name), so the table, not the readers, is where a language is added. The readers
that use it: router/foreign_words.py (rewrites the names and the basis phrases in the reader's English),
router/period_grammar.py ("Jul-Dec 25 incl VAT": "incl" is the basis, not the period's inclusive end).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Names of a value-added or goods-and-services tax that are no English word of another meaning, in lower case:
#: read as VAT wherever they stand (English-speaking GST/HST, Turkish KDV, Czech/Slovak DPH, Hungarian ÁFA,
#: Ukrainian/Croatian/Serbian PDV/ПДВ, Russian НДС, Bulgarian ДДС, Slovenian DDV, Latvian PVN, Lithuanian PVM,
#: Greek ΦΠΑ).
TAX_NAMES = ("gst", "hst", "kdv", "dph", "áfa", "áfá", "pdv", "пдв", "ндс", "ддс", "ddv", "pvn", "pvm", "φπα", "vat")
#: Names that are also another word in lower case ("btw" is "by the way", "moms", "Iva" a first name): read as VAT
#: in upper case, or beside a basis word of this table.
TAX_NAMES_CASED = ("BTW", "MwSt", "MWST", "USt", "MVA", "IVA", "Iva", "TVA", "Moms", "MOMS", "PTU", "ALV", "FPA",
                   "AFA", "ÁFA", "DDS", "GST", "HST", "KDV", "DPH", "PDV", "VAT")
#: (German "mwst" is read as typed by the German readers, in upper case by router/foreign_words.py.)
TAX_NAMES_AMBIGUOUS = ("btw", "iva", "mwst", "ust", "mva", "tva", "moms", "ptu", "alv", "fpa", "dds")
#: Every name, in lower case (the regex part of the readers: matched without case).
ALL_TAX_NAMES = tuple(dict.fromkeys((*TAX_NAMES, *TAX_NAMES_AMBIGUOUS, *(n.casefold() for n in TAX_NAMES_CASED))))

#: "including" before a tax name ("incl GST", "inkl. MwSt", "z VAT", "s DPH", "cu TVA", "з ПДВ", "con IVA").
WITH_TAX = ("incl", "incl.", "including", "inclusive of", "inc", "inc.", "with", "plus", "inkl", "inkl.", "inklusive",
            "inclusief", "incluso", "inclusa", "compresa", "compreso", "incluindo", "incluyendo", "incluido",
            "incluida", "con", "com", "com o", "avec", "avec la", "met", "med", "mit", "z", "wraz z", "łącznie z",
            "lacznie z", "s", "se", "včetně", "vcetne", "vč.", "vč", "cu", "inclusiv", "з", "із", "с", "включая",
            "включно з", "after")
#: The bare prepositions of ``WITH_TAX`` ("with", "plus", "s", "z", "con", "met" ...): words of every sentence, so a
#: short or lower-case name after them may be a supplier's or a company's ("spend with PVM", "orders s DDS"). Only a
#: name of ``STRONG_NAMES`` after them is the tax; the others need an inclusion word ("incl", "including", "inkl").
BARE_WITH = ("with", "plus", "after", "s", "se", "z", "wraz z", "з", "із", "с", "cu", "con", "com", "com o", "avec",
             "avec la", "met", "med", "mit")
#: The names read as the tax alone or after a bare preposition: the unambiguous upper-case spellings and the
#: non-Latin ones. Upper-case acronyms that are as likely a name ("FPA", "AFA", "DDS", "ALV", "PTU") and the short
#: lower-case names ("pvm", "gst", "ddv") are the tax only beside a basis word or a tax noun.
WEAK_CASED = ("FPA", "AFA", "DDS", "ALV", "PTU")
STRONG_CASED = tuple(n for n in TAX_NAMES_CASED if n not in WEAK_CASED)
NON_LATIN_NAMES = tuple(n for n in TAX_NAMES if not re.fullmatch(r"[a-zá]+", n))
#: Nouns and words after a tax name that make it the tax ("GST amount", "pvm charged", "gst only").
TAX_NOUNS_AFTER = ("part", "portion", "amount", "only", "charged", "paid", "rate", "component", "share", "total",
                   "incl", "incl.", "included", "excl", "excl.", "excluded",
                   # "how much PTU did we pay", "ALV paid": the tax paid
                   "did we pay", "do we pay", "did I pay", "we paid", "was paid", "was charged", "were charged")
#: Words before a tax name that make it the tax ("the gst", "total pvm", "net of gst").
TAX_WORDS_BEFORE = ("the", "only", "excluding", "including", "without", "net of", "total", "incl", "incl.", "excl",
                    "excl.", "ex", "ex-", "inkl", "inkl.")

#: "excluding" before a tax name ("ex-GST", "excl. VAT", "bez VAT", "fără TVA", "без ПДВ", "hors TVA", "sin IVA").
WITHOUT_TAX = ("excl", "excl.", "excluding", "exclusive of", "ex", "ex.", "without", "w/o", "net of", "before", "pre",
               "less", "minus", "ohne", "exkl", "exkl.", "exklusive", "zzgl", "zzgl.", "exclusief", "zonder", "excl",
               "senza", "escl", "escl.", "sem", "sin", "sans", "hors", "utan", "uden", "uten", "ekskl", "ekskl.",
               "bez", "fără", "fara", "без", "excluyendo", "excluindo", "escluso", "esclusa")
#: A tax name then a word restating the basis ("GST incl.", "KDV dahil", "IVA esclusa", "ÁFA nélkül").
TAX_THEN_INCLUDED = ("included", "incl", "incl.", "inclusive", "inkl", "inkl.", "inklusive", "inclusief",
                     "compresa", "compreso", "inclusa", "incluso", "incluído", "incluido", "incluida", "comprise",
                     "compris", "incluse", "inclus", "dahil", "dâhil", "enthalten", "included in")
TAX_THEN_EXCLUDED = ("excluded", "excl", "excl.", "exclusive", "exkl", "exkl.", "exklusive", "exclusief", "esclusa",
                     "escluso", "excluida", "excluido", "exclus", "exclue", "hariç", "haric", "nélkül", "nelkul")
#: Basis words said without a tax name, in the reader's English: the gross (the governed spend) and the net.
GROSS_WORDS = ("brutto", "bruttó", "brüt", "brut", "bruto", "lordo", "брутто")
NET_WORDS = ("netto", "nettó", "neto", "нетто")
#: "net" before these nouns nets the credit notes against the invoices ("net position", "net effect after the
#: credit note"): the governed spend itself (credit notes negative), never the tax-exclusive basis.
NETTED_NOUNS = ("position", "positions", "effect", "balance", "result", "outcome", "impact")
#: The French acronyms (upper case only: "ht" and "ttc" in lower case are other things in chat):
#: "toutes taxes comprises" (the gross) and "hors taxes" (the net); also written "H.T." and "T.T.C.".
TTC = ("TTC", "T.T.C.", "toutes taxes comprises")
HT = ("HT", "H.T.", "hors taxes", "hors taxe")


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first (so "incl." wins over "incl"), each escaped; a space in a
    word matches any run of spaces."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+")
                    for w in sorted(set(words), key=len, reverse=True))


#: A tax name as a regex part (matched without case; the readers bound it).
TAX_NAME = rf"(?:{alternation(ALL_TAX_NAMES)})"

_NAMED = re.compile(rf"(?<![\w&])(?:{alternation(ALL_TAX_NAMES)})(?![\w&-])", re.I)


def other_tax_names(question: str, read_as: str) -> tuple[str, ...]:
    """The names of a tax other than "VAT" that ``question`` writes and ``read_as`` (its reading) no longer does:
    the names read as VAT, for the answer to say so ("'GST' as 'VAT'").

    >>> other_tax_names("spend ex-GST, also the KDV?", "spend excluding VAT, also the VAT?")
    ('GST', 'KDV')
    >>> other_tax_names("btw, Company A spend", "btw, Company A spend")
    ()
    """
    left = {m.group(0).casefold() for m in _NAMED.finditer(read_as)}
    return tuple(dict.fromkeys(m.group(0) for m in _NAMED.finditer(question)
                               if m.group(0).casefold() not in left | {"vat"}))


__all__ = [
    "ALL_TAX_NAMES",
    "BARE_WITH",
    "GROSS_WORDS",
    "HT",
    "NETTED_NOUNS",
    "NET_WORDS",
    "NON_LATIN_NAMES",
    "STRONG_CASED",
    "TAX_NAME",
    "TAX_NAMES",
    "TAX_NAMES_AMBIGUOUS",
    "TAX_NAMES_CASED",
    "TAX_NOUNS_AFTER",
    "TAX_THEN_EXCLUDED",
    "TAX_THEN_INCLUDED",
    "TAX_WORDS_BEFORE",
    "TTC",
    "WEAK_CASED",
    "WITHOUT_TAX",
    "WITH_TAX",
    "alternation",
    "other_tax_names",
]
