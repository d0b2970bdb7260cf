"""``make bench`` = ``python -m bench``: run every benchmark module in one go and write ``docs/benchmarks.md``.

Each module runs as its own process (``python -m bench.<name>``), so one crashing or timing out does not stop
the others; a module whose ``--help`` offers ``--json`` writes its figures there, the others are recorded from
their standard output. The raw outputs go to ``<PROCURA_HOME>/bench/``; the report (machine, date, the
reproduce command, every module's figures and ratios measured in this run, and PNG plots under
``docs/img/bench_*.png``) is rendered by :mod:`bench.report`.

    python -m bench [--only NAME]... [--skip NAME]... [--timeout SECONDS] [--arg NAME="--flag value"]...
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from procura.progress import ProgressBar, echo_progress, progress_bar

REPO = Path(__file__).resolve().parent.parent
#: Run order: cheap and independent first, the scale curves (longest) last.
MODULES = (
    "metric_api",
    "incremental_build",
    "graph_traversal",
    "retrieval_latency",
    "vector_recall",
    "ingest_throughput",
    "scale_curves",
)
#: Module arguments when ``--arg`` gives none. Retrieval runs on real MiniLM vectors at about 84k chunks (scale
#: 90); its document vectors are cached under ``<PROCURA_HOME>/bench/embedding-cache`` (keyed by embedding config
#: and input text), so only the first run on a machine pays the encode: about 35 minutes on 2 idle cores, since
#: MiniLM encodes these long chunks at 20 to 40 per second. The 100k-chunk figures (scale 110) need about an hour
#: of encoding when cold, more than one module's time limit; bench/retrieval_latency.py names that command.
DEFAULT_ARGS: dict[str, list[str]] = {
    "retrieval_latency": ["--embedder", "minilm", "--scale", "90", "--database", "procura_bench_retrieval_minilm"],
}


@dataclass
class ModuleRun:
    """What one benchmark module produced."""

    name: str
    argv: list[str]
    returncode: int | None
    seconds: float
    json_path: str | None = None
    stdout_path: str | None = None
    error: str | None = None
    results: object = None
    stdout_tail: str = ""
    extra: dict[str, object] = field(default_factory=dict)
    finished_at: str = ""


def _supports_json(name: str, env: dict[str, str]) -> bool:
    try:
        helped = subprocess.run([sys.executable, "-m", f"bench.{name}", "--help"], capture_output=True, text=True,
                                timeout=120, cwd=REPO, env=env, check=False)
    except subprocess.TimeoutExpired:
        return False
    return "--json" in helped.stdout


def run_module(name: str, out_dir: Path, *, extra: Sequence[str], timeout_s: float, env: dict[str, str],
               bar: ProgressBar | None = None) -> ModuleRun:
    """Run ``python -m bench.<name>`` and collect its JSON (if offered) and output; ``bar`` counts modules."""
    say = bar.echo if bar is not None else (lambda message: echo_progress(message, prefix="bench"))
    argv = [sys.executable, "-m", f"bench.{name}", *extra]
    json_path = out_dir / f"{name}.json"
    if _supports_json(name, env) and "--json" not in extra:
        argv += ["--json", str(json_path)]
    stdout_path = out_dir / f"{name}.txt"
    started = time.monotonic()
    say(f"{name}: {' '.join(shlex.quote(a) for a in argv[1:])}")
    try:
        with stdout_path.open("w", encoding="utf-8") as log:
            proc = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, timeout=timeout_s, cwd=REPO, env=env,
                                  check=False)
        code: int | None = proc.returncode
        error = None if code == 0 else f"exit status {code}"
    except subprocess.TimeoutExpired:
        code, error = None, f"timed out after {timeout_s:.0f} s"
    except OSError as exc:
        code, error = None, f"{type(exc).__name__}: {exc}"
    run = ModuleRun(name, argv[1:], code, round(time.monotonic() - started, 1), stdout_path=str(stdout_path),
                    error=error, finished_at=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    text = stdout_path.read_text(encoding="utf-8", errors="replace") if stdout_path.exists() else ""
    run.stdout_tail = "\n".join(text.splitlines()[-60:])
    if json_path.exists() and "--json" in argv:
        run.json_path = str(json_path)
        try:
            run.results = json.loads(json_path.read_text(encoding="utf-8"))
        except ValueError as exc:
            run.error = (run.error or "") + f"; unreadable JSON: {exc}"
    line = f"{name}: {'ok' if error is None else error} in {run.seconds} s"
    if bar is not None:
        bar.advance(line=line)
    else:
        say(line)
    return run


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--only", action="append", choices=MODULES, help="run only these modules (repeatable)")
    parser.add_argument("--skip", action="append", choices=MODULES, default=[], help="skip these modules")
    parser.add_argument("--timeout", type=float, default=3600.0, help="per-module time limit in seconds")
    parser.add_argument("--arg", action="append", default=[], metavar='NAME="ARGS"',
                        help="extra arguments for one module, e.g. --arg metric_api='--requests 200'")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "benchmarks.md", help="the Markdown report")
    parser.add_argument("--report-only", action="store_true", help="re-render the report from the last raw outputs")
    parser.add_argument("--command", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    from bench.report import render_report
    from procura.settings import get_settings

    home = get_settings().home
    raw_dir = home / "bench"
    raw_dir.mkdir(parents=True, exist_ok=True)
    extras: dict[str, list[str]] = {}
    for item in args.arg:
        name, _, value = item.partition("=")
        extras.setdefault(name.strip(), []).extend(shlex.split(value))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
           "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    summary_path = raw_dir / "runs.json"
    started = time.monotonic()
    if args.report_only:
        runs = [ModuleRun(**r) for r in json.loads(summary_path.read_text(encoding="utf-8"))]
    else:
        selected = [m for m in (args.only or MODULES) if m not in args.skip]
        defaults = {**DEFAULT_ARGS, "retrieval_latency": [*DEFAULT_ARGS["retrieval_latency"], "--embedding-cache",
                                                          str(raw_dir / "embedding-cache")]}  # fmt: skip
        with progress_bar("bench", total=len(selected), unit="modules", prefix="bench") as bar:
            fresh = {m: run_module(m, raw_dir, extra=extras.get(m, defaults.get(m, [])), timeout_s=args.timeout,
                                   env=env, bar=bar) for m in selected}
        previous = ([ModuleRun(**r) for r in json.loads(summary_path.read_text(encoding="utf-8"))]
                    if args.only and summary_path.exists() else [])
        # --only re-measures some modules; the others keep their figures from the last run (the report says when)
        runs = [fresh.pop(r.name, r) for r in previous] + list(fresh.values())
        summary_path.write_text(json.dumps([asdict(r) for r in runs], indent=2, default=str) + "\n",
                                encoding="utf-8")
    given = list(sys.argv[1:] if argv is None else argv)
    command = args.command or ("make bench" if not given else "python -m bench " + " ".join(map(shlex.quote, given)))
    report = render_report(runs, out=args.out, home=home, command=command,
                           elapsed_s=time.monotonic() - started)
    echo_progress(f"report: {report}", prefix="bench")
    return 0 if all(r.error is None for r in runs) else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
