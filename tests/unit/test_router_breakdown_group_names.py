"""Breakdown phrases in several languages and notations, unrecorded dimensions named, and product-group names
typed with slips, "n" joins, subgroup joins and goods heads (router/breakdown_words.py, router/group_words.py)."""

from __future__ import annotations

import pytest

from router.breakdown_words import read_breakdown_words
from router.entities import Gazetteer, ProductGroup
from router.group_words import read_goods_heads, read_group_typos, read_subgroup_joins
from router.reading import parse_breakdown

#: (grouping word as typed, dimension word as typed, the dimension or grain the reader must read)
_BY_WORDS = ("by", "per", "split by", "broken down by", "group by", "je", "pro", "nach", "aufgeteilt nach",
             "par", "por", "ventilé par")
_DIMENSIONS = (
    ("supplier", "supplier_id"), ("sup", "supplier_id"), ("vendor", "supplier_id"), ("Lieferant", "supplier_id"),
    ("Kreditor", "supplier_id"), ("fournisseur", "supplier_id"),
    ("cat", "product_group_id"), ("Warengruppe", "product_group_id"), ("WG", "product_group_id"),
    ("Hauptwarengruppe", "product_group_id"), ("co", "company_id"), ("entity", "company_id"),
    ("Mandant", "company_id"), ("Währung", "currency"), ("ccy", "currency"), ("Artikel", "product_code"),
)
_GRAINS = (("month", "month"), ("Monat", "month"), ("quarter", "quarter"), ("Quartal", "quarter"))


def _read(question: str):
    return parse_breakdown(read_breakdown_words(question) or question)


@pytest.mark.parametrize("by", _BY_WORDS)
@pytest.mark.parametrize(("word", "dim"), _DIMENSIONS)
def test_every_grouping_word_and_dimension_word_is_read_in_every_position(by: str, word: str, dim: str) -> None:
    phrase = f"{by} {word}"
    for question in (f"Kestrel Q1 2026 spend {phrase}", f"Kestrel spend {phrase} for Q1 2026",
                     f"{phrase}: Kestrel spend Q1 2026"):
        assert dim in _read(question).group_by, question


@pytest.mark.parametrize("by", _BY_WORDS)
@pytest.mark.parametrize(("word", "grain"), _GRAINS)
def test_every_grouping_word_and_grain_word_is_read(by: str, word: str, grain: str) -> None:
    assert _read(f"Xenon spend H2 2025 {by} {word}").grain == grain


@pytest.mark.parametrize("question", ["beta spend by co a in q1", "spend by Co. B q1", "Preis pro Artikel PRD-1"])
def test_a_name_or_a_unit_after_the_grouping_word_is_no_grouping(question: str) -> None:
    assert "company_id" not in _read(question).group_by
    assert "product_code" not in _read(question).group_by


@pytest.mark.parametrize("question", ["alpenland top level cats 2025 breakdown", "ypsi ytd top level cats",
                                      "Kestrel Hauptwarengruppen Q4 2025", "dims: top_group, Kestrel 2025"])
def test_the_top_level_said_as_the_object_is_a_grouping(question: str) -> None:
    text = read_breakdown_words(question) or question
    assert "product_group_id" in parse_breakdown(text).group_by and "top-level" in text


@pytest.mark.parametrize("question", ["both cos split q4 25", "all 3 entities jan-apr breakdown",
                                      "the two companies 2025 split"])
def test_every_company_split_is_a_row_per_company(question: str) -> None:
    assert "company_id" in _read(question).group_by


@pytest.mark.parametrize("joint", [" + ", " and ", " & ", ", ", " - "])
@pytest.mark.parametrize(("noun", "said"), [("po numbers", "po numbers"), ("cost centre", "cost centre"),
                                            ("contract owner view", "contract owner"), ("project", "project"),
                                            ("Kostenstelle", "Kostenstelle")])
def test_an_unrecorded_grouping_beside_a_recorded_one_is_named(joint: str, noun: str, said: str) -> None:
    found = _read(f"ypsilon h2 by sup{joint}{noun}")
    assert "supplier_id" in found.group_by and said.lower() in found.unknown


def test_a_limit_with_its_value_stays_a_limit() -> None:
    assert read_breakdown_words("spend by supplier, po 4500012345") is None


_GAZETTEER = Gazetteer.build([], [], [], [
    ProductGroup("PG-CTRL", "Control Equipment"), ProductGroup("PG-CAB", "Control Cabinets", "PG-CTRL"),
    ProductGroup("PG-ACC", "Cabinet Accessories", "PG-CAB"), ProductGroup("PG-CAL", "Calibration Equipment"),
    ProductGroup("PG-CABL", "Cables and Connectors"), ProductGroup("PG-OFF", "Office"),
    ProductGroup("PG-SENS", "Sensors"), ProductGroup("PG-TEMP", "Temperature Sensors", "PG-SENS")])


def _slips(word: str) -> list[str]:
    """One deletion, one swap of neighbours and one doubled letter inside the word (never its first letter)."""
    mid = len(word) // 2
    return [word[:mid] + word[mid + 1:], word[:mid] + word[mid + 1] + word[mid] + word[mid + 2:],
            word[:mid] + word[mid] + word[mid:]]


@pytest.mark.parametrize(("name", "other"), [("calibration", "eqpt"), ("calibration", "equipment"),
                                             ("temperature", "sensors"), ("connectors", None)])
def test_a_slip_in_a_group_word_is_read_as_the_word(name: str, other: str | None) -> None:
    for slip in _slips(name):
        text = f"{slip} {other} co a h2" if other else f"cables and {slip} co a h2"
        fixed = read_group_typos(text, _GAZETTEER)
        assert fixed is not None and name in fixed[0].lower(), text


@pytest.mark.parametrize("text", ["calibrate the meters in h2", "kestrel spend q1", "contrl spend 2025"])
def test_no_slip_is_guessed_without_the_name_around_it(text: str) -> None:
    assert read_group_typos(text, _GAZETTEER) is None


@pytest.mark.parametrize("join", [" n ", " 'n' ", " n' "])
def test_an_n_join_inside_a_name_is_and(join: str) -> None:
    fixed = read_group_typos(f"cables{join}connectors co a 2025", _GAZETTEER)
    assert fixed is not None and fixed[0] == "cables and connectors co a 2025"


@pytest.mark.parametrize("joint", [" + ", " & ", " and ", " incl. ", " with "])
def test_a_subgroup_joined_to_its_group_is_the_group(joint: str) -> None:
    read = read_subgroup_joins(f"control cabinets{joint}accessories co c apr", _GAZETTEER)
    assert read is not None and read[0] == "control cabinets co c apr"


def test_another_group_joined_is_kept() -> None:
    assert read_subgroup_joins("control cabinets + sensors co c apr", _GAZETTEER) is None


@pytest.mark.parametrize("head", ["supplies", "stuff", "gear", "goods", "materials"])
def test_a_goods_head_after_a_group_name_is_dropped(head: str) -> None:
    read = read_goods_heads(f"share of office {head} in ypsilon h2", _GAZETTEER)
    assert read is not None and read[0] == "share of office in ypsilon h2"


@pytest.mark.parametrize("head", ["products", "items", "articles"])
def test_a_catalogue_head_is_kept(head: str) -> None:
    assert read_goods_heads(f"which office {head} does Iris sell", _GAZETTEER) is None


@pytest.mark.parametrize(("noun", "dim"), [("Status", "invoice_status"), ("ccy", "currency"),
                                           ("Währungs", "currency"), ("Lieferanten", "supplier_id"),
                                           ("cats", "product_group_id"), ("entity", "company_id")])
@pytest.mark.parametrize("word", ["breakdown", "split", "mix"])
def test_the_grouping_noun_before_its_breakdown_word_is_read(noun: str, dim: str, word: str) -> None:
    for question in (f"{noun} {word} of the invoices of Kestrel H2 2025", f"Kestrel H2 2025 {noun} {word} pls"):
        assert dim in _read(question).group_by, question


@pytest.mark.parametrize("codes", ["GBP/CHF/USD", "USD, GBP", "CHF + GBP"])
@pytest.mark.parametrize("total", ["total EUR", "EUR total", "in EUR"])
def test_currency_codes_beside_a_currency_breakdown_say_how_rows_are_shown(codes: str, total: str) -> None:
    read = read_breakdown_words(f"ccy breakdown kestrel H2-2025 ({codes} native, {total})")
    assert read is not None and codes not in read and "EUR total" in read and "by currency" in read


@pytest.mark.parametrize("sign", ["%", "percent", "pct", "per cent"])
@pytest.mark.parametrize("verb", ["was", "were", "went"])
def test_how_much_of_a_whole_in_percent_is_a_share(sign: str, verb: str) -> None:
    from router.analysis import _SHARE

    assert _SHARE.search(f"how much of co a 2025 {verb} control eqpt {sign}")


@pytest.mark.parametrize("label", ["WG", "Wgr.", "Warengruppe", "cat", "Kategorie", "category"])
def test_a_label_before_a_group_name_is_the_product_group(label: str) -> None:
    from router.group_words import read_group_labels

    assert read_group_labels(f"{label} Office, Ypsilon, Q4: total?", _GAZETTEER) == \
        "product group Office, Ypsilon, Q4: total?"


@pytest.mark.parametrize("amount", ["Gesamtbetrag in EUR?", "total?", "montant ?", "importe", "how much", "spend"])
def test_an_amount_of_a_group_listed_from_the_catalogue_is_its_spend(amount: str) -> None:
    from types import SimpleNamespace

    from router.group_spend import spend_asked_of_group

    listed = SimpleNamespace(workflow="catalog_products", requires_clarification=False)
    assert spend_asked_of_group(f"Office Products, Ypsilon, Q4 2025: {amount}", listed, ["Office Products"])
    assert not spend_asked_of_group(f"which products in Office, Q4 2025: {amount}", listed, ["Office"])
