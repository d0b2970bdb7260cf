"""Documents by id: lookup (found / not found / duplicate of X / deleted) and which version is in force on a date.

A question that names a document id ("what does agreement-2025-09 say about Supplier Iota?") is about that
document: :func:`lookup_documents` says whether the tenant has it, whether it is a replicated duplicate of another
document (the accounting policy's flag in ``marts.validated_invoice_lines``), and which of its versions was in
force on a date. Versions carry their effective date in the registry (``ingest.document_versions.source_revision``
``d:YYYY-MM-DD``, written for agreements since migration 0035) or in their original front matter.

Design note: an amendment is evidence only from its effective date. Ingestion publishes it as the next version of
the same document and purges the rows of the version it replaces, so the index only knows the amendment; the
superseded version's original bytes stay in the registry. :func:`historical_chunks` rebuilds that version's
chunks with the same parser and chunker that built them at ingestion (deterministic), so a question as of a date
before the amendment takes effect is answered from the version valid then (see :mod:`retrieval.history`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Annotated, Any, Literal

import psycopg
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ingest.normalize import normalize_identifier
from procura.db.session import AuthContext, tenant_transaction

#: A document id as users write it in a question: lowercase, a word prefix of three or more letters, then a
#: hyphenated part that starts with a digit ("agreement-2025-09", "invoice-2026-0150-erp-replica",
#: "manual-prd-482", "credit-note-2026-0007"). Dates ("2026-03-15") and periods ("q1-2026") do not match.
_DOCUMENT_ID_IN_TEXT = re.compile(
    r"(?<![A-Za-z0-9._-])((?:[a-z]{3,})(?:-[a-z]+)*-\d[a-z0-9]*(?:[._-][a-z0-9]+)*)(?![A-Za-z0-9_-])"
)
_PREFIX = re.compile(r"^([a-z]+(?:-[a-z]+)*-)\d")
_EFFECTIVE_IN_FRONT_MATTER = re.compile(rb"(?m)^effective_date:\s*[\"']?(\d{4}-\d{2}-\d{2})")
#: Identifier kinds that name no document ("prd-482" is a product code); a contract id is its agreement's id.
_IDENTIFIER_KINDS = ("product_code", "invoice_number")
MAX_DOCUMENT_IDS = 10
#: A document id (``retrieval.models.DOCUMENT_ID_PATTERN``; repeated here because that module imports this one).
DOCUMENT_ID_PATTERN = r"^[a-z0-9][a-z0-9._-]{0,127}$"

Status = Literal["found", "not_found", "duplicate", "deleted"]


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DocumentVersion(_Model):
    """One published or superseded version and the date it takes effect (None when the format has none)."""

    document_version: int
    status: str
    effective_date: dt.date | None


class DocumentStatus(_Model):
    """What the tenant holds under one document id."""

    document_id: str
    status: Status
    document_type: str | None = None
    title: str | None = None
    active_version: int | None = None
    versions: tuple[DocumentVersion, ...] = ()
    duplicate_of: str | None = None
    #: the version in force on the lookup's date (None: no version is in force yet, or no date was given)
    version_in_force: int | None = None

    @property
    def is_usable(self) -> bool:
        """Whether passages of this document may be served (found or a flagged duplicate, not deleted)."""
        return self.status in ("found", "duplicate")

    def sentence(self, valid_at: dt.date | None) -> str:
        """One sentence for an answer: what was found under this id."""
        name = f"Document {self.document_id}"
        if self.status == "not_found":
            return f"{name} was not found."
        if self.status == "deleted":
            return f"{name} was deleted; it is no longer served."
        kind = (self.document_type or "document").replace("_", " ")
        text = f"{name} ({kind}{', ' + repr(self.title) if self.title else ''}) was found"
        if self.status == "duplicate":
            text += f"; it is flagged as a duplicate of {self.duplicate_of} and is excluded from totals"
        if valid_at is not None and len(self.versions) > 1:
            in_force = next((v for v in self.versions if v.document_version == self.version_in_force), None)
            if in_force is None:
                text += f"; no version of it was in force on {valid_at.isoformat()}"
            else:
                effective = f" (effective {in_force.effective_date.isoformat()})" if in_force.effective_date else ""
                text += f"; on {valid_at.isoformat()} version {in_force.document_version}{effective} was in force"
                later = [v for v in self.versions if v.effective_date and v.effective_date > valid_at]
                if later:
                    text += ", " + ", ".join(f"version {v.document_version} takes effect {v.effective_date}"
                                             for v in later)
        return text + "."


class DocumentLookup(_Model):
    """The outcome of looking up the document ids named in a question (or given by a caller)."""

    valid_at: dt.date | None = None
    documents: tuple[DocumentStatus, ...] = ()

    @property
    def usable_ids(self) -> tuple[str, ...]:
        """Ids whose passages may be searched."""
        return tuple(d.document_id for d in self.documents if d.is_usable)

    @property
    def all_missing(self) -> bool:
        """True when ids were named and none of them can be served."""
        return bool(self.documents) and not self.usable_ids

    def text(self) -> str:
        """The lookup as answer text, one sentence per document."""
        return " ".join(d.sentence(self.valid_at) for d in self.documents)


class LookupRequest(_Model):
    """A lookup by document ids (the MCP ``documents.lookup`` tool's arguments)."""

    document_ids: tuple[Annotated[str, StringConstraints(pattern=DOCUMENT_ID_PATTERN)], ...] = Field(
        min_length=1, max_length=MAX_DOCUMENT_IDS)
    valid_at: dt.date | None = None


def document_ids_in_text(text: str) -> tuple[str, ...]:
    """Tokens of ``text`` shaped like document ids, in order, without repeats (at most :data:`MAX_DOCUMENT_IDS`).

    Product codes and invoice numbers (``prd-482``) are not document ids; a contract id is its agreement's.

    >>> document_ids_in_text("Show agreement-2025-09 and invoice-2026-0150-erp-replica, not PRD-482 or 2026-03-15.")
    ('agreement-2025-09', 'invoice-2026-0150-erp-replica')
    >>> document_ids_in_text("spend in q1-2026 for prd-482")
    ()
    """
    out: list[str] = []
    for match in _DOCUMENT_ID_IN_TEXT.finditer(text):
        token = match.group(1).rstrip("._-")
        if any(normalize_identifier(kind, token) is not None for kind in _IDENTIFIER_KINDS):
            continue
        if token not in out:
            out.append(token)
    return tuple(out[:MAX_DOCUMENT_IDS])


#: A document named by its kind and number as typed in prose ("Agreement 2024-03", "contract no. 2025-09") and a
#: product's manual ("the manual for PRD-710", "PRD-482 manual"): the ids they stand for are looked up like
#: written ones, so a missing one is "not found", never passages of another document.
#: ("agmt 2026-04", "(doc 2026-04)": a document word with a year-month number is the agreement of that number, the
#: corpus's agreement id shape; "doc" alone with a longer number may be an invoice, and is not read here)
#: ("agreement 2025 11", "agreement_2025_11", "contract 2025.11": the id's parts written with spaces, underscores or
#: dots are the same id; a missing one is "not found", never passages of the agreements that share its words)
_SPELLED_AGREEMENT = re.compile(r"\b(?:framework\s+|supply\s+)?(?:agreement|agmt|agrmt|contract)(?:\s+|_|\.\s*)"
                                r"(?:no\.?\s*|number\s+|#\s*)?(\d{4}-\d{2,4}|\d{4}(?:\s+|_|\.)\d{2})"
                                r"(?![\w-]|[.,]\d)|"
                                r"\b(?:doc(?:ument)?\.?)\s+(?:no\.?\s*|number\s+|#\s*)?(\d{4}-\d{2})(?![\w-])",
                                re.I)
#: "the 2024-10 frame agreement": the number in the noun's modifier slot (kind words between, never a preposition:
#: "spend in 2025-10 under the agreement" is a month). The same shape is also a month modifying the noun ("Company A
#: 2025-10 contract spend"), so it is an agreement id only in a question asking for a document (see
#: :func:`_modifier_number_is_agreement`).
_MODIFIER_AGREEMENT = re.compile(r"(?<![\w-])(\d{4}-\d{2})\s+(?:(?!(?:under|the|of|in|per|for|with|and|from|"
                                 r"by|our|its|their|a|an|to|on|at|vs|or)\b)[a-z]+\s+){0,2}"
                                 r"(?:agreement|agmt|contract)\b", re.I)
#: A preposition right before the number makes it a period ("in 2025-10 agreement suppliers").
_PERIOD_PREPOSITION = re.compile(r"\b(?:in|for|during|since|until|till|through|before|after|from|by|of|to|"
                                 r"between|as\s+of)\s+$", re.I)
#: A figure asked for: the number is the period of the figure, not a document to open.
_FIGURE_WORD = re.compile(r"\b(?:spend|spent|spending|totals?|amounts?|how\s+much|how\s+many|sum|costs?|paid|"
                          r"invoiced|value|volume|revenue|count|average|avg|share|number\s+of|price|units?|"
                          r"quantity|rank|top)\b", re.I)
#: A document asked for: a clause or term, opening/showing it, or what it says.
_DOCUMENT_ASK = re.compile(r"\b(?:clauses?|terms?|open|show|find|view|read|display|says?|wording|text|provisions?|"
                           r"conditions?|effective|warranty|notice|expir\w*|renew\w*|terminat\w*|liabilit\w*|"
                           r"penalt\w*|signed|signator\w*|parties|party|versions?|governing|law|scope|duration|"
                           r"obligations?|sla|rebates?|discounts?|incoterms?|delivery|payment)\b", re.I)


def _modifier_number_is_agreement(text: str, match: re.Match[str]) -> bool:
    """Whether the number before an agreement noun (``match``) is its id: a document question, not a figure's month."""
    if _PERIOD_PREPOSITION.search(text[:match.start()]):
        return False
    if _FIGURE_WORD.search(text):
        return False
    return _DOCUMENT_ASK.search(text) is not None
_SEPARATORS = re.compile(r"[\s_.]+")
_SPELLED_MANUAL = re.compile(r"\b(?:manual|handbook|user\s+guide)\s+(?:for|of)\s+(?:the\s+)?(?:product\s+)?"
                             r"(prd-\d+)\b|\b(prd-\d+)(?:['’]s)?\s+(?:manual|handbook|user\s+guide)\b", re.I)


def spelled_document_ids(text: str) -> tuple[str, ...]:
    """Document ids a question names in words: an agreement by its number, a product's manual by its code.

    >>> spelled_document_ids("Agreement 2024-03 of Xenon Pharma: payment terms? And the manual for PRD-710.")
    ('agreement-2024-03', 'manual-prd-710')
    >>> spelled_document_ids("What does the PRD-482 manual say? Spend under agreements in 2025-10?")
    ('manual-prd-482',)
    >>> spelled_document_ids("Effective date of the framework agmt (doc 2026-04)? Not doc 2026-0148.")
    ('agreement-2026-04',)
    >>> spelled_document_ids("open the 2024-10 frame agreement; warranty clause?")
    ('agreement-2024-10',)
    >>> spelled_document_ids("open agreement 2025 11 pls; contract_2026_02 and agmt 2025.07 too")
    ('agreement-2025-11', 'agreement-2026-02', 'agreement-2025-07')
    >>> spelled_document_ids("Company A 2025-10 contract spend")
    ()
    """
    found = [f"agreement-{_SEPARATORS.sub('-', m.group(1) or m.group(2))}" for m in _SPELLED_AGREEMENT.finditer(text)]
    found += [f"agreement-{m.group(1)}" for m in _MODIFIER_AGREEMENT.finditer(text)
              if _modifier_number_is_agreement(text, m)]
    found += [f"manual-{(m.group(1) or m.group(2)).lower()}" for m in _SPELLED_MANUAL.finditer(text)]
    return tuple(dict.fromkeys(found))[:MAX_DOCUMENT_IDS]


def id_prefix(document_id: str) -> str | None:
    """The word prefix of an id up to its first numeric part (``agreement-2025-09`` -> ``agreement-``)."""
    match = _PREFIX.match(document_id)
    return match.group(1) if match else None


def version_in_force(versions: Sequence[DocumentVersion], on: dt.date) -> int | None:
    """The version in force on ``on``: the latest effective date on or before it (the higher version on a tie).

    A version without an effective date is in force from its publication (it never loses to a dated one that is
    not yet effective, and a dated one in force wins over it only when it is newer).

    >>> v = (DocumentVersion(document_version=1, status="superseded", effective_date=dt.date(2025, 9, 1)),
    ...      DocumentVersion(document_version=2, status="published", effective_date=dt.date(2026, 4, 20)))
    >>> version_in_force(v, dt.date(2026, 3, 15)), version_in_force(v, dt.date(2026, 4, 20))
    (1, 2)
    >>> version_in_force(v, dt.date(2025, 1, 1)) is None
    True
    """
    eligible = [v for v in versions if v.effective_date is None or v.effective_date <= on]
    if not eligible:
        return None
    return max(eligible, key=lambda v: (v.effective_date is not None, v.document_version)).document_version


def effective_date_of(source_revision: str | None, original_head: bytes | None) -> dt.date | None:
    """A version's effective date: the registry's ``d:`` revision, else the ``effective_date`` front matter.

    >>> effective_date_of("d:2026-04-20", None)
    datetime.date(2026, 4, 20)
    >>> effective_date_of(None, b"---\\ndocument_id: a\\neffective_date: 2025-09-01\\n---")
    datetime.date(2025, 9, 1)
    >>> effective_date_of("r:3", None) is None
    True
    """
    if source_revision and source_revision.startswith("d:"):
        return dt.date.fromisoformat(source_revision[2:12])
    if original_head:
        match = _EFFECTIVE_IN_FRONT_MATTER.search(original_head)
        if match:
            try:
                return dt.date.fromisoformat(match.group(1).decode())
            except ValueError:
                return None
    return None


def lookup_documents(
    conn: psycopg.Connection,
    ctx: AuthContext,
    document_ids: Iterable[str],
    *,
    valid_at: dt.date | None = None,
    named_in_text: bool = False,
    statement_timeout_ms: int = 5000,
    kept_ids: Iterable[str] = (),
) -> DocumentLookup:
    """Look ``document_ids`` up in ``ctx``'s tenant (RLS), in one read-only transaction.

    Args:
        conn: an idle ``procura_app`` connection.
        ctx: the authenticated context (the caller checks the ``procurement:read`` scope).
        document_ids: ids to look up.
        valid_at: report which version was in force on this date.
        named_in_text: the ids were found in free text; an id is then kept only when the tenant has it or has a
            document with the same prefix (``agreement-2099-01`` is a missing agreement, ``mid-2026`` is no id),
            or it is one of ``kept_ids`` (named as a document in so many words: :func:`named_with_kind`).
        statement_timeout_ms: statement timeout of the transaction.
    """
    ids = list(dict.fromkeys(document_ids))[:MAX_DOCUMENT_IDS]
    if not ids:
        return DocumentLookup(valid_at=valid_at)
    prefixes = [id_prefix(i) or i for i in ids]
    with tenant_transaction(conn, ctx, read_only=True, statement_timeout_ms=statement_timeout_ms):
        rows = conn.execute(
            "select c.id, d.document_type, d.active_version, d.is_deleted, "
            "exists (select 1 from ingest.documents p where starts_with(p.document_id, c.prefix)) "
            "from unnest(%s::text[], %s::text[]) with ordinality as c(id, prefix, n) "
            "left join ingest.documents d on d.document_id = c.id order by c.n",
            (ids, prefixes),
        ).fetchall()
        always = set(kept_ids)
        kept = [r for r in rows if r[1] is not None or not named_in_text or r[4] or r[0] in always]
        present = [r[0] for r in kept if r[1] is not None]
        versions: dict[str, list[DocumentVersion]] = {}
        titles: dict[str, str] = {}
        duplicates: dict[str, str] = {}
        if present:
            for doc, version, version_status, revision, head in conn.execute(
                "select document_id, document_version, status, source_revision, "
                "substring(original_content from 1 for 2048) from ingest.document_versions "
                "where document_id = any(%s) and status in ('published', 'superseded') "
                "order by document_id, document_version",
                (present,),
            ):
                versions.setdefault(doc, []).append(
                    DocumentVersion(document_version=int(version), status=version_status,
                                    effective_date=effective_date_of(revision, bytes(head) if head else None)))
            for doc, title in conn.execute(
                "select distinct on (document_id) document_id, metadata ->> 'title' from retrieval.active_chunks "
                "where document_id = any(%s) and metadata ? 'title' order by document_id, ordinal",
                (present,),
            ):
                titles[doc] = title
            duplicates = _duplicate_of(conn, ctx, present)
    statuses = []
    for doc, document_type, active, deleted, _ in kept:
        if document_type is None:
            statuses.append(DocumentStatus(document_id=doc, status="not_found"))
            continue
        history = tuple(versions.get(doc, ()))
        status: Status = "deleted" if deleted or active is None else ("duplicate" if doc in duplicates else "found")
        statuses.append(DocumentStatus(
            document_id=doc, status=status, document_type=document_type, title=titles.get(doc),
            active_version=active, versions=history, duplicate_of=duplicates.get(doc),
            version_in_force=version_in_force(history, valid_at) if valid_at is not None else active,
        ))
    return DocumentLookup(valid_at=valid_at, documents=tuple(statuses))


_KIND_WORD = re.compile(r"(?:\b(?:document|doc|file|record|id)\s*(?:no\.?|number|#|id)?\s*[:#]?\s*|"
                        r"\b(?P<kind>[a-z]{3,})\s+)$", re.I)


def named_with_kind(text: str, document_ids: Sequence[str]) -> tuple[str, ...]:
    """The ids ``text`` names as documents in so many words: right after "document" / "doc" / "file", or after
    the word their own prefix spells ("service bulletin bulletin-0007", "the certificate certificate-2031-x"). Such
    an id is a document asked for even when the tenant has no document of its kind: missing, it is "not found",
    never passages of other documents.

    >>> named_with_kind("What does service bulletin bulletin-0007 say? And mid-2026?", ("bulletin-0007", "mid-2026"))
    ('bulletin-0007',)
    >>> named_with_kind("Show document memo-2026-01.", ("memo-2026-01",))
    ('memo-2026-01',)
    """
    out: list[str] = []
    for doc in document_ids:
        at = text.lower().find(doc.lower())
        found = _KIND_WORD.search(text[max(0, at - 40):at]) if at >= 0 else None
        if found is None:
            continue
        kind = (found.group("kind") or "").lower()
        prefix = (id_prefix(doc) or "").rstrip("-").lower()
        if not kind or (prefix and prefix.split("-")[0].startswith(kind.rstrip("s")[:6])):
            out.append(doc)
    return tuple(out)


def lookup_question(
    conn: psycopg.Connection, ctx: AuthContext, question: str, *, valid_at: dt.date | None = None
) -> DocumentLookup:
    """Look up the document ids a question names (none named: an empty lookup, no database round trip)."""
    ids = tuple(dict.fromkeys((*document_ids_in_text(question), *spelled_document_ids(question))))
    if not ids:
        return DocumentLookup(valid_at=valid_at)
    return lookup_documents(conn, ctx, ids, valid_at=valid_at, named_in_text=True,
                            kept_ids=named_with_kind(question, ids))


def scoped_search_arguments(
    arguments: Mapping[str, Any], lookup: DocumentLookup, valid_at: dt.date | None
) -> dict[str, Any]:
    """A ``documents.search`` step's arguments restricted to the looked-up documents and dated ``valid_at``.

    Filters the plan already sets (a step's own ``document_ids`` or ``valid_at``) are kept.

    >>> lookup = DocumentLookup(documents=(DocumentStatus(document_id="agreement-2025-09", status="found"),))
    >>> scoped_search_arguments({"query_text": "Iota", "filters": {}}, lookup, dt.date(2026, 3, 15))["filters"]
    {'document_ids': ['agreement-2025-09'], 'valid_at': '2026-03-15'}
    """
    filters = dict(arguments.get("filters") or {})
    scoped = dict(arguments)
    if lookup.usable_ids and not filters.get("document_ids"):
        filters["document_ids"] = list(lookup.usable_ids)
    if list(arguments.get("retrieval_modes") or ()) == ["exact"] and _asks_for_content(arguments, lookup):
        # An identifier matches every passage about it alike; the question's other words find the passage that
        # holds the fact ("the max loop resistance of PRD-482"), and only the lexical branch reaches a version in
        # force on valid_at that an amendment has replaced in the index.
        scoped["retrieval_modes"] = ["exact", "bm25", "vector"]
    if valid_at is not None and not filters.get("valid_at"):
        filters["valid_at"] = valid_at.isoformat()
    return {**scoped, "filters": filters}


#: Document types whose every document is one short record (its identifier match is the answer).
_ONE_PASSAGE_TYPES = frozenset({"invoice", "credit_note"})


def _asks_for_content(arguments: Mapping[str, Any], lookup: DocumentLookup) -> bool:
    """Whether a search names a many-passage identifier *and* a text need (the fusion's ``mixed`` class).

    Product codes, contract ids and named documents other than invoices are many passages (a manual, an
    agreement); an invoice or credit note number is one document, which the exact branch already finds first."""
    from retrieval.fusion import classify  # retrieval.models imports this module: bound at call time

    identifiers = arguments.get("identifiers") or {}
    named = [d for d in lookup.documents if d.is_usable]
    if identifiers.get("invoice_numbers") or any(d.document_type in _ONE_PASSAGE_TYPES for d in named):
        return False
    count = len(identifiers.get("product_codes") or ()) + len(identifiers.get("contract_ids") or ()) + len(named)
    return bool(named) or classify(str(arguments.get("query_text") or ""), count) == "mixed"


def scope_plan(steps: Sequence[Any], lookup: DocumentLookup, valid_at: dt.date | None) -> tuple[Any, ...]:
    """Plan steps (pydantic models with ``tool`` and ``arguments``) with every ``documents.search`` scoped by
    :func:`scoped_search_arguments`; other steps unchanged."""
    return tuple(
        step.model_copy(update={"arguments": scoped_search_arguments(step.arguments, lookup, valid_at)})
        if step.tool == "documents.search" else step
        for step in steps
    )


def answer_update(status: str, text: str, lookup: DocumentLookup) -> dict[str, Any]:
    """How an answer changes for a question that names document ids: every id missing -> ``not_found`` with the
    lookup as its whole text (nothing else is presented as the answer); else the lookup sentence leads the text."""
    if not lookup.documents:
        return {}
    if lookup.all_missing:
        return {"status": "not_found", "text": lookup.text(), "result": {"status": "not_found",
                "documents": [d.model_dump(mode="json") for d in lookup.documents]}}
    return {"text": f"{lookup.text()} {text}"}


def _duplicate_of(conn: psycopg.Connection, ctx: AuthContext, document_ids: list[str]) -> dict[str, str]:
    """Invoice and credit-note ids flagged as replicated duplicates -> the document they duplicate.

    The flag is the accounting policy's (``is_duplicate``: same business key and content as a document ingested
    earlier); the original is the earliest unflagged document with the same business key ingested before it.
    """
    rows = conn.execute(
        """
        with dup as (
            select distinct tenant_id, invoice_id, company_id, supplier_id, document_type, invoice_number, ingest_seq
            from marts.validated_invoice_lines
            where tenant_id = %(tenant)s and invoice_id = any(%(ids)s) and is_duplicate
        )
        select dup.invoice_id, (
            select o.invoice_id from marts.validated_invoice_lines o
            where o.tenant_id = dup.tenant_id and o.company_id = dup.company_id
              and o.supplier_id is not distinct from dup.supplier_id and o.document_type = dup.document_type
              and o.invoice_number = dup.invoice_number and not o.is_duplicate and o.ingest_seq <= dup.ingest_seq
            order by o.ingest_seq, o.source_document_id limit 1
        )
        from dup
        """,
        {"tenant": ctx.tenant_id, "ids": document_ids},
    ).fetchall()
    return {doc: original for doc, original in rows if original is not None}


__all__ = [
    "DocumentLookup",
    "DocumentStatus",
    "DocumentVersion",
    "LookupRequest",
    "answer_update",
    "document_ids_in_text",
    "effective_date_of",
    "lookup_documents",
    "lookup_question",
    "scope_plan",
    "scoped_search_arguments",
    "spelled_document_ids",
    "version_in_force",
]
