"""Structured asks (router/structured_asks.py): one grammar for every notation, every key read or named."""

from __future__ import annotations

import re

import pytest

from router.contract import clean_question
from router.structured_asks import company_value, parse, period_value, slot_of, structured_ask
from router.structured_notation import field_of, measure_words

COMPANIES = ("Harbor Foods", "comp_q", "Nordlicht Chemie AG")
PERIODS = ("2024-Q2", "may-2024", "h2-2024")


def _notations(company: str, period: str, extra: dict[str, str]) -> list[str]:
    """The same ask in each notation family (the slots' order varied too)."""
    pairs = {"company": company, "period": period, **extra}
    json_text = "{" + ",".join(f'"{k}":"{v}"' for k, v in pairs.items()) + "}"
    yaml_text = "{" + ", ".join(f"{k}: {v}" for k, v in reversed(pairs.items())) + "}"
    pipes = " | ".join(f"{k}={v}" for k, v in pairs.items())
    inline = " ".join(f'{k}="{v}"' for k, v in pairs.items())
    call = "figure(" + ", ".join(f"{k}={v}" for k, v in pairs.items()) + ")"
    labels = "; ".join(f"{k}: {v}" for k, v in pairs.items())
    return [json_text, yaml_text, pipes, inline, call, labels]


@pytest.mark.parametrize("company", COMPANIES)
@pytest.mark.parametrize("period", PERIODS)
def test_every_notation_reads_its_keys(company: str, period: str) -> None:
    for text in _notations(company, period, {"supplier": "Orchard Parts"}):
        said = structured_ask(text)
        assert company_value(company) in said, text
        assert period in said, text
        assert "supplier Orchard Parts" in said, text
        # the keys are notation: consumed, never left for the reader to ask about
        assert not re.search(r"\bcompany\b|\bperiod\b|=|\{|\"", said), (text, said)


@pytest.mark.parametrize("company", COMPANIES)
def test_an_ask_with_no_measure_is_the_spend(company: str) -> None:
    said = structured_ask(f'{{"company":"{company}","product_group":"valves","period":"2024-Q3"}}')
    assert said.startswith("spend")
    assert "on valves" in said


@pytest.mark.parametrize(("key", "value", "words"), [
    ("measure", "spend_excl_vat", "net spend"),
    ("metric", "VAT", "tax amount"),
    ("kpi", "avg price/unit", "average unit price"),
    ("measure", "n_invoices", "number of invoices"),
    ("measure", "net (w/o VAT)", "net spend"),
])
def test_a_measure_value_is_read(key: str, value: str, words: str) -> None:
    said = structured_ask(f'{{"{key}":"{value}","company":"Harbor Foods","period":"2024-Q1"}}')
    assert said.startswith(words)
    assert not said.startswith("spend,")


@pytest.mark.parametrize("n", ("2", "5"))
@pytest.mark.parametrize("dim", (("supplier", "suppliers"), ("product", "products"), ("vendor", "suppliers")))
def test_a_ranking_key(n: str, dim: tuple[str, str]) -> None:
    said = structured_ask(f'{{"rank":"{dim[0]}","n":{n},"company":"Harbor Foods","period":"202406"}}')
    assert said.startswith(f"top {n} {dim[1]} by spend")
    assert "2024-06" in said


@pytest.mark.parametrize("text", [
    '{"invoice":"INV-2024-0042","field":"net_eur"}',
    "GET /invoices/INV-2024-0042 -> net_amount",
    "invoice=INV-2024-0042 -> net",
])
def test_a_document_field_is_a_lookup(text: str) -> None:
    assert structured_ask(text) == "net amount of invoice INV-2024-0042"


@pytest.mark.parametrize("text", [
    "credit_note=CN-2024-0107 -> original_invoice_number",
    "CN-2024-0107 -> original_invoice_number",
])
def test_a_credit_notes_origin(text: str) -> None:
    assert structured_ask(text) == "original invoice of credit note CN-2024-0107"


@pytest.mark.parametrize("head", ("list invoice_numbers", "SELECT invoice_number WHERE", "inv nos"))
def test_invoice_numbers_are_the_listing(head: str) -> None:
    said = structured_ask(f"{head} supplier=Orchard Parts and comp=comp_q and period=202404")
    assert said.startswith("list the invoices")
    assert "COMP-Q" in said and "supplier Orchard Parts" in said and "2024-04" in said


def test_an_unknown_key_is_kept_to_be_named() -> None:
    said = structured_ask("spend | comp=Harbor Foods | cost_center=4711 | 2024-Q2")
    assert "cost_center=4711" in said
    assert slot_of("cost_center") is None


def test_period_bounds_are_left_as_typed() -> None:
    said = structured_ask("spend | comp=Harbor Foods | from=2024-01-01 to=2024-02-29")
    assert "from=2024-01-01 to=2024-02-29" in said


@pytest.mark.parametrize("text", [
    "what did Harbor Foods spend in May 2024?",
    "Jan->Apr spend Harbor Foods",
    "top 3 suppliers by spend, Harbor Foods, 2024",
])
def test_prose_is_left_alone(text: str) -> None:
    assert structured_ask(text) == text
    assert parse(text) is None


def test_a_compare_key_is_the_base_period() -> None:
    said = structured_ask('{"company":"Harbor Foods","period":"2024-06","vs":"2024-05"}')
    assert said == "spend, for Harbor Foods, 2024-06, compared with 2024-05"


def test_a_measure_delta_in_the_head_is_its_change() -> None:
    assert structured_ask("spend delta | comp=comp_q | 2024-Q2 vs 2024-Q1").startswith("change in spend")


@pytest.mark.parametrize(("value", "said"), [("comp_q", "COMP-Q"), ("CompQ", "COMP-Q"), ("company-q", "COMP-Q"),
                                             ("harbor_foods", "harbor foods"), ("Co Q", "COMP-Q")])
def test_company_id_shapes(value: str, said: str) -> None:
    assert company_value(value) == said


@pytest.mark.parametrize(("value", "said"), [("202404", "2024-04"), ("201912", "2019-12"), ("202413", "202413"),
                                             ("year_to_date", "year to date")])
def test_period_values(value: str, said: str) -> None:
    assert period_value(value) == said


@pytest.mark.parametrize(("name", "words"), [
    ("total_spend", "total spend"), ("n_invoices", "number of invoices"), ("count(CNs)", "number of credit notes"),
    ("amount_net", "net spend"), ("share_of_spend", "share of spend"), ("sum(quantity)", "units"),
    ("avg_unit_price", "average unit price"), ("category_spend", "spend"), ("buyer_name", None),
])
def test_compact_measure_names(name: str, words: str | None) -> None:
    assert measure_words(name) == words


def test_two_word_columns_read_either_way() -> None:
    assert field_of("total_gross") == field_of("gross_total")
    assert field_of("amount_net") == field_of("net_amount")


@pytest.mark.parametrize("key", ("list", "show"))
def test_an_action_key_carries_the_ask(key: str) -> None:
    said = structured_ask(f'{{"{key}":"approved_vendors","company":"comp_q","period":"2024-Q2"}}')
    assert said.startswith(f"{key} approved vendors")
    assert not said.startswith("spend")


def test_an_unknown_object_key_stops_the_default_spend() -> None:
    said = structured_ask('{"doc":"agreement-2024-07","field":"payment_terms"}')
    assert said == "doc: agreement-2024-07, field: payment_terms"


@pytest.mark.parametrize("company", COMPANIES)
def test_a_yaml_block_joined_on_one_line(company: str) -> None:
    said = structured_ask(f"measure: net company: {company} period: date_from: 2024-01-01, date_to: 2024-03-31")
    assert said.startswith("net spend")
    assert f"for {company_value(company)}" in said
    assert "date_from: 2024-01-01, date_to: 2024-03-31" in said


@pytest.mark.parametrize("text", ["Subject: Q1 close company: Harbor Foods", "Re: spend Harbor Foods Q1",
                                  "company: Harbor Foods"])
def test_prose_with_a_colon_is_no_block(text: str) -> None:
    assert structured_ask(text) == text


@pytest.mark.parametrize("prep", ("in", "for", "on"))
def test_a_typed_preposition_is_the_slots_own(prep: str) -> None:
    said = structured_ask(f"spend {prep} product_group='valves' 2024-H2")
    assert f"{prep} valves" in said and "on on" not in said and "for on" not in said


@pytest.mark.parametrize("text", [
    'category_spend(company=Harbor Foods, group="catering", period=2024-Q2)',
    '{"company":"Harbor Foods","product_group":"catering","period":"2024-Q2"}',
    "spend | comp=Harbor Foods | pg=catering | 2024-Q2",
])
def test_a_group_follows_the_measure_it_narrows(text: str) -> None:
    assert structured_ask(text).startswith("spend on catering, for Harbor Foods")


# -- review findings (f1): nothing of a structured ask is dropped, no key read as its opposite --------------------
def _params(text: str) -> dict:
    from tests.unit.test_router_invoice_facts import _routed

    routed = _routed(text)
    steps = [s.arguments for s in routed.execution_plan]
    found: dict = {}
    for args in steps:
        found |= args.get("parameters", args)
    return found


@pytest.mark.parametrize(("part", "said"), [
    ("excluding Supplier Beta", "excluding Supplier Beta"),
    ("excl. SUP-18", "excl. SUP-18"),
    ("paid only", "paid only"),
])
def test_a_rest_query_part_without_a_key_is_kept(part: str, said: str) -> None:
    # a query part with no "=" was thrown away: the company's whole spend, no note (a silent wrong)
    out = structured_ask(f"GET /spend?company=COMP-A&period=2026-Q1&{part}")
    assert said in out, out
    assert "for COMP-A" in out and "2026-Q1" in out


def test_a_rest_query_exclusion_and_status_reach_the_plan() -> None:
    assert _params("GET /spend?company=COMP-A&period=2026-Q1&excluding Supplier Beta").get(
        "exclude_supplier_ids") == ["SUP-18"]
    assert _params("GET /spend?company=COMP-A&period=2026-Q1&paid only").get("invoice_statuses") == ["paid"]


def test_a_rest_query_range_read_as_words_is_kept() -> None:
    # period_bounds rewrites "from=..&to=.." to words (no "="): the period was lost
    out = clean_question("GET /spend?company=COMP-A&from=2026-01-01&to=2026-01-31")
    assert "from 2026-01-01 through 2026-01-31" in out, out


def test_a_word_the_parse_loses_leaves_the_text_as_typed() -> None:
    # the coverage check: every word of the input in a pair, the template, the arrow or the head
    from router.structured_asks import Ask, Pair, _covers

    ask = Ask((Pair("company", "COMP-A", "company=COMP-A"),), "\x000\x00", "", "spend")
    assert _covers("GET /spend?company=COMP-A", ask)
    assert not _covers("GET /spend?company=COMP-A&paid only", ask)


@pytest.mark.parametrize("key", ["direction", "order", "sort"])
@pytest.mark.parametrize("value", ["bottom", "asc", "lowest"])
def test_a_rank_direction_key_is_read(key: str, value: str) -> None:
    out = structured_ask(f'{{"rank":"supplier","n":2,"company":"COMP-A","period":"2025","{key}":"{value}"}}')
    assert out.startswith("bottom 2 suppliers"), out


def test_a_rank_direction_reaches_the_plan() -> None:
    params = _params('{"rank":"supplier","n":2,"company":"COMP-A","period":"2025","direction":"bottom"}')
    assert params.get("direction") == "bottom" and params.get("limit") == 2
    assert structured_ask('{"rank":"supplier","bottom":3,"period":"2025"}').startswith("bottom 3 suppliers")
    assert structured_ask('{"rank":"supplier","n":3,"order":"desc"}').startswith("top 3 suppliers")


def test_an_unread_rank_direction_is_named_never_top() -> None:
    out = structured_ask('{"rank":"supplier","n":2,"company":"COMP-A","period":"2025","sort":"weird"}')
    assert "weird" in out and "sort_order" in out, out
    routed = __import__("tests.unit.test_router_invoice_facts", fromlist=["_routed"])._routed(
        '{"rank":"supplier","n":2,"company":"COMP-A","period":"2025","sort":"sideways"}')
    assert routed.workflow == "clarification" or "sort_order" in str(routed), routed


@pytest.mark.parametrize("key", ["supplier_excl", "exclude_supplier", "not_supplier", "ex_supplier",
                                 "supplier_except", "without_supplier"])
def test_an_exclusion_key_is_the_slots_exclusion(key: str) -> None:
    # "supplier_excl": "SUP-18" was read as the supplier itself: spend from SUP-18 only
    out = structured_ask(f'{{"company":"COMP-A","period":"2026-Q1","{key}":"SUP-18"}}')
    assert "excluding supplier SUP-18" in out, out
    assert not re.search(r"(?<!excluding )supplier SUP-18", out), out


def test_an_exclusion_key_reaches_the_plan() -> None:
    params = _params('{"company":"COMP-A","period":"2026-Q1","supplier_excl":"SUP-18"}')
    assert params.get("exclude_supplier_ids") == ["SUP-18"] and not params.get("supplier_ids")
    params = _params("GET /spend?company=COMP-A&period=2026-Q1&exclude_supplier=SUP-18")
    assert params.get("exclude_supplier_ids") == ["SUP-18"] and not params.get("supplier_ids")


def test_an_exclusion_word_on_an_unknown_key_is_no_slot() -> None:
    from router.structured_asks import excluded_slot

    assert excluded_slot("excl_foo") is None and slot_of("excl_foo") is None
    assert slot_of("supplier_excl") == "exclude"


def test_the_bound_keys_have_one_owner() -> None:
    # the from/to keys are router/period_bounds.py's table (no second list here)
    from router.structured_asks import NOTATION_KEYS

    assert not {"from", "to", "date_from", "date_to", "start", "end"} & set(NOTATION_KEYS)
    assert slot_of("from") == slot_of("date_to") == slot_of("period_start") == "bound"
    assert slot_of("posting_date_from") != "bound" and slot_of("due_date_to") != "bound"


@pytest.mark.parametrize(("text", "named"), [
    ('{"rank":"supplier","n":2,"company":"COMP-A","period":"2025","foo":"bar"}', "foo_field"),
    ('{"company":"COMP-A","period":"2026-Q1","basis":"weird thing"}', "basis_field"),
    ("GET /spend?company=COMP-A&period=2026-Q1&foo=bar", "foo_field"),
])
def test_a_one_word_unknown_key_is_named_not_dropped(text: str, named: str) -> None:
    # "foo: bar" was kept as typed but the reader names only a column's shape: the word was dropped silently
    from tests.unit.test_router_invoice_facts import _routed

    assert named in structured_ask(text)
    routed = _routed(text)
    assert routed.workflow == "clarification" or named in str(routed), routed


@pytest.mark.parametrize("key", ["range", "timeframe", "window"])
def test_a_period_span_key_is_the_period_not_an_unknown_field(key: str) -> None:
    # "spend?comp=CompA&range=mtd": the span key's value is the period (never named as a field it is not)
    said = structured_ask(f"spend?comp=CompA&{key}=mtd")
    assert "mtd" in said and "_field" not in said, said
    assert slot_of(key) == "period"
