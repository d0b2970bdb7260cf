"""``procura demo generate`` (the deterministic demo corpus) and ``procura demo run`` (the main job end to end)."""

from __future__ import annotations

from pathlib import Path

import click

from procura.demo.generator import generate
from procura.progress import echo_progress


@click.group()
def demo() -> None:
    """Generate the demo corpus (see docs/corpus.md)."""


@demo.command("generate")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Directory to write the corpus to (empty, new, or an earlier corpus to replace).")
@click.option("--seed", default=42, show_default=True, type=int, help="Seed of the random background data.")
@click.option("--scale", default=1, show_default=True, type=click.IntRange(min=1),
              help="1 = small demo; larger values add invoice batches and document pages.")
def generate_command(out: Path, seed: int, scale: int) -> None:
    """Write source files, manifest.json and ground_truth.json; same seed and scale, same bytes."""
    summary = generate(out, seed=seed, scale=scale, progress=echo_progress)
    click.echo(f"corpus:         {summary.out}")
    click.echo(f"tenants:        {len(summary.tenants)} ({', '.join(summary.tenants)})")
    click.echo(f"files:          {summary.files}")
    click.echo(f"documents:      {summary.documents} ({summary.invoice_documents} invoices/credit notes)")
    click.echo(f"invoice lines:  {summary.invoice_lines}")
    click.echo(f"markdown:       {summary.text_bytes} bytes (~{summary.chunks_estimate} chunks)")
    click.echo(f"elapsed:        {summary.elapsed_s:.1f}s")



@demo.command("run")
@click.option("--corpus", "corpus", default=Path(".procura/demo-corpus"), show_default=True,
              type=click.Path(file_okay=False, path_type=Path), help="Where to write the demo corpus.")
@click.option("--scale", default=1, show_default=True, type=click.IntRange(min=1), help="Corpus scale.")
@click.option("--seed", default=42, show_default=True, type=int, help="Seed of the random background data.")
def run_command(corpus: Path, scale: int, seed: int) -> None:
    """The main job end to end: generate, ingest, validate, build the marts, answer the seed question."""
    from jobs.demo import DEMO_STAGES, run_demo
    from procura.progress import progress_bar
    from procura.settings import get_settings

    with progress_bar("demo", total=len(DEMO_STAGES), unit="stages") as bar:
        answer = run_demo(get_settings(), corpus, scale=scale, seed=seed, bar=bar)
    click.echo("")
    click.echo("What was Company A's total spend on monitoring products supplied by its approved vendors")
    click.echo("during 2026-Q1?  (governed SQL over marts.validated_invoice_lines, as procura_app, tenant-42)")
    click.echo(f"  total spend:        {answer.total_spend} {answer.currency}")
    click.echo(f"  matched lines:      {answer.matched_line_count}")
    click.echo(f"  suppliers:          {', '.join(answer.supplier_ids)}")
    click.echo(f"  products:           {', '.join(answer.product_codes)}")
    verdict = "matches" if answer.matches_ground_truth else "DOES NOT MATCH"
    click.echo(
        f"  ground truth:       {answer.expected_total_spend} {answer.currency}, "
        f"{answer.expected_matched_line_count} lines ({verdict})"
    )
    if not answer.matches_ground_truth:
        raise click.ClickException("the governed SQL total differs from the independent ground truth")


if __name__ == "__main__":  # pragma: no cover
    demo()
