"""Category levels, two-dimension breakdowns, product rankings, period phrases and product names: seeded probes asked
through ``/v1/ask`` and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_levels [--database procura] [--seed 21] [--per-class 25] [--class periods]
[--show wrong|all|none] [--json out.json]`` fills frames with the demo vocabulary (``tenant-42``, as of 2026-05-15;
:mod:`evaluation.probes_clarify`):

* ``levels``: spend by top-level category (top-level / main category / category) for a named company or all
  companies, the grouping phrase before or after the question ("By top-level category, what did ..."), and the
  top-level categories ranked (``finance.spend_ranking`` by ``top_product_group_id``).
* ``two_dims``: all companies' spend by company and a second grouping (quarter, month, supplier, top-level
  category) in either order: one governed call grouped by both, every row in the answer (a total or one
  dimension alone is a silent wrong).
* ``products``: the N products that cost a company (or all companies) the most, and suppliers ranked by invoice
  count (``finance.invoice_count`` grouped by supplier).
* ``periods``: full-month windows ("trailing three full months", "the last 2 full quarters"), fiscal year to
  date ("FY2026 YTD", "FY 2026 so far"), ISO weeks ("week 12 of 2026", "2026-W07"); weeks no year has ("week 54
  of 2025", "week 53 of 2025", "KW 0 2026") must be asked about, never read as the year around them.
* ``product_names``: a group's spend excluding one of its products named by its description ("excluding the
  PT100 probe"), a product named with a model code the catalogue does not have ("the MC-9 monitoring
  controller", asked about), and two products' unit prices compared ("which is cheaper?": both prices, the
  cheaper named first).

Written from the slot grammar alone, never from an evaluation question. Seed 21 is the training seed; 22 is held
out (only its counts are read).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from operator import attrgetter
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import cli
from evaluation.probe_runner import distinct
from evaluation.probes_clarify import GROUPS, Draw, Probe, _draw, _style, _total, outcome_table, run

Fill = Callable[[Draw, random.Random], tuple[str, Call | None, tuple[str, ...]]]
_ALL = ("all companies", "all our companies", "all companies together", "every company combined")
_EUR = {"reporting_currency": "EUR"}
#: Periods as of 2026-05-15 with exact bounds: (phrase, start, end exclusive).
_PERIODS: tuple[tuple[str, str, str], ...] = (
    ("in Q1 2026", "2026-01-01", "2026-04-01"), ("in H2 2025", "2025-07-01", "2026-01-01"),
    ("for 2026 YTD", "2026-01-01", "2026-05-16"), ("for FY2026 YTD", "2026-01-01", "2026-05-16"),
    ("in Q4 2025", "2025-10-01", "2026-01-01"), ("last quarter", "2026-01-01", "2026-04-01"),
    ("in 2025", "2025-01-01", "2026-01-01"), ("over the trailing three full months", "2026-02-01", "2026-05-01"),
)
#: Two adjacent quarters (a list read as one range, grouped by quarter).
_QUARTER_LISTS: tuple[tuple[str, str, str], ...] = (
    ("for Q4 2025 and Q1 2026", "2025-10-01", "2026-04-01"), ("in Q3 and Q4 2025", "2025-07-01", "2026-01-01"),
    ("in H2 2025", "2025-07-01", "2026-01-01"), ("in 2025", "2025-01-01", "2026-01-01"),
)


def _scope(d: Draw, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """A named company, or all of them ("all companies": no company id, the reporting currency)."""
    if rng.random() < 0.5:
        return d.c, {"company_id": d.company}
    return rng.choice(_ALL), dict(_EUR)


def _level(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        who, params = _scope(d, rng)
        p = rng.choice(_PERIODS)
        level = rng.choice(("top-level category", "main category", "top-level product group"))
        call = _total({**params, "start_date": p[1], "end_date": p[2]}, ("top_product_group_id",))
        return template.format(c=who, p=p[0], lvl=level), call, ()
    return fill


def _level_ranking(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        who, params = _scope(d, rng)
        p = rng.choice(_PERIODS)
        level = rng.choice(("top-level categories", "main categories", "top-level product groups"))
        call = Call("finance.spend_ranking", {**params, "start_date": p[1], "end_date": p[2], "limit": 3,
                                              "direction": "top", "order_by": "total_spend"},
                    ("top_product_group_id",))
        return template.format(c=who, p=p[0], lvl=level), call, ()
    return fill


#: (phrase, group_by, grain) of a breakdown by company and one more grouping, in either order.
_TWO: tuple[tuple[str, tuple[str, ...], str | None], ...] = (
    ("by company and quarter", ("company_id",), "quarter"), ("by quarter and company", ("company_id",), "quarter"),
    ("per company and month", ("company_id",), "month"),
    ("by company and supplier", ("company_id", "supplier_id"), None),
    ("split by supplier and company", ("supplier_id", "company_id"), None),
    ("by company and top-level category", ("company_id", "top_product_group_id"), None),
    ("broken down by company and vendor", ("company_id", "supplier_id"), None),
)


def _two_dims(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, dims, grain = rng.choice(_TWO)
        p = rng.choice(_QUARTER_LISTS if grain else _PERIODS[:4])
        if grain == "month":
            p = ("in Q1 2026", "2026-01-01", "2026-04-01")
        call = _total({**_EUR, "start_date": p[1], "end_date": p[2]}, dims, grain)
        return template.format(c=rng.choice(_ALL), p=p[0], b=phrase), call, ()
    return fill


def _products(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        who, params = _scope(d, rng)
        p = rng.choice(_PERIODS)
        n = rng.choice((("3", 3), ("three", 3), ("2", 2), ("5", 5)))
        call = Call("finance.spend_ranking", {**params, "start_date": p[1], "end_date": p[2], "limit": n[1],
                                              "direction": "top", "order_by": "total_spend"}, ("product_code",))
        return template.format(c=who, p=p[0], n=n[0]), call, ()
    return fill


def _invoice_ranking(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        p = rng.choice(_PERIODS[:3])
        call = Call("finance.invoice_count", {"company_id": d.company, "start_date": p[1], "end_date": p[2],
                                              "document_types": ["invoice"]}, ("supplier_id",),
                    outputs=("invoice_count",))
        return template.format(c=d.c, p=p[0]), call, ()
    return fill


#: Period phrases as of 2026-05-15: (phrase, start, end) or (phrase, None, words a clarification must name).
_PERIOD_PHRASES: tuple[tuple[str, str | None, str], ...] = (
    ("over the trailing three full months", "2026-02-01", "2026-05-01"),
    ("over the last 3 full months", "2026-02-01", "2026-05-01"),
    ("in the trailing two full months", "2026-03-01", "2026-05-01"),
    ("over the most recent 2 full quarters", "2025-10-01", "2026-04-01"),
    ("over the past six complete months", "2025-11-01", "2026-05-01"),
    ("FY2026 YTD", "2026-01-01", "2026-05-16"), ("FY 2026 so far", "2026-01-01", "2026-05-16"),
    ("fiscal year 2026 to date", "2026-01-01", "2026-05-16"),
    ("in week 12 of 2026", "2026-03-16", "2026-03-23"), ("in calendar week 7, 2026", "2026-02-09", "2026-02-16"),
    ("in 2026-W10", "2026-03-02", "2026-03-09"), ("in week 45 of 2025", "2025-11-03", "2025-11-10"),
    ("in week 54 of 2025", None, "week"), ("in week 53 of 2025", None, "week"), ("in KW 0 2026", None, "week"),
    ("in calendar week 60 of 2026", None, "week"), ("in 2025-W54", None, "week"),
)


def _period(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        phrase, start, end = rng.choice(_PERIOD_PHRASES)
        question = template.format(c=d.c, p=phrase)
        if start is None:
            return question, None, (end, "period")
        return question, _total({"company_id": d.company, "start_date": start, "end_date": end}), ()
    return fill


#: Products named by description: (words, code, the group it lies in).
_DESCRIBED: tuple[tuple[str, str, str], ...] = (
    ("the PT100 probe", "PRD-491", "PG-SENS"), ("the PT100 temperature probe", "PRD-491", "PG-TEMP"),
    ("the DPS-482 sensor", "PRD-482", "PG-SENS"), ("the flow sensor FS-50", "PRD-510", "PG-MON"),
    ("the MC-4 monitoring controller", "PRD-611", "PG-MCTL"), ("the PS-Z1 pressure sensor", "PRD-530", "PG-PRES"),
)
#: A model code the catalogue does not have, beside a product's name.
_OTHER_MODELS = ("the MC-9 monitoring controller", "the FS-70 flow sensor", "the thermal mass flow meter TMF-5",
                 "the WPT-9 wireless pressure transmitter")


def _excluding(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        words, code, group = rng.choice(_DESCRIBED)
        p = rng.choice(_PERIODS[:3])
        g = rng.choice(GROUPS[group][0][:2])
        call = _total({"company_id": d.company, "start_date": p[1], "end_date": p[2],
                       "product_group_ids": list(GROUPS[group][1]), "exclude_product_codes": [code]})
        return template.format(c=d.c, p=p[0], g=g, x=words), call, ()
    return fill


def _other_model(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        words = rng.choice(_OTHER_MODELS)
        return template.format(c=d.c, p=rng.choice(_PERIODS[:3])[0], x=words), None, ("product", words.split()[1])
    return fill


def _cheaper(template: str) -> Fill:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        a, b = rng.sample(("PRD-482", "PRD-530", "PRD-483", "PRD-611", "PRD-612"), 2)
        call = Call("catalog.average_unit_price", {"product_code": a, "start_date": "2025-01-01",
                                                   "end_date": "2026-01-01", **_EUR}, outputs=("unit_price",))
        return template.format(a=a, b=b), call, ()
    return fill


FRAMES: dict[str, tuple[Fill, ...]] = {
    "levels": (
        _level("{c} spend by {lvl} {p}"), _level("By {lvl}, what did {c} spend {p}?"),
        _level("Per {lvl}, how much did {c} spend {p}?"), _level("{c} {p}: spend per {lvl}"),
        _level_ranking("{lvl} ranked by spend of {c} {p}"), _level_ranking("Rank the {lvl} of {c} by spend {p}"),
    ),
    "two_dims": (
        _two_dims("Spend of {c} {b} {p}"), _two_dims("{p}, spend of {c} {b}"),
        _two_dims("What did {c} spend {p}, {b}?"),
    ),
    "products": (
        _products("Which {n} products cost {c} the most {p}?"), _products("Top {n} products by spend of {c} {p}"),
        _products("The {n} products {c} spent the most on {p}"),
        _invoice_ranking("Rank suppliers by invoice count for {c} {p}"),
    ),
    "periods": (
        _period("What did {c} spend {p}?"), _period("{c} spend {p}"), _period("Total spend of {c} {p}, please"),
    ),
    "product_names": (
        _excluding("{c} {g} spend {p}, excluding {x}"), _excluding("{c} spend on {g} {p} but excluding {x} please"),
        _excluding("How much did {c} spend on {g} {p} without {x}?"),
        _other_model("What's the average price of {x} {p}?"), _other_model("{c} spend on {x} {p}"),
        _cheaper("Compare the average unit price of {a} and {b} in 2025 - which is cheaper?"),
        _cheaper("Which is cheaper per unit in 2025, {a} or {b}?"),
    ),
}


def probes(seed: int, per_class: int = 25) -> list[Probe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    return [probe for klass, frames in FRAMES.items()
            for probe in distinct(partial(_drawn, klass, frames, rng), attrgetter("question"), per_class,
                                  per_class * 4)]


def _drawn(klass: str, frames: Sequence[Fill], rng: random.Random) -> Probe:
    """One probe of ``klass``: a frame filled with drawn slot values, analyst noise on four in ten."""
    fill = rng.choice(frames)
    question, call, about = fill(_draw(rng), rng)
    return Probe(klass, _style(question, rng) if rng.random() < 0.4 else question, call, about, ())


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, tuple(FRAMES))


def main(argv: Sequence[str] | None = None) -> None:
    cli(argv, doc=__doc__, probes=probes, run=run, table=table, seed=21, per_class=25)


if __name__ == "__main__":
    main()
