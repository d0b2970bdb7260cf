"""Probe questions for constraint-keeping plans: each asked through ``/v1/ask`` and checked against the governed
metric called directly with the intended parameters.

``python -m evaluation.constraint_probes [--database procura] [--category change] [--verbose]`` asks every probe
of :data:`PROBES` (demo database, tenant-42, as of 2026-05-15) and classifies the answer:

* ``exact``: every expected figure (and id) of the direct metric call is in the answer text;
* ``clarify_ok`` / ``clarify_wrong``: a clarification where one is (is not) expected;
* ``flagged``: another answer that says it is partial;
* ``silent_wrong``: another answer presented as complete (a dropped constraint, a different base or period).

The probes are a training set written for the failure classes (change, ranking, shares, exclusions, multihop,
periods, German): they are no evaluation of the router, which is tuned on them. The blind sets live elsewhere
and are never read here.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from evaluation.probe_client import probe_client

TENANT = "tenant-42"
AS_OF = dt.date(2026, 5, 15)
SENS = ["PG-FLOW", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]
PRES = ["PG-PRES", "PG-PRES-WL"]
MON = ["PG-FLOW", "PG-MCTL", "PG-MON", "PG-PRES", "PG-PRES-WL", "PG-SENS", "PG-TEMP"]
Q1 = {"start_date": "2026-01-01", "end_date": "2026-04-01"}
Y25 = {"start_date": "2025-01-01", "end_date": "2026-01-01"}
A = {"company_id": "COMP-A"}


@dataclass(frozen=True)
class Call:
    """The governed metric call a probe means, and which of its outputs must appear in the answer."""

    metric: str
    parameters: Mapping[str, Any]
    group_by: tuple[str, ...] = ()
    grain: str | None = None
    #: Output fields whose values must be in the answer text (every row); dimension values are always checked.
    outputs: tuple[str, ...] = ("total_spend",)


@dataclass(frozen=True)
class Probe:
    category: str
    question: str
    expect: Call | None  # None: a clarification is the right answer
    #: Words the clarification must contain (any of them), when one is expected.
    about: tuple[str, ...] = ()
    as_of: dt.date = AS_OF
    #: For a traversal (no metric): strings every one of which the executed plan's arguments must contain.
    plan: tuple[str, ...] = ()


def _cmp(params: Mapping[str, Any], rule: str = "previous_period", **extra: Any) -> Call:
    return Call("finance.spend_comparison", {**params, "compare_to": rule, **extra},
                outputs=("total_spend", "base_value", "change"))


def _rank(params: Mapping[str, Any], dim: str = "supplier_id", limit: int = 5, direction: str = "top") -> Call:
    return Call("finance.spend_ranking", {**params, "limit": limit, "direction": direction,
                                          "order_by": "total_spend"}, (dim,), outputs=("total_spend",))


def _share(params: Mapping[str, Any], metric: str = "finance.supplier_share") -> Call:
    return Call(metric, params, outputs=("share_percent", "part_value", "whole_value"))


def _total(params: Mapping[str, Any]) -> Call:
    return Call("finance.company_spend", params)


PROBES: tuple[Probe, ...] = (
    # --- change: the base period stated and right for every period kind -------------------------------------------
    Probe("change", "How did Company A's spend change in Q1 2026 compared to the previous quarter?", _cmp({**A, **Q1})),
    Probe("change", "Company A spend in March 2026 vs February 2026",
          _cmp({**A, "start_date": "2026-03-01", "end_date": "2026-04-01"})),
    Probe("change", "How did Company A's spend with Supplier Beta change in Q1 2026 year over year?",
          _cmp({**A, **Q1, "supplier_ids": ["SUP-18"]}, "same_period_last_year")),
    Probe("change", "Change in Company A's spend on Pressure Sensors in Q1 2026 vs Q4 2025",
          _cmp({**A, **Q1, "product_group_ids": PRES})),
    Probe("change", "How did Company A's spend in the last 3 months compare with the previous 3 months?",
          _cmp({**A, "start_date": "2026-02-16", "end_date": "2026-05-16"})),
    Probe("change", "Company A spend year to date vs the same period last year",
          _cmp({**A, "start_date": "2026-01-01", "end_date": "2026-05-16"}, "same_period_last_year")),
    Probe("change", "How did Company A's spend excluding Supplier Gamma change from Q4 2025 to Q1 2026?",
          _cmp({**A, **Q1, "exclude_supplier_ids": ["SUP-27"]})),
    Probe("change", "How did Company B's spend change in 2026-Q1 compared with 2025-Q1?",
          _cmp({"company_id": "COMP-B", **Q1}, "same_period_last_year")),
    Probe("change", "Company A spend in Q1 2026 compared with Q3 2025",
          _cmp({**A, **Q1}, "custom", base_start_date="2025-07-01", base_end_date="2025-10-01")),
    Probe("change", "How did Company A's spend on Sensors develop from H2 2025 to H1 2026?",
          _cmp({**A, "start_date": "2026-01-01", "end_date": "2026-07-01", "product_group_ids": SENS})),
    Probe("change", "How much did Company A's unpaid spend grow in Q1 2026 vs the previous quarter?",
          _cmp({**A, **Q1, "invoice_statuses": ["posted"]})),
    Probe("change", "Company A spend with Supplier Beta in Q1 2026 vs Q1 2025",
          _cmp({**A, **Q1, "supplier_ids": ["SUP-18"]}, "same_period_last_year")),
    # --- ranking: every filter, the dimension, the limit, ties --------------------------------------------------
    Probe("ranking", "Top 3 suppliers of Company A in Q1 2026", _rank({**A, **Q1}, limit=3)),
    Probe("ranking", "Who was Company A's biggest supplier in 2025?", _rank({**A, **Y25}, limit=1)),
    Probe("ranking", "Top 2 suppliers of Company A for Pressure Sensors in 2025",
          _rank({**A, **Y25, "product_group_ids": PRES}, limit=2)),
    Probe("ranking", "Top 3 suppliers of Company A in Q1 2026 excluding Supplier Gamma",
          _rank({**A, **Q1, "exclude_supplier_ids": ["SUP-27"]}, limit=3)),
    Probe("ranking", "Which product group did Company A spend the most on in 2025?",
          _rank({**A, **Y25}, "top_product_group_id", limit=1)),
    Probe("ranking", "Bottom 2 suppliers of Company A in 2025", _rank({**A, **Y25}, limit=2, direction="bottom")),
    Probe("ranking", "Top 3 products of Company A in Q1 2026 from Supplier Beta",
          _rank({**A, **Q1, "supplier_ids": ["SUP-18"]}, "product_code", limit=3)),
    Probe("ranking", "Top 3 suppliers of Company A by unpaid spend in 2026",
          _rank({**A, "start_date": "2026-01-01", "end_date": "2027-01-01", "invoice_statuses": ["posted"]},
                limit=3)),
    Probe("ranking", "Company A's top 3 suppliers in the last 90 days",
          _rank({**A, "start_date": "2026-02-15", "end_date": "2026-05-16"}, limit=3)),
    Probe("ranking", "Top 2 suppliers of Company A on Monitoring Products in 2025 other than Supplier Beta",
          _rank({**A, **Y25, "product_group_ids": MON, "exclude_supplier_ids": ["SUP-18"]}, limit=2)),
    Probe("ranking", "Which supplier did Company B spend the most with in Q1 2026?",
          _rank({"company_id": "COMP-B", **Q1}, limit=1)),
    Probe("ranking", "Top 2 product groups of Company A in 2025 by spend, credit notes excluded",
          _rank({**A, **Y25, "document_types": ["invoice"]}, "top_product_group_id", limit=2)),
    # --- shares: the part and the whole (company, group, named suppliers) ---------------------------------------
    Probe("shares", "What share of Company A's spend in Q1 2026 went to Supplier Beta?",
          _share({**A, **Q1, "supplier_ids": ["SUP-18"]})),
    Probe("shares", "What share of Company A's Pressure Sensors spend in 2025 went to Supplier Zeta?",
          _share({**A, **Y25, "supplier_ids": ["SUP-35"], "product_group_ids": PRES})),
    Probe("shares", "What percentage of Company A's spend in 2025 was on Sensors?",
          _share({**A, **Y25, "product_group_ids": SENS}, "finance.product_group_share")),
    Probe("shares", "Beta's share of Company A's spend in 2025 excluding Supplier Gamma",
          _share({**A, **Y25, "supplier_ids": ["SUP-18"], "exclude_supplier_ids": ["SUP-27"]})),
    Probe("shares", "What share of Company A's spend with Beta and Gamma in 2025 went to Pressure Sensors?",
          _share({**A, **Y25, "supplier_ids": ["SUP-18", "SUP-27"], "product_group_ids": PRES},
                 "finance.product_group_share")),
    Probe("shares", "What share of Company A's spend in Q1 2026 was with Beta and Gamma together?",
          _share({**A, **Q1, "supplier_ids": ["SUP-18", "SUP-27"]})),
    Probe("shares", "What share of Company A's unpaid spend in 2026 is with Supplier Beta?",
          _share({**A, "start_date": "2026-01-01", "end_date": "2027-01-01", "supplier_ids": ["SUP-18"],
                  "invoice_statuses": ["posted"]})),
    Probe("shares", "What share of Company A's 2025 spend on Monitoring Products went to Beta?",
          _share({**A, **Y25, "supplier_ids": ["SUP-18"], "product_group_ids": MON})),
    # A group's share of another group's spend: the whole restricted to the outer group (and its subgroups).
    Probe("shares", "Pressure Sensors' share of Company A's Sensors spend in 2025",
          _share({**A, **Y25, "product_group_ids": PRES, "within_product_group_ids": SENS},
                 "finance.product_group_share")),
    Probe("shares", "What share of Company A's spend in 2025 excluding Sensors went to Supplier Gamma?",
          _share({**A, **Y25, "supplier_ids": ["SUP-27"], "exclude_product_group_ids": SENS})),
    # --- exclusions: left out of the figure (and of both sides of a share or change) ------------------------------
    Probe("exclusions", "Company A spend in Q1 2026 excluding Supplier Beta",
          _total({**A, **Q1, "exclude_supplier_ids": ["SUP-18"]})),
    Probe("exclusions", "Company A spend on Sensors in 2025 except Pressure Sensors",
          _total({**A, **Y25, "product_group_ids": SENS, "exclude_product_group_ids": PRES})),
    Probe("exclusions", "Company A spend in 2025 other than Beta and Gamma",
          _total({**A, **Y25, "exclude_supplier_ids": ["SUP-18", "SUP-27"]})),
    Probe("exclusions", "Company A's spend with Supplier Beta in 2025 excluding Pressure Sensors",
          _total({**A, **Y25, "supplier_ids": ["SUP-18"], "exclude_product_group_ids": PRES})),
    Probe("exclusions", "Company A spend in 2025 without credit notes",
          _total({**A, **Y25, "document_types": ["invoice"]})),
    Probe("exclusions", "Company A spend with Beta and Gamma in 2025 excluding Pressure Sensors",
          _total({**A, **Y25, "supplier_ids": ["SUP-18", "SUP-27"], "exclude_product_group_ids": PRES})),
    Probe("exclusions", "Company A spend on Monitoring Products in Q1 2026 excluding Supplier Gamma",
          _total({**A, **Q1, "product_group_ids": MON, "exclude_supplier_ids": ["SUP-27"]})),
    # --- multihop: company, supplier, group with subgroups, date ------------------------------------------------
    Probe("multihop", "What did Company A spend with Supplier Beta on Pressure Sensors in 2025?",
          _total({**A, **Y25, "supplier_ids": ["SUP-18"], "product_group_ids": PRES})),
    Probe("multihop", "Company A spend on Monitoring Products with Beta and Gamma in Q1 2026",
          _total({**A, **Q1, "supplier_ids": ["SUP-18", "SUP-27"], "product_group_ids": MON})),
    Probe("multihop", "Company A spend on Sensors in 2025", _total({**A, **Y25, "product_group_ids": SENS})),
    Probe("multihop", "Company B spend on Pressure Sensors with Supplier Zeta in the last 12 months",
          _total({"company_id": "COMP-B", "start_date": "2025-05-16", "end_date": "2026-05-16",
                  "supplier_ids": ["SUP-35"], "product_group_ids": PRES})),
    Probe("multihop", "Company A spend with Gamma on Control Equipment from January to March 2026",
          _total({**A, **Q1, "supplier_ids": ["SUP-27"],
                  "product_group_ids": ["PG-CAB", "PG-CAB-ACC", "PG-CMOD", "PG-CTRL", "PG-PLC"]})),
    # --- second round: other wordings of the same classes --------------------------------------------------------
    Probe("change", "Did Company A spend more in Q1 2026 than in Q4 2025?", _cmp({**A, **Q1})),
    Probe("change", "How much more did Company A spend with Beta in 2025 than in 2024?",
          _cmp({**A, **Y25, "supplier_ids": ["SUP-18"]}, "same_period_last_year")),
    Probe("change", "Company A spend in March 2026 compared to the same month last year",
          _cmp({**A, "start_date": "2026-03-01", "end_date": "2026-04-01"}, "same_period_last_year")),
    Probe("change", "By how much did Company A's spend with Gamma fall in Q1 2026 versus Q4 2025?",
          _cmp({**A, **Q1, "supplier_ids": ["SUP-27"]})),
    Probe("change", "How did Company A's spend change month over month in March 2026?",
          _cmp({**A, "start_date": "2026-03-01", "end_date": "2026-04-01"})),
    Probe("change", "How did Company A's spend change in the last quarter compared with the quarter before?",
          _cmp({**A, **Q1})),
    Probe("change", "What was the difference between Company A's spend in January 2026 and December 2025?",
          _cmp({**A, "start_date": "2026-01-01", "end_date": "2026-02-01"})),
    Probe("change", "Company A spend change H1 2026 vs H1 2025",
          _cmp({**A, "start_date": "2026-01-01", "end_date": "2026-07-01"}, "same_period_last_year")),
    Probe("change", "How did Company A's spend on Pressure Sensors with Supplier Zeta change in Q1 2026 vs Q4 2025?",
          _cmp({**A, **Q1, "supplier_ids": ["SUP-35"], "product_group_ids": PRES})),
    Probe("change", "How did Company A's spend in the last 90 days compare with the previous 90 days?",
          _cmp({**A, "start_date": "2026-02-15", "end_date": "2026-05-16"}, "custom",
               base_start_date="2025-11-17", base_end_date="2026-02-15")),
    Probe("ranking", "Which 2 suppliers did Company A spend the most with in 2025?", _rank({**A, **Y25}, limit=2)),
    Probe("ranking", "Company A's smallest supplier in 2025", _rank({**A, **Y25}, limit=1, direction="bottom")),
    Probe("ranking", "Top supplier of Company A for Temperature Sensors in Q1 2026",
          _rank({**A, **Q1, "product_group_ids": ["PG-TEMP"]}, limit=1)),
    Probe("ranking", "Which of Beta and Gamma did Company A spend more with in 2025?",
          _rank({**A, **Y25, "supplier_ids": ["SUP-18", "SUP-27"]}, limit=1)),
    Probe("ranking", "Top 2 products of Company A in Pressure Sensors in 2025",
          _rank({**A, **Y25, "product_group_ids": PRES}, "product_code", limit=2)),
    Probe("ranking", "Company A's largest product group in Q1 2026 excluding Control Equipment",
          _rank({**A, **Q1, "exclude_product_group_ids": ["PG-CAB", "PG-CAB-ACC", "PG-CMOD", "PG-CTRL", "PG-PLC"]},
                "top_product_group_id", limit=1)),
    Probe("ranking", "Top 3 suppliers of Company A in 2025 excluding Pressure Sensors",
          _rank({**A, **Y25, "exclude_product_group_ids": PRES}, limit=3)),
    # A breakdown beside a ranking of another dimension: one ranking per supplier is no governed metric.
    Probe("ranking", "Top 3 products per supplier of Company A in 2025", None, ("supplier",)),
    Probe("ranking", "Top 2 suppliers of Company C in 2025", _rank({"company_id": "COMP-C", **Y25}, limit=2)),
    Probe("ranking", "Top 3 suppliers of Company A with approved status in 2025 for Sensors",
          _rank({**A, **Y25, "product_group_ids": SENS}, limit=3)),
    Probe("shares", "What % of Company A's Q1 2026 spend was with Beta?",
          _share({**A, **Q1, "supplier_ids": ["SUP-18"]})),
    Probe("shares", "Gamma's share of Company A's Monitoring Products spend in Q1 2026",
          _share({**A, **Q1, "supplier_ids": ["SUP-27"], "product_group_ids": MON})),
    Probe("shares", "What share of Company A's spend on Pressure Sensors in 2025 came from Beta and Zeta?",
          _share({**A, **Y25, "supplier_ids": ["SUP-18", "SUP-35"], "product_group_ids": PRES})),
    Probe("shares", "What portion of Company A's 2025 spend with Supplier Beta was on Sensors?",
          _share({**A, **Y25, "supplier_ids": ["SUP-18"], "product_group_ids": SENS}, "finance.product_group_share")),
    Probe("shares", "What share of Company B's spend in 2025 went to Beta?",
          _share({"company_id": "COMP-B", **Y25, "supplier_ids": ["SUP-18"]})),
    Probe("shares", "What share of Company A's 2025 spend went to Beta, excluding Pressure Sensors?",
          _share({**A, **Y25, "supplier_ids": ["SUP-18"], "exclude_product_group_ids": PRES})),
    Probe("shares", "How much of Company A's spend in the last 12 months went to Gamma, in percent?",
          _share({**A, "start_date": "2025-05-16", "end_date": "2026-05-16", "supplier_ids": ["SUP-27"]})),
    Probe("exclusions", "Company A spend in 2025 apart from Supplier Gamma",
          _total({**A, **Y25, "exclude_supplier_ids": ["SUP-27"]})),
    Probe("exclusions", "Company A spend in Q1 2026, not counting Beta",
          _total({**A, **Q1, "exclude_supplier_ids": ["SUP-18"]})),
    Probe("exclusions", "How did Company A's spend excluding Sensors change in Q1 2026 vs Q4 2025?",
          _cmp({**A, **Q1, "exclude_product_group_ids": SENS})),
    Probe("exclusions", "Company A spend on Sensors except Temperature Sensors and Flow Sensors in 2025",
          _total({**A, **Y25, "product_group_ids": SENS, "exclude_product_group_ids": ["PG-FLOW", "PG-TEMP"]})),
    Probe("exclusions", "Company A's unpaid spend in 2026 excluding Supplier Gamma",
          _total({**A, "start_date": "2026-01-01", "end_date": "2027-01-01", "invoice_statuses": ["posted"],
                  "exclude_supplier_ids": ["SUP-27"]})),
    Probe("multihop", "Company A spend with Iota Cables on Cables and Connectors in 2025",
          _total({**A, **Y25, "supplier_ids": ["SUP-60"], "product_group_ids": ["PG-CABL"]})),
    Probe("multihop", "Spend of Company A on Wireless Pressure Transmitters from Supplier Zeta in 2025",
          _total({**A, **Y25, "supplier_ids": ["SUP-35"], "product_group_ids": ["PG-PRES-WL"]})),
    Probe("multihop", "How much did Company C spend with Supplier Delta on Control Cabinets in 2025?",
          _total({"company_id": "COMP-C", **Y25, "supplier_ids": ["SUP-31"], "product_group_ids": ["PG-CAB",
                                                                                                  "PG-CAB-ACC"]})),
    Probe("multihop", "Company A spend with Beta on Pressure Sensors between 2026-01-15 and 2026-03-15",
          _total({**A, "start_date": "2026-01-15", "end_date": "2026-03-15", "supplier_ids": ["SUP-18"],
                  "product_group_ids": PRES})),
    Probe("multihop", "Company A spend with Beta and Zeta on Sensors in Q1 2026, month by month",
          Call("finance.company_spend", {**A, **Q1, "supplier_ids": ["SUP-18", "SUP-35"], "product_group_ids": SENS},
               grain="month")),
    Probe("multihop", "Company A spend on Pressure Sensors per supplier in 2025",
          Call("finance.company_spend", {**A, **Y25, "product_group_ids": PRES}, ("supplier_id",))),
    # multihop traversals: every constraint in the plan (company, supplier, group, the question's own date)
    Probe("multihop", "Which suppliers were approved for Company A on 2025-06-01?", None,
          plan=("COMP-A", "2025-06-01", "2025-06-02")),
    Probe("multihop", "Which of Company A's approved vendors supply Pressure Sensors in Q1 2026?", None,
          plan=("COMP-A", "2026-01-01", "2026-04-01", "Pressure Sensors")),
    Probe("multihop", "Which products under Sensors does Supplier Zeta supply?", None, plan=("SUP-35", "Sensors")),
    Probe("multihop", "Approved vendors of Company B for Control Cabinets on 2026-02-01", None,
          plan=("COMP-B", "2026-02-01", "Control Cabinets")),
    Probe("multihop", "What did Company A spend with approved vendors on Pressure Sensors in Q1 2026?", None,
          plan=("COMP-A", "2026-01-01", "2026-04-01", "Pressure Sensors", "graph.find_approved_vendors")),
    Probe("multihop", "Which suppliers approved for Company A in 2025 supply Temperature Sensors, excluding Beta?",
          None, ("Beta", "SUP-18", "leave")),
    # --- third round (written after the fixes above, to see whether they hold on new wordings) ---------------------
    Probe("change", "Is Company A spending more with Gamma in Q1 2026 than in Q1 2025?",
          _cmp({**A, **Q1, "supplier_ids": ["SUP-27"]}, "same_period_last_year")),
    Probe("change", "Q1 2026 vs Q1 2025 spend for Company A on Control Equipment",
          _cmp({**A, **Q1, "product_group_ids": ["PG-CAB", "PG-CAB-ACC", "PG-CMOD", "PG-CTRL", "PG-PLC"]},
               "same_period_last_year")),
    Probe("change", "How did Company A's spend in the past 6 months compare to the 6 months before?",
          _cmp({**A, "start_date": "2025-11-16", "end_date": "2026-05-16"}, "custom",
               base_start_date="2025-05-16", base_end_date="2025-11-16")),
    Probe("ranking", "Company A's 3 largest suppliers in 1Q26", _rank({**A, **Q1}, limit=3)),
    Probe("ranking", "Top supplier of Company A in the trailing twelve months, excluding Gamma",
          _rank({**A, "start_date": "2025-05-16", "end_date": "2026-05-16", "exclude_supplier_ids": ["SUP-27"]},
                limit=1)),
    Probe("shares", "Beta's share of Company A's spend in Jan and Feb 2026",
          _share({**A, "start_date": "2026-01-01", "end_date": "2026-03-01", "supplier_ids": ["SUP-18"]})),
    Probe("shares", "What share of Company A's Sensors spend in Q1'26 went to Zeta?",
          _share({**A, **Q1, "supplier_ids": ["SUP-35"], "product_group_ids": SENS})),
    Probe("exclusions", "Company A spend in the last 90 days excluding Supplier Beta and Supplier Gamma",
          _total({**A, "start_date": "2026-02-15", "end_date": "2026-05-16",
                  "exclude_supplier_ids": ["SUP-18", "SUP-27"]})),
    Probe("exclusions", "Company A spend on Monitoring Products except Sensors in 2025",
          _total({**A, **Y25, "product_group_ids": MON, "exclude_product_group_ids": SENS})),
    Probe("multihop", "Company A spend with Zeta on Temperature Sensors in Q4 2025 and Q1 2026",
          _total({**A, "start_date": "2025-10-01", "end_date": "2026-04-01", "supplier_ids": ["SUP-35"],
                  "product_group_ids": ["PG-TEMP"]})),
    Probe("german", "Ausgaben von Company A bei Supplier Beta in den letzten 12 Monaten",
          _total({**A, "start_date": "2025-05-16", "end_date": "2026-05-16", "supplier_ids": ["SUP-18"]})),
    Probe("german", "Rechnungen von Company A über zwanzigtausend Euro im Jahr 2025",
          Call("finance.invoices_above_threshold", {**A, **Y25, "threshold": "20000.00"},
               outputs=("invoice_number",))),
    Probe("german", "Ausgaben von Company A im zweiten Halbjahr 2025 ohne Supplier Gamma",
          _total({**A, "start_date": "2025-07-01", "end_date": "2026-01-01", "exclude_supplier_ids": ["SUP-27"]})),
    Probe("periods", "Company A spend during the last 2 weeks",
          _total({**A, "start_date": "2026-05-02", "end_date": "2026-05-16"})),
    Probe("periods", "Company A spend as of 2026-03-31", None, ("year to date",)),
    Probe("change", "Compare Company A's spend in Q1 2026", None, ("which period",)),
    # --- periods: rolling windows, lists, compact quarters, as of -------------------------------------------------
    Probe("periods", "Company A spend last 3 months",
          _total({**A, "start_date": "2026-02-16", "end_date": "2026-05-16"})),
    Probe("periods", "Company A spend in the past 90 days",
          _total({**A, "start_date": "2026-02-15", "end_date": "2026-05-16"})),
    Probe("periods", "Company A spend last week", _total({**A, "start_date": "2026-05-04", "end_date": "2026-05-11"})),
    Probe("periods", "Company A spend trailing 12 months",
          _total({**A, "start_date": "2025-05-16", "end_date": "2026-05-16"})),
    Probe("periods", "Company A TTM spend", _total({**A, "start_date": "2025-05-16", "end_date": "2026-05-16"})),
    Probe("periods", "Company A spend Q1 and Q2 2026",
          _total({**A, "start_date": "2026-01-01", "end_date": "2026-07-01"})),
    Probe("periods", "Company A spend in Jan and Feb",
          _total({**A, "start_date": "2026-01-01", "end_date": "2026-03-01"})),
    Probe("periods", "Company A spend 1Q26", _total({**A, **Q1})),
    Probe("periods", "Company A spend Q1'26", _total({**A, **Q1})),
    Probe("periods", "Company A spend Q1/26", _total({**A, **Q1})),
    Probe("periods", "Company A spend 2026Q1", _total({**A, **Q1})),
    Probe("periods", "Company A spend Q1-26", _total({**A, **Q1})),
    Probe("periods", "Company A spend as of March 2026", None, ("year to date", "as of")),
    # Parts that are no single range: one governed figure per part (Q3 2026 has not started: no data).
    Probe("periods", "Company A spend Q1 and Q3 2026", _total({**A, **Q1})),
    Probe("periods", "Top 3 suppliers of Company A in Q4 2025 and Q1 2026",
          _rank({**A, "start_date": "2025-10-01", "end_date": "2026-04-01"}, limit=3)),
    # --- German: numbers and periods -------------------------------------------------------------------------------
    Probe("german", "Ausgaben von Company A im ersten Quartal", _total({**A, **Q1})),
    Probe("german", "Ausgaben von Company A letztes Quartal", _total({**A, **Q1})),
    Probe("german", "Ausgaben von Company A seit März", _total({**A, "start_date": "2026-03-01",
                                                                "end_date": "2026-05-16"})),
    Probe("german", "Ausgaben von Company A im ersten Halbjahr 2026",
          _total({**A, "start_date": "2026-01-01", "end_date": "2026-07-01"})),
    Probe("german", "Ausgaben von Company A im Jahr 2026 bis Ende März", _total({**A, **Q1})),
    Probe("german", "Ausgaben von Company A im Vorjahr", _total({**A, **Y25})),
    Probe("german", "Ausgaben von Company A in den letzten drei Monaten",
          _total({**A, "start_date": "2026-02-16", "end_date": "2026-05-16"})),
    Probe("german", "Wie haben sich die Ausgaben von Company A im ersten Quartal 2026 gegenüber dem Vorjahr verändert?",
          _cmp({**A, **Q1}, "same_period_last_year")),
    Probe("german", "Die drei größten Lieferanten von Company A im Jahr 2025", _rank({**A, **Y25}, limit=3)),
    Probe("german", "Welcher Anteil der Ausgaben von Company A im Jahr 2025 ging an Supplier Beta?",
          _share({**A, **Y25, "supplier_ids": ["SUP-18"]})),
    Probe("german", "Ausgaben von Company A ohne Supplier Gamma im ersten Quartal 2026",
          _total({**A, **Q1, "exclude_supplier_ids": ["SUP-27"]})),
)


def _text(body: Any) -> tuple[str, str]:
    answer = body.get("answer", {}) if isinstance(body, dict) else {}
    return str(answer.get("status")), str(answer.get("text") or answer.get("clarification_question") or "")


def _tokens(result: Mapping[str, Any], call: Call) -> list[str]:
    out: list[str] = []
    for row in result.get("rows", ()):
        values = row.get("values", {})
        for dim in call.group_by:
            if values.get(dim) is not None:
                out.append(str(values[dim]))
        for name in call.outputs:
            value = values.get(name)
            if value is None:
                continue
            if name.endswith("_percent"):
                out.append(f"{Decimal(str(value)).normalize():f}")
            else:
                out.append(str(value))
    return out


def _present(token: str, text: str) -> bool:
    if token in text:
        return True
    try:
        number = Decimal(token)
    except ArithmeticError:
        return False
    return any(f"{number.quantize(Decimal(q))}" in text for q in ("0.01", "0.1", "1")) if "." in token else False


def classify(probe: Probe, status: str, text: str, expected: list[str] | None, plan: str = "") -> str:
    """The class of one answer (see the module docstring)."""
    if probe.plan and status != "clarification":
        return "exact" if all(v in plan for v in probe.plan) and status in ("answered", "no_data") else "silent_wrong"
    if status == "clarification":
        if probe.expect is None:
            return "clarify_ok" if not probe.about or any(w.lower() in text.lower() for w in probe.about) \
                else "clarify_wrong"
        return "clarify_wrong"
    if probe.expect is None:
        return "silent_wrong" if status in ("answered", "no_data") else "refusal"
    if expected == [] and status in ("no_data", "not_found"):
        return "exact"
    if status not in ("answered", "no_data", "partial"):
        return "refusal"
    if expected and all(_present(t, text) for t in expected):
        return "exact"
    return "flagged" if "PARTIAL" in text or status == "partial" else "silent_wrong"


def run(database: str, categories: Sequence[str] = (), verbose: bool = False) -> Counter[tuple[str, str]]:
    counts: Counter[tuple[str, str]] = Counter()
    with probe_client(database, "constraint-probes", (TENANT,)) as session:
        client, headers = session.client, session.headers
        for probe in PROBES:
            if categories and probe.category not in categories:
                continue
            expected: list[str] | None = None
            if probe.expect is not None:
                call = probe.expect
                direct = client.post(f"/v1/metrics/{call.metric}/query", headers=headers, json={
                    "parameters": dict(call.parameters), "group_by": list(call.group_by), "grain": call.grain})
                if direct.status_code != 200:
                    raise SystemExit(f"{probe.question!r}: direct {call.metric} call failed: {direct.text[:300]}")
                expected = _tokens(direct.json(), call)
            response = client.post("/v1/ask", headers=headers,
                                   json={"question": probe.question, "as_of": probe.as_of.isoformat()})
            body = response.json()
            status, text = _text(body)
            plan = json.dumps((body.get("routing") or {}).get("execution_plan") or [], ensure_ascii=False)
            klass = classify(probe, status, text, expected, plan)
            counts[(probe.category, klass)] += 1
            if verbose or klass not in ("exact", "clarify_ok"):
                print(f"[{probe.category}/{klass}] {probe.question}\n    expected {expected}\n    -> {status}: "
                      f"{text.split(' Sources:')[0][:700]}")
    return counts


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default="procura")
    parser.add_argument("--category", action="append", default=[])
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--json", help="write the counts as JSON to this file")
    args = parser.parse_args(argv)
    counts = run(args.database, args.category, args.verbose)
    categories = sorted({c for c, _ in counts})
    classes = ("exact", "clarify_ok", "clarify_wrong", "refusal", "flagged", "silent_wrong")
    print("category      " + " ".join(f"{k:>13}" for k in classes))
    for category in categories:
        print(f"{category:13} " + " ".join(f"{counts[(category, k)]:>13}" for k in classes))
    print(f"{'total':13} " + " ".join(f"{sum(v for (_, c), v in counts.items() if c == k):>13}" for k in classes))
    if args.json:
        with open(args.json, "w") as out:
            json.dump({f"{c}/{k}": v for (c, k), v in sorted(counts.items())}, out, indent=1)


if __name__ == "__main__":
    main()
