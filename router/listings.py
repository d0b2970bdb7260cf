"""What was bought: "which products did Alpenland actually buy from Beta Trading in Aug 2025?".

Such a question asks for the members of a dimension (products, suppliers, product groups) that have spend in the
selection it names: the company, the supplier ("from X"), the goods ("control modules"), the period. That is the
governed spend broken down by the dimension, so the question is read as that breakdown, every constraint kept:
"which products did Alpenland buy from Beta Trading in Aug 2025" is read as "spend of Alpenland with Beta Trading
in Aug 2025 by product". The catalogue ("which products does Beta supply") is another question: only a past
purchase ("did ... buy", "have ... bought") is read so.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from router.reading import parse_breakdown

#: The dimension asked for, by its plural noun.
_DIMENSIONS = {"product": "product", "item": "product", "article": "product", "sku": "product",
               "product code": "product", "catalog item": "product", "catalogue item": "product",
               "catalog product": "product", "catalogue product": "product", "catalog article": "product",
               "supplier": "supplier", "vendor": "supplier", "product group": "product group",
               "category": "product group", "categorie": "product group"}
#: (the code of a product names it: "which item codes / article numbers / part nos did X buy" lists the products)
_CODE_NOUN = r"(?:product|item|article|part|material)\s+(?:codes|numbers|nos\.?|ids)"
_NOUN = (rf"(?P<noun>product\s+groups|categories|{_CODE_NOUN}|products|items|articles|skus|suppliers|vendors)")
#: A ranking or a bound on amounts ("the most units of", "more than 5k EUR from"): another question than a list.
_NOT_A_LIST = re.compile(r"\b(?:most|least|top|bottom|biggest|largest|highest|lowest|fewest|more|less|fewer|above|"
                         r"below|exceed\w*|at\s+least|at\s+most|how\s+many|number|count|share|percent\w*)\b|"
                         r"[€$£%]|\b\d[\d.,]*\s*(?:k|m|mio|eur|usd|chf|gbp)\b", re.I)
_VERB = r"(?:buy|purchase|order|source|get|receive)"
_PAST = r"(?:bought|purchased|ordered|sourced|got|received)"
#: The scope set before the question ("Ypsilon Retail: which suppliers did we buy from in Q1?"): kept as written.
_LEAD = r"^(?P<lead>[^?:]{1,60}?(?::|\s[-–]\s)\s*)?"
_LISTING = re.compile(
    _LEAD + r"\s*(?:which|what)\s+(?:(?:distinct|different|individual|exact|specific)\s+)?" + _NOUN + r"\s+"
    r"(?:(?:did|does)\s+(?P<subject>.+?)\s+(?:actually\s+|really\s+)?" + _VERB +
    r"|(?:have|has)\s+(?P<subject2>.+?)\s+(?:actually\s+|really\s+)?" + _PAST + r")\b(?P<tail>.*)$",
    re.I | re.S)
#: Suppliers "used", "worked with", "dealt with", "engaged", "done business with": which suppliers had counted spend,
#: as "bought from" reads (only for suppliers; "which products did X use" is consumption, another question).
_USE_VERB = (r"(?:use|used|engage|engaged|work\s+with|worked\s+with|deal\s+with|dealt\s+with|trade\s+with|"
             r"traded\s+with|do\s+business\s+with|done\s+business\s+with|did\s+business\s+with|transact\s+with|"
             r"transacted\s+with|spend\s+(?:money\s+)?with|spent\s+(?:money\s+)?with|rely\s+on|relied\s+on)")
_SUPPLIERS_USED = re.compile(
    _LEAD + r"\s*(?:which|what)\s+(?:(?:distinct|different|individual|exact|specific)\s+)?"
    r"(?P<noun>suppliers|vendors)\s+(?:(?:did|does|do)|(?:have|has))\s+(?P<subject>.+?)\s+(?:actually\s+|really\s+)?"
    + _USE_VERB + r"\b(?P<tail>.*)$", re.I | re.S)
_WHAT = re.compile(
    _LEAD + r"\s*what\s+(?:did|has|have)\s+(?P<subject>.+?)\s+(?:actually\s+|really\s+)?(?:" + _VERB + "|" + _PAST +
    r")\b(?P<tail>.*)$", re.I | re.S)
#: The products of a supplier named first, then which of them were bought: "products we buy from Zeta - which did
#: Company B actually buy in Q1 2026?", "of the items we get from Beta, which ones has Kestrel ordered".
_FROM_SUPPLIER_FIRST = re.compile(
    _LEAD + r"\s*(?:(?:of|among)\s+)?(?:the|all\s+(?:the\s+)?)?\s*(?:products|items|articles|skus)\s+"
    r"(?:that\s+|which\s+)?(?:we|i|you|they|the\s+company|[\w.&' -]{1,40}?)\s+(?:usually\s+|normally\s+)?"
    r"(?:" + _VERB + "|" + _PAST +
    r"|buys|purchases|orders|gets)\s+from\s+(?P<supplier>[^?,;:–-]+?)\s*(?:[-–:,;?]\s*)+"
    r"(?:which|what)(?:\s+(?:ones|of\s+them|of\s+those|of\s+these))?\s+(?:did|has|have|does)\s+(?P<subject>.+?)\s+"
    r"(?:actually\s+|really\s+)?(?:" + _VERB + "|" + _PAST + r")\b(?P<tail>.*)$", re.I | re.S)
#: "list the product codes purchased", "List the catalog items Company A bought from Beta in Q1", "show the
#: suppliers we ordered from in H1": a listing verb, the dimension's noun, then a past purchase (its subject may be
#: left to the scope written before).
_LIST_NOUN = (r"(?P<noun>product\s+groups|product\s+codes|catalog(?:ue)?\s+(?:items|products|articles)|categories|"
              r"products|items|articles|skus|suppliers|vendors)")
_LIST_PURCHASED = re.compile(
    _LEAD + r"\s*(?:please\s+)?(?:list|show(?:\s+me)?|give\s+me|name|enumerate)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?"
    r"(?:(?:distinct|different|individual|unique)\s+)?" + _LIST_NOUN + r"\s+(?:that\s+|which\s+)?"
    r"(?:(?P<subject>(?!(?:in|during|over|for|from|since|between)\b)[^?,;:]{1,60}?)\s+)?(?:has\s+|have\s+|had\s+)?"
    r"(?:actually\s+|really\s+)?" + _PAST + r"\b(?P<tail>.*)$", re.I | re.S)
#: "Company C's active vendor list for Q1 2026 (anyone with a counted invoice)", "list of active suppliers, Kestrel,
#: H2 2025": the suppliers with counted invoices in the scope, i.e. its spend by supplier. The words that define
#: "active" by a counted invoice are that listing's own definition; an approved (preferred, framework) list is the
#: agreements' question, never this one.
_ACTIVE_DEFINITION = (r"(?:\s*[(,–-]\s*(?:i\.?e\.?,?\s+)?(?:anyone|anybody|everyone|any\s+(?:supplier|vendor)|every\s+"
                      r"(?:supplier|vendor)|suppliers|vendors|those)\s+with\s+(?:a|an|any|at\s+least\s+one|one\s+or\s+"
                      r"more)\s+(?:counted|posted|validated|booked|recorded)?\s*invoices?\s*\)?)")
_VENDOR_LIST = re.compile(
    r"^(?P<before>.*?)(?<!approved\s)(?<!preferred\s)(?<!authorized\s)(?<!authorised\s)(?<!framework\s)"
    r"\b(?:(?:active|current)\s+)?(?:supplier|vendor)\s+list\b|^(?P<before2>.*?)\blist\s+(?:of\s+)?(?:the\s+)?"
    r"(?:active|current)\s+(?:suppliers|vendors)\b", re.I | re.S)
#: The dimension named first, then its buyer in the passive: "products bought by Alpenland from Northwind in Q1
#: 2026", "the items ordered by Kestrel in H2 2025" (the buyer runs to the supplier or period words).
_BOUGHT_BY = re.compile(
    _LEAD + r"\s*(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?"
    r"(?:(?:distinct|different|individual|unique)\s+)?" + _LIST_NOUN + r"\s+(?:that\s+(?:were|was|have\s+been)\s+)?"
    r"(?:actually\s+|really\s+)?" + _PAST + r"\s+by\s+(?P<subject>[^?,;:]{1,60}?)"
    r"(?P<tail>(?:\s+(?:from|in|during|over|between|since|for|on|at|last|this)\b.*)?[\s?.!]*)$", re.I | re.S)
#: The tail a listing ends with: a period or scope ("in 2026", ", 2026", "since jan 26"), or nothing.
_SCOPE_TAIL = (r"(?P<tail>(?:(?:\s*,\s*|\s+)(?:(?:from|in|during|over|between|since|for|on|at|last|this)\b|"
               r"(?:19|20)\d\d\b|(?:q[1-4]|h[12]|fy)\b).*)?[\s?.!]*)$")
#: The products (only: these shapes read a listing by product) by their plural noun.
_PRODUCT_NOUN = r"(?:product\s+codes|catalog(?:ue)?\s+(?:items|products|articles)|products|items|articles|skus)"
#: The supplier first, then the buyer: "products bought from Gamma Controls by Company B, 2026".
_BOUGHT_FROM_BY = re.compile(
    _LEAD + r"\s*(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?" + _PRODUCT_NOUN +
    r"\s+(?:that\s+(?:were|was|have\s+been)\s+)?(?:actually\s+|really\s+)?" + _PAST +
    r"\s+from\s+(?P<supplier>[^?,;:]{1,60}?)\s+by\s+(?P<subject>[^?,;:]{1,60}?)" + _SCOPE_TAIL, re.I | re.S)
#: The buyer between the noun and the verb: "products Alpenland bought from Beta Trading since Jan 26", "the
#: items we ordered from Zeta in 2025".
_NOUN_SUBJECT_FROM = re.compile(
    _LEAD + r"\s*(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?" + _PRODUCT_NOUN +
    r"\s+(?:that\s+|which\s+)?(?P<subject>(?!(?:that|which|were|was|have|has|had|bought|purchased|ordered|from|"
    r"in|by)\b)[^?,;:]{1,40}?)\s+(?:has\s+|have\s+|had\s+)?(?:actually\s+|really\s+)?" + _PAST +
    r"\s+from\s+(?P<supplier>[^?,;:]{1,60}?)" + _SCOPE_TAIL, re.I | re.S)
#: The goods or supplier between the noun and the buyer: "which products in control equipment did Company C buy
#: in H2 25", "which products from Zeta did Company A buy in 2025".
_LISTING_QUALIFIED = re.compile(
    _LEAD + r"\s*(?:which|what)\s+(?P<noun>products|items|articles|skus)\s+(?P<prep>in|of|under|from)\s+"
    r"(?P<what>[^?,;:]{1,60}?)\s+(?:(?:did|does|do)\s+(?P<subject>.+?)\s+(?:actually\s+|really\s+)?" + _VERB +
    r"|(?:have|has)\s+(?P<subject2>.+?)\s+(?:actually\s+|really\s+)?" + _PAST + r")\b" + _SCOPE_TAIL,
    re.I | re.S)
#: A buyer set before the question, no verb: "company a: which products from Zeta in 2025" (the products bought
#: from the supplier in the period; only with the buyer written before and a period after).
_SCOPED_FROM = re.compile(
    r"^(?P<lead>[^?:]{1,60}?(?::|\s[-–]\s)\s*)(?:which|what)\s+(?P<noun>products|items|articles|skus)\s+from\s+"
    r"(?P<supplier>[^?,;:]{1,60}?)(?P<tail>(?:\s*,\s*|\s+)(?:in|during|over|between|since|for|last|this)\b.*?)"
    r"[\s?.!]*$", re.I | re.S)
#: "who did Kestrel buy from in H2 25", "who has Company B bought from since May": the suppliers, by whom bought.
_WHO_FROM = re.compile(
    _LEAD + r"\s*who\s+(?:did|does|has|have)\s+(?P<subject>.+?)\s+(?:actually\s+|really\s+)?(?:" + _VERB + "|" + _PAST +
    r")\s+from\b(?P<tail>.*)$", re.I | re.S)
#: "which monitoring products did we buy from approved vendors in Q1": the goods named before the noun narrow the
#: products bought (the spend on those goods, by product), never the catalogue's products of the group.
_GOODS_LISTING = re.compile(
    _LEAD + r"\s*(?:which|what)\s+(?P<goods>(?!(?:distinct|different|individual|exact|specific|other|the|of)\b)"
    r"(?:[^\W\d_][\w&/-]*\s+){1,3}?)(?P<noun>products|items|articles)\s+"
    r"(?:(?:did|does)\s+(?P<subject>.+?)\s+(?:actually\s+|really\s+)?" + _VERB +
    r"|(?:have|has)\s+(?P<subject2>.+?)\s+(?:actually\s+|really\s+)?" + _PAST + r")\b(?P<tail>.*)$",
    re.I | re.S)
#: "which suppliers had invoices for Company B in Q1 2026", "which vendors invoiced us in 2025": the suppliers with
#: counted invoices of the buyer in the period, as "bought from" reads (the buyer runs to the period words).
_INVOICED = re.compile(
    _LEAD + r"\s*(?:which|what)\s+(?:(?:distinct|different|individual)\s+)?(?:suppliers|vendors)\s+"
    r"(?:(?:had|have|has|sent|issued|raised|submitted)\s+(?:any\s+|an\s+|one\s+or\s+more\s+)?(?:invoices?|bills?)\s+"
    r"(?:for|to|at)|(?:have\s+|has\s+)?(?:invoiced|billed))\s+(?P<subject>[^?,;:]{1,60}?)"
    r"(?P<tail>(?:\s+(?:in|during|over|between|since|for|on|at|last|this)\b.*)?[\s?.!]*)$", re.I | re.S)
#: "Vendors we bought from at Xenon in 2025", "suppliers Company B purchased from in Q1": the noun phrase alone, the
#: buyer before the verb and a dangling "from" (the suppliers asked for), then the scope.
_BOUGHT_FROM = re.compile(
    _LEAD + r"\s*(?:(?:list|show(?:\s+me)?|give\s+me)\s+)?(?:all\s+)?(?:the\s+)?(?:suppliers|vendors)\s+"
    r"(?:that\s+|which\s+)?(?P<subject>(?!(?:in|during|over|for|from|since|between|with)\b)[^?,;:]{1,40}?)\s+"
    r"(?:have\s+|has\s+|had\s+)?(?:actually\s+|really\s+)?" + _PAST +
    r"\s+from(?P<tail>(?:\s+(?:in|during|over|between|since|for|on|at|last|this)\b.*)?[\s?.!]*)$", re.I | re.S)
#: "from X" names the supplier; "buy X from" names goods, then a dangling "from" (the suppliers asked for).
_FROM = re.compile(r"^\s*from\b", re.I)
#: "From which suppliers did X buy <goods> in <period>": the preposition of "bought from" put before the question.
_FROM_WHICH = re.compile(
    r"^(?P<lead>[^?:]{1,60}?(?::|\s[-–]\s)\s*)?\s*from\s+(?P<which>which|what)\s+(?P<noun>suppliers|vendors)\s+"
    r"(?P<body>(?:did|does|do|has|have)\s+.+?)"
    r"(?P<tail>\s+(?:in|during|over|between|since|for|on|at|last|this)\b[^?]*)?[\s?.!]*$", re.I | re.S)
_DANGLING_FROM = re.compile(r"\s+from(?=\s+(?:in|during|over|between|since|for|on|at|last|this)\b|\s*[?.!,]|\s*$)",
                            re.I)
_END = re.compile(r"[\s?.!]+$")
#: A pronoun subject keeps its scope word: "which products did we buy" is "our spend" (all companies only when the
#: question says so, as for any figure).
_POSSESSIVE = {"we": "our", "i": "my", "you": "your", "you guys": "your", "they": "their", "us": "our"}


#: Words before the noun that narrow nothing ("which of our catalog products"): no name to look up.
_NEUTRAL_GOODS = frozenset((
    "our", "your", "their", "its", "my", "all", "any", "these", "those", "such", "catalog", "catalogue", "kinds",
    "kind", "types", "type", "sorts", "sort", "of", "the", "exactly", "actual", "individual", "unique", "distinct",
    "different", "specific", "exact", "and", "or", "&",
))


def goods_qualifiers(question: str) -> tuple[str, ...]:
    """The words between "which" and the noun of a goods listing ("which new monitoring products did X buy" ->
    ``("new", "monitoring")``), neutral words left out; empty when the question is no goods listing.

    Each must name goods the tenant knows (a group, product or supplier): the listing is read as the spend on
    them, so a qualifier no name stands for ("new", "expensive", "cheap") would be echoed but never applied.

    >>> goods_qualifiers("Which new products did Company A buy in Q1 2026?")
    ('new',)
    >>> goods_qualifiers("company a: which of our monitoring products did we buy in Q1 2026?")
    ()
    >>> goods_qualifiers("Which products did Company A buy in Q1 2026?")
    ()
    """
    if read_purchase_listing(question) is None or _NOT_A_LIST.search(question):
        return ()
    if (_VENDOR_LIST.match(question) or _FROM_SUPPLIER_FIRST.match(question) or _LISTING.match(question)
            or _BOUGHT_BY.match(question) or _LIST_PURCHASED.match(question) or _SUPPLIERS_USED.match(question)):
        return ()
    goods = _GOODS_LISTING.match(question)
    if goods is None:
        return ()
    words = re.findall(r"[^\W\d_][\w&/-]*", goods.group("goods"))
    return tuple(w for w in words if w.casefold() not in _NEUTRAL_GOODS)


def unknown_qualifiers(question: str, vocabulary: Iterable[str]) -> tuple[str, ...]:
    """The qualifiers of a goods listing (:func:`goods_qualifiers`) that are no word of a known name in
    ``vocabulary`` (group, product, supplier spellings; a plural "sensors" of "Sensor" and a one-letter typo
    are read as the name's word, as the reader resolves them).

    >>> unknown_qualifiers("Which expensive sensor products did Co A buy in May?", ["Sensors", "Valves"])
    ('expensive',)
    >>> unknown_qualifiers("Which sesnor products did Co A buy in May?", ["Sensors"])
    ()
    """
    words = goods_qualifiers(question)
    if not words:
        return ()
    known = {w.casefold() for name in vocabulary for w in re.findall(r"[^\W_][\w&/-]*", name)}
    known |= {w[:-1] for w in known if w.endswith("s")} | {w + "s" for w in known}

    def is_known(word: str) -> bool:
        w = word.casefold()
        return w in known or bool(len(w) >= 5 and difflib.get_close_matches(w, known, n=1, cutoff=0.8))

    return tuple(w for w in words if not is_known(w))


def read_purchase_listing(question: str) -> str | None:
    """The question as a spend breakdown when it asks which products, suppliers or groups were bought; the grouping
    it names itself wins over the one the listing implies ("what did Ypsilon buy in Q3, split by product group" is
    broken down by product group only, never by product too).

    >>> read_purchase_listing("what did Company A buy in March 2026, split by product group")
    'spend of Company A in March 2026, split by product group'
    """
    listing = _purchase_listing(question)
    if listing is None or _NAMED_LISTING.search(question):
        return listing
    own = _IMPLIED_GROUPING.sub("", listing)
    # (the grouping is read on the listing as rewritten: the buyer of a passive listing, "products bought from Zeta
    # by company b", is the company, not a breakdown by company)
    return own if parse_breakdown(own).group_by else listing


#: A listing that names its own rows ("which products ..., by month"): its grouping is asked, not implied.
_NAMED_LISTING = re.compile(r"\b(?:which|what)\s+(?:products?|items?|suppliers?|vendors?|goods)\b", re.I)
#: The grouping a listing adds at its end (", by product").
_IMPLIED_GROUPING = re.compile(r",\s+by\s+(?:product|supplier|product\s+group)$")


def _purchase_listing(question: str) -> str | None:
    """The question as a spend breakdown when it asks which products, suppliers or groups were bought (past
    tense), else None.

    >>> read_purchase_listing("which products did Alpenland actually buy from BETA TRADING in Aug 2025?")
    'spend of Alpenland with BETA TRADING in Aug 2025, by product'
    >>> read_purchase_listing("Which suppliers did Co C buy control modules from in the first quarter of 2026?")
    'spend of Co C on control modules in the first quarter of 2026, by supplier'
    >>> read_purchase_listing("What did Company A buy from Supplier Beta in March 2026?")
    'spend of Company A with Supplier Beta in March 2026, by product'
    >>> read_purchase_listing("which vendors has Company B bought from since January 2026?")
    'spend of Company B since January 2026, by supplier'
    >>> read_purchase_listing("Which products did we buy from Supplier Beta in Q1 2026 at Company A?")
    'our spend with Supplier Beta in Q1 2026 at Company A, by product'
    >>> read_purchase_listing("Ypsilon Retail: which suppliers did we buy from in Q1 2026?")
    'Ypsilon Retail: our spend in Q1 2026, by supplier'
    >>> read_purchase_listing("products we buy from Zeta - which did Company B actually buy in Q1 2026?")
    'spend of Company B with Zeta in Q1 2026, by product'
    >>> read_purchase_listing("Of the items Alpenland gets from Beta, which ones has Kestrel bought since May?")
    'spend of Kestrel with Beta since May, by product'
    >>> read_purchase_listing("List the catalog items Company A bought from Beta Supplies in Q1 2026")
    'spend of Company A with Beta Supplies in Q1 2026, by product'
    >>> read_purchase_listing("Ypsilon Q2 2026 to date: list the product codes purchased")
    'Ypsilon Q2 2026 to date: spend, by product'
    >>> read_purchase_listing("Company C's active vendor list for Q1 2026 (anyone with a counted invoice)")
    "Company C's spend for Q1 2026, by supplier"
    >>> read_purchase_listing("products bought by Alpenland from Northwind in Q1 2026")
    'spend of Alpenland with Northwind in Q1 2026, by product'
    >>> read_purchase_listing("who did kestrel buy from in H2 25")
    'spend of kestrel in H2 25, by supplier'
    >>> read_purchase_listing("Which suppliers did Company B use last quarter?")
    'spend of Company B last quarter, by supplier'
    >>> read_purchase_listing("which vendors have we worked with since January 2026?")
    'our spend since January 2026, by supplier'
    >>> read_purchase_listing("company a: which monitoring products did we buy from approved vendors in Q1 2026?")
    'company a: our spend on monitoring products with approved vendors in Q1 2026, by product'
    >>> read_purchase_listing("Which suppliers had invoices for Company B in Q1 2026?")
    'spend of Company B in Q1 2026, by supplier'
    >>> read_purchase_listing("which vendors invoiced us last quarter")
    'our spend last quarter, by supplier'
    >>> read_purchase_listing("Vendors we bought from at Xenon in 2025")
    'our spend at Xenon in 2025, by supplier'
    >>> read_purchase_listing("From which suppliers did Company B buy Monitoring Products in H2 2025?")
    'spend of Company B on Monitoring Products in H2 2025, by supplier'
    >>> read_purchase_listing("Which product did Company A buy the most units of in Q1 2026?") is None
    True
    >>> read_purchase_listing("Which products does Supplier Beta supply?") is None
    True
    """
    # (the words that define "active", "at least one counted invoice", bound nothing)
    if _NOT_A_LIST.search(re.sub(_ACTIVE_DEFINITION, "", question, flags=re.I)):
        return None
    fronted = _FROM_WHICH.match(question)
    if fronted is not None:
        # "From which suppliers did Company B buy Monitoring Products in H2 2025?": the preposition fronted is the
        # same question as "which suppliers did Company B buy Monitoring Products from in H2 2025?"
        question = (f"{fronted.group('lead') or ''}{fronted.group('which')} {fronted.group('noun')} "
                    f"{fronted.group('body').strip()} from{fronted.group('tail') or ''}")
    vendors = _VENDOR_LIST.match(question)
    if vendors is not None and not re.search(r"\b(?:approv\w*|authori[sz]ed|preferred|framework|agreements?|"
                                             r"contracts?)\b", question, re.I):
        before = vendors.group("before") if vendors.group("before") is not None else vendors.group("before2")
        rest = _END.sub("", re.sub(_ACTIVE_DEFINITION, "", question[vendors.end():], count=1, flags=re.I))
        return f"{before}spend{rest}, by supplier"
    shaped = _shaped_listing(question)
    if shaped is not None:
        return shaped
    first = _FROM_SUPPLIER_FIRST.match(question)
    if first is not None:
        subject, supplier = first.group("subject").strip(), first.group("supplier").strip()
        tail = _END.sub("", first.group("tail"))
        owner = _POSSESSIVE.get(subject.lower())
        return (first.group("lead") or "") + (f"{owner} spend" if owner else f"spend of {subject}") + (
            f" with {supplier}{tail}, by product")
    invoiced = _INVOICED.match(question) or _BOUGHT_FROM.match(question)
    if invoiced is not None:
        buyer = invoiced.group("subject").strip()
        owner_of = _POSSESSIVE.get(buyer.lower())
        rest_of = _END.sub("", invoiced.group("tail"))
        return (invoiced.group("lead") or "") + (f"{owner_of} spend{rest_of}, by supplier" if owner_of else
                                                 f"spend of {buyer}{rest_of}, by supplier")
    match = (_LISTING.match(question) or _BOUGHT_BY.match(question) or _LIST_PURCHASED.match(question)
             or _SUPPLIERS_USED.match(question))
    goods = _GOODS_LISTING.match(question) if match is None else None
    if goods is not None:
        buyer = (goods.group("subject") or goods.group("subject2") or "").strip()
        goods_tail = _END.sub("", goods.group("tail"))
        goods_tail = _FROM.sub(" with", goods_tail, count=1) if _FROM.match(goods_tail) else goods_tail
        if goods_tail.strip() and not re.match(r"^\s*(?:with|in|during|over|between|since|for|on|at|last|this|"
                                               # a period written bare after the verb ("buy Q1-26", "buy 2025")
                                               r"q[1-4]|h[12]|fy|ytd|(?:19|20)\d\d)\b", goods_tail, re.I):
            return None  # more goods after the verb: not this reading
        what = f"{goods.group('goods').strip()} {goods.group('noun')}"
        goods_owner = _POSSESSIVE.get(buyer.lower())
        return (goods.group("lead") or "") + (f"{goods_owner} spend" if goods_owner else f"spend of {buyer}") + (
            f" on {what}{goods_tail}, by product")
    who = _WHO_FROM.match(question) if match is None else None
    if who is not None:
        # "who did X buy from in H2 25": its suppliers; the tail is the period (or goods) asked over
        buyer = who.group("subject").strip()
        rest = " " + who.group("tail").lstrip()
        who_tail = _END.sub("", rest) if rest.strip() else ""
        if who_tail and not re.match(r"^\s*(?:in|during|over|between|since|for|on|at|last|this)\b", who_tail, re.I):
            return None  # "who did we buy pumps from ...": goods before "from", read by the general listing
        who_owner = _POSSESSIVE.get(buyer.lower())
        return (who.group("lead") or "") + (f"{who_owner} spend{who_tail}, by supplier" if who_owner else
                                            f"spend of {buyer}{who_tail}, by supplier")
    if match is not None:
        noun = re.sub(r"\s+", " ", match.group("noun").lower())
        noun = noun[:-1] if noun.endswith("s") else noun
        dimension = _DIMENSIONS.get(noun) or _DIMENSIONS.get(noun.replace("ie", "y")) or (
            "product" if re.fullmatch(_CODE_NOUN, match.group("noun"), re.I) else None)
        subject = match.group("subject") or match.groupdict().get("subject2") or (
            "" if match.re is _LIST_PURCHASED else None)
    else:
        match = _WHAT.match(question)
        if match is None or re.match(r"\s*in\s+credit(?:[- ]?notes?)?\b", match.group("tail"), re.I):
            return None  # "what did X receive in credit notes": the credit notes' amount, nothing bought
        dimension, subject = "product", match.group("subject")
    if dimension is None or subject is None:
        return None
    tail = _END.sub("", match.group("tail"))
    if re.match(r"^\s*from\b", tail, re.I) and _DANGLING_FROM.match(" " + tail.lstrip()):
        tail = _DANGLING_FROM.sub("", " " + tail.lstrip(), count=1)  # "which suppliers did X buy from in Q1"
    elif _FROM.match(tail):
        tail = _FROM.sub(" with", tail, count=1)
    elif tail.strip() and not re.match(r"^\s*(?:in|during|over|between|since|for|on|at|last|this)\b", tail, re.I):
        # the goods bought ("buy control modules from in Q1"): spend on them; a dangling "from" is what is asked
        tail = " on " + _DANGLING_FROM.sub("", tail.strip(), count=1)
        tail = re.sub(r"\s+from\s+", " with ", tail, count=1, flags=re.I)
    subject = subject.strip()
    owner = _POSSESSIVE.get(subject.lower())
    lead = match.group("lead") or ""
    if not subject:  # "Ypsilon Q2 2026 to date: list the product codes purchased": the scope written before
        return lead + f"spend{tail}, by {dimension}"
    return lead + (f"{owner} spend{tail}, by {dimension}" if owner else f"spend of {subject}{tail}, by {dimension}")


def _buyer_spend(lead: str, subject: str) -> str:
    owner = _POSSESSIVE.get(subject.strip().lower())
    return lead + (f"{owner} spend" if owner else f"spend of {subject.strip()}")


#: The catalogue named as the source of the answer ("according to the catalogue", "per catalog", "as listed in our
#: catalogue"): the products it lists for a supplier or group, not a purchase listing.
_CATALOG_SOURCE = re.compile(r"\b(?:according\s+to|per|as\s+per|as\s+listed\s+in|listed\s+in|in|from|by)\s+"
                             r"(?:the\s+|our\s+)?catalog(?:ue)?s?\b", re.I)


def _shaped_listing(question: str) -> str | None:
    """The product listings whose buyer, supplier or goods sit elsewhere than the general shapes expect (see the
    patterns above), read as the same spend by product.

    >>> _shaped_listing("products bought from gamma controls by company b, 2026")
    'spend of company b with gamma controls, 2026, by product'
    >>> _shaped_listing("products alpenland bought from beta trading since jan 26")
    'spend of alpenland with beta trading since jan 26, by product'
    >>> _shaped_listing("which products in control equipment did company c buy in H2 25")
    'spend of company c on control equipment in H2 25, by product'
    >>> _shaped_listing("company a: which products from zeta in 2025")
    'company a: spend with zeta in 2025, by product'
    >>> _shaped_listing("which products in control equipment does Gamma supply") is None
    True
    >>> _shaped_listing("Vendors we bought from at Xenon in 2025") is None
    True
    >>> _shaped_listing("which products in the sensors group do we source from Beta, according to the catalogue?")
    """
    if _CATALOG_SOURCE.search(question):
        return None  # "..., according to the catalogue": what the catalogue lists, not what was invoiced
    found = _BOUGHT_FROM_BY.match(question) or _NOUN_SUBJECT_FROM.match(question)
    if found is not None:
        tail = _END.sub("", found.group("tail") or "")
        return _buyer_spend(found.group("lead") or "", found.group("subject")) + (
            f" with {found.group('supplier').strip()}{tail}, by product")
    qualified = _LISTING_QUALIFIED.match(question)
    if qualified is not None:
        buyer = qualified.group("subject") or qualified.group("subject2") or ""
        tail = _END.sub("", qualified.group("tail") or "")
        joined = "with" if qualified.group("prep").lower() == "from" else "on"
        return _buyer_spend(qualified.group("lead") or "", buyer) + (
            f" {joined} {qualified.group('what').strip()}{tail}, by product")
    scoped = _SCOPED_FROM.match(question)
    if scoped is not None:
        tail = _END.sub("", scoped.group("tail"))
        return f"{scoped.group('lead')}spend with {scoped.group('supplier').strip()}{tail}, by product"
    return None
