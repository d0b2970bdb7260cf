"""Status probes: questions about invoices by status, generated from slot grammars, asked through ``/v1/ask`` and
compared with the governed metric called directly with the slot values.

``python -m evaluation.probes_status [--database procura] [--seed 1] [--n 200] [--show wrong|all|none]
[--json out.json]`` fills frames (English and German, analyst and casual wording) with seeded slot values of the
demo vocabulary (``tenant-42``, seed 42, as of 2026-05-15): companies by name and id; suppliers by id, name, alias,
short name, legal-form-less name, case variant and one-edit typo; product groups by name; periods in every form;
the statuses in every wording ("cancelled", "canceled", "voided", "storniert"; "draft", "still in draft",
"unposted", "Entwurf"; "open", "unpaid", "posted but not yet paid", "outstanding"; "paid", "settled").

The classes (the expected answer is the governed metric's, called with these parameters):

* **excluded_value** / **excluded_count** / **excluded_both** / **excluded_list**: the value, the number, both,
  or which ones of a company's cancelled or draft invoices (optionally of one supplier or product group, in a
  period; a listing may name no period: the whole history up to the as-of date):
  ``finance.cancelled_draft_invoices`` (total, document count, and grouped by invoice number). Governed spend never
  counts these documents; the answer is over exactly them, labelled.
* **german**: the same in German ("stornierte Rechnungen", "Rechnungen im Entwurf", "Rechnungsentwürfe").
* **open_value**: the open (posted, not yet paid) or paid amount, with credit notes netted in, or invoices only:
  ``finance.company_spend`` with ``invoice_statuses`` (and ``document_types``).
* **open_list**: which invoices are open (or paid): ``finance.invoices_above_threshold`` with no amount bound.
* **by_status**: "paid vs posted, split by status": ``finance.company_spend`` grouped by ``invoice_status``.
* **spend_excludes**: plain spend (no status named) never includes cancelled or draft documents: the spend metric
  with its default statuses (a regression guard on the policy).

Outcomes are those of :func:`evaluation.probes_clarify.classify` (``exact`` when every figure and id of the direct
call is in the answer; ``silent_wrong`` when another answer is presented as complete), printed with the shared
:func:`evaluation.probes_clarify.outcome_table`. The seed picks frames and slot values: the router is fixed on
``--seed 1``; ``--seed 2`` is held out (only its counts are read, ``--show none``). Written from the slot grammar
alone, never from an evaluation question.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.constraint_probes import Call, _present
from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, finish, run_probes, shown
from evaluation.probes_clarify import AS_OF, COMPANIES, GROUPS, PERIODS, SUPPLIERS, TENANT, outcome_table

STATUS_METRIC = "finance.cancelled_draft_invoices"
LISTING_METRIC = "finance.invoices_above_threshold"
SPEND_METRIC = "finance.company_spend"
#: The classes of the generator, in table order.
KINDS = ("excluded_value", "excluded_count", "excluded_both", "excluded_list", "german", "open_value", "open_list",
         "by_status", "spend_excludes")
#: Wordings of the statuses governed spend never counts: (adjective before "invoices", predicate after them).
CANCELLED = (("cancelled", "that were cancelled"), ("canceled", "that have been canceled"),
             ("voided", "that were voided"), ("cancelled", "which have been cancelled"))
DRAFT = (("draft", "still in draft"), ("draft", "in draft status"), ("unposted", "that are still drafts"),
         ("draft", "not yet posted"))
#: Wordings of the recognized statuses: (adjective, the status parameter).
OPEN = (("open", "posted"), ("unpaid", "posted"), ("outstanding", "posted"), ("posted but not yet paid", "posted"),
        ("not yet paid", "posted"), ("still open", "posted"), ("paid", "paid"), ("settled", "paid"),
        ("already paid", "paid"))
#: German periods (phrase, start, end).
PERIODS_DE = (("im ersten Quartal 2026", "2026-01-01", "2026-04-01"), ("im Jahr 2025", "2025-01-01", "2026-01-01"),
              ("im Q4 2025", "2025-10-01", "2026-01-01"), ("im März 2026", "2026-03-01", "2026-04-01"))
_HISTORY = ("1990-01-01", "2026-05-16")


def _spelling(rng: random.Random, supplier: str) -> str:
    kinds = SUPPLIERS[supplier]
    return rng.choice(kinds[rng.choice(sorted(kinds))])


def _status_calls(params: dict[str, Any], value: bool, listing: bool) -> tuple[Call, ...]:
    calls = []
    if value:
        calls.append(Call(STATUS_METRIC, params, outputs=("total_amount", "document_count")))
    if listing:
        calls.append(Call(STATUS_METRIC, params, ("invoice_number",), outputs=()))
    if not value and not listing:
        calls.append(Call(STATUS_METRIC, params, outputs=("document_count",)))
    return tuple(calls)


def _excluded(rng: random.Random, kind: str) -> tuple[str, tuple[Call, ...]]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    status = rng.choice(("cancelled", "draft"))
    adjective, predicate = rng.choice(CANCELLED if status == "cancelled" else DRAFT)
    params: dict[str, Any] = {"company_id": company, "invoice_statuses": [status]}
    scope = rng.random()
    who = ""
    if scope < 0.3:
        supplier = rng.choice(sorted(SUPPLIERS))
        params["supplier_ids"] = [supplier]
        who = f" from {_spelling(rng, supplier)}"
    elif scope < 0.4:
        group = rng.choice(sorted(GROUPS))
        params["product_group_ids"] = list(GROUPS[group][1])
        who = f" for {rng.choice(GROUPS[group][0])}"
    unbounded = kind == "excluded_list" and rng.random() < 0.3
    p, start, end = ("", *_HISTORY) if unbounded else rng.choice(PERIODS)
    params |= {"start_date": start, "end_date": end}
    n = "invoices"
    frames: tuple[str, ...]
    if kind == "excluded_value":
        frames = (f"value of {adjective} {n} at {c}{who} {p}", f"{c}: total of {n}{who} {predicate}, {p}",
                  f"What were {c}'s {adjective} {n}{who} worth {p}?", f"sum of {adjective} {n}{who} for {c} {p}",
                  f"How much is in {c}'s {adjective} {n}{who} {p}?", f"{c} {adjective} {n}{who} {p} - how much?")
        return rng.choice(frames), _status_calls(params, True, False)
    if kind == "excluded_count":
        frames = (f"How many {adjective} {n} did {c} have{who} {p}?", f"number of {n}{who} {predicate} at {c} {p}",
                  f"{c}: count of {adjective} {n}{who}, {p}", f"How many {n}{who} {predicate} for {c} {p}?")
        return rng.choice(frames), _status_calls(params, False, False)
    if kind == "excluded_both":
        frames = (f"{c} {p}: how many {n}{who} were {adjective} and what were they worth?",
                  f"How many {adjective} {n} did {c} have{who} {p}, and what was their total value?",
                  f"number and value of {c}'s {adjective} {n}{who} {p}")
        return rng.choice(frames), _status_calls(params, True, False)
    frames = (f"which {n}{who} to {c} have been cancelled {p}?" if status == "cancelled" else
              f"which {n}{who} to {c} are still in draft {p}?",
              f"list {c}'s {adjective} {n}{who} {p}", f"which {adjective} {n} does {c} have{who} {p}?",
              f"{c} {adjective} {n}{who} {p} - which ones?")
    return rng.choice(frames), _status_calls(params, False, True)


def _german(rng: random.Random) -> tuple[str, tuple[Call, ...]]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS_DE)
    status = rng.choice(("cancelled", "draft"))
    params: dict[str, Any] = {"company_id": company, "invoice_statuses": [status], "start_date": start,
                              "end_date": end}
    if status == "cancelled":
        frames = ((f"Wie viele stornierte Rechnungen hatte {c} {p}?", False),
                  (f"Summe der stornierten Rechnungen von {c} {p}", True),
                  (f"Wert der stornierten Rechnungen bei {c} {p}", True))
    else:
        frames = ((f"Wie viele Rechnungsentwürfe hatte {c} {p}?", False),
                  (f"Summe der Rechnungen im Entwurf bei {c} {p}", True),
                  (f"Wie hoch sind die Rechnungsentwürfe von {c} {p}?", True))
    question, value = rng.choice(frames)
    return question, _status_calls(params, value, False)


def _open(rng: random.Random, kind: str) -> tuple[str, tuple[Call, ...]]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    word, status = rng.choice(OPEN)
    params: dict[str, Any] = {"company_id": company, "start_date": start, "end_date": end,
                              "invoice_statuses": [status]}
    who = ""
    if rng.random() < 0.3:
        supplier = rng.choice(sorted(SUPPLIERS))
        params["supplier_ids"] = [supplier]
        who = f" from {_spelling(rng, supplier)}"
    if kind == "open_list":
        params |= {"threshold": "0", "direction": "above", "inclusive": True}
        frames = (f"{c} {word} invoices{who} {p} - which ones?", f"which {word} invoices{who} does {c} have {p}?",
                  f"list {c}'s {word} invoices{who} {p}", f"show me the {word} invoices of {c}{who} {p}")
        return rng.choice(frames), (Call(LISTING_METRIC, params, outputs=("invoice_number",)),)
    tail = ""
    roll = rng.random()
    if roll < 0.25:
        params["document_types"] = ["invoice"]
        tail = rng.choice((" (invoices only, no credit notes)", ", excluding credit notes", ", invoices only"))
    elif roll < 0.45:
        tail = rng.choice((", credit notes netted in", " (credit notes included)", ", net of credit notes"))
    spend_word = "amount" if status == "posted" and rng.random() < 0.5 else "spend"
    frames = (f"{c} {word} {spend_word}{who} {p}{tail}", f"What is {c}'s {word} {spend_word}{who} {p}{tail}?",
              f"{c}: total of {word} invoices{who} {p}{tail}",
              # "how much of X's spend with S is paid" may be read as S's share: the supplier goes elsewhere
              f"How much of {c}'s spend {p} is {word}{tail}?" if not who else
              f"How much {word} spend does {c} have{who} {p}{tail}?")
    return rng.choice(frames), (Call(SPEND_METRIC, params),)


def _by_status(rng: random.Random) -> tuple[str, tuple[Call, ...]]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    params = {"company_id": company, "start_date": start, "end_date": end}
    frames = (f"{c} {p}: paid vs posted spend, split by status", f"{c} - paid vs posted (unpaid) spend {p}",
              f"{c} spend {p} by status", f"{c} spend {p}, paid versus posted", f"{c} spend per status {p}",
              f"{c} {p} spend split by invoice status")
    return rng.choice(frames), (Call(SPEND_METRIC, params, ("invoice_status",)),)


def _spend_excludes(rng: random.Random) -> tuple[str, tuple[Call, ...]]:
    company = rng.choice(sorted(COMPANIES))
    c = rng.choice(COMPANIES[company]).removesuffix("'s")
    p, start, end = rng.choice(PERIODS)
    frames = (f"{c} spend {p} excluding drafts", f"{c} spend {p}, cancelled invoices excluded",
              f"What did {c} spend {p} (without draft or cancelled invoices)?", f"{c} total spend {p}")
    return rng.choice(frames), (Call(SPEND_METRIC, {"company_id": company, "start_date": start, "end_date": end}),)


@dataclass(frozen=True)
class StatusProbe:
    """One generated question, its class, and every governed call whose figures and ids the answer must hold."""

    klass: str
    question: str
    calls: tuple[Call, ...]


def probes(seed: int, n: int = 200, kinds: Sequence[str] = KINDS) -> list[StatusProbe]:
    """``n`` status questions of the given classes: seeded frames and slot values, duplicates dropped."""
    rng = random.Random(seed * 11 + 5)
    found: list[StatusProbe] = []
    seen: set[str] = set()
    tries = 0
    while len(found) < n and tries < n * 50:
        tries += 1
        kind = rng.choice(tuple(kinds))
        if kind.startswith("excluded"):
            question, calls = _excluded(rng, kind)
        elif kind == "german":
            question, calls = _german(rng)
        elif kind.startswith("open"):
            question, calls = _open(rng, kind)
        elif kind == "by_status":
            question, calls = _by_status(rng)
        else:
            question, calls = _spend_excludes(rng)
        question = " ".join(question.split())
        question = question[:1].upper() + question[1:]
        if question in seen:
            continue
        seen.add(question)
        found.append(StatusProbe(kind, question, calls))
    return found


_INVOICE_ID = re.compile(r"\bINV-\d{4}-\d{4}\b")


def _count_in(n: str, text: str) -> bool:
    """A document count next to its noun ("2 cancelled invoices", "1 draft invoice"), not any digit."""
    return bool(re.search(rf"(?<![\w.,-]){re.escape(n)}\s+(?:[\w(),-]+\s+){{0,5}}?(?:invoices?|documents?|credit "
                          r"notes?|drafts?)\b", text, re.I))


@dataclass(frozen=True)
class Expected:
    """What one governed call says the answer must hold: figures, a document count, an exact id set; or none."""

    tokens: tuple[str, ...] = ()
    count: str | None = None
    ids: frozenset[str] | None = None
    no_data: bool = False


def expected_of(call: Call, result: Mapping[str, Any]) -> Expected:
    """The expectation of one direct call's result (money and dimension values, the count, the listed ids)."""
    rows = [r.get("values") or {} for r in result.get("rows") or ()]
    if call.metric == LISTING_METRIC:
        return Expected(ids=frozenset(str(r["invoice_number"]) for r in rows), no_data=not rows)
    if call.metric == STATUS_METRIC and "invoice_number" in call.group_by:
        return Expected(ids=frozenset(str(r["invoice_number"]) for r in rows), no_data=not rows)
    matched = [r for r in rows if str(r.get("matched_line_count", "1")) != "0"]
    if not matched:
        return Expected(no_data=True)
    tokens = [str(r[d]) for r in matched for d in call.group_by if r.get(d) is not None]
    tokens += [str(r[o]) for r in matched for o in call.outputs if o != "document_count" and r.get(o) is not None]
    count = str(matched[0]["document_count"]) if "document_count" in call.outputs and not call.group_by else None
    return Expected(tokens=tuple(tokens), count=count)


def classify(status: str, text: str, expected: Sequence[Expected]) -> str:
    """``exact`` when every expectation holds (no data said as such; an id set listed exactly), else the class
    of the miss (see :data:`evaluation.probes_clarify.CLASSES`)."""
    if status == "clarification":
        return "false_clar"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    prose = text.split(" Sources:")[0]
    ok = True
    for e in expected:
        if e.no_data:
            ok = ok and (status == "no_data" or bool(re.search(r"\bno (?:data|matching|\w+ invoices?)\b|\bnone\b",
                                                                prose, re.I)))
            continue
        ok = ok and all(_present(t, prose) for t in e.tokens)
        if e.count is not None:
            ok = ok and _count_in(e.count, prose)
        if e.ids is not None:
            ok = ok and set(_INVOICE_ID.findall(prose)) == set(e.ids)
    if ok:
        return "exact"
    return "flagged" if "PARTIAL" in prose or status == "partial" else "silent_wrong"


def run(database: str, found: Sequence[StatusProbe], show: str = "wrong") -> Counter[tuple[str, str]]:
    """Ask every probe through ``/v1/ask`` and compare with its governed calls made directly (tenant-42)."""
    def check(session: ProbeClient, probe: StatusProbe) -> Checked:
        expected = [expected_of(call, session.direct(call, probe.question)) for call in probe.calls]
        status, text, _ = session.ask(probe.question, AS_OF)
        outcome = classify(status, text, expected)
        return Checked(probe.klass, outcome, shown(probe.klass, outcome, probe.question, expected, status, text))

    return run_probes(database, "probes-status", (TENANT,), found, check, show)


def table(counts: Counter[tuple[str, str]]) -> str:
    return outcome_table(counts, KINDS, label="class", width=15, column=16)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__, count=("--n", 200), select=("--kind", KINDS), select_help="classes to ask (default: all)",
                     counts_file=True).parse_args(argv)
    counts = run(args.database, probes(args.seed, args.n, args.kind or KINDS), args.show)
    finish(counts, table(counts), args.json)


if __name__ == "__main__":
    main()


__all__ = ["KINDS", "StatusProbe", "classify", "expected_of", "probes"]
