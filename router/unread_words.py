"""The unread-word invariant: a figure is never presented as complete while a content word of the question was not
read.

Most silent wrongs have one shape: a word no reader knew ("classement des 2 premiers", "3. kvartal 2025", "poids de
X dans le total", "kwiecien 2026") was skipped, and the figure of the broader question left over was presented as
the answer. Each reader records the spans it consumed (``Reading.consumed``, the analysis and breakdown spans); a
word outside all of them is either a word the writer may add without a constraint ("please", "overall",
"dashboard": an everyday word) or a word nobody read. So before a figure, list or ranking is answered, the words of
the question as routed are checked once more. A word of three or more letters, outside every consumed span, that is
no function word (:data:`FUNCTION_WORDS`, several languages), no filler word (:data:`FILLER_WORDS`), no general
word (``router/data/english_words.txt``, the shipped English word list), no word the readers' own tables spell
(router/vocabulary.py) and no word of the tenant's names is named back as not understood, and so is a narrowing
word no reader consumed (a restriction, a status, a share, ranking or period word: :func:`narrowing_words`, even
where a table spells it) and a word right before a kind noun no reader consumed ("domestic suppliers"); the
answer is marked PARTIAL: the figure stays, with the words it does not apply (router/ap_fields.py's marking; no
data, not found and clarifications keep their status and carry the note). Words set aside before reading
(greetings, signatures, instructions: router/context_noise.py, router/envelope.py) and words a reader rewrote into
English never reach this check.

The check is one of shape, not of training strings: any word in any language the system has no table for is
caught, and any everyday English word passes (precision over recall: a correct figure should not be marked partial
because the writer said "kindly").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from pathlib import Path
from typing import Any

from router.contract import Constraints
from router.edits import without_diacritics

#: Function words of the languages the writers mix in (articles, prepositions, pronouns, conjunctions, courtesy and
#: question words): they carry no constraint, in any position. Content words (months, quarters, "rank", "weight")
#: are never listed here: an unread one is exactly what the invariant names.
FUNCTION_WORDS: frozenset[str] = frozenset("""
the and for with from into onto per via than then that this these those there here what which who whom whose how
when where why any all each every some our ours your yours their theirs its his her him she they them you we
was were are is been being have has had does did done can could would should shall will may might must let lets
pls plz thx thanks thank cheers kindly please hello dear regards best also just only still even yet too very
asap fyi eod eow cob tia aob pfa fwd tks tnx thks poss
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

#: Words that ask, point or restate without narrowing the figure, in the languages the writers mix in: verbs of
#: asking and showing ("peux-tu me sortir", "kannst du", "kunt je geven"), "all / whole / each", relative
#: pronouns, the participles of receiving and invoicing that every spend question implies, the nouns of a month
#: or a year beside a named one ("le mois de janvier"), and the abbreviations of a report's layout (sort order,
#: dimensions, rows). A word that narrows is never listed here: no ranking, weight, quarter or subgroup, no
#: restriction word ("seulement", "nur", "alleen", "tylko": only what?) and no status participle ("paye",
#: "annule", "bezahlt", "betaald", "zaplacone": a status the figure must apply).
FILLER_WORDS: frozenset[str] = frozenset("""
peux pouvez pourriez pourrais peut sortir donner donne donnez montrer montre montrez afficher affiche envoyer envoie
voir indiquer indique fournir fournis merci tout toute tous toutes entier entiere entiers lesquelles lesquels
laquelle lequel celles ceux celle celui numero numeros recu recus recue recues facture factures depense depenses
rapporte correspond corresponde corresponden corrisponde pertenece pertence refiere refere riferisce initiale
inicial iniziale puedes podrias
dame dime mostrar muestra enviar todo toda todos todas entero recibido recibidos
puoi potresti dammi mostra mostrami inviare tutto tutta tutti tutte intero ricevuto ricevuti kannst koennen konnen
koenntest zeig zeige zeigen gib geben schick alle alles ganz ganze gesamt gesamte erhalten erhaltene kunt kunnen
geef geven laat laten toon stuur heel hele ontvangen mozesz mozecie pokaz pokazac podaj podac wyslij caly cala cale
calego wszystkie wszystko otrzymane kan kunne visa vise ge giv gi skicka send hela hele helt alla alle modtaget
mottatt mottagna month months mois maand maanden monat monate mes meses mese mesi miesiac miesiace manad manader
maned maneder year annee annees jaar jahr ano anos anno rok roku aret asc desc ascending descending dims dim
dimension biz rows row cols col
""".split())  # noqa: SIM905 - a word list reads better as text

#: The closed word classes of the languages users write in (English, Spanish, Portuguese, French, German, Italian,
#: Dutch, Polish, Czech, Romanian, Turkish, Swedish, Danish, Norwegian), beyond :data:`FUNCTION_WORDS` and
#: :data:`FILLER_WORDS`: what is never the name of a company, supplier, product group or product. One table, by
#: class. An unread span made only of such words ("pueden pasar", "produto teve mais", "Te pido", "e-mail says") is
#: ordinary language the readers did not take, never an unknown name to ask about (router/name_slots.py): it is
#: read ("function": it carries no constraint) or named on a PARTIAL answer (every other class: a verb, a
#: quantity or a time unit may carry the constraint the figure left out). Stored as written; compared accent-free.
CLOSED_CLASS_WORDS: dict[str, frozenset[str]] = {
    # articles, prepositions, conjunctions, pronouns, possessives, auxiliaries, question and courtesy words
    "function": frozenset("""
    a an of to in on at by as is it be or if so am i me my us we he him his she her its they them our ours your
    about above after along among around before behind below beside between beyond during inside into near onto
    out outside over past since through till toward towards under until upon within whether such either neither
    do does did done be been being having would will shall should could might must ok okay yes hi hey dear
    el la lo los las un una unos unas al del de en con por para sobre entre hasta desde hacia segun según durante y
    o u ni pero que qué cual cuál cuales cuáles cuanto cuánto cuanta cuánta cuantos cuántos cuantas cuántas como
    cómo donde dónde cuando cuándo quien quién quienes porque yo tu tú usted ustedes nosotros nosotras ellos ellas
    él ella me te se nos os le les mi mis su sus tus este esta estos estas ese esa esos esas aquel aquella esto eso
    es son fue fueron era eran ser estar está están estaba estuvo ha han hay había hemos habían tiene tienen
    tenemos tuvo tuvimos ya muy también aun aún todavía así aquí allí buen buenos buenas buena dia día va vamos
    os as um uma uns umas do da dos das no na nas ao aos à às pelo pela pelos pelas em com até e ou mas qual quais
    quantos quantas onde quem eu você vocês nós eles elas ele lhe lhes meu minha meus minhas seu sua seus suas
    nosso nossa nossos nossas estes esse essa esses essas isto isso aquilo é são foi foram eram está estão estava
    tem têm temos teve tiveram tinha houve há pode podem podemos poderia já muito ainda aqui ali olá oi bom boa
    tudo bem le l du au à dans sous vers chez depuis pendant et donc car quoi quel quelle quels quelles quand
    comment combien où pourquoi je il on ils moi toi lui ce cet ceci cela ça était étaient été être avoir ai avons
    avez avait eu fait faire peut peuvent pouvons y très aussi encore déjà ici là salut ein einen einem einer eines
    aber denn sondern dass daß ob wenn als wen wem wessen wo wann warum wieso weshalb welchen welchem ich du er sie
    es wir ihr mich mir dich dir ihn ihm uns euch ihnen sich mein meine meinen meinem meiner dein sein seine ihre
    unseren unserem euer im ins an am auf zu über unter vor hinter neben zwischen durch gegen um je laut lt ist
    sind war waren gewesen hat haben hatte hatten habe wird werden wurde wurden worden kann können konnte könnten
    soll sollen muss müssen darf hallo moin servus noch schon sehr ja doch mal eigentlich genau dann also il gli
    di da su tra fra dello della dei degli delle allo alla ai agli alle dalla dai nel nei negli nelle sul sulla sui
    ed od ma chi cui come dove perché perche io lei noi voi loro ti si ci vi mio mia miei mie tuo suo nostri
    nostre vostro questo questa questi queste quello quella è sono stato stata essere hanno abbiamo avuto avere
    può possono potete anche già ancora qui buongiorno op aan uit om onder dat dit deze wie welk waar wanneer
    waarom ik jij je hij zij ze mij mijn jouw zijn haar hun geweest heeft hebben hadden zou zouden moet moeten ook
    nog al erg hoi er daar w we z ze na do od za dla po pod nad przed między miedzy przy i oraz że ze co kto który
    która które gdzie kiedy dlaczego ja ty ona ono my wy oni one mnie nam był była było byli były być ma mają
    mieć może mogą można witam dzień dzien dobry też tez także takze już juz jeszcze bardzo tak v ve přes pres pro
    mezi při pri nebo ale že kdo jaký jaký jaká jaké kde kdy proč proc mě nás náš naše naši můj moje jsou byl
    bylo být má mají mít může mohou můžete prosím prosim děkuji dekuji dobrý den ahoj si také uz už ještě velmi
    în din cu pe pentru prin spre despre până pana între intre și si sau dar că ca ce cine care cum unde când cand
    eu el ea noi voi ei ele mă ne nostru noastră noastra noștri nostri meu mea este sunt erau fost fi au avem
    avut pot puteți puteti vă rog mulțumesc multumesc bună buna ziua deja încă foarte ale unui unei ve veya ya
    ama ile için icin mı mu mü neler kim hangi kaç kac nasıl nasil nerede neden ben sen biz siz onlar bizim bu şu
    su bunlar bir lütfen lutfen teşekkürler tesekkurler merhaba selam olan oldu olarak og men att at vad hva hvad
    vilket hvilket hvor när når varför hvorfor jag jeg han hon hun dem oss mig meg dig deg vårt vor vort min mitt
    mina din ditt sitt är er varit vara være har hade havde hadde ha kunde ska skal skulle på av af till från med
    om över mellan mellem mellom hos efter etter takk hei också også ju jo nog
    """.split()),  # noqa: SIM905 - a word list reads better as text
    # verbs of asking, sending, showing, knowing, saying, buying, paying, spending and changing, and the words of
    # certainty a reviewer checks a figure with: what every question does, never whom it is about
    "verb": frozenset("""
    know knew known say says said tell told think thought heard hear ask asked asking need needs needed want wants
    wanted like check checking verify confirm confirmed see show send give get got buy bought purchase pay paid
    spend spent cost change changed vary varied compare sure unsure correct right wrong accurate true false mean
    means meant seem seems look looks help quoted stated claims claimed reported
    pido pedir pedimos puedo pueden puedes podrían podrias podrías pasar pasame pásame pasarme pasen mandar mandame
    mándame enviar envíame enviame dar decir saber sé sabes necesito necesitamos quiero queremos quisiera compramos
    compré compro compró comprado compra compras comprar gastamos gastó gastado gastos gasto pagamos pagó pagar
    pago facturado facturó facturamos cambió cambio cambiar varió subió bajó ver mirar revisar confirmar confirma
    armar peço preciso precisamos quero gostaria poderia passar manda envia diga dizer sei sabe comprei comprou
    gastou pagou faturado faturou faturamos mudou mudar variou variar subiu caiu conferir verificar voudrais
    voulons veux savoir sais dire dis acheté achete achetés achetes payer dépensé depense facturé facture changé
    varié évolué evolue faut besoin vérifier verifier confirmer brauche brauchen bräuchte möchte möchten wüsste
    wissen weiß weiss sagen sag schicken kaufen gekauft eingekauft zahlen gezahlt ausgegeben ausgeben kostet
    gekostet geändert verändert gestiegen gesunken prüfen bestätigen stimmt vorrei vogliamo dare inviare mandare
    mostrare sapere dire comprato acquistato acquistati pagare speso spendere fatturato cambiato variato aumentato
    verificare confermare wil willen zou geef stuur sturen zien weten zeggen gekocht kopen betalen uitgegeven
    gefactureerd veranderd gestegen gedaald controleren bevestigen potrzebuję potrzebuje chcę chce chciałbym
    chcialbym podaj podać pokaż pokaz wyślij wiedzieć kupiliśmy kupilismy kupione zapłaciliśmy zaplacilismy
    wydaliśmy wydalismy wydano zafakturowane zmienił zmienilo zmieniło sprawdzić sprawdzic potwierdzić potwierdzic
    potřebuji potrebuji chci chtěl chtěla pošlete posli pošli ukažte ukaž dejte vědět vedet koupili nakoupili
    zaplatili utratili fakturováno změnilo zmenilo ověřit overit potvrdit vreau doresc aș putea trimite trimiteți
    arată arata spune știu stiu cumpărat cumparat plătit platit cheltuit facturat schimbat verifica confirma
    istiyorum lazım lazim gerek gönder gonder göster goster söyle soyle biliyorum aldık aldik satın satin ödedik
    odedik ödenen odenen harcadık harcadik değişti degisti kontrol teyit vill ville behöver behover behøver
    trenger skicka sende visa vise gi giv veta vite vide köpt kopt kjøpt kjopt købt kobt spenderat brukt brugt
    fakturerat fakturert faktureret ändrats endret ændret kontrollera bekräfta bekrafta bekreft
    """.split()),  # noqa: SIM905 - a word list reads better as text
    # quantity, degree and measure words: what a figure is (more, the most, none, the amount), never whose
    "quantity": frozenset("""
    more most less least much many few fewer amount amounts sum sums value values figure figures number numbers
    count whole entire single overall top bottom highest lowest biggest largest smallest half
    baseline concentration addressable pareto distribution trend variance benchmark breakdown split mix profile
    overview summary snapshot analysis cumulative concentración concentração konzentration concentrazione
    concentratie koncentracja koncentrace tendencia tendência tendance tendenza analyse análisis análise analisi
    más mas menos mayor menor mucho mucha muchos muchas poco pocos cantidad monto importe suma valor ninguna
    ninguno ningún ningun algún algun alguna algunos algunas cada mais maior muitos pouco quantidade montante
    nenhum nenhuma algum cada plus moins beaucoup peu montant somme valeur aucun aucune chaque mehr meisten meiste
    weniger wenigsten viel viele wenig betrag summe wert anzahl jeder jede jedes più piu meno molti importo somma
    valore nessun nessuna ogni meer meest minder minst veel weinig bedrag som waarde elke ieder więcej wiecej
    najwięcej najwiecej mniej najmniej dużo duzo mało malo kwota wartość wartosc każdy kazdy żaden zaden více vice
    nejvíce nejvice méně mene nejméně nejmene hodně hodne málo částka castka hodnota každý žádný zadny mai multe
    mult puțin putin cel cea cei cele sumă valoare fiecare niciun daha en çok cok az tutar toplam değer deger her
    hiç hic mer mest mindre mycket mange många manga lite belopp beløb belob beløp belop summa värde varde verdi
    hver varje
    """.split()),  # noqa: SIM905 - a word list reads better as text
    # states of a document and the words of how it came about ("ya está pagado", "está vencido", "acumulado"): a
    # status or a period the figure may have to apply, never a name
    "status": frozenset("""
    open opened unpaid outstanding pending overdue due cumulative accumulated cumulated vencido vencidos vencida
    vencidas pendiente pendientes abierto abiertos abierta abiertas acumulado acumulada acumulados pendente
    pendentes aberto abertos aberta abertas acumulada acumulados ouvert ouverte ouverts ouvertes échu échue échus
    échues impayé impayée impayés cumulé cumulée cumulés offen offene offenen fällig überfällig kumuliert
    kumulierte aperto aperti aperta scaduto scaduti scaduta cumulato cumulativo openstaand openstaande vervallen
    cumulatief otwarte niezapłacone przeterminowane narastająco otevřené neuhrazené splatné deschis deschise
    restant restante açık acik vadesi ödenmemiş öppen öppna förfallen obetald åben forfalden ubetalt åpen
    forfalt
    """.split()),  # noqa: SIM905 - a word list reads better as text
    # units of time: how long or which part of a period, never a name ("wie viele Tage", "combien de jours")
    "time": frozenset("""
    day days week weeks month months year years quarter quarters día días dia dias semana semanas mes meses año
    años ano anos trimestre trimestres mês jour jours semaine semaines mois an ans année années annee annees tag
    tage tagen woche wochen monat monate monaten jahr jahre jahren quartal quartale giorno giorni settimana
    settimane mese mesi anno anni dag dagen week weken maand maanden jaar jaren kwartaal dni tydzień tydzien
    miesiąc miesiac miesiące miesiace rok lata kwartał kwartal dny týden tyden měsíc mesic měsíce mesice roky zi
    zile săptămână saptamana lună luna luni ani trimestru gün gun hafta ay yıl yil çeyrek ceyrek dagar dage dager
    vecka veckor uke uker uge uger månad manad måned maned år kvartal
    """.split()),  # noqa: SIM905 - a word list reads better as text
    # nouns of a record or message a question refers to ("on a single line", "the e-mail says"), and of the kinds
    # of thing it is about ("productos por gasto", "grupo de produto"): a kind, never its name
    "record": frozenset("""
    line lines row rows entry entries record records document documents transaction transactions booking bookings
    email e-mail mail message note slide deck report sheet spreadsheet file
    product products producto productos produto produtos produit produits produkt produkte prodotto prodotti
    produkten produkty produktu výrobek vyrobek výrobky produs produse ürün urun ürünler urunler produkter group
    groups grupo grupos groupe groupes gruppe gruppen gruppo gruppi groep groepen grupa grupy skupina skupiny grup
    grupuri gruplar grupp grupper category categories categoría categoria categorías categorias catégorie
    categorie kategorie kategoria kategorien kategori company companies empresa empresas entreprise société
    societe firma unternehmen azienda società bedrijf spółka spolka společnost spolecnost companie şirket sirket
    företag foretag selskab selskap
    """.split()),  # noqa: SIM905 - a word list reads better as text
}


@lru_cache(maxsize=1)
def _closed_classes() -> dict[str, frozenset[str]]:
    """:data:`CLOSED_CLASS_WORDS` accent-free, with the function and filler words of this module in "function"."""
    classes = {k: frozenset(_plain(w) for w in ws) - _NEVER_PLAIN for k, ws in CLOSED_CLASS_WORDS.items()}
    # (the status participles of this module are states too: "pagado", "bezahlt", "annulé")
    classes["status"] = classes["status"] | {_plain(w) for w in STATUS_PARTICIPLES}
    classes["function"] = classes["function"] | ({_plain(w) for w in (*FUNCTION_WORDS, *FILLER_WORDS)} - _NEVER_PLAIN)
    return classes


#: Negation and exclusion words: a closed class too, but one that turns a name after it into a constraint ("sin
#: Beta", "ohne Gamma"); never read as plain language here, whichever table spells them.
_NEVER_PLAIN = frozenset("""
no not non nicht kein keine keinen pas ne nie nu geen ingen sin sans senza zonder ohne bez utan uden uten sem
except without excluding excl hors sauf degil değil
""".split())  # noqa: SIM905 - a word list reads better as text


def closed_class(word: str) -> str | None:
    """The closed class of ``word`` ("function", "verb", "quantity", "status", "time", "record"), any case or
    accents, or None.

    >>> closed_class("Te"), closed_class("compramos"), closed_class("más"), closed_class("Tage"), closed_class("Zorbix")
    ('function', 'verb', 'quantity', 'time', None)
    """
    plain = _plain(word)
    # the classes that may narrow first: "más" is Spanish "more" before it is Portuguese "but"
    classes = _closed_classes()
    return next((k for k in _NARROWING_FIRST if plain in classes[k]), None)


_NARROWING_FIRST = ("quantity", "status", "time", "verb", "record", "function")


_TOKEN = re.compile(r"(?<![\w])[^\W\d_]+(?:['’][^\W\d_]+)?(?![\w])")
_WORD = re.compile(r"[^\W\d_]{3,}")


def _plain(word: str) -> str:
    """``word`` casefolded without accents: the form the word lists hold ("données" -> "donnees")."""
    return without_diacritics(word.casefold()).replace("ł", "l")


#: Readers beyond router/vocabulary.py's list whose tables spell words of a question ("dup", "overdue", "whole grp"):
#: a word any of them reads is known here.
_MORE_READERS = (
    "router.agreement_clauses", "router.approval_synonyms", "router.approval_validity", "router.approval_windows",
    "router.as_at", "router.catalog_asks", "router.catalog_relations", "router.company_compare", "router.company_lists",
    "router.company_set", "router.comparison_words", "router.count_asks", "router.counts", "router.currency",
    "router.currency_counts", "router.currency_lists", "router.cutoff", "router.date_order", "router.derived",
    "router.described_products", "router.document_asks", "router.document_notation", "router.document_nouns",
    "router.document_scopes", "router.duplicates", "router.elliptic", "router.envelope", "router.first_time",
    "router.group_lists", "router.group_only", "router.group_scope", "router.group_spend", "router.group_unions",
    "router.idle_vendors", "router.injection", "router.invoice_facts", "router.like_patterns", "router.list_prices",
    "router.list_totals", "router.listings", "router.month_years", "router.name_cues", "router.net_change",
    "router.netted_documents", "router.off_contract", "router.open_amount", "router.open_reading", "router.overdue",
    "router.per_item", "router.period_grammar", "router.period_leftovers", "router.period_ranking", "router.preamble",
    "router.price_asks", "router.price_rankings", "router.product_models", "router.run_rate", "router.scope",
    "router.sole_products", "router.status_counts", "router.supplier_activity", "router.supplier_gloss",
    "router.tenant_scope",
    "router.thresholds", "router.tool_syntax", "router.unapplied_limits", "router.unit_prices", "router.unknown_names",
)


#: Words that restrict a set to a part of it ("only", "seulement", "nur", "alleen", "tylko"): never a general word,
#: even where a word list spells them ("solo", "kun"); read only where a reader consumed them ("invoices only").
RESTRICTION_WORDS: frozenset[str] = frozenset("""
only solely exclusively seulement uniquement seul seule solo sola solos solas solamente unicamente soltanto
unicamente nur ausschliesslich alleen enkel uitsluitend tylko wylacznie jedynie endast bara enbart kun alene
""".split())  # noqa: SIM905 - a word list reads better as text

#: Participles of a status ("paye", "annule", "bezahlt", "betaald", "zaplacone"): a status the figure must apply,
#: never a general word, a slip of a function word ("bara" para) or a cognate ("payes" payee).
STATUS_PARTICIPLES: frozenset[str] = frozenset("""
paye payes regle regles annule annules annulee annulees bezahlt bezahlte storniert betaald betaalde
geannuleerd zaplacone zaplacono zaplacona anulowane pagado pagados pagada pagadas anulado anulada pagato pagati
pagata pagate annullato annullata betalt betalda betalade annullerad
""".split())  # noqa: SIM905 - a word list reads better as text

#: The auxiliaries and subject pronouns a participle is a verb after ("on a payé", "il annule", "hat bezahlt"): the
#: verb of what was paid, not a status of the documents.
_AUXILIARIES: frozenset[str] = frozenset("""
a ai as avons avez ont il elle on hat habe haben habt heeft hebben hebt heb ha han hemos ho hanno abbiamo har
""".split())  # noqa: SIM905 - a word list reads better as text

#: Distributive suffixes written as a word of their own ("supplier wise", "category-wise", "month wise"): a breakdown
#: by the noun before, never an everyday word ("wise" is one in the word list); read only where a breakdown reader
#: consumed it, else named with its noun (a total answered for "supplier wise summary" would drop the breakdown).
DISTRIBUTIVE_WORDS: frozenset[str] = frozenset(("wise", "weise"))

#: Words never read by a slip or a cognate: only a reader consuming them reads them.
_NEVER_NEAR = RESTRICTION_WORDS | STATUS_PARTICIPLES | DISTRIBUTIVE_WORDS

#: The nouns of a kind of record: a word right before one that no reader consumed ("domestic suppliers", "strategic
#: vendors", "recurring invoices") restricts the set, an everyday English word or not, and is named.
#: Plural only: a singular kind noun is mostly a compound's first word ("invoice count", "supplier share").
KIND_NOUNS: frozenset[str] = frozenset("""
suppliers vendors invoices products lines items documents
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words before a kind noun that count or point without restricting ("how many suppliers", "distinct vendors").
_KIND_COUNTERS: frozenset[str] = frozenset("""
many much number count distinct different unique individual separate various several total amount list listed
""".split())  # noqa: SIM905 - a word list reads better as text


@lru_cache(maxsize=1)
def narrowing_words() -> frozenset[str]:
    """The words a table spells that narrow the figure where a reader takes them: restriction words, status
    participles and the foreign words of a share, a ranking or a period unit ("osuus", "classement", "kvartaali"),
    accent-free. Such a word is read only where a reader consumed it in the question (its span is recorded), and
    named where none did: a table spelling it is no proof it was applied. (English words stay general words.)"""
    from router.foreign_words import RANKING_NOUNS, SHARE_NOUNS, STATUS_ADJECTIVES, STATUS_WORDS
    from router.period_words import _UNITS

    foreign = {_plain(w) for w in (*SHARE_NOUNS, *RANKING_NOUNS, *STATUS_ADJECTIVES, *_UNITS,
                                   *(w for words in STATUS_WORDS.values() for w in words)) if " " not in w}
    # (a period word is consumed with its period: "2. kvartaali 2025" read is a span, "kvartaali" alone is not)
    return frozenset(_NEVER_NEAR | (foreign - _english_words() - FILLER_WORDS - FUNCTION_WORDS))


@lru_cache(maxsize=1)
def _english_words() -> frozenset[str]:
    path = Path(__file__).resolve().parent / "data" / "english_words.txt"
    return frozenset(w.strip() for w in path.read_text(encoding="utf-8").splitlines()
                     if w.strip() and not w.startswith("#"))


@lru_cache(maxsize=1)
def table_words() -> frozenset[str]:
    """The words the readers' own tables spell (router/vocabulary.py's readers and the typo targets), accent-free:
    a word of a reader's domain, never a restriction a kind noun is narrowed by."""
    from router.vocabulary import TYPO_TARGETS, reader_words

    return frozenset(_plain(w) for w in (*reader_words(3), *TYPO_TARGETS))


@lru_cache(maxsize=1)
def general_words() -> frozenset[str]:
    """The general words no constraint hides in: the shipped English word list, the common-word list, the words the
    readers' tables spell (router/vocabulary.py), the function and filler words and the chat words of
    router/envelope.py ("gimme", "ballpark"), all accent-free; never a narrowing word (:func:`narrowing_words`)
    ("osuus", "betaald", "seulement"), which is read only where a reader consumed it."""
    from router.envelope import CHAT_WORDS
    from router.vocabulary import KNOWN_WORDS, common_words, spelled_words

    words = set(_english_words())
    # (the readers' words of three letters and more: "vat", "eur", "incl", "mois" are read by some table)
    words |= {_plain(w) for w in (*common_words(), *spelled_words(_MORE_READERS, 3), *table_words(), *KNOWN_WORDS,
                                  *FUNCTION_WORDS, *FILLER_WORDS, *CHAT_WORDS)}
    return frozenset(words - narrowing_words())


#: Where a message's sentences end: a sentence that names nothing the reader read (no name, period, amount, id) is
#: the writer's context ("Asap if poss.", "This is for the CFO."), never a constraint of the figure.
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|:\s+|\n+")
#: A gloss right after a word: "czujniki (sensors)", "korekta (credit note)": the writer translated the word.
_GLOSS = re.compile(r"\s*\(([^()]{1,60})\)")


def _sentences(text: str, consumed: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans of ``text`` whose words are checked: every sentence that overlaps a consumed span (all of ``text``
    when it is one sentence or no sentence does)."""
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(text)), len(text)]
    spans = [(a, b) for a, b in pairwise(cuts) if b > a]
    read = [(a, b) for a, b in spans if any(s < b and a < e for s, e in consumed)]
    return read if len(spans) > 1 and read else [(0, len(text))]


@lru_cache(maxsize=1)
def _function_words_by_length() -> dict[int, tuple[str, ...]]:
    """:data:`FUNCTION_WORDS` by length: a slip is within one letter of its word's length."""
    by_length: dict[int, list[str]] = {}
    for word in sorted(FUNCTION_WORDS):
        by_length.setdefault(len(word), []).append(word)
    return {n: tuple(ws) for n, ws in by_length.items()}


@lru_cache(maxsize=4096)
def _slip_of_function_word(plain: str) -> bool:
    """Whether ``plain`` is a function word typed with one slip ("teh", "wich", "whcih"): two neighbours swapped
    in a three-letter word, any one edit from a function word of four letters or more."""
    from router.edits import typo_targets

    if plain in narrowing_words():
        return False
    by_length = _function_words_by_length()
    if len(plain) == 3:
        return any(sorted(plain) == sorted(f) for f in typo_targets(plain, by_length.get(3, ())))
    near = [w for n in (len(plain) - 1, len(plain), len(plain) + 1) if n >= 4 for w in by_length.get(n, ())]
    return bool(typo_targets(plain, near))


@lru_cache(maxsize=1)
def _domain_words() -> dict[int, tuple[str, ...]]:
    """The English words of the domain the readers spell (5+ letters), by length: the words a cognate is read as."""
    from router.vocabulary import TYPO_TARGETS, reader_words

    path = Path(__file__).resolve().parent / "data" / "english_words.txt"
    english = {w.strip() for w in path.read_text(encoding="utf-8").splitlines() if not w.startswith("#")}
    by_length: dict[int, list[str]] = {}
    for word in sorted(w for w in {*reader_words(), *TYPO_TARGETS} if len(w) >= 5 and w in english):
        by_length.setdefault(len(word), []).append(word)
    return {n: tuple(ws) for n, ws in by_length.items()}


@lru_cache(maxsize=4096)
def _cognate(plain: str) -> bool:
    """Whether ``plain`` is one edit from an English word of the domain ("groupe" group, "contrat" contract): the
    same word in the writer's spelling, read by the reader of the English one."""
    from router.edits import typo_targets

    if len(plain) < 5 or plain in narrowing_words():
        return False
    by_length = _domain_words()
    return bool(typo_targets(plain, [w for n in (len(plain) - 1, len(plain), len(plain) + 1)
                                     for w in by_length.get(n, ())]))


def _known_gloss(text: str, end: int, known: frozenset[str], named: set[str]) -> bool:
    """Whether a word ending at ``end`` is glossed by known words in brackets right after it."""
    gloss = _GLOSS.match(text, end)
    words = [_plain(w) for w in _WORD.findall(gloss.group(1))] if gloss else []
    return bool(words) and all(w in known or w in named for w in words)


@lru_cache(maxsize=1)
def constraint_words() -> frozenset[str]:
    """The one-word exclusion verbs, statuses and restriction words of router/context_clauses.py beyond its shape
    filter words ("skip", "reversed", "unapproved"): everyday English, yet each narrows the figure, so an unconsumed
    one is never passed as a general word ("as we skip the reversed documents" is named back, never answered as all
    documents)."""
    from router.context_clauses import CONSTRAINT_WORDS, shape_filter_word

    # (the filter words the clause reader always kept, "paid", "open", "excluding", are read by the readers where
    # they stand; "not" is everywhere)
    return frozenset(_plain(p) for phrases in CONSTRAINT_WORDS.values() for p in phrases
                     if " " not in p and "'" not in p and p != "not" and not shape_filter_word(p))


#: The prepositions of a name slot ("spend with X", "invoices from X"), in the writers' languages.
_NAME_SLOT_WORDS = frozenset({"with", "from", "con", "com", "bei", "chez", "avec", "mit", "von", "van", "met"})
NAME_SLOT_WORDS = _NAME_SLOT_WORDS
#: What ends a name slot without naming anyone: pronouns, quantifiers and courtesy ("with them", "from all", "with
#: thanks").
_SLOT_OBJECTS = frozenset({"them", "us", "it", "me", "you", "him", "her", "whom", "which", "what", "who", "all",
                           "each", "both", "any", "every", "one", "ones", "others", "thanks", "there", "here", "that",
                           "this", "these", "those", "ellos", "eles", "eux", "ihnen", "hen", "nosotros", "nous",
                           "uns", "then", "before", "now", "today"})


def unread_words(text: str, consumed: Sequence[tuple[int, int]], names: Iterable[str] = ()) -> tuple[str, ...]:
    """The content words of ``text`` no reader consumed and no word list knows, in order, each once.

    ``consumed``: the spans the reading took; ``names``: every spelling of the tenant's names (their words are known).
    In a message of several sentences only those naming something the reader read are checked; a word glossed in
    brackets ("czujniki (sensors)") and a function word typed with a slip ("teh") are read.

    >>> unread_words("classement des 2 fournisseurs by spend", [])
    ('classement',)
    >>> unread_words("please show the overall spend on the dashboard", [])
    ()
    """
    general = general_words() - constraint_words()
    named = {_plain(w) for n in names for w in _WORD.findall(n)}
    checked = _sentences(text, consumed)
    found: list[str] = []
    tokens = list(_TOKEN.finditer(text))
    for i, match in enumerate(tokens):
        if any(s < match.end() and match.start() < e for s, e in consumed):
            continue
        if not any(a <= match.start() < b for a, b in checked):
            continue
        if _restricts_kind(text, match, tokens[i + 1] if i + 1 < len(tokens) else None, named):
            found.append(match.group(0))
            continue
        if i and _plain(match.group(0)) in DISTRIBUTIVE_WORDS and text[tokens[i - 1].end():match.start()] in (" ", "-"):
            # "supplier wise": the breakdown named with its noun
            found.append(text[tokens[i - 1].start():match.end()])
            continue
        before = _plain(tokens[i - 1].group(0)) if i and text[tokens[i - 1].end():match.start()].isspace() else ""
        if (before in _NAME_SLOT_WORDS and _plain(match.group(0)) not in _SLOT_OBJECTS
                and re.match(r"\s*(?:[?.!,;)]|$)", text[match.end():])):
            # "spend with best", "invoices from ok": the last word of a name slot is a name nobody read, whatever
            # word list knows it (never dropped silently)
            found.append(match.group(0))
            continue
        for part in _WORD.finditer(match.group(0)):
            word, plain = part.group(0), _plain(part.group(0))
            if plain in general or plain in named or _slip_of_function_word(plain):
                continue
            if plain in STATUS_PARTICIPLES and before in _AUXILIARIES:
                continue  # "combien on a payé": the verb of the spend, no status
            if _known_gloss(text, match.end(), general, named):
                continue
            # (a part of a compound is no cognate: "sous-groupe" is a subgroup, not the group)
            if "-" not in text[max(0, part.start() + match.start() - 1):match.end() + 1] and _cognate(plain):
                continue
            found.append(word)
    return tuple(dict.fromkeys(found))


def _restricts_kind(text: str, match: re.Match[str], following: re.Match[str] | None, named: set[str]) -> bool:
    """Whether the word of ``match`` stands right before a kind noun ("domestic suppliers", "recurring invoices")
    as an adjective or noun that restricts the set: no function, filler, counting or tenant's word."""
    if following is None or _plain(following.group(0)) not in KIND_NOUNS or text[match.end():following.start()] != " ":
        return False
    plain = _plain(match.group(0))
    # (a superlative before the kind is the ranking's word, read by the ranking readers: "the 3 biggest suppliers")
    superlative = plain.endswith("est") and len(plain) >= 6 and plain in general_words()
    return (not superlative and len(plain) >= 3 and _WORD.fullmatch(plain) is not None and plain not in KIND_NOUNS
            and plain not in FUNCTION_WORDS and plain not in FILLER_WORDS and plain not in _KIND_COUNTERS
            and plain not in named and not _slip_of_function_word(plain)
            and (plain not in table_words() or plain in narrowing_words()))


def unread_note(words: Sequence[str], figure: bool = True) -> str:
    """What the answer says about the words it did not read; of a figure (``figure``) only where one is given (a
    clarification, no data or a refusal has none below it)."""
    said = ", ".join(repr(w) for w in words)
    if not figure:
        return f"I did not understand {said} in your question."
    return (f"I did not understand {said}: the figure below does not apply {'it' if len(words) == 1 else 'them'}, "
            "so it may answer a broader question than the one asked.")


def with_unread_words(answer: Any, words: Sequence[str]) -> Any:
    """``answer`` marked for the ``words`` it did not read: an answered figure becomes PARTIAL (the figure stays),
    no data, not found or a clarification keep their status and carry the note."""
    if not words:
        return answer
    from router.ap_fields import with_not_understood

    figure = answer.status in ("answered", "partial")
    return with_not_understood(answer, list(words), unread_note(words, figure), reason="not understood")


#: Workflows whose answer is passages, a question back or a refusal: their words are search terms or already named.
_UNCHECKED_WORKFLOWS = frozenset({"clarification", "document_answer", "identifier_lookup", "unsupported"})


def figure_answer(workflow: str, requires_clarification: bool) -> bool:
    """Whether an answer of ``workflow`` is a figure, list or ranking the invariant is checked for."""
    return not requires_clarification and workflow not in _UNCHECKED_WORKFLOWS


def reading_spans(reading: Any) -> tuple[tuple[int, int], ...]:
    """Every span a reading consumed: names, ids, periods, amounts, statuses, and the analysis and breakdown words."""
    return (*reading.consumed, *reading.analysis.spans, *reading.analysis.compare_words, *reading.breakdown.spans)


__all__ = ["DISTRIBUTIVE_WORDS", "FILLER_WORDS", "FUNCTION_WORDS", "KIND_NOUNS", "NAME_SLOT_WORDS", "RESTRICTION_WORDS",
           "STATUS_PARTICIPLES", "figure_answer", "general_words", "narrowed_restrictions", "narrowing_words",
           "reading_spans", "table_words", "unread_note", "unread_words", "with_unread_words"]


#: Plan parameters that only scope a figure (whose, when, in which currency, how grouped): every other parameter
#: narrows it to a part of the set (document types, statuses, suppliers, groups, products, amounts).
_SCOPE_PARAMETERS = frozenset({"company_id", "company_ids", "start_date", "end_date", "reporting_currency",
                               "as_of", "as_of_date", "valid_at", "grain", "group_by", "limit"})


#: Parameters every figure carries with their default value: no narrowing while they hold it (the statuses every
#: plan counts unless asked otherwise are the constraints' default; both document types are all of them).
_DEFAULT_SETS = {"invoice_statuses": set(Constraints.model_fields["invoice_status"].default),
                 "document_types": {"invoice", "credit_note"}}


def narrowed_restrictions(unread: Sequence[str], plan_arguments: Iterable[Any]) -> tuple[str, ...]:
    """``unread`` without its restriction words ("only", "nur") when the plan narrows the set: "credit notes only"
    is applied by the credit-note filter even where the reader that set it did not record the word "only".

    >>> narrowed_restrictions(("only",), [{"parameters": {"company_id": "C", "document_types": ["credit_note"]}}])
    ()
    >>> narrowed_restrictions(("only", "domestic"), [{"company_id": "C", "invoice_statuses": ["posted", "paid"]}])
    ('only', 'domestic')
    """
    if not any(_plain(w) in RESTRICTION_WORDS for w in unread):
        return tuple(unread)
    narrowed = any(key not in _SCOPE_PARAMETERS and value not in (None, "", [], ())
                   and not (key in _DEFAULT_SETS and isinstance(value, (list, tuple))
                            and set(value) == _DEFAULT_SETS[key])
                   for arguments in plan_arguments if isinstance(arguments, dict)
                   for key, value in {**arguments, **(arguments.get("parameters") or {})}.items()
                   if key not in ("parameters", "metric"))
    return tuple(w for w in unread if not (narrowed and _plain(w) in RESTRICTION_WORDS))
