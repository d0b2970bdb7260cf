"""Spoken forms (router/spoken.py, router/sound_alike.py): a seeded slot grammar speaks every period, amount and
id form as a speech-to-text transcript writes it; the rewriting must give the digit form's reading."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from router.periods import resolve_period
from router.reading import parse_amounts
from router.sound_alike import skeleton, sound_alike, sounded_names
from router.spoken import cardinal, read_spoken, spoken_forms

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_ORD = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
        "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth")
AS_OF = dt.date(2026, 5, 20)


def say(n: int, rng: random.Random) -> str:
    """``n`` (0 <= n < 10**9) in English words, as a transcript writes it."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else rng.choice((" ", "-")) + _ONES[n % 10])
    if n < 1000:
        rest = n % 100
        return f"{_ONES[n // 100]} hundred" + ("" if not rest else rng.choice((" ", " and ")) + say(rest, rng))
    for scale, word in ((1_000_000, "million"), (1000, "thousand")):
        if n >= scale:
            rest = n % scale
            return f"{say(n // scale, rng)} {word}" + ("" if not rest else " " + say(rest, rng))
    raise AssertionError(n)


def say_year(year: int, rng: random.Random) -> str:
    low = year % 100
    if low < 10:
        return f"two thousand {_ONES[low]}" if low else "two thousand"
    return rng.choice((f"twenty {say(low, rng)}", f"two thousand {say(low, rng)}"))


def say_day(day: int) -> str:
    if day < 20:
        return _ORD[day - 1]
    tens = "twenty" if day < 30 else "thirty"
    return f"{tens} {_ORD[day % 10 - 1]}" if day % 10 else ("twentieth" if day == 20 else "thirtieth")


def say_digits(digits: str) -> str:
    return " ".join(_ONES[int(d)] for d in digits)


def test_cardinals_round_trip() -> None:
    rng = random.Random(26)
    for _ in range(300):
        n = rng.choice((rng.randrange(1, 100), rng.randrange(100, 100_000), rng.randrange(100_000, 10**9)))
        assert cardinal(say(n, rng)) == n


def test_periods_read_as_their_digit_form() -> None:
    """Every spoken period form resolves to the period its digit form resolves to."""
    rng = random.Random(27)
    for _ in range(150):
        year = rng.randrange(2015, 2031)
        q, h = rng.randrange(1, 5), rng.randrange(1, 3)
        month = rng.randrange(1, 13)
        day = rng.randrange(1, 29)
        cases = [
            (f"{rng.choice(('q', 'cue', 'quarter'))} {_ONES[q]} {say_year(year, rng)}", f"Q{q} {year}"),
            (f"h {_ONES[h]} f y {say(year % 100, rng) if year % 100 >= 10 else say_year(year, rng)}",
             f"H{h} FY{year}"),
            (f"f y {say_year(year, rng)}", f"FY{year}"),
            (f"in {say_year(year, rng)}", f"in {year}"),
            (f"between {_MONTHS[month - 1]} {say_day(day)} and december thirty first {say_year(year, rng)}",
             f"between {_MONTHS[month - 1]} {day} and december 31 {year}"),
            (f"the last {say(day + 1, rng)} days", f"the last {day + 1} days"),
        ]
        for spoken, written in cases:
            read = resolve_period(spoken_forms(spoken), AS_OF)
            expected = resolve_period(written, AS_OF)
            assert expected.time_range is not None, written
            assert read.time_range is not None and (read.time_range.start, read.time_range.end) == (
                expected.time_range.start, expected.time_range.end), (spoken, spoken_forms(spoken))


def test_amounts_read_as_their_digit_form() -> None:
    rng = random.Random(28)
    for _ in range(150):
        n = rng.choice((rng.randrange(1, 1000) * 100, rng.randrange(1000, 2_000_000)))
        currency = rng.choice(("euros", "dollars", "eur"))
        spoken = f"invoices over {say(n, rng)} {currency}"
        amounts = parse_amounts(spoken_forms(spoken))
        assert [a.value for a in amounts] == [a.value for a in parse_amounts(f"invoices over {n} {currency}")]


def test_ids_spoken_digit_by_digit() -> None:
    rng = random.Random(29)
    for _ in range(100):
        year, number = rng.randrange(2020, 2030), f"{rng.randrange(0, 10000):04d}"
        y = say_year(year, rng)
        assert spoken_forms(f"find invoice inv {y} {say_digits(number)}") == f"find invoice INV-{year}-{number}"
        assert spoken_forms(f"credit note c n {y} {say_digits(number)}") == f"credit note CN-{year}-{number}"
        month = f"{rng.randrange(1, 13):02d}"
        assert spoken_forms(f"pull up agreement {y} {say_digits(month)}") == f"pull up agreement {year}-{month}"
        code = f"{rng.randrange(100, 1000)}"
        said = rng.choice((say_digits(code), say(int(code), rng)))
        assert spoken_forms(f"the manual for prd {said}") == f"the manual for PRD-{code}"


def test_model_codes_of_the_catalogue() -> None:
    codes = ("Flow sensor FS-50", "Monitoring controller MC-4", "PT100 temperature probe",
             "Thermal mass flow meter TMF-2")
    assert spoken_forms("the flow sensor f s fifty", codes) == "the flow sensor FS-50"
    assert spoken_forms("the controller mc four in q one", codes) == "the controller MC-4 in Q1"
    assert spoken_forms("pt one hundred probes", codes) == "PT100 probes"
    assert spoken_forms("mc nine", codes) == "mc nine"  # no such code: as said


@pytest.mark.parametrize("question", [
    "which one of our suppliers is the biggest one",
    "a second look at the first half of 2025",
    "Company A spend in Q1 2026",
    "one invoice from Beta, two from Gamma",
    "a thousand thanks",
    "the first quarter of 2026",
    "may we see the spend",
])
def test_unspoken_questions_stay_as_written(question: str) -> None:
    assert read_spoken(question) is None


def test_split_names_joined() -> None:
    names = ("Kestrel Lebensmittel", "Gamma Kältetechnik", "Helix Reagents")
    said = "kestrel lebens mittel spend with gamma kälte technik and helix re agents"
    assert spoken_forms(said, names=names) == "Kestrel Lebensmittel spend with Gamma Kältetechnik and Helix Reagents"


def test_sound_alike_names() -> None:
    names = [("company", "COMP-A", "Alpenland Logistik AG"), ("company", "COMP-K", "Kestrel Lebensmittel GmbH"),
             ("supplier", "SUP-1", "Supplier Beta"), ("supplier", "SUP-2", "Northwind Trading")]
    assert skeleton("alpine land logistic") == skeleton("Alpenland Logistik")
    assert [m[1] for m in sound_alike("alpine land logistic", names)] == ["COMP-A"]
    assert sounded_names("spend of alpine land logistic in Q1", names) == "spend of Alpenland Logistik AG in Q1"
    # made-up names and common words sound like no name of the tenant
    for said in ("acme corp", "omega tech", "sigma supplies", "approved vendors", "monitoring products",
                 "last quarter", "credit notes"):
        assert sound_alike(said, names) == []
        assert sounded_names(f"spend with {said}", names) == f"spend with {said}"
    # a letter of a period or an abbreviation beside a name is no syllable of it
    gamma = [("supplier", "SUP-9", "Gamma Labortechnik GmbH")]
    assert sounded_names("xenon spend w/ gamma labortechnik q1 26", gamma) == "xenon spend w/ gamma labortechnik q1 26"
    delta = [("supplier", "SUP-31", "Delta Enclosures Ltd")]
    assert sounded_names("how much did delta enclosures credit", delta) == "how much did delta enclosures credit"
    # two names of one sound are both offered (the question asks which)
    twins = [*names, ("supplier", "SUP-3", "Alpin Land Logistik")]
    assert {m[1] for m in sound_alike("alpine land logistic", twins)} == {"COMP-A", "SUP-3"}
    assert sounded_names("alpine land logistic spend", twins) == "alpine land logistic spend"


@pytest.mark.parametrize(("said", "values"), [
    ("over one point five million euros", ["1500000.0"]),
    ("between one thousand and five thousand euros", ["1000", "5000"]),
    ("over two hundred and fifty thousand dollars", ["250000"]),
    ("above twenty five k", ["25000"]),
])
def test_decimal_and_paired_amounts(said: str, values: list[str]) -> None:
    """"point" is a decimal (never "five million"), and two amounts joined by "and" stay two (never their sum)."""
    assert [str(a.value) for a in parse_amounts(spoken_forms(said))] == values


def _plan(question: str, gazetteer: object) -> list[object]:
    from router.routing import RouterInputs, route
    from tests.unit.test_router_analysis import CTX, METRICS
    inputs = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=gazetteer, metrics=METRICS)  # type: ignore[arg-type]
    result = route(question, inputs)
    assert not result.requires_clarification, (question, result.clarification_question)
    return [(s.tool, s.arguments) for s in result.execution_plan]


def test_spoken_questions_plan_the_digit_forms_governed_calls() -> None:
    """The whole router: a spoken question plans the same governed calls as its typed twin (seeded slots)."""
    from router.entities import Company, Gazetteer
    from tests.unit.test_router_analysis import GROUPS, SUPPLIERS
    companies = [Company("COMP-A", "Company A", "EUR"), Company("COMP-K", "Kestrel Lebensmittel GmbH", "EUR")]
    gazetteer = Gazetteer.build(companies, [(sid, name) for sid, (name, _) in SUPPLIERS.items()],
                                [(a, sid) for sid, (_, aliases) in SUPPLIERS.items() for a in aliases], GROUPS)
    rng = random.Random(30)
    for _ in range(4):  # bounded: every route is a full reading
        year, q = rng.randrange(2024, 2027), rng.randrange(1, 5)
        amount = rng.randrange(2, 60) * 500
        company, said_company = rng.choice((("Company A", "company a"),
                                            ("Kestrel Lebensmittel GmbH", "kestrel lebens mittel")))
        cases = [
            (f"how much did {said_company} spend in q {_ONES[q]} {say_year(year, rng)}",
             f"how much did {company} spend in Q{q} {year}"),
            (f"how many invoices over {say(amount, rng)} euros did {said_company} have in {say_year(year, rng)}",
             f"how many invoices over {amount} euros did {company} have in {year}"),
        ]
        for spoken, typed in cases:
            assert _plan(spoken, gazetteer) == _plan(typed, gazetteer), spoken


def test_joined_names_keep_the_punctuation_between_names() -> None:
    names = ("Data Loggers", "Sensors", "Kestrel Lebensmittel")
    assert read_spoken("which data loggers / sensors does Gamma supply", names=names) is None
    assert spoken_forms("kestrel lebens-mittel, data loggers", names=names) == "Kestrel Lebensmittel, data loggers"
