"""The unread-word invariant: a figure is never presented as complete while a content word of the question was not
read.

Most silent wrongs have one shape: a word no reader knew ("classement des 2 premiers", "3. kvartal 2025", "poids de
X dans le total", "kwiecien 2026") was skipped, and the figure of the broader question left over was presented as
the answer. Each reader records the spans it consumed (``Reading.consumed``, the analysis and breakdown spans); a
word outside all of them is either a word the writer may add without a constraint ("please", "overall",
"dashboard": an everyday word) or a word nobody read. So before a figure, list or ranking is answered, the words of
the question as routed are checked once more: a word of three or more letters, outside every consumed span, that is
no function word (:data:`FUNCTION_WORDS`, several languages), no general word (``router/data/english_words.txt``,
the shipped English word list), no word the readers' own tables spell (router/vocabulary.py), and no word of the
tenant's names, is named back as not understood, and the answer is marked PARTIAL: the figure stays, with the words
it does not apply (router/ap_fields.py's marking; no data, not found and clarifications keep their status and carry
the note). Words set aside before reading (greetings, signatures, instructions: router/context_noise.py,
router/envelope.py) and words a reader rewrote into English never reach this check.

The check is one of shape, not of training strings: any word in any language the system has no table for is caught,
and any everyday English word passes (precision over recall: a correct figure should not be marked partial because
the writer said "kindly").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
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

_TOKEN = re.compile(r"(?<![\w])[^\W\d_]+(?:['’][^\W\d_]+)?(?![\w])")
_WORD = re.compile(r"[^\W\d_]{3,}")


def _plain(word: str) -> str:
    """``word`` casefolded without accents: the form the word lists hold ("données" -> "donnees")."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).replace("ł", "l")


@lru_cache(maxsize=1)
def general_words() -> frozenset[str]:
    """The general words no constraint hides in: the shipped English word list, the common-word list and the words
    the readers' tables spell (router/vocabulary.py), all accent-free."""
    from router.vocabulary import KNOWN_WORDS, TYPO_TARGETS, common_words, reader_words

    path = Path(__file__).resolve().parent / "data" / "english_words.txt"
    words = {w.strip() for w in path.read_text(encoding="utf-8").splitlines() if w.strip() and not w.startswith("#")}
    words |= {_plain(w) for w in (*common_words(), *reader_words(), *TYPO_TARGETS, *KNOWN_WORDS, *FUNCTION_WORDS)}
    return frozenset(words)


def unread_words(text: str, consumed: Sequence[tuple[int, int]], names: Iterable[str] = ()) -> tuple[str, ...]:
    """The content words of ``text`` no reader consumed and no word list knows, in order, each once.

    ``consumed``: the spans the reading took; ``names``: every spelling of the tenant's names (their words are known).

    >>> unread_words("classement des 2 premiers suppliers by spend", [])
    ('classement', 'premiers')
    >>> unread_words("please show the overall spend on the dashboard", [])
    ()
    """
    known = general_words() | {_plain(w) for n in names for w in _WORD.findall(n)}
    found: list[str] = []
    for match in _TOKEN.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in consumed):
            continue
        for part in _WORD.finditer(match.group(0)):
            word = part.group(0)
            if _plain(word) not in known:
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


__all__ = ["FUNCTION_WORDS", "figure_answer", "general_words", "reading_spans", "unread_note", "unread_words",
           "with_unread_words"]
