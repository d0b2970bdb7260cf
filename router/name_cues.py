"""Name slots: where a question names a supplier or a company, so that a name there that matches nothing is asked
about, never dropped for the company-wide total.

"how much w acme ltd q1 kestrel", "spend with fisher scientific", "was ging an Siemens", "dépenses chez Dupont",
"Company D spend Q1": the words after a supplier/company cue (:data:`NAME_CUES`), or after a company marker
("Company", "Gesellschaft", "Fa."; :data:`router.name_match.KIND_MARKERS`), are a name. The reader offers them to
its name lookup (exact, abbreviated, similar); one that matches nothing is named back in the clarification.

The rule is structural: a cue word, then one to three name-like words (letters, not the reader's vocabulary, not a
period, amount or name read already, which are blanked in the text this runs on). Cues that are ordinary words in
another language ("an" in English, "de" in English text, "at") count only before a capitalised word ("an GAMMA",
"spend at Siemens"), so "an overview", "at least" never open a name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from router.envelope import SIGN_OFF_WORDS
from router.name_match import KIND_MARKERS, marker_kind

#: Words that introduce the supplier or company a figure is about, in the languages users write: True when the
#: cue opens a name written in any case, False when only a capitalised word after it is a name (the cue is an
#: ordinary word too).
NAME_CUES: dict[str, bool] = {
    "with": True, "w": True, "w/": True, "from": True, "bei": True, "von": True, "mit": True, "chez": True,
    "avec": True, "auprès": True, "aupres": True, "bij": True, "presso": True, "con": False, "an": False, "de": False,
    "at": False, "to": False, "del": False, "du": False, "des": False,
}
#: Articles and possessives that may stand between the cue and the name ("with the acme group", "chez le
#: fournisseur Dupont").
_LEADS = frozenset({"the", "a", "an", "le", "la", "les", "l", "der", "die", "das", "dem", "den", "el", "il", "de"})
#: Pronouns and fixed phrases after a cue that are no name ("bei uns", "with respect to", "from me").
_NOT_NAMES = frozenset("""
uns wir euch ihnen ihm ihr mir mich dich dir nous vous eux lui moi toi ons jullie nos nosotros us me you them him
her it this that these those which whom what who each every all both either any some none one respect regard
regards reference thanks kind best greetings love cheers
""".split())  # noqa: SIM905 - a word list reads better as text

#: What ends a name typed in lower case in its slot: the end, punctuation, a blanked read span (a period, a
#: company), a number, a legal form, or a period or list word ("w acme in q1", "with siemens, ...").
_NAME_END = re.compile(r"(?:\s*(?:$|[?.,;:!()/\u2013-]|\d)|\s{2}|\s+(?:in|for|during|since|from|between|last|this|"
                       r"over|until|till|to|at|im|seit|bis|en|pour|und|and|et|or|oder|vs\.?|versus|ltd|gmbh|ag|inc|"
                       r"llc|plc|corp|sa|sarl|bv|kg|se|q[1-4]|h[12]|ytd|mtd|qtd|fy\w*)\b)", re.I)
#: Courtesy words right before a cue (router/envelope.py's table): the cue then opens a greeting or a signature,
#: not a name slot.
_COURTESY = re.compile(r"\b(?:" + "|".join(r"\s+".join(map(re.escape, w.split()))
                                           for w in sorted(SIGN_OFF_WORDS, key=lambda w: (-len(w), w)))
                       + r")\s*,?\s*$", re.I)
#: The start of a clause: a kind marker there with a lowercase word and a colon is a heading ("Supplier mix:").
_SEGMENT_START = re.compile(r"(?:^|[.:;!?\n(]|\s[-\u2013])\s*$")
#: A supplier named by its kind and a number ("supplier 27", "Sup 27", "vendor #27", "Lieferant Nr. 27"): the
#: number is the supplier's id (SUP-27), never a name that ends at its digit and is dropped.
KIND_NUMBER = re.compile(
    r"\b(?:supplier|vendor|lieferant|kreditor|fournisseur|proveedor|fornitore|leverancier|fornecedor|lief|sup)\.?"
    r"[ \t]*(?:(?:no|nr|n°|num|number)\.?[ \t]*|#[ \t]*)?(?P<number>\d{1,6})\b(?![.,]\d|[ \t]*%)", re.I)
_CUE = re.compile(r"(?<![\w/])(?P<cue>w/(?!o\b)|[^\W\d_]+)", re.I)
_WORD = re.compile(r"[^\W\d_][\w&'’.-]*")


def cued_names(text: str, known: Callable[[str], bool]) -> list[tuple[int, int, str]]:
    """(start, end, words) of the name-like words in a name slot of ``text`` (a question with everything read
    blanked): after a cue of :data:`NAME_CUES` or a company marker. ``known`` says whether a word is vocabulary
    (never a name).

    >>> vocabulary = {"q1", "spend", "total"}.__contains__
    >>> cued_names("how much w acme ltd    kestrel", vocabulary)
    [(11, 19, 'acme ltd')]
    >>> cued_names("spend with the    in  ", vocabulary), cued_names("Company D spend", vocabulary)
    ([], [(0, 9, 'Company D')])
    """
    found: list[tuple[int, int, str]] = []
    for cue in _CUE.finditer(text):
        word = cue.group("cue")
        folded = word.lower()
        strict = NAME_CUES.get(folded)
        marker = strict is None and KIND_MARKERS.get(folded) == "supplier"
        if marker:
            strict = True  # "spend at supplier acme", "fournisseur dupont": the supplier named after its kind
        company = KIND_MARKERS.get(folded) == "company" and marker_kind(
            folded, written=word, dotted=text[cue.end("cue"):cue.end("cue") + 1] == ".", before_letter=True)
        if strict is None and not company:
            continue
        if _COURTESY.search(text, 0, cue.start()):
            continue  # "greetings from Vienna", "thanks from Maria": a sign-off, no name slot
        start = cue.end("cue")
        if text[start:start + 1] == ".":
            start += 1
        if text[start:start + 1] != " ":
            continue
        start += 1
        words: list[tuple[int, int, str]] = []
        for w in _WORD.finditer(text, start):
            if w.start() != start:
                break  # a blanked span (two spaces or more) or punctuation ends the name
            token = w.group(0).rstrip(".")
            lower = token.lower()
            if not words and lower in _LEADS and not company:
                start = w.end() + 1
                continue
            if lower in _NOT_NAMES or known(token) or (not words and not strict and not company
                                                        and not token[:1].isupper()):
                break
            words.append((w.start(), w.start() + len(token), token))
            start = w.end() + 1
            if len(words) == 3:
                break
        if not words:
            continue
        if not company and not any(t[:1].isupper() for _, _, t in words) \
                and not _NAME_END.match(text, words[-1][1]):
            continue  # "with duplicates counted only once": a lowercase noun of a clause, no name in a slot
        if marker and not any(t[:1].isupper() for _, _, t in words) and _SEGMENT_START.search(text, 0, cue.start()) \
                and text[words[-1][1]:words[-1][1] + 1] == ":":
            continue  # "Supplier concentration: what share ...": a heading's compound noun, not a supplier's name
        if company:
            # "Company D": the marker is part of the unknown company's name; one word only ("Company D spend")
            begin, end = cue.start(), words[0][1]
        else:
            begin, end = words[0][0], words[-1][1]
        found.append((begin, end, text[begin:end]))
    # "with supplier 27", "Sup 27" left unread (no such id in the tenant): the supplier is asked about, never the
    # company-wide total for a name that ended at its digit
    for numbered in KIND_NUMBER.finditer(text):
        if not any(b <= numbered.start() < e or numbered.start() <= b < numbered.end() for b, e, _ in found):
            found.append((numbered.start(), numbered.end(), numbered.group(0)))
        else:
            found = [f for f in found if not numbered.start() <= f[0] < numbered.end()]
            found.append((numbered.start(), numbered.end(), numbered.group(0)))
    return sorted(found)


def supplier_numbers(text: str, supplier_ids: Iterable[str]) -> str:
    """``text`` with each supplier named by kind and number written as its id when the tenant has that id
    ("spend with supplier 27" -> "spend with      SUP-27"; the same length, so every span keeps its place).

    >>> supplier_numbers("Company A spend with Sup 27 in Q1", {"SUP-27"})
    'Company A spend with SUP-27 in Q1'
    >>> supplier_numbers("spend with supplier 9 in Q1", {"SUP-27"})
    'spend with supplier 9 in Q1'
    """
    known = {i.upper() for i in supplier_ids}

    def _id(match: re.Match[str]) -> str:
        sid = f"SUP-{int(match.group('number')):02d}"
        sid = sid if sid in known else f"SUP-{match.group('number')}"
        if sid not in known or len(sid) > len(match.group(0)):
            return match.group(0)
        return sid.rjust(len(match.group(0)))

    return KIND_NUMBER.sub(_id, text)


def names_a_company(span: str) -> bool:
    """Whether a name slot's span is a company marker and a name ("Company D", "Ges. Zylinder"): an unknown
    company, asked about whatever the question asks (a company's figure or document is never another's)."""
    words = span.split()
    return len(words) > 1 and KIND_MARKERS.get(words[0].lower().rstrip(".")) == "company"


__all__ = ["KIND_NUMBER", "NAME_CUES", "cued_names", "names_a_company", "supplier_numbers"]
