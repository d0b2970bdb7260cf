"""Golden cases of the lexical family."""

from __future__ import annotations

import re

from evaluation.golden_cases.common import CaseList
from evaluation.golden_cases.corpus import SEED_TENANT

LEXICAL_PHRASES = (
    "Incoterms 2020", "liquidated damages", "8D report", "consignment stock", "substances of very high concern",
    "scope 3 emission", "producer price index", "decontamination declaration", "blanking plug",
    "loop resistance", "EN 61326-1", "SELV", "ISO 9001", "Frankfurt am Main", "sanctions screening",
    "call-offs", "retrofit programme", "manifold", "thermal stabilisation", "condensate ingress",
    "differential pressure calibration", "monitoring controllers", "vibration-free surface", "ground loops",
    "nameplate", "professional secrecy", "supplier code of conduct", "packaging unit", "damping time",
    "status LED", "shielded twisted-pair", "IP67", "high-pressure cleaners", "mounting plate",
)


def lexical_cases(cases: CaseList) -> None:
    t = cases.corpus.tenants[SEED_TENANT]
    templates = ('Which documents mention "{p}"?', 'Find the passages containing "{p}".', 'Search for "{p}".',
                 'Where is "{p}" mentioned?')
    kept = 0
    for phrase in LEXICAL_PHRASES:
        hits = [
            {"document_id": doc_id, "page": pages[0]}
            for doc_id, doc in sorted(t.markdown.items())
            if (pages := doc.pages_containing(phrase))
        ]
        if not 1 <= len(hits) <= 4:
            continue  # too common (or absent) to make a meaningful recall test
        slug = re.sub(r"[^a-z0-9]+", "-", phrase.lower()).strip("-")
        cases.add(
            f"lexical-{slug}", "lexical", templates[kept % len(templates)].format(p=phrase),
            intents=["lexical"], tools=["documents.search"],
            answer={"kind": "passage", "ids": sorted(h["document_id"] for h in hits)}, sources=hits,
        )
        kept += 1
        if kept >= 18:
            break
