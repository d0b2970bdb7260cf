"""Fast start: the modules of ``procura ask``'s metric path import no heavy library (model, ML, data, dbt, MCP).

The embedding model (torch, sentence-transformers) loads lazily, on the first question whose reading needs an
embedding; a rules-only metric question never loads it (the integration twin runs the whole ask in a child
process: tests/integration/test_documents_and_fast_ask.py).
"""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("torch", "sentence_transformers", "transformers", "sklearn", "pandas", "great_expectations", "dbt",
         "metricflow", "mcp")

_PROBE = f"""
import sys
import procura.cli, router.cli, router.runtime, router.service, semantic.loader, semantic.service
import procura.api_client, retrieval.documents, retrieval.passages, router.evidence
from router.service import LazyEmbedder
LazyEmbedder()
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})
assert not heavy, f"imported on the metric path: {{heavy[:10]}}"
"""


def test_the_metric_ask_path_imports_no_heavy_library() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_the_remote_cli_path_imports_neither_the_router_nor_the_driver() -> None:
    probe = (
        "import sys, procura.api_client\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('router', 'psycopg', 'torch', 'semantic'))\n"
        "assert not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
