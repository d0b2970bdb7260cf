"""Validation against the controlled schema of the knowledge graph (the ontology: :mod:`graph.ontology`).

Extraction output is validated against this module with pydantic before anything reaches AGE. A candidate that
does not conform (an unknown relationship such as ``VENDOR_OF`` or ``SUPPLIES_TO``, a wrong endpoint type, a
missing required property, an inverted validity interval) is never written: :func:`validate_extraction` turns it
into a :class:`Rejection`, which :mod:`graph.review` stores in ``graph.review_queue``.

Property values are stored in AGE as JSON scalars: text, integers and booleans as such, dates as ISO strings
(``YYYY-MM-DD``, which compare chronologically as strings), money as decimal strings (never floats). A property
whose value is ``None`` is absent, which is how AGE represents null in a map (``valid_to IS NULL`` holds).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal, TypeVar, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic_core import PydanticCustomError

# The ontology itself is data in graph.ontology; it is re-exported here, where callers validate against it.
from graph.ontology import (
    ENTITY_SPECS,
    GRAPH_SCHEMA_VERSION,
    ID_PATTERN,
    PROVENANCE_PROPERTIES,
    RELATIONSHIP_SPECS,
    EntitySpec,
    EntityType,
    PropertyKind,
    PropertySpec,
    PropertyValue,
    RelationshipSpec,
    RelationType,
    source_key,
)

__all__ = [
    "ENTITY_SPECS",
    "GRAPH_SCHEMA_VERSION",
    "ID_PATTERN",
    "PROVENANCE_PROPERTIES",
    "RELATIONSHIP_SPECS",
    "CandidateEntity",
    "CandidateRelationship",
    "Entity",
    "EntitySpec",
    "EntityType",
    "ExtractionOutput",
    "PropertyKind",
    "PropertySpec",
    "PropertyValue",
    "Provenance",
    "Rejection",
    "RejectionReason",
    "RelationType",
    "Relationship",
    "RelationshipSpec",
    "ValidatedExtraction",
    "content_hash",
    "source_key",
    "validate_entity",
    "validate_extraction",
    "validate_relationship",
]


class _SchemaModel(BaseModel):
    """Base of the models below: immutable, and unknown fields are an error rather than silently dropped."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Provenance(_SchemaModel):
    """Where a vertex or edge came from: the document version, page, chunk or record, and the extraction."""

    document_id: str = Field(min_length=1, max_length=200)
    document_version: int = Field(gt=0)
    page: int | None = Field(default=None, gt=0)
    chunk_id: str | None = Field(default=None, min_length=1, max_length=200)
    record_ref: str = Field(min_length=1, max_length=300, description="The structured record, e.g. a landing row.")
    extraction_version: str = Field(min_length=1, max_length=100)
    extracted_at: dt.datetime

    @field_validator("extracted_at")
    @classmethod
    def _aware(cls, value: dt.datetime) -> dt.datetime:
        if value.tzinfo is None:
            raise ValueError("extracted_at must be timezone-aware")
        return value.astimezone(dt.UTC)

    @property
    def source_key(self) -> str:
        """``<document_id>#v<document_version>``, the value traversals compare with the active versions."""
        return source_key(self.document_id, self.document_version)

    def as_properties(self) -> dict[str, PropertyValue]:
        """The provenance as flat AGE properties."""
        return {
            "document_id": self.document_id,
            "document_version": self.document_version,
            "page": self.page,
            "chunk_id": self.chunk_id,
            "record_ref": self.record_ref,
            "extraction_version": self.extraction_version,
            "extracted_at": self.extracted_at.isoformat(),
            "source_key": self.source_key,
        }

    @classmethod
    def from_properties(cls, props: Mapping[str, Any]) -> Provenance:
        """Rebuild the provenance from the properties of a stored vertex or edge."""
        return cls(
            document_id=props["document_id"],
            document_version=props["document_version"],
            page=props.get("page"),
            chunk_id=props.get("chunk_id"),
            record_ref=props["record_ref"],
            extraction_version=props["extraction_version"],
            extracted_at=dt.datetime.fromisoformat(props["extracted_at"]),
        )


class CandidateEntity(_SchemaModel):
    """An entity as an extractor proposes it (types are still free text)."""

    type: str
    id: str
    properties: dict[str, Any] = Field(default_factory=dict)
    provenance: Provenance


class CandidateRelationship(_SchemaModel):
    """A relationship as an extractor proposes it (type and endpoint types are still free text)."""

    type: str
    source_type: str
    source_id: str
    target_type: str
    target_id: str
    properties: dict[str, Any] = Field(default_factory=dict)
    provenance: Provenance


class ExtractionOutput(_SchemaModel):
    """What the extractor returns for one document version, before schema validation."""

    tenant_id: str
    document_id: str
    document_version: int = Field(gt=0)
    extraction_version: str
    entities: tuple[CandidateEntity, ...] = ()
    relationships: tuple[CandidateRelationship, ...] = ()
    #: Candidates the extractor itself could not complete (e.g. an unresolvable supplier name).
    rejections: tuple[Rejection, ...] = ()


def _custom(code: str, message: str, **context: Any) -> PydanticCustomError:
    # Formatted here (pydantic's own templating knows no !r); only the offending field travels as context.
    field = context.get("field") or context.get("name")
    return PydanticCustomError(code, message.format(**context), {"field": field} if isinstance(field, str) else None)


def _normalize_value(name: str, kind: PropertyKind, value: Any) -> PropertyValue:
    """One property value in its stored form, or a PydanticCustomError naming the property and the problem."""
    if value is None:
        return None
    if isinstance(value, float):
        raise _custom("invalid_property", "property {name!r}: floats are not allowed, use Decimal", name=name)
    if kind == "text":
        if not isinstance(value, str) or not value.strip():
            raise _custom("invalid_property", "property {name!r} must be non-empty text", name=name)
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise _custom("invalid_property", "property {name!r} must be an integer", name=name)
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise _custom("invalid_property", "property {name!r} must be a boolean", name=name)
        return value
    if kind == "date":
        if isinstance(value, dt.datetime) or not isinstance(value, dt.date | str):
            raise _custom("invalid_property", "property {name!r} must be a date (YYYY-MM-DD)", name=name)
        if isinstance(value, str):
            try:
                value = dt.date.fromisoformat(value)
            except ValueError:
                raise _custom(
                    "invalid_property", "property {name!r} must be a date (YYYY-MM-DD), got {value!r}",
                    name=name, value=value,
                ) from None
        return value.isoformat()
    # decimal
    try:
        number = value if isinstance(value, Decimal) else Decimal(str(value)) if isinstance(value, str | int) else None
    except InvalidOperation:
        number = None
    if number is None or isinstance(value, bool) or not number.is_finite():
        raise _custom("invalid_property", "property {name!r} must be a decimal string", name=name)
    return format(number, "f")


def _normalize_properties(
    kind_label: str, specs: tuple[PropertySpec, ...], properties: Mapping[str, Any]
) -> dict[str, PropertyValue]:
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(properties) - set(known))
    if unknown:
        raise _custom(
            "unknown_property", "{label} does not define the propert(ies) {names}",
            label=kind_label, names=unknown, field=unknown[0],
        )
    normalized: dict[str, PropertyValue] = {}
    for spec in specs:
        value = _normalize_value(spec.name, spec.kind, properties.get(spec.name))
        if value is None and spec.required:
            raise _custom(
                "missing_property", "{label} requires the property {name!r}", label=kind_label, name=spec.name
            )
        normalized[spec.name] = value
    return normalized


def _check_id(field: str, value: str) -> str:
    if not ID_PATTERN.match(value):
        raise _custom("invalid_id", "{field} {value!r} is not a canonical id", field=field, value=value)
    return value


def content_hash(properties: Mapping[str, Any]) -> str:
    """sha256 over the canonical JSON of the properties: the sync compares it to detect changes."""
    payload = json.dumps({k: v for k, v in properties.items() if v is not None}, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()


_SchemaType = TypeVar("_SchemaType", EntityType, RelationType)


def _schema_type(types: type[_SchemaType], noun: Literal["entity", "relationship"], raw: Any) -> _SchemaType:
    """The schema type named ``raw``, or an ``unknown_<noun>_type`` error listing the allowed names."""
    if raw not in {t.value for t in types}:
        raise _custom(
            f"unknown_{noun}_type",
            noun + " type {type!r} is not in the graph schema (allowed: {allowed})",
            type=raw, allowed=sorted(t.value for t in types), field="type",
        )
    return types(raw)


def _stamped(props: dict[str, PropertyValue]) -> dict[str, PropertyValue]:
    """The stored properties of a vertex or edge completed with the schema version and their content hash."""
    props["graph_schema_version"] = GRAPH_SCHEMA_VERSION
    props["content_hash"] = content_hash(props)
    return props


class Entity(_SchemaModel):
    """A validated vertex: schema type, canonical id, schema properties and provenance."""

    type: EntityType
    id: str
    properties: dict[str, PropertyValue]
    provenance: Provenance

    @model_validator(mode="before")
    @classmethod
    def _conform(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        entity_type = _schema_type(EntityType, "entity", data.get("type"))
        _check_id("id", str(data.get("id", "")))
        properties = _normalize_properties(
            entity_type.value, ENTITY_SPECS[entity_type].properties, data.get("properties") or {}
        )
        return {**data, "type": entity_type, "properties": properties}

    def stored_properties(self) -> dict[str, PropertyValue]:
        """Everything the vertex carries in AGE, including provenance and its content hash."""
        return _stamped({"id": self.id, **self.properties, **self.provenance.as_properties()})


class Relationship(_SchemaModel):
    """A validated edge: canonical type, direction, typed endpoints, schema properties and provenance."""

    type: RelationType
    source_type: EntityType
    source_id: str
    target_type: EntityType
    target_id: str
    properties: dict[str, PropertyValue]
    provenance: Provenance

    @model_validator(mode="before")
    @classmethod
    def _conform(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        spec = RELATIONSHIP_SPECS[_schema_type(RelationType, "relationship", data.get("type"))]
        for field, allowed in (("source_type", spec.source_types), ("target_type", spec.target_types)):
            if data.get(field) not in {t.value for t in allowed}:
                raise _custom(
                    "invalid_endpoint_type",
                    "{rel} needs {field} in {allowed}, got {got!r}",
                    rel=spec.type.value, field=field, allowed=sorted(t.value for t in allowed), got=data.get(field),
                )
        source_id = _check_id("source_id", str(data.get("source_id", "")))
        target_id = _check_id("target_id", str(data.get("target_id", "")))
        if spec.type is RelationType.PART_OF and source_id == target_id:
            raise _custom(
                "invalid_endpoint", "PART_OF must not point a group {id!r} at itself", id=source_id, field="target_id"
            )
        properties = _normalize_properties(spec.type.value, spec.properties, data.get("properties") or {})
        valid_from, valid_to = properties.get("valid_from"), properties.get("valid_to")
        # Half-open [valid_from, valid_to): an empty or inverted interval can never be valid.
        if isinstance(valid_from, str) and isinstance(valid_to, str) and valid_to <= valid_from:
            raise _custom(
                "invalid_temporal_range",
                "{rel}: valid_to {to} must be after valid_from {frm}",
                rel=spec.type.value, to=valid_to, frm=valid_from, field="valid_to",
            )
        return {
            **data,
            "type": spec.type,
            "source_type": EntityType(data["source_type"]),
            "target_type": EntityType(data["target_type"]),
            "properties": properties,
        }

    @property
    def key(self) -> str:
        """Stable edge id: type, endpoints, qualifier and document version (safe to upsert on)."""
        qualifier_name = RELATIONSHIP_SPECS[self.type].qualifier
        qualifier = str(self.properties.get(qualifier_name) or "") if qualifier_name else ""
        return "|".join(
            (self.type.value, self.source_id, self.target_id, qualifier, self.provenance.source_key)
        )

    def stored_properties(self) -> dict[str, PropertyValue]:
        """Everything the edge carries in AGE, including provenance, endpoint ids and its content hash."""
        return _stamped(
            {
                "key": self.key,
                "source_id": self.source_id,
                "target_id": self.target_id,
                **self.properties,
                **self.provenance.as_properties(),
            }
        )


RejectionReason = Literal[
    "unknown_entity_type",
    "unknown_relationship_type",
    "invalid_endpoint_type",
    "invalid_endpoint",
    "invalid_id",
    "missing_property",
    "unknown_property",
    "invalid_property",
    "invalid_temporal_range",
    "unresolved_entity",
    "resolution_conflict",
    "duplicate_entity",
    "invalid_candidate",
]


class Rejection(_SchemaModel):
    """A candidate that is not written to the graph, with the reason; stored in ``graph.review_queue``."""

    item_kind: Literal["entity", "relationship"]
    reason: RejectionReason
    field: str | None = None
    message: str
    candidate: dict[str, Any]
    provenance: Provenance

    @property
    def item_key(self) -> str:
        """Deterministic id of the rejected candidate, so re-running the extraction adds no duplicate."""
        payload = json.dumps(self.candidate, sort_keys=True, default=str, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(payload.encode()).hexdigest()


_KNOWN_REASONS = frozenset(get_args(RejectionReason))


def _rejection(
    kind: Literal["entity", "relationship"], candidate: CandidateEntity | CandidateRelationship, exc: ValidationError
) -> Rejection:
    first = exc.errors()[0]
    context = first.get("ctx") or {}
    field = ".".join(str(part) for part in first["loc"]) or context.get("field")
    # Validated by pydantic: a reason outside RejectionReason becomes "invalid_candidate".
    return Rejection.model_validate(
        {
            "item_kind": kind,
            "reason": first["type"] if first["type"] in _KNOWN_REASONS else "invalid_candidate",
            "field": field or None,
            "message": first["msg"],
            "candidate": candidate.model_dump(mode="json", exclude={"provenance"}),
            "provenance": candidate.provenance,
        }
    )


@dataclass(frozen=True)
class ValidatedExtraction:
    """The schema-conforming part of an extraction and the rejected rest."""

    entities: tuple[Entity, ...]
    relationships: tuple[Relationship, ...]
    rejections: tuple[Rejection, ...]


_Validated = TypeVar("_Validated", Entity, Relationship)


def _validated(
    model: type[_Validated], kind: Literal["entity", "relationship"], candidate: CandidateEntity | CandidateRelationship
) -> _Validated | Rejection:
    try:
        return model.model_validate(candidate.model_dump())
    except ValidationError as exc:
        return _rejection(kind, candidate, exc)


def validate_entity(candidate: CandidateEntity) -> Entity | Rejection:
    """The candidate as a schema entity, or the rejection that explains why it is not one."""
    return _validated(Entity, "entity", candidate)


def validate_relationship(candidate: CandidateRelationship) -> Relationship | Rejection:
    """The candidate as a canonical relationship, or the rejection that explains why it is not one.

    >>> import datetime as dt
    >>> prov = Provenance(document_id="agreement-2026-04", document_version=1, record_ref="r",
    ...                   extraction_version="x", extracted_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    >>> bad = CandidateRelationship(type="VENDOR_OF", source_type="Supplier", source_id="SUP-18",
    ...                             target_type="Company", target_id="COMP-A", provenance=prov)
    >>> validate_relationship(bad).reason
    'unknown_relationship_type'
    """
    return _validated(Relationship, "relationship", candidate)


def validate_extraction(output: ExtractionOutput) -> ValidatedExtraction:
    """Split an extraction into schema-conforming entities/relationships and rejections."""
    entities: list[Entity] = []
    relationships: list[Relationship] = []
    rejections: list[Rejection] = list(output.rejections)
    for item in (*map(validate_entity, output.entities), *map(validate_relationship, output.relationships)):
        if isinstance(item, Rejection):
            rejections.append(item)
        elif isinstance(item, Entity):
            entities.append(item)
        else:
            relationships.append(item)
    return ValidatedExtraction(tuple(entities), tuple(relationships), tuple(rejections))


ExtractionOutput.model_rebuild()
