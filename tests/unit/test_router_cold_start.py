"""Cold start: wiring ask does not load torch or sentence-transformers until an embedding is needed."""

from __future__ import annotations

import subprocess
import sys

_PROBE = """
import sys
from router.service import LazyEmbedder
from router.routing import route
embedder = LazyEmbedder()
assert not any(m in sys.modules for m in ("torch", "sentence_transformers")), "loaded at wiring time"
"""


def test_the_embedding_model_is_not_loaded_before_it_is_needed() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
