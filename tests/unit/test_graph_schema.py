"""The controlled graph schema, the agtype parser, graph names and Cypher templates (database-free)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import pytest

from graph.age import CypherQuery, GraphName, encode_parameters, graph_name_for, graph_name_for_tenant
from graph.agtype import Edge, Vertex, parse_agtype, parse_agtype_values
from graph.errors import AgtypeParseError, CypherTemplateError, GraphNameError
from graph.schema import (
    RELATIONSHIP_SPECS,
    CandidateEntity,
    CandidateRelationship,
    Entity,
    ExtractionOutput,
    Provenance,
    Rejection,
    Relationship,
    RelationType,
    validate_entity,
    validate_extraction,
    validate_relationship,
)
from procura.db.session import AuthContext

PROV = Provenance(
    document_id="agreement-2026-04",
    document_version=1,
    page=12,
    chunk_id="agreement-2026-04-p12-c03",
    record_ref="landing.vendor_approvals/a1",
    extraction_version="graph-extract-1",
    extracted_at=dt.datetime(2026, 5, 1, tzinfo=dt.UTC),
)


def _rel(**overrides: Any) -> CandidateRelationship:
    base: dict[str, Any] = {
        "type": "APPROVED_VENDOR",
        "source_type": "Company",
        "source_id": "COMP-A",
        "target_type": "Supplier",
        "target_id": "SUP-18",
        "properties": {"approval_id": "a1", "agreement_id": "agreement-2026-04", "valid_from": "2025-07-01"},
        "provenance": PROV,
    }
    return CandidateRelationship(**{**base, **overrides})


def test_a_canonical_approval_validates_with_open_end_and_stable_key() -> None:
    rel = validate_relationship(_rel())
    assert isinstance(rel, Relationship)
    assert rel.properties["valid_to"] is None
    assert rel.key == "APPROVED_VENDOR|COMP-A|SUP-18|a1|agreement-2026-04#v1"
    stored = rel.stored_properties()
    assert stored["chunk_id"] == "agreement-2026-04-p12-c03" and stored["page"] == 12
    assert stored["content_hash"] == validate_relationship(_rel()).stored_properties()["content_hash"]  # type: ignore[union-attr]  # validated above


@pytest.mark.parametrize(
    ("overrides", "reason", "field"),
    [
        (
            {"type": "VENDOR_OF", "source_type": "Supplier", "target_type": "Company"},
            "unknown_relationship_type",
            "type",
        ),
        ({"type": "SUPPLIES_TO", "properties": {}}, "unknown_relationship_type", "type"),
        ({"source_type": "Supplier"}, "invalid_endpoint_type", "source_type"),
        ({"target_type": "Product"}, "invalid_endpoint_type", "target_type"),
        ({"properties": {"approval_id": "a1", "valid_from": "2025-07-01"}}, "missing_property", "agreement_id"),
        (
            {"properties": {"approval_id": "a1", "agreement_id": "x", "valid_from": "2026-01-01",
                            "valid_to": "2026-01-01"}},
            "invalid_temporal_range",
            "valid_to",
        ),
        (
            {"properties": {"approval_id": "a1", "agreement_id": "x", "valid_from": "2026-02-30"}},
            "invalid_property",
            "valid_from",
        ),
        (
            {"properties": {"approval_id": "a1", "agreement_id": "x", "valid_from": "2026-01-01", "amount": 1.5}},
            "unknown_property",
            "amount",
        ),
        ({"source_id": "COMP A; DROP"}, "invalid_id", "source_id"),
    ],
)
def test_non_conforming_relationships_are_rejected_with_reason_and_field(
    overrides: dict[str, Any], reason: str, field: str
) -> None:
    result = validate_relationship(_rel(**overrides))
    assert isinstance(result, Rejection)
    assert (result.reason, result.field) == (reason, field)
    assert result.item_kind == "relationship"
    assert result.provenance == PROV


def test_part_of_cannot_point_at_itself_and_supplies_takes_no_properties() -> None:
    loop = validate_relationship(
        _rel(type="PART_OF", source_type="ProductGroup", source_id="PG-MON", target_type="ProductGroup",
             target_id="PG-MON", properties={})
    )
    assert isinstance(loop, Rejection) and loop.reason == "invalid_endpoint"
    float_price = validate_entity(
        CandidateEntity(type="Product", id="PRD-1", properties={"code": "PRD-1", "name": "x", "list_price": 1.5},
                        provenance=PROV)
    )
    assert isinstance(float_price, Rejection) and float_price.reason == "invalid_property"


def test_entities_normalize_decimal_and_reject_unknown_types() -> None:
    product = validate_entity(
        CandidateEntity(type="Product", id="PRD-482",
                        properties={"code": "PRD-482", "name": "DPS", "list_price": Decimal("200.00")}, provenance=PROV)
    )
    assert isinstance(product, Entity) and product.properties["list_price"] == "200.00"
    unknown = validate_entity(CandidateEntity(type="Vendor", id="V-1", provenance=PROV))
    assert isinstance(unknown, Rejection) and unknown.reason == "unknown_entity_type"


def test_validate_extraction_splits_and_keeps_rejection_keys_stable() -> None:
    output = ExtractionOutput(
        tenant_id="tenant-42", document_id="agreement-2026-04", document_version=1,
        extraction_version="graph-extract-1",
        relationships=(_rel(), _rel(type="VENDOR_OF", source_type="Supplier", target_type="Company")),
    )
    validated = validate_extraction(output)
    assert [r.type for r in validated.relationships] == [RelationType.APPROVED_VENDOR]
    assert [r.reason for r in validated.rejections] == ["unknown_relationship_type"]
    again = validate_extraction(output)
    assert again.rejections[0].item_key == validated.rejections[0].item_key


def test_every_relationship_is_directed_between_schema_types() -> None:
    assert RELATIONSHIP_SPECS[RelationType.APPROVED_VENDOR].temporal_properties == ("valid_from", "valid_to")
    for spec in RELATIONSHIP_SPECS.values():
        assert spec.source_types and spec.target_types


def test_provenance_requires_aware_timestamps() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        Provenance(document_id="d", document_version=1, record_ref="r", extraction_version="x",
                   extracted_at=dt.datetime(2026, 1, 1))


# --- agtype -----------------------------------------------------------------------------------------------


def test_agtype_vertex_edge_path_and_numeric_annotations() -> None:
    path = parse_agtype(
        '[{"id": 1, "label": "ProductGroup", "properties": {"id": "PG-PRES"}}::vertex, '
        '{"id": 9, "label": "PART_OF", "end_id": 2, "start_id": 1, "properties": {"k": "a::edge"}}::edge, '
        '{"id": 2, "label": "ProductGroup", "properties": {"id": "PG-SENS"}}::vertex]::path'
    )
    assert isinstance(path[0], Vertex) and isinstance(path[1], Edge) and path[2].properties == {"id": "PG-SENS"}
    assert path[1].properties == {"k": "a::edge"}
    assert parse_agtype("1.50::numeric") == Decimal("1.50")
    assert parse_agtype("2.5") == Decimal("2.5") and not isinstance(parse_agtype("2.5"), float)
    assert parse_agtype('"say \\"hi\\"::vertex"') == 'say "hi"::vertex'
    assert parse_agtype(None) is None


@pytest.mark.parametrize("bad", ['{"a": 1}::banana', '"unterminated', "{not json}"])
def test_agtype_rejects_malformed_values(bad: str) -> None:
    with pytest.raises(AgtypeParseError):
        parse_agtype(bad)
    with pytest.raises(AgtypeParseError):
        parse_agtype_values(bad)


def test_agtype_values_parse_maps_as_maps_with_exact_numbers() -> None:
    # what find_products' statements return: ids, names and property maps, never a vertex or edge
    cells = parse_agtype_values('["PG-1", {"key": "PART_OF|a::edge", "price": 2.50::numeric, "n": 3}, null]')
    assert cells == ["PG-1", {"key": "PART_OF|a::edge", "price": Decimal("2.50"), "n": 3}, None]
    assert not isinstance(cells[1]["price"], float)
    # a map shaped like a vertex stays a map (parse_agtype would build a Vertex)
    vertex = '{"id": 1, "label": "ProductGroup", "properties": {"id": "PG-1"}}::vertex'
    assert parse_agtype_values(vertex) == {"id": 1, "label": "ProductGroup", "properties": {"id": "PG-1"}}
    assert isinstance(parse_agtype(vertex), Vertex)


# --- graph names and Cypher templates ---------------------------------------------------------------------


def test_graph_names_come_from_the_auth_context_through_an_allow_list() -> None:
    name = graph_name_for(AuthContext("tenant-42", "u1"))
    assert name == graph_name_for_tenant("tenant-42") and name.tenant_id == "tenant-42"
    # Opaque: the tenant id is not readable from the name (schema names are visible to every role).
    assert re.fullmatch(r"tg_[0-9a-f]{24}", name.value) and "tenant" not in name.value
    assert graph_name_for_tenant("tenant-43") != name
    for bad in ("Tenant-42", "t; drop", "", "tenant_42"):
        with pytest.raises(GraphNameError):
            graph_name_for_tenant(bad)
    with pytest.raises(GraphNameError):
        GraphName("public", "tenant-42")
    with pytest.raises(GraphNameError):
        graph_name_for("tenant-42")  # type: ignore[arg-type]  # the point: a bare string is refused


def test_cypher_templates_reject_quote_breaking_text_and_bad_parameters() -> None:
    with pytest.raises(CypherTemplateError):
        CypherQuery("q", "RETURN 1 $$) as (a agtype); --", ("a",))
    with pytest.raises(CypherTemplateError):
        CypherQuery("q", "RETURN 10 % 3", ("a",))
    query = CypherQuery("q", "MATCH (n:Company {id: $company_id}) WHERE n.x < $end RETURN n", ("n",))
    assert query.parameters == {"company_id", "end"}
    with pytest.raises(CypherTemplateError, match="missing parameters"):
        encode_parameters(query, {"company_id": "COMP-A"})
    with pytest.raises(CypherTemplateError, match="unexpected parameters"):
        encode_parameters(query, {"company_id": "COMP-A", "end": "x", "graph": "tg_tenant_17"})
    with pytest.raises(CypherTemplateError, match="floats"):
        encode_parameters(query, {"company_id": "COMP-A", "end": 1.5})
    encoded = encode_parameters(query, {"company_id": "x' }) RETURN 1 //", "end": dt.date(2026, 4, 1)})
    assert encoded == '{"company_id":"x\' }) RETURN 1 //","end":"2026-04-01"}'


def test_product_templates_are_bounded_and_use_no_variable_length_path() -> None:
    from graph.tools import SUPPLIER_SLOTS, subtree_query, supplier_products_query

    # the subtree: one fixed-length branch per depth 0..d, never age_vle's `*` pattern
    for depth in (0, 1, 2, 3):
        text = subtree_query("name", depth).text
        assert "*" not in text
        assert text.count("MATCH") == depth + 1 and text.count("UNION ALL") == depth
    assert "root.id = $group" in subtree_query("id", 2).text
    with pytest.raises(KeyError):
        subtree_query("name", 4)  # type: ignore[arg-type]  # the point: depths come from an allow-list
    # the products: the fewest supplier slots that hold the request, one indexed equality per slot
    # one supplier still gets two slots: a lone equality is not an indexed, estimated OR in AGE (see SUPPLIER_SLOTS)
    assert supplier_products_query(1).text.count("s.id = $supplier_ids[") == 2
    # the subtree test the planner estimates as unselective, so the suppliers drive the (generic) plan
    assert "$groups[belongs.target_id] IS NOT NULL" in supplier_products_query(10).text
    assert supplier_products_query(10).name == "supplier_products_16"
    assert supplier_products_query(200).text.count("s.id = $supplier_ids[") == SUPPLIER_SLOTS[-1] == 200
    assert supplier_products_query(10).parameters == {"supplier_ids", "groups"}
    with pytest.raises(ValueError, match="at most 200"):
        supplier_products_query(201)



def test_part_of_paths_walks_the_subtree_edges_like_the_fixed_length_patterns() -> None:
    from graph.tools import _part_of_paths

    def edge(source: str, target: str) -> dict[str, str]:
        return {"key": f"PART_OF|{source}|{target}||doc#v1", "source_id": source, "target_id": target}

    # a hierarchy under R in which one group (C) has two parents (A and B); D is 3 steps down, E 4
    parents = {
        "A": [edge("A", "R")], "B": [edge("B", "R")], "C": [edge("C", "A"), edge("C", "B")],
        "D": [edge("D", "C")], "E": [edge("E", "D")],
    }  # fmt: skip
    roots = {"R"}
    assert _part_of_paths("R", roots, parents, 3) == [[]]
    assert _part_of_paths("A", roots, parents, 3) == [[edge("A", "R")]]
    # every path within the depth, shortest first; a path longer than the depth is not one
    via_a, via_b = [edge("C", "A"), edge("A", "R")], [edge("C", "B"), edge("B", "R")]
    assert _part_of_paths("C", roots, parents, 3) == [via_a, via_b]
    assert _part_of_paths("C", roots, parents, 1) == []
    assert len(_part_of_paths("D", roots, parents, 3)) == 2 and _part_of_paths("E", roots, parents, 3) == []
    # two groups of the requested name: a path ends at either
    assert _part_of_paths("C", {"A", "B"}, parents, 1) == [[edge("C", "A")], [edge("C", "B")]]
    # an edge is used once per path: a self-loop at the root gives the root's path and one through the loop
    looped = {"R": [edge("R", "R")]}
    assert _part_of_paths("R", roots, looped, 3) == [[], [edge("R", "R")]]



def test_find_products_edge_input_validates_to_the_edge_reference() -> None:
    from graph.tools import GraphEdgeRef, _edge_data, _edge_ref_of

    props = {
        "document_id": "catalog-products", "document_version": 2, "record_ref": "landing.products/PRD-1",
        "extraction_version": "graph-extract-1", "extracted_at": "2026-05-01T02:00:00+02:00", "chunk_id": None,
        "source_id": "SUP-1", "target_id": "PRD-1", "key": "SUPPLIES|SUP-1|PRD-1||catalog-products#v2",
        "source_key": "catalog-products#v2", "since": "2026-01-01",
    }  # fmt: skip
    edge = GraphEdgeRef.model_validate(_edge_data(RelationType.SUPPLIES, props))
    assert edge == _edge_ref_of(RelationType.SUPPLIES, props)
    assert edge.properties == {"since": "2026-01-01"}
    # _edge_data names every provenance field itself; an edge with no property of its own has none
    assert set(_edge_data(RelationType.SUPPLIES, props)["provenance"]) == set(Provenance.model_fields)
    without = {k: v for k, v in props.items() if k != "since"}
    assert GraphEdgeRef.model_validate(_edge_data(RelationType.SUPPLIES, without)) == _edge_ref_of(
        RelationType.SUPPLIES, without)  # fmt: skip
    assert _edge_data(RelationType.SUPPLIES, without)["properties"] == {}
    assert edge.provenance.extracted_at.isoformat() == "2026-05-01T00:00:00+00:00"
    # still validated: a naive timestamp or a missing field is refused
    with pytest.raises(ValueError, match="timezone-aware"):
        GraphEdgeRef.model_validate(_edge_data(RelationType.SUPPLIES, {**props, "extracted_at": "2026-05-01T02:00:00"}))
    with pytest.raises(ValueError, match="record_ref"):
        GraphEdgeRef.model_validate(_edge_data(RelationType.SUPPLIES, {**props, "record_ref": None}))
