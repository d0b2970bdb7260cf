"""Approval probes: spend with suppliers that are not approved (the negation in many phrasings), a named supplier
marked "not approved", spend after an approval ended, spend with the approved vendors of a category, and a negation
with no figure, generated from slot grammars, asked through ``/v1/ask`` and compared with the governed metric called
directly with the slot values (the approved set excluded or selected).

``python -m evaluation.probes_approvals [--database procura] [--seed 1] [--per-class 30] [--class negation]
[--show wrong|all|none]``

The approved set of a company in a period is read here from ``marts.vendor_approvals`` (approvals whose half-open
validity overlaps the period), not from the graph the router traverses, so the two sources check each other. The
demo database's agreements are all in force on the probes' as-of date (2026-05-15), where the mart's newest
definitions are the versions in force. Classes:

* ``negation``: "spend with suppliers not on the approved vendor list", "non-approved", "unapproved",
  "off-contract", "maverick", "without approval", "nicht freigegeben", "ohne Freigabe": ``finance.company_spend``
  with ``exclude_supplier_ids`` = the approved set;
* ``negation_group``: the same over a product group (``product_group_ids`` = the group and its subgroups);
* ``named``: a named supplier with the remark "(not approved)": that supplier's spend;
* ``expired``: "X's approval ran out on D: what did we spend with them from D on": the supplier from D up to the
  as-of date (``end_date`` the day after it);
* ``approved_group``: "spend with approved <group> vendors": the approved set narrowed to the group's catalogue
  suppliers, the spend to the group;
* ``unserved``: a negation without a figure ("which suppliers are not approved"): a clarification naming it.

A draw whose approved set is empty is skipped for ``negation`` (the exclusion would not matter). ``--seed 1`` is the
training seed; ``--seed 2`` is held out. Written from the slot grammar alone, never from an evaluation question.
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
from evaluation.probes_clarify import PERIODS, _normalize, _style, classify, outcome_table
from evaluation.probes_exclusions import COMPANIES, GROUPS, SUPPLIERS, leaves

AS_OF = dt.date(2026, 5, 15)
_DE_PERIODS = (("im Jahr 2025", "2025-01-01", "2026-01-01"), ("im 1. Quartal 2026", "2026-01-01", "2026-04-01"),
               ("im Q4 2025", "2025-10-01", "2026-01-01"), ("2025", "2025-01-01", "2026-01-01"),
               ("im März 2026", "2026-03-01", "2026-04-01"))
_NEGATED = ("{c} spend with suppliers not on the approved vendor list {p}",
            "How much did {c} spend with non-approved suppliers {p}?", "{c}: spend with unapproved vendors {p}",
            "{c} off-contract spend {p}", "maverick spend {c} {p}", "{c} spend with vendors without approval {p}",
            "What did {c} spend {p} with suppliers that are not approved?",
            "{c} spend {p} with vendors that have no approval", "{c} spend with suppliers NOT approved {p}",
            "{c} non approved vendor spend {p}",
            # the approved set named as a list the suppliers are outside of
            "What did {c} spend with vendors outside its approved list {p}?",
            "{c} spend {p} with suppliers off the approved vendor list",
            "{c}: spend with vendors not among the approved suppliers {p}",
            "How much did {c} spend outside the AVL {p}?",
            "{c} spend with suppliers missing from the approved supplier list {p}")
_NEGATED_DE = ("{c} – Ausgaben bei nicht freigegebenen Lieferanten {pde}",
               "Ausgaben von {c} bei Lieferanten ohne Freigabe {pde}")
_NEGATED_GROUP = ("{c} off-contract {g} spend {p}", "{c} {g} spend with non-approved suppliers {p}",
                  "How much did {c} spend on {g} with unapproved vendors {p}?")
_NAMED = ("{c} spend with {s} (not approved) {p}", "what did {c} spend with {s} (not approved) {p}?",
          "{c}: spend {p} with {s}, not approved")
_EXPIRED = ("{s}'s approval ran out {d} - what did {c} still spend with them from {d} on?",
            "{c} spend with {s} after the approval ended (from {d})",
            "{c}: spend with {s} since its approval expired on {d}, from {d} on")
_APPROVED_GROUP = ("{c} spend with approved {g} vendors {p}", "How much did {c} spend with approved {g} suppliers {p}?")
_UNSERVED = ("which suppliers are not approved for {c} {p}?", "list {c}'s unapproved vendors {p}",
             "who is off-contract at {c} {p}?")
_DATES = (("1 Feb 2026", "2026-02-01"), ("1 March 2026", "2026-03-01"), ("2026-04-01", "2026-04-01"),
          ("Jan 15 2026", "2026-01-15"))

Approvals = dict[tuple[str, str], list[tuple[str, dt.date, dt.date | None]]]
Filled = tuple[str, Call | None, tuple[str, ...], str]
Frame = Callable[[random.Random, Approvals, dict[tuple[str, str], set[str]]], Filled | None]


def approved(approvals: Approvals, tenant: str, company: str, start: str, end: str) -> list[str]:
    """The company's suppliers whose approval overlaps ``[start, end)``."""
    s, e = dt.date.fromisoformat(start), dt.date.fromisoformat(end)
    return sorted({sup for sup, vf, vt in approvals.get((tenant, company), []) if vf < e and (vt is None or vt > s)})


def _draw(rng: random.Random, german: bool = False) -> tuple[str, str, str, str, str, str]:
    tenant = rng.choice(sorted(COMPANIES))
    company = rng.choice(sorted(COMPANIES[tenant]))
    p, start, end = rng.choice(_DE_PERIODS if german else PERIODS)
    return tenant, company, rng.choice(COMPANIES[tenant][company]), p, start, end


def _negation(rng: random.Random, approvals: Approvals, _: dict[tuple[str, str], set[str]]) -> Filled | None:
    german = rng.random() < 0.25
    tenant, company, c, p, start, end = _draw(rng, german)
    excluded = approved(approvals, tenant, company, start, end)
    if not excluded:
        return None
    template = rng.choice(_NEGATED_DE if german else _NEGATED)
    call = Call("finance.company_spend", {"company_id": company, "start_date": start, "end_date": end,
                                          "exclude_supplier_ids": excluded})
    return template.format(c=c, p=p, pde=p), call, (), tenant


def _negation_group(rng: random.Random, approvals: Approvals, _: dict[tuple[str, str], set[str]]) -> Filled | None:
    tenant, company, c, p, start, end = _draw(rng)
    excluded = approved(approvals, tenant, company, start, end)
    if not excluded:
        return None
    gid = rng.choice(sorted(GROUPS[tenant]))
    call = Call("finance.company_spend", {"company_id": company, "start_date": start, "end_date": end,
                                          "exclude_supplier_ids": excluded,
                                          "product_group_ids": leaves(tenant, gid)})
    return rng.choice(_NEGATED_GROUP).format(c=c, p=p, g=rng.choice(GROUPS[tenant][gid])), call, (), tenant


def _named(rng: random.Random, approvals: Approvals, _: dict[tuple[str, str], set[str]]) -> Filled | None:
    tenant, company, c, p, start, end = _draw(rng)
    sid = rng.choice(sorted(SUPPLIERS[tenant]))
    call = Call("finance.company_spend", {"company_id": company, "start_date": start, "end_date": end,
                                          "supplier_ids": [sid]})
    return rng.choice(_NAMED).format(c=c, p=p, s=rng.choice(SUPPLIERS[tenant][sid])), call, (), tenant


def _expired(rng: random.Random, approvals: Approvals, _: dict[tuple[str, str], set[str]]) -> Filled | None:
    tenant, company, c, _p, _s, _e = _draw(rng)
    sid = rng.choice(sorted(SUPPLIERS[tenant]))
    words, day = rng.choice(_DATES)
    end = (AS_OF + dt.timedelta(days=1)).isoformat()
    call = Call("finance.company_spend", {"company_id": company, "start_date": day, "end_date": end,
                                          "supplier_ids": [sid]})
    return rng.choice(_EXPIRED).format(c=c, d=words, s=rng.choice(SUPPLIERS[tenant][sid])), call, (), tenant


def _approved_group(rng: random.Random, approvals: Approvals,
                    catalog: dict[tuple[str, str], set[str]]) -> Filled | None:
    tenant, company, c, p, start, end = _draw(rng)
    gid = rng.choice(sorted(GROUPS[tenant]))
    groups = leaves(tenant, gid)
    suppliers = sorted({s for g in groups for s in catalog.get((tenant, g), set())}
                       & set(approved(approvals, tenant, company, start, end)))
    if not suppliers:
        return None  # no approved vendor of the group: a "none approved" answer, not a figure to compare
    call = Call("finance.company_spend", {"company_id": company, "start_date": start, "end_date": end,
                                          "supplier_ids": suppliers, "product_group_ids": groups})
    return rng.choice(_APPROVED_GROUP).format(c=c, p=p, g=rng.choice(GROUPS[tenant][gid])), call, (), tenant


def _unserved(rng: random.Random, approvals: Approvals, _: dict[tuple[str, str], set[str]]) -> Filled | None:
    tenant, _company, c, p, _s, _e = _draw(rng)
    return rng.choice(_UNSERVED).format(c=c, p=p), None, ("not approved", "unapproved", "off-contract"), tenant


FRAMES: dict[str, Frame] = {"negation": _negation, "negation_group": _negation_group, "named": _named,
                            "expired": _expired, "approved_group": _approved_group, "unserved": _unserved}


@dataclass(frozen=True)
class ApprovalProbe:
    klass: str
    question: str
    expect: Call | None
    about: tuple[str, ...]
    tenant: str


def _reference(database: str) -> tuple[Approvals, dict[tuple[str, str], set[str]]]:
    """The approvals (``marts.vendor_approvals``) and each group's catalogue suppliers (``marts.dim_products``)."""
    import os

    import psycopg

    from procura.settings import get_settings

    os.environ["PROCURA_DB_NAME"] = database
    get_settings.cache_clear()
    approvals: Approvals = {}
    catalog: dict[tuple[str, str], set[str]] = {}
    with psycopg.connect(get_settings().owner_url) as conn:
        for tenant, company, supplier, valid_from, valid_to in conn.execute(
                "select tenant_id, company_id, supplier_id, valid_from, valid_to from marts.vendor_approvals"):
            approvals.setdefault((tenant, company), []).append((supplier, valid_from, valid_to))
        for tenant, group, supplier in conn.execute(
                "select distinct tenant_id, product_group_id, supplier_id from marts.dim_products"):
            catalog.setdefault((tenant, group), set()).add(supplier)
    return approvals, catalog


def probes(seed: int, per_class: int = 30, database: str = "procura") -> list[ApprovalProbe]:
    """``per_class`` questions of each class: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed)
    approvals, catalog = _reference(database)
    found: list[ApprovalProbe] = []
    for klass, frame in FRAMES.items():
        seen: set[str] = set()
        for _ in range(per_class * 6):
            if len(seen) >= per_class:
                break
            filled = frame(rng, approvals, catalog)
            if filled is None:
                continue
            question, call, about, tenant = filled
            if klass != "negation" or not any(w in question for w in ("Ausgaben", "Lieferanten")):
                question = _style(question, rng)
            if question in seen:
                continue
            seen.add(question)
            found.append(ApprovalProbe(klass, question, call, about, tenant))
    return found


def run(database: str, found: Sequence[ApprovalProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    from evaluation.probes_clarify import Probe

    def check(session: ProbeClient, p: ApprovalProbe) -> Checked:
        expected: list[str] | None = None
        no_rows = False
        if p.expect is not None:
            call = p.expect
            direct = session.client.post(
                f"/v1/metrics/{call.metric}/query", headers=session.by_tenant[p.tenant],
                json={"parameters": {**call.parameters, "reporting_currency": "EUR"}, "group_by": [],
                      "grain": None})
            if direct.status_code != 200:
                raise SystemExit(f"{p.question!r}: direct {call.metric} call failed: {direct.text[:300]}")
            expected, no_rows = _normalize(call, direct.json())
        status, text, _ = session.ask(p.question, AS_OF, p.tenant)
        outcome = classify(Probe(p.klass, p.question, p.expect, p.about), status, text, expected, no_rows)
        return Checked(p.klass, outcome, shown(p.klass, outcome, p.question, expected, status, text))

    return run_probes(database, "probes-approvals", sorted({p.tenant for p in found}), found, check, show)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__).parse_args(argv)
    found = [p for p in probes(args.seed, args.per_class, args.database)
             if not args.classes or p.klass in args.classes]
    counts = run(args.database, found, args.show)
    finish(counts, outcome_table(counts, tuple(FRAMES)))


if __name__ == "__main__":
    main()


__all__: list[Any] = ["FRAMES", "approved", "probes", "run"]
