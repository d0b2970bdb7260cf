"""Review 37: re-staging a version replaces its rows in the history tables (no duplicate key on rollback).

landing.payment_terms keeps a superseded version's rows through purge; LandingStore.write_many must delete the
rows of the versions it writes from every history table before it copies them (the database round trip is
tests/integration/test_payment_terms_rollback_review37.py). Seeded: the versions and documents written vary.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from ingest import stores
from ingest.parsers import parse_item
from ingest.stores import HISTORY_TABLES, LandingStore, Staged, ref_params
from tests.unit.test_payment_terms_review37 import _agreement


class _Conn:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def execute(self, query: Any, params: Any = None) -> None:
        self.calls.append(("execute", (query.as_string(None), params)))


@pytest.mark.parametrize("seed", range(6))
def test_history_rows_of_the_written_versions_are_deleted_before_the_copy(seed: int,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(seed)
    conn = _Conn()
    monkeypatch.setattr(stores, "copy_rows", lambda c, table, columns, rows: conn.calls.append(("copy", table)))
    days = rng.choice([10, 30, 45])
    doc = parse_item(_agreement(f"## 6. Payment\n\n6.1 Payment is due {days} days net.\n"))
    staged = [Staged(doc, rng.randint(1, 9)) for _ in range(rng.randint(1, 3))]

    LandingStore().write_many(conn, staged)  # type: ignore[arg-type]

    deletes = [args for kind, args in conn.calls if kind == "execute"]
    assert len(deletes) == len(HISTORY_TABLES)
    for sql_text, params in deletes:
        assert sql_text.startswith("delete from landing.payment_terms where")
        assert params == ref_params([s.ref for s in staged])
    first_copy = next(i for i, (kind, _) in enumerate(conn.calls) if kind == "copy")
    assert all(kind == "execute" for kind, _ in conn.calls[:first_copy])
