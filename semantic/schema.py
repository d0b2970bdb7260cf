"""The column schema of the governed relations, read from dbt's artifacts.

Template validation (sqlglot ``qualify``) needs to know every column of every governed relation. That knowledge
lives in dbt: model contracts in ``target/manifest.json`` (``dbt parse``, no database needed) or the database's
view of it in ``target/catalog.json`` (``dbt docs generate``). This module reads either, keeps only the
``marts`` schema (the governed layer), picks up dbt's semantic layer (``target/semantic_manifest.json``, written
by the same parse: semantic models and the metrics Procura serves) and can write a compact snapshot of both for
database-free tests::

    python -m semantic.schema --manifest target/manifest.json --out tests/unit/fixtures/semantic/schema.json
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from procura.settings import REPO_ROOT
from semantic.errors import SchemaArtifactError

#: The schema dbt builds the governed marts in; only its relations may appear in a metric template.
GOVERNED_SCHEMA = "marts"
DEFAULT_TARGET_DIR = REPO_ROOT / "target"
_UNKNOWN_TYPE = "unknown"


@dataclass(frozen=True)
class GovernedSchema:
    """Columns and types of the governed relations, keyed ``schema.relation`` -> column -> data type.

    Attributes:
        relations: read-only mapping of qualified relation name to its columns and their SQL types.
        source: where the schema came from (artifact path and dbt version), for messages and snapshots.
        semantic: dbt's semantic manifest (``semantic_models`` and ``metrics``) read beside the artifact, or
            None when there was none.
    """

    relations: Mapping[str, Mapping[str, str]]
    source: str
    semantic: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    @classmethod
    def from_mapping(
        cls, relations: Mapping[str, Mapping[str, str]], source: str, semantic: Mapping[str, Any] | None = None
    ) -> GovernedSchema:
        """Build a schema from plain dicts (names are lower-cased, as Postgres folds them)."""
        frozen = {
            name.lower(): MappingProxyType({col.lower(): (typ or _UNKNOWN_TYPE).lower() for col, typ in cols.items()})
            for name, cols in relations.items()
        }
        return cls(relations=MappingProxyType(dict(sorted(frozen.items()))), source=source, semantic=semantic)

    def has_relation(self, qualified_name: str) -> bool:
        """True when ``schema.relation`` is a governed relation."""
        return qualified_name.lower() in self.relations

    def for_sqlglot(self) -> dict[str, object]:
        """The nested ``{schema: {table: {column: type}}}`` mapping sqlglot's ``qualify`` expects."""
        nested: dict[str, dict[str, dict[str, str]]] = {}
        for name, columns in self.relations.items():
            schema, _, table = name.partition(".")
            nested.setdefault(schema, {})[table] = dict(columns)
        return dict(nested)

    def to_json(self) -> str:
        """A stable JSON snapshot (sorted), the format of :meth:`load_snapshot`."""
        payload = {
            "source": self.source,
            "relations": {name: dict(sorted(cols.items())) for name, cols in self.relations.items()},
        }
        if self.semantic is not None:
            payload["semantic"] = self.semantic
        return json.dumps(payload, indent=2, sort_keys=True) + "\n"


def load_manifest(path: Path, schema_name: str = GOVERNED_SCHEMA) -> GovernedSchema:
    """Read model columns and their contract ``data_type`` from dbt's ``manifest.json``.

    Args:
        path: the manifest file (``target/manifest.json``).
        schema_name: keep only models built in this schema.

    Raises:
        SchemaArtifactError: the file is missing or unreadable, or no model of that schema declares columns.
    """
    manifest = _read_json(path)
    relations: dict[str, dict[str, str]] = {}
    for node in manifest.get("nodes", {}).values():
        if node.get("resource_type") != "model" or str(node.get("schema", "")).lower() != schema_name:
            continue
        columns = {
            str(col.get("name") or key): str(col.get("data_type") or _UNKNOWN_TYPE)
            for key, col in (node.get("columns") or {}).items()
        }
        if columns:
            relations[f"{schema_name}.{node.get('alias') or node['name']}"] = columns
    if not relations:
        raise SchemaArtifactError(f"{path}: no model in schema {schema_name!r} declares its columns")
    version = manifest.get("metadata", {}).get("dbt_version", "?")
    return GovernedSchema.from_mapping(
        relations, source=f"dbt {version} manifest", semantic=load_semantic_manifest(path.parent)
    )


def load_semantic_manifest(target_dir: Path) -> dict[str, Any] | None:
    """The semantic models and metrics of ``target_dir/semantic_manifest.json`` (None when it does not exist).

    Raises:
        SchemaArtifactError: the file exists but is not a semantic manifest.
    """
    path = target_dir / "semantic_manifest.json"
    if not path.exists():
        return None
    data = _read_json(path)
    if not isinstance(data.get("semantic_models"), list) or not isinstance(data.get("metrics"), list):
        raise SchemaArtifactError(f"{path}: not a dbt semantic manifest (no semantic_models/metrics lists)")
    return {"semantic_models": data["semantic_models"], "metrics": data["metrics"]}


def load_catalog(path: Path, schema_name: str = GOVERNED_SCHEMA) -> GovernedSchema:
    """Read relation columns and their database types from dbt's ``catalog.json``.

    Raises:
        SchemaArtifactError: the file is missing or unreadable, or it has no relation in that schema.
    """
    catalog = _read_json(path)
    relations: dict[str, dict[str, str]] = {}
    for node in catalog.get("nodes", {}).values():
        meta = node.get("metadata", {})
        if str(meta.get("schema", "")).lower() != schema_name:
            continue
        relations[f"{schema_name}.{meta['name']}"] = {
            str(col.get("name") or key): str(col.get("type") or _UNKNOWN_TYPE)
            for key, col in (node.get("columns") or {}).items()
        }
    if not relations:
        raise SchemaArtifactError(f"{path}: no relation in schema {schema_name!r}")
    version = catalog.get("metadata", {}).get("dbt_version", "?")
    return GovernedSchema.from_mapping(
        relations, source=f"dbt {version} catalog", semantic=load_semantic_manifest(path.parent)
    )


def load_snapshot(path: Path) -> GovernedSchema:
    """Read a snapshot written by :meth:`GovernedSchema.to_json`."""
    payload = _read_json(path)
    try:
        return GovernedSchema.from_mapping(
            payload["relations"], source=str(payload.get("source", path.name)), semantic=payload.get("semantic")
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise SchemaArtifactError(f"{path}: not a governed-schema snapshot ({exc})") from exc


def discover(target_dir: Path = DEFAULT_TARGET_DIR) -> GovernedSchema:
    """The governed schema from dbt's artifacts in ``target_dir``: the manifest first, else the catalog.

    Design note: contract columns in the manifest are the declared interface of the marts and exist before any
    build, so they win; the catalog (what the database actually has) is the fallback for projects whose marts
    declare no columns.

    Raises:
        SchemaArtifactError: neither artifact exists; the message says how to produce one.
    """
    manifest = target_dir / "manifest.json"
    catalog = target_dir / "catalog.json"
    if manifest.exists():
        try:
            return load_manifest(manifest)
        except SchemaArtifactError:
            if not catalog.exists():
                raise
    if catalog.exists():
        return load_catalog(catalog)
    raise SchemaArtifactError(
        f"no dbt artifacts in {target_dir}: run `dbt parse` (writes target/manifest.json without a database)"
    )


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise SchemaArtifactError(f"{path} does not exist") from exc
    except (OSError, ValueError) as exc:
        raise SchemaArtifactError(f"{path} is not readable JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise SchemaArtifactError(f"{path} is not a JSON object")
    return data


def _main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write a governed-schema snapshot from dbt artifacts.")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--manifest", type=Path)
    source.add_argument("--catalog", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--relations", help="comma-separated schema.relation names to keep (default: all)")
    args = parser.parse_args(argv)
    schema = load_manifest(args.manifest) if args.manifest else load_catalog(args.catalog)
    if args.relations:
        keep = {name.strip().lower() for name in args.relations.split(",")}
        missing = keep - set(schema.relations)
        if missing:
            raise SystemExit(f"not in the artifact: {', '.join(sorted(missing))}")
        schema = GovernedSchema.from_mapping(
            {k: v for k, v in schema.relations.items() if k in keep}, source=schema.source, semantic=schema.semantic
        )
    args.out.write_text(schema.to_json())


if __name__ == "__main__":  # pragma: no cover
    _main()
