"""The entity and measure words of non-native and non-finance writers, read in the English the reader knows.

Controllers of the subsidiaries write English with the nouns of their own language ("# fatture Xenon Q4 2025",
"money spent with fornecedor Gamma", "only the BTW part of the facturen", "biggest leverancier of Xenon"), and
people outside finance use plain words for the finance ones ("money to Orbis", "who are we allowed to buy from").
router/romance.py (French, Spanish) and router/german.py read whole questions of those languages; this module is
the vocabulary every question shares, whatever the writer's language: a table of the few *concepts* a figure
question is made of (invoice, supplier, VAT and its basis, money, the number of, the biggest, approved suppliers)
in Dutch, Italian, Portuguese, the Nordic languages and plain English, and a table of the words product groups are
named with, so a group written in another language ("kantoorartikelen", "consumabili lab", "labapparatuur") or
in shorthand ("shipping svcs") is matched to the tenant's own group by its meaning, never by its spelling.

Names are never rewritten: a word of a company, supplier or group name of the tenant stays as typed. A group
phrase is replaced only when its meaning is exactly one of the tenant's groups; otherwise it stays as typed and
the reader names it back (an unknown group-like word is asked about, never dropped). A supplier typed one edit
off its distinctive name ("Oris" for Orbis) is read as that supplier only when exactly one supplier is that
close. The answer states the rewritten reading.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from router import price_phrases, tax_words
from router.document_words import CREDIT_NOTES, INVOICES
from router.edits import unique_typo
from router.entities import Gazetteer
from router.exclusion_words import WITHOUT
from router.list_totals import read_list_total

_I = re.I | re.UNICODE


def _alt(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


# --- the concepts of a figure question, by language (no French / Spanish / German: their modules read them) -----
#: Supplier nouns (plural first: the plural is what a ranking or a list counts).
SUPPLIERS = ("leveranciers", "fornitori", "fornecedores", "leverantörer", "leverandører", "leverandorer",
             "dostawcy",
             # the inflected forms of the supplier noun, with and without diacritics: Polish genitive, locative and
             # instrumental, Czech, Romanian (with its article), Turkish (with its case endings), Ukrainian and
             # Russian transliterated, Hungarian, Slovak, Croatian
             "dostawców", "dostawcow", "dostawcach", "dostawcami", "dostawcom", "dodavatelé", "dodavatele",
             "dodavatelů", "dodavatelu", "dodavatelích", "dodavatelich", "dodávatelia", "dodavatelia", "furnizori",
             "furnizorii", "furnizorilor", "tedarikçiler", "tedarikciler", "tedarikçileri", "tedarikcileri",
             "tedarikçilerin", "tedarikcilerin", "tedarikçilerimiz", "postachalnyky", "postachalnykiv",
             "postavshchiki", "postavshchikov", "beszállítók", "beszallitok", "dobavljači", "dobavljaci")
SUPPLIER = ("leverancier", "fornitore", "fornecedor", "leverantör", "leverandør", "leverandor", "dostawca",
            "dodavatel", "dodávateľ", "furnizor", "furnizorul", "tedarikçi", "tedarikci", "tedarikçisi",
            "postachalnyk", "postavshchik", "beszállító", "beszallito", "dobavljač", "dobavljac")
#: Names of VAT that are no English word.
VAT_NAMES = ("btw", "iva", "mwst", "ust", "mva", "tva", "moms", "ptu", "alv", "vat")
#: "without" before a VAT name: the figure net of VAT (one table with the exclusion cues).
#: "including" before a VAT name: the total with VAT (the governed spend).
WITH = ("inclusief", "incl", "incl.", "inkl", "inkl.", "compresa", "compreso", "inclusa", "incluso", "incluindo",
        "met", "com", "med", "con", "avec", "mit")
#: "the amount of": a VAT name after one of these is the VAT charged.
AMOUNT_OF = ("bedrag", "importo", "quota", "valor", "montante", "belopp", "beløb", "beløp")
#: Money nouns: as a measure they ask for the spend.
MONEY = ("money", "geld", "soldi", "denaro", "dinheiro", "pengar", "penge", "penger", "pieniądze", "pieniadze")
#: "the number of".
NUMBER_OF = ("numero di", "numero de", "número de", "aantal", "antal", "antall", "liczba", "quantità di",
             "quantidade de")
#: "how many" / "how much".
HOW_MANY = ("quante", "quanti", "quantas", "quantos", "hur många", "hvor mange", "kuinka monta", "montako",
            # Turkish, Czech, Romanian, Ukrainian and Russian transliterated, Hungarian
            "kaç tane", "kac tane", "kaç", "kac", "kolik", "câte", "cate", "skilky", "skolko", "hány", "hany")
HOW_MUCH = ("quanto", "quanta", "hoeveel", "hur mycket", "hvor meget", "hvor mye", "kuinka paljon", "paljonko",
            "ne kadar", "cât", "mennyi")
#: "biggest" (the top of a ranking).
BIGGEST = ("en büyük", "en buyuk", "největší", "nejvetsi", "cel mai mare", "cei mai mari", "najbilshyi",
           "legnagyobb",
           "grootste", "più grande", "piu grande", "più grandi", "maggiore", "maggiori", "maior", "maiores",
           "största", "storste", "største", "największy", "najwiekszy", "największi", "mayor", "mayores", "primo",
           "principale", "principali", "principais")
#: "approved" after (Romance) or before (Germanic) a supplier noun.
APPROVED = ("approvati", "approvato", "autorizzati", "autorizzato", "qualificati", "omologati", "aprovados",
            "aprovado", "autorizados", "autorizado", "homologados", "homologado", "goedgekeurde", "goedgekeurd",
            "toegestane", "erkende", "godkända", "godkänd", "godkendte", "godkjente", "allowed", "permitted",
            "authorised", "authorized", "sanctioned", "whitelisted", "cleared",
            # French, Polish, Finnish (the French reader reads them beside its own noun; here after any noun)
            "homologués", "homologuées", "homologues", "homologué", "homologuée", "référencés", "referencés",
            "agréés", "agrees", "agréées", "approuvés", "approuvées", "zatwierdzeni", "zatwierdzone",
            "zatwierdzonych", "hyväksytyt",
            # Turkish, Czech, Romanian, Ukrainian transliterated, Hungarian
            "onaylı", "onayli", "onaylanmış", "onaylanmis", "schválení", "schvaleni", "schválené", "schvalene",
            "aprobați", "aprobati", "aprobate", "zatverdzheni", "jóváhagyott", "jovahagyott")
#: Plain-English shorthand of what a group is called ("shipping svcs", "lab eqpt").
SHORTHAND = {"svcs": "services", "svc": "services", "srvcs": "services", "servs": "services", "eqpt": "equipment",
             "equip": "equipment", "eqp": "equipment", "consumbls": "consumables", "consums": "consumables",
             "mgmt": "management", "maint": "maintenance", "supps": "supplies", "temp": "temperature",
             "pkg": "packaging", "pkging": "packaging", "comms": "communications", "lab": "laboratory",
             "labs": "laboratory"}

# --- the task words of a question, by language: rankings, shares, counts, approvals, duplicates, statuses ---------
# (French, Spanish, Italian, Portuguese, Dutch, German, Swedish, Danish, Norwegian, Polish, Finnish: the words
# finance staff of those languages carry into English; each is read as the English task word the readers know)
#: "the N biggest / main / first" before a plural ranked noun: the top N.
TOP_PLURAL = ("plus gros", "plus grands", "plus importants", "principaux", "premiers",
              "mayores", "más grandes", "mas grandes", "más importantes", "mas importantes", "principales", "primeros",
              "maggiori", "più grandi", "piu grandi", "principali", "primi",
              "maiores", "principais", "primeiros",
              "grootste", "belangrijkste",
              "größten", "grössten", "groessten", "wichtigsten",
              "största", "viktigaste", "største", "storste", "vigtigste", "viktigste",
              "najwięksi", "najwieksi", "największych", "najwiekszych", "najważniejsi", "najwazniejsi",
              "suurimmat", "suurinta", "tärkeimmät", "tärkeintä",
              "en büyük", "en buyuk", "největší", "nejvetsi", "cei mai mari", "najbilshi", "legnagyobb")
#: "the biggest / main / first" before a singular ranked noun: the top one.
TOP_SINGULAR = ("plus gros", "plus grand", "plus important", "premier",
                "mayor", "más grande", "mas grande", "más importante", "mas importante",
                "maggiore", "più grande", "piu grande", "primo",
                "maior", "primeiro",
                "grootste", "belangrijkste",
                "größte", "grösste", "groesste", "wichtigste",
                "största", "viktigaste", "største", "storste", "vigtigste", "viktigste",
                "największy", "najwiekszy", "najważniejszy", "najwazniejszy",
                "suurin", "tärkein")
#: Supplier nouns of every language a ranking counts (the French, Spanish and German ones are read here only in a
#: ranking: their modules read them elsewhere).
RANKED_PLURAL = (*SUPPLIERS, "fournisseurs", "proveedores", "lieferanten", "leverantörs", "leverantorer",
                 "leverantörerna", "leverandørerne", "leverandørene", "leveranciers", "toimittajat", "toimittajaa",
                 "dostawców", "dostawcow", "suppliers", "vendors",
                 # (Turkish counts a noun in the singular after a number: "en büyük 2 tedarikçi")
                 "tedarikçi", "tedarikci")
RANKED_SINGULAR = (*SUPPLIER, "fournisseur", "proveedor", "lieferant", "leverantören", "leverandøren",
                   "toimittaja", "supplier", "vendor")
#: Small numbers in words (a ranking's N); "to", "ti", "fire" are left out: English words.
NUMBER_WORDS = {
    "deux": 2, "trois": 3, "quatre": 4, "cinq": 5, "dix": 10, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5,
    "diez": 10, "due": 2, "tre": 3, "quattro": 4, "cinque": 5, "dieci": 10, "dois": 2, "duas": 2, "três": 3,
    "quatro": 4, "dez": 10, "twee": 2, "drie": 3, "vier": 4, "vijf": 5, "tien": 10, "zwei": 2, "drei": 3,
    "fünf": 5, "zehn": 10, "två": 2, "fyra": 4, "fem": 5, "tio": 10, "dwóch": 2, "dwa": 2, "trzech": 3,
    "trzy": 3, "czterech": 4, "pięciu": 5, "kaksi": 2, "kolme": 3, "neljä": 4, "viisi": 5, "two": 2, "three": 3,
    "four": 4, "five": 5, "ten": 10}
#: A ranking noun before the ranked ones ("classement des 3 premiers fournisseurs").
RANKING_NOUNS = ("classement", "palmarès", "palmares", "clasificación", "clasificacion", "classifica", "graduatoria",
                 "classificação", "classificacao", "ranglijst", "rangorde", "rangliste", "rangfolge", "rangordning",
                 "ranking")
#: "the share / weight of X" (in a total): the share of X.
SHARE_NOUNS = ("poids", "peso", "quota", "percentuale", "aandeel", "anteil", "andel", "andelen", "udział", "udzial",
               "osuus", "proportion", "pourcentage", "porcentaje", "porcentagem",
               # Spanish / Portuguese "participación / participação", "cuota", "percentual", "quota-parte",
               # Italian "incidenza", French "quote-part", Dutch "procentuele aandeel" (its noun above)
               "participación", "participacion", "participação", "participacao", "cuota", "percentual",
               "quota-parte", "quote-part", "incidenza",
               # Czech, Romanian, Turkish, Ukrainian transliterated, Hungarian
               "podíl", "podil", "ponderea", "payı", "payi", "chastka", "chastku", "részesedés")
#: "compare" (a verb that opens a comparison of two periods or parties); German is the German reader's.
COMPARE = ("comparer", "comparez", "comparons", "comparar", "compara", "comparemos", "confrontare", "confronta",
           "confrontiamo", "vergelijk", "vergelijken", "jämför", "jämföra", "sammenlign", "sammenligne", "sammenlikn",
           "sammenlikne", "porównaj", "porownaj", "porównać", "porownac", "vertaa", "vertaile")
#: "the number of" in shorthand, before a document noun ("nb factures", "nbre avoirs", "n° facturen").
NUMBER_SHORT = ("nb", "nbr", "nbre", "nº", "n°")
#: Document nouns of every language (a count's or a duplicate's noun).
DOCUMENT_NOUNS = (*INVOICES, *CREDIT_NOTES, "factures", "facture", "facturas", "factura", "avoirs", "avoir",
                  "invoices", "invoice", "credit notes", "credit note", "bills", "documents", "docs")
#: "twice" in every language, and the participles it follows ("saisies 2 fois", "twee keer geboekt").
TWICE = ("deux fois", "2 fois", "dos veces", "2 veces", "due volte", "2 volte", "duas vezes", "2 vezes", "twee keer",
         "2 keer", "tweemaal", "zweimal", "2-mal", "2 mal", "två gånger", "2 gånger", "to gange", "2 gange",
         "to ganger", "2 ganger", "dwa razy", "2 razy", "dwukrotnie", "kahdesti", "kaksi kertaa", "2 kertaa",
         "two times", "2 times", "2x", "en double", "in duplo", "in duplicate")
ENTERED = ("saisie", "saisies", "saisis", "reçue", "reçues", "recues", "enregistrée", "enregistrées", "comptabilisées",
           "facturées", "payées", "registradas", "recibidas", "contabilizadas", "pagadas", "registrate", "ricevute",
           "pagate", "registadas", "recebidas", "pagas", "geboekt", "ontvangen", "ingevoerd", "betaald", "erfasst",
           "gebucht", "erhalten", "bezahlt", "bokförda", "mottagna", "betalda", "bogført", "bogførte", "modtaget",
           "modtagne", "bokført", "bokførte", "mottatt", "zaksięgowane", "otrzymane", "zapłacone", "wprowadzone",
           "kirjattu", "kirjatut", "vastaanotettu", "maksettu", "entered", "booked", "received", "posted", "paid",
           "recorded", "registered", "keyed", "invoiced", "billed", "charged")
#: "duplicate" before a document noun.
DUPLICATE = ("mükerrer", "mukerrer", "duplicitní", "duplicitni", "duplicate", "dublikaty", "dvojité", "dvojite",
             "çift", "cift", "dupla", "duplikált",
             "dubbele", "dubbel", "doppelte", "doppelten", "duplicadas", "duplicados", "duplicati", "duplicate",
             "duplicerade", "duplicerede", "dubletter", "dobbelte", "duplikaty", "zdublowane", "podwójne",
             "podwojne", "kaksinkertaiset", "päällekkäiset", "dupliquées", "dupliquees", "doublons")
#: Invoice statuses in every language, read inside a status list ("per status (concept, geboekt, betaald)").
STATUS_WORDS = {
    "draft": ("concept", "ontwerp", "brouillon", "brouillons", "borrador", "borradores", "bozza", "bozze",
              "rascunho", "rascunhos", "utkast", "kladde", "udkast", "szkic", "szkice", "robocza", "robocze",
              "luonnos", "luonnokset", "entwurf", "entwürfe", "draft", "drafts"),
    "posted": ("geboekt", "comptabilisé", "comptabilisée", "comptabilisées", "comptabilisés", "contabilizado",
               "contabilizada", "contabilizadas", "registrato", "registrata", "contabilizzato", "lançado", "lancado",
               "lançada", "bokförd", "bokförda", "bogført", "bokført", "zaksięgowana", "zaksięgowane", "zaksiegowana",
               "kirjattu", "gebucht", "posted", "booked"),
    "paid": ("betaald", "payé", "payée", "payées", "payés", "pagado", "pagada", "pagadas", "pagato", "pagata",
             "pago", "paga", "betald", "betalda", "betalt", "zapłacona", "zapłacone", "zaplacona", "maksettu",
             "bezahlt", "paid"),
    "cancelled": ("geannuleerd", "annulé", "annulée", "annulées", "annulés", "anulado", "anulada", "anuladas",
                  "annullato", "annullata", "cancelado", "cancelada", "annullerad", "makulerad", "annulleret",
                  "annullert", "anulowana", "anulowane", "peruttu", "mitätöity", "storniert", "cancelled", "canceled",
                  "void", "voided"),
}
_STATUS_OF: Mapping[str, str] = {w: status for status, words in STATUS_WORDS.items() for w in words}

# --- the words of questions that need no period, by language ------------------------------------------------------
# An agreement's clause, a catalogue's list price and what is overdue today are answered without a period; read in
# a writer's own words ("plazo de pago", "precio de lista según catálogo", "facturas vencidas a la fecha") they
# were a spend figure or a count asked without one, and the answer was "For which period?".
#: An agreement of a kind (framework, purchasing, supply): a framework agreement.
FRAMEWORK_AGREEMENT = (
    "contrato de compras", "contrato de compra", "contrato de suministro", "contrato de fornecimento", "contrato marco",
    "contrato quadro", "acuerdo marco", "acordo quadro", "accord cadre", "accord-cadre", "contratto quadro",
    "accordo quadro", "contratto di fornitura", "raamovereenkomst", "raamcontract", "inkoopcontract", "umowa ramowa",
    "rámcová smlouva", "ramcova smlouva", "contract cadru", "acord cadru", "çerçeve sözleşme", "cerceve sozlesme",
    "çerçeve anlaşması", "ramavtal", "inköpsavtal", "rammeaftale", "rammeavtale", "indkøbsaftale", "innkjøpsavtale")
#: An agreement, any language: an agreement. (French "contrat" is a cognate the unread-word check reads as
#: "contract" itself, and names inside a compound: "sous-contrat"; it stays out of the tables.)
AGREEMENT = ("contrato", "contratos", "contratto", "contratti", "overeenkomst", "umowa",
             "umowy", "umowie", "smlouva", "smlouvy", "smlouvě", "contractul", "contractului", "sözleşme",
             "sözleşmesi", "sozlesme", "avtal", "avtalet", "aftale", "aftalen", "avtale", "avtalen", "acuerdo",
             "acordo")
#: An agreement's payment term.
PAYMENT_TERMS = (
    "plazo de pago", "plazos de pago", "condiciones de pago", "prazo de pagamento", "prazos de pagamento",
    "condições de pagamento", "condicoes de pagamento", "délai de paiement", "delai de paiement",
    "délais de paiement", "conditions de paiement", "termini di pagamento", "termine di pagamento",
    "condizioni di pagamento", "betalingstermijn", "betalingsvoorwaarden", "betaaltermijn", "termin płatności",
    "termin platnosci", "warunki płatności", "warunki platnosci", "splatnost", "platební podmínky",
    "termen de plată", "termenul de plată", "termen de plata", "condiții de plată", "ödeme vadesi", "odeme vadesi",
    "ödeme koşulları", "ödeme süresi", "betalningsvillkor", "betalningstid", "betalingsbetingelser",
    "betalingsfrist", "betalingsvilkår")
#: An agreement's warranty.
WARRANTY = ("garantía", "garantia", "garanzia", "gwarancja", "gwarancji", "záruka", "záruky", "zaruka",
            "garanție", "garanția", "garanti", "garantisi", "garantin")
#: A duration's units ("plazo de pago en días", "garantía de cuántos meses"): the clause's figure is a duration.
DURATION_UNITS = {
    "days": ("días", "dias", "jours", "giorni", "dagen", "dni", "dní", "dnů", "zile", "gün", "dagar", "dage", "dager"),
    "months": ("meses", "mois", "mesi", "maanden", "miesięcy", "miesiecy", "měsíců", "mesicu", "luni", "ay",
               "månader", "måneder"),
    "years": ("años", "anos", "ans", "anni", "jaren", "jaar", "lat", "let", "ani", "yıl", "år"),
}
#: "according to the catalogue" (a catalogue's list price is router/price_phrases.py's LIST_PRICES, one table read
#: by :func:`read_foreign_words`; its phrases stay out of the readers' word lists: "tabela" alone is no price).
PER_CATALOGUE = ("según catálogo", "según el catálogo", "segun catalogo", "segun el catalogo", "según la lista",
                 "segundo o catálogo", "segundo catálogo", "conforme o catálogo", "conforme catálogo",
                 "selon le catalogue", "selon catalogue", "d'après le catalogue", "secondo il catalogo",
                 "secondo il listino", "da listino", "volgens de catalogus", "volgens catalogus", "według katalogu",
                 "wedlug katalogu", "podle katalogu", "podle ceníku", "conform catalogului", "kataloğa göre",
                 "kataloga gore", "enligt katalogen", "ifølge kataloget", "ifolge kataloget")
#: Overdue and unpaid, as adjectives or phrases.
OVERDUE = ("vencido", "vencidos", "vencida", "vencidas", "em atraso", "atrasado", "atrasados", "atrasada",
           "atrasadas", "échu", "échus", "échue", "échues", "echues", "en retard de paiement", "scaduto", "scaduti",
           "scaduta", "scadute", "achterstallig", "achterstallige", "vervallen", "przeterminowane",
           "przeterminowana", "przeterminowanych", "po splatnosti", "po lhůtě splatnosti", "restante", "restanțe",
           "vadesi geçmiş", "vadesi gecmis", "vadesi geçen", "förfallna", "förfallen", "forfaldne", "forfalte",
           "forfalden")
UNPAID = ("não pago", "não pagos", "não paga", "não pagas", "nao pago", "nao pagos", "no pagado", "no pagados",
          "no pagada", "no pagadas", "non payé", "non payés", "non payée", "non payées", "non pagato", "non pagati",
          "non pagata", "non pagate", "onbetaald", "onbetaalde", "niezapłacone", "niezaplacone", "niezapłacona",
          "nezaplacené", "nezaplaceno", "neplătite", "neplatite", "ödenmemiş", "odenmemis", "obetalda", "obetald",
          "ubetalte", "ubetalt")
#: "Until when" (an approval's or agreement's validity: its end date, no period).
UNTIL_WHEN = ("até quando", "ate quando", "hasta cuándo", "hasta cuando", "jusqu'à quand", "jusqu’à quand",
              "jusqu'a quand", "fino a quando", "tot wanneer", "do kiedy", "do kdy", "până când", "pana cand",
              "ne zamana kadar", "hur länge", "till när", "indtil hvornår", "til når")
#: "Today" as the day an open or overdue amount is taken at ("vencido hoje", "vencidas a la fecha").
AS_OF_TODAY = ("hoje", "hoy", "a la fecha", "a día de hoy", "a dia de hoy", "à data de hoje", "a data de hoje",
               "à date", "aujourd'hui", "aujourd’hui", "ad oggi", "oggi", "vandaag", "per vandaag", "dziś", "dzisiaj",
               "na dzień dzisiejszy", "dnes", "k dnešku", "azi", "astăzi", "la zi", "bugün", "bugün itibarıyla",
               "idag", "i dag", "per idag")

#: Statuses as adjectives beside a document noun ("geannuleerde facturen", "facturas anuladas", "makulerade
#: fakturor"): read as the English status before the noun. (English words, and "concept", stay as typed: "invoices
#: paid in March" dates a payment, "the concept" is no status.)
STATUS_ADJECTIVES: Mapping[str, str] = {
    **{w: "cancelled" for w in ("geannuleerde", "annulées", "annulés", "anuladas", "anulados", "annullate",
                                "annullati", "canceladas", "cancelados", "makulerade", "annullerade", "annullerede",
                                "annullerte", "anulowane", "peruutetut", "mitätöidyt", "stornierte", "stornierten")},
    **{w: "draft" for w in ("conceptfacturen", "brouillons", "borradores", "bozze", "rascunhos", "utkast",
                            "kladder", "robocze", "luonnokset")},
    **{w: "posted" for w in ("geboekte", "comptabilisées", "contabilizadas", "registrate", "contabilizzate",
                             "lançadas", "bokförda", "bogførte", "bokførte", "zaksięgowane", "kirjatut",
                             "gebuchte", "gebuchten")},
    **{w: "paid" for w in ("betaalde", "payées", "pagadas", "pagate", "pagas", "betalda", "betalte",
                           "zapłacone", "zaplacone", "maksetut", "bezahlte", "bezahlten")},
}

# --- the words of Central and Eastern European and Turkish writers (Polish, Czech, Slovak, Romanian, Turkish,
# Ukrainian and Russian transliterated, Hungarian): families of inflected forms, with and without diacritics ------
#: "by <dimension>" ("po dostawcach", "tedarikçi bazında", "pe luni", "aylık kırılım"): the breakdown's grouping.
BY_DIMENSION: Mapping[str, tuple[str, ...]] = {
    "supplier": ("po dostawcach", "według dostawców", "wedlug dostawcow", "wg dostawców", "wg dostawcow",
                 "tedarikçi bazında", "tedarikci bazinda", "tedarikçi bazlı", "tedarikçilere göre",
                 "tedarikcilere gore", "po dodavatelích", "po dodavatelich", "podle dodavatelů", "podle dodavatelu",
                 "pe furnizori", "pe furnizor", "după furnizor", "dupa furnizor", "po postachalnykakh",
                 "po postachalnykam", "po postavshchikam", "beszállítónként", "beszallitonkent"),
    "month": ("po miesiącach", "po miesiacach", "według miesięcy", "wedlug miesiecy", "wg miesięcy",
              "wg miesiecy", "aylık kırılım", "aylik kirilim", "aylık döküm", "ay bazında", "ay bazinda",
              "aylara göre", "aylara gore", "po měsících", "po mesicich", "podle měsíců", "podle mesicu",
              "pe luni", "defalcat pe luni", "po misiatsiakh", "po misyatsyakh", "po mesyatsam", "havonta"),
    "quarter": ("po kwartałach", "po kwartalach", "çeyrek bazında", "ceyrek bazinda", "çeyreklere göre",
                "po čtvrtletích", "po ctvrtletich", "pe trimestre", "po kvartalakh", "po kvartalam",
                "negyedévente"),
    "product group": ("po grupach produktowych", "po grupach produktów", "po grupach produktow",
                      "według grup produktowych", "wg grup produktowych", "ürün grubu bazında", "urun grubu bazinda",
                      "ürün gruplarına göre", "urun gruplarina gore", "po skupinách produktů", "po skupinach produktu",
                      "podle skupin produktů", "podle skupin produktu", "pe grupe de produse",
                      "pe grupe de produs", "po hrupakh produktiv", "po gruppam tovarov", "termékcsoportonként"),
}
#: "above" / "below" before an amount ("faktury powyżej 5 000 EUR", "peste 10.000 lei", "nad 5000 Kč").
ABOVE_BEFORE = ("powyżej", "powyzej", "ponad", "nad", "přes", "pres", "peste", "mai mari de", "mai mare de",
                "vyshche", "bilshe", "bolshe", "több mint", "tobb mint")
BELOW_BEFORE = ("poniżej", "ponizej", "pod", "sub", "mai mici de", "mai mic de", "nyzhche", "menshe", "kevesebb mint")
#: ... and after it, as Turkish and Hungarian put them ("500 € üstü faturalar", "10 bin TL altı", "5000 EUR felett").
ABOVE_AFTER = ("üstü", "ustu", "üzeri", "uzeri", "üzerinde", "uzerinde", "üzerindeki", "uzerindeki", "üstündeki",
               "ustundeki", "fazla", "felett", "fölött", "folott", "feletti")
BELOW_AFTER = ("altı", "alti", "altında", "altinda", "altındaki", "altindaki", "alatt", "alatti")
#: Spend nouns (with the possessive and case endings: "harcamamız", "w zakupach", "výdajů", "cheltuielile").
SPEND = ("spesa", "spese", "uitgaven", "despesa", "despesas", "utgifter", "udgifter", "wydatki", "wydatków",
         "wydatkow", "wydatkach", "zakupy", "zakupach", "zakupów", "zakupow", "harcama", "harcamalar",
         "harcamamız", "harcamamiz", "harcamalarımız", "harcamalarimiz", "harcaması", "harcamasi", "harcamaları",
         "harcamalari", "harcamanın", "výdaje", "vydaje", "výdajů", "vydaju", "nákupy", "nakupy", "cheltuieli",
         "cheltuielile", "cheltuielilor", "achiziții", "achizitii", "achizițiile", "vytraty", "vytrat", "raskhody",
         "költés", "koltes", "kiadások", "kiadasok")
#: "total" ("toplam harcama", "celkem", "celkové výdaje", "zagalom").
TOTAL = ("toplam", "celkem", "celkové", "celkove", "celková", "zagalom", "vsego", "összesen", "osszesen")
#: "percent" before "from / of all spend" ("sensörler procent from all spend"): the share of what precedes it.
PERCENT_WORDS = ("procent", "procenta", "procento", "procentul", "procentaj", "yüzde", "yuzde", "vidsotok",
                 "protsent", "százalék", "szazalek", "percent", "percentage", "pourcentage", "porcentaje",
                 "percentuale", "prozent", "prosent")

# --- the words product groups are named with ---------------------------------------------------------------------
#: Every form (Dutch, Italian, Portuguese, Spanish, French, Nordic, English) of a group word, by its English word.
_GROUP_WORDS: Mapping[str, tuple[str, ...]] = {
    "office": ("kantoor", "ufficio", "escritório", "escritorio", "oficina", "bureau", "kontor", "kontors",
               "biuro", "biurowe", "office",
              # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
              "ofis", "kancelářské", "kancelarske", "birou"),
    "supplies": ("artikelen", "benodigdheden", "articoli", "forniture", "artigos", "suprimentos", "material",
                 "materiale", "materiali", "materiais", "materiaal", "materialen", "cancelleria", "papelaria",
                 "fournitures", "suministros", "förnödenheter", "artiklar", "artikler", "supplies", "stuff",
                 "articles", "items", "goods", "spullen",
                # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                "materiały", "materialy", "materiałów", "materialow", "malzeme", "malzemeleri", "materiály"),
    "laboratory": ("lab", "labs", "labo", "laboratorium", "laboratorio", "laboratório", "laboratoire", "laboratori",
                   "laboratory", "laboratorie",
                  # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                  "laboratoryjne", "laboratoryjny", "laboratoryjnych", "laboratuvar", "laboratuar", "laboratorní",
                  "laboratorni", "laborator"),
    "equipment": ("apparatuur", "uitrusting", "apparecchiature", "attrezzature", "attrezzatura", "strumentazione",
                  "strumenti", "equipamento", "equipamentos", "equipos", "equipo", "équipement", "équipements",
                  "equipement", "utrustning", "udstyr", "utstyr", "apparaten", "equipment", "gear",
                 # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                 "sprzęt", "sprzet", "ekipman", "vybavení", "vybaveni", "echipamente"),
    "consumables": ("verbruiksmateriaal", "verbruiksmaterialen", "verbruiksartikelen", "verbruiksgoederen",
                    "consumabili", "consumíveis", "consumiveis", "consumibles", "consommables",
                    "förbrukningsmaterial", "forbrugsvarer", "forbruksmateriell", "consumables", "consumo",
                    "consumi"),
    "reagents": ("reagentia", "reagentien", "reagenti", "reagentes", "reactivos", "réactifs", "reaktiver",
                 "reagenser", "reagents"),
    "shipping": ("verzending", "verzend", "verzendingen", "spedizione", "spedizioni", "envio", "envios", "envíos",
                 "expedição", "expedicao", "frete", "expédition", "expedition", "livraison", "frakt", "fragt",
                 "forsendelse", "transporte", "shipping", "freight", "delivery"),
    "services": ("diensten", "dienstverlening", "servizi", "servizio", "serviços", "servicos", "servicios",
                 "tjänster", "tjenester", "ydelser", "services", "service",
                # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                "usługi", "uslugi", "hizmetler", "hizmet", "služby", "sluzby", "servicii"),
    "paper": ("papier", "carta", "papel", "papper", "papir", "paper",
             # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
             "kağıt", "kagit", "hârtie", "hartie"),
    "products": ("producten", "prodotti", "produtos", "productos", "produits", "produkter", "products",
                # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                "ürünleri", "urunleri", "ürünler", "urunler", "ürün", "produkty", "produktów", "produktow", "produse",
                "produsele", "výrobky", "vyrobky"),
    "measurement": ("meettechniek", "meting", "metingen", "misura", "misure", "misurazione", "medição", "medicao",
                    "medición", "medicion", "mesure", "mätning", "måling", "measurement", "measuring",
                   # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                   "pomiar", "pomiarowe", "pomiaru", "pomiarów", "ölçüm", "olcum", "ölçme", "olcme", "měření", "mereni",
                   "măsurare", "masurare", "vymiriuvannia"),
    "pressure": ("druk", "pressione", "pressão", "pressao", "presión", "presion", "pression", "tryck", "tryk",
                 "trykk", "pressure",
                # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                "ciśnienia", "cisnienia", "ciśnienie", "cisnienie", "basınç", "basinc", "tlak", "tlaku", "presiune",
                "presiunii"),
    "temperature": ("temperatuur", "temperatura", "température", "temperatur", "temperature",
                   # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                   "temperatury", "sıcaklık", "sicaklik", "teplota", "teploty", "temperaturii"),
    "sensors": ("sensoren", "sensor", "sensori", "sensore", "sensores", "capteurs", "sensorer", "sensors",
               # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
               "czujniki", "czujnik", "czujników", "czujnikow", "sensörler", "sensörleri", "sensör", "sensorler",
               "senzory", "senzor", "senzori", "senzorii", "datchyky", "datchiki"),
    "packaging": ("verpakking", "verpakkingen", "verpakkingsmateriaal", "imballaggi", "imballaggio", "embalagem",
                  "embalagens", "embalaje", "embalajes", "emballage", "emballages", "förpackning", "förpackningar",
                  "emballasje", "packaging",
                 # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                 "opakowania", "opakowań", "ambalaj", "ambalajlar", "obaly", "ambalaje"),
    "boxes": ("kartonnen", "karton", "kartons", "cartone", "cartoni", "papelão", "cartón", "scatole", "scatola",
              "caixas", "caixa", "cajas", "boîtes", "lådor", "kasser",
              "boxes"),
    "crates": ("kratten", "krat", "caixotes", "caixote", "cajones", "caisses", "backar",
               "crates"),
    "cooling": ("koeling", "koel", "raffreddamento", "refrigerazione", "refrigeração", "refrigeracao",
                "refrigeración", "refroidissement", "kyl", "køling", "kjøling", "cooling", "refrigeration",
               # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
               "chłodzenie", "chlodzenie", "chłodnicze", "soğutma", "sogutma", "chlazení", "chlazeni", "răcire",
               "racire"),
    "compressors": ("compressoren", "compressor", "compressori", "compressore", "compressores", "compresseurs",
                    "compresseur", "compresor", "kompressor", "kompressorer", "compressors",
                   # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                   "sprężarki", "sprezarki", "kompresory", "kompresörler", "kompresorler", "compresoare"),
    "spare": ("reserve", "ricambio", "ricambi", "sobressalentes", "repuestos", "rechange", "reserv", "détachées",
              "detachees", "détachés", "reservdelar", "spare",
             # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
             "zamienne", "yedek", "náhradní", "nahradni", "schimb"),
    "parts": ("onderdelen", "parti", "peças", "pecas", "piezas", "pièces", "pieces", "delar", "dele", "parts",
             # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
             "części", "czesci", "parçalar", "parcalar", "parçaları", "díly", "dily", "piese"),
    "cables": ("kabels", "kabel", "cavi", "cavo", "cabos", "cabo", "cables", "câbles", "kablar",
              # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
              "kable", "kabli", "kablo", "kablolar", "kabely", "cabluri"),
    "connectors": ("connectoren", "connettori", "conectores", "connecteurs", "kontakter", "connectors"),
    "tools": ("gereedschap", "gereedschappen", "utensili", "attrezzi", "ferramentas", "herramientas", "outils",
              "verktyg", "værktøj", "verktøy", "tools",
             # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
             "narzędzia", "narzedzia", "aletler", "nástroje", "nastroje", "scule"),
    "calibration": ("kalibratie", "calibrazione", "taratura", "calibração", "calibracao", "calibración",
                    "étalonnage", "kalibrering", "calibration",
                   # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                   "kalibracja", "kalibracji", "kalibrasyon", "kalibrace", "calibrare"),
    "control": ("besturing", "regeling", "controllo", "controle", "contrôle", "styrning", "styring", "control",
               # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
               "sterownicze", "sterowania", "sterowanie", "kontrol", "řídicí", "ridici", "řízení", "rizeni"),
    "cabinets": ("kasten", "schakelkasten", "armadi", "armários", "armarios", "armoires", "skåp", "skabe",
                 "cabinets",
                # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                "szafy", "szafa", "szaf", "dolapları", "dolaplar", "skříně", "skrine", "rozvaděče", "rozvadece",
                "dulapuri"),
    "modules": ("moduli", "módulos", "modulos", "moduler", "modules",
               # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
               "moduły", "moduly", "modüller", "moduller", "moduluri"),
    "monitoring": ("bewaking", "monitoraggio", "monitoramento", "monitorização", "monitorización", "surveillance",
                   "övervakning", "overvågning", "overvåking", "monitoring",
                  # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                  "izleme", "monitorowanie", "monitorowania", "monitorování", "monitorovani", "monitorizare"),
    "maintenance": ("onderhoud", "manutenzione", "manutenção", "manutencao", "mantenimiento", "entretien",
                    "underhåll", "vedligeholdelse", "vedlikehold", "maintenance",
                   # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
                   "konserwacja", "konserwacji", "bakım", "bakim", "údržba", "udrzba", "întreținere", "intretinere"),
    "flow": ("debiet", "doorstroming", "flusso", "portata", "fluxo", "vazão", "flujo", "caudal", "débit", "flöde",
             "flow",
            # (Polish, Turkish, Czech, Romanian, Ukrainian transliterated)
            "przepływ", "przeplyw", "przepływu", "akış", "akis", "průtok", "prutok"),
    "loggers": ("dataloggers", "logger", "loggers", "registratori", "enregistreurs", "enregistreur"),
    "data": ("dati", "dados", "datos", "données", "data"),
    "costs": ("kosten", "costi", "custos", "costos", "coûts", "kostnader", "costs"),
}
_FORM_TO_WORD: Mapping[str, str] = {f.casefold(): w for w, forms in _GROUP_WORDS.items() for f in forms}
#: Group words that are English words already: a run of only these is the reader's, never rewritten here.
_ENGLISH_FORMS = frozenset(w for w in _GROUP_WORDS) | frozenset(
    {"stuff", "articles", "items", "goods", "gear", "freight", "delivery", "refrigeration", "measuring", "lab", "labs",
     "service", "sensor", "logger", "compressor", "data", "material", "bureau", "control", "modules",
     "expedition", "kasten", "reserve", "cables", "spare"})
#: Words that join the words of one group name ("materiale di consumo", "artigos de escritório", "lab & office").
_JOINERS = frozenset({"di", "da", "de", "del", "della", "do", "dos", "das", "voor", "van", "per", "para", "for",
                      "of", "för", "til", "&", "and", "e", "en", "y", "och", "og", "et"})
#: The heads of a group noun that add nothing to its meaning ("office supplies" is the group Office).
_GENERIC = frozenset({"supplies", "products", "equipment", "services", "costs", "parts"})
#: Tenant group-name words that mean the same.
_SAME = {"lab": "laboratory", "labs": "laboratory", "consumable": "consumables", "logger": "loggers",
         "sensor": "sensors", "product": "products", "service": "services", "cable": "cables",
         "connector": "connectors", "tool": "tools", "cabinet": "cabinets", "box": "boxes", "crate": "crates",
         "compressor": "compressors", "module": "modules", "reagent": "reagents", "part": "parts",
         "supply": "supplies", "cost": "costs", "ship": "shipping", "packing": "packaging"}


def _norm(word: str) -> str:
    low = word.casefold().strip(".,;:!?()'’\"")
    low = _SAME.get(low, low)
    return _FORM_TO_WORD.get(low, low)


def _compound(word: str) -> tuple[str, ...] | None:
    """The group words a Dutch / Nordic compound is made of ("kantoorartikelen" -> office, supplies), or None."""
    low = word.casefold()
    if low in _FORM_TO_WORD:
        return (_FORM_TO_WORD[low],)
    if len(low) < 7:
        return None
    for cut in range(3, len(low) - 2):
        head, tail = low[:cut], low[cut:]
        for link in ("", "s", "en", "e"):  # Dutch and Nordic link letters ("verzend-kosten", "kantoor-s-")
            if link and not head.endswith(link):
                continue
            first = head[: len(head) - len(link)] if link else head
            if first in _FORM_TO_WORD and tail in _FORM_TO_WORD:
                return (_FORM_TO_WORD[first], _FORM_TO_WORD[tail])
    return None


# --- the function vocabulary, rewritten in order -------------------------------------------------------------------
_VAT = rf"(?:{_alt(VAT_NAMES)}|{tax_words.TAX_NAME})"
#: The tax names read after a bare preposition: the unambiguous spellings in their case, "VAT", the non-Latin ones.
_VAT_STRONG = (rf"(?:(?-i:{tax_words.alternation(tax_words.STRONG_CASED)})|"
               rf"{tax_words.alternation(('vat', *tax_words.NON_LATIN_NAMES))})")
#: The other names: the tax only beside a basis word or a tax noun.
_WEAK_TAX = tax_words.alternation(n for n in (*tax_words.ALL_TAX_NAMES, *VAT_NAMES) if n != "vat")
_SUP = rf"(?:{_alt(SUPPLIERS)})"
_SUP1 = rf"(?:{_alt(SUPPLIER)})"
_B = r"(?<![\w&-])"
#: Before a preposition of one letter ("z VAT", "s DPH", "з ПДВ"): no apostrophe either ("Company's VAT").
_BP = r"(?<![\w&'’.-])"
#: Between a basis word and the tax name: a space or a hyphen ("ex-GST"), or nothing after a dot ("incl.VAT").
_GAP = r"(?:(?<=\.)[\s-]*|[\s-]+)"
_E = r"(?![\w&-])"
#: money coming back to us: "money back", "money we got back", "money received / refunded / owed / credited".
_MONEY_BACK = r"(?=\s+(?:[\w'’]+\s+){0,2}?(?:back|received|refunded|owed|credited)\b)"
_TOPN = rf"(?:\d{{1,2}}|{_alt(NUMBER_WORDS)})"
#: Articles and possessives before a ranking ("les", "nos", "de", "die", "our"): dropped with it.
_DET = (r"(?:(?:les|nos|mes|los|las|nuestros|nuestras|i|gli|le|os|as|nossos|nossas|de|die|unsere|unserer|våra|"
        r"vores|våre|naszych|nasi|the|our)\s+)?")
_DET1 = (r"(?:(?:le|la|el|il|lo|o|a|het|de|der|den|die|det|the|our|notre|nuestro|nosso|nostro|unser|vår|vores|"
         r"vår)\s+)?")
#: Words after "how much / what" before a percent sign of a total ("papier = combien de % du total Y").
_HOW = (r"(?:combien\s+de|combien|quel(?:le)?|what|how\s+much|how\s+many|cu[áa]nto|qu[ée]|quanto|quale|hoeveel|"
        r"welk(?:e)?|wie\s+viel(?:e)?|hur\s+mycket|hvor\s+meget|hvor\s+mye|ile|kuinka\s+paljon|kuinka\s+monta)")
_PERCENT = r"(?:%|procent|pourcentage|percent(?:age)?|porcentaje|percentuale|prozent|prosent|prosentti)"
#: What a share is of: a total or a spend ahead in the question.
_OF_TOTAL = (r"(?=[^?]{1,160}?(?:\btotal|\btotaal|\bgesamt|\bsum|%|\bspend|\bd[ée]penses|\bgastos?|\bspesa|"
             r"\buitgaven|\butgifter|\bprocent|\bpercent))")
_STATUS_HEAD = r"(?P<head>\bstatus(?:es|sen|ar|er|y)?|\bstatuts?|\bestados?|\bstat[oi]|\btilat?)"


#: "papier = combien de % du total Ypsilon", "Beta = what % of total": the share of the left side (read before the
#: rules, whose name guard would keep a supplier's name on the left from being read with it).
_EQUATION = re.compile(
    rf"(?P<lead>^|[:;,]\s*)(?P<x>[^=?:;,]{{2,80}}?)\s*=\s*(?:{_HOW}\s*)?{_PERCENT}\s*(?:du|de\s+la|de|del|della|do|"
    rf"da|of(?:\s+the)?|van\s+(?:het\s+)?|vom|von|av|af|z)?\s*(?=total|totaal|gesamt|summ)", _I)


def _top_n(match: re.Match[str]) -> str:
    n = match.group("n")
    return f"top {NUMBER_WORDS.get(n.casefold(), n)} suppliers"


def _statuses(match: re.Match[str]) -> str:
    """ "status (concept, geboekt, betaald)": each listed status in the English the status reader knows."""
    def word(m: re.Match[str]) -> str:
        return _STATUS_OF.get(m.group(0).casefold(), m.group(0))

    listed = re.sub(r"[^\W\d_]+", word, match.group("list"))
    return f"{match.group('head')} ({listed})"


#: "(what is) the amount of invoices from Beta for Company A in 2025?": in accounts payable "amount" is their value
#: as often as their number, so both are asked of the same documents ("<documents>: how many and total", the
#: invoice list/count and total reader's form, router/list_totals.py) and the answer names the reading. A money word
#: before "amount" ("the total amount of", "gross amount of") keeps it the value alone; "number of" stays a count.
_AMOUNT_OF_DOCUMENTS = re.compile(
    rf"{_B}(?:(?:what|how\s+much)\s+(?:is|was|are|were)\s+|what['’]s\s+)?(?:the\s+)?"
    rf"(?<!total\s)(?<!gross\s)(?<!net\s)(?<!eur\s)(?<!euro\s)(?<!overall\s)(?<!invoiced\s)(?<!money\s)"
    rf"(?<!value\s)(?<!sum\s)amount\s+of\s+(?:the\s+)?"
    rf"(?P<docs>invoices|credit\s+notes|bills|invoice(?=\s+(?:from|for|of|at|by)\b)){_E}"
    rf"(?P<rest>[^?!]*?)(?P<end>\s*[?!.]*\s*)$", _I)
#: How the reading is named in the answer.
_BOTH_READ = "their number and their total"


def _amount_of_documents(text: str, read: list[tuple[str, str]]) -> str:
    """``text`` with "the amount of invoices <scope>" asked as their number and their total over one scope."""
    m = _AMOUNT_OF_DOCUMENTS.search(text)
    if m is None:
        return text
    docs = "invoices" if m.group("docs").casefold() == "invoice" else m.group("docs")
    both = f"{text[:m.start()]}{docs}{m.group('rest').rstrip(' ,;:')}: how many and total{m.group('end')}"
    if read_list_total(both) is None:
        # another ask beside it ("by month", "top 3"): the documents' number, as the count readers read it
        read.append((f"amount of {m.group('docs')}", "their number"))
        return f"{text[:m.start()]}number of {docs}{m.group('rest')}{m.group('end')}"
    read.append((f"amount of {m.group('docs')}", _BOTH_READ))
    return both


#: An amount as written before a postposed threshold word: a currency sign, grouped digits, a multiplier, a currency.
_AMOUNT = (r"(?P<amount>(?<![\w.,/])(?<!\d-)(?:[€$£]\s?)?(?:\d{1,3}(?:[.,'’\s]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d+)?)"
           r"(?:\s?(?:k|tys\.?|tis\.?|bin|mln\.?|mio\.?|tsd\.?|mii)(?![^\W\d_]))?"
           r"(?:\s?(?:€|eur|euro|tl|usd|chf|gbp|lei|ron|kč|czk|zł|pln|uah|huf|ft)(?![^\W\d_]))?)")


def _postposed_threshold(match: re.Match[str]) -> str:
    """"500 € üstü faturalar": "invoices above 500 €" (the comparator before its amount, the noun first)."""
    side = "above" if match.group("side").casefold() in {w.casefold() for w in ABOVE_AFTER} else "below"
    docs = f"{match.group('docs')} " if match.group("docs") else ""
    return f"{docs}{side} {match.group('amount')}"


_RULES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p, _I), r) for p, r in (
        # --- "top2 dostawców", "top3": the top N, its number touching the word
        (r"(?<![\w-])top(?=\d{1,2}(?!\d))", "top "),
        # --- "en büyük 2 tedarikçi", "největší 3 dodavatelé": the biggest word before the number
        (rf"{_B}(?:{_alt((*TOP_PLURAL, *TOP_SINGULAR))})\s+(?P<n>{_TOPN})\s+"
         rf"(?:{_alt((*RANKED_PLURAL, *RANKED_SINGULAR))}){_E}", _top_n),
        # --- "po dostawcach", "tedarikçi bazında", "aylık kırılım", "po grupach produktowych": by <dimension>
        *((rf"{_B}(?:{_alt(phrases)}){_E}", f"by {dimension}") for dimension, phrases in BY_DIMENSION.items()),
        # --- thresholds: "powyżej 5 000 EUR", "500 € üstü faturalar" (the invoices above the amount)
        (rf"{_B}(?:{_alt(ABOVE_BEFORE)})\s+(?=[€$£]?\s?\d)", "above "),
        (rf"{_B}(?:{_alt(BELOW_BEFORE)})\s+(?=[€$£]?\s?\d)", "below "),
        (rf"{_AMOUNT}\s+(?P<side>{_alt(ABOVE_AFTER)}|{_alt(BELOW_AFTER)}){_E}(?:\s+(?P<docs>{_alt(DOCUMENT_NOUNS)}){_E})?",
         _postposed_threshold),
        # --- "bigger then 15k EUR": the comparative's "than" as second-language writers spell it, before an amount
        (r"\b(more|greater|larger|higher|bigger|less|lower|smaller|fewer)\s+then(?=\s+[€$£]?\s?\d)", r"\1 than"),
        # --- spend: "w zakupach Company B", "toplam harcama": in the total spend
        (rf"{_B}(?:w|v|în|in)\s+(?:{_alt(SPEND)}){_E}", "in total spend"),
        (rf"{_B}(?:{_alt(TOTAL)})\s+(?=(?:{_alt(SPEND)}){_E})", "total "),
        # --- "X procent from all spend": the share of X in the total
        (rf"{_B}(?:{_alt(PERCENT_WORDS)})\s+(?:from|of|z|ze|din|dintre|iz|in)\s+(?=(?:the\s+)?(?:all|total|whole|"
         rf"overall)\b)", "share of "),
        # --- rankings: "classement des 3 premiers fournisseurs", "les 2 plus gros fournisseurs", "de 3 grootste
        # leveranciers", "die 2 größten Lieferanten": the top N suppliers; "le plus gros fournisseur": the top one
        (rf"{_B}(?:{_alt(RANKING_NOUNS)})\s+(?:(?:des|de\s+los|de\s+las|de|dei|degli|delle|dos|das|van\s+de|van|der|"
         rf"av|af|of(?:\s+the)?|the)\s+)?(?={_DET}{_TOPN}\s+(?:{_alt(TOP_PLURAL)})\s)", ""),
        (rf"{_B}{_DET}(?P<n>{_TOPN})\s+(?:{_alt(TOP_PLURAL)})\s+(?:{_alt(RANKED_PLURAL)}){_E}", _top_n),
        (rf"{_B}{_DET1}(?:{_alt(TOP_SINGULAR)})\s+(?:{_alt(RANKED_SINGULAR)}){_E}", "the top supplier"),
        (rf"{_B}(?:(?:le|el|il|o)\s+)?(?:fournisseur|proveedor|fornitore|fornecedor)\s+(?:(?:le|el|lo|il|o)\s+)?"
         rf"(?:plus\s+(?:gros|grand|important)|m[áa]s\s+(?:grande|importante)|più\s+(?:grande|importante)|"
         rf"mais\s+(?:importante|grande)){_E}", "the top supplier"),
        # --- shares: "poids de X dans le total", "aandeel van X in", "udział X w": the share of X
        # ("udział (share) X in total spend": a gloss of the word beside it, read once)
        (rf"{_B}(?:{_alt(SHARE_NOUNS)})\s*\(\s*share\s*\)\s*(?:(?:of|de|di|van|von|z)\s+)?{_OF_TOTAL}", "share of "),
        (rf"{_B}(?:{_alt(SHARE_NOUNS)})\s+(?:de\s+la|de\s+los|de\s+las|du|des|de|d['’]\s*|di|del|della|dello|do|da|"
         rf"dos|das|van\s+de|van\s+het|van|von|vom|der|av|af|of(?:\s+the)?)\s*{_OF_TOTAL}|"
         rf"{_B}part\s+(?:de\s+la|du|des|de|d['’]\s*){_OF_TOTAL}|{_B}udzia[łl](?:em)?\s+{_OF_TOTAL}", "share of "),
        # --- approvals: "fournisseurs sont homologués", "leveranciers zijn goedgekeurd": the approved suppliers
        (rf"{_B}(?:{_alt(RANKED_PLURAL)})\s+(?:sont|son|sono|são|sao|zijn|sind|är|er|są|sa|ovat|are|were)\s+"
         # "approved" itself only here: "approved vendors" is English already and stays as asked (the trace keeps
         # the question as read)
         rf"(?:{_alt(APPROVED)}|approved){_E}", "suppliers are approved"),
        # --- duplicates: "saisies 2 fois", "twee keer geboekt", "dubbele facturen": documents received twice
        (rf"{_B}(?:{_alt(ENTERED)})\s+(?:{_alt(TWICE)}){_E}|{_B}(?:{_alt(TWICE)})\s+(?:{_alt(ENTERED)}){_E}",
         "received twice"),
        (rf"{_B}(?:{_alt(DUPLICATE)})\s+(?=(?:{_alt(DOCUMENT_NOUNS)}){_E})", "duplicate "),
        # --- statuses listed after "status": "per status (concept, geboekt, betaald, geannuleerd)"
        (rf"{_STATUS_HEAD}\s*:?\s*\((?P<list>[^()]{{1,160}})\)", _statuses),
        # --- statuses beside a document noun: "geannuleerde facturen", "facturas anuladas": "cancelled invoices"
        (rf"{_B}(?P<s>{_alt(STATUS_ADJECTIVES)})\s+(?P<d>{_alt(DOCUMENT_NOUNS)}){_E}",
         lambda m: f"{STATUS_ADJECTIVES[m.group('s').casefold()]} {m.group('d')}"),
        (rf"{_B}(?P<d>{_alt(DOCUMENT_NOUNS)})\s+(?P<s>{_alt(STATUS_ADJECTIVES)}){_E}",
         lambda m: f"{STATUS_ADJECTIVES[m.group('s').casefold()]} {m.group('d')}"),
        # --- "topp 3 leverantörer", "top-3": the top N
        # ("Top-5-Lieferanten" is the German shop floor's compound, read by its reader as typed)
        (r"(?<![\w-])topp?\s*-\s*(?=\d{1,2}(?![\w-]))|(?<![\w-])topp(?=\s+\d{1,2}(?![\w-]))", "top "),
        # --- "comparer les dépenses de X entre sept. et oct.", "vergelijk": compare
        (rf"{_B}(?:{_alt(COMPARE)}){_E}", "compare"),
        # --- "nb factures", "nbre avoirs", "n° facturen": the number of
        (rf"(?<![\w#])(?:{_alt(NUMBER_SHORT)})\.?\s+(?:de\s+|d['’]\s*|of\s+)?(?=(?:{_alt(DOCUMENT_NOUNS)}){_E})",
         "number of "),
        # --- whom one may buy from: the approved suppliers ("who are we allowed to buy from at Kestrel")
        # only with a permission word ("may", "allowed", "permitted", "authorised", "cleared"): "what could we
        # order from Zeta" / "what can we buy from X" ask the catalogue, never the approved-vendor list
        (rf"{_B}(?:who|whom|which|what)(?:\s+(?:suppliers?|vendors?|companies|firms|{_SUP}|{_SUP1}))?\s+"
         r"(?:(?:are|is|can|could|may|might)\s+(?:we|i|us|they|you|one)\s+(?:be\s+)?(?:allowed|permitted|"
         r"authori[sz]ed|cleared)\s+to|may\s+(?:we|i|us|they|you|one))\s+"
         rf"(?:buy|order|purchase|source|shop|procure)\s+(?:from|with){_E}", "which suppliers are approved"),
        (rf"{_B}(?:suppliers?|vendors?|{_SUP}|{_SUP1})\s+(?:that\s+|which\s+)?(?:we|i)\s+(?:are\s+|am\s+)?"
         r"(?:(?:allowed|permitted|authori[sz]ed|cleared)\s+to|can|may)\s+(?:buy|order|purchase|source|shop|use)"
         rf"(?:\s+from)?{_E}", "approved suppliers"),
        (rf"{_B}(?:{_alt(APPROVED)})\s+(?:suppliers|vendors|{_SUP})(?=\s|$|[?.,;:!)])", "approved suppliers"),
        (rf"{_B}(?:{_SUP}|suppliers|vendors)\s+(?:{_alt(APPROVED)}){_E}", "approved suppliers"),
        (rf"{_B}(?:{_SUP1})\s+(?:{_alt(APPROVED)}){_E}", "approved supplier"),
        # --- VAT and its basis (the closed class of router/tax_words.py): "without BTW", "ex-GST", "KDV hariç",
        # "HT", "IVA esclusa", "incl. GST", "s DPH", "TTC", "BTW-bedrag", "importo IVA"; every such tax is the VAT
        (rf"{_BP}(?:{_alt(WITHOUT)}|{tax_words.alternation(tax_words.WITHOUT_TAX)}){_GAP}{_VAT}{_E}|"
         rf"{_B}{_VAT}[\s-]*(?:{tax_words.alternation(tax_words.TAX_THEN_EXCLUDED)}){_E}|"
         rf"(?-i:{_B}(?:{tax_words.alternation(tax_words.HT)}){_E})", "excluding VAT"),
        # an inclusion word before any tax name ("incl gst", "inkl. MwSt"); a bare preposition ("with", "s", "z",
        # "con") only before an unambiguous one ("with GST", "s DPH", "con IVA"): "spend with PVM" may name a supplier
        (rf"{_BP}(?:{tax_words.alternation(w for w in (*WITH, *tax_words.WITH_TAX) if w not in tax_words.BARE_WITH)})"
         rf"{_GAP}{_VAT}{_E}|"
         rf"{_BP}(?:{tax_words.alternation(tax_words.BARE_WITH)}){_GAP}{_VAT_STRONG}{_E}|"
         # (the Romance and Germanic "con IVA", "met btw", "mit MwSt": the names of their own language, any case)
         rf"{_BP}(?:{tax_words.alternation(w for w in tax_words.BARE_WITH if w in (*WITH, 'cu', 'com o', 'avec la'))})"
         rf"{_GAP}(?:{_alt(n for n in VAT_NAMES if n not in ('ptu', 'alv'))}){_E}|"
         rf"{_B}{_VAT}[\s-]*(?:{tax_words.alternation(tax_words.TAX_THEN_INCLUDED)}){_E}|"
         rf"(?-i:{_B}(?:{tax_words.alternation(tax_words.TTC)}){_E})", "including VAT"),
        (rf"{_B}{_VAT}[-\s]?(?:{_alt(AMOUNT_OF)}|deel|gedeelte|parte|portion|part|component){_E}"
         r"(?!\s*(?:%|percent|per\s*cent|share))", "VAT part"),
        (rf"{_B}(?:{_alt(AMOUNT_OF)})\s+(?:(?:della|dell['’]|do|da|van\s+de|van|av|af)\s*)?{_VAT}{_E}", "VAT part"),
        # a VAT name beside a basis word of the reader's ("only the BTW part", "net of MwSt"): the tax itself.
        # "btw" in lower case alone is the chat word "by the way" ("btw, spend Q1"): only beside a tax word
        # alone, only the unambiguous names ("GST for Q1", "ПДВ"); a short or lower-case one ("pvm", "gst", "DDS")
        # only beside a basis word or a tax noun ("the gst", "pvm amount"): alone it may be a name
        (rf"(?-i:{_B}(?:{tax_words.alternation(n for n in tax_words.STRONG_CASED if n != 'VAT')}){_E})", "VAT"),
        (rf"{_B}(?:{tax_words.alternation(tax_words.NON_LATIN_NAMES)}){_E}", "VAT"),
        (rf"{_B}(?:{_WEAK_TAX})(?=\s+(?:{tax_words.alternation(tax_words.TAX_NOUNS_AFTER)})(?![\w&-])|"
         r"\s*/\s*vat\b)", "VAT"),
        (rf"(?<![\w&-])((?:{tax_words.alternation(tax_words.TAX_WORDS_BEFORE)})\s+)(?:{_WEAK_TAX}){_E}", r"\1VAT"),
        # "net position", "net effect": invoices and credit notes netted, the governed spend (no tax basis)
        (rf"{_B}net\s+(?:{tax_words.alternation(tax_words.NETTED_NOUNS)}){_E}", "spend"),
        # the basis words of other languages without a tax name ("bruto", "lordo", "brüt"; "neto", "nettó"): the
        # English basis ("brutto" and "netto" the readers know as typed)
        (rf"{_B}(?:{tax_words.alternation(w for w in tax_words.GROSS_WORDS if w != 'brutto')}){_E}", "gross"),
        (rf"{_B}(?:{tax_words.alternation(w for w in tax_words.NET_WORDS if w != 'netto')}){_E}", "net"),
        # --- questions that need no period: an agreement's clause, a list price, what is overdue today
        (rf"{_B}(?:{_alt(FRAMEWORK_AGREEMENT)}){_E}", "framework agreement"),
        (rf"{_B}(?:{_alt(PAYMENT_TERMS)}){_E}", "payment terms"),
        (rf"{_B}(?:{_alt(WARRANTY)}){_E}(?=[^?.!]*\b(?:agreement|contract|{_alt(AGREEMENT)}|warranty|"
         rf"{_alt(DURATION_UNITS['months'])}|{_alt(DURATION_UNITS['years'])}|months|years)\b|[^?.!]*$)", "warranty"),
        (rf"{_B}(?:{_alt(AGREEMENT)}){_E}(?=[^?]*(?:payment\s+terms|warranty|framework\s+agreement|"
         r"notice|clause|liabilit|insurance))", "agreement"),
        (rf"{_B}(?:{_alt(UNTIL_WHEN)}){_E}", "until when"),
        (rf"{_B}(?:{_alt(PER_CATALOGUE)}){_E}", "per catalogue"),
        (rf"{_B}(?:{_alt(OVERDUE)}){_E}", "overdue"),
        (rf"{_B}(?:{_alt(UNPAID)}){_E}", "unpaid"),
        # ("quanto está vencido", "qué está vencido": the copula of the languages before it, read as English's)
        (rf"{_B}(?:está|esta|estão|estao|están|estan|es|son|est|sont|è|sono|zijn|jest|są|je|jsou|este|sunt|är|er)"
         r"\s+(?=overdue\b)", "is "),
        (rf"(?<=overdue)(?P<mid>(?:\s+(?:and|e|y|et|und|en|i|ve|och|og|a)\s+unpaid)?[^?.!]{{0,40}}?)\s+"
         rf"(?:{_alt(AS_OF_TODAY)}){_E}", lambda m: f"{m.group('mid')} today"),
        (rf"\b(?P<lead>in|en|em|na|w|v|de|di|ve|i)\s+(?:{_alt(DURATION_UNITS['days'])}){_E}"
         r"(?=[^?]*\bpayment\s+terms|\s*\??\s*$)", lambda m: f"{m.group('lead')} days"),
        (rf"{_B}(?:how\s+many|cu[áa]nt[oa]s|quant[oa]s|quant[ie]|combien\s+de|hoeveel|ile|kolik|c[âa]te|ka[çc]|"
         rf"hur\s+många|hvor\s+mange)\s+(?P<unit>{_alt(DURATION_UNITS['months'])}|{_alt(DURATION_UNITS['years'])}|"
         rf"{_alt(DURATION_UNITS['days'])}){_E}",
         lambda m: "how many " + next(unit for unit, words in DURATION_UNITS.items()
                                      if m.group("unit").casefold() in words)),
        # --- documents
        (rf"{_B}(?:{_alt(CREDIT_NOTES)}){_E}", "credit notes"),
        (rf"{_B}(?:facturen|fatture|faturas|fakturor|fakturaer|faktury|faktur|laskut|laskuja|faturalar|faturaları|"
         rf"faturalari|faturaların|facturi|facturile|facturilor|fakturách|fakturach|számlák|szamlak){_E}", "invoices"),
        (rf"{_B}(?:factuur|fattura|fatura|faktura|fakturaen){_E}", "invoice"),
        # a gloss restating the word before it: "credit notes (credit notes)", "VAT/VAT"
        (r"\b(credit\s+notes?|invoices?|VAT)\s*(?:\(\s*\1\s*\)|/\s*\1\b)", r"\1"),
        # --- the counting and asking words
        (rf"{_B}(?:{_alt(NUMBER_OF)})\s+", "number of "),
        (rf"{_B}(?:hoeveel|ile)(?=\s+(?:(?:cancelled|draft|posted|paid|duplicate|approved)\s+)?"
         rf"(?:invoices|credit\s+notes|suppliers|{_SUP}|facturen|leveranciers)\b)",
         "how many"),
        # (Turkish and Hungarian count in the singular: "kaç fatura", "hány számla" are "how many invoices")
        (rf"{_B}(?:kaç|kac|hány|hany)(?:\s+tane)?\s+(?P<noun>invoice|credit\s+note|supplier|tedarikçi|tedarikci)"
         rf"(?![\w-])", lambda m: "how many " + {"tedarikçi": "suppliers", "tedarikci": "suppliers"}.get(
             m.group("noun").casefold(), m.group("noun") + "s")),
        (rf"{_B}(?:{_alt(HOW_MANY)}){_E}", "how many"),
        (rf"{_B}(?:{_alt(HOW_MUCH)}){_E}", "how much"),
        # --- "biggest leverancier", "fornecedor principal": the top supplier
        (rf"{_B}(?:{_alt(BIGGEST)})\s+(?=(?:{_SUP}|{_SUP1})\b)", "biggest "),
        (rf"{_B}({_SUP}|{_SUP1})\s+(?:più\s+grand[ei]|maggior[ei]|principal(?:i|e|es)?|maior(?:es)?){_E}",
         lambda m: "biggest suppliers" if re.fullmatch(_SUP, m.group(1), _I) else "biggest supplier"),
        # --- "3t25", "2T26": a quarter in the Iberian shorthand (read as the year alone, a quarter's figure came
        # back as the year's, a silent wrong); the Dutch "kwartaal 3 2025" is router/period_words.py's, read earlier
        (r"(?<![\w/.-])([1-4])[tT]((?:20)?\d{2})(?![\w/.-])", lambda m: f"Q{m.group(1)} 20{m.group(2)[-2:]}"),
        # --- spend and its verbs: "spesa per", "uitgaven", "despesas com", "pagato a"
        (rf"{_B}(?:{_alt(SPEND)}){_E}", "spend"),
        (rf"{_B}(?:speso|spesi|spesa\s+fatta|uitgegeven|gastou|gastamos){_E}", "spent"),
        (rf"{_B}(?:pagato|pagati|pagata|betaald|betalt|pagou|pagamos){_E}", "paid"),
        # --- suppliers; "fornecedor Gamma" is the supplier Gamma
        (rf"{_B}{_SUP}{_E}", "suppliers"),
        (rf"{_B}{_SUP1}{_E}", "supplier"),
        # --- money as the measure: "money to Orbis", "any money to vendor X", "lab money spent", "how much money"
        (rf"{_B}(?:{_alt(MONEY[1:])}){_E}", "money"),
        (r"\bhow\s+much\s+(?:of\s+)?(?:our\s+)?money\b", "how much"),
        (r"\bmoney\s+(?:(?:we\s+|they\s+|was\s+|were\s+)?(?:spent|paid|gone|went|go|going|out|sent|"
         r"transferred)\b)(?!\s+back\b)(\s+(?:to|with)\b)?", lambda m: "spend with" if m.group(1) else "spend"),
        (r"\bmoney\s+(?=(?:to|towards|with|at|from)\b)(?:to|towards|with|at|from)\b", "spend with"),
        (r"\bmoney\s+(?=(?:for|on|in|into)\b)", "spend "),
        # money a supplier gave back is what its credit notes hold: "money we got back from Beta" is the credit notes
        # from Beta (stated in the answer's note), never the spend with Beta
        (r"\bmoney\s+(?:(?:we|i|they)\s+)?(?:(?:got|get|received|paid|were\s+paid|was\s+paid)\s+)?back\b",
         "credit notes"),
        # money still coming to us (refunds, credits, what is owed to us) is no spend: "money" stays as typed
        (rf"\bmoney\b(?!{_MONEY_BACK})", "spend"),
        # "spend with at comp. B" (a company after the money): the reader reads "at" itself
        (r"\bspend\s+with\s+(?=at\b)", "spend "),
    )
)


@dataclass(frozen=True)
class ForeignReading:
    """The question with its foreign and plain words read, and what was read for the answer's note."""

    text: str
    read: tuple[tuple[str, str], ...]  # (as typed, read as)


def _name_words(gazetteer: Gazetteer) -> frozenset[str]:
    words: set[str] = set()
    spellings = [c.company_name for c in gazetteer.companies]
    spellings += list(gazetteer.supplier_aliases) + list(gazetteer.supplier_names.values())
    spellings += [g.group_name for g in gazetteer.product_groups] + [s for s, _ in gazetteer.group_synonyms]
    for spelling in spellings:
        words.update(w.casefold() for w in re.findall(r"[^\W\d_][\w'’-]*", spelling))
    return frozenset(words)


@functools.lru_cache(maxsize=64)
def _names_pattern(spellings: tuple[str, ...]) -> re.Pattern[str] | None:
    kept = [s for s in spellings if len(s) >= 3]
    if not kept:
        return None
    return re.compile(rf"(?<![\w-])(?:{_alt(kept)})(?![\w-])", re.I)


def _protected(text: str, gazetteer: Gazetteer) -> list[tuple[int, int]]:
    """The spans of the tenant's company, supplier and catalogue synonym names in ``text`` (a name's words are never
    rewritten)."""
    spellings = [c.company_name for c in gazetteer.companies]
    spellings += list(gazetteer.supplier_aliases) + list(gazetteer.supplier_names.values())
    # the catalogue's own (German) group names are names as written: "Kabel und Stecker" is no Dutch "kabel"
    spellings += [synonym for synonym, _ in gazetteer.group_synonyms]
    pattern = _names_pattern(tuple(sorted(set(spellings))))
    spans = [] if pattern is None else [m.span() for m in pattern.finditer(text)]
    # a tax name that is a word of a tenant's name ("PVM", "DDS", "GST Logistics" typed "GST") is that name
    words = _tax_name_words(tuple(sorted(set(spellings + [g.group_name for g in gazetteer.product_groups]))))
    if words:
        spans += [m.span() for m in _TAX_TOKEN.finditer(text) if m.group(0).casefold() in words]
    return spans


_TAX_TOKEN = re.compile(rf"(?<![\w&-])(?:{_WEAK_TAX})(?![\w&-])", _I)


@functools.lru_cache(maxsize=64)
def _tax_name_words(spellings: tuple[str, ...]) -> frozenset[str]:
    """The words of the tenant's names that are also a tax name (never "vat"): read as the name, never the tax."""
    taxes = {n.casefold() for n in (*tax_words.ALL_TAX_NAMES, *VAT_NAMES)} - {"vat"}
    return frozenset(w.casefold() for s in spellings for w in re.findall(r"[^\W\d_][\w'’-]*", s)
                     if w.casefold() in taxes)


def _apply(text: str, gazetteer: Gazetteer) -> str:
    for pattern, replacement in _RULES:
        spans = _protected(text, gazetteer)

        def sub(match: re.Match[str], repl: str | Callable[[re.Match[str]], str] = replacement,
                spans: list[tuple[int, int]] = spans) -> str:
            if any(s < match.end() and match.start() < e for s, e in spans):
                return match.group(0)  # inside a name of the tenant ("Fornitore Rossi SpA" stays a name)
            return repl(match) if callable(repl) else match.expand(repl)

        text = pattern.sub(sub, text)
    return text


_TOKEN = re.compile(r"[^\W\d_][\w'’.-]*|&")


def _group_meaning(group_name: str) -> frozenset[str]:
    return frozenset(_norm(w) for w in re.findall(r"[^\W\d_]+", group_name) if w.casefold() not in _JOINERS)


def _match_group(meaning: frozenset[str], gazetteer: Gazetteer) -> str | None:
    """The one tenant group whose name means ``meaning`` (generic heads aside), or None."""
    groups = [(g.group_name, _group_meaning(g.group_name)) for g in gazetteer.product_groups]
    for relax in (False, True):
        want = meaning - _GENERIC if relax else meaning
        if not want:
            return None
        found = {name for name, words in groups if (words - _GENERIC if relax else words) == want}
        if len(found) == 1:
            name = found.pop()
            named = dict(groups)[name]
            if relax and (meaning & _GENERIC) - named and sum(want <= words for _, words in groups) > 1:
                # "materiały laboratoryjne" (laboratory supplies) beside "Laboratory Equipment" and "Lab Consumables":
                # the generic head said is not the group's and another group shares the rest: not surely one
                return None
            return name
        if found:
            return None
    return None


def _groups(text: str, gazetteer: Gazetteer, read: list[tuple[str, str]]) -> str:
    """``text`` with each run of group words in another language (or shorthand) written as the tenant's group
    (a word inside a company or supplier name of the tenant, "Iris Office Supplies", is no group word)."""
    spans = _protected(text, gazetteer)
    tokens = [(m.start(), m.end(), m.group(0).rstrip(".")) for m in _TOKEN.finditer(text)
              if not any(s < m.end() and m.start() < e for s, e in spans)]
    out: list[str] = []
    at = 0
    i = 0
    while i < len(tokens):
        run: list[tuple[int, int, str, tuple[str, ...]]] = []
        j = i
        while j < len(tokens):
            start, end, word = tokens[j]
            if run and not text[run[-1][1]:start].isspace():
                break
            low = word.casefold()
            parts = SHORTHAND.get(low)
            meaning = (_norm(parts),) if parts else _compound(word)
            if meaning is not None:
                run.append((start, end, word, meaning))
            elif run and low in _JOINERS:
                run.append((start, end, word, ()))
            else:
                break
            j += 1
        while run and not run[-1][3]:
            run.pop()
        # (only the group words count: an English run joined by "and" is the reader's, "pressure sensors and sensors")
        foreign = any(w.casefold() not in _ENGLISH_FORMS for _, _, w, ms in run if ms)
        if run and foreign:
            meaning = frozenset(m for *_, ms in run for m in ms)
            group = _match_group(meaning, gazetteer)
            if group is not None:
                start, end = run[0][0], run[-1][1]
                out.append(text[at:start] + group)
                read.append((text[start:end], group))
                at = end
                i = i + len(run)
                continue
        i = max(j, i + 1) if run else i + 1
    out.append(text[at:])
    return "".join(out)


#: Slots a payee's name stands in: "pay Oris", "money to Orbbis", "with fornecedor Iris".
_PAYEE = re.compile(r"\b(?:pay|paid|paying|to|with|from|supplier|vendor|at)\s+([^\W\d_][\w'’-]{3,})", re.I)
_NOT_A_NAME = frozenset({"date", "this", "that", "last", "next", "each", "every", "what", "which", "them", "their",
                         "those", "these", "both", "whom", "over", "more", "most", "total", "suppliers", "vendors",
                         "supplier", "vendor", "company", "companies", "spend", "invoices", "invoice", "year",
                         "quarter", "month", "week", "today", "from", "with", "into", "about", "after", "before",
                         "during", "since", "until", "some", "such", "than", "then", "only", "all", "any", "also"})
_GENERIC_NAME_WORDS = frozenset({"supplier", "supplies", "supply", "company", "gmbh", "ltd", "limited", "inc",
                                 "corp", "group", "trading", "the", "and", "services", "service", "systems",
                                 "solutions", "international", "industrial", "logistics"})


def _supplier_typos(text: str, gazetteer: Gazetteer, names: frozenset[str],
                    read: list[tuple[str, str]]) -> str:
    """A payee typed one edit off a supplier's distinctive name word ("Oris" for "Orbis"): that word, when exactly
    one supplier is that close and the typed word is no name, group or vocabulary word."""
    tokens: dict[str, set[str]] = {}
    group_words = {w.casefold() for g in gazetteer.product_groups for w in re.findall(r"\w+", g.group_name)}
    spellings = [(sid, gazetteer.supplier_names.get(sid, "")) for sid in gazetteer.supplier_names]
    spellings += [(sid, alias) for alias, ids in gazetteer.supplier_aliases.items() for sid in ids]
    for sid, spelling in spellings:
        words = [w for w in re.findall(r"[^\W\d_]+", spelling) if w.casefold() not in _GENERIC_NAME_WORDS]
        if words and len(words[0]) >= 5 and words[0].casefold() not in group_words:
            tokens.setdefault(words[0].casefold(), set()).add(sid)
    display: dict[str, str] = {}
    for _, spelling in spellings:
        for w in re.findall(r"[^\W\d_]+", spelling):
            display.setdefault(w.casefold(), w[:1].upper() + w[1:].lower() if w.isupper() else w)

    def sub(match: re.Match[str]) -> str:
        word = match.group(1)
        low = word.casefold()
        if low in names or low in _NOT_A_NAME or low in _FORM_TO_WORD or low in group_words:
            return match.group(0)
        # (one edit: the supplier's word is five letters or more, router/edits.py's ONE_EDIT_FROM_FIVE)
        close = unique_typo(low, tokens, 1)
        if close is None or len(tokens[close]) != 1:
            return match.group(0)
        fixed = display.get(close, close)
        read.append((word, fixed))
        return match.group(0)[: match.start(1) - match.start()] + fixed

    return _PAYEE.sub(sub, text)


def read_foreign_words(question: str, gazetteer: Gazetteer) -> ForeignReading | None:
    """The question with its foreign / plain entity and measure words in the reader's English, its foreign group
    names as the tenant's groups and a one-edit supplier typo as the supplier; ``None`` when nothing was read."""
    names = _name_words(gazetteer)
    read: list[tuple[str, str]] = []
    text = _groups(question, gazetteer, read)
    text = _EQUATION.sub(lambda m: f"{m.group('lead')}share of {m.group('x').strip()} in ", text)
    text = _apply(text, gazetteer)
    # "preço de tabela", "prezzo medio unitario", "stukprijs": a product's prices (router/price_phrases.py)
    text = price_phrases.read_prices(text)
    text = _amount_of_documents(text, read)
    text = _supplier_typos(text, gazetteer, names, read)
    text = " ".join(text.split())
    if text == " ".join(question.split()):
        return None
    # "ex-GST", "KDV dahil": the tax the product knows as VAT, said so in the answer
    read.extend((name, "VAT") for name in tax_words.other_tax_names(question, text))
    return ForeignReading(text=text, read=tuple(read))


def amount_read_as_both(reading: ForeignReading | None) -> str | None:
    """The sentence naming "amount of invoices" read as their number and their total, or ``None``."""
    both = [typed for typed, as_read in (reading.read if reading is not None else ()) if as_read == _BOTH_READ]
    return f"{both[0]!r} is read as {_BOTH_READ}, each over the same documents." if both else None


def foreign_note(reading: ForeignReading) -> str:
    """How the question was read, for the answer's interpretation."""
    named = "; ".join(f"{typed!r} as {as_read!r}" for typed, as_read in reading.read)
    return f"words read as {reading.text!r}" + (f" ({named})" if named else "")
