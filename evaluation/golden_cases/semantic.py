"""Golden cases of the semantic family."""

from __future__ import annotations

import re

from evaluation.golden_cases.common import CaseList
from evaluation.golden_cases.corpus import SEED_TENANT, MarkdownDoc

AGREEMENT_FACTS: tuple[tuple[str, str, str], ...] = (
    ("warranty", r"warranty period is (\d+ months)", "How long is the warranty period in {co}'s agreement?"),
    ("payment", r"Payment is due (\d+ days net)", "What are the payment terms in {co}'s framework agreement?"),
    ("insurance", r"product liability insurance of at least ([\d,]+ EUR)",
     "How much product liability insurance must the vendors of {co} carry?"),
    ("confidentiality", r"confidential for (\d+ years) after its end",
     "For how long must the terms of {co}'s agreement be kept confidential?"),
    ("termination", r"terminate with (\d+ months) notice",
     "What notice period applies when terminating {co}'s supply agreement?"),
    ("late-delivery", r"liquidated damages of ([\d.]+ %) of the Order value",
     "What compensation does {co} receive for late deliveries?"),
    ("audit", r"once per year with (\d+ days) notice", "How much notice does {co} give before a supplier audit?"),
)

MANUAL_FACTS: tuple[tuple[str, str, str], ...] = (
    ("calibration", r"every (\d+ months)", "How often should the {designation} be calibrated?"),
    ("inspection", r"visually every (\d+ months)", "How often should the {designation} be inspected for damage?"),
    ("storage", r"Storage temperature range is (-?\d+ °C to -?\d+ °C)",
     "At what temperature should the {designation} be stored?"),
)


def _designation(doc: MarkdownDoc) -> str:
    # "PRD-482 Differential Pressure Sensor — Installation..." -> "differential pressure sensor"
    head = doc.title.split("—")[0]
    words = [w for w in head.split() if not re.match(r"^PRD-\d+$", w) and w != "and"]
    # model names and designations with digits keep their case (PT100, PS-Z1)
    return " ".join(w if re.search(r"\d", w) else w.lower() for w in words).strip()


def _fact_in_section(doc: MarkdownDoc, label: str, pattern: str) -> tuple[str, int] | None:
    if label == "calibration":
        # the interval lives in section 7.3; other sections use "every N months" too
        section = re.compile(r"### 7\.3[^\n]*\n(?:.*\n)*?.*?every (\d+ months)", re.MULTILINE)
        found = doc.find(section)
    else:
        found = doc.find(pattern)
    if found is None:
        return None
    match, page = found
    return match.group(1), page


def semantic_cases(cases: CaseList) -> None:
    t = cases.corpus.tenants[SEED_TENANT]
    agreements = {doc.front["company_id"]: doc for doc in t.markdown.values() if doc.document_type == "agreement"}
    for company_id in sorted(agreements):
        doc = agreements[company_id]
        company = t.companies[company_id]
        for label, pattern, template in AGREEMENT_FACTS:
            found = doc.find(pattern)
            if found is None:
                continue
            match, page = found
            cases.add(
                f"semantic-{company_id.lower()}-{label}", "semantic", template.format(co=company),
                intents=["semantic"], entities={"company_ids": [company_id]}, tools=["documents.search"],
                answer={"kind": "passage", "ids": [doc.document_id], "must_contain": [match.group(1)]},
                sources=[{"document_id": doc.document_id, "page": page}],
                notes="served version is the amendment" if doc.document_id == "agreement-2025-09" else None,
            )
    for document_id, doc in sorted(t.markdown.items()):
        if doc.document_type != "product_manual":
            continue
        designation = _designation(doc)
        codes = [c.strip() for c in doc.front["product_codes"].strip("[]").split(",")]
        for label, pattern, template in MANUAL_FACTS:
            fact = _fact_in_section(doc, label, pattern)
            if fact is None:
                continue
            value, page = fact
            cases.add(
                f"semantic-{document_id}-{label}", "semantic", template.format(designation=designation),
                intents=["semantic"], tools=["documents.search"],
                answer={"kind": "passage", "ids": [document_id], "must_contain": [value]},
                sources=[{"document_id": document_id, "page": page}],
                notes=f"manual of {', '.join(codes)}",
            )
