"""Claim checks: a figure quoted from a draft, deck, e-mail or memo is the claim to check, never a constraint.

Reviewers write "the deck says EUR 1.2m for Beta in Q1, correct?", "Kestrel with Orbis, Sep-Feb: draft has
1477.62 euros. ok to publish?", "is the 48,866 EUR YTD figure for Ypsilon in the e-mail correct?" or quote the
whole line: '"X with Beta: EUR 23.2K in Q4" - right?'. Read as an ask, the quoted amount became an amount
filter or a threshold, the source and verdict words ("deck", "says", "publish", "true") became clarifications,
and a quoted line was sent to passage retrieval ("no authorized passage": silent wrong). The question asked is
the governed figure of the subject and period the claim names, and whether the quoted figure is that figure.

So a question with a verdict cue (:data:`VERDICT_WORDS`, several languages) and a quoted quantity (a money amount
no comparator governs, or a count of invoices) is read once, before any other reader:

* the quoted quantity is taken out (the claim), with the verb that states it ("was", "had", "=", ":");
* the source phrase ("the deck says", "per the draft", "acc. to the memo", "in the e-mail") is taken out: a closed
  class of document nouns (:data:`SOURCE_NOUNS`) and stating verbs (:data:`SOURCE_VERBS`);
* every clause made only of verdict, source, request and function words ("correct?", "right or wrong? give me
  the real number", "if not, what is the correct number?", "ok to publish?") is taken out;
* the rest is the ask, answered as if typed alone; a count claim with no count word left asks the count.

A threshold ("7 invoices above 10.000 EUR ... which ones?") keeps its amount: only the claim is taken out. The
answer then says whether the quoted figure matches the governed one, compared as exact decimals at the precision
the claim was written in ("96k" matches 95,941.41 once rounded to thousands; "1477.62" must match to the cent).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from router.reading import parse_amounts

#: Words of a verdict asked on a quoted figure, in the languages the writers mix in (English, Spanish,
#: Portuguese, German, French, Italian, Dutch): a question with one of them and a quoted quantity is a claim check.
VERDICT_WORDS: frozenset[str] = frozenset("""
correct correctly right true accurate accuracy wrong ok okay publish publishable verify verified verifying
confirm confirmed confirming check checked checking validate validated tie ties tied stand stands hold holds
real actual actually really truly exact exactly precise legit proofreading proof-reading fact-checking
factchecking fact-check reviewing verifying double-checking cross-checking sanity
correcto correcta cierto cierta verdad verdadero exacto exacta confirmar confirma confirmen verificar verifica
correto correta certo certa verdadeiro confere conferir checar
stimmt stimmen richtig korrekt bestätigen bestaetigen prüfen pruefen
vrai exacte confirmer vérifier verifier juste
corretto giusto vero confermare verificare
klopt juist bevestigen controleren
""".split())  # noqa: SIM905 - a word list reads better as text

#: Nouns of the document a figure is quoted from (the closed class; several languages).
SOURCE_NOUNS: frozenset[str] = frozenset("""
deck decks slide slides draft drafts memo memos email e-mail mail emails report reports pack packs presentation
presentations spreadsheet sheet table chart summary one-pager one-pagers onepager handout factsheet briefing
dashboard minutes newsletter ppt excel writeup write-up narrative
commentary note notes doc document version figure figures number numbers value claim claims statement
borrador informe reporte presentación presentacion correo planilla diapositiva
rascunho relatório relatorio apresentação apresentacao planilha
entwurf bericht folie präsentation praesentation vorlage
brouillon rapport diapo présentation courriel
bozza rapporto
concept rapportage
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words that may stand before a source noun ("the monthly memo", "Draft board report p.4", "the CFO pack").
_SOURCE_MODIFIERS = frozenset("""
the a an our my this that their your his her board mgmt management cfo ceo monthly weekly quarterly steering
committee procurement update qbr internal finance financial draft latest current final old previous client
supplier vendor team audit review board's cfo's
el la los las um uma o os das do da der die das den dem le les du des il lo
""".split())  # noqa: SIM905 - a word list reads better as text

#: Verbs that state what a source says ("says", "has", "quotes", "claims"), several languages.
SOURCE_VERBS: frozenset[str] = frozenset("""
says said say has had have shows showed show shown quotes quoted quote claims claimed claim states stated state
reports reported lists listed mentions mentioned puts put gives gave reads read contains shows
dice dijo tiene muestra indica pone
diz disse tem mostra indica traz
sagt hat zeigt nennt steht
dit indique montre affiche
""".split())  # noqa: SIM905 - a word list reads better as text

#: Words a verdict clause may hold besides verdict and source words: function, request and courtesy words.
_CLAUSE_WORDS = frozenset("""
is it that this the a an or not and if so then what which whats what's was were be is are am give me us tell
send pls plz please can could would you u we our to of for before out go going goes there here now number
figure value amount amounts total answer one ones they them do does did really actually
no sí si é es ist c'est est ou o oder y e und et das dies isso isto está esta eso esto ça cela ce het dat dit è
questo nos me
correct right how many fyi
""".split())  # noqa: SIM905 - a word list reads better as text

_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
#: Clause boundaries: punctuation, a dash between spaces, a double dash.
_CLAUSES = re.compile(r"(\s*(?:[?!;]+|\.(?=\s|$)|:(?=\s)|,(?=\s)|\s[-–—]{1,2}\s|\s--\s)\s*)")
#: The verb or sign right before a quoted amount ("was EUR 3,988", "had 47298.60", "= 18,583", ": 96k").
_STATING_BEFORE = re.compile(r"(?:\b(?:total\s+(?:is|was|stated|of|=)|totals?|was|were|is|are|had|has|came\s+to|"
                             r"totalled|totaled|of|at|amounts?\s+to|"
                             r"era|foi|fue|war|était)\s*|[=:~≈]\s*)$", re.I)
#: A count claimed: "booked 1 invoices", "7 invoices above", "= 17", "says 1" (the count of documents).
_COUNT_NOUN = r"(?:invoices?|invs?\.?|bills?|documents?|docs|facturas?|faturas?|notas?|rechnungen|factures?)"
_COUNT_CLAIM = re.compile(rf"(?<![\w.,/-])(?<!\btop\s)(?<!\blast\s)(?<!\bfirst\s)(?<!\blargest\s)(?<!\bthe\s)"
                          rf"(?<!\bbiggest\s)(?<!\bsmallest\s)(?!(?:19|20)\d\d\b)(?P<n>\d{{1,4}})\s+"
                          rf"(?=(?:\w+\s+){{0,2}}?{_COUNT_NOUN}\b)", re.I)
#: Words after which an amount is a constraint of the ask, never a claim ("invoices of EUR 5,000", "excluding the
#: EUR 1,250 credit note", "exactly EUR 4,500", "without the 4,000 EUR invoice").
_CONSTRAINT_BEFORE = re.compile(r"\b(?:of|for|exactly|excluding|excl\.?|without|except|minus|plus|on|at|over|under|"
                                r"above|below|than|from|to|with|in)\s+(?:(?:the|a|an|all|any)\s+)?$", re.I)
#: The verb or sign that states a claimed amount (``_STATING_BEFORE`` without its filter prepositions).
_CLAIM_STATED = re.compile(r"(?:\b(?:total\s+(?:is|was|stated|of|=)|totals?|was|were|is|are|had|has|came\s+to|"
                           r"totalled|totaled|amounts?\s+to|era|foi|fue|war|était|spent|invoiced|billed|paid|booked|charged|"
                           + "|".join(sorted(re.escape(v) for v in SOURCE_VERBS)) +
                           r")\s*|[=:~≈(]\s*)$", re.I)
_COUNT_AFTER = re.compile(r"(?:[=:]|\b(?:says|said|has|shows|claims|quotes|is|was|were)\b)\s*(?P<n>\d{1,4})"
                          r"(?![\d.,/%-])(?=\s*(?:[?.!,;]|$|\s+(?:pls|please|correct|right|true|ok)\b))", re.I)
_COUNT_WORDS = re.compile(r"\b(?:how\s+many|number\s+of|count|#|no\.\s+of)|#", re.I)
_LIST_ASK = re.compile(r"\b(?:which\s+ones?|which|list|what\s+are\s+they|invoice\s+numbers?|ids?)\b", re.I)
#: The reviewer's own activity before the source ("Reviewing the deck", "checking numbers in the memo").
_REVIEWING = frozenset("""
reviewing proofreading proof-reading fact-checking checking verifying re-checking double-checking numbers figures in
""".split())  # noqa: SIM905 - a word list reads better as text
#: A percentage claimed: a change ("down 53 percent", "changed by +98%") or a share ("accounts for ~7% of").
_PERCENT = (r"(?:about|around|approx\.?|roughly|some|~|≈|ca\.?)?\s*(?P<sign>[+\-−])?\s*(?P<n>\d{1,3}(?:[.,]\d{1,2})?)"
            r"\s*(?:%|percent\b|pct\b|per\s+cent\b|por\s+ciento\b|por\s+cento\b|prozent\b|pour\s+cent\b)")
_SHARE_CLAIM = re.compile(r"\b(?:accounts?\s+for|accounted\s+for|makes?\s+up|made\s+up|represents?|represented|"
                          r"is|are|was|were|=)\s*" + _PERCENT + r"\s+of\b", re.I)
_CHANGE_CLAIM = re.compile(r"\b(?:(?:up|down|higher|lower|grew|fell|rose|dropped|increased|decreased|declined|jumped|"
                           r"changed)\s+(?:by\s+)?)" + _PERCENT, re.I)
#: A claim about what a document stipulates ("the penalty in the framework agreement is 3% of order value"):
#: a document question, never a governed figure.
_DOCUMENT_CLAIM = re.compile(r"\b(?:agreements?|contracts?|clauses?|terms|penalt\w*|manuals?|polic(?:y|ies)|sla)\b",
                             re.I)
_PAGE = re.compile(r"\b(?:p\.?|page|pg\.?|slide|folie|diapo)\s*\d{1,3}\b", re.I)


@dataclass(frozen=True)
class Claim:
    """A quoted figure taken out of a question: the ask left, the figure quoted and how it was written."""

    text: str
    quoted: str
    value: Decimal
    places: int  # decimal places of the quoted precision (negative: tens, hundreds, thousands)
    count: bool
    percent: bool = False


def _words(text: str) -> list[str]:
    return [w.casefold().strip(".'’-") for w in _WORD.findall(text)]


#: A verdict frame opening the question: "is it true that ...", "is this correct: ...".
_VERDICT_FRAME = re.compile(r"^\W*(?:is|was|are|isn't)\s+(?:it|this|that)\s+(?:\w+\s+)?(?P<v>[^\W\d_]+)\s+(?:that\b|:)",
                            re.I)


def _has_source(text: str) -> bool:
    """Whether ``text`` names a document a figure is quoted from ("the deck says", "per the draft")."""
    return _source_phrases(text) != text


def _verdict_clause(clause: str) -> bool:
    words = _words(clause)
    return bool(words) and all(w in VERDICT_WORDS or w in SOURCE_NOUNS or w in SOURCE_VERBS or w in _CLAUSE_WORDS
                               for w in words) \
        and any(w in VERDICT_WORDS or w in SOURCE_NOUNS for w in words) and not re.search(r"\d", clause)


def _quoting(text: str) -> bool:
    """Whether ``text`` quotes what it checks: a source phrase, a quoted line, or a verdict clause opening it
    ("pls verify: ...", "can u confirm - ...")."""
    frame = _VERDICT_FRAME.search(text)
    if _has_source(text) or re.search(r"[\"“”]", text) or (frame is not None
                                                          and frame.group("v").casefold() in VERDICT_WORDS):
        return True
    clauses = [c for c in _CLAUSES.split(text)[::2] if _words(c)]
    return len(clauses) > 1 and _verdict_clause(clauses[0])


def _verdict_cue(text: str) -> bool:
    """A claim check's cue: a source phrase, or a clause of verdict words closing (or opening) the question.

    A verdict word inside the ask ("can you check the 2025 invoices", "the actual spend") is no cue: the writer
    asks a figure, with no figure of theirs to check.
    """
    if not any(w in VERDICT_WORDS for w in _words(text)):
        return False
    frame = _VERDICT_FRAME.search(text)
    if _has_source(text) or (frame is not None and frame.group("v").casefold() in VERDICT_WORDS):
        return True
    clauses = [c for c in _CLAUSES.split(text)[::2] if _words(c)]
    return bool(clauses) and (_verdict_clause(clauses[-1]) or (len(clauses) > 1 and _verdict_clause(clauses[0])))


def _precision(quoted: str, value: Decimal) -> int:
    """The decimal places the claim was written with ("96k": -3, "1.9K": -2, "1477.62": 2, "100,211": 0)."""
    digits = re.search(r"\d[\d.,' ]*\d|\d", quoted)
    number = digits.group(0) if digits else ""
    decimals = 0
    tail = re.search(r"[.,](\d{1,2})$", number)
    if tail and not re.search(r"[.,]\d{3}$", number):
        decimals = len(tail.group(1))
    multiplier = 0
    if re.search(r"\d\s*[kK]\b|\btsd\b|\bmil\b|\bthousand", quoted):
        multiplier = 3
    elif re.search(r"\d\s*(?:[mM]|mn|mio|million)\b", quoted):
        multiplier = 6
    return decimals - multiplier


def _cut(text: str, start: int, end: int) -> str:
    before = _STATING_BEFORE.search(text[:start])
    start = before.start() if before is not None else start
    return f"{text[:start].rstrip()} {text[end:].lstrip()}"


def _source_phrases(text: str) -> str:
    """``text`` without its source phrases ("the deck says", "per the draft", "in the e-mail", "acc. to memo")."""
    tokens = list(re.finditer(r"\S+", text))
    drop: set[int] = set()
    for i, token in enumerate(tokens):
        word = token.group(0).casefold().strip(".,:;!?\"'’()")
        if word not in SOURCE_NOUNS or word in ("figure", "figures", "number", "numbers", "value", "note", "notes",
                                                 "version", "statement", "claim", "claims", "doc", "document"):
            continue
        first = i
        while first > 0 and tokens[first - 1].group(0).casefold().strip(".,:\"'’(") in _SOURCE_MODIFIERS | SOURCE_NOUNS:
            first -= 1
        lead = tokens[first - 1].group(0).casefold() if first > 0 else ""
        if lead in ("per", "in", "from", "on", "to", "según", "segun", "laut", "selon", "conforme", "segundo"):
            first -= 1
            if lead == "to" and first > 0 and re.fullmatch(r"acc\.?|according", tokens[first - 1].group(0), re.I):
                first -= 1
        elif lead in ("acc.", "acc", "according") and first > 0:
            first -= 1
        # ("Reviewing the mgmt pack", "checking numbers in a draft e-mail"): the reviewer's gerund before the source
        while first > 0 and tokens[first - 1].group(0).casefold().strip(".,:") in _REVIEWING:
            first -= 1
        last = i
        while last + 1 < len(tokens) and _PAGE.fullmatch(" ".join(t.group(0) for t in tokens[last + 1:last + 3])
                                                          .strip(".,:;")):
            last += 2
        while last + 1 < len(tokens) and _PAGE.fullmatch(tokens[last + 1].group(0).strip(".,:;")):
            last += 1
        if last + 1 < len(tokens) and tokens[last + 1].group(0).casefold().strip(".,:;") in SOURCE_VERBS:
            last += 1
        # (a page or slide number after the noun: "p.4", "slide 7")
        drop.update(range(first, last + 1))
    if not drop:
        return text
    out = []
    for i, token in enumerate(tokens):
        if i in drop:
            trailing = re.search(r"[.,:;!?]+$", token.group(0))
            if trailing and (i + 1 >= len(tokens) or i + 1 not in drop):
                out.append(trailing.group(0))
            continue
        out.append(token.group(0))
    return re.sub(r"\s+([,:;!?])", r"\1", " ".join(out))


def _verdict_clauses(text: str) -> str:
    """``text`` without the clauses made only of verdict, source and function words ("correct?", "ok to
    publish?", "right or wrong? give me the real number")."""
    parts = _CLAUSES.split(text)
    kept: list[str] = []
    for i in range(0, len(parts), 2):
        clause = parts[i]
        if _verdict_clause(clause):
            continue
        kept.append(clause + (parts[i + 1] if i + 1 < len(parts) else ""))
    return "".join(kept)


def _tidy(text: str) -> str:
    text = text.replace('"', " ").replace("“", " ").replace("”", " ")
    text = re.sub(r"\(\s*\)", " ", text)
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,:;.?!])", r"\1", text)
    text = re.sub(r"\s[-–—]+\s*(?=[,.;:])", "", text)
    text = re.sub(r"([,:;])(?:\s*[,:;.])+", r"\1", text)
    return re.sub(r"[\s,;:.–—-]+$", "", text).strip(" ,;:-–—").strip()


def read_claim(question: str) -> Claim | None:
    """The claim quoted in ``question`` and the ask left once it is taken out, or ``None`` (no claim check).

    >>> c = read_claim("the deck says 49,102.99 € for XENON in Dec '25, correct?")
    >>> c.text, c.quoted, c.value, c.places
    ("XENON in Dec '25", '49,102.99 €', Decimal('49102.99'), 2)
    >>> read_claim("alpenland logistik, Nov-25: draft has €96k. right or wrong? give me the real number").text
    'alpenland logistik, Nov-25'
    >>> read_claim("invoices above 10.000 EUR at Company A in March 2026") is None
    True
    """
    if not _verdict_cue(question) or _DOCUMENT_CLAIM.search(question):
        return None  # (what an agreement says is checked against its passages, router/evidence.py)
    amounts = [a for a in parse_amounts(question) if a.comparator is None]
    # an amount is claimed only where a verb or sign states it ("draft has €96k", "= 18,583", "says EUR 1.2m") or
    # a source phrase quotes it ("the 48,866 EUR figure in the e-mail"); after "of", "exactly", "excluding",
    # "without" it is the ask's constraint: no claim check (its own readers read or ask it)
    claimed = [a for a in amounts if _CLAIM_STATED.search(question[:a.start])
               or (_quoting(question) and not _CONSTRAINT_BEFORE.search(question[:a.start]))]
    if len(claimed) != len(amounts):
        return None
    count = None
    percent = _SHARE_CLAIM.search(question) or _CHANGE_CLAIM.search(question) if not amounts else None
    if percent is not None:
        said = "share of" if percent.re is _SHARE_CLAIM else "change"
        text = f"{question[:percent.start()].rstrip()} {said} {question[percent.end():].lstrip()}"
        sign = "-" if percent.group("sign") in ("-", "−") or re.match(r"(?i)(?:down|lower|fell|dropped|decreased|"
                                                                     r"declined)", percent.group(0)) else ""
        quoted = percent.group(0)
        value, places = Decimal(sign + percent.group("n").replace(",", ".")), 0
        amounts, count = [], None
    elif len(amounts) != 1:
        if amounts:
            return None  # two quoted amounts: a range or two claims, read by their own readers
        # (a count written before its noun is claimed only inside a quoted source: "the deck: 6 invoices above
        # ..."; "the 2025 invoices", "top 5 invoices" are the ask's year and list size)
        count = _COUNT_AFTER.search(question) or (_COUNT_CLAIM.search(question) if _quoting(question) else None)
        if count is None:
            return None
        text = _cut(question, count.start("n"), count.end("n")) if count.re is _COUNT_AFTER \
            else question[:count.start()] + question[count.end():]
        quoted, value, places = count.group("n"), Decimal(count.group("n")), 0
    elif percent is None:
        amount = amounts[0]
        quoted = amount.text
        value, places = amount.value, _precision(amount.text, amount.value)
        text = _cut(question, amount.start, amount.end)
    # ("is it true that X ..." stays: the names after it keep their place, never read as a sentence's first word)
    # ("if not, what is the correct number?", "accurate or not"): the alternative of the verdict, no negation
    text = re.sub(r"\b(?:if|or)\s+not\b", " ", text, flags=re.I)
    text = re.sub(r"\bfigure\b\s*", "", text, flags=re.I)
    text = _source_phrases(text)
    text = _verdict_clauses(text)
    # "is the YTD figure for X correct": the frame around the subject
    text = re.sub(r"^\s*(?:is|was)\s+(?:the|this|that)\s+", "", text, flags=re.I)
    text = re.sub(r"\s+(?:correct|right|true|accurate|ok)\s*\?*\s*$", "", text, flags=re.I)
    text = _tidy(text)
    # ("the deck says €366k for both entities with Gamma"): the subject the claim was "for" starts the ask
    text = re.sub(r"^(?:for|about|regarding|para|pour|für)\s+", "", text, flags=re.I)
    if count is not None:
        text = re.sub(r"(?<![\w#])#\s*(?=[^\W\d_])", "number of ", text)  # "#invoices": their number
    if count is not None and not _COUNT_WORDS.search(text) and not _LIST_ASK.search(question):
        text = f"number of invoices {text}" if not re.search(_COUNT_NOUN, text, re.I) else f"how many {text}"
    if not re.search(r"[^\W\d_]{2}", text):
        return None
    return Claim(text=text, quoted=quoted, value=value, places=places, count=count is not None,
                 percent=percent is not None)


#: Metrics whose answer is not one money total of the subject and period (a comparison, a ranking, a share, a
#: list, a count): an amount claim has no single governed figure in them to be compared with.
_NO_TOTAL_METRICS = frozenset({"finance.spend_comparison", "finance.spend_ranking", "finance.supplier_share",
                               "finance.product_group_share", "finance.invoices_above_threshold",
                               "finance.duplicate_invoices", "finance.invoice_count"})


def _figure(result: Mapping[str, Any], count: bool) -> Decimal | None:
    """The figure the answer gave for the claim's kind: the measure answered ("average_invoice_value"), else the
    total of a spend answer; ``None`` where the answer's figure is unclear (no verdict is said then)."""
    measure = result.get("measure")
    if count:
        value = result.get("invoice_count") if measure in (None, "invoice_count") else None
    elif isinstance(measure, str) and measure:
        value = result.get(measure)
    elif result.get("metric") in _NO_TOTAL_METRICS:
        value = None
    else:
        value = result.get("total_spend")
        if value is None:
            value = result.get("value") or result.get("total")
    try:
        return Decimal(str(value)) if value is not None else None
    except ArithmeticError:
        return None


def verdict(claim: Claim, status: str, result: Mapping[str, Any]) -> str:
    """What the answer says about the quoted figure: whether the governed figure, at the quoted precision, is it.

    >>> c = read_claim("alpenland logistik, Nov-25: draft has €96k. right?")
    >>> verdict(c, "answered", {"total_spend": "95941.41"})
    "The quoted figure '€96k' matches the governed figure 95941.41 at the quoted precision (96000)."
    >>> verdict(c, "answered", {"total_spend": "94941.41"})[:60]
    "The quoted figure '€96k' does not match: the governed figure"
    """
    if status in ("clarification", "unsupported", "failed", "not_found"):
        return ""
    if status == "no_data":
        return f"The quoted figure {claim.quoted!r} does not match: there is no counted data for it."
    figure = None if claim.percent else _figure(result, claim.count)
    if figure is None:
        return f"The quoted figure {claim.quoted!r} was read as the claim to check, not as a filter."
    quantum = Decimal(1).scaleb(-claim.places)
    rounded = figure.quantize(quantum, rounding=ROUND_HALF_UP) if claim.places >= 0 else \
        (figure / quantum).quantize(Decimal(1), rounding=ROUND_HALF_UP) * quantum
    shown = format(rounded.normalize(), "f") if claim.places < 0 else str(rounded)
    if status == "partial":
        # (a word of the question was not applied: the figure is broader than the one asked, no verdict on it)
        return (f"The quoted figure {claim.quoted!r} can only be set against a broader figure than the one asked "
                f"(not every word of the question was applied): the governed figure is {figure} ({shown} at the "
                f"quoted precision); no verdict on the figure asked.")
    if rounded == claim.value.quantize(quantum) if claim.places >= 0 else rounded == claim.value:
        return (f"The quoted figure {claim.quoted!r} matches the governed figure {figure} at the quoted precision "
                f"({shown}).")
    return (f"The quoted figure {claim.quoted!r} does not match: the governed figure is {figure} ({shown} at the "
            f"quoted precision).")


def with_verdict(text: str, claim: Claim, status: str, result: Mapping[str, Any]) -> str:
    """An answer's text with the verdict on the quoted figure said before its sources (the answer unchanged)."""
    said = verdict(claim, status, result)
    if not said:
        return text
    head, sep, tail = text.partition(" Sources:")
    return f"{head.rstrip()} {said}{sep}{tail}"


__all__ = ["SOURCE_NOUNS", "SOURCE_VERBS", "VERDICT_WORDS", "Claim", "read_claim", "verdict", "with_verdict"]
