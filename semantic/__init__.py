"""Procura's semantic layer: named metrics as allow-listed, parameterized SQL templates over governed marts.

Metrics are defined in one YAML file per domain (``finance.yml``, ``catalog.yml``), validated with sqlglot
against the column schema from dbt's artifacts when loaded, and executed with bound parameters only, as the
serving role, inside a tenant transaction that can write nothing but the call's audit row.

Public API:
    :func:`semantic.schema.discover` / :func:`semantic.schema.load_manifest`: the governed schema.
    :func:`semantic.loader.load_registry`: validated and compiled metrics.
    :class:`semantic.service.MetricService`: catalog, describe, query (with audit).
    :mod:`semantic.errors`: the flat error family.
"""
