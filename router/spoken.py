"""Questions dictated to a voice assistant, read as the digits a typed question would carry.

A speech-to-text transcript spells every number out and drops the punctuation: "q one twenty twenty six",
"f y twenty five", "march thirty first", "the last thirty days", "over thirteen thousand five hundred euros",
"inv twenty twenty six zero nine nine nine", "prd five one zero", "pt one hundred". This module rewrites those
spoken forms into the written ones ("Q1 2026", "FY25", "March 31", "the last 30 days", "over 13500 euros",
"INV-2026-0999", "PRD-510", "PT100") before the question is read, so every downstream reader (periods, amounts,
identifiers, products) sees what it already knows. Words are split or merged by the transcript too ("kestrel
lebens mittel", "north wind"): a run of words whose letters spell a tenant's name with other spacing is written
as the name.

Only number words in a slot are rewritten: a year after "in" needs its "twenty" pair, a day needs its month, an
amount needs a scale word or a currency, a count needs its time unit, a code needs its letters. "one of our
suppliers", "a second look", "the first half", "a thousand thanks" stay as said. The rewriting is stated in the
answer's interpretation (like the German rewriting), so the user can see how the transcript was read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

_UNITS = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
          "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_DIGITS = {"zero": "0", "oh": "0", "o": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
           "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
             "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
             "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
             "twentieth": 20, "thirtieth": 30}

_UNIT_W = "|".join(sorted((u for u in _UNITS if u != "oh"), key=len, reverse=True))
_TEN_W = "|".join(_TENS)
_SCALE_W = "|".join(_SCALES)
_DIGIT_W = "zero|oh|one|two|three|four|five|six|seven|eight|nine"
_ORD_W = "|".join(sorted(_ORDINALS, key=len, reverse=True))
#: One to ninety-nine in words ("five", "twenty five", "twenty-five").
_SMALL = rf"(?:(?:{_TEN_W})(?:[\s-]+(?:{_UNIT_W}))?|(?:{_UNIT_W}))"
#: A cardinal in words, with its scales ("thirteen thousand five hundred", "one hundred and twenty").
_CARDINAL = rf"(?:{_SMALL}(?:\s+(?:and\s+)?(?:{_SCALE_W}|{_SMALL}))*)"
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")


def cardinal(words: str) -> int | None:
    """The integer a phrase of number words says, or ``None`` when it is not one.

    >>> cardinal("thirteen thousand five hundred"), cardinal("twenty-five"), cardinal("one hundred and ten")
    (13500, 25, 110)
    >>> cardinal("twenty five twenty") is None, cardinal("of") is None
    (True, True)
    """
    tokens = [t for t in re.split(r"[\s-]+", words.lower().strip()) if t and t != "and"]
    if not tokens:
        return None
    total, current, last = 0, 0, ""  # last: "unit", "ten", "hundred", "scale" (what the previous word was)
    for token in tokens:
        if token in _UNITS and token != "oh":
            if last in ("unit",) or (last == "ten" and (current % 10 or _UNITS[token] >= 10)):
                return None  # "five four", "twenty twelve": digits said one by one, not one cardinal
            current += _UNITS[token]
            last = "unit"
        elif token in _TENS:
            if last in ("unit", "ten") or current % 100:
                return None
            current += _TENS[token]
            last = "ten"
        elif token == "hundred":
            if last == "hundred" or current >= 100:
                return None
            current = (current or 1) * 100
            last = "hundred"
        elif token in _SCALES:
            if not (current or total) or last == "scale" or (total and _SCALES[token] >= _lowest_scale(total)):
                return None  # "one thousand and five thousand": two numbers, not 6000
            total += (current or 1) * _SCALES[token]
            current, last = 0, "scale"
        else:
            return None
    return total + current


def _lowest_scale(total: int) -> int:
    """The smallest scale already said in ``total`` (a later scale must be smaller: "two million five thousand")."""
    return min((v for v in _SCALES.values() if v > 100 and total % v == 0 and total // v % 1000), default=1)


def digit_string(words: str) -> str | None:
    """Digits said one by one ("zero nine nine nine" is "0999"), or ``None``.

    >>> digit_string("zero nine nine nine"), digit_string("five one zero"), digit_string("five ten")
    ('0999', '510', None)
    """
    tokens = words.lower().split()
    if not tokens or any(t not in _DIGITS for t in tokens):
        return None
    return "".join(_DIGITS[t] for t in tokens)


def number(words: str) -> str | None:
    """The digits of a spoken number: said digit by digit or as a cardinal ("five one zero", "fifty")."""
    said = digit_string(words)
    if said is not None and len(words.split()) > 1:
        return said
    value = cardinal(words)
    return str(value) if value is not None else said


def _year(words: str) -> int | None:
    """A year said as "twenty twenty five", "twenty oh nine", "two thousand (and) twenty five"."""
    tokens = [t for t in re.split(r"[\s-]+", words.lower()) if t and t != "and"]
    if len(tokens) >= 2 and tokens[0] == "twenty":
        rest = " ".join(tokens[1:])
        if tokens[1] == "oh" and len(tokens) == 3 and tokens[2] in _UNITS and _UNITS[tokens[2]] < 10:
            return 2000 + _UNITS[tokens[2]]
        low = cardinal(rest)
        return 2000 + low if low is not None and 10 <= low <= 99 else None
    if len(tokens) >= 2 and tokens[:2] == ["two", "thousand"]:
        low = cardinal(" ".join(tokens[2:])) if len(tokens) > 2 else 0
        return 2000 + low if low is not None and 0 <= low <= 99 else None
    return None


# --- the slots ------------------------------------------------------------------------------------------------
_I = re.I
#: What makes "twenty twenty five" no year: a scale or a currency after it ("twenty twenty five thousand euros").
_NOT_YEAR_AFTER = re.compile(rf"[\s-]+(?:{_SCALE_W}|euros?|dollars?|francs?|pounds?|eur|usd|chf|gbp|bucks|k)\b", _I)
#: "twenty twenty five", "twenty oh nine", "two thousand and twenty five" (never "twenty thousand", an amount).
_YEAR = re.compile(
    rf"(?<![\w-])(twenty[\s-]+(?:oh\s+(?:{_UNIT_W})|{_SMALL})"
    rf"|two\s+thousand(?:\s+and)?(?:\s+{_SMALL})?)(?![\w-])", _I)
#: "q one", "cue four", "quarter two" (a quarter's number).
_QUARTER = re.compile(r"\b(?:(?:q|cue|queue|kyu|quarter)\s*-?\s*(one|two|three|four)|(?:cue|queue|kyu)\s*([1-4]))\b"
                      r"(?!\s+(?:of|or)\b)", _I)
#: "q for twenty twenty five", "q to 2026": a transcript writes a quarter's number as the word it sounds like;
#: read as the number only where a year follows, so "q for the team" stays as said.
_QUARTER_HOMOPHONE = re.compile(r"\b(?:q|cue|queue|kyu)\s+(for|fore|to|too|won)\b(?=\s+(?:20\d\d\b|twenty\b|two\s+"
                                r"thousand\b|(?:this|last|next|previous)\s+year\b))", _I)
_HOMOPHONES = {"for": "four", "fore": "four", "to": "two", "too": "two", "won": "one"}
#: "Q4 twenty five", "H2 twenty six": a quarter or half with its year said as two digits, 2021 to 2029 (written
#: "Q4 2025", so the comparison readers see the year too); not an amount ("Q4 twenty five thousand").
_PART_SHORT_YEAR = re.compile(r"\b([QH][1-4])\s+twenty[\s-]+(one|two|three|four|five|six|seven|eight|nine)"
                              r"(?![\w-])(?![\s-]+(?:one|two|three|four|five|six|seven|eight|nine|percent|per\s+cent|%|thousand|hundred|million|k|euros?|"
                              r"eur|dollars?|usd|chf|francs?|pounds?|gbp|days?|weeks?|months?|invoices?|suppliers?|"
                              r"items?|lines?)\b)", _I)
#: "h two", "h one" (a half-year).
_HALF = re.compile(r"\b(?:h|aitch)\s+(one|two|[12])\b", _I)
#: "f y twenty five", "fy twenty five", "f y 2025" (a fiscal year).
_FISCAL = re.compile(rf"\bf\s?y\s*({_SMALL}|two\s+thousand(?:\s+and)?(?:\s+{_SMALL})?)(?![\w-])"
                     rf"|\bf\s+y\s*(\d{{2}}(?:\d{{2}})?)\b", _I)
#: "march thirty first", "january first", "the first of march", "march the fifth".
_DAY_WORDS = rf"(?:(?:twenty|thirty)[\s-]+(?:{_ORD_W})|{_ORD_W}|twentieth|thirtieth)"
_MONTH_DAY = re.compile(rf"\b({_MONTHS})\s+(?:the\s+)?({_DAY_WORDS}|(?<!may\s)(?:thirty[\s-]+one|{_SMALL}))"
                        rf"(?![\w-])(?!\s+(?:{_SCALE_W}|days?|weeks?|months?|quarters?|years?)\b)", _I)
_DAY_MONTH = re.compile(rf"\b(?:the\s+)?({_DAY_WORDS})\s+of\s+({_MONTHS})\b", _I)
#: "the last thirty days", "two quarters", "twelve months" (a count of time units).
_SPAN = re.compile(rf"(?<![\w-])({_CARDINAL})(?=\s+(?:full\s+|calendar\s+|whole\s+)?(?:days|weeks|months|quarters|"
                   rf"years|business days|working days)\b)", _I)
#: "ten thousand euros", "thirteen thousand five hundred", "five hundred dollars" (an amount).
_AMOUNT = re.compile(rf"(?<![\w-])({_CARDINAL})(?![\w-])", _I)
_CURRENCY_AFTER = re.compile(r"\s+(?:euros?|dollars?|us dollars?|francs?|swiss francs?|pounds?|eur|usd|chf|gbp|"
                             r"bucks|k)\b", _I)
#: "first quarter this year", "h two last year": speech drops the "of" the period reader reads a part of a year by.
_PART_OF_YEAR = re.compile(r"\b((?:first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:quarter|half)|Q[1-4]|H[12])\s+"
                           r"(this|last|next|previous)\s+year\b", _I)
#: "top three", "bottom five", "the two biggest" (a ranking's length).
_TOP = re.compile(rf"\b(top|bottom|largest|biggest|smallest|highest|lowest)\s+(?!one\b)({_SMALL})\b"
                  rf"(?!\s+(?:of|percent)\b)", _I)
#: Document ids said word by word: "inv twenty twenty six zero nine nine nine", "c n 2026 zero zero zero seven",
#: "agreement twenty twenty six zero four", "prd five one zero" (the years already in digits when they run).
_FOUR = rf"((?:{_DIGIT_W})(?:\s+(?:{_DIGIT_W})){{3}})(?![\w-])(?!\s+(?:{_DIGIT_W})\b)"
_INVOICE_ID = re.compile(rf"\b(?:inv|i\s+n\s+v)\s+(20\d\d)\s+{_FOUR}", _I)
_CREDIT_ID = re.compile(rf"\b(?:c\s?n)\s+(20\d\d)\s+{_FOUR}", _I)
_AGREEMENT_ID = re.compile(rf"\b(agreements?|contracts?)\s+(20\d\d)\s+((?:{_DIGIT_W})\s+(?:{_DIGIT_W})|{_SMALL})"
                           rf"(?![\w-])", _I)
_PRODUCT_ID = re.compile(rf"\b(?:prd|p\s+r\s+d)\s+((?:(?:{_DIGIT_W})\s+){{2}}(?:{_DIGIT_W})|{_CARDINAL})"
                         rf"(?![\w-])", _I)
#: A model code said letter by letter with its number: "pt one hundred", "mc four", "f s fifty".
_MODEL_CODE = re.compile(rf"\b((?:[a-z]\s){{1,3}}[a-z]|[a-z]{{2,4}})\s+((?:(?:{_DIGIT_W})\s+)+(?:{_DIGIT_W})|"
                         rf"{_CARDINAL})(?![\w-])", _I)


def _years(text: str) -> str:
    def sub(match: re.Match[str]) -> str:
        before = text[:match.start()].split()
        if before and (before[-1].lower() in _UNITS or before[-1].lower() in _TENS):
            return match.group(0)  # "five twenty twenty": digits or a longer number, no year
        if _NOT_YEAR_AFTER.match(text, match.end()):
            return match.group(0)
        year = _year(match.group(1))
        return str(year) if year is not None else match.group(0)
    return _YEAR.sub(sub, text)


def _small(words: str) -> str:
    value = cardinal(words) if not words.isdigit() else int(words)
    return str(value) if value is not None else words


def _fiscal(words: str) -> str:
    year = _year(words) if words.lower().startswith("two") else None
    return str(year) if year is not None else _small(words)


def _day(words: str) -> int | None:
    tokens = re.split(r"[\s-]+", words.lower())
    if tokens[-1] in _ORDINALS:
        value = _ORDINALS[tokens[-1]] + sum(_TENS.get(t, 0) for t in tokens[:-1])
    else:
        value = cardinal(words) or 0
    return value if 1 <= value <= 31 else None


def _dates(text: str) -> str:
    def month_day(match: re.Match[str]) -> str:
        day = _day(match.group(2))
        return f"{match.group(1)} {day}" if day is not None else match.group(0)

    def day_month(match: re.Match[str]) -> str:
        day = _day(match.group(1))
        return f"{day} {match.group(2)}" if day is not None else match.group(0)
    return _DAY_MONTH.sub(day_month, _MONTH_DAY.sub(month_day, text))


#: "one point five million": a decimal said with "point" (before the cardinals, which would read "five million").
_POINT = re.compile(rf"(?<![\w-])({_CARDINAL}|zero)\s+point\s+((?:{_DIGIT_W})(?:\s+(?:{_DIGIT_W}))*)(?![\w-])", _I)


def _points(text: str) -> str:
    def sub(match: re.Match[str]) -> str:
        whole = cardinal(match.group(1)) if match.group(1).lower() != "zero" else 0
        decimals = digit_string(match.group(2))
        return f"{whole}.{decimals}" if whole is not None and decimals else match.group(0)
    return _POINT.sub(sub, text)


#: "between one and two thousand", "from twenty to thirty thousand euros": a bare small number joined to a scaled
#: one; spoken English lets the first borrow the second's scale (1000 to 2000, not 1 to 2000).
_SHARED_SCALE = re.compile(rf"(?<![\w-])({_SMALL})(\s+(?:and|to)\s+)(?=(({_SMALL})((?:\s+(?:{_SCALE_W}))+)"
                           rf"(?:\s+(?:and\s+)?(?:{_SCALE_W}|{_SMALL}))*)(?![\w-]))", _I)
_NUMBER_WORDS = frozenset([*_UNITS, *_TENS, *_SCALES, "and", "point"])


def _shared_scales(text: str) -> str:
    """``text`` with a bare small number before "and"/"to" and a scaled number written with that scale.

    >>> _shared_scales("between one and two thousand euros"), _shared_scales("from twenty to thirty thousand")
    ('between 1000 and two thousand euros', 'from 20000 to thirty thousand')
    >>> _shared_scales("between five hundred and two thousand"), _shared_scales("between five and two thousand")
    ('between five hundred and two thousand', 'between five and two thousand')
    """
    def sub(match: re.Match[str]) -> str:
        before = text[:match.start()].split()
        if before and before[-1].lower() in _NUMBER_WORDS:
            return match.group(0)  # "five hundred and two thousand": the first number carries its own scale
        low, lead, right = cardinal(match.group(1)), cardinal(match.group(4)), cardinal(match.group(3))
        scale = 1
        for word in match.group(5).split():
            scale *= _SCALES[word.lower()]
        if low is None or lead is None or right is None or low * scale > right:
            return match.group(0)  # "between five and two thousand" (5000 > 2000): the numbers as said
        return f"{low * scale}{match.group(2)}"
    return _SHARED_SCALE.sub(sub, text)


def _amounts(text: str) -> str:
    text = _shared_scales(text)

    def sub(match: re.Match[str]) -> str:
        words = match.group(1)
        ranged = _between(words, text, match) if _BETWEEN_BEFORE.search(text, 0, match.start()) else None
        if ranged is not None:
            return ranged
        if cardinal(words) is None and re.search(r"\s+and\s+", words):
            # "between one thousand and five thousand euros": two amounts joined by "and"
            parts = re.split(r"(\s+and\s+)", words)
            return "".join(_amount(p, text, match.end()) if i % 2 == 0 else p for i, p in enumerate(parts))
        return _amount(words, text, match.end())
    return _AMOUNT.sub(sub, _points(text))


#: "between" just before a run of number words: the run holds the range's "and" unless another follows it.
_BETWEEN_BEFORE = re.compile(r"\bbetween\s+$", _I)
_AND_NUMBER_AFTER = re.compile(rf"\s+and\s+(?:\d|(?:{_UNIT_W}|{_TEN_W})\b)", _I)


def _between(words: str, text: str, match: re.Match[str]) -> str | None:
    """"between five hundred and two thousand": the two ends of the range (not 502000), or ``None``.

    After "between" one run of number words with an "and" in it and none after it holds both ends: split at the last
    "and" that leaves two numbers rising ("two hundred and fifty and three thousand" is 250 and 3000).
    """
    if _AND_NUMBER_AFTER.match(text, match.end()):
        return None  # "between one hundred and twenty and 2000": the range's "and" comes later
    parts = re.split(r"(\s+and\s+)", words)
    for cut in range(len(parts) - 2, 0, -2):
        low, high = "".join(parts[:cut]), "".join(parts[cut + 1:])
        low_value, high_value = cardinal(low), cardinal(high)
        if low_value is not None and high_value is not None and low_value < high_value:
            return (f"{_amount(low, text, match.end())}{parts[cut]}"
                    f"{_amount(high, text, match.end())}")
    return None


def _amount(words: str, text: str, end: int) -> str:
    """``words`` as digits when they are an amount (a scale word in them, or a currency after ``end``)."""
    value = cardinal(words)
    scaled = any(s in words.lower().split() for s in _SCALES)
    priced = _CURRENCY_AFTER.match(text, end) is not None
    # a bare small number word ("one of", "two suppliers") is no amount: only a scale or a currency makes it one
    return str(value) if value is not None and (scaled or priced) else words


#: The same ids with their year still in words: the year is as long as the id's fixed-length number leaves it
#: ("inv twenty twenty one six nine nine" is INV-2020-1699: the number has four digits).
_YEAR_WORDS = rf"(?:(?:twenty|two|thousand|and|oh|{_UNIT_W}|{_TEN_W})[\s-]+){{1,5}}?"
_INVOICE_ID_SAID = re.compile(rf"\b(inv|i\s+n\s+v|c\s?n)\s+({_YEAR_WORDS}){_FOUR}", _I)
_AGREEMENT_ID_SAID = re.compile(rf"\b(agreements?|contracts?)\s+({_YEAR_WORDS})((?:{_DIGIT_W})\s+(?:{_DIGIT_W}))"
                                rf"(?![\w-])(?!\s+(?:{_DIGIT_W})\b)", _I)


def _said_ids(text: str) -> str:
    def invoice(match: re.Match[str]) -> str:
        year = _year(match.group(2))
        prefix = "CN" if match.group(1).lower().startswith("c") else "INV"
        return f"{prefix}-{year}-{digit_string(match.group(3))}" if year else match.group(0)

    def agreement(match: re.Match[str]) -> str:
        year = _year(match.group(2))
        return f"{match.group(1)} {year}-{digit_string(match.group(3))}" if year else match.group(0)
    return _AGREEMENT_ID_SAID.sub(agreement, _INVOICE_ID_SAID.sub(invoice, text))


def _ids(text: str) -> str:
    text = _INVOICE_ID.sub(lambda m: f"INV-{m.group(1)}-{digit_string(m.group(2))}", text)
    text = _CREDIT_ID.sub(lambda m: f"CN-{m.group(1)}-{digit_string(m.group(2))}", text)

    def agreement(match: re.Match[str]) -> str:
        said = number(match.group(3))
        return f"{match.group(1)} {match.group(2)}-{int(said):02d}" if said and int(said) <= 99 else match.group(0)

    def product(match: re.Match[str]) -> str:
        said = number(match.group(1))
        return f"PRD-{said}" if said and len(said) == 3 else match.group(0)
    return _PRODUCT_ID.sub(product, _AGREEMENT_ID.sub(agreement, text))


def _compact(text: str) -> str:
    return re.sub(r"[\s\-_./]+", "", text.casefold())


def _model_codes(text: str, codes: Sequence[str]) -> str:
    known: dict[str, str] = {}
    for code in codes:
        for token in re.findall(r"\b[A-Za-z]{1,4}-?\d{1,4}\b", code):
            known.setdefault(_compact(token), token)
    if not known:
        return text

    def sub(match: re.Match[str]) -> str:
        said = number(match.group(2))
        key = _compact(match.group(1)) + (said or "")
        return known[key] if said and key in known else match.group(0)
    return _MODEL_CODE.sub(sub, text)


def _joined_names(text: str, names: Sequence[str]) -> str:
    """Words the transcript split or merged, written as the tenant's name they spell ("lebens mittel")."""
    spellings: dict[str, set[str]] = {}
    for name in names:
        if len(_compact(name)) >= 5:
            spellings.setdefault(_compact(name), set()).add(name)
    # two names written with the same letters ("Northwind", "North Wind") are left as said: the reader asks which
    by_compact = {k: next(iter(v)) for k, v in spellings.items() if len({n.casefold() for n in v}) == 1}
    if not by_compact:
        return text
    # words of letters and digits, joined by spaces only: "data loggers / sensors" keeps its slash
    words = list(re.finditer(r"\w[\w&'’.-]*", text))
    out: list[str] = []
    position, i = 0, 0
    while i < len(words):
        hit: tuple[int, str] | None = None
        for j in range(min(len(words), i + 6), i + 1, -1):  # longest first; one word is never rewritten
            span = text[words[i].start():words[j - 1].end()]
            if any(text[words[k].end():words[k + 1].start()].strip() for k in range(i, j - 1)):
                continue
            found = by_compact.get(_compact(span))
            if found is not None and span.casefold() != found.casefold():
                hit = (j, found)
                break
        if hit is None:
            i += 1
            continue
        out.append(text[position:words[i].start()])
        out.append(hit[1])
        position = words[hit[0] - 1].end()
        i = hit[0]
    out.append(text[position:])
    return "".join(out)


def spoken_forms(question: str, codes: Iterable[str] = (), names: Iterable[str] = ()) -> str:
    """``question`` with its spoken numbers, periods, amounts, ids and split names written as typed.

    ``codes``: the tenant's product names/codes ("Flow sensor FS-50"), whose model codes a transcript spells out;
    ``names``: the tenant's company, supplier and group names, which a transcript may split or merge.

    >>> spoken_forms("um how much did company a spend in q one twenty twenty six")
    'um how much did company a spend in Q1 2026'
    >>> spoken_forms("h two f y twenty five spend for company a")
    'H2 FY25 spend for company a'
    >>> spoken_forms("spend between january first and march thirty first twenty twenty six")
    'spend between january 1 and march 31 2026'
    >>> spoken_forms("invoices over thirteen thousand five hundred euros in the last thirty days")
    'invoices over 13500 euros in the last 30 days'
    >>> spoken_forms("find invoice inv twenty twenty six zero nine nine nine")
    'find invoice INV-2026-0999'
    >>> spoken_forms("one of our suppliers, a second look at the first half")
    'one of our suppliers, a second look at the first half'
    """
    # the quarter first: "q one twenty twenty six" holds a quarter's number before its year
    text = _QUARTER_HOMOPHONE.sub(lambda m: f"Q{_small(_HOMOPHONES[m.group(1).lower()])}", question)
    text = _QUARTER.sub(lambda m: f"Q{_small(m.group(1) or m.group(2))}", text)
    text = _years(_said_ids(text))
    text = _ids(text)
    text = _HALF.sub(lambda m: f"H{_small(m.group(1))}", text)
    text = _PART_SHORT_YEAR.sub(lambda m: f"{m.group(1).upper()} {2020 + _UNITS[m.group(2).lower()]}", text)
    text = _FISCAL.sub(lambda m: f"FY{_fiscal(m.group(1) or m.group(2))}", text)
    text = _PART_OF_YEAR.sub(r"\1 of \2 year", _dates(text))
    text = _SPAN.sub(lambda m: _small(m.group(1)) if (cardinal(m.group(1)) or 0) >= 2 else m.group(1), text)
    text = _model_codes(text, tuple(codes))
    text = _amounts(text)
    text = _TOP.sub(lambda m: f"{m.group(1)} {_small(m.group(2))}", text)
    return _joined_names(text, tuple(names))


def read_spoken(question: str, codes: Iterable[str] = (), names: Iterable[str] = ()) -> str | None:
    """The question with its spoken forms written as typed, or ``None`` when nothing was rewritten."""
    text = spoken_forms(question, codes, names)
    return text if text != question else None
