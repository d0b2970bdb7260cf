"""The product's own measurements: the golden set, ``procura eval`` and the report it writes.

Public API::

    from evaluation.golden import load_golden, GoldenSet, GoldenCase
    from evaluation.runner import run_evaluation
    from evaluation.cli import eval_command   # the click command `procura eval`
"""
