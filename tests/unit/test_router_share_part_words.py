""""What part (percent) of ... is ...": a share's part-of-the-whole wording, read as a share (never the part's
figure alone presented as the answer). Seeded slot variation over wholes, parts and spellings."""

from __future__ import annotations

import random

import pytest

from router.analysis import parse_share

OPENERS = ("What part", "what part", "Which part", "What part (percent)", "what part (%)", "What part (in percent)",
           "which part (percentage)", "What part ( per cent )")
WHOLES = ("Company C 2026 spend", "our spend in Q1 2026", "company a's sensor spend last year", "Kestrel's FY25 spend")
PARTS = ("is in GBP", "went to Beta Supplies", "was sensors", "was invoiced in USD", "is with Gamma")


@pytest.mark.parametrize("seed", range(30))
def test_what_part_of_a_whole_is_a_share(seed: int) -> None:
    rng = random.Random(seed)
    text = f"{rng.choice(OPENERS)} of {rng.choice(WHOLES)} {rng.choice(PARTS)}?"
    share, spans = parse_share(text)
    assert share and spans, text


@pytest.mark.parametrize("text", ["Which parts did we buy from Beta in 2025?", "spend on spare parts in Q1 2026",
                                  "What part numbers of Gamma did Company A buy?", "part of the order was late"])
def test_part_without_a_whole_is_no_share(text: str) -> None:
    assert not parse_share(text)[0], text
