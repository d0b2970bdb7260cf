"""The validated metric registry cache: a hit is the registry a fresh load builds; any change is validated again.

Database-free: the domain files are copies of the shipped ones in a temporary directory, the schema is the
recorded snapshot of dbt's artifacts. A hit is compared with a fresh load on the whole shipped registry (every
metric's round trip through the cache); the miss, change and eviction rules are shown on a tiny registry (the one
listing of finance.yml, no dbt metrics), where a full validation costs a fraction of a second instead of seconds.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from semantic import loader
from semantic.errors import MetricDefinitionError
from semantic.loader import METRICS_DIR, MetricRegistry, load_registry, registry_cache_key
from semantic.schema import GovernedSchema
from tests.unit.shipped import shipped_registry, unit_schema

#: A listing of finance.yml with an explicit template (dbt metrics carry generated ones).
LISTED = "finance.invoices_above_threshold"


@pytest.fixture(scope="module")
def schema() -> GovernedSchema:
    return unit_schema()


@pytest.fixture(scope="module")
def fresh() -> MetricRegistry:
    """The shipped domain files loaded without a cache."""
    return shipped_registry()


@pytest.fixture(scope="module")
def tiny_schema(schema: GovernedSchema) -> GovernedSchema:
    """The snapshot without dbt metrics: a registry of the tiny domain's listing alone."""
    assert schema.semantic is not None
    return GovernedSchema.from_mapping(schema.relations, schema.source, {**schema.semantic, "metrics": []})


@pytest.fixture()
def domain(tmp_path: Path) -> Path:
    out = tmp_path / "domain"
    out.mkdir()
    for path in METRICS_DIR.glob("*.yml"):
        shutil.copy(path, out / path.name)
    return out


@pytest.fixture()
def tiny_domain(tmp_path: Path) -> Path:
    """finance.yml cut to its header and its first listing (LISTED), byte for byte as shipped."""
    out = tmp_path / "tiny"
    out.mkdir()
    head, first, *_ = (METRICS_DIR / "finance.yml").read_text().split("\n  - name: ")
    assert first.startswith(LISTED + "\n")
    (out / "finance.yml").write_text(f"{head}\n  - name: {first}\n")
    return out


@pytest.fixture()
def validations(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the metrics whose template was validated (the real validation runs; this only counts)."""
    seen: list[str] = []
    real = loader.validate_template

    def counting(definition, schema):  # type: ignore[no-untyped-def]
        seen.append(definition.name)
        return real(definition, schema)

    monkeypatch.setattr(loader, "validate_template", counting)
    return seen


def _same(a: MetricRegistry, b: MetricRegistry) -> None:
    assert list(a.metrics) == list(b.metrics)
    for name, metric in a.metrics.items():
        other = b.metrics[name]
        assert metric == other  # definition and parameter schema
        assert metric.template.tree == other.template.tree
        assert (metric.template.relations, metric.template.placeholders) == (
            other.template.relations, other.template.placeholders)
        # The variants compiled at load (stored in the cache) and one combination compiled on demand from the
        # cached template (every combination would compile ~190 queries twice).
        variants = list(metric._compiled) or list(other._compiled)
        variants += [v for v in metric.allowed_variants() if v not in variants][:1]
        for variant in variants:
            mine, theirs = metric.compiled(variant), other.compiled(variant)
            assert (mine.sql, mine.columns, mine.relation) == (theirs.sql, theirs.columns, theirs.relation)
            assert mine.tree == theirs.tree
            assert mine.to_dialect("postgres") == theirs.to_dialect("postgres")


def test_a_hit_skips_validation_and_equals_a_fresh_load(
    schema: GovernedSchema, fresh: MetricRegistry, domain: Path, tmp_path: Path, validations: list[str]
) -> None:
    cache = tmp_path / "cache"
    first = load_registry(schema, domain, cache_dir=cache)
    assert validations and len(list(cache.glob("registry-*.json"))) == 1
    validations.clear()
    again = load_registry(schema, domain, cache_dir=cache)
    assert validations == []  # from the cache
    _same(fresh, again)
    _same(first, again)


def test_a_changed_template_is_validated_again(
    tiny_schema: GovernedSchema, tiny_domain: Path, tmp_path: Path, validations: list[str]
) -> None:
    schema, domain = tiny_schema, tiny_domain
    cache = tmp_path / "cache"
    load_registry(schema, domain, cache_dir=cache)
    finance = domain / "finance.yml"
    original = finance.read_text()
    assert "from marts.validated_invoice_lines" in original

    # An invalid template: the cached registry must not hide it.
    finance.write_text(original.replace("from marts.validated_invoice_lines", "from marts.no_such_relation", 1))
    validations.clear()
    with pytest.raises(MetricDefinitionError) as caught:
        load_registry(schema, domain, cache_dir=cache)
    assert "no_such_relation" in str(caught.value)
    assert validations

    # A valid change: validated again and served as changed (the SQL carries the new filter).
    changed = original.replace("where ", "where 1 = 1 and ", 1)
    assert changed != original
    finance.write_text(changed)
    validations.clear()
    registry = load_registry(schema, domain, cache_dir=cache)
    assert validations
    assert "1 = 1" in registry.get(LISTED).variant().sql

    # Back to the original bytes: the original registry again, not the changed one.
    finance.write_text(original)
    validations.clear()
    assert "1 = 1" not in load_registry(schema, domain, cache_dir=cache).get(LISTED).variant().sql
    assert validations == []  # the original's entry is still there, under its own key
    assert len(list(cache.glob("registry-*.json"))) == 2


def test_the_cache_keeps_a_few_recent_entries(
    tiny_schema: GovernedSchema, tiny_domain: Path, tmp_path: Path
) -> None:
    schema, domain = tiny_schema, tiny_domain
    cache = tmp_path / "cache"
    cache.mkdir()
    for n in range(loader.REGISTRY_CACHE_ENTRIES + 2):
        (cache / f"registry-old{n}.json").write_text("{}")
    load_registry(schema, domain, cache_dir=cache)
    assert len(list(cache.glob("registry-*.json"))) == loader.REGISTRY_CACHE_ENTRIES
    assert len(list(cache.glob("registry-old*.json"))) == loader.REGISTRY_CACHE_ENTRIES - 1


def test_the_key_follows_the_schema_the_domain_files_and_the_code(
    schema: GovernedSchema, domain: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = registry_cache_key(schema, domain)
    assert registry_cache_key(schema, domain) == key
    relations = {name: dict(cols) for name, cols in schema.relations.items()}
    relations["marts.validated_invoice_lines"] = {**relations["marts.validated_invoice_lines"], "extra": "text"}
    assert registry_cache_key(GovernedSchema.from_mapping(relations, schema.source, schema.semantic), domain) != key
    semantic = dict(schema.semantic or {})
    semantic["metrics"] = list(semantic["metrics"])[1:]
    assert registry_cache_key(GovernedSchema.from_mapping(relations, schema.source, semantic), domain) != key
    (domain / "catalog.yml").write_text((domain / "catalog.yml").read_text() + "\n# a comment\n")
    assert registry_cache_key(schema, domain) != key
    before = registry_cache_key(schema, METRICS_DIR)
    monkeypatch.setattr(loader, "REGISTRY_CACHE_FORMAT", "registry-cache-test")
    assert registry_cache_key(schema, METRICS_DIR) != before


def test_a_damaged_cache_is_a_miss(
    tiny_schema: GovernedSchema, tiny_domain: Path, tmp_path: Path, validations: list[str]
) -> None:
    schema, domain = tiny_schema, tiny_domain
    fresh = load_registry(schema, domain)
    cache = tmp_path / "cache"
    load_registry(schema, domain, cache_dir=cache)
    (stored,) = cache.glob("registry-*.json")
    text = stored.read_text()
    assert len(text) > 1000  # the cut below really damages it
    stored.write_text(text[: 1000])
    validations.clear()
    registry = load_registry(schema, domain, cache_dir=cache)
    assert validations
    _same(fresh, registry)
