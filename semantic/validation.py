"""Load-time validation of a metric's SQL template with sqlglot.

A template is accepted only if it is one read-only ``SELECT`` over allow-listed governed relations, calls no
denylisted function, names only columns that exist in dbt's artifacts, and its ``:placeholders`` are exactly
the declared parameters. Any failure raises :class:`~semantic.errors.MetricDefinitionError` naming the metric
and the reason; nothing here runs per request.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import OptimizeError, ParseError, SqlglotError
from sqlglot.optimizer.qualify import qualify

from semantic.errors import MetricDefinitionError
from semantic.model import MetricDefinition
from semantic.schema import GOVERNED_SCHEMA, GovernedSchema

DIALECT = "postgres"

#: Functions a template may never call: sleeping, remote access, settings, files, locks, sequences, signals.
DENIED_FUNCTIONS = frozenset(
    {
        "pg_sleep",
        "pg_sleep_for",
        "pg_sleep_until",
        "dblink",
        "dblink_exec",
        "dblink_connect",
        "dblink_connect_u",
        "dblink_send_query",
        "dblink_get_result",
        "set_config",
        "current_setting",
        "pg_read_file",
        "pg_read_binary_file",
        "pg_ls_dir",
        "pg_stat_file",
        "lo_import",
        "lo_export",
        "lo_get",
        "lo_put",
        "lo_from_bytea",
        "lo_open",
        "lo_unlink",
        "pg_terminate_backend",
        "pg_cancel_backend",
        "pg_reload_conf",
        "pg_rotate_logfile",
        "pg_advisory_lock",
        "pg_advisory_xact_lock",
        "pg_try_advisory_lock",
        "pg_notify",
        "nextval",
        "setval",
        "currval",
        "lastval",
        "query_to_xml",
        "query_to_json",
        "table_to_xml",
        "cursor_to_xml",
        "database_to_xml",
        "txid_current",
        "pg_current_xact_id",
        "version",
    }
)
#: Function-name prefixes that are never needed by a metric and reach server internals.
DENIED_PREFIXES = ("pg_", "lo_", "dblink", "txid_")

#: Statement and clause types that write, lock, change settings or leave SQL altogether.
_FORBIDDEN_NODES: tuple[type[exp.Expression], ...] = (
    exp.Insert,
    exp.Update,
    exp.Delete,
    exp.Merge,
    exp.Create,
    exp.Drop,
    exp.Alter,
    exp.Command,
    exp.Set,
    exp.Transaction,
    exp.Commit,
    exp.Rollback,
    exp.Into,
    exp.Lock,
    exp.Copy,
    exp.Grant,
    exp.TruncateTable,
    exp.Use,
    exp.Pragma,
    exp.Describe,
    exp.Analyze,
)
_PLACEHOLDER_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
_Fail = Callable[[str], MetricDefinitionError]


@dataclass(frozen=True)
class ValidatedTemplate:
    """A template that passed validation: its parsed (unqualified) tree and what it references.

    Attributes:
        tree: the parsed SELECT; callers copy it before changing it.
        relations: the governed relations it reads, ``schema.name``.
        placeholders: the placeholder names it uses.
    """

    tree: exp.Select
    relations: frozenset[str]
    placeholders: frozenset[str]


def validate_template(definition: MetricDefinition, schema: GovernedSchema) -> ValidatedTemplate:
    """Validate ``definition.sql`` against the governed ``schema``.

    Raises:
        MetricDefinitionError: naming the metric and the first rule the template breaks.
    """
    name = definition.name

    def fail(reason: str) -> MetricDefinitionError:
        return MetricDefinitionError(name, reason)

    if "\x00" in definition.sql:
        raise fail("template contains a NUL character")
    try:
        statements = [s for s in sqlglot.parse(definition.sql, read=DIALECT) if s is not None]
    except ParseError as exc:
        raise fail(f"template does not parse as {DIALECT} SQL: {_first_line(exc)}") from exc
    except SqlglotError as exc:
        raise fail(f"template does not parse: {_first_line(exc)}") from exc
    if len(statements) != 1:
        raise fail(f"template must be exactly one statement, found {len(statements)} (no ';' chains)")
    tree = statements[0]
    if not isinstance(tree, exp.Select):
        raise fail(f"template must be a SELECT, found {tree.key.upper()}")
    for node in tree.walk():
        if isinstance(node, _FORBIDDEN_NODES):
            raise fail(f"template must be read-only: {node.key.upper()} is not allowed")
    for node in tree.walk():
        if isinstance(node, exp.Func):
            func = function_name(node)
            if func in DENIED_FUNCTIONS or func.startswith(DENIED_PREFIXES):
                raise fail(f"function {func}() is denylisted")
    if tree.args.get("limit") is not None or tree.args.get("offset") is not None:
        raise fail("template must not LIMIT or OFFSET its result; the executor applies the row cap")

    relations = _check_relations(definition, tree, schema, fail)
    placeholders = _check_placeholders(definition, tree, fail)
    _check_outputs(definition, tree, fail)
    qualify_or_fail(definition.name, tree, schema)
    return ValidatedTemplate(tree=tree, relations=relations, placeholders=placeholders)


def function_name(node: exp.Func) -> str:
    """The lower-case SQL name of a function call (anonymous or known to sqlglot)."""
    if isinstance(node, exp.Anonymous):
        return str(node.name).lower()
    return node.sql_name().lower()


def qualify_or_fail(metric: str, tree: exp.Expression, schema: GovernedSchema, *, copy: bool = True) -> exp.Expression:
    """``qualify`` ``tree`` (a copy of it unless ``copy`` is false) with every column checked against the schema.

    Raises:
        MetricDefinitionError: a column does not exist (or is ambiguous) in the governed relations.
    """
    try:
        return qualify(
            tree.copy() if copy else tree,
            schema=schema.for_sqlglot(),
            dialect=DIALECT,
            validate_qualify_columns=True,
            quote_identifiers=True,
        )
    except OptimizeError as exc:
        raise MetricDefinitionError(
            metric, f"column check against the governed schema ({schema.source}) failed: {_first_line(exc)}"
        ) from exc
    except SqlglotError as exc:
        raise MetricDefinitionError(metric, f"template cannot be qualified: {_first_line(exc)}") from exc


def _check_relations(
    definition: MetricDefinition, tree: exp.Select, schema: GovernedSchema, fail: _Fail
) -> frozenset[str]:
    cte_names = {cte.alias_or_name.lower() for cte in tree.find_all(exp.CTE)}
    used: set[str] = set()
    for table in tree.find_all(exp.Table):
        if not isinstance(table.this, exp.Identifier):
            raise fail(f"table functions are not allowed in FROM ({table.sql(dialect=DIALECT)})")
        table_name = table.name.lower()
        if not table.db and table_name in cte_names:
            continue
        if table.catalog:
            raise fail(f"relation {table.sql(dialect=DIALECT)} must not name a database")
        if not table.db:
            raise fail(f"relation {table_name} must be schema-qualified ({GOVERNED_SCHEMA}.{table_name})")
        qualified = f"{table.db.lower()}.{table_name}"
        if table.db.lower() != GOVERNED_SCHEMA or not schema.has_relation(qualified):
            raise fail(f"relation {qualified} is not a governed relation (allowed: the {GOVERNED_SCHEMA} marts)")
        if qualified not in {r.lower() for r in definition.relations}:
            raise fail(f"relation {qualified} is used but not declared in relations")
        used.add(qualified)
    unused = {r.lower() for r in definition.relations} - used
    if unused:
        raise fail(f"declared relation(s) not used by the template: {', '.join(sorted(unused))}")
    return frozenset(used)


def _check_placeholders(definition: MetricDefinition, tree: exp.Select, fail: _Fail) -> frozenset[str]:
    used: set[str] = set()
    for node in tree.find_all(exp.Placeholder):
        placeholder = str(node.name)
        if not placeholder or not _PLACEHOLDER_NAME.match(placeholder):
            raise fail("placeholders must be named :lower_snake_case (positional '?' or '%s' are not allowed)")
        used.add(placeholder)
    for parameter in tree.find_all(exp.Parameter):
        raise fail(f"parameter syntax {parameter.sql(dialect=DIALECT)} is not allowed; use :name placeholders")
    declared = set(definition.parameters)
    undeclared = used - declared
    if undeclared:
        raise fail(f"placeholder(s) not declared as parameters: {', '.join(sorted(undeclared))}")
    # A ranking's or comparison's own parameters are bound by the compiler or the binder, not the template.
    unused = definition.template_parameters() - used
    if unused:
        raise fail(f"declared parameter(s) not used by the template: {', '.join(sorted(unused))}")
    return frozenset(used)


def _check_outputs(definition: MetricDefinition, tree: exp.Select, fail: _Fail) -> None:
    aliases = []
    for projection in tree.expressions:
        if isinstance(projection, exp.Star) or (isinstance(projection, exp.Column) and projection.is_star):
            raise fail("template must name its output columns (no SELECT *)")
        aliases.append(projection.alias_or_name)
    if aliases != list(definition.template_outputs()):
        raise fail(
            f"output columns {aliases} do not match the declared outputs {list(definition.template_outputs())} "
            "(same order)"
        )
    needs_aggregate = definition.dimensions or definition.time_dimension or definition.provenance
    if needs_aggregate and not any(p.find(exp.AggFunc) for p in tree.expressions):
        raise fail("dimensions, grains and provenance need an aggregating template (outputs use aggregates)")


def _first_line(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
