"""Names a speech-to-text transcript misheard, matched by their sound ("alpine land logistic" for Alpenland
Logistik).

A transcript writes a foreign name as the English words it sounds like: the letters differ (trigram similarity
stays below the name threshold, "alpine" vs "alpenland"), the consonants do not. A span that no spelling matches
is compared by its consonant skeleton (the first letter, then the consonants with vowels dropped, similar sounds
merged, doubled letters collapsed) with the skeletons of the tenant's company and supplier names, legal forms and
spaces ignored. Only an exact skeleton match of 6+ letters counts (a long name said with other vowels); two names
with the same skeleton are both offered, so the question asks which (never a guess).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from ingest.normalize import normalize_supplier_name

#: Letter groups that sound alike in a transcript of German / English names ("ck" / "k", "ph" / "f").
_SOUNDS = (("sch", "s"), ("ph", "f"), ("ck", "k"), ("ch", "k"), ("qu", "k"), ("c", "k"), ("q", "k"), ("z", "s"),
           ("x", "ks"), ("v", "f"), ("w", "f"), ("ä", "e"), ("ö", "o"), ("ü", "u"), ("ß", "s"))
#: Shorter skeletons collide between unrelated names ("Beta" and "Bott" are both "bt").
MIN_SKELETON = 6
#: Words that never make a name's sound (the kind of name, articles).
_NOT_NAME = frozenset({"supplier", "suppliers", "vendor", "vendors", "company", "companies", "the", "of", "and",
                       "with", "from", "on", "for", "our", "its"})


def skeleton(name: str) -> str:
    """A name's consonant skeleton: legal forms and spaces dropped, similar sounds merged, vowels dropped.

    >>> skeleton("alpine land logistic") == skeleton("Alpenland Logistik AG")
    True
    >>> skeleton("Kestrel Lebensmittel GmbH")
    'kstrllbnsmtl'
    """
    words = [w for w in (normalize_supplier_name(name) or "").lower().split() if w not in _NOT_NAME]
    out: list[str] = []
    for word in words:
        text = re.sub(r"[^a-zäöüß]", "", word)
        for said, written in _SOUNDS:
            text = text.replace(said, written)
        if not text:
            continue
        body = re.sub(r"[aeiouyh]", "", text if out else text[1:])
        # doubles collapse within a word only: "did delta" is not "delta" (the d of "did" is no echo of it)
        out.append(re.sub(r"(.)\1+", r"\1", body if out else text[0] + body))
    return "".join(out)


def sound_alike(phrase: str, names: Iterable[tuple[str, str, str]]) -> Sequence[tuple[str, str, str]]:
    """The (kind, canonical id, spelling) of the company and supplier names that sound like ``phrase``.

    >>> sound_alike("alpine land logistic", [("company", "COMP-A", "Alpenland Logistik AG"),
    ...                                      ("company", "COMP-K", "Kestrel Lebensmittel GmbH")])
    [('company', 'COMP-A', 'Alpenland Logistik AG')]
    """
    key = skeleton(phrase)
    if len(key) < MIN_SKELETON:
        return []
    found: dict[tuple[str, str], tuple[str, str, str]] = {}
    for kind, cid, spelling in names:
        if kind in ("company", "supplier") and skeleton(spelling) == key:
            found.setdefault((kind, cid), (kind, cid, spelling))
    return sorted(found.values())


#: A run of words rewritten in the question as the name it sounds like needs this long a skeleton (a whole name of
#: several syllables, never a pair of common words).
MIN_REWRITTEN = 9


def sounded_names(text: str, names: Iterable[tuple[str, str, str]]) -> str:
    """``text`` with each run of 2-4 words that sounds like exactly one company or supplier name (and is not
    written as it) replaced by that name, so every reader of the question finds it.

    >>> sounded_names("how many suppliers did alpine land logistic use",
    ...               [("company", "COMP-A", "Alpenland Logistik AG")])
    'how many suppliers did Alpenland Logistik AG use'
    """
    by_key: dict[str, set[tuple[str, str]]] = {}
    spelled: dict[str, str] = {}
    for kind, cid, spelling in names:
        key = skeleton(spelling)
        if kind in ("company", "supplier") and len(key) >= MIN_REWRITTEN:
            by_key.setdefault(key, set()).add((kind, cid))
            spelled.setdefault(key, spelling)
    if not by_key:
        return text
    # whole words only: a letter of "q1" or "w/" is no syllable of a name ("labortechnik q1" stays as written)
    words = list(re.finditer(r"[^\s,;:?!()]+", text))
    out: list[str] = []
    position, i = 0, 0
    while i < len(words):
        hit: tuple[int, str] | None = None
        for j in range(min(len(words), i + 4), i + 1, -1):
            if any(not re.fullmatch(r"[A-Za-zÄÖÜäöüß]{2,}", w.group(0)) for w in words[i:j]):
                continue  # a name is said in words of letters, never across digits, punctuation or lone letters
            if {words[i].group(0).lower(), words[j - 1].group(0).lower()} & _NOT_NAME:
                continue  # "of alpine land": the name's run starts and ends with a word of the name
            span = text[words[i].start():words[j - 1].end()]
            key = skeleton(span)
            if len(by_key.get(key, ())) == 1 and normalize_supplier_name(span) != normalize_supplier_name(
                    spelled[key]):
                hit = (j, spelled[key])
                break
        if hit is None:
            i += 1
            continue
        out.append(text[position:words[i].start()])
        out.append(hit[1])
        position, i = words[hit[0] - 1].end(), hit[0]
    out.append(text[position:])
    return "".join(out)
