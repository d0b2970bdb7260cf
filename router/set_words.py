"""Set words: the words that add named things up ("combined", "together", "either ... or", "łącznie") and the words
that restrict a figure to the names beside them ("Epsilon only", "nur Beta", "sadece Gamma").

A controller writes "spend with either Beta or Orbis (combined)", "Gamma Controls + Iota Cables together", "Company B +
Company C, Epsilon only". The names are read (two suppliers are the figure's supplier filter, an IN list: governed
spend is additive, so the figure of the set is the sum of its members); the word that says so was not, and the
unread-word checks then asked "what do you need?" or read "either" as an unknown supplier. The rule is one of
shape, in every language of the table at once:

* a combination word (:data:`COMBINE_WORDS`) is read when the question names two or more things of one kind
  (suppliers, companies, product groups, products): it says the named set is meant as one scope, which is how the
  readers apply it already. With fewer names it stays unread (named back: "combined" with what?).
* a restriction word (router/unread_words.py's ``RESTRICTION_WORDS``: "only", "nur", "seulement", "tylko") is read
  when it stands right beside a read name ("only Gamma invoices", "Epsilon only"): the name is already the
  figure's filter. Elsewhere ("only invoices over 5k") it stays for its own reader or is named back.

"neither ... nor" is no combination (it leaves both out: an exclusion), so it is not in the table.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from itertools import pairwise

from router.edits import without_diacritics
from router.unread_words import RESTRICTION_WORDS

#: Words that add the named things up into one figure, in the languages the writers use. One table: the company set
#: (router/company_set.py) reads its cue from it too. Multi-word entries are written with single spaces.
COMBINE_WORDS: tuple[str, ...] = (
    # English
    "combined", "together", "jointly", "altogether", "all together", "in total", "total", "totals", "summed",
    "sum", "aggregate", "aggregated", "consolidated", "cross-company", "cross company", "cross-companies",
    "cross companies", "across", "both", "pooled", "put together", "added up", "between them",
    # German, Dutch
    "zusammen", "gemeinsam", "insgesamt", "gesamt", "beide", "beiden", "samen", "gezamenlijk", "opgeteld",
    # French, Spanish, Portuguese, Italian
    "ensemble", "cumulé", "cumulés", "conjointement", "tous les deux", "juntos", "juntas", "en conjunto",
    "ambos", "ambas", "sumados", "insieme", "entrambi", "complessivamente", "in totale",
    # Polish, Czech, Romanian, Turkish
    "razem", "łącznie", "oba", "obie", "obydwa", "dohromady", "společně", "celkem", "împreună", "ambele",
    "cumulat", "birlikte", "toplam", "toplamda", "ikisi", "ikisinin",
    # Swedish, Danish, Norwegian, Finnish
    "tillsammans", "båda", "sammanlagt", "sammen", "begge", "tilsammen", "yhdessä", "molemmat", "yhteensä",
)

#: The "either" of "either A or B" (and its translations): a combination word only beside a list of names.
_EITHER = ("either", "entweder", "soit", "o bien", "ou bien", "oppure", "albo", "ya", "ori", "buď")


def _alternation(words: Iterable[str]) -> str:
    ordered = sorted({w for w in words}, key=len, reverse=True)
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in ordered)


#: One combination word as a regex (used by the company set as its cue).
COMBINE_PATTERN = _alternation(COMBINE_WORDS)
_COMBINE = re.compile(rf"(?<![\w-])(?:{COMBINE_PATTERN}|{_alternation(_EITHER)})(?![\w-])", re.I | re.UNICODE)
_RESTRICT = re.compile(r"[^\W\d_]+", re.UNICODE)
#: What may stand between a restriction word and the name it restricts to: an article, a preposition of the payee,
#: the documents or the spend of the name ("only the Gamma invoices", "Epsilon spend only", "solo da Beta").
_BESIDE = re.compile(r"^[\s,:(\-]*(?:(?:the|from|with|of|on|for|to|at|invoices?|spend|purchases|lines|da|de|von|"
                     r"mit|bei|od|z|ze|dla)\s+)?$", re.I)
_BESIDE_AFTER = re.compile(r"^[\s,:)\-]*(?:(?:invoices?|spend|purchases|lines|items)\s*)?$", re.I)


#: What joins the members of a set of names, in the languages of the table: a sign or a conjunction of either kind
#: ("and" or "or": for an additive figure the set is the same), an "either" before the first.
_JOIN = re.compile(
    r"^\s*(?:,\s*)?(?:[/+&]|and|or|und|oder|et|ou|y|e|o|i|lub|oraz|albo|ve|veya|ya\s+da|ile|și|si|sau|a|nebo|"
    r"och|eller|og|en|of|ja|tai|as\s+well\s+as|plus)?\s*(?:,\s*)?$", re.I | re.UNICODE)


def joined_as_set(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether the names at ``spans`` (two or more, in order) are written as one list: only a sign, a comma or a
    conjunction between each two ("sensors or cables", "Temperature + Flow Sensors", "crates, boxes and pallets").

    >>> joined_as_set("sensors or data loggers", [(0, 7), (11, 23)])
    True
    >>> joined_as_set("sensors vs cables", [(0, 7), (11, 17)]), joined_as_set("sensors", [(0, 7)])
    (False, False)
    """
    ordered = sorted(spans)
    return len(ordered) >= 2 and all(_JOIN.match(text[a[1]:b[0]]) is not None for a, b in pairwise(ordered))


#: A choice or comparison between the names of a list ("Beta or Gamma, which was higher?", "sensors vs cables",
#: "side by side", "each", "respectively"): the list is the rows to set side by side, never one set added up.
#: ("which invoices from Beta and Gamma greater than 10k": a comparative before "than" is an amount bound, no choice)
CHOICE_CUE = re.compile(
    r"\bwhich\b[^.?!;]*?\b(?:more|most|less|least|higher|highest|lower|lowest|bigger|biggest|larger|largest|"
    r"smaller|smallest|greater|greatest)\b(?!\s+(?:than|then|or\s+equal)\b)|"
    r"\b(?:vs\.?|versus|compared?|comparing|comparison|side[\s-]+by[\s-]+side|respectively|separately|"
    r"each(?!\s+(?:month|quarter|week|year|day|with\s+its)\b))(?![\w-])", re.I)


def choice_cue(text: str) -> bool:
    """Whether ``text`` asks to choose between or compare the things it names (no sum of them is meant).

    >>> choice_cue("sensors or cables in Q1, which was higher?"), choice_cue("sensors and cables side by side")
    (True, True)
    >>> choice_cue("sensors or cables in Q1 combined"), choice_cue("spend for each month")
    (False, False)
    >>> choice_cue("which invoices from Beta and Gamma were greater than 10k")
    False
    """
    return CHOICE_CUE.search(text) is not None


def _plain(word: str) -> str:
    return without_diacritics(word.casefold())


_RESTRICTION_PLAIN = frozenset(_plain(w) for w in RESTRICTION_WORDS)


def set_word_spans(text: str, kinds: Sequence[Sequence[tuple[int, int]]]) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` holding a set word the names make read: ``kinds`` are the spans of the resolved names,
    one sequence per kind (suppliers, companies, groups, products).

    >>> t = "spend with either Beta or Orbis, combined"
    >>> [t[a:b] for a, b in set_word_spans(t, [[(18, 22), (26, 31)]])]
    ['either', 'combined']
    >>> set_word_spans("Beta spend combined", [[(0, 4)]])
    ()
    >>> t = "Q1 2026 vs Q4, Gamma only"
    >>> [t[a:b] for a, b in set_word_spans(t, [[(15, 20)]])]
    ['only']
    >>> set_word_spans("only invoices over 5k from Gamma", [[(27, 32)]])
    ()
    """
    spans: list[tuple[int, int]] = []
    names = sorted(s for kind in kinds for s in kind)
    if any(len(set(kind)) >= 2 for kind in kinds):
        spans.extend(m.span() for m in _COMBINE.finditer(text) if not any(s < m.end() and m.start() < e
                                                                          for s, e in names))
    for m in _RESTRICT.finditer(text):
        if _plain(m.group(0)) not in _RESTRICTION_PLAIN:
            continue
        # the name right after the word ("only Gamma invoices") or right before it ("Epsilon only")
        after = next((s for s, _ in names if s >= m.end()), None)
        before = max((e for _, e in names if e <= m.start()), default=None)
        if (after is not None and _BESIDE.match(text[m.end():after])) or (
                before is not None and _BESIDE_AFTER.match(text[before:m.start()])):
            spans.append(m.span())
    return tuple(sorted(set(spans)))


__all__ = ["CHOICE_CUE", "COMBINE_PATTERN", "COMBINE_WORDS", "choice_cue", "joined_as_set", "set_word_spans"]
