"""Replicated-duplicate questions and status measures in people's words (router/duplicates.py,
router/open_amount.py): seeded wordings, EN and DE, against what the reader must take from them."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re

import pytest

from router.duplicates import _DUPLICATE, _EXCLUDED_AFTER, _EXCLUDED_BEFORE, _OTHER_NOUN
from router.open_amount import open_question, status_only, up_to

_LEADS = ("which invoices {p}", "list the invoices {p}", "{p} - which ones?", "Company B: invoices {p}, which numbers?")
_DUPLICATE_PREDICATES = ("were double-exported", "were exported twice", "were replicated", "came in twice",
                         "are duplicates", "had an ERP replica", "were duplicated", "were imported twice")
_GERMAN = ("welche Rechnungen kamen doppelt", "Dubletten bei Company A", "doppelt eingespielte Rechnungen",
           "Duplikate 2025", "Rechnungen mit Replikat", "zweimal eingespielt")
_POLICY = ("spend excluding duplicates", "spend without duplicate invoices", "spend, duplicates removed",
           "de-duplicated spend", "spend net of replicated duplicates", "Ausgaben ohne Dubletten")
_OTHER = ("duplicate suppliers in the master data", "any duplicate vendors?", "duplicate payments to Beta")
_NOT_DUPLICATE = ("Company A spend Q1 2026", "double-check the Q1 spend", "how many invoices did Beta send",
                  "spend twice as high as last year?", "zweimal so viel wie 2025")


def _asks_duplicates(text: str) -> bool:
    found = list(_DUPLICATE.finditer(text))
    return bool(found) and not re.search(r"\bde-?dup\w*", text, re.I) and not any(
        _EXCLUDED_BEFORE.search(text[max(0, m.start() - 40):m.start()]) or _EXCLUDED_AFTER.match(text[m.end():])
        or _OTHER_NOUN.match(text[m.end():]) for m in found)


@pytest.mark.parametrize("seed", range(3))
def test_duplicate_wordings_are_read(seed: int) -> None:
    rng = random.Random(seed)
    for lead, predicate in rng.sample(list(itertools.product(_LEADS, _DUPLICATE_PREDICATES)), 12):
        text = lead.format(p=predicate)
        assert _asks_duplicates(text), text
    for text in _GERMAN:
        assert _asks_duplicates(text), text


def test_the_policy_and_other_duplicates_are_not_a_listing() -> None:
    for text in (*_POLICY, *_OTHER, *_NOT_DUPLICATE):
        assert not _asks_duplicates(text), text


@pytest.mark.parametrize(("lead", "rest"), list(itertools.product(
    ("what's still open", "what is still open", "how much is outstanding", "what is currently unpaid"),
    (" from Beta for Company A", " (posted, not paid) from northwind for alpenland, EUR", " with Gamma in Q1 2026"))))
def test_open_now_reads_as_open_spend(lead: str, rest: str) -> None:
    assert open_question(lead + rest) == "open spend" + rest


def test_no_open_amount_without_its_words() -> None:
    assert open_question("open invoices of Company A - which ones?") is None
    assert open_question("Company A spend in Q1 2026") is None


@pytest.mark.parametrize("status", ["paid", "posted", "unpaid", "open"])
def test_status_only(status: str) -> None:
    assert status_only(f"kestrel: {status}-only spend last quarter") == f"kestrel: only {status} spend last quarter"
    assert status_only(f"{status} only spend") == f"only {status} spend"


def test_up_to_the_as_of_date() -> None:
    assert up_to("open spend from Beta?", dt.date(2026, 5, 15)) == "open spend from Beta from 1990-01-01 through " \
                                                                 "2026-05-15"
