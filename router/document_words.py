"""The AP clerk's shorthand for document types: "CN" / "CNs" (credit note), "credit memo", "docs" (documents).

A clerk writes "Number of CNs for Xenon", "invoices only (ignore CNs)", "credit memos from Beta" or "breakdown of
Xenon docs by status"; every reader of the router knows the document types by their full words ("credit notes",
"documents"), and an unread abbreviation would otherwise be asked about as an unknown name (or, worse, dropped).
:func:`document_words` writes the shorthand out once, when the question is cleaned, so that every reader sees the
same words. A credit-note *number* ("CN-2026-0042", "CN 2026-0042") is an identifier, never rewritten.
"""

from __future__ import annotations

import re

#: Credit-note nouns of the subsidiaries' languages (Dutch, Italian, Portuguese, Nordic), shared by every reader
#: that names a document by its type (router/foreign_words.py, router/document_notation.py).
CREDIT_NOTES = ("creditnota's", "creditnotas", "creditnota", "creditfacturen", "creditfactuur",
                "note di credito", "nota di credito", "notas de crédito", "nota de crédito", "notas de credito",
                "nota de credito", "kreditnotor", "kreditnota", "kreditnotaer", "kreditfakturor", "kreditfaktura",
                "kreditfakturaer", "notes de crédit", "note de crédit", "hyvityslaskut", "hyvityslaskuja",
                "hyvityslasku", "faktury korygujące", "faktury korygujace", "faktur korygujących",
                "faktur korygujacych", "faktura korygująca", "faktura korygujaca",
                # the English noun with the Dutch / Iberian plural ("credit notas")
                "credit notas", "credit nota")
#: Invoice nouns: Dutch, Italian, Portuguese, Swedish / Danish / Norwegian, Polish, Finnish.
INVOICES = ("facturen", "factuur", "fatture", "fattura", "faturas", "fatura", "fakturor", "fakturaer",
            "fakturaen", "faktura", "faktury", "faktur", "laskut", "laskuja",
            # Turkish plural and its possessive, Romanian with and without the article, Czech locative, Hungarian
            "faturalar", "faturaları", "faturalari", "faturaların", "facturi", "facturile", "facturilor",
            "fakturách", "fakturach", "számlák", "szamlak")


def alternation(words: tuple[str, ...]) -> str:
    """A regex alternation of ``words``, longest first, each spelled literally with its spaces as any whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))


#: "CN", "CNs", "CN's", "cns": a credit note by its initials; not a credit-note number ("CN-2026-0042",
#: "CN 2026-0042", "CN_2026_0042") nor part of a longer token.
_CN = re.compile(r"(?<![\w-])CN(?P<plural>s|['’]s)?(?![\w-]|\s*[-_#]?\s*\d)", re.I)
#: "credit memo(s)", "credit-memo": the US name of a credit note.
_MEMO = re.compile(r"\bcredit[- ]?memo(?P<plural>s)?\b", re.I)
#: "docs": documents (invoices and credit notes, when counted); "doc" alone is too short to read safely.
_DOCS = re.compile(r"\bdocs\b", re.I)


def document_words(text: str) -> str:
    """``text`` with the document-type shorthand written out.

    >>> document_words("Number of CNs for Xenon; invoices only (ignore CN's); CN-2026-0042 stays")
    'Number of credit notes for Xenon; invoices only (ignore credit notes); CN-2026-0042 stays'
    >>> document_words("credit memos of Beta, one credit-memo, Xenon docs by status")
    'credit notes of Beta, one credit note, Xenon documents by status'
    """
    text = _CN.sub(lambda m: "credit notes" if m.group("plural") else "credit note", text)
    text = _MEMO.sub(lambda m: "credit notes" if m.group("plural") else "credit note", text)
    return _DOCS.sub("documents", text)
