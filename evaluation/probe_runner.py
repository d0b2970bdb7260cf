"""The run loop every probe generator shares: its command line, the app over the probed database, every generated
probe asked and compared, the outcomes counted, the wrong ones printed, the counts as a table (and JSON).

A generator keeps only what is its own: how it generates probes (``probes``), how one probe is asked and judged
(a ``check`` that returns a :class:`Checked`) and how its table looks. :func:`run_probes` is the loop,
:func:`arguments` the command line's common flags, :func:`finish` the table and the counts file; :func:`distinct`
draws one class's probes, each question once.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from evaluation.probe_client import RIGHT, ProbeClient, probe_client

P = TypeVar("P")


@dataclass(frozen=True)
class Checked:
    """One probe's outcome: the row it counts in, what the run prints for it when shown, and any further rows the
    generator also counts it in (e.g. by naming or language)."""

    klass: str
    outcome: str
    shown: str
    also: tuple[str, ...] = ()


def shown(klass: str, outcome: str, question: str, expected: object, status: str, text: str, *,
          width: int = 600, tenant: str | None = None, note: str = "") -> str:
    """The printed block of one probe: its class and outcome, the question, what was expected and the answer (up
    to its sources)."""
    who = f"({tenant}) " if tenant else ""
    return (f"[{klass}/{outcome}] {who}{question}\n    expected {expected}{note}"
            f"\n    -> {status}: {text.split(' Sources:')[0][:width]}")


def distinct(draw: Callable[[], P], question: Callable[[P], str], per_class: int, tries: int) -> list[P]:
    """Up to ``per_class`` drawn probes of one class, each question once, in the order first drawn: ``draw`` is
    called at most ``tries`` times (a class with few distinct questions stops there rather than looping on)."""
    kept: dict[str, P] = {}
    drawn = 0
    while len(kept) < per_class and drawn < tries:
        drawn += 1
        probe = draw()
        kept.setdefault(question(probe), probe)
    return list(kept.values())


def run_probes(database: str, principal: str, tenants: Iterable[str], found: Sequence[P],
               check: Callable[[ProbeClient, P], Checked | None], show: str = "wrong",
               right: tuple[str, ...] = RIGHT) -> Counter[tuple[str, str]]:
    """Ask every probe (``check``) through the app over ``database`` with a key per tenant, count each outcome and
    print it when ``show`` asks for it (``wrong``: the outcomes not in ``right``). A ``check`` that returns
    ``None`` leaves its probe out (the probed data has nothing the probe could ask about)."""
    counts: Counter[tuple[str, str]] = Counter()
    with probe_client(database, principal, tuple(tenants)) as session:
        for probe in found:
            checked = check(session, probe)
            if checked is None:
                continue
            counts[(checked.klass, checked.outcome)] += 1
            for row in checked.also:
                counts[(row, checked.outcome)] += 1
            if show == "all" or (show == "wrong" and checked.outcome not in right):
                print(checked.shown)
    return counts


def arguments(doc: str | None, *, seed: int = 1, count: tuple[str, int] = ("--per-class", 30),
              select: tuple[str, Sequence[str] | None] | None = ("--class", None), select_help: str | None = None,
              counts_file: bool = False) -> argparse.ArgumentParser:
    """The common flags: ``--database``, ``--seed``, the probes per class (``count``: its flag and default), the
    classes to ask (``select``: its flag and choices; ``--class`` without choices collects into ``classes``),
    ``--show`` and, with ``counts_file``, ``--json``. A generator adds its own flags to the parser returned."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("--database", default="procura")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument(count[0], type=int, default=count[1])
    if select is not None:
        flag, choices = select
        extra: dict[str, Any] = {"dest": "classes", "default": []} if flag == "--class" else {"choices": choices}
        if select_help:
            extra["help"] = select_help
        parser.add_argument(flag, action="append", **extra)
    parser.add_argument("--show", choices=("wrong", "all", "none"), default="wrong")
    if counts_file:
        parser.add_argument("--json", help="write the counts as JSON to this file")
    return parser


def finish(counts: Counter[tuple[str, str]], table: str, json_path: str | None = None) -> None:
    """Print the run's table and, when asked, write its counts as JSON (``class/outcome`` -> count)."""
    print(table)
    if json_path:
        with open(json_path, "w") as out:
            json.dump({f"{c}/{k}": v for (c, k), v in sorted(counts.items())}, out, indent=1)


__all__ = ["Checked", "arguments", "distinct", "finish", "run_probes", "shown"]
