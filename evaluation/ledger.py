"""The attack ledger of the security suite: every case tried, every case failed, per area, as JSON.

Tests open an area, check each attack case in it, and fail at the end of the area with the list of failed
cases; the session writes the totals to ``security_summary.json`` (read by ``procura eval``'s report).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Area:
    """The cases of one attack area checked by one test."""

    name: str
    tried: int = 0
    failures: list[str] = field(default_factory=list)

    def check(self, case: str, ok: bool, detail: str = "") -> bool:
        """Record one attack case; ``ok`` means the system held."""
        self.tried += 1
        if not ok:
            self.failures.append(f"{case}: {detail}"[:600])
        return ok


@dataclass
class Ledger:
    """All areas of a session."""

    areas: dict[str, dict[str, Any]] = field(default_factory=dict)

    @contextmanager
    def area(self, name: str) -> Iterator[Area]:
        """Check cases in ``name``; raises AssertionError listing every failed case when the block ends."""
        __tracebackhide__ = True  # pytest: show the failed cases, not this helper
        area = Area(name)
        try:
            yield area
        finally:
            entry = self.areas.setdefault(name, {"tried": 0, "failed": 0, "failures": []})
            entry["tried"] += area.tried
            entry["failed"] += len(area.failures)
            entry["failures"].extend(area.failures[:50])
        if area.failures:
            raise AssertionError(f"{name}: {len(area.failures)} of {area.tried} cases failed:\n  "
                                 + "\n  ".join(area.failures[:30]))
        if area.tried == 0:
            raise AssertionError(f"{name}: no case was checked")

    def summary(self) -> dict[str, Any]:
        """Totals and per-area counts."""
        return {
            "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "tried": sum(a["tried"] for a in self.areas.values()),
            "failed": sum(a["failed"] for a in self.areas.values()),
            "areas": {k: dict(v) for k, v in sorted(self.areas.items())},
        }

    def write(self, path: Path) -> None:
        """Write :meth:`summary` as JSON (atomically)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.summary(), indent=2) + "\n", encoding="utf-8")
        tmp.replace(path)
