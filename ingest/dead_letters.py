"""Dead letters of a run: a source or document that fails a stage is recorded with its payload and error, and
the run goes on; publishing (or skipping) a document later resolves its letters."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import psycopg

from ingest.models import ParsedDocument
from ingest.outcomes import DocumentOutcome
from ingest.registry import record_dead_letter, resolve_dead_letters, set_tenant
from ingest.retry import RetryPolicy, StageFailed, run_stage
from ingest.sources import SourceItem

if TYPE_CHECKING:
    from ingest.plan import Plan


class DeadLetters:
    """Records failures of one run (and their outcomes in the run's ledger)."""

    def __init__(self, conn: psycopg.Connection, record: Callable[[DocumentOutcome], None]) -> None:
        self.conn = conn
        self.record = record

    def item(self, item: SourceItem, stage: str, error: BaseException, attempts: int) -> None:
        """A source that was not read or not parsed."""
        # an unread source (outside the corpus, too large, mismatched) keeps no payload: its bytes were not taken
        letter = record_dead_letter(self.conn, tenant_id=item.tenant_id, source_uri=item.source_uri, stage=stage,
                                    error=error, attempts=attempts, payload=item.raw if item.error is None else None)
        self.record(DocumentOutcome(item.tenant_id, item.source_uri, None, "dead_lettered", None, stage,
                                    f"{type(error).__name__}: {error}", letter))

    def doc(self, doc: ParsedDocument, stage: str, error: BaseException, attempts: int,
            version: int | None = None) -> None:
        """A parsed document that failed a later stage (plan, embed, stage, verify, publish)."""
        letter = record_dead_letter(self.conn, tenant_id=doc.tenant_id, source_uri=doc.source_uri, stage=stage,
                                    error=error, attempts=attempts, payload=doc.original,
                                    document_id=doc.document_id, document_version=version)
        self.record(DocumentOutcome(doc.tenant_id, doc.source_uri, doc.document_id, "dead_lettered", version,
                                    stage, f"{type(error).__name__}: {error}", letter))

    def plan(self, plan: Plan, stage: str, failure: StageFailed) -> None:
        """A planned document whose stage or publish transaction failed."""
        # a version number allocated by a rolled-back staging transaction does not exist: do not record it
        version = plan.version if stage != "stage" or plan.action == "backfill" else None
        self.doc(plan.doc, stage, failure.cause, failure.attempts, version)

    def resolve(self, plans: list[Plan], retry: RetryPolicy) -> None:
        """Resolve the letters of documents that are now current (skipped: already published)."""
        def tx() -> None:
            with self.conn.transaction():
                set_tenant(self.conn, plans[0].doc.tenant_id)
                resolve_dead_letters(self.conn, [(p.doc.tenant_id, p.doc.source_uri, p.doc.document_id)
                                                 for p in plans])

        run_stage("resolve", tx, retry, conn=self.conn)
