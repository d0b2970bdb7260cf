"""Expected answers of the twenty-second blind set (``eval/blind22/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind20_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-second set (plant
maintenance / operations managers asking from the shop floor, half of it in German, and a CFO preparing a board
pack) needs:

* the catalog list price of a product (``op: list_price``, ``products``: one code): the ``list_price`` of
  ``catalog/products.csv`` in the catalog's own currency ("Listenpreis PRD-482 laut Katalog"), unconverted; a figure
  with the catalog currency (scored by the existing ``figure`` shape); the calculator refuses a product whose list
  price equals its average invoiced net unit price in EUR over the whole corpus, so that an answer that reads "price"
  as what was paid is never scored exact by accident;
* the catalog products of a product group, with its subgroups (``op: catalog_products``, ``groups``, optional
  ``suppliers``): a list of product codes from the catalog alone, no invoices needed ("welche Artikel gibt es unter
  Sensoren"); with ``suppliers`` it is the earlier ``op: products`` (which requires them);
* the catalog suppliers of a product group (``op: catalog_suppliers``, ``groups``): the suppliers that the catalog
  names for at least one product of the group or one of its subgroups ("wer liefert Kalibriertechnik"), a list of
  supplier ids; the calculator refuses a list that equals the suppliers with counted spend in the group over the
  whole corpus only when the question says ``distinct_from_spend`` (so that the catalog and the spend reading differ);
* ``approved_vendors`` on a list, breakdown or ranking ("which monitoring products did we buy from approved vendors",
  op ``product_list`` / ``supplier_list`` / ``invoice_list`` / ``table`` / ``ranking`` ...): the earlier calculators
  apply the flag to figures, shares, changes and currency splits only and silently ignore it elsewhere; here it is
  rewritten into ``suppliers`` (the approved suppliers of the company for the period, narrowed to the group's
  catalog suppliers, in the agreement versions in effect on the as-of date), and the calculator refuses a question
  whose answer does not change with the filter;
* checks on the clarification questions of this set: an ``unknown_category`` name must be no group name nor any
  German synonym of the tenant's catalog (casefolded, ``ae/oe/ue`` read as umlauts); an ``unknown_product`` code
  must be no catalog code and no document of the tenant; an ``unknown_company`` name must be no company id or name
  of the tenant (``names``), and an ``ambiguous_company`` clarification (no company named in a tenant with several)
  must have a different answer per company (``per_company``: the spec evaluated for each company must not agree);
* everything else (``invoices``, ``basis``, ``credit_note_origin`` of the twentieth set; ``unit_price_ranking`` of
  the eighteenth; ``duplicate_list``, ``unapproved_vendors``, ``status_matters`` of the seventeenth; ``fiscal``,
  exclusions with ``excluding_matters``, ``window``, ``previous``, ``relative``, ``typo``, ``nonempty`` by default,
  ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``, ``inclusive_end``, ``distinct_from``,
  ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, ties, the net reading of thresholds, the
  version of an agreement in effect on the as-of date or on ``at``) applies unchanged through
  :func:`evaluation.blind20_truth.expect`.

The scorer (:mod:`evaluation.blind_score`) scores the new kinds with its existing shapes: ``list_price`` as a
``figure`` with a currency, ``catalog_products`` and ``catalog_suppliers`` as a ``list`` of ``PRD-`` / ``SUP-`` ids.

``python -m evaluation.blind22_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind17_truth as b17
from evaluation import blind20_truth as b20
from evaluation.blind3_truth import Tenant, TruthError, _list

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind22" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind22-corpus")
_OWN_OPS = ("list_price", "catalog_products", "catalog_suppliers")
#: ops whose approved-vendor flag the earlier calculators apply themselves (with the partial status of a figure)
_APPROVED_NATIVE = ("figure", "share", "change", "currency", "compound")
_UMLAUTS = {"ae": "ä", "oe": "ö", "ue": "ü"}
_WHOLE = {"start": "1900-01-01", "end": "2100-01-01"}


def _catalog_rows(t: Tenant) -> dict[str, dict[str, str]]:
    """The tenant's ``catalog/products.csv`` rows by product code (the corpus reader keeps no price or currency)."""
    root = b17._ROOTS.get("corpus")
    if root is None:
        raise TruthError("list_price needs the corpus path")
    path = Path(root) / "tenants" / t.tenant / "catalog" / "products.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        return {row["product_code"]: row for row in csv.DictReader(fh)}


def _groups(t: Tenant, spec: Mapping[str, Any]) -> set[str]:
    wanted = _list(spec.get("groups"))
    if not wanted:
        raise TruthError("a catalog question needs a product group")
    out: set[str] = set()
    for g in wanted:
        if g not in t.groups:
            raise TruthError(f"{t.tenant}: no product group {g}")
        out |= t.subgroups(g)
    return out


def _list_price(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    codes = _list(spec.get("products"))
    if len(codes) != 1:
        raise TruthError("list_price names exactly one product")
    row = _catalog_rows(t).get(codes[0])
    if row is None:
        raise TruthError(f"{t.tenant}: {codes[0]} is not in the catalog")
    value = Decimal(row["list_price"])
    lines = b3.select(t, {**_WHOLE, "products": codes})
    qty = sum((ln.quantity for ln in lines), Decimal(0))
    if qty:
        paid = sum((ln.net_reporting for ln in lines), Decimal(0)) / qty
        if paid.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) == value:
            raise TruthError(f"{codes[0]}: the list price equals the average paid unit price (two readings agree)")
    return {"kind": "figure", "value": str(value.quantize(Decimal("0.01"))), "lines": 0, "status": "complete",
            "currency": row["currency"]}


def _catalog_products(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    groups = _groups(t, spec)
    suppliers = set(_list(spec.get("suppliers")))
    ids = sorted(code for code, (_, g, s) in t.products.items() if g in groups and (not suppliers or s in suppliers))
    if not ids and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, the catalog has no such product")
    return {"kind": "list", "ids": ids}


def _catalog_suppliers(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    groups = _groups(t, spec)
    ids = sorted({s for _, g, s in t.products.values() if g in groups})
    if not ids:
        raise TruthError("the question is written to have data, no catalog supplier in the group")
    if spec.get("distinct_from_spend"):
        spent = {ln.supplier for ln in b3.select(t, {**_WHOLE, "groups": _list(spec["groups"])})}
        if spent == set(ids):
            raise TruthError("the catalog suppliers equal the suppliers with spend: the reading does not matter")
    return {"kind": "list", "ids": ids}


def _fold(name: str) -> str:
    text = name.casefold()
    for plain, umlaut in _UMLAUTS.items():
        text = text.replace(plain, umlaut)
    return " ".join(text.replace("-", " ").split())


def _check_clarification(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> None:
    reason = spec.get("reason")
    names = _list(spec.get("names"))
    if reason == "unknown_category":
        known = set()
        for gid in t.groups:
            known.add(_fold(t.groups[gid][0]))
        for row in _synonyms(t):
            known.add(_fold(row))
        for n in names:
            if _fold(n) in known:
                raise TruthError(f"{t.tenant}: {n!r} is a product group or a synonym of one")
    elif reason == "unknown_product":
        for n in names:
            if n.upper() in t.products or n.lower() in t.documents:
                raise TruthError(f"{t.tenant}: {n!r} is a catalog product or a document")
    elif reason == "unknown_company":
        known = {c.casefold() for c in t.companies} | {v.casefold() for v in t.companies.values()}
        for n in names:
            if n.casefold() in known:
                raise TruthError(f"{t.tenant}: {n!r} is a company of the tenant")
    elif reason == "ambiguous_company":
        intended = spec.get("per_company")
        if not isinstance(intended, Mapping) or len(t.companies) < 2:
            raise TruthError("an ambiguous company needs per_company and a tenant with several companies")
        values = []
        for company in sorted(t.companies):
            try:
                values.append(repr(b20.expect(t, {**intended, "company": company}, as_of)))
            except TruthError:  # no data for this company: an answer of its own ("no data")
                values.append("no data")
        if len(set(values)) != len(values):
            raise TruthError("two companies give the same answer: the question is not ambiguous")


def _synonyms(t: Tenant) -> list[str]:
    root = b17._ROOTS.get("corpus")
    if root is None:
        raise TruthError("the category check needs the corpus path")
    path = Path(root) / "tenants" / t.tenant / "catalog" / "product_groups.json"
    out: list[str] = []
    for g in json.loads(path.read_text(encoding="utf-8")):
        for words in (g.get("synonyms") or {}).values():
            out.extend(words)
    return out


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "list_price":
        return _list_price(t, spec)
    if op == "catalog_products":
        return _catalog_products(t, spec)
    if op == "catalog_suppliers":
        return _catalog_suppliers(t, spec)
    if spec.get("approved_vendors") and op not in _APPROVED_NATIVE:
        # "bought from approved vendors" as a filter of a list, breakdown or ranking: the approved suppliers (of the
        # group), rewritten into ``suppliers``; the earlier chain applies the flag to figures, shares and changes only
        plain = {k: v for k, v in spec.items() if k != "approved_vendors"}
        ok = b3.approved_selection(t, spec, as_of)
        if spec.get("suppliers"):
            ok = sorted(set(ok) & set(_list(spec["suppliers"]))) or [b3.NO_APPROVED_SUPPLIER]
        got = expect(t, {**plain, "suppliers": ok}, as_of)
        if expect(t, plain, as_of) == got:
            raise TruthError("the approved-vendor filter does not change the answer")
        return got
    if op == "clarification":
        _check_clarification(t, spec, as_of)
        plain = {k: v for k, v in spec.items() if k != "per_company"}
        return b20.expect(t, plain, as_of)
    return b20.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind22_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
