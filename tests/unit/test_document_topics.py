"""The topic of a question about a named document: entity span consumed, German mapped, fact sentence ranked first
and quoted whole (retrieval.topics, the snippet's topic scorer, router.evidence's ranking)."""

from __future__ import annotations

import pytest

from retrieval.passages import snippet
from retrieval.topics import german_topics, sentence_score, topic_terms
from router.evidence import _MANUAL_CUE, _OTHER_DOCUMENTS, best_sentence_score

MANUAL = [
    "## 3. Product overview\n\n| Parameter | Value |\n|---|---|\n| Product code | PRD-482 |\n"
    "| Designation | Differential pressure sensor DPS-482 |\n| Supply voltage | 24 V DC |\n"
    "| Operating temperature | -40 °C to 85 °C |",
    "## 4. Installation\n\n4.1 Ambient temperature during operation must stay between -20 °C and 85 °C. "
    "Check the nameplate of the Differential pressure sensor DPS-482 against the order.\n\n"
    "4.2 Keep a minimum clearance of 100 mm around the housing for ventilation and service access.\n\n"
    "4.3 Tighten the process connection to 40 Nm; do not use the housing as a lever.",
    "## 5. Wiring\n\n5.2 The maximum loop resistance including cable is 250 Ω. "
    "5.3 Connect the Differential pressure sensor DPS-482 to a SELV power supply of 12 V DC.",
    "## 7. Calibration\n\n### 7.1 General\n\nThe Differential pressure sensor DPS-482 is factory calibrated. "
    "Re-calibration intervals depend on the application and on plant quality requirements.\n\n"
    "7.3.1 Differential pressure calibration of the PRD-482 is required every 12 months, after any overpressure "
    "event above 150 % of the nominal range.",
    "## 9. Troubleshooting\n\n9.1 If the output stays at 3.6 mA, check the supply voltage and the loop resistance.",
    "## 10. Storage\n\n10.2 Storage temperature range is -20 °C to 70 °C. Devices stored for more than 18 months "
    "should be checked before installation.",
]
NAME = ("PRD-482 Differential Pressure Sensor", "Differential pressure sensor DPS-482")


def _best(question: str, chunks: list[str], names: tuple[str, ...] = NAME) -> str:
    topic = topic_terms(question, names)
    return max(chunks, key=lambda c: best_sentence_score(topic, c))


@pytest.mark.parametrize(("question", "fact"), [
    ("calibration interval for the DPS-482 differential pressure sensor per the manual", "every 12 months"),
    ("what is the tightening torque of the process connection of PRD-482?", "40 Nm"),
    ("maximum loop resistance for the DPS-482?", "250 Ω"),
    ("Per the DPS-482 manual, what's the allowed ambient temperature range?", "Ambient temperature during"),
    ("What clearance around the housing does the PRD-482 manual require?", "100 mm"),
    ("storage temperature of the differential pressure sensor DPS-482 according to the manual", "70 °C"),
    ("Kalibrierintervall für DPS-482 laut Handbuch?", "every 12 months"),
    ("Mit welchem Drehmoment wird der Prozessanschluss von PRD-482 angezogen?", "40 Nm"),
    ("Maximaler Schleifenwiderstand von DPS-482 laut Handbuch?", "250 Ω"),
    ("Welche Umgebungstemperatur ist für PRD-482 laut Handbuch zulässig?", "Ambient temperature during"),
])
def test_the_passage_holding_the_fact_ranks_first(question: str, fact: str) -> None:
    assert fact in _best(question, MANUAL)


@pytest.mark.parametrize(("question", "fact"), [
    ("calibration interval for the DPS-482 differential pressure sensor per the manual", "every 12 months"),
    ("Welche Versorgungsspannung braucht DPS-482 laut Handbuch?", "SELV power supply of 12 V DC"),
    ("What supply voltage does the DPS-482 need according to its manual?", "SELV power supply of 12 V DC"),
])
def test_the_snippet_keeps_the_fact_sentence_whole(question: str, fact: str) -> None:
    topic = topic_terms(question, NAME)
    # the sections after the overview table (whose own row is another passage): the troubleshooting line that
    # names "supply voltage" without a value must not win over the sentence stating it
    text = "\n\n".join(MANUAL[1:]) + "\n\n" + "Filler sentence about nothing in particular. " * 60
    focus = (0, 10)  # the cited chunk is the first one: the topic still decides the anchor
    cut = snippet(text, focus, topic.text, max_chars=300, score=lambda s: sentence_score(topic, s))
    assert fact in cut and len(cut) <= 302


def test_the_entity_span_is_consumed_and_a_lone_entity_word_stays() -> None:
    assert topic_terms("calibration interval for the DPS-482 differential pressure sensor per the manual",
                       NAME).terms == ("calibration", "interval")
    assert topic_terms("Per the MC-4 / MC-8 monitoring controller manual, what's the allowed ambient temperature "
                       "range?", ("PRD-611 and PRD-612 Monitoring Controllers",)).terms == (
        "ambient", "temperature", "range")
    # "temperature" is part of the product name, but standing alone it is the topic
    assert topic_terms("operating temperature of the PT100 temperature probe",
                       ("PRD-491 PT100 Temperature Probe",)).terms == ("operating", "temperature")
    assert not topic_terms("manual for the DPS-482 differential pressure sensor", NAME)
    assert not topic_terms("Look up product PRD-611.", ("PRD-611 and PRD-612 Monitoring Controllers",))


def test_german_topic_words_map_to_the_corpus_words() -> None:
    assert topic_terms("Welches Zahlungsziel steht im Vertrag agreement-2025-12?").terms[:2] == ("payment", "terms")
    assert "notice" in topic_terms("Welche Kündigungsfrist gilt für Vertrag mit Company C?",
                                   ("Purchasing Agreement 2025-12 — Company C",)).terms
    assert german_topics("gewährleistungsfrist") == ("warranty",)
    assert german_topics("schleifenwiderstand") == ("loop", "resistance")


def test_agreement_fact_outranks_the_heading_that_names_the_topic() -> None:
    section = ("## 6. Invoicing and Payment Terms\n\n6.1 Invoices are issued per delivery.\n\n"
               "6.2 Payment is due 45 days net after receipt of a correct invoice.")
    topic = topic_terms("What are the payment terms in agreement-2025-12?")
    scores = {s: sentence_score(topic, s) for s in ("## 6. Invoicing and Payment Terms",
                                                     "6.2 Payment is due 45 days net after receipt of a correct "
                                                     "invoice.")}
    assert max(scores, key=scores.__getitem__).startswith("6.2")
    assert "Payment is due 45 days net" in snippet(section * 5, (0, 5), topic.text, max_chars=200,
                                                   score=lambda s: sentence_score(topic, s))


def test_manual_and_other_document_cues() -> None:
    assert _MANUAL_CUE.search("according to its manual") and _MANUAL_CUE.search("laut Bedienungsanleitung")
    assert _OTHER_DOCUMENTS.search("which invoices include PRD-482") and not _OTHER_DOCUMENTS.search(
        "maximum loop resistance for the DPS-482?")


@pytest.mark.parametrize("question", [
    "what supply voltage does the PRD-482 differential pressure sensor need according to its manual?",
    "maximum loop resistance for the PRD-482?",
    "What is the tightening torque of the process connection of PRD-482?",
    "Welche Umgebungstemperatur ist für PRD-611 laut Handbuch zulässig?",
    "Kalibrierintervall für PRD-482 laut Handbuch?",
    "Welches Zahlungsziel steht im Vertrag agreement-2025-12?",
    "What is the notice period for terminating agreement-2025-12?",
])
def test_a_fact_of_a_named_document_is_a_document_search(question: str) -> None:
    from tests.unit.test_router_analysis import routed

    result = routed(question)
    assert not result.requires_clarification, result.clarification_question
    assert [s.tool for s in result.execution_plan if s.tool != "validation.check_completeness"] == [
        "documents.search"]


def test_a_products_invoices_are_not_a_manual_fact() -> None:
    from retrieval.topics import fact_words
    from router.routing import _FIGURE_WORDS, _PRODUCT_FIGURE_WORDS

    assert _FIGURE_WORDS.search("which invoices include PRD-482 in 2026?")
    assert _PRODUCT_FIGURE_WORDS.search("who sells PRD-482 cheapest?")
    assert fact_words("How much did Company A spend on PRD-482 in Q1?") == ()
