"""A question about a clause of a company's agreement: the clause of the version in force, quoted and cited.

"Which payment term applied to Company B's supplier invoices under its framework agreement as at 10 April 2026?",
"How are invoices in another currency converted under Company C's agreement? Quote the clause.", "What does
Amendment No. 1 to Company B's agreement change regarding approved vendors?", "was stand im Vertrag von Company B
am 1. März 2026 zur Gewährleistung?", "Laufzeit Laborvertrag Xenon Pharma?": a company, a document word (English or
German, an agreement described by its subject such as "Verpackungsvertrag" included) and a clause topic, and no
figure asked. Such a question is a search inside the company's agreements, dated on the day the question names
(else its as-of date), ranked by the topic's English words (retrieval.topics quotes the sentence holding it).

Pure functions over the reading; :func:`route_clause` builds the plan. The German document and clause words are
this module's table (router/german.py owns period and measure words). Retrieved text is evidence, never verified.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from router.contract import (
    AuthorizationContextModel,
    Constraints,
    IntentScore,
    PlanStep,
    RoutingResult,
)
from router.reader import Reading
from router.rules import RULE_CONFIDENCE

#: A word naming an agreement or a part of one, English or German: "framework agreement", "contract",
#: "Amendment No. 1", "clause"; "Vertrag", "Rahmenvertrag", "Verpackungsvertrag" (an agreement named by its
#: subject), "Vertrags", "Nachtrag", "Änderungsvereinbarung", "Klausel".
_DOCUMENT_WORD = re.compile(
    r"\b(?:(?:framework|purchasing|supply|master|packaging|laboratory|lab|cold[- ]chain|service)\s+)*"
    r"(?:agreements?|agmts?|agrmts?|agreemts?|contracts?|amendments?|addend(?:um|a)|clauses?)\b|"
    r"\b\w*(?:vertrag|verträge|vertrages|vertrags)\w*\b|\b(?:nachtrag|änderungsvereinbarung|zusatzvereinbarung|"
    r"vereinbarung|klausel)\w*\b",
    re.I,
)
#: An amendment named: the question is about the text the amendment added, in the amended version.
_AMENDMENT = re.compile(r"\b(?:amendments?|addend(?:um|a)|nachtrag\w*|änderungsvereinbarung\w*|"
                        r"zusatzvereinbarung\w*)\b", re.I)


@dataclass(frozen=True)
class Topic:
    """A clause topic: the words that name it (English or German, a stem matched inside compounds) and the
    English words the agreements state it with (the search's topic words)."""

    label: str
    pattern: re.Pattern[str]
    english: str
    #: only an agreement states it ("Company B's payment term", "Kündigungsfrist Company C"): no document word
    #: is needed once a company is named (a currency conversion or an approval without one is a figure or the
    #: approved-vendor list)
    implies_agreement: bool = False


def _topic(label: str, pattern: str, english: str, implies_agreement: bool = False) -> Topic:
    return Topic(label, re.compile(pattern, re.I), english, implies_agreement)


#: The clause topics, each with its English and German words. A German compound is matched by its stem
#: ("Produkthaftpflicht", "Mindestdeckung", "Festpreise"); the English words are what the clause says.
TOPICS: tuple[Topic, ...] = (
    _topic("payment terms", r"\bpayment\s+(?:terms?|conditions|due)\b|\bterms\s+of\s+payment\b|\bpay(?:ment)?\s+"
           r"(?:is\s+)?due\b|\bdue\s+date\b|\b\w*zahlungs(?:ziel|bedingung|frist|kondition)\w*",
           "payment terms payment due days net", True),
    _topic("currency conversion", r"\bconver(?:t|ted|sion)\b|\bexchange\s+rate\b|\bcurrenc(?:y|ies)\b|"
           r"\bumrechnung\w*|\bumgerechnet\b|\bwährung\w*|\bwechselkurs\w*",
           "currency converted corporate rate posting date"),
    _topic("warranty", r"\bwarrant(?:y|ies)\b|\bguarantee\s+period\b|\bgewährleistung\w*|\bgewaehrleistung\w*|"
           r"\bgarantie\w*", "warranty period months acceptance", True),
    # ("does the agreement cover spare parts": the spare-parts clause, not an insurance cover)
    _topic("liability and insurance", r"\bliabilit\w+|\binsurance\b|\binsured\b|"
           r"\bcover(?:age)?\b(?!\s+(?:the\s+)?spare)|"
           r"\w*haftpflicht\w*|\w*haftung\w*|\w*versicherung\w*|\w*deckung\w*",
           "liability insurance at least per event", True),
    _topic("notice period", r"\bnotice\s+period\b|\bterminat\w+|\bperiod\s+of\s+notice\b|\bkündigung\w*|"
           r"\bkuendigung\w*", "notice period terminate months", True),
    # the date the agreement (or its version) takes effect: its front page states it
    _topic("effective date", r"\beffective\s+(?:date|from|as\s+of)\b|\bdate\s+of\s+effect\b|\bcommencement\s+"
           r"date\b|\bin\s+force\s+(?:from|since)\b|\binkrafttreten\w*|\bgültig\s+ab\b|\bwirksam\s+ab\b|"
           r"\bdate\s+d['’]effet\b|\bdata\s+di\s+decorrenza\b|\bfecha\s+de\s+(?:entrada\s+en\s+vigor|efecto)\b",
           "Effective date", True),
    _topic("term of the agreement", r"\bterm\s+of\s+the\b|\bhow\s+long\b[^?]{0,40}\b(?:run|last)\w*|"
           r"\b(?:agreement|contract)\s+(?:term|duration)\b|\brenew\w*|\blaufzeit\w*|\bverlängerung\w*",
           "term agreement runs years renews", True),
    _topic("price adjustments", r"\bprices?\s+(?:are\s+|is\s+)?fixed\b|\bfixed\s+prices?\b|\bprice\s+"
           r"(?:adjustments?|reviews?|increases?)\b|\bfestpreis\w*|\bpreis(?:anpassung|bindung|erhöhung|gleitung)\w*",
           "prices fixed months price adjustments", True),
    _topic("delivery terms", r"\bdelivery\s+(?:terms|conditions)\b|\bincoterms?\b|\bliefer(?:bedingung|konditionen)"
           r"\w*", "delivery terms DAP incoterms", True),
    _topic("delivery time", r"\blead\s+times?\b|\bdelivery\s+times?\b|\blieferzeit\w*|\blieferfrist\w*",
           "delivery lead time days"),
    _topic("liquidated damages", r"\bliquidated\s+damages\b|\bpenalt\w+|\bvertragsstrafe\w*|\bpönale\w*",
           "liquidated damages penalty late delivery", True),
    # how long spare parts stay available ("after the last delivery", "for discontinued products")
    _topic("spare parts", r"\bspare[- ]parts?\b|\bersatzteil\w*|\brepuestos?\b|\bpi[èe]ces\s+de\s+rechange\b",
           "spare parts discontinued products remain available years", True),
    # the sanctions screening a supplier's orders need above an order value
    _topic("sanctions screening", r"\bsanctions?(?:[- ](?:screening|checks?|lists?))?\b|\bembargo\w*|\bsanktion\w*",
           "sanctions screening performed before each order above", True),
    _topic("confidentiality", r"\bconfidential\w*|\bvertraulich\w*|\bgeheimhaltung\w*", "confidentiality years", True),
    _topic("audit rights", r"\baudit(?:s|\s+rights?)?\b|\bprüfrecht\w*|\bauditrecht\w*", "audit compliance"),
    _topic("certificates", r"\bcertific\w+|\biso\s?\d{4,5}\b|\bzertifi\w+", "certified certificates ISO"),
    _topic("signatories", r"\bsignator\w+|\bsignatures?\b|\bunterschrift\w*|\bvier[- ]augen\w*|\bthresholds?\b|"
           r"\b(?:approval|signing|order)\s+limits?\b|\bfreigabegrenze\w*|\bschwellenwert\w*",
           "approval two authorised signatories above"),
    _topic("approval", r"\bapprov\w+\b(?!\s+(?:thresholds?|limits?)\b)|\bfreigegeben\b|\bfreigabe(?!grenze)\w*|"
           r"\bzugelassen\b|\bzulassung\w*",
           "approved approval approves vendor from"),
)
#: "ab wann", "seit wann", "from when", "since when": the date an approval or clause takes effect.
_SINCE = re.compile(r"\b(?:ab|seit)\s+wann\b|\bfrom\s+when\b|\bsince\s+when\b|\bwith\s+effect\s+from\b", re.I)
#: "what does it change", "was ändert": the amendment's own clause.
_CHANGE = re.compile(r"\bchang\w+|\bamend\w*|\bändert?\b|\bgeändert\b|\bneu\w*\b", re.I)
#: "what does the amendment change", "was ändert der Nachtrag": the change itself asked for (not the list after it).
_CHANGE_ASKED = re.compile(r"\bchang\w+|\bamends\b|\bändert?\b|\bgeändert\b|\bneu(?:e[snmr]?)?\b", re.I)
#: Words that ask for a figure, a count or a list of invoices: not (only) a clause.
_FIGURE = re.compile(
    r"\b(?:spend|spent|how\s+much|how\s+many|total|sum|count|number\s+of|list|which\s+(?:of\s+(?:its|the)\s+)?"
    r"invoices|open|overdue|past\s+due|outstanding|unpaid|figures?|amounts?|ausgaben|summe|anzahl|wie\s+viele|offen\w*|"
    r"überfällig\w*|rangliste|top)\b", re.I)
#: "Which document evidences that ...", "quote the clause", "where is it stated", "welcher Beleg": the passage that
#: states a fact, quoted (an approval's limits are the agreement's wording, not only the approved-vendor list).
_EVIDENCE = re.compile(
    r"\bwhich\s+(?:document|clause|section|passage|provision|wording)s?\b|\bevidenc\w+|\bquote\b|\bcite\b|"
    r"\bwhere\s+(?:is|are|does|do)\b[^?]{0,60}\b(?:stated|say|says|written|set\s+out)\b|"
    r"\bwelche[rsmn]?\s+(?:dokument|klausel|abschnitt|beleg)\w*|\bbeleg\w*|\bnachweis\w*", re.I)
#: Words that carry no fact of an evidence question's statement (its content words are searched for).
_FILLER = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "does", "do", "for", "from", "in", "is", "it", "its", "of",
    "on", "or", "that", "the", "this", "to", "under", "was", "were", "what", "which", "with", "document",
    "documents", "clause", "evidence", "evidences", "evidenced", "quote", "cite", "please", "show", "where",
    "stated", "says", "say", "written", "s",
))
#: "which suppliers", "who is approved", "welche Lieferanten": a listing of approved vendors (the graph answers it).
_LISTED = re.compile(r"\b(?:which|what|list|all)\s+(?:\w+\s+)?(?:suppliers|vendors)\b|\bwho\b|"
                     r"\bapproved\s+(?:vendors|suppliers)\b|\bfreigegebenen?\s+lieferanten\b|"
                     r"\bwelche\s+(?:\w+\s+)?lieferanten\b", re.I)
#: German nouns of a clause's kind ("Welche Frist gilt für Preisanpassungen", "Regelung zur Haftung"): read with the
#: topic, never an unknown name.
_CLAUSE_NOUN = re.compile(r"\b(?:frist(?:en)?|regelung\w*|bestimmung\w*|bedingung\w*|dauer|klausel\w*|"
                          r"abschnitt\w*|bestellung\w*|auftr[äa]g\w*|rechnung\w*|fremdwährung\w*)\b", re.I)
#: Words of another kind of document (a manual, an invoice, a credit note named by number).
_OTHER_DOCUMENT = re.compile(r"\b(?:manuals?|handbooks?|data\s?sheets?|handbuch\w*|\w*anleitung\w*)\b", re.I)


@dataclass(frozen=True)
class ClauseRequest:
    """A question about a clause of one company's agreements."""

    company_id: str
    #: the clause topics named (labels of :data:`TOPICS`), in the order of the table
    topics: tuple[str, ...]
    #: the English words to search with (the topics' words and the question's own content words)
    query_text: str
    #: an amendment is named ("Amendment No. 1", "laut Nachtrag")
    amendment: bool
    #: the words of the question this reading consumed (document and topic words)
    words: tuple[str, ...]


#: "threshold", "limit": a word of the signatories' topic that names the limit of whatever other topic is named
#: ("sanctions screening threshold" is the screening's order value, not the signing limit).
_GENERIC_LIMIT = re.compile(r"(?:thresholds?|schwellenwert\w*)", re.I)


def clause_topics(text: str) -> tuple[Topic, ...]:
    """The clause topics ``text`` names (English or German words); a topic named only by a generic limit word
    ("threshold") beside another topic is that topic's limit, not a topic of its own.

    >>> [t.label for t in clause_topics("Mindestdeckung Produkthaftpflicht im Vertrag Company B?")]
    ['liability and insurance']
    >>> [t.label for t in clause_topics("Wie lange gelten die Festpreise im Vertrag von Company C?")]
    ['price adjustments']
    """
    named = tuple(t for t in TOPICS if t.pattern.search(text))
    specific = tuple(t for t in named if not all(_GENERIC_LIMIT.fullmatch(m.group(0))
                                                  for m in t.pattern.finditer(text)))
    return specific or named


def clause_request(reading: Reading) -> ClauseRequest | None:
    """The clause question ``reading`` asks, or ``None`` when it is not one (no company, no document word, no
    clause topic, a figure or a listing asked, a manual or a document id named; tests/unit/test_agreement_clauses.py).
    """
    company = reading.entities.company_id
    if company is None or reading.quoted:
        return None
    ids = reading.identifiers
    if ids.document_ids or ids.contract_ids or ids.invoice_numbers or reading.entities.product_codes:
        return None  # a named document is looked up and searched by its id (retrieval/documents.py)
    masked = _masked(reading)
    document = _DOCUMENT_WORD.search(masked)
    if _OTHER_DOCUMENT.search(masked):
        return None
    topics = clause_topics(masked)
    amendment = bool(_AMENDMENT.search(masked))
    evidence = _EVIDENCE.search(masked) is not None
    labels = {t.label for t in topics}
    # a company's payment term, notice period or warranty is its agreement's clause even with no document word;
    # a validity or approval beside it is the approved-vendor list's, unless the clause itself is asked for
    implied = any(t.implies_agreement for t in topics) and "approval" not in labels
    if document is None and not implied and not (evidence and topics):
        return None
    if not topics and not (amendment and _CHANGE.search(masked)):
        return None
    if _FIGURE.search(masked) or reading.amounts or reading.breakdown.group_by or reading.analysis.ranking:
        return None
    from router.compound import compound_request, lists_approved_suppliers

    if compound_request(reading) is not None:
        return None  # a figure that selects suppliers and a fact about them: the figure_with_document workflow
    if "approval" in labels and not evidence and not _CHANGE_ASKED.search(masked) and (
            lists_approved_suppliers(masked) or _LISTED.search(masked) or not (amendment or _SINCE.search(masked))):
        # "which suppliers will be approved vendors of Company B on 1 June", "which agreement approves Beta": the
        # graph's list (it names the approving agreement); an amendment's approval or its start date is the clause's
        return None
    words = [m.group(0) for m in _DOCUMENT_WORD.finditer(masked)]
    words += [m.group(0) for t in topics for m in t.pattern.finditer(masked)]
    english = [t.english for t in topics]
    if amendment:
        english.insert(0, "amendment")
    if _SINCE.search(masked):
        english.append("from effective date")
    # the supplier named stays in the query: "ab wann ist Iota freigegeben" is the sentence naming Iota
    suppliers = [m.text for m in reading.mentions.suppliers]
    # an evidence question describes the statement to find ("limited to the 2026 retrofit"): its words are searched
    content = [w for w in re.findall(r"[^\W_]+", _DOCUMENT_WORD.sub(" ", masked))
               if w.casefold() not in _FILLER and not any(t.pattern.fullmatch(w) for t in topics)] if evidence else []
    # the topic's complement ("from acceptance") is searched with it: it selects the sentence that states it
    content += [u.text for u in reading.not_understood if topic_complement(reading, u.start)]
    query = " ".join(dict.fromkeys(" ".join([*english, *suppliers, *content]).split()))
    return ClauseRequest(company, tuple(t.label for t in topics), query, amendment, tuple(dict.fromkeys(words)))


def _masked(reading: Reading) -> str:
    """The question with the company's and suppliers' names blanked (same offsets): "Company B" never reads as a
    word of a topic."""
    text = reading.text
    spans = [(m.start, m.end) for m in (*reading.mentions.companies, *reading.mentions.suppliers)]
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return text


def _consumed(span: str) -> bool:
    """Whether every word of an unread span ("Vertrag", "Produkthaftpflicht", "Mindestdeckung Produkthaftpflicht")
    is a document or clause word of this module (read here, so no unknown name)."""
    patterns = (_DOCUMENT_WORD, _AMENDMENT, _CLAUSE_NOUN, *(t.pattern for t in TOPICS))

    def read_here(word: str) -> bool:
        return any(m.group(0).casefold() == word.casefold() for p in patterns for m in p.finditer(word))

    return all(read_here(word) for word in re.findall(r"[^\W\d_]+", span))


#: The gap between a topic's words and its complement: a few words, no punctuation ("period from acceptance").
_COMPLEMENT_GAP = re.compile(r"[^\W_]*(?:\s+[^\W\d_]+){0,2}\s+", re.I)


def topic_complement(reading: Reading, start: int) -> bool:
    """Whether the unread span starting at ``start`` completes a clause topic named right before it ("warranty
    period from acceptance", "notice period after delivery"): the clause's own wording, searched, never a name.

    The slot is structural: the span follows a topic's words within the same phrase (at most two words between,
    no punctuation); a name asked about elsewhere in the question is still asked about.
    """
    for topic in TOPICS:
        for match in topic.pattern.finditer(reading.text):
            if match.end() <= start and _COMPLEMENT_GAP.fullmatch(reading.text[match.end():start] or " "):
                return True
    return False


def open_questions(reading: Reading) -> tuple[list[str], list[str]]:
    """(reasons, questions) for the names of a clause question that are not read: an unknown or ambiguous name
    is asked about (never dropped); a document or clause word taken for a name ("Vertrag", "Festpreise") is not."""
    from router.reader import unread_clarifications

    # "the Cold Chain Equipment Agreement of Alpenland": words right before the document word are the
    # agreement's subject or title, no name to look up
    # ("warranty period from acceptance": the topic's complement is the clause's wording, searched)
    spans = [u for u in reading.not_understood if u.kind in ("name", "category") and not _consumed(u.text)
             and not _DOCUMENT_WORD.match(reading.text, u.end + len(reading.text[u.end:]) -
                                          len(reading.text[u.end:].lstrip()))
             and not topic_complement(reading, u.start)]
    reasons, questions = unread_clarifications(spans)
    for problem in reading.entity_problems:
        quoted = re.findall(r"'([^']+)'", problem)
        if problem.startswith("I do not know") and quoted and all(_consumed(q) for q in quoted):
            continue
        reasons.append(f"entity: {problem}")
        questions.append(problem)
    return reasons, questions


def route_clause(text: str, reading: Reading, inputs: Any, req: ClauseRequest) -> RoutingResult:
    """The plan of a clause question: a search inside the company's agreements (the version in force on the day
    named, else on the as-of date; an amendment's own text when one is named), then the completeness check; or a
    clarification when a name of the question is unknown (never dropped)."""
    reasons, problems = open_questions(reading)
    period = reading.period
    day = period.time_range if period.time_range is not None and not period.ambiguous and (
        (period.time_range.end - period.time_range.start).days == 1) else None
    # a longer period dates the passages on its last day (router/service.py evidence_date), a day on itself
    constraints = Constraints(time_range=period.time_range if not period.ambiguous else None)
    auth = AuthorizationContextModel.from_auth(inputs.ctx)
    confidence = RULE_CONFIDENCE.get("explanatory_words", 0.9)
    intents = (IntentScore(type="semantic", confidence=round(confidence, 4), source="rule"),)
    rule = f"agreement_clause:{','.join(req.topics) or 'amendment'}"
    read_as = (f"a clause of the agreements of {reading.entities.company_name or req.company_id} "
               f"({', '.join(req.topics) or 'what the amendment changes'})")
    if problems:
        return RoutingResult(
            question=text, as_of=inputs.as_of, intents=intents, confidence=confidence, requires_clarification=True,
            clarification_question=" ".join(dict.fromkeys(problems)),
            clarification_reasons=tuple(reasons), entities=reading.entities,
            constraints=constraints, authorization_context=auth, workflow="clarification", rule_hits=(rule,),
            interpretation=read_as)
    filters: dict[str, Any] = {"document_types": ["agreement"], "company_ids": [req.company_id]}
    if day is not None:
        filters["valid_at"] = day.start.isoformat()
    steps = (
        PlanStep(step_id="retrieve-documents", tool="documents.search",
                 arguments={"query_text": req.query_text,
                            "identifiers": {"product_codes": [], "invoice_numbers": [], "contract_ids": []},
                            "retrieval_modes": ["bm25", "vector"], "filters": filters, "limit": 5},
                 purpose="The clause of the company's agreement in force on the day asked (ranked by its topic)."),
        PlanStep(step_id="validate-result", tool="validation.check_completeness", depends_on=("retrieve-documents",),
                 purpose="Completeness: evidence present."),
    )
    return RoutingResult(
        question=text, as_of=inputs.as_of, intents=intents, confidence=confidence, requires_clarification=False,
        entities=reading.entities, constraints=constraints, authorization_context=auth, workflow="document_answer",
        execution_plan=steps, rule_hits=(rule,), interpretation=read_as)


__all__ = ["TOPICS", "ClauseRequest", "Topic", "clause_request", "clause_topics", "open_questions", "route_clause"]
