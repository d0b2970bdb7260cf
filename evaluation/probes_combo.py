"""Combination probes: two to four constraints in one question, generated from slot grammars, asked through
``/v1/ask`` and compared with the governed metric called directly with every slot value at once.

``python -m evaluation.probes_combo [--database procura] [--seed 1] [--n 200] [--show wrong|all|none]``

The single-class generators (:mod:`evaluation.probes_clarify`, :mod:`evaluation.probes_silent`) vary one kind of
constraint at a time; a reader can pass all of them and still lose a constraint when two meet in one question (a
status next to a supplier alias, an exclusion next to a breakdown, a product group next to a credit-note filter).
Each probe here draws a shape (which constraints), a company, a period, and for each constraint a spelling from the
same vocabulary, then orders the clauses in one of several analyst wordings. The expected figures come from
``finance.company_spend`` called with all the slot values, so a constraint the answer dropped shows up as another
figure, never as a pass. Outcomes are those of :func:`evaluation.probes_clarify.classify`.

A training set for failure classes: fix a class with one seed, report another seed (held out) before and after.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from evaluation.constraint_probes import Call
from evaluation.probe_runner import arguments, finish
from evaluation.probes_clarify import (
    _BREAKDOWNS,
    _EXCLUDE,
    _STATUSES,
    AMOUNTS,
    CHANGES,
    COMPANIES,
    GROUPS,
    PERIODS,
    PRODUCTS,
    SUPPLIERS,
    Probe,
    _style,
    outcome_table,
    run,
)

#: Constraint kinds a shape combines.
KINDS = ("supplier", "group", "status", "credit", "exclude_supplier", "exclude_group", "breakdown", "product",
         "two_suppliers")
#: Shapes of a spend question: which constraints meet in one question (the company and the period are always
#: there).
SHAPES: tuple[tuple[str, ...], ...] = (
    ("supplier", "group"), ("supplier", "status"), ("group", "status"), ("group", "exclude_supplier"),
    ("supplier", "credit"), ("group", "credit"), ("status", "breakdown"), ("supplier", "group", "breakdown"),
    ("group", "exclude_supplier", "breakdown"), ("status", "exclude_group"), ("supplier", "product"),
    ("two_suppliers", "group"), ("supplier", "group", "status"), ("exclude_group", "breakdown"),
    ("exclude_supplier", "status", "breakdown"), ("two_suppliers", "status"), ("credit", "breakdown"),
    ("group", "status", "breakdown"), ("supplier", "exclude_group"),
)
#: Shapes of the other measures, each with the constraints its governed metric takes.
HEAD_SHAPES: dict[str, tuple[tuple[str, ...], ...]] = {
    "count": (("supplier", "group"), ("supplier", "status"), ("group", "status"), ("group", "exclude_supplier"),
              ("supplier", "credit"), ("status", "exclude_group"), ("two_suppliers", "group"),
              ("supplier", "product"), ("supplier", "group", "status")),
    "ranking": (("group",), ("group", "status"), ("group", "exclude_supplier"), ("status", "exclude_group"),
                ("credit",), ("group", "credit"), ("exclude_supplier", "status")),
    "change": (("supplier", "group"), ("supplier", "status"), ("group", "exclude_supplier"), ("group", "status"),
               ("supplier", "credit"), ("exclude_group",), ("status", "exclude_supplier")),
    "share": (("supplier", "group"), ("supplier", "status"), ("supplier", "credit"),
              ("supplier", "exclude_group"), ("supplier", "group", "status")),
    "threshold": (("supplier",), ("status",), ("supplier", "status"), ("two_suppliers",), ("two_suppliers", "status")),
    "currency": (("supplier",), ("status",), ("supplier", "status"), ("credit",), ("exclude_supplier",),
                 ("supplier", "credit")),
}
_VALID_STATUSES = tuple((word, extra) for word, extra, _ in _STATUSES if extra is not None)
#: Breakdowns a combination can carry: one dimension or a grain (a second dimension comes from the shape).
_ONE_KEY = tuple((p, dims, grain) for p, dims, grain in _BREAKDOWNS if len(dims) + (grain is not None) == 1)


def _supplier_spelling(rng: random.Random, supplier: str) -> str:
    kinds = SUPPLIERS[supplier]
    return rng.choice(kinds[rng.choice(sorted(kinds))])


#: Names no tenant knows, for questions whose right answer is a clarification naming them.
UNKNOWN_SUPPLIERS = ("Omikron Tools GmbH", "Kappa Industries", "Supplier Omega", "Sigma Valves Ltd")
UNKNOWN_GROUPS = ("Hydraulic Pumps", "Safety Gloves", "Office Furniture", "Welding Supplies")
#: What a spoiled question lacks or names wrongly, and the words its clarification must contain.
SPOILS = ("company", "supplier", "group")


def _compose(rng: random.Random, shape: tuple[str, ...], head: str = "spend",
             spoil: str | None = None) -> tuple[str, Call | None, tuple[str, ...]] | None:
    """A question of ``shape`` and the governed call it means; ``spoil`` makes it one whose right answer is a
    clarification (no company named, or an unknown supplier or group), with the words that clarification needs."""
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    params: dict[str, Any] = {"company_id": company, "start_date": start, "end_date": end}
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    suppliers = rng.sample(sorted(SUPPLIERS), 3)
    groups = rng.sample(sorted(GROUPS), 2)
    # clause texts by role: who (with ...), what (on ...), status adjective, tail clauses
    with_: list[str] = []
    on: list[str] = []
    adjective = ""
    tails: list[str] = []
    for kind in shape:
        if kind == "supplier":
            params["supplier_ids"] = [suppliers[0]]
            with_.append(_supplier_spelling(rng, suppliers[0]))
        elif kind == "two_suppliers":
            params["supplier_ids"] = sorted(suppliers[:2])
            with_.append(f"{_supplier_spelling(rng, suppliers[0])} and {_supplier_spelling(rng, suppliers[1])}")
        elif kind == "group":
            params["product_group_ids"] = list(GROUPS[groups[0]][1])
            on.append(rng.choice(GROUPS[groups[0]][0]))
        elif kind == "product":
            code = rng.choice(PRODUCTS)
            params["product_codes"] = [code]
            on.append(code)
        elif kind == "status":
            word, extra = rng.choice(_VALID_STATUSES)
            params.update(extra)
            adjective = word
        elif kind == "credit":
            if rng.random() < 0.5:
                params["document_types"] = ["credit_note"]
                tails.append(rng.choice(("credit notes only", "only credit notes", "just the credit notes")))
            else:
                params["document_types"] = ["invoice"]
                tails.append(rng.choice(("excluding credit notes", "without credit notes", "invoices only")))
        elif kind == "exclude_supplier":
            # the excluded supplier is a third one: never the named one
            params["exclude_supplier_ids"] = [suppliers[2]]
            tails.append(f"{rng.choice(_EXCLUDE)} {_supplier_spelling(rng, suppliers[2])}")
        elif kind == "exclude_group":
            leaves = [g for g in GROUPS[groups[1]][1] if g not in params.get("product_group_ids", [])]
            if not leaves:
                return None
            params["exclude_product_group_ids"] = list(GROUPS[groups[1]][1])
            tails.append(f"{rng.choice(_EXCLUDE)} {rng.choice(GROUPS[groups[1]][0])}")
        elif kind == "breakdown":
            phrase, dims, g = rng.choice(_ONE_KEY)
            # one named supplier (group, product) split by that same key is a one-row table: ask by month
            if (("supplier_id" in dims and "supplier" in shape)
                    or ("top_product_group_id" in dims and "group" in shape)
                    or ("product_code" in dims and "product" in shape)):
                phrase, dims, g = "by month", (), "month"
            group_by, grain = dims, g
            tails.append(phrase)
    if "exclude_group" in shape and "group" in shape and set(params["exclude_product_group_ids"]) & set(
            params["product_group_ids"]):
        return None
    about: tuple[str, ...] = ()
    if spoil == "company":
        c, about = "our company", ("company",)
    elif spoil == "supplier" and "supplier" in shape:
        name = rng.choice(UNKNOWN_SUPPLIERS)
        with_[0], about = name, (name.split()[0], name.split()[-1], "supplier", "vendor")
    elif spoil == "group" and "group" in shape:
        name = rng.choice(UNKNOWN_GROUPS)
        on[0], about = name, (name.split()[0], "product group", "category", "product")
    elif spoil is not None:
        return None
    who = f" with {' and '.join(with_)}" if with_ else ""
    what = f" on {' and '.join(on)}" if on else ""
    tail = (", " + ", ".join(tails)) if tails else ""
    if head != "spend":
        made = _headed(rng, head, c, p, params, with_, on, adjective, tails)
        return None if made is None else (made[0], None if about else made[1], about)
    if adjective:
        # "Show me the paid invoices" asks for a list; a total needs a total's words
        templates: tuple[str, ...] = (
            f"What is the total of {c}'s {adjective} invoices{who}{what} {p}{tail}?",
            f"{c} {adjective} invoices{who}{what} {p}{tail}: total value",
            f"Value of {c}'s {adjective} invoices{what}{who} {p}{tail}",
            f"Sum of {adjective} invoices{who}{what} for {c} {p}{tail}",
            f"How much is in {c}'s {adjective} invoices{who}{what} {p}{tail}?",
        )
    else:
        subject = rng.choice(("spend", "purchases"))
        templates = (
            f"How much did {c} spend{who}{what} {p}{tail}?",
            f"{c} {subject}{who}{what} {p}{tail}",
            f"What was {c}'s {subject}{what}{who} {p}{tail}?",
            f"{c}: {subject}{who}{what}, {p}{tail}",
            f"Show me {c}'s {subject}{who}{what} {p}{tail}",
            f"Total {subject}{what}{who} for {c} {p}{tail}",
        )
    question = rng.choice(templates)
    return question, None if about else Call("finance.company_spend", params, group_by, grain), about


_NUMBERS = {2: ("2", "two"), 3: ("3", "three"), 5: ("5", "five")}


def _headed(rng: random.Random, head: str, c: str, p: str, params: dict[str, Any], with_: list[str],
            on: list[str], adjective: str, tails: list[str]) -> tuple[str, Call] | None:
    """A count, ranking, change or share question over the same constraints, and the governed call it means."""
    who = f" with {' and '.join(with_)}" if with_ else ""
    what = f" on {' and '.join(on)}" if on else ""
    if head == "count":
        credit = params.get("document_types") == ["credit_note"]
        if credit and adjective:
            return None
        noun = "credit notes" if credit else "invoices"
        params["document_types"] = ["credit_note"] if credit else ["invoice"]
        tail = (", " + ", ".join(t for t in tails if "credit" not in t and "invoices only" not in t))
        tail = "" if tail == ", " else tail
        adj = f"{adjective} " if adjective else ""
        frm = f" from {' and '.join(with_)}" if with_ else ""
        templates = (
            f"How many {adj}{noun} did {c} receive{frm}{what} {p}{tail}?",
            f"Number of {adj}{noun}{frm}{what} for {c} {p}{tail}",
            f"{c}: count of {adj}{noun}{frm}{what}, {p}{tail}",
            f"How many {adj}{noun}{what} did {c} get{frm} {p}{tail}?",
        )
        return rng.choice(templates), Call("finance.invoice_count", params, outputs=("invoice_count",))
    if head == "threshold":
        phrase, threshold, direction, inclusive, upper, upper_incl = rng.choice(AMOUNTS)
        params |= {"threshold": threshold, "direction": direction, "inclusive": inclusive}
        if upper:
            params |= {"upper_threshold": upper, "upper_inclusive": upper_incl}
        adj = f"{adjective} " if adjective else ""
        frm = f" from {' and '.join(with_)}" if with_ else ""
        templates = (
            f"Which {adj}invoices{frm} did {c} get {phrase} {p}?",
            f"List {c}'s {adj}invoices{frm} {phrase} {p}",
            f"{c} {adj}invoices{frm} {phrase} {p}",
        )
        return rng.choice(templates), Call("finance.invoices_above_threshold", params, outputs=("invoice_number",))
    if adjective:
        tails = [*tails, f"{adjective} invoices only"]
    tail = (", " + ", ".join(tails)) if tails else ""
    if head == "currency":
        cur = rng.choice(("USD", "GBP", "CHF"))
        on_cur = rng.choice((f"on {cur} invoices", f"invoiced in {cur}", f"on invoices in {cur}",
                             f"for {cur}-denominated invoices"))
        params |= {"document_currency": cur}
        templates = (
            f"How much did {c} spend{who} {on_cur} {p}{tail}?",
            f"{c} spend{who} {on_cur} {p}{tail}",
            f"What was {c}'s spend{who} {p} {on_cur}{tail}?",
        )
        return rng.choice(templates), Call("finance.document_currency_spend", params, outputs=("document_spend",))
    if head == "ranking":
        n = rng.choice(sorted(_NUMBERS))
        word = rng.choice(_NUMBERS[n])
        direction = rng.choice(("top", "top", "bottom"))
        ranked = (f"top {word} suppliers" if direction == "top" else
                  rng.choice((f"bottom {word} suppliers", f"{word} smallest suppliers")))
        templates = (
            f"Who were {c}'s {ranked}{what} {p}{tail}?",
            f"{c} {ranked} by spend{what} {p}{tail}",
            f"List the {ranked} of {c}{what} {p}{tail}",
        )
        call = Call("finance.spend_ranking", {**params, "limit": n, "direction": direction,
                                              "order_by": "total_spend"}, ("supplier_id",))
        return rng.choice(templates), call
    if head == "change":
        phrase, start, end, rule, bs, be = rng.choice(CHANGES)
        params |= {"start_date": start, "end_date": end, "compare_to": rule}
        if bs:
            params |= {"base_start_date": bs, "base_end_date": be}
        templates = (
            f"How did {c}'s spend{who}{what} change {phrase}{tail}?",
            f"{c} spend{who}{what} {phrase}{tail}: change",
            f"By how much did {c}'s spend{what}{who} move {phrase}{tail}?",
        )
        return rng.choice(templates), Call("finance.spend_comparison", params,
                                           outputs=("total_spend", "base_value", "change"))
    # share: the named supplier's share of the company's spend under the other constraints
    supplier = with_[0]
    scope = f"{' and '.join(on)} " if on else ""
    templates = (
        f"What share of {c}'s {scope}spend {p} went to {supplier}{tail}?",
        f"{supplier}'s share of {c}'s {scope}spend {p}{tail}",
        f"What % of {c}'s {scope}spend {p} was with {supplier}{tail}?",
    )
    return rng.choice(templates), Call("finance.supplier_share", params, outputs=("share_percent", "whole_value"))


def probes(seed: int, n: int = 200, heads: Sequence[str] = ("spend",), spoiled: float = 0.0) -> list[Probe]:
    """``n`` combination questions: seeded shapes and slot values, duplicates dropped; a ``spoiled`` fraction of
    them lacks the company or names an unknown supplier or group (a clarification is the right answer)."""
    rng = random.Random(seed)
    found: list[Probe] = []
    seen: set[str] = set()
    while len(found) < n:
        head = rng.choice(tuple(heads))
        shape = rng.choice(SHAPES if head == "spend" else HEAD_SHAPES[head])
        spoil = rng.choice(SPOILS) if rng.random() < spoiled else None
        made = _compose(rng, shape, head, spoil)
        if made is None:
            continue
        question, call, about = made
        question = _style(question, rng)
        if question in seen:
            continue
        seen.add(question)
        klass = f"{head}:{'+'.join(shape)}" if spoil is None else f"clarify:{spoil}"
        found.append(Probe(klass, question, call, about, shape))
    return found


def table(counts: Counter[tuple[str, str]]) -> str:
    shapes = sorted({s for s, _ in counts})
    return outcome_table(counts, shapes, label="shape", width=max(map(len, shapes), default=9), column=13)


def main(argv: Sequence[str] | None = None) -> None:
    parser = arguments(__doc__, count=("--n", 200), select=("--head", ("spend", *HEAD_SHAPES)),
                       select_help="measures to ask for (default: all)")
    parser.add_argument("--spoiled", type=float, default=0.0,
                        help="fraction of questions without a company or with an unknown name (default 0)")
    args = parser.parse_args(argv)
    heads = args.head or ("spend", *HEAD_SHAPES)
    counts = run(args.database, probes(args.seed, args.n, heads, args.spoiled), args.show)
    finish(counts, table(counts))


if __name__ == "__main__":
    main()
