"""Review 38: "how much more did A spend than B <qualifier>" applies the qualifier to both sides.

Side b ended only at "did", a period word or punctuation, so "than Company C with Supplier Beta" compared A (all
suppliers) with C at Beta, and "than with Gamma for Company A" lost the company on side a. Seeded frames vary the
companies (names, ids, case), the suppliers (names, aliases), the qualifier's preposition and the period; each base
question is routed and must name the same supplier / company on both sides as the slot values mean.
"""

from __future__ import annotations

import random

import pytest

from router.routing import route
from tests.unit.test_router_company_compare import INPUTS, PERIODS, SPELLINGS, SUPPLIERS, _ask

SEED, N = 380, 24


def _company_cases() -> list[tuple[str, tuple[str, str], tuple[str, str], str, str]]:
    rng = random.Random(SEED)
    out = []
    for _ in range(N):
        p, start, end = rng.choice(PERIODS)
        a, b = rng.sample(sorted(SPELLINGS), 2)
        x = rng.choice(sorted(SUPPLIERS))
        word = rng.choice(("more", "less"))
        prep = rng.choice(("with", "from", "at"))
        frame = rng.choice(("how much {w} did {a} spend than {b} {prep} {x} {p}?",
                            "How much {w} did {a} spend than {b} did {prep} {x} {p}",
                            "how much {w} did {a} pay than {b} {prep} {x} {p}"))
        q = frame.format(w=word, a=rng.choice(SPELLINGS[a]), b=rng.choice(SPELLINGS[b]), prep=prep,
                         x=rng.choice(SUPPLIERS[x]), p=p)
        out.append((q, (a, x), (b, x), start, end))
    return out


def _supplier_cases() -> list[tuple[str, tuple[str, str], tuple[str, str], str, str]]:
    rng = random.Random(SEED + 1)
    out = []
    for _ in range(N):
        p, start, end = rng.choice(PERIODS)
        c = rng.choice(sorted(SPELLINGS))
        x, y = rng.sample(sorted(SUPPLIERS), 2)
        frame = rng.choice(("how much more did we spend with {x} than with {y} for {c} {p}?",
                            "How much less did we spend with {x} than with {y} at {c} {p}"))
        q = frame.format(x=rng.choice(SUPPLIERS[x]), y=rng.choice(SUPPLIERS[y]), c=rng.choice(SPELLINGS[c]), p=p)
        out.append((q, (c, x), (c, y), start, end))
    return out


@pytest.mark.parametrize(("question", "side_a", "side_b", "start", "end"), [*_company_cases(), *_supplier_cases()])
def test_the_qualifier_after_side_b_is_shared(question: str, side_a: tuple[str, str], side_b: tuple[str, str],
                                              start: str, end: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.kind == "difference" and ask.refused is None, question
    for base, (company, supplier) in zip(ask.bases, (side_a, side_b), strict=True):
        result = route(base, INPUTS)
        assert not result.requires_clarification, (question, base, result.clarification_question)
        assert result.entities.company_id == company, (question, base)
        assert list(result.entities.supplier_ids) == [supplier], (question, base)
        period = result.constraints.time_range
        assert period is not None and (period.start.isoformat(), period.end.isoformat()) == (start, end), base


@pytest.mark.parametrize("question", [
    "how much more did Company A spend with Beta than Company B with Gamma in 2025",
    "how much less did company c spend with Supplier Epsilon than COMP-A with Supplier Beta last year"])
def test_a_qualifier_on_each_side_is_asked(question: str) -> None:
    ask = _ask(question)
    assert ask is not None and ask.refused is not None and not ask.bases, question
