"""``procura eval``: the golden set through the real API, a report, and an exit status from the thresholds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click

REPO = Path(__file__).resolve().parent.parent


def security_summary_path(home: Path) -> Path:
    """Where the security suite writes its case counts (and where ``procura eval`` reads them)."""
    return Path(os.environ.get("PROCURA_SECURITY_SUMMARY", home / "reports" / "security_summary.json"))


@click.command("eval")
@click.option("--golden", "golden_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=REPO / "eval" / "golden.yml", show_default=True, help="Golden query set.")
@click.option("--thresholds", "thresholds_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              default=REPO / "eval" / "thresholds.yml", show_default=True, help="Thresholds that set the exit status.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=REPO / "docs" / "eval",
              show_default=True, help="Where report.md, report.json and the plots go.")
@click.option("--corpus", type=click.Path(file_okay=False, path_type=Path),
              help="Demo corpus root (default: generated, seed 42, scale 1).")
@click.option("--database", help="Evaluate an existing database that already holds the demo corpus "
                                 "(e.g. after `procura demo run`) instead of a fresh one.")
@click.option("--keep", is_flag=True, help="Keep the fresh evaluation database (its name is printed).")
@click.option("--case", "case_ids", multiple=True, help="Only these golden case ids (repeatable).")
@click.option("--security", is_flag=True, help="Run the security suite first and include its counts.")
def eval_command(golden_path: Path, thresholds_path: Path, out_dir: Path, corpus: Path | None,
                 database: str | None, keep: bool, case_ids: tuple[str, ...], security: bool) -> None:
    """Run the golden questions through /v1/ask, write the report, exit 1 when a threshold is missed."""
    import psycopg

    from evaluation.golden import GoldenSet, check_against_ground_truth, load_golden
    from evaluation.report import write_report
    from evaluation.runner import load_thresholds, run_evaluation
    from evaluation.world import prepare_world
    from procura.db.migrate import migrate
    from procura.db.provision import drop_database, ensure_database
    from procura.progress import progress_bar
    from procura.settings import get_settings

    with progress_bar("eval", unit="questions") as bar:
        base = get_settings()
        golden = load_golden(golden_path)
        if case_ids:
            unknown = sorted(set(case_ids) - {c.id for c in golden.cases})
            if unknown:
                raise click.BadParameter(f"unknown case ids {unknown}", param_hint="--case")
            golden = GoldenSet.model_validate({**golden.model_dump(), "cases": [
                c.model_dump() for c in golden.cases if c.id in case_ids]})
        thresholds = load_thresholds(thresholds_path)
        summary = security_summary_path(base.home)
        if security:
            bar.echo("running the security suite (pytest tests/security)")
            env = {**os.environ, "PROCURA_SECURITY_SUMMARY": str(summary)}
            subprocess.run([sys.executable, "-m", "pytest", "-q", "tests/security"], cwd=REPO, env=env, check=False)

        fresh = database is None
        name = database or f"procura_eval_{os.getpid()}"
        settings = base.with_database(name)
        try:
            if fresh:
                bar.echo(f"creating database {name}")
                ensure_database(settings)
                with psycopg.connect(settings.admin_url, autocommit=True) as conn:
                    migrate(conn, settings)
            world = prepare_world(settings, base.home / "eval" / name, corpus=corpus, prepared=not fresh,
                                  progress=bar.echo)
            stale = check_against_ground_truth(golden, world.corpus / "ground_truth.json")
            if stale:
                raise click.ClickException(
                    "the golden set does not match this corpus's ground truth (rebuild it with "
                    "`python -m evaluation.build_golden`): " + "; ".join(stale[:5])
                )
            results, outcomes = run_evaluation(world, golden, thresholds=thresholds, security_summary=summary,
                                               progress=bar.echo, bar=bar)
            report = write_report(results, out_dir)
        finally:
            if fresh and not keep:
                drop_database(base, name)
            elif fresh:
                bar.echo(f"kept database {name}")
    r = results["router"]
    a = results["answers"]
    click.echo(f"report:        {report}")
    ece = None if r["ece"] is None else round(r["ece"], 3)
    click.echo(f"router:        macro-F1 {r['macro_f1']:.3f}, ECE {ece}, "
               f"exact intent sets {r['exact_set_accuracy'] or 0:.3f}")
    click.echo(f"answers:       {a['exact']}/{a['answerable']} answerable questions exact")
    click.echo(f"leaks:         {results['security']['leaks']}")
    for outcome in outcomes:
        mark = "pass" if outcome.passed else "FAIL"
        click.echo(f"threshold:     {mark}  {outcome.threshold.metric} = {outcome.value}")
    if not all(o.passed for o in outcomes):
        raise SystemExit(1)



@click.command("resolution")
@click.option("--corpus", "corpus", required=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A demo corpus directory (procura demo generate --out DIR).")
def graph_resolution(corpus: Path) -> None:
    """Measure entity-resolution accuracy against the corpus's own truth (invoices, agreements, aliases)."""
    from evaluation.graph_resolution import format_report, measure_corpus

    click.echo(format_report(measure_corpus(corpus)))


if __name__ == "__main__":  # `python -m evaluation.cli` (the same command as `procura eval`)
    eval_command()
