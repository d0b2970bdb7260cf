"""A product's manual asked for by the product's name or code: looked up as the document it is, found or not.

"Do we have the spec sheet (manual) of the compressor valve kit?", "is there a manual / datasheet for PRD910?",
"Datenblatt für Kopierpapier A4?" ask whether a document exists, not for a fact it states. The document-id lookup
(retrieval/documents.py) already answers found / not found for a document named by its id; a manual named through
its product was instead searched as free text, and the search always finds *some* passages (the catalogue line,
another product's manual): a silent wrong answer for a manual the tenant does not have.

The rule is structural: a noun of a product's own document (:data:`MANUAL_NOUNS`, a closed class, the subsidiaries'
languages) and no fact, figure or other document asked (a fact of the manual is the focused search's,
router/evidence.py). The product is whatever the reader resolves (code or catalogue name); its manuals are the
product-manual documents that list its code. The question is then asked as the lookup of those documents (or of
the manual id the product's manual would carry: "not found"), the reading stated. A product that does not resolve
is asked back, naming the words read as the product, never answered with other documents' passages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from retrieval.topics import fact_words
from router.document_words import alternation

if TYPE_CHECKING:
    import psycopg

    from procura.db.session import AuthContext

#: Nouns of a product's own document (its manual, datasheet, spec sheet), English and the subsidiaries' languages.
#: A closed class: every reader that asks "is this about a manual?" uses :data:`MANUAL_CUE` built from it.
MANUAL_NOUNS = (
    "manual", "manuals", "handbook", "handbooks", "datasheet", "datasheets", "data sheet", "data sheets",
    "data-sheet", "spec sheet", "spec sheets", "spec-sheet", "specsheet", "specification sheet",
    "specifications sheet", "tech sheet", "technical sheet", "product sheet", "user guide", "user manual",
    "quick start", "quick-start guide", "instruction manual", "operating instructions", "instructions for use",
    "technical documentation", "ifu",
    # German
    "handbuch", "handbücher", "bedienungsanleitung", "betriebsanleitung", "gebrauchsanweisung", "anleitung",
    "datenblatt", "datenblätter", "produktdatenblatt", "technisches datenblatt",
    # French, Italian, Spanish, Portuguese
    "manuel", "fiche technique", "fiche produit", "mode d'emploi", "manuale", "scheda tecnica", "ficha técnica",
    "ficha tecnica", "hoja de datos", "manual de usuario", "manual do usuário",
    # Dutch, Nordic, Polish
    "handleiding", "gebruiksaanwijzing", "datablad", "bruksanvisning", "käyttöohje", "instrukcja",
    "karta katalogowa",
)
#: A manual noun anywhere in a question (also German compounds ending in "-anleitung", "-handbuch", "-datenblatt").
MANUAL_CUE = re.compile(rf"(?<![\w-])(?:{alternation(MANUAL_NOUNS)})(?![\w-])|"
                        r"\b\w+(?:anleitung|handbuch|datenblatt)\w*\b", re.I)
#: Words that ask about a product's other documents (its invoices, price, suppliers), not its manual: the
#: retrieval of a named product's documents (router/evidence.py) reads these too.
PRODUCT_DOCUMENT_WORDS = (
    r"invoices?|invoiced|credit\s+notes?|bills?|prices?|priced|costs?|spend|spent|paid|bought|purchased|"
    r"ordered|suppliers?|vendors?|catalog(?:ue)?|sells?|sold|rechnung\w*|preis\w*|lieferant\w*|gutschrift\w*")
#: The same, with the figures and other document kinds a manual question is not: such a question is the figure's,
#: the invoice reader's or the agreement reader's.
OTHER_DOCUMENTS = re.compile(
    rf"\b(?:{PRODUCT_DOCUMENT_WORDS}|"
    r"how\s+many|how\s+much|total|amount|units?|quantit\w*|agreements?|contracts?|clauses?)\b", re.I)
#: The product named after the manual noun ("manual of the valve kit", "Datenblatt für Kopierpapier"), up to the
#: end of the clause; a parenthesis right after the noun ("spec sheet (manual) of") is the noun's own gloss.
_OBJECT_AFTER = re.compile(
    r"(?:\s*[(/]\s*[^()?]{1,40}?\s*\)?)?\s+(?:of|for|on|about|covering|für|fuer|zu|zum|zur|von|vom|de|du|des|"
    r"della|del|di|dello|voor|van|för|för|dla)\s+(?:(?:the|our|a|an|this|that|these|those|das|den|die|der|dem|"
    r"le|la|les|l'|il|lo|el|los|las|o|os|het|de)\s+)?(?P<object>[^?!;\n]+)", re.I)
#: Words before a manual noun that end the product's name read backwards ("can you send the PRD-482 manual").
_FRAME = frozenset((
    "the", "a", "an", "any", "our", "some", "this", "that", "its", "their", "me", "us", "you", "we", "i", "there",
    "is", "are", "have", "has", "got", "send", "share", "need", "find", "get", "want", "please", "pls", "kindly",
    "do", "does", "of", "for", "copy", "das", "die", "den", "der", "ein", "eine", "le", "la", "il", "el",
))
#: Words around the ask that are no part of the product's name.
_TRAILING = re.compile(r"(?:\s*[,:(]|\s+(?:please|pls|plz|thanks|thx|bitte|on\s+file|in\s+the\s+system|"
                       r"available|at\s+hand|anywhere|somewhere|vorhanden|verfügbar|disponible|disponibile|"
                       r"beschikbaar)\b).*$", re.I | re.S)


@dataclass(frozen=True)
class ManualAsk:
    """A question asking whether a product's manual exists (or for the manual itself)."""

    #: the words read as the product ("compressor valve kit", "PRD910"); empty when none could be cut out
    product_text: str


def manual_ask(text: str) -> ManualAsk | None:
    """The manual ``text`` asks for, or None when it asks no manual, or asks a fact, figure or other document.

    >>> manual_ask("do we have the data sheet (manual) of the compressor valve kit?")
    ManualAsk(product_text='compressor valve kit')
    >>> manual_ask("what calibration interval does the PRD-482 manual state?") is None
    True
    >>> manual_ask("spend on PRD-482 in March") is None
    True
    """
    cue = MANUAL_CUE.search(text)
    if cue is None or fact_words(text) or OTHER_DOCUMENTS.search(text):
        return None
    after = _OBJECT_AFTER.match(text, cue.end())
    if after is not None:
        product = _TRAILING.sub("", after.group("object"))
    else:
        # the words right before the noun, back to the first frame word ("any safety gloves datasheet")
        words = re.findall(r"[^\s?!;:,]+", text[:cue.start()])[-5:]
        last = max((i for i, w in enumerate(words) if w.casefold() in _FRAME), default=-1)
        product = " ".join(words[last + 1:])
    product = MANUAL_CUE.sub(" ", product)
    return ManualAsk(re.sub(r"\s+", " ", product).strip(" .,-/"))


def manuals_of(conn: psycopg.Connection, ctx: AuthContext, product_codes: Sequence[str],
               timeout_ms: int = 5000) -> tuple[str, ...]:
    """The tenant's product manuals that list one of ``product_codes`` (one read under RLS), by document id; a
    product without one keeps the id its manual would carry (:func:`manual_id`), which the lookup reports as
    not found."""
    from procura.db.session import tenant_transaction

    codes = [c.upper() for c in product_codes]
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        rows = conn.execute(
            """
            select distinct document_id, metadata -> 'product_codes'
            from retrieval.active_chunks
            where document_type = 'product_manual' and (metadata -> 'product_codes') ?| %(codes)s
            order by document_id
            """, {"codes": codes}).fetchall()
    found: list[str] = []
    for code in codes:
        own = [str(doc) for doc, listed in rows if code in [str(c).upper() for c in (listed or ())]]
        found.extend(own or [manual_id(code)])
    return tuple(dict.fromkeys(found))


def manual_id(product_code: str) -> str:
    """The id a product's manual carries in the corpus ("PRD-910" -> "manual-prd-910").

    >>> manual_id("PRD-910")
    'manual-prd-910'
    """
    return f"manual-{product_code.lower()}"


def manual_question(document_ids: Sequence[str]) -> str:
    """The manual ask written as the lookup of its documents (found or not found, retrieval/documents.py).

    >>> manual_question(["manual-prd-715"])
    'Is there document manual-prd-715?'
    """
    return "Is there " + " and ".join(f"document {d}" for d in document_ids) + "?"


def manual_note(text: str, products: Sequence[tuple[str, str]]) -> str:
    """An answer's text with the reading of the manual ask stated before its sources.

    >>> manual_note("Document manual-prd-910 was not found. Sources: x.", [("PRD-910", "Copy paper A4")])
    'Document manual-prd-910 was not found. Read as: the manual (datasheet) of PRD-910 (Copy paper A4). Sources: x.'
    """
    named = ", ".join(f"{code} ({name})" if name else code for code, name in products)
    head, sep, tail = text.partition(" Sources:")
    return f"{head.rstrip()} Read as: the manual (datasheet) of {named}.{sep}{tail}"


def unknown_product(product_text: str) -> str:
    """The clarification for a manual asked of a product the catalogue does not name.

    >>> unknown_product("scroll comp 7kw")
    "I do not know the product 'scroll comp 7kw' in your catalogue, so I cannot say whether its manual exists. \
Which product do you mean (its product code, e.g. PRD-123, or its catalogue name)?"
    """
    return (f"I do not know the product {product_text!r} in your catalogue, so I cannot say whether its manual "
            "exists. Which product do you mean (its product code, e.g. PRD-123, or its catalogue name)?")


__all__ = [
    "MANUAL_CUE",
    "MANUAL_NOUNS",
    "OTHER_DOCUMENTS",
    "PRODUCT_DOCUMENT_WORDS",
    "ManualAsk",
    "manual_ask",
    "manual_id",
    "manual_note",
    "manual_question",
    "manuals_of",
    "unknown_product",
]
