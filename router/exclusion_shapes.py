"""Exclusions on every answer shape: a supplier, group or product left out applies to whatever the question asks
(a total, a ranking, a list of invoices, a threshold or an amount range), wherever the shape's governed query can
filter on it.

The spend figures take their exclusions through the analyst metrics (router/metric_shape.py). The invoice lists and
rankings did not: "largest 2 invoices excl Helix", "invoices at least 2k, excl Helix", "invoices between 5k and
20k, excluding Gamma" were asked back ("I can leave SUP-97 out of governed spend figures, but not out of this
answer") although the listing's query can leave a supplier out as easily as it keeps one. The rule is by the
shape's declared parameters, never by question: an exclusion whose parameter the planned metric declares is bound
to it; one it does not declare (a product group left out of an invoice's grand total, which spans groups) is named
back, never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from router.entities import Gazetteer
from router.reader import CatalogMetric, Reading

#: Each exclusion of the reading and the metric parameter that applies it.
_PARAMETERS = (("excluded_supplier_ids", "exclude_supplier_ids"),
               ("excluded_group_ids", "exclude_product_group_ids"),
               ("excluded_product_codes", "exclude_product_codes"))
#: What the governed invoice listing (``finance.invoices_above_threshold``: thresholds, amount ranges, plain
#: listings) can leave out: suppliers (an invoice has one). A group or a product is part of an invoice, whose grand
#: total the listing compares: not a filter of it.
LISTING_EXCLUSIONS = frozenset({"exclude_supplier_ids"})


def _declared(reading: Reading, metric: CatalogMetric | None) -> frozenset[str] | None:
    if metric is not None:
        return frozenset(name for name, _, _ in metric.parameters)
    if reading.measure == "invoices_above_threshold":
        return LISTING_EXCLUSIONS
    return None


def unapplied_exclusions(reading: Reading, metric: CatalogMetric | None, excluded: Sequence[str]) -> list[str]:
    """The exclusions (of ``excluded``, the reading's) the planned shape cannot apply: all of them when no listing or
    catalog metric is planned (the caller's own rule then decides), else those whose parameter ``metric`` (or the
    governed invoice listing) does not declare."""
    declared = _declared(reading, metric)
    if declared is None:
        return list(excluded)
    return [x for attr, parameter in _PARAMETERS if parameter not in declared for x in getattr(reading, attr)]


def exclusion_parameters(reading: Reading, metric: CatalogMetric, gazetteer: Gazetteer) -> dict[str, object]:
    """The reading's exclusions as ``metric``'s parameters, for those it declares (a group with its subgroups, as
    every spend figure counts it)."""
    declared = _declared(reading, metric) or frozenset()
    out: dict[str, object] = {}
    if reading.excluded_supplier_ids and "exclude_supplier_ids" in declared:
        out["exclude_supplier_ids"] = list(reading.excluded_supplier_ids)
    if reading.excluded_group_ids and "exclude_product_group_ids" in declared:
        out["exclude_product_group_ids"] = sorted({g for gid in reading.excluded_group_ids
                                                  for g in gazetteer.subgroups(gid)})
    if reading.excluded_product_codes and "exclude_product_codes" in declared:
        out["exclude_product_codes"] = list(reading.excluded_product_codes)
    return out


__all__ = ["LISTING_EXCLUSIONS", "exclusion_parameters", "unapplied_exclusions"]
