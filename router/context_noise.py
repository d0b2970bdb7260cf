"""Long, polite, noisy messages: the ask separated from the context around it, and the context named back.

New hires, auditors sending "provided by client" lists and colleagues forwarding e-mails wrap the ask in words that
constrain nothing: greetings ("Good morning Anna,"), sign-offs and signatures (names, roles, phone numbers, e-mail
and office addresses), ticket and meeting references ("re: ticket 48213", "INC0012345", "as discussed on the call
on 3 March"), quoted earlier lines ("> ..."), hedges and apologies, the reason for asking ("for the audit file", "my
manager needs this for Friday"), the source system of another ERP ("in the AP ledger"). Read as the question, their
numbers become periods, amounts or ids and their words become clarifications. So the message is pre-read once:
each such piece is set aside (and named back: "set aside as context: greeting, ticket reference 48213"), a
self-correction keeps the corrected value ("Q2, I mean Q1" is Q1), and numbered requests ("1. ... 2. ...") become
the parts of one compound question (joined by ";", a boundary of :func:`router.compound.split_asks`).

Design note: every pattern is anchored on a word that marks the piece as context (a greeting word, a sign-off, a
reference noun with its number, "as discussed", "needs this for"); the words a piece may span after its marker are
a closed list (dates, weekdays, times, names of people only in a greeting or a signature), so a piece can never
reach into the ask. A piece that contains a known name of the tenant (a company, a supplier, a product group) is
kept: a real constraint is never set aside. What is kept is read exactly as if typed alone. The envelope of the
message (its salutation, sign-off and signature, urgency and purpose clauses, in six languages) is read first, by
:mod:`router.envelope`, whose tables also give this module its closing words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from router.context_clauses import set_aside_clauses
from router.context_sentences import after_reference, passes, same_company, subject_line
from router.envelope import closing_pattern, read_envelope, read_envelope_lead

#: The sign-off that opens a signature ("Thanks, Maria", "Kind regards", "-- "): only at the start of a line or
#: after the end of a sentence.
#: (the closing words of every language: one table, router/envelope.py)
_SIGN_OFF = rf"(?:{closing_pattern()})"
_SIGN_OFF_LINE = re.compile(rf"^\s*(?:--\s*$|{_SIGN_OFF}\b[\s,.!:-]*)", re.I)
#: A sign-off after the last sentence of a one-line message and the signature after it (no question in it).
_SIGN_OFF_TAIL = re.compile(rf"(?:(?<=[.!?)])|,)\s*{_SIGN_OFF}\b(?P<rest>[^?]{{0,160}})$", re.I)
#: A signature that is a person's or a team's capitalised name, with a note in brackets ("Vendor Risk (week 1)").
_TEAM_SIGNATURE = re.compile(r"[\s,]*(?:[A-Z][\w&.'-]*\s*){1,4}(?:\([^()?]{0,30}\))?[\s.!]*")
_QUOTED = re.compile(r"^\s*>")
_WROTE = re.compile(r"^\s*on\s.{3,80}\bwrote:\s*$", re.I)
_HEADER = re.compile(r"^\s*(?:from|sent|to|cc|bcc|date|subject|betreff|von|an)\s*:.*$|"
                     r"^\s*-{2,}\s*(?:original\s+message|forwarded\s+message)\s*-{2,}\s*$", re.I)
_SUBJECT_PREFIX = re.compile(r"^\s*(?:(?:re|fw|fwd|aw|wg)\s*:\s*)+", re.I)
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL = re.compile(r"\bhttps?://\S+|\bwww\.\S+", re.I)
_PHONE = re.compile(r"(?:\b(?:tel|phone|mobile|mob|cell|fax|ph|direct)\.?\s*:?\s*|(?<![\w+])(?=\+\d))"
                    r"\+?\d[\d ()/.-]{6,}\d", re.I)
#: A line of a signature block that is contact detail only (a street address, a postcode and a city).
_ADDRESS = re.compile(r"^\s*(?:\d{1,4}\s+)?[A-ZÄÖÜ][\w.'-]*(?:\s+[A-ZÄÖÜ][\w.'-]*){0,3}\s*(?i:street|st\.|road|rd\.|"
                      r"avenue|ave\.|straße|strasse|str\.|weg|platz|allee|lane|way)\b\.?\s*\d{0,4}\w?\s*"
                      r"(?:,\s*\d{4,5}\s+[A-ZÄÖÜ][\w-]+(?:\s+[A-ZÄÖÜ][\w-]+)?|,\s*[A-ZÄÖÜ][\w-]+)?\s*$|"
                      r"^\s*(?:\d{1,4}\s+)?[A-ZÄÖÜ][\w'-]*(?i:straße|strasse|weg|platz|allee)\s*\d{1,4}\w?\s*"
                      r"(?:,\s*\d{4,5}\s+[A-ZÄÖÜ][\w-]+)?\s*$|^\s*\d{4,5}\s+[A-ZÄÖÜ][\w-]+(?:\s+[A-ZÄÖÜ][\w-]+)?\s*$")
_NUMBERED = re.compile(r"^\s*(?:\(?(?P<n>\d{1,2}|[a-h])[.)]|[-*•])\s+(?P<item>\S.*)$")
#: "1) X 2) Y" in one line: the items after a start or a colon (never "im 1. Quartal").
_INLINE_ITEM = re.compile(r"(?:(?<=^)|(?<=[:?.!;,])\s*|\s+)\(?(?P<n>[1-9])\)\s+")

_PLEASANTRY = re.compile(
    r"(?:^|(?<=[.!?,;:])\s*)(?:i\s+)?hope\s+(?:you(?:'re|’re|\s+are)\s+(?:well|doing\s+well|keeping\s+well)|"
    r"all\s+is\s+well|this\s+(?:e-?mail\s+|message\s+)?finds\s+you\s+well|you\s+had\s+a\s+(?:good|nice|great)\s+"
    r"(?:weekend|week|day))|happy\s+(?:monday|tuesday|wednesday|thursday|friday)|"
    r"how\s+are\s+you(?:\s+doing)?\?|thanks\s+for\s+your\s+help(?:\s+(?:on|with)\s+this)?|"
    r"(?:thanks|thank\s+you)\s+in\s+advance|much\s+appreciated|appreciate\s+(?:it|your\s+help)", re.I)
_PLEASANTRY_END = re.compile(r"\s*[.!,;]*\s*")
_HEDGE = re.compile(
    r"(?:if\s+it(?:'s|’s|\s+is)\s+not\s+too\s+much\s+trouble|if\s+you\s+(?:don't|don’t|do\s+not)\s+mind|"
    r"if\s+possible|if\s+you\s+can(?!['’]t)|when\s+you\s+(?:get|have)\s+a\s+(?:chance|moment|minute|sec(?:ond)?)|"
    r"at\s+your\s+(?:earliest\s+)?convenience|"
    r"i\s+(?:might|may|could)\s+be\s+wrong(?:\s+(?:here|about\s+this))?,?\s+but|"
    r"(?:i'm|i’m|i\s+am)\s+not\s+sure\s+(?:if|whether)\s+this\s+is\s+the\s+right\s+(?:place|channel|team|person)|"
    r"(?:sorry|apologies|apologi[sz]e)\s+(?:for|if\s+this\s+is)\s+(?:the|a|such\s+a)?\s*(?:very\s+|really\s+)?"
    r"(?:basic|silly|dumb|stupid|naive|newbie|simple|obvious|trivial)\s+question|"
    r"(?:sorry|apologies)\s+(?:to\s+bother\s+you|for\s+(?:the\s+)?(?:bother|trouble|delay|late\s+request|"
    r"(?:the\s+)?long\s+(?:e-?mail|message)|the\s+follow-?up|chasing))(?:\s+again)?|"
    r"(?:i'm|i’m|i\s+am)\s+(?:new\s+here|new\s+to\s+(?:this|procura|the\s+team|the\s+tool)|a\s+new\s+(?:hire|joiner))|"
    r"new\s+(?:hire|joiner)\s+here|(?:quick|small|basic|silly)\s+question|"
    r"(?:just\s+)?(?:a\s+)?gentle\s+reminder|(?:just\s+)?following\s+up)", re.I)
_SEPARATOR_AFTER = re.compile(r"^\s*(?:[,;:!.]+|\s[-–—]\s)?\s*")
#: The words a reference or a reason may span after its marker: a day, a date, a time, a weekday, "last week".
_WHEN = (r"(?:\s+(?:on|last|this|next|past|earlier|yesterday|today|tomorrow|tonight|morning|afternoon|evening|"
         r"week|month|the|of|at|by|before|until|till|eod|eow|cob|end|noon|asap|monday|tuesday|wednesday|"
         r"thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|january|february|march|april|may|june|july|august|"
         r"september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|"
         r"\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?|\d{1,2}[:.]\d{2}|\d{1,2}(?:st|nd|rd|th)?(?![./:-]\d)|\d{4}|am|pm)\b\.?)")
_WITH_PERSON = r"(?:\s+with\s+(?:[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?|you|the\s+team|your\s+team|me))?"
_MEETING = re.compile(
    r"(?:^|(?<=[\s(]))(?:as\s+(?:discussed|agreed|mentioned|requested|promised)|following|further\s+to|per|as\s+per|"
    r"re|regarding|following\s+up\s+on|further\s+to)\s+(?:on\s+|in\s+|at\s+|during\s+)?(?:our|the|my|your|"
    r"today's|yesterday's|last\s+week's|this\s+morning's)?\s*(?:teams\s+|zoom\s+|phone\s+|quick\s+|weekly\s+|"
    r"monthly\s+)?(?:call|meeting|conversation|chat|discussion|e-?mail|mail|sync|catch-?up|stand-?up|huddle)"
    + _WITH_PERSON + _WHEN + r"{0,8}" + _WITH_PERSON + r"(?=\s*(?:[,;:.!?)]|\s[-–—]\s|$))\)?", re.I)
_TICKET = re.compile(
    r"(?:\b(?:re|ref|reference|regarding|for|per|see|under)\b\s*[:.]?\s*)?\(?(?:(?:our|your|the)\s+)?"
    r"(?:\b(?:ticket|case|incident|service\s+request|change\s+request|request|jira(?=\s)|issue|sr|pbc(?:\s+(?:item|"
    r"request|list))?|ref(?:erence)?)\.?\s*(?:no\.?|nr\.?|number|id|#|:)?\s*#?\s*(?P<id>[A-Z]{0,6}-?\d{3,}(?:[-/]\d+)?)"
    r"|\b(?P<code>(?:INC|REQ|RITM|CHG|TASK|PRB|SCTASK|CS|CASE)\d{5,}))\b\)?", re.I)
_PBC = re.compile(r"\(?\b(?:provided\s+by\s+(?:the\s+)?client|pbc)(?:\s+(?:item|request|list|no\.?|nr\.?|#)"
                  r"(?:\s*#?\s*[a-z]?\d{1,4}(?:[./-]\d{1,3})?\b)?)?\)?", re.I)
#: The reason a question is asked: a person or an occasion that needs the answer, never a constraint.
_REASON = re.compile(
    r"(?:(?:my|our|the)\s+(?:line\s+)?(?:manager|boss|cfo|ceo|controller|director|team\s+lead|lead|supervisor|"
    r"auditors?|audit\s+team|partner)|(?:i|we)|\b(?:[A-Z][a-z]+)\s+from\s+(?:audit|finance|controlling))\s+"
    r"(?:needs?|wants?|asked\s+for|requested|(?:is|are)\s+asking\s+for|(?:has|have)\s+asked\s+for|"
    r"need(?:s|ed)?\s+to\s+(?:have|see))\s+(?:this|it|these|the\s+(?:figure|figures|number|numbers|answer|data))"
    r"(?:\s+(?:for|by|before|until|till)\s*(?:the\s+)?(?:(?:audit|board|steering|month-end|quarter-end|year-end|"
    r"review|meeting|deck|pack|report|file)\b\s*)*)?" + _WHEN + r"{0,6}(?=\s*(?:[,;:.!?)]|\s[-–—]\s|$))|"
    r"(?:(?:this\s+is|it's|it’s|it\s+is)\s+)?(?:needed\s+|required\s+|requested\s+)?(?:for|to\s+complete|to\s+close)\s+"
    r"(?:the|our|my)\s+(?:(?:year-end|statutory|external|internal|annual|interim|q[1-4])\s+)?(?:audit(?:\s+(?:file|"
    r"binder|working\s+papers|request|sample|trail))?|audit\s+file|working\s+papers|board\s+(?:pack|deck|meeting)|"
    r"month-end\s+(?:close|pack)|quarter-end\s+(?:close|pack)|year-end\s+close|records|files|"
    # "for the MEC commentary", "for my monthly slides": the deliverable the figure goes into, no constraint (its
    # qualifier an occasion's word or acronym, never a name nor another acronym: "for the Xenon commentary", "for
    # the OPEX commentary" may be a limit, read as such)
    r"(?:(?-i:MEC|QBR|MBR|QE|YE|ME|ExCo|EXCO|SteerCo|STEERCO|MTP|LE|KPI)\s+|(?:month-end|monthly|quarterly|weekly|board|management|mgmt|exec|executive|budget|"
    r"forecast|variance|flux)\s+)?(?:commentary|commentaries|slides?|deck|presentation|memo|write-?up|narrative))"
    # (not before ", not ...": "asking for the audit file, not for today" says which date is meant)
    + _WHEN + r"{0,6}(?=\s*(?:[,;:.!?)]|\s[-–—]\s|$))(?!\s*,\s*not\b)", re.I)
#: A lead that only announces how many asks follow ("two things from the audit list (Company C): 1) ... 2) ..."):
#: the asks follow it; its words ("audit list") are no constraint (a company in brackets after it is kept).
_ANNOUNCED = re.compile(
    r"^\s*(?:(?:two|three|four|five|2|3|4|5|a\s+few|a\s+couple\s+of|some)\s+(?:quick\s+|short\s+|more\s+)?"
    r"(?:things|questions|items|points|requests|asks)(?:\s+(?:from|for|on|off)\s+(?:the|our|my|your)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:audit\s+)?(?:list|file|request|checklist|review|pack|tracker))?)(?=\s*(?:\(|:))", re.I)
#: A remark told after the ask about what the asker (or the supplier) saw, heard or calls the thing asked ("I saw it
#: as a draft last month.", "The supplier says it was sent in March.", "In my old company we called this the
#: duplicate payment check."): a statement ending the message, no constraint (its period is when it was seen).
_REMARK = re.compile(
    r"(?<=[.?!])\s+(?:(?:i|we|the\s+(?:supplier|vendor|buyer|client|customer)|they|he|she|my\s+(?:colleague|manager|boss))"
    r"\s+(?:saw|have\s+seen|had\s+seen|heard|noticed|was\s+told|were\s+told|says?|said|claims?|claimed|told\s+me|"
    # (never "I think / believe it was Q1": a hedged constraint, read as such)
    r"mentioned)\s+(?:that\s+)?(?:it|this|that|they|there\s+(?:was|were|is|are|has\s+been|have\s+been))\b"
    r"[^.?!]*[.!]|"
    r"in\s+my\s+(?:old|previous|former|last|other)\s+(?:company|job|firm|team|role)\b[^.?!]*\b(?:this|that|it)\b"
    r"[^.?!]*[.!])", re.I)
#: The ledger or system of another ERP the user looks at: where the figure is, not which figure.
_SOURCE = re.compile(r"\b(?:in|from|per|according\s+to)\s+(?:the|our)?\s*(?:ap\s+(?:sub-?)?ledger|"
                     r"(?:accounts\s+payable|purchase)\s+(?:sub-?)?ledger|sap|oracle|the\s+erp|erp|coupa|ariba)\b"
                     r"(?=\s*(?:[,;:.!?)]|\s[-–—]\s|$|\s+(?:for|in|of|at|with|from|during|between|since)\b))", re.I)
#: "the vendor, sorry, supplier", "Q2, I mean Q1", "Company B - sorry, Company C": the value after the marker.
_CORRECTION = re.compile(r"\s*(?:,|\s(?:[-–—]|--))\s*(?:sorry|oops|i\s+mean|i\s+meant|sorry,?\s+i\s+mean|no\s+wait|"
                         r"or\s+rather|correction|scratch\s+that|typo)\s*[,:\-–—]?\s+", re.I)
_PERIOD = re.compile(r"(?:[QH][1-4]|FY\s?\d{2,4}|\d{4}|'\d{2}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"
                     r"[a-z]*\.?|(?:last|this|next)\s+(?:month|quarter|year|week))(?:\s+(?:\d{4}|'\d{2}))?", re.I)
_WORD = re.compile(r"[\w'’&.-]+")
_GENERIC = frozenset("""
company supplier suppliers the and of for gmbh ag ltd inc co kg se sa llc products product group systems supplies
international services solutions holding group
""".split())  # noqa: SIM905 - a word list reads better as text


@dataclass(frozen=True)
class Pruned:
    """The ask of a message and the context set aside from it (labels in the order found)."""

    text: str
    aside: tuple[str, ...]


def _protected(span: str, names: frozenset[str]) -> bool:
    """Whether ``span`` names something of the tenant (so it is a constraint, never context)."""
    words = {w.lower().strip(".'’") for w in _WORD.findall(span)}
    return bool(re.search(r"\bcompany\s+[a-z]\b", span, re.I)) or bool(words & names)


def name_words(spellings: Iterable[str]) -> frozenset[str]:
    """The distinctive words of the tenant's names ("beta", "gamma", "kestrel"), for :func:`set_aside_context`."""
    return frozenset(w for s in spellings for w in (x.lower().strip(".'’") for x in _WORD.findall(s))
                     if len(w) >= 3 and w not in _GENERIC and not w.isdigit())


def _lines(message: str, aside: list[str]) -> list[str]:
    """The lines of the ask: quoted lines, e-mail headers, the signature block and contact lines removed."""
    lines = message.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for n, line in enumerate(lines):
        if _QUOTED.match(line) and _NUMBERED.match(next((x for x in lines[n + 1:] if x.strip()), "")) \
                and re.search(r"\bfollowing\b|:\s*$", line):
            kept.append(_QUOTED.sub("", line))  # a quoted line that announces the numbered asks below is their header
        elif _QUOTED.match(line) or _WROTE.match(line):
            aside.append("quoted earlier message")
        elif _HEADER.match(line):
            aside.append("e-mail header")
        else:
            kept.append(line)
    for i, line in enumerate(kept):
        if i == 0 or not _SIGN_OFF_LINE.match(line) or not any(k.strip() for k in kept[:i]):
            continue
        block = kept[i:]
        if "?" in "".join(block[1:]) or any(_NUMBERED.match(b) for b in block[1:]):
            continue  # more asks follow: a sign-off word, not the end of the message
        aside.append("sign-off and signature")
        kept = kept[:i]
        break
    out = []
    for line in kept:
        bare = _PHONE.sub("", _URL.sub("", _EMAIL.sub("", line))).strip(" ,;|/-–—:")
        if line.strip() and (not bare or (_ADDRESS.match(line) and "?" not in line)):
            aside.append("contact details")
        else:
            out.append(line)
    return out


def _numbered(lines: list[str], aside: list[str], names: frozenset[str] = frozenset()) -> list[str]:
    """Numbered or bulleted requests as one line of parts joined by ";" (a compound question's boundary)."""
    items = [(i, m) for i, line in enumerate(lines) if (m := _NUMBERED.match(line))]
    if len(items) < 2:
        return lines
    labels = [m.group("n") for _, m in items]
    first_label = (labels[0] or "").lower()
    expected: list[str | None] = [str(k) for k in range(1, len(items) + 1)] if first_label == "1" else \
        [chr(ord("a") + k) for k in range(len(items))] if first_label == "a" else [None] * len(items)
    if [lab.lower() if lab else None for lab in labels] != expected:
        return lines
    first, last = items[0][0], items[-1][0]
    if any(lines[j].strip() and not _NUMBERED.match(lines[j]) for j in range(first, last + 1)):
        return lines  # text between the items: not one list
    parts = same_company([m.group("item").strip().rstrip("?.!;, ") for _, m in items], names)
    aside.append(f"numbered requests ({len(parts)} parts)")
    end = "?" if any("?" in m.group("item") for _, m in items) else "." if any(x.strip() for x in lines[last + 1:]) \
        else ""  # (a sentence end before the lines after the list, so they are read as sentences of their own)
    head = lines[:first]
    if head and head[-1].strip() and not head[-1].rstrip().endswith(":"):
        head = [*head[:-1], head[-1].rstrip() + ":"]  # the line before the list is its header
    return [*head, "; ".join(parts) + end, *lines[last + 1:]]


def _inline_numbered(text: str, aside: list[str]) -> str:
    """'1) X 2) Y' in one line: the parts joined by ';' when numbered 1, 2, ... in order."""
    found = list(_INLINE_ITEM.finditer(text))
    if len(found) < 2 or [int(m.group("n")) for m in found] != list(range(1, len(found) + 1)):
        return text
    parts = [text[m.end():(found[k + 1].start() if k + 1 < len(found) else len(text))].strip().rstrip("?.!;, ")
             for k, m in enumerate(found)]
    if not all(parts):
        return text
    aside.append(f"numbered requests ({len(parts)} parts)")
    return text[:found[0].start()].rstrip() + " " + "; ".join(parts) + ("?" if "?" in text[found[0].start():] else "")


def _cut(text: str, match: re.Match[str]) -> str:
    """``text`` without ``match`` and the separator after it."""
    rest = text[match.end():]
    after = _SEPARATOR_AFTER.match(rest)
    if after is not None and (match.start() == 0 or text[:match.start()].rstrip()[-1:] in ",;:.!?"):
        rest = rest[after.end():]  # the separator of a piece set aside at a clause start goes with it
    head = text[:match.start()].rstrip()
    if head and not rest.strip():
        head = head.rstrip(",;:-–— ")
    return (head + " " + rest).strip() if head else rest.strip()


def _corrected(text: str, aside: list[str]) -> str:
    """Self-corrections: the value before the marker replaced by the value after it (of the same kind)."""
    for match in list(_CORRECTION.finditer(text))[::-1]:
        before = text[:match.start()].split()
        after = text[match.end():].split()
        for n in (3, 2, 1):
            if len(before) < n or len(after) < n:
                continue
            old, new = " ".join(before[-n:]), " ".join(w.rstrip(",.;?!") for w in after[:n])
            old_bare = old.rstrip(",.;?!")
            same = ((_PERIOD.fullmatch(old_bare) and _PERIOD.fullmatch(new))
                    or (re.fullmatch(r"company\s+\w", old_bare, re.I) and re.fullmatch(r"company\s+\w", new, re.I))
                    or (n == 1 and old_bare.isalpha() and new.isalpha() and old_bare[:1].isupper() == new[:1].isupper()
                        and not {old_bare.lower(), new.lower()} & _NOT_VALUES)
                    or (n > 1 and all(w[:1].isupper() for w in old_bare.split() + new.split())))
            if same:
                aside.append(f"self-correction ({old_bare!r} corrected to {new!r})")
                start = len(" ".join(before[:-n]))
                return _corrected(text[:start] + (" " if start else "") + text[match.end():], aside)
    return text


#: Words a correction marker may follow that are no value ("Hi, sorry, ...", "thanks, sorry ...").
_NOT_VALUES = frozenset("""
hi hello hey thanks ok okay so yes no please team all i we you it this that these those the a an my our your can
could would will please need needed want wanted what how which who when where is are was were do does did just also
and or but for in on at to of with by from
""".split())  # noqa: SIM905 - a word list reads better as text


def _inline(text: str, names: frozenset[str], aside: list[str]) -> str:
    """One pass over the one-line message; returns it unchanged when nothing (more) is context."""
    text = _SUBJECT_PREFIX.sub("", text)
    # a salutation or a chat handle left in front once a reference before it is set aside (router/envelope.py)
    lead = read_envelope_lead(text, names)
    if lead.aside:
        aside.extend(lead.aside)
        return lead.text
    for pattern, label in ((_PLEASANTRY, "pleasantry"), (_HEDGE, "hedge or apology")):
        found = pattern.search(text)
        if found and found.group(0).strip() and text[:found.start()].strip(" ,;:.!-") + text[found.end():].strip(
                " ,;:.!?-"):
            aside.append(label)
            return _cut(text, found)
    for match in _TICKET.finditer(text):
        ref = match.group("id") or match.group("code")
        if match.group("code") or re.search(r"\b(?:ticket|case|incident|request|jira|issue|sr|pbc|ref)", match.group(0),
                                            re.I):
            # ("ref" alone only before a number with no other meaning: never an invoice or PO number)
            bare_ref = not match.group("code") and not re.search(
                r"\b(?:ticket|case|incident|request|jira|issue|sr|pbc)\b", match.group(0), re.I)
            if re.match(r"(?:INV|PO|CN|SUP|COMP|PRD|PG|AGR)\b", ref, re.I) or (bare_ref and not re.search(
                    r"\b(?:our|your)\b|\bref(?:erence)?\b\.?\s*(?:no\.?|nr\.?|#|:)", match.group(0), re.I)):
                continue  # (a bare "ref 2026-0125" may be the invoice asked about: kept)
            kind = _kind(match.group(0))
            aside.append(f"{kind} reference {ref}" if kind != "reference" else f"reference {ref}")
            # (the topic in brackets after the reference, "ticket 47790 (VAT reconciliation)", goes with it)
            return _cut(text[:match.end()] + " " + after_reference(text[match.end():]), match)
    for pattern, label in ((_MEETING, "meeting reference"), (_REASON, "reason for asking"),
                           (_SOURCE, "source system"), (_REMARK, "remark"), (_ANNOUNCED, "announced asks")):
        found = pattern.search(text)
        if found and found.group(0).lower().startswith("following") and text[:found.start()].strip() and \
                text[:found.start()].rstrip()[-1] not in ".!?:;,(":
            continue  # "invoices following the meeting on 3 March": maybe a period, kept
        if found and not _protected(found.group(0), names) and (text[:found.start()] + text[found.end():]).strip(
                " ,;:.!?-"):
            aside.append(f"{label} {found.group(0).strip(' ,;:.()')!r}")
            return _cut(text, found)
    pbc = _PBC.search(text)
    if pbc and (text[:pbc.start()] + text[pbc.end():]).strip(" ,;:.!?-"):
        aside.append("PBC (provided by client) label")
        return _cut(text, pbc)
    contact = _EMAIL.search(text) or _URL.search(text) or _PHONE.search(text)
    if contact:
        aside.append("contact details")
        return _cut(text, contact)
    tail = _SIGN_OFF_TAIL.search(text)
    if tail and text[:tail.start()].strip() and _TEAM_SIGNATURE.fullmatch(tail.group("rest")) and not _protected(
            tail.group("rest"), names):
        aside.append("sign-off and signature")  # "Regards, Vendor Risk (week 1)": a team's name signs
        return text[:tail.start()].rstrip(" ,")
    if tail and text[:tail.start()].strip() and len(tail.group("rest").split()) <= 16 and not re.search(
            r"\b(?:and|also|plus|how|what|which|spend|invoices?|excl\w*|except\w*|without|only|not|no|but|"
            r"incl\w*|over|under|above|below|between|since|before|after|per|paid|open|q[1-4]|h[12]|fy\d*|20\d\d|"
            r"posted|net|gross|vat|credit|suppliers?|vendors?|compan\w+|products?|groups?)\b",
            tail.group("rest"), re.I):
        aside.append("sign-off and signature")
        return text[:tail.start()].rstrip(" ,")
    return text


def _kind(reference: str) -> str:
    low = reference.lower()
    for word in ("ticket", "case", "incident", "request", "jira", "issue", "pbc"):
        if word in low:
            return "PBC item" if word == "pbc" else word
    return "ticket" if re.search(r"\b(?:inc|req|ritm|chg|task|prb)\d", low) else "case" if "cs" in low else "reference"


def set_aside_context(message: str, names: Iterable[str] = ()) -> Pruned:
    """The ask of ``message`` and the context set aside from it; ``names``: the tenant's names (never set aside).

    >>> pruned = set_aside_context("Hi team, re: ticket 48213 - Company A spend in Q1 2026? Thanks, Maria (ext. 4471)")
    >>> pruned.text
    'Company A spend in Q1 2026?'
    >>> pruned.aside
    ("greeting 'Hi team'", "sign-off 'Thanks, Maria (ext. 4471)'", 'ticket reference 48213')
    >>> set_aside_context("Company A spend in Q2, I mean Q1 2026").text
    'Company A spend in Q1 2026'
    >>> set_aside_context("Company A spend in Q1 2026")
    Pruned(text='Company A spend in Q1 2026', aside=())
    """
    known = name_words(names)
    aside: list[str] = []
    # the salutation, sign-off, urgency and purpose around the ask, read by their place and shape (router/envelope.py)
    envelope = read_envelope(message, known)
    aside.extend(envelope.aside)
    # the reason, occasion and hand-over clauses anywhere in it, read by their shape (router/context_clauses.py)
    clauses = set_aside_clauses(envelope.text, known)
    aside.extend(clauses.aside)
    lines = _numbered(subject_line(_lines(clauses.text, aside), known, aside), aside, known)
    text = " ".join(" ".join(lines).split())
    second = passes(known)  # the sentences and lead-ins about the writer or the occasion (router/context_sentences.py)
    for _ in range(24):
        before = text
        text = " ".join(_inline(text, known, aside).split())
        for step in second if text == before else ():
            text = " ".join(step(text, aside).split())
            if text != before:
                break
        if text == before:
            break
    text = _inline_numbered(text, aside)
    text = _corrected(text, aside)
    text = text.strip(" ,;:-–—")
    if not re.search(r"[^\W\d_]", text) or not aside:
        return Pruned(message, ())
    return Pruned(text, tuple(aside))


def set_aside_note(aside: Iterable[str]) -> str:
    """The note of what was set aside ("set aside as context: greeting, ticket reference 48213")."""
    labels = list(dict.fromkeys(aside))
    return "set aside as context: " + ", ".join(labels) if labels else ""


def with_context_note(text: str, aside: Iterable[str]) -> str:
    """An answer's text with the context set aside named before its sources (the answer itself unchanged)."""
    note = set_aside_note(aside)
    if not note:
        return text
    sentence = f" {note[:1].upper()}{note[1:]}."
    head, sep, tail = text.partition(" Sources:")
    return f"{head.rstrip()}{sentence}{sep}{tail}"
