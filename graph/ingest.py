"""Entry point the ingestion pipeline discovers (``ingest.writers.PLUGIN_SPECS``: ``graph.ingest:create_writer``)."""

from __future__ import annotations

from graph.writer import GraphWriter


def create_writer() -> GraphWriter:
    """A new graph writer for one pipeline run."""
    return GraphWriter()
