"""The unread-word invariant: a figure is never presented as complete while a content word of the question was not
read.

Most silent wrongs have one shape: a word no reader knew ("classement des 2 premiers", "3. kvartal 2025", "poids de
X dans le total", "kwiecien 2026") was skipped, and the figure of the broader question left over was presented as
the answer. Each reader records the spans it consumed (``Reading.consumed``, the analysis and breakdown spans); a
word outside all of them is either a word the writer may add without a constraint ("please", "overall",
"dashboard": an everyday word) or a word nobody read. So before a figure, list or ranking is answered, the words of
the question as routed are checked once more. A word of three or more letters, outside every consumed span, that is
no function word (:data:`FUNCTION_WORDS`, several languages), no filler word (:data:`FILLER_WORDS`), no general
word (``router/data/english_words.txt``, the shipped English word list), no word the readers' own tables spell
(router/vocabulary.py) and no word of the tenant's names is named back as not understood, and the answer is marked
PARTIAL: the figure stays, with the words it does not apply (router/ap_fields.py's marking; no data, not found and
clarifications keep their status and carry the note). Words set aside before reading (greetings, signatures,
instructions: router/context_noise.py, router/envelope.py) and words a reader rewrote into English never reach
this check.

The check is one of shape, not of training strings: any word in any language the system has no table for is
caught, and any everyday English word passes (precision over recall: a correct figure should not be marked partial
because the writer said "kindly").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

#: Function words of the languages the writers mix in (articles, prepositions, pronouns, conjunctions, courtesy and
#: question words): they carry no constraint, in any position. Content words (months, quarters, "rank", "weight")
#: are never listed here: an unread one is exactly what the invariant names.
FUNCTION_WORDS: frozenset[str] = frozenset("""
the and for with from into onto per via than then that this these those there here what which who whom whose how
when where why any all each every some our ours your yours their theirs its his her him she they them you we
was were are is been being have has had does did done can could would should shall will may might must let lets
pls plz thx thanks thank cheers kindly please hello dear regards best also just only still even yet too very
asap fyi eod eow cob tia aob pfa fwd tks tnx thks poss
les des une aux par pour dans sur sous avec sans chez entre vers depuis jusqu jusque qui que quoi dont quel quelle
quels quelles est sont ont nous vous ils elles leur leurs notre nos votre vos mon mes ton tes son ses cette ces
merci bonjour svp stp cordialement une uns del los las por para con sin desde hasta entre cual cuales cuanto
cuanta cuantos cuantas que quien nuestro nuestra nuestros nuestras gracias hola della delle dei degli dal dalla
nel nella con per tra fra che chi quale quali quanto quanta grazie ciao das dem den der des die ein eine einen
einem einer eines und oder mit von vom zum zur bei aus auf für fur nach seit bis pro wie was wer welche welcher
welches unser unsere unserer bitte danke het een van voor met naar door bij over tot vanaf sinds welke wat hoe
onze ons jullie graag bedankt alsjeblieft alstublieft och eller med fra til frå och att som vad vilken vilka hur
vår vårt våra tack hej för och det den ett frå til hva hvilke hvilken hvordan vores vår tak dla przez jak jaki
jaka jakie ile nasz nasza nasze nasi oraz lub ale czy prosze proszę dziekuje dziękuję cześć albo się jest są
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words that ask, point or restate without narrowing the figure, in the languages the writers mix in: verbs of
#: asking and showing ("peux-tu me sortir", "kannst du", "kun je geven"), "all / whole / only / each", relative
#: pronouns, the participles of paying, receiving and invoicing that every spend question implies, the nouns of a
#: month or a year beside a named one ("le mois de janvier"), and the abbreviations of a report's layout (sort
#: order, dimensions, rows). A word that narrows (ranking, weight, quarter, subgroup) is never listed here.
FILLER_WORDS: frozenset[str] = frozenset("""
peux pouvez pourriez pourrais peut sortir donner donne donnez montrer montre montrez afficher affiche envoyer
envoie voir indiquer indique fournir fournis merci tout toute tous toutes entier entiere entiers uniquement
seulement seul seule lesquelles lesquels laquelle lequel celles ceux celle celui numero numeros paye payes payee
payees recu recus recue recues facture factures depense depenses regle regles rapporte annule correspond
puedes podrias dame dime mostrar muestra enviar todo toda todos todas solo solamente entero pagado pagados
recibido recibidos puoi potresti dammi mostra mostrami inviare tutto tutta tutti tutte solo soltanto intero
pagato pagati ricevuto ricevuti kannst koennen konnen koenntest zeig zeige zeigen gib geben schick alle alles
ganz ganze gesamt gesamte nur bezahlt bezahlte erhalten erhaltene kun kunt kunnen geef geven laat laten toon
stuur heel hele alleen enkel betaald betaalde ontvangen mozesz mozecie pokaz pokazac podaj podac wyslij caly cala
cale calego wszystkie wszystko tylko zaplacone zaplacono otrzymane kan kunne visa vise ge giv gi skicka send hela
hele helt alla alle bara kun endast betalt betalda modtaget mottatt mottagna month months mois maand maanden monat
monate mes meses mese mesi miesiac miesiace manad manader maned maneder year annee annees jaar jahr ano anos anno
rok roku aret asc desc ascending descending dims dim dimension biz rows row cols col
""".split())  # noqa: SIM905 - a word list reads better as text

_TOKEN = re.compile(r"(?<![\w])[^\W\d_]+(?:['’][^\W\d_]+)?(?![\w])")
_WORD = re.compile(r"[^\W\d_]{3,}")


def _plain(word: str) -> str:
    """``word`` casefolded without accents: the form the word lists hold ("données" -> "donnees")."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ł", "l")


#: Readers beyond router/vocabulary.py's list whose tables spell words of a question ("dup", "overdue", "whole grp"):
#: a word any of them reads is known here.
_MORE_READERS = (
    "router.agreement_clauses", "router.approval_synonyms", "router.approval_validity", "router.approval_windows",
    "router.as_at", "router.catalog_asks", "router.catalog_relations", "router.company_compare", "router.company_lists",
    "router.company_set", "router.comparison_words", "router.count_asks", "router.counts", "router.currency",
    "router.currency_counts", "router.currency_lists", "router.cutoff", "router.date_order", "router.derived",
    "router.described_products", "router.document_asks", "router.document_notation", "router.document_nouns",
    "router.document_scopes", "router.duplicates", "router.elliptic", "router.envelope", "router.first_time",
    "router.group_lists", "router.group_only", "router.group_scope", "router.group_spend", "router.group_unions",
    "router.idle_vendors", "router.injection", "router.invoice_facts", "router.like_patterns", "router.list_prices",
    "router.list_totals", "router.listings", "router.month_years", "router.name_cues", "router.net_change",
    "router.netted_documents", "router.off_contract", "router.open_amount", "router.open_reading", "router.overdue",
    "router.per_item", "router.period_grammar", "router.period_leftovers", "router.period_ranking", "router.preamble",
    "router.price_asks", "router.price_rankings", "router.product_models", "router.run_rate", "router.scope",
    "router.sole_products", "router.status_counts", "router.supplier_gloss", "router.tenant_scope",
    "router.thresholds", "router.tool_syntax", "router.unapplied_limits", "router.unit_prices", "router.unknown_names",
)


@lru_cache(maxsize=1)
def general_words() -> frozenset[str]:
    """The general words no constraint hides in: the shipped English word list, the common-word list and the words
    the readers' tables spell (router/vocabulary.py), all accent-free."""
    from router.vocabulary import KNOWN_WORDS, TYPO_TARGETS, common_words, reader_words, spelled_words

    path = Path(__file__).resolve().parent / "data" / "english_words.txt"
    words = {w.strip() for w in path.read_text(encoding="utf-8").splitlines() if w.strip() and not w.startswith("#")}
    # (the readers' words of three letters and more: "vat", "eur", "incl", "mois" are read by some table)
    words |= {_plain(w) for w in (*common_words(), *reader_words(3), *spelled_words(_MORE_READERS, 3), *TYPO_TARGETS,
                                  *KNOWN_WORDS, *FUNCTION_WORDS, *FILLER_WORDS)}
    return frozenset(words)


#: Where a message's sentences end: a sentence that names nothing the reader read (no name, period, amount, id) is
#: the writer's context ("Asap if poss.", "This is for the CFO."), never a constraint of the figure.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|:\s+|\n+")
#: A gloss right after a word: "czujniki (sensors)", "korekta (credit note)": the writer translated the word.
_GLOSS = re.compile(r"\s*\(([^()]{1,60})\)")


def _sentences(text: str, consumed: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``text`` whose words are checked: every sentence that overlaps a consumed span (all of ``text``
    when it is one sentence or no sentence does)."""
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    spans = [(a, b) for a, b in pairwise(cuts) if b > a]
    read = [(a, b) for a, b in spans if any(s < b and a < e for s, e in consumed)]
    return read if len(spans) > 1 and read else [(0, len(text))]


def _slip_of_function_word(plain: str) -> bool:
    """Whether ``plain`` is a function word typed with one slip ("teh", "wich", "whcih"): two neighbours swapped
    in a three-letter word, any one edit from a function word of four letters or more."""
    from router.measure_words import one_edit

    if len(plain) == 3:
        return any(sorted(plain) == sorted(f) and one_edit(plain, f) for f in FUNCTION_WORDS if len(f) == 3)
    return any(one_edit(plain, f) for f in FUNCTION_WORDS if len(f) >= 4)


@lru_cache(maxsize=1)
def _domain_words() -> frozenset[str]:
    """The English words of the domain the readers spell (5+ letters): the words a cognate is read as."""
    from router.vocabulary import TYPO_TARGETS, reader_words

    path = Path(__file__).resolve().parent / "data" / "english_words.txt"
    english = {w.strip() for w in path.read_text(encoding="utf-8").splitlines() if not w.startswith("#")}
    return frozenset(w for w in {*reader_words(), *TYPO_TARGETS} if len(w) >= 5 and w in english)


def _cognate(plain: str) -> bool:
    """Whether ``plain`` is one edit from an English word of the domain ("groupe" group, "contrat" contract): the
    same word in the writer's spelling, read by the reader of the English one."""
    from router.measure_words import one_edit

    return len(plain) >= 5 and any(one_edit(plain, w) for w in _domain_words())


def _known_gloss(text: str, end: int, known: frozenset[str], named: set[str]) -> bool:
    """Whether a word ending at ``end`` is glossed by known words in brackets right after it."""
    gloss = _GLOSS.match(text, end)
    words = [_plain(w) for w in _WORD.findall(gloss.group(1))] if gloss else []
    return bool(words) and all(w in known or w in named for w in words)


@lru_cache(maxsize=1)
def constraint_words() -> frozenset[str]:
    """The one-word exclusion verbs, statuses and restriction words of router/context_clauses.py beyond its shape
    filter words ("skip", "reversed", "unapproved"): everyday English, yet each narrows the figure, so an unconsumed
    one is never passed as a general word ("as we skip the reversed documents" is named back, never answered as all
    documents)."""
    from router.context_clauses import CONSTRAINT_WORDS, shape_filter_word

    # (the filter words the clause reader always kept, "paid", "open", "excluding", are read by the readers where
    # they stand; "not" is everywhere)
    return frozenset(_plain(p) for phrases in CONSTRAINT_WORDS.values() for p in phrases
                     if " " not in p and "'" not in p and p != "not" and not shape_filter_word(p))


def unread_words(text: str, consumed: Sequence[tuple[int, int]], names: Iterable[str] = ()) -> tuple[str, ...]:
    """The content words of ``text`` no reader consumed and no word list knows, in order, each once.

    ``consumed``: the spans the reading took; ``names``: every spelling of the tenant's names (their words are known).
    In a message of several sentences only those naming something the reader read are checked; a word glossed in
    brackets ("czujniki (sensors)") and a function word typed with a slip ("teh") are read.

    >>> unread_words("classement des 2 fournisseurs by spend", [])
    ('classement',)
    >>> unread_words("please show the overall spend on the dashboard", [])
    ()
    """
    general = general_words() - constraint_words()
    named = {_plain(w) for n in names for w in _WORD.findall(n)}
    checked = _sentences(text, consumed)
    found: list[str] = []
    for match in _TOKEN.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in consumed):
            continue
        if not any(a <= match.start() < b for a, b in checked):
            continue
        for part in _WORD.finditer(match.group(0)):
            word, plain = part.group(0), _plain(part.group(0))
            if plain in general or plain in named or _slip_of_function_word(plain):
                continue
            if _known_gloss(text, match.end(), general, named):
                continue
            # (a part of a compound is no cognate: "sous-groupe" is a subgroup, not the group)
            if "-" not in text[max(0, part.start() + match.start() - 1):match.end() + 1] and _cognate(plain):
                continue
            found.append(word)
    return tuple(dict.fromkeys(found))


def unread_note(words: Sequence[str]) -> str:
    """What the answer says about the words it did not read."""
    said = ", ".join(repr(w) for w in words)
    return (f"I did not understand {said}: the figure below does not apply {'it' if len(words) == 1 else 'them'}, "
            "so it may answer a broader question than the one asked.")


def with_unread_words(answer: Any, words: Sequence[str]) -> Any:
    """``answer`` marked for the ``words`` it did not read: an answered figure becomes PARTIAL (the figure stays),
    no data, not found or a clarification keep their status and carry the note."""
    if not words:
        return answer
    from router.ap_fields import with_not_understood

    return with_not_understood(answer, list(words), unread_note(words), reason="not understood")


#: Workflows whose answer is passages, a question back or a refusal: their words are search terms or already named.
_UNCHECKED_WORKFLOWS = frozenset({"clarification", "document_answer", "identifier_lookup", "unsupported"})


def figure_answer(workflow: str, requires_clarification: bool) -> bool:
    """Whether an answer of ``workflow`` is a figure, list or ranking the invariant is checked for."""
    return not requires_clarification and workflow not in _UNCHECKED_WORKFLOWS


def reading_spans(reading: Any) -> tuple[tuple[int, int], ...]:
    """Every span a reading consumed: names, ids, periods, amounts, statuses, and the analysis and breakdown words."""
    return (*reading.consumed, *reading.analysis.spans, *reading.analysis.compare_words, *reading.breakdown.spans)


__all__ = ["FILLER_WORDS", "FUNCTION_WORDS", "figure_answer", "general_words", "reading_spans", "unread_note",
           "unread_words", "with_unread_words"]
