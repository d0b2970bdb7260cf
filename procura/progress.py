"""The one CLI output helper: progress bars on a terminal, plain lines everywhere else.

On an interactive terminal a task shows a rich progress bar with the count done (of the total, when known), the
rate and the time remaining; piped, redirected, under CI (``CI`` set) or with ``PROCURA_PLAIN_PROGRESS=1`` the
same calls print plain ``[procura] ...`` lines on stderr, so logs stay greppable and stdout stays machine-readable
(``procura db url``, summaries). Ingest, the demo run, ``procura eval`` and ``python -m bench`` all report this way.

Example::

    with progress_bar("ingest", unit="docs") as bar:
        for done in ...:
            bar.update(done, total=expected, line=f"{done} documents")   # a bar on a TTY, the line otherwise
        bar.echo("vector index built")                                    # a line above the bar / a plain line
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

import click

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn, Task, TaskID
    from rich.text import Text


def echo_progress(message: str, *, prefix: str = "procura") -> None:
    """One ``[procura] message`` line on stderr (stdout is for results, e.g. ``procura db url``)."""
    click.echo(f"[{prefix}] {message}", err=True)


def interactive(stream: TextIO | None = None) -> bool:
    """Whether progress may draw on ``stream`` (default stderr): a terminal, not CI, not asked to be plain."""
    if os.environ.get("CI") or os.environ.get("PROCURA_PLAIN_PROGRESS") or os.environ.get("TERM") == "dumb":
        return False
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _rate_column(unit: str) -> ProgressColumn:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Items per second over rich's sliding window (``?`` until there are two samples)."""

        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("? " + unit + "/s" if speed is None else f"{speed:,.1f} {unit}/s", style="progress.data.speed")

    return RateColumn()


class ProgressBar:
    """One task's progress (use as a context manager; see the module docstring).

    Args:
        description: what runs (``ingest``, ``demo``, ``eval``).
        total: how many units there will be, when known (None: count and rate, no ETA until a total arrives).
        unit: what is counted, for the rate (``docs``, ``questions``, ``stages``).
        prefix: the tag of plain lines (``[procura]``, ``[bench]``).
        live: draw a bar (default: :func:`interactive`).
    """

    def __init__(self, description: str, *, total: int | None = None, unit: str = "items",
                 prefix: str = "procura", live: bool | None = None) -> None:
        self.description = description
        self.total = total
        self.unit = unit
        self.prefix = prefix
        self.live = interactive() if live is None else live
        self.completed = 0
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> ProgressBar:
        if self.live:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                SpinnerColumn,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                _rate_column(self.unit), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                TextColumn("{task.fields[detail]}", style="dim"),
                console=Console(stderr=True), transient=False,
            )
            self._progress.start()
            self._task = self._progress.add_task(self.description, total=self.total, detail="")
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def update(self, completed: int, *, total: int | None = None, line: str | None = None) -> None:
        """``completed`` units are done (of ``total``, if it is now known); ``line`` is the plain-output text."""
        if total is not None:
            self.total = total
        self.completed = completed
        if self._progress is not None and self._task is not None:
            detail = "" if line is None else (line if len(line) <= 60 else line[:59] + "…")
            self._progress.update(self._task, completed=completed, total=self.total, detail=detail)
        elif line is not None:
            echo_progress(line, prefix=self.prefix)

    def advance(self, step: int = 1, *, line: str | None = None) -> None:
        """``step`` more units are done."""
        self.update(self.completed + step, line=line)

    def echo(self, message: str) -> None:
        """A line of its own: above the bar on a terminal, a plain ``[prefix]`` line otherwise."""
        if self._progress is not None:
            self._progress.console.print(f"[{self.prefix}] {message}", markup=False, highlight=False)
        else:
            echo_progress(message, prefix=self.prefix)


def progress_bar(description: str, *, total: int | None = None, unit: str = "items", prefix: str = "procura",
                 live: bool | None = None) -> ProgressBar:
    """A :class:`ProgressBar` (the one way commands report progress)."""
    return ProgressBar(description, total=total, unit=unit, prefix=prefix, live=live)
