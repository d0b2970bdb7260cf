"""Long, polite, noisy messages (no database): greetings, signatures, ticket and meeting references, quoted lines,
hedges, reasons, source-system words, self-corrections and numbered requests are set aside as context and named;
a real constraint (a company, supplier, period, amount, id) is never set aside. The metamorphic suite wraps
questions the router reads correctly in generated noise (each piece optional, numbers and dates inside the noise)
and asserts the plan of the bare question. Seeded, bounded."""

from __future__ import annotations

import datetime as dt
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from procura.db.session import AuthContext
from router.context_noise import set_aside_context, set_aside_note, with_context_note
from router.entities import Company, Gazetteer, Product, ProductGroup
from router.reading import catalog_metrics
from router.routing import RouterInputs, route
from semantic.loader import load_registry
from semantic.schema import load_snapshot

AS_OF = dt.date(2026, 5, 15)
GAZETTEER = Gazetteer.build(
    [Company("COMP-A", "Company A", "EUR"), Company("COMP-B", "Company B", "EUR"),
     Company("COMP-C", "Company C", "EUR")],
    [("SUP-18", "Supplier Beta"), ("SUP-27", "Supplier Gamma"), ("SUP-31", "Supplier Delta")],
    [("Beta Supplies GmbH", "SUP-18"), ("Gamma Control Systems AG", "SUP-27"), ("Gamma Controls", "SUP-27"),
     ("Delta Enclosures Ltd", "SUP-31")],
    [ProductGroup("PG-SENS", "Sensors"), ProductGroup("PG-CTRL", "Control Equipment")],
    [], [Product("PRD-491", "PT100 temperature probe")],
)
NAMES = ("Company A", "Company B", "Company C", "Supplier Beta", "Beta Supplies GmbH", "Supplier Gamma",
         "Gamma Controls", "Supplier Delta", "Delta Enclosures Ltd", "Sensors", "Control Equipment")
CTX = AuthContext(tenant_id="tenant-42", principal_id="noise", scopes=frozenset({"invoice:aggregate",
                                                                             "procurement:read"}))
BOUNDED = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def _inputs() -> RouterInputs:
    schema = load_snapshot(Path(__file__).parent / "fixtures" / "semantic" / "schema.json")
    return RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=tuple(catalog_metrics(load_registry(
        schema))))


@functools.cache
def _plan(question: str) -> tuple[Any, ...]:
    r = route(question, _inputs())
    steps = [(s.tool, json.dumps(s.arguments, sort_keys=True, default=str)) for s in r.execution_plan]
    return r.requires_clarification, r.workflow, tuple(steps)


def _ask(message: str) -> str:
    return set_aside_context(message, NAMES).text


# --- the sub-classes, each in several wordings --------------------------------------------------------------------
@pytest.mark.parametrize("message", [
    "Hi team, Company A spend in Q1 2026?",
    "Good morning Anna,\n\nCompany A spend in Q1 2026?",
    "Hello Mr. Jones - Company A spend in Q1 2026?",
    "Dear AP team,\nCompany A spend in Q1 2026?",
    "Hey! Company A spend in Q1 2026?",
    "Guten Morgen Frau Weber, Company A spend in Q1 2026?",
])
def test_greetings_are_set_aside(message: str) -> None:
    pruned = set_aside_context(message, NAMES)
    assert pruned.text == "Company A spend in Q1 2026?"
    assert any(a.startswith("greeting") for a in pruned.aside)


@pytest.mark.parametrize("message", [
    "Company B spend with Beta in March 2026?\n\nKind regards\nMaria Lopez\nAP Clerk, Company C\n+49 89 1234 5678",
    "Company B spend with Beta in March 2026? Thanks, Tom | Controller | tom.h@acme.example | +44 20 7946 0958",
    "Company B spend with Beta in March 2026?\n--\nJ. Smith, Senior Auditor\nTel: 030 1234567\n12 High Street, London",
    "Company B spend with Beta in March 2026?\nCheers\nPriya (Finance, 3rd floor, ext. 2215)",
    "Company B spend with Beta in March 2026?\n\nBest,\nK. Müller\nLindenstraße 4, 80331 München\nk.mueller@example.de",
])
def test_signatures_and_contact_details_are_set_aside(message: str) -> None:
    pruned = set_aside_context(message, NAMES)
    assert pruned.text == "Company B spend with Beta in March 2026?"
    assert any(a.startswith(("sign-off", "signature")) for a in pruned.aside)


@pytest.mark.parametrize("message,ref", [
    ("Re: ticket 48213 - how many invoices did Company C get from Gamma Controls in H2 2025?", "48213"),
    ("INC0012345: how many invoices did Company C get from Gamma Controls in H2 2025?", "INC0012345"),
    ("how many invoices did Company C get from Gamma Controls in H2 2025? (case #20771)", "20771"),
    ("Ref. JIRA-4471 how many invoices did Company C get from Gamma Controls in H2 2025?", "JIRA-4471"),
    ("Request REQ0099812 - how many invoices did Company C get from Gamma Controls in H2 2025?", "REQ0099812"),
])
def test_ticket_references_are_set_aside_with_their_number(message: str, ref: str) -> None:
    pruned = set_aside_context(message, NAMES)
    assert pruned.text == "how many invoices did Company C get from Gamma Controls in H2 2025?"
    assert any(ref in a for a in pruned.aside)


@pytest.mark.parametrize("message", [
    "As discussed on the call on 3 March, top 3 suppliers of Company B in Q1 2026?",
    "Per our meeting last Tuesday, top 3 suppliers of Company B in Q1 2026?",
    "Following our Teams call with Jane yesterday: top 3 suppliers of Company B in Q1 2026?",
    "as agreed in the meeting on 12.02.2026, top 3 suppliers of Company B in Q1 2026?",
    "Further to my e-mail of 2 April - top 3 suppliers of Company B in Q1 2026?",
])
def test_meeting_references_and_their_dates_are_set_aside(message: str) -> None:
    pruned = set_aside_context(message, NAMES)
    assert pruned.text == "top 3 suppliers of Company B in Q1 2026?"
    assert any(a.startswith("meeting reference") for a in pruned.aside)


@pytest.mark.parametrize("message", [
    "> Can you send the Q4 2025 numbers?\n> Total was EUR 12,345.67\nCompany A spend in Q1 2026?",
    "Company A spend in Q1 2026?\n\nOn 2 Feb 2026, Jane Doe wrote:\n> what about Company B in 2025?",
    "Company A spend in Q1 2026?\n\n-----Original Message-----\nFrom: Jane\nSent: 3 March 2026\n> old thread",
    ">> earlier: INC0012345 closed\nCompany A spend in Q1 2026?",
])
def test_quoted_lines_and_headers_are_set_aside(message: str) -> None:
    assert _ask(message) == "Company A spend in Q1 2026?"


@pytest.mark.parametrize("message", [
    "Sorry for the basic question, Company A spend with Supplier Delta in 2025?",
    "If it's not too much trouble, Company A spend with Supplier Delta in 2025?",
    "I might be wrong but Company A spend with Supplier Delta in 2025?",
    "I'm new here - Company A spend with Supplier Delta in 2025?",
    "Hope you're well! Quick question: Company A spend with Supplier Delta in 2025?",
    "Company A spend with Supplier Delta in 2025, when you get a chance?",
])
def test_hedges_and_apologies_are_set_aside(message: str) -> None:
    assert _ask(message).rstrip("?,. ") == "Company A spend with Supplier Delta in 2025"


@pytest.mark.parametrize("message", [
    "Company A spend with Supplier Delta in 2025? My manager needs this for Friday.",
    "Company A spend with Supplier Delta in 2025? It's for the audit file.",
    "Company A spend with Supplier Delta in 2025? The auditors need this by 14 March.",
    "Company A spend with Supplier Delta in 2025? We need it by EOD Thursday.",
    "For the year-end audit: Company A spend with Supplier Delta in 2025?",
    "Company A spend with Supplier Delta in 2025 (PBC item 12)?",
])
def test_reasons_for_asking_are_set_aside(message: str) -> None:
    assert _ask(message).rstrip("?,. ") == "Company A spend with Supplier Delta in 2025"


@pytest.mark.parametrize("message", [
    "Company A spend with Supplier Beta in Q1 2026 from the AP ledger",
    "Company A spend with Supplier Beta in Q1 2026 in SAP",
    "Company A spend with Supplier Beta in Q1 2026 according to the AP sub-ledger",
    "Company A spend with Supplier Beta in Q1 2026 per the purchase ledger",
])
def test_source_systems_of_other_erps_are_set_aside(message: str) -> None:
    assert _ask(message) == "Company A spend with Supplier Beta in Q1 2026"


@pytest.mark.parametrize("message,expected", [
    ("Company A spend in Q2, I mean Q1 2026", "Company A spend in Q1 2026"),
    ("Company A spend with the vendor, sorry, supplier Beta in Q1 2026",
     "Company A spend with the supplier Beta in Q1 2026"),
    ("Company B - sorry, Company A spend in March 2026", "Company A spend in March 2026"),
    ("Company C spend in March, no wait, April 2026", "Company C spend in April 2026"),
    ("Top 3 suppliers of Company B in H2 2025, or rather H1 2025", "Top 3 suppliers of Company B in H1 2025"),
    ("Company A spend with Gamma, sorry, Beta in 2025", "Company A spend with Beta in 2025"),
])
def test_self_corrections_keep_the_corrected_value(message: str, expected: str) -> None:
    pruned = set_aside_context(message, NAMES)
    assert pruned.text == expected
    assert any(a.startswith("self-correction") for a in pruned.aside)


@pytest.mark.parametrize("message,expected", [
    ("Hi,\nfor Company A in Q1 2026 could you provide:\n1. total spend\n2. the number of invoices\nThanks\nPeter",
     "for Company A in Q1 2026 could you provide: total spend; the number of invoices"),
    ("For Company A in Q1 2026: 1) total spend 2) invoice count 3) top supplier",
     "For Company A in Q1 2026: total spend; invoice count; top supplier"),
    ("Company B, 2025:\na) spend with Beta\nb) spend with Gamma", "Company B, 2025: spend with Beta; spend with Gamma"),
    ("Please send for Company C, March 2026:\n- total spend\n- number of invoices",
     "Please send for Company C, March 2026: total spend; number of invoices"),
])
def test_numbered_requests_become_parts(message: str, expected: str) -> None:
    pruned = set_aside_context(message, NAMES)
    assert pruned.text == expected
    assert any(a.startswith("numbered requests") for a in pruned.aside)


@pytest.mark.parametrize("message", [
    "Company A spend in Q1 2026", "Top 5 suppliers of Company A last quarter?",
    "Company A invoices over EUR 10,000 in Q1 2026", "What is the EUR total of INV-2026-0148?",
    "Hi Beta, Company A spend Q1 2026",  # "Beta" is a supplier of the tenant: never an addressee
    "Spend with Delta per the meeting catalogue in 2025",  # no meeting reference: nothing set aside
    "Company A invoices ref 2026-0125 and 2026-0126",  # a bare "ref" before a 4-digit year stays
    "Company A spend on purchase order 4500012345 in Q1 2026",
    "Company A spend with Supplier Beta in Q1 2026, excluding drafts",
    "Company B spend as of 3 March 2026 with Gamma",
    "im 1. Quartal 2026 und 2. Quartal 2026 Ausgaben von Company A",
    "Company A spend with Beta, sorry, I need it in EUR, Q1 2026",  # "I" is no corrected supplier
    "Company A invoices following the meeting on 3 March",  # "following" mid-sentence may be the period
    "Company A spend after the board meeting on 3 March",
    "Company C spend on the Main Street site in 2025",
])
def test_constraints_are_never_set_aside(message: str) -> None:
    assert set_aside_context(message, NAMES).aside == ()
    assert set_aside_context(message, NAMES).text == message


def test_the_answer_names_what_was_set_aside() -> None:
    aside = ("greeting", "ticket reference 48213", "sign-off and signature")
    assert set_aside_note(aside) == "set aside as context: greeting, ticket reference 48213, sign-off and signature"
    text = with_context_note("Spend was 5 EUR. Read as: Company A. Sources: a, b.", aside)
    assert text == ("Spend was 5 EUR. Read as: Company A. Set aside as context: greeting, ticket reference 48213, "
                    "sign-off and signature. Sources: a, b.")


def test_the_routing_names_what_was_set_aside() -> None:
    r = route("Hi team, re: ticket 48213 - Company A spend with Supplier Beta in Q1 2026? Thanks, Maria", _inputs())
    assert "ticket reference 48213" in (r.interpretation or "")
    assert _plan("Hi team, re: ticket 48213 - Company A spend with Supplier Beta in Q1 2026? Thanks, Maria") == \
        _plan("Company A spend with Supplier Beta in Q1 2026?")


# --- metamorphic: generated noise around questions the router reads correctly -----------------------------------
BARE = ("Company A spend with Supplier Beta in Q1 2026?", "Top 3 suppliers of Company B in March 2026?",
        "How many invoices did Company C get from Gamma Controls in H2 2025?",
        "Company B spend on Sensors in 2025?", "Company C invoices over EUR 5,000 in Q4 2025?")
GREETINGS = ("", "Hi team,\n", "Good morning Anna, ", "Hello Mr. Jones - ", "Dear AP team,\n\n", "Hey! ")
REFERENCES = ("", "Re: ticket 48213 - ", "INC0012345: ", "As discussed on the call on 3 March, ",
              "Per our meeting last Tuesday, ", "(case #20771) ", "Following my e-mail of 14 Feb 2026: ")
HEDGES = ("", "Sorry for the basic question, ", "If it's not too much trouble, ", "I might be wrong but ",
          "Quick question: ", "I'm new here - ")
REASONS = ("", " My manager needs this for Friday.", " It's for the audit file.",
           " The auditors need this by 14 March.", " We need it by EOD Thursday.")
SIGNATURES = ("", "\n\nKind regards\nMaria Lopez\nAP Clerk\n+49 89 1234 5678\nmaria.lopez@example.com",
              " Thanks, Tom | Controller | +44 20 7946 0958",
              "\n--\nJ. Smith, Senior Auditor, Company B\nTel: 030 1234567\n12 High Street, London",
              "\nCheers\nPriya (Finance, ext. 2215)")
QUOTED = ("", "\n\n> On 2 Feb 2026 you sent the Q4 2025 figures.\n> Total was EUR 12,345.67",
          "> Can you also check INV-2026-0099?\n")


@BOUNDED
@given(st.sampled_from(BARE), st.sampled_from(GREETINGS), st.sampled_from(REFERENCES), st.sampled_from(HEDGES),
       st.sampled_from(REASONS), st.sampled_from(SIGNATURES), st.sampled_from(QUOTED))
def test_noise_never_changes_the_plan(bare: str, greeting: str, reference: str, hedge: str, reason: str,
                                      signature: str, quoted: str) -> None:
    head = quoted if quoted.endswith("\n") else ""
    tail = quoted if not head else ""
    message = f"{head}{greeting}{reference}{hedge}{bare}{reason}{signature}{tail}"
    pruned = set_aside_context(message, NAMES)
    assert pruned.text.rstrip(".") == bare, message
    assert bool(pruned.aside) == (message != bare), message
    assert _plan(message) == _plan(bare), message
