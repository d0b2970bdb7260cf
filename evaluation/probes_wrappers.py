"""Metamorphic probes of the words around a question: conversational preambles, all-companies scope words, supplier
names as typed (one-edit typos, lower case, without or with another country's legal form), company names shortened
("Co. A"), purchase lists ("which products did X buy from Y in P") and a supplier named by a product it supplies.

Every probe is a pair: a varied question and the plain one it must be read as. The answer of the varied question
must equal the plain one's (the same governed call, the same figure); a preamble in front of a known-good question
may never change it, turn it into a clarification or hide one of its constraints.

``python -m evaluation.probes_wrappers [--database procura] [--seed 31] [--per-class 40] [--show wrong|all|none]``
asks both questions of every pair through ``/v1/ask`` of the demo tenant (``tenant-42``, seed 42, as of
2026-05-15) and counts the pairs whose answers differ (status, result). ``tests/unit/test_router_wrappers.py``
routes a bounded sample of the same pairs without a database and compares the plans.

Seeds: ``--seed 31`` is the training seed; ``--seed 32`` is held out. Written from the slot grammar and the demo
vocabulary alone, never from an evaluation question.
"""

from __future__ import annotations

import datetime as dt
import json
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

#: Conversational preambles: none of them constrains the question that follows.
WRAPPERS: tuple[str, ...] = (
    "Re the audit: ", "Quick one: ", "For the month-end pack, ", "Sorry to bother - ", "Need this for the CFO deck: ",
    "Hi, ", "FYI the controller asked: ", "Before Friday's review, ", "Can you check something for me: ",
    "Hi, quick one: ", "Quick question: ", "For the board meeting, ", "Hello team, ", "Sorry to bother – ",
    "Re the audit - ", "Hi, approx. ", "Need this before the review: ", "Pls check: ",
)
#: Words that scope a figure to all of the tenant's companies together.
ALL_COMPANIES: tuple[str, ...] = (
    ", all companies together", " across all companies", " for all entities", " group-wide", " for all companies",
    " across the group", " for the whole group", " across all entities", " consolidated",
)
#: The demo tenant's companies and the ways they are shortened.
COMPANIES: tuple[tuple[str, str], ...] = (
    ("Company A", "COMP-A"), ("Company B", "COMP-B"), ("Company C", "COMP-C"), ("Co. A", "COMP-A"),
    ("Co B", "COMP-B"), ("Comp C", "COMP-C"), ("Co. C", "COMP-C"), ("company a", "COMP-A"),
)
#: Supplier spellings of the demo tenant: (spelling, supplier id). Lower case, without the legal form, with another
#: country's legal form.
SUPPLIERS: tuple[tuple[str, str], ...] = (
    ("Supplier Beta", "SUP-18"), ("Beta Supplies GmbH", "SUP-18"), ("beta supplies", "SUP-18"),
    ("Beta Supplies Ltd", "SUP-18"), ("BETA SUPPLIES", "SUP-18"), ("Supplier Gamma", "SUP-27"),
    ("Gamma Control Systems AG", "SUP-27"), ("gamma control systems", "SUP-27"),
    ("Gamma Control Systems Inc", "SUP-27"),
)
#: Periods that read the same whatever surrounds them.
PERIODS: tuple[str, ...] = ("in Q1 2026", "in March 2026", "in 2025-Q4", "in H2 2025", "between 2026-01-01 and "
                            "2026-03-31", "in February 2026")
#: Known-good question frames ({c} company, {s} supplier, {p} period).
FRAMES: tuple[str, ...] = (
    "{c} spend with {s} {p}", "How much did {c} spend with {s} {p}?", "What did {c} spend {p}?",
    "Top 3 suppliers of {c} {p}", "{c} spend {p} by supplier", "How many invoices did {c} get from {s} {p}?",
    "{c}'s spend with {s} {p}, by product",
)
#: Purchase lists and the spend breakdowns they are read as ({c}, {s}, {p}).
LISTINGS: tuple[tuple[str, str], ...] = (
    ("Which products did {c} buy from {s} {p}?", "spend of {c} with {s} {p}, by product"),
    ("Which products did {c} actually buy from {s} {p}?", "spend of {c} with {s} {p}, by product"),
    ("What did {c} buy from {s} {p}?", "spend of {c} with {s} {p}, by product"),
    ("Which suppliers did {c} buy from {p}?", "spend of {c} {p}, by supplier"),
    ("Which vendors has {c} purchased from {p}?", "spend of {c} {p}, by supplier"),
    ("Which product groups did {c} buy from {s} {p}?", "spend of {c} with {s} {p}, by product group"),
    ("{c}: which suppliers did we buy from {p}?", "{c}: our spend {p}, by supplier"),
)
#: A supplier named by a product it supplies: (phrase with {x} the product, product name, its supplier's name).
HOPS: tuple[tuple[str, str, str], ...] = (
    ("the supplier of the {x}", "PT100 temperature probe", "Supplier Beta"),
    ("the maker of the {x}", "PT100 temperature probe", "Supplier Beta"),
    ("the vendor of the {x}", "Control module CM-2", "Supplier Gamma"),
    ("the {x}'s supplier", "Control module CM-2", "Supplier Gamma"),
)


@dataclass(frozen=True)
class Pair:
    """A varied question and the plain one whose answer it must have."""

    klass: str
    question: str
    plain: str


def typos(word: str, kinds: Sequence[str] = ("delete", "swap", "double", "substitute")) -> list[str]:
    """Every one-edit typo of ``word`` of the given kinds (delete a letter, swap two neighbours, double a letter,
    substitute one), in order, without repeats.

    >>> typos("Delta", ("delete",))
    ['elta', 'Dlta', 'Deta', 'Dela', 'Delt']
    >>> typos("Delta", ("swap",))[:2]
    ['eDlta', 'Dleta']
    """
    out: list[str] = []
    if "delete" in kinds:
        out += [word[:i] + word[i + 1:] for i in range(len(word))]
    if "swap" in kinds:
        out += [word[:i] + word[i + 1] + word[i] + word[i + 2:] for i in range(len(word) - 1)]
    if "double" in kinds:
        out += [word[:i] + word[i] + word[i:] for i in range(1, len(word))]
    if "substitute" in kinds:
        out += [word[:i] + ("e" if word[i] != "e" else "a") + word[i + 1:] for i in range(1, len(word))]
    return [t for t in dict.fromkeys(out) if t != word]


def _typo_spelling(spelling: str, rng: random.Random) -> str | None:
    """The spelling with one long word (six letters or more) one edit off, or None when it has none."""
    words = spelling.split()
    long_words = [i for i, w in enumerate(words) if len(w) >= 6 and w.isalpha()]
    if not long_words:
        return None
    i = rng.choice(long_words)
    words[i] = rng.choice(typos(words[i]))
    return " ".join(words)


def pairs(seed: int, per_class: int) -> list[Pair]:
    """Seeded pairs of every class (``per_class`` each): wrapper, scope, typo, company, listing, hop."""
    rng = random.Random(seed)
    out: list[Pair] = []

    def plain() -> str:
        company = rng.choice(COMPANIES[:3])[0]
        supplier = rng.choice(SUPPLIERS)[0]
        return rng.choice(FRAMES).format(c=company, s=supplier, p=rng.choice(PERIODS))

    for _ in range(per_class):
        base = plain()
        out.append(Pair("wrapper", rng.choice(WRAPPERS) + base, base))
    for _ in range(per_class):
        supplier = rng.choice(SUPPLIERS)[0]
        period = rng.choice(PERIODS)
        scope = rng.choice(ALL_COMPANIES)
        out.append(Pair("scope", f"Spend with {supplier} {period}{scope}",
                        f"Spend with {supplier} {period}, across all companies"))
    for _ in range(per_class):
        supplier = rng.choice(SUPPLIERS)[0]
        typo = _typo_spelling(supplier, rng)
        if typo is None:
            continue
        company = rng.choice(COMPANIES[:3])[0]
        period = rng.choice(PERIODS)
        out.append(Pair("typo", f"{company} spend with {typo} {period}", f"{company} spend with {supplier} {period}"))
    for _ in range(per_class):
        short, cid = rng.choice(COMPANIES[3:])
        full = next(name for name, i in COMPANIES[:3] if i == cid)
        frame = rng.choice(FRAMES)
        supplier, period = rng.choice(SUPPLIERS)[0], rng.choice(PERIODS)
        out.append(Pair("company", frame.format(c=short, s=supplier, p=period),
                        frame.format(c=full, s=supplier, p=period)))
    for _ in range(per_class):
        asked, read = rng.choice(LISTINGS)
        slots = {"c": rng.choice(COMPANIES[:3])[0], "s": rng.choice(SUPPLIERS)[0], "p": rng.choice(PERIODS)}
        out.append(Pair("listing", asked.format(**slots), read.format(**slots)))
    for _ in range(per_class):
        phrase, product, supplier = rng.choice(HOPS)
        company, period = rng.choice(COMPANIES[:3])[0], rng.choice(PERIODS)
        out.append(Pair("hop", f"{company} spend with {phrase.format(x=product)} {period}",
                        f"{company} spend with {supplier} {period}"))
    return out


# -- asking and comparing (a database) ---------------------------------------------------------------------------
def _answer_key(answer: Any) -> str:
    if not isinstance(answer, dict):
        return repr(answer)
    return json.dumps({"status": answer.get("status"), "result": answer.get("result")}, sort_keys=True, default=str)


def run(database: str, seed: int, per_class: int, show: str = "wrong") -> dict[str, tuple[int, int]]:
    """Ask both questions of every pair; per class (pairs, answers that differ)."""
    from evaluation.probe_client import ProbeClient
    from evaluation.probe_runner import Checked, run_probes

    def check(client: ProbeClient, pair: Pair) -> Checked:
        as_of = dt.date(2026, 5, 15)
        _, text, got = client.ask(pair.question, as_of)
        _, _, want = client.ask(pair.plain, as_of)
        verdict = "same" if _answer_key(got) == _answer_key(want) else "DIFFERS"
        return Checked(pair.klass, verdict, f"[{pair.klass}] {verdict}: {pair.question!r} vs {pair.plain!r}: "
                                            f"{text[:200]}")

    counts = run_probes(database, "probes-wrappers", ["tenant-42"], pairs(seed, per_class), check, show,
                        right=("same",))
    return {k: (counts[(k, "same")] + counts[(k, "DIFFERS")], counts[(k, "DIFFERS")])
            for k in dict.fromkeys(c for c, _ in counts)}


def iter_questions(seed: int, per_class: int) -> Iterator[str]:
    """Every varied question (for a smoke run of another harness)."""
    for pair in pairs(seed, per_class):
        yield pair.question


def main(argv: Sequence[str] | None = None) -> int:
    from evaluation.probe_runner import arguments

    args = arguments(__doc__.splitlines()[0], seed=31, count=("--per-class", 40), select=None).parse_args(argv)
    counts = run(args.database, args.seed, args.per_class, args.show)
    for klass, (n, wrong) in sorted(counts.items()):
        print(f"{klass}: {n} pairs, {wrong} differ")
    return 1 if any(wrong for _, wrong in counts.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
