"""Metamorphic questions for the analyst's metrics: ``ask`` on the demo corpus equals the governed metric called
directly with the slot values.

Questions are generated from slot grammars (every supplier of the tenant by name, alias or short name; every
product group, some with a one-edit typo; period phrasings; several phrasings per feature: rankings, shares,
period comparisons, exclusions, status and document-type filters, original currency, average unit price) and asked
through the real ask service as procura_app under RLS. The answer's figures must equal the metric called directly
(``finance.spend_ranking``, ``finance.supplier_share``, ``finance.spend_comparison``, ``finance.company_spend``,
``finance.document_currency_spend``, ``catalog.average_unit_price``) with the values the generator put in, exact
decimal strings. Seeded (derandomized) and bounded (a fixed number of examples per feature).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.entities import Gazetteer, load_gazetteer, short_names
from tests.integration.conftest_ask import AS_OF, SEED_TENANT, World, ctx, world

pytestmark = pytest.mark.integration
__all__ = ["world"]

#: (phrase, start, end, is it a quarter) -- the comparison frames say "quarter" only for quarters.
_PERIODS = [
    ("in Q1 2026", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("last quarter", dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
    ("in the last quarter of 2025", dt.date(2025, 10, 1), dt.date(2026, 1, 1)),
    ("in Q3 2025", dt.date(2025, 7, 1), dt.date(2025, 10, 1)),
    ("in H1 2026", dt.date(2026, 1, 1), dt.date(2026, 7, 1)),
    ("in March 2026", dt.date(2026, 3, 1), dt.date(2026, 4, 1)),
    ("between 2026-02-01 and 2026-03-15", dt.date(2026, 2, 1), dt.date(2026, 3, 15)),
    ("in FY2025", dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
]
_SETTINGS = settings(max_examples=14, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(HealthCheck))
_BASE = {"company_id": "COMP-A", "reporting_currency": "EUR"}


@pytest.fixture
def vocabulary(world: World, app_conn: psycopg.Connection) -> tuple[Gazetteer, list[tuple[str, str]]]:
    """The tenant's gazetteer and (spelling, supplier_id) for every unambiguous supplier spelling."""
    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    found: list[tuple[str, str]] = []
    for alias, ids in gazetteer.supplier_aliases.items():
        if len(ids) == 1:
            found.append((alias, next(iter(ids))))
    for sid, name in gazetteer.supplier_names.items():
        found.append((name, sid))
        found.extend((s, sid) for s in short_names(name) if len(gazetteer.supplier_aliases.get(s, ())) == 1)
    # A spelling that is also a word of a group name ("Sensorik") would be read as the group: keep names only.
    return gazetteer, sorted({(s, sid) for s, sid in found if len(s) >= 4})


def _period(p: tuple[str, dt.date, dt.date]) -> dict[str, str]:
    return {"start_date": p[1].isoformat(), "end_date": p[2].isoformat()}


def _direct(world: World, conn: psycopg.Connection, metric: str, params: dict[str, Any],
            group_by: tuple[str, ...] = ()) -> Any:
    return world.service.env.metric_service.query(conn, ctx(SEED_TENANT), metric, params, group_by=list(group_by),
                                                  route="api")


def _ask(world: World, conn: psycopg.Connection, question: str) -> Any:
    return world.service.ask(conn, ctx(SEED_TENANT), question, as_of=AS_OF, interface="test")


def _metric_call(out: Any) -> tuple[str, dict[str, Any], list[str]]:
    step = next(s for s in out.routing.execution_plan if s.tool == "metrics.query")
    return step.arguments["metric"], step.arguments["parameters"], list(step.arguments["group_by"])


def _typo(word: str, draw: st.DrawFn) -> str:
    """One substituted letter in a word of six letters or more (the fuzzy resolver's domain)."""
    if len(word) < 6:
        return word
    i = draw(st.integers(2, len(word) - 2))
    return word[:i] + ("x" if word[i] != "x" else "y") + word[i + 1:]


def test_rankings_equal_the_ranking_metric(world: World, app_conn: psycopg.Connection) -> None:
    frames = [
        ("Who were Company A's top {n} suppliers {p}?", "supplier_id", "top"),
        ("Company A's {n} biggest suppliers by spend {p}", "supplier_id", "top"),
        ("Top {n} product groups of Company A {p}", "product_group_id", "top"),
        ("Top {n} top-level categories of Company A {p}", "top_product_group_id", "top"),
        ("Top {n} leaf product groups of Company A {p}", "product_group_id", "top"),
        ("What were the {n} largest products Company A bought {p}?", "product_code", "top"),
        ("Bottom {n} vendors of Company A {p}", "supplier_id", "bottom"),
        ("List the {n} smallest suppliers of Company A by spend {p}", "supplier_id", "bottom"),
    ]

    @given(st.sampled_from(frames), st.sampled_from(_PERIODS), st.integers(1, 6), st.sampled_from(["digit", "word"]))
    @_SETTINGS
    def check(frame: tuple[str, str, str], period: tuple[str, dt.date, dt.date], n: int, style: str) -> None:
        words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
        text, dim, direction = frame
        question = text.format(n=n if style == "digit" else words[n], p=period[0])
        out = _ask(world, app_conn, question)
        assert out.answer.status in ("answered", "no_data"), (question, out.answer.text)
        params = {**_BASE, **_period(period), "limit": n, "direction": direction, "order_by": "total_spend"}
        assert _metric_call(out) == ("finance.spend_ranking", params, [dim]), question
        direct = _direct(world, app_conn, "finance.spend_ranking", params, (dim,))
        want = [(r.values[dim], r.values["total_spend"], r.values["rank"]) for r in direct.rows]
        got = [(r[dim], r["total_spend"], r["rank"]) for r in out.answer.result.get("rows", [])]
        assert got == want, (question, got, want)
        # a cut that keeps every ranked entity is stated as "All N" (N <= the cut), never as a top N of more
        top = f"{'Top' if direction == 'top' else 'Bottom'} {n} "
        assert top in out.answer.text or (len(got) <= n and f"All {len(got)} " in out.answer.text), out.answer.text

    check()


def test_shares_equal_the_share_metric(world: World, app_conn: psycopg.Connection,
                                       vocabulary: tuple[Gazetteer, list[tuple[str, str]]]) -> None:
    gazetteer, spellings = vocabulary
    groups = [(g.group_name, g.product_group_id) for g in gazetteer.product_groups]
    frames = [
        ("What share of Company A's spend {p} went to {s}?", False),
        ("What was {s}'s share of Company A's spend {p}?", False),
        ("What percentage of Company A's {g} spend {p} was with {s}?", True),
        ("{s}'s share of Company A's spending on {g} {p}", True),
    ]

    @given(st.sampled_from(frames), st.sampled_from(spellings), st.sampled_from(groups), st.sampled_from(_PERIODS),
           st.data())
    @_SETTINGS
    def check(frame: tuple[str, bool], spelling: tuple[str, str], group: tuple[str, str],
              period: tuple[str, dt.date, dt.date], data: st.DataObject) -> None:
        text, with_group = frame
        name, sid = spelling
        group_name = group[0] if not data.draw(st.booleans()) else " ".join(
            _typo(w, data.draw) for w in group[0].split())
        question = text.format(s=name, g=group_name.lower(), p=period[0])
        out = _ask(world, app_conn, question)
        if out.answer.status == "clarification":
            # A typo that is as close to another name is asked about, naming the span; never guessed.
            assert group_name.lower() != group[0].lower(), (question, out.answer.text)
            assert group_name.lower().split()[0] in (out.answer.clarification_question or "").lower(), question
            return
        params: dict[str, Any] = {**_BASE, **_period(period), "supplier_ids": [sid]}
        if with_group:
            params["product_group_ids"] = list(gazetteer.subgroups(group[1]))
        assert _metric_call(out) == ("finance.supplier_share", params, []), question
        direct = _direct(world, app_conn, "finance.supplier_share", params)
        want = direct.rows[0].values if direct.rows else {}
        result = out.answer.result
        for key in ("share_percent", "part_value", "whole_value"):
            assert result.get(key) == want.get(key), (question, key, result, want)

    check()


def test_comparisons_equal_the_comparison_metric(world: World, app_conn: psycopg.Connection) -> None:
    frames = [
        ("How did Company A's spend {p} compare with the previous period?", "previous_period"),
        ("How did Company A's spend change {p} compared to the same period last year?", "same_period_last_year"),
        ("Company A spend {p} vs the prior period", "previous_period"),
        ("Company A's spend {p}, year over year", "same_period_last_year"),
        ("By how much did Company A's spend {p} increase or decrease against the preceding period?",
         "previous_period"),
    ]

    @given(st.sampled_from(frames), st.sampled_from(_PERIODS))
    @_SETTINGS
    def check(frame: tuple[str, str], period: tuple[str, dt.date, dt.date]) -> None:
        text, rule = frame
        question = text.format(p=period[0])
        out = _ask(world, app_conn, question)
        params = {**_BASE, **_period(period), "compare_to": rule}
        assert _metric_call(out) == ("finance.spend_comparison", params, []), question
        direct = _direct(world, app_conn, "finance.spend_comparison", params)
        want = direct.rows[0].values if direct.rows else {}
        result = out.answer.result
        for key in ("total_spend", "base_value", "change", "change_percent", "comparison"):
            assert result.get(key) == want.get(key), (question, key, result, want)
        assert (result["base_start_date"], result["base_end_date"]) == (direct.parameters["base_start_date"],
                                                                        direct.parameters["base_end_date"])
        if want.get("comparison") == "no_base_data":
            assert "no validated invoice line" in out.answer.text and "%)" not in out.answer.text, out.answer.text

    check()


def test_two_named_periods_compare_the_later_with_the_earlier(world: World, app_conn: psycopg.Connection) -> None:
    out = _ask(world, app_conn, "How did Company A's spend in Q1 2026 compare with Q4 2025?")
    assert _metric_call(out)[1]["compare_to"] == "previous_period", out.answer.text
    out = _ask(world, app_conn, "Company A spend Q1 2026 versus 2025-Q3")
    _, params, _ = _metric_call(out)
    assert (params["compare_to"], params["base_start_date"], params["base_end_date"]) == (
        "custom", "2025-07-01", "2025-10-01"), out.answer.text


def test_exclusions_equal_the_metric_with_not_in(world: World, app_conn: psycopg.Connection,
                                                 vocabulary: tuple[Gazetteer, list[tuple[str, str]]]) -> None:
    gazetteer, spellings = vocabulary
    groups = [(g.group_name, g.product_group_id) for g in gazetteer.product_groups]
    frames = [
        "How much did Company A spend {p} excluding {x}?",
        "Company A's spend {p} except {x}",
        "What did Company A spend {p}, other than with {x}?",
        "Company A spend {p} apart from {x}",
        "Total spend of Company A {p} without {x}",
        "How much did Company A spend {p}, not counting {x}?",
    ]

    @given(st.sampled_from(frames), st.sampled_from(_PERIODS), st.booleans(), st.sampled_from(spellings),
           st.sampled_from(spellings), st.sampled_from(groups), st.booleans())
    @_SETTINGS
    def check(frame: str, period: tuple[str, dt.date, dt.date], supplier: bool, s1: tuple[str, str],
              s2: tuple[str, str], group: tuple[str, str], two: bool) -> None:
        params: dict[str, Any] = {**_BASE, **_period(period)}
        if supplier:
            names = [s1] if not two or s1[1] == s2[1] else [s1, s2]
            excluded = " and ".join(n for n, _ in names)
            params["exclude_supplier_ids"] = list(dict.fromkeys(sid for _, sid in names))
        else:
            excluded = group[0].lower()
            params["exclude_product_group_ids"] = list(gazetteer.subgroups(group[1]))
        question = frame.format(p=period[0], x=excluded)
        out = _ask(world, app_conn, question)
        assert _metric_call(out) == ("finance.company_spend", params, []), (question, out.answer.text)
        direct = _direct(world, app_conn, "finance.company_spend", params)
        want = direct.rows[0].values["total_spend"] if direct.rows else None
        assert out.answer.result.get("total_spend") == want, (question, out.answer.result, want)
        assert "excluding" in out.answer.text, out.answer.text

    check()


def test_status_and_document_type_filters(world: World, app_conn: psycopg.Connection) -> None:
    frames = [
        ("How much did Company A spend {p} on unpaid invoices?", ["posted"], None),
        ("What did Company A spend {p} on outstanding invoices?", ["posted"], None),
        ("How much did Company A spend {p} on invoices not yet paid?", ["posted"], None),
        ("Company A spend {p}, paid invoices only", ["paid"], None),
        ("What was Company A's total of credit notes {p}?", None, ["credit_note"]),
        ("How much did Company A spend {p} excluding credit notes?", None, ["invoice"]),
        ("How much did Company A spend {p} on unpaid invoices, credit notes only?", ["posted"], ["credit_note"]),
    ]

    @given(st.sampled_from(frames), st.sampled_from(_PERIODS))
    @_SETTINGS
    def check(frame: tuple[str, list[str] | None, list[str] | None], period: tuple[str, dt.date, dt.date]) -> None:
        text, statuses, types = frame
        question = text.format(p=period[0])
        out = _ask(world, app_conn, question)
        params: dict[str, Any] = {**_BASE, **_period(period)}
        if statuses:
            params["invoice_statuses"] = statuses
        if types:
            params["document_types"] = types
        direct = _direct(world, app_conn, "finance.company_spend", params)
        want = direct.rows[0].values["total_spend"] if direct.rows else None
        assert out.answer.status in ("answered", "no_data"), (question, out.answer.text)
        assert out.answer.result.get("total_spend") == want, (question, out.answer.result, want)
        if types:
            assert _metric_call(out) == ("finance.company_spend", params, []), question
        else:
            assert out.answer.inputs.get("invoice_statuses") == statuses, (question, out.answer.inputs)

    check()


def test_one_suppliers_total_under_filters(world: World, app_conn: psycopg.Connection,
                                           vocabulary: tuple[Gazetteer, list[tuple[str, str]]]) -> None:
    _, spellings = vocabulary
    frames = [("How much did Company A spend with {s} {p} excluding credit notes?", {"document_types": ["invoice"]}),
              ("What was the total of Company A's credit notes from {s} {p}?",
               {"document_types": ["credit_note"]})]

    @given(st.sampled_from(frames), st.sampled_from(spellings), st.sampled_from(_PERIODS))
    @settings(max_examples=8, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def check(frame: tuple[str, dict[str, Any]], spelling: tuple[str, str],
              period: tuple[str, dt.date, dt.date]) -> None:
        text, extra = frame
        question = text.format(s=spelling[0], p=period[0])
        out = _ask(world, app_conn, question)
        params = {**_BASE, **_period(period), "supplier_ids": [spelling[1]], **extra, "limit": 1,
                  "direction": "top", "order_by": "total_spend"}
        assert _metric_call(out) == ("finance.spend_ranking", params, ["supplier_id"]), (question, out.answer.text)
        direct = _direct(world, app_conn, "finance.spend_ranking", params, ("supplier_id",))
        want = direct.rows[0].values["total_spend"] if direct.rows else None
        assert out.answer.result.get("total_spend") == want, (question, out.answer.result, want)

    check()


def test_original_currency_requests(world: World, app_conn: psycopg.Connection) -> None:
    frames = [
        ("What did Company A spend {p} in the invoice currency?", None),
        ("Company A spend {p} in original currency", None),
        ("Show Company A's spend {p} in the currency it was invoiced in", None),
        ("Company A's spend {p} in USD as invoiced", "USD"),
        ("How much did Company A spend {p} on invoices in USD?", "USD"),
        ("Company A spend {p} on USD invoices, unconverted", "USD"),
    ]

    @given(st.sampled_from(frames), st.sampled_from(_PERIODS))
    @_SETTINGS
    def check(frame: tuple[str, str | None], period: tuple[str, dt.date, dt.date]) -> None:
        text, code = frame
        question = text.format(p=period[0])
        out = _ask(world, app_conn, question)
        params: dict[str, Any] = {**_BASE, **_period(period), **({"document_currency": code} if code else {})}
        group_by = () if code else ("currency",)
        assert _metric_call(out) == ("finance.document_currency_spend", params, list(group_by)), question
        assert out.answer.status in ("answered", "no_data"), (question, out.answer.text)
        direct = _direct(world, app_conn, "finance.document_currency_spend", params, group_by)
        if code:
            want = direct.rows[0].values if direct.rows else {}
            assert out.answer.result.get("document_spend") == want.get("document_spend"), question
            assert out.answer.result.get("total_spend") == want.get("total_spend"), question
        else:
            got = [(r["currency"], r["document_spend"], r["total_spend"]) for r in out.answer.result.get("rows", [])]
            assert got == [(r.values["currency"], r.values["document_spend"], r.values["total_spend"])
                           for r in direct.rows], question
            # Beside the rows: the same lines' exact total in the reporting currency, from the company metric.
            whole = _direct(world, app_conn, "finance.company_spend", {**_BASE, **_period(period)}, ())
            want_total = whole.rows[0].values["total_spend"] if whole.rows and whole.status != "no_data" else None
            assert out.answer.result.get("total_spend") == want_total, (question, out.answer.result)
            if want_total is not None:
                assert f"{want_total} EUR" in out.answer.text, question

    check()


def test_average_unit_price_over_a_period(world: World, app_conn: psycopg.Connection,
                                          vocabulary: tuple[Gazetteer, list[tuple[str, str]]]) -> None:
    _, spellings = vocabulary
    codes = ["PRD-482", "PRD-483", "PRD-491", "PRD-510", "PRD-530", "PRD-611"]
    periods = [p for p in _PERIODS if (p[2] - p[1]).days > 31]
    frames = [
        ("What was the average unit price of {c} {p}?", False),
        ("Average price per unit for {c} {p}", False),
        ("What was the weighted average price of {c} {p} from {s}?", True),
        ("What did we pay per unit for {c} from {s} {p}?", True),
    ]

    @given(st.sampled_from(frames), st.sampled_from(codes), st.sampled_from(periods), st.sampled_from(spellings))
    @_SETTINGS
    def check(frame: tuple[str, bool], code: str, period: tuple[str, dt.date, dt.date],
              spelling: tuple[str, str]) -> None:
        text, supplier = frame
        question = text.format(c=code, p=period[0], s=spelling[0])
        out = _ask(world, app_conn, question)
        params: dict[str, Any] = {**_period(period), "product_code": code,
                                  **({"supplier_ids": [spelling[1]]} if supplier else {})}
        assert _metric_call(out) == ("catalog.average_unit_price", params, []), (question, out.answer.text)
        direct = _direct(world, app_conn, "catalog.average_unit_price", params)
        want = direct.rows[0].values if direct.rows else {}
        for key in ("unit_price", "quantity", "net_amount"):
            assert out.answer.result.get(key) == want.get(key), (question, key, out.answer.result, want)

    check()


@pytest.mark.parametrize("question", [
    "How much did Company A spend in Q1 2026 excluding Omega Tech?",
    "What share of Company A's spend in Q1 2026 went to Northwind?",
    "Who were Company A's top 5 suppliers in Q1 2026 apart from Acme Corp?",
])
def test_an_unknown_slot_is_a_clarification_naming_it(world: World, app_conn: psycopg.Connection,
                                                      question: str) -> None:
    out = _ask(world, app_conn, question)
    assert out.answer.status == "clarification", out.answer.text
    unknown = next(w for w in ("Omega", "Northwind", "Acme") if w in question)
    assert unknown in (out.answer.clarification_question or ""), out.answer.text
    assert not out.steps


def test_edge_cases(world: World, app_conn: psycopg.Connection) -> None:
    """Empty base period, a supplier excluded that has no lines, credit notes only (a negative total), and
    statuses that never count asked for."""
    out = _ask(world, app_conn, "How did Company A's spend in Q3 2025 compare with the previous quarter?")
    assert out.answer.result["comparison"] == "no_base_data", out.answer.text
    assert out.answer.result["change_percent"] is None and "0 %" not in out.answer.text.replace("not 0 %", "")
    assert "no validated invoice line" in out.answer.text

    gazetteer = load_gazetteer(app_conn, ctx(SEED_TENANT))
    lines = _direct(world, app_conn, "finance.spend_ranking", {**_BASE, "start_date": "2026-01-01",
                                                               "end_date": "2026-04-01", "limit": 100},
                    ("supplier_id",))
    with_lines = {r.values["supplier_id"] for r in lines.rows}
    idle = sorted(set(gazetteer.supplier_names) - with_lines)
    if idle:
        name = gazetteer.supplier_names[idle[0]]
        out = _ask(world, app_conn, f"How much did Company A spend in Q1 2026 excluding {name}?")
        total = _direct(world, app_conn, "finance.company_spend", {**_BASE, "start_date": "2026-01-01",
                                                                   "end_date": "2026-04-01"})
        assert out.answer.result["total_spend"] == total.rows[0].values["total_spend"], out.answer.text

    out = _ask(world, app_conn, "What was Company A's total of credit notes in H1 2026?")
    total = out.answer.result.get("total_spend")
    assert total is None or total.startswith("-"), out.answer.text

    # cancelled invoices are never spend: asked for by name, they are valued by their own governed metric, and the
    # answer says they are not recognized spend
    out = _ask(world, app_conn, "How much did Company A spend on cancelled invoices in Q1 2026?")
    assert out.answer.status in ("answered", "no_data"), out.answer.text
    assert _metric_call(out)[0] == "finance.cancelled_draft_invoices", out.answer.text
    assert _metric_call(out)[1]["invoice_statuses"] == ["cancelled"], out.answer.text
    assert "not recognized spend" in out.answer.text or out.answer.status == "no_data", out.answer.text


def test_group_spend_is_complete_when_a_catalogue_supplier_bought_nothing(
    world: World, app_conn: psycopg.Connection, vocabulary: tuple[Gazetteer, list[tuple[str, str]]]
) -> None:
    """Spend on a category counts whoever supplied it: no supplier coverage is asked (the plan is the company's
    spend over the group and its subgroups), so a catalogue supplier without lines is never a gap.

    Every group and three periods are asked; the answer is never labelled partial and equals
    ``finance.company_spend`` over the group and its subgroups (no data where that metric has none).
    """
    gazetteer, _ = vocabulary
    checked = 0
    for group in gazetteer.product_groups:
        for phrase, start, end in (_PERIODS[0], _PERIODS[3], _PERIODS[7]):
            out = _ask(world, app_conn, f"Company A's spend on {group.group_name} {phrase}")
            if out.routing.entities.product_group_id != group.product_group_id:
                continue
            params = {**_BASE, "start_date": start.isoformat(), "end_date": end.isoformat(),
                      "product_group_ids": list(gazetteer.subgroups(group.product_group_id))}
            direct = _direct(world, app_conn, "finance.company_spend", params)
            assert "PARTIAL" not in out.answer.text and not out.answer.result.get("missing_suppliers")
            if direct.status == "no_data":
                assert out.answer.status == "no_data", out.answer.text
            else:
                assert out.answer.status == "answered", out.answer.text
                assert out.answer.result["total_spend"] == str(direct.rows[0].values["total_spend"])
            checked += 1
    assert checked > 0
