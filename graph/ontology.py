"""The ontology of the knowledge graph, as data: entity types, canonical relationships and their properties.

Adding a relationship or a property is an edit here; :mod:`graph.schema` validates extraction output against
these specs (and is where the rules of validation live). Every name is an identifier checked at import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

#: Recorded on every vertex and edge and in ``ingest.document_versions.graph_schema_version``.
GRAPH_SCHEMA_VERSION = "1"

#: Canonical ids: product codes (PRD-482), supplier/company/group ids, agreement document ids.
ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


class EntityType(StrEnum):
    """Vertex labels of the graph (the only labels that exist in a tenant graph)."""

    COMPANY = "Company"
    SUPPLIER = "Supplier"
    PRODUCT = "Product"
    PRODUCT_GROUP = "ProductGroup"
    AGREEMENT = "Agreement"


class RelationType(StrEnum):
    """Canonical relationship (edge label) names; every other name is rejected into review."""

    APPROVED_VENDOR = "APPROVED_VENDOR"
    SUPPLIES = "SUPPLIES"
    BELONGS_TO = "BELONGS_TO"
    PART_OF = "PART_OF"
    GOVERNED_BY = "GOVERNED_BY"


PropertyKind = Literal["text", "date", "decimal", "int", "bool"]


@dataclass(frozen=True)
class PropertySpec:
    """One property of an entity or relationship type."""

    name: str
    kind: PropertyKind
    required: bool = False
    temporal: bool = False

    def __post_init__(self) -> None:
        if not _IDENTIFIER.match(self.name):
            raise ValueError(f"property name {self.name!r} is not an identifier")


@dataclass(frozen=True)
class EntitySpec:
    """An entity type with the properties its vertices carry besides ``id`` and provenance."""

    type: EntityType
    properties: tuple[PropertySpec, ...]
    description: str


@dataclass(frozen=True)
class RelationshipSpec:
    """A canonical relationship: direction (source -> target), valid endpoint types and properties.

    ``qualifier`` names the property that distinguishes parallel edges between the same two vertices (two
    approvals of the same supplier by the same company are two edges); ``None`` means at most one edge per pair
    and document version.
    """

    type: RelationType
    source_types: frozenset[EntityType]
    target_types: frozenset[EntityType]
    properties: tuple[PropertySpec, ...]
    description: str
    qualifier: str | None = None

    @property
    def temporal_properties(self) -> tuple[str, ...]:
        """Names of the properties that bound the relationship in time."""
        return tuple(p.name for p in self.properties if p.temporal)


ENTITY_SPECS: Mapping[EntityType, EntitySpec] = {
    spec.type: spec
    for spec in (
        EntitySpec(
            EntityType.COMPANY,
            (PropertySpec("name", "text", required=True), PropertySpec("reporting_currency", "text")),
            "A buying company of the tenant (companies.json).",
        ),
        EntitySpec(
            EntityType.SUPPLIER,
            (PropertySpec("name", "text", required=True), PropertySpec("country", "text")),
            "A supplier with a canonical id; aliases resolve to it (suppliers.json).",
        ),
        EntitySpec(
            EntityType.PRODUCT,
            (
                PropertySpec("code", "text", required=True),
                PropertySpec("name", "text", required=True),
                PropertySpec("unit_of_measure", "text"),
                PropertySpec("list_price", "decimal"),
                PropertySpec("currency", "text"),
            ),
            "A catalog product; its id is the product code (catalog/products.csv).",
        ),
        EntitySpec(
            EntityType.PRODUCT_GROUP,
            (PropertySpec("name", "text", required=True),),
            "A node of the product-group hierarchy (catalog/product_groups.json).",
        ),
        EntitySpec(
            EntityType.AGREEMENT,
            (PropertySpec("company_id", "text"),),
            "A procurement agreement; its id is the agreement (document) id.",
        ),
    )
}

RELATIONSHIP_SPECS: Mapping[RelationType, RelationshipSpec] = {
    spec.type: spec
    for spec in (
        RelationshipSpec(
            RelationType.APPROVED_VENDOR,
            frozenset({EntityType.COMPANY}),
            frozenset({EntityType.SUPPLIER}),
            (
                PropertySpec("approval_id", "text", required=True),
                PropertySpec("agreement_id", "text", required=True),
                PropertySpec("valid_from", "date", required=True, temporal=True),
                PropertySpec("valid_to", "date", temporal=True),
                PropertySpec("scope", "text"),
            ),
            "The company approves the supplier for the half-open period [valid_from, valid_to); "
            "no valid_to means open-ended.",
            qualifier="approval_id",
        ),
        RelationshipSpec(
            RelationType.SUPPLIES,
            frozenset({EntityType.SUPPLIER}),
            frozenset({EntityType.PRODUCT}),
            (),
            "The supplier supplies the product (the catalog's supplier of the product).",
        ),
        RelationshipSpec(
            RelationType.BELONGS_TO,
            frozenset({EntityType.PRODUCT}),
            frozenset({EntityType.PRODUCT_GROUP}),
            (),
            "The product is in the (leaf) product group.",
        ),
        RelationshipSpec(
            RelationType.PART_OF,
            frozenset({EntityType.PRODUCT_GROUP}),
            frozenset({EntityType.PRODUCT_GROUP}),
            (),
            "The product group is a child of the target group.",
        ),
        RelationshipSpec(
            RelationType.GOVERNED_BY,
            frozenset({EntityType.SUPPLIER}),
            frozenset({EntityType.AGREEMENT}),
            (
                PropertySpec("approval_id", "text", required=True),
                PropertySpec("company_id", "text", required=True),
            ),
            "The supplier's approval (approval_id, the APPROVED_VENDOR edge with the same id) is governed by "
            "the agreement; AGE has no edges on edges, so the approval id links the two.",
            qualifier="approval_id",
        ),
    )
}

#: Properties every vertex and edge carries in AGE besides its own (provenance and bookkeeping).
PROVENANCE_PROPERTIES: tuple[str, ...] = (
    "document_id",
    "document_version",
    "page",
    "chunk_id",
    "record_ref",
    "extraction_version",
    "extracted_at",
    "source_key",
    "graph_schema_version",
    "content_hash",
)

PropertyValue = str | int | bool | None


def source_key(document_id: str, document_version: int) -> str:
    """The key of one document version as stored on vertices and edges (``<document_id>#v<version>``).

    Versions are integers, so splitting at the last ``#v`` is unambiguous.

    >>> source_key("agreement-2026-04", 2)
    'agreement-2026-04#v2'
    """
    return f"{document_id}#v{document_version}"
