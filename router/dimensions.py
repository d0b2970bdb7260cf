"""Parameters the data cannot know: a dimension of a purchase that no governed figure records, with its value.

"Return total spend for COMP-A, cost centre CC-4711", "spend with Theta for our project "Retrofit North" only",
"only the orders placed by buyer Jana Wolff", "region=DACH": the invoices carry a company, a supplier, products,
product groups, statuses and dates, but no cost centre, project, region, department, buyer, purchase order, bank
account or budget line. Such a span is a constraint the question puts on the figure; answered without it, the
figure of the whole scope would be presented as the narrower one asked (a silent wrong). The reader names it back
(a clarification offering the figure without that limit), never drops it.

The rule is general: a dimension noun of the small typed lexicon below followed by a value that looks like one (a
code with a digit or capitals, a quoted name, a capitalized name, or ``key=value``) is a constraint, not noise. A
dimension noun without a value ("which department asked?", "the project team") is ordinary English and left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Dimension nouns (as written, with their variants) -> the label named back. Each is a field of an ERP or P2P
#: record that the governed invoice lines do not carry.
_LEXICON: tuple[tuple[str, str], ...] = (
    # (German and French as the shared-service staff write them: "Kostenstelle 4711", "KST 200", "Projekt P-17",
    # "centre de coût 4100", "projet Alpha", "Sachkonto 540000", "Einkäufer Huber", "Abteilung Einkauf")
    (r"cost[\s_-]?cent(?:re|er)s?(?:[\s_-]?(?:code|id|number|no\.?))?|kostenstellen?|kst|"
     r"centres?\s+de\s+co[ûu]ts?|centros?\s+de\s+costes?", "cost centre"),
    (r"profit[\s_-]?cent(?:re|er)s?(?:[\s_-]?(?:code|id|number|no\.?))?", "profit centre"),
    (r"(?:projects?|projekte?|projets?|proyectos?)(?:[\s_-]?(?:code|id|number|no\.?|name|nummer|nr\.?))?", "project"),
    (r"wbs(?:[\s_-]?elements?)?", "project"),
    (r"(?:sales[\s_-]?)?regions?(?:[\s_-]?(?:code|id))?", "region"),
    (r"departments?(?:[\s_-]?(?:code|id))?|business[\s_-]?units?|abteilung(?:en)?|d[ée]partements?",
     "department"),
    # (not "approved by", "ordered by": "vendors approved by <company>" is the approval table, "ordered by date" a
    # sort; a person after them is an unknown name, named back by the reader)
    (r"(?:buyer|requester|requestor|approver|purchaser|requested[\s_-]by|eink(?:ä|ae)ufer(?:in)?|acheteur|"
     r"contract[\s_-]?owners?|owners?[\s_-]?of[\s_-]?the[\s_-]?contract)"
     r"(?:[\s_-]?(?:name|id))?", "buyer, requester or approver"),
    (r"(?:purchase[\s_-]?orders?|pos?|bestell(?:ung(?:en)?|nummer(?:n)?)|bons?\s+de\s+commande)"
     r"(?:[\s_-]?(?:numbers?|no\.?|ids?|#|nummern?|nr\.?))?", "purchase order"),
    # ("G/L 6110": the account written with its slash, before its number)
    (r"(?:bank[\s_-]?accounts?|iban|gl[\s_-]?accounts?|g/l(?:[\s_-]?(?:accounts?|codes?))?|"
     r"general[\s_-]?ledger[\s_-]?accounts?|ledger[\s_-]?accounts?|"
     r"sachkont(?:o|en)|hauptbuchkont(?:o|en))"
     r"(?:[\s_-]?(?:number|no\.?|id))?", "account"),
    (r"(?:budget|forecast)[\s_-]?(?:lines?|ids?|codes?|versions?)", "budget or forecast"),
    (r"(?:plants?|sites?|warehouses?|locations?)(?:[\s_-]?(?:code|id))?", "site"),
    # a payment run limits the invoices to those it paid ("per vendor for payment run PR-07"); no line records it
    (r"(?:payment|pay)[\s_-]?runs?(?:[\s_-]?(?:id|number|no\.?))?|zahl(?:ungs)?l(?:ä|ae|a)uf", "payment run"),
)
_NOUN = "|".join(f"(?:{pattern})" for pattern, _ in _LEXICON)
#: Dimension nouns a figure is only ever broken down by, never limited to a value of: "split by payment method",
#: "+ incoterm", "contract owner view" (none recorded on an invoice line either).
_GROUPING_ONLY = (r"payment[\s_-]?(?:methods?|terms?|runs?)|zahlungs(?:art|lauf|bedingung)(?:en)?|incoterms?|"
                  r"delivery[\s_-]?routes?|ship[\s_-]?to(?:[\s_-]?address(?:es)?)?|channels?|"
                  r"(?:sales[\s_-]?)?(?:territor(?:y|ies)|areas?|districts?|divisions?)")
#: Every noun of a dimension no invoice line records, for readers of a breakdown (router/breakdown_words.py).
UNRECORDED_NOUN = f"{_NOUN}|{_GROUPING_ONLY}"
#: A value: a quoted name, a code (a word with a digit, or two or more capitals: "CC-4711", "4100-LOG", "DACH",
#: "EMEA-North"), or a capitalized name of up to three words ("Jana Wolff", "M. Keller").
_NAME = r"(?-i:[A-Z][a-zäöüß]+(?:\s[A-Z][a-zäöüß]+){1,2}|[A-Z]\.\s?[A-Z][a-zäöüß]+)"
#: One capitalized word names a value too ("department Logistics", "region Europe", "project Alpha"), except where a
#: number is the value (a purchase order, an account) and for words of the question itself.
_WORD_VALUE = re.compile(r"(?-i:[A-Z][a-zäöüß]{2,})")
_NOT_WORD_VALUES = frozenset("""
the this that these those our all any each every only and or for in of on at by with from to per company companies
supplier suppliers vendor vendors spend total totals sum invoices invoice period quarter year month please and also
january february march april may june july august september october november december
""".split())  # noqa: SIM905 - a word list reads better as text
_VALUE = (r"(?P<value>\"[^\"]{1,60}\"|“[^”]{1,60}”|'[^']{1,60}'|" + _NAME + r"|[A-Za-z0-9]+(?:[-/_.][A-Za-z0-9]+)*)")
_PARAMETER = re.compile(
    rf"(?<![\w-])(?P<noun>{_NOUN})(?:\s*(?:=|:|==)\s*|\s+(?:is\s+|of\s+|=\s*)?){_VALUE}", re.I)
#: A quoted value before its noun: "our "Retrofit North" project", "the 'DACH' region".
_QUOTED_BEFORE = re.compile(r"(?P<value>\"[^\"]{1,60}\"|“[^”]{1,60}”)\s+(?P<noun>" + _NOUN + r")\b", re.I)


#: "sales_channel = 'web'", "cost_center_code in (4711)": a snake_case column compared with a value in a query.
_COLUMN = re.compile(r"(?<![\w-])(?P<noun>[a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s*(?:==|=|!=|<>|\s+in\s*\(\s*)\s*"
                     r"(?P<value>'[^']{1,60}'|\"[^\"]{1,60}\"|[\w.-]+)", re.I)
#: columns a query may still name after the rewriting, read elsewhere (ids of documents, the as-of day)
_KNOWN_COLUMNS = frozenset({"invoice_number", "invoice_id", "invoice_no", "document_id", "contract_id", "as_of",
                            "as_of_date", "valid_on", "top_n", "group_by"})


@dataclass(frozen=True)
class Dimension:
    """A value of a dimension the data does not record, with the span of the whole constraint."""

    label: str  # "cost centre"
    noun: str  # as written: "cost center", "buyer"
    value: str  # "CC-4711" (quotes dropped)
    start: int  # the constraint's span: the noun and its value
    end: int


def _label(noun: str) -> str:
    for pattern, label in _LEXICON:
        if re.fullmatch(pattern, noun.strip(), re.I):
            return label
    return noun.lower()


def _valued(value: str) -> bool:
    """Whether a code-shaped value is one: a quoted name, a word with a digit, two capitals or more, or a name."""
    bare = value.strip("\"'“”")
    if value[:1] in "\"'“":
        return bool(bare.strip())
    return any(ch.isdigit() for ch in bare) or sum(ch.isupper() for ch in bare) >= 2


#: Capitalized words after a noun that are no value: a month, a question word, a known report word.
_NOT_VALUES = frozenset({"q1", "q2", "q3", "q4", "h1", "h2", "fy", "ytd", "eur", "usd", "gbp", "chf"})


def unknown_dimensions(text: str) -> tuple[Dimension, ...]:
    """Every "<dimension noun> <value>" constraint of ``text``.

    >>> [(d.label, d.value) for d in unknown_dimensions("spend for COMP-A, cost centre CC-4711, period 2026-Q1")]
    [('cost centre', 'CC-4711')]
    >>> [(d.label, d.value) for d in unknown_dimensions('spend with Theta for our project "Retrofit North" only')]
    [('project', 'Retrofit North')]
    >>> unknown_dimensions("which department asked for the project budget?")
    ()
    """
    found: list[Dimension] = []
    for match in _PARAMETER.finditer(text):
        value = match.group("value")
        label = _label(match.group("noun"))
        single = (_WORD_VALUE.fullmatch(value) is not None and value.lower() not in _NOT_WORD_VALUES
                  and label not in ("purchase order", "account"))
        if value.lower() in _NOT_VALUES or not (_valued(value) or re.fullmatch(_NAME, value) or single):
            continue
        joint = text[match.end("noun"):match.start("value")]
        keyed = "=" in joint or ":" in joint
        if (re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) or (re.fullmatch(r"(?:19|20)\d{2}", value) and not keyed)) \
                and _label(match.group("noun")) != "purchase order":
            continue  # "region 2026-01-01..." never; a date or a year after a noun is the period's ("cost center
            # 4711" names no year, and "cost_center = 2025" gives the key its value)
        found.append(Dimension(_label(match.group("noun")), match.group("noun"), value.strip("\"'“”"),
                               match.start(), match.end()))
    for match in _COLUMN.finditer(text):
        # "sales_channel = 'web'": a column of a query that the governed views do not have (the known ones were
        # rewritten as prose by router/keyword_query.py and router/tool_syntax.py before)
        if match.group("noun").lower() in _KNOWN_COLUMNS or any(d.start <= match.start() < d.end for d in found):
            continue
        noun = match.group("noun").lower()
        label = "such document type" if noun in ("doc_type", "document_type") else noun.replace("_", " ")
        found.append(Dimension(label, match.group("noun"),
                               match.group("value").strip("\"'“”"), match.start(), match.end()))
    for match in _QUOTED_BEFORE.finditer(text):
        if not any(d.start <= match.start() < d.end for d in found):
            found.append(Dimension(_label(match.group("noun")), match.group("noun"),
                                   match.group("value").strip("\"“”"), match.start(), match.end()))
    return tuple(sorted(found, key=lambda d: d.start))


def dimension_question(dimension: Dimension) -> str:
    """The clarification naming a dimension the figure cannot be limited to."""
    noun = re.sub(r"[\s_]+", " ", dimension.noun).lower()
    return (f"I cannot limit the figure to {noun} {dimension.value!r}: the invoice data records no "
            f"{dimension.label} (only the company, supplier, products, product groups, invoice status and dates), "
            "so that limit cannot be applied and nothing was calculated. Do you want the figure without it?")


__all__ = ["UNRECORDED_NOUN", "Dimension", "dimension_question", "unknown_dimensions"]
