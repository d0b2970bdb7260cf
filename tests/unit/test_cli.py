"""Every CLI command answers --help."""

from __future__ import annotations

import click
from click.testing import CliRunner

from procura.cli import main


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name, command in group.commands.items():
        path = (*prefix, name)
        found.append(path)
        if isinstance(command, click.Group):
            found.extend(_commands(command, path))
    return found


def test_every_command_has_help() -> None:
    runner = CliRunner()
    main.list_commands(click.Context(main))  # the areas' commands register lazily; listing registers them all
    paths = _commands(main)
    assert ("db", "up") in paths and ("db", "url") in paths
    for path in paths:
        result = runner.invoke(main, [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "Usage:" in result.output


def test_eval_is_a_registered_subcommand() -> None:
    result = CliRunner().invoke(main, ["eval", "--help"])
    assert result.exit_code == 0, result.output
    for option in ("--golden", "--database", "--case", "--out"):
        assert option in result.output
