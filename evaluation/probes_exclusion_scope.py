"""Scope probes: exclusions of every entity kind behind every cue, shares in every phrasing, unknown category noun
phrases after every spend preposition, and questions mixing two or three of these slots, generated from slot
grammars over a vocabulary (companies, suppliers, a product-group tree) and checked against the governed request
the slot values mean, or against a clarification naming the unknown span.

Expectations (:class:`Expect`):

* ``params``: the governed call: every listed parameter equals the slot value (company, suppliers, excluded
  suppliers, groups as the group and its subgroups, excluded groups, period), and the metric when one is named;
* ``clarify``: a clarification whose text names ``span`` (a span that maps to nothing is never dropped).

Classes: ``company_excl`` (a company left out of all companies: the one left is the figure's company; several left
are those companies together, ``finance.company_spend``'s ``company_ids``), ``subgroup_excl`` (a subgroup named by
its own words within the group asked for: "control equipment excluding cabinets"), ``unknown`` (a noun phrase no
group, supplier or product has, after "on"/"for" with names and periods between the verb and it), ``shares`` (a
supplier's share of a company's spend, of a group's spend within it, a group's share), ``mixed`` (a share with a
supplier left out, a company exclusion with a supplier and a status).

:func:`probes` is pure (seeded ``random.Random``); ``tests/unit/test_router_scope_probes.py`` routes a bounded
sample through the router with the unit fixture's vocabulary. Written from the slot grammar alone, never from an
evaluation question.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

#: Cues before what they leave out, and the forms after it.
PREFIX_CUES = ("other than", "excluding", "except", "except for", "excl.", "without", "leaving out", "apart from",
               "not counting", "ignoring", "w/o", "aside from", "but not", "exclusive of")
POSTFIX_CUES = ("excluded", "left out", "aside", "not included")
#: Unknown category noun phrases of every shape: one noun, adjective + noun, noun + goods noun, three words, hyphen.
UNKNOWN = ("furniture", "hydraulic pumps", "drone parts", "office furniture", "solar panels", "coffee beans",
           "industrial coffee machines", "e-bike batteries", "marketing services", "forklift tyres",
           "catering", "welding gas", "printer toner", "lab coats")


@dataclass(frozen=True)
class Vocabulary:
    """What the probes name: companies (id -> spellings), suppliers (id -> spellings), groups (id -> (name,
    parent)), periods (phrase, start, end exclusive)."""

    companies: Mapping[str, Sequence[str]]
    suppliers: Mapping[str, Sequence[str]]
    groups: Mapping[str, tuple[str, str | None]]
    periods: Sequence[tuple[str, str, str]]

    def subgroups(self, group: str) -> tuple[str, ...]:
        found = {group}
        changed = True
        while changed:
            changed = False
            for gid, (_, parent) in self.groups.items():
                if parent in found and gid not in found:
                    found.add(gid)
                    changed = True
        return tuple(sorted(found))


@dataclass(frozen=True)
class Expect:
    kind: str  # params | clarify
    params: Mapping[str, object] = field(default_factory=dict)
    metric: str | None = None
    span: str | None = None


@dataclass(frozen=True)
class Probe:
    klass: str
    question: str
    expect: Expect


def _words(name: str) -> set[str]:
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in name.lower().split()}


def _own_words(vocab: Vocabulary, group: str, parent: str) -> str | None:
    """The words of ``group``'s name that are not its ancestor's ("cabinets" of Control Cabinets within Control
    Equipment), when they name no other subgroup of the ancestor; None otherwise."""
    name, context = vocab.groups[group][0], _words(vocab.groups[parent][0])
    own = [w for w in name.split() if _words(w) - context]
    if not own or len(own) == len(name.split()):
        return None
    wanted = _words(" ".join(own))
    rivals = [g for g in vocab.subgroups(parent) if g not in (parent, group)
              and wanted <= _words(vocab.groups[g][0]) and _words(vocab.groups[g][0]) - wanted <= context]
    return None if rivals else " ".join(own).lower()


def _period(rng: random.Random, vocab: Vocabulary) -> tuple[str, dict[str, object]]:
    phrase, start, end = rng.choice(list(vocab.periods))
    return phrase, {"start_date": start, "end_date": end}


def company_exclusions(rng: random.Random, vocab: Vocabulary, n: int) -> list[Probe]:
    out: list[Probe] = []
    ids = sorted(vocab.companies)
    frames = ("spend with {sup} {period} for all entities {cue} {co}",
              "total spend {period} across all companies {cue} {co}",
              "how much did we spend with {sup} {period}, all companies {cue} {co}?",
              "spend with {sup} {period} for every entity {cue} {co}")
    post = ("spend with {sup} {period} for all entities, {co} {cue}",
            "total spend with {sup} {period} across all companies with {co} {cue}")
    for _ in range(n):
        co_id = rng.choice(ids)
        co = rng.choice(list(vocab.companies[co_id]))
        sup_id = rng.choice(sorted(vocab.suppliers))
        sup = rng.choice(list(vocab.suppliers[sup_id]))
        period, dates = _period(rng, vocab)
        if rng.random() < 0.75:
            question = rng.choice(frames).format(sup=sup, period=period, cue=rng.choice(PREFIX_CUES), co=co)
        else:
            question = rng.choice(post).format(sup=sup, period=period, cue=rng.choice(POSTFIX_CUES), co=co)
        left = [c for c in ids if c != co_id]
        # one company left is the figure's company; several are the companies left together (company_ids)
        params: dict[str, object] = {"company_id": left[0]} if len(left) == 1 else {"company_ids": left}
        params.update(dates)
        if "{sup}" in question or sup in question:
            params["supplier_ids"] = [sup_id]
        out.append(Probe("company_excl", question, Expect("params", params)))
    return out


def subgroup_exclusions(rng: random.Random, vocab: Vocabulary, n: int) -> list[Probe]:
    pairs = [(g, a) for g in sorted(vocab.groups) for a in sorted(vocab.groups)
             if a != g and g in vocab.subgroups(a) and _own_words(vocab, g, a)]
    out: list[Probe] = []
    if not pairs:
        return out
    frames = ("{co} {parent} spend {period} {cue} {own}", "{co}: {parent} spend {period} {cue} the {own}",
              "how much did {co} spend on {parent} {period} {cue} {own}?",
              "{parent} spend at {co} {period} {cue} {own}")
    for _ in range(n):
        group, parent = rng.choice(pairs)
        own = _own_words(vocab, group, parent) or ""
        if rng.random() < 0.3 and not own.endswith("s"):
            own += "s"
        co_id = rng.choice(sorted(vocab.companies))
        co = vocab.companies[co_id][0]
        period, dates = _period(rng, vocab)
        parent_name = vocab.groups[parent][0]
        question = rng.choice(frames).format(co=co, parent=rng.choice((parent_name, parent_name.lower())),
                                             period=period, cue=rng.choice(PREFIX_CUES[1:]), own=own)
        out.append(Probe("subgroup_excl", question, Expect("params", {
            "company_id": co_id, **dates, "product_group_ids": list(vocab.subgroups(parent)),
            "exclude_product_group_ids": list(vocab.subgroups(group))})))
    return out


def unknown_objects(rng: random.Random, vocab: Vocabulary, n: int) -> list[Probe]:
    frames = ("how much did {co} spend with {sup} on {unk} {period}?",
              "how much did {co} spend w/ {sup} on {unk} {period}?",
              "{co} spend {period} with {sup} on {unk}",
              "how much went on {unk} at {co} {period}?",
              "how much did {co} spend on {unk} {period}?",
              "what did {co} spend {period} on {unk}?",
              "{co}: spend on {unk} {period}",
              "how much did {co} spend for {unk} {period}?",
              "{co} spent {period} on {unk}",
              "how much did {co} spend on {unk} with {sup} {period}?")
    out: list[Probe] = []
    for _ in range(n):
        co = rng.choice(list(vocab.companies[rng.choice(sorted(vocab.companies))]))
        sup = rng.choice(list(vocab.suppliers[rng.choice(sorted(vocab.suppliers))]))
        unk = rng.choice(UNKNOWN)
        period, _ = _period(rng, vocab)
        question = rng.choice(frames).format(co=co, sup=sup, unk=unk, period=period)
        out.append(Probe("unknown", question, Expect("clarify", span=unk)))
    return out


def shares(rng: random.Random, vocab: Vocabulary, n: int) -> list[Probe]:
    supplier_frames = ("what portion of {co}'s {period} spend went to {sup}?",
                       "what % of {co}'s spend {period} was with {sup}?",
                       "{sup}'s share of {co}'s spend {period}",
                       "{sup} as a % of {co}'s spend {period}",
                       "what share of {co}'s spend {period} went to {sup}?",
                       "what percentage of {co}'s spend {period} was with {sup}?")
    within_frames = ("within {group}, what % of {co}'s {period} spend was with {sup}?",
                     "{sup}'s share of {co}'s {group} spend {period}",
                     "what portion of {co}'s {group} spend {period} went to {sup}?")
    group_frames = ("what percentage of {co}'s spend {period} was {group}?",
                    "{group} as a share of {co}'s spend {period}",
                    "what share of {co}'s spend {period} went on {group}?")
    out: list[Probe] = []
    for _ in range(n):
        co_id = rng.choice(sorted(vocab.companies))
        co = vocab.companies[co_id][0]
        sup_id = rng.choice(sorted(vocab.suppliers))
        sup = rng.choice(list(vocab.suppliers[sup_id]))
        group = rng.choice(sorted(vocab.groups))
        period, dates = _period(rng, vocab)
        kind = rng.choice(("supplier", "within", "group"))
        base = {"company_id": co_id, **dates}
        if kind == "supplier":
            question = rng.choice(supplier_frames).format(co=co, sup=sup, period=period)
            expect = Expect("params", {**base, "supplier_ids": [sup_id]}, metric="finance.supplier_share")
        elif kind == "within":
            question = rng.choice(within_frames).format(co=co, sup=sup, period=period,
                                                        group=vocab.groups[group][0].lower())
            expect = Expect("params", {**base, "supplier_ids": [sup_id],
                                       "product_group_ids": list(vocab.subgroups(group))},
                            metric="finance.supplier_share")
        else:
            question = rng.choice(group_frames).format(co=co, period=period, group=vocab.groups[group][0].lower())
            expect = Expect("params", {**base, "product_group_ids": list(vocab.subgroups(group))},
                            metric="finance.product_group_share")
        out.append(Probe("shares", question, expect))
    return out


def mixed(rng: random.Random, vocab: Vocabulary, n: int) -> list[Probe]:
    out: list[Probe] = []
    ids = sorted(vocab.suppliers)
    for _ in range(n):
        co_id = rng.choice(sorted(vocab.companies))
        co = vocab.companies[co_id][0]
        part, other = rng.sample(ids, 2)
        period, dates = _period(rng, vocab)
        if rng.random() < 0.5:
            question = (f"what share of {co}'s spend {period} {rng.choice(PREFIX_CUES[1:])} "
                        f"{vocab.suppliers[other][0]} went to {vocab.suppliers[part][0]}?")
            out.append(Probe("mixed", question, Expect("params", {
                "company_id": co_id, **dates, "supplier_ids": [part], "exclude_supplier_ids": [other]},
                metric="finance.supplier_share")))
        else:
            unk = rng.choice(UNKNOWN)
            question = (f"{co} spend with {vocab.suppliers[part][0]} on {unk} {period}, "
                        f"{rng.choice(PREFIX_CUES[1:])} {vocab.suppliers[other][0]}")
            out.append(Probe("mixed", question, Expect("clarify", span=unk)))
    return out


GENERATORS = {"company_excl": company_exclusions, "subgroup_excl": subgroup_exclusions, "unknown": unknown_objects,
              "shares": shares, "mixed": mixed}


def probes(seed: int, per_class: int, vocab: Vocabulary) -> list[Probe]:
    """``per_class`` probes of every class, drawn with ``seed``."""
    rng = random.Random(seed)
    return [p for generate in GENERATORS.values() for p in generate(rng, vocab, per_class)]
