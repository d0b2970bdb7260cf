"""Versions of every derivation step; recorded on each document version and part of its config fingerprint.

Bump a version whenever the output of its step changes for the same input: the next ingestion run then
creates a new document version instead of skipping the document, so stores never mix derivations.
"""

from __future__ import annotations

PARSER_VERSION = "parser-1"
CHUNKER_VERSION = "layout-1"
EXTRACTION_VERSION = "vendor-table-1"
#: The landing table shapes ingestion writes (migration 0004).
RELATIONAL_SCHEMA_VERSION = "landing-0004"
