"""Expected answers of the twentieth blind set (``eval/blind20/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind18_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
only what the twentieth set (a shared-service centre's procurement-operations and accounts-payable helpdesk) needs:

* ``invoices``: a selection narrowed to named invoice or credit-note numbers ("what was the EUR total of
  INV-2026-0148", "VAT on INV-2026-0125 and INV-2026-0127"); the tenant's counted lines are first restricted to
  those numbers (every number must exist among the tenant's non-duplicate documents, once, optionally within the
  spec's company), then any earlier shape applies (``figure``, ``currency``, ``table`` ...);
* ``basis``: the amount a figure, breakdown, ranking, share or change is computed on: ``gross`` (the default spend,
  net + tax), ``net`` (excluding VAT: ``sign * line_net_amount * fx``) or ``tax`` (the VAT alone: ``sign *
  line_tax * fx``, invoice-level tax allocated to lines as documented); the calculator refuses a ``net`` or ``tax``
  question whose answer equals the gross one, so an answer on the wrong basis is never scored exact by accident;
* the original invoice of credit notes (``op: credit_note_origin``, ``credit_notes``: numbers): the
  ``original_invoice_number`` field of the current version of each named credit note, as a list of invoice numbers;
* everything else (``unit_price_ranking`` of the eighteenth set; ``duplicate_list``, ``unapproved_vendors`` and
  ``status_matters`` of the seventeenth; ``fiscal``, exclusions with ``excluding_matters``, ``window``,
  ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``, ``open_end``, ``robust_end``,
  ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``, ``paid_reading``, ``same_gross_net``,
  ``same_as``, ties, the net reading of thresholds) applies unchanged through
  :func:`evaluation.blind18_truth.expect` and :func:`evaluation.blind17_truth.expect`.

``python -m evaluation.blind20_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind17_truth as b17
from evaluation import blind18_truth as b18
from evaluation.blind3_truth import Tenant, TruthError, _list

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind20" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind20-corpus")
_OWN_KEYS = ("invoices", "basis")
_BASES = ("gross", "net", "tax")


def _with_lines(t: Tenant, lines: list[b3.Line]) -> Tenant:
    return dataclasses.replace(t, lines=lines)


def _restrict(t: Tenant, spec: Mapping[str, Any]) -> Tenant:
    """The tenant with only the lines of the named invoice / credit-note numbers (each must name one document)."""
    wanted = set(_list(spec["invoices"]))
    companies = set(_list(spec.get("company")))
    docs: dict[str, set[str]] = {n: set() for n in wanted}
    for ln in t.lines:
        if ln.invoice_number in wanted and (not companies or ln.company in companies):
            docs[ln.invoice_number].add(ln.document_id)
    for number, ids in sorted(docs.items()):
        if len(ids) != 1:
            raise TruthError(f"{t.tenant}: {number} names {len(ids)} documents")
    return _with_lines(t, [ln for ln in t.lines if ln.invoice_number in wanted])


def _on_basis(t: Tenant, basis: str) -> Tenant:
    """The tenant with every line's amount replaced by its net or its tax (the figures then read as spend)."""
    if basis not in _BASES:
        raise TruthError(f"unknown basis {basis!r}")
    if basis == "gross":
        return t
    if basis == "net":
        return _with_lines(t, [dataclasses.replace(ln, gross=ln.net) for ln in t.lines])
    return _with_lines(t, [dataclasses.replace(ln, gross=ln.gross - ln.net, net=ln.gross - ln.net) for ln in t.lines])


def _credit_note_origin(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    """``original_invoice_number`` of each named credit note (current version, non-duplicate, in the tenant)."""
    wanted = set(_list(spec["credit_notes"]))
    companies = set(_list(spec.get("company")))
    found: dict[str, set[str]] = {n: set() for n in wanted}
    for versions in t.documents.values():
        current = versions[-1]
        if current.kind not in ("invoice", "credit_note") or not current.text.lstrip().startswith("{"):
            continue
        doc = json.loads(current.text)
        if doc.get("document_type") != "credit_note" or doc.get("invoice_number") not in wanted:
            continue
        if companies and doc.get("company_id") not in companies:
            continue
        found[doc["invoice_number"]].add(str(doc["original_invoice_number"]))
    for number, origins in sorted(found.items()):
        if len(origins) != 1:
            raise TruthError(f"{t.tenant}: credit note {number} has {len(origins)} original invoices")
    return {"kind": "list", "ids": sorted({next(iter(o)) for o in found.values()})}


def _inner(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if spec["op"] == "unit_price_ranking":
        return b18.expect(t, spec, as_of)
    return b17.expect(t, spec, as_of)


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec["op"] == "credit_note_origin":
        return _credit_note_origin(t, spec)
    plain = {k: v for k, v in spec.items() if k not in _OWN_KEYS}
    scoped = _restrict(t, spec) if spec.get("invoices") else t
    basis = str(spec.get("basis", "gross"))
    got = _inner(_on_basis(scoped, basis), plain, as_of)
    if basis != "gross" and _inner(scoped, plain, as_of) == got:
        raise TruthError(f"the {basis} answer equals the gross one: the basis does not matter")
    return got


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind20_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
