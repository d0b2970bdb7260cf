"""Manual facts whose passage was cut before the fact (class: agreement and manual documents, snippet choice).

Over every manual of the demo corpus (two seeds): a question for the housing clearance (English, German compounds
such as "Mindestabstand", the product named by its designation or name) ranks the section holding "minimum
clearance of N mm" first and its snippet quotes it; a question for a calibration's acceptance criterion ("pass
criteria", "tolerance", "Abnahmekriterium") ranks a sentence stating the bound ("within ±0.25 % of span", "the
acceptance limit is ±0.5 %") above the interval sentence. The search refocuses on the one manual its hits name
(router/evidence.py) only when the question asks a fact, names no identifier and the hits hold exactly that manual.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from procura.demo import generate
from retrieval.passages import snippet
from retrieval.topics import sentence_score, topic_terms
from router import evidence
from router.evidence import SNIPPET_CHARS, best_sentence_score
from router.tools import DocumentSearchRequest, EvidenceChunk


def _manuals() -> list[tuple[str, str, str, list[str]]]:
    """(file, product code, product name, sections) of every manual of the demo corpus for two seeds."""
    out = []
    for seed in (42, 7):
        root = Path(tempfile.mkdtemp(prefix=f"manuals-{seed}-"))
        generate(root, seed=seed)
        for path in sorted(root.rglob("manual-*.md")):
            text = path.read_text(encoding="utf-8")
            title = re.search(r"^title:\s*(.+)$", text, re.M)
            name = re.split(r"\s+[—–-]\s+", title.group(1))[0] if title else ""
            code = "PRD-" + path.stem.split("-")[-1]
            body = text.split("\n---\n", 1)[-1]
            out.append((f"{seed}/{path.name}", code, name, [s for s in re.split(r"\n(?=## )", body) if s.strip()]))
    return out


MANUALS = _manuals()
CLEARANCE = ("{name} – Mindestabstand rund ums Gehäuse?", "minimum clearance around the {name} housing?",
             "{code}: Abstand ums Gehäuse?", "how much clearance does the {name} need")
ACCEPTANCE = ("What is the acceptance criterion for the {code} calibration?", "pass criteria of the {name} calibration",
              "Abnahmekriterium Kalibrierung {code}", "{code} calibration tolerance?")


@pytest.mark.parametrize(("doc", "code", "name", "question"), [
    (doc, code, name, q) for doc, code, name, sections in MANUALS for q in CLEARANCE
    if any(re.search(r"clearance of \d+ mm", s) for s in sections)])
def test_the_clearance_section_ranks_first_and_is_quoted(doc: str, code: str, name: str, question: str) -> None:
    sections = next(s for d, _, _, s in MANUALS if d == doc)
    topic = topic_terms(question.format(name=name, code=code), [name])
    ranked = sorted(sections, key=lambda s: -best_sentence_score(topic, s))
    assert re.search(r"clearance of \d+ mm", ranked[0]), (doc, question, topic)
    quoted = snippet(ranked[0], (0, len(ranked[0])), topic.text, max_chars=SNIPPET_CHARS,
                     score=lambda sentence: sentence_score(topic, sentence))
    assert re.search(r"clearance of \d+ mm", quoted)


@pytest.mark.parametrize(("doc", "code", "name", "question"), [
    (doc, code, name, q) for doc, code, name, sections in MANUALS for q in ACCEPTANCE
    if any("within ±" in s for s in sections)])
def test_the_acceptance_bound_outranks_the_interval(doc: str, code: str, name: str, question: str) -> None:
    sections = next(s for d, _, _, s in MANUALS if d == doc)
    sentences = [x for s in sections for x in re.split(r"(?<=[.!?;:])\s+(?=\d|[A-Z])|\n+", s) if x.strip()]
    topic = topic_terms(question.format(name=name, code=code), [name])
    best = max(sentences, key=lambda x: sentence_score(topic, x))
    assert re.search(r"±\s*\d", best), (question, topic, best)


def _result(doc: str, kind: str, text: str = "x") -> Any:
    return SimpleNamespace(document_id=doc, document_type=kind, title=None, text=text)


@pytest.mark.parametrize(("query", "codes", "results", "refocused"), [
    ("Schaltschrank 800x600 – Mindestabstand rund ums Gehäuse?", (),
     [("products", "catalog"), ("manual-prd-701", "product_manual"), ("manual-prd-701", "product_manual")], True),
    ("Schaltschrank 800x600 – Mindestabstand?", ("PRD-701",),
     [("manual-prd-701", "product_manual"), ("manual-prd-701", "product_manual")], False),
    ("Mindestabstand rund ums Gehäuse?", (),
     [("manual-prd-701", "product_manual"), ("manual-prd-482", "product_manual")], False),
    ("Schaltschrank 800x600 bitte", (),
     [("manual-prd-701", "product_manual"), ("manual-prd-701", "product_manual")], False),
    ("minimum clearance?", (), [("products", "catalog"), ("manual-prd-701", "product_manual")], False),
])
def test_refocus_on_the_one_manual_found(monkeypatch: pytest.MonkeyPatch, query: str, codes: tuple[str, ...],
                                         results: list[tuple[str, str]], refocused: bool) -> None:
    fact = EvidenceChunk(chunk_id="manual-prd-701-p02-c02", document_id="manual-prd-701",
                         text="Keep a minimum clearance of 80 mm around the housing.")
    monkeypatch.setattr(evidence, "_focused_search", lambda *a, **k: [fact])
    req = DocumentSearchRequest.model_validate({"query_text": query, "identifiers": {"product_codes": list(codes)}})
    out = evidence._one_manual_focus(None, None, req, [_result(d, k) for d, k in results], None, 1000)  # type: ignore[arg-type]
    assert (out == [fact]) is refocused
