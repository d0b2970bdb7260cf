"""The message envelope: the salutation, the sign-off and signature, the urgency and the purpose around the ask.

A message is often more than the ask. Around it the writer puts a salutation ("Liebe Kollegen,", "Bonjour à tous,",
"Hi Procura,", "@procura"), a sign-off and a signature on their own lines or after a dash ("Gruß, Stefan
(AP-Team)", "lg aus Graz", "BG, T. Huber (SSC Wien)", "- danke", "cordialement, J. Martin", "thx"), urgency
("need asap:", "urgent -", "dringend:") and the purpose or occasion of the ask ("for the cash plan:", "- for the
13wk forecast", "(cash call tmrw)", "ahead of the board meeting", "pour le comité de demain"). Read as the question,
a capitalised word of a signature becomes an unknown supplier asked back, and a purpose word ("forecast") changes
the measure. So the envelope is read first, structurally, and set aside (and named back by the caller: "Set aside
as context: greeting 'Liebe Kollegen', sign-off 'lg aus Graz'").

Design note: the message is cut into segments by its lines and by clause punctuation (a comma, a colon, a dash
between spaces, the end of a sentence, a closing bracket). Only segments at the edges are candidates: the leading
segments (salutation, chat handle, urgency, an addressed desk "treasury q:", a purpose lead-in) and the trailing ones
(sign-off with its signature, bare chat closings "ty", a purpose clause, an occasion in brackets). A candidate is set
aside only by its shape: it opens with a word of the tables below (greetings and closings in English, German,
French, Dutch, Spanish and Italian), the rest is short and signature-like (capitalised names, initials, a team or a
place in brackets, "aus Graz"), or it is a purpose marker with an occasion noun. A segment that carries a real
constraint (a name of the tenant, "Company B", a document id, a number other than a planning horizon, a measure
word) is never set aside, and nothing is set aside when no ask would be left. What is kept is read exactly as if
typed alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

# --- the tables: one place per kind of word --------------------------------------------------------------------------
#: Salutations that open a message, by language (lower case; a phrase matches word by word).
GREETINGS: dict[str, tuple[str, ...]] = {
    "en": ("hi", "hello", "hey", "hiya", "heya", "yo", "dear", "dearest", "greetings", "good morning",
           "good afternoon", "good evening", "good day", "morning", "afternoon", "evening", "hi there", "hello there"),
    "de": ("hallo", "hallöchen", "hi", "liebe", "lieber", "liebes", "sehr geehrte", "sehr geehrter",
           "sehr geehrte damen und herren", "guten morgen", "guten tag", "guten abend", "morgen", "grüß gott",
           "grüss gott", "gruess gott", "grüß dich", "grüezi", "gruezi", "servus", "moin", "moin moin", "tach",
           "mahlzeit", "hoi"),
    "fr": ("bonjour", "bonsoir", "salut", "coucou", "cher", "chère", "chers", "chères", "madame", "monsieur",
           "mesdames", "messieurs", "allô"),
    "nl": ("hallo", "hoi", "hai", "goedemorgen", "goedemiddag", "goedenavond", "goedendag", "beste", "geachte",
           "dag", "beste allemaal"),
    "es": ("hola", "buenos días", "buenos dias", "buenas tardes", "buenas noches", "buenas", "estimado", "estimada",
           "estimados", "estimadas", "querido", "querida", "queridos", "saludos"),
    "it": ("ciao", "buongiorno", "buon giorno", "buonasera", "buona sera", "salve", "gentile", "gentili", "caro",
           "cara", "cari", "care", "egregio", "egregi"),
    "pt": ("olá", "ola", "oi", "bom dia", "boa tarde", "boa noite", "prezado", "prezada", "prezados", "prezadas"),
    "pl": ("dzień dobry", "dzien dobry", "witam", "witajcie", "cześć", "czesc", "szanowni państwo", "szanowni"),
    "sv": ("hej", "hejsan", "god morgon", "god dag", "hallå"),
    # (Indian and Philippine English: the greetings of the languages written beside it)
    "hi": ("namaste", "namaskar", "namaskaram", "vanakkam", "greetings of the day", "good day", "respected"),
    "tl": ("kumusta", "kamusta", "magandang umaga", "magandang hapon", "magandang gabi", "mabuhay"),
}
#: Closings that end a message, by language (lower case), alone or before the writer's name ("Danke & LG, Sabine").
CLOSINGS: dict[str, tuple[str, ...]] = {
    "en": ("thanks", "thank you", "thankyou", "thanks a lot", "thanks so much", "many thanks", "thanks in advance",
           "thank you in advance", "thx", "thnx", "thnks", "tx", "ty", "tyvm", "tia", "cheers", "regards",
           "best regards", "kind regards", "warm regards", "warmest regards", "best wishes", "best", "br", "brgds",
           "kr", "rgds", "tks", "thks", "tnx", "sincerely", "yours sincerely", "yours truly", "yours", "all the best",
           "much appreciated",
           "appreciated", "talk soon", "speak soon", "cu", "ttyl", "please revert", "kindly revert", "pls revert",
           "do the needful", "kindly do the needful", "awaiting your reply", "awaiting your response",
           "looking forward to your reply", "looking forward to hearing from you", "waiting for your reply",
           "hope that helps", "have a nice day", "have a great day", "have a good day"),
    "de": ("danke", "danke schön", "dankeschön", "danke sehr", "vielen dank", "herzlichen dank", "besten dank",
           "danke vorab", "vorab danke", "danke im voraus", "gruß", "grüße", "gruss", "gruesse", "grüsse",
           "viele grüße", "viele grüsse", "liebe grüße", "liebe grüsse", "beste grüße", "beste grüsse",
           "herzliche grüße", "freundliche grüße", "schöne grüße", "mit freundlichen grüßen",
           "mit freundlichen grüssen", "mit besten grüßen", "lg", "vg", "mfg", "bg", "sg", "hg", "lg aus",
           "tschüss", "tschau", "bis dann", "bis bald", "servus", "pfiat di", "ciao"),
    "fr": ("merci", "merci beaucoup", "merci d'avance", "merci par avance", "merci bien", "cordialement",
           "bien cordialement", "très cordialement", "bien à vous", "bien à toi", "salutations",
           "meilleures salutations", "sincères salutations", "amitiés", "bonne journée", "bonne soirée",
           "cdlt", "cdt", "slts", "bav"),
    "nl": ("bedankt", "dank je", "dank je wel", "dankjewel", "dank u", "dank u wel", "alvast bedankt", "groet",
           "groeten", "groetjes", "met vriendelijke groet", "met vriendelijke groeten", "vriendelijke groet",
           "hartelijke groet", "mvg", "gr", "fijne dag"),
    "es": ("gracias", "muchas gracias", "gracias de antemano", "mil gracias", "saludos", "un saludo",
           "saludos cordiales", "atentamente", "cordialmente", "un abrazo", "abrazos", "besos"),
    "it": ("grazie", "grazie mille", "grazie in anticipo", "saluti", "cordiali saluti", "distinti saluti",
           "un saluto", "buona giornata", "buona serata", "a presto"),
    "pt": ("obrigado", "obrigada", "muito obrigado", "muito obrigada", "atenciosamente", "abraços", "cumprimentos"),
    "pl": ("dziękuję", "dziekuje", "dzięki", "dzieki", "pozdrawiam", "pozdrowienia", "z poważaniem"),
    "sv": ("tack", "tack så mycket", "hälsningar", "vänliga hälsningar", "mvh"),
    "hi": ("dhanyavaad", "dhanyavad", "dhanyawad", "shukriya", "thanks and regards", "thanks & regards",
           "thanks n regards", "regards and thanks", "warm regards and thanks"),
    "tl": ("salamat", "salamat po", "maraming salamat", "maraming salamat po", "ingat"),
}
#: Closings a chat message ends with without any separator ("... EUR total thx"): words no ask ends with.
CHAT_CLOSINGS = frozenset(("thx", "thnx", "thnks", "tks", "ty", "tyvm", "tia", "thanks", "danke", "merci", "gracias",
                           "grazie", "bedankt", "cheers", "dankeschön", "thank you", "many thanks", "vielen dank",
                           "danke vorab", "merci beaucoup", "muchas gracias", "grazie mille", "dank je", "dank je wel"))
#: Courtesy words of a greeting or sign-off that say where or whom it comes from with a preposition ("greetings
#: from Vienna", "thanks from Maria", "Grüße aus Wien", "merci de Paul"): the preposition after one opens no name
#: slot (router/name_cues.py). Words of the two tables above and their other spellings ("ue" for "ü", "ss" for
#: "ß"), plus "love" ("love from Anna"), which the tables leave out: it is an ordinary word at a message's edge.
SIGN_OFF_WORDS = frozenset(("greetings", "regards", "thanks", "thank you", "cheers", "best", "love", "hello", "hi",
                            "grüß", "grüße", "grüss", "grüsse", "grueß", "grueße", "gruess", "gruesse", "lg", "vg",
                            "mfg", "danke", "salutations", "merci", "saludos", "grazie"))
#: Words of urgency: how soon, never what ("need asap:", "urgent -", "dringend:", "au plus vite").
URGENCY = frozenset(("asap", "a.s.a.p", "urgent", "urgently", "urgente", "urgentemente", "dringend", "eilig", "eilt",
                     "spoed", "prio", "priority", "rush", "pressing", "quickly", "rápido", "subito"))
#: Words that may stand beside an urgency word in its segment ("need this asap", "bitte dringend").
_URGENCY_FILLER = frozenset(("need", "needed", "needs", "this", "it", "please", "pls", "plz", "bitte", "very",
                             "treat", "treated", "as", "kindly",
                             "sehr", "i", "we", "is", "svp", "stp", "por", "favor", "per", "favore", "a", "one",
                             "quick", "request", "ask", "benötigt", "gebraucht", "besoin", "très", "molto", "muy",
                             "!", "q", "question", "pl", "plis"))
#: Words of a deadline for the reply: when the answer is wanted, never which figure ("by EOD", "at the earliest").
DEADLINES = frozenset(("eod", "cob", "eow", "eom", "earliest", "asap", "a.s.a.p", "tmrw", "tomorrow", "today",
                       "tonight", "noon", "shortly", "soonest"))
#: The words a trailing sentence of delivery may hold around its deadline ("Same may be shared by EOD", "please
#: send it across by COB today", "kindly revert at the earliest"): the thing sent back, a modal, a verb of sending,
#: the joiners of a time. A closed class; a sentence with any other word stays in the ask.
_DELIVERY = frozenset("""
same it this these them the data details info information figures numbers report answer reply response may can
could would will shall should must kindly please pls plz request requested you to be is are shared share send
sent sending provide provided providing revert reverted reply replied respond mail mailed email emailed
forward forwarded update updated across back over by at before on of end day as soon possible latest within
hours hrs required needed need wanted us me
""".split())  # noqa: SIM905 - a word list reads better as text
#: The words after "as" that make an as-of date ("as at today", "as of EOM", "as on date"): a constraint.
_AS_OF = frozenset(("at", "of", "on", "per"))
#: The verbs of sending back: a delivery sentence without a deadline word holds one ("Kindly share.").
_SENDING = frozenset(("shared", "share", "send", "sent", "provide", "provided", "revert", "reply", "respond",
                      "mail", "mailed", "email", "emailed", "forward", "forwarded"))
#: The courtesy words a chat closing run may hold ("pls ty", "bitte danke").
#: (the chat abbreviations among them are chat words too: :data:`CHAT_WORDS` holds them from here)
_CHAT_COURTESY = frozenset(("pls", "plz", "bitte", "svp", "stp", "pfv"))
_COURTESY = _CHAT_COURTESY | frozenset(("please", "pf", "xx", "x"))
#: Chat words a writer puts around a figure without narrowing it ("gimme the number", "a ballpark figure is fine",
#: "lemme know"): shared with the unread-word check (router/unread_words.py), which reads them as known words.
CHAT_WORDS = _CHAT_COURTESY | frozenset((
    "gimme", "lemme", "wanna", "gonna", "gotta", "ballpark", "thx", "thnx", "ty", "tia", "btw", "fyi", "cheers", "ta",
    # (the same courtesy in the writers' other languages: "porfa", "vlw", "danke", "grazie")
    "porfa", "porfis", "porfavor", "xfa", "vlw", "valeu", "obg", "brigado", "gracias", "obrigado", "obrigada",
    "danke", "merci", "grazie", "bedankt", "tks"))
#: Who a message is addressed to (a desk, a team, the product): never a constraint in a salutation or a
#: "treasury q:" lead. (router/preamble.py reads its salutations with the same table.)
ADDRESSEES = frozenset("""
ap accounts payable procurement purchasing finance controlling fp&a treasury buyers buying helpdesk desk procura bot
assistant there everyone everybody colleagues all both team folks guys people zusammen kollegen kolleginnen kollegin
kollege leute allerseits miteinander ihr alle à tous tout le monde collègues équipe allemaal collega's collega team
iedereen todos a todos equipo compañeros l'équipe toutes monde compañeras tutti a tutti colleghi ragazzi squadra
sir sirs madam madams madame ma'am mam maam mesdames po ji concerned wszyscy alla pessoal equipe
""".split())  # noqa: SIM905 - a word list reads better as text
#: The addressees that are a desk, not people nor the product: a lead of these alone ("Procurement, ...", "AP, ...")
#: may be the subject of the ask, so only a lead of people's words or the product's name ("Team,", "Sir/Madam,",
#: "Procura team,") is a vocative.
_DESKS = frozenset(("ap", "accounts", "payable", "procurement", "purchasing", "finance", "controlling", "fp&a",
                    "treasury", "buyers", "buying", "helpdesk", "desk"))
#: A question to a desk: "treasury q:", "AP question -", "quick q:" (the desk is an addressee word).
_QUESTION_WORDS = frozenset(("q", "qq", "question", "query", "frage", "anfrage", "question", "pregunta", "domanda",
                             "vraag", "ask", "request", "quick", "kurze", "short", "small", "one", "rapide",
                             "petite", "rápida", "veloce", "demande", "requête", "pergunta", "pytanie", "fråga"))
#: The nouns of a request that head a message alone, as its subject line ("Query -", "Request:", "Anfrage:").
_REQUEST_NOUNS = frozenset(("query", "question", "request", "frage", "anfrage", "pregunta", "domanda", "vraag",
                            "demande", "requête", "pergunta", "pytanie", "fråga", "ask", "q", "qq"))
#: Courtesy abbreviations and words of a request's lead ("PFB request:", "PFA query -", "FYI request:"): say where
#: the ask is ("please find below"), never what.
REQUEST_LEADS = frozenset(("pfb", "pfa", "pfbl", "fyi", "fyr", "pfe", "please", "pls", "plz", "kindly", "new",
                           "find", "below", "attached", "my", "our", "the", "a", "an", "following", "urgent"))
#: The occasion an answer is for: a purpose clause ending on one of these carries no constraint.
OCCASIONS = frozenset("""
forecast forecasts plan planning budget budgeting meeting meetings call calls deck decks review reviews report
reporting pack board committee cttee ctte cmte presentation slides slide memo close closing month-end quarter-end
year-end steerco qbr mbr sync standup stand-up workshop huddle check cash-call update briefing session minutes file
files
model prognose planung besprechung sitzung termin bericht vorstand präsentation abschluss monatsabschluss
jahresabschluss liquiditätsplanung liquiditätsplan vorschau runde meeting prévision prévisions réunion comité rapport
présentation clôture trésorerie point previsión reunión comité informe presentación cierre presupuesto previsione
riunione comitato relazione presentazione chiusura vergadering overleg rapport presentatie afsluiting begroting
""".split())  # noqa: SIM905 - a word list reads better as text
#: The words that open a purpose clause ("for the", "ahead of", "für die", "pour le", "para el", "per il", "voor de").
_PURPOSE_MARKER = re.compile(
    r"^(?:(?:(?:i|we)\s+)?(?:needed|required|wanted|need\s+(?:it|this|these|them|the\s+figures?|the\s+numbers?)|"
    r"want\s+(?:it|this)|it's|it\s+is|this\s+is)\s+)?"
    r"(?P<marker>for|ahead\s+of|in\s+time\s+for|before|prior\s+to|für|vor|zur|zum|pour|avant|para|antes\s+de|"
    r"per(?=\s+(?:il|la|lo)\b)|prima\s+del|prima\s+della|voor|vóór)\b\s*", re.I)
#: Markers that tell a time ("approved before the month-end close"): a purpose only before a meeting-type occasion;
#: before anything else the clause may be a constraint of the ask and stays in it.
_TEMPORAL_MARKERS = frozenset(("before", "prior to", "vor", "avant", "antes de", "prima del", "prima della", "vóór"))
#: The occasions that are meetings (a time no data is filtered by): the only ones a temporal marker may lead to.
_MEETINGS = frozenset("""
meeting meetings call calls board review reviews presentation presentations committee cttee ctte cmte steerco qbr
mbr sync standup stand-up workshop huddle cash-call briefing session besprechung sitzung termin vorstand präsentation
runde réunion
comité présentation reunión presentación riunione comitato presentazione vergadering overleg presentatie
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words a purpose clause may hold between its marker and its occasion (articles, owners, times, kinds of plan).
_PURPOSE_FILLER = frozenset("""
the a an my our your this next tomorrow's today's friday's monday's tuesday's wednesday's thursday's weekly monthly
quarterly annual rolling cash liquidity treasury board management mgmt exec executive cfo ceo team steering group
internal external upcoming die den das der dem des einen ein eine unser unsere unseren morgige morgigen le la les l'
du de des notre nos mon ma el los las nuestro nuestra il lo i gli della dello del nostro nostra de het onze ons
13-week 13wk 13-wk 4-week 12-month week weeks wk weekly tmrw tomorrow today tonight eod eow cob morgen heute demain
mañana domani morgen next upcoming requirement requirements sanity plausibility quick month end quarter year
audit risk remuneration nomination finance investment
""".split())  # noqa: SIM905 - a word list reads better as text
#: Times an occasion may be told with ("cash call tmrw", "meeting on friday").
_WHEN = frozenset("""
tmrw tmr tomorrow today tonight eod eow cob asap monday tuesday wednesday thursday friday mon tue wed thu fri on at
this next week morning afternoon morgen heute demain aujourd'hui mañana hoy domani oggi vandaag
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words joining an occasion and its time ("la réunion de demain", "the call on friday").
_WHEN_JOINERS = frozenset(("de", "di", "del", "du", "von", "van", "of", "on", "at", "am", "le", "el", "il"))
#: A planning horizon inside a purpose clause ("13wk", "13-week", "4 weeks"): a number that is no period of the ask.
_HORIZON = re.compile(r"^\d{1,2}(?:-?(?:wk|wks|week|weeks|w|month|months|m))$", re.I)
#: Words a signature may hold besides names: joiners, a place preposition, a team word.
_SIGNATURE_WORDS = frozenset("""
& + / | - – — and und et en y e i.a. i.v. ia iv aus from von de da uit van der den di team teams dept department
abteilung équipe equipo of for to the für des du la le del della degli al ppa pp
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words a closing runs on with before the signature ("very much in advance", "again for your help").
_CLOSING_RUN = frozenset(("very", "much", "so", "in", "advance", "again", "a", "lot", "for", "your", "help", "all",
                          "everyone", "kindly", "beforehand", "vorab", "im", "voraus", "d'avance", "por", "adelantado",
                          "in", "anticipo", "alvast", "und", "et", "and", "e", "y", "schönen", "tag", "noch",
                          "einen", "bonne", "journée", "buona", "giornata", "fijne", "dag", "buen", "día", "asap",
                          "soon", "at", "the", "earliest", "as", "possible", "back", "on", "this"))
#: Words joining two addressees or two closings ("Hallo Anna und Tom", "Danke & LG").
_JOINERS = frozenset(("&", "+", "and", "und", "et", "en", "y", "e", "/", "u.", "or", "oder", "ou", "o", "of"))
_PLACE_PREPOSITIONS = frozenset(("aus", "from", "von", "de", "da", "uit", "desde", "dal"))
#: Measure words: a segment holding one says what is asked (never a signature nor a purpose).
_MEASURE = re.compile(r"\b(?:spen[dt]|spending|invoice[sd]?|rechnung\w*|facture\w*|factura\w*|fattur\w*|factu\w*|"
                      r"credit\s+notes?|gutschrift\w*|count|total|amount|betrag|summe|price|prices|preis\w*|prix|precio\w*|"
                      r"prezz\w*|units?|share|"
                      r"ausgaben|kosten|costs?|vat|net|gross|brutto|netto|suppliers?|vendors?|lieferant\w*|"
                      r"companies|company|gesellschaft\w*|how\s+much|how\s+many|wie\s*viel\w*|combien|cuánto)\b", re.I)
_COMPANY_CODE = re.compile(r"\b(?:company|comp|co|cie|ges|gesellschaft|firma|fa)\.?\s+[a-z]\b", re.I)
_DOCUMENT_ID = re.compile(r"\b[A-Z]{2,6}-\d|\b(?:inv|po|cn|sup|comp|prd|pg|agr)-?\d", re.I)
_WORD = re.compile(r"[^\W\d_][\w'’.&-]*|\d[\w'’.-]*|[&+/|]")
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:\+|\b(?:tel|phone|mobile|fax)\.?:?\s*)\d[\d ()/.-]{6,}\d", re.I)
#: A clause boundary inside a line: punctuation that ends a clause, a dash between spaces, a closing bracket.
#: (never the dot of "Mr.", "Dr.", "Co.": an abbreviation inside a salutation or a name)
_BOUNDARY = re.compile(r"\s*(?:[,;:!]+|(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bFr)(?<!\bHr)(?<!\bSr)(?<!\bCo)(?<!\bNr)"
                       r"[?.]+(?=\s)|\s[-–—]+(?=\s)|(?<=\))(?=\s))\s*")
#: The line a phone or a mail app appends ("Sent from my iPhone", "Von meinem iPhone gesendet", "Envoyé de mon
#: iPad"): a signature line in any case.
_DEVICE = re.compile(r"^\s*(?:sent\s+(?:from|with)\s+my|get\s+outlook\s+for|von\s+meinem|gesendet\s+(?:von|mit)\s+"
                     r"meinem|envoyé\s+(?:de|depuis)\s+mon|enviado\s+desde\s+mi|inviato\s+da(?:l)?\s+(?:mio\s+)?|"
                     r"(?:verzonden|verstuurd)\s+(?:vanaf|met)\s+mijn)\b[^?\d]{0,40}$", re.I)
#: An extension or a phone number inside a signature ("Maria (AP, ext. 4471)"): contact detail, no constraint.
_EXTENSION = re.compile(r"\b(?:ext|tel|dw|durchwahl|poste|tél|tfn|phone|mob)\.?\s*:?\s*\+?\d[\d /-]*", re.I)
_HANDLE = re.compile(r"^\s*@[\w.-]+[\s,:;-]*")


def _phrases(table: dict[str, tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """The phrases of a table as word tuples, longest first (so "viele grüße" wins over "viele")."""
    words = {tuple(p.split()) for phrases in table.values() for p in phrases}
    return tuple(sorted(words, key=len, reverse=True))


_GREETING_PHRASES = _phrases(GREETINGS)
#: Every single word of the envelope tables: a rest made only of these holds no ask ("Hi, thanks").
_ENVELOPE_WORDS = frozenset(w for table in (GREETINGS, CLOSINGS) for phrases in table.values() for p in phrases
                            for w in p.split()) | CHAT_CLOSINGS | URGENCY | _COURTESY | ADDRESSEES
_CLOSING_PHRASES = _phrases(CLOSINGS)


def closing_pattern() -> str:
    """The closing words of every language as one regex alternation (for readers that match sign-offs inline)."""
    words = sorted({p for phrases in CLOSINGS.values() for p in phrases}, key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(w) for w in p.split()) for p in words)


@dataclass(frozen=True)
class Envelope:
    """The ask of a message and the envelope set aside around it (labels in the order found)."""

    text: str
    aside: tuple[str, ...]


def _words(segment: str) -> list[str]:
    return [w.lower().strip(".'’") or w for w in _WORD.findall(segment)]


def _starts(words: list[str], phrases: tuple[tuple[str, ...], ...]) -> int:
    """How many words of ``words`` the longest phrase it opens with spans (0: none)."""
    for phrase in phrases:
        if tuple(words[:len(phrase)]) == phrase:
            return len(phrase)
    return 0


def _constraint(segment: str, names: frozenset[str], *, horizon: bool = False) -> bool:
    """Whether ``segment`` carries something the ask may need: a tenant name, a company, an id, a number."""
    words = {w.lower().strip(".,'’()") for w in re.findall(r"[\w'’.&-]+", segment)}
    if words & names or _COMPANY_CODE.search(segment) or _DOCUMENT_ID.search(segment):
        return True
    numbers = re.findall(r"[\w-]*\d[\w-]*", segment)
    return any(not (horizon and _HORIZON.match(n)) for n in numbers)


def _signature(rest: str) -> bool:
    """Whether ``rest`` reads as a writer's name, team or place ("Stefan (AP-Team)", "T. Huber", "Jana / SSC
    Leipzig", "aus Graz"): short, every word a capitalised name, an initial, a joiner or inside brackets."""
    bracketed = re.findall(r"\(([^()]{0,40})\)", rest)
    if any("?" in b or len(b.split()) > 5 for b in bracketed):
        return False
    bare = re.sub(r"\([^()]{0,40}\)", " ", rest)
    if "(" in bare or ")" in bare or "?" in bare:
        return False
    tokens = [t for t in re.split(r"[\s,;]+", bare) if t and t not in "-–—:."]
    if len(tokens) > 5:
        return False
    after_place = False
    for token in tokens:
        low = token.lower().strip(".'’")
        if low in _SIGNATURE_WORDS or token in "&+/|":
            after_place = low in _PLACE_PREPOSITIONS
            continue
        if after_place or re.fullmatch(r"[A-ZÄÖÜÉÈÀÇÑ][\w'’.-]*|[A-Z]\.(?:[A-Z]\.)*|[A-Z][A-Z&]{1,5}(?:-\w+)?", token):
            after_place = False
            continue
        return False
    return True


def _salutation(segment: str, names: frozenset[str]) -> bool:
    """A greeting with at most three words of address ("Liebe Kollegen", "Hi Procura", "Bonjour à tous")."""
    tokens = _WORD.findall(segment)
    words = _words(segment)
    n = _starts(words, _GREETING_PHRASES)
    if not n or len(words) - n > 4 or _constraint(segment, names) or _MEASURE.search(segment):
        return False
    rest = tokens[n:]
    # the words of address: a desk or team word, or a person's capitalised name ("Hallo Frau Weber", "Dear Sir/Madam")
    if not rest:
        return len(words) == n
    return all(w.lower() in ADDRESSEES or w.lower() in _JOINERS or w.lower() in _QUESTION_WORDS
               or w.lower() in URGENCY or re.fullmatch(r"[A-ZÄÖÜÉ][\w'’.-]*", w)
               for w in rest)


def _closing(segment: str, names: frozenset[str], *, signed: bool = True) -> bool:
    """A sign-off, with closings joined ("Danke & LG") and the writer's signature after it ("Gruß, Stefan (AP)");
    with ``signed`` False the closing words alone (no signature: "Thanks in advance", "Kindly do the needful")."""
    head = re.sub(r"^[\s\-–—]+", "", segment).strip()
    words = _words(head)
    if not words or _constraint(_EXTENSION.sub("", _CONTACT.sub("", head)), names) or _MEASURE.search(head):
        return False
    used = 0
    while True:
        n = _starts(words[used:], _CLOSING_PHRASES)
        if not n:
            break
        used += n
        while used < len(words) and words[used] in _JOINERS:
            used += 1
    if not used:
        return False
    # the words the closings span, then the signature (any case after "lg aus": a place)
    tail = head
    for _ in range(used):
        tail = re.sub(r"^[\s,;:!.\-–—]*[^\s,;:!]+", "", tail, count=1)
    tail = tail.strip(" ,;:!.-–—")
    # the courtesy words a closing runs on with ("Thank you very much in advance", "thanks again for your help")
    while tail and tail.split()[0].lower().strip(",.!") in _CLOSING_RUN:
        tail = tail.split(None, 1)[1].strip(" ,;:!.-–—") if len(tail.split()) > 1 else ""
    return not tail or (signed and _signature(tail))


def _urgency(segment: str) -> bool:
    words = _words(segment)
    return bool(words) and any(w in URGENCY for w in words) and all(
        w in URGENCY or w in _URGENCY_FILLER for w in words)


def _desk_question(segment: str) -> bool:
    """"treasury q", "AP question", "quick q", "PFB request", "Query": a question addressed to a desk, or the
    request noun heading the message, no constraint."""
    words = _words(segment)
    if len(words) == 1:
        return words[0] in _REQUEST_NOUNS
    return 1 < len(words) <= 4 and words[-1] in _QUESTION_WORDS and all(
        w in ADDRESSEES or w in _QUESTION_WORDS or w in REQUEST_LEADS for w in words)


def _vocative(segment: str) -> bool:
    """A lead of people addressed without a greeting word ("Team,", "Sir/Madam,", "All,"): no desk, no product."""
    words = [w for w in _words(segment) if w not in _JOINERS]
    return 0 < len(words) <= 3 and all(w in ADDRESSEES and w not in _DESKS for w in words)


def _deadline(segment: str, names: frozenset[str]) -> bool:
    """A sentence of delivery: when or how the answer is to be sent ("Same may be shared by EOD", "Kindly revert at
    the earliest", "pls send by COB"): only words of :data:`_DELIVERY` and :data:`DEADLINES`, with a deadline word
    that names no period of data (EOD, COB, "at the earliest") or a verb of sending."""
    words = _words(segment)
    if not words or _constraint(segment, names) or _MEASURE.search(segment):
        return False
    if any(a == "as" and b in _AS_OF for a, b in pairwise(words)):
        return False  # ("Send me the numbers as at today": an as-of date of the data, never a deadline)
    return all(w in _DELIVERY or w in DEADLINES or w in _COURTESY for w in words) and any(
        w in _SENDING or w in {"eod", "cob", "eow", "eom", "earliest", "asap", "a.s.a.p", "soonest"} for w in words)


#: Forwarding and reply markers of a subject line ("FW:", "RE: RE:", "AW:", "WG:", "TR:", "RV:", "SV:", "Fwd:").
_FORWARDED = re.compile(r"^\s*(?:(?:re|fw|fwd|aw|wg|tr|rv|sv|vs|antw|odp|res|enc)\s*(?:\[\d+\])?\s*:\s*)+", re.I)
#: A queue tag or ticket number in brackets heading the message ("[AP-GBS]", "[SR524805]", "[EXT]").
_TAG = re.compile(r"^\s*\[(?P<tag>[^\[\]\n]{1,40})\]\s*[:\-–—]?\s*")
#: A ticket token heading the message before a colon or a dash ("INC1528156:", "Ticket #52256 -", "SR-88123 -"):
#: a ticket noun or a ticket prefix with its number, or "#" and a number. Any other code ("GL-400100:", "CC-4471:")
#: may be what is asked about: it stays in the ask, where the unread-qualifier check names it if no reader takes it.
_TICKET_LEAD = re.compile(
    r"^\s*(?P<ref>(?:ticket|tkt|case|incident|inc|sr|req|ritm|chg|task|ref|reference|query|request|issue|jira)"
    r"(?![^\W\d_])\.?\s*(?:no\.?|nr\.?|number|id|#|:)?\s*#?\s*[A-Z]{0,6}-?\d{3,}(?:[-/]\d+)?|#\s?\d{3,})"
    r"\s*(?::|\s[-–—]+)\s+", re.I)
#: Words of a queue or a channel a bracketed tag with spaces may hold ("[AP queue]", "[SSC request]").
_QUEUE_WORDS = frozenset("""
queue queues ticket tickets ext external internal intern extern fyi info request requests query queries inbox
mailbox helpdesk desk team ssc gbs sap ops fin finance ap ar accounts payable procurement treasury new reply action
""".split())  # noqa: SIM905 - a word list reads better as text
#: Words a reader table knows (status, ranking, exclusion, document, measure): a tag holding one is part of the ask
#: ("[posted only]", "[Top 5]", "[paid invoices]", "[excl. credit notes]"), never a queue label.
_READER_WORDS = frozenset("""
posted paid unpaid open opened closed overdue due draft drafted cancelled canceled void voided approved pending
blocked disputed booked cleared settled outstanding reversed only top bottom rank ranked ranking largest biggest
highest lowest smallest most least first last best worst excl excluding exclude excluded without except except
incl including include included with net gross avg average mean median min max sum total count number invoice
invoices credit credits note notes order orders po pos contract contracts agreement agreements spend spent
spending amount amounts price prices unit units quantity qty vat tax supplier suppliers vendor vendors category
categories product products share trend growth per by
""".split())  # noqa: SIM905 - a word list reads better as text


def _queue_label(tag: str) -> bool:
    """Whether a bracketed ``tag`` reads as a queue or ticket label ("[AP-GBS]", "[SR524805]", "[EXT]", "[AP
    queue]"): no word any reader table knows, and one token, letters with digits, or queue words only."""
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", tag)]
    if any(w in _READER_WORDS for w in words) or _MEASURE.search(tag):
        return False
    tokens = tag.split()
    return len(tokens) == 1 or bool(re.search(r"[^\W\d_]", tag) and re.search(r"\d", tag)) or all(
        w in _QUEUE_WORDS for w in words)
#: Document ids of the product's own records: a number heading the message that is one of them is the ask's subject.
_OWN_DOCUMENT = re.compile(r"\b(?:inv|po|cn|crn|sup|comp|prd|pg|agr)\b", re.I)
#: A period inside a tag ("[Q1 2026]", "[FY25]"): a constraint, kept.
_PERIODISH = re.compile(r"\b(?:19|20)\d{2}\b|\b(?:q[1-4]|h[12]|fy|cy|ytd)\w*|\b(?:jan|feb|mar|apr|may|jun|jul|aug|"
                        r"sep|oct|nov|dec)[a-z]*\b", re.I)


def _reference(line: str, names: frozenset[str], *, first: bool) -> tuple[str, str] | None:
    """The reference heading ``line`` (forwarding marker, bracketed tag, ticket token) as (label, rest), or None.

    A reference says which thread or queue the message belongs to, never what is asked: it is set aside, unless it
    names something of the tenant, one of the product's own documents or a period. A forwarding marker is one only
    at the very start (``first``): after a greeting "re:" is "regarding" ("Hi, re: ticket 4821 - ...")."""
    for pattern, label in ((_FORWARDED, "forwarding marker"), (_TAG, "reference tag"),
                           (_TICKET_LEAD, "ticket reference")):
        found = pattern.match(line)
        if found is None or not _asks(line[found.end():]) or (label == "forwarding marker" and not first):
            continue
        shown = found.group(0).strip(" :-–—")
        if label == "reference tag" and not _queue_label(found.group("tag")):
            continue  # ("[posted only]", "[Top 5]": a constraint of the ask, left to the readers)
        if label != "forwarding marker" and (
                _OWN_DOCUMENT.search(shown) or _PERIODISH.search(shown) or _COMPANY_CODE.search(shown)
                or {w.lower().strip(".,'’()[]") for w in re.findall(r"[\w'’.&-]+", shown)} & names):
            continue
        if label == "ticket reference":
            shown = re.sub(r"^(?:ticket|case|incident|ref|reference|query|request|issue|jira)\.?\s*(?:no\.?|nr\.?|"
                           r"number|id|#|:)?\s*#?\s*", "", shown, flags=re.I)
            return f"{label} {shown}", line[found.end():]
        return f"{label} {shown!r}", line[found.end():]
    return None


def _purpose(segment: str, names: frozenset[str]) -> bool:
    """A purpose or occasion clause: "for the 13wk forecast", "ahead of the board meeting", "(cash call tmrw)"."""
    inner = segment.strip(" -–—")
    bracketed = inner.startswith("(") and inner.endswith(")")
    inner = inner.strip("() ")
    marker = _PURPOSE_MARKER.match(inner)
    if marker is None and not bracketed:
        return False
    body = inner[marker.end():] if marker else inner
    words = [re.sub(r"['’]s$", "", w) for w in _words(body)]  # ("this week's meeting": the week's occasion)
    if not words or len(words) > 6 or _constraint(body, names, horizon=True) or _MEASURE.search(body):
        return False
    while words and (words[-1] in _WHEN or words[-1] in _WHEN_JOINERS):
        words.pop()
    if marker and " ".join(marker.group("marker").lower().split()) in _TEMPORAL_MARKERS \
            and not (words and words[-1] in _MEETINGS):
        return False  # "approved before the month-end close": a time the ask may be filtered by
    return bool(words) and words[-1] in OCCASIONS and all(
        w in _PURPOSE_FILLER or w in OCCASIONS or w in _WHEN or _HORIZON.match(w) for w in words)


def _occasion_lead(segment: str, names: frozenset[str]) -> bool:
    """A lead naming the occasion without a marker: "cash requirement check -", "Monatsabschluss Liquidität:"."""
    words = _words(segment)
    return 2 <= len(words) <= 4 and words[-1] in OCCASIONS and not _constraint(segment, names) \
        and not _MEASURE.search(segment) and all(w in _PURPOSE_FILLER or w in OCCASIONS for w in words[:-1])


def _asks(text: str) -> bool:
    """Whether ``text`` still holds an ask: a number or a word of three letters (or an acronym) no envelope word."""
    return any(re.fullmatch(r"[^\W\d_]{3,}|[A-Z]{2}|.*\d.*", w) and w.lower() not in _ENVELOPE_WORDS
               for w in re.findall(r"[\w'’-]+", text))


def _lead(line: str, names: frozenset[str], aside: list[str], *, alone: bool = True) -> str:
    """``line`` without its leading envelope segments (handle, salutation, urgency, desk question, purpose)."""
    while True:
        handle = _HANDLE.match(line)
        if handle and _asks(line[handle.end():]):
            aside.append(f"chat handle {handle.group(0).strip(' ,:;-')!r}")
            line = line[handle.end():]
            continue
        # (a forwarding marker on the first of several lines heads a subject line: router/context_sentences.py)
        reference = _reference(line, names, first=not aside and alone)
        if reference is not None:
            aside.append(reference[0])
            line = reference[1]
            continue
        cut = _BOUNDARY.search(line)
        if cut is None or cut.start() == 0:
            return line
        segment, rest = line[:cut.start()], line[cut.end():]
        if not _asks(rest) or line[cut.start():cut.end()].strip().startswith(("?", ".")):
            return line
        vocative = _vocative(segment) and line[cut.start():cut.end()].strip().startswith(",")
        label = ("greeting" if _salutation(segment, names) or vocative else "urgency" if _urgency(segment)
                 else "addressed to" if _desk_question(segment)
                 else "purpose" if _purpose(segment, names) or _occasion_lead(segment, names) else None)
        if label is None:
            return line
        aside.append(f"{label} {segment.strip()!r}")
        line = rest


def read_envelope_lead(text: str, names: frozenset[str]) -> Envelope:
    """``text`` (one line) without its leading envelope segments; ``aside`` empty when it has none."""
    aside: list[str] = []
    rest = _lead(text, names, aside)
    return Envelope(rest if aside else text, tuple(aside))


#: A purpose marker that opens a clause without a separator before it ("... Q1 ahead of the board meeting").
_INLINE_PURPOSE = re.compile(
    r"\s(?=(?:ahead\s+of|in\s+time\s+for|(?:for|before)\s+(?:the|our|my|tomorrow's|next|this)|"
    r"für\s+(?:die|den|das|unsere[nm]?)|pour\s+(?:le|la|les|notre)|para\s+(?:el|la|nuestra|nuestro)|"
    r"per\s+(?:il|la|lo)|voor\s+(?:de|het|onze|ons))\s)", re.I)


#: Words after which an urgency word is what is asked about ("on priority", "flagged urgent", "are urgent").
_URGENCY_BINDERS = frozenset("""
on as by with of in at to for is are was were be been being marked flagged tagged labelled labeled set made
ist sind war waren als mit auf sont est comme en es son como con è sono come met op zijn is als
""".split())  # noqa: SIM905 - a word list reads better as text


_SOON = frozenset(("asap", "a.s.a.p"))


def _binds_urgency(before: str) -> bool:
    """Whether the text ``before`` an urgency word ends on a preposition, a verb or a participle."""
    last = re.findall(r"[^\W\d_]+", before)
    word = last[-1].lower() if last else ""
    return word in _URGENCY_BINDERS or (len(word) > 4 and word.endswith(("ed", "iert", "é", "ée", "és", "ées")))


#: The longest trailing segment read as envelope, in characters (a sign-off, a purpose clause, a closing).
_LONGEST_TAIL = 240
#: A sentence begun without the full stop before it: a capitalised word right after a word ("... with total Kindly
#: do the needful", "... 04/2026 Regards", "... only top 3 required Pls revert at the earliest"). Tried as the start of
#: a trailing segment only where all that follows is a closing, urgency or delivery sentence (no signature, no name).
_UNPUNCTUATED = re.compile(r"(?<=[^\W_]|[)'’])\s+(?=[A-Z][^\W\d_]*['’]?[^\W\d_]*(?:[\s,.!]|$))")


def _trailing_label(segment: str, names: frozenset[str], *, bare: bool) -> str | None:
    """What a trailing ``segment`` is (sign-off, urgency, delivery, purpose), or None; ``bare``: it follows the ask
    with no punctuation, so only envelope words are allowed (never a signature, which could be a name)."""
    if re.fullmatch(r"\([^()]*\)[.!]*", segment.strip()):
        return None if bare else "purpose" if _purpose(segment.strip(" .!"), names) else None
    if _closing(segment, names, signed=not bare):
        return "sign-off"
    if _urgency(segment):
        # (a lone "Priority", "Urgent" after the ask with no punctuation may be an invoice flag or a supplier tier:
        # it stays in the ask, as a lower-case one does; "asap" is never a figure)
        if bare and all(w in URGENCY and w not in _SOON for w in _words(segment)):
            return None
        return "urgency"
    if _deadline(segment.strip(" .!"), names):
        return "delivery"
    if bare:
        return None
    inner = segment.strip(" .!-–—")
    return "purpose" if _purpose(inner, names) or _occasion_lead(inner, names) else None


def _tail(line: str, names: frozenset[str], aside: list[str]) -> str:
    """``line`` without its trailing envelope segments (sign-off, chat closing, urgency, purpose)."""
    while True:
        stripped = line.rstrip()
        # a chat closing after the last word, with no separator ("... EUR total thx", "... by co pls ty")
        run = re.search(r"(?:\s+(?:[^\W\d_]+))+\s*[!.]*$", stripped)
        if run:
            tokens = run.group(0).split()
            k = len(tokens)
            while k > 0 and (tokens[k - 1].lower().strip("!.") in CHAT_CLOSINGS | URGENCY | _COURTESY):
                k -= 1
            # an urgency word without a separator goes only beside a closing word ("urgent thx", "asap pls"), and
            # never after a preposition, a verb or a participle ("on priority", "flagged urgent"): a constraint
            # ("asap" is a closing run word too: "Thanks, asap", "... March 2026 asap"; no figure is ever "asap")
            closes = any(t.lower().strip("!.") in CHAT_CLOSINGS | _COURTESY | _SOON for t in tokens[k:])
            while k < len(tokens) and tokens[k].lower().strip("!.") in URGENCY and (
                    not closes or _binds_urgency(tokens[k - 1] if k else stripped[:run.start()])):
                k += 1
            tail = tokens[k:]
            if tail and any(t.lower().strip("!.") in CHAT_CLOSINGS | URGENCY for t in tail):
                head = stripped[:len(stripped) - len(run.group(0))] + " " + " ".join(tokens[:k])
                if _asks(head) and not re.search(r"\b(?:thank|danke|merci|gracias|grazie)\s*$", head, re.I):
                    kind = "urgency" if all(t.lower().strip("!.") in URGENCY | _COURTESY for t in tail) \
                        else "sign-off"
                    aside.append(f"{kind} {' '.join(tail).rstrip('!.')!r}")
                    line = head.rstrip(" ,;:-–—")
                    continue
        cuts = list(_BOUNDARY.finditer(stripped))
        markers = list(_INLINE_PURPOSE.finditer(stripped))
        bare_cuts = {m.start() for m in _UNPUNCTUATED.finditer(stripped)}
        found = False
        # (the longest trailing segment first: "... ? I need it ahead of the board meeting." goes as one)
        for cut in sorted(cuts + markers + [m for m in _UNPUNCTUATED.finditer(stripped)], key=lambda m: m.start()):
            # (an envelope segment is short: cuts further back are never tried, so a long message costs linear time)
            if cut.end() >= len(stripped) or len(stripped) - cut.end() > _LONGEST_TAIL:
                continue
            segment, head = stripped[cut.end():], stripped[:cut.start()]
            sep = stripped[cut.start():cut.end()].strip()
            if not _asks(head) or head.count("(") > head.count(")"):
                continue  # (a cut inside brackets: the bracket is read whole below)
            bare = cut.start() in bare_cuts and not sep
            label = _trailing_label(segment, names, bare=bare)
            if label is None or (bare and label == "urgency" and _binds_urgency(head)) or (
                    bare and label == "delivery" and re.search(r"\b(?:as|of|at|on|per|by)\s*$", head, re.I)):
                continue  # ("invoices flagged Urgent", "numbers as of EOD": what is asked about)
            shown = segment.strip(' -–—?') if label == "purpose" else re.sub(r"^[^\w(]+", "", segment).rstrip(" ?")
            aside.append(f"{label} {shown!r}")
            keep = sep if sep and sep[0] in "?!." else "?" if segment.rstrip().endswith("?") else ""
            line = head.rstrip(" ,;:-–—") + keep
            found = True
            break
        if not found:
            # an occasion in brackets that closes the line: "... EUR (cash call tmrw)"
            bracket = re.search(r"\s*(\([^()]*\))[.!]*$", stripped)
            if bracket and _asks(stripped[:bracket.start()]) and _purpose(bracket.group(1), names):
                aside.append(f"purpose {bracket.group(1)!r}")
                line = stripped[:bracket.start()]
                continue
            return line


def _trailing_lines(lines: list[str], names: frozenset[str], aside: list[str]) -> list[str]:
    """The sign-off block at the end: a closing line and the signature lines after it, or a signature line alone."""
    while len(lines) > 1 and _DEVICE.match(lines[-1]):
        aside.append(f"signature {lines[-1].strip()!r}")
        lines = lines[:-1]
    for i in range(1, len(lines)):
        if not _closing(lines[i], names):
            continue
        after = lines[i + 1:]
        if all(_signature(x) or _CONTACT.search(x) for x in after) and not any(
                _constraint(_CONTACT.sub("", x), names) for x in after):
            aside.append(f"sign-off {' / '.join(x.strip() for x in lines[i:])!r}")
            return lines[:i]
    last = lines[-1] if len(lines) > 1 else ""
    if last and re.search(r"\(|/", last) and _signature(last) and not _constraint(last, names) \
            and not _MEASURE.search(last):
        aside.append(f"signature {last.strip()!r}")  # "Jana / SSC Leipzig", "T. Huber (SSC Wien)"
        return lines[:-1]
    return lines


def _run_on_greeting(line: str, names: frozenset[str], aside: list[str]) -> str:
    """A salutation run on into the ask with no separator ("hi all Quick one: ...", "hello team Could you ..."): the
    lower-case greeting words up to the first capitalised word, which opens the ask."""
    words = line.split(" ")
    for n in range(min(4, len(words) - 1), 0, -1):
        prefix, rest = " ".join(words[:n]), " ".join(words[n:])
        if words[n][:1].isupper() and all(w[:1].islower() for w in words[:n]) and _salutation(prefix, names) \
                and _asks(rest):
            aside.append(f"greeting {prefix!r}")
            return rest
    return line


def _closing_before_signature(lines: list[str], names: frozenset[str], aside: list[str]) -> list[str]:
    """A closing at the end of the ask's line with the signature lines below it ("... with? Many thanks in advance,"
    / "Anna Weber" / "Executive Assistant to the COO")."""
    block = len(lines)
    while block > 1 and len(lines) - block < 3 and _signature(lines[block - 1]) and not _constraint(
            lines[block - 1], names) and not _MEASURE.search(lines[block - 1]):
        block -= 1
    if block == len(lines) or block == 0:
        return lines
    found: list[str] = []
    head = _tail(lines[block - 1], names, found)
    if not any(f.startswith("sign-off") for f in found) or head.rstrip()[-1:] not in "?.!":
        return lines  # (the closing follows the ask's last sentence: "... many" would be left of "many thanks")
    aside.extend(found)
    aside.append(f"signature {' / '.join(x.strip() for x in lines[block:])!r}")
    return [*lines[:block - 1], head]


def read_envelope(message: str, names: Iterable[str] | frozenset[str] = frozenset()) -> Envelope:
    """The ask of ``message`` with its envelope set aside; ``names``: the distinctive words of the tenant's names.

    >>> read_envelope("Liebe Kollegen,\\nSpend Company A, April 2026\\nlg aus Graz")
    Envelope(text='Spend Company A, April 2026', aside=("greeting 'Liebe Kollegen'", "sign-off 'lg aus Graz'"))
    >>> read_envelope("need asap: Company A total Q1 2026 in EUR - for the 13wk forecast").text
    'Company A total Q1 2026 in EUR'
    >>> read_envelope("Company A spend Q1 2026? ty").text
    'Company A spend Q1 2026?'
    >>> read_envelope("Company A spend Q1 2026")
    Envelope(text='Company A spend Q1 2026', aside=())
    """
    known = names if isinstance(names, frozenset) else frozenset(names)
    lines = [x.strip() for x in message.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    lines = [x for x in lines if x]
    aside: list[str] = []
    if not lines:
        return Envelope(message, ())
    # a salutation on its own line above the ask
    while len(lines) > 1 and (_salutation(lines[0].rstrip(",!:;. "), known) or _urgency(lines[0])):
        label = "greeting" if _salutation(lines[0].rstrip(",!:;. "), known) else "urgency"
        aside.append(f"{label} {lines[0].rstrip(',!:;. ')!r}")
        lines = lines[1:]
    lines = _trailing_lines(lines, known, aside)
    lines = _closing_before_signature(lines, known, aside)
    lines = [_lead(_run_on_greeting(lines[0], known, aside), known, aside, alone=len(lines) == 1), *lines[1:]]
    # a closing or a purpose sentence on a line of its own above the signature ("Thank you very much in advance.")
    while len(lines) > 1 and (_closing(lines[-1], known) or _purpose(lines[-1].rstrip(" .!"), known)):
        aside.append(f"{'sign-off' if _closing(lines[-1], known) else 'purpose'} {lines[-1].strip()!r}")
        lines = lines[:-1]
    lines = [*lines[:-1], _tail(lines[-1], known, aside)]
    lines = [x for x in (y.strip() for y in lines) if x]
    if not aside or not lines or not _asks(" ".join(lines)):
        return Envelope(message, ())
    return Envelope("\n".join(lines), tuple(aside))
