"""Reason, occasion and hand-over clauses anywhere in a message: set aside by their shape, and named back.

Long polite messages carry clauses that are not the question: the reason ("since I'm covering for Julia while she's
on leave", "because the chairman raised it at lunch today", "weil der Vorstand nachgefragt hat"), the occasion
("ahead of the ExCo offsite next week", "following yesterday's call with the supervisory board", "for the investor
update we're drafting", "pour le comité de direction", "inför styrelsemötet") and statements around the ask ("The
chairman wants to see the big tickets.", "Happy to discuss if anything is unclear."). Read as the question, their
words become unknown names ('negotiations', 'Julia', 'ExCo') and their times a second period ("in June", "this
month"). :mod:`router.envelope` sets aside the salutation, the sign-off and the purpose at the edges of a message;
this module reads such clauses in any position, by their shape.

Design note: a clause is a span of one sentence opened by a marker of the tables below: a subordinator with a
clause subject after it ("as we", "since the CFO has", "as Martin (our CEO) is"), a reason conjunction that opens
nothing else ("because", "given that", "weil", "puisque", "omdat", "ya que", "poiché", "ponieważ", "eftersom"), an
occasion preposition with an occasion noun after it ("ahead of the ... offsite", "for a slide in tomorrow's ...
call"), or a hand-over lead ("on behalf of"). It is set aside where it stands: opening its sentence before a comma
or a colon (with a "quick one" before it), closing it after a comma, or as the whole sentence ("This is as we
prepare for the supplier negotiations in June."). A whole sentence with no question in it, opening with a
statement word ("The chairman wants ...", "Let me know ...", "Sorry if ..."), is set aside when it holds no slot at
all. Structural safety: "since Jan 2026", "as of 31 March", "as at month end", "for Company B", "following
quarter", "ahead of plan" open no clause (no subject, no determiner before an occasion noun); a clause holding a
name of the tenant, a company code, a document id, a filter or shape word ("only", "excluding", "per", "top"), a
currency or a capitalised word after "with" / "from" (maybe a supplier) is never set aside; a clause holding a
period or a measure is set aside only when the rest of the message has one of its own (it is never the only one).
What is kept is read exactly as if typed alone; each clause set aside is named ("reason 'since I'm covering for
Julia while she's on leave'").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from router.document_words import CREDIT_NOTES, INVOICES, alternation
from router.envelope import URGENCY

# --- the tables: one place per kind of word ----------------------------------------------------------------------
#: Conjunctions that open a reason or an occasion clause and nothing else ("because the chairman asked", "weil").
REASON_CONJUNCTIONS: dict[str, tuple[str, ...]] = {
    "en": ("because", "given that", "now that", "seeing that", "seeing as", "in light of the fact that"),
    "de": ("weil", "zumal", "da ja"),
    "fr": ("parce que", "parce qu'", "puisque", "puisqu'", "vu que", "étant donné que", "dans la mesure où"),
    "nl": ("omdat", "aangezien", "doordat"),
    "es": ("porque", "ya que", "puesto que", "dado que", "debido a que"),
    "it": ("perché", "poiché", "siccome", "dato che", "visto che", "dal momento che"),
    "pl": ("ponieważ", "gdyż", "dlatego że"),
    "nordic": ("eftersom", "ettersom", "fordi", "siden", "koska"),
}
#: Subordinators that open a clause only before a clause subject ("as we", "since I'm", "while she's", "comme nous"):
#: otherwise they open a slot ("since Jan 2026", "as of 31 March", "como proveedor").
SUBORDINATORS: dict[str, tuple[str, ...]] = {
    "en": ("as", "since", "while", "whilst"),
    "de": ("da", "nachdem", "während"),
    "fr": ("comme", "alors que", "pendant que"),
    "nl": ("nu", "terwijl", "daar"),
    "es": ("como", "mientras"),
    "it": ("mentre", "giacché"),
    "pl": ("skoro", "bo"),
    "nordic": ("da", "når", "nu", "när"),
}
#: Prepositions that open an occasion ("ahead of the board meeting", "für die Vorstandssitzung", "inför mötet").
OCCASION_MARKERS: dict[str, tuple[str, ...]] = {
    "en": ("ahead of", "for", "following", "before", "prior to", "in preparation for", "in time for",
           "in advance of", "in view of", "in the run-up to", "in the run up to", "as part of", "in the context of",
           "in connection with", "with regard to", "in the framework of"),
    "de": ("für", "vor", "zur", "zum", "anlässlich", "im vorfeld", "im hinblick auf", "in vorbereitung auf",
           "im rahmen", "im zusammenhang mit"),
    "fr": ("pour", "avant", "en vue de", "en vue du", "suite à", "à la suite de", "en préparation de",
           "dans le cadre de", "dans le cadre du"),
    "nl": ("voor", "vóór", "ter voorbereiding op", "naar aanleiding van", "in aanloop naar", "in het kader van"),
    "es": ("para", "antes de", "antes del", "de cara a", "tras", "en preparación de", "en el marco de"),
    "it": ("prima di", "prima del", "prima della", "in vista di", "in vista del", "in vista della",
           "a seguito di", "in preparazione di", "nell'ambito di", "nell'ambito del", "per il", "per la", "per lo",
           "per l'", "per i", "per gli", "per le"),
    "pl": ("przed", "na", "dla", "w związku z", "w ramach"),
    "nordic": ("inför", "før", "före", "for", "til", "till", "inom ramen för", "i forbindelse med", "i samband med"),
}
#: Markers that tell a time: an occasion only before an event ("before the board meeting"), never before a
#: deliverable ("before the report": the report's period may be meant).
_TEMPORAL = frozenset(("before", "prior to", "vor", "avant", "vóór", "antes de", "antes del", "prima di", "prima del",
                       "prima della", "przed", "före", "før"))
#: Hand-over leads: who the ask is passed on for ("on behalf of the CFO", "im Auftrag von", "au nom de").
HANDOVER_MARKERS = ("on behalf of", "in the name of", "im auftrag von", "im namen von", "au nom de", "de la part de",
                    "namens", "in opdracht van", "en nombre de", "de parte de", "per conto di", "a nome di",
                    "w imieniu", "på vägnar av", "på vegne av")
#: Leads a clause may carry before its marker ("Quick one as we ...", "This is because ...", "It's for the ...").
CLAUSE_LEADS = ("quick one", "a quick one", "just a quick one", "one quick one", "quick question", "a quick question",
                "one quick question", "quick q", "small one", "short one", "this is", "this is all", "it's", "it is",
                "that's", "that is", "all this is", "all of this is", "context", "background", "fyi",
                "das ist", "es ist", "das ist alles", "c'est", "ceci est", "tout ça est", "dit is", "het is", "dat is",
                "esto es", "es", "todo esto es", "questo è", "è", "to jest", "det är", "det er", "det här är")
#: Events an occasion clause ends on (compounds end on them too: "Vorstandssitzung", "styrelsemötet").
EVENTS = frozenset("""
meeting meetings call calls committee board offsite off-site talks negotiation negotiations renewal review reviews
lunch dinner breakfast session workshop 1:1 1-1 one-on-one catch-up catchup sync townhall town-hall visit trip
conference audit-committee steerco exco qbr mbr standup stand-up huddle discussion discussions interview pitch
retreat away-day roadshow briefing hearing tender rfp rfq
sitzung besprechung vorstand termin verhandlung verhandlungen gespräch runde klausur aufsichtsrat
réunion comité conseil négociation négociations entretien séminaire
vergadering overleg onderhandeling onderhandelingen bespreking gesprek
reunión comité consejo negociación negociaciones junta
riunione comitato consiglio trattativa trattative incontro
spotkanie spotkania spotkaniem zebranie zarząd negocjacje negocjacji rozmowy przegląd przeglądu
möte mötet møte møtet møde mødet styrelsemöte styrelsemötet förhandlingar forhandlinger kokous granskning
gjennomgang gennemgang bestyrelsesmøde bestyrelsesmødet styremøte styremøtet ledermøde ledermøte
""".split())  # noqa: SIM905 - a word list reads better as text
#: Deliverables a purpose clause ends on ("for the investor update", "for a slide", "pour le rapport").
DELIVERABLES = frozenset("""
update updates deck decks slide slides pack packs report reports reporting presentation presentations memo
memos note briefing-note board-pack write-up writeup summary dashboard newsletter submission
bericht präsentation folie folien vorlage unterlage unterlagen
rapport présentation note diapositive
rapport presentatie verslag
informe presentación diapositiva
relazione presentazione rapporto
raport prezentacja prezentacji
rapport rapporten presentation presentasjon
""".split())  # noqa: SIM905 - a word list reads better as text
#: The people an ask is passed on for ("on behalf of the CFO", "for the chairman"): never a constraint.
ROLES = frozenset("""
cfo ceo coo cto cio cpo chairman chairwoman chair chairperson president director directors manager boss head lead
controller treasurer auditor auditors board exco steerco management leadership team colleague colleagues investors
investor shareholders owner owners partner partners vorstand geschäftsführung chef chefin direction directeur
directrice patron directie bestuur directeur jefe dirección presidente direttore capo zarząd prezes ledning vd
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words that may open a clause subject: pronouns and determiners of the languages above.
SUBJECT_WORDS = frozenset("""
i we you they he she it i'm we're you're they're he's she's it's i've we've i'd we'd i'll we'll one
the our my your his her their this that these those
ich wir sie er es man der die das unser unsere mein meine
je j' nous on il elle ils elles le la les l' notre mon ma
ik wij we jij hij zij het de onze mijn
yo nosotros él ella el los las nuestro nuestra mi
io noi lui lei il lo gli nostro nostra mio mia
ja my on ona oni
jag vi han hon jeg den det vår min
""".split())  # noqa: SIM905 - a word list reads better as text
#: Determiners an occasion may follow its marker with ("ahead of the", "for a", "für die", "pour le", "inför").
DETERMINERS = frozenset("""
the a an our my your his her their this that these next tomorrow's today's yesterday's
der die das den dem des ein eine einen einem einer unser unsere unseren unserem unserer morgige morgigen nächste
nächsten heutige heutigen
le la les l' un une notre nos mon ma du de des prochain prochaine
de het een onze ons mijn
el la los las un una nuestro nuestra nuestros mi próximo próxima del al
il lo gli un una nostro nostra mio mia prossimo prossima del della dello al alla
""".split())  # noqa: SIM905 - a word list reads better as text
#: Auxiliaries and common verbs that follow a clause subject ("the CFO has", "Martin is", "the chairman wants").
VERBS = frozenset("""
is are was were am be been has have had do does did will would can could shall should may might must 's 're 've 'm
wants want needs need asked asks raised raises requested mentioned said told prepares prepare preparing reviews
review reviewing travels travelling traveling covers cover covering expects expect plans plan planning takes
presents present presenting meets meet meeting looks look wrote writes called calls flagged joins joined left
ist sind war waren hat haben wird werden will möchte braucht fragt fragte bereitet
est sont était a ont va prépare préparons demande demandé veut
is zijn was waren heeft hebben wil wilt vraagt bereiden bereidt
es son está están estamos ha han quiere pide preparamos
è sono era ha hanno vuole chiede prepariamo
jest są był była ma mają chce przygotowujemy
är var har ska vill förbereder er
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words that open a statement: a sentence with no question opening on one, holding no slot, is set aside.
STATEMENT_OPENERS = frozenset("""
i i'm i'd i've i'll we we're we'd we've we'll it it's this that that's these they he she you the our my his her
their let let's happy glad sorry apologies apologise apologize if whenever hope feel no
""".split())  # noqa: SIM905 - a word list reads better as text
#: Filter and shape words: a clause holding one may constrain the ask, so it is never set aside.
_FILTER = re.compile(
    r"(?<![\w-])(?:only|just\s+the|excl\w*|except\w*|without|apart\s+from|incl\w*|net|gross|paid|unpaid|open|posted|"
    r"approved|draft|cancel\w*|twice|duplicat\w*|per|each|by\s+(?:supplier|vendor|month|quarter|company|entity|group|category|product)|"
    r"top|largest|biggest|smallest|highest|lowest|most|least|rank\w*|list|split|broken|breakdown|compare\w*|"
    r"versus|vs\.?|average|share|percent\w*|trend|(?:above|below|over|under)(?=\s+(?:[€$£]|eur\s|usd\s)?\s*\d)|"
    r"more\s+than|less\s+than|between|"
    r"group|group-wide|groupwide|consolidated|combined|whole|entire|every|entity|entities|all|both|"
    r"eur|euros?|usd|dollars?|gbp|pounds?|chf|francs?|sek|nok|dkk|pln|złoty|zloty|"
    r"nur|ohne|außer|pro|je|seulement|sans|hors|sauf|par|alleen|zonder|exclusief|solo|sin|excepto|senza|tranne|"
    r"tylko|bez|oprócz|endast|utan|kun|uten)(?![\w-])|%", re.I)
#: Words that constrain the figure by themselves, whatever clause they stand in: verbs that exclude or negate
#: ("as we leave out the credit notes", "because we skip the reversed documents", "don't count"), the statuses and
#: states the readers filter on ("They should be overdue.", "the unapproved ones") and the restriction words
#: ("solely", "lediglich"). A clause holding one is never set aside: it is read, or its words are named back as
#: unread (router/unread_words.py), never dropped silently. None of them is a filler word of
#: router/unread_words.py (tests/unit/test_router_context_clauses.py checks it).
CONSTRAINT_WORDS: dict[str, tuple[str, ...]] = {
    "exclusion": ("leave out", "leaving out", "left out", "leave aside", "set aside", "skip", "skipping", "skipped",
                  "ignore", "ignoring", "ignored", "disregard", "disregarding", "omit", "omitting", "omitted",
                  "exclude", "excluded", "excluding", "excludes", "except", "without", "not counting", "don't count",
                  "do not count", "doesn't count", "does not count", "not to be counted", "shouldn't count",
                  "should not count", "not included", "not include", "not including", "drop", "dropping",
                  "take out", "taking out", "minus", "not",
                  "ausschließen", "ausgeschlossen", "ohne", "außer", "exclure", "exclus", "sans", "sauf",
                  "zonder", "uitsluiten", "behalve", "excluir", "sin", "excepto", "escludere", "senza", "tranne",
                  "wykluczyć", "bez", "oprócz", "utan", "uten", "undtagen"),
    "status": ("overdue", "past due", "past-due", "late", "unapproved", "approved", "reversed", "reversal",
               "reversals", "open", "outstanding", "unpaid", "paid", "settled", "cancelled", "canceled",
               "cancellation", "cancellations", "draft", "drafts", "posted", "unposted", "pending", "blocked",
               "disputed", "duplicate", "duplicates", "storniert", "überfällig", "offen", "offene", "entwurf",
               "brouillon", "impayé", "impayées", "geannuleerd", "openstaand",
               "anulada", "anuladas", "pendiente", "vencida", "vencidas", "annullata", "scaduta", "scadute"),
    "restriction": ("only", "solely", "exclusively", "specifically", "lediglich", "ausschließlich",
                    "exclusivement", "únicamente", "unicamente", "esclusivamente", "uitsluitend", "wyłącznie",
                    "enbart", "utelukkende", "udelukkende"),
}
_CONSTRAINT = re.compile(
    rf"(?<![\w-])(?:{alternation(tuple(w for ws in CONSTRAINT_WORDS.values() for w in ws) + CREDIT_NOTES + INVOICES)}|"
    r"credit\s+notes?|credit\s+memos?|documents?|docs)(?![\w-])", re.I)
#: Subordinators that may bound a period by an event ("since the new CFO started", "while Julia was away").
_PERIOD_SUBORDINATORS = frozenset(("since", "while", "whilst", "seit", "seitdem", "während", "depuis", "sinds",
                                   "terwijl", "desde", "mientras", "da quando", "mentre", "odkąd", "sedan", "siden"))
#: The verbs that date an event: after a period subordinator the clause names when the period starts or runs.
_PERIOD_START = re.compile(r"(?<![\w-])(?:start(?:ed|s)?|began|begun|begins|joined|joins|took\s+over|arrived|"
                           r"opened|launched|went\s+live|switched|moved|changed|was|were|has\s+been|have\s+been|"
                           r"had\s+been)(?![\w-])", re.I)
#: Subjects that refer to the asked items ("They should be overdue.", "It has to be the late ones."): a statement on
#: them restates a constraint of the ask, never context.
_ITEM_SUBJECT = re.compile(r"\s*(?:they|these|those|it|them|the\s+ones|ones)\b|.*\bthe\s+\w+\s+ones\b|"
                           r".*\b(?:these|those|the)\s+ones\b", re.I | re.S)
def shape_filter_word(word: str) -> bool:
    """Whether ``word`` is one of the filter and shape words (:data:`_FILTER`: "only", "paid", "excluding")."""
    return bool(_FILTER.fullmatch(word))


#: Measure words: a clause holding one is set aside only when the rest of the message has one of its own.
_MEASURE = re.compile(r"(?<![\w-])(?:how\s+(?:much|many)|spen[dt]|spending|invoices?|credit\s+notes?|count|totals?|"
                      r"amounts?|value|vat|tax|prices?|units?|costs?|ausgaben|rechnung\w*|kosten|dépenses?|factures?|uitgaven|facturen|"
                      r"gastos?|facturas?|spesa|fatture|wydatki|faktur\w*|utgifter|fakturor)(?![\w-])", re.I)
#: Period words: a clause holding one is set aside only when the rest of the message has a period of its own.
_PERIOD = re.compile(
    r"\d|(?<![\w-])(?:q[1-4]|h[12]|fy|ytd|mtd|qtd|year|years|quarter|quarters|month|months|week|weeks|weekly|monthly|"
    r"quarterly|annual|annually|yearly|period|periods|zeitraum|période|periode|periodo|okres|"
    r"current|currently|now|today|tonight|yesterday|tomorrow|tmrw|eod|eow|cob|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"jan|january|feb|february|mar|march|apr|april|may|jun|june|jul|july|aug|august|sep|sept|september|oct|october|"
    r"nov|november|dec|december|"
    r"jahr|quartal|monat|woche|heute|morgen|gestern|januar|februar|märz|mai|juni|juli|oktober|dezember|"
    r"année|trimestre|mois|semaine|aujourd'hui|demain|hier|janvier|février|mars|avril|juin|juillet|août|"
    r"septembre|octobre|novembre|décembre|jaar|kwartaal|maand|week|vandaag|morgen|gisteren|maart|mei|"
    r"año|mes|semana|hoy|mañana|ayer|anno|mese|settimana|oggi|domani|ieri|rok|kwartał|miesiąc|tydzień|dziś|jutro|"
    r"czerwcu|lipcu|år|kvartal|månad|måned|vecka|uke|idag|imorgon)(?![\w-])", re.I)
#: A meeting named by digits ("my 1:1 with the CFO"): an occasion, no period.
_DIGIT_EVENT = re.compile(r"(?<![\w:])1\s?[:-]\s?1(?![\w:])|\b1on1\b", re.I)
#: A word that may name a supplier after a preposition ("the talks with Nortwind"): the clause is kept.
_NAMED_AFTER = re.compile(r"\b(?:with|from|at|by|von|bei|mit|chez|avec|met|van|bij|con|da|z|ze|från|med|hos)\s+"
                          r"(?P<word>[A-ZÄÖÜÉ][\w'’&.-]*)")
_COMPANY_CODE = re.compile(r"\b(?:company|comp|co|cie|sté|société|gesellschaft|firma)\.?\s+[a-z]\b", re.I)
_DOCUMENT_ID = re.compile(r"\b[A-Z]{2,6}-\d|\b(?:inv|po|cn|sup|comp|prd|pg|agr)-?\d", re.I)
_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d[\w:'’.-]*")
#: A request: a sentence opening on one asks for something, never context ("I'd like to see how much ...").
_REQUEST = re.compile(r"\s*(?:i\s+(?:would|'d|’d)\s+(?:like|love|need|want)|i\s+(?:need|want|require)|"
                      r"we\s+(?:need|want|would\s+like|'d\s+like)|please|pls|could|can|would)\b", re.I)
#: A sentence naming what the ask refers to ("The one for the depots, I think.", "The same as last time."): kept.
_REFERRING = re.compile(r"\s*(?:the|that|this)\s+(?:one|ones|same|kind|type)\b", re.I)
#: The nouns of what is asked about: a statement naming one may scope the ask ("It's about our suppliers.").
_ENTITY = re.compile(r"(?<![\w-])(?:suppliers?|vendors?|compan(?:y|ies)|products?|categor(?:y|ies)|agreements?|"
                     r"contracts?|documents?|lieferant\w*|fournisseurs?|leveranciers?|proveedor\w*|fornitor\w*|"
                     r"dostawc\w*|leverantör\w*)(?![\w-])", re.I)
#: A deadline: when the answer is wanted ("before EOD", "by Friday", "ideally by Thursday", "bis morgen").
_DEADLINE = re.compile(
    r"^(?:ideally\s+|if\s+possible\s+|preferably\s+)?(?:before|by|until|till|no\s+later\s+than|bis|avant|d'ici|"
    r"voor|uiterlijk|antes\s+de|para|entro|prima\s+di|do|przed|innan|senast|før|innen)\s+(?:the\s+)?"
    r"(?:end\s+of\s+(?:the\s+)?(?:day|week)|close\s+of\s+business|eod|eow|cob|noon|midday|lunch(?:time)?|tonight|"
    r"tomorrow(?:\s+morning)?|today|monday|tuesday|wednesday|thursday|friday|next\s+week|this\s+afternoon|"
    r"morgen|heute|demain|ce\s+soir|morgen|mañana|domani|jutra|imorgon|i\s+morgen)\b", re.I)
#: Courtesy words a deadline or an urgency runs on with ("asap if poss", "before EOD if you can").
_COURTESY_RUN = frozenset("""
if poss possible you can could please pls plz ideally when convenient thanks thank would be great helpful appreciated
it that's fine ok okay bitte svp s'il vous plaît per favore por favor proszę alsjeblieft whenever at your earliest
convenience no rush time hurry wenn möglich si possible indien mogelijk si es posible se possibile jeśli możliwe om
""".split())  # noqa: SIM905 - a word list reads better as text
#: The words that make a run of courtesy words a courtesy ("whenever convenient", "if possible"): never a slot.
_WHENEVER = frozenset(("whenever", "convenient", "convenience", "possible", "poss", "rush", "hurry", "möglich",
                       "mogelijk", "posible", "possibile", "możliwe"))
#: The longest clause read, in words (a clause is a few words; a longer span is the ask).
_LONGEST = 22
#: An abbreviation whose dot ends no sentence ("Co.", "Dr.", "incl.").
_ABBREVIATION = re.compile(r"\b(?:co|comp|cie|sté|soc|ges|fa|dr|mr|mrs|ms|no|nr|incl|excl|approx|vs|etc|e\.g|i\.e|"
                           r"ltd|inc|corp|st|ext|resp|ca|bzw|inkl|zzgl|"
                           r"jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.$", re.I)


@dataclass(frozen=True)
class Clauses:
    """The message with its reason, occasion and hand-over clauses set aside (labels in the order found)."""

    text: str
    aside: tuple[str, ...]


def _phrases(*tables: Iterable[str]) -> str:
    """The phrases of ``tables`` as one regex alternation, longest first ("in view of" before "in")."""
    words = sorted({p for t in tables for p in t}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in words)


def _flat(table: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    return tuple(p for phrases in table.values() for p in phrases)


_CONJUNCTION_W = _phrases(_flat(REASON_CONJUNCTIONS))
_SUBORDINATOR_W = _phrases(_flat(SUBORDINATORS))
_OCCASION_W = _phrases(_flat(OCCASION_MARKERS))
_HANDOVER_W = _phrases(HANDOVER_MARKERS)
_LEAD = re.compile(rf"^(?P<lead>(?:{_phrases(CLAUSE_LEADS)})\s*[,:-]?\s+)?", re.I)
_TAIL = r"(?:\s+|(?<=')|(?<=’))(?P<body>\S.*)$"
#: The markers of each kind, tried in turn ("as part of the review" is an occasion where "as" opens no clause).
_MARKERS = tuple((kind, re.compile(rf"(?P<marker>{words}){_TAIL}", re.I | re.S)) for kind, words in (
    ("conj", _CONJUNCTION_W), ("hand", _HANDOVER_W), ("occ", _OCCASION_W), ("sub", _SUBORDINATOR_W)))


def _words(span: str) -> list[str]:
    return [w.lower().replace("’", "'").strip(".'") for w in _WORD.findall(span)]


def _occasion_word(word: str) -> bool:
    """An event or deliverable noun, or a compound ending on one ("Vorstandssitzung", "styrelsemötet")."""
    bare = re.sub(r"['’]s$", "", word)
    return bare in EVENTS or bare in DELIVERABLES or any(
        len(bare) > len(noun) + 2 and bare.endswith(noun) for noun in EVENTS | DELIVERABLES if len(noun) >= 5)


def _subject(words: list[str], body: str) -> bool:
    """Whether ``body`` opens on a clause subject: a pronoun, or a noun phrase or a name followed by a verb."""
    if not words:
        return False
    if words[0] in SUBJECT_WORDS and (words[0] not in DETERMINERS or _verb_after(words, 2)):
        return True
    first = _WORD.findall(body)[:1]
    # a person's name, a role in brackets after it: "Martin (our CEO) is travelling"
    bare = re.sub(r"\([^()]{0,40}\)", " ", body)
    if first and first[0][:1].isupper() and not _PERIOD.fullmatch(first[0]):
        return _verb_after(_words(bare), 1)
    return False


def _verb_after(words: list[str], within: int) -> bool:
    """A verb right after a subject of at most ``within`` words (never "since the start of the year")."""
    for k in range(1, within + 1):
        if k < len(words) and (words[k] in VERBS or re.fullmatch(r"[a-zäöüéè]{3,}ed", words[k])
                               or re.fullmatch(r"[a-z]+['’](?:s|re|ve|m)", words[k])):
            return all(w not in ("of", "von", "de", "di", "van", "z") for w in words[1:k])
    return False


def _holds_slot(body: str, rest: str, names: frozenset[str]) -> bool:
    """Whether ``body`` carries something the ask may need: a name, a filter, or the only period or measure."""
    words = set(_words(body))
    if words & names or _COMPANY_CODE.search(body) or _DOCUMENT_ID.search(body) or _FILTER.search(body) \
            or _CONSTRAINT.search(body.replace("’", "'")):
        return True
    for found in _NAMED_AFTER.finditer(body):
        if found.group("word").lower().strip(".'’") not in ROLES | {"i"} and not _PERIOD.fullmatch(found.group("word")):
            return True  # "the talks with Nortwind": maybe a supplier the reader should name back
    if _MEASURE.search(body) and not _MEASURE.search(rest):
        return True
    timed = _PERIOD.search(_DIGIT_EVENT.sub(" ", body))
    return bool(timed) and not _PERIOD.search(rest)


def _clause(span: str, rest: str, names: frozenset[str]) -> str | None:
    """The kind of clause ``span`` is ("reason", "occasion", "hand-over"), or None: it is no clause or holds a slot."""
    for kind, pattern in _MARKERS:
        found = pattern.match(span.strip())
        if found is not None and (read := _marked(kind, found, rest, names)) is not None:
            return read
    return None


def _marked(kind: str, found: re.Match[str], rest: str, names: frozenset[str]) -> str | None:
    """The kind of the clause ``found`` opens with a marker of ``kind``, or None."""
    body = found.group("body").strip(" ,;:.!-–—")
    words = _words(body)
    if not words or len(words) > _LONGEST or "?" in body or re.search(r":\s", body) or _holds_slot(body, rest, names):
        return None  # (a colon inside: the ask follows it, "... to follow up: did Comp. B spend ...")
    if kind == "conj":
        return "reason"
    if kind == "hand":
        return "hand-over" if any(w in ROLES for w in words[:4]) or body[:1].isupper() else None
    if kind == "sub":
        marker = " ".join(found.group("marker").lower().split())
        if marker in _PERIOD_SUBORDINATORS and _PERIOD_START.search(body):
            return None  # "since the new CFO started", "while Julia was on leave": a period, kept for the reader
        return "reason" if _subject(words, body) else None
    marker = " ".join(found.group("marker").lower().split())
    # an occasion noun right after the marker or after a determiner ("ahead of the ExCo offsite", "inför mötet")
    if not (words[0] in DETERMINERS or re.search(r"['’]s$", words[0]) or _occasion_word(words[0])):
        return None
    head = [w for w in words[:7]]
    if marker in _TEMPORAL:
        return "occasion" if any(re.sub(r"['’]s$", "", w) in EVENTS or (_occasion_word(w) and w not in DELIVERABLES)
                                 for w in head) else None
    if any(_occasion_word(w) for w in head):
        return "occasion"
    if marker in ("for", "on behalf of") and any(w in ROLES for w in head[:3]):
        return "hand-over"
    return None


#: An "if" clause that leaves something out of the data ("if we take dataloggers out", "if we exclude ..."): a
#: condition of the figure, never a courtesy set aside.
_LEAVES_OUT = re.compile(r"\b(?:take|takes|taking|took|leave|leaves|leaving|left|strip|stripping|pull|pulling|carve|"
                         r"carving|cut|cutting)\b[^,;]{0,40}?\bout\b|\b(?:exclude[sd]?|excluding|remove[sd]?|removing|"
                         r"ignore[sd]?|ignoring|drop(?:ped|s)?|dropping|disregard(?:ed|ing)?|without|except)\b", re.I)


def _statement(sentence: str, rest: str, names: frozenset[str]) -> bool:
    """A sentence with no question, opening on a statement word and holding no slot ("Happy to discuss ...")."""
    body = sentence.strip()
    words = _words(body)
    if not words or "?" in body or words[0] not in STATEMENT_OPENERS or len(words) > _LONGEST:
        return False
    if _ITEM_SUBJECT.match(body):
        return False  # "They should be overdue.": its subject is the asked items
    if _MEASURE.search(body) or _ENTITY.search(body) or _REQUEST.match(body) or _REFERRING.match(body) \
            or re.search(r"\b(?:please|pls|kindly)\b", body, re.I) or _holds_slot(body, rest, names):
        return False
    # a capitalised word inside it may be a name of the ask ("I mean Nortwind."): kept
    inner = _WORD.findall(body)[1:]
    return not any(w[:1].isupper() and w.lower() not in ROLES and w != "I" and not w.isupper() for w in inner)


def _deadline(sentence: str, rest: str, names: frozenset[str]) -> str | None:
    """"Before EOD if you can.", "Asap if poss.", "ideally by Thursday": when, never what (its kind, or None)."""
    body = sentence.strip().rstrip(" .!")
    words = _words(body)
    if not words or "?" in body or _holds_slot(_PERIOD.sub(" ", body), rest, names) or (
            _PERIOD.search(body) and not _PERIOD.search(rest)):
        return None
    found = _DEADLINE.match(body)
    if found and all(w in _COURTESY_RUN for w in _words(body[found.end():])):
        return "deadline"
    if any(w in URGENCY for w in words) and all(w in URGENCY or w in _COURTESY_RUN for w in words):
        return "urgency"
    if any(w in _WHENEVER for w in words) and all(w in _COURTESY_RUN for w in words):
        return "courtesy"  # "Whenever convenient", "if possible", "at your earliest convenience"
    return None


def _sentences(line: str) -> list[tuple[int, int]]:
    """The spans of the sentences of ``line`` (each with its end mark; never cut after "Co." or "Dr.")."""
    spans: list[tuple[int, int]] = []
    start = 0
    for end in re.finditer(r"[.!?]+(?=\s|$)", line):
        piece = line[start:end.end()]
        if _ABBREVIATION.search(piece) or line[:end.start()].count("(") > line[:end.start()].count(")"):
            continue
        spans.append((start, end.end()))
        start = end.end()
    if line[start:].strip():
        spans.append((start, len(line)))
    return [(s + len(line[s:e]) - len(line[s:e].lstrip()), e) for s, e in spans if line[s:e].strip()]


def _asks(text: str) -> bool:
    return len(re.findall(r"[^\W\d_]{3,}", text)) >= 2


#: The longest closing clause after a comma tried ("..., as we prepare for the supplier negotiations in June").
_CLOSING_CLAUSE_CHARS = 240


def _one(text: str, names: frozenset[str], aside: list[str]) -> str | None:
    """``text`` with its first clause set aside, or None when it has none."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        for start, end in _sentences(line):
            sentence = line[start:end]
            others = "\n".join([*lines[:n], line[:start] + line[end:], *lines[n + 1:]])
            lead = _LEAD.match(sentence)
            opened = sentence[lead.end():] if lead else sentence
            stripped = opened.rstrip(" .!?")
            # the whole sentence is the clause: "This is as we prepare for the negotiations in June."
            kind = _clause(stripped, others, names) if "?" not in sentence else None
            if kind is None and ("?" in others or _MEASURE.search(others)):
                kind = "remark" if _statement(sentence, others, names) else _deadline(sentence, others, names)
            if kind and _asks(others):
                aside.append(f"{kind} {sentence.strip().rstrip('.!')!r}")
                return "\n".join([*lines[:n], (line[:start] + line[end:]).strip(), *lines[n + 1:]])
            # a clause opening its sentence, up to a comma or a colon: "Since I'm covering for Julia, what ..."
            cut = re.search(r"\s*(?:[,:;](?=\s)|\s[-–—]\s)\s*", opened)
            if cut is not None:
                clause = opened[:cut.start()]
                tail = opened[cut.end():]
                around = line[:start] + tail + line[end:] + "\n" + others
                kind = _clause(clause, around, names) or _deadline(clause, around, names) or (
                    "courtesy" if re.match(r"\s*if\s+\S+\s+\S+", clause, re.I) and _statement(clause, around, names)
                    and not _LEAVES_OUT.search(clause)
                    else None)  # "If it's easy to pull - ...": a condition on the asking, no slot
                if kind and _asks(tail):
                    shown = sentence[:len(sentence) - len(opened) + cut.start()].strip()
                    aside.append(f"{kind} {shown!r}")
                    new = line[:start] + tail[:1].upper() + tail[1:] + line[end:]
                    return "\n".join([*lines[:n], new, *lines[n + 1:]])
            # a clause closing its sentence after a comma: "..., as we prepare for the negotiations?"
            for comma in re.finditer(r",(?=\s)\s*", sentence):
                if len(sentence) - comma.end() > _CLOSING_CLAUSE_CHARS:
                    continue  # only a short tail can be a closing clause; testing every comma is quadratic
                clause = sentence[comma.end():].rstrip(" .!?")
                head = sentence[:comma.start()]
                around = head + "\n" + others
                kind = (_clause(clause, around, names) or _deadline(clause, around, names)) if _asks(head) else None
                if kind:
                    aside.append(f"{kind} {clause.strip()!r}")
                    mark = sentence.rstrip()[-1:] if sentence.rstrip()[-1:] in "?.!" else ""
                    return "\n".join([*lines[:n], line[:start] + head + mark + line[end:], *lines[n + 1:]])
    return None


def set_aside_clauses(text: str, names: frozenset[str]) -> Clauses:
    """``text`` without its reason, occasion and hand-over clauses; ``names``: the tenant's distinctive name words.

    >>> set_aside_clauses("Since I'm covering for Julia, what did Company A spend in Q1 2026?", frozenset()).text
    'What did Company A spend in Q1 2026?'
    >>> set_aside_clauses("Company A spend in Q1 2026? This is ahead of the board meeting in June.", frozenset()).text
    'Company A spend in Q1 2026?'
    >>> set_aside_clauses("Since Jan 2026, what did Company A spend?", frozenset()).aside
    ()
    """
    aside: list[str] = []
    for _ in range(12):
        found = _one(text, names, aside)
        if found is None:
            break
        text = found
    return Clauses(text, tuple(aside))
