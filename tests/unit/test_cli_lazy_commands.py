"""The ``procura`` entry point imports only the area of the command it runs (every area when listing)."""

from __future__ import annotations

import subprocess
import sys

AREAS = ("jobs.cli", "procura.bi_cli", "ingest.cli", "expectations.cli", "procura.transform", "semantic.cli",
         "api.cli", "graph.cli", "retrieval.cli", "router.cli", "evaluation.cli")

_PROBE = """
import sys
from click.testing import CliRunner
import procura.cli
assert not [m for m in {areas!r} if m in sys.modules], "imported before any command ran"
assert "psycopg" not in sys.modules and "procura.settings" not in sys.modules
result = CliRunner().invoke(procura.cli.main, {args!r})
assert result.exit_code == 0, result.output
print(",".join(sorted(m for m in {areas!r} if m in sys.modules)))
print(result.output)
"""


def _run(*args: str) -> tuple[set[str], str]:
    done = subprocess.run([sys.executable, "-c", _PROBE.format(areas=AREAS, args=list(args))], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    first, _, output = done.stdout.partition("\n")
    return set(filter(None, first.split(","))), output


def test_a_command_imports_only_its_own_area() -> None:
    loaded, output = _run("ask", "--help")
    assert loaded == {"router.cli"} and "--rules-only" in output
    loaded, output = _run("eval", "--help")  # named unlike its attribute (eval_command)
    assert loaded == {"evaluation.cli"} and "--golden" in output
    loaded, output = _run("graph", "--help")  # a group that another area adds a command to
    assert loaded == {"graph.cli", "evaluation.cli"} and "resolution" in output
    loaded, _ = _run("db", "--help")  # the core's own group
    assert loaded == set()


def test_listing_and_an_unknown_command_see_every_area() -> None:
    loaded, output = _run("--help")
    assert loaded == set(AREAS)
    for name in ("ask", "demo", "eval", "metrics", "serve", "keys", "search", "transform", "validate", "reconcile"):
        assert f"  {name} " in output
    done = subprocess.run([sys.executable, "-m", "procura.cli", "nosuch"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "No such command 'nosuch'" in done.stderr
