"""What every case family shares: the case list, periods and their phrasings, answers with sources."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.errors import GoldenSetError
from evaluation.golden_cases.corpus import DEFAULT_STATUSES, SEED_TENANT, Corpus, TenantData

_ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}


@dataclass(frozen=True)
class Period:
    """A half-open period and the ways a user may say it."""

    start: dt.date
    end: dt.date

    @classmethod
    def quarter(cls, year: int, q: int) -> Period:
        start = dt.date(year, 3 * q - 2, 1)
        end = dt.date(year + (q == 4), 1 if q == 4 else 3 * q + 1, 1)
        return cls(start, end)

    @classmethod
    def month(cls, year: int, month: int) -> Period:
        end = dt.date(year + (month == 12), 1 if month == 12 else month + 1, 1)
        return cls(dt.date(year, month, 1), end)

    @classmethod
    def parse(cls, start: str, end: str) -> Period:
        return cls(dt.date.fromisoformat(start), dt.date.fromisoformat(end))

    @property
    def q(self) -> int:
        return (self.start.month - 1) // 3 + 1

    def iso_q(self) -> str:
        return f"{self.start.year}-Q{self.q}"

    def q_year(self) -> str:
        return f"Q{self.q} {self.start.year}"

    def words(self) -> str:
        return f"the {_ORDINAL[self.q]} quarter of {self.start.year}"

    def explicit(self) -> str:
        return f"from {self.start.isoformat()} to before {self.end.isoformat()}"

    def month_name(self) -> str:
        return self.start.strftime("%B %Y")

    def as_dict(self) -> dict[str, str]:
        return {"start": self.start.isoformat(), "end": self.end.isoformat()}


def _lines_to_sources(line_ids: Iterable[str]) -> list[dict[str, Any]]:
    """Group ``<document_id>-line-NN`` ids into one source per document."""
    by_doc: dict[str, list[str]] = {}
    for line_id in sorted(line_ids):
        document_id = re.sub(r"-line-\d+$", "", line_id)
        by_doc.setdefault(document_id, []).append(line_id)
    return [{"document_id": doc, "line_ids": ids} for doc, ids in sorted(by_doc.items())]


def _aggregate_constraints(period: Period | None, currency: str = "EUR") -> dict[str, Any]:
    out: dict[str, Any] = {"invoice_statuses": list(DEFAULT_STATUSES), "reporting_currency": currency}
    if period is not None:
        out["time_range"] = period.as_dict()
    return out


def _clean(obj: Any) -> Any:
    """Drop empty values so the YAML stays readable (defaults fill them back in)."""
    if isinstance(obj, Mapping):
        return {k: _clean(v) for k, v in obj.items() if v not in (None, [], (), {}) or k in _KEEP_EMPTY}
    if isinstance(obj, list | tuple):
        return [_clean(v) for v in obj]
    return obj


_KEEP_EMPTY = {"requires_clarification"}


class CaseList:
    """Accumulates cases; ids must be unique."""

    def __init__(self, corpus: Corpus) -> None:
        self.corpus = corpus
        self.cases: list[dict[str, Any]] = []
        self._ids: set[str] = set()

    def add(
        self,
        case_id: str,
        category: str,
        question: str,
        *,
        intents: Sequence[str],
        tenant: str = SEED_TENANT,
        as_of: dt.date | None = None,
        outcome: str = "answer",
        accept: Sequence[str] = (),
        optional: Sequence[str] = (),
        topic: str | None = None,
        entities: Mapping[str, Any] | None = None,
        constraints: Mapping[str, Any] | None = None,
        tools: Sequence[str] = (),
        max_steps: int | None = None,
        answer: Mapping[str, Any] | None = None,
        sources: Sequence[Mapping[str, Any]] = (),
        must_not: Sequence[str] = (),
        same_plan_as: str | None = None,
        scopes: Sequence[str] | None = None,
        notes: str | None = None,
    ) -> str:
        if case_id in self._ids:
            raise GoldenSetError(f"duplicate case id {case_id!r}")
        self._ids.add(case_id)
        if outcome == "clarification" and max_steps is None:
            max_steps = 0  # a clarification stops execution: nothing may run
        case: dict[str, Any] = {
            "id": case_id,
            "category": category,
            "tenant_id": tenant,
            "as_of": (as_of or self.corpus.as_of).isoformat(),
            "question": question,
            "expected": {
                "outcome": outcome,
                "accept_outcomes": list(accept),
                "intents": list(intents),
                "optional_intents": list(optional),
                "requires_clarification": outcome == "clarification",
                "clarification_topic": topic,
                "entities": dict(entities or {}),
                "constraints": dict(constraints or {}),
                "plan": {"required_tools": list(tools), "max_steps": max_steps},
                "answer": dict(answer) if answer else None,
                "sources": [dict(s) for s in sources],
                "must_not_contain": list(must_not),
                "same_plan_as": same_plan_as,
            },
            "notes": notes,
        }
        if scopes is not None:
            case["principal_scopes"] = list(scopes)
        self.cases.append(_clean(case))
        return case_id


def _money_answer(question: dict[str, Any], field_path: str = "expected.total_spend", *,
                  status: bool = True, ids_from: str | None = None) -> dict[str, Any]:
    expected = question["expected"]
    value = expected
    for part in field_path.split(".")[1:]:
        value = value[part]
    answer: dict[str, Any] = {
        "kind": "money",
        "value": value,
        "currency": expected.get("currency", "EUR"),
        "ground_truth": {"question": question["name"], "field": field_path},
    }
    if status and "status" in expected:
        answer["status"] = expected["status"]
        answer["missing_ids"] = expected.get("missing_supplier_ids", [])
    if ids_from:
        answer["ids"] = expected[ids_from]
    return answer


def _pii_of(t: TenantData, supplier_id: str) -> list[str]:
    s = t.suppliers[supplier_id]
    return [v for v in (s.get("iban"), s.get("contact_email")) if v]


def _other_tenant_product_names(corpus: Corpus, tenant_id: str, code: str) -> list[str]:
    own = corpus.tenants[tenant_id].products[code]["product_name"]
    names = {
        other.products[code]["product_name"]
        for tid, other in corpus.tenants.items()
        if tid != tenant_id and code in other.products
    }
    return sorted(n for n in names if n != own and n not in own)
