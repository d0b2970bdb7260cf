"""Expected answers of the twenty-fifth blind set (``eval/blind25/questions.yml``), computed from the raw corpus files.

Written code-blind: without reading the product code that answers questions (router/, retrieval/, semantic/, api/,
graph/, ingest/, models/, macros/, procura/, jobs/, ...), without reading the earlier question files, probes or
golden sets and without asking the system. It reuses the corpus reader, the accounting policy and the spec shapes of
the earlier sets' calculators (:mod:`evaluation.blind3_truth` ... :mod:`evaluation.blind24_truth`: plain Python
``Decimal`` over the files ``procura demo generate`` writes) and adds only what the twenty-fifth set (vendor-risk,
compliance and contract managers writing long multi-part e-mails, and an AI agent calling Procura with fully
explicit, tool-generated parameters) needs:

* approved vendors without spend (``op: idle_vendors``, ``company``, period, optional ``groups``): the suppliers
  that the approval tables of the company's agreements (each in the version in effect on the as-of date) approve
  for a time overlapping the half-open period, narrowed to the catalog suppliers of the groups when given, that
  have no counted line (posted/paid, non-duplicate, valid; inside the groups when given) in the period; a list of
  supplier ids. "No spend" could also be read as "spend that nets to zero": the calculator refuses a question where
  an approved supplier's counted lines net to exactly zero, so both readings agree (zero is told apart from no data
  by the earlier ``expect_zero`` / ``expect_empty`` figures); ``approval_stable`` applies as in the twenty-first
  set;
* the largest (or smallest) single invoices (``op: invoice_ranking``, ``n``, ``order: desc | asc``): the counted
  documents of type ``invoice`` of the selection ranked by their gross EUR total (net + tax, converted per the
  policy); a ``ranking`` keyed by invoice number (scored with the existing ranking shape: order and values); no tie
  at the cut or inside the ranking, and the order of the top ``n`` must not change under the net reading;
* how long an approval runs (``op: approval_validity``, ``company``, ``supplier``, optional ``at``): the "Valid to"
  cell of the supplier's row in the approval table of the company's agreement in the version in effect on ``at``
  (default: the as-of date), as a ``document`` answer whose fact is that date (or ``open``); the calculator refuses
  a supplier with no row or with rows that disagree, and a ``wrong_fact`` that is not another version's cell;
* parameters the corpus cannot know (``op: not_understood``, ``parameter``: the words as written, ``inner``: the
  spec without them): a cost centre, project code, region or buyer name in an agent's request. The answer to the
  rest is computed from ``inner`` (a ``figure`` or a ``table``) and marked the way the scorer's existing shapes
  demand a caveat: a figure gets ``status: partial``, a table ``missing: [parameter]``, so that an answer that
  silently ignores the parameter is scored as a partial answer presented as complete; ``not_understood`` records
  the words. Every such question also accepts a clarification;
* everything else (the twenty-fourth set's ``status_counts`` and ``cutoff_list``; ``overdue``,
  ``unknown_invoice``, ``approval_stable``, ``projection``, ``avg_invoice_value``, ``concentration``,
  ``unit_price_change``, ``list_price``, ``catalog_products``, ``catalog_suppliers``, ``approved_vendors`` on lists
  and rankings, the clarification checks, ``invoices``, ``basis``, ``credit_note_origin``, ``unit_price_ranking``,
  ``duplicate_list``, ``unapproved_vendors``, ``status_matters``, ``fiscal``, exclusions with
  ``excluding_matters``, ``window``, ``previous``, ``relative``, ``typo``, ``nonempty`` by default, ``expect_zero``,
  ``open_end``, ``robust_end``, ``to_date``, ``inclusive_end``, ``distinct_from``, ``proper_share``,
  ``paid_reading``, ``same_gross_net``, ``same_as``, ties, the net reading of thresholds, the agreement version in
  effect on the as-of date or ``at``) applies unchanged through :func:`evaluation.blind24_truth.expect`.

The scorer (:mod:`evaluation.blind_score`) scores the new kinds with its existing shapes: ``idle_vendors`` as a
``list`` of ``SUP-`` ids, ``invoice_ranking`` as a ``ranking``, ``approval_validity`` as a ``document`` with a
fact, ``not_understood`` as a partial ``figure`` or a ``table`` with ``missing``.

``python -m evaluation.blind25_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer calls :func:`check` with
its own corpus object; the corpus path is taken as in the third set's calculator (path argument, the scorer's
``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import datetime as dt
import sys
from collections import defaultdict
from collections.abc import Mapping, Sequence
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind7_truth as b7
from evaluation import blind13_truth as b13
from evaluation import blind17_truth as b17
from evaluation import blind21_truth as b21
from evaluation import blind24_truth as b24
from evaluation.blind3_truth import Tenant, TruthError, _d, _list, money

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind25" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind25-corpus")
_OWN_OPS = ("idle_vendors", "invoice_ranking", "approval_validity", "not_understood")


def _idle_vendors(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if spec.get("approval_stable"):
        b21._check_stable(t, spec, as_of)
    companies = _list(spec.get("company"))
    if len(companies) != 1:
        raise TruthError("idle_vendors names exactly one company (its approvals)")
    approved = b3._approved_suppliers(t, spec, as_of)
    if not approved:
        raise TruthError("the company has no approved vendor for the period (and group)")
    selection = {k: v for k, v in spec.items() if k in ("company", "start", "end", "groups")}
    totals: dict[str, Decimal] = defaultdict(Decimal)
    for ln in b3.select(t, {**selection, "suppliers": approved}):
        totals[ln.supplier] += ln.spend
    zero = sorted(s for s, v in totals.items() if v == 0)
    if zero:
        raise TruthError(f"approved suppliers {zero} net to zero: 'no spend' has two readings")
    ids = sorted(set(approved) - set(totals))
    if not ids and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, every approved vendor has spend")
    if ids == approved:
        raise TruthError("no approved vendor has spend: the spend side of the question does not matter")
    return {"kind": "list", "ids": ids}


def _invoice_ranking(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    plain = {k: v for k, v in spec.items() if k not in ("op", "n", "order")}
    if any(plain.get(k) for k in ("to_date", "inclusive_end", "relative", "typo", "fiscal", "window")):
        b24.expect(t, {**plain, "op": "figure", "document_types": ["invoice"]}, as_of)  # period and name checks
    plain = b13._plain(t, {k: v for k, v in plain.items()
                           if k not in ("to_date", "inclusive_end", "relative", "typo", "fiscal", "window")})
    n = int(spec["n"])
    ascending = spec.get("order", "desc") == "asc"

    def ranked(tenant: Tenant) -> list[tuple[str, Decimal]]:
        totals = b5._invoice_totals(tenant, plain)
        return sorted(totals.items(), key=lambda kv: kv[1] if ascending else -kv[1])

    gross = ranked(t)
    if len(gross) <= n:
        raise TruthError(f"{len(gross)} invoices in the selection: a top {n} would list all of them")
    if money(gross[n - 1][1]) == money(gross[n][1]):
        raise TruthError("a tie at the ranking cut")
    if any(money(a[1]) == money(b[1]) for a, b in pairwise(gross[:n])):
        raise TruthError("a tie inside the ranking (order undefined)")
    net = ranked(b7._net_lines(t))
    if [k for k, _ in net[:n]] != [k for k, _ in gross[:n]]:
        raise TruthError("the net reading of 'largest' changes the ranking")
    top = gross[:n]
    return {"kind": "ranking", "items": [[k, money(v)] for k, v in top], "labels": {k: [] for k, _ in top}}


def _valid_to(version: b3.DocVersion, supplier: str) -> str:
    cells = {"open" if a.valid_to is None else a.valid_to.isoformat() for a in version.approvals
             if a.supplier == supplier}
    if len(cells) != 1:
        raise TruthError(f"{version.document_id}: {supplier} has {len(cells)} different 'Valid to' cells")
    return cells.pop()


def _approval_validity(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    company, supplier = str(spec["company"]), str(spec["supplier"])
    at = _d(spec.get("at", as_of))
    found = []
    for doc_id, versions in t.documents.items():
        current = b3._in_effect(versions, at)
        if current is None or current.kind != "agreement" or current.company != company:
            continue
        if any(a.supplier == supplier for a in current.approvals):
            found.append((doc_id, current, versions))
    if len(found) != 1:
        raise TruthError(f"{t.tenant}: {supplier} is in {len(found)} approval tables of {company} on {at}")
    doc_id, current, versions = found[0]
    fact = _valid_to(current, supplier)
    out: dict[str, Any] = {"kind": "document", "document_id": doc_id, "fact": fact}
    if spec.get("wrong_fact"):
        others = {_valid_to(v, supplier) for v in versions if v is not current}
        if spec["wrong_fact"] == fact or spec["wrong_fact"] not in others:
            raise TruthError(f"wrong_fact {spec['wrong_fact']!r} is not another version's 'Valid to' cell")
        out["wrong_fact"] = spec["wrong_fact"]
    return out


def _not_understood(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    words = _list(spec.get("parameter"))
    if not words:
        raise TruthError("not_understood names the parameter the corpus cannot know")
    inner = expect(t, spec["inner"], as_of)
    if inner.get("kind") == "figure" and inner.get("value") is not None:
        return {**inner, "status": "partial", "not_understood": words}
    if inner.get("kind") == "table" and inner.get("rows"):
        return {**inner, "missing": words, "not_understood": words}
    raise TruthError("a not-understood parameter is scored on a figure or a table with data")


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    op = spec["op"]
    if op == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if op == "idle_vendors":
        return _idle_vendors(t, spec, as_of)
    if op == "invoice_ranking":
        return _invoice_ranking(t, spec, as_of)
    if op == "approval_validity":
        return _approval_validity(t, spec, as_of)
    if op == "not_understood":
        return _not_understood(t, spec, as_of)
    return b24.expect(t, spec, as_of)


# -- the question file ---------------------------------------------------------------------------------------------
compute, check = b17.rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return b17.rooted_main(argv, module="evaluation.blind25_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                           corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
