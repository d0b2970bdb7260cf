"""The layer order of pyproject.toml's import-linter contracts holds: no package imports from a layer above it.

The same check runs in ``make lint`` (``lint-imports``); here it fails the unit tier, so an upward import cannot
reach the main branch unnoticed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter.api import configuration
from importlinter.application.use_cases import read_user_options
from importlinter.cli import lint_imports
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def options() -> Any:
    configuration.configure()  # what the lint-imports command does before reading its settings
    return read_user_options(str(ROOT / "pyproject.toml"))


def _layers_options(options: Any) -> dict[str, Any]:
    return next(c for c in options.contracts_options if c["type"] == "layers")


def test_every_import_contract_is_kept() -> None:
    # The lint-imports command itself (its report names the offending import chain in the captured output).
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_an_upward_import_breaks_the_layers_contract(options: Any) -> None:
    graph = grimp.build_graph(*options.session_options["root_packages"], cache_dir=None)
    contract = LayersContract(
        name="layers", session_options=options.session_options, contract_options=_layers_options(options)
    )
    assert contract.check(graph, verbose=False).kept
    # The core importing the HTTP API is the kind of edge the contract exists to refuse.
    graph.add_import(importer="procura.settings", imported="api.main", line_number=1, line_contents="import api.main")
    assert not contract.check(graph, verbose=False).kept


def test_the_readme_lists_the_contract_layers_top_down(options: Any) -> None:
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Layers\n.*?```text\n(.*?)```", readme, re.S)
    assert block, "README.md: no '## Layers' section with a text block"
    listed = [re.split(r"\s{2,}", line.strip())[0] for line in block.group(1).splitlines() if line.strip()]
    expected = [" | ".join(p.strip() for p in layer.split("|")) for layer in _layers_options(options)["layers"]]
    assert listed == expected
