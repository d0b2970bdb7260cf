"""The evaluation report: ``report.md`` + ``report.json`` + PNG plots in one folder (default ``docs/eval``)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from evaluation.golden import INTENTS

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "eval"


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def _pct(value: Any) -> str:
    return "n/a" if value is None else f"{100 * float(value):.1f} %"


def plot_reliability(results: Mapping[str, Any], path: Path) -> None:
    """Reliability diagram of the per-intent confidences (bar = accuracy per bin, line = perfect calibration)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bins = results["router"].get("calibration_bins") or []
    fig, (ax, ax_count) = plt.subplots(2, 1, figsize=(5.5, 6), height_ratios=[3, 1], sharex=True)
    centers = [(b["lower"] + b["upper"]) / 2 for b in bins]
    acc = [b["accuracy"] if b["accuracy"] is not None else 0 for b in bins]
    conf = [b["mean_confidence"] if b["mean_confidence"] is not None else c for b, c in zip(bins, centers,
                                                                                             strict=True)]
    ax.bar(centers, acc, width=0.09, color="#4c72b0", alpha=0.8, label="accuracy")
    ax.plot([0, 1], [0, 1], "--", color="grey", label="perfect calibration")
    ax.plot(conf, acc, "o", color="#dd8452", label="mean confidence")
    ax.set_ylabel("fraction required")
    ax.set_title(f"Intent confidence reliability (ECE {_fmt(results['router'].get('ece'))})")
    ax.legend(loc="upper left", fontsize=8)
    ax.set_ylim(0, 1)
    ax_count.bar(centers, [b["count"] for b in bins], width=0.09, color="#55a868")
    ax_count.set_xlabel("confidence")
    ax_count.set_ylabel("pairs")
    ax_count.set_xlim(0, 1)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_intents(results: Mapping[str, Any], path: Path) -> None:
    """Per-intent precision, recall and F1 bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per = results["router"]["per_intent"]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    width = 0.25
    for offset, key, color in ((-width, "precision", "#4c72b0"), (0, "recall", "#dd8452"), (width, "f1", "#55a868")):
        ax.bar([i + offset for i in range(len(INTENTS))], [per[i][key] or 0 for i in INTENTS], width, label=key,
               color=color)
    ax.set_xticks(range(len(INTENTS)), list(INTENTS))
    ax.set_ylim(0, 1.05)
    ax.axhline(0.95, color="grey", linestyle=":", linewidth=1)
    ax.set_title(f"Router per-intent scores (macro-F1 {_fmt(results['router']['macro_f1'])})")
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_latency(results: Mapping[str, Any], path: Path) -> None:
    """p50/p95 latency per route."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    routes = results["latency_cost"]
    names = list(routes)
    fig, ax = plt.subplots(figsize=(7, 0.45 * max(3, len(names)) + 1))
    ax.barh(names, [routes[n]["p95_ms"] or 0 for n in names], color="#dd8452", label="p95")
    ax.barh(names, [routes[n]["p50_ms"] or 0 for n in names], color="#4c72b0", label="p50")
    ax.set_xlabel("ms per question (in-process API, includes trace read)")
    ax.set_title("Latency by route")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return lines


def render_markdown(results: Mapping[str, Any]) -> str:
    """The Markdown report."""
    meta = results.get("meta", {})
    r = results["router"]
    lines = [
        "# Procura evaluation report",
        "",
        f"Measured {meta.get('date')} on {meta.get('cpu')} ({meta.get('cores')} cores, {meta.get('memory_gb')} GB), "
        f"commit `{meta.get('commit') or 'uncommitted'}`, Python {meta.get('python')}.",
        f"Golden set: {results['golden']['cases']} questions "
        f"({', '.join(f'{k} {v}' for k, v in results['golden']['categories'].items())}; "
        f"{results['golden']['multi_intent']} with several intents). Corpus {meta.get('generator')}.",
        "Reproduce: `procura eval` (fresh database, demo corpus, the golden set in `eval/golden.yml`, "
        "thresholds in `eval/thresholds.yml`).",
        "",
    ]
    if not meta.get("ask_mounted", True):
        lines += ["> **`POST /v1/ask` was not mounted** in the API: routing was measured by calling the router in",
                  "> process; every answer-level metric counts the missing answers as failures.", ""]
    if meta.get("unmounted_routes"):
        lines += ["> **Routes missing from `api.main.create_app`:** "
                  + "; ".join(f"`{k}` ({v})" for k, v in meta["unmounted_routes"].items()), ""]
    problems = [w for w in meta.get("world", []) if not w["ok"]]
    if problems:
        lines += ["> **Preparation problems** (measured anyway):"]
        lines += [f"> - {w['stage']}: {w['detail']}" for w in problems]
        lines.append("")
    lines += ["## Thresholds", ""]
    lines += _table(["metric", "threshold", "value", "result"], [
        (t["metric"], ("≥ " + _fmt(t["min"])) if t["min"] is not None else ("≤ " + _fmt(t["max"])),
         _fmt(t["value"]), "pass" if t["passed"] else "**FAIL**")
        for t in results.get("thresholds", [])
    ])
    lines += ["", "## Router", "",
              f"Macro-F1 {_fmt(r['macro_f1'])}, micro-F1 {_fmt(r['micro_f1'])}, exact intent-set accuracy "
              f"{_pct(r['exact_set_accuracy'])} (multi-intent: {_pct(r['exact_set_accuracy_multi_intent'])} of "
              f"{r['multi_intent_cases']}). ECE {_fmt(r['ece'])} over {r['calibration_points']} (question, intent) "
              f"confidences; ECE of the overall confidence vs exact intent set {_fmt(r['ece_overall'])}. "
              f"Routing read from: {r['routing_sources']}.", ""]
    lines += _table(["intent", "support", "precision", "recall", "F1", "FP", "FN"], [
        (i, v["support"], _fmt(v["precision"]), _fmt(v["recall"]), _fmt(v["f1"]), v["fp"], v["fn"])
        for i, v in r["per_intent"].items()
    ])
    lines += ["", "![per-intent scores](intents.png) ![reliability](reliability.png)", ""]
    c = results["clarification"]
    e = results["entities"]
    lines += ["## Clarification, entities, constraints, authorization", "",
              f"Clarification precision {_fmt(c['precision'])}, recall {_fmt(c['recall'])} (tp {c['tp']}, fp "
              f"{c['fp']}, fn {c['fn']}); focused questions {_pct(c['focused_questions'])}.",
              f"Entity accuracy: {_pct(e['pair_accuracy'])} of (question, kind) pairs, {_pct(e['case_accuracy'])} of "
              f"{e['cases']} questions; per kind: "
              + ", ".join(f"{k} {_pct(v['accuracy'])} (n={v['n']})" for k, v in e["per_kind"].items()) + ".",
              "Constraints: " + ", ".join(f"{k} {_pct(v['accuracy'])} (n={v['n']})"
                                          for k, v in results["constraints"].items()) + ".",
              f"Authorization context equal to the asking key's tenant: {_pct(results['authorization']['accuracy'])} "
              f"(n={results['authorization']['n']}).", ""]
    p = results["plans"]
    t = results["tools"]
    lines += ["## Plans, tools, retrieval, calculation, sources", "",
              f"Plan validity (DAG, allowed tools, required tools, step bound): {_pct(p['validity'])}; structural "
              f"validity alone {_pct(p['structural_validity'])} (n={p['cases']}). Injection plan invariance: "
              f"{_pct(results['injection']['plan_invariance'])} of {results['injection']['pairs']} pairs.",
              f"Tool-call validity: {_pct(t['validity'])} of {t['calls']} calls.", ""]
    if results["retrieval"]:
        lines += _table(["tool", "cases", "mean recall of expected sources"],
                        [(k, v["cases"], _fmt(v["mean_recall"])) for k, v in results["retrieval"].items()])
        lines.append("")
    calc = results["calculation"]
    src = results["sources"]
    lines += [f"Calculation consistency: displayed amount = tool result in {_pct(calc['displayed_equals_tool'])} "
              f"of {calc['checked']} checked answers; paraphrases of one ground-truth question agree in "
              f"{_pct(calc['paraphrase_consistency'])} of {calc['paraphrase_groups']} groups.",
              f"Source completeness: mean {_pct(src['mean_completeness'])}, complete in {_pct(src['complete_share'])} "
              f"of {src['cases']} questions with expected sources.", ""]
    a = results["answers"]
    lines += ["## Answers", "",
              f"End-to-end exactness on answerable questions: **{a['exact']} / {a['answerable']}** "
              f"({_pct(a['exactness_answerable'])}); outcome accuracy over all questions "
              f"{_pct(a['outcome_accuracy'])}.",
              ""]
    lines += _table(["category", "questions", "correct", "accuracy"],
                    [(k, v["cases"], v["correct"], _pct(v["accuracy"])) for k, v in a["by_category"].items()])
    sec = results["security"]
    lines += ["", "## Security", "",
              f"Golden-set leaks (another tenant's values, supplier e-mails or IBANs in a response or trace): "
              f"**{sec['leaks']}** {sec['leaking_cases'][:10] if sec['leaking_cases'] else ''}"]
    suite = sec.get("suite")
    if suite:
        lines += ["", f"Security suite (`pytest tests/security`, {suite.get('date', '')}): "
                      f"{suite.get('tried', 0)} attack cases tried, {suite.get('failed', 0)} failed.", ""]
        lines += _table(["area", "tried", "failed"],
                        [(k, v["tried"], v["failed"]) for k, v in sorted(suite.get("areas", {}).items())])
    else:
        lines += ["", "Security suite summary not found (run `pytest tests/security` first, or "
                      "`procura eval --security`)."]
    lines += ["", "## Latency and cost by route", "", "![latency](latency.png)", ""]
    lines += _table(["route", "questions", "p50 ms", "p95 ms", "tool calls", "rows", "chunks"], [
        (k, v["cases"], _fmt(v["p50_ms"], 1), _fmt(v["p95_ms"], 1), _fmt(v["mean_tool_calls"], 1),
         _fmt(v["mean_rows"], 1), _fmt(v["mean_chunks"], 1))
        for k, v in results["latency_cost"].items()
    ])
    failing = [case for case in results["cases"] if case["answer_problems"] or case["plan_problems"]]
    lines += ["", f"## Failing questions ({len(failing)})", "",
              "First problem per question; `report.json` has every field.", ""]
    lines += _table(["id", "selected intents", "outcome", "first problem"], [
        (case["id"], ",".join(case["selected_intents"]) or "-", case["outcome"],
         ((case["answer_problems"] or case["plan_problems"])[0])[:120].replace("|", "/"))
        for case in failing[:80]
    ])
    if len(failing) > 80:
        lines.append(f"\n... and {len(failing) - 80} more in report.json.")
    lines.append("")
    return "\n".join(lines)


def write_report(results: Mapping[str, Any], out_dir: Path = DEFAULT_OUT) -> Path:
    """Write report.md, report.json, intents.png, reliability.png and latency.png; returns report.md's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.json").write_text(json.dumps(results, indent=2, sort_keys=False, default=str) + "\n",
                                         encoding="utf-8")
    plot_intents(results, out_dir / "intents.png")
    plot_reliability(results, out_dir / "reliability.png")
    plot_latency(results, out_dir / "latency.png")
    path = out_dir / "report.md"
    path.write_text(render_markdown(results), encoding="utf-8")
    return path
