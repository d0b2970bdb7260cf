"""Unit-price ranking and group-list probes: questions generated from slot grammars, asked through ``/v1/ask`` and
compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_unit_prices [--database procura] [--seed 1] [--per-class 30] [--class price_rank]
[--show wrong|all|none]``

The vocabulary is the demo database's (``procura demo run``, seed 42): the companies, suppliers and product groups
of tenant-42, tenant-17 and tenant-99 (:mod:`evaluation.probes_exclusions`). Classes:

* ``price_rank``: suppliers or products ranked by their average unit price within a product group, phrased "per
  unit", "per piece", "pro Stück", "EUR/unit", "avg unit price", with a direction (cheapest, cheaper, lowest
  first, low to high; most expensive, high to low; a bare "rank ... by unit price" runs from the most expensive)
  and optionally two suppliers named against each other. Expected: ``catalog.unit_price_ranking`` called
  directly; the answer's ranking must name the same keys in the same order with the same prices (a ranking by
  spend in its place is ``silent_wrong``); an empty selection must be said as no data.
* ``group_list``: a group restated by its subgroups in parentheses ("packaging spend (boxes + crates)"), a group
  joined to a word naming a group of its branch ("cabinet accessories + cabinets": the one that holds the other)
  and a group with a subgroup left out by its own word ("control equipment excluding cabinets"). Expected:
  ``finance.company_spend`` with the parent's (or holder's) subtree, minus the excluded subtree.

Outcomes: ``exact``, ``false_clar`` (a clarification where the direct call answers), ``silent_wrong``,
``flagged`` (a partial answer), ``refusal``. ``--seed 1`` is the training seed; ``--seed 2`` is held out. Written
from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.constraint_probes import _present
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, run_probes, shown
from evaluation.probes_exclusions import COMPANIES, SUPPLIERS, leaves

AS_OF = dt.date(2026, 5, 15)
RANK_METRIC = "catalog.unit_price_ranking"
SPEND_METRIC = "finance.company_spend"

#: Period phrases as of 2026-05-15: (English, German, start, end exclusive).
PERIODS: tuple[tuple[str, str, str, str], ...] = (
    ("in 2025", "im Jahr 2025", "2025-01-01", "2026-01-01"), ("in H2 2025", "im 2. Halbjahr 2025", "2025-07-01",
                                                               "2026-01-01"),
    ("in Q1 2026", "im Q1 2026", "2026-01-01", "2026-04-01"), ("in H1 2025", "im 1. Halbjahr 2025", "2025-01-01",
                                                                "2025-07-01"),
    ("in Q4 2025", "im Q4 2025", "2025-10-01", "2026-01-01"), ("FY2025", "im Geschäftsjahr 2025", "2025-01-01",
                                                               "2026-01-01"),
    # ranges of whole years ("2024-25", "2025-2026", "from 2024 to 2025"): the calendar years through the second
    ("in 2024-25", "2024-2025", "2024-01-01", "2026-01-01"), ("2025-2026", "2025–2026", "2025-01-01", "2027-01-01"),
    ("from 2024 to 2025", "2024-2025", "2024-01-01", "2026-01-01"),
)
#: A tail that only says how to show the ranking ("? rank all"): the same ranking, never a part of its own.
_RANK_TAILS = ("rank all", "rank them all", "full ranking pls", "sorted")
#: Groups with more than one product or supplier to rank, by tenant: (id, English spellings, German spellings).
RANK_GROUPS: dict[str, tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]] = {
    "tenant-42": (("PG-SENS", ("sensors", "Sensors"), ("Sensoren",)),
                  ("PG-PRES", ("pressure sensors", "Pressure Sensors"), ("Drucksensoren",)),
                  ("PG-CABL", ("cables and connectors",), ()),
                  ("PG-CTRL", ("control equipment",), ("Steuerungstechnik",)),
                  ("PG-MRO", ("MRO",), ("Instandhaltungsmaterial",)),
                  ("PG-MON", ("monitoring products",), ())),
    "tenant-17": (("PG-COOL", ("cooling equipment",), ("Kältetechnik",)), ("PG-SENS", ("sensors",), ("Sensoren",)),
                  ("PG-MON", ("monitoring products",), ())),
    "tenant-99": (("PG-LAB", ("laboratory equipment", "lab equipment"), ()),
                  ("PG-LABC", ("lab consumables",), ())),
}


@dataclass(frozen=True)
class Expect:
    metric: str
    parameters: Mapping[str, Any]


@dataclass(frozen=True)
class UnitProbe:
    klass: str
    question: str
    tenant: str
    expect: Expect


def _company(rng: random.Random, tenant: str) -> tuple[str, str]:
    cid = rng.choice(sorted(COMPANIES[tenant]))
    return cid, rng.choice(COMPANIES[tenant][cid])


# -- price_rank ----------------------------------------------------------------------------------------------------
_LOW_SUPPLIER = ("{g}: cheapest supplier per unit {p}?", "which supplier is cheapest per piece on {g} {p}?",
                 "{g} – lowest unit price by supplier, cheapest first, {p}",
                 "{g}: suppliers by EUR/unit {p}, low to high")
_HIGH_SUPPLIER = ("rank suppliers of {g} by avg unit price {p}", "{g}: most expensive supplier per unit {p}",
                  "{g} suppliers ranked by unit price, high to low, {p}")
_LOW_PRODUCT = ("rank {g} products by avg unit price, cheapest first, {p}", "{g}: cheapest product per unit {p}",
                "which {g} product was cheapest per piece {p}?", "{g} products by EUR/unit {p}, low to high")
_HIGH_PRODUCT = ("{g}: per-unit price ranking of products {p}, high to low", "most expensive {g} product per unit {p}",
                 "which {g} product had the highest unit price {p}?")
_DE_PRODUCT = ("welches Produkt der {g} war {p} am teuersten pro Stück?",
               "welches Produkt der {g} war {p} am günstigsten pro Stück?")


def _price_rank(rng: random.Random) -> UnitProbe:
    tenant = rng.choice(sorted(RANK_GROUPS))
    gid, names, german = rng.choice(RANK_GROUPS[tenant])
    period = rng.choice(PERIODS)
    shape = rng.choice(("low_s", "high_s", "low_p", "high_p", "pair", "de") if german else
                       ("low_s", "high_s", "low_p", "high_p", "pair"))
    params: dict[str, Any] = {"start_date": period[2], "end_date": period[3], "product_group_ids": leaves(tenant, gid)}
    g = rng.choice(names)
    if shape == "de":
        frame = rng.choice(_DE_PRODUCT)
        question = frame.format(g=rng.choice(german), p=period[1])
        params |= {"rank_by": "product", "direction": "desc" if "teuersten" in frame else "asc"}
    elif shape == "pair":
        (s1, n1), (s2, n2) = rng.sample(sorted(SUPPLIERS[tenant].items()), 2)
        question = rng.choice(("who's cheaper per unit on {g}, {a} or {b}? {p}",
                               "{g}: {a} vs {b}, which is cheaper per piece {p}?")).format(
            g=g, a=rng.choice(n1), b=rng.choice(n2), p=period[0])
        params |= {"rank_by": "supplier", "direction": "asc", "supplier_ids": sorted([s1, s2])}
    else:
        frames = {"low_s": _LOW_SUPPLIER, "high_s": _HIGH_SUPPLIER, "low_p": _LOW_PRODUCT, "high_p": _HIGH_PRODUCT}
        question = rng.choice(frames[shape]).format(g=g, p=period[0])
        params |= {"rank_by": "supplier" if shape.endswith("_s") else "product",
                   "direction": "asc" if shape.startswith("low") else "desc"}
    if rng.random() < 0.4:
        cid, c = _company(rng, tenant)
        question = f"{c}: {question}"
        params["company_id"] = cid
    if shape != "de" and rng.random() < 0.25:
        question = f"{question.rstrip('?')}? {rng.choice(_RANK_TAILS)}"
    return UnitProbe("price_rank", question, tenant, Expect(RANK_METRIC, params))


# -- group_list ----------------------------------------------------------------------------------------------------
#: (tenant, parent id, parent spellings, the subgroups' words a parenthesis lists)
_RESTATED = (
    ("tenant-17", "PG-PACK", ("packaging",), ("crates", "boxes")),
    ("tenant-17", "PG-MON", ("monitoring products",), ("sensors", "loggers", "data loggers")),
    ("tenant-99", "PG-LAB", ("lab equipment", "laboratory equipment"), ("consumables", "reagents", "measurement")),
    ("tenant-42", "PG-SENS", ("sensors",), ("pressure sensors", "temperature sensors", "flow sensors")),
    ("tenant-42", "PG-CTRL", ("control equipment",), ("cabinets", "PLC modules")),
)
#: (tenant, group spelling, the joined word, the group that holds both)
_JOINED = (
    ("tenant-42", "cabinet accessories", "cabinets", "PG-CAB"),
    ("tenant-99", "reagents", "consumables", "PG-LABC"),
)
#: (tenant, parent spelling, parent id, the excluded subgroup's own word, its id)
_EXCLUDED = (
    ("tenant-42", "control equipment", "PG-CTRL", "cabinets", "PG-CAB"),
    ("tenant-42", "sensors", "PG-SENS", "pressure", "PG-PRES"),
)


def _group_list(rng: random.Random) -> UnitProbe:
    shape = rng.choice(("restated", "joined", "excluded"))
    period = rng.choice(PERIODS)
    if shape == "restated":
        tenant, gid, names, words = rng.choice(_RESTATED)
        listed = rng.sample(words, min(len(words), rng.choice((1, 2))))
        joiner = rng.choice((" + ", " & ", " and ", ", "))
        frame = rng.choice(("{g} spend {c} {p} ({l})", "{c}: {g} ({l}) {p}", "spend on {g} ({l}), {c}, {p}"))
        cid, c = _company(rng, tenant)
        question = frame.format(g=rng.choice(names), l=joiner.join(listed), c=c, p=period[0])
        params: dict[str, Any] = {"product_group_ids": leaves(tenant, gid)}
    elif shape == "joined":
        tenant, name, word, holder = rng.choice(_JOINED)
        cid, c = _company(rng, tenant)
        joined = rng.choice((f"{name} + {word}", f"{word} & {name}", f"{name} and {word}"))
        question = rng.choice(("{j}, {c}, {p}", "spend on {j} for {c} {p}")).format(j=joined, c=c, p=period[0])
        params = {"product_group_ids": leaves(tenant, holder)}
    else:
        tenant, name, gid, word, child = rng.choice(_EXCLUDED)
        cid, c = _company(rng, tenant)
        cue = rng.choice(("excluding", "except", "without"))
        question = rng.choice(("{c} spend on {g} {x} {w}, {p}", "{g} spend {x} {w} for {c} {p}")).format(
            c=c, g=name, x=cue, w=word, p=period[0])
        params = {"product_group_ids": leaves(tenant, gid), "exclude_product_group_ids": leaves(tenant, child)}
    params |= {"company_id": cid, "start_date": period[2], "end_date": period[3]}
    return UnitProbe("group_list", question, tenant, Expect(SPEND_METRIC, params))


FRAMES: dict[str, Callable[[random.Random], UnitProbe]] = {"price_rank": _price_rank, "group_list": _group_list}


def probes(seed: int, per_class: int = 30) -> list[UnitProbe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[UnitProbe] = []
    for make in FRAMES.values():
        seen: set[str] = set()
        for _ in range(per_class * 5):
            if len(seen) >= per_class:
                break
            probe = make(rng)
            if probe.question not in seen:
                seen.add(probe.question)
                found.append(probe)
    return found


def _ranking_rows(direct: Mapping[str, Any], rank_by: str) -> list[tuple[str, str]]:
    key = "supplier_id" if rank_by == "supplier" else "product_code"
    rows = [r.get("values") or {} for r in direct.get("rows") or []]
    return [(str(v[key]), str(v["unit_price"])) for v in rows if v.get(key) and v.get("unit_price") is not None]


def classify(probe: UnitProbe, direct: Mapping[str, Any], answer: Mapping[str, Any]) -> str:
    """The outcome of one answer against the direct call (see the module docstring)."""
    status = str(answer.get("status"))
    text = str(answer.get("text") or "")
    if status == "clarification":
        return "false_clar"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if probe.expect.metric == RANK_METRIC:
        want = _ranking_rows(direct, probe.expect.parameters["rank_by"])
        if not want:
            return "exact" if status == "no_data" else "silent_wrong"
        key = "supplier_id" if probe.expect.parameters["rank_by"] == "supplier" else "product_code"
        got = [(str(r.get(key)), str(r.get("unit_price"))) for r in (answer.get("result") or {}).get("ranking") or ()]
        if got == want:
            return "exact"
        return "flagged" if status == "partial" else "silent_wrong"
    values = ((direct.get("rows") or [{}])[0] or {}).get("values") or {}
    if str(values.get("matched_line_count", "0")) == "0":
        return "exact" if status == "no_data" else "silent_wrong"
    if _present(str(values.get("total_spend")), text):
        return "exact"
    return "flagged" if status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[UnitProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: UnitProbe) -> Checked:
        headers = session.by_tenant[probe.tenant]
        response = session.client.post(f"/v1/metrics/{probe.expect.metric}/query", headers=headers, json={
            "parameters": dict(probe.expect.parameters), "group_by": [], "grain": None})
        if response.status_code != 200:
            raise SystemExit(f"{probe.question!r}: direct {probe.expect.metric} call failed: "
                             f"{response.text[:300]}")
        direct = response.json()
        _, _, answer = session.ask(probe.question, AS_OF, probe.tenant)
        outcome = classify(probe, direct, answer)
        text = str(answer.get("text") or answer.get("clarification_question") or "")
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, dict(probe.expect.parameters),
                                                   str(answer.get("status")), text, width=400, tenant=probe.tenant))

    return run_probes(database, "probes-unit-prices", sorted({p.tenant for p in found}), found, check, show,
                      right=("exact",))


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__).parse_args(argv)
    found = [p for p in probes(args.seed, args.per_class) if not args.classes or p.klass in args.classes]
    counts = run(args.database, found, args.show)
    for klass in FRAMES:
        row = {k[1]: v for k, v in counts.items() if k[0] == klass}
        print(f"{klass}: " + ", ".join(f"{k} {v}" for k, v in sorted(row.items())) + f" (of {sum(row.values())})")


if __name__ == "__main__":
    main()
