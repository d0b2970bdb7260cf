"""Expected answers of the seventeenth blind set (``eval/blind17/questions.yml``), computed from the raw corpus files.

Written without reading the product code that answers questions (router/, semantic/, api/, models/, ...), without
reading the earlier question files and without asking the system: it reuses the corpus reader, the accounting
policy and the spec shapes of the earlier sets' calculators (:mod:`evaluation.blind3_truth` ...
:mod:`evaluation.blind16_truth`: plain Python ``Decimal`` over the files ``procura demo generate`` writes) and adds
only what the seventeenth set (internal audit and controls testing on procurement) needs:

* ``unapproved_vendors``: "spend with suppliers that are not approved vendors" of a company in a period, i.e. the
  spec's selection less the suppliers that the approval tables of the company's agreements (each in the version in
  effect on the as-of date) approve for a time overlapping the period; it is rewritten into ``exclude_suppliers``,
  and the calculator refuses it when the company has no approved vendor for the period (the filter would not
  matter) or when dropping it does not change the answer;
* ``op: duplicate_list``: the invoice numbers of the invoices that were exported twice (a replicated duplicate:
  another document of the tenant with the same business key ``(company, resolved supplier, document type,
  invoice number)`` and the same business content, ingested later and never counted), optionally narrowed to a
  company, suppliers and a half-open ``invoice_date`` period; only documents of type ``invoice`` are listed;
* everything else (``fiscal``, exclusions and ``excluding_matters``, ``window``, ``previous``, ``nonempty`` by
  default, ``expect_zero``, ``open_end``, ``robust_end``, ``to_date``, ``relative``, ``typo``, ``distinct_from``,
  ``proper_share``, ``paid_reading``, ``same_gross_net``, ``same_as``, ``status_matters`` as in the fifteenth set,
  no tie at a ranking cut or inside a ranking, the net reading of thresholds) applies unchanged through
  :func:`evaluation.blind16_truth.expect` (and :func:`evaluation.blind15_truth.expect` for ``status_matters``).

``python -m evaluation.blind17_truth --check`` recomputes every question's ``expected`` from its ``spec`` and prints
the differences (exit 1 when there are any); ``--write`` stores them; ``--crosscheck`` recomputes the generator's
``ground_truth.json`` quantities with this calculator and prints how many agree. The scorer
(``evaluation.blind_score``) calls :func:`check` with its own corpus object; the corpus path is taken as in the
third set's calculator (path argument, the scorer's ``--corpus`` option, else the question file's ``corpus.path``).
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import sys
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from evaluation import blind3_truth as b3
from evaluation import blind5_truth as b5
from evaluation import blind15_truth as b15
from evaluation import blind16_truth as b16
from evaluation.blind3_truth import Tenant, TruthError, _d, _list

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_QUESTIONS = ROOT / "eval" / "blind17" / "questions.yml"
DEFAULT_CORPUS = Path("/tmp/blind17-corpus")
_OWN_KEYS = ("unapproved_vendors",)
_ROOTS: dict[str, Path] = {}


# -- replicated duplicates (read from the manifest: the corpus reader drops them) ---------------------------------
@lru_cache(maxsize=8)
def _duplicates(root: str) -> tuple[tuple[str, str, str, str, str, dt.date], ...]:
    """(tenant, company, supplier, document type, invoice number, invoice date) of every replicated duplicate."""
    base = Path(root)
    manifest = json.loads((base / "manifest.json").read_text(encoding="utf-8"))
    tenants = b3.load_corpus(base)
    newest: dict[tuple[str, str], dict[str, Any]] = {}
    order: list[tuple[str, str]] = []
    for entry in manifest["files"]:
        if entry["kind"] not in ("invoice", "credit_note"):
            continue
        doc = json.loads((base / entry["path"]).read_text(encoding="utf-8"))
        key = (entry["tenant_id"], doc["document_id"])
        if key not in newest:
            order.append(key)
        newest[key] = doc
    first: dict[tuple[str, ...], dict[str, Any]] = {}
    out = []
    for key in order:
        tid, doc = key[0], newest[key]
        supplier = tenants[tid].aliases[b3.normalize(doc["supplier_name"])]
        business = (tid, doc["company_id"], supplier, doc["document_type"], doc["invoice_number"])
        content = {k: v for k, v in doc.items() if k not in ("document_id", "source_system")}
        if business not in first:
            first[business] = content
            continue
        if first[business] != content:
            raise TruthError(f"{doc['document_id']}: same business key, other content (not a replica)")
        out.append((*business, _d(doc["invoice_date"])))
    return tuple(out)


def _duplicate_list(t: Tenant, spec: Mapping[str, Any]) -> dict[str, Any]:
    root = _ROOTS.get("corpus")
    if root is None:
        raise TruthError("duplicate_list needs the corpus path")
    companies, suppliers = set(_list(spec.get("company"))), set(_list(spec.get("suppliers")))
    start, end = _d(spec["start"]), _d(spec["end"])
    ids = sorted({number for tid, company, supplier, kind, number, day in _duplicates(str(root))
                  if tid == t.tenant and kind == "invoice" and start <= day < end
                  and (not companies or company in companies) and (not suppliers or supplier in suppliers)})
    if not ids and not spec.get("expect_empty"):
        raise TruthError("the question is written to have data, no duplicate matches")
    return {"kind": "list", "ids": ids}


# -- spend with suppliers that are not approved ---------------------------------------------------------------------
def _unapproved(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    if not spec.get("company"):
        raise TruthError("unapproved_vendors needs a company")
    approved = b3.approved(t, str(spec["company"]), _d(spec["start"]), _d(spec["end"]), as_of)
    if not approved:
        raise TruthError("the company has no approved vendor for the period: the filter would not matter")
    out = {k: v for k, v in spec.items() if k != "unapproved_vendors"}
    out["exclude_suppliers"] = sorted(set(_list(spec.get("exclude_suppliers"))) | approved)
    return out


def _rewrite(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    out = dict(spec)
    for key in ("intended", "distinct_from", "same_as"):
        if isinstance(out.get(key), Mapping) and out[key].get("unapproved_vendors"):
            out[key] = _unapproved(t, {**spec, **out[key]}, as_of)
            out[key] = {k: v for k, v in out[key].items() if k in spec[key] or k == "exclude_suppliers"}
    if spec.get("unapproved_vendors"):
        out = _unapproved(t, out, as_of)
    return out


def expect(t: Tenant, spec: Mapping[str, Any], as_of: dt.date) -> dict[str, Any]:
    """The expected answer of one spec (the scorer's ``expected`` mapping)."""
    if spec["op"] == "compound":
        return {"kind": "compound", "parts": [expect(t, p, as_of) for p in spec["parts"]]}
    if spec["op"] == "duplicate_list":
        return _duplicate_list(t, spec)
    plain = _rewrite(t, spec, as_of)
    inner = b15.expect if plain.get("status_matters") else b16.expect
    got = inner(t, plain, as_of)
    if spec.get("unapproved_vendors"):
        without = {k: v for k, v in spec.items() if k != "unapproved_vendors"}
        if inner(t, without, as_of) == got:
            raise TruthError("dropping unapproved_vendors gives the same answer: the approval filter does not matter")
    return got


# -- the question file ---------------------------------------------------------------------------------------------
def rooted(expect: Any, default_corpus: Path) -> tuple[Any, Any]:
    """``compute`` and ``check`` for a set whose questions read files under the corpus root (this set and the later
    ones reuse them): the root is taken from the scorer's corpus, else the question file's ``corpus.path``."""
    computer = b5.computer(expect)

    def compute(tenants: Mapping[str, Tenant], data: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        _ROOTS.setdefault("corpus", Path(str((data.get("corpus") or {}).get("path") or default_corpus)))
        return computer(tenants, data)

    def check(corpus: Any, data: Mapping[str, Any]) -> list[str]:
        """Differences between the stored ``expected`` values and the ones this set's calculator recomputes."""
        _ROOTS["corpus"] = b3._corpus_path(corpus, data)
        return b3.check(corpus, data, compute)

    return compute, check


def rooted_main(argv: Sequence[str] | None, *, module: str, doc: str, questions: Path, corpus: Path,
                compute: Any, check: Any) -> int:
    """The calculator CLI (``--write`` / ``--check`` / ``--crosscheck``) with ``--corpus`` setting the root first."""
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args):
        if arg == "--corpus" and i + 1 < len(args):
            _ROOTS["corpus"] = Path(args[i + 1])
        elif arg.startswith("--corpus="):
            _ROOTS["corpus"] = Path(arg.split("=", 1)[1])
    _ROOTS.setdefault("corpus", corpus)
    return b5.run(args, module=module, doc=doc, questions=questions, corpus=corpus, compute=compute, check=check)


def thin(number: int, expect: Any, doc: str) -> tuple[Any, Any, Any]:
    """``compute``, ``check`` and ``main`` of a set whose calculator only dispatches to an earlier set's ``expect``
    (the thirty-first set and later ones): questions in ``eval/blind<number>/questions.yml``, corpus default
    ``/tmp/blind<number>-corpus``, every answer a deep copy so that the YAML needs no anchors."""
    questions = ROOT / "eval" / f"blind{number}" / "questions.yml"
    corpus = Path(f"/tmp/blind{number}-corpus")

    def own_copy(t: Tenant, spec: Mapping[str, Any], as_of: Any) -> dict[str, Any]:
        return copy.deepcopy(expect(t, spec, as_of))

    compute, check = rooted(own_copy, corpus)

    def main(argv: Sequence[str] | None = None) -> int:
        return rooted_main(argv, module=f"evaluation.blind{number}_truth", doc=doc, questions=questions,
                           corpus=corpus, compute=compute, check=check)

    return compute, check, main


compute, check = rooted(expect, DEFAULT_CORPUS)


def main(argv: Sequence[str] | None = None) -> int:
    return rooted_main(argv, module="evaluation.blind17_truth", doc=__doc__ or "", questions=DEFAULT_QUESTIONS,
                       corpus=DEFAULT_CORPUS, compute=compute, check=check)


if __name__ == "__main__":
    sys.exit(main())
