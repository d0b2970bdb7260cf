"""Which sentence of a chatty message carries the ask; the sentences and lead-ins around it that constrain nothing.

The second pass of :mod:`router.context_noise`. E-mail and chat messages carry, beside the ask, sentences about the
writer and the occasion: a subject line ("FW: savings tracker"), a self-introduction ("Ravi here, I joined the
procurement ops team last week", "I'm new in AP"), a belief or hearsay ("I think the invoices are in dollars",
"Someone told me the list changed"), the reason and the audience ("for the QBR deck:", "Need it for the RFQ.", "AP
wants to know"), a remark ("The ERP export is down again.", "let's double check"), a meeting reference in brackets
("(ref MTG-535 of 12/05, 4 open points)"). Read as the question, their words become unknown names ("AP", "QBR") and
their numbers periods ("12/05" as December 2005). Each is set aside here and named back.

Design note: a sentence is set aside only on a marker that makes it about the writer or the occasion (a first-person
statement that is no request, hearsay, a reason "for the ..."), never because its words are unknown: an unknown name
inside the ask is still named by the reader. A sentence that names something of the tenant is kept, except a
self-introduction, whose company becomes the "we" of the ask ("I joined the AP team at Alpenland ... how much did we
spend" is Alpenland's spend). What is kept is read exactly as if typed alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: A request inside a first-person sentence: the ask itself, never context ("I need the 2 biggest vendors").
_REQUEST = re.compile(r"^\s*(?:i\s+(?:would|'d|’d)\s+(?:like|love|need|want)|i\s+(?:need|want|require|"
                      r"am\s+looking\s+for|'m\s+looking\s+for|’m\s+looking\s+for|wonder|was\s+wondering)|"
                      r"i\s+(?:have|'ve)\s+(?:a|one)\s+question)\b", re.I)
_ME = r"(?:i'm|i’m|i\s+am|im)"
#: A sentence about the writer: who they are, since when, what they believe or were told.
_ABOUT_WRITER = re.compile(
    rf"^\s*\(?\s*(?:{_ME}\s+(?:(?-i:[A-Z][a-z]+)\b(?!\s+(?:spend|invoices?))|new\b|the\s+new\b|a\s+new\b|only\b|still\b|"
    r"building\b|preparing\b|putting\b|working\s+on\b|typing\b|writing\b|on\s+my\b|currently\b|just\b|from\s+the\b|"
    r"with\s+the\b|in\s+the\b|part\s+of\b)|"
    r"my\s+name\s+is\b|this\s+is\s+(?-i:[A-Z][a-z]+)\b|(?-i:[A-Z][a-z]+)\s+here\b|"
    r"i\s+(?:just\s+|recently\s+)?(?:joined|started|moved|transferred)\b|i\s+(?:have|'ve|’ve)\s+(?:just\s+)?"
    r"(?:joined|started)\b|"
    r"i\s+(?:think|know|believe|guess|assume|suppose|heard|recall|remember|reckon|was\s+told|understand)\b|"
    r"i(?:'m|’m|\s+am)\s+(?:pretty\s+|fairly\s+)?(?:sure|told)\b|"
    r"(?:someone|somebody|people|a\s+colleague|colleagues|(?-i:[A-Z][a-z]+))\s+(?:told|said|mentioned|claimed)\b|"
    r"my\s+(?:[\w-]+\s+){0,2}(?:buddy|manager|boss|lead|colleague|mentor|team|predecessor)\s+(?:said|told|mentioned|"
    r"says|thinks)\b|"
    r"in\s+my\s+(?:old|previous|last|former)\s+(?:job|role|company|team|position)\b|"
    r"(?:apologies|sorry)\s+for\b|"
    r"(?:let's|let’s|lets)\s+(?:double[- ]check|check|make\s+sure|verify)\b|"
    r"(?:finance|audit|controlling|the\s+team|they|we)\s+(?:probably\s+|already\s+|might\s+|may\s+)*"
    r"(?:has|have)\s+(?:it|this|that)\b|"
    r"the\s+(?:erp|sap|system|export|tool|portal|report|dashboard|ledger)(?:\s+[\w-]+)?\s+(?:is|was|has\s+been|keeps)\s+"
    r"(?:down|broken|slow|offline|not\s+working|failing|crashing)\b|"
    r"(?:need(?:ed)?|required|wanted)\s+(?:(?:it|this|these|them|the\s+[\w-]+(?:\s+[\w-]+)?)\s+)?(?:for|before|by)\s+"
    r"(?:the|a|an|our|my)\b|no\s+rush\b|not\s+urgent\b|"
    # "finance wants the full-year number before the review on 12 June." beside the question that asks for it
    r"(?:[\w-]+\s+){1,3}(?:wants|needs|asked\s+for|is\s+asking\s+for|requested)\s+(?:the|a|an|this|these|those)\s+"
    r"(?:[\w-]+\s+){0,2}(?:number|numbers|figure|figures|total|data)\b[^?]*$|"
    r"(?:an?|the|their|our)\s+(?:[\w-]+\s+)?(?:rep|representative|sales\s*(?:person|rep)|contact|account\s+manager)\s+"
    r"(?:claims|says|said|told\s+(?:me|us)|insists)\b)", re.I)
#: "..., that's what the lead wants": the reason after the ask.
_TAIL_REASON = re.compile(r"\s*[,;-]+\s*(?:that's|that’s|that\s+is|this\s+is)\s+what\s+(?:the|my|our)\s+"
                          r"(?:[\w-]+\s+){0,2}?(?:wants|needs|asked\s+for|requested|expects)\b[.!]?\s*$", re.I)
#: A lead-in that announces the numbered asks and names their company: "two quick ones for Xenon from the review:".
_ANNOUNCE = re.compile(r"^\s*(?P<lead>[^:?;]{0,80}?\b(?:the\s+following|(?:one|two|three|four|a\s+few|some|\d)\s+"
                       r"(?:quick\s+)?(?:asks|questions|things|requests|ones|points|items))\b[^:?;]{0,80}?)\s*:\s+(?=\S)",
                       re.I)
#: The words of a lead that announce how many asks follow ("two quick things", "a few questions", "the following").
_COUNTED_ASKS = re.compile(r"^.*?\b(?:the\s+following|(?:one|two|three|four|a\s+few|some|\d)\s+(?:quick\s+)?"
                           r"(?:asks|questions|things|requests|ones|points|items))\b", re.I)
#: "..., so in euros please": what a belief leads to is the ask's own constraint, kept.
_SO_TAIL = re.compile(r",?\s+so\s+(?=(?:in|please|the|only|just|net|gross|converted|show|give)\b)", re.I)
#: Who wants the answer, before the ask: "AP wants to know how ...", "My buddy asked me to check how much ...".
_REQUESTER = re.compile(
    r"^\s*(?:(?:my|our|the)\s+(?:[\w-]+\s+){0,2}?(?:buddy|manager|boss|lead|colleague|mentor|team|controller|cfo|"
    r"auditors?|director)|(?-i:[A-Z]{2,5})|(?!(?:who|what|which|how|when|where|why)\b)(?-i:[A-Z][a-z]+)(?:\s+team)?|finance|audit|procurement|controlling|accounting|tax|"
    r"treasury|compliance)\s+(?:asked\s+me\s+to\s+(?:check|find\s+out|look\s+up|get|pull|confirm)|(?:wants|needs|"
    r"would\s+like|wanted)\s+to\s+know|asks|is\s+asking|asked)\s+(?=(?:how|what|which|who|whether|if|when|until)\b)",
    re.I)
#: The lead-in before a colon that says why or for whom, not what: "for the QBR deck:", "quick one from the new AP
#: clerk:", "Agreed - so:", "two asks:", "before the negotiation next week:".
_LEAD_IN = re.compile(
    r"^\s*(?P<lead>(?:(?:quick|short|small|simple|one)\s+(?:one|q|question|ask|request)s?\b|"
    r"(?:one|two|three|four|a\s+few|some|\d)\s+(?:quick\s+)?(?:asks|questions|things|requests|ones|points)\b|"
    r"for\s+(?:the|our|my|a|an|this|next)\b|before\s+(?:the|our|my|a|an)\b|ahead\s+of\b|"
    r"agreed\b|ok(?:ay)?\b|so\b|fyi\b|context\b|background\b|(?:[\w-]+\s+)?check\b)[^:?;]{0,80}?)"
    r"\s*(?::|\s--)\s+(?=\S)", re.I)
#: "category check:", "sanity check:": a check is the occasion; its first word may be a filter word ("category").
_CHECK = re.compile(r"^\s*(?:[\w-]+\s+)?check\s*$", re.I)
#: "(ref MTG-535 of 12/05, 4 open points)", "(meeting ref CR-2026-05)": a reference code in brackets, with its
#: date and note (never an invoice or purchase order number, which have their own prefixes).
_BRACKET_REF = re.compile(
    r"\(\s*(?:(?:meeting|mtg|minutes|action|ticket|jira|call)\s+)?(?:ref(?:erence)?|no|nr|#)\.?\s*:?\s*#?\s*"
    r"(?P<id>(?!(?:INV|PO|CN|SUP|COMP|PRD|PG|AGR)\b)[A-Z]{1,6}-[A-Z0-9-]*\d[A-Z0-9-]*)\b[^()]{0,80}\)", re.I)
#: "ticket 47790 (VAT reconciliation)": the topic in brackets after a reference the first pass set aside.
_TOPIC = re.compile(r"^\s*\([^()]{1,60}\)\s*[.:,;-]?\s*")
_SUBJECT = re.compile(r"^\s*(?:(?:re|fw|fwd|aw|wg)\s*:\s*)+(?P<subject>.*)$", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[(A-Za-z])|(?<=[.!?]\))\s+(?=[(A-Za-z])|(?<=[.!?])(?=\()|"
                           r"(?<=\s--)\s+(?=[A-Za-z(])")
_ABBREVIATION = re.compile(r"\b(?:co|ext|str|no|nr|tel|approx|incl|excl|vs|etc|e\.g|i\.e|mr|ms|dr|jan|feb|mar|apr|"
                           r"jun|jul|aug|sep|sept|oct|nov|dec|inc|ltd|corp)\.$", re.I)
_WE = re.compile(r"\bwe\b", re.I)
_OUR = re.compile(r"\bour\b", re.I)
#: "same company": the company of the item before, in a numbered list of asks.
_SAME_COMPANY = re.compile(r"\b(?:the\s+)?same\s+(?:company|entity|legal\s+entity|org(?:anisation|anization)?)\b,?",
                           re.I)
_COMPANY_CODE = re.compile(r"\b(?:company|comp|co)\.?\s+[a-z]\b", re.I)
_MEASURE = re.compile(r"\b(?:spen[dt]|spending|invoices?|credit\s+notes?|count|number|total|average|mean|price|"
                      r"share|how\s+much|how\s+many)\b", re.I)
#: The measure an item of a numbered list starts with ("total spend", "invoice count"), up to its first preposition.
_MEASURE_HEAD = re.compile(r"^\s*(?P<head>(?:[\w-]+\s+){0,3}?(?:spen[dt]|spending|invoices?|credit\s+notes?|count|"
                           r"total|average|mean))(?=\s+(?:with|for|from|at|of|on|in)\b)", re.I)
_WORD = re.compile(r"[\w'’&.-]+")
#: Words of a period: a context piece that holds the only period of the message is kept (it may be the ask's).
_PERIODISH = re.compile(r"\b(?:(?:19|20)\d\d|'\d\d|q[1-4]|h[12]|fy\s?\d+|ytd|year|quarter|month|week|january|february|"
                        r"march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|"
                        r"aug|sep|sept|oct|nov|dec)\b|\b\d{1,2}/\d{4}\b", re.I)
#: A constraint passed on in a sentence about someone ("my lead said to exclude Beta", "only paid ones, she said").
_INSTRUCTION = re.compile(r"\b(?:exclud\w*|excl\.?|except(?:\s+for)?(?=\s)|without|leave\s+out|leaving\s+out|"
                          r"only\s+(?:the\s+)?(?:paid|posted|open|unpaid|net|gross|invoices?|credit|eur|usd|gbp|chf|"
                          r"approved|[\w-]+\s+ones)|apart\s+from|"
                          r"net\s+of|incl(?:\.|ud\w*)|per\s+(?:supplier|vendor|month|quarter|product|group|category)|"
                          r"by\s+(?:supplier|vendor|month|quarter|product|group|category))\b", re.I)
#: A request inside a sentence that opens about the writer ("..., I want the net figure", "... - please confirm").
_OWN_REQUEST = re.compile(r"\b(?:i\s+(?:want|need|would\s+like|'d\s+like|’d\s+like|expect)|please|pls)\b", re.I)
#: Words of a figure or a filter: a lead-in holding one says what is asked, never only why.
_FILTERISH = re.compile(r"\b(?:spen[dt]|spending|invoices?|credit\s+notes?|count|total|net|gross|vat|tax|paid|posted|"
                        r"open|approved|suppliers?|vendors?|groups?|categor(?:y|ies)|products?|price|currency|eur|usd|gbp|"
                        r"chf|top|largest|biggest|excl\w*|incl\w*|without|only)\b", re.I)


def _words(span: str) -> set[str]:
    return {re.sub(r"['’]s$", "", w.lower()).strip(".'’,") for w in _WORD.findall(span)}


def _named(span: str, names: frozenset[str]) -> bool:
    return bool(_COMPANY_CODE.search(span)) or bool(_words(span) & names)


def subject_line(lines: list[str], names: frozenset[str], aside: list[str]) -> list[str]:
    """A forwarded or replied-to message's subject line, set aside when the body below it carries the ask.

    The subject names the thread, not the ask ("FW: savings tracker" is no savings metric); it is kept when it
    names something of the tenant the body does not (then it may be the ask's scope).
    """
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        return lines
    found = _SUBJECT.match(lines[first])
    body = " ".join(lines[first + 1:])
    if found is None or not re.search(r"[^\W\d_]{3}", body):
        return lines
    subject = found.group("subject").strip()
    if (_words(subject) & names) - _words(body) or (_COMPANY_CODE.search(subject) and not _named(body, names)) \
            or (_PERIODISH.search(subject) and not _PERIODISH.search(body)) \
            or (_MEASURE.search(subject) and not _MEASURE.search(body)):
        return lines  # the subject may carry the ask's scope, period or measure the body does not repeat
    aside.append(f"subject line {subject!r}" if subject else "subject line")
    return [*lines[:first], *lines[first + 1:]]


def _sentences(text: str) -> list[str]:
    """``text`` cut after each sentence end (not after "Co." or "ext.")."""
    out: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        piece = text[start:match.start()]
        if _ABBREVIATION.search(piece) or not piece.strip():
            continue
        out.append(piece)
        start = match.end()
    out.append(text[start:])
    return [s for s in (p.strip() for p in out) if s]


def _name_span(sentence: str, names: frozenset[str]) -> str:
    """The first run of the tenant's name words in ``sentence`` ("Alpenland Logistik", "Company B")."""
    code = _COMPANY_CODE.search(sentence)
    if code:
        return code.group(0)
    run: list[str] = []
    for word in sentence.replace("'s", "").replace("’s", "").split():
        if word.lower().strip(".,;:'’()") in names:
            run.append(word.strip(".,;:()"))
        elif run:
            break  # the first name written (a company before its supplier: "Xenon with Helix")
    return " ".join(run)


def context_sentence(text: str, names: frozenset[str], aside: list[str]) -> str:
    """One pass: the first sentence about the writer or the occasion set aside (``text`` unchanged when none)."""
    sentences = _sentences(text)
    if len(sentences) < 2:
        return text
    for k, sentence in enumerate(sentences):
        if _REQUEST.match(sentence):
            continue
        found = _ABOUT_WRITER.match(sentence)
        if found is None:
            continue
        rest = [s for j, s in enumerate(sentences) if j != k]
        if not any(re.search(r"[^\W\d_]{3}", s) for s in rest):
            return text
        kept = ""
        tail = _SO_TAIL.search(sentence) or re.search(r":\s+(?=\S)", sentence)
        if tail:
            # "..., so in euros please", "In my old company we'd pull this from X: total net spend ...": kept
            kept = sentence[tail.end():]
            sentence = sentence[:tail.start()]
        who = _name_span(sentence, names)
        asked = " ".join(rest)
        if _PERIODISH.search(sentence) and not _PERIODISH.search(asked):
            continue  # the only period of the message: maybe the ask's, kept
        if _INSTRUCTION.search(sentence) or _OWN_REQUEST.search(sentence):
            # "My manager said to exclude credit notes", "I know there was a credit, I want the net figure": kept
            continue
        if who and not (_words(who) & _words(asked)):
            if not (_WE.search(asked) or _OUR.search(asked)):
                continue  # a name the ask does not repeat may be the ask's scope: kept
            # "I joined the AP team at Alpenland ... how much did we spend": the writer's company is the "we"
            aside.append(f"self-introduction ({who} read as 'we')")
            possessive = f"{who}'s"
            return f"{_OUR.sub(possessive, _WE.sub(who, asked))} {kept}".strip()
        aside.append("about the writer" if re.match(
            rf"\s*\(?\s*(?:{_ME}|my\s+name|this\s+is|[A-Z][a-z]+\s+here|i\s+(?:just\s+|recently\s+)?"
            r"(?:joined|started|have|'ve))", sentence, re.I) else f"aside {sentence.strip(' .()')!r}")
        return " ".join(p for p in (" ".join(sentences[:k]), kept.strip(), " ".join(sentences[k + 1:])) if p)
    return text


def requester(text: str, aside: list[str]) -> str:
    """Who wants the answer, in front of the ask ("AP wants to know how ..."): set aside, the ask kept."""
    for sentence in _sentences(text):
        found = _REQUESTER.match(sentence)
        if found:
            aside.append(f"requester {found.group(0).strip()!r}")
            return text.replace(sentence, sentence[found.end():], 1)
    return text


def lead_in(text: str, names: frozenset[str], aside: list[str]) -> str:
    """The lead-in of the ask before its colon ("for the QBR deck:"), set aside unless it names the tenant.

    A lead-in that announces the asks and names their company ("the following for Ypsilon Retail:") is their scope:
    only the company is kept ("for Ypsilon Retail:").
    """
    tail = _TAIL_REASON.search(text)
    if tail and text[:tail.start()].strip():
        aside.append(f"reason {tail.group(0).strip(' ,;-.')!r}")
        return text[:tail.start()]
    announced = _ANNOUNCE.match(text)
    if announced and (who := _name_span(announced.group("lead"), names)) and \
            announced.group("lead").strip() != f"for {who}":
        lead = announced.group("lead")
        rest = lead.replace(who, " ", 1)
        if _named(rest, names) or _PERIODISH.search(rest):
            # "two things on Beta Trading for Kestrel during Q3/25:": a second name or a period in the lead is the
            # scope of the asks too; only the words announcing them go ("on Beta Trading for Kestrel during Q3/25:")
            scope = _COUNTED_ASKS.sub(" ", lead).strip(" ,;-")
            if scope == lead.strip():
                return text
            aside.append(f"lead-in words {_COUNTED_ASKS.search(lead).group(0).strip()!r}")  # type: ignore[union-attr]
            return f"{scope}: {text[announced.end():]}"
        aside.append(f"lead-in {lead.strip()!r} (for {who})")
        return f"for {who}: {text[announced.end():]}"
    found = _LEAD_IN.match(text)
    if found is None or _named(found.group("lead"), names) or _PERIODISH.search(found.group("lead")) or (
            not _CHECK.match(found.group("lead")) and _FILTERISH.search(
                re.sub(r"^\s*(?:one|two|three|four|a\s+few|some|\d)\s+", "", found.group("lead"), flags=re.I))):
        return text
    aside.append(f"lead-in {found.group('lead').strip()!r}")
    return text[found.end():]


def bracket_reference(text: str, aside: list[str]) -> str:
    """A meeting or ticket code in brackets, with its date and note: set aside."""
    found = _BRACKET_REF.search(text)
    if found is None:
        return text
    aside.append(f"reference {found.group('id')}")
    return (text[:found.start()].rstrip() + " " + text[found.end():].lstrip()).strip()


def after_reference(text: str) -> str:
    """The topic in brackets right after a reference set aside ("ticket 47790 (VAT reconciliation). Hi, ...")."""
    found = _TOPIC.match(text)
    return text[found.end():] if found and text[found.end():].strip() else text


def same_company(parts: list[str], names: frozenset[str]) -> list[str]:
    """Numbered asks: "same company" read as the company of the item before (each item answered on its own).

    An item with no figure word of its own ("same company, net of VAT, Nov 2025") also takes the measure of the
    item before, up to its company ("total spend Xenon"), so it is an ask of its own with its own period.
    """
    out: list[str] = []
    for part in parts:
        found = _SAME_COMPANY.search(part)
        head = _MEASURE_HEAD.match(out[-1]) if out else None
        if found is None and head and not _MEASURE.search(part) and re.match(
                r"\s*(?:and\s+|also\s+|plus\s+)?(?:with|for|from|at|on)\b", part, re.I):
            # "1) total spend with Gamma in H2  2) and with Iris in the same period": the measure of the item before
            out.append(head.group("head") + " " + re.sub(r"^\s*(?:and|also|plus)\s+", "", part, flags=re.I))
            continue
        if found is None or not out:
            out.append(part)
            continue
        who = _name_span(out[-1], names)
        if not who:
            out.append(part)
            continue
        rest = part[:found.start()] + part[found.end():]
        prefix = who if _MEASURE.search(rest) else out[-1][:out[-1].find(who) + len(who)]
        out.append((part[:found.start()] + prefix + ("," if found.group(0).endswith(",") else "")
                    + part[found.end():]).strip())
    return out


#: "Kestrel's invoices from Northwind are in GBP - what was the Q4 total in pounds?": the premise states the ask's
#: scope (the invoices meant), read as part of the ask ("... invoices from Northwind in GBP: what was ...").
_PREMISE = re.compile(
    r"^(?P<scope>[^?.:;]{3,80}?\b(?:invoices|bills)\b[^?.:;]{0,60}?)\s+(?:are|were|come|came)\s+(?:all\s+)?"
    r"(?:in|billed\s+in|invoiced\s+in)\s+(?P<cur>[A-Z]{3}|pounds|dollars|(?:swiss\s+)?francs|euros)\s*"
    r"(?:[.;:—–]|--?)\s*(?P<ask>(?:what|how|which|and\s+what|so\s+what)\b.*)$", re.I)
#: Business shorthand read as names otherwise, each with its plain reading: "input VAT" (the VAT charged on the
#: purchase invoices, the governed tax of the spend), "by pg" (by product group), "single largest" (largest).
_JARGON = (
    (re.compile(r"\binput\s+(?=vat\b|tax\b)", re.I), "", "'input VAT' read as the VAT on the purchase invoices"),
    (re.compile(r"\b(?<=by\s)pgs?\b|(?<=per\s)pgs?\b", re.I), "product group", "'pg' read as product group"),
    (re.compile(r"\bsingle\s+(?=(?:largest|biggest|smallest|top)\b)", re.I), "", "'single largest' read as largest"),
)


def premise(text: str, aside: list[str]) -> str:
    """A premise naming the invoices the ask is about, joined to the ask as its scope."""
    found = _PREMISE.match(text)
    if found is None or re.match(r"\s*(?:i|we|my|someone|they)\b", found.group("scope"), re.I):
        return text
    aside.append(f"premise {found.group(0)[:found.start('ask')].strip(' .;:—–-')!r} read as the scope")
    return f"{found.group('scope')} in {found.group('cur')}: {found.group('ask')}"


def jargon(text: str, aside: list[str]) -> str:
    """Business shorthand ("input VAT", "by pg") in its plain words, named back (the first one found per pass)."""
    for pattern, plain, label in _JARGON:
        if pattern.search(text):
            aside.append(label)
            return pattern.sub(plain, text)
    return text


def passes(names: frozenset[str]) -> tuple[Callable[[str, list[str]], str], ...]:
    """The one-line passes of this module, in order, for :func:`router.context_noise.set_aside_context`."""
    return (lambda t, a: bracket_reference(t, a), lambda t, a: lead_in(t, names, a), lambda t, a: requester(t, a),
            lambda t, a: context_sentence(t, names, a), premise, jargon)
