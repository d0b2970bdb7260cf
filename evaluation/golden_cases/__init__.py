"""The builders of the golden set, one module per case family (see :mod:`evaluation.build_golden`).

:mod:`~evaluation.golden_cases.corpus` reads the demo corpus the way the product serves it,
:mod:`~evaluation.golden_cases.common` holds what every family shares (the case list, periods, answers); each
other module adds one family's cases to a :class:`~evaluation.golden_cases.common.CaseList`.
"""
