"""Document-fact probes: questions about one fact of a named manual or agreement, generated from the demo corpus
as ingested (tenant-42 of the database), asked through ``/v1/ask``; the answer must quote the fact's sentence.

``python -m evaluation.probes_documents [--database procura] [--seed 1] [--per-class 30] [--show wrong|all|none]``
reads every product manual and agreement of the tenant, finds its fact-bearing sentences (supply voltage,
ambient / storage temperature, process-connection torque, loop resistance, calibration interval, clearance,
damping time, vibration; payment terms, notice period, warranty, price-adjustment notice, term, confidentiality)
and asks about each fact naming the document by id, by a product code, by the product's catalogue name, by its
short designation ("DPS-482", "MC-4"), or an agreement by its company, in English and German.

Outcomes (the shared table of :func:`evaluation.probes_clarify.outcome_table`):

* ``exact``: an evidence snippet of the expected document contains the fact's sentence;
* ``false_clar``: a clarification instead of the passage;
* ``refusal``: not found / unsupported / failed;
* ``silent_wrong``: passages presented as the answer, none of the expected document quoting the fact.

The seed picks facts, frames and namings: ``--seed 1`` is the training half (the reader is fixed on it),
``--seed 2`` the held-out half (only measured). Written from the corpus and the slot grammar alone.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from evaluation.probe_client import ProbeClient
from evaluation.probe_runner import Checked, arguments, run_probes, shown
from evaluation.probes_clarify import outcome_table

TENANT = "tenant-42"
AS_OF = dt.date(2026, 5, 15)


@dataclass(frozen=True)
class Topic:
    """A kind of fact: the sentence that states it, and question frames (``{n}`` names the document)."""

    key: str
    kind: str  # "product_manual" or "agreement"
    sentence: re.Pattern[str]
    english: tuple[str, ...]
    german: tuple[str, ...]


def _t(key: str, kind: str, pattern: str, english: tuple[str, ...], german: tuple[str, ...]) -> Topic:
    return Topic(key, kind, re.compile(pattern, re.I), english, german)


TOPICS: tuple[Topic, ...] = (
    _t("supply_voltage", "product_manual", r"power supply of [\d.]+\s*V", (
        "What supply voltage does the {n} need according to its manual?", "{n}: supply voltage per the manual",
        "Which supply voltage is specified in the manual for the {n}?"), (
        "Welche Versorgungsspannung braucht {n} laut Handbuch?", "Versorgungsspannung {n} laut Handbuch")),
    _t("ambient_temperature", "product_manual", r"ambient temperature during operation", (
        "Per the {n} manual, what's the allowed ambient temperature range?",
        "ambient temperature range for the {n} per the manual",
        "What ambient temperature may the {n} be operated at?"), (
        "Welche Umgebungstemperatur ist für {n} laut Handbuch zulässig?", "Umgebungstemperatur {n} laut Handbuch")),
    _t("storage_temperature", "product_manual", r"storage temperature range is", (
        "storage temperature of the {n} according to the manual", "At what temperature may the {n} be stored?"), (
        "Lagertemperatur {n} laut Handbuch", "Welche Lagertemperatur gilt für {n}?")),
    _t("torque", "product_manual", r"tighten the process connection to \d+\s*Nm", (
        "what is the tightening torque of the process connection of {n}?",
        "{n} process connection torque per the manual"), (
        "Mit welchem Drehmoment wird der Prozessanschluss von {n} angezogen?", "Anzugsdrehmoment {n} laut Handbuch")),
    _t("loop_resistance", "product_manual", r"maximum loop resistance", (
        "maximum loop resistance for the {n}?", "What loop resistance does the {n} manual allow?"), (
        "Maximaler Schleifenwiderstand von {n} laut Handbuch?",)),
    _t("calibration_interval", "product_manual", r"is required every \d+ months", (
        "calibration interval for the {n} per the manual", "How often must the {n} be calibrated per its manual?"), (
        "Kalibrierintervall für {n} laut Handbuch?", "Wie oft muss {n} kalibriert werden?")),
    _t("clearance", "product_manual", r"minimum clearance of \d+\s*mm", (
        "What clearance around the housing does the {n} manual require?", "minimum clearance for the {n}"), (
        "Welcher Mindestabstand um das Gehäuse gilt für {n}?",)),
    _t("damping", "product_manual", r"damping time can be set", (
        "damping time range of the {n} per the manual", "What damping time can be set on the {n}?"), (
        "Dämpfungszeit {n} laut Handbuch",)),
    _t("vibration", "product_manual", r"withstands vibration", (
        "How much vibration does the {n} withstand according to its manual?",), (
        "Welche Schwingung verträgt {n} laut Handbuch?",)),
    _t("payment_terms", "agreement", r"payment is due \d+ days", (
        "What are the payment terms in {n}?", "payment terms of {n}", "When is payment due under {n}?"), (
        "Welches Zahlungsziel steht im {n}?", "Zahlungsbedingungen laut {n}")),
    _t("notice_period", "agreement", r"terminate with \d+ months notice", (
        "What is the notice period for terminating {n}?", "notice period in {n}"), (
        "Welche Kündigungsfrist gilt für {n}?", "Kündigungsfrist laut {n}")),
    _t("warranty", "agreement", r"warranty period is \d+ months", (
        "warranty period under {n}", "How long is the warranty according to {n}?"), (
        "Gewährleistungsfrist laut {n}", "Wie lange gilt die Gewährleistung im {n}?")),
    _t("price_notice", "agreement", r"price adjustments require \d+ days", (
        "How much notice is required for price adjustments under {n}?",), (
        "Welche Frist gilt für Preisanpassungen im {n}?",)),
    _t("term", "agreement", r"runs for \d+ years", (
        "What is the term of {n}?", "duration of {n}"), (
        "Laufzeit von {n}?",)),
    _t("effective_date", "agreement", r"^effective date: \d{4}-\d{2}-\d{2}", (
        "Since when is {n} in force?", "effective date of {n}",
        "From which date is the current version of {n} valid?"), (
        "Seit wann gilt {n}?", "Ab wann ist {n} in Kraft?")),
    _t("confidentiality", "agreement", r"confidential for \d+ years", (
        "How long does the confidentiality obligation in {n} last?",), (
        "Wie lange gilt die Vertraulichkeit laut {n}?",)),
    # German compounds of the clause words (router/agreement_clauses.py) and clauses quoted on request
    _t("insurance", "agreement", r"product liability insurance of at least", (
        "minimum product liability insurance under {n}?", "What insurance cover does {n} require?"), (
        "Mindestdeckung Produkthaftpflicht im {n}?", "Haftpflichtversicherung laut {n}")),
    _t("fixed_prices", "agreement", r"prices are fixed for the first \d+ months", (
        "For how long are prices fixed under {n}?",), (
        "Wie lange gelten die Festpreise im {n}?", "Festpreise laut {n}?")),
    _t("currency_conversion", "agreement", r"converted at the corporate rate", (
        "How are invoices in another currency converted under {n}? Please quote the clause.",), (
        "Wie werden Rechnungen in Fremdwährung laut {n} umgerechnet?",)),
)


@dataclass(frozen=True)
class Fact:
    """One fact-bearing sentence of one document, and the names the document goes by."""

    document_id: str
    topic: Topic
    sentence: str
    #: (naming kind, English name, German name)
    names: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Probe:
    klass: str  # the topic key
    naming: str
    language: str
    question: str
    document_id: str
    fact: str


_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
#: The German word of an agreement named by its subject (the first word of its English title).
_SUBJECT_DE = {"packaging": "Verpackungsvertrag", "laboratory": "Laborvertrag", "cold": "Kühlkettenvertrag",
               "framework": "Rahmenvertrag", "purchasing": "Einkaufsvertrag", "supply": "Liefervertrag"}
_CLAUSE_NUMBER = re.compile(r"^(?:[-*]\s+|\d+(?:\.\d+)*\.?\s+)")


def squash(text: str) -> str:
    return " ".join(text.split())


def _designation(name: str) -> str | None:
    """The short designation at the end of a catalogue name ("Differential pressure sensor DPS-482" -> "DPS-482")."""
    last = name.split()[-1]
    return last if re.search(r"[A-Za-z]", last) and re.search(r"\d", last) and "-" in last else None


def load_facts(database: str) -> list[Fact]:
    """Every fact-bearing sentence of the tenant's manuals and agreements (read as the owner)."""
    import psycopg

    from procura.settings import get_settings

    os.environ["PROCURA_DB_NAME"] = database
    get_settings.cache_clear()
    with psycopg.connect(get_settings().owner_url) as conn:
        docs = conn.execute(
            "select document_id, min(document_type), min(metadata ->> 'company_id'), "
            "min((metadata -> 'product_codes')::text), string_agg(chunk_text, E'\\n' order by ordinal) "
            "from retrieval.active_chunks where tenant_id = %s and document_type in ('product_manual', 'agreement') "
            "group by document_id order by document_id", (TENANT,)).fetchall()
        metadata_title: dict[str, str] = dict(conn.execute(
            "select document_id, min(metadata ->> 'title') from retrieval.active_chunks where tenant_id = %s "
            "and document_type = 'agreement' group by document_id", (TENANT,)).fetchall())
        products: dict[str, str] = dict(conn.execute(
            "select product_code, product_name from marts.dim_products where tenant_id = %s", (TENANT,)).fetchall())
        companies: dict[str, str] = dict(conn.execute(
            "select company_id, company_name from marts.dim_companies where tenant_id = %s", (TENANT,)).fetchall())
    facts: list[Fact] = []
    for document_id, kind, company, codes_json, text in docs:
        names: list[tuple[str, str, str]] = [("id", document_id, document_id)]
        if kind == "product_manual":
            for code in re.findall(r"PRD-\d+", codes_json or ""):
                names.append(("code", code, code))
                name = products.get(code)
                if name:
                    lowered = name[0].lower() + name[1:] if name.split()[0][1:].islower() else name
                    names.append(("name", lowered, name))
                    short = _designation(name)
                    if short:
                        rest = " ".join(name.split()[:-1]).lower()
                        names.append(("designation", f"{short} {rest}", short))
        elif company:
            label = companies.get(company, company)
            names.append(("company", f"the agreement with {label}", f"Vertrag mit {label}"))
            names.append(("company", f"{label}'s agreement", f"Vertrag von {label}"))
            # an agreement named by its kind or its subject ("Rahmenvertrag", "Verpackungsvertrag") and the company
            title = re.split(r"\s+[—–-]\s+", str(metadata_title.get(document_id) or ""))[0]
            subject = re.sub(r"\s*\d{4}-\d{2}$", "", title).lower()
            names.append(("subject", f"{label}'s {subject or 'framework agreement'}",
                          f"{_SUBJECT_DE.get(subject.split()[0] if subject else '', 'Rahmenvertrag')} {label}"))
        seen: set[str] = set()
        for sentence in _SPLIT.split(text):
            plain = squash(_CLAUSE_NUMBER.sub("", sentence.strip()))
            for topic in TOPICS:
                if topic.kind == kind and topic.key not in seen and topic.sentence.search(plain):
                    seen.add(topic.key)
                    facts.append(Fact(document_id, topic, plain, tuple(names)))
    return facts


def probes(facts: Sequence[Fact], seed: int, per_class: int = 30, exclude: frozenset[str] = frozenset()) -> list[Probe]:
    """Up to ``per_class`` questions per topic: seeded fact, naming, language and frame; duplicates and the
    questions in ``exclude`` (the training seed's, for a held-out seed) dropped."""
    rng = random.Random(seed)
    out: list[Probe] = []
    for topic in TOPICS:
        mine = [f for f in facts if f.topic.key == topic.key]
        if not mine:
            continue
        seen: set[str] = set()
        for _ in range(per_class * 4):
            if len(seen) >= per_class:
                break
            fact = rng.choice(mine)
            naming, english, german = rng.choice(fact.names)
            language = "de" if rng.random() < 0.35 else "en"
            frame = rng.choice(topic.german if language == "de" else topic.english)
            name = german if language == "de" else english
            if language == "de" and topic.kind == "agreement" and naming == "id":
                name = f"Vertrag {name}"
            question = frame.format(n=name)
            question = question[0].upper() + question[1:] if rng.random() < 0.5 else question
            if question in seen or question in exclude:
                continue
            seen.add(question)
            out.append(Probe(topic.key, naming, language, question, fact.document_id, fact.sentence))
    return out


def classify(probe: Probe, status: str, evidence: Sequence[dict[str, object]]) -> str:
    """The outcome of one answer (see the module docstring)."""
    if status == "clarification":
        return "false_clar"
    if status not in ("answered", "partial", "no_data"):
        return "refusal"
    quoted = squash(" ".join(str(e.get("snippet") or "") for e in evidence
                             if e.get("document_id") == probe.document_id))
    return "exact" if squash(probe.fact) in quoted else "silent_wrong"


def run(database: str, found: Sequence[Probe], show: str = "wrong") -> Counter[tuple[str, str]]:
    def check(session: ProbeClient, probe: Probe) -> Checked:
        status, text, answer = session.ask(probe.question, AS_OF)
        evidence = answer.get("evidence") or []
        outcome = classify(probe, status, evidence)
        return Checked(probe.klass, outcome,
                       shown(probe.klass, outcome, probe.question, f"{probe.document_id}: {probe.fact!r}", status,
                             text, width=300), also=(f"by-{probe.naming}", f"lang-{probe.language}"))

    return run_probes(database, "probes-documents", (TENANT,), found, check, show, right=("exact",))


def table(counts: Counter[tuple[str, str]]) -> str:
    rows = (*(t.key for t in TOPICS), "by-id", "by-code", "by-name", "by-designation", "by-company", "by-subject",
            "lang-en", "lang-de")
    return outcome_table(counts, rows, width=20, column=12, total=False) + "\n" + outcome_table(
        Counter({k: v for k, v in counts.items() if not k[0].startswith(("by-", "lang-"))}), (), width=20,
        column=12)


def main(argv: Sequence[str] | None = None) -> None:
    args = arguments(__doc__, count=("--per-class", 6), select=None).parse_args(argv)
    facts = load_facts(args.database)
    # a held-out seed never repeats a question of the training seed (1)
    training = frozenset(p.question for p in probes(facts, 1, args.per_class)) if args.seed != 1 else frozenset()
    found = probes(facts, args.seed, args.per_class, training)
    counts = run(args.database, found, args.show)
    print(f"seed {args.seed}: {len(found)} probes")
    print(table(counts))


if __name__ == "__main__":
    main()
