"""The one lexical analyzer of the BM25 branch, used at index time (the BM25 writer) and at query time.

Analysis of a text, in order:

1. Unicode NFKC (so "Ω" and "Ω", full-width digits and ligatures fold to one form).
2. Identifiers (product codes, invoice numbers, supplier/company/group ids, contract ids) are found with the
   same patterns as the exact-match store (:func:`ingest.normalize.find_identifiers`) and become ONE term each,
   the canonical value in lower case ("prd 482", "PRD482" and "PRD-482" all give ``prd-482``). The analyzer
   never splits an identifier into partial tokens that could match another one (``PRD-4821`` stays distinct).
3. The rest is case-folded and split into tokens: decimal numbers keep their point or comma (``0.25``), every
   other token is a run of letters and digits.
4. English stop words (:data:`STOP_WORDS`) are dropped.
5. Purely alphabetic tokens of three or more letters are reduced with the original Porter (1980) stemmer, so
   "calibration", "calibrated" and "calibrate" share the term ``calibr``; numbers and alphanumeric codes
   (``ip67``, ``dps``) are kept as they are.

The analyzer is identified by :data:`ANALYZER_ID`. It is stored with every indexed document version and is part
of the BM25 writer's version, so changing anything above means bumping the id: ingestion then re-versions the
documents, and queries refuse to mix terms of two analyzers (:class:`~retrieval.errors.IndexConfigMismatchError`).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from ingest.normalize import find_identifiers

#: Identifies the analysis below; bump it whenever any step changes its output.
ANALYZER_ID = "procura-en-porter-1"

#: Lucene's English stop set plus question and auxiliary words that carry no topic in search queries.
STOP_WORDS: frozenset[str] = frozenset(
    {
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
        "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was", "will",
        "with", "what", "which", "who", "whom", "whose", "how", "when", "where", "why", "do", "does", "did", "done",
        "been", "being", "were", "has", "have", "had", "its", "our", "your", "we", "you", "i", "me", "my", "us", "he",
        "she", "him", "her", "his", "them", "those", "am", "can", "could", "would", "should", "shall", "about"
    }
)

_TOKEN = re.compile(r"\d+(?:[.,]\d+)+|[^\W_]+")


@dataclass(frozen=True)
class AnalyzedText:
    """Terms of one text in order of appearance; ``identifier_terms`` are the ones that came from identifiers."""

    terms: tuple[str, ...]
    identifier_terms: tuple[str, ...]

    @property
    def length(self) -> int:
        """Number of terms (the BM25 document length)."""
        return len(self.terms)

    def term_frequencies(self) -> dict[str, int]:
        """tf of every distinct term."""
        return dict(Counter(self.terms))

    @property
    def content_terms(self) -> tuple[str, ...]:
        """Terms that did not come from an identifier (used to classify queries)."""
        ids = set(self.identifier_terms)
        return tuple(t for t in self.terms if t not in ids)


def analyze(text: str) -> AnalyzedText:
    """Analyze ``text`` with the rules of the module docstring.

    >>> analyze("Explain the calibration requirements for prd 482").terms
    ('explain', 'calibr', 'requir', 'prd-482')
    >>> analyze("PRD482 within ±0.25 % of span").terms
    ('prd-482', 'within', '0.25', 'span')
    """
    normalized = unicodedata.normalize("NFKC", text)
    found: list[tuple[int, str]] = []
    # taken identifier spans, sorted and disjoint (a list of characters marking them cost 8 bytes per character:
    # 400 MB for a 50 MB invoice summary); a NUL already in the text blocks an identifier like a taken span
    starts: list[int] = []
    spans: list[tuple[int, int]] = []
    for match in find_identifiers(normalized):
        end = match.start + len(match.raw)
        index = bisect.bisect_left(starts, end)
        if (index and spans[index - 1][1] > match.start) or "\x00" in normalized[match.start : end]:
            continue  # overlaps an identifier of another type found first: keep the first one only
        found.append((match.start, match.value.casefold()))
        index = bisect.bisect_left(starts, match.start)
        starts.insert(index, match.start)
        spans.insert(index, (match.start, end))
    positioned = list(found)
    offset = 0  # positions are those in the case-folded text with identifiers blanked, as one string
    for piece in _blanked_pieces(normalized, spans):
        folded = piece.casefold()
        for token in _TOKEN.finditer(folded):
            word = token.group(0)
            if word in STOP_WORDS:
                continue
            positioned.append((offset + token.start(), stem(word) if word.isalpha() else word))
        offset += len(folded)
    positioned.sort(key=lambda item: item[0])
    return AnalyzedText(tuple(t for _, t in positioned), tuple(t for _, t in sorted(found)))


#: texts are folded and tokenized in pieces of about this many characters, cut after a newline (no token spans
#: one, and case folding maps each character on its own), so a huge text is never copied whole
_PIECE_CHARS = 1 << 20


def _blanked_pieces(text: str, spans: list[tuple[int, int]]) -> Iterator[str]:
    """Consecutive pieces of ``text`` with every span (sorted, disjoint) replaced by as many NUL characters."""
    position, index = 0, 0
    while position < len(text):
        cut = text.find("\n", position + _PIECE_CHARS)
        cut = len(text) if cut < 0 else cut + 1
        parts: list[str] = []
        at = position
        while index < len(spans) and spans[index][0] < cut:
            start, end = max(spans[index][0], at), min(spans[index][1], cut)
            parts.append(text[at:start])
            parts.append("\x00" * (end - start))
            at = end
            if spans[index][1] > cut:
                break  # the rest of this span is in the next piece
            index += 1
        if not parts:
            yield text if at == 0 and cut == len(text) else text[position:cut]
        else:
            parts.append(text[at:cut])
            yield "".join(parts)
        position = cut


def analyze_terms(text: str) -> list[str]:
    """The terms of ``text`` (shortcut for reference implementations that take token lists)."""
    return list(analyze(text).terms)


# -- Porter (1980) ------------------------------------------------------------------------------------------
# M.F. Porter, "An algorithm for suffix stripping", Program 14(3), 1980: the original algorithm, step by step.

_VOWELS = frozenset("aeiou")


def _is_consonant(word: str, i: int) -> bool:
    char = word[i]
    if char in _VOWELS:
        return False
    if char == "y":
        return i == 0 or not _is_consonant(word, i - 1)
    return True


def _measure(stem_: str) -> int:
    """m in [C](VC){m}[V]."""
    m = 0
    i = 0
    n = len(stem_)
    while i < n and _is_consonant(stem_, i):
        i += 1
    while i < n:
        while i < n and not _is_consonant(stem_, i):
            i += 1
        if i >= n:
            break
        while i < n and _is_consonant(stem_, i):
            i += 1
        m += 1
    return m


def _has_vowel(stem_: str) -> bool:
    return any(not _is_consonant(stem_, i) for i in range(len(stem_)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    """*o: the stem ends consonant-vowel-consonant, the last consonant not w, x or y."""
    if len(word) < 3:
        return False
    return (
        _is_consonant(word, len(word) - 3)
        and not _is_consonant(word, len(word) - 2)
        and _is_consonant(word, len(word) - 1)
        and word[-1] not in "wxy"
    )


_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("izer", "ize"), ("abli", "able"),
    ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"),
    ("ator", "ate"), ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"), ("aliti", "al"),
    ("iviti", "ive"), ("biliti", "ble"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"), ("ful", ""), ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate",
    "iti", "ous", "ive", "ize",
)


def _replace_longest(word: str, rules: tuple[tuple[str, str], ...], min_measure: int) -> str:
    # the longest matching suffix decides; if its condition fails no shorter suffix is tried
    matching = [(suffix, repl) for suffix, repl in rules if word.endswith(suffix)]
    if not matching:
        return word
    suffix, repl = max(matching, key=lambda rule: len(rule[0]))
    stem_ = word[: -len(suffix)]
    return stem_ + repl if _measure(stem_) > min_measure else word


def stem(word: str) -> str:
    """The Porter stem of a lower-case word; words of one or two letters are returned unchanged.

    >>> [stem(w) for w in ("caresses", "ponies", "hopping", "relational", "calibration", "calibrated")]
    ['caress', 'poni', 'hop', 'relat', 'calibr', 'calibr']
    """
    if len(word) <= 2:
        return word
    # step 1a
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("ss"):
        pass
    elif word.endswith("s"):
        word = word[:-1]
    # step 1b
    second_or_third = False
    if word.endswith("eed"):
        if _measure(word[:-3]) > 0:
            word = word[:-1]
    elif word.endswith("ed") and _has_vowel(word[:-2]):
        word, second_or_third = word[:-2], True
    elif word.endswith("ing") and _has_vowel(word[:-3]):
        word, second_or_third = word[:-3], True
    if second_or_third:
        if word.endswith(("at", "bl", "iz")):
            word += "e"
        elif _double_consonant(word) and word[-1] not in "lsz":
            word = word[:-1]
        elif _measure(word) == 1 and _cvc(word):
            word += "e"
    # step 1c
    if word.endswith("y") and _has_vowel(word[:-1]):
        word = word[:-1] + "i"
    # steps 2 and 3
    word = _replace_longest(word, _STEP2, 0)
    word = _replace_longest(word, _STEP3, 0)
    # step 4
    matching = [suffix for suffix in _STEP4 if word.endswith(suffix)]
    if matching:
        suffix = max(matching, key=len)
        stem_ = word[: -len(suffix)]
        if _measure(stem_) > 1 and (suffix != "ion" or stem_.endswith(("s", "t"))):
            word = stem_
    # step 5a
    if word.endswith("e"):
        stem_ = word[:-1]
        m = _measure(stem_)
        if m > 1 or (m == 1 and not _cvc(stem_)):
            word = stem_
    # step 5b
    if _measure(word) > 1 and _double_consonant(word) and word.endswith("l"):
        word = word[:-1]
    return word
