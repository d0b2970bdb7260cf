"""Review f1 #3: a supplier named by kind and number ("with Sup 27", "with supplier 27") is read as its id or asked
about, never dropped for the company-wide total (router/name_cues.py, router/reader.py)."""

from __future__ import annotations

import datetime as dt
import functools
import json
from pathlib import Path

import pytest

from procura.db.session import AuthContext
from router.entities import Company, Gazetteer, ProductGroup
from router.name_cues import cued_names, supplier_numbers
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from semantic.loader import load_registry
from semantic.schema import load_snapshot

GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR")],
    [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma")],
    [("Beta Supplies GmbH", "SUP-18"), ("Gamma Controls", "SUP-27")],
    [ProductGroup("PG-SENS", "Sensors")], [], [],
)
CTX = AuthContext(tenant_id="tenant-42", principal_id="f1", scopes=frozenset({"invoice:aggregate",
                                                                          "procurement:read"}))


@functools.cache
def _inputs() -> RouterInputs:
    schema = load_snapshot(Path(__file__).parent / "fixtures" / "semantic" / "schema.json")
    return RouterInputs(ctx=CTX, as_of=dt.date(2026, 5, 15), gazetteer=GAZETTEER,
                        metrics=tuple(catalog_metrics(load_registry(schema))))


def _plan(question: str) -> tuple[bool, str]:
    r = route(question, _inputs())
    return r.requires_clarification, json.dumps([s.arguments for s in r.execution_plan], sort_keys=True, default=str)


@pytest.mark.parametrize("question", [
    "Company A spend with Sup 27 in Q1 2026",         # the probe
    "Company A spend with supplier 27 in Q1 2026",
    "how much did Company A spend with vendor #27 in Q1 2026",
    "Company A spend from vendor 27 in Q1 2026",
])
def test_a_supplier_named_by_kind_and_number_is_read_as_its_id(question: str) -> None:
    asks, plan = _plan(question)
    assert not asks
    assert "SUP-27" in plan


@pytest.mark.parametrize("question", [
    "Company A spend with supplier 99 in Q1 2026",
    "Company A spend with Sup 4 in Q1 2026",
])
def test_an_unknown_supplier_number_is_asked_about_never_the_company_total(question: str) -> None:
    asks, _ = _plan(question)
    assert asks


def test_the_id_keeps_every_span_in_place() -> None:
    text = "Company A spend with supplier 27 in Q1 2026"
    read = supplier_numbers(text, {"SUP-27"})
    assert len(read) == len(text) and read.split() == ["Company", "A", "spend", "with", "SUP-27", "in", "Q1", "2026"]
    assert supplier_numbers("supplier spend in 2025, supplier 2.5% share", {"SUP-25", "SUP-2"}) == \
        "supplier spend in 2025, supplier 2.5% share"


def test_a_numbered_supplier_left_unread_is_a_name_slot() -> None:
    assert cued_names("spend with supplier 99 in  ", lambda w: w.lower() in {"spend"}) == [
        (11, 22, "supplier 99")]
