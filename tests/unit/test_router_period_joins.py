"""Two period mentions joined by a range word or range keys are one range (router/period_bounds.py,
router/period_grammar.py, router/periods.py).

Classes:
- both bounds in a tool's notation: key=value and JSON pairs under any key naming ("from=/to=", "date_from:",
  "start_date"/"end_date", "period.begin"/"period.end", "gte"/"lt"), comparisons on one date column (">= ... AND
  <", "a <= col < b") and the ISO interval ("a/b"): one range, an end key including its day, "<"/"lt" not;
- bounds on two columns, or an end before its start, are no range (left for the readers to ask about);
- month tokens with a two-digit year ("Jul-25", "Mar26", "Oct '25") joined by any range word or sign;
- a period written before an end bound opens the range it closes ("Q3 2025 up to Q1 2026"); an end without a
  year ("till end of Dec", "up to new year", "until the end of the year") falls after the start;
- a start described in words and restated in brackets ("since go-live (i.e. 2025-10-01)") is that start.

Slots vary over keys, separators, quotes, frames, months and years; new phrasings, not the evaluation's.
"""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from router.contract import clean_question
from router.notation import read_notation
from router.period_bounds import read_period_bounds
from router.periods import resolve_period

AS_OF = dt.date(2026, 5, 20)


def _read(question: str, as_of: dt.date = AS_OF) -> tuple[dt.date, dt.date] | None:
    """The period the router reads from ``question`` (start, end exclusive), or ``None`` when it asks."""
    text = clean_question(question)
    text = read_notation(text, ()) or text
    resolved = resolve_period(text, as_of)
    if resolved.ambiguous or resolved.time_range is None:
        return None
    return resolved.time_range.start, resolved.time_range.end


_D = dt.date
_PAIRS = (
    ("2025-11-01", "2026-01-31", _D(2025, 11, 1), _D(2026, 2, 1)),
    ("2026-02-01", "2026-02-28", _D(2026, 2, 1), _D(2026, 3, 1)),
    ("2025-04-15", "2025-06-30", _D(2025, 4, 15), _D(2025, 7, 1)),
)
_KEYS = (("from", "to"), ("date_from", "date_to"), ("start_date", "end_date"), ("period.begin", "period.end"),
         ("invoice_date_from", "invoice_date_until"), ("gte", "lte"), ("min", "max"))
_SEPARATORS = ("{k1}={a} {k2}={b}", "{k1}: {a}, {k2}: {b}", '"{k1}": "{a}", "{k2}": "{b}"', "{k1}={a}&{k2}={b}",
               "{k1}='{a}' | {k2}='{b}'")
_FRAMES = ("spend | comp=Orbis Ltd | {r}", "GET /spend?supplier=Delta&{r}", "count invoices {{{r}}}",
           "{r} -> total spend")


#: Every key naming with a separator of its own, cycling over frames and pairs (a bounded product).
@pytest.mark.parametrize(("keys", "sep", "frame", "pair"), [
    (k, s, f, p) for k, s, f, p in zip(_KEYS, itertools.cycle(_SEPARATORS), itertools.cycle(_FRAMES),
                                       itertools.cycle(_PAIRS), strict=False)]
    + [(_KEYS[i % len(_KEYS)], s, _FRAMES[i % len(_FRAMES)], _PAIRS[i % len(_PAIRS)])
       for i, s in enumerate(_SEPARATORS)])
def test_key_value_bounds_are_one_range(keys: tuple[str, str], sep: str, frame: str,
                                        pair: tuple[str, str, dt.date, dt.date]) -> None:
    a, b, start, end = pair
    question = frame.format(r=sep.format(k1=keys[0], k2=keys[1], a=a, b=b))
    assert _read(question) == (start, end), question


@pytest.mark.parametrize(("bounds", "start", "end"), [
    ("from=2025-10-01 lt=2025-12-01", _D(2025, 10, 1), _D(2025, 12, 1)),
    ("after=2025-09-30 before=2025-12-01", _D(2025, 10, 1), _D(2025, 12, 1)),
    ("from=2025-07 to=2025-09", _D(2025, 7, 1), _D(2025, 10, 1)),
    ("from=01.03.2026 to=30.04.2026", _D(2026, 3, 1), _D(2026, 5, 1)),
])
def test_the_notation_says_which_end_is_included(bounds: str, start: dt.date, end: dt.date) -> None:
    assert _read(f"net spend Company B {bounds}") == (start, end)


# (was also "booking_day": a booking day is the posting date, not the invoice date the period reads; its bounds
# are left as typed now, see test_another_date_columns_bounds_are_no_period below)
@pytest.mark.parametrize("column", ["invoice_date", "date", ""])
@pytest.mark.parametrize(("form", "start", "end"), [
    ("{c} >= 2025-10-01 AND < 2026-01-01", _D(2025, 10, 1), _D(2026, 1, 1)),
    ("{c} >= '2025-10-01' and {c} <= '2025-12-31'", _D(2025, 10, 1), _D(2026, 1, 1)),
    ("{c} > 2025-09-30 && < 2025-12-01", _D(2025, 10, 1), _D(2025, 12, 1)),
    ("2025-10-01 <= {c} < 2026-01-01", _D(2025, 10, 1), _D(2026, 1, 1)),
])
def test_comparisons_on_one_column_are_one_range(column: str, form: str, start: dt.date, end: dt.date) -> None:
    if not column and form.startswith("2025"):
        pytest.skip("a chained comparison names its column")
    question = "sum of spend where " + form.format(c=column).strip()
    assert _read(question) == (start, end), question


def test_bounds_on_two_columns_stay_two_conditions() -> None:
    text = "invoices with invoice_date >= 2025-11-01 and posting_date < 2025-12-01"
    assert read_period_bounds(text) == text


@pytest.mark.parametrize(("text", "start", "end"), [
    ("2026-01-01/2026-03-31", _D(2026, 1, 1), _D(2026, 4, 1)),
    ("2025-07/2025-12", _D(2025, 7, 1), _D(2026, 1, 1)),
    ("2025-10-01 / 2025-10-15", _D(2025, 10, 1), _D(2025, 10, 16)),
])
def test_the_iso_interval_is_one_range(text: str, start: dt.date, end: dt.date) -> None:
    for frame in ("spend | Company C | {r}", "top 3 suppliers {r}"):
        assert _read(frame.format(r=text)) == (start, end)


def test_an_end_before_its_start_is_left_as_typed() -> None:
    assert read_period_bounds("from=2026-03-01 to=2026-01-31") == "from=2026-03-01 to=2026-01-31"


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


_SHAPES = ["{a}-{ya} to {b}-{yb}", "{a}{ya}-{b}{yb}", "{a} '{ya} till {b} '{yb}", "{a}-{ya}..{b}-{yb}",
           "between {a}-{ya} and {b}-{yb}", "{a}-{ya} thru {b}-{yb} incl.", "from {a}-{ya} up to {b}-{yb}"]


@pytest.mark.parametrize(("first", "last", "shape"), [
    (f, la, s) for (f, la), s in zip(itertools.cycle([(6, 2), (1, 5), (9, 11), (11, 3)]), _SHAPES * 2, strict=False)])
def test_month_tokens_with_two_digit_years_join(first: int, last: int, shape: str) -> None:
    start_year = 2025
    end_year = start_year + (last <= first)
    r = shape.format(a=_MONTHS[first - 1], ya=str(start_year)[2:], b=_MONTHS[last - 1], yb=str(end_year)[2:])
    end = dt.date(end_year + (last == 12), last % 12 + 1, 1)
    assert _read(f"biggest vendors of Company A {r}?") == (dt.date(start_year, first, 1), end), r


@pytest.mark.parametrize(("question", "start", "end"), [
    ("spend Q2 2025 up to Q4 2025", _D(2025, 4, 1), _D(2026, 1, 1)),
    ("invoices from 15 Aug 2025 till end of Nov", _D(2025, 8, 15), _D(2025, 12, 1)),
    ("Delta costs from 3 Feb 2025 until the end of the year", _D(2025, 2, 3), _D(2026, 1, 1)),
    ("spend since October 2024 up to new year", _D(2024, 10, 1), _D(2025, 1, 1)),
    ("total from March till year end", _D(2026, 3, 1), _D(2027, 1, 1)),
    ("spend in 2026 up to the end of April", _D(2026, 1, 1), _D(2026, 5, 1)),
])
def test_a_period_before_an_end_bound_opens_the_range(question: str, start: dt.date, end: dt.date) -> None:
    assert _read(question) == (start, end)


def test_an_end_alone_is_still_asked_about() -> None:
    assert _read("spend until year end") is None
    assert _read("how many invoices till the end of May") is None


@pytest.mark.parametrize(("question", "start", "end"), [
    ("spend since go-live (i.e. 2025-10-01)", _D(2025, 10, 1), _D(2026, 5, 21)),
    ("spend since the merger (from Nov 2025) until today", _D(2025, 11, 1), _D(2026, 5, 21)),
    ("costs from the restructuring (Sep-25) till end of Jan 2026", _D(2025, 9, 1), _D(2026, 2, 1)),
    ("spend since the autumn (so from october on) up to new year", _D(2025, 10, 1), _D(2026, 1, 1)),
    ("share of Delta since the ledger begins (Jul-25) to date", _D(2025, 7, 1), _D(2026, 5, 21)),
])
def test_a_described_start_restated_in_brackets_is_that_start(question: str, start: dt.date, end: dt.date) -> None:
    assert _read(question) == (start, end)


@pytest.mark.parametrize(("question", "start", "end"), [
    ("approved vendors for H2 2025 (from Oct.)", _D(2025, 10, 1), _D(2026, 1, 1)),
    ("Ausgaben 2. HJ 2025 (ab November)", _D(2025, 11, 1), _D(2026, 1, 1)),
    ("uitgaven H2 2025 (vanaf oktober)", _D(2025, 10, 1), _D(2026, 1, 1)),
    ("dépenses T4 2025 (à partir de novembre)", _D(2025, 11, 1), _D(2026, 1, 1)),
    ("spend Q1 2026 (starting Feb)", _D(2026, 2, 1), _D(2026, 4, 1)),
])
def test_a_bracket_that_moves_the_start_keeps_the_periods_end(question: str, start: dt.date, end: dt.date) -> None:
    assert _read(question) == (start, end)


def test_a_moved_start_outside_the_period_is_not_read_as_its_part() -> None:
    assert _read("spend Q3 2025 (from Nov 2025)") != (_D(2025, 11, 1), _D(2025, 10, 1))


@pytest.mark.parametrize(("question", "start", "end"), [
    ("in June before holidays, so 1st-20th june 2025: spend", _D(2025, 6, 1), _D(2025, 6, 21)),
    ("spend H1 2025, i.e. Jan-Jun 2025", _D(2025, 1, 1), _D(2025, 7, 1)),
])
def test_a_restatement_said_with_so_is_the_period_meant(question: str, start: dt.date, end: dt.date) -> None:
    assert _read(question) == (start, end)


@pytest.mark.parametrize("call", ["count(credit_notes)", "count(credit notes)", "COUNT(cn)",
                                  "count(distinct credit_note_id)"])
def test_a_count_of_credit_notes_is_theirs(call: str) -> None:
    assert clean_question(f"{call} comp=Company B 2025-Q4").startswith("number of credit notes")


@pytest.mark.parametrize(("frame", "a", "b"), [
    ("Company A: {a} vs {b} spend gap in Q1 2026 (EUR)", "Gamma", "Beta"),
    ("{a} versus {b} gap H2 2025, Company C", "Epsilon", "Gamma"),
    ("Company B - {a} vs. {b} spending gap last year", "Beta", "Epsilon"),
])
def test_a_vs_pair_with_a_gap_word_after_it_is_their_difference(frame: str, a: str, b: str) -> None:
    from tests.unit.test_router_company_compare import _ask

    ask = _ask(frame.format(a=a, b=b))
    assert ask is not None and ask.kind == "difference" and ask.sides == (a, b)
    assert not any("gap" in base for base in ask.bases)


@pytest.mark.parametrize("verb", ["move", "change", "develop", "shift"])
@pytest.mark.parametrize(("a", "b"), [("11/2025", "Feb '26"), ("2025-08", "Sep-2025")])
def test_from_to_after_a_change_verb_stays_two_periods(verb: str, a: str, b: str) -> None:
    from router.period_grammar import read_ranges

    question = f"how did Delta spend {verb} from {a} to {b}?"
    assert read_ranges(question) == question
    assert read_ranges(f"Delta spend from {a} to {b}") != f"Delta spend from {a} to {b}"
    assert read_ranges(f"how did Delta spend {verb} from {a} to {b} per month") != \
        f"how did Delta spend {verb} from {a} to {b} per month"


@pytest.mark.parametrize("said", ["bills sent to Company B two times", "invoices billed to company c twice",
                                  "docs received from Beta Logistics 2x", "invoices charged to us twice"])
def test_an_addressee_between_the_verb_and_twice_is_still_a_duplicate(said: str) -> None:
    from router.duplicates import _DUPLICATE

    assert _DUPLICATE.search(f"were any {said} in H2 2025?")


@pytest.mark.parametrize(("question", "start", "end"), [
    ("avg monthly spend with Delta in FY25 (Jul-Dec, 6 months)", _D(2025, 7, 1), _D(2026, 1, 1)),
    ("spend in 2025 (Oct-Dec; one quarter)", _D(2025, 10, 1), _D(2026, 1, 1)),
])
def test_a_note_after_a_comma_may_close_the_restating_bracket(question: str, start: dt.date, end: dt.date) -> None:
    assert _read(question) == (start, end)


@pytest.mark.parametrize(("bounds", "end"), [
    ("period_start=2025-09-01, period_end=2025-12-01 (exclusive)", _D(2025, 12, 1)),
    ("from=2025-09-01 to=2025-12-01 excl.", _D(2025, 12, 1)),
    ("2025-09-01/2025-12-01 (exclusive)", _D(2025, 12, 1)),
    ("start: 2025-09-01, end: 2025-11-30 (inclusive)", _D(2025, 12, 1)),
])
def test_a_word_after_the_end_says_whether_its_day_is_inside(bounds: str, end: dt.date) -> None:
    assert _read(f"Return spend for company_id=COMP-C, {bounds}, top 3") == (_D(2025, 9, 1), end)


def test_excl_before_another_word_excludes_that_word_not_the_end_day() -> None:
    assert _read("net spend Company A 2025-09-01/2025-11-30 excl. VAT") == (_D(2025, 9, 1), _D(2025, 12, 1))


@pytest.mark.parametrize("text", [
    "spend Company A where due_date >= 2026-01-01 and due_date < 2026-02-01",
    "spend Company A booking_day >= 2026-01-01 AND < 2026-02-01",
    "spend Company A 2026-01-01 <= due_date < 2026-02-01",
    "spend | comp=COMP-A | posting_date_from=2026-01-01 posting_date_to=2026-01-31",
    "spend | comp=COMP-A | due_date_from: 2026-01-01, due_date_to: 2026-01-31",
])
def test_another_date_columns_bounds_are_no_period(text: str) -> None:
    # any "*date" column was read as the invoice-date period: January's spend by invoice date, the column dropped
    assert read_period_bounds(text) == text
    assert _read(text) is None or "due_date" in clean_question(text) or "posting_date" in clean_question(text) \
        or "booking_day" in clean_question(text)


@pytest.mark.parametrize("key", ["invoice_date", "date", "period", "month", "invoice_month"])
def test_the_invoice_dates_own_bound_keys_are_a_range(key: str) -> None:
    text = f"spend | comp=COMP-A | {key}_from=2026-01-01 {key}_to=2026-01-31"
    assert "from 2026-01-01 through 2026-01-31" in read_period_bounds(text)
