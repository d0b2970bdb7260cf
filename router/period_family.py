"""The notation family of periods, written out before the period grammar reads the question.

Writers of every trade and language write the same period in many notations: "2026 1Q", "1Q 2026", "1T 2026",
"4º tri de 2025", "II kwartał 2025", "1. Halbjahr 2025", "2S 2025", "2025年下半期" are one quarter or half;
"2025.10", "2025/10", "2025年10月", "１０月" one month; "2025.10.01", "2025/10/01", "2025年10月1日" one day;
"2025/07～2025/12", "2025年9月～12月", "2026 1~4月", "07/25-04/26 incl.", "jul/25 a mar/26", "Ocak 2025'ten Mart
2026'ya kadar" one range; "no ano até agora", "acumulado del ejercicio hasta hoy" the year to date; "CY25" the
calendar year 2025. Read one string at a time, each was a year read without its quarter (a silent whole-year
figure), or no period at all (a needless "For which period?").

This module reads the family by its parts, not by strings: a full-width and CJK fold (digits, separators, the
wave dash as a range sign), the year-first numeric orders (yyyy/mm/dd, yyyy.mm.dd, yyyy/mm, yyyy.mm), one table
of quarter and half unit words and letter codes of every language (:data:`QUARTER_UNITS`, :data:`HALF_UNITS`,
:data:`PART_LETTERS`) read in every order around a written year, month-year ranges written mm/yy, and one
table of to-date words (:data:`TO_DATE_WORDS`) joined to one table of year words (:data:`YEAR_WORDS`). Each is
written in the notation the period grammar and reader already read ("Q1 2026", "H2 2025", "October 2025",
"2025-10-01", "from 2025-07-01 through 2025-12-31", "year to date"), so their span accounting applies. A notation
whose year is not written is left as typed (no guessing); a part number no calendar has ("5Q", "3S") is left
too, and the unread-span invariant (router/period_leftovers.py, :data:`PART_TOKEN`) names it back.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re

from router.period_grammar import MONTH_WORDS

_I = re.I | re.UNICODE
_Y = r"(?:19|20)\d{2}"

# --- width and CJK ---------------------------------------------------------------------------------------------

#: The wave dashes and tildes East-Asian writers join a range with ("2025/07～2025/12", "1〜3月").
_WAVES = {"～": "~", "〜": "~", "∼": "~", "〰": "~"}
#: Full-width forms of ASCII (digits, letters, "/", ".", "-", ":") and the ideographic space: their ASCII twins.
_WIDE = {**{chr(c): chr(c - 0xFEE0) for c in range(0xFF01, 0xFF5F)}, "\u3000": " ", "－": "-", "．": ".",
         "／": "/", **_WAVES}
_WIDE_TABLE = str.maketrans(_WIDE)

#: The halves in CJK ("上期", "上半期", "下半期", "上半年"): the first or second half of the year before them.
_CJK_HALF = {"上期": 1, "上半期": 1, "上半年": 1, "前期": 1, "下期": 2, "下半期": 2, "下半年": 2, "後期": 2}
_CJK_HALF_W = "|".join(sorted(_CJK_HALF, key=len, reverse=True))
_CJK_DAY = re.compile(rf"({_Y})\s*年\s*(\d{{1,2}})\s*月\s*(\d{{1,2}})\s*日")
#: "2025年9月～12月", "2026年1~4月", "2026 1~4月", "2025年9月～2026年2月": a range of months.
_CJK_MONTHS = re.compile(rf"({_Y})\s*(?:年|[/.])?\s*(\d{{1,2}})\s*(?:月\s*)?~\s*(?:({_Y})\s*年\s*)?(\d{{1,2}})\s*月")
_CJK_MONTH = re.compile(rf"({_Y})\s*年\s*(\d{{1,2}})\s*月(?:\s*度)?")
_CJK_PART = re.compile(rf"({_Y})\s*年(?:\s*度)?\s*(?:(?P<half>{_CJK_HALF_W})|第?\s*(?P<q>[1-4])\s*(?:四半期|季度?|Q))",
                       _I)
_CJK_YEAR = re.compile(rf"({_Y})\s*年(?!\s*度)")
#: A month alone ("9月"): the month, its year added by the period reader (router/month_years.py).
_CJK_MONTH_ALONE = re.compile(r"(?<![\d/.-])(\d{1,2})\s*月")


def _cjk_months(m: re.Match[str]) -> str:
    first, last = int(m.group(2)), int(m.group(4))
    if not (1 <= first <= 12 and 1 <= last <= 12):
        return m.group(0)
    end_year = m.group(3) or (m.group(1) if last >= first else str(int(m.group(1)) + 1))
    return f"{m.group(1)}/{first:02d} ~ {end_year}/{last:02d}"


def _cjk(text: str) -> str:
    """CJK dates, months, halves, quarters and years in the numeric and English notation the readers read."""
    if not re.search(r"[年月日期]", text):
        return text
    text = _CJK_DAY.sub(lambda m: f"{m.group(1)}/{int(m.group(2)):02d}/{int(m.group(3)):02d}", text)
    text = _CJK_MONTHS.sub(_cjk_months, text)
    text = _CJK_MONTH.sub(lambda m: f"{m.group(1)}/{int(m.group(2)):02d}" if 1 <= int(m.group(2)) <= 12
                          else m.group(0), text)
    text = _CJK_PART.sub(lambda m: f"{'H' + str(_CJK_HALF[m.group('half')]) if m.group('half') else 'Q' + m.group('q')}"
                                   f" {m.group(1)}", text)
    text = _CJK_YEAR.sub(r"\1", text)
    return _CJK_MONTH_ALONE.sub(lambda m: f" {calendar.month_name[int(m.group(1))]}" if 1 <= int(m.group(1)) <= 12
                                else m.group(0), text)


# --- year-first numeric orders ---------------------------------------------------------------------------------

#: What may not follow a period written in numbers: a digit, a separator and digit, an amount's unit.
_NOT_AMOUNT = (r"(?![\d/]|[.,-]\d|\s*(?:%|€|\$|£|¥|eur\b|euros?\b|usd\b|chf\b|gbp\b|jpy\b|cny\b|krw\b|k\b|m\b|"
               r"units?\b|pcs\b))")
#: What may not stand before it: a currency or a comparison of amounts ("over 2025.10", "EUR 2025.10").
_NOT_MONEY_BEFORE = r"(?<![€$£¥])(?<!eur\s)(?<!usd\s)(?<!chf\s)(?<![<>=]\s)(?<![<>=])"
#: "2025/10/01", "2025.10.01", "2025-1-5": a day written year first (ISO once written with dashes and two digits).
_YEAR_FIRST_DAY = re.compile(rf"(?<![\w/.,-])({_Y})([/.-])(\d{{1,2}})\2(\d{{1,2}})(?![\w/]|[.,-]\d)")
#: "2025/10", "2025.10": a month written year first (two-digit month after a dot: "2025.1" is an amount).
_YEAR_FIRST_MONTH = re.compile(rf"(?<![\w/.,])(?:(?<=\d{{4}}/\d{{2}}-)|(?<!-)){_NOT_MONEY_BEFORE}"
                               rf"({_Y})(?:/(0?[1-9]|1[0-2])|\.(0[1-9]|1[0-2]))"
                               # (a dash before another year-first month is a range: "2025.08-2025.11")
                               rf"(?=-{_Y}[./]\d|{_NOT_AMOUNT})", _I)


#: "2026/01~03", "2026.1~3月", "2026/01 to 03": a range of months of one year with its end month alone (the year
#: written once); read month by month, the end was left over and the first month answered alone.
_YEAR_FIRST_MONTHS = re.compile(rf"(?<![\w/.,-])({_Y})[/.](0?[1-9]|1[0-2])\s*(?:~|to|till|until|-(?=\s*\d{{1,2}}\s*月))"
                                r"\s*(0?[1-9]|1[0-2])(?:\s*月)?(?![\w/]|[.,]\d)", _I)


def _year_first_months(m: re.Match[str]) -> str:
    year, first, last = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return f"{year}/{first:02d} ~ {year + (last < first)}/{last:02d}"


def _year_first_day(m: re.Match[str]) -> str:
    try:
        return dt.date(int(m.group(1)), int(m.group(3)), int(m.group(4))).isoformat()
    except ValueError:
        return m.group(0)


def _near(year: int, as_of: dt.date | None) -> bool:
    """Whether ``year`` may be a period of a question asked on ``as_of`` (an amount "2025.10" is no month 2015)."""
    return as_of is None or abs(year - as_of.year) <= 5


# --- quarters and halves in every order and script -------------------------------------------------------------

#: Quarter unit words and abbreviations, every language the users write (en, es, pt, fr, it, de, nl, pl, cs, ro,
#: tr, sv/da/no, fi). One table: the readers of the quarter and of the unread-span invariant take it from here.
QUARTER_UNITS = (
    "quarter", "qtr", "qrt", "quart", "quartal", "qu", "trimestre", "trimestres", "trim", "tri", "trimestru",
    "kwartaal", "kwartał", "kwartal", "kwartale", "kw", "kvartal", "kvartalet", "kvartál", "kvartalu", "čtvrtletí",
    "ctvrtleti", "çeyrek", "ceyrek", "kvartaali", "neljännes",
    # (Romanian with its article, Polish genitive, Slovak, Croatian, Hungarian: "trimestrul IV 2025", "kwartału 3")
    "trimestrul", "trimestrului", "kwartału", "kwartalu", "štvrťrok", "stvrtrok", "tromjesečje", "tromjesecje",
    "negyedév", "negyedev",
)
#: Half-year unit words and abbreviations, the same languages.
HALF_UNITS = (
    "half", "half-year", "half year", "halfyear", "hy", "hj", "halbjahr", "halbjahres", "semestre", "semestres",
    "sem", "semester", "semestru", "halfjaar", "halvår", "halvåret", "halvar", "półrocze", "polrocze", "półroczu",
    "pololetí", "pololeti", "yarıyıl", "yariyil", "puolivuotis",
    # (Romanian with its article, Ukrainian transliterated, Slovak, Croatian, Hungarian)
    "semestrul", "semestrului", "pivrichchia", "pivrichchya", "pivrichcha", "polrok", "polugodište",
    "polugodiste", "félév", "felev",
)
#: Letter codes of a quarter or half written touching its number, before or after it ("Q1", "1Q", "T1", "1T" for
#: trimestre, "S1"/"2S" for semestre, "H2"/"2H", "HJ1"/"1HJ" for Halbjahr).
PART_LETTERS = {"q": "Q", "t": "Q", "h": "H", "s": "H", "hj": "H", "hy": "H"}
_QUARTER_W = "|".join(re.escape(w).replace(r"\ ", r"\s") for w in sorted(QUARTER_UNITS, key=len, reverse=True))
_HALF_W = "|".join(re.escape(w).replace(r"\ ", r"\s") for w in sorted(HALF_UNITS, key=len, reverse=True))
_LETTER_W = "|".join(sorted(PART_LETTERS, key=len, reverse=True))
_ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
#: An ordinal 1 to 4 in any script: "1", "1.", "1º", "1°", "1ª", "1er", "1st", "2nd", "3e", "3ème", Roman "II".
_ORD = (r"(?:(?P<n>[1-4])\s?(?:\.|º|°|ª|st|nd|rd|th|er|ère|re|ème|eme|e|o|a|de|ste|-?(?:inci|nci|üncü|uncu|ıncı))?"
        r"|(?P<r>iv|i{1,3}))")
#: The year of a part, written after it ("1T 2026", "4º tri de 2025", "Q1/26", "1Q'26") or before it ("2026 1Q").
_YEAR_GLUE = r"(?:\s*[/-]\s*|\s*['’]\s?|\s+(?:de|del|do|da|di|of|em|en|in|van|w|z|din|im|du)\s+|\s+|,\s*)"
_YEAR_AFTER = rf"(?:{_YEAR_GLUE}(?P<y>{_Y})|(?:\s*[/'’-]\s*|(?<=[a-zA-Z]))(?P<yy>\d{{2}}))(?![\w/]|[.,]\d)"
_PART = (rf"(?:{_ORD}\s*(?:(?P<qw>{_QUARTER_W})|(?P<hw>{_HALF_W}))(?![^\W\d_])\.?"
         rf"|(?P<code_n>[1-4])\s?(?P<code_l>{_LETTER_W})"
         rf"|(?P<lead_l>{_LETTER_W})\s?(?P<lead_n>[1-4]))")
#: A part with its year after it.
_PART_YEAR = re.compile(rf"(?<![\w./-]){_PART}{_YEAR_AFTER}{_NOT_AMOUNT}", _I)
#: A year with its part after it ("2026 1Q", "2025, 2. Halbjahr", "2025 II kwartał").
_YEAR_PART = re.compile(rf"(?<![\w./-])(?P<y>{_Y})\s*[,/-]?\s*(?:the\s+)?{_PART}(?![\w/]|[.,]\d)", _I)
#: A part code or ordinal unit word left unread, for the unread-span invariant (router/period_leftovers.py).
PART_TOKEN = (rf"(?:\d\s?(?:{_LETTER_W})|(?:{_LETTER_W})\d|\d\s?(?:\.|º|°|ª|st|nd|rd|th|er|e)?\s*(?:{_QUARTER_W}|"
              rf"{_HALF_W})\.?|{_CJK_HALF_W}|\d\s*四半期)")


def _part(m: re.Match[str]) -> str:
    """The part of :data:`_PART_YEAR` or :data:`_YEAR_PART` as "Q1 2026" or "H2 2025", or as written."""
    g = m.groupdict()
    if g.get("lead_l") and g["lead_l"].casefold() in ("q", "h"):
        return m.group(0)  # "Q1 2026", "H2/25": the period reader's own notation, left as typed
    if g.get("code_l"):
        letter, number = PART_LETTERS[g["code_l"].casefold()], int(g["code_n"])
    elif g.get("lead_l"):
        letter, number = PART_LETTERS[g["lead_l"].casefold()], int(g["lead_n"])
    else:
        number = int(g["n"]) if g.get("n") else _ROMAN[g["r"].casefold()]
        letter = "Q" if g.get("qw") else "H"
    if g.get("r") and not (g.get("qw") or g.get("hw")):
        return m.group(0)
    if letter == "H" and number > 2:
        return m.group(0)  # no third half: left for the invariant to name back
    year = g.get("y") or (f"20{g['yy']}" if g.get("yy") else None)
    if year is None:
        return m.group(0)
    return f"{letter}{number} {year}"


#: Unit words written before their number by the writers no other reader serves ("trimestrul IV 2025", "kw4/2025",
#: "čtvrtletí 3/2025", "yarıyıl 2 2025"); "Quartal 3/2025", "trimestre 1/2026", "kwartał 2 2026", "quarter 1/2026"
#: are the German and router/period_words.py readers' own.
UNIT_FIRST_QUARTERS = ("trimestrul", "trimestrului", "trimestru", "kw", "čtvrtletí", "ctvrtleti", "kvartál",
                       "çeyrek", "ceyrek", "štvrťrok", "stvrtrok", "tromjesečje", "tromjesecje", "negyedév",
                       "negyedev")
UNIT_FIRST_HALVES = ("semestrul", "semestrului", "semestru", "pololetí", "pololeti", "yarıyıl", "yariyil",
                     "pivrichchia", "pivrichchya", "pivrichcha", "polrok", "polugodište", "polugodiste", "félév",
                     "felev")
#: The unit word first, then its number (Arabic or Roman), then the year.
_FIRST_Q = "|".join(sorted(UNIT_FIRST_QUARTERS, key=len, reverse=True))
_FIRST_H = "|".join(sorted(UNIT_FIRST_HALVES, key=len, reverse=True))
_UNIT_FIRST = re.compile(rf"(?<![\w./-])(?:(?P<qw>{_FIRST_Q})|(?P<hw>{_FIRST_H}))(?P<dot>\.)?(?P<gap>\s*)"
                         rf"(?:(?P<n>[1-4])|(?P<r>iv|i{{1,3}}))(?![\w]){_YEAR_AFTER}{_NOT_AMOUNT}", _I)


def _unit_first(m: re.Match[str]) -> str:
    """:data:`_UNIT_FIRST` as "Q4 2025" / "H1 2026". The German calendar week shares the abbreviation "KW" ("KW 14",
    "KW 4 2025"): "kw" is the Polish quarter (kwartał) only in its shape, one digit 1-4 touching it or after its
    dot, and the year joined by a slash or dot ("kw4/2025", "kw.3/2025")."""
    if m.group("qw") and m.group("qw").casefold() == "kw" and (
            m.group("r") or (m.group("gap") and not m.group("dot"))
            or not re.match(r"\s*[/.]", m.string[m.end("n"):])):
        return m.group(0)
    return _part(m)


def _parts(text: str) -> str:
    # the year first ("2026 1Q"), so that a year between two parts is read with the part it follows only when
    # no part follows it
    return _PART_YEAR.sub(_part_year, _YEAR_PART.sub(_year_part, _UNIT_FIRST.sub(_unit_first, text)))


def _part_year(m: re.Match[str]) -> str:
    letter = (m.group("code_l") or m.group("lead_l") or "").casefold()
    if letter in ("t", "s"):
        return m.group(0)  # "T1 2026", "2S 2025": the French and Spanish reader's own codes (router/romance.py)
    return _part(m)


def _year_part(m: re.Match[str]) -> str:
    g = m.groupdict()
    if not (g.get("qw") or g.get("hw") or g.get("code_l") or g.get("lead_l")):
        return m.group(0)
    if g.get("r") and not (g.get("qw") or g.get("hw")):
        return m.group(0)
    return _part(m)  # ("2025 Q3", "2025 H2" stay: the period reader's own)


# --- month words after their year ------------------------------------------------------------------------------

#: A month word after its year ("2025 November", "2026 Feb–Jun", "2026 (Jan～Apr)", "2025 Jul~Dec"), as East-Asian
#: and ISO-minded writers order them: the month (or months) of that year. Month words of every language of the one
#: month table (router/period_grammar.py); a range of them runs into the next year when its end comes first.
_MONTH_W = "|".join(sorted(MONTH_WORDS, key=len, reverse=True))
_YEAR_MONTHS = re.compile(
    # (not the year of a part or month before it: "H2 2025 (Jul-Dec)" restates the half, "Q3 2025 Jul" is a list)
    rf"(?<![\w/.,-])(?P<y>{_Y})\s*(?P<open>\(\s*)?(?P<a>{_MONTH_W})\.?"
    rf"(?:\s*(?:-|–|—|~|to|till|until|through|a|al|bis|do)\s*(?P<b>{_MONTH_W})\.?)?"
    # (no number after it, a day or a year of its own, unless that opens the range's other end: "2025 Nov ~
    # 2026 Mar")
    rf"(?(open)\s*\))(?![\w/]|[.,]\d|\s*[-–~]?\s*\d(?!\d{{3}}\s*(?:{_MONTH_W})\b))"
    # ("2026 April–May so far": up to the as-of date when it lies in the last month)
    r"(?P<now>\s+(?:so\s+far|to\s+date|until\s+(?:today|now)|till\s+(?:today|now)))?", _I)


#: A part or month word just before the year: the year is theirs.
_OWNED_YEAR = re.compile(rf"(?:(?:\b[qhts]\s?[1-4]|\b[1-4]\s?[qhts]|fy|cy)\s*[/'’-]?|\b(?:{_MONTH_W})\.?)\s*$", _I)


def _year_months(m: re.Match[str], as_of: dt.date | None) -> str:
    if _OWNED_YEAR.search(m.string, 0, m.start()):
        return m.group(0)  # "H2 2025 (Jul-Dec)" restates the half; "Dec 2025 Jan" is no month of a year
    year, first = int(m.group("y")), MONTH_WORDS[m.group("a").casefold()]
    last = MONTH_WORDS[m.group("b").casefold()] if m.group("b") else first
    end_year = year + (last < first)
    now = m.group("now") or ""
    if now and as_of is not None and (as_of.year, as_of.month) == (end_year, last):
        return f"since {calendar.month_name[first]} {year}"
    if m.group("b") is None:
        return f"{calendar.month_name[first]} {year}{now}"
    return f"{calendar.month_name[first]} {year} - {calendar.month_name[last]} {end_year}{now}"


# --- month-year ranges written mm/yy ---------------------------------------------------------------------------

#: "07/25-04/26", "07/25 to 04/26": two months written month/two-digit year, joined by a range sign or word.
_MM_YY_RANGE = re.compile(
    r"(?<![\w/.,-])(0?[1-9]|1[0-2])[/.](\d{2})\s*(?:-|–|—|~|to|till|until|through|thru|a|al|au|bis|tot|do|až|"
    r"până|hasta|até)\s*(0?[1-9]|1[0-2])[/.](\d{2})(?![\w/]|[.,]\d)", _I)


def _mm_yy_range(m: re.Match[str], order: str | None, as_of: dt.date | None) -> str:
    first = (2000 + int(m.group(2)), int(m.group(1)))
    last = (2000 + int(m.group(4)), int(m.group(3)))
    if not (_near(first[0], as_of) and _near(last[0], as_of)) or last < first:
        return m.group(0)
    if order == "month_first" and int(m.group(2)) <= 31 and int(m.group(4)) <= 31:
        return m.group(0)  # "07/25-07/28": a month-first tenant's days, read by the period reader
    end = dt.date(last[0], last[1], calendar.monthrange(*last)[1])
    return f"from {first[0]}-{first[1]:02d}-01 through {end.isoformat()}"


# --- Turkish suffixed ranges -----------------------------------------------------------------------------------

#: "Ocak 2025'ten Mart 2026'ya kadar": the ablative and dative suffixes of a year are the range's ends.
_TURKISH_FROM = re.compile(rf"({_Y}|\d{{1,2}}\.\d{{1,2}}\.{_Y})['’](?:d|t)[ae]n\s+", _I)
_TURKISH_TO = re.compile(rf"({_Y}|\d{{1,2}}\.\d{{1,2}}\.{_Y})['’](?:y?[ae]|[iıuü]n)?\s+kadar\b", _I)


# --- to-date phrases -------------------------------------------------------------------------------------------

#: "So far", "until today" in the languages the users write: with a year word of :data:`YEAR_WORDS`, the year (or
#: fiscal year) up to the as-of date.
TO_DATE_WORDS = (
    "so far", "to date", "until today", "till today", "up to today", "until now", "up to now", "till now",
    "até agora", "ate agora", "até hoje", "ate hoje", "até a data", "até à data", "hasta hoy", "hasta ahora",
    "hasta la fecha", "a la fecha", "a hoy", "jusqu'à aujourd'hui", "jusqu'à présent", "à ce jour", "a ce jour",
    "bis heute", "bisher", "bislang", "bis dato", "bis jetzt", "tot nu toe", "tot op heden", "tot vandaag",
    "fino ad oggi", "ad oggi", "finora", "do dziś", "do dzis", "do dzisiaj", "do tej pory", "dosud", "do dneška",
    "do dnes", "până azi", "pana azi", "până acum", "pana acum", "până astăzi", "bugüne kadar", "bugune kadar",
    "şu ana kadar", "su ana kadar", "hittills", "till idag", "tills idag", "indtil nu", "til nå", "hittil",
)
#: Year words ("ano", "año", "Jahr", "rok", "yıl", "an"), with whether they name the fiscal year ("ejercicio",
#: "exercice", "Geschäftsjahr", "boekjaar", "esercizio", "exercício"); English ones are the period reader's own.
YEAR_WORDS = {
    "ano": False, "año": False, "ano corrente": False, "année": False, "annee": False,
    "jahr": False, "jaar": False, "anno": False, "rok": False, "roku": False, "år": False, "året": False,
    "yıl": False, "yil": False, "an": False, "anul": False, "anului": False, "letos": False,
    "ejercicio": True, "exercício": True, "exercicio": True, "exercice": True, "geschäftsjahr": True,
    "geschaeftsjahr": True, "boekjaar": True, "esercizio": True, "räkenskapsår": True,
    "regnskabsår": True, "rok obrotowy": True, "exercițiu": True, "exercitiu": True, "mali yıl": True,
}
_TO_DATE_W = "|".join(re.escape(w).replace(r"\ ", r"\s+").replace("'", "['’]")
                      for w in sorted(TO_DATE_WORDS, key=len, reverse=True))
_YEAR_W = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(YEAR_WORDS, key=len, reverse=True))
#: Prepositions and articles before a year word ("no ano", "del ejercicio", "de l'année", "im Jahr", "w roku").
_YEAR_LEAD = (r"(?:(?:in|no|na|en|el|del|de|do|da|im|in\s+diesem|dieses|this|the|w|tym|v|i|în|bu|acumulado|"
              r"acumulada|accumulated|cumul|cumulé|cumulado)\s+|(?:dell|nell|l)['’]\s?)*")
#: A year word then a to-date word ("no ano até agora", "del ejercicio hasta hoy", "this year so far" is the
#: reader's own), or the other way round ("hasta hoy en el año").
_YEAR_TO_DATE = re.compile(
    rf"(?<![\w'’]){_YEAR_LEAD}(?P<unit>{_YEAR_W})(?:\s+(?:en\s+curso|corriente|corrente|atual|actual|courante?|"
    rf"laufende[sn]?|in\s+corso))?\s*,?\s*(?:\(\s*)?(?P<now>{_TO_DATE_W})(?:\s*\))?(?![\w])"
    rf"|(?<![\w'’])(?P<now2>{_TO_DATE_W})\s+{_YEAR_LEAD}(?P<unit2>{_YEAR_W})(?![\w])", _I)


def _year_to_date(m: re.Match[str]) -> str:
    unit = (m.group("unit") or m.group("unit2")).casefold()
    fiscal = YEAR_WORDS.get(" ".join(unit.split()), False)
    return "fiscal year to date" if fiscal else "year to date"


# --- words of everyday period phrases (router/period_phrases.py reads them; router/period_leftovers.py names them
# back when they are left unread) --------------------------------------------------------------------------------

#: Words after a unit that make it the unit that has just ended ("the quarter just gone", "the month just passed").
JUST_GONE = ("gone", "passed", "past", "ended", "finished", "closed", "completed", "done", "elapsed", "been")
#: Units of a span counted from a day, in the languages the users write, and their length.
SPAN_UNITS: dict[str, tuple[str, int]] = {
    **{w: ("days", 1) for w in ("day", "days", "d", "tag", "tage", "tagen", "jour", "jours", "día", "días", "dia",
                                "dias", "giorno", "giorni", "dzień", "dni", "den", "dny", "dní", "gün", "zi", "zile",
                                "dag", "dagar", "dage", "dager", "dagen", "päivä", "päivää")},
    **{w: ("days", 7) for w in ("week", "weeks", "wk", "wks", "woche", "wochen", "semaine", "semaines", "semana",
                                "semanas", "settimana", "settimane", "tydzień", "tygodnie", "tygodni", "týden",
                                "týdny", "týdnů", "hafta", "săptămână", "săptămâni", "saptamana", "saptamani",
                                "vecka", "veckor", "uge", "uger", "uke", "uker", "viikko", "viikkoa", "weken")},
    **{w: ("days", 14) for w in ("fortnight", "fortnights", "quinzena", "quincena", "quinzaine", "quindicina")},
    **{w: ("months", 1) for w in ("month", "months", "mo", "mos", "mth", "mths", "monat", "monate", "monaten", "mois",
                                  "mes", "meses", "mês", "mese", "mesi", "miesiąc", "miesiące", "miesięcy",
                                  "měsíc", "měsíce", "měsíců", "ay", "lună", "luni", "luna", "månad", "månader",
                                  "måned", "måneder", "kuukausi", "kuukautta", "maand", "maanden")},
}
#: Count words, English and the languages around it (a closed class).
COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "couple of": 2, "zwei": 2, "drei": 3,
               "vier": 4, "deux": 2, "trois": 3, "quatre": 4, "dos": 2, "tres": 3, "cuatro": 4, "dois": 2, "duas": 2,
               "due": 2, "tre": 3, "quattro": 4, "dwa": 2, "dwie": 2, "trzy": 3, "cztery": 4, "dva": 2, "dvě": 2,
               "tři": 3, "iki": 2, "üç": 3, "dört": 4, "două": 2, "doua": 2, "trei": 3, "patru": 4, "twee": 2,
               "drie": 3, "två": 2}


#: "Since the start of the year" in the users' languages (Turkish, Polish, Czech, Slovak, Romanian, Ukrainian and
#: Russian transliterated, Hungarian): the year to date.
SINCE_YEAR_START = (
    "yılbaşından beri", "yilbasindan beri", "yıl başından beri", "yil basindan beri", "yılbaşından bu yana",
    "yilbasindan bu yana", "yıl başından bu yana", "yılın başından beri", "od początku roku", "od poczatku roku",
    "od začátku roku", "od zacatku roku", "od začiatku roka", "od zaciatku roka", "de la începutul anului",
    "de la inceputul anului", "z pochatku roku", "vid pochatku roku", "s nachala goda", "az év eleje óta",
    "az ev eleje ota", "év eleje óta", "ev eleje ota",
)
_SINCE_YEAR_START = re.compile(r"(?<![\w'’])(?:" + "|".join(
    re.escape(w).replace(r"\ ", r"\s+") for w in sorted(SINCE_YEAR_START, key=len, reverse=True)) + r")(?![\w])", _I)

#: "CY25", "CY 2025", "CY2025": the calendar year (never the fiscal year "FY25").
_CALENDAR_YEAR = re.compile(rf"(?<![\w/.-])cy\s?['’]?(?:(?P<y>{_Y})|(?P<yy>\d{{2}}))(?![\w/]|[.,]\d)", _I)


def read_period_family(text: str, order: str | None = None, as_of: dt.date | None = None) -> str:
    """``text`` with the period notations of the family written as the period grammar and reader read them.

    ``order``: the tenant's date order ("day_first", "month_first"); ``as_of``: the day the question is asked (a
    year-first month "2025.10" is a month only near it).

    >>> read_period_family("spend 2026 1Q, 2025年9月～12月 and 4º tri de 2025")
    'spend Q1 2026, 2025/09 ~ 2025/12 and Q4 2025'
    """
    folded = text.translate(_WIDE_TABLE)
    folded = _cjk(folded)
    folded = _TURKISH_FROM.sub(r"\1 - ", folded)
    folded = _TURKISH_TO.sub(r"\1", folded)
    folded = _YEAR_FIRST_DAY.sub(_year_first_day, folded)
    folded = _YEAR_FIRST_MONTHS.sub(_year_first_months, folded)
    folded = _MM_YY_RANGE.sub(lambda m: _mm_yy_range(m, order, as_of), folded)
    # ("2025.10" as "2025/10": the grammar's year-first month, read whole in a range; alone it is written out after
    # the grammar by :func:`read_family_months`)
    folded = _YEAR_FIRST_MONTH.sub(
        lambda m: f"{m.group(1)}/{m.group(2) or m.group(3)}" if _near(int(m.group(1)), as_of) else m.group(0), folded)
    folded = _parts(folded)
    folded = _YEAR_MONTHS.sub(lambda m: _year_months(m, as_of), folded)
    folded = _CALENDAR_YEAR.sub(lambda m: m.group("y") or f"20{m.group('yy')}", folded)
    folded = _SINCE_YEAR_START.sub("year to date", folded)
    return _YEAR_TO_DATE.sub(_year_to_date, folded)


def read_family_months(text: str, as_of: dt.date | None = None) -> str:
    """``text`` with the year-first months the period grammar left (no range of them) written as the period reader
    reads them: "2026/03 vs 2026/02" is "March 2026 vs February 2026".

    >>> read_family_months("Comp B: 2026/03 vs 2026/02 spend change?")
    'Comp B: March 2026 vs February 2026 spend change?'
    """
    return _YEAR_FIRST_MONTH.sub(
        lambda m: f"{calendar.month_name[int(m.group(2) or m.group(3))]} {m.group(1)}"
        if _near(int(m.group(1)), as_of) else m.group(0), text)
