"""Span accounting both ways: request framing is never a name, a real qualifier is never dropped.

(a) The framing around a ticket-style ask (queue tags, ticket tokens, forwarding markers, request nouns, vocatives,
closings and delivery sentences with no full stop before them) is set aside by its shape (router/envelope.py).
(b) A reference code of another system, a delivery place or a field the data does not carry is named as not
applied (router/silent_checks.py, router/ap_fields.py); "share" as the verb of a request is no share figure
(router/analysis.py). (A distributive "X wise" no reader took: tests/unit/test_router_unread_words.py.)
"""

from __future__ import annotations

import itertools

import pytest

from router.analysis import parse_share
from router.ap_fields import split_fields
from router.envelope import read_envelope
from router.silent_checks import unrecorded_qualifiers

NAMES = frozenset({"nordlicht", "gamma", "beta"})
ASK = "Company B spend with Beta in Q3 2025"

LEADS = ["[FIN-OPS]", "[REQ778812]", "FW:", "Fwd: RE:", "TR:", "AW: WG:", "INC7781234:", "Ticket #88123 -",
         "Case 44521 -", "Query -", "Anfrage:", "PFA request:", "Team,", "Sir/Madam,", "Hello sir/madam,",
         "Namaste all,", "Kumusta team,", "Bom dia equipe,", "Dzień dobry,"]
TRAILERS = [" Kindly do the needful.", " Regards.", " Thanks in advance", " Pls revert at the earliest.",
            " Same may be shared by EOD.", " Kindly send by COB.", ", month end closing.", ". Pls treat as urgent.",
            " Salamat po.", " Dhanyavaad.", " Urgent pls, quarter end closing."]


@pytest.mark.parametrize(("lead", "trailer"), list(itertools.product(LEADS[::2], TRAILERS[::2]))
                         + list(itertools.product(LEADS[1::2], TRAILERS[1::2])))
def test_framing_around_the_ask_is_set_aside(lead: str, trailer: str) -> None:
    envelope = read_envelope(f"{lead} {ASK}{trailer}", NAMES)
    assert envelope.text.rstrip(".") == ASK
    assert envelope.aside


@pytest.mark.parametrize("lead", LEADS)
def test_a_lead_alone_is_set_aside(lead: str) -> None:
    assert read_envelope(f"{lead} {ASK}", NAMES).text == ASK


@pytest.mark.parametrize("message", [
    "[Company B] spend with Beta in Q3 2025",  # a tag naming the tenant's company is a constraint
    "[Q3 2025] Company B spend with Beta",  # a period in a tag
    "[INV-2026-0999] status and amount?",  # the product's own document
    "PRD-00123 - units bought by Company B in 2025",
    "Procurement, Company B spend with Beta in Q3 2025",  # a desk may be the subject
])
def test_a_lead_with_a_constraint_is_kept(message: str) -> None:
    assert read_envelope(message, NAMES).text == message


@pytest.mark.parametrize("message", [
    "invoices of Company B flagged Urgent",  # what is asked about
    "Company B spend with Beta in Q3 2025 Best Foods",  # a capitalised name after the ask: never a signature
    "Company B spend with Nordlicht Thanks Co",
])
def test_an_unpunctuated_capitalised_word_opens_a_closing_only_of_envelope_words(message: str) -> None:
    assert read_envelope(message, NAMES).text == message


def test_re_after_a_greeting_is_regarding() -> None:
    envelope = read_envelope("Hi team, re: ticket 48213 - Company B spend in Q1 2026", NAMES)
    assert not any(a.startswith("forwarding marker") for a in envelope.aside)


@pytest.mark.parametrize(("text", "named"), [
    ("Company B spend with Beta in Q1 2026 for project no. PRJ-2291?", "project no. PRJ-2291"),
    ("Company B spend with Beta in Q1 2026 for WBS/4471", "WBS/4471"),
    ("Company B spend on docket CASE-2026-7", "docket CASE-2026-7"),
    ("avg price of gauges shipped to hall 7 (Company B, Q1 2026)", "shipped to hall 7"),
    ("units of PRD-482 installed at building C in 2025", "installed at building C"),
    ("Company B spend 2025, warehouse 3 only", "warehouse 3"),
])
def test_a_qualifier_no_reader_took_is_named(text: str, named: str) -> None:
    assert named in unrecorded_qualifiers(text, [])


@pytest.mark.parametrize("text", ["Company B spend Q1-2026", "spend FY-2025 Company B", "status of INV-2026-0999",
                                  "units of PRD-482 in 2025", "Company B spend H2-25 in EUR"])
def test_periods_and_own_ids_are_no_foreign_reference(text: str) -> None:
    assert unrecorded_qualifiers(text, []) == ()


def test_a_consumed_code_is_not_named() -> None:
    text = "avg price of VG-1 gauges in Q1 2026"
    assert unrecorded_qualifiers(text, [(13, 17)]) == ()


@pytest.mark.parametrize(("text", "label"), [
    ("how many PRD-482 did Company B buy in 2025 incl. serial numbers", "serial number"),
    ("units of PRD-482 Company B 2025 with their batch numbers", "serial number"),
    ("Company B laptops 2025 and the asset tags", "asset tag"),
])
def test_a_field_the_lines_do_not_carry_is_named(text: str, label: str) -> None:
    split = split_fields(text)
    assert split is not None and split.fields[0].label == label


@pytest.mark.parametrize("text", ["Request you to share total VAT of Company B", "pls share the spend of Company B",
                                  "Can you share total spend", "kindly share invoice count"])
def test_share_as_a_request_verb_is_no_share(text: str) -> None:
    assert parse_share(text) == (False, ())


@pytest.mark.parametrize("text", ["Beta's share of Company B spend", "pls share of Beta in Company B spend",
                                  "what share did Beta have", "share Beta Company B 2025"])
def test_share_as_a_noun_is_a_share(text: str) -> None:
    assert parse_share(text)[0]


@pytest.mark.parametrize("lead", ["Procura team,", "Procura,", "Dear Procura team,"])
def test_the_products_own_name_is_the_addressee(lead: str) -> None:
    assert read_envelope(f"{lead} {ASK}", NAMES).text == ASK


@pytest.mark.parametrize("word", ["Aggregate", "Consolidated", "Cumulative", "Aggregated"])
def test_a_total_adjective_is_no_name_candidate(word: str) -> None:
    from router.reader import _vocabulary

    assert _vocabulary(word)


@pytest.mark.parametrize("text", ["invoices booked against vendor Nordlicht in Q1", "costs posted against PO 4711",
                                  "spend charged against the contract in 2025"])
def test_against_a_booking_target_is_no_comparison(text: str) -> None:
    from router.analysis import compare_words

    assert compare_words(text) == ()


@pytest.mark.parametrize("text", ["Company B spend Q1 2026 against Q4 2025", "spend against last year"])
def test_against_a_period_compares(text: str) -> None:
    from router.analysis import compare_words

    assert compare_words(text)


@pytest.mark.parametrize("marker", ["vendor", "supplier"])
def test_a_name_after_its_kind_marker_is_no_gloss(marker: str) -> None:
    from router.name_slots import slotless

    text = f"invoices of {marker} Zorbix Tools (Company B), Q3 2025"
    start = text.index("Zorbix")
    end = start + len("Zorbix Tools")
    read = [(text.index("Company B"), text.index("Company B") + 9), (len(text) - 7, len(text))]
    assert slotless(text, start, end, "Zorbix Tools", read, [], []) is None


@pytest.mark.parametrize("text", ["avg monthly spend Company B over Q4-25 = total/3?", "spend per-2 weeks Company B"])
def test_lower_case_prose_is_no_reference_code(text: str) -> None:
    assert unrecorded_qualifiers(text, []) == ()


# --- review f1: a tag or a lead code that may be the constraint stays in the question ------------------------------
@pytest.mark.parametrize("message", [
    "[posted only] total spend of Company A in Q1 2026",  # the probe: a status in brackets
    "[Top 5] suppliers of Company A in Q1 2026 by spend",  # a ranking
    "[paid invoices] count of Company A invoices in Q1 2026",  # a status and a document word
    "[excl. credit notes] total spend of Company A in Q1 2026",  # an exclusion
    "[Top5] total spend of Company A in Q1 2026",  # one token, but a ranking word
])
def test_a_tag_holding_a_reader_word_is_kept(message: str) -> None:
    envelope = read_envelope(message, NAMES)
    assert (envelope.text, envelope.aside) == (message, ())


@pytest.mark.parametrize(("message", "tag"), [
    ("[AP-GBS] total spend of Company A in Q1 2026", "[AP-GBS]"),
    ("[SR524805] total spend of Company A in Q1 2026", "[SR524805]"),
    ("[AP queue] total spend of Company A in Q1 2026", "[AP queue]"),
])
def test_a_queue_label_tag_is_still_set_aside(message: str, tag: str) -> None:
    envelope = read_envelope(message, NAMES)
    assert envelope.text == "total spend of Company A in Q1 2026"
    assert envelope.aside == (f"reference tag {tag!r}",)


@pytest.mark.parametrize("message", [
    "GL-400100: total spend of Company A in Q1 2026",  # the probe: a code without a ticket noun or prefix
    "CC-447100 - total spend of Company A in Q1 2026",
    "INCOME-12345: total spend of Company A in Q1 2026",  # a word that only opens with a ticket prefix
])
def test_a_lead_code_without_a_ticket_noun_is_kept_and_named(message: str) -> None:
    envelope = read_envelope(message, NAMES)
    assert (envelope.text, envelope.aside) == (message, ())
    code = message.split(":")[0].split(" - ")[0]
    assert any(code in q for q in unrecorded_qualifiers(message, []))


@pytest.mark.parametrize("message", [
    "Company A spend Q1 2026 Priority",  # the probe: a lone flag-like noun with no punctuation before it
    "Company A spend Q1 2026 URGENT",
    "Company A spend Q1 2026 Send me the numbers as at today",  # an as-of clause, no deadline
    "Company A spend Q1 2026 Pls send the numbers as of EOD",
    "Company A spend Q1 2026 Kindly share the figures as on date",
])
def test_an_unpunctuated_trailer_that_can_be_a_constraint_is_kept(message: str) -> None:
    envelope = read_envelope(message, NAMES)
    assert (envelope.text, envelope.aside) == (message, ())


@pytest.mark.parametrize(("message", "aside"), [
    ("Company A spend Q1 2026 ASAP", ("urgency 'ASAP'",)),
    ("Company A spend Q1 2026 Same may be shared by EOD", ("delivery 'Same may be shared by EOD'",)),
    ("Company A spend Q1 2026 Pls treat as urgent", ("urgency 'Pls treat as urgent'",)),
])
def test_an_unpunctuated_courtesy_or_sending_trailer_is_still_set_aside(message: str,
                                                                        aside: tuple[str, ...]) -> None:
    envelope = read_envelope(message, NAMES)
    assert (envelope.text, envelope.aside) == ("Company A spend Q1 2026", aside)
