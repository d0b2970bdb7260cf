"""Metamorphic tests of the period phrasings: rolling windows, ISO weeks, period lists, compact quarters and halves,
"as of" points, German numbers and German period phrases, generated from slot grammars and checked against date
ranges computed here independently (no database). Seeded and bounded.
"""

from __future__ import annotations

import calendar
import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from router.german import german_number, read_german
from router.periods import resolve_period
from router.reading import parse_amounts

FAST = settings(max_examples=120, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
AS_OFS = st.dates(min_value=dt.date(2023, 1, 1), max_value=dt.date(2028, 12, 31))
_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
          11: "eleven", 12: "twelve"}
_FRAMES = ("Company A spend {p}", "What did Company A spend {p}?", "{P}: Company A spend with Beta",
           "total spend of Company A on Pressure Sensors {p}")


def _months_back(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` earlier, clamped to the month's last day (computed independently of the router)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    return dt.date(year, month + 1, min(day.day, calendar.monthrange(year, month + 1)[1]))


def _range(question: str, as_of: dt.date) -> tuple[dt.date, dt.date] | None:
    resolved = resolve_period(question, as_of)
    assert not resolved.ambiguous, (question, resolved.reason)
    tr = resolved.time_range
    return None if tr is None else (tr.start, tr.end)


def _framed(frame: str, phrase: str) -> str:
    return frame.format(p=phrase, P=phrase[:1].upper() + phrase[1:])


@given(frame=st.sampled_from(_FRAMES), word=st.sampled_from(["last", "past", "previous", "trailing", "rolling",
                                                            "in the last", "over the past", "for the last"]),
       count=st.integers(1, 12), spelled=st.booleans(), unit=st.sampled_from(["days", "weeks", "months", "quarters",
                                                                              "years"]), as_of=AS_OFS)
@FAST
def test_rolling_windows_end_at_the_as_of_date(frame: str, word: str, count: int, spelled: bool, unit: str,
                                               as_of: dt.date) -> None:
    number = _WORDS[count] if spelled and count in _WORDS else str(count)
    name = unit if count > 1 else unit[:-1]
    question = _framed(frame, f"{word} {number} {name}")
    end = as_of + dt.timedelta(days=1)
    months = {"months": 1, "quarters": 3, "years": 12}.get(unit, 0)
    if unit in ("days", "weeks"):
        start = end - dt.timedelta(days=count * (7 if unit == "weeks" else 1))
    elif word == "rolling":
        start = _months_back(end, count * months)
    else:
        # "last 2 quarters", "past 6 months", "trailing 6 months": the whole calendar units before the one holding
        # the as-of date (every evaluation set's policy, as "last quarter" is); day and week windows end at as-of
        first = dt.date(as_of.year, 1 if unit == "years" else (as_of.month - 1) // months * months + 1, 1)
        end, start = first, _months_back(first, count * months)
    assert _range(question, as_of) == (start, end), question


@given(frame=st.sampled_from(_FRAMES), phrase=st.sampled_from(["trailing 12 months", "TTM", "LTM", "L12M",
                                                              "the trailing twelve months", "trailing 12-month"]),
       as_of=AS_OFS)
@FAST
def test_trailing_twelve_months(frame: str, phrase: str, as_of: dt.date) -> None:
    # the twelve complete calendar months before the as-of month (the running month excluded)
    end = as_of.replace(day=1)
    assert _range(_framed(frame, phrase), as_of) == (_months_back(end, 12), end), phrase


@given(frame=st.sampled_from(_FRAMES), which=st.sampled_from(["last", "previous", "this", "current", "past"]),
       as_of=AS_OFS)
@FAST
def test_weeks_are_iso_calendar_weeks(frame: str, which: str, as_of: dt.date) -> None:
    monday = as_of - dt.timedelta(days=as_of.weekday())
    if which in ("last", "previous", "past"):
        monday -= dt.timedelta(days=7)
    got = _range(_framed(frame, f"{which} week"), as_of)
    assert got == (monday, monday + dt.timedelta(days=7))
    assert got[0].isoweekday() == 1


def _quarter(year: int, q: int) -> tuple[dt.date, dt.date]:
    start = dt.date(year, 3 * q - 2, 1)
    return start, (dt.date(year + 1, 1, 1) if q == 4 else dt.date(year, 3 * q + 1, 1))


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2020, 2030), q=st.integers(1, 4),
       form=st.sampled_from(["{q}Q{yy}", "{q}q{yyyy}", "Q{q}'{yy}", "Q{q}’{yy}", "Q{q}/{yy}", "Q{q}-{yy}",
                             "{yyyy}Q{q}", "{yyyy}-Q{q}", "Q{q} {yyyy}", "q{q}/{yyyy}"]), as_of=AS_OFS)
@FAST
def test_compact_quarters(frame: str, year: int, q: int, form: str, as_of: dt.date) -> None:
    phrase = form.format(q=q, yy=f"{year % 100:02d}", yyyy=year)
    assert _range(_framed(frame, f"in {phrase}"), as_of) == _quarter(year, q), phrase


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2020, 2030), h=st.integers(1, 2),
       form=st.sampled_from(["{h}H{yy}", "H{h}'{yy}", "H{h}/{yy}", "H{h} {yyyy}", "{yyyy}-H{h}"]), as_of=AS_OFS)
@FAST
def test_compact_halves(frame: str, year: int, h: int, form: str, as_of: dt.date) -> None:
    phrase = form.format(h=h, yy=f"{year % 100:02d}", yyyy=year)
    start = dt.date(year, 1 if h == 1 else 7, 1)
    end = dt.date(year, 7, 1) if h == 1 else dt.date(year + 1, 1, 1)
    assert _range(_framed(frame, f"in {phrase}"), as_of) == (start, end), phrase


_GLUE = st.sampled_from([" and ", " & ", ", ", " + "])


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2020, 2030), first=st.integers(1, 4),
       length=st.integers(2, 4), glue=_GLUE, full=st.booleans(), as_of=AS_OFS)
@FAST
def test_adjacent_quarter_lists_are_their_union(frame: str, year: int, first: int, length: int, glue: str,
                                                full: bool, as_of: dt.date) -> None:
    parts = [(year + (first - 1 + i) // 4, (first - 1 + i) % 4 + 1) for i in range(length)]
    if full:
        phrase = glue.join(f"Q{q} {y}" for y, q in parts)
    else:
        phrase = glue.join(f"Q{q}" for _, q in parts) + f" {parts[-1][0]}"
    assert _range(_framed(frame, f"in {phrase}"), as_of) == (_quarter(*parts[0])[0], _quarter(*parts[-1])[1]), phrase


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2020, 2030), qs=st.sampled_from([(1, 3), (2, 4), (1, 4)]),
       glue=_GLUE, as_of=AS_OFS)
@FAST
def test_quarter_lists_with_a_gap_are_asked_about(frame: str, year: int, qs: tuple[int, int], glue: str,
                                                  as_of: dt.date) -> None:
    question = _framed(frame, f"in Q{qs[0]}{glue}Q{qs[1]} {year}")
    resolved = resolve_period(question, as_of)
    assert resolved.ambiguous and resolved.time_range is None and "not adjacent" in (resolved.reason or "")


_MONTH_NAMES = [calendar.month_name[m] for m in range(1, 13)]


@given(frame=st.sampled_from(_FRAMES), year=st.integers(2020, 2030), first=st.integers(1, 12),
       length=st.integers(2, 3), glue=_GLUE, short=st.booleans(), as_of=AS_OFS)
@FAST
def test_adjacent_month_lists_are_their_union(frame: str, year: int, first: int, length: int, glue: str,
                                              short: bool, as_of: dt.date) -> None:
    index = [year * 12 + first - 1 + i for i in range(length)]
    names = [_MONTH_NAMES[i % 12][:3] if short else _MONTH_NAMES[i % 12] for i in index]
    question = _framed(frame, f"in {glue.join(names)} {index[-1] // 12}")
    start = dt.date(index[0] // 12, index[0] % 12 + 1, 1)
    end_index = index[-1] + 1
    assert _range(question, as_of) == (start, dt.date(end_index // 12, end_index % 12 + 1, 1)), question


def test_a_list_in_a_comparison_stays_two_periods() -> None:
    resolved = resolve_period("Compare Company A's spend in Q1 and Q2 2026", dt.date(2026, 8, 1))
    assert resolved.ambiguous and len(resolved.mentions) == 2


@given(frame=st.sampled_from(_FRAMES), month=st.integers(1, 12), year=st.integers(2020, 2030),
       words=st.sampled_from(["as of", "as at", "as of the end of", "as of end of"]), as_of=AS_OFS)
@FAST
def test_as_of_a_month_is_a_point_in_time(frame: str, month: int, year: int, words: str, as_of: dt.date) -> None:
    question = _framed(frame, f"{words} {_MONTH_NAMES[month - 1]} {year}")
    resolved = resolve_period(question, as_of)
    assert resolved.point_in_time is not None and resolved.point_in_time.lower().startswith(words.split()[0]), question
    assert resolved.time_range is not None and resolved.time_range.start == dt.date(year, month, 1)


# --- German -------------------------------------------------------------------------------------------------------
_DE_ONES = ["", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
            "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn"]
_DE_TENS = ["", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig"]


def _de_below_1000(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    out = f"{_DE_ONES[hundreds] if hundreds > 1 else ('ein' if hundreds else '')}{'hundert' if hundreds else ''}"
    if rest < 20:
        return out + _DE_ONES[rest]
    tens, ones = divmod(rest, 10)
    return out + (f"{_DE_ONES[ones]}und" if ones else "") + _DE_TENS[tens]


def _de(n: int, spaced: bool) -> str:
    """German number words, written here independently of the router ("zweihundertfünfzigtausend")."""
    thousands, rest = divmod(n, 1000)
    head = (_de_below_1000(thousands) if thousands > 1 else "ein" if thousands else "")
    sep = " " if spaced and thousands else ""
    return f"{head}{sep}{'Tausend' if spaced and thousands else 'tausend' if thousands else ''}{_de_below_1000(rest)}"


@given(n=st.integers(1, 999_999), spaced=st.booleans())
@FAST
def test_german_numbers_in_words(n: int, spaced: bool) -> None:
    words = _de(n, spaced and n % 1000 == 0)
    assert german_number(words) == n, words


@given(n=st.sampled_from([1000, 2500, 5000, 10_000, 20_000, 50_000, 100_000, 250_000]),
       frame=st.sampled_from(["Rechnungen von Company A über {a} im ersten Quartal 2026",
                              "Welche Rechnungen von Company A waren unter {a} im Jahr 2025?"]),
       unit=st.sampled_from(["Euro", "EUR", "€"]), spaced=st.booleans())
@FAST
def test_german_amounts_in_words_read_as_amounts(n: int, frame: str, unit: str, spaced: bool) -> None:
    english = read_german(frame.format(a=f"{_de(n, spaced and n % 1000 == 0)} {unit}"))
    assert english is not None
    amounts = [a for a in parse_amounts(english) if a.comparator]
    assert [a.value for a in amounts] == [Decimal(n)], english


@given(value=st.sampled_from(["1,5", "2", "0,75", "3,25"]), scale=st.sampled_from([("Mio.", 1_000_000),
       ("Mio", 1_000_000), ("Millionen", 1_000_000), ("Tsd.", 1000), ("Tausend", 1000)]),
       unit=st.sampled_from(["Euro", "€", "EUR"]))
@FAST
def test_german_scale_words_after_digits(value: str, scale: tuple[str, int], unit: str) -> None:
    english = read_german(f"Rechnungen von Company A über {value} {scale[0]} {unit} im Jahr 2025")
    assert english is not None
    amounts = [a for a in parse_amounts(english) if a.comparator]
    assert [a.value for a in amounts] == [Decimal(value.replace(",", ".")) * scale[1]], english


_DE_ORD = {1: ["ersten", "1."], 2: ["zweiten", "2."], 3: ["dritten", "3."], 4: ["vierten", "4."]}


@given(q=st.integers(1, 4), ordinal=st.integers(0, 1), year=st.sampled_from([None, 2024, 2025, 2026]),
       prefix=st.sampled_from(["Ausgaben von Company A", "Wie viel haben wir bei Beta ausgegeben,"]), as_of=AS_OFS)
@FAST
def test_german_quarters(q: int, ordinal: int, year: int | None, prefix: str, as_of: dt.date) -> None:
    phrase = f"im {_DE_ORD[q][ordinal]} Quartal" + (f" {year}" if year else "")
    english = read_german(f"{prefix} {phrase}")
    assert english is not None
    expected_year = year or (as_of.year if _quarter(as_of.year, q)[0] <= as_of else as_of.year - 1)
    assert _range(english, as_of) == _quarter(expected_year, q), english


@given(phrase=st.sampled_from(["letztes Quartal", "im letzten Quartal", "im vergangenen Quartal",
                               "im vorigen Quartal"]), as_of=AS_OFS)
@FAST
def test_german_last_quarter(phrase: str, as_of: dt.date) -> None:
    q = (as_of.month - 1) // 3 + 1
    year, q = (as_of.year, q - 1) if q > 1 else (as_of.year - 1, 4)
    english = read_german(f"Ausgaben von Company A {phrase}")
    assert english is not None and _range(english, as_of) == _quarter(year, q), english


@given(count=st.integers(2, 12), spelled=st.booleans(),
       unit=st.sampled_from([("Tagen", "days"), ("Wochen", "weeks"), ("Monaten", "months")]), as_of=AS_OFS)
@FAST
def test_german_rolling_windows(count: int, spelled: bool, unit: tuple[str, str], as_of: dt.date) -> None:
    german_count = _DE_ONES[count] if spelled else str(count)
    english = read_german(f"Ausgaben von Company A in den letzten {german_count} {unit[0]}")
    assert english is not None
    end = as_of + dt.timedelta(days=1)
    if unit[1] == "months":
        # "in den letzten 3 Monaten": the whole calendar months before the current one, as in English
        end = as_of.replace(day=1)
        start = _months_back(end, count)
    else:
        start = end - dt.timedelta(days=count * (7 if unit[1] == "weeks" else 1))
    assert _range(english, as_of) == (start, end), english


def test_german_period_phrases() -> None:
    as_of = dt.date(2026, 5, 15)
    cases = {
        "Ausgaben von Company A im ersten Halbjahr": (dt.date(2026, 1, 1), dt.date(2026, 7, 1)),
        "Ausgaben von Company A erstes Halbjahr 2025": (dt.date(2025, 1, 1), dt.date(2025, 7, 1)),
        "Ausgaben von Company A seit März": (dt.date(2026, 3, 1), dt.date(2026, 5, 16)),
        "Ausgaben von Company A im Jahr 2026 bis Ende März": (dt.date(2026, 1, 1), dt.date(2026, 4, 1)),
        "Ausgaben von Company A im Vorjahr": (dt.date(2025, 1, 1), dt.date(2026, 1, 1)),
        "Ausgaben von Company A letzten Monat": (dt.date(2026, 4, 1), dt.date(2026, 5, 1)),
        "Ausgaben von Company A Q1 und Q2 2026": (dt.date(2026, 1, 1), dt.date(2026, 7, 1)),
        "Ausgaben von Company A im Januar und Februar 2026": (dt.date(2026, 1, 1), dt.date(2026, 3, 1)),
        "Ausgaben von Company A letzte Woche": (dt.date(2026, 5, 4), dt.date(2026, 5, 11)),
    }
    for german, expected in cases.items():
        english = read_german(german)
        assert english is not None and _range(english, as_of) == expected, (german, english)
    assert "last 3 months" not in (read_german("Ausgaben von Company A bis Ende März") or "")
    comparison = read_german("Wie haben sich die Ausgaben im ersten Quartal 2026 gegenüber dem Vorjahr verändert?")
    assert comparison is not None and "compared with last year" in comparison and "change" in comparison


@pytest.mark.parametrize("text", ["Which invoices of Company A were less than 2000 EUR in Q1 2026?",
                                  "invoices from 2000 to 5000 EUR in Q1 2026", "invoices above 2025 € in Q1 2026",
                                  "Company A invoices more than 2024 euros in Q1 2026"])
def test_a_year_shaped_amount_is_no_second_period(text: str) -> None:
    # "less than 2000 EUR" was read as the year 2000 beside Q1 2026: a comparison of periods was asked about
    found = resolve_period(text, dt.date(2026, 5, 15))
    assert not found.ambiguous and found.time_range is not None and found.time_range.label == "2026-Q1", found
