"""Ask the blind evaluation set through ``POST /v1/ask`` and classify every answer.

``python -m evaluation.blind_score [--database procura_blind] [--corpus /tmp/blind-corpus] [--build]`` asks each
question of ``eval/blind/questions.yml`` through the in-process app (FastAPI ``TestClient``) with an API key of
the question's tenant and the question's as-of date, and classifies the answer from the response alone:

* ``exact``: the expected figure / rows / ids / document (and fact) are in the answer, with the expected
  completeness (a partial total must say partial, no data must say no data).
* ``clarification_ok``: a clarification where one is expected (or accepted) that is about the right point (it
  names the unknown span or asks about its kind: supplier, company, product group, product, period), or a
  not-found that names the unknown entity.
* ``clarification_wrong``: a clarification where an answer was expected, or one about another point.
* ``refusal``: not found / unsupported / failed where an answer (or a clarification) was expected.
* ``flagged_wrong``: a different answer that says it is partial or uncertain.
* ``silent_wrong``: a different figure, id set or document presented as complete (including a partial total
  presented as complete, "no data" where there is data, and passages offered for a document that does not exist).
* ``other``: the right document without the fact, and answers that fit no class above.
* ``error``: an HTTP error or a malformed response.

The report (``docs/eval/blind-report.md``) holds counts by class and by category only: per-question outcomes go to
a JSON file outside the repository (``--details``), so that the router is changed after reading failure classes,
never individual blind questions. The database must hold the demo corpus the questions were computed from
(``--build`` runs ``procura db up`` and ``procura demo run --corpus`` with ``PROCURA_DB_NAME`` set first).
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from evaluation import blind_truth

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPORT = ROOT / "docs" / "eval" / "blind-report.md"
DEFAULT_DETAILS = Path("/tmp/blind-eval-details.json")
CLASSES = ("exact", "clarification_ok", "clarification_wrong", "refusal", "flagged_wrong", "silent_wrong", "other",
           "error")
SCOPES = ("invoice:aggregate", "procurement:read")
_NUMBER = re.compile(r"(?<![\w.-])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.])-?\d+(?:\.\d+)?(?![\w])")
_IDS = {"SUP": re.compile(r"\bSUP-\d+\b"), "INV": re.compile(r"\bINV-\d{4}-\d{4}\b"), "PRD": re.compile(r"\bPRD-\d+\b")}
_CAVEAT = re.compile(r"\b(partial|incomplete|uncertain|missing|could not|not understood|approximat|assum|unclear)",
                     re.IGNORECASE)
_NO_DATA = re.compile(r"\bno (?:matching |validated |recognized |counted )?(?:data|invoices?|spend|lines?|rows?)\b|"
                      r"\bnone\b|\bno_data\b", re.IGNORECASE)
_NOT_FOUND = re.compile(r"not found|no (?:such )?document|does not exist|no (?:invoice|agreement|manual) "
                        r"(?:with|named|called)", re.IGNORECASE)

#: What a clarification must be about (one of these words, or the unknown name itself), by expected reason.
_TOPICS: dict[str, tuple[str, ...]] = {
    "unknown_supplier": ("supplier", "vendor"),
    "ambiguous_supplier": ("supplier", "vendor"),
    "unknown_company": ("company",),
    "unknown_category": ("product group", "category", "categories"),
    "unknown_product": ("product",),
    "missing_product": ("product",),
    "invalid_period": ("period", "quarter"),
}


@dataclass(frozen=True)
class Outcome:
    """The class of one answer and a short reason (kept out of the report)."""

    qid: str
    category: str
    klass: str
    reason: str
    status: str | None
    latency_ms: float


# -- reading an answer ------------------------------------------------------------------------------------------
def _leaves(value: Any) -> Iterable[Any]:
    if isinstance(value, Mapping):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _prose(text: str) -> str:
    """The answer text without its trailing source-id list (line ids carry digits that are not figures)."""
    return text.split("Sources:", 1)[0]


def numbers(answer: Mapping[str, Any]) -> set[Decimal]:
    """Every number in the answer's prose and ``result`` (thousands separators removed)."""
    found: set[Decimal] = set()
    chunks = [_prose(str(answer.get("text") or ""))]
    for leaf in _leaves(answer.get("result") or {}):
        if isinstance(leaf, bool):
            continue
        if isinstance(leaf, int | float | Decimal):
            found.add(Decimal(str(leaf)))
        elif isinstance(leaf, str) and len(leaf) < 40:
            chunks.append(leaf)
    for chunk in chunks:
        for raw in _NUMBER.findall(chunk):
            try:
                found.add(Decimal(raw.replace(",", "")))
            except InvalidOperation:
                continue
    return found


def _matches(expected: str, found: set[Decimal], *, accept_abs: bool = False) -> bool:
    want = Decimal(expected)
    exponent = want.as_tuple().exponent
    places = -exponent if isinstance(exponent, int) else 0
    targets = {want, abs(want)} if accept_abs else {want}
    for got in found:
        rounded = got.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP) if places else got
        if rounded in targets:
            return True
        if places == 4 and got.quantize(Decimal("0.01")) == got and \
                any(got == t.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) for t in targets):
            return True
    return False


def _count_in(answer: Mapping[str, Any], n: str, noun: str) -> bool:
    text = _prose(str(answer.get("text") or ""))
    if re.search(rf"(?<![\w.,-]){re.escape(n)}\s+(?:\w+\s+){{0,3}}{noun}", text, re.IGNORECASE):
        return True

    def walk(v: Any) -> bool:
        if isinstance(v, Mapping):
            for k, x in v.items():
                key = str(k).lower()
                if noun.rstrip("s") in key and ("count" in key or "number" in key or key.startswith("n_")) \
                        and not isinstance(x, bool) and str(x) == n:
                    return True
                if walk(x):
                    return True
        elif isinstance(v, list):
            return any(walk(x) for x in v)
        return False

    return walk(answer.get("result") or {})


def ids_in(answer: Mapping[str, Any], prefix: str) -> tuple[list[set[str]], set[str]]:
    """Id lists found in ``result`` (each list as a set) and the ids named in the prose."""
    pattern = _IDS[prefix]
    lists: list[set[str]] = []

    def walk(v: Any) -> None:
        if isinstance(v, Mapping):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            strings = [x for x in v if isinstance(x, str)]
            if strings and all(pattern.fullmatch(x) for x in strings):
                lists.append(set(strings))
            for x in v:
                if not isinstance(x, str):
                    walk(x)

    walk(answer.get("result") or {})
    prose = set(pattern.findall(_prose(str(answer.get("text") or ""))))
    return lists, prose


def _doc_ids(answer: Mapping[str, Any]) -> set[str]:
    ids = {c.get("document_id") for c in answer.get("citations") or [] if c.get("document_id")}
    ids |= {e.get("document_id") for e in answer.get("evidence") or [] if e.get("document_id")}
    return {i for i in ids if i}


def _cites(answer: Mapping[str, Any], document_id: str) -> bool:
    if document_id in _doc_ids(answer):
        return True
    pattern = re.compile(rf"^{re.escape(document_id)}(?:-line-\d+|-p\d+.*)?$")
    sources = [*(answer.get("sources") or []), *(c.get("source_id", "") for c in answer.get("citations") or [])]
    return any(pattern.match(s) for s in sources) or document_id in _prose(str(answer.get("text") or ""))


def _squash(text: str) -> str:
    return " ".join(text.split()).casefold()


def _texts(answer: Mapping[str, Any], document_id: str) -> str:
    """What the answer quotes from ``document_id``: its evidence snippets, else the prose when there is no evidence.

    Another document's passage does not count (two agreements can both say "runs for 3 years").
    """
    evidence = answer.get("evidence") or []
    if evidence:
        return _squash(" ".join(str(e.get("snippet") or "") for e in evidence if e.get("document_id") == document_id))
    return _squash(str(answer.get("text") or ""))


# -- classification -----------------------------------------------------------------------------------------------
def classify(q: Mapping[str, Any], http_status: int, body: Any) -> tuple[str, str, str | None]:
    """(class, reason, answer status) of one response to question ``q``."""
    if http_status != 200 or not isinstance(body, Mapping) or not isinstance(body.get("answer"), Mapping):
        return "error", f"HTTP {http_status}", None
    answer = body["answer"]
    status = str(answer.get("status"))
    text = str(answer.get("text") or "")
    exp = q["expected"]
    kind = exp["kind"]
    caveat = status == "partial" or bool(_CAVEAT.search(_prose(text)))

    if kind == "clarification":
        names = exp.get("names") or []
        if status == "clarification":
            asked = f"{answer.get('clarification_question') or ''} {text}".casefold()
            # a question may name its own topic words (blind2); else the reason's
            topic = tuple(exp.get("topics") or ()) or _TOPICS.get(str(exp.get("reason")), ())
            if any(n.casefold() in asked for n in names) or any(t.casefold() in asked for t in topic):
                return "clarification_ok", "clarification on the right point", status
            return "clarification_wrong", "clarification about something else", status
        if status == "not_found" and names and all(n.casefold() in text.casefold() for n in names):
            return "clarification_ok", "not found, naming the unknown entity", status
        if exp.get("accept_value") is not None and status in ("answered", "partial") and \
                _matches(str(exp["accept_value"]), numbers(answer)):
            # the intended figure: the system resolved a name the corpus files do not carry (blind2)
            return "exact", "the intended figure (accepted instead of a clarification)", status
        if status in ("answered", "partial", "no_data"):
            return ("flagged_wrong" if caveat else "silent_wrong"), f"answered ({status}) instead of asking", status
        return "refusal", f"{status} instead of a clarification", status

    if kind == "not_found":
        if status == "not_found" or (_NOT_FOUND.search(text) and not _cites(answer, exp["document_id"])):
            return "exact", "not found", status
        if status == "clarification":
            return "clarification_wrong", "clarification for a missing document", status
        if status in ("answered", "partial"):
            return "silent_wrong", "passages or an answer for a document that does not exist", status
        return "refusal", status, status

    # an answer is expected from here on
    if status == "clarification":
        if q.get("accept_clarification"):
            return "clarification_ok", "accepted clarification", status
        return "clarification_wrong", "clarification where an answer was expected", status
    if status in ("unsupported", "failed", "validation_failed"):
        return "refusal", status, status

    if kind == "document":
        cited = _cites(answer, exp["document_id"])
        if status == "not_found":
            return "refusal", "not found for an existing document", status
        said = _texts(answer, exp["document_id"])
        if exp.get("wrong_fact") and _squash(exp["wrong_fact"]) in said and \
                not (exp.get("fact") and _squash(exp["fact"]) in said):
            return "silent_wrong", "the statement of the version not in effect", status
        if not cited:
            return ("flagged_wrong" if caveat else "silent_wrong"), "expected document not cited", status
        if exp.get("fact") and _squash(exp["fact"]) not in said:
            return "other", "document cited, fact not in the text or snippets", status
        return "exact", "document (and fact)", status

    if kind == "figure":
        return _classify_figure(q, answer, status, caveat)
    if kind == "table":
        return _classify_table(q, answer, status, caveat)
    if kind == "list":
        return _classify_list(q, answer, status, caveat)
    if kind in _CLASSIFIERS2:
        return _CLASSIFIERS2[kind](q, answer, status, caveat)
    return "other", f"unknown expected kind {kind!r}", status


def _wrong(status: str, caveat: bool, reason: str) -> tuple[str, str, str]:
    return ("flagged_wrong" if caveat else "silent_wrong"), reason, status


def _classify_figure(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                     caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    if exp.get("value") is None:  # no data expected
        if status == "no_data" or (_NO_DATA.search(_prose(str(answer.get("text") or ""))) and status != "partial"):
            return "exact", "no data", status
        if status == "not_found":
            return "refusal", "not found where no data was expected", status
        return _wrong(status, caveat, "a figure where there is no data")
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where there is data")
    value = str(exp["value"])
    unit = exp.get("unit")
    if unit == "invoices":
        hit = _count_in(answer, value, "invoices")
    elif unit == "credit_notes":
        hit = _count_in(answer, value, "credit notes") or _count_in(answer, value, "notes") or \
            _count_in(answer, value, "documents")
    elif unit in ("lines", "suppliers"):  # counts of invoice lines / distinct suppliers (blind7), next to their noun
        hit = _count_in(answer, value, unit) or (unit == "suppliers" and _count_in(answer, value, "vendors"))
    elif "currency" not in exp:  # units
        # a bare small integer matches too much (dates, line counts): only a longer one counts without its noun
        hit = _count_in(answer, value, r"(?:units?|pieces|pcs|items|ea|sets?|m\b)") or \
            (_matches(value, numbers(answer)) and len(value) > 2)
    else:
        hit = _matches(value, numbers(answer), accept_abs=bool(q.get("accept_abs")))
    if not hit:
        return _wrong(status, caveat, "figure differs")
    if exp.get("status") == "partial" and not caveat:
        return "silent_wrong", "partial total presented as complete", status
    return "exact", "figure", status


def _classify_table(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                    caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where there is data")
    found = numbers(answer)
    text = _prose(str(answer.get("text") or ""))
    rows: Mapping[str, str] = exp["rows"]
    missing = []
    for key, value in rows.items():
        if "currency" in exp:
            ok = _matches(value, found)
        else:  # unit counts are small integers: require them next to their key
            ok = bool(re.search(rf"{re.escape(key)}\D{{0,40}}?(?<![\d.]){re.escape(value)}(?![\d.])", text))
        if not ok:
            missing.append(key)
    if missing:
        total_only = "currency" in exp and _matches(exp["total"], found)
        return _wrong(status, caveat, "breakdown missing (total only)" if total_only else "rows differ")
    if exp.get("missing") and not caveat:
        return "silent_wrong", "partial breakdown presented as complete", status
    return "exact", "all rows", status


def _classify_list(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                   caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    want = set(exp["ids"])
    prefix = next(iter(want))[:3] if want else ("INV" if q["spec"]["op"] == "above" else "SUP")
    lists, prose = ids_in(answer, prefix)
    if not want:
        if not prose and not any(lists):
            return "exact", "empty list", status
        return _wrong(status, caveat, "ids listed where none qualify")
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where ids qualify")
    if any(ids == want for ids in lists) or prose == want:
        return "exact", "id set", status
    return _wrong(status, caveat, "id set differs")


# -- the kinds of the second blind set (issue 22): rankings, shares, changes, currencies, two workflows ----------
_NO_BASE = re.compile(r"\bno (?:matching |counted |recognized )?(?:data|spend|invoices?|lines?|figures?|comparison|"
                      r"base)\b|not available|\bn/a\b|undefined|cannot be (?:computed|calculated)|not defined|"
                      r"no prior|nothing (?:was )?(?:spent|booked)", re.IGNORECASE)


def _decimals(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    return -exponent if isinstance(exponent, int) else 0


def _pct_in(percent: str, found: set[Decimal]) -> bool:
    """A percentage to 2 decimals, to 1 decimal, or as a fraction to 4 decimals (magnitude accepted)."""
    want = Decimal(percent)
    if _matches(percent, found, accept_abs=True):
        return True
    one = abs(want).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP)
    if any(abs(got) == one and _decimals(got) <= 1 for got in found):
        return True
    fraction = (want / 100).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
    return any(abs(got) == abs(fraction) for got in found)


def _key_sequences(value: Any, keys: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """For each list of records in ``result``, the expected keys its records name, in record order."""
    lookup = {k.casefold(): k for k in keys}
    for k, names in keys.items():
        for n in names:
            lookup.setdefault(n.casefold(), k)
    out: list[list[str]] = []

    def walk(v: Any) -> None:
        if isinstance(v, Mapping):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            if v and all(isinstance(x, Mapping | list) for x in v):
                seq = []
                for rec in v:
                    hit = next((lookup[str(leaf).casefold()] for leaf in _leaves(rec)
                                if isinstance(leaf, str) and str(leaf).casefold() in lookup), None)
                    if hit is not None:
                        seq.append(hit)
                if seq:
                    out.append(seq)
            for x in v:
                walk(x)

    walk(value)
    return out


def _classify_ranking(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                      caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where there is data")
    items = [(str(k), str(v)) for k, v in exp["items"]]
    keys = {k: list((exp.get("labels") or {}).get(k, [])) for k, _ in items}
    want = [k for k, _ in items]
    found = numbers(answer)
    values_ok = all(_matches(v, found) for _, v in items)
    ordered = any(seq[:len(want)] == want for seq in _key_sequences(answer.get("result") or {}, keys))
    if not ordered:
        prose = _prose(str(answer.get("text") or "")).casefold()
        positions = []
        for k in want:
            hits = [prose.find(n.casefold()) for n in [k, *keys[k]] if prose.find(n.casefold()) >= 0]
            positions.append(min(hits) if hits else -1)
        ordered = all(p >= 0 for p in positions) and positions == sorted(positions) and \
            len(set(positions)) == len(positions)
    if ordered and values_ok:
        return "exact", "ranking (order and values)", status
    if ordered:
        return _wrong(status, caveat, "ranking values differ")
    named = _prose(str(answer.get("text") or "")).casefold()
    if not any(n.casefold() in named for k in want for n in [k, *keys[k]]):
        return _wrong(status, caveat, "no ranking (none of the ranked entities named)")
    return _wrong(status, caveat, "ranking order or members differ")


def _classify_share(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                    caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    if exp.get("percent") is None:
        if _NO_BASE.search(_prose(str(answer.get("text") or ""))) or status == "no_data":
            return "exact", "no share (empty base)", status
        return _wrong(status, caveat, "a share where the base is empty")
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where there is data")
    found = numbers(answer)
    if _pct_in(str(exp["percent"]), found):
        return "exact", "share", status
    if _matches(str(exp["part"]), found) or _matches(str(exp["base"]), found):
        return _wrong(status, caveat, "share missing (figure only)")
    return _wrong(status, caveat, "share differs")


def _classify_change(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                     caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    found = numbers(answer)
    text = _prose(str(answer.get("text") or ""))
    if exp.get("delta") is None:  # the comparison period has no data: no change can be stated
        current_ok = exp.get("current") is None or _matches(str(exp["current"]), found)
        if current_ok and (_NO_BASE.search(text) or caveat):
            return "exact", "no data for the comparison period, said so", status
        return _wrong(status, caveat, "a change stated against an empty period" if current_ok
                      else "current figure differs")
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where there is data")
    delta_ok = _matches(str(exp["delta"]), found, accept_abs=True)
    pct_ok = exp.get("percent") is not None and _pct_in(str(exp["percent"]), found)
    want = exp.get("want", "both")
    ok = {"abs": delta_ok, "pct": pct_ok}.get(want, delta_ok and pct_ok)
    if ok:
        return "exact", f"change ({want})", status
    only_one = _matches(str(exp["current"]), found) and not _matches(str(exp["base"]), found)
    if only_one and not delta_ok:
        return _wrong(status, caveat, "one period only (no comparison)")
    return _wrong(status, caveat, "change differs")


def _classify_currency(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                       caveat: bool) -> tuple[str, str, str | None]:
    exp = q["expected"]
    if exp.get("reporting") is None:
        return _classify_figure({**q, "expected": {"value": None}}, answer, status, caveat)
    if status in ("no_data", "not_found"):
        return _wrong(status, caveat, f"{status} where there is data")
    found = numbers(answer)
    originals = all(_matches(str(v), found) for v in exp["rows"].values())
    reporting = _matches(str(exp["reporting"]), found)
    if originals and reporting:
        return "exact", "original currency and reporting currency", status
    if reporting:
        return _wrong(status, caveat, "original currency missing (reporting only)")
    return _wrong(status, caveat, "currency amounts differ")


def _classify_compound(q: Mapping[str, Any], answer: Mapping[str, Any], status: str,
                       caveat: bool) -> tuple[str, str, str | None]:
    parts = q["expected"]["parts"]
    specs = q["spec"].get("parts") or [{} for _ in parts]
    results = []
    for i, (part, spec) in enumerate(zip(parts, specs, strict=True)):
        sub = {**q, "expected": part, "spec": spec}
        klass, reason, _ = classify(sub, 200, {"answer": answer})
        results.append((i, klass, reason))
    bad = [(i, k, r) for i, k, r in results if k != "exact"]
    if not bad:
        return "exact", "every part of the two-workflow question", status
    i, klass, reason = bad[0]
    if any(k == "exact" for _, k, _ in results) and klass in ("silent_wrong", "flagged_wrong", "other"):
        return ("flagged_wrong" if caveat else "silent_wrong"), f"part {i + 1} missing or wrong: {reason}", status
    return klass, f"part {i + 1}: {reason}", status


_CLASSIFIERS2 = {"ranking": _classify_ranking, "share": _classify_share, "change": _classify_change,
                 "currency": _classify_currency, "compound": _classify_compound}


# -- running ------------------------------------------------------------------------------------------------------
def build_database(corpus: Path, database: str, *, seed: int = 42, scale: int = 1) -> None:
    """``procura db up`` and ``procura demo run --corpus`` against ``database``, with the question file's seed/scale."""
    env = {**os.environ, "PROCURA_DB_NAME": database}
    procura = str(Path(sys.executable).with_name("procura"))
    run = [procura, "demo", "run", "--corpus", str(corpus), "--seed", str(seed), "--scale", str(scale)]
    for cmd in ([procura, "db", "up"], run):
        subprocess.run(cmd, env=env, check=True, cwd=ROOT)


def ask_all(questions: Sequence[Mapping[str, Any]], database: str,
            progress: Any = print) -> list[tuple[Mapping[str, Any], int, Any, float]]:
    """Ask every question through the in-process app; returns (question, HTTP status, body, latency ms)."""
    import psycopg
    from fastapi.testclient import TestClient

    from api.main import create_app
    from procura.auth import create_key
    from procura.settings import Settings, get_settings

    os.environ["PROCURA_DB_NAME"] = database
    get_settings.cache_clear()  # the settings are read once per process: re-read them with the database set
    settings: Settings = get_settings()
    if settings.database_name != database:
        raise SystemExit(f"settings point at {settings.database_name!r}, not {database!r}")
    keys: dict[str, str] = {}
    with psycopg.connect(settings.owner_url, autocommit=True) as conn:
        for tenant in sorted({str(q["tenant"]) for q in questions}):
            keys[tenant] = create_key(conn, tenant_id=tenant, scopes=SCOPES, principal_id=f"blind-eval-{tenant}",
                                      rate_limit_per_minute=1_000_000).key
    out = []
    app = create_app(settings)
    with TestClient(app, raise_server_exceptions=False) as client:
        for i, q in enumerate(questions, start=1):
            started = time.perf_counter()
            try:
                response = client.post("/v1/ask", json={"question": q["question"], "as_of": str(q["as_of"])},
                                       headers={"Authorization": f"Bearer {keys[str(q['tenant'])]}"})
                status = response.status_code
                try:
                    body: Any = response.json()
                except ValueError:
                    body = None
            except Exception as exc:  # an exception of the app is an "error" outcome, not a crash of the run
                status, body = 599, {"error": repr(exc)}
            out.append((q, status, body, (time.perf_counter() - started) * 1000))
            if i % 25 == 0 or i == len(questions):
                progress(f"asked {i}/{len(questions)}")
    return out


def score(asked: Sequence[tuple[Mapping[str, Any], int, Any, float]]) -> list[Outcome]:
    return [Outcome(str(q["id"]), str(q["category"]), *classify(q, status, body), latency_ms=round(ms, 1))
            for q, status, body, ms in asked]


def render(outcomes: Sequence[Outcome], meta: Mapping[str, Any]) -> str:
    """The Markdown report: counts by class, then by category x class."""
    total = len(outcomes)
    by_class = Counter(o.klass for o in outcomes)
    cats = sorted({o.category for o in outcomes})
    lines = [
        f"# {meta.get('title', 'Blind evaluation report')}",
        "",
        f"Generated by `python -m evaluation.blind_score` on {meta['date']} against database `{meta['database']}` "
        f"(corpus `{meta['corpus']}`, seed {meta['seed']}, scale {meta['scale']}), git `{meta['commit']}`. "
        f"{total} questions from "
        f"`{meta.get('questions', 'eval/blind/questions.yml')}`, expected values computed from the raw corpus files "
        f"by `{meta.get('calculator', 'evaluation.blind_truth').replace('.', '/')}.py` (checked against the corpus "
        "before asking: "
        f"{meta['truth_differences']} differences). Tenants: {meta['tenants']}; {meta['accepting']} questions also "
        "accept a clarification (no company named).",
        "",
        "Per-question outcomes are deliberately not in this report (the router is changed after reading failure "
        "classes, never individual blind questions); they are written to the `--details` JSON outside the "
        "repository.",
        "",
        "## By class",
        "",
        "| class | count | share |",
        "|---|---:|---:|",
    ]
    for k in CLASSES:
        lines.append(f"| {k} | {by_class.get(k, 0)} | {100 * by_class.get(k, 0) / total:.1f} % |")
    ok = by_class.get("exact", 0) + by_class.get("clarification_ok", 0)
    lines += ["", f"Correct (exact + correct clarification): **{ok}/{total} ({100 * ok / total:.1f} %)**; "
              f"silent wrong: **{by_class.get('silent_wrong', 0)}**.", "",
              "## By category", "",
              "| category | n | " + " | ".join(CLASSES) + " |",
              "|---|---:|" + "---:|" * len(CLASSES)]
    for c in cats:
        sub = Counter(o.klass for o in outcomes if o.category == c)
        n = sum(sub.values())
        lines.append(f"| {c} | {n} | " + " | ".join(str(sub.get(k, 0)) for k in CLASSES) + " |")
    if meta.get("reasons", True):  # a question file may keep its report to class counts (blind2)
        reasons = Counter((o.klass, o.reason) for o in outcomes if o.klass not in ("exact", "clarification_ok"))
        lines += ["", "## Failure classes (reason as the scorer saw it, counts only)", "",
                  "| class | reason | count |", "|---|---|---:|"]
        for (k, r), n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])):
            lines.append(f"| {k} | {r} | {n} |")
    lat = sorted(o.latency_ms for o in outcomes)
    lines += ["", f"Latency per question (in-process, warm after the first): p50 {lat[len(lat) // 2]:.0f} ms, "
              f"p95 {lat[int(len(lat) * 0.95) - 1]:.0f} ms; elapsed {meta['elapsed_s']} s.", "",
              "## Classes", "",
              "- **exact**: the expected figure / all rows / the id set / the document (and the cited fact) with the "
              "expected completeness.",
              "- **clarification_ok**: a clarification where one is expected or accepted, about the right point "
              "(it names the unknown span or asks about its kind), or a not-found naming the unknown entity.",
              "- **clarification_wrong**: a clarification where an answer was expected, or one about another point.",
              "- **refusal**: not found / unsupported / failed where an answer was expected.",
              "- **flagged_wrong**: a different answer that says it is partial or uncertain.",
              "- **silent_wrong**: a different figure, id set or document presented as complete (incl. a partial "
              "total presented as complete, no data where there is data, passages for a missing document).",
              "- **other**: the right document without the cited fact.",
              "- **error**: HTTP error or malformed response.", ""]
    return "\n".join(lines)


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.blind_score", description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=blind_truth.DEFAULT_QUESTIONS)
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/blind-corpus"))
    parser.add_argument("--database", default=os.environ.get("PROCURA_DB_NAME", "procura_blind"))
    parser.add_argument("--build", action="store_true", help="run `procura db up` and `procura demo run` first")
    parser.add_argument("--report", type=Path, help=f"default: the question file's `report`, else {DEFAULT_REPORT}")
    parser.add_argument("--details", type=Path,
                        help="per-question outcomes (JSON; keep it outside the repository); default: the question "
                             f"file's `details`, else {DEFAULT_DETAILS}")
    parser.add_argument("--only", action="append", default=[], help="only these question ids (repeatable)")
    parser.add_argument("--rescore", type=Path, help="classify the answers stored in this details JSON again")
    args = parser.parse_args(argv)
    data = blind_truth.load_questions(args.questions)
    corpus_spec = data.get("corpus") or {}
    seed, scale = int(corpus_spec.get("seed", 42)), int(corpus_spec.get("scale", 1))
    if args.build:
        build_database(args.corpus, args.database, seed=seed, scale=scale)
    # a question file names its own calculator (the second set's adds rankings, shares, changes ...)
    calculator = importlib.import_module(str(data.get("calculator") or "evaluation.blind_truth"))
    args.report = args.report or (ROOT / data["report"] if data.get("report") else DEFAULT_REPORT)
    args.details = args.details or (Path(data["details"]) if data.get("details") else DEFAULT_DETAILS)
    differences = calculator.check(blind_truth.load(args.corpus), data)
    if differences:
        print("\n".join(differences))
        print("the corpus does not give the stored expected values; regenerate it with the file's seed/scale")
        return 2
    questions = [q for q in data["questions"] if not args.only or q["id"] in args.only]
    started = time.monotonic()
    if args.rescore:
        stored = {r["qid"]: r for r in json.loads(args.rescore.read_text(encoding="utf-8"))}
        asked = [(q, stored[q["id"]]["http_status"], {"answer": stored[q["id"]]["answer"]},
                  stored[q["id"]]["latency_ms"]) for q in questions]
    else:
        asked = ask_all(questions, args.database)
    outcomes = score(asked)
    meta = {"date": dt.date.today().isoformat(), "database": args.database, "corpus": str(args.corpus),
            "commit": _commit(), "seed": seed, "scale": scale, "truth_differences": len(differences),
            "tenants": ", ".join(f"{t} {n}" for t, n in sorted(Counter(str(q["tenant"]) for q in questions).items())),
            "accepting": sum(1 for q in questions if q.get("accept_clarification")),
            "questions": _relative(args.questions),
            "calculator": str(data.get("calculator") or "evaluation.blind_truth"),
            "title": str(data.get("title") or "Blind evaluation report"),
            "reasons": bool(data.get("report_reasons", True)),
            "elapsed_s": round(time.monotonic() - started, 1)}
    args.details.write_text(json.dumps(
        [{**o.__dict__, "question": q["question"], "expected": q["expected"], "http_status": st,
          "answer": (b or {}).get("answer") if isinstance(b, Mapping) else b}
         for o, (q, st, b, _) in zip(outcomes, asked, strict=True)], indent=1, default=str), encoding="utf-8")
    if not args.only:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(render(outcomes, meta), encoding="utf-8")
        print(f"wrote {args.report}")
    counts = Counter(o.klass for o in outcomes)
    print(", ".join(f"{k} {counts.get(k, 0)}" for k in CLASSES) + f" (of {len(outcomes)})")
    print(f"details: {args.details}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
