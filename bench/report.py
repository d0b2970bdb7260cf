"""Render ``docs/benchmarks.md`` and ``docs/img/bench_*.png`` from the raw outputs of one ``make bench`` run.

Modules report in their own JSON shapes; this renderer does not depend on them: it lists every numeric figure of
a module's JSON (ratios first), plots its latency-like figures, and falls back to the module's printed output.
The scale curves (:mod:`bench.scale_curves`) get a line plot of latency against invoice lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

_LATENCY_KEY = re.compile(r"(p50|p95|p99|median|mean|_ms$|\bms\b|latency)", re.I)
_RATIO_KEY = re.compile(r"(ratio|speedup|factor|recall|_x$|overhead)", re.I)
_PRINTED = re.compile(r"^\s*([A-Za-z][\w ./()+-]{1,60}?)\s*[:=]\s*(-?\d+(?:\.\d+)?)\s*(ms|s|x|%|/s|chunks/s|docs/s)?\b",
                      re.M)
_MAX_ROWS = 60


def numeric_leaves(obj: Any, path: str = "") -> Iterator[tuple[str, float]]:
    """(dotted path, value) of every number in a JSON document (lists indexed, or keyed by a name field)."""
    if isinstance(obj, bool):
        return
    if isinstance(obj, int | float):
        yield path, float(obj)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from numeric_leaves(value, f"{path}.{key}" if path else str(key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            label = None
            if isinstance(value, dict):
                parts = [str(value[k]) for k in ("path", "name", "label", "route", "variant", "mode", "scale",
                                                 "lines", "invoice_lines")
                         if k in value and isinstance(value[k], str | int) and not isinstance(value[k], bool)]
                label = "@".join(parts) or None
            yield from numeric_leaves(value, f"{path}[{label if label is not None else index}]")


def table_rows(text: str) -> list[tuple[str, float]]:
    """Rows of a printed results table: (leading numbers + label words, first number after the label).

    A row counts when it has a word (e.g. a method name) and at least three numbers; e.g.
    ``"   10  5000  10520  1.98  age_raw  13.17  14.86  71  3.8x"`` gives ``("10 5000 10520 1.98 age_raw", 13.17)``.
    """
    out = []
    for line in text.splitlines():
        tokens = line.split()
        kinds = [_is_number(t) for t in tokens]
        if sum(kinds) < 3 or all(kinds) or not tokens:
            continue
        first_word = kinds.index(False)
        after = [t for t, k in zip(tokens[first_word:], kinds[first_word:], strict=True) if k]
        if not after:
            continue
        words = [t for t, k in zip(tokens[first_word:], kinds[first_word:], strict=True) if not k]
        label = " ".join([*tokens[:first_word][:1], *words])
        out.append((label, float(after[0].rstrip("x%"))))
    return out


def _is_number(token: str) -> bool:
    try:
        float(token.rstrip("x%"))
    except ValueError:
        return False
    return True


def _fmt(value: float) -> str:
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def _plot_bars(name: str, figures: Sequence[tuple[str, float]], path: Path, unit: str) -> bool:
    if not figures:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figures = list(figures)[:24]
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(figures) + 1.2))
    ax.barh([f[0][-55:] for f in figures][::-1], [f[1] for f in figures][::-1], color="#4c72b0")
    ax.set_xlabel(unit)
    ax.set_title(f"bench.{name}")
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def plot_scale_curves(results: Any, path: Path) -> bool:
    """Latency (p50, p95) of the metric and search paths against invoice lines, log-log."""
    series = results.get("series", []) if isinstance(results, dict) else []
    points = [s for s in series if s.get("p50_ms") is not None]
    if not points:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for path_name in sorted({p["path"] for p in points}):
        for stat, style in (("p50_ms", "-o"), ("p95_ms", "--^")):
            rows = sorted((p["invoice_lines"], p[stat]) for p in points if p["path"] == path_name and p.get(stat))
            if rows:
                ax.plot([r[0] for r in rows], [r[1] for r in rows], style, label=f"{path_name} {stat[:3]}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("invoice lines")
    ax.set_ylabel("ms per request")
    ax.set_title("Scale curves: metric and search paths")
    ax.legend(fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def _module_section(run: Any, img_dir: Path, docs_dir: Path) -> list[str]:
    status = "ok" if run.error is None else f"**{run.error}**"
    lines = [f"## bench.{run.name}", "", f"`python {' '.join(run.argv)}`"
             f" — {status}, {run.seconds} s.", ""]
    image = img_dir / f"bench_{run.name}.png"
    results = run.results
    figures = list(numeric_leaves(results)) if results is not None else []
    if figures:
        ratios = [f for f in figures if _RATIO_KEY.search(f[0])]
        rest = [f for f in figures if f not in ratios]
        lines += ["| figure | value |", "|---|---|"]
        lines += [f"| {p} | {_fmt(v)} |" for p, v in (ratios + rest)[:_MAX_ROWS]]
        if len(figures) > _MAX_ROWS:
            lines.append(f"| ... {len(figures) - _MAX_ROWS} more in `{run.json_path}` | |")
        lines.append("")
    else:
        printed = [(m.group(1).strip(), float(m.group(2)), m.group(3) or "") for m in _PRINTED.finditer(
            run.stdout_tail or "")]
        if printed:
            lines += ["| figure | value |", "|---|---|"]
            lines += [f"| {n} | {_fmt(v)} {u} |" for n, v, u in printed[:_MAX_ROWS]]
            lines.append("")
        figures = [(n, v) for n, v, u in printed if u == "ms" or _LATENCY_KEY.search(n)]
        if not figures:
            # a printed table: plot its first figure per row (by convention the median/p50 column)
            figures = [(f"{label} (first figure, ms)", v) for label, v in table_rows(run.stdout_tail or "")]
    plotted = False
    if run.name == "scale_curves" and results is not None:
        plotted = plot_scale_curves(results, image)
    else:
        latency = [f for f in figures if _LATENCY_KEY.search(f[0])]
        plotted = _plot_bars(run.name, latency, image, "ms (as printed by the module)")
    if plotted:
        lines += [f"![bench.{run.name}]({image.relative_to(docs_dir).as_posix()})", ""]
    if run.stdout_tail:
        shown = [ln for ln in run.stdout_tail.splitlines() if "Loading weights" not in ln][-25:]
        if results is None:
            lines += ["Output:", "", "```", *shown, "```", ""]
        else:
            lines += ["<details><summary>output (last lines)</summary>", "", "```", *shown, "```", "",
                      "</details>", ""]
    return lines


def headline_table(runs: Sequence[Any]) -> list[str]:
    """The figures each module declares as its headline (``"headline": [{figure, value, unit, target, met,
    detail}]`` in its JSON), with their targets, in one table at the top of the report."""
    rows = []
    for run in runs:
        for item in (run.results or {}).get("headline", []) if isinstance(run.results, dict) else []:
            met = item.get("met")
            verdict = "met" if met is True else "**missed**" if met is False else ""
            value = item.get("value")
            shown = _fmt(float(value)) if isinstance(value, int | float) and not isinstance(value, bool) else value
            rows.append(f"| bench.{run.name} | {item.get('figure', '')} | {shown} {item.get('unit', '')} | "
                        f"{item.get('target', '')} | {verdict} | {item.get('detail', '')} |")  # fmt: skip
    if not rows:
        return []
    return ["## Headline figures and targets", "", "| module | figure | value | target | result | detail |",
            "|---|---|---|---|---|---|", *rows, ""]  # fmt: skip


def _measured(runs: Sequence[Any], fallback: str) -> str:
    """When the figures were measured: the span of the modules' finish times (re-rendering keeps it)."""
    stamps = sorted(r.finished_at for r in runs if getattr(r, "finished_at", ""))
    if not stamps:
        return fallback
    return stamps[0] if stamps[0] == stamps[-1] else f"{stamps[0]} to {stamps[-1]}"


def render_report(runs: Sequence[Any], *, out: Path, home: Path, command: str, elapsed_s: float) -> Path:
    """Write the Markdown report and its plots; returns the report path."""
    from evaluation.runner import machine_info

    docs_dir = out.parent
    img_dir = docs_dir / "img"
    img_dir.mkdir(parents=True, exist_ok=True)
    meta = machine_info()
    lines = [
        "# Procura benchmarks",
        "",
        f"Measured {_measured(runs, meta['date'])} on {meta['host']}: {meta['cpu']}, {meta['cores']} cores, "
        f"{meta['memory_gb']} GB RAM, "
        f"Python {meta['python']}, commit `{meta['commit'] or 'uncommitted'}`. The modules took "
        f"{sum(float(r.seconds or 0) for r in runs) / 60:.1f} min in total.",
        "",
        f"Reproduce: `{command}` (every module also runs alone: `python -m bench.<name> --help`). Every ratio below "
        "was measured within this run, on this machine, against its baseline in the same process.",
        "",
        "| module | status | seconds |",
        "|---|---|---|",
    ]
    lines += [f"| bench.{r.name} | {'ok' if r.error is None else r.error} | {r.seconds} |" for r in runs]
    lines += ["", "A module that exits non-zero still reports what it measured below (e.g. a figure that missed the "
                  "module's own target)."]
    lines.append("")
    lines += headline_table(runs)
    for run in runs:
        lines += _module_section(run, img_dir, docs_dir)
    load = home / "reports" / "load.json"
    if load.exists():
        rows = json.loads(load.read_text(encoding="utf-8"))
        lines += ["## Loopback load test (tests/reliability/test_load.py)", "",
                  "| route | concurrency | requests | req/s | p50 ms | p95 ms | p99 ms | statuses |",
                  "|---|---|---|---|---|---|---|---|"]
        lines += [f"| {r['route']} | {r['concurrency']} | {r['requests']} | {r['throughput_rps']} | {r['p50_ms']} | "
                  f"{r['p95_ms']} | {r['p99_ms']} | {r['statuses']} |" for r in rows]
        lines.append("")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
