"""Accounts-payable fields the data does not have, asked *beside* a figure: "INV-2026-0165 - amount in EUR and the
date it was paid out?", "Alpenland Feb 2026 total and the payment run date", "what did Company C pay to Delta in Q1
and from which of our house-bank accounts?", "... and the GL account", "... plus the approver".

The governed invoice lines carry a company, a supplier, products, product groups, statuses and dates (invoice and
posting), but no payment date, payment run, house-bank account, cost centre, purchase order number, approver, GL
account or due-date extension. Asked as an output next to a figure, such a field is a part of the question that
cannot be answered: the rest is answered and the answer is PARTIAL, naming the field as not understood (never the
figure alone presented as the complete answer). A field used as a *limit* ("spend for cost centre 4711", "PO
4500012345") is no output: the figure of the whole scope is not the narrower one asked, so router/dimensions.py asks
back instead.

"Our house-bank accounts" are the company's own accounts, not a supplier's bank details: the field is named as
unknown, never refused as a request for personal data (the question is answered without it).

A column the data does not have in structured notation ("dims: supplier, buyer_name", "where po_number like
'PO-77%'", "cost_center = 100": snake_case or dotted, as a breakdown or a filter) is read here too, by the same
split: the column is named as not understood, the rest answered and marked partial, with the one note.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from router.structured_notation import field_of

#: (pattern of the field as asked, with its determiners; label named back). Each is a field of an ERP or payment
#: record that no governed figure records.
_FIELDS: tuple[tuple[str, str], ...] = (
    (r"(?:the\s+|its\s+|their\s+)?(?:actual\s+)?(?:payment|pay[- ]?out|paid[- ]?out|paid|value|clearing)[- ]dates?"
     r"|(?:the\s+)?dates?\s+(?:on\s+which\s+|when\s+)?(?:it|they|this|that|these|those|the\s+invoices?|we)\s+"
     r"(?:(?:was|were|got)\s+paid|paid)(?:\s+out)?(?!\s+(?:on|for|in)\s+(?:invoices?|bills?))"
     r"|(?:the\s+)?dates?\s+of\s+(?:the\s+)?payments?|when\s+(?:was|were)\s+(?:it|they|this|that|these|those|the\s+invoices?)\s+paid"
     r"(?:\s+out)?|zahlungsdatum|zahldatum|valutadatum", "payment date"),
    (r"(?:the\s+|its\s+|which\s+)?(?:payment|pay|f\.?\s?110)[- ]?runs?(?:\s+(?:dates?|ids?|numbers?|nos?\.?))?"
     r"|zahl(?:ungs)?lauf\w*", "payment run"),
    (r"(?:(?:from\s+)?(?:which|what)\s+(?:of\s+)?)?(?:our\s+|the\s+)?(?:own\s+)?house[- ]?banks?(?:\s+accounts?)?"
     r"|(?:from\s+)?(?:which|what)\s+(?:of\s+)?our\s+(?:own\s+)?bank\s+accounts?|(?:the\s+)?paying\s+bank"
     r"(?:\s+accounts?)?|hausbank\w*", "house-bank account"),
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)(?:gl|g/l|general[- ]ledger|ledger)\s+accounts?"
     r"(?:\s+(?:numbers?|codes?))?|sachkont\w*", "GL account"),
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)cost[- ]?cent(?:re|er)s?(?:\s+(?:codes?|numbers?))?"
     r"(?!\s*[:=]?\s*[\"'“]?(?-i:[A-Z0-9]{2,}))", "cost centre"),
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)(?:po|purchase[- ]order)\s*(?:numbers?|nos?\.?|#|ids?)?"
     r"(?!\s*[:=]?\s*(?-i:[A-Z0-9-]*\d))", "purchase order number"),
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)(?:approvers?|approving\s+(?:manager|person|user)|sign[- ]?off"
     r"(?:\s+person)?|signatory|freigeber\w*|genehmiger\w*)(?:'s)?(?:\s+names?)?"
     r"|who\s+(?:approved|signed(?:\s+off)?|authori[sz]ed|released|freigegeben)\s+(?:it|them|this|that|"
     r"these|those|the\s+(?:invoices?|payments?|bills?))(?:\s+off)?(?!\s+for\b)"
     r"|(?:approved|signed\s+off|authori[sz]ed)\s+by\s+whom", "approver"),
    # the person who entered the document: no user of the ERP is on any governed record
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)(?:booking|posting|entry|ap|accounts[- ]payable|data[- ]entry)?"
     r"\s*(?:clerks?|accountants?|users?|bookkeepers?|processors?|agents?)(?:'s)?(?:\s+names?)?"
     r"(?=\s+(?:who|that|which)\b|\s*(?:[,;?.!]|\band\b|\bplus\b|$))"
     r"|who\s+(?:entered|booked|keyed(?:\s+in)?|posted|captured|processed|created|input)\s+(?:it|them|this|that|"
     r"these|those|the\s+(?:invoices?|credit[- ]?notes?|bills?|documents?))(?:\s+in)?"
     r"|(?:entered|booked|keyed|posted|captured|created)\s+by\s+whom"
     r"|sachbearbeiter\w*|erfasser\w*|buchhalter\w*", "booking clerk"),
    (r"(?:the\s+|any\s+)?(?:due[- ]date|payment[- ]term|payment)\s+extensions?|extended\s+due[- ]dates?",
     "due-date extension"),
    # what identifies one physical piece received: the lines carry a product and a quantity, never its pieces
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)?(?:serial|batch|lot|chargen)[- ]?(?:numbers?|nos\.?|no\.|#|"
     r"nummern?|nr\.?)|seriennummer\w*|num[ée]ros?\s+de\s+s[ée]rie|n[úu]meros?\s+de\s+serie|numeri\s+di\s+serie|"
     r"serienummers?", "serial number"),
    (r"(?:the\s+|its\s+|their\s+|which\s+|what\s+)?asset[- ]?(?:tags?|ids?|numbers?)", "asset tag"),
)
_PATTERN = re.compile("|".join(f"(?P<f{i}>(?<![\\w-])(?:{p})(?!\\w))" for i, (p, _) in enumerate(_FIELDS)), re.I)
#: A field after "by", "per", "for" is a breakdown or a limit, not an output asked beside a figure: router/dimensions.py
#: and the breakdown reader name it back (the whole figure is not the narrower one asked).
#: A value after the field ("PO number 4500012345", "cost centre CC-4711"): a limit, not an output.
_VALUE_AFTER = re.compile(r"\s*(?:numbers?|nos?\.?|#|ids?|codes?)?\s*[:=]?\s*[\"'“]?(?-i:[A-Z]*-?\d[\w-]*|[A-Z]{2,}\b)")
#: "which cost centre it was booked on", "what GL account it went to": the relative clause belongs to the field.
#: A document number ends the clause: "which approver signed off INV-2026-0521, and the gross" asks its amount.
_CLAUSE_AFTER = re.compile(r"(?:\s+(?!and\b|or\b|plus\b|(?-i:(?:INV|CN)-\d))[\w'-]+){1,6}?"
                           r"(?=\s*(?:[,;?.!]|\band\b|\bplus\b|$)|\s+(?-i:(?:INV|CN)-\d))", re.I)
_LIMIT_BEFORE = re.compile(r"\b(?:by|per|for|each|je|pro|nach|für|where|whose|on|to|from|in|at|under|via|against)\s+$",
                           re.I)
#: A condition or a value after the field ("payment date after 1 March", "where the payment run was in April", "the
#: cost centre marketing"): the field limits the figure, it is no output asked beside it (the rest would answer
#: another constraint: the invoice date for the payment date, the whole for one cost centre).
_LIMIT_AFTER = re.compile(
    r"\s*(?:[=<>≤≥]|\b(?:in|after|before|between|since|until|till|on|from|during|within|is|was|were|equals?|"
    r"later|earlier|not)\b)|\s+(?!(?:and|or|plus|also|too|please|pls|for|with|as|of|per|by|each|so|then|thanks|"
    r"thank|if|but|both|in|eur|usd|chf|gbp)\b)[a-z][\w'-]*(?=\s*(?:[,;?.!]|$))", re.I)
#: The joint before an asked field ("... and the payment run date", ", plus the approver", "with its GL account").
_JOINT = re.compile(r"(?:\s*[,;&+/-]\s*|\s+)(?:(?:and|plus|also|with|as\s+well\s+as|incl(?:uding|\.)?|und)\s+)?"
                    r"(?:(?:also|give|show|tell\s+me|list)\s+)?(?:me\s+)?$", re.I)
#: Only asked fields beside something else are read here: a question made of the field alone has no rest.
_WORDS = re.compile(r"[A-Za-z0-9]{2,}")


@dataclass(frozen=True)
class UnknownField:
    """A field asked that the data does not record: its label and the words as written."""

    label: str  # "payment date"
    words: str  # "the date it was paid out"
    start: int
    end: int
    kind: Literal["field", "column"] = "field"  # an AP field asked beside the figure, or a column of the notation


@dataclass(frozen=True)
class FieldSplit:
    """The fields a question asks that the data lacks, and the rest of the question, asked without them."""

    fields: tuple[UnknownField, ...]
    rest: str


def unknown_fields(text: str) -> tuple[UnknownField, ...]:
    """Every asked AP field of ``text`` the invoice data does not record.

    >>> [(f.label, f.words) for f in unknown_fields("Alpenland Feb 2026 total and the payment run date")]
    [('payment run', 'the payment run date')]
    """
    found: list[UnknownField] = []
    for m in _PATTERN.finditer(text):
        if _LIMIT_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        if _VALUE_AFTER.match(text, m.end()):
            continue
        asked = re.match(r"(?:from\s+)?(?:which|what|who|when)\b", m.group(0), re.I)
        if not asked and _LIMIT_AFTER.match(text, m.end()):
            continue
        label = next(_FIELDS[int(k[1:])][1] for k, v in m.groupdict().items() if v is not None)
        end = m.end()
        if re.match(r"(?:from\s+)?(?:which|what)\b", m.group(0), re.I):
            clause = _CLAUSE_AFTER.match(text, end)
            end = clause.end() if clause is not None else end
        if found and found[-1].label == label and not text[found[-1].end:m.start()].strip():
            # "the booking clerk who entered it": one field written as a noun and its relative clause
            last = found.pop()
            found.append(UnknownField(label, text[last.start:end].strip(), last.start, end))
            continue
        found.append(UnknownField(label, text[m.start():end].strip(), m.start(), end))
    return tuple(found)


def _split_asked(text: str) -> FieldSplit | None:
    """The question without its asked AP fields (each with the joint before it), or ``None``."""
    fields = unknown_fields(text)
    if not fields:
        return None
    rest, cursor = "", 0
    for f in fields:
        before = text[cursor:f.start]
        before = _JOINT.sub("", before) if cursor == 0 or before.strip() else ""
        rest += before
        cursor = f.end
    tail = text[cursor:]
    rest = (rest + tail).strip()
    rest = re.sub(r"\s+([?.!,;])", r"\1", rest)
    rest = re.sub(r"^[\s,;:&+-]+|[\s,;:&+-]+$", "", rest)
    rest = re.sub(r"^(?:and|plus|also|with|as\s+well\s+as)\s+", "", rest, flags=re.I)
    if len(_WORDS.findall(rest)) < 2:
        return None
    if text.rstrip().endswith("?") and not rest.endswith("?"):
        rest += "?"
    return FieldSplit(fields=fields, rest=rest)


# -- columns of the structured notation the data does not have ---------------------------------------------------
#: a snake_case or dotted column name (the notation's own shape: prose has no such word)
_COLUMN = r"(?P<col>[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+\.[a-z][a-z0-9_]*)"
_VALUE = r"(?:'[^']{0,60}'|\"[^\"]{0,60}\"|[\w.%@/-]+)"
#: "po_number like 'PO-77%'", "buyer_name = 'x'", "cost_center in (a, b)", "region_code != 'N'": a filter
_FILTER = re.compile(rf"(?P<joint>\s*(?:,|;|\bwhere\b|\band\b|\bfilter\s*:)?\s*)(?<![\w-]){_COLUMN}\s*"
                     rf"(?:(?:not\s+)?i?like\s+{_VALUE}|(?:==|=|!=|<>|>=|<=|>|<)\s*{_VALUE}|"
                     rf"(?:not\s+)?in\s*\([^()]{{0,200}}\)|between\s+{_VALUE}\s+and\s+{_VALUE})", re.I)
#: "by supplier and buyer_name", "by buyer_name": a breakdown by the column
_GROUPED = re.compile(rf"(?P<joint>\s*(?:,\s*by|\band\s+by|\band|,|\bby|\bper))\s+(?<![\w-]){_COLUMN}(?![\w-])",
                      re.I)


def _split_columns(text: str) -> FieldSplit | None:
    """The ask without the breakdowns and filters on columns the data does not have, or ``None`` when it has none
    (or nothing would be left to answer).

    >>> _split_columns("spend by supplier and buyer_name, 2025-H2").rest
    'spend by supplier, 2025-H2'
    """
    found: list[UnknownField] = []

    def drop(match: re.Match[str]) -> str:
        col = match.group("col")
        if field_of(col) is not None:
            return match.group(0)
        if col not in (f.label for f in found):
            found.append(UnknownField(col, col, match.start("col"), match.end("col"), kind="column"))
        return ""

    rest = _FILTER.sub(drop, text)
    rest = _GROUPED.sub(lambda m: drop(m) if re.search(r"\b(?:by|per)\b", rest[:m.end()], re.I) else m.group(0),
                        rest)
    if not found:
        return None
    rest = re.sub(r"\s+([,?.!])", r"\1", re.sub(r",\s*,", ",", " ".join(rest.split()))).strip(" ,;")
    rest = re.sub(r"\s+(?:where|and|by|per)$", "", rest, flags=re.I)
    if len(re.findall(r"[A-Za-z0-9]{2,}", rest)) < 2:
        return None
    return FieldSplit(fields=tuple(found), rest=rest)


def split_fields(text: str) -> FieldSplit | None:
    """The question without its asked AP fields (each with the joint before it) and without the breakdowns and
    filters on columns the data does not have, or ``None`` when it has neither or nothing would be left to answer.
    One reader of "a field the data does not have", whichever way it is written."""
    asked = _split_asked(text)
    columns = _split_columns(asked.rest if asked is not None else text)
    if asked is None or columns is None:
        return asked or columns
    return FieldSplit(fields=(*asked.fields, *columns.fields), rest=columns.rest)


def fields_note(fields: Sequence[UnknownField]) -> str:
    """The sentence naming the fields not understood, for the answer and for a clarification: an AP field asked is
    not answered, a column filtered or grouped by is not applied."""
    words = ", ".join(repr(f.words) for f in fields)
    labels = ", ".join(dict.fromkeys(f.label for f in fields))
    kinds = {f.kind for f in fields}
    if kinds == {"field"}:
        return (f"I did not understand {words}: the invoice data records no {labels} (only the company, supplier, "
                "products, product groups, invoice status, invoice and posting dates and amounts), so that part is "
                "not answered.")
    verb = "applied" if kinds == {"column"} else "answered or applied"
    return (f"I did not understand {words}: the invoice data has no such field (only the company, supplier, "
            "products, product groups, invoice status, currency, invoice and posting dates, amounts, tax and "
            f"units), so that part is not {verb}.")


def with_not_understood(answer: Any, words: Sequence[str], note: str, *, reason: str, joint: str = "") -> Any:
    """``answer`` to the rest of a question, marked for the ``words`` it did not read (``note`` says why): an answered
    figure becomes PARTIAL (``reason`` in its partial reasons); no data, a clarification or a refusal keep their
    status and carry the note too. Shared by the AP fields here and the limits of router/unapplied_limits.py."""
    result = dict(answer.result or {})
    result["not_understood"] = [*result.get("not_understood", []), *words]
    update: dict[str, Any] = {"result": result}
    if answer.status in ("answered", "partial"):
        result["status"] = "partial"
        result["partial_reasons"] = [*result.get("partial_reasons", []), f"{reason}: {', '.join(words)}"]
        update |= {"status": "partial", "text": f"PARTIAL: {note}{joint} {answer.text}"}
    elif answer.status == "clarification":
        asked = f"{note} {answer.clarification_question or ''}".strip()
        update |= {"clarification_question": asked, "text": f"{answer.text} {note}"}
    else:
        update |= {"text": f"{answer.text} {note}"}
    return answer.model_copy(update=update)


def with_unknown_fields(answer: Any, fields: Sequence[UnknownField]) -> Any:
    """``answer`` to the rest of the question, marked for the fields not understood: an answered figure becomes
    PARTIAL (the fields named); no data, a clarification or a refusal keep their status and name them too."""
    return with_not_understood(answer, [f.words for f in fields], fields_note(fields), reason="not understood",
                               joint=" The rest of the question is answered:")


__all__ = ["FieldSplit", "UnknownField", "fields_note", "split_fields", "unknown_fields", "with_not_understood",
           "with_unknown_fields"]
