"""procura.progress: a bar on a terminal, the same information as plain lines when piped or under CI."""

from __future__ import annotations

import io

import pytest

from procura.progress import echo_progress, interactive, progress_bar


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_output_is_one_line_per_reported_step(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar("ingest", unit="docs", live=False) as bar:
        bar.update(10, total=20, line="10 documents")
        bar.update(15)  # no line: nothing to print
        bar.advance(5, line="20 documents")
        bar.echo("done")
    assert bar.completed == 20 and bar.total == 20
    assert capsys.readouterr().err.splitlines() == ["[procura] 10 documents", "[procura] 20 documents",
                                                    "[procura] done"]


def test_the_prefix_names_the_tool(capsys: pytest.CaptureFixture[str]) -> None:
    echo_progress("report: docs/benchmarks.md", prefix="bench")
    assert capsys.readouterr().err == "[bench] report: docs/benchmarks.md\n"


def test_a_terminal_gets_a_bar_unless_ci_or_plain_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CI", "PROCURA_PLAIN_PROGRESS", "TERM"):
        monkeypatch.delenv(name, raising=False)
    assert interactive(_Tty()) and not interactive(io.StringIO())
    monkeypatch.setenv("CI", "true")
    assert not interactive(_Tty())
    monkeypatch.delenv("CI")
    monkeypatch.setenv("PROCURA_PLAIN_PROGRESS", "1")
    assert not interactive(_Tty())


def test_the_bar_counts_with_a_total_and_keeps_lines_above_it(capsys: pytest.CaptureFixture[str]) -> None:
    with progress_bar("demo", total=3, unit="stages", live=True) as bar:
        bar.advance(line="generate")
        bar.echo("corpus written")
        bar.advance()
        bar.advance()
    err = capsys.readouterr().err
    assert bar.completed == 3
    assert "corpus written" in err and "3/3" in err
