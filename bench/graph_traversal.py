"""Benchmark: supplier -> products under a product group, Apache AGE traversal vs recursive SQL CTE.

Both answer the architecture's question "products of these suppliers whose group is within three PART_OF steps
of the group named X" over the same served data in the same run:

* ``age_raw``  the graph tool's two Cypher statements (the group's subtree by fixed-length PART_OF patterns, then
               the suppliers' products in it), planned as the tool plans them (both prepared, with generic
               plans), as the owner role, one statement per round trip, rows fetched as text (the database's
               share);
* ``age_vle``  the architecture's single pattern ``(s)-[:SUPPLIES]->(p)-[:BELONGS_TO]->(g)``,
               ``(g)-[:PART_OF*0..3]->(root)`` (AGE's variable-length path), as the owner role, rows as text: what
               the tool ran before;
* ``age_tool`` :func:`graph.tools.find_products` end to end as ``procura_app`` on a connection of
               :func:`procura.db.session.open_pool` (tenant transaction, RLS on the label tables, active versions,
               agtype parsing, pydantic response), as the API and the router run it;
* ``age_held`` the same call on one connection held for the whole run (taken from a pool once): the tool
               without the pool's checkout, return and reset, so the pool's share is the difference;
* ``sql``      a recursive CTE over the served ``landing.product_groups``/``landing.products`` rows.

The target (issue 21): ``age_tool`` median <= 2x the ``sql`` median at 25,000 products (scale 50), same rows.

The demo corpus's ``--scale`` only multiplies invoices and text (its catalog has 21 products), so the catalog is
synthetic: ``--scale N`` gives 20·N suppliers, 500·N products and a 4-level group forest of 524 groups. Results
are compared for equality before timing. Run (own database, dropped afterwards unless ``--keep``)::

    python -m bench.graph_traversal --scale 1 --scale 10 --scale 100
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from graph.age import (
    CypherCall,
    CypherQuery,
    cypher_sql,
    encode_parameters,
    fetch_cypher_many,
    graph_name_for_tenant,
    prepare_age_transaction,
)
from graph.agtype import parse_agtype
from graph.sync import sync_tenant_graph
from graph.tools import (
    FindProductsRequest,
    find_products,
    subtree_group_ids,
    subtree_query,
    supplier_products_query,
)
from procura.db.migrate import migrate
from procura.db.provision import drop_database, ensure_database
from procura.db.session import AuthContext, open_pool
from procura.settings import Settings, get_settings

_CTE = """
with recursive
served as (
    select document_id, active_version as document_version
    from ingest.documents
    where tenant_id = %(tenant)s and active_version is not null and not is_deleted
),
product_groups as (
    select g.* from landing.product_groups g
    join served s on s.document_id = g.document_id and s.document_version = g.document_version
    where g.tenant_id = %(tenant)s
),
products as (
    select p.* from landing.products p
    join served s on s.document_id = p.document_id and s.document_version = p.document_version
    where p.tenant_id = %(tenant)s
),
subtree (product_group_id, depth) as (
    select product_group_id, 0 from product_groups where group_name = %(group)s
    union all
    select g.product_group_id, t.depth + 1
    from product_groups g
    join subtree t on g.parent_group_id = t.product_group_id
    where t.depth < 3
),
final as (
    select distinct products.supplier_id, products.product_code
    from products
    join subtree on subtree.product_group_id = products.product_group_id
    where products.supplier_id = any(%(suppliers)s)
)
select * from final order by supplier_id, product_code
"""

_INGESTED_AT = datetime(2026, 5, 1, tzinfo=UTC)
#: The target: the graph tool's median at most this multiple of the recursive CTE's, at TARGET_PRODUCTS.
TARGET_RATIO = 2.0
TARGET_PRODUCTS = 25_000

_VLE = CypherQuery(
    "find_products_vle",
    """
    MATCH (s:Supplier)-[supplies:SUPPLIES]->(p:Product)-[belongs:BELONGS_TO]->(g:ProductGroup)
    WHERE s.id IN $supplier_ids
    MATCH (g)-[part_of:PART_OF*0..3]->(root:ProductGroup {name: $group})
    RETURN s.id, p.code, p.source_key, supplies.source_key, belongs.source_key, part_of
    ORDER BY s.id, p.code
    """,
    ("supplier_id", "product_code", "product_source_key", "supplies_key", "belongs_key", "part_of"),
)


@dataclass(frozen=True)
class Timing:
    """Latency of one method at one scale (milliseconds)."""

    method: str
    median_ms: float
    p95_ms: float
    rows: int


def _register(conn: psycopg.Connection, tenant: str, document_id: str, document_type: str) -> str:
    content_hash = "sha256:" + hashlib.sha256(f"{tenant}/{document_id}".encode()).hexdigest()
    conn.execute(
        "insert into ingest.documents (tenant_id, document_id, document_type, source_uri, active_version) "
        "values (%s, %s, %s, %s, 1)",
        (tenant, document_id, document_type, f"bench://{document_id}"),
    )
    conn.execute(
        "insert into ingest.document_versions (tenant_id, document_id, document_version, content_hash, status, "
        "original_content, parser_version, relational_schema_version) "
        "values (%s, %s, 1, %s, 'published', ''::bytea, 'bench', 'bench')",
        (tenant, document_id, content_hash),
    )
    return content_hash


def load_synthetic_catalog(conn: psycopg.Connection, tenant: str, scale: int, seed: int = 7) -> list[str]:
    """Landing rows of a synthetic catalog; returns the root group names."""
    rng = random.Random(seed)
    head = (tenant, "catalog-product-groups", 1)
    h = _register(conn, tenant, "catalog-product-groups", "product_groups")
    groups: list[tuple[str, str, str | None]] = []
    roots = [f"Root {r}" for r in range(4)]
    leaves: list[str] = []
    for r, root_name in enumerate(roots):
        root_id = f"PG-R{r}"
        groups.append((root_id, root_name, None))
        for a in range(5):
            a_id = f"{root_id}-{a}"
            groups.append((a_id, f"Group {a_id}", root_id))
            for b in range(5):
                b_id = f"{a_id}-{b}"
                groups.append((b_id, f"Group {b_id}", a_id))
                for c in range(4):
                    c_id = f"{b_id}-{c}"
                    groups.append((c_id, f"Group {c_id}", b_id))
                    leaves.append(c_id)
    with conn.cursor() as cur:
        cur.executemany(
            "insert into landing.product_groups (tenant_id, document_id, document_version, content_hash, ingested_at,"
            " product_group_id, group_name, parent_group_id) values (%s, %s, %s, %s, %s, %s, %s, %s)",
            [(*head, h, _INGESTED_AT, *g) for g in groups],
        )
        h = _register(conn, tenant, "master-suppliers", "suppliers")
        suppliers = [f"SUP-{i}" for i in range(1, 20 * scale + 1)]
        cur.executemany(
            "insert into landing.suppliers (tenant_id, document_id, document_version, content_hash, ingested_at,"
            " supplier_id, supplier_name) values (%s, 'master-suppliers', 1, %s, %s, %s, %s)",
            [(tenant, h, _INGESTED_AT, s, f"Supplier {s}") for s in suppliers],
        )
        h = _register(conn, tenant, "catalog-products", "products")
        all_groups = [g[0] for g in groups]
        products = []
        for i in range(1, 500 * scale + 1):
            # Most products sit in leaves (depth 3 below a root), some higher up, as in a real catalog.
            group = rng.choice(leaves) if rng.random() < 0.8 else rng.choice(all_groups)
            products.append((tenant, h, _INGESTED_AT, f"PRD-{i}", f"Product {i}", group, rng.choice(suppliers),
                             "EA", "10.00", "EUR"))
        cur.executemany(
            "insert into landing.products (tenant_id, document_id, document_version, content_hash, ingested_at,"
            " product_code, product_name, product_group_id, supplier_id, unit_of_measure, list_price, currency)"
            " values (%s, 'catalog-products', 1, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
            products,
        )
    return roots


def _timed(fns: dict[str, Callable[[], Sequence[Any]]], repeat: int) -> dict[str, tuple[list[float], Sequence[Any]]]:
    """Time every method ``repeat`` times, interleaved (one call of each per round, the order rotating), so that
    a load that comes and goes on a shared machine weighs on all of them alike; three warm-up calls each."""
    results: dict[str, Sequence[Any]] = {}
    for name, fn in fns.items():
        for _ in range(3):
            results[name] = fn()
    samples: dict[str, list[float]] = {name: [] for name in fns}
    names = list(fns)
    for round_ in range(repeat):
        for name in names[round_ % len(names):] + names[: round_ % len(names)]:
            started = time.perf_counter()
            results[name] = fns[name]()
            samples[name].append((time.perf_counter() - started) * 1000)
    return {name: (samples[name], results[name]) for name in fns}


def _summary(method: str, samples: list[float], rows: int) -> Timing:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return Timing(method, statistics.median(samples), p95, rows)


def run_scale(settings: Settings, scale: int, repeat: int, suppliers_per_query: int) -> dict[str, Any]:
    """Load one scale, sync the graph, check the methods agree, time them."""
    tenant = f"bench-s{scale}"
    load: dict[str, list[float]] = {}
    with psycopg.connect(settings.owner_url, autocommit=True) as owner:
        with owner.transaction():
            roots = load_synthetic_catalog(owner, tenant, scale)
        started = time.perf_counter()
        with owner.transaction():
            report = sync_tenant_graph(owner, tenant)
        sync_s = time.perf_counter() - started
        owner.execute("analyze")
        rng = random.Random(scale)
        supplier_ids = sorted(rng.sample([f"SUP-{i}" for i in range(1, 20 * scale + 1)], suppliers_per_query))
        group = roots[0]
        graph = graph_name_for_tenant(tenant)

        def raw(query: CypherQuery, params: dict[str, Any]) -> list[tuple[Any, ...]]:
            statement = cypher_sql(graph, query, with_params=True)
            return owner.execute(statement, (encode_parameters(query, params),)).fetchall()

        subtree_call = CypherCall(subtree_query("name", 3), {"group": group}, prepare=True)

        def age_raw() -> list[tuple[str, str]]:
            # The tool's statements, prepared as the tool prepares them, without agtype parsing or version
            # checks: what the database itself costs.
            with owner.transaction():
                prepare_age_transaction(owner)
                owner.execute("select set_config('plan_cache_mode', 'force_generic_plan', true)")
                (subtree,) = fetch_cypher_many(owner, graph, [subtree_call])
                groups = dict.fromkeys(subtree_group_ids([parse_agtype(cell) for row in subtree for cell in row]), True)
                (rows,) = fetch_cypher_many(owner, graph, [CypherCall(
                    supplier_products_query(len(supplier_ids)), {"supplier_ids": supplier_ids, "groups": groups},
                    prepare=True,
                )])  # fmt: skip
            # the supplier id and product code are the SUPPLIES edge's ends (its property map, third column)
            supplies = (parse_agtype(r[2]) for r in rows)
            return sorted({(e["source_id"], e["target_id"]) for e in supplies})

        def age_vle() -> list[tuple[str, str]]:
            with owner.transaction():
                prepare_age_transaction(owner)
                rows = raw(_VLE, {"supplier_ids": supplier_ids, "group": group})
            # every row here is of an active version: the benchmark's documents have one version each
            return sorted({(json.loads(r[0]), json.loads(r[1])) for r in rows})

        def sql() -> list[tuple[str, str]]:
            rows = owner.execute(_CTE, {"tenant": tenant, "group": group, "suppliers": supplier_ids}).fetchall()
            return [(r[0], r[1]) for r in rows]

        # Two connections, as a serving pool has several: the one just returned is reset by a pool worker while
        # the next call takes the other.
        with (
            open_pool(settings.app_url, name="bench-graph", min_size=2, max_size=2, age=True) as pool,
            open_pool(settings.app_url, name="bench-graph-held", min_size=1, max_size=1, age=True) as held_pool,
        ):
            held = held_pool.getconn()
            ctx = AuthContext(tenant, "bench")
            request = FindProductsRequest(supplier_ids=tuple(supplier_ids), group_name=group, limit=1000,
                                          timeout_ms=60_000)

            def tool() -> list[tuple[str, str]]:
                with pool.connection() as app:
                    response = find_products(app, ctx, request)
                return sorted({(p.supplier_id, p.product_code) for p in response.products})

            def tool_held() -> list[tuple[str, str]]:
                response = find_products(held, ctx, request)
                return sorted({(p.supplier_id, p.product_code) for p in response.products})

            # age_vle only a few times: it is the slow baseline (the whole graph loaded per call)
            ((vle_samples, vle_rows),) = _timed({"age_vle": age_vle}, max(5, repeat // 3)).values()
            # the machine is shared: the load average next to the figures it weighs on
            load["start"] = _load_average()
            timed = _timed({"age_raw": age_raw, "sql": sql, "age_tool": tool, "age_held": tool_held}, repeat)
            load["end"] = _load_average()
            held_pool.putconn(held)
            raw_samples, raw_rows = timed["age_raw"]
            sql_samples, sql_rows = timed["sql"]
            tool_samples, tool_rows = timed["age_tool"]
            held_samples, held_rows = timed["age_held"]
        if not (list(vle_rows) == list(raw_rows) == list(sql_rows) == list(tool_rows) == list(held_rows)):
            raise SystemExit(f"scale {scale}: AGE, tool and SQL disagree ({len(vle_rows)}/{len(raw_rows)}/"
                             f"{len(tool_rows)}/{len(held_rows)}/{len(sql_rows)} rows)")
    timings = [
        _summary("age_raw", raw_samples, len(raw_rows)),
        _summary("age_vle", vle_samples, len(vle_rows)),
        _summary("age_tool", tool_samples, len(tool_rows)),
        _summary("age_held", held_samples, len(held_rows)),
        _summary("sql", sql_samples, len(sql_rows)),
    ]
    return {"scale": scale, "products": 500 * scale, "suppliers": 20 * scale, "vertices": report.vertices_total,
            "edges": report.edges_total, "sync_s": sync_s, "timings": timings, "load_average": load}


def _load_average() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print one table per scale plus the AGE/SQL ratios."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=int, action="append", help="catalog scale (repeatable; default 1 10 50)")
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--suppliers", type=int, default=10, help="suppliers per query")
    parser.add_argument("--db-name", default="procura_bench_graph")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    scales = args.scale or [1, 10, 50]
    settings = get_settings().with_database(args.db_name)
    ensure_database(settings)
    try:
        with psycopg.connect(settings.admin_url, autocommit=True) as admin:
            migrate(admin, settings)
            for table in ("products", "product_groups", "suppliers"):
                admin.execute(f"delete from landing.{table} where tenant_id like 'bench-%%'")
            admin.execute("delete from ingest.document_versions where tenant_id like 'bench-%%'")
            admin.execute("delete from ingest.documents where tenant_id like 'bench-%%'")
            for (graph_name,) in admin.execute("select graph_name from graph.tenant_graphs").fetchall():
                admin.execute("select ag_catalog.drop_graph(%s, true)", (graph_name,))
            admin.execute("delete from graph.tenant_graphs")
        print(f"{'scale':>5} {'products':>8} {'edges':>7} {'sync s':>7}  {'method':<9} {'median ms':>9} "
              f"{'p95 ms':>8} {'rows':>5}  AGE/SQL (median)")
        figures: list[dict[str, Any]] = []
        for scale in scales:
            result = run_scale(settings, scale, args.repeat, min(args.suppliers, 20 * scale))
            by_method = {t.method: t for t in result["timings"]}
            figures.append({
                "scale": scale, "products": result["products"], "edges": result["edges"], "sync_s": result["sync_s"],
                "load_average": result["load_average"],
                "median_ms": {t.method: round(t.median_ms, 3) for t in result["timings"]},
                "p95_ms": {t.method: round(t.p95_ms, 3) for t in result["timings"]},
                "ratio_median_over_sql": {
                    t.method: round(t.median_ms / by_method["sql"].median_ms, 2) for t in result["timings"]
                },
            })  # fmt: skip
            for t in result["timings"]:
                ratio = t.median_ms / by_method["sql"].median_ms
                print(f"{result['scale']:>5} {result['products']:>8} {result['edges']:>7} {result['sync_s']:>7.2f}"
                      f"  {t.method:<9} {t.median_ms:>9.2f} {t.p95_ms:>8.2f} {t.rows:>5}  {ratio:5.1f}x")
            print(f"      load average {result['load_average']['start']} -> {result['load_average']['end']} "
                  f"({os.cpu_count()} cores)")
            sys.stdout.flush()
    finally:
        if not args.keep:
            drop_database(get_settings(), args.db_name)
    target = next((f for f in figures if f["products"] == TARGET_PRODUCTS), None)
    if target is not None:
        ratio = target["ratio_median_over_sql"]["age_tool"]
        print(f"target: graph tool median <= {TARGET_RATIO:g}x the recursive CTE at {TARGET_PRODUCTS} products: "
              f"{ratio}x, {'met' if ratio <= TARGET_RATIO else 'missed'}")
    if args.json is not None:
        largest = target or figures[-1]
        ratio = largest["ratio_median_over_sql"].get("age_tool")
        headline = [
            {
                "figure": f"graph tool (find_products) median / recursive CTE median, {largest['products']} "
                "products, same rows",
                "value": ratio,
                "unit": "x",
                "target": f"<= {TARGET_RATIO:g}x at {TARGET_PRODUCTS} products",
                # measured at another size, the ratio says nothing about the target
                "met": (ratio <= TARGET_RATIO) if target is not None else None,
                "detail": f"age_tool {largest['median_ms'].get('age_tool')} ms, "
                f"sql {largest['median_ms'].get('sql')} ms, age_raw {largest['median_ms'].get('age_raw')} ms, "
                f"age_held (no pool) {largest['median_ms'].get('age_held')} ms, "
                f"age_vle (before) {largest['median_ms'].get('age_vle')} ms; load average "
                f"{largest['load_average']['start']} -> {largest['load_average']['end']}",
            }
        ]
        text = json.dumps({"scales": figures, "headline": headline}, indent=2)
        args.json.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
