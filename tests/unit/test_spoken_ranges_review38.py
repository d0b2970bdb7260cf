"""Review 38: in a spoken range a bare small number borrows the scale of the number it is joined to.

"between one and two thousand euros" is 1,000 to 2,000 in spoken English (it was read 1 to 2,000); "between five
hundred and two thousand" carries its own scale and is 500 to 2,000 (it was read as one number, 502,000). Seeded:
the numbers, scales, joints ("and", "to") and lead-ins vary; the written form is compared with the digits meant.
"""

from __future__ import annotations

import random

import pytest

from router.spoken import spoken_forms

_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
          "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}


def _small(n: int) -> str:
    if n < 20:
        return _UNITS[n]
    return _TENS[n // 10] + (f" {_UNITS[n % 10]}" if n % 10 else "")


_SCALES = (("thousand", 1000), ("hundred", 100), ("hundred thousand", 100_000), ("million", 1_000_000))
_LEADS = (("between", "and"), ("from", "to"), ("", "to"), ("between", "and"))
_TAILS = (" euros", " eur", " dollars", "")


@pytest.mark.parametrize("seed", range(80))
def test_bare_small_number_shares_the_scale(seed: int) -> None:
    rng = random.Random(3860 + seed)
    word, scale = rng.choice(_SCALES)
    high = rng.randint(2, 99 if scale >= 1000 else 9)
    low = rng.randint(1, high - 1)
    lead, joint = rng.choice(_LEADS)
    tail = rng.choice(_TAILS)
    said = " ".join(f"invoices of company a {lead} {_small(low)} {joint} {_small(high)} {word}{tail} "
                    "in q one twenty twenty six".split())
    want = f"invoices of company a {lead} {low * scale} {joint} {high * scale}{tail} in Q1 2026"
    assert spoken_forms(said) == " ".join(want.split()), said


@pytest.mark.parametrize("seed", range(40))
def test_a_scaled_first_number_keeps_its_own_scale(seed: int) -> None:
    rng = random.Random(3940 + seed)
    low = rng.randint(1, 9)
    high = rng.randint(2, 9)
    lead, joint = rng.choice(_LEADS)
    said = " ".join(f"spend {lead} {_small(low)} hundred {joint} {_small(high)} thousand euros".split())
    assert spoken_forms(said) == " ".join(f"spend {lead} {low * 100} {joint} {high * 1000} euros".split()), said
    # a first number larger than the second would be with its scale: the numbers stay as said
    big = rng.randint(high + 1, 19) if high < 19 else 19
    said = " ".join(f"spend {lead} {_small(big)} {joint} {_small(high)} thousand euros".split())
    assert f"{big * 1000}" not in spoken_forms(said), said
