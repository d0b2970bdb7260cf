"""What every ``procura`` command group shares: Procura's errors become one-line CLI errors.

Every area registers its commands with these classes, so a :class:`procura.errors.ProcuraError` (a missing
database, an unknown metric, a refused login name) is printed as ``Error: <message>`` with exit status 1, never as
a traceback. Other exceptions still show their traceback: they are bugs.
"""

from __future__ import annotations

import click

from procura.errors import ProcuraError


class ProcuraGroup(click.Group):
    """A click group whose commands report ProcuraError as a one-line error."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except ProcuraError as exc:
            raise click.ClickException(str(exc)) from exc


class ProcuraCommand(click.Command):
    """A stand-alone click command that reports ProcuraError as a one-line error."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except ProcuraError as exc:
            raise click.ClickException(str(exc)) from exc
