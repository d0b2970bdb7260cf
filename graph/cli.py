"""``procura graph``: sync a tenant's knowledge graph, list its review queue.

Register with ``"graph.cli:graph"`` in ``procura.cli._SUBCOMMANDS``. Heavy imports stay inside the commands.
``procura graph resolution`` (a measurement) lives in :mod:`evaluation.cli` and joins this group there.
"""

from __future__ import annotations

import click


@click.group("graph")
def graph() -> None:
    """The knowledge graph (Apache AGE): sync, review queue, resolution accuracy."""


@graph.command("sync")
@click.option("--tenant", "tenant_id", required=True, help="Tenant whose graph to (re)build from served rows.")
def sync(tenant_id: str) -> None:
    """Make the tenant's graph equal to its served landing rows (idempotent; prints what changed)."""
    import psycopg

    from graph.sync import sync_tenant_graph
    from procura.settings import get_settings

    with psycopg.connect(get_settings().owner_url) as conn:
        report = sync_tenant_graph(conn, tenant_id)
        conn.commit()
    click.echo(
        f"{report.graph_name}: {report.documents} documents, {report.vertices_total} vertices, "
        f"{report.edges_total} edges; created {report.vertices_created}/{report.edges_created}, "
        f"updated {report.vertices_updated}/{report.edges_updated}, deleted {report.vertices_deleted}/"
        f"{report.edges_deleted} (vertices/edges); {report.rejected} rejected "
        f"({report.review_items_added} new in review); {report.elapsed_ms} ms"
    )


@graph.command("reviews")
@click.option("--tenant", "tenant_id", required=True)
@click.option("--limit", default=50, show_default=True)
def reviews(tenant_id: str, limit: int) -> None:
    """List pending review-queue items (rejected extraction output) of a tenant."""
    import psycopg

    from graph.review import pending_reviews
    from procura.settings import get_settings

    with psycopg.connect(get_settings().owner_url) as conn:
        items = pending_reviews(conn, tenant_id, limit=limit)
    for item in items:
        click.echo(f"#{item.review_id} {item.document_id} v{item.document_version} {item.reason}"
                   f"{' (' + item.field + ')' if item.field else ''}: {item.message}")
    click.echo(f"{len(items)} pending item(s)")
