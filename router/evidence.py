"""The ``documents.search`` backend: :func:`retrieval.search` mapped onto the router's evidence model."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Literal

import psycopg
from psycopg import errors as pg_errors

from procura.db.session import AuthContext
from retrieval.passages import Hit, Segment, merge_passages, snippet
from retrieval.topics import Topic, fact_words, sentence_score, topic_terms
from router.errors import ToolFailedError, ToolTimeoutError
from router.manual_asks import PRODUCT_DOCUMENT_WORDS
from router.tools import DocumentSearchRequest, EvidenceChunk


def retrieval_search(
    conn: psycopg.Connection, ctx: AuthContext, req: DocumentSearchRequest, embedder: Any, timeout_ms: int
) -> list[EvidenceChunk]:
    """Run the hybrid search for ``ctx``'s tenant and return its chunks as evidence (text stays untrusted).

    Raises:
        ToolTimeoutError: the search hit its statement timeout (retryable).
        ToolFailedError: the retrieval service refused or failed (scope, index not ready, bad request).
    """
    from pydantic import ValidationError

    from ingest.normalize import normalize_identifier
    from retrieval import Filters, Identifiers, RetrievalConfig, SearchRequest, search
    from retrieval.errors import RetrievalError

    modes = tuple(m for m in req.retrieval_modes if m != "vector" or embedder is not None)
    # Identifiers the exact index cannot key (e.g. a credit-note number "CN-2026-0007") are still in the query
    # text: they are searched lexically instead of failing the whole lookup.
    known = {
        kind: tuple(v for v in values if normalize_identifier(kind, v) is not None)
        for kind, values in (("product_code", req.identifiers.product_codes),
                             ("invoice_number", req.identifiers.invoice_numbers),
                             ("contract_id", req.identifiers.contract_ids))
    }
    unkeyed = sum(len(v) for v in (req.identifiers.product_codes, req.identifiers.invoice_numbers,
                                   req.identifiers.contract_ids)) - sum(len(v) for v in known.values())
    # A credit-note number names its one document: the search stays in it, so a number no document carries finds
    # nothing ("not found"), never the passages of other credit notes that share the words "credit note".
    document_ids = req.filters.document_ids or credit_note_documents(req.identifiers.invoice_numbers, known) or ()
    if unkeyed and "bm25" not in modes:
        modes = (*modes, "bm25")
    if not modes:
        modes = ("bm25",)
    focused = _focused_search(conn, ctx, req, embedder, timeout_ms)
    if focused is not None:
        return focused
    try:
        request = SearchRequest(
            query_text=req.query_text,
            identifiers=Identifiers(
                product_codes=known["product_code"],
                invoice_numbers=known["invoice_number"],
                contract_ids=known["contract_id"],
            ),
            retrieval_modes=modes,
            filters=Filters.model_validate({
                "document_types": req.filters.document_types,
                "document_ids": document_ids,
                "valid_at": req.filters.valid_at,
                "company_ids": req.filters.company_ids,
                "phrases": req.filters.phrases,
            }),
            # Design note: the phrase filter is a predicate inside every branch; more matches are fetched than
            # shown so that the per-document ordering below can put one passage of each document first.
            limit=max(req.limit, PHRASE_DEPTH) if req.filters.phrases else req.limit,
        )
    except ValidationError as exc:
        raise ToolFailedError(f"documents.search: invalid request: {exc.errors()[0]['msg']}") from exc
    config = replace(RetrievalConfig(), statement_timeout_ms=timeout_ms)
    try:
        response = search(conn, ctx, request, embedder, config=config)
    except pg_errors.QueryCanceled as exc:
        raise ToolTimeoutError(f"documents.search exceeded {timeout_ms} ms") from exc
    except RetrievalError as exc:
        raise ToolFailedError(f"documents.search: {exc}") from exc
    results = list(response.results)
    if req.filters.phrases:
        results = _one_per_document_first(results, req.limit)
    refocused = _one_manual_focus(conn, ctx, req, results, embedder, timeout_ms)
    if refocused is not None:
        return refocused
    # a chunk rebuilt from a version in force on valid_at has no indexed siblings: it is shown on its own
    sections = _sections(conn, ctx, [(r.document_id, r.document_version, r.chunk_id) for r in results
                                     if not r.in_force_version], timeout_ms)
    return [
        EvidenceChunk(
            chunk_id=r.chunk_id,
            document_id=r.document_id,
            document_version=r.document_version,
            page=r.page,
            text=passage.text,
            score=float(r.fused_score),
            exact_match=r.identity_match is not None,
            flagged_injection=bool(r.suspected_prompt_injection),
        )
        for r, passage in _passages(results, sections, req.query_text)
    ]


#: A credit-note number as the reader keeps it ("CN-2026-0042"; "cn_2026_0042" as typed).
_CREDIT_NOTE_NUMBER = re.compile(r"^CN[-_ ]?(\d{4})[-_ ]?(\d{1,6})$", re.I)


def credit_note_documents(numbers: Any, known: dict[str, tuple[str, ...]]) -> list[str] | None:
    """The document ids of the credit-note numbers a lookup names, when those are all it names (nothing keyed):
    ``CN-2026-0042`` is the document ``credit-note-2026-0042``; ``None`` otherwise (the search is left as it is).

    >>> credit_note_documents(["CN-2026-0042"], {"invoice_number": ()})
    ['credit-note-2026-0042']
    >>> credit_note_documents(["CN-2026-0042", "INV-2026-0148"], {"invoice_number": ("INV-2026-0148",)}) is None
    True
    """
    found = [_CREDIT_NOTE_NUMBER.match(str(n)) for n in numbers or ()]
    if not found or not all(found) or any(known.values()):
        return None
    return list(dict.fromkeys(f"credit-note-{m.group(1)}-{m.group(2)}" for m in found if m))


#: Bound of a passage's snippet: the answer's snippet length less its two ellipses, so it is shown uncut.
SNIPPET_CHARS = 898


def _passages(results: list[Any], sections: dict[str, list[Segment]], query: str,
              topic: Topic | None = None) -> list[tuple[Any, Any]]:
    """(result, passage) per result that is not merged into an earlier one: no text repeats across passages, and
    each passage is cut around its own chunk (retrieval.passages)."""
    hits = [
        Hit(r.document_id, r.document_version, r.chunk_id,
            (tuple(sections.get(r.chunk_id) or ()) if not r.suspected_prompt_injection else ())
            or (Segment(r.chunk_id, r.text, r.span.char_start, r.span.char_end),))
        for r in results
    ]
    by_chunk = {r.chunk_id: r for r in results}
    out = []
    for passage in merge_passages(hits):
        text = snippet(passage.text, passage.focus, query, max_chars=SNIPPET_CHARS,
                       score=(lambda sentence: sentence_score(topic, sentence)) if topic else None)
        out.append((by_chunk[passage.chunk_id], replace(passage, text=text)))
    return out


#: Matches fetched when passages must contain given phrases (all of them contain the phrases; see above).
PHRASE_DEPTH = 50


def _one_per_document_first(results: list[Any], limit: int) -> list[Any]:
    """One passage per document first (so "which documents mention X" sees every document), then the rest, each
    group in rank order, at most ``limit``."""
    first: list[Any] = []
    rest: list[Any] = []
    seen: set[str] = set()
    for r in results:
        (rest if r.document_id in seen else first).append(r)
        seen.add(r.document_id)
    return (first + rest)[:limit]


#: Upper bound of an expanded passage (characters); a section longer than this keeps the hit and its neighbours.
SECTION_MAX_CHARS = 4000


def _sections(
    conn: psycopg.Connection, ctx: AuthContext, hits: list[tuple[str, int | None, str]], timeout_ms: int
) -> dict[str, list[Segment]]:
    """Each hit expanded to its top-level section (the chunks under the same heading, in order), as segments.

    Design note: parent-section expansion (aggregate by parent document): a chunk often holds
    only the heading or the first clause of a section ("7. Calibration / 7.1 General"), while the sentence that
    answers the question is a sibling ("7.3 ... every 12 months"). Siblings that look like injected instructions
    are left out; the cited id stays the hit's own chunk id. Read under RLS like the search itself. Overlapping
    spans and repeats across hits are merged by :func:`retrieval.passages.merge_passages`.
    """
    from procura.db.session import tenant_transaction
    from router.injection import screen

    if not hits:
        return {}
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        rows = conn.execute(
            """
            with hit as (
                select c.chunk_id, c.document_id, c.document_version, c.section_path[1:2] as section
                from retrieval.active_chunks c
                where c.chunk_id = any(%s) and cardinality(c.section_path) >= 2
            )
            select hit.chunk_id, s.chunk_id, s.chunk_text, s.char_start, s.char_end
            from hit
            join retrieval.active_chunks s
              on s.document_id = hit.document_id and s.document_version = hit.document_version
             and s.section_path[1:2] = hit.section
            order by hit.chunk_id, s.ordinal
            """,
            ([chunk_id for _, _, chunk_id in hits],),
        ).fetchall()
    parts: dict[str, list[Segment]] = {}
    for hit_id, sibling_id, text, start, end in rows:
        if sibling_id != hit_id and screen(text):
            continue
        parts.setdefault(hit_id, []).append(Segment(sibling_id, text, start, end))
    out: dict[str, list[Segment]] = {}
    for hit_id, siblings in parts.items():
        index = next((i for i, s in enumerate(siblings) if s.chunk_id == hit_id), 0)
        kept = [siblings[index]]
        lo, hi = index - 1, index + 1
        size = len(siblings[index].text)
        # grow around the hit, alternating after/before, until the bound
        while lo >= 0 or hi < len(siblings):
            for j in (hi, lo):
                if 0 <= j < len(siblings) and size + len(siblings[j].text) <= SECTION_MAX_CHARS:
                    kept.append(siblings[j])
                    size += len(siblings[j].text)
            lo, hi = lo - 1, hi + 1
        order = {s.chunk_id: i for i, s in enumerate(siblings)}
        out[hit_id] = sorted(kept, key=lambda s: order[s.chunk_id])
    return out


# -- questions about a named document ------------------------------------------------------------------------------
#: Words that make a question naming a product a question about its manual.
_MANUAL_CUE = re.compile(
    r"\b(?:manuals?|handbooks?|data\s?sheets?|user\s+guide|quick\s+start|instructions|documentation|handbuch\w*|"
    r"\w*anleitung\w*|datenblatt\w*)\b", re.I)
#: Words that ask about a product's other documents (its invoices, price, suppliers), not its manual.
_OTHER_DOCUMENTS = re.compile(rf"\b(?:{PRODUCT_DOCUMENT_WORDS})\b", re.I)
#: Chunks of the named documents fetched for ranking by topic (a manual or an agreement has about 20).
FOCUS_DEPTH = 60


@dataclass(frozen=True)
class _Named:
    """The documents a question names (by id, by a product's code, by a company's agreement) and their titles."""

    document_ids: tuple[str, ...]
    entity_text: tuple[str, ...]
    #: named through a product without a manual word: served only when a manual holds the topic
    tentative: bool


def _named_documents(conn: psycopg.Connection, ctx: AuthContext, req: DocumentSearchRequest,
                     timeout_ms: int) -> _Named | None:
    """The documents ``req`` is about, or None when it names none (one read under RLS).

    A document named by id (the lookup's filter), an agreement by its contract id, a product's manuals by its
    code (when the question asks no invoice, price or supplier fact), a company's agreements (the agreement
    scope's company filter). Their titles (a manual's up to its dash: the product's name) are the entity names
    whose words are no topic.
    """
    from procura.db.session import tenant_transaction

    f, ids = req.filters, req.identifiers
    named_ids = list(f.document_ids) or list(ids.contract_ids)
    codes: list[str] = []
    companies: list[str] = []
    tentative = False
    if not named_ids:
        if ids.product_codes and not ids.invoice_numbers and not _OTHER_DOCUMENTS.search(req.query_text) and (
                not f.document_types or "product_manual" in f.document_types):
            codes = [c.upper() for c in ids.product_codes]
            tentative = not _MANUAL_CUE.search(req.query_text)
        elif f.company_ids and set(f.document_types) == {"agreement"}:
            companies = list(f.company_ids)
        else:
            return None
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=timeout_ms):
        rows = conn.execute(
            """
            select document_id, min(document_type), min(metadata ->> 'title')
            from retrieval.active_chunks
            where document_id = any(%(ids)s)
               or (document_type = 'product_manual' and (metadata -> 'product_codes') ?| %(codes)s)
               or (document_type = 'agreement' and (metadata ->> 'company_id') = any(%(companies)s))
            group by document_id order by document_id
            """,
            {"ids": named_ids, "codes": codes, "companies": companies},
        ).fetchall()
    if not rows:
        return None
    titles = []
    for _, kind, title in rows:
        if title:
            titles.append(re.split(r"\s+[—–-]\s+", title)[0] if kind == "product_manual" else title)
    return _Named(tuple(r[0] for r in rows), tuple(titles), tentative)


def _focused_search(conn: psycopg.Connection, ctx: AuthContext, req: DocumentSearchRequest, embedder: Any,
                    timeout_ms: int) -> list[EvidenceChunk] | None:
    """Evidence for a question about named documents, ranked by its topic; None when the question names none,
    has no topic besides the names, or (a product named without a manual word) the manual does not hold it.

    Design note: once the documents are known, the entity words ("the DPS-482 differential pressure sensor")
    match every passage alike and outrank the words of the fact asked for; the search runs inside the named
    documents on the topic words alone, and each passage is ranked and cut around its best topic sentence
    (retrieval.topics), so the sentence holding the fact is quoted, never cut away.
    """
    from pydantic import ValidationError

    from retrieval import Filters, Identifiers, RetrievalConfig, SearchRequest, search
    from retrieval.errors import RetrievalError

    if req.filters.phrases:
        return None  # a literal search keeps its own phrases
    named = _named_documents(conn, ctx, req, timeout_ms)
    if named is None:
        return None
    topic = topic_terms(req.query_text, named.entity_text)
    if not topic or (named.tentative and not fact_words(req.query_text)):
        # "Look up product PRD-611": no fact of its manual is asked for; the identifier lookup answers it
        return None
    modes: tuple[Literal["exact", "bm25", "vector"], ...] = (
        ("bm25", "vector") if embedder is not None and "vector" in req.retrieval_modes else ("bm25",))
    try:
        request = SearchRequest(
            query_text=topic.text, identifiers=Identifiers(), retrieval_modes=modes,
            filters=Filters.model_validate({"document_ids": named.document_ids, "valid_at": req.filters.valid_at}),
            limit=FOCUS_DEPTH)
    except ValidationError as exc:
        raise ToolFailedError(f"documents.search: invalid request: {exc.errors()[0]['msg']}") from exc
    config = replace(RetrievalConfig(), statement_timeout_ms=timeout_ms, per_document_cap=FOCUS_DEPTH)
    try:
        response = search(conn, ctx, request, embedder, config=config)
    except pg_errors.QueryCanceled as exc:
        raise ToolTimeoutError(f"documents.search exceeded {timeout_ms} ms") from exc
    except RetrievalError as exc:
        raise ToolFailedError(f"documents.search: {exc}") from exc
    scored = [(best_sentence_score(topic, r.text), i, r) for i, r in enumerate(response.results)]
    held = [t for t in scored if t[0] > 0]
    if not held and named.tentative:
        return None
    ranked = [r for _, _, r in sorted(held or scored, key=lambda t: (-t[0], t[1]))][:req.limit]
    sections = _sections(conn, ctx, [(r.document_id, r.document_version, r.chunk_id) for r in ranked
                                     if not r.in_force_version], timeout_ms)
    return [
        EvidenceChunk(
            chunk_id=r.chunk_id, document_id=r.document_id, document_version=r.document_version, page=r.page,
            text=passage.text, score=float(r.fused_score), exact_match=False,
            flagged_injection=bool(r.suspected_prompt_injection),
        )
        for r, passage in _passages(ranked, sections, topic.text, topic)
    ]


def _one_manual_focus(conn: psycopg.Connection, ctx: AuthContext, req: DocumentSearchRequest, results: list[Any],
                      embedder: Any, timeout_ms: int) -> list[EvidenceChunk] | None:
    """The passages of the one manual a search found, ranked by the question's topic, when they hold the fact
    better than the passages found; None otherwise.

    Design note: a product named in words the reader does not resolve ("Schaltschrank 800x600", a German name or a
    designation alone) leaves the search unscoped; its hits then name the manual, but rank the passages that repeat
    the product's name over the section holding the fact ("minimum clearance of 80 mm"). When the hits hold exactly
    one manual and the question asks a fact a manual states, that manual is the named document: its sections are
    ranked by topic (the focused search), and kept only when their best sentence holds the topic better.
    """
    f, ids = req.filters, req.identifiers
    if (f.document_ids or f.phrases or f.company_ids or ids.product_codes or ids.invoice_numbers or ids.contract_ids
            or (f.document_types and "product_manual" not in f.document_types) or not fact_words(req.query_text)):
        return None
    manuals = list(dict.fromkeys(r.document_id for r in results if r.document_type == "product_manual"))
    if len(manuals) != 1:
        return None
    if sum(r.document_id == manuals[0] for r in results) < 2 and results[0].document_id != manuals[0]:
        return None  # one passage among others' is no sign the question is about that manual
    scoped = req.model_copy(update={"filters": f.model_copy(update={"document_ids": (manuals[0],)})})
    focused = _focused_search(conn, ctx, scoped, embedder, timeout_ms)
    if not focused:
        return None
    topic = topic_terms(req.query_text, [t for r in results if r.document_id == manuals[0] and r.title
                                         for t in (re.split(r"\s+[—–-]\s+", r.title)[0],)])
    found = max((best_sentence_score(topic, r.text) for r in results), default=0.0)
    return focused if best_sentence_score(topic, focused[0].text) > found else None


def best_sentence_score(topic: Topic, text: str) -> float:
    """The topic score of ``text``'s best sentence (lines and sentence ends split it, as snippets do).

    >>> t = topic_terms("maximum loop resistance")
    >>> best_sentence_score(t, "## 5. Wiring\\n\\n5.2 The maximum loop resistance including cable is 250 Ω.") > 3
    True
    """
    return max((sentence_score(topic, s) for s in _SENTENCES.split(text) if s.strip()), default=0.0)


_SENTENCES = re.compile(r"(?<=[.!?;:])\s+|\n+")
