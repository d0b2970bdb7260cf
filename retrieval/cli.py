"""``procura search "..." [--mode exact --mode bm25 ...] --tenant T``.

The CLI is a trusted local operator: it names the tenant itself and searches with the ``procurement:read``
scope, as ``procura_app`` (RLS applies exactly as for API requests). The embedder loads only when the vector
mode is used.
"""

from __future__ import annotations

import datetime as dt
import getpass
import json

import click


def _request(
    query: str,
    modes: tuple[str, ...],
    limit: int,
    product_codes: tuple[str, ...],
    invoice_numbers: tuple[str, ...],
    contract_ids: tuple[str, ...],
    document_types: tuple[str, ...],
    valid_at: dt.datetime | None,
    filter_product_codes: tuple[str, ...],
    document_ids: tuple[str, ...],
    expand_parents: bool,
) -> object:
    from pydantic import ValidationError

    from retrieval.models import SearchRequest

    payload = {
        "query_text": query,
        "identifiers": {
            "product_codes": list(product_codes),
            "invoice_numbers": list(invoice_numbers),
            "contract_ids": list(contract_ids),
        },
        "filters": {
            "document_types": list(document_types),
            "valid_at": valid_at.date().isoformat() if valid_at else None,
            "product_codes": list(filter_product_codes),
            "document_ids": list(document_ids),
        },
        "limit": limit,
        "expand_parents": expand_parents,
    }
    if modes:
        payload["retrieval_modes"] = list(modes)
    try:
        return SearchRequest.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "request"
        raise click.UsageError(f"{where}: {str(first['msg']).removeprefix('Value error, ')}") from None


@click.command("search")
@click.argument("query", required=False, default="")
@click.option("--tenant", required=True, help="Tenant to search (the operator's choice; APIs take it from the key).")
@click.option("--mode", "modes", multiple=True, type=click.Choice(["exact", "bm25", "vector"]),
              help="Retrieval mode; repeat for several (default: all three).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 100))
@click.option("--product-code", "product_codes", multiple=True, help="Identifier to look up exactly.")
@click.option("--invoice-number", "invoice_numbers", multiple=True, help="Identifier to look up exactly.")
@click.option("--contract-id", "contract_ids", multiple=True, help="Identifier to look up exactly.")
@click.option("--type", "document_types", multiple=True, help="Filter: document type (repeatable).")
@click.option("--valid-at", type=click.DateTime(formats=["%Y-%m-%d"]), help="Filter: documents in force on this date.")
@click.option("--filter-product-code", "filter_product_codes", multiple=True,
              help="Filter: only documents about this product code.")
@click.option("--document-id", "document_ids", multiple=True, help="Filter: only this document (repeatable).")
@click.option("--expand-parents", is_flag=True, help="Include the text of each result's parent section.")
@click.option("--json", "as_json", is_flag=True, help="Print the full response as JSON.")
def search(
    query: str,
    tenant: str,
    modes: tuple[str, ...],
    limit: int,
    product_codes: tuple[str, ...],
    invoice_numbers: tuple[str, ...],
    contract_ids: tuple[str, ...],
    document_types: tuple[str, ...],
    valid_at: dt.datetime | None,
    filter_product_codes: tuple[str, ...],
    document_ids: tuple[str, ...],
    expand_parents: bool,
    as_json: bool,
) -> None:
    """Hybrid search (exact identifiers, BM25, vectors) in one tenant's active documents."""
    import psycopg

    from procura.db.session import AuthContext
    from procura.settings import get_settings
    from retrieval.models import SearchRequest
    from retrieval.service import SEARCH_SCOPE
    from retrieval.service import search as run_search

    request = _request(query, modes, limit, product_codes, invoice_numbers, contract_ids, document_types, valid_at,
                       filter_product_codes, document_ids, expand_parents)
    assert isinstance(request, SearchRequest)
    embedder = None
    if "vector" in request.retrieval_modes and request.query_text:
        from ingest.embedder import get_default_embedder

        embedder = get_default_embedder()
    ctx = AuthContext(tenant_id=tenant, principal_id=f"cli:{getpass.getuser()}", scopes=frozenset({SEARCH_SCOPE}))
    settings = get_settings()
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        response = run_search(conn, ctx, request, embedder)
    if as_json:
        click.echo(json.dumps(response.model_dump(mode="json"), indent=2, ensure_ascii=False))
        return
    branches = ", ".join(f"{b.mode} {b.candidates} via {b.path} {b.elapsed_ms:.1f} ms" for b in response.branches)
    click.echo(f"class {response.query_class}; {branches}; {response.elapsed_ms:.1f} ms")
    for r in response.results:
        ranks = " ".join(f"{m}#{h.rank}" for m, h in sorted(r.branches.items()))
        identity = f" [{r.identity_match}: {', '.join(r.matched_identifiers)}]" if r.identity_match else ""
        click.echo(f"{r.rank:>3}. {r.document_id} v{r.document_version} p{r.page} {r.chunk_id}  "
                   f"{r.fused_score:.4f} ({ranks}){identity}")
        section = " > ".join(r.parent_section.path)
        if section:
            click.echo(f"     {section}")
        click.echo("     " + " ".join(r.text.split())[:200])
