"""CLI output shared by every command: progress lines on stderr, so stdout stays machine-readable."""

from __future__ import annotations

import click


def echo_progress(message: str) -> None:
    """One ``[procura] message`` line on stderr (stdout is for results, e.g. ``procura db url``)."""
    click.echo(f"[procura] {message}", err=True)
