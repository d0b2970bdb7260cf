"""Entity and level probes: product groups by acronym, short name and German compound, products by catalogue
descriptor, and the level of "product group" in breakdowns and rankings; asked through ``/v1/ask`` and compared
with the governed metric called directly with the slot values.

``python -m evaluation.probes_entities [--database procura] [--seed 31] [--per-class 40] [--class level]
[--show wrong|all|none] [--json out.json]`` fills frames with seeded slot values of the demo vocabulary
(``tenant-42``, seed 42, as of 2026-05-15; companies and periods of :mod:`evaluation.probes_clarify`):

* ``group_short``: a group by its acronym ("MRO"), by its name without a generic head ("monitoring" for
  Monitoring Products) or by its full name, in a total, a share and an exclusion; the group means itself and its
  subgroups.
* ``product_name``: a product by its catalogue name without its pack size or specification ("gauge pressure
  sensor", "cable gland set", "safety gloves") or by its model code with a descriptor ("flow sensor FS-50"), in an
  average and a highest unit price.
* ``level``: "by product group" at a level: top-level words ("top-level category", "main categories") and no
  level word group by the top-level group; lowest-level words ("lowest level", "leaf groups", "each product's own
  group") by the product's own group; in breakdowns and in rankings.

Seeds: ``--seed 31`` is the training seed; ``--seed 32`` is held out (only its counts are read). Written from
the slot grammar and the catalogue alone, never from an evaluation question.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import cli
from evaluation.probes_clarify import GROUPS, Draw, Frame, Probe, _draw, _style, _total, run

#: Short spellings of the demo groups: (spelling, group id, the ids it covers: itself and its subgroups).
GROUP_SHORT: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("MRO", ("PG-CABL", "PG-CAL", "PG-CONS", "PG-MRO", "PG-TOOL")),
    ("mro", ("PG-CABL", "PG-CAL", "PG-CONS", "PG-MRO", "PG-TOOL")),
    ("Maintenance, Repair and Operations", ("PG-CABL", "PG-CAL", "PG-CONS", "PG-MRO", "PG-TOOL")),
    ("monitoring", GROUPS["PG-MON"][1]),
    ("Monitoring", GROUPS["PG-MON"][1]),
    ("Instandhaltungsmaterial", ("PG-CABL", "PG-CAL", "PG-CONS", "PG-MRO", "PG-TOOL")),
)
#: Products by what analysts call them: (spelling, product code).
PRODUCT_NAMES: tuple[tuple[str, str], ...] = (
    ("gauge pressure sensor", "PRD-483"), ("Gauge pressure sensor 0-10 bar", "PRD-483"),
    ("cable gland set", "PRD-495"), ("Cable gland set M20", "PRD-495"), ("safety gloves", "PRD-805"),
    ("Safety gloves", "PRD-805"), ("control cable", "PRD-820"), ("flow sensor FS-50", "PRD-510"),
    ("Flow sensor FS-50", "PRD-510"), ("FS-50", "PRD-510"), ("thermal mass flow meter TMF-2", "PRD-515"),
    ("TMF-2", "PRD-515"), ("Differential pressure sensor DPS-482", "PRD-482"), ("DPS-482", "PRD-482"),
    ("PT100 temperature probe", "PRD-491"), ("torque wrench set", "PRD-840"), ("M12 connector set", "PRD-825"),
    ("monitoring controller MC-4", "PRD-611"), ("cabinet climate kit", "PRD-705"),
    ("pressure calibration kit", "PRD-801"), ("precision multimeter", "PRD-845"),
)
#: Level phrases of a breakdown: (phrase, dimension).
LEVEL_BREAKDOWNS: tuple[tuple[str, str], ...] = (
    ("by top-level category", "top_product_group_id"), ("by top level product group", "top_product_group_id"),
    ("split by main category", "top_product_group_id"), ("by category (top level)", "top_product_group_id"),
    ("by product group", "product_group_id"), ("split by product group", "product_group_id"),
    ("per category", "product_group_id"), ("broken down by product group", "product_group_id"),
    ("by catalog group", "product_group_id"), ("by main product group", "top_product_group_id"),
    ("by product group (lowest level)", "product_group_id"), ("by leaf product group", "product_group_id"),
    ("broken down by each product's own group", "product_group_id"),
    ("per product group, lowest level", "product_group_id"), ("by lowest-level category", "product_group_id"),
)
#: Level phrases of a ranking: (phrase with {n}, limit, dimension).
LEVEL_RANKS: tuple[tuple[str, int, str], ...] = (
    ("top {n} top-level categories", 0, "top_product_group_id"), ("top {n} product groups", 0, "product_group_id"),
    ("top {n} categories", 0, "top_product_group_id"), ("biggest top-level category", 1, "top_product_group_id"),
    ("top {n} leaf product groups", 0, "product_group_id"),
    ("top {n} product groups (lowest level)", 0, "product_group_id"),
    ("top {n} lowest-level categories", 0, "product_group_id"),
)


def _group_short(template: str, shape: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        spelling, covered = rng.choice(GROUP_SHORT)
        if shape == "share":
            call = Call("finance.product_group_share", d.base(product_group_ids=list(covered)),
                        outputs=("share_percent",))
        elif shape == "exclude":
            call = _total(d.base(exclude_product_group_ids=list(covered)))
        else:
            call = _total(d.base(product_group_ids=list(covered)))
        return template.format(c=d.c, g=spelling, p=d.p), call, ()
    return template, fill


def _product(template: str, measure: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        spelling, code = rng.choice(PRODUCT_NAMES)
        params: dict[str, Any] = {"product_code": code, "start_date": d.period[1], "end_date": d.period[2],
                                  "company_id": d.company}
        if measure == "max":
            call = Call("catalog.unit_price_range", params, outputs=("highest_unit_price",))
        else:
            call = Call("catalog.average_unit_price", params, outputs=("unit_price",))
        return template.format(c=d.c, prd=spelling, p=d.p), call, ()
    return template, fill


def _level_breakdown(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, dim = rng.choice(LEVEL_BREAKDOWNS)
        return template.format(c=d.c, p=d.p, b=phrase), _total(d.base(), (dim,)), ()
    return template, fill


def _level_ranking(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, fixed, dim = rng.choice(LEVEL_RANKS)
        n = fixed or rng.choice((2, 3))
        call = Call("finance.spend_ranking", {**d.base(), "limit": n, "direction": "top",
                                              "order_by": "total_spend"}, (dim,))
        return template.format(c=d.c, p=d.p, r=phrase.format(n=n)), call, ()
    return template, fill


FRAMES: dict[str, tuple[Frame, ...]] = {
    "group_short": (
        _group_short("{c} spend on {g} {p}", "total"), _group_short("how much did {c} spend on {g} {p}?", "total"),
        _group_short("{c} {g} spend {p}", "total"), _group_short("what % of {c}'s spend {p} was {g}?", "share"),
        _group_short("what share of {c}'s spend {p} went to {g}", "share"),
        _group_short("{c} spend {p} excl. {g}", "exclude"), _group_short("{c} spend {p} excluding {g}", "exclude"),
    ),
    "product_name": (
        _product("average unit price {c} paid for the {prd} {p}", "avg"),
        _product("{c} avg unit price for {prd} {p}", "avg"),
        _product("what did {c} pay per unit for {prd} {p} on average?", "avg"),
        _product("highest unit price {c} was charged for {prd} {p}", "max"),
    ),
    "level": (
        _level_breakdown("{c} spend {p} {b}"), _level_breakdown("{c} {p} spend {b}"),
        _level_breakdown("show {c}'s spend {p} {b}"),
        _level_ranking("{r} for {c} {p}"), _level_ranking("{c} {r} by spend {p}"),
        _level_ranking("what were {c}'s {r} {p}?"),
    ),
}


def probes(seed: int, per_class: int = 40) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[Probe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 5):
            if len(seen) >= per_class:
                break
            _, fill = rng.choice(frames)
            draw = _draw(rng)
            question, call, about = fill(draw, rng)
            question = _style(question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(Probe(klass, question, call, about, (klass,)))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    from evaluation.probes_clarify import outcome_table

    cli(argv, doc=__doc__, probes=probes, run=run, seed=31, per_class=40,
        table=lambda counts: outcome_table(counts, tuple(FRAMES), total=False, every_row=True))


if __name__ == "__main__":
    main()
