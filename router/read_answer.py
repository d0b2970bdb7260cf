"""The decision rule of asking back: a question whose subject and period were read, and no measure, is answered.

Over every training set the two generic asks ("I read <company>, <period>, but not which figure you want" and
"Could you say what you need: a number, a relationship, a document ...") fired mostly where an answer was expected:
"acumulado del año de Kestrel, todos los proveedores", "YTD Company A con Gamma, porfa", "Orbis x Alpenland,
2026-03 - tail or zero?". The writer named a subject (a company, several, all companies, a supplier or a product
group of the tenant) and a period (or a to-date reading) and said no figure, or said it in a word no reader knew.
In this product the figure of a subject over a period is its spend ("how much", "total", "our number", "cost",
"figure" or no measure word at all mean it), so asking "which figure?" answers nothing the writer did not already
say. The rule answers the governed spend, marked PARTIAL naming every content word left unread ("I did not
understand 'x', 'y': ..."), never dropping them silently.

It keeps asking where the unread span is shaped like a constraint or another question, each with its own ask:

* a bound of a period left unread (:data:`PERIOD_BOUNDS`: "since", "until", "desde"): the period read may be
  another than the one asked;
* a word of no word list (router/unread_words.py's general words: an invented token, a slip of a name, a code),
  a word with a digit (an amount, a code), a capitalised word inside the sentence or an all-capitals word (an
  unknown name or code), or a month word (a period not read): constraints, never dropped;
* a word of a figure the invoice data does not carry (:data:`UNCARRIED_FIGURES`: budget, forecast, plan, target
  ... in the languages the writers mix in): the figure is not the spend;
* a reading that asks something else than a total: invoices listed or counted, a threshold, a unit price or
  "cheaper" (its own template asks the product), quantities, approvals, products, an agreement or a document;
* more than :data:`MOST_UNREAD` unread words: the question was not understood, not only its measure;
* one or two open-class words and nothing else: they stand in the measure slot and name something other than the
  spend (goods: "furniture"; a figure the data lacks: "returns"), router/default_measure.py's ask;
* an ask of another kind (an unknown name, a company, a period): only the measure asks are replaced.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from router.edits import without_diacritics
from router.envelope import CHAT_WORDS
from router.period_words import ALL_MONTHS
from router.unread_words import CLOSED_CLASS_WORDS, FILLER_WORDS, FUNCTION_WORDS

#: Figures the invoice data does not carry, in the languages the writers mix in (English, Spanish, Portuguese,
#: German, French, Italian, Dutch): a word of them beside a subject and a period asks another figure than the spend.
UNCARRIED_FIGURES: frozenset[str] = frozenset("""
budget budgets budgeted budgetary forecast forecasts forecasted plan plans planned planning target targets
outlook projection projections estimate estimates estimated accrual accruals accrued commitment commitments
committed savings saving variance variances
presupuesto presupuestos presupuestado previsión prevision previsiones pronóstico pronostico meta metas objetivo
objetivos orçamento orcamento orçamentos orcamentos orçado orcado previsão previsao previsões previsoes
planejado planejamento
planwert planwerte prognose prognosen ziel ziele zielwert soll
prévision prévisions previsions objectif objectifs prévu prevu
previsione previsioni obiettivo obiettivi preventivo
begroting prognoses doel
""".split())  # noqa: SIM905 - a word list reads better as text

#: The bounds of a period ("since", "until", "desde", "até", "seit", "depuis"): one left unread means the period
#: read may be another than the one asked ("since data start Jul-25" read as July alone), never answered as read.
PERIOD_BOUNDS: frozenset[str] = frozenset("""
since until till til thru through onwards onward starting beginning desde hasta ate até seit bis ab depuis jusqu
jusque jusqua sinds vanaf tot dal fino
""".split())  # noqa: SIM905 - a word list reads better as text

#: English month names and their abbreviations ("jul", "sept"): with router/period_words.py's other languages.
_ENGLISH_MONTHS = frozenset(m.casefold() for m in calendar.month_name[1:])


def _month(low: str) -> bool:
    return low in ALL_MONTHS or low in _ENGLISH_MONTHS or (
        len(low) >= 3 and any(m.startswith(low) for m in _ENGLISH_MONTHS))


#: Closed-class words (function, filler and courtesy words of every language the readers know): they never name a
#: figure or a thing. One or two open-class words alone in the measure slot ("furniture", "returns", "ruse") name
#: something other than the spend (goods, a figure the data lacks): router/default_measure.py's ask stands there.
_CLOSED_WORDS = FUNCTION_WORDS | FILLER_WORDS | CHAT_WORDS
#: Words set aside before the open-class words of the measure slot are counted: the closed words, the function
#: words of every language ("com") and the units of time ("mês a mês", "per week"), which say how a period is
#: cut, never which figure is asked.
_NOT_MEASURE_WORDS = _CLOSED_WORDS | CLOSED_CLASS_WORDS["function"] | CLOSED_CLASS_WORDS["time"]

#: The most unread words an answer may name: beyond them the question, not only its measure, was not understood.
MOST_UNREAD = 4

#: The asks this rule replaces: no intent read, or a company and a period read with no figure.
_MEASURE_ASKS = ("intent: no retrieval intent", "measure: the question names a company and a period")
#: Where a sentence starts: a capitalised word right after it is no name.
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\n\-–—(\"“]\s*|^spend\s+)$", re.I)


class _Cues(Protocol):
    invoices: bool
    invoice_count: bool
    threshold_words: bool
    unit_price: bool
    price_comparison: bool
    quantity: bool
    approved: bool
    agreement_question: bool
    summary: bool


def _other_ask(cues: _Cues) -> bool:
    """Whether the reading asks something else than a total (a list, a count, a price, a document ...)."""
    return any((cues.invoices, cues.invoice_count, cues.threshold_words, cues.unit_price, cues.price_comparison,
                cues.quantity, cues.approved, cues.agreement_question, cues.summary))


def constraint_shaped(text: str, word: str, general: frozenset[str]) -> bool:
    """Whether the unread ``word`` of ``text`` is shaped like a constraint: a digit (an amount, a code), a
    capitalised word inside a sentence or all capitals (a name, a code), a month (a period), or a figure the data
    does not carry; ``general`` is the general word list (router/unread_words.py): a word outside it is a slip,
    a code or a name.

    >>> G = frozenset({"umbrella", "todos", "presupuesto", "jul"})
    >>> constraint_shaped("spend Alpenland Umbrella Q1", "Umbrella", G), constraint_shaped("spend todos Q1", "todos", G)
    (True, False)
    >>> constraint_shaped("Presupuesto Alpenland Q1", "Presupuesto", G), constraint_shaped("spend jul a mar", "jul", G)
    (True, True)
    >>> constraint_shaped("spend Company B wibopu Q1", "wibopu", G)
    True
    """
    low = without_diacritics(word.casefold())
    if low not in general and word.casefold() not in general:
        return True  # an invented token or a word no table knows: a slip of a name, or a code ("wibopu")
    if low in PERIOD_BOUNDS or any(ch.isdigit() for ch in word) or word.casefold() in UNCARRIED_FIGURES \
            or low in UNCARRIED_FIGURES or low.rstrip("s") in UNCARRIED_FIGURES or _month(low):
        return True
    if len(word) >= 2 and word.isupper():
        return True
    if word[:1].isupper():
        found = re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text)
        return found is not None and _SENTENCE_START.search(text[:found.start()]) is None
    return False


def answers_as_read(text: str, unread: Sequence[str], reasons: Iterable[str], cues: _Cues,
                    general: frozenset[str]) -> bool:
    """Whether a question asked back for its measure alone is answered as the spend of what was read, naming the
    ``unread`` words; ``text`` is the fragment read with "spend" in front, ``reasons`` the ask's reasons,
    ``general`` the general word list.

    >>> class C:
    ...     invoices = invoice_count = threshold_words = unit_price = price_comparison = quantity = False
    ...     approved = agreement_question = summary = False
    >>> G = frozenset({"con", "porfa", "umbrella"})
    >>> answers_as_read("spend YTD Company A con Gamma, porfa", ("con", "porfa"),
    ...                 ["intent: no retrieval intent reached the confidence threshold"], C(), G)
    True
    >>> answers_as_read("spend Company A Umbrella Q1", ("Umbrella",), ["intent: no retrieval intent"], C(), G)
    False
    >>> answers_as_read("spend YTD Company A, porfa", ("porfa",), ["entity: 'X' was not understood"], C(), G)
    False
    """
    reasons = list(reasons)
    if not unread or len(unread) > MOST_UNREAD or not reasons:
        return False
    if any(not r.startswith(_MEASURE_ASKS) for r in reasons) or _other_ask(cues):
        return False
    # (counted once the closed-class words are set aside: "con furniture, porfa" is "furniture" in the slot)
    open_words = [w for w in unread if without_diacritics(w.casefold()) not in _NOT_MEASURE_WORDS
                  and w.casefold() not in _NOT_MEASURE_WORDS]
    if 1 <= len(open_words) <= 2:
        return False  # the measure slot's own word(s), not the spend's name: asked (router/default_measure.py)
    return not any(constraint_shaped(text, w, general) for w in unread)


__all__ = ["MOST_UNREAD", "PERIOD_BOUNDS", "UNCARRIED_FIGURES", "answers_as_read", "constraint_shaped"]
