"""The search request contract, driven by fixture files: valid requests normalize, ``__invalid`` ones must raise
an error that names the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from retrieval.exact import label
from retrieval.models import SearchRequest

FIXTURES = Path(__file__).parent / "fixtures" / "retrieval" / "requests"
VALID = sorted(p for p in FIXTURES.glob("*.json") if not p.stem.endswith("__invalid"))
INVALID = sorted(FIXTURES.glob("*__invalid.json"))


def test_there_are_fixtures() -> None:
    assert len(VALID) >= 3 and len(INVALID) >= 10


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_request(path: Path) -> None:
    case = json.loads(path.read_text())
    request = SearchRequest.model_validate(case["request"])
    expect = case["expect"]
    assert [label(p) for p in request.identifiers.pairs()] == expect["identifiers"]
    assert list(request.retrieval_modes) == expect["modes"]
    assert request.limit == expect["limit"]
    if "query_text" in expect:
        assert request.query_text == expect["query_text"]
    # the model is a frozen value: the JSON it serializes validates to an equal request
    assert SearchRequest.model_validate_json(request.model_dump_json()) == request


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_request_names_the_field(path: Path) -> None:
    case = json.loads(path.read_text())
    with pytest.raises(ValidationError) as raised:
        SearchRequest.model_validate(case["request"])
    error = raised.value.errors()[0]
    assert ".".join(str(p) for p in error["loc"]) == case["error_field"]
    assert case["error_text"] in error["msg"]
