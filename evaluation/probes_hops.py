"""Hop and item probes: a supplier named through a product or group it supplies, a price asked per item of a
named product, spending verbs, purchase listings of a supplier's products, products named through their manual and
product codes the catalogue does not know; asked through ``/v1/ask`` and compared with the governed metric called
directly with the slot values.

``python -m evaluation.probes_hops [--database procura] [--seed 31] [--per-class 40] [--class hop]
[--show wrong|all|none] [--json out.json]`` fills frames with seeded slot values of the demo catalogue
(``tenant-42``, seed 42, as of 2026-05-15; companies and periods of :mod:`evaluation.probes_clarify`):

* ``hop``: "the supplier of PRD-611", "whoever makes the MC-4 monitoring controller", "the PT100 probe's supplier",
  "the company that sells <product>", "the <group> supplier": spend with the catalogue supplier of the product (or
  of every product of the group), never spend on the product.
* ``per_item``: "what did X pay per <product> on average", "<product>, average per <unit>": the product's
  quantity-weighted average unit price, never the spend on it.
* ``verb``: spending verbs ("book with", "rack up with", "incurred with"): the spend with the supplier.
* ``listing``: "products we buy from <supplier> - which did X actually buy <period>": the spend with the supplier
  by product.
* ``manual``: "the product the manual-prd-NNN covers": spend on that product.
* ``invoices``: "X invoices from Y in P - list them", "which invoices did X get from Y": the invoices of the scope
  (the governed listing of invoices at or above a zero grand total; credit notes are not invoices).
* ``unknown_code``: a product code not in the catalogue in a spend, unit-price or units question: a clarification
  naming the product, never "no data".

Seeds: ``--seed 31`` is the training seed; ``--seed 32`` is held out (only its counts are read). Written from
the slot grammar and the catalogue alone, never from an evaluation question.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import cli
from evaluation.probes_clarify import SUPPLIERS, Draw, Frame, Probe, _draw, _style, _total, run

#: The demo catalogue (tenant-42): product code -> (its spellings, its one supplier, its unit word).
CATALOGUE: dict[str, tuple[tuple[str, ...], str, str]] = {
    "PRD-482": (("PRD-482", "the differential pressure sensor DPS-482", "the DPS-482 sensor", "DPS-482"), "SUP-18",
                "sensor"),
    "PRD-483": (("PRD-483", "the gauge pressure sensor"), "SUP-18", "sensor"),
    "PRD-491": (("PRD-491", "the PT100 temperature probe", "the PT100 probe", "PT100"), "SUP-18", "probe"),
    "PRD-495": (("prd 495", "the cable gland set"), "SUP-18", "set"),
    "PRD-510": (("PRD-510", "the flow sensor FS-50", "the FS-50 flow sensor", "FS-50"), "SUP-22", "sensor"),
    "PRD-515": (("PRD-515", "the TMF-2 thermal mass flow meter", "TMF-2"), "SUP-22", "meter"),
    "PRD-530": (("PRD-530", "the pressure sensor PS-Z1", "PS-Z1"), "SUP-35", "sensor"),
    "PRD-611": (("PRD-611", "the monitoring controller MC-4", "the MC-4 monitoring controller", "MC-4"), "SUP-27",
                "controller"),
    "PRD-625": (("PRD-625", "the control module CM-2", "the CM-2 control module"), "SUP-27", "module"),
    "PRD-701": (("PRD-701", "the control cabinet 800x600"), "SUP-31", "cabinet"),
    "PRD-801": (("PRD-801", "the pressure calibration kit"), "SUP-44", "kit"),
    "PRD-820": (("PRD-820", "the control cable"), "SUP-60", "metre"),
    "PRD-840": (("PRD-840", "the torque wrench set"), "SUP-52", "set"),
    "PRD-845": (("PRD-845", "the precision multimeter"), "SUP-52", "multimeter"),
}
#: Groups whose catalogue products all come from one supplier: (spelling, supplier).
GROUP_SUPPLIERS: tuple[tuple[str, str], ...] = (
    ("flow sensor", "SUP-22"), ("monitoring controller", "SUP-27"), ("control module", "SUP-27"),
    ("control cabinet", "SUP-31"), ("cabinet accessories", "SUP-31"),
)
#: How a supplier is named through a product ({x}: the product's spelling).
HOPS: tuple[str, ...] = (
    "the supplier of {x}", "whoever supplies {x}", "whoever makes {x}", "the vendor of {x}",
    "the company that sells {x}", "the maker of {x}",
)
#: Spending verbs with their preposition.
VERBS: tuple[str, ...] = ("book with", "booked with", "rack up with", "incurred with", "spend with", "run up with")
#: Codes no demo catalogue has.
UNKNOWN_CODES: tuple[str, ...] = ("PRD-123", "PRD-999", "PRD-404", "PRD-777", "PRD-314")


def _product(rng: random.Random, with_code: bool = True) -> tuple[str, str, str, str]:
    code = rng.choice(sorted(CATALOGUE))
    spellings, supplier, unit = CATALOGUE[code]
    names = spellings if with_code else tuple(s for s in spellings if not s.lower().startswith("prd"))
    return code, rng.choice(names), supplier, unit


def _hop(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        if "{x}" in template:
            _, spelling, supplier, _ = _product(rng)
            hop = rng.choice(HOPS).format(x=spelling)
            if rng.random() < 0.2 and not spelling.lower().startswith("prd"):
                hop = f"{spelling}'s supplier"
        else:
            spelling, supplier = rng.choice(GROUP_SUPPLIERS)
            hop = f"the {spelling} supplier"
        question = template.replace("{x}", "{h}").replace("{grp}", "{h}").format(c=d.c, p=d.p, h=hop)
        return question, _total(d.base(supplier_ids=[supplier])), ()
    return template, fill


def _per_item(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        code, spelling, _, unit = _product(rng, with_code=False)
        spelling = spelling.removeprefix("the ")
        params: dict[str, Any] = {"product_code": code, "start_date": d.period[1], "end_date": d.period[2],
                                  "company_id": d.company}
        question = template.format(c=d.c, x=spelling, u=unit, p=d.p)
        return question, Call("catalog.average_unit_price", params, outputs=("unit_price",)), ()
    return template, fill


def _verb(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        spellings = SUPPLIERS[d.supplier]
        name = rng.choice(spellings["name"] + spellings["alias"] + spellings["typo"])  # one-edit typos too
        question = template.format(c=d.c, v=rng.choice(VERBS), s=name, p=d.p)
        return question, _total(d.base(supplier_ids=[d.supplier])), ()
    return template, fill


def _listing(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        name = rng.choice(SUPPLIERS[d.supplier]["name"] + SUPPLIERS[d.supplier]["short"])
        question = template.format(c=d.c, s=name, p=d.p)
        return question, _total(d.base(supplier_ids=[d.supplier]), ("product_code",)), ()
    return template, fill


#: The demo corpus's product manuals (a manual not in the corpus is "not found", whatever its id says).
MANUALS: tuple[str, ...] = ("PRD-482", "PRD-486", "PRD-491", "PRD-530", "PRD-611", "PRD-701")


def _manual(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        code = rng.choice(MANUALS)
        question = template.format(c=d.c, m=f"manual-prd-{code[4:]}", p=d.p)
        return question, _total(d.base(product_codes=[code])), ()
    return template, fill


def _invoices(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        name = rng.choice(SUPPLIERS[d.supplier]["name"] + SUPPLIERS[d.supplier]["alias"])
        params = d.base(threshold="0.00", inclusive=True, supplier_ids=[d.supplier])
        return (template.format(c=d.c, s=name, p=d.p),
                Call("finance.invoices_above_threshold", params, outputs=("invoice_number",)), ())
    return template, fill


def _unknown(template: str) -> Frame:
    def fill(d: Draw, rng: random.Random) -> tuple[str, Call | None, tuple[str, ...]]:
        code = rng.choice(UNKNOWN_CODES)
        return template.format(c=d.c, x=code, p=d.p), None, (code, "product")
    return template, fill


FRAMES: dict[str, tuple[Frame, ...]] = {
    "hop": (
        _hop("How much did {c} spend with {x} {p}?"), _hop("{c} spend {p} with {x}"),
        _hop("what did {c} spend {p} with {x}?"), _hop("{c}: total spend with {x} {p}"),
        _hop("How much did {c} spend with {grp} {p}?"), _hop("{c} spend {p} with {grp}"),
    ),
    "per_item": (
        _per_item("what did {c} pay per {x} on average {p}?"), _per_item("{c} - {x}, average per {u} {p}"),
        _per_item("what did {c} pay per {x} {p} on average"), _per_item("{c}: average paid per {u} of {x} {p}"),
    ),
    "verb": (
        _verb("What did {c} {v} {s} {p}?"), _verb("how much did {c} {v} {s} {p}"),
    ),
    "listing": (
        _listing("products we buy from {s} - which did {c} actually buy {p}?"),
        _listing("of the products we get from {s}, which ones did {c} buy {p}?"),
    ),
    "manual": (
        _manual("{c} spend {p} on the product the {m} covers"),
        _manual("how much did {c} spend {p} on the product described in {m}?"),
    ),
    "invoices": (
        _invoices("{c} invoices from {s} {p} - list them"), _invoices("list {c}'s invoices from {s} {p}"),
        _invoices("which invoices did {c} get from {s} {p}?"), _invoices("show me the invoices {s} sent {c} {p}"),
    ),
    "unknown_code": (
        _unknown("units of {x} bought by {c} {p}"), _unknown("{c} spend on {x} {p}"),
        _unknown("average unit price of {x} for {c} {p}"),
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
            question, call, about = fill(_draw(rng), rng)
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
