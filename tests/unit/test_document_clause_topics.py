"""Agreement-clause questions over every agreement of the demo corpus (two seeds): the passage ranked first by the
question's topic holds the clause, and its snippet quotes the fact.

Class (issue 20, document facts): a question about one clause of an agreement ("how long does it run", "two-signatory
threshold", "orders above what amount need 2 signatures", "price fix period", "Laufzeit?") must quote the sentence
stating the fact. The topic reader (retrieval.topics) drops the entity words; the remaining words, their
paraphrases and hyphen compounds split into words ("two-signatory" -> two, signatory) rank the agreement's
sections; "current", "now", "after" name the version in force (the search's valid_at), never a topic. Clause types
vary over the kinds the corpus's agreements carry (signing threshold, term, payment, notice, warranty, price fixing,
liability insurance, confidentiality, delivery acceptance), phrasings over English, shorthand and German, and
agreements over every agreement file (and the amended version) of each corpus.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from procura.demo import generate
from retrieval.passages import snippet
from retrieval.topics import sentence_score, topic_terms
from router.evidence import SNIPPET_CHARS, best_sentence_score

#: clause kind -> (the fact sentence's pattern, questions asking for it; {t}: the agreement's short title)
CLAUSES: dict[str, tuple[str, tuple[str, ...]]] = {
    "signatories": (r"Orders above [\d,]+ EUR require the approval of two authorised signatories", (
        "{t}: orders above what amount need 2 signatures", "{t} – current two-signatory threshold?",
        "{t} dual signature threshold", "from which order value does {t} require two signatories?")),
    "term": (r"runs for \d+ years from the effective date", (
        "{t} – how long does it run", "term of the {t}?", "how long does the {t} last", "{t} Laufzeit?",
        "when does {t} expire")),
    "payment": (r"Payment is due \d+ days net", (
        "{t} payment terms", "{t}: Zahlungsziel?", "when do we have to pay invoices under {t}")),
    "notice": (r"terminate with \d+ months notice", (
        "{t} notice period", "Kündigungsfrist {t}", "how much notice to terminate {t}?")),
    "warranty": (r"warranty period is \d+ months", (
        "{t} warranty", "how long is the warranty in {t}", "{t} Gewährleistung")),
    "prices": (r"Prices are fixed for the first \d+ months", (
        "{t} price fix period?", "how long are prices fixed under {t}")),
    "insurance": (r"product liability insurance of at least [\d,]+ EUR", (
        "{t}: minimum product liability insurance?", "{t} liability insurance amount")),
    "confidentiality": (r"confidential for \d+ years after its end", (
        "{t} confidentiality period", "how long must {t} terms be kept confidential")),
    "acceptance": (r"at the latest \d+ Business Days after delivery", (
        "{t}: acceptance after delivery within how many days?",)),
}


def _agreements() -> list[tuple[str, str, list[str]]]:
    """(document id, title, sections) of every agreement of the demo corpus for two seeds."""
    import tempfile

    out = []
    for seed in (42, 7):
        root = Path(tempfile.mkdtemp(prefix=f"agreements-{seed}-"))
        generate(root, seed=seed)
        for path in sorted(root.rglob("agreement-*.md")):
            text = path.read_text(encoding="utf-8")
            title = re.search(r"^title:\s*(.+)$", text, re.M)
            body = text.split("\n---\n", 1)[-1]
            sections = [s for s in re.split(r"\n(?=## )", body) if s.strip()]
            out.append((f"{seed}/{path.relative_to(root)}", title.group(1) if title else "", sections))
    return out


AGREEMENTS = _agreements()


def _short(title: str) -> str:
    """How a question names the agreement: its title up to the dash ("Cold Chain Equipment Agreement 2026-01")."""
    return re.split(r"\s+[—–-]\s+", title)[0]


def _cases() -> list[tuple[str, str, str, str]]:
    out = []
    for doc, title, sections in AGREEMENTS:
        body = "\n".join(sections)
        for kind, (fact, questions) in CLAUSES.items():
            if not re.search(fact, body):
                continue  # the agreement does not carry this clause
            for question in questions:
                out.append((doc, kind, question.format(t=_short(title)), title))
    return out


@pytest.mark.parametrize(("doc", "kind", "question", "title"), _cases())
def test_the_clause_is_ranked_first_and_quoted(doc: str, kind: str, question: str, title: str) -> None:
    sections = next(s for d, _, s in AGREEMENTS if d == doc)
    fact = re.compile(CLAUSES[kind][0])
    topic = topic_terms(question, [title])
    assert topic, question
    best = max(best_sentence_score(topic, s) for s in sections)
    top = [s for s in sections if best_sentence_score(topic, s) == best]
    assert any(fact.search(s) for s in top), (question, topic, [s[:60] for s in top])
    section = next(s for s in top if fact.search(s))
    cut = snippet(section, (0, len(section)), topic.text, max_chars=SNIPPET_CHARS,
                  score=lambda sentence: sentence_score(topic, sentence))
    assert fact.search(cut), (question, cut)


def test_every_clause_kind_is_probed() -> None:
    kinds = {kind for _, kind, _, _ in _cases()}
    assert kinds == set(CLAUSES)
    assert len({doc for doc, *_ in _cases()}) == len(AGREEMENTS) >= 12
