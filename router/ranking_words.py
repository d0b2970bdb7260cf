"""Rankings, comparisons and shares written the way users type them, read in the phrasing the readers know.

The readers of rankings (router/period_ranking.py, the supplier / product ranking of router/reader.py), of
differences (router/company_compare.py), of period changes and of shares (router/derived.py) each know one
canonical phrasing: "top 3 suppliers", "the month with the highest spend", "how much more did A spend than B",
"share of X in Y's spend". Users write the same asks as "top 3 sups", "the 2 main proveedores", "which fournisseur
was n°1", "which month was Xenon's lowest in spend", "xenon minus ypsilon spend", "w/ Gamma", "écart et %",
"pct of total", "Part de X dans les achats de Y". Read unchanged, such a question lost its ranking, share or
difference and was answered as a plain total (a silent wrong figure) or asked about.

Like router/romance.py, this module only rewrites that *function* vocabulary into the canonical phrasing, so every
constraint still goes through the one reading with its span accounting; names are never touched, and the rewritten
question is stated in the answer. English that already reads as a ranking, share or difference passes unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_I = re.I | re.UNICODE

_N = r"(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)"
_HIGH = r"highest|most|largest|biggest|strongest|busiest|heaviest|peak|top|max(?:imum)?"
_LOW = r"lowest|least|smallest|weakest|quietest|slowest|lightest|bottom|min(?:imum)?"
#: "best / worst month by spend": the highest / the lowest spend (the reading the answer states).
_BEST = {"best": "highest", "worst": "lowest"}
_GRAIN = r"(?:months?|quarters?)"
_RANKED = r"(?:suppliers?|vendors?|products?|product\s+groups?)"
_VERB = r"(?:had|has|have|was|were|saw|is|are|did)"
#: The amount noun a ranking or share is of.
_SPEND = r"(?:(?:total\s+|gross\s+|net\s+)?(?:spend(?:ing)?|spent|expenditure|purchases?))"


#: Amounts added up ("net + tax"): not two names.
_AMOUNT_PARTS = frozenset({"net", "tax", "vat", "freight", "shipping", "gross"})


#: A ranking or comparison cue: only beside one is "A + B" the ranked sides (else it may mean their sum).
_RANK_CUE = re.compile(r"\b(?:rank\w*|sort\w*|order(?:ed)?\s+by|vs\.?|versus|compar\w+|more|less|highest|lowest|"
                       r"most|least|top|bottom|first)\b", re.I)


def _plus(match: re.Match[str]) -> str:
    """ "rank xenon + ypsilon": two names joined; "net + tax" stays an amount, "A + B spend" their sum."""
    if {match.group("l").lower(), match.group("r").lower()} & _AMOUNT_PARTS or not _RANK_CUE.search(match.string):
        return match.group(0)
    return f"{match.group('l')} and "


#: A grouping word right before "main ...": the words name the rows of a breakdown (reading.group_dimension reads
#: "main product category" as the top level of the catalogue), never the top N of a ranking.
_GROUPING_BEFORE = re.compile(r"\b(?:by|per|each|into|across|split|broken\s+down)\s*$", re.I)


def _main(match: re.Match[str]) -> str:
    """ "the 2 main suppliers": the top 2; "who was our main supplier": the top one (romance.py writes its
    "proveedor" as "suppliers", so the number is taken from the verb)."""
    what = match.group("what")
    if _GROUPING_BEFORE.search(match.string, 0, match.start()):
        # "split by main product category", "per main supplier": the level of a grouping, not a ranking
        return match.group(0)
    if match.group("one") and not match.group("n"):
        return f"{match.group('one')}the top {re.sub(r's$', '', what)}"
    return f"the top {match.group('n') + ' ' if match.group('n') else ''}{what}"


def _which_period(match: re.Match[str]) -> str:
    """ "which month of Q4 was Ypsilon's weakest by spend" as "the month with the weakest spend for Ypsilon of Q4":
    the phrasing router/period_ranking.py reads, the company and the range kept as scope."""
    scope = match.group("s1") or ""
    if not match.group("who") and not match.group("full") and (
            not scope or re.match(r"\s+(?:in|of|during|for)\b", scope, re.I)):
        return match.group(0)  # "which month in 2025 had the highest spend": router/period_ranking.py reads it
    way = match.group("way").lower()
    way = _BEST.get(way, way)
    n = f"{match.group('n')} " if match.group("n") else ""
    who = f" for {match.group('who')}" if match.group("who") else ""
    return f"the {n}{match.group('grain')} with the {way} spend{who}{scope}"


def _most_expensive(match: re.Match[str]) -> str:
    way = "lowest" if re.match(r"(?:cheapest|least)", match.group("way"), re.I) else "highest"
    n = f"{match.group('n')} " if match.group("n") else ""
    return f"the {n}{match.group('grain')} with the {way} spend"


#: A period right after a side ("... ypsilon spend feb 2026"): without its "in" it would read as part of the side.
_PERIOD_AHEAD = re.compile(
    r"\s+(?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?:19|20)?\d{2}\b|[qh][1-4]\b|fy\s*\d{2}|"
    r"(?:19|20)\d{2}\b|last\s|this\s|ytd\b)", re.I)


#: A side that is an amount, a status or a period ("difference between net and gross", "between Q1 and Q2"):
#: not two spenders, left to the readers of those.
_NOT_A_SIDE = re.compile(
    r"\d|\b(?:net|gross|tax|vat|amounts?|totals?|posted|paid|open|invoices?|credit|budget|plan|forecast|"
    r"jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|january|february|march|april|june|july|august|september|"
    r"october|november|december|q[1-4]|h[12]|fy\w*|year|month|quarter|last|this|previous|prior|ytd)\b", re.I)


def _sides_ok(match: re.Match[str]) -> bool:
    return not (_NOT_A_SIDE.search(match.group("a")) or _NOT_A_SIDE.search(match.group("b")))


def _minus(match: re.Match[str]) -> str:
    if not _sides_ok(match):
        return match.group(0)
    gap = " in" if _PERIOD_AHEAD.match(match.string, match.end()) else ""
    return f"{match.group('lead')}how much more did {match.group('a')} spend than {match.group('b')}{gap}"


def _between(match: re.Match[str]) -> str:
    if not _sides_ok(match):
        return match.group(0)
    return f"how much more did {match.group('a')} spend than {match.group('b')}"


#: A percent said as a sign or a word ("%", "percent", "per cent", "pct", "percentage").
_PCT = r"(?:%|percent(?:age)?|per\s?cent|pct)"
#: The heading of a share written before its "part / total" ("share of wallet:", "share:", "% split:").
_SHARE_HEAD = r"(?:\bshare(?:[- ]of[- ](?:wallet|spend))?|%\s*(?:split|share)?|\bpercent(?:age)?|\bpct|\bratio)"
#: A share cue anywhere in the question: "P / total" is a share only beside one (else a ratio no reader states).
_SHARE_CUE = re.compile(r"\bshare\b|%|\bpercent|\bpct\b|\bratio\b|\bproportion\b|\bportion\b", re.I)


def _slash_total(match: re.Match[str]) -> str:
    """ "share of wallet: sensors / total": the share of sensors in the total spend (a share cue is needed)."""
    if not match.group("head") and not _SHARE_CUE.search(match.string):
        return match.group(0)
    return f"{match.group('lead')}share of {match.group('p').strip()} in total spend"


def _percent_is_of(match: re.Match[str]) -> str:
    """ "how many percent is control equipment of total": the share of the part in the total (or in the base)."""
    base = match.group("b")
    if base.casefold() in ("total", "overall", "all"):
        return f"share of {match.group('p')} in total spend"
    return f"share of {match.group('p')} in {base}"


def _share_does_have(match: re.Match[str]) -> str:
    """ "what share does Iris have at Ypsilon": the share of Iris in Ypsilon's spend (the base named after)."""
    if match.group("prep"):
        return f"share of {match.group('p')} in the spend of"
    return f"share of {match.group('p')} in total spend"


#: Words of a change or a comparison: "how much %" beside one asks the change in percent, not a share.
_CHANGE_CUE = re.compile(
    r"\b(?:increas\w*|decreas\w*|grow\w*|grew|rise|rose|risen|drop\w*|fell|fall\w*|chang\w*|up|down|more|less|"
    r"higher|lower|jump\w*|climb\w*|declin\w*|vs\.?|versus|compar\w*|against|than|differ\w*|delta|variance|"
    r"yoy|qoq|mom)\b", re.I)


def _how_many_percent(match: re.Match[str]) -> str:
    """ "how many % is shipping": a share; "up or down, how much %": the change in percent (left as written)."""
    return match.group(0) if _CHANGE_CUE.search(match.string) else "what share"


def _of_base_what_is(match: re.Match[str]) -> str:
    """ "Of group total Q1, what percent is Ypsilon": the share of Ypsilon in the group's total spend."""
    base = match.group("b")
    noun = " spend" if re.search(r"\btotal$", base, re.I) else ""
    return f"what share of {base}{noun}{match.group('mid')} is "


#: (pattern, replacement), applied in order; longer phrases before the words inside them.
_RULES: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = tuple(
    (re.compile(p, _I), r)
    for p, r in (
        # --- shorthand: "w/ Gamma", "w/o Zeta", "sups", "vndrs", "A + B"
        (r"(?<![\w/])w/o(?![\w/])", "without"),
        (r"(?<![\w/])w/(?=\s*\w)", "with "),
        (r"\b(?:sups|supps|vndrs|vends)\b", "suppliers"),
        (r"(?P<l>\w+)\s+\+\s+(?=(?P<r>\w+))", _plus),
        # --- French / Spanish ranking words romance.py leaves (it reads the figure words, not the rankings)
        (r"\b(?:soci[ée]t[ée]s|sociedades|empresas|filiales|entit[ée]s)\b", "companies"),
        (r"\b(the|which|what)\s+(?:mes|mois)\b", r"\1 month"),
        (r"\b(?:el|le|quel|qu[ée])\s+(?:mes|mois)\b", "the month"),
        (r"\b(?:mes|mois)\b(?=\s+(?:(?:le|la|el|lo)\s+)?(?:plus|m[áa]s|moins|menos|menor|mayor)\b)", "month"),
        (r"\b(meilleure?s?|mejor(?:es)?|pires?|peor(?:es)?|best|worst)\s+(?:mes|mois)\b", r"\1 month"),
        (r"(?<![\w-])trimestres\b", "quarters"),
        (r"(?<![\w-])trimestre\b", "quarter"),
        (r"\b(?:meilleure?s?|mejor(?:es)?)\b", "best"),
        (r"\b(?:pires?|peor(?:es)?)\b", "worst"),
        (r"\b(?:(?:le|la|les|el|lo)\s+)?(?:plus\s+(?:faibles?|bas(?:se)?s?|petite?s?)|"
         r"m[áa]s\s+(?:bajos?|bajas?|d[ée]biles?)|menor(?:es)?)\b", "lowest"),
        (r"\b(?:(?:le|la|les|el|lo)\s+)?(?:plus\s+(?:[ée]lev[ée]e?s?|forte?s?|grande?s?)|"
         r"m[áa]s\s+(?:altos?|altas?|fuertes?)|mayor(?:es)?)\b", "highest"),
        # "expensive" of a month is its spend; of a supplier or a product it is a price (router/price_rankings.py)
        (r"\b(mois|mes|month|trimestre|quarter)\s+(?:(?:le|la|el|lo)\s+)?(?:moins\s+cher|m[áa]s\s+barat[oa])\b",
         r"\1 lowest"),
        (r"\b(mois|mes|month|trimestre|quarter)\s+(?:(?:le|la|el|lo)\s+)?(?:plus\s+ch[eè]re?|m[áa]s\s+car[oa])\b",
         r"\1 highest"),
        # French / Spanish word order: "month lowest" ("mois le plus faible") as "lowest month"
        (r"\b(months?|quarters?)\s+(highest|lowest)\b", r"\2 \1"),
        (r"\b(?:[ée]cart|diferencia|diff[ée]rence|evoluci[óo]n|[ée]volution)\b(?=[^?]*%)",
         "change"),
        (r"\b(?:et|y)\s+(?=%)", "and "),
        (r"\ben\s+(?=%)", "in "),
        # "4T vs Q3 2025": a quarter (half) without its year beside one with it (romance reads only the latter)
        (r"(?-i:\b([1-4])T\b)(?!\s*\d)", r"Q\1"),
        (r"(?-i:\b([12])S\b)(?!\s*\d)", r"H\1"),
        # a gloss in brackets that repeats the ranking in the writer's language: "worst month (lowest)"
        (rf"\s+\((?=[^()]*\b(?:{_HIGH}|{_LOW}|best|worst)\b)"
         rf"(?:\s*(?:the|{_HIGH}|{_LOW}|best|worst|{_GRAIN}|mois|mes|spend|expensive|cheapest)\b)+\s*\)", ""),
        # --- rankings of suppliers and products
        # "the 2 main suppliers", "our main vendor", "leading suppliers": the top ones by spend
        (rf"\b(?P<one>(?:was|is)\s+)?(?:(?:the|our)\s+)?(?:(?P<n>{_N})\s+)?(?:main|principal(?:es)?|principaux|leading|major)\s+"
         # "main product category / product line" names a level of the catalogue, not the top products
         rf"(?P<what>{_RANKED})\b(?!\s+(?:categor|famil|line|class|segment))", _main),
        # "which supplier was n°1", "what vendor was number one": the top one
        (r"\b(?:which|what|who)\s+(?P<what>supplier|vendor|product|product\s+group)s?\s+(?:was|is|were|ranked)\s+"
         r"(?:the\s+)?(?:n[°ºo]\.?\s*1|no\.?\s*1|#\s*1|number\s+(?:one|1)|top|largest|biggest)\b",
         r"top \g<what>"),
        # "products ranked by spend top 3", "suppliers by spend, top 5": the top N by spend
        (rf"\b(?P<what>{_RANKED})\s+(?:ranked\s+|sorted\s+|ordered\s+)?by\s+(?P<spend>{_SPEND}),?\s+top\s+"
         rf"(?P<n>{_N})\b", r"top \g<n> \g<what> by \g<spend>"),
        # "top three suppliers accept Helix": right after the ranked noun, "accept" is the transcribed or typed
        # slip of "except" (a top N does not accept anything); read as the exclusion it is
        (rf"\b(?P<head>(?:top|bottom|biggest|largest|smallest)\s+(?:{_N}\s+)?(?:{_RANKED}|categor(?:y|ies))"
         rf"(?:\s+by\s+{_SPEND})?,?\s+)accept(?:ing)?(?=\s+(?:for\s+)?\S)", r"\g<head>except"),
        # --- rankings of periods
        # "which month of Q4 was Ypsilon's weakest by spend", "which month had Kestrel's highest spend",
        # "which full quarter between Q3 and Q1 was the weakest", "which month q1 26 had the lowest spend"
        (rf"\b(?:which|what)\s+(?:(?P<n>{_N})\s+)?(?P<full>(?:full|complete|whole|calendar|single)\s+)?(?P<grain>{_GRAIN})"
         rf"(?P<s1>(?:\s+(?!{_VERB}\b)[^\s?!.;,]+){{0,7}}?)\s+{_VERB}\s+(?:(?:the|our)\s+)?"
         rf"(?:(?P<who>[^\s?!.;,'’]+(?:\s+[^\s?!.;,'’]+){{0,3}})['’]s?\s+)?(?:the\s+)?"
         rf"(?P<way>{_HIGH}|{_LOW}|best|worst)\b(?:\s+(?:in|by|for|of|on)\b)?(?:\s+(?:the\s+)?{_SPEND})?",
         _which_period),
        # "most expensive month", "the costliest quarter", "cheapest month": the spend ranked
        (rf"\b(?:the\s+)?(?:(?P<n>{_N})\s+)?(?P<way>most\s+expensive|costliest|priciest|cheapest|least\s+expensive)"
         rf"\s+(?P<grain>{_GRAIN})\b", _most_expensive),
        # --- differences between two sides
        # "xenon minus ypsilon spend": how much more the first spent than the second
        (rf"(?P<lead>^|[:;,]\s*)(?P<a>[^\s?!.;:,()]+(?:\s+[^\s?!.;:,()]+){{0,3}}?)\s+minus\s+"
         rf"(?P<b>[^\s?!.;:,()]+(?:\s+[^\s?!.;:,()]+){{0,3}}?)\s+{_SPEND}", _minus),
        # "difference in spend between A and B"
        (rf"\b(?:the\s+)?(?:difference|diferencia|diff[ée]rence|gap|delta)\s+(?:(?:in|of)\s+{_SPEND}\s+)?between\s+"
         rf"(?P<a>[^\s?!.;:,()]+(?:\s+[^\s?!.;:,()]+){{0,3}}?)\s+and\s+"
         rf"(?P<b>[^\s?!.;:,()]+(?:\s+[^\s?!.;:,()]+){{0,3}}?)(?:\s+in\s+{_SPEND}|\s+{_SPEND})?(?=\s+(?:in|for|during|over|on)\b|[\s?!.;,]*$|\s*[,;(?])",
         _between),
        (r"\s*\(\s*how\s+much\s+more\s*\??\s*\)", ""),
        # "how much more on Zeta then Beta": "then" after "how much more/less" is the slip of "than" (typed or
        # transcribed); the comparison it opens is read as written with "than"
        (r"\b(how\s+much\s+(?:more|less)\b[^?.!;]{1,80}?\s)then\b", r"\1than"),
        # --- counts of the suppliers bought from
        # "no. of active suppliers", "how many active vendors", "active supplier count": a supplier is active in a
        # period when it has counted invoice lines there, which is what the governed supplier count counts
        # ("# active vendors": the number sign says "number of" by itself, with or without "of")
        (r"(?P<count>\b(?:number|no\.?|nr\.?|count)\s+of\s+|\bhow\s+many\s+|(?<!\w)#\s*(?:of\s+)?)"
         r"(?:(?:currently|actually)\s+)?active\s+(?P<what>suppliers|vendors)\b",
         lambda m: f"{'number of ' if m.group('count').startswith('#') else m.group('count')}{m.group('what')}"),
        (r"\bactive\s+(?P<what>supplier|vendor)s?\s+count\b", r"\g<what> count"),
        # --- the share family: a part over a base in any order ("P / total", "how many % is P of total", "what
        # share does P have at B", "of B's total, what percent is P"), written as "share of P in B" or "what share of
        # B is P", the phrasings router/analysis.py reads (it tells the part from the base by the kind of name)
        (r"\bpareto(?:\s+(?:analysis|view|check|chart|cut))?\s*[:\-–]\s*(?=[^?]{0,60}(?:\btop|\bshare|%|\bpercent))",
         ""),
        (rf"(?P<lead>^|[:;,]\s*)(?P<head>{_SHARE_HEAD}\s*[:\-–]\s*)?(?P<p>[^/:;,?()]{{2,80}}?)\s*/\s*(?:the\s+)?"
         rf"(?:total|overall|all|everything)(?:\s+{_SPEND})?(?!\w)", _slash_total),
        (r"\bshare[- ]of[- ]wallet\b", "share"),
        (rf"(?P<lead>^|[:;,]\s*)(?P<p>[^:;,?()]{{2,80}}?)\s+how\s+(?:many|much)\s+{_PCT}(?:\s+(?:is\s+it|are\s+they))?\s+"
         rf"(?:of|in|from)\s+(?:the\s+)?(?:total|overall|all)(?:\s+{_SPEND})?(?!\w)",
         r"\g<lead>share of \g<p> in total spend"),
        (rf"\bhow\s+(?:many|much)\s+{_PCT}\s+(?:is|are|was|were|does|do|did|makes?\s+up|made\s+up)\s+"
         rf"(?P<p>[^:;,?()]{{2,80}}?)\s+(?:of|in|from)\s+(?:the\s+)?(?P<b>total|overall|all|[^:;,?()]{{1,60}}?\b{_SPEND})"
         rf"(?:\s+{_SPEND})?(?!\w)", _percent_is_of),
        (r"\b(?:what|which)\s+(?:share|percentage|percent|proportion|portion|part|%)\s+(?:does|do|did)\s+"
         r"(?P<p>[^?,;]{2,80}?)\s+(?:have|has|hold|take|get|make\s+up|represent|account\s+for)"
         r"(?:\s+(?P<prep>at|in|of|within|for|on|across))?(?!\w)", _share_does_have),
        (rf"\b(?:of|from|out\s+of|within)\s+(?:the\s+)?(?P<b>[^,?;]{{1,60}}?\b(?:total|{_SPEND}))(?P<mid>[^,?;]{{0,40}}?)"
         rf"\s*[,:;]\s*(?:what|which|how\s+many|how\s+much)\s+(?:{_PCT}|share|part|portion|proportion)\s+"
         r"(?:is|are|was|were|goes\s+to|went\s+to|belongs\s+to|comes\s+from|came\s+from)\s+", _of_base_what_is),
        # ("as % of total group spend": the scope word after "total" stays, the "% of total" rule below reads it)
        (rf"\b(?:in|as)\s+(?:a\s+)?{_PCT}\s+of\b(?:\s+(?:the\s+)?(?P<t>total|overall|all)(?!\w)"
         rf"(?!\s+(?:group|tenant|compan|entit|combined|consolidated))(?:\s+{_SPEND})?)?",
         lambda m: "share of total spend" if m.group("t") else "share of"),
        (rf"\bhow\s+(?:many|much)\s+{_PCT}(?!\w)", _how_many_percent),
        # --- shares
        # "pct of total", "% of the total spend": the share of the total
        # ("% of total group spend": the scope word between stays, the share of the group's total)
        (rf"(?:\b(?:pct|percent(?:age)?)|%)\s+of\s+(?:the\s+)?(?:total|all)(?P<scope>\s+(?:group(?:[- ]wide)?|"
         rf"tenant))?(?:\s+{_SPEND})?(?!\w)",
         lambda m: f"share of total{m.group('scope') or ''} spend"),
        # "how big part of Ypsilon spend is by Gamma" (a Germanic "how big a part"): the share of Gamma in that spend
        (rf"\bhow\s+(?:big|large|much|great)\s+(?:a\s+)?(?:part|share|portion|piece|percentage)\s+of\s+"
         rf"(?P<base>[^?]{{1,80}}?)\s+(?P<spend>{_SPEND}|spendings?)\s+(?:is|was|are|were|goes|went|comes|came)\s+"
         r"(?:by|from|with|to|at|on|for)\s+(?P<x>[^?,;]+?)(?=\s+(?:in|for|during|over|from|between|since|the|"
         r"this|last|previous)\b|\s*[,?;(]|\s*$)",
         lambda m: f"share of {m.group('x')} in {m.group('base')} spend"),
        # --- "which 2 vendors have the most spend", "from which supplier we buy the most": the top suppliers
        (rf"\b(?:which|what)\s+(?P<n>{_N})\s+(?P<what>suppliers|vendors)\s+(?:have|has|had|got|get|did\s+have)\s+"
         rf"(?:the\s+)?(?:most|highest|biggest|largest)\s+(?:{_SPEND}|spendings?|volume|turnover)\b",
         r"the top \g<n> \g<what> by spend"),
        (rf"\b(?:which|what)\s+(?P<what>supplier|vendor)\s+(?:has|had|got|gets|did\s+have)\s+"
         rf"(?:the\s+)?(?:most|highest|biggest|largest)\s+(?:{_SPEND}|spendings?|volume|turnover)\b",
         r"the top \g<what> by spend"),
        (r"\b(?:from|with|at)\s+(?:which|what)\s+(?P<what>supplier|vendor)s?\s+(?:do\s+|did\s+)?"
         r"(?:we|you|they|i)\s+(?:buy|bought|purchase|purchased|spend|spent|order|ordered)\s+(?:the\s+)?most\b",
         r"the top \g<what>"),
        (r"\b(?:which|what)\s+(?P<what>supplier|vendor)\s+(?:do|did)\s+(?:we|you|they|i)\s+"
         r"(?:buy|purchase|spend|order)\s+(?:the\s+)?most\s+(?:from|with|at)\b", r"the top \g<what>"),
        # "part of Helix in spend of Xenon" (French "la part de ... dans les achats de ...")
        (rf"\bpart\s+of\s+(?=[^?]{{1,80}}?\bin\s+(?:the\s+)?{_SPEND})", "share of "),
    )
)

#: A share question's "%" after its year ("... spend 2025 %"), which would read as a percentage amount.
_SHARE = re.compile(r"\b(?:share|part|proportion|pct|percent(?:age)?)\b|%", _I)
_YEAR_PERCENT = re.compile(r"(?<=\b(?:19|20)\d{2})\s+%(?!\w)|(?<=\bfy\d{2})\s+%(?!\w)", _I)


def read_ranking_words(question: str) -> str | None:
    """The question with its ranking, share and difference vocabulary in the canonical phrasing, or ``None`` when
    it has none to rewrite.

    >>> read_ranking_words("alpenland top 3 sups 2025")
    'alpenland top 3 suppliers 2025'
    >>> read_ranking_words("which month of Q4 2025 was Ypsilon's weakest by spend?")
    'the month with the weakest spend for Ypsilon of Q4 2025?'
    >>> read_ranking_words("top 3 suppliers of Company A in 2025") is None
    True
    """
    text = question
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)  # type: ignore[arg-type, call-overload]
    if _SHARE.search(text):
        text = _YEAR_PERCENT.sub(", in %", text)
    text = " ".join(text.split())
    return text if text != " ".join(question.split()) else None


def with_reading_note(text: str, reading: str) -> str:
    """An answer's text with the rewritten question stated before its sources (the answer itself unchanged)."""
    head, sep, tail = text.partition(" Sources:")
    return f"{head.rstrip()} Ranking, share and comparison words read as {reading!r}.{sep}{tail}"
