"""Negation scope: which constraint a "not / without / except / sem / sin / ohne / NO / hors / hariç" leaves out.

A negation dropped or inverted is the worst reading there is: "invoices only (sem notas de crédito)" answered with
the credit notes, "spend with suppliers NO homologados" answered with the approved suppliers' spend, "(credit note
exclude)" counting the credit notes. Each of those is a confident figure for the opposite question. The readers of
each constraint (document types in router/analysis.py, approvals in router/off_contract.py, another basis such as
"forecast" in router/reader.py) ask this module one question: is the mention at [start, end) negated, and by
which words? The answer is the same whatever the writer's language, and whether the cue stands before the
constraint ("sem notas de crédito", "NO homologados", "not forecast"), after it ("credit notes excluded", "credit
note not include", "Gutschriften ausgenommen", "iade faturaları hariç") or in a bracket around it.

The cues are a closed class, one table per position, in the languages the writers use (English, Spanish,
Portuguese, French, German, Italian, Dutch, Polish, Turkish, the Nordic languages, Japanese / Chinese):

* :data:`WITHOUT_BEFORE`: "without / excluding / except / other than / sin / sem / sans / hors / ohne / außer /
  senza / tranne / zonder / behalve / bez / oprócz / 除了 / 不含", with their "not counting" verbs ("sin contar",
  "sem contar", "sans compter", "senza contare", "do not include");
* :data:`NOT_BEFORE`: the bare negators "not / no / non / não / nicht / kein / niet / geen / nie / pas / inte /
  ikke": they negate the word right after them ("not forecast", "NO homologados") and are read only there;
* :data:`EXCLUDED_AFTER`: the postfix forms "excluded / exclude / not included / not include / excluido /
  excluídas / exclues / ausgeschlossen / esclusi / uitgesloten / wyłączone / hariç / 除く".

"Net of credit notes", "neto de notas de crédito", "after credit notes", "líquido de notas de crédito" are the
opposite: the credit notes netted in (counted, negative), never the credit notes alone; :data:`NETTED_BEFORE`
is that table, read by the same scope rule.

Cues that subtract ("minus", "less", "abzüglich", "menos") are not in the negation tables: of names they exclude
(router/exclusion_words.py), of credit notes they net them in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from router.exclusion_words import EXCEPT, WITHOUT

#: Subtraction words: exclusion of a name, netting of a credit note, never a negation of a constraint here.
_SUBTRACTING = frozenset(("minus", "abzüglich", "abzuglich", "less", "menos"))

#: "without", "excluding", "except" and their "not counting" phrases, every language (the one-word prepositions
#: of router/exclusion_words.py first, so one table holds every spelling).
WITHOUT_BEFORE: tuple[str, ...] = tuple(dict.fromkeys(w for w in (
    *WITHOUT, *EXCEPT,
    # English
    "excluding", "exclude", "excludes", "except", "except for", "other than", "apart from", "aside from", "besides",
    "but not", "not counting", "not including", "not include", "do not include", "don't include", "dont include",
    "do not count", "don't count", "without counting", "without including", "exclusive of", "leaving out",
    "leave out", "ignoring", "ignore", "disregarding", "disregard", "omitting", "omit", "with the exception of",
    # Spanish, Portuguese
    "sin contar", "sin incluir", "no incluir", "no incluye", "excluyendo", "excluir", "a excepción de",
    "a excepcion de", "con excepción de", "con excepcion de", "sem contar", "sem incluir", "não incluir",
    "nao incluir", "não inclui", "nao inclui", "excluir", "com exceção de", "com excecao de", "tirando",
    "fora de", "fuera de",
    # French, Italian
    "sans compter", "sans inclure", "ne pas inclure", "ne pas compter", "excluant", "à l'exception de",
    "a l'exception de", "en dehors de", "hormis", "senza contare", "senza includere", "escludendo", "escluse",
    "esclusi", "ad eccezione di", "eccetto", "fuori",
    # German, Dutch, Polish, Turkish, Nordic
    "exklusive", "abgesehen von", "mit ausnahme von", "nicht inklusive", "exclusief",
    "met uitzondering van", "uitgezonderd", "niet inbegrepen", "z wyjątkiem", "z wyjatkiem", "wyłączając",
    "wylaczajac", "bez uwzględnienia", "bez uwzglednienia", "hariç", "haric", "dışında", "disinda",
    "med undantag av", "utom", "undtagen", "unntatt",
    # Japanese / Chinese written before the noun
    "除了", "不含", "不包括", "不包含",
) if w not in _SUBTRACTING))

#: The bare negators: they negate only the word right after them ("not forecast", "NO homologados", "não
#: aprovados", "nicht freigegeben", "non approuvés"). "No." (number) and "no 1T" (Portuguese "in the") are not
#: negators: a dot, or a period word after it, is no constraint.
NOT_BEFORE: tuple[str, ...] = ("not", "no", "non", "never", "não", "nao", "nem", "ni", "pas", "nicht",
                               "kein", "keine", "keinen", "keiner", "niet", "geen", "nie", "inte", "ikke", "ej",
                               "nunca", "jamais", "未", "非", "不")

#: Negated verbs written as one word ("didn't", "didnt", "doesn't", "wasn't", "cannot"): a negation whose scope is
#: the verb after it ("which suppliers didn't invoice"); read by the rule of asking back (router/read_answer.py),
#: not by the readers of a negated constraint above (a verb is no constraint they apply).
NOT_CONTRACTED: tuple[str, ...] = (
    "didn't", "didnt", "doesn't", "doesnt", "don't", "dont", "isn't", "isnt", "wasn't", "wasnt", "weren't",
    "werent", "aren't", "arent", "hasn't", "hasnt", "haven't", "havent", "hadn't", "hadnt", "won't", "wont",
    "can't", "cant", "cannot", "couldn't", "couldnt", "wouldn't", "wouldnt", "shouldn't", "shouldnt", "never",
    "nothing", "none", "nobody", "neither", "nor")

#: Postfix forms: what was named just before is left out ("credit notes excluded", "credit note not include",
#: "(credit note exclude)", "notas de crédito excluidas", "Gutschriften ausgenommen", "iade hariç").
EXCLUDED_AFTER: tuple[str, ...] = (
    # English
    "excluded", "exclude", "excludes", "excl", "excl.", "not included", "not include", "not including",
    "not counted", "not count", "not to be included", "not to be counted", "left out", "taken out", "removed",
    "omitted", "ignored", "disregarded", "set aside", "aside", "dropped", "out", "not wanted", "not needed",
    "no thanks",
    # Spanish, Portuguese
    "excluido", "excluida", "excluidos", "excluidas", "excluído", "excluída", "excluídos", "excluídas",
    "no incluido", "no incluida", "no incluidos", "no incluidas", "não incluído", "não incluída", "não incluídos",
    "não incluídas", "nao incluido", "nao incluida", "nao incluidos", "nao incluidas", "fuera", "fora", "aparte",
    "à parte", "a parte",
    # French, Italian
    "exclu", "exclue", "exclus", "exclues", "non inclus", "non incluse", "non incluses", "non compris",
    "non comprises", "à part", "escluso", "esclusa", "esclusi", "escluse", "non incluso", "non inclusa",
    "non inclusi", "non incluse",
    # German, Dutch, Polish, Turkish, Nordic
    "ausgeschlossen", "ausgenommen", "nicht enthalten", "nicht eingerechnet", "nicht inbegriffen",
    "nicht berücksichtigt", "nicht mitgerechnet", "weggelassen", "raus", "uitgesloten", "niet inbegrepen",
    "niet meegerekend", "uitgezonderd", "wyłączone", "wylaczone", "wyłączony", "nie wliczone", "nie wliczając",
    "hariç", "haric", "dahil değil", "dahil degil", "undantagna", "undtaget", "unntatt", "ikke medregnet",
    # Japanese / Chinese written after the noun
    "除く", "を除く", "除外", "以外", "不含", "除外する",
)

#: Credit notes (or any negative document) netted into the figure: counted, negative; never the documents alone.
NETTED_BEFORE: tuple[str, ...] = (
    "net of", "netted of", "netting", "netting in", "netted with", "netted against", "after", "after deducting",
    # the writers' "net" with their own "of", or with the English one a reader wrote for it ("neto of")
    "neto de", "neto of", "neto", "netos de", "líquido de", "liquido de", "líquido of", "liquido of", "líquido",
    "liquido", "net de", "nets de", "netto of", "netto van", "netto von",
    "netto", "netto di", "al netto di", "al netto delle", "al netto dei", "descontando", "deduciendo",
    "deduzindo", "après", "apres", "después de", "despues de", "depois de", "nach", "nach abzug von",
    "na aftrek van", "po odliczeniu", "düşüldükten sonra",
)

#: Words that may stand between a cue and the constraint it scopes (articles, "any", "all", "the").
_DETERMINERS = (r"(?:(?:the|any|all|our|their|its|a|an|el|la|los|las|al|a\s+la|a\s+los|o|os|as|um|uma|das|dos|"
                r"do|da|les|le|l['’]|des|du|de|die|der|den|dem|het|gli|il|i|lo|ze|those|these|that|this)\s{1,3})*")
#: The space between a cue and what it scopes: a few blanks, never the run a masked name leaves (the readers see
#: names blanked to spaces: "excluding            (paid invoices)" does not scope "paid" past the name).
_GAP = r"\s{0,3}"


def _alt(words: Iterable[str]) -> str:
    """A regex alternation of ``words``, longest first, spaces as any whitespace."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(set(words), key=len, reverse=True))


def _boundary_before(words: Iterable[str]) -> str:
    # a CJK cue has no word boundary before it; a latin one must not continue a word ("sinal", "nota")
    return rf"(?:(?<![\w.-])(?:{_alt(words)}))"


#: A cue that ends right before the scoped constraint: the cue, an optional bracket or colon, the determiners.
_BEFORE = re.compile(rf"{_boundary_before(WITHOUT_BEFORE)}{_GAP}[:(\[]?{_GAP}{_DETERMINERS}$", re.I | re.UNICODE)
_NOT = re.compile(rf"(?:(?<![\w.-])(?:{_alt(NOT_BEFORE)}))(?:{_GAP}-)?{_GAP}{_DETERMINERS}$", re.I | re.UNICODE)
_NETTED = re.compile(rf"{_boundary_before(NETTED_BEFORE)}\s{{1,3}}{_DETERMINERS}$", re.I | re.UNICODE)
#: The postfix form: optional "are / is / should be", a colon, dash or bracket, the cue, then no word going on.
_AFTER = re.compile(
    rf"{_GAP}(?:(?:are|were|is|was|being|to\s+be|should\s+be|must\s+be|sind|werden|son|são|sont|sono|zijn)\s+)?"
    rf"[:(\[–-]?{_GAP}(?:{_alt(EXCLUDED_AFTER)})(?![\w'’])", re.I | re.UNICODE)
#: How far back a prefix cue may start (the longest cue with its determiners).
_REACH = 48


def negation_before(text: str, start: int, bare: bool = True) -> tuple[int, int] | None:
    """The span of a negation cue ending right before ``start`` ("sem notas", "excluding the", "NO homologados"),
    or ``None``. ``bare``: also the plain negators ("not", "no", "não"), which negate only the next word (a status
    or an adjective; a reader of a longer phrase passes ``False``)."""
    window = text[max(0, start - _REACH):start]
    offset = start - len(window)
    found = _BEFORE.search(window) or (_NOT.search(window) if bare else None)
    if found is None:
        return None
    return offset + found.start(), start


def negation_after(text: str, end: int) -> tuple[int, int] | None:
    """The span of a postfix negation right after ``end`` ("credit notes excluded", "(credit note exclude)",
    "notas de crédito no incluidas", "Gutschriften ausgenommen"), or ``None``.

    "out", "fora", "fuera" after the constraint negate it only when nothing goes on after them ("Beta out."), never
    "credit notes out of 12"; a bare "no" after it is no cue (the tag question "Beta, no?")."""
    found = _AFTER.match(text, end)
    if found is None:
        return None
    word = found.group(0).strip(" :([–-").lower()
    closed = re.match(r"\s*(?:[).,;!?\]]|$)", text[found.end():]) is not None
    if word in ("out", "fora", "fuera") and not closed:
        return None  # "credit notes out of 12": the word goes on, no postfix negation
    return found.span()


def negated(text: str, start: int, end: int, bare: bool = True) -> tuple[int, int] | None:
    """The span of the cue that negates the constraint written at [start, end), before or after it, or ``None``."""
    return negation_before(text, start, bare) or negation_after(text, end)


def netted_before(text: str, start: int) -> tuple[int, int] | None:
    """The span of a netting cue right before ``start`` ("net of", "neto de", "líquido de", "after", "nach"):
    the documents named after it are counted, negative, with the rest; or ``None``."""
    window = text[max(0, start - _REACH):start]
    found = _NETTED.search(window)
    return None if found is None else (start - len(window) + found.start(), start)


#: Approval adjectives of every writer ("approved", "aprovados", "homologados", "freigegeben", "goedgekeurd",
#: "approuvés", "zatwierdzeni", "onaylı"), as typed or after a reader rewrote them.
APPROVED_WORDS: tuple[str, ...] = (
    "approved", "authorised", "authorized", "whitelisted", "aprovado", "aprovados", "aprovada", "aprovadas",
    "aprobado", "aprobados", "aprobada", "aprobadas", "homologado", "homologados", "homologada", "homologadas",
    "homologué", "homologués", "homologuée", "homologuées", "approuvé", "approuvés", "approuvée", "approuvées",
    "agréé", "agréés", "agréée", "agréées", "referenciados", "référencés", "approvato", "approvati", "approvata",
    "approvate", "autorizzato", "autorizzati", "autorizado", "autorizados", "freigegeben", "freigegebene",
    "freigegebenen", "freigegebener", "genehmigt", "genehmigte", "genehmigten", "zugelassen", "zugelassene",
    "zugelassenen", "goedgekeurd", "goedgekeurde", "erkende", "zatwierdzeni", "zatwierdzone", "zatwierdzonych",
    "onaylı", "onayli", "godkänd", "godkända", "godkendt", "godkendte", "godkjent", "godkjente", "承認済み",
    "承認済", "批准")
#: "any" / "none" after a negation ("sin ninguna compra", "sem nenhuma fatura", "sans aucun achat", "ohne
#: jeglichen Einkauf", "zonder enige aankoop", "senza alcun acquisto", "bez żadnych zakupów").
ANY_WORDS: tuple[str, ...] = ("any", "ninguna", "ningún", "ningun", "ninguno", "nenhuma", "nenhum", "aucun",
                              "aucune", "jeglichen", "jegliche", "einen", "eine", "enige", "alcun", "alcuna",
                              "nessun", "nessuna", "żadnych", "zadnych", "żadnego", "hiç", "hic")
#: A negation followed by its "any", as a regex part ending before the negated noun: "without any", "sin
#: ninguna", "sem nenhuma", "sans aucun" (the "any" word is required: "excluding spend" alone is no "none").
WITHOUT_ANY = rf"(?:{_boundary_before((*WITHOUT_BEFORE, *NOT_BEFORE))})\s+(?:{_alt(ANY_WORDS)})\s+"
#: "Outside the contract" in the writers' languages ("fora de contrato", "fuera de contrato", "hors contrat",
#: "außerhalb des Vertrags", "buiten contract", "fuori contratto", "poza umową"): spend with suppliers not approved.
OUTSIDE_CONTRACT = (r"(?<![\w-])(?:outside|off|fora|fuera|hors|au(?:ß|ss)erhalb|buiten|fuori|poza|d[ıi][şs][ıi]nda)"
                    r"(?:\s+(?:of|de|do|da|del|des|du|dem|der|het|di|del|dal))?(?:\s+(?:the|o|el|le|la|il))?\s+"
                    r"(?:contracts?|contratos?|contrats?|vertrag(?:s|es)?|vertr[äa]ge|contratt[oi]|umow[ąay]|"
                    r"kontrakt\w*|s[öo]zle[şs]me)(?![\w-])")
#: A negated approval in any language: a negator or "without" right before the approval adjective ("NO
#: homologados", "não aprovados", "non approuvés", "nicht freigegebene", "niet goedgekeurde", "non-approved").
NEGATED_APPROVAL = re.compile(
    rf"(?:(?<![\w.-])(?:{_alt(NOT_BEFORE)}))[\s-]*(?:(?:yet|been|currently|ainda|todavía|todavia|encore|noch|"
    rf"nog|ancora)\s+)?(?:{_alt(APPROVED_WORDS)})(?![\w-])|{OUTSIDE_CONTRACT}", re.I | re.UNICODE)


#: "Not only / not just" in the writers' languages: what follows is included *with* the rest, never alone.
_NOT_ONLY = (r"(?<![\w-])(?:not|no|não|nao|pas|non|nicht|niet)\s+(?:only|just|solely|merely|exclusively|solo|sólo|"
             r"só|somente|apenas|seulement|uniquement|nur|alleen|soltanto)\s+(?:the\s+|los\s+|las\s+|os\s+|as\s+|"
             r"les\s+|die\s+|de\s+)?")
#: Words of a document type or a status a "not only" may stand before (the constraint the readers would apply alone).
_SCOPED = (r"(?P<what>credit[\s-]*notes?|notas?\s+de\s+cr[ée]dito|avoirs?|gutschriften|creditnota'?s?|invoices?|"
           r"paid|posted|pagad[ao]s|pag[ao]s|payées?|bezahlt\w*|betaald\w*|contabilizad[ao]s|draft|drafts)\b")
NOT_ONLY = re.compile(_NOT_ONLY + _SCOPED, re.I | re.UNICODE)
#: "Credit notes not excluded", "paid ones not left out": the constraint named is kept *in*, never the figure of it
#: alone nor without it.
NOT_EXCLUDED = re.compile(r"(?<![\w-])(?:not|no|não|nao|pas|nicht|niet)\s+(?:be\s+)?(?:excluded|left\s+out|removed|"
                          r"omitted|dropped|excluid[ao]s?|excluíd[ao]s?|exclu(?:e|s|es)?|ausgeschlossen|"
                          r"uitgesloten)(?![\w-])", re.I | re.UNICODE)
#: "Suppliers that are not [name]": a relative clause negating the name the readers blanked (a run of spaces).
NOT_THE_NAME = re.compile(r"(?<![\w-])(?:that|which|who|whose|que|qui)\s+(?:are|is|were|was|be|son|são|sont)\s+"
                          r"(?:not|no|não|pas)\s{3,}", re.I | re.UNICODE)


def inverted_scopes(text: str, applied: Iterable[str] = (), written: str | None = None) -> tuple[str, ...]:
    """The phrases of ``text`` whose scope inverts a constraint the readers would apply as written ("not just
    credit notes": with the rest; "credit notes not excluded": kept in; "suppliers that are not [a name]": every
    supplier but that one), each as written; empty when none. ``applied``: the constraint words the reading applies
    (document types, statuses); a "not only" before a word it does not apply ("paid, not just posted": paid only)
    is read as written."""
    kept = {w.lower().replace("_", " ") for w in applied}
    found: list[str] = []
    for m in NOT_ONLY.finditer(text):
        what = re.sub(r"[\s-]+", " ", m.group("what").lower())
        if any(k.rstrip("s") in what or what.rstrip("s") in k for k in kept):
            found.append(m.group(0).strip())
    words = text if written is None else written  # the phrase named as written (``text`` may have names blanked)
    for m in NOT_EXCLUDED.finditer(text):
        before = re.search(r"(?:[^\W\d_][\w'’-]*\s+){0,2}$", words[:m.start()])
        found.append(words[before.start() if before else m.start():m.end()].strip())
    for m in NOT_THE_NAME.finditer(text):
        after = re.match(r"\s*\S+", words[m.end() - 3:])
        found.append(words[m.start():m.end() - 3 + (after.end() if after else 0)].strip())
    return tuple(dict.fromkeys(found))


__all__ = ["ANY_WORDS", "APPROVED_WORDS", "EXCLUDED_AFTER", "NEGATED_APPROVAL", "NETTED_BEFORE", "NOT_BEFORE",
           "NOT_CONTRACTED", "NOT_EXCLUDED", "NOT_ONLY", "NOT_THE_NAME", "OUTSIDE_CONTRACT", "WITHOUT_ANY",
           "WITHOUT_BEFORE", "inverted_scopes", "negated", "negation_after", "negation_before", "netted_before"]
