""""Which invoice ... was the largest": the superlative after the invoice noun ranks invoices only when no relative
clause or other rankable noun stands between (review 38). "Which invoices are from the supplier that was the
largest" ranks suppliers, so it is never answered as the largest invoices. Seeded slots; no database."""

from __future__ import annotations

import random

from router.routing import _RANKED_INVOICES
from tests.unit.test_router_compound_parts import _read

_COMPANIES = ("Company A", "Company C", "company b")
_SUPPLIERS = ("Supplier Gamma", "Beta", "Supplier Zeta")
_PERIODS = ("in 2025", "in Q1 2026", "in March 2026", "last year")
_ENDS = ("largest", "biggest", "highest", "smallest")


def test_a_relative_clause_ranks_its_own_noun() -> None:
    rng = random.Random(3821)
    for _ in range(40):
        c, p, end = rng.choice(_COMPANIES), rng.choice(_PERIODS), rng.choice(_ENDS)
        noun = rng.choice(("supplier", "vendor", "suppliers", "company"))  # (after "the": a common noun)
        rel = rng.choice(("that", "which", "who"))
        lead = rng.choice(("Which invoices are from the {n} {r} was the {e} for {c} {p}?",
                           "Which invoices came from the {n} {r} was the {e} for {c} {p}?",
                           "What invoices belong to the {n} {r} is the {e} for {c} {p}?"))
        q = lead.format(n=noun, r=rel, e=end, c=c, p=p)
        assert _RANKED_INVOICES.search(_read(q).cue_text) is None, q


def test_the_invoice_superlative_is_still_read() -> None:
    rng = random.Random(3822)
    for _ in range(30):
        c, p, end, s = rng.choice(_COMPANIES), rng.choice(_PERIODS), rng.choice(_ENDS), rng.choice(_SUPPLIERS)
        q = rng.choice(("Which invoice of {s} for {c} was the {e} {p}?", "Which single invoice of {c} was the {e} {p}?",
                        "What invoice from {s} was the {e} for {c} {p}?")).format(s=s, c=c, e=end, p=p)
        assert _RANKED_INVOICES.search(_read(q).cue_text) is not None, q
        assert _RANKED_INVOICES.search(q) is not None, q  # (a name left unmasked is no common noun)
