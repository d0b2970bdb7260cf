"""The topic of a question about a named document, and how well a sentence holds it.

Pure functions, no database. A question such as "calibration interval for the DPS-482 differential pressure
sensor per the manual" names its document by an entity (the product) and asks about a topic ("calibration
interval"). Once the document is known, the entity words carry no information (every section of the manual
mentions the device), so passages are ranked by the remaining topic words only: :func:`topic_terms` drops the
entity span (codes, designations, the product name or document title run, document-cue words) and maps German
topic words to the corpus's English ones ("Zahlungsziel" -> payment terms); :func:`sentence_score` scores one
sentence by the topic words it holds, their usual paraphrases ("interval" -> "every ... months") and whether it
states a value in the unit the topic is measured in ("torque" -> "40 Nm").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

_WORD = re.compile(r"[^\W_]+(?:[-.][^\W_]+)*", re.UNICODE)
#: A code or designation: letters and digits joined by a hyphen ("PRD-482", "DPS-482", "MC-4", "DP-10",
#: "agreement-2025-12"), or letters then digits ("PT100", "M20").
_CODE = re.compile(r"^(?=.*\d)(?=.*[a-z])[a-z0-9]+(?:[-.][a-z0-9]+)+$|^[a-z]+\d+[a-z0-9]*$")

#: Words that carry no topic, in English and German (question words, articles, document cues).
_STOP = frozenset((
    # English
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how",
    "in", "is", "it", "its", "of", "on", "or", "the", "this", "that", "to", "was", "what", "when", "where",
    "which", "who", "why", "with", "about", "say", "says", "said", "per", "according", "our", "their", "my",
    "me", "i", "we", "you", "please", "tell", "show", "give", "need", "needs", "needed", "s", "there", "any",
    "manual", "manuals", "handbook", "datasheet", "guide", "instructions", "document", "documentation",
    "agreement", "agreements", "contract", "contracts", "clause", "stated", "state", "states", "specified",
    "specify", "specifies", "listed", "given", "written", "mentioned", "allowed", "permitted", "permissible",
    "value", "device", "product", "its", "what's", "whats", "under", "into", "if", "should", "must", "be",
    "look", "lookup", "up", "find", "details", "detail", "info", "information", "everything", "all", "know",
    "want", "get", "see", "open",
    # the version in force is the search's (valid_at), not a topic word: "the current threshold", "now"
    "current", "currently", "now", "today", "latest", "still", "after", "pls", "plz",
    # German
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einer", "eines", "einem", "einen", "und", "oder",
    "ist", "sind", "was", "wie", "welche", "welcher", "welches", "welchen", "im", "in", "am", "an", "auf", "aus",
    "bei", "mit", "nach", "von", "vom", "zu", "zum", "zur", "für", "laut", "gemäß", "gemaess", "steht", "stehen",
    "gilt", "hat", "haben", "braucht", "benötigt", "vertrag", "vertrags", "vertrages", "handbuch", "handbuchs",
    "anleitung", "bedienungsanleitung", "betriebsanleitung", "datenblatt", "dokument", "es", "sie", "er", "wir",
    "unser", "unserem", "unseren", "unsere", "dort", "darin", "hier", "bitte", "lang", "lange", "hoch", "groß",
    "viel", "viele", "wieviel", "wieviele", "beträgt", "darf", "muss", "soll", "sollte", "kann", "wird", "werden",
    "wann", "angegeben", "vereinbart", "genannt", "nennt", "sagt", "welchem", "dieser", "diesem", "dieses",
))

#: German topic words (lowercase stems, matched inside compounds) -> the English words of the corpus.
GERMAN_TOPICS: tuple[tuple[str, str], ...] = (
    ("zahlungsziel", "payment terms due net days"),
    ("zahlungsbedingung", "payment terms due net days"),
    ("zahlung", "payment"),
    ("skonto", "discount early payment"),
    ("kündigungsfrist", "notice period terminate termination"),
    ("kuendigungsfrist", "notice period terminate termination"),
    ("kündigung", "notice terminate termination"),
    ("laufzeit", "term runs years renews"),
    ("versorgungsspannung", "supply voltage"),
    ("spannung", "voltage"),
    ("umgebungstemperatur", "ambient temperature"),
    ("betriebstemperatur", "operating temperature"),
    ("lagertemperatur", "storage temperature"),
    ("lagerung", "storage stored"),
    ("temperatur", "temperature"),
    ("drehmoment", "torque tighten"),
    ("anzug", "tighten torque"),
    ("prozessanschluss", "process connection"),
    ("schleifenwiderstand", "loop resistance"),
    ("bürde", "loop resistance"),
    ("widerstand", "resistance"),
    ("kalibrierintervall", "calibration interval every"),
    ("kalibrierung", "calibration"),
    ("kalibrier", "calibration"),
    ("intervall", "interval every"),
    ("abstand", "clearance"),
    ("dämpfung", "damping"),
    ("daempfung", "damping"),
    ("schutzart", "enclosure rating"),
    ("gewährleistung", "warranty"),
    ("garantie", "warranty"),
    ("lieferzeit", "delivery lead time days"),
    ("lieferung", "delivery"),
    ("haftung", "liability"),
    ("vertragsstrafe", "penalty"),
    ("strafe", "penalty"),
    ("preisanpassung", "price adjustments"),
    ("preis", "price prices"),
    ("rabatt", "rebate discount"),
    ("rechnung", "invoice invoices"),
    ("wartung", "maintenance"),
    ("inspektion", "inspect inspection"),
    ("prüfung", "audit inspection"),
    ("versicherung", "insurance"),
    ("vertraulichkeit", "confidentiality"),
    ("gerichtsstand", "jurisdiction venue"),
    ("schwingung", "vibration"),
    ("vibration", "vibration"),
    ("dichtung", "seals"),
    ("verdrahtung", "wiring"),
    ("kabel", "cable"),
    ("montage", "mount installation"),
    ("installation", "installation"),
    ("einbau", "installation mount"),
    ("gültig", "valid effective date"),
    ("kraft", "force effective date"),
    ("höchst", "maximum"),
    ("maximal", "maximum"),
    ("minimal", "minimum"),
    ("mindest", "minimum"),
    ("liefer", "delivery"),
    ("frist", "period notice"),
    ("zeit", "time"),
    ("abnahmekriteri", "acceptance criterion"),
    ("kriteri", "criterion"),
    ("toleranz", "tolerance"),
)

#: A topic word -> its usual paraphrases in the sentence holding the fact (weighted below the word itself).
_PARAPHRASES: dict[str, tuple[str, ...]] = {
    "interval": ("every", "months", "years"),
    "often": ("every",),
    "frequency": ("every",),
    "torque": ("tighten", "nm"),
    "tightening": ("tighten", "nm"),
    "voltage": ("supply", "dc"),
    "resistance": ("ω", "ohm"),
    "clearance": ("mm",),
    "distance": ("clearance", "mm"),
    "payment": ("due", "net", "days"),
    "pay": ("payment", "due", "net"),
    "notice": ("terminate", "termination", "months"),
    "termination": ("notice", "terminate"),
    "cancel": ("terminate", "notice"),
    "terminate": ("notice",),
    "warranty": ("months", "defects"),
    "damping": ("seconds",),
    "delivery": ("days", "deliver"),
    "lead": ("delivery", "days"),
    "term": ("runs", "years", "renews"),
    "duration": ("runs", "years"),
    # "how long does it run", "how long does the contract last", "when does it expire": the term clause
    "run": ("runs", "years", "renews"),
    "long": ("runs", "years", "months"),
    "last": ("runs", "years"),
    "lasts": ("runs", "years"),
    "expire": ("runs", "years", "renews"),
    "expires": ("runs", "years", "renews"),
    "expiry": ("runs", "years", "renews"),
    "renewal": ("renews", "years"),
    # "two-signatory threshold", "orders above what amount need 2 signatures": the signing rule
    "threshold": ("above", "require", "exceed"),
    "signatures": ("signatories", "authorised", "approval"),
    "signature": ("signatories", "authorised", "approval"),
    "signatory": ("signatories", "authorised", "approval"),
    "sign": ("signatories", "authorised"),
    "fix": ("fixed", "months"),
    "fixed": ("months",),
    "temperature": ("°c",),
    "range": ("between",),
    # a document's validity: the version in force and its effective date
    "force": ("effective", "date"),
    "valid": ("effective", "date"),
    "effective": ("date",),
    "since": ("effective", "date"),
    "version": ("amendment", "effective"),
    "max": ("maximum",),
    "maximum": ("max",),
    "min": ("minimum",),
    "storage": ("stored", "store"),
    "rebate": ("credit",),
    # "acceptance criterion of the calibration", "pass criteria", "tolerance": the sentence saying when it passes
    "acceptance": ("passes", "pass", "within", "deviation", "limit"),
    "criterion": ("passes", "pass", "within", "deviation", "limit", "acceptance"),
    "criteria": ("passes", "pass", "within", "deviation", "limit", "acceptance"),
    "tolerance": ("within", "deviation", "limit", "acceptance"),
    "pass": ("passes", "within", "acceptance"),
}

#: A topic word -> the value the sentence holding its fact states ("40 Nm", "every 12 months", "-20 °C").
_UNITS: dict[str, re.Pattern[str]] = {
    "voltage": re.compile(r"\d\s*v\b(?:\s*(?:dc|ac))?", re.I),
    "temperature": re.compile(r"\d\s*°\s*c", re.I),
    "torque": re.compile(r"\d\s*nm\b", re.I),
    "tightening": re.compile(r"\d\s*nm\b", re.I),
    "resistance": re.compile(r"\d\s*(?:ω|ohm)", re.I),
    "interval": re.compile(r"\bevery\s+\d+|\d+\s*(?:months?|years?|weeks?)\b", re.I),
    "often": re.compile(r"\bevery\s+\d+|\d+\s*(?:months?|years?|weeks?)\b", re.I),
    "clearance": re.compile(r"\d\s*mm\b", re.I),
    "damping": re.compile(r"\d+\s*(?:s|seconds?)\b", re.I),
    "payment": re.compile(r"\d+\s*(?:business\s+)?days?\b", re.I),
    "notice": re.compile(r"\d+\s*(?:business\s+)?(?:days?|weeks?|months?)\s+(?:written\s+)?notice", re.I),
    "warranty": re.compile(r"\d+\s*(?:months?|years?)\b", re.I),
    "delivery": re.compile(r"\d+\s*(?:business\s+)?(?:days?|weeks?)\b", re.I),
    "term": re.compile(r"\d+\s*years?\b", re.I),
    "run": re.compile(r"\d+\s*years?\b", re.I),
    "duration": re.compile(r"\d+\s*years?\b", re.I),
    "threshold": re.compile(r"\d[\d,.]*\s*(?:eur|usd|gbp|chf|€)", re.I),
    "vibration": re.compile(r"\d\s*g\b", re.I),
    "force": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "effective": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "valid": re.compile(r"\d{4}-\d{2}-\d{2}"),
    # a pass criterion or tolerance is a bound: "within ±0.25 % of span", "deviation below 0.5 K"
    "acceptance": re.compile(r"±\s*\d|\bwithin\s+±?\s*\d", re.I),
    "criterion": re.compile(r"±\s*\d|\bwithin\s+±?\s*\d", re.I),
    "criteria": re.compile(r"±\s*\d|\bwithin\s+±?\s*\d", re.I),
    "tolerance": re.compile(r"±\s*\d|\bwithin\s+±?\s*\d", re.I),
}
#: Short German words that are whole words only ("seit", never inside "Seite").
_GERMAN_WORDS: dict[str, tuple[str, ...]] = {"seit": ("since", "effective", "date"), "ab": ("since", "effective")}


#: Words that ask how long something lasts, not what: alone they ask for the agreement's term.
_DURATION_WORDS = frozenset(("long", "last", "lasts", "run", "runs", "running", "expire", "expires", "expiry",
                             "end", "ends"))


def _fold(word: str) -> str:
    return unicodedata.normalize("NFC", word.lower())


def words(text: str) -> list[str]:
    """Lowercase words of ``text`` (codes keep their hyphens: "prd-482")."""
    return [_fold(w).strip(".-") for w in _WORD.findall(text) if w.strip(".-")]


def is_code(word: str) -> bool:
    """A product code, designation or document id ("prd-482", "dps-482", "mc-4", "pt100", "agreement-2025-12").

    >>> [is_code(w) for w in ("prd-482", "mc-4", "pt100", "2025", "pressure", "12")]
    [True, True, True, False, False, False]
    """
    return bool(_CODE.match(word))


def _stem(word: str) -> str:
    return word[:6] if len(word) >= 6 else word


@dataclass(frozen=True)
class Topic:
    """The topic words of a question (entity span removed, German mapped) and their paraphrases."""

    terms: tuple[str, ...]
    paraphrases: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The topic as a search query (its words and their paraphrases)."""
        return " ".join(dict.fromkeys((*self.terms, *self.paraphrases)))

    def __bool__(self) -> bool:
        return bool(self.terms)


def german_topics(word: str) -> tuple[str, ...]:
    """The English topic words a German word stands for (a compound maps through its first known stem).

    >>> german_topics("zahlungsziel"), german_topics("umgebungstemperaturbereich")
    (('payment', 'terms', 'due', 'net', 'days'), ('ambient', 'temperature'))
    """
    for stem, english in GERMAN_TOPICS:
        if stem in word:
            return tuple(english.split())
    return ()


def _abbreviates(word: str, names: set[str]) -> bool:
    """Whether ``word`` is a name word cut short ("lab" for "laboratory"; never a duration word like "long")."""
    return len(word) >= 3 and word not in _DURATION_WORDS and any(n.startswith(word) for n in names)


def topic_terms(question: str, entity_text: Iterable[str] = ()) -> Topic:
    """The question's topic: its content words less the entity span, German words mapped to English.

    The entity span is every code or designation token, and every run of two or more consecutive words that
    all belong to an entity name in ``entity_text`` (a product name, a document title) or that holds a code:
    "operating temperature of the PT100 temperature probe" keeps "operating temperature" and drops "PT100
    temperature probe". A single entity word standing alone stays a topic word.

    >>> topic_terms("calibration interval for the DPS-482 differential pressure sensor per the manual",
    ...             ["Differential pressure sensor DPS-482"]).terms
    ('calibration', 'interval')
    >>> topic_terms("Welches Zahlungsziel steht im Vertrag agreement-2025-12?").terms
    ('payment', 'terms', 'due', 'net', 'days')
    >>> topic_terms("operating temperature of the PT100 temperature probe", ["PT100 temperature probe"]).terms
    ('operating', 'temperature')
    """
    names = {_stem(w) for t in entity_text for w in words(t) if w not in _STOP}
    full = {w for t in entity_text for w in words(t) if w not in _STOP and len(w) > 3}
    tokens = words(question)
    # a name word abbreviated ("lab" for "Laboratory") is a name word too
    entity = [is_code(w) or (w not in _STOP and (_stem(w) in names or _abbreviates(w, full))) for w in tokens]
    drop = [False] * len(tokens)
    i = 0
    while i < len(tokens):
        if not entity[i]:
            i += 1
            continue
        j = i
        # a run of entity words, bridged by stop words ("MC-4 / MC-8 monitoring controller", "PRD-611 and PRD-612")
        while j + 1 < len(tokens) and (entity[j + 1] or (tokens[j + 1] in _STOP and j + 2 < len(tokens)
                                                         and entity[j + 2])):
            j += 1
        run = range(i, j + 1)
        if sum(1 for k in run if entity[k]) >= 2 or any(is_code(tokens[k]) for k in run):
            for k in run:
                drop[k] = entity[k] or tokens[k] in _STOP
        i = j + 1
    terms: list[str] = []
    for word, dropped in zip(tokens, drop, strict=True):
        if dropped or word in _STOP or len(word) < 2 or word.isdigit():
            continue
        mapped = _GERMAN_WORDS.get(word) or german_topics(word)
        if not mapped and "-" in word and not is_code(word):
            # "two-signatory", "price-fix": each word of the compound is a topic word (the sentence writes them
            # apart: "two authorised signatories")
            mapped = tuple(p for p in word.split("-") if p not in _STOP and len(p) > 1 and not p.isdigit())
        for term in mapped or (word,):
            if term not in terms:
                terms.append(term)
    duration = [t for t in terms if t in _DURATION_WORDS]
    if duration:
        # "how long does it run", "when does it expire": the agreement's term; beside another topic word ("how
        # long is the warranty", "how long are prices fixed") the duration is that topic's, no topic of its own
        rest = [t for t in terms if t not in _DURATION_WORDS]
        asked = [t for t in rest if t in FACT_WORDS or t in _PARAPHRASES or any(
            len(t) >= 6 and _stem(t) == _stem(f) for f in FACT_WORDS)]
        terms = rest if asked else [*rest, "term"]
    paraphrases = [p for t in terms for p in _PARAPHRASES.get(t, ()) if p not in terms]
    return Topic(tuple(terms), tuple(dict.fromkeys(paraphrases)))


def sentence_score(topic: Topic, sentence: str) -> float:
    """How well ``sentence`` holds the topic's fact: 1 per topic word it contains (a six-letter stem counts:
    "intervals", "calibrated"), 0.5 per paraphrase, 1 when it states a value in a topic word's unit, and 0.25
    for any number (a fact is usually a figure). A sentence with no topic word and no paraphrase scores 0.

    >>> t = topic_terms("calibration interval")
    >>> sentence_score(t, "Re-calibration intervals depend on the application.") < sentence_score(
    ...     t, "Calibration of the PRD-482 is required every 12 months.")
    True
    """
    found = words(sentence)
    present = set(found)
    stems = {_stem(w) for w in found if len(w) >= 6}
    # "re-calibration" also counts as "calibration"
    for w in found:
        for part in w.split("-"):
            present.add(part)
            if len(part) >= 6:
                stems.add(_stem(part))

    def has(term: str) -> bool:
        # a short word inflected ("price" -> "prices", "fix" -> "fixed", "run" -> "runs") counts as the word
        return term in present or (len(term) >= 6 and _stem(term) in stems) or (
            not term.isalnum() and term in sentence.lower()) or (
            len(term) >= 3 and any(w.startswith(term) and 0 < len(w) - len(term) <= 2 and w[len(term):].isalpha()
                                   for w in present))

    score = sum(1.0 for t in topic.terms if has(t)) + sum(0.5 for p in topic.paraphrases if has(p))
    if score == 0:
        return 0.0
    if any(pattern.search(sentence) for t, pattern in _UNITS.items() if t in topic.terms):
        score += 1.0
    if re.search(r"\d", re.sub(r"^\s*(?:#+\s*)?[\d.]+\s", "", sentence)):
        score += 0.25
    return score


#: Words that ask for a fact a manual or an agreement states (a value, a period, a condition), in English.
FACT_WORDS = frozenset((
    *_UNITS, *_PARAPHRASES, "ambient", "operating", "storage", "calibration", "calibrated", "calibrate",
    "tighten", "tightening", "enclosure", "rating", "ip", "seals", "inspection", "firmware", "wiring",
    "installation", "mounting", "commissioning", "maintenance", "liability", "penalty", "confidentiality",
    "audit", "rebate", "period", "range", "loop", "process", "connection", "housing", "threshold", "signatories",
    "signatory", "approval",
))


def fact_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` that ask for a fact a manual or an agreement states, German ones mapped.

    >>> fact_words("Welche Versorgungsspannung braucht MC-4?"), fact_words("spend with Beta in Q1")
    (('voltage',), ())
    """
    out: list[str] = []
    for word in words(text):
        for term in _GERMAN_WORDS.get(word) or german_topics(word) or (word,):
            if (term in FACT_WORDS or (len(term) >= 6 and any(_stem(term) == _stem(f) for f in FACT_WORDS))) \
                    and term not in out:
                out.append(term)
    return tuple(out)


__all__ = ["FACT_WORDS", "GERMAN_TOPICS", "Topic", "fact_words", "german_topics", "is_code", "sentence_score",
           "topic_terms", "words"]
