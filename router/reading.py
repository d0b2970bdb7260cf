"""The question reader's slot parsers: money amounts, breakdowns (group-by and grain), invoice statuses.

Each parser is a pure function of the (identifier- and entity-masked) question text and returns typed values
with the span each came from, so the router can account for every constraint-looking span: a breakdown phrase
("broken down by colour") or an invoice status that no governed metric serves becomes a clarification naming
it, never a silently dropped filter. The dimensions a breakdown maps to are checked against the metric's
allow-list from the catalog (``config.meta.procura.group_by`` / ``grains``, passed in ``RouterInputs.metrics``)
by the router, not here.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from router.edits import ONE_EDIT_FROM_FIVE, budget, same_length, unique_typo

_CURRENCY_CODES = {
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "€": "EUR",
    "usd": "USD", "dollar": "USD", "dollars": "USD", "$": "USD",
    "gbp": "GBP", "pound": "GBP", "pounds": "GBP", "£": "GBP",
    "chf": "CHF", "franc": "CHF", "francs": "CHF",
    # German: "in Schweizer Franken", "in britischen Pfund", "in US-Dollar"
    "franken": "CHF", "pfund": "GBP",
    # other ISO currencies (router/analysis.py reads them as invoice currencies)
    "jpy": "JPY", "yen": "JPY", "¥": "JPY", "sek": "SEK", "nok": "NOK", "dkk": "DKK", "pln": "PLN", "czk": "CZK",
    "huf": "HUF", "cny": "CNY", "yuan": "CNY", "renminbi": "CNY",
    # colloquial names (UK/IE/AU "quid", US "bucks") and the currencies' own names ("złoty", "forint", "koruna")
    "quid": "GBP", "quids": "GBP", "bucks": "USD", "złoty": "PLN", "zloty": "PLN", "zlotys": "PLN",
    "złotych": "PLN", "zlotych": "PLN", "forint": "HUF", "forints": "HUF", "koruna": "CZK", "korun": "CZK",
    "koruny": "CZK",
    # South Asian ledgers: "Rs. 1,50,000", "INR 2 lakh", "₹17,000/-" (a currency no company reports in: asked back)
    "inr": "INR", "₹": "INR", "rs": "INR", "rs.": "INR", "rupee": "INR", "rupees": "INR",
}
_CUR = (r"(?:EUR|USD|GBP|CHF|INR|euros?|(?:US\s?)?dollars?|US\$|pounds?(?:\s+sterling)?|(?:swiss\s+)?francs?|rupees?|"
        r"€|\$|£|₹|Rs\.?(?=\s?\d))")


def currency_code(cur: str) -> str | None:
    """ISO code of a currency word or symbol ("US dollars" -> USD, "pounds sterling" -> GBP)."""
    word = cur.lower().split()[-1] if " " in cur else cur.lower()
    if word.startswith(("us", "u.s")):
        return "USD"
    return _CURRENCY_CODES.get(word.removesuffix("sterling").strip() or "pound")
_MULTIPLIERS = {"k": 1000, "thousand": 1000, "t": 1000, "m": 1_000_000, "mn": 1_000_000, "mio": 1_000_000,
                "million": 1_000_000, "bn": 1_000_000_000, "billion": 1_000_000_000,
                # German ledgers: "20 Tsd. EUR", "0,02 Mio. €", "1,2 Mrd.", "20 Tausend Euro"
                "tsd": 1000, "tausend": 1000, "millionen": 1_000_000, "mrd": 1_000_000_000,
                "milliarde": 1_000_000_000, "milliarden": 1_000_000_000,
                # South Asian ledgers: "0.5 lakh euro", "2 crore", "1.5 lacs" (a lakh is 1,00,000, a crore 1,00,00,000)
                "lakh": 100_000, "lakhs": 100_000, "lac": 100_000, "lacs": 100_000,
                "crore": 10_000_000, "crores": 10_000_000,
                # Slavic, Turkish, Romanian and Hungarian ledgers: "5 tys. EUR", "0,01 mln EUR", "20 tis. Kč",
                # "5 bin TL", "2 mii lei", "3 ezer", "1,2 mld" (Czech "mil." is left out: Spanish "mil" is a thousand)
                "tys": 1000, "tysięcy": 1000, "tysiecy": 1000, "tis": 1000, "tisíc": 1000, "tisic": 1000,
                "bin": 1000, "mii": 1000, "ezer": 1000, "mln": 1_000_000, "milyon": 1_000_000,
                "milioane": 1_000_000, "millió": 1_000_000, "mld": 1_000_000_000, "mlrd": 1_000_000_000,
                "milyar": 1_000_000_000}
#: Abbreviations written with a dot ("Mio.", "tys.", "mln."): the dot belongs to the word.
_DOTTED = ("mio", "tsd", "mrd", "tys", "tis", "mln", "mld", "mlrd")


def _multiplier(word: str) -> int:
    """The scale of a multiplier word as written ("Mio.", "k", "Tsd.")."""
    return _MULTIPLIERS[word.lower().rstrip(".")]


#: The multiplier words after a number, as one regex alternative (longest first), for every reader that rewrites an
#: amount (router/keyword_query.py): one table, so "0.5 million" or "2 lakh" is never cut to its number there.
MULTIPLIER_WORDS = "|".join(sorted((re.escape(w) + (r"\.?" if w in _DOTTED else "")
                                    for w in _MULTIPLIERS), key=len, reverse=True))


def scale(number: Decimal, word: str | None) -> Decimal:
    """``number`` times the multiplier ``word`` (exact; ``None``: the number itself).

    >>> scale(Decimal("0.5"), "lakh"), scale(Decimal("2.01"), "k"), scale(Decimal("3"), None)
    (Decimal('50000.0'), Decimal('2010.00'), Decimal('3'))
    """
    return number * _multiplier(word) if word else number
# Thousands are grouped with "," "." a space or an apostrophe (Swiss "12'500"); "5000.-" and "17,000/-" are whole
# amounts; "TEUR" / "kEUR" / "T€" are thousands of the currency, as German and Swiss ledgers write them. South Asian
# grouping puts the thousands first and then pairs ("1,00,000.00", "12,50,000"): :data:`_INDIAN_GROUPING`. A number
# never ends inside a digit group (the lookahead after it): "1,00,000" is read whole or not at all, never as "1,00".
_INDIAN_GROUPING = r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?"
_MONEY = re.compile(
    # (never the last part of a date written before it: "till 2025-08-27 500 €" is no "27 500"; a date has two
    # separators, so "1-2000 EUR", an amount range, keeps its upper bound)
    rf"(?<![\w.,'’])(?<!\d-\d\d-)(?<!\d-\d-)(?<!\d/\d\d/)(?<!\d/\d/)(?:(?P<cur1>{_CUR})\s?)?"
    rf"(?P<num>{_INDIAN_GROUPING}|\d{{1,3}}(?:[.,\s'’]\d{{3}})+(?:[.,]\d{{1,2}})?|\d+(?:[.,]\d{{1,2}})?)"
    r"(?![.,'’]?\d)(?:[.,/]-)?"
    r"(?:\s?(?P<mult>(?:k|m|mn|bn|thousand|million|billion|tausend|millionen|milliarden?|lakhs?|lacs?|crores?|"
    r"tysięcy|tysiecy|tisíc|tisic|bin|mii|ezer|milyon|milioane|millió|milyar)"
    r"(?![^\W\d_])|"
    r"(?:mio|tsd|mrd|tys|tis|mln|mld|mlrd)(?:\.|(?![^\W\d_]))|[tk](?=(?:EUR|USD|GBP|CHF|€)\b|€)))?"
    rf"(?:\s?(?P<cur2>{_CUR})(?![A-Za-z]))?",
    re.I,
)
# The comparator before an amount: words or symbols. ">=", "at least", "minimum" include the amount itself;
# "above", ">" do not. After an amount: "or more", "and above", "+" (inclusive), "or less" (inclusive).
_COMPARATOR = re.compile(
    r"(?:\b(?P<word>(?:more|greater|larger|higher|less|lower|smaller) than or equal to|"
    r"equal to or (?:more|greater|higher|less|lower|smaller) than|upwards of|in excess of|"
    r"above|over|exceed(?:s|ed|ing)?|more than|greater than|larger than|higher than|bigger than|at least|"
    # verbs of crossing a line ("which suppliers crossed 20k", "topped EUR 0.05m"): a total above the amount
    r"(?:cross(?:es|ed|ing)?|surpass(?:es|ed|ing)?|top(?:ped|ping)|pass(?:es|ed|ing)?|went\s+past|beyond)"
    r"(?:\s+the)?|"
    r"north of|south of|"
    r"no less than|not less than|minimum(?: of)?|min\.|below|under|less than|lower than|smaller than|at most|"
    r"no more than|not more than|maximum(?: of)?|max\.|up to)"
    # "above the EUR 25,000 signature threshold", "over our €10k limit": a determiner before a named amount (kept
    # only where the amount carries a currency or a multiplier: parse_amounts)
    r"(?P<det>\s+(?:the|our|their|its|a|an))?|(?P<symbol>>=|=>|≥|>|<=|=<|≤|<))\s*$",
    re.I,
)
_TRAILING = re.compile(r"^\s*(?:(?P<above>or more|or above|and above|and more|and up(?:wards)?|or higher|or greater|"
                       r"\+)|"
                       r"(?P<below>or less|or below|and below|and less|or lower))(?![\w])", re.I)
#: "invoices 5000 or more", "amounts of 5,000 and up": a bare number after a word of documents or amounts is their
#: value, where a trailing cue bounds it (before, the listing dropped it and served every invoice, a silent wrong).
_MONEY_NOUN_BEFORE = re.compile(r"\b(?:invoices?|bills?|documents?|credit\s+notes?|amounts?|values?|totals?|of|worth|"
                                r"valued(?:\s+at)?|totall?ing)\s*$", re.I)
#: "10 or more invoices", "5 or more lines": the number counts the noun after the cue.
_COUNT_NOUN_AFTER = re.compile(r"\s*(?:invoices?|bills?|documents?|lines?|suppliers?|vendors?|products?|items?|"
                               r"units?|days?|weeks?|months?|credit\s+notes?|orders?|pieces?|pcs|times?|companies)\b",
                               re.I)


def _bare_money(text: str, start: int, end: int, trailing: re.Match[str] | None) -> bool:
    """Whether a number without currency or multiplier is still money: bounded by a trailing cue ("or more",
    "and up") right after a word of documents or amounts, and not counting the noun that follows."""
    return (trailing is not None and _MONEY_NOUN_BEFORE.search(text[:start]) is not None
            and _COUNT_NOUN_AFTER.match(text, end + trailing.end()) is None)


_ABOVE_WORDS = ("above", "over", "exceed", "more", "greater", "larger", "higher", "bigger", "cross", "surpass", "top",
                "pass", "went past", "beyond", "at least", "no less", "north",
                "not less", "minimum", "min.", "upwards", "in excess", "equal to or more", "equal to or greater",
                "equal to or higher")
_INCLUSIVE_WORDS = ("at least", "no less", "not less", "minimum", "min.", "at most", "no more", "not more",
                    "maximum", "max.", "up to")


@dataclass(frozen=True)
class Amount:
    """A money amount read from the question (exact decimal), its currency if named, and its comparator."""

    value: Decimal
    currency: str | None
    start: int
    end: int
    text: str
    comparator: str | None = None  # "above" or "below" when a threshold word precedes or follows it
    #: The amount itself passes the threshold ("at least", ">=", "or more"); "above" / ">" exclude it.
    inclusive: bool = False


def parse_number(text: str) -> Decimal | None:
    """A decimal from either notation: ``10,000.50``, ``10.000,50``, ``10 000``, ``1.5``, ``10,5``.

    The last separator is the decimal point when it is followed by one or two digits; a separator followed by
    exactly three digits groups thousands (``10.000`` is ten thousand, as it is written in German invoices).

    >>> parse_number("10.000,50"), parse_number("10,000.50"), parse_number("1.5"), parse_number("10.000")
    (Decimal('10000.50'), Decimal('10000.50'), Decimal('1.5'), Decimal('10000'))
    """
    compact = text.replace(" ", "").replace("\u00a0", "").replace("'", "").replace("\u2019", "")
    if re.fullmatch(_INDIAN_GROUPING, compact):
        # "1,00,000.00": South Asian grouping (thousands, then pairs); the comma never is a decimal point there
        return Decimal(compact.replace(",", ""))
    if re.fullmatch(r"0[.,]\d+", compact):
        # "0,025 Mio.", "0.125m": a leading zero groups no thousands, so the separator is the decimal point
        return Decimal("0." + compact[2:])
    match = re.fullmatch(r"(?P<int>[\d.,]*?)(?:(?P<sep>[.,])(?P<frac>\d{1,2}))?", compact)
    if match is None:
        return None
    integer, frac = match.group("int"), match.group("frac")
    if frac is None:
        integer = compact
    if not re.fullmatch(r"\d{1,3}(?:[.,]\d{3})*|\d+", integer):
        return None
    try:
        return Decimal(re.sub(r"[.,]", "", integer) + (f".{frac}" if frac else ""))
    except InvalidOperation:  # pragma: no cover - the patterns above admit digits only
        return None


def _direction(comparator: re.Match[str] | None, trailing: re.Match[str] | None) -> tuple[str | None, bool]:
    """("above" | "below" | None, whether the amount itself is included) from the words around an amount."""
    if comparator is not None:
        symbol = comparator.group("symbol")
        if symbol:
            return ("above" if symbol in (">", ">=", "=>", "≥") else "below"), symbol not in (">", "<")
        word = comparator.group("word").lower()
        # "more than or equal to", "upwards of" ("20k and upwards"): the amount itself qualifies
        inclusive = word.startswith(_INCLUSIVE_WORDS) or "or equal" in word or word.startswith(("equal", "upwards"))
        return ("above" if word.startswith(_ABOVE_WORDS) else "below"), inclusive
    if trailing is not None:
        return ("above" if trailing.group("above") else "below"), True
    return None, False


_UNITS = {w: i for i, w in enumerate((
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"))}
_TENS = {w: 10 * i for i, w in enumerate(
    ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")) if i > 1}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_NUMBER_WORD = "|".join(sorted({*_UNITS, *_TENS, *_SCALES}, key=len, reverse=True))
#: "fifty thousand euros", "two hundred and fifty thousand EUR", "a million dollars", "over twenty thousand".
_WORD_MONEY = re.compile(
    rf"(?<![\w-])(?P<num>(?:a\s+)?(?:{_NUMBER_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_NUMBER_WORD}))*)(?![\w-])"
    rf"(?:\s?(?P<cur>{_CUR})(?![A-Za-z]))?",
    re.I,
)


def words_to_number(phrase: str) -> Decimal | None:
    """An English number in words ("fifty thousand", "two hundred and fifty", "a million"), or None.

    >>> words_to_number("two hundred and fifty thousand"), words_to_number("a million")
    (Decimal('250000'), Decimal('1000000'))
    """
    total, current, seen = 0, 0, False
    for word in re.split(r"[\s-]+", phrase.lower().strip()):
        if word in ("and", ""):
            continue
        if word == "a":
            current = current or 1
        elif word in _UNITS:
            current += _UNITS[word]
        elif word in _TENS:
            current += _TENS[word]
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in _SCALES:
            total += (current or 1) * _SCALES[word]
            current = 0
        else:
            return None
        seen = True
    return Decimal(total + current) if seen else None


#: A fraction of a scale: "half a million", "a quarter of a million", "one and a half million" (exact decimals).
_FRACTION_MONEY = re.compile(
    r"(?<![\w-])(?P<num>(?:(?:a|one)\s+)?(?P<frac>half|quarter|three[\s-]quarters)\s+(?:of\s+)?(?:a|one)\s+"
    r"(?P<scale>thousand|million|billion)|(?P<whole>one|a|\d+)\s+and\s+a\s+half\s+(?P<scale2>thousand|million|"
    rf"billion)s?)(?![\w-])(?:\s?(?P<cur>{_CUR})(?![A-Za-z]))?",
    re.I,
)
_FRACTIONS = {"half": Decimal("0.5"), "quarter": Decimal("0.25"), "three quarters": Decimal("0.75"),
              "three-quarters": Decimal("0.75")}


def _fraction_value(match: re.Match[str]) -> Decimal:
    if match.group("frac"):
        fraction = _FRACTIONS[" ".join(match.group("frac").lower().split())]
        return fraction * _SCALES[match.group("scale").lower()]
    whole = match.group("whole").lower()
    return (Decimal(1 if whole in ("one", "a") else whole) + Decimal("0.5")) * _SCALES[match.group("scale2").lower()]


def _bare_comparator(comparator: re.Match[str] | None, cur: str | None) -> re.Match[str] | None:
    """The comparator before a number in words, unless a determiner stands between and no currency follows ("over
    the hundred lines" counts lines)."""
    return None if comparator is not None and comparator.group("det") and cur is None else comparator


def _word_amounts(text: str, taken: list[tuple[int, int]]) -> list[Amount]:
    """Amounts written in words: with a currency or a threshold word before them (a bare "five" is a count)."""
    found = []
    taken = list(taken)
    for match in _FRACTION_MONEY.finditer(text):
        comparator = _bare_comparator(_COMPARATOR.search(text[: match.start()]), match.group("cur"))
        if any(s < match.end() and match.start() < e for s, e in taken) or (
                match.group("cur") is None and comparator is None):
            continue
        trailing = _TRAILING.match(text[match.end():])
        direction, inclusive = _direction(comparator, trailing)
        start = match.start() if comparator is None else comparator.start()
        end = match.end() + (trailing.end() if trailing is not None else 0)
        cur = match.group("cur")
        found.append(Amount(value=_fraction_value(match), currency=currency_code(cur) if cur else None, start=start,
                            end=end, text=text[start:end].strip(), comparator=direction, inclusive=inclusive))
        taken.append((match.start(), match.end()))
    for match in _WORD_MONEY.finditer(text):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        cur = match.group("cur")
        comparator = _bare_comparator(_COMPARATOR.search(text[: match.start()]), cur)
        trailing = _TRAILING.match(text[match.end():])
        value = words_to_number(match.group("num"))
        if value is None or (cur is None and comparator is None) or value == 0:
            continue
        if cur is None and not re.search(r"thousand|million|billion|hundred", match.group("num"), re.I):
            continue  # "more than five invoices": a count, not money
        direction, inclusive = _direction(comparator, trailing)
        start = match.start() if comparator is None else comparator.start()
        end = match.end() if trailing is None or comparator is not None else match.end() + trailing.end()
        found.append(Amount(value=value, currency=currency_code(cur) if cur else None, start=start,
                            end=end, text=text[start:end].strip(), comparator=direction, inclusive=inclusive))
    return found


#: "between 5k and 10k EUR", "from €1,000 to €5,000", "5,000-10,000 EUR": the words before and between two amounts.
_RANGE_BEFORE = re.compile(r"\b(?:between|from)\s*$", re.I)
_RANGE_BETWEEN = re.compile(r"\s*(?:and|to|until|through|-|–)\s*", re.I)


def _ranges(text: str, matches: list[re.Match[str]]) -> dict[int, tuple[str, int, int, str | None, str | None]]:
    """Amount ranges: the start of each bound's match -> (side, span start, span end, the range's currency, the
    multiplier the lower bound shares with the upper: "between 5 and 10 thousand EUR" is 5,000 to 10,000).

    Two numbers joined by "and"/"to"/"-" after "between"/"from" (or by a dash alone) bound a range when at
    least one of them is money (a currency or a multiplier): "between 2024 and 2025" is no amount. Both bounds
    are inclusive ("between 5k and 10k" includes 10k), and a currency named once applies to both.
    """
    found: dict[int, tuple[str, int, int, str | None, str | None]] = {}
    for low, high in itertools.pairwise(matches):
        if low.start() in found:
            continue
        glue = _RANGE_BETWEEN.fullmatch(text[low.end():high.start()])
        before = _RANGE_BEFORE.search(text[: low.start()])
        # "1k to 5k", "EUR 500 to EUR 2,000": two money-shaped bounds joined by "to" are a range without "between"
        # ("and" alone joins two amounts, never bounds them)
        both_money = all(m.group("cur1") or m.group("cur2") or m.group("mult") for m in (low, high))
        if glue is None or (before is None and "-" not in glue.group(0) and "–" not in glue.group(0)
                            and not (both_money and glue.group(0).strip().lower() != "and")):
            continue
        money = [m for m in (low, high) if m.group("cur1") or m.group("cur2") or m.group("mult")]
        if not money or _COMPARATOR.search(text[: low.start()]):
            continue
        currencies = {currency_code(c) for m in (low, high) for c in (m.group("cur1"), m.group("cur2")) if c}
        shared = currencies.pop() if len(currencies) == 1 else None
        start = before.start() if before is not None else low.start()
        low_number, high_number = parse_number(low.group("num")), parse_number(high.group("num"))
        carried = None
        if (high.group("mult") and not low.group("mult") and not low.group("cur1") and not low.group("cur2")
                and low_number is not None and high_number is not None and low_number < high_number):
            carried = high.group("mult")
        found[low.start()] = ("above", start, low.end(), shared, carried)
        found[high.start()] = ("below", high.start(), high.end(), shared, None)
    return found


#: "30 days", "over 3 months", "mehr als 60 Tage": a number of time units after a threshold word is no money.
_TIME_UNIT_AFTER = re.compile(r"\s*(?:days?|weeks?|months?|years?|business\s+days|calendar\s+days|tagen?|wochen|"
                              r"monaten?|jahren?)\b", re.I)
_PERCENT_AFTER = re.compile(r"\s*(?:%|percent\b|per\s?cent\b|pct\b)", re.I)


#: "invoiced in", "billed in", "in": a currency code after these names the invoices' currency, not money.
_IN_CURRENCY_BEFORE = re.compile(r"\b(?:invoiced|billed|denominated|issued|paid|spend|spent)?\s*\bin\s+$", re.I)


#: A month name and a year right after a one- or two-digit number: the day of a date ("up to 15 May 2026"), not
#: money ("above 1,000 Jan-Mar 2026" stays an amount).
_DAY_OF_MONTH_AFTER = re.compile(r"(?:st|nd|rd|th)?\.?\s*(?:of\s+)?(?:jan(?:uary|uar)?|feb(?:ruary|ruar)?|mar(?:ch)?|"
                                 r"m(?:ä|ae)rz|apr(?:il)?|may|mai|june?|juni|july?|juli|aug(?:ust)?|"
                                 r"sep(?:t(?:ember)?)?|oct(?:ober)?|okt(?:ober)?|nov(?:ember)?|dec(?:ember)?|"
                                 r"dez(?:ember)?)\.?,?\s+(?:19|20)\d{2}\b", re.I)


#: A year or a two-digit year ("2026", "26") read before an invoice currency: the period's, not an amount.
_PERIOD_YEAR = re.compile(r"(?:19|20)\d\d|\d\d")
#: The invoice noun right after a currency ("GBP invoices", "USD-Rechnungen"): the code is the documents' currency.
_INVOICE_NOUN_AFTER = re.compile(r"[- ]?(?:invoices?|invoiced|bills|billed|rechnungen|credit\s+notes?)\b", re.I)
#: A period word right before a two-digit year ("Q1/26", "Mar 26", "FY26", "H2-25").
_PERIOD_WORD_BEFORE = re.compile(r"\b(?:q[1-4]|h[12]|fy|(?:jan|feb|m[aä]r|apr|ma[iy]|jun|jul|aug|sep|o[ck]t|nov|de[cz])"
                                 r"[a-zä]*\.?)[\s/'-]*$", re.I)


def parse_amounts(text: str) -> tuple[Amount, ...]:
    """Money amounts: a number with a currency (before or after), a multiplier (k, m, million), or a threshold
    word before it. A bare number (a year, a quantity) is not an amount.

    >>> [(a.value, a.currency) for a in parse_amounts("invoices over €10k and EUR 1.5m")]
    [(Decimal('10000'), 'EUR'), (Decimal('1500000.0'), 'EUR')]
    """
    found: list[Amount] = []
    matches = list(_MONEY.finditer(text))
    ranged = _ranges(text, matches)
    for match in matches:
        cur = match.group("cur1") or match.group("cur2")
        mult = match.group("mult")
        if match.start() in ranged:
            value = parse_number(match.group("num"))
            if value is not None:
                side, start, end, shared, carried = ranged[match.start()]
                if mult or carried:
                    value *= _multiplier(mult or carried or "")
                found.append(Amount(value=value, currency=currency_code(cur) if cur else shared, start=start, end=end,
                                    text=text[start:end].strip(), comparator=side, inclusive=True))
            continue
        comparator = _COMPARATOR.search(text[: match.start()])
        if comparator is not None and comparator.group("det") and cur is None and mult is None:
            comparator = None  # "over the 3 lines", "above the 2025 level": a determiner before a bare number
        trailing = _TRAILING.match(text[match.end():])
        if cur is None and mult is None and re.match(r"/\d{2}", text[match.end():]):
            continue  # "over 02/2026": a month and its year (router/periods.py), not an amount
        day = match.group("num").strip()
        if cur is None and mult is None and (
                (re.fullmatch(r"\d{1,2}", day) and _DAY_OF_MONTH_AFTER.match(text, match.end()))
                or re.match(r"\d{1,2}\.\d{1,2}\.\d{4}\b", text[match.start():])
                or (re.fullmatch(r"(?:19|20)\d\d", day) and re.match(r"-\d{1,2}-\d{1,2}\b", text[match.end():]))):
            continue  # "up to 15 May 2026", "as at 15.05.2026", "until 2026-05-15": the day of a date, no amount
        if cur is None and mult is None and _PERCENT_AFTER.match(text, match.end()):
            continue  # "over 10 %" of the spend is a share, not an amount of money
        if cur is None and mult is None and _TIME_UNIT_AFTER.match(text, match.end()):
            continue  # "more than 30 days overdue" is a length of time, never an amount of money
        if cur is None and mult is None and comparator is None and not _bare_money(text, match.start(),
                                                                                   match.end(), trailing):
            continue  # "10 or more invoices" is a count, not money: a trailing cue alone makes no amount
        if mult and mult.lower() == "m" and cur is None and comparator is None:
            continue  # "5 m" of cable is a length
        if (cur is not None and mult is None and comparator is None and match.group("cur1")
                and re.fullmatch(r"20\d\d", match.group("num").strip())
                and _IN_CURRENCY_BEFORE.search(text[: match.start()])):
            continue  # "invoiced in USD 2025", "billed in GBP 2026": the currency, then the year (no amount)
        if (match.group("cur2") and mult is None and comparator is None
                and _PERIOD_YEAR.fullmatch(match.group("num").strip())
                and _INVOICE_NOUN_AFTER.match(text, match.end())
                and (len(match.group("num").strip()) == 4 or _PERIOD_WORD_BEFORE.search(text[: match.start()]))):
            continue  # "Kestrel Q1/26 GBP invoices", "FY 2025 USD bills": the period's year, then the invoices' code
        value = parse_number(match.group("num"))
        if value is None:
            continue
        if mult:
            value *= _multiplier(mult)
        direction, inclusive = _direction(comparator, trailing)
        start = match.start() if comparator is None else comparator.start()
        end = match.end() if trailing is None or comparator is not None else match.end() + trailing.end()
        found.append(Amount(
            value=value,
            currency=currency_code(cur) if cur else None,
            start=start,
            end=end,
            text=text[start:end].strip(),
            comparator=direction,
            inclusive=inclusive,
        ))
    words = _word_amounts(text, [(a.start, a.end) for a in found])
    return tuple(sorted((*found, *words), key=lambda a: a.start))


# --- breakdowns ---------------------------------------------------------------------------------------------
#: "the monthly report", "our quarterly review": the adjective names a report's cadence, not a grain of the figure.
_CADENCE_NOUN = (r"(?!\s+(?:reports?|reporting|review|reviews|meetings?|decks?|close|closing|updates?|calls?|packs?|"
                 r"packages?|budgets?|newsletters?|summar(?:y|ies)|board|business|check-?ins?|sync|presentations?|"
                 r"slides?|kpi|kpis|dashboards?|run|process|cycle|"
                 # "monthly comparison: March vs February": the comparison is between months, not split by month
                 r"comparisons?|compare|variance|change|delta|growth)\b)")
_GRAINS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (grain, re.compile(pattern.replace("{cadence}", _CADENCE_NOUN), re.I))
    for grain, pattern in (
        # Analysts abbreviate the grain ("by qtr", "per mo", "mthly", "by yr", "wk by wk"); the abbreviations
        # name nothing else, so reading them as the grain drops no constraint.
        ("day", r"\b(?:day by day|daily{cadence}|per day|by day|each day|every day)\b"),
        ("week", r"\b(?:week by week|wk by wk|weekly{cadence}|per (?:week|wk)|by (?:week|wk)|each week|every week)\b"),
        ("month", r"\b(?:month by month|month-by-month|mo by mo|monthly{cadence}|mthly|"
                  r"for each of the (?:last|past|previous|first)\s+(?:\w+\s+)?months|"
                  r"per (?:calendar )?(?:month|mo|mth)|by (?:calendar )?(?:month|mo|mth)|each (?:calendar )?month|"
                  r"every month|(?:broken down|broken out|split|grouped|breakdown) (?:by|per) month)\b"),
        ("quarter", r"\b(?:quarter by quarter|qtr by qtr|quarterly{cadence}|qtrly|per (?:calendar )?(?:quarter|qtr)|"
                    r"by (?:calendar )?(?:quarter|qtr)|each (?:calendar )?quarter|every quarter)\b"),
        ("year", r"\b(?:year by year|yearly{cadence}|annually|per (?:year|yr)|by (?:year|yr)|each year|"
                 r"every year)\b"),
    )
)
#: The nouns naming each allow-list dimension, read after a grouping word ("per supplier") and in second place of
#: a coordinated grouping ("by month and supplier").
_DIMENSION_NOUNS = (
    # ERP wording too: a "material group" or "commodity" is the product group, a "part number" the product.
    ("product_group_id", r"(?:(?:top[- ]level|top|leaf|lowest[- ]level|main)\s+)?"
                         r"(?:(?:product|material|spend|commodity|catalog(?:ue)?)\s+)?(?:groups?|categor(?:y|ies))|"
                         r"commodit(?:y|ies)|sub[- ]?(?:product\s+)?(?:groups?|categor(?:y|ies))|"
                         # "broken down by each product's own group": the lowest level, not a product breakdown
                         r"(?:each\s+)?products?['’]?s?\s+own\s+(?:product\s+)?(?:groups?|categor(?:y|ies))"),
    ("product_code", r"product(?:\s+codes?)?|products|items?|articles?|skus?|part(?:\s+numbers?)?|parts|"
                     r"item\s+codes?|material(?:\s+numbers?)?|materials"),
    ("supplier_id", r"suppliers?|vendors?"),
    # "split by status", "per invoice status": a row per status the figure counts
    ("invoice_status", r"(?:(?:invoice|payment|document)\s+)?status(?:es)?"),
)
_DIMENSIONS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (dim, re.compile(pattern, re.I))
    for dim, pattern in (
        *((dim, rf"\b(?:per|by|for each|each|every|broken (?:down|out) by|split (?:by|per)|grouped by|"
                rf"across(?:\s+(?:all|the|all\s+the|our|each|every))?)\s+(?:{noun})\b")
          for dim, noun in _DIMENSION_NOUNS),
        # "by currency", "per invoice currency": the invoices' own currencies (the document-currency metric's
        # grouping; every other metric names it as a breakdown it does not offer).
        # "by original invoice currency", "per billing ccy": up to two qualifiers of the invoice's currency
        ("currency", r"\b(?:per|by|for each|broken down by|split by|grouped by)\s+(?:the\s+|their\s+)?"
                     # ("by invoices currency", "per invoices' currency": the noun's plural or possessive too)
                     r"(?:(?:invoices?['’]?|invoiced|original|document|transaction|billing|source|native)[\s-]+){0,2}"
                     r"(?:currenc(?:y|ies)|ccys?)\b"
                     # German: "nach Währung", "je Rechnungswährung", "aufgeschlüsselt nach Währungen"
                     r"|\b(?:nach|je|pro)\s+(?:(?:der\s+)?(?:Rechnungs|Beleg|Original|Transaktions)?w(?:ä|ae)hrung(?:en)?)\b"),
        # "supplier split", "category breakdown", "vendor mix": the grouping named before the breakdown word
        ("supplier_id", r"\b(?:suppliers?|vendors?)\s+(?:split|breakdown|mix)\b"),
        ("product_group_id", r"\b(?:product\s+)?(?:groups?|categor(?:y|ies))\s+(?:split|breakdown|mix)\b"),
        ("product_code", r"\bproducts?\s+(?:split|breakdown|mix)\b"),
        # Not "for every company": that names a scope (often in injected instructions), not a grouping.
        ("company_id", r"\b(?:per|by|broken down by|split by|grouped by)\s+(?:compan(?:y|ies))\b"
                       # "by entity", "per legal entity", "by subsidiary": the companies under another noun
                       r"|\b(?:per|by|for each|broken down by|split by|grouped by)\s+(?:(?:legal|reporting)\s+)?"
                       r"(?:entit(?:y|ies)|subsidiar(?:y|ies))\b"
                       # "which companies bought from Iota ... and how much each?": a figure per company
                       r"|\bwhich\s+compan(?:y|ies)\b(?=[^?.;]{0,80}\bhow\s+much\s+(?:\w+\s+){0,2}each\b)"),
    )
)
#: The nouns a grouping phrase may coordinate ("by supplier and month", "per product group, quarter"): each is
#: a grain or an allow-list dimension, so the second noun of a pair is read as its own grouping, never dropped.
#: Not companies, and not a noun followed by a name ("by month and Supplier Beta", "and company a"): those are
#: scopes.
_GROUPING_NOUNS: tuple[tuple[str, str, str], ...] = (
    ("grain", "day", r"days?|daily"),
    ("grain", "week", r"weeks?|wks?|weekly"),
    ("grain", "month", r"months?|mos?|mths?|monthly"),
    ("grain", "quarter", r"quarters?|qtrs?|quarterly"),
    ("grain", "year", r"years?|yrs?|yearly"),
    *(("dim", dim, noun) for dim, noun in _DIMENSION_NOUNS),
    ("dim", "currency", r"currenc(?:y|ies)"),
)
_GROUPING_NOUN = "|".join(f"(?:{pattern})" for _, _, pattern in _GROUPING_NOUNS)
#: "by company and quarter", "per company and supplier", "by supplier and company": a company noun coordinated with
#: another grouping noun is the company dimension beside it (two dimensions asked; read alone, the second noun was
#: dropped and a total or a one-dimension table given). Bare nouns only: "and company a" / "and Company A" name a
#: company (the lookahead below), which is a scope.
_COMPANY_NOUN = r"compan(?:y|ies)"
_COORDINATED = re.compile(rf"\b(?:by|per|broken (?:down|out) by|split (?:by|per)|grouped by)\s+"
                          rf"(?:{_GROUPING_NOUN}|{_COMPANY_NOUN})"
                          rf"(?P<joint>\s*(?:,|and|&|/|\+)\s*(?:(?:by|per)\s+)?)"
                          rf"(?P<second>{_GROUPING_NOUN}|{_COMPANY_NOUN})\b"
                          r"(?!\s+(?-i:[a-z]\b|[A-Z]))", re.I)


#: The coordinated groupings of a breakdown phrase, for readers that cut a question into parts.
COORDINATED_GROUPINGS = _COORDINATED


def _grouping_noun(word: str) -> tuple[str, str]:
    if re.fullmatch(_COMPANY_NOUN, word, re.I):
        return "dim", "company_id"
    for kind, name, pattern in _GROUPING_NOUNS:
        if re.fullmatch(pattern, word, re.I):
            return kind, name
    raise AssertionError(word)  # pragma: no cover - the pattern only matches these nouns


#: An explicit request to break a figure down; what follows must map to a dimension or grain.
_BREAKDOWN_VERB = re.compile(r"\b(?:broken (?:down|out)|break(?:ing)? (?:it |that )?(?:down|out)|split|grouped|"
                             r"breakdown)\s+"
                             r"(?:by|per)\s+(?P<what>[A-Za-z][\w-]*(?:\s+[a-z][\w-]*)?)", re.I)

#: A bare grouping phrase ("per buyer", "by cost center", "for each plant"): a lower-case noun after it that no
#: dimension or grain reads is a breakdown the metric cannot give, named instead of dropped. Measure words
#: ("by spend", "per unit"), articles and time words ("by the end of") are not groupings.
_FUNCTION_WORDS = ("and|or|in|for|with|from|of|at|to|on|last|this|next|per|by|during|since|over|across|between|"
                   # "by spend till today", "by spend thru now": a period's end word, never part of a grouping
                   "till|thru|through|up|so|as|"
                   "until|before|after|vs|versus|compared|excluding|including|only|desc|asc|descending|ascending|"
                   # period abbreviations end a grouping phrase ("by spend ytd" is a ranking measure and a period)
                   r"ytd|qtd|mtd|fy\d*|h[12]|q[1-4]|yoy|qoq|mom")
#: One blank only after "by": a name the reader masked sits in a longer blank ("paid by Company A ytd" is no
#: grouping by "ytd"), and the name is read as the entity it is.
_BARE_GROUPING = re.compile(rf"\b(?:per|by|for each|for every)\s(?P<what>[a-z][a-z-]+(?:\s+(?!(?:{_FUNCTION_WORDS})\b)"
                            r"[a-z][a-z-]+)?)\b")
#: Never an unknown grouping as the first word: articles, pronouns, time words ("by the end of"), manner ("by
#: email", "got back by credit notes": the document type, a filter the filter reader reads), and the dimension and
#: grain nouns, which the patterns above read or deliberately leave as a scope ("for every company" in an
#: instruction is no breakdown).
_NOT_A_GROUPING = frozenset("""
a an the this that these those our my your their its me us far now then default mistake end start close
all both
how which what when where who whom name email post mail hand law itself approved of
credit
company companies supplier suppliers vendor vendors product products group groups category categories item items
entity entities subsidiary subsidiaries
day days week weeks month months quarter quarters year years
""".split())  # noqa: SIM905 - a word list reads better as text
#: Measure words: "ranked by spend", "per unit"; a grouping only with a noun after them ("by cost center").
_MEASURE_WORDS = frozenset("""
spend spending spent amount amounts value values volume total totals sum cost costs price prices unit units
cent percent percentage share count number size rank revenue gross net tax money euro euros eur usd chf gbp
date dates contract agreement piece pieces pc pcs
box boxes parcel parcels pair pairs roll rolls pack packs package packages carton cartons bottle bottles
""".split())  # noqa: SIM905 - a word list reads better as text


#: A price word right before "per": the word after it is the unit of measure ("cost per metre"), no grouping.
_PRICE_BEFORE = re.compile(r"\b(?:prices?|costs?|paid|pay|charged|charges?|cost\s+us)\s*$", re.I)


#: Status words that qualify a measure ("by unpaid spend").
_STATUS_WORDS = frozenset("paid unpaid open outstanding posted settled cleared".split())  # noqa: SIM905
#: A measure word and then the start of a clause or a period is no grouping ("price per unit we paid", "top 5
#: suppliers by spend year to date", "by spend last quarter").
_CLAUSE = frozenset("""
we i you they it was were is are did do does paid bought cost costs for of in at on
the year years month months quarter quarters week weeks today yesterday ytd last this since between during from over
""".split())  # noqa: SIM905


@dataclass(frozen=True)
class Breakdown:
    """The grouping a question asks for: allow-list dimension names, a time grain, and unread breakdown spans."""

    group_by: tuple[str, ...] = ()
    grain: str | None = None
    spans: tuple[tuple[int, int], ...] = ()
    unknown: tuple[str, ...] = ()


_THE_GROUP = re.compile(r"across\s+(?:the\s+)?(?:whole\s+|entire\s+)?group", re.I)


_SIDE_BY_SIDE = re.compile(r"\bside[\s-]+by[\s-]+side\b", re.I)


def parse_breakdown(text: str) -> Breakdown:
    """Group-by dimensions and grain named by breakdown phrases ("month by month", "per supplier").

    >>> parse_breakdown("spend per supplier, month by month")
    Breakdown(group_by=('supplier_id',), grain='month', spans=((6, 18), (20, 34)), unknown=())
    >>> parse_breakdown("spend broken down by colour").unknown
    ('colour',)
    """
    # "side by side": a comparison of the things named, no grouping by a 'side' (router/set_words.py)
    text = _SIDE_BY_SIDE.sub(lambda m: " " * len(m.group(0)), text)
    spans: list[tuple[int, int]] = []
    grain = None
    for name, pattern in _GRAINS:
        match = pattern.search(text)
        if match and grain is None:
            grain = name
            spans.append(match.span())
    dims: list[str] = []
    for name, pattern in _DIMENSIONS:
        for match in pattern.finditer(text):
            if any(s < match.end() and match.start() < e for s, e in spans):
                continue
            if _THE_GROUP.fullmatch(match.group(0)):
                continue  # "across the group": every company of the tenant (a scope), not a product-group breakdown
            dims.append(name)
            spans.append(match.span())
    unknown: list[str] = []
    for m in _COORDINATED.finditer(text):
        if any(s <= m.start("second") < e for s, e in spans):
            continue  # already read ("per supplier per month")
        kind, name = _grouping_noun(m.group("second"))
        if kind == "grain" and grain not in (None, name):
            unknown.append(f"{grain} and {name}")  # two grains: asked about, never one of them dropped
        elif kind == "grain":
            grain = name
        else:
            dims.append(name)
        spans.append((m.start("joint"), m.end("second")))
    unknown.extend(
        m.group("what") for m in _BREAKDOWN_VERB.finditer(text)
        if not any(s <= m.start("what") < e for s, e in spans)
    )
    for m in _BARE_GROUPING.finditer(text):
        words = m.group("what").split()
        if m.group(0).startswith("per") and _PRICE_BEFORE.search(text, 0, m.start()):
            continue  # "price per set", "what did we pay per metre": the unit a price is quoted in
        if (words[0] in _NOT_A_GROUPING or (words[0] in _MEASURE_WORDS and (len(words) == 1 or words[1] in _CLAUSE
                                                                              # "by net spend": a measure
                                                                              or words[1] in _MEASURE_WORDS
                                                                              # "per unit year-to-date": a period
                                                                              or words[1].split("-")[0] in _CLAUSE))
                # "ranked by paid spend": a status before a measure word is the measure, not a grouping
                or (words[0] in _STATUS_WORDS and len(words) > 1 and words[1] in _MEASURE_WORDS)
                or any(s < m.end() and m.start() < e for s, e in spans)):
            continue
        what = " ".join(words)
        if not any(what in u or u in what for u in unknown):
            unknown.append(what)
    return Breakdown(tuple(dict.fromkeys(dims)), grain, tuple(sorted(spans)), tuple(unknown))


_DIMENSION_PHRASES = {"supplier_id": "supplier", "product_group_id": "product group", "product_code": "product",
                      "company_id": "company", "invoice_number": "invoice", "currency": "currency",
                      "top_product_group_id": "top-level product group", "invoice_status": "status"}

#: Product groups nest (a root such as Monitoring Products > Sensors > Pressure Sensors): words naming the level.
_TOP_LEVEL = re.compile(r"\btop[- ]level\b|\bmain\s+(?:product\s+)?(?:groups?|categor(?:y|ies))\b|"
                        # "spend by top category", "per top group": the level a grouping names, not a ranking
                        r"\b(?:by|per|for\s+each)\s+top\s+(?:product\s+)?(?:groups?|categor(?:y|ies))\b|"
                        r"\bhighest[- ]level\b|\broot\s+(?:product\s+)?groups?\b|"
                        r"\btop\s+(?:of\s+the\s+)?(?:hierarchy|tree)\b", re.I)
_LOWEST_LEVEL = re.compile(r"\blowest[- ]level\b|\bleaf\b|\bmost detailed\b|\bproducts?['’]?s?\s+own\s+"
                           r"(?:product\s+)?(?:groups?|categor(?:y|ies))\b|\bsub-?(?:groups?|categor(?:y|ies))\b|"
                           r"\bcatalog(?:ue)?\s+groups?\b", re.I)
#: A category (commodity) is the level category management plans at, the top of the catalogue; a product group
#: (material group, Warengruppe) is the group a product is assigned to in the catalogue.
_CATEGORY_NOUN = re.compile(r"\bcategor(?:y|ies)\b|\bcommodit(?:y|ies)\b", re.I)
_GROUP_NOUN = re.compile(r"\b(?:product|material)[- ]groups?\b|\bgroups?\b|"
                         # "product category" names the product's own catalogue group, as "product group" does;
                         # a bare "category" (or a "main" / "top-level" one, read above) is the top level
                         r"\bproduct[- ]categor(?:y|ies)\b", re.I)


#: A breakdown by a bare "category" ("break down October by category", "split per category"): the rows are the
#: products' own catalogue groups, as the writers' own figures are; only a ranking of categories ("top 3
#: categories") or a level word ("top-level category") asks for the top of the catalogue.
_CATEGORY_ROWS = re.compile(r"\b(?:by|per|each|every)\s+categor(?:y|ies)\b(?!\s*\(?\s*(?:top|main|highest))", re.I)


def group_dimension(text: str, *, filtered: bool = False) -> str:
    """The dimension "product group" means in ``text``: the top-level group ("top-level category", "main
    groups", a ranking of bare "categories") or each product's own catalog group (a bare "product group", "lowest
    level", "sub-groups", a breakdown "by category"); a question already limited to a product group is broken
    down by the groups below it (each product's own group) unless it names the top level. The answer names the
    level it used.

    >>> group_dimension("spend by top-level category"), group_dimension("by product group (lowest level)")
    ('top_product_group_id', 'product_group_id')
    >>> group_dimension("spend by product group"), group_dimension("by product group", filtered=True)
    ('product_group_id', 'product_group_id')
    >>> group_dimension("spend by category"), group_dimension("top 3 categories by spend")
    ('product_group_id', 'top_product_group_id')
    >>> group_dimension("top 3 product categories"), group_dimension("by main product category")
    ('product_group_id', 'top_product_group_id')
    """
    if _LOWEST_LEVEL.search(text):
        return "product_group_id"
    if _TOP_LEVEL.search(text):
        return "top_product_group_id"
    if not filtered and _CATEGORY_NOUN.search(text) and not _GROUP_NOUN.search(text) \
            and not _CATEGORY_ROWS.search(text):
        return "top_product_group_id"
    return "product_group_id"


def dimension_phrase(name: str) -> str:
    """How an allow-list dimension (or an unread breakdown word) is named to the user."""
    return _DIMENSION_PHRASES.get(name, name)


# --- invoice statuses ---------------------------------------------------------------------------------------
_EXCLUDED_STATUS = re.compile(r"\b(cancell?ed|voided|void|draft|drafts)\b(?=[\s\w-]{0,30}\b(?:invoices?|bills?)\b)|"
                              r"\b(draft)\s+(?=(?:spend|spending|amounts?|totals?|value)\b)|"
                              r"\binvoices?\b[\s\w-]{0,20}\b(?:that were |which were |were )?(cancell?ed|voided)\b|"
                              # "how much of our spend is cancelled": the status as the predicate of the spend
                              r"\b(?:is|are|was|were|got|been)\s+(?:still\s+)?(?:in\s+)?(cancell?ed|voided|drafts?)\b",
                              re.I)


#: Further wordings of the two statuses (the vocabulary finance.cancelled_draft_invoices answers): "invoices still
#: in draft", "in draft status", "drafts" as a noun, "unposted" / "not yet posted" (a draft is not posted yet),
#: "invoices that have been voided".
_MORE_EXCLUDED_STATUS = re.compile(
    r"\b(?:invoices?|bills?|documents?|credit[- ]?notes?)\b[\s\w-]{0,30}?\b(?:still\s+)?in\s+(?:the\s+)?"
    r"(draft)(?:\s+(?:status|state|stage|form|mode))?\b|"
    r"\b(?:in|with)\s+(draft)\s+(?:status|state|stage)\b|"
    # "invoices in status draft", "with status 'cancelled'", "status: draft": the status named after its noun
    r"\b(?:status|state)\s*(?:[:=]\s*|is\s+)?[\"'“‘]?(draft|cancell?ed|voided)\b|"
    r"\b(drafts)\b(?!\s+(?:of\s+)?(?:the\s+)?(?:agreements?|contracts?|amendments?|manuals?|documents?))|"
    r"\b(unposted|not\s+yet\s+posted|not\s+posted\s+yet)\b|"
    r"\b(?:have|has|had)\s+been\s+(cancell?ed|voided)\b",
    re.I,
)


#: Words after a status and its noun that leave the documents out ("cancelled invoices excluded").
_LEFT_OUT_AFTER = re.compile(r"\s*(?:(?:invoices?|bills|documents?|ones)\s*)?(?:(?:are|were|being|to be|is)\s+)?"
                             r"(?:excluded|left out|removed|omitted|not counted|not included|ignored|aside|out)\b"
                             # "Drafts don't count for us.": the governed policy restated, no request for them
                             r"|\s*(?:(?:invoices?|bills|documents?|ones)\s*)?(?:don'?t|do\s+not|never|shouldn'?t|should\s+not|must\s+not|won'?t)\s+"
                             r"(?:count|be\s+counted)\b",
                             re.I)


def status_spans(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of the status words :func:`asked_statuses` reads (consumed by the reading: "spend on cancelled
    invoices" names a status, not an unknown category)."""
    return tuple(m.span(i) for pattern in (_EXCLUDED_STATUS, _MORE_EXCLUDED_STATUS) for m in pattern.finditer(text)
                 for i in range(1, (m.lastindex or 0) + 1) if m.group(i))


def asked_statuses(text: str) -> tuple[str, ...]:
    """The statuses governed figures never count that a question asks for ("cancelled invoices", "invoices still
    in draft", "cancelled or draft invoices"), in the order written: ``("cancelled",)``, ``("draft",)``, both, or
    ``()``.

    >>> asked_statuses("value of cancelled invoices"), asked_statuses("total of invoices still in draft")
    (('cancelled',), ('draft',))
    >>> asked_statuses("how many cancelled or draft invoices"), asked_statuses("Company A spend in Q1")
    (('cancelled', 'draft'), ())
    """
    found: list[tuple[int, str]] = []
    for pattern in (_EXCLUDED_STATUS, _MORE_EXCLUDED_STATUS):
        for match in pattern.finditer(text):
            if _LEFT_OUT_AFTER.match(text, match.end()):
                continue  # "cancelled invoices excluded": no request for them (governed figures leave them out)
            index = next(i for i, g in enumerate(match.groups(), start=1) if g)
            word = match.group(index).lower()
            status = "draft" if word.startswith(("draft", "unposted", "not")) else "cancelled"
            found.append((match.start(index), status))
    for other in re.finditer(r"\b(?:cancell?ed|voided)\s*(?:,|or|and|/|&)\s*(draft)s?\b|"
                             r"\bdrafts?\s*(?:,|or|and|/|&)\s*(cancell?ed|voided)\b", text, re.I):
        # "cancelled or draft invoices": the second status shares the first one's noun
        index = 1 if other.group(1) else 2
        found.append((other.start(index), "draft" if index == 1 else "cancelled"))
    return tuple(dict.fromkeys(status for _, status in sorted(found)))


def excluded_status(text: str) -> str | None:
    """The invoice status a question asks for that governed figures never count ("cancelled invoices"),
    normalized to the status name, or ``None`` (the first of :func:`asked_statuses`)."""
    statuses = asked_statuses(text)
    return statuses[0] if statuses else None


# --- metrics of the catalog -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class CatalogMetric:
    """A served metric as the reader sees it: the phrases that name it (its dbt label and
    ``config.meta.procura.synonyms``), its parameters (name -> (type, required)) and its allow-lists."""

    name: str
    label: str
    phrases: tuple[str, ...]
    parameters: tuple[tuple[str, str, bool], ...]
    group_by: tuple[str, ...] = ()
    grains: tuple[str, ...] = ()


def catalog_metrics(registry: Any, exclude: frozenset[str] = frozenset()) -> tuple[CatalogMetric, ...]:
    """The catalog's metrics that ``ask`` can serve generically (everything not in ``exclude``, the metrics
    with their own workflow), read from dbt's semantic manifest beside the registry's schema."""
    from semantic.errors import SemanticError

    semantic = getattr(registry.schema, "semantic", None) or {}
    found: list[CatalogMetric] = []
    for raw in semantic.get("metrics", ()):
        procura = ((raw.get("config") or {}).get("meta") or {}).get("procura")
        if not procura or procura.get("name") in exclude:
            continue
        try:
            metric = registry.get(procura["name"])
        except SemanticError:  # a metric the registry did not load is not served, so not askable
            continue
        label = str(raw.get("label") or raw.get("name"))
        phrases = tuple(dict.fromkeys(p.lower() for p in (label, *procura.get("synonyms", ())) if p))
        definition = metric.definition
        found.append(CatalogMetric(
            name=metric.name, label=label, phrases=phrases,
            parameters=tuple((n, spec.type, spec.required) for n, spec in definition.parameters.items()),
            group_by=tuple(definition.dimensions),
            grains=tuple(definition.time_dimension.grains) if definition.time_dimension else (),
        ))
    return tuple(found)


_STATUS_INSIDE = r"\s+(?:(?:paid|unpaid|open|posted|outstanding|settled)\s+)?"


#: Words of a metric phrase that users write in other words ("unique suppliers" for "distinct suppliers").
_WORD_VARIANTS = {"distinct": r"(?:distinct|different|unique|individual)",
                  "different": r"(?:distinct|different|unique|individual)"}
#: "count the invoice lines", "count all line items": the imperative asks for the same number.
_NUMBER_OF = (r"(?:number\s+of\s+|#\s*(?:of\s+)?|no\.\s*of\s+|nr\.?\s*of\s+|count\s+of\s+|total\s+number\s+of\s+|"
              r"count\s+(?:the\s+|all\s+(?:the\s+)?|our\s+)?)")


def _typos_mended(text: str, catalog: tuple[CatalogMetric, ...]) -> str:
    """``text`` with each word of five or more letters that is one edit from exactly one word of the catalog's
    phrases (and is none itself) written as that word, in place, so spans keep their offsets only where lengths
    agree; the caller maps a match back through :func:`_mended_span`."""
    vocabulary = {w for m in catalog for p in m.phrases for w in p.split() if len(w) >= 5 and w.isalpha()}
    out = []
    for match in re.finditer(r"[A-Za-z]+|[^A-Za-z]+", text):
        word = match.group(0)
        lower = word.lower()
        edits = budget(len(lower), ONE_EDIT_FROM_FIVE)
        if edits and lower.isalpha() and lower not in vocabulary:
            # "producst": the swap ("products", same length) before the dropped letter ("product")
            close = unique_typo(lower, vocabulary, edits, rank=same_length(lower))
            if close is not None:
                word = close
        out.append(word)
    return "".join(out)


def _mended_span(text: str, mended: str, span: tuple[int, int]) -> tuple[int, int]:
    """A span of the mended text as a span of the original (words are replaced one for one)."""
    pieces = re.findall(r"[A-Za-z]+|[^A-Za-z]+", text)
    fixed = re.findall(r"[A-Za-z]+|[^A-Za-z]+", mended)
    position, original = 0, 0
    start, end = span
    mapped_start = mapped_end = None
    for piece, fix in zip(pieces, fixed, strict=False):
        if mapped_start is None and position + len(fix) > start:
            mapped_start = original + min(start - position, len(piece))
        if mapped_end is None and position + len(fix) >= end:
            mapped_end = original + min(end - position, len(piece))
        position += len(fix)
        original += len(piece)
    return (mapped_start or 0, mapped_end if mapped_end is not None else len(text))


def match_catalog_metric(text: str, catalog: tuple[CatalogMetric, ...]) -> tuple[CatalogMetric, tuple[int, int]] | None:
    """The catalog metric whose longest phrase occurs in ``text`` (word-bounded, case-insensitive); a word one
    typing slip from a phrase's word ("supplers", "invocies") reads as that word."""
    hit = _match_catalog_metric(text, catalog)
    if hit is not None:
        return hit
    mended = _typos_mended(text, catalog)
    if mended == text:
        return None
    hit = _match_catalog_metric(mended, catalog)
    return None if hit is None else (hit[0], _mended_span(text, mended, hit[1]))


def _match_catalog_metric(text: str,
                          catalog: tuple[CatalogMetric, ...]) -> tuple[CatalogMetric, tuple[int, int]] | None:
    best: tuple[int, CatalogMetric, tuple[int, int]] | None = None
    for metric in catalog:
        for phrase in metric.phrases:
            # A status may stand inside a count's phrase ("number of paid line items"): it is read as the status.
            words = [_WORD_VARIANTS.get(w, re.escape(w)) for w in phrase.split()]
            if phrase.startswith("how many ") and "distinct" not in phrase and "different" not in phrase:
                # "how many unique product codes": a count of distinct things is already distinct
                words[1] += r"(?:\s+(?:distinct|different|unique|individual|separate))?"
            pattern = _STATUS_INSIDE.join(words)
            if phrase.startswith("number of "):
                # "# of distinct vendors", "no. of suppliers", "count of line items": the same count
                pattern = _NUMBER_OF + r"(?:(?:paid|unpaid|open|posted|outstanding|settled)\s+)?" + (
                    r"(?:(?:distinct|different|unique|individual|separate)\s+)?" if len(words) > 2 else "") + \
                    _STATUS_INSIDE.join(words[2:])
            match = re.search(rf"(?<!\w){pattern}(?!\w)", text, re.I)
            if match and (best is None or len(phrase) > best[0]):
                best = (len(phrase), metric, match.span())
    return None if best is None else (best[1], best[2])


__all__ = [
    "COORDINATED_GROUPINGS", "Amount", "Breakdown", "CatalogMetric", "asked_statuses", "catalog_metrics",
    "dimension_phrase", "excluded_status", "match_catalog_metric", "parse_amounts", "parse_breakdown", "parse_number",
    "status_spans",
]
