"""Slot-aware unknown names: an unread name blocks the answer only when it fills a constraint slot.

The reader offers every capitalised run, spend object and name-cue phrase to the name lookup; a span that matches
nothing used to be asked about wherever it stood. Yet much of what a writer adds around the question only looks
like a name: framing ("Re the Q-review deck —", "Quick one for the AC pack:", "— need by EOD pls"), a gloss the
reader already read inside brackets ("before Christmas (1-24 Dec 2025)", "the box people (Orbis)"), the everyday
noun of what was bought ("how much stuff did we buy") or the organisation unit of a company read right beside it
("alpenland site", "Company C plant", "Ypsilon shop's spend"). Such a span fills no constraint slot: it is named on
a PARTIAL answer (the figure stays) or, where it restates a name the reader read, read as that name; only a span in
a constraint slot (after a cue, as the subject or object of a spend verb, a key's value, a member of a list, an
exclusion target) still asks back.

The rules are structural, by position in the message and by closed word classes:

- **Framing segment**: a header or trailer cut off by a dash, a colon or brackets (the first or last segment of the
  message, or a bracketed aside) that holds nothing the reader read (no name, period, amount, id), no spend or
  restriction word, and reads as prose (three words or more).
- **Gloss**: a span followed by brackets whose every word the reader read ("Christmas (1-24 Dec 2025)").
- **Organisation unit**: a noun of :data:`ORG_UNIT_NOUNS` directly before or after a company the reader resolved is
  that company ("alpenland site" is Alpenland); next to an unknown name it stays a constraint ("Brno site").
- **Generic goods**: a span made only of :data:`GENERIC_GOODS` ("stuff", "things", "Zeug") names everything bought.
- **Slip**: a function word typed with one slip ("teh", "wich") is grammar (router/unread_words.py reads it so).
- **Plain language**: a span made only of closed-class words of any language the readers know ("pueden pasar",
  "produto teve mais", "wie viele Tage", "the e-mail says"; router/unread_words.py's table) is no name, even in a
  name slot; a single letter, an all-caps or code-shaped word or an English word capitalised mid-sentence stays one.
- **Name variant**: a word right after a resolved company's mention that is its name's next word in another form
  ("Alpenland Logistics" for Alpenland Logistik AG: one stem).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from router.entities import Gazetteer

#: Nouns of a company's organisation unit, in the languages the readers know: next to a resolved company they name
#: that company ("the Kestrel plant", "Werk Alpenland", "usine Xenon"). A closed class, limited to nouns that cannot
#: name a category of goods or costs: "<noun> spend" must not be able to mean what was bought. So "office",
#: "store(s)", "warehouse", "depot", "works", "facilities", "premises" (office supplies, stores materials, warehouse
#: costs, construction works, facility management, rent) are not in it, nor "unit(s)" (the units measure): beside a
#: company they stay unread and are asked about. "shop" (and its translations) is in it, but a unit noun is read
#: only where its noun phrase ends (:func:`company_units`): "Ypsilon shop's spend", never "Ypsilon shop fittings".
ORG_UNIT_NOUNS: frozenset[str] = frozenset("""
site sites plant plants shop shops branch branches location locations entity entities subsidiary subsidiaries
factory factories
werk werke standort standorte filiale filialen niederlassung niederlassungen gesellschaft
usine usines succursale succursales filiale filiales etablissement établissement entite entité
vestiging vestigingen fabriek fabrieken winkel
zaklad zakład oddzial oddział spolka spółka fabryka
sede sedes planta plantas sucursal sucursales tienda tiendas fabbrica stabilimento negozio
anlaggning anläggning fabrik butik
""".split())  # noqa: SIM905 - a word list reads better as text

#: Everyday nouns of "whatever was bought" ("how much stuff did we buy", "was für Zeug"): no category, the whole
#: scope. A closed class.
GENERIC_GOODS: frozenset[str] = frozenset("""
stuff things thing goods bits items everything anything zeug sachen kram trucs choses affaires spullen dingen
rzeczy towary cosas cose roba grejer saker ting tavara
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words that make a segment a constraint, never framing: a figure's noun or verb, a restriction or exclusion.
_CONSTRAINT_WORD = re.compile(
    r"\b(?:spend|spent|spending|spends|cost|costs|bought|buy|buying|purchases?|purchased|paid|pay|invoices?|"
    r"only|just|solely|exclusively|excluding|excl|except|without|ex|w/o|not|no|nur|ohne|seulement|sauf|hors|"
    r"alleen|zonder|tylko|bez|with|from|for\s+supplier|supplier|vendor|category|group|product)\b", re.I)
#: Segment boundaries: a spaced dash, a colon before a space, a bracket, a line break, a sentence end.
_BOUNDARY = re.compile(r"\s[—–-]+\s|\s[—–]|[—–]\s|:\s|[()\[\]]|\n+|(?<=[.!?])\s+")
_WORD = re.compile(r"[^\W_][\w'’&./-]*")


@dataclass(frozen=True)
class Slotless:
    """An unread span in no constraint slot and why: "framing", "gloss", "plain" (named on a PARTIAL answer) or
    "unit", "goods", "variant" (read: the company beside it, or everything bought)."""

    start: int
    end: int
    text: str
    why: str


def _overlaps(start: int, end: int, spans: Iterable[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def _segments(text: str) -> list[tuple[int, int, bool]]:
    """(start, end, bracketed) of the parts of ``text`` between boundaries."""
    out: list[tuple[int, int, bool]] = []
    cursor, depth_open = 0, False
    for cut in _BOUNDARY.finditer(text):
        if cut.start() > cursor:
            out.append((cursor, cut.start(), depth_open))
        sign = cut.group(0)
        if "(" in sign or "[" in sign:
            depth_open = True
        elif ")" in sign or "]" in sign:
            depth_open = False
        cursor = cut.end()
    if cursor < len(text):
        out.append((cursor, len(text), depth_open))
    return [(a, b, br) for a, b, br in out if text[a:b].strip()]


def framing(text: str, start: int, end: int, read: Sequence[tuple[int, int]]) -> bool:
    """Whether the span lies in a header, trailer or bracketed aside that holds nothing read and no constraint word.

    >>> framing("Re the Q-review deck — Company A spend Q1", 7, 15, [(23, 32), (39, 41)])
    True
    >>> framing("Company A — hydraulics?", 12, 22, [(0, 9)])
    False
    """
    segments = _segments(text)
    if len(segments) < 2:
        return False
    for i, (a, b, bracketed) in enumerate(segments):
        if not (a <= start and end <= b):
            continue
        edge = i == 0 or i == len(segments) - 1 or bracketed
        words = _WORD.findall(text[a:b])
        return (edge and len(words) >= 3 and not _overlaps(a, b, read)
                and _CONSTRAINT_WORD.search(text[a:b]) is None and not _after_cue(text[a:start])
                and _prose(words))
    return False


def _prose(words: Sequence[str]) -> bool:
    """Whether a segment's words read as prose, not as a name: no legal-form word ("GmbH", "AG"), not a run of
    capitalised words ("Nordwind Pumpen Service"), and a function word, a verb of need, or an occasion or deadline
    word (router/envelope.py's tables: "Re the Q-review deck", "need by EOD pls"). An unknown supplier's name written
    after the ask ("- Nordwind Pumpen Service", "(Nordwind Pumpen Service)") is a constraint, asked about.

    >>> _prose(["Nordwind", "Pumpen", "Service"]), _prose(["Re", "the", "Q-review", "deck"])
    (False, True)
    """
    from ingest.normalize import LEGAL_FORMS
    from router.envelope import CHAT_WORDS, OCCASIONS, URGENCY
    from router.unread_words import FUNCTION_WORDS

    low = [w.lower().strip(".,:;!?'’") for w in words]
    if any(w in LEGAL_FORMS for w in low):
        return False
    letters = [w for w, lw in zip(words, low, strict=True) if w[:1].isalpha() and lw not in FUNCTION_WORDS]
    if len(letters) >= 2 and all(w[0].isupper() for w in letters) and len(letters) == len(words):
        return False  # a run of capitalised words: a name
    return any(w in FUNCTION_WORDS or w in OCCASIONS or w in URGENCY or w in CHAT_WORDS
               or w in {"need", "needed", "needs", "want", "pls", "please", "re", "fyi", "eod", "eow", "cob", "by"}
               for w in low)


_LAST_WORDS = re.compile(r"([^\W\d_]+)(?:\s+(?:the|a|an|le|la|les|der|die|das|dem|den|de))?\s*$", re.I)


def _after_cue(before: str) -> bool:
    """Whether the words before a span end in a name cue or kind marker ("what went to Zorbix", "chez Dupont"): a
    name slot."""
    from router.name_cues import NAME_CUES
    from router.name_match import KIND_MARKERS

    last = _LAST_WORDS.search(before)
    # (a kind marker names the slot too: "chez le fournisseur Dupont", "Lieferant Huber")
    return last is not None and (last.group(1).lower() in NAME_CUES or last.group(1).lower() in KIND_MARKERS)


_GLOSS = re.compile(r"\s*\(([^()]{1,80})\)")


def glossed(text: str, end: int, read: Sequence[tuple[int, int]]) -> bool:
    """Whether brackets right after the span hold only words the reader read ("Christmas (1-24 Dec 2025)")."""
    gloss = _GLOSS.match(text, end)
    if gloss is None:
        return False
    a = gloss.start(1)
    words = list(_WORD.finditer(gloss.group(1)))
    return bool(words) and all(_overlaps(a + w.start(), a + w.end(), read) for w in words)


def _unit_word(word: str) -> bool:
    return re.sub(r"['’]s$", "", word.lower()).strip(".:,") in ORG_UNIT_NOUNS


_UNIT_TOKEN = re.compile(r"[^\W\d_]+(?:['’]s)?")


#: What may follow a unit noun that ends its noun phrase: a spend noun or verb, a record noun, a period word or a
#: code-shaped period ("P11", "Q1"), a number.
_AFTER_UNIT = re.compile(
    r"(?:spend|spent|spending|spends|costs?|bought|buy|buys|purchases?|purchased|purchasing|paid|pays?|invoices?|"
    r"invoiced|suppliers?|vendors?|total|totals|figures?|numbers?|actuals?|burn|fiscal|so|went|got|had|has|have|"
    r"did|does|was|were|is|are|q[1-4]|h[12]|fy\w*|ytd|p\d+|m\d+|\d\w*|jan\w*|feb\w*|mar\w*|apr\w*|may|jun\w*|"
    r"jul\w*|aug\w*|sep\w*|oct\w*|nov\w*|dec\w*|last|this|next|previous|prior|current)\b", re.I)
_NEXT_WORD = re.compile(r"['’]s\b|\s*(?:$|[^\w\s])|\s+(?P<word>[\w/]+)")


def _phrase_ends(text: str, end: int) -> bool:
    """Whether a noun phrase ends at ``end``: punctuation or the end next, or a function, spend or period word."""
    from router.unread_words import FUNCTION_WORDS

    after = _NEXT_WORD.match(text, end)
    if after is None or after.group("word") is None:
        return True
    word = after.group("word")
    return word.lower() in FUNCTION_WORDS or word.lower() in _UNIT_FOLLOWERS or _AFTER_UNIT.fullmatch(word) is not None


#: Prepositions and conjunctions after a unit noun ("xenon site in Q1", "the plant and ..."), beyond the function
#: words of router/unread_words.py.
_UNIT_FOLLOWERS = frozenset({"in", "on", "at", "by", "of", "to", "or", "and", "since", "during", "over", "until",
                             "before", "after", "as", "im", "en", "au", "w", "na"})


def company_units(text: str, companies: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The organisation-unit nouns written directly before or after a resolved company's span (only blanks between,
    or a possessive): "alpenland site", "Company C plant:", "site Comp A", "Ypsilon shop's".

    >>> company_units("what did xenon site spend", [(9, 14)])
    ((15, 19),)
    >>> company_units("what did Brno site spend", [])
    ()
    """
    out: list[tuple[int, int]] = []
    for token in _UNIT_TOKEN.finditer(text):
        if not _unit_word(token.group(0)) or _overlaps(token.start(), token.end(), companies):
            continue
        # after the company, the unit ends the noun phrase ("alpenland site spend", "Ypsilon shop's", "kestrel
        # plant?"); before another noun it modifies that noun ("Company A office furniture": what was bought)
        before = any(0 <= token.start() - e <= 2 and not text[e:token.start()].strip(" ’'s")
                     for _, e in companies) and _phrase_ends(text, token.end())
        after = any(0 <= s - token.end() <= 2 and not text[token.end():s].strip() for s, _ in companies)
        if before or after:
            out.append(token.span())
    return tuple(out)


def company_spans(text: str, gazetteer: Gazetteer) -> list[tuple[int, int]]:
    """The spans of ``text`` that name one company of the tenant: its name, short name or id ("COMP-A")."""
    from router.entities import find_mentions

    spans = [(m.start, m.end) for m in find_mentions(text, gazetteer, figure=True).companies if m.resolved]
    ids = {c.company_id.upper() for c in gazetteer.companies}
    spans.extend(m.span() for m in _COMPANY_ID.finditer(text) if m.group(0).upper() in ids)
    return spans


_COMPANY_ID = re.compile(r"\bCOMP-[A-Z0-9]{1,6}\b", re.I)


def generic_goods(phrase: str) -> bool:
    """Whether every word of ``phrase`` is a noun of whatever was bought ("stuff", "things")."""
    words = [w.lower() for w in _WORD.findall(phrase)]
    return bool(words) and all(w in GENERIC_GOODS for w in words)


def function_word_slip(word: str) -> bool:
    """Whether ``word`` is a function word typed with one slip ("teh", "wich"): grammar, never a name."""
    from router.unread_words import _plain, _slip_of_function_word

    plain = _plain(word)
    return plain.isalpha() and plain == word.lower() and _slip_of_function_word(plain)


def _stem_match(word: str, known: str) -> bool:
    """One word in two forms: a shared stem of five letters or more covering most of the shorter word
    ("logistics"/"logistik", "pharmaceuticals"/"pharma" no: the stem must reach 70% of both)."""
    a, b = word.lower(), known.lower()
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= 5 and common >= 0.7 * max(len(a), len(b)) - 1


def company_variant(text: str, start: int, phrase: str, companies: Sequence[tuple[int, int, str]]) -> bool:
    """Whether ``phrase`` (at ``start``) continues a resolved company's mention with its name's next words in
    another form: "Alpenland Logistics" for "Alpenland Logistik AG", abbreviated ("Ypsilon Rtl", "Xenon Ph.").
    ``companies``: (start, end, company name)."""
    words = phrase.split()
    for s, e, name in companies:
        if not (0 < start - e <= 1 and not text[e:start].strip()):
            continue
        mentioned = len(text[s:e].split())
        rest = name.split()[mentioned:]
        # (a prefix is marked by its dot, or by its capital right after the company: "Xenon Ph", the dot lost)
        dotted = text[start + len(phrase):start + len(phrase) + 1] == "." or phrase[:1].isupper()
        if rest and len(words) <= len(rest) and all(_stem_match(w, k) or _abbreviation(w, k, dotted)
                                                    for w, k in zip(words, rest, strict=False)):
            return True
    return False


def _abbreviation(word: str, known: str, dotted: bool) -> bool:
    """Whether ``word`` abbreviates the name's word ``known``: its prefix written with a dot ("Xenon Ph.") or its
    skeleton, the same first letter and the other letters in order ("Ypsilon Rtl" for Retail, "Intl", "Mgmt")."""
    from router.name_match import abbreviates

    a, b = word.lower().rstrip("."), known.lower()
    if not a.isalpha() or len(a) < 2 or len(a) >= len(b) or a[0] != b[0]:
        return False
    if abbreviates(a, b, dotted=dotted):
        return True
    at = 0
    for letter in a[1:]:
        at = b.find(letter, at + 1)
        if at < 0:
            return False
    return len(a) >= 3


def slotless(text: str, start: int, end: int, phrase: str, read: Sequence[tuple[int, int]],
             units: Sequence[tuple[int, int]], companies: Sequence[tuple[int, int, str]]) -> Slotless | None:
    """Why an unread span fills no constraint slot, or None when it does (it is asked about)."""
    words = phrase.split()
    if words and all(_unit_word(w) for w in words) and _overlaps(start, end, units):
        return Slotless(start, end, phrase, "unit")
    if generic_goods(phrase):
        return Slotless(start, end, phrase, "goods")
    if len(words) == 1 and function_word_slip(phrase):
        return Slotless(start, end, phrase, "slip")
    if company_variant(text, start, phrase, companies):
        return Slotless(start, end, phrase, "variant")
    if plain_language(text, start, phrase):
        return Slotless(start, end, phrase, "plain")
    if glossed(text, end, read) and not _after_cue(text[:start]):
        # (a name after its kind marker is in its slot whatever follows: "vendor Reliance Packaging (Company A)")
        return Slotless(start, end, phrase, "gloss")
    if framing(text, start, end, read):
        return Slotless(start, end, phrase, "framing")
    return None


#: The words of a span as written: letters with inner hyphens or apostrophes ("e-mail", "l'équipe"); anything else
#: in the span (a digit, a sign) makes it code-shaped.
_PLAIN_TOKEN = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)*")
#: A name slot's preposition right before a span ("with", "from" and theirs in the writers' languages): what
#: follows it is a supplier's or company's name candidate, whatever class its words are of.
_NAME_SLOT_BEFORE = re.compile(r"(?<![\w-])(?:with|from|con|com|bei|chez|avec|mit|von|van|met|presso|od)\s+$",
                               re.I)
#: What opens a sentence: the start, a sentence end, a colon, a bracket, a spaced dash or a line break before the word.
_SENTENCE_OPENS = re.compile(r"(?:^|[.!?:;(\[\n¿¡]|\s[-–—])\s*$")


def plain_language(text: str, start: int, phrase: str) -> bool:
    """Whether the unread span ``phrase`` (at ``start`` of ``text``) is ordinary language, not an unknown name: every
    word is of a closed class (router/unread_words.py's :data:`~router.unread_words.CLOSED_CLASS_WORDS`: function
    words, verbs of asking and buying, quantity, time and record words, in every language the readers know). It is
    named on a PARTIAL answer, never asked as an unknown company or supplier, and never read silently either: a
    function word left over is the sign of a constraint the readers missed ("os 2 meses de menor gasto em 2026").

    The decision is by shape and word class, in every language at once: a span is a name candidate when a word is
    of no closed class, is a single letter ("supplier e", "Company D"), is all capitals or code-shaped ("JP",
    "M.R.O", "FreshFruit", "3rd"), or is an English word capitalised mid-sentence ("spend with Total"). A closed-class
    word capitalised mid-sentence in another language is a noun of that language ("wie viele Tage", "im Jahr").

    >>> plain_language("cuanto le compramos a Epsilon", 11, "compramos"), plain_language("te pido algo", 0, "te pido")
    (True, True)
    >>> plain_language("Kestrel gasto em maio", 14, "em"), plain_language("spend with Zorbix", 11, "Zorbix")
    (True, False)
    >>> plain_language("spend with supplier e", 20, "e"), plain_language("Kestrel Total spend", 8, "Total")
    (False, False)
    """
    from router.unread_words import _english_words, _plain, closed_class

    tokens = list(_PLAIN_TOKEN.finditer(phrase))
    if _NAME_SLOT_BEFORE.search(text, 0, start) is not None:
        return False  # "spend with best", "from ok", "con grupo bom": the name slot's words are a name to ask
    if not tokens or re.sub(r"[\s,/&+]", "", _PLAIN_TOKEN.sub("", phrase)):
        return False  # a digit or sign inside: code-shaped ("3rd-party", "M.R.O", "PG-HVAC")
    if any(len(t.group(0)) == 1 and (t.group(0).isupper() or t is tokens[-1]) for t in tokens):
        return False  # a letter: a company's or supplier's letter ("supplier e", "Company D", "company z")
    for token in tokens:
        word = token.group(0)
        if closed_class(word) is None:
            return False
        if len(word) > 1 and word.isupper():
            return False  # all capitals: an acronym or a name ("JP", "ALPENLAND")
        if any(c.isupper() for c in word[1:]):
            return False  # capitals inside: a brand's shape ("FreshFruit", "eBay")
        opens = _SENTENCE_OPENS.search(text, 0, start + token.start()) is not None
        if word[0].isupper() and not opens and _plain(word) in _english_words():
            return False  # "spend with Total", "the Best account": an English word written as a name
    return True


#: The classes a name never starts or ends with: function words and verbs ("foi em Compressors", "ask Zorbix").
_EDGE_CLASSES = frozenset({"function", "verb"})


def name_core(text: str, start: int, phrase: str) -> tuple[int, int]:
    """The part of the span ``phrase`` (at ``start`` of ``text``) that may be a name: without the lowercase function
    words and verbs at its edges ("foi em Compressors" -> "Compressors", "pueden pasar Zorbix" -> "Zorbix"), as
    (start, end) offsets inside ``phrase``. Only a capitalised core is cut out ("it hardware" stays whole); a span of
    plain words only is kept whole (:func:`plain_language` decides it), and so is a core shorter than three letters
    ("Company D" is never cut to "D": "Company" is no edge word).

    >>> name_core("how much foi em Compressors", 9, "foi em Compressors")
    (7, 18)
    >>> name_core("spend with Da Costa Ltd", 11, "Da Costa Ltd"), name_core("x pueden pasar", 2, "pueden pasar")
    ((0, 12), (0, 12))
    """
    from router.unread_words import closed_class

    tokens = list(_PLAIN_TOKEN.finditer(phrase))

    def edge(token: re.Match[str]) -> bool:
        word = token.group(0)
        opens = _SENTENCE_OPENS.search(text, 0, start + token.start()) is not None
        return (word.islower() or (opens and len(word) > 1 and word[1:].islower())) \
            and closed_class(word) in _EDGE_CLASSES

    i, j = 0, len(tokens)
    while i < j and edge(tokens[i]):
        i += 1
    while j > i and edge(tokens[j - 1]):
        j -= 1
    if i == j or (i, j) == (0, len(tokens)) or not tokens[i].group(0)[:1].isupper():
        # (only a name-shaped core is cut out: "it hardware" keeps its "it", a lowercase phrase stays whole)
        return 0, len(phrase)
    a, b = tokens[i].start(), tokens[j - 1].end()
    # (a core is cut at word edges only; whatever stands between its words, a sign or a digit, stays in it)
    b = len(phrase) if j == len(tokens) else b
    a = 0 if i == 0 else a
    return (a, b) if len(phrase[a:b].strip()) >= 3 else (0, len(phrase))


#: Reasons whose span is read (the company beside it, everything bought); the others are named on a PARTIAL answer.
READ_REASONS = frozenset({"unit", "goods", "variant", "slip"})


__all__ = ["GENERIC_GOODS", "ORG_UNIT_NOUNS", "READ_REASONS", "Slotless", "company_spans", "company_units",
           "company_variant", "framing", "function_word_slip", "generic_goods", "glossed", "name_core",
           "plain_language", "slotless"]
