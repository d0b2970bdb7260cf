"""One wording for a plan step whose result a composer could not use: "<what> did not run (<status>: <error>)".

Composers state such a step instead of a figure (never a figure in its place); the status and the executor's error
say why, so a timeout reads differently from a denied scope or a skipped dependency.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from router.executor import StepOutcome


def did_not_run(what: str, outcome: StepOutcome | None) -> str:
    """``what`` did not run, with the step's status and error when the run has an outcome for it.

    >>> did_not_run("The unit-price figure", None)
    'The unit-price figure did not run'
    """
    return f"{what} did not run" + (f" ({outcome.status}: {outcome.error})" if outcome is not None else "")


__all__ = ["did_not_run"]
