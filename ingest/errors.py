"""The flat error family of the ingestion pipeline.

Every error the pipeline raises on purpose derives from :class:`IngestError` (itself a ``ProcuraError``, so the
CLI prints it as a one-line message). The pipeline decides retry versus dead letter by class: only
:class:`TransientIngestError` (and the driver's ``OperationalError``) is retried.
"""

from __future__ import annotations

from procura.errors import ProcuraError


class IngestError(ProcuraError):
    """Base of every ingestion error; the message names the source, the field and the problem."""


class UnsupportedInputError(IngestError):
    """The file is not a kind of source the corpus contract describes."""


class ParseError(IngestError):
    """The source is malformed: invalid JSON/CSV/front matter or a field that fails validation."""


class TenantError(IngestError):
    """The tenant of a source cannot be determined, is invalid, or contradicts ``--tenant``."""


class EmbeddingError(IngestError):
    """The embedder failed or returned vectors that do not match its declared configuration."""


class VerificationError(IngestError):
    """A staged version's stored rows do not match the expected counts or checksums."""


class PublishError(IngestError):
    """A version could not be made active (e.g. it is no longer staged)."""


class DocumentNotFoundError(IngestError):
    """The document does not exist in the registry of the tenant."""


class TransientIngestError(IngestError):
    """A failure worth retrying (writers raise it for their own transient conditions)."""


class SourceBoundaryError(IngestError):
    """A source lies outside the corpus root (a symbolic link, ``..`` or an absolute manifest path): not read."""


class SourceTooLargeError(IngestError):
    """A source (a file, or one line of a JSONL batch) exceeds the configured size limit: not read further."""


class ManifestMismatchError(IngestError):
    """A file's bytes differ from the sha256 its corpus ``manifest.json`` records."""


class IdentityError(IngestError):
    """A source claims the identity of a document of another kind or another source path."""


class DuplicateBusinessKeyError(IngestError):
    """Another document of the tenant already holds this business key (e.g. an invoice number) with other content."""
