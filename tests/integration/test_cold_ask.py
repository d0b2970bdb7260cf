"""The plain ``procura ask`` path (with the intent classifier) on the demo world: no torch, same answer.

The CLI's runtime computes the classifier's features with MiniLM in numpy and loads the validated registry from
its cache; the world's service (tests/integration/conftest_ask.py) routes with the torch model's features and a
registry validated in process. Both must give the same routing and the same figure. Timing is measured by
``bench/cli_cold_start.py``, not here.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from tests.integration.conftest_ask import SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]  # the session fixture, imported so pytest registers it here

QUESTION = "How much did Company A spend with Supplier Beta in Q1 2026?"
AS_OF = dt.date(2026, 5, 15)

_PROBE = textwrap.dedent("""
    import datetime as dt, json, sys
    from pathlib import Path
    import procura.cli, router.cli  # the CLI's own modules
    from procura.db.session import AuthContext
    from procura.settings import get_settings
    from router.runtime import RouterRuntime
    from semantic.loader import load_registry
    from semantic.schema import load_manifest

    # what `procura ask --tenant T` runs (router.cli.ask): the classifier on, the registry from its cache
    registry = load_registry(load_manifest(Path(sys.argv[1])), cache_dir=Path(sys.argv[3]))
    runtime = RouterRuntime.open(get_settings(), registry=registry, use_classifier=True, max_size=1)
    try:
        auth = AuthContext(tenant_id=sys.argv[2], principal_id="cli:test",
                           scopes=frozenset({"procurement:read", "invoice:aggregate"}))
        with runtime.pool.connection() as conn:
            result = runtime.ask_service.ask(conn, auth, sys.argv[4], as_of=dt.date.fromisoformat(sys.argv[5]),
                                             interface="cli")
    finally:
        runtime.close()
    heavy = sorted(m for m in sys.modules if m.split(".")[0] in (
        "torch", "sentence_transformers", "transformers", "sklearn"))
    assert not heavy, heavy[:10]
    routing = result.routing.model_dump(mode="json", by_alias=True)
    print(json.dumps({"status": result.answer.status, "result": result.answer.result, "intents": routing["intents"],
                      "plan": routing["execution_plan"], "cached": len(list(Path(sys.argv[3]).glob("*.json")))},
                     default=str))
""")


def test_the_plain_metric_ask_loads_no_torch_and_answers_as_the_torch_routed_service(
    world: World, tmp_path: Path
) -> None:
    with psycopg.connect(world.settings.app_url, autocommit=True) as conn:
        expected = world.service.ask(conn, ctx(), QUESTION, as_of=AS_OF, interface="test")
    manifest = world.corpus.parent / "dbt-target" / "manifest.json"
    env = {**os.environ, "PROCURA_DB_NAME": world.settings.database_name, "PROCURA_HOME": str(world.settings.home)}
    outputs = []
    for _ in range(2):  # the first run validates and stores the registry, the second reads it
        done = subprocess.run([sys.executable, "-c", _PROBE, str(manifest), SEED_TENANT, str(tmp_path / "semantic"),
                               QUESTION, AS_OF.isoformat()], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        outputs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    routing = expected.routing.model_dump(mode="json", by_alias=True)
    for out in outputs:
        assert out["status"] == expected.answer.status == "answered"
        assert out["result"] == json.loads(json.dumps(expected.answer.result, default=str))
        assert out["intents"] == routing["intents"]  # the same probabilities, rounded as reported
        assert out["plan"] == routing["execution_plan"]
        assert out["cached"] == 1
