"""Approvals that start or end inside the period of a figure about approved (or not approved) vendors.

"Spend with approved vendors in H2 2025" when a vendor's approval only starts on 1 August counts its July invoices
too (the approved set is the vendors whose approval overlaps the period): read as "the spend while approved", that
figure is wrong, and nothing in the answer said so. The figure cannot be cut per vendor by one governed call, so
the answer names each vendor whose approvals leave part of the period uncovered, with the dates, and is marked
partial: the reader asks for the covered dates (or accepts the overlap reading) knowingly, never silently.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Uncovered:
    """A vendor whose approvals cover only part of ``[start, end)``: the parts they do cover."""

    supplier_id: str
    covered: tuple[tuple[dt.date, dt.date], ...]


def uncovered_vendors(approvals: Iterable[tuple[str, dt.date, dt.date | None]], start: dt.date,
                      end: dt.date, suppliers: Iterable[str] | None = None) -> tuple[Uncovered, ...]:
    """The vendors (of ``suppliers`` when given) whose approvals, joined, do not cover ``[start, end)``; each
    approval is (supplier_id, valid_from, valid_to or ``None`` for open-ended, end exclusive).

    >>> d = dt.date
    >>> uncovered_vendors([("SUP-40", d(2025, 8, 1), None)], d(2025, 7, 1), d(2026, 1, 1))
    (Uncovered(supplier_id='SUP-40', covered=((datetime.date(2025, 8, 1), datetime.date(2026, 1, 1)),)),)
    >>> uncovered_vendors([("S", d(2025, 1, 1), d(2025, 9, 1)), ("S", d(2025, 9, 1), None)], d(2025, 7, 1),
    ...                   d(2026, 1, 1))
    ()
    """
    wanted = set(suppliers) if suppliers is not None else None
    spans: dict[str, list[tuple[dt.date, dt.date]]] = {}
    for supplier, valid_from, valid_to in approvals:
        if wanted is not None and supplier not in wanted:
            continue
        lo, hi = max(valid_from, start), min(valid_to or end, end)
        if lo < hi:
            spans.setdefault(supplier, []).append((lo, hi))
    found: list[Uncovered] = []
    for supplier in sorted(spans):
        merged: list[tuple[dt.date, dt.date]] = []
        for lo, hi in sorted(spans[supplier]):
            if merged and lo <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        if merged != [(start, end)]:
            found.append(Uncovered(supplier, tuple(merged)))
    return tuple(found)


def uncovered_sentence(found: tuple[Uncovered, ...], excluded: bool) -> str:
    """The caution an answer carries for ``found`` (empty when nothing is uncovered)."""
    if not found:
        return ""
    said = "; ".join(f"{u.supplier_id} approved only " + ", ".join(f"{a} to {b}" for a, b in u.covered)
                     for u in found)
    how = ("excluded over the whole period although not approved throughout" if excluded
           else "counted over the whole period although not approved throughout")
    return (f" PARTIAL READING: an approval starts or ends inside the period ({said}, end exclusive), so these "
            f"vendors are {how}; ask for the dates they were approved for the spend while approved.")


__all__ = ["Uncovered", "uncovered_sentence", "uncovered_vendors"]
