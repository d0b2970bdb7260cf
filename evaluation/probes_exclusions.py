"""Exclusion, share, noun-phrase and German probes: questions that leave a supplier or a product group out
("MRO excluded", "but not counting pressure sensors", "if we ignore Beta"), take a share of a group's spend
("Beta as a % of Company A's sensors spend"), name a category-like noun phrase the tenant does not know ("spend on
office furniture") or one it knows, and German group words, generated from slot grammars, asked through
``/v1/ask`` and compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_exclusions [--database procura] [--seed 1] [--per-class 40] [--class unknown]
[--show wrong|all|none]``

The vocabulary is the demo database's (``procura demo run``, seed 42): tenant-42's companies, suppliers and product
groups for every class, tenant-17 and tenant-99 for the German group words and the supplier names that contain one
("Gamma Kältetechnik", "Gamma Labortechnik"). Classes:

* ``exclusions``: a supplier or a group left out of a company's spend, the cue before ("excluding", "if we ignore",
  "but not counting", "w/o") or after the name ("MRO excluded", "with Beta left out", "leave Gamma out");
* ``nested``: a group's spend without one of its subgroups ("sensors spend but not counting pressure sensors");
* ``rank_excl``: a supplier ranking with one supplier left out;
* ``shares``: a supplier's share of a company's group spend, a group's share of the company's spend;
* ``unknown``: a category-like noun phrase the tenant has no group, supplier or product for (alone or next to a
  known group word: "office furniture", "sensor software"): the right answer is a clarification naming it;
* ``known``: the same frames with a group the tenant knows (its name, short name, acronym or German name) or a
  vocabulary word ("total", "supplier"): an answer, never a clarification (false clarifications are measured);
* ``german``: German group names and German questions, supplier names with a group word inside;
* ``product_excl``: one product left out of a company's (or a group's) spend, named by its code, its catalogue
  name, its model code or a description in other words ("the temperature probe PT100", "the 16DI I/O module"),
  the cue before or after it (``exclude_product_codes``);
* ``bare_excl``: no measure word, only a company, a period and what is left out ("Company B monitoring products
  Jan-Apr 2026, Supplier Beta excluded", "Alpenland Q1 2026: everything except cooling equipment"): the spend.

Outcomes are those of :func:`evaluation.probes_clarify.classify`, printed with the shared
:func:`evaluation.probes_clarify.outcome_table`. ``--seed 1`` is the training seed; ``--seed 2`` is held out.
Written from the slot grammar alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, finish, run_probes, shown
from evaluation.probes_clarify import PERIODS, Probe, _normalize, _style, classify, outcome_table

AS_OF = dt.date(2026, 5, 15)

#: Product-group trees of the demo tenants: id -> parent.
_PARENTS: dict[str, dict[str, str | None]] = {
    "tenant-42": {"PG-CAB": "PG-CTRL", "PG-CAB-ACC": "PG-CAB", "PG-CABL": "PG-CONS", "PG-CAL": "PG-TOOL",
                  "PG-CMOD": "PG-CTRL", "PG-CONS": "PG-MRO", "PG-CTRL": None, "PG-FLOW": "PG-SENS",
                  "PG-MCTL": "PG-MON", "PG-MON": None, "PG-MRO": None, "PG-PLC": "PG-CMOD", "PG-PRES": "PG-SENS",
                  "PG-PRES-WL": "PG-PRES", "PG-SENS": "PG-MON", "PG-TEMP": "PG-SENS", "PG-TOOL": "PG-MRO"},
    "tenant-17": {"PG-BOX": "PG-PACK", "PG-BOX-CRT": "PG-BOX", "PG-COMP": "PG-COOL", "PG-COMP-SP": "PG-COMP",
                  "PG-COOL": None, "PG-LOG": "PG-MON", "PG-MON": None, "PG-PACK": None, "PG-PRES": "PG-SENS",
                  "PG-SENS": "PG-MON", "PG-TEMP": "PG-SENS"},
    "tenant-99": {"PG-LAB": None, "PG-LABC": "PG-LAB", "PG-MEAS": "PG-LAB", "PG-OFF": None, "PG-PAPER": "PG-OFF",
                  "PG-PRES": "PG-MEAS", "PG-REAG": "PG-LABC", "PG-SHIP": None},
}


def leaves(tenant: str, group: str) -> list[str]:
    """The group and every group below it."""
    tree = _PARENTS[tenant]
    found = {group}
    changed = True
    while changed:
        changed = False
        for child, parent in tree.items():
            if parent in found and child not in found:
                found.add(child)
                changed = True
    return sorted(found)


COMPANIES: dict[str, dict[str, tuple[str, ...]]] = {
    "tenant-42": {"COMP-A": ("Company A", "company A"), "COMP-B": ("Company B", "company b"),
                  "COMP-C": ("Company C", "COMP-C")},
    "tenant-17": {"COMP-A": ("Alpenland", "Alpenland Logistik AG"), "COMP-K": ("Kestrel", "Kestrel Lebensmittel")},
    "tenant-99": {"COMP-X": ("Xenon", "Xenon Pharma AG"), "COMP-Y": ("Ypsilon", "Ypsilon Retail GmbH")},
}
SUPPLIERS: dict[str, dict[str, tuple[str, ...]]] = {
    "tenant-42": {"SUP-18": ("Supplier Beta", "Beta", "Beta Supplies"), "SUP-22": ("Epsilon", "Epsilon Instruments"),
                  "SUP-27": ("Gamma", "Gamma Control Systems", "Supplier Gamma"),
                  "SUP-31": ("Delta Enclosures", "Supplier Delta"), "SUP-35": ("Zeta", "Zeta Sensorik"),
                  "SUP-52": ("Theta", "Theta Präzision"), "SUP-60": ("Iota", "Iota Cables", "Supplier Iota")},
    "tenant-17": {"SUP-07": ("Beta Trading", "Supplier Beta"), "SUP-18": ("Northwind Sensors", "Northwind"),
                  "SUP-33": ("Gamma Kältetechnik", "Gamma Kaeltetechnik", "Supplier Gamma"),
                  "SUP-40": ("Orbis Packaging", "Orbis")},
    "tenant-99": {"SUP-93": ("Gamma Labortechnik", "Supplier Gamma"), "SUP-95": ("Beta Logistics", "Supplier Beta"),
                  "SUP-97": ("Helix Reagents", "Helix"), "SUP-98": ("Iris Office Supplies", "Iris Office")},
}
#: Group spellings (English name, short name, acronym, lower case, German synonyms).
GROUPS: dict[str, dict[str, tuple[str, ...]]] = {
    "tenant-42": {"PG-MRO": ("MRO", "maintenance, repair and operations",
                             "MRO (maintenance, repair and operations)"),
                  "PG-SENS": ("sensors", "Sensors"),
                  "PG-PRES": ("pressure sensors", "Pressure Sensors"),
                  "PG-TEMP": ("temperature sensors", "temp sensors"),
                  "PG-CTRL": ("control equipment", "Control Equipment"), "PG-PLC": ("PLC modules", "PLC Modules"),
                  "PG-CAB": ("control cabinets",), "PG-TOOL": ("tools", "Tools"), "PG-CONS": ("consumables",),
                  "PG-CABL": ("cables and connectors",), "PG-CAL": ("calibration equipment", "calibration equip"),
                  "PG-MON": ("monitoring products", "Monitoring Products"), "PG-FLOW": ("flow sensors",)},
    "tenant-17": {"PG-COOL": ("cooling equipment",), "PG-PACK": ("packaging",), "PG-SENS": ("sensors",),
                  "PG-COMP": ("compressors",), "PG-LOG": ("data loggers",), "PG-PRES": ("pressure sensors",)},
    "tenant-99": {"PG-LAB": ("laboratory equipment", "lab equipment"), "PG-OFF": ("office",),
                  "PG-REAG": ("reagents",),
                  "PG-SHIP": ("shipping services", "shipping"), "PG-PAPER": ("paper products",),
                  "PG-LABC": ("lab consumables",)},
}
GERMAN_GROUPS: dict[str, dict[str, tuple[str, ...]]] = {
    "tenant-42": {"PG-PRES": ("Drucksensoren",), "PG-CAB": ("Schaltschränke",), "PG-PLC": ("SPS-Module",),
                  "PG-TOOL": ("Werkzeuge",), "PG-CONS": ("Verbrauchsmaterial",), "PG-SENS": ("Sensoren",),
                  "PG-CTRL": ("Steuerungstechnik",), "PG-CAL": ("Kalibriertechnik",),
                  "PG-MRO": ("Instandhaltungsmaterial",)},
    "tenant-17": {"PG-COOL": ("Kältetechnik", "Kühlgeräte"), "PG-PACK": ("Verpackung",),
                  "PG-COMP": ("Verdichter",), "PG-SENS": ("Sensoren",)},
    "tenant-99": {"PG-LAB": ("Laborgeräte", "Laborbedarf"), "PG-OFF": ("Bürobedarf",), "PG-SHIP": ("Versand",),
                  "PG-REAG": ("Reagenzien",)},
}
#: (parent, child) pairs of tenant-42 for a group's spend without one of its subgroups.
NESTED = (("PG-SENS", "PG-PRES"), ("PG-SENS", "PG-TEMP"), ("PG-CTRL", "PG-PLC"), ("PG-CTRL", "PG-CAB"),
          ("PG-MRO", "PG-TOOL"), ("PG-MRO", "PG-CONS"), ("PG-MON", "PG-SENS"), ("PG-SENS", "PG-FLOW"))
#: Category-like noun phrases no demo tenant has a group, supplier or product for.
UNKNOWN_NOUNS = ("office furniture", "safety helmets", "hydraulic pumps", "welding supplies", "IT hardware",
                 "janitorial services", "catering", "software licences", "forklift rentals", "printer toner",
                 "cleaning supplies", "travel", "marketing services", "legal fees", "protective clothing")
#: Noun phrases with a known group word inside and an unknown head ("sensor software"): asked about as a whole.
PARTIAL_NOUNS = ("sensor software", "tool rentals", "cable trays", "monitoring software", "consumables storage",
                 "control room furniture", "calibration training", "sensor repairs")
#: Vocabulary before "spend" that names no category.
PLAIN_WORDS = ("total", "overall", "supplier", "vendor", "procurement", "purchasing", "combined", "entire")
PRE_CUES = ("excluding", "except", "without", "not counting", "but not counting", "apart from", "leaving out",
            "excl.", "w/o", "ignoring", "if we ignore", "other than", "minus", "aside from", "not including",
            "disregarding", "but excluding", "except for", "leaving aside")
#: Cues after the name: "{x} excluded".
POST_CUES = ("{x} excluded", "with {x} excluded", "{x} left out", "leave {x} out", "leaving {x} out",
             "{x} not included", "with {x} taken out", "{x} removed", "{x} aside", "without counting {x}",
             "{x} not counted", "leave out {x}", "take out {x}", "{x} ignored")


#: tenant-42 products (code -> group, spellings): code, catalogue name, model code, a description reordered.
PRODUCTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "PRD-482": ("PG-PRES", ("PRD-482", "Differential pressure sensor DPS-482", "the DPS-482",
                            "the DPS-482 differential pressure sensor")),
    "PRD-491": ("PG-TEMP", ("PRD-491", "PT100 temperature probe", "the temperature probe PT100")),
    "PRD-510": ("PG-FLOW", ("PRD-510", "Flow sensor FS-50", "the FS-50", "the FS-50 flow sensor")),
    "PRD-611": ("PG-MCTL", ("PRD-611", "Monitoring controller MC-4", "the MC-4 monitoring controller")),
    "PRD-620": ("PG-PLC", ("PRD-620", "PLC I/O module 16DI", "the 16DI PLC module")),
    "PRD-825": ("PG-CABL", ("PRD-825", "M12 connector set", "the connector set M12")),
}
#: A group above each product's group (the figure's scope when the question names one).
_ABOVE = {"PG-PRES": "PG-SENS", "PG-TEMP": "PG-SENS", "PG-FLOW": "PG-SENS", "PG-MCTL": "PG-MON",
          "PG-PLC": "PG-CTRL", "PG-CABL": "PG-MRO"}


@dataclass(frozen=True)
class Draw:
    tenant: str
    company: str
    c: str
    period: tuple[str, str, str]

    def base(self, **extra: Any) -> dict[str, Any]:
        return {"company_id": self.company, "start_date": self.period[1], "end_date": self.period[2], **extra}

    @property
    def p(self) -> str:
        return self.period[0]


Filled = tuple[str, Call | None, tuple[str, ...], str]
Frame = Callable[[random.Random], Filled]


def _draw(rng: random.Random, tenant: str = "tenant-42") -> Draw:
    company = rng.choice(sorted(COMPANIES[tenant]))
    return Draw(tenant, company, rng.choice(COMPANIES[tenant][company]), rng.choice(PERIODS))


def _spend(params: dict[str, Any]) -> Call:
    return Call("finance.company_spend", params)


def _pick(rng: random.Random, table: dict[str, tuple[str, ...]]) -> tuple[str, str]:
    key = rng.choice(sorted(table))
    return key, rng.choice(table[key])


def _exclusion(template: str, what: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng)
        if what == "supplier":
            sid, x = _pick(rng, SUPPLIERS[d.tenant])
            params = d.base(exclude_supplier_ids=[sid])
        else:
            gid, x = _pick(rng, GROUPS[d.tenant])
            params = d.base(exclude_product_group_ids=leaves(d.tenant, gid))
        ex = f"{rng.choice(PRE_CUES)} {x}" if rng.random() < 0.5 else rng.choice(POST_CUES).format(x=x)
        return template.format(c=d.c, p=d.p, pp=d.p.removeprefix("in "), ex=ex), _spend(params), (), d.tenant
    return fill


def _product_excl(template: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng)
        code = rng.choice(sorted(PRODUCTS))
        group, spellings = PRODUCTS[code]
        x = rng.choice(spellings)
        parent = _ABOVE[group]
        g = rng.choice(GROUPS[d.tenant][parent]) if "{g}" in template else ""
        params = d.base(exclude_product_codes=[code],
                        **({"product_group_ids": leaves(d.tenant, parent)} if "{g}" in template else {}))
        ex = f"{rng.choice(PRE_CUES)} {x}" if rng.random() < 0.6 else rng.choice(POST_CUES).format(x=x)
        return template.format(c=d.c, p=d.p, g=g, ex=ex), _spend(params), (), d.tenant
    return fill


def _bare_group_excl(template: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng)
        gid, g = _pick(rng, GROUPS[d.tenant])
        sid, x = _pick(rng, SUPPLIERS[d.tenant])
        ex = f"{rng.choice(PRE_CUES)} {x}" if rng.random() < 0.5 else rng.choice(POST_CUES).format(x=x)
        params = d.base(product_group_ids=leaves(d.tenant, gid), exclude_supplier_ids=[sid])
        return template.format(c=d.c, g=g, pp=d.p.removeprefix("in "), ex=ex), _spend(params), (), d.tenant
    return fill


def _nested(template: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng)
        parent, child = rng.choice(NESTED)
        g, sub = rng.choice(GROUPS[d.tenant][parent]), rng.choice(GROUPS[d.tenant][child])
        ex = f"{rng.choice(PRE_CUES)} {sub}" if rng.random() < 0.6 else rng.choice(POST_CUES).format(x=sub)
        params = d.base(product_group_ids=leaves(d.tenant, parent),
                        exclude_product_group_ids=leaves(d.tenant, child))
        return template.format(c=d.c, p=d.p, g=g, ex=ex), _spend(params), (), d.tenant
    return fill


def _rank_excl(template: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng, rng.choice(("tenant-42", "tenant-42", "tenant-17", "tenant-99")))
        sid, x = _pick(rng, SUPPLIERS[d.tenant])
        n = rng.choice((2, 3))
        ex = f"{rng.choice(PRE_CUES)} {x}" if rng.random() < 0.6 else rng.choice(POST_CUES).format(x=x)
        call = Call("finance.spend_ranking", d.base(exclude_supplier_ids=[sid], limit=n, direction="top",
                                                    order_by="total_spend"), ("supplier_id",))
        return template.format(c=d.c, p=d.p, n=n, ex=ex), call, (), d.tenant
    return fill


def _share(template: str, part: str, tenant: str = "tenant-42") -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng, tenant)
        gid, g = _pick(rng, GROUPS[tenant])
        sid, s = _pick(rng, SUPPLIERS[tenant])
        if part == "supplier_in_group":
            call = Call("finance.supplier_share", d.base(supplier_ids=[sid], product_group_ids=leaves(tenant, gid)),
                        outputs=("share_percent",))
        else:
            call = Call("finance.product_group_share", d.base(product_group_ids=leaves(tenant, gid)),
                        outputs=("share_percent",))
        return template.format(c=d.c, p=d.p, g=g, s=s), call, (), tenant
    return fill


def _unknown(template: str, nouns: tuple[str, ...]) -> Frame:
    def fill(rng: random.Random) -> Filled:
        d = _draw(rng, rng.choice(("tenant-42", "tenant-42", "tenant-17")))
        u = rng.choice(nouns)
        return template.format(c=d.c, p=d.p, u=u), None, (u,), d.tenant
    return fill


def _known(template: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        tenant = rng.choice(("tenant-42", "tenant-42", "tenant-42", "tenant-17", "tenant-99"))
        d = _draw(rng, tenant)
        roll = rng.random()
        if roll < 0.25 and "{u} spend" in template:
            u = rng.choice(PLAIN_WORDS)
            params = d.base()
        else:
            table = GERMAN_GROUPS[tenant] if roll < 0.4 else GROUPS[tenant]
            gid, u = _pick(rng, table)
            params = d.base(product_group_ids=leaves(tenant, gid))
        return template.format(c=d.c, p=d.p, u=u), _spend(params), (), tenant
    return fill


_DE_PERIODS = (("im Jahr 2025", "2025-01-01", "2026-01-01"), ("im 1. Quartal 2026", "2026-01-01", "2026-04-01"),
               ("im Q4 2025", "2025-10-01", "2026-01-01"), ("2025", "2025-01-01", "2026-01-01"),
               ("im zweiten Halbjahr 2025", "2025-07-01", "2026-01-01"), ("im März 2026", "2026-03-01", "2026-04-01"))


def _german(template: str, what: str) -> Frame:
    def fill(rng: random.Random) -> Filled:
        tenant = rng.choice(sorted(GERMAN_GROUPS))
        company = rng.choice(sorted(COMPANIES[tenant]))
        c = rng.choice(COMPANIES[tenant][company])
        p, start, end = rng.choice(_DE_PERIODS) if "{pde}" in template else rng.choice(PERIODS)
        params: dict[str, Any] = {"company_id": company, "start_date": start, "end_date": end}
        gid, g = _pick(rng, GERMAN_GROUPS[tenant])
        sid, s = _pick(rng, SUPPLIERS[tenant])
        if what == "group":
            params["product_group_ids"] = leaves(tenant, gid)
        elif what == "supplier":
            params["supplier_ids"] = [sid]
        elif what == "excl_group":
            params["exclude_product_group_ids"] = leaves(tenant, gid)
        return template.format(c=c, p=p, pde=p, g=g, s=s), _spend(params), (), tenant
    return fill


FRAMES: dict[str, tuple[Frame, ...]] = {
    "exclusions": (
        _exclusion("{c} {pp} spend, {ex}", "group"), _exclusion("{c} spend {p} {ex}", "group"),
        _exclusion("{c} spend {p}, {ex}", "supplier"), _exclusion("How much did {c} spend {p}, {ex}?", "supplier"),
        _exclusion("Total {c} spend {p} ({ex})", "group"), _exclusion("{c}: spend {p} {ex}", "supplier"),
        _exclusion("What was {c}'s spend {p} {ex}?", "group"),
    ),
    "nested": (
        _nested("{c} {g} spend {p} {ex}"), _nested("{c} spend on {g} {p}, {ex}"),
        _nested("How much did {c} spend on {g} {p} {ex}?"), _nested("{c}'s {g} spend {p} ({ex})"),
    ),
    "rank_excl": (
        _rank_excl("{c}'s top {n} suppliers {p} {ex}"), _rank_excl("Top {n} vendors of {c} {p}, {ex}"),
        _rank_excl("{c} top {n} suppliers by spend {p} {ex}"),
    ),
    "shares": (
        _share("{s} as a % of {c}'s {g} spend {p}", "supplier_in_group"),
        _share("{s}'s share of {c}'s {g} spend {p}", "supplier_in_group"),
        _share("What percentage of {c}'s {g} spend {p} went to {s}?", "supplier_in_group"),
        _share("What portion of {c}'s {g} spend {p} was with {s}?", "supplier_in_group"),
        _share("What portion of {c}'s spend {p} was {g}?", "group"),
        _share("{g} as a % of {c}'s spend {p}", "group"),
        _share("How much of {c}'s spend {p} was {g}, in percent?", "group"),
        _share("{s} as a % of {c}'s {g} spend {p}", "supplier_in_group", "tenant-99"),
        _share("What portion of {c}'s spend {p} was {g}?", "group", "tenant-99"),
    ),
    "unknown": (
        _unknown("{c} spend on {u} {p}", UNKNOWN_NOUNS), _unknown("{c} {u} spend {p}", UNKNOWN_NOUNS),
        _unknown("{c}'s {u} spend {p}", UNKNOWN_NOUNS), _unknown("How much did {c} spend on {u} {p}?", UNKNOWN_NOUNS),
        _unknown("{c} purchases of {u} {p}", UNKNOWN_NOUNS), _unknown("Total {u} spend for {c} {p}", UNKNOWN_NOUNS),
        _unknown("{c} spend {p} on {u}", UNKNOWN_NOUNS), _unknown("What did {c} pay for {u} {p}?", UNKNOWN_NOUNS),
        _unknown("{c} spend on {u} {p}", PARTIAL_NOUNS), _unknown("{c} {u} spend {p}", PARTIAL_NOUNS),
        _unknown("How much did {c} spend on {u} {p}?", PARTIAL_NOUNS),
    ),
    "known": (
        _known("{c} spend on {u} {p}"), _known("{c} {u} spend {p}"), _known("{c}'s {u} spend {p}"),
        _known("How much did {c} spend on {u} {p}?"), _known("Total {u} spend for {c} {p}"),
        _known("{c} spend {p} on {u}"),
    ),
    "product_excl": (
        _product_excl("{c} spend {p} {ex}"), _product_excl("{c} {g} spend {p} {ex}"),
        _product_excl("How much did {c} spend on {g} {p}, {ex}?"), _product_excl("{g} spend at {c} {p} {ex}"),
        _product_excl("What did {c} spend {p} {ex}?"),
    ),
    "bare_excl": (
        _exclusion("{c} {pp}, {ex}", "supplier"), _exclusion("{c} {pp}: everything {ex}", "group"),
        _exclusion("{c} {pp}: everything {ex}", "supplier"), _exclusion("{c} {p}, {ex}", "group"),
        _bare_group_excl("{c} {g} {pp}, {ex}"),
    ),
    "german": (
        _german("{c} spend on {g} {p}", "group"), _german("{c} {g} spend {p}", "group"),
        _german("Ausgaben von {c} für {g} {pde}", "group"), _german("Wie viel hat {c} {pde} für {g} ausgegeben?",
                                                                    "group"),
        _german("{c} spend with {s} {p}", "supplier"), _german("Ausgaben von {c} bei {s} {pde}", "supplier"),
        _german("{c} spend {p} excluding {g}", "excl_group"), _german("Ausgaben von {c} {pde} ohne {g}",
                                                                      "excl_group"),
    ),
}


@dataclass(frozen=True)
class TenantProbe:
    probe: Probe
    tenant: str


def probes(seed: int, per_class: int = 30) -> list[TenantProbe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    found: list[TenantProbe] = []
    for klass, frames in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 4):
            if len(seen) >= per_class:
                break
            question, call, about, tenant = rng.choice(frames)(rng)
            if klass != "german":
                question = _style(question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(TenantProbe(Probe(klass, question, call, about), tenant))
    return found


def run(database: str, found: Sequence[TenantProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, tp: TenantProbe) -> Checked:
        probe = tp.probe
        headers = session.by_tenant[tp.tenant]
        expected: list[str] | None = None
        no_rows = False
        if probe.expect is not None:
            call = probe.expect
            direct = session.client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
                "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
            if direct.status_code != 200:
                raise SystemExit(f"{probe.question!r}: direct {call.metric} call failed: {direct.text[:300]}")
            expected, no_rows = _normalize(call, direct.json())
        status, text, _ = session.ask(probe.question, AS_OF, tp.tenant)
        klass = classify(probe, status, text, expected, no_rows)
        note = f"{' (none)' if no_rows else ''}{' about ' + repr(probe.about) if probe.about else ''}"
        return Checked(probe.klass, klass, shown(probe.klass, klass, probe.question, expected, status, text,
                                                 width=500, tenant=tp.tenant, note=note))

    return run_probes(database, "probes-exclusions", sorted({p.tenant for p in found}), found, check, show)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__).parse_args(argv)
    found = [p for p in probes(args.seed, args.per_class) if not args.classes or p.probe.klass in args.classes]
    counts = run(args.database, found, args.show)
    finish(counts, outcome_table(counts, tuple(FRAMES)))


if __name__ == "__main__":
    main()
