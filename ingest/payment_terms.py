"""Deterministic extraction of an agreement version's payment term ("Payment is due 30 days net ...").

The term is structured data: the due date of an invoice (and so whether it is overdue) is computed from it by a
governed mart (dbt: marts.payment_terms), never from clause text retrieved at answer time. Each agreement version
yields at most one :class:`~ingest.models.PaymentTerm` with the clause number, the quoted sentence, its page and
chunk, so an overdue answer cites its evidence. A version with no term sentence has no term (overdue cannot be
computed for its company); a version whose sentences state different terms, or a term without an effective date
to hold from, is refused (a :class:`~ingest.errors.ParseError`: the document goes to the dead-letter queue) rather
than one of the readings being picked.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from pydantic import ValidationError

from ingest.errors import ParseError
from ingest.extract import chunk_at
from ingest.markdown import MarkdownLayout
from ingest.models import Chunk, PaymentTerm

#: The extractor's own version (landed with every row; a change of the rules bumps it).
PAYMENT_TERMS_EXTRACTION = "payment-terms-2"

#: The net payment term in days, in the common phrasings of an agreement: "Payment is due 30 days net",
#: "payment shall be due within 45 calendar days", "Payment shall be made within 45 days", "invoices are payable
#: within 45 days of invoice date", "net 45 days", "45 days net". Bounded on purpose: a bare "within N days" (a
#: delivery, a notice, a complaint period) is no payment term, so each phrasing names payment, payable or net.
_DAYS = r"(?<![\d.,])(?P<days>\d{1,3})\s+(?:calendar\s+)?days"
_TERMS = (
    re.compile(r"\bpayment\s+(?:is|shall\s+be|will\s+be|becomes|falls)\s+due\s+(?:within\s+)?" + _DAYS, re.I),
    re.compile(r"\bpayment\s+(?:is\s+to|shall|will|must)\s+be\s+(?:made|effected)\s+within\s+" + _DAYS, re.I),
    re.compile(r"\bpayable\s+within\s+" + _DAYS, re.I),
    re.compile(r"\bnet\s+" + _DAYS + r"\b", re.I),
    re.compile(_DAYS + r"\s+net\b", re.I),
)
#: The clause number a sentence belongs to: "6.2 " at the start of its line.
_CLAUSE = re.compile(r"^\s*(\d+(?:\.\d+)+)\s", re.M)
#: Where a sentence ends (a full stop followed by a blank or the end of the line).
_SENTENCE_END = re.compile(r"\.(?=\s|$)")


def _sentence(text: str, start: int, end: int) -> tuple[str, str | None]:
    """The sentence around ``text[start:end]`` (whitespace collapsed) and the clause number of its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    previous = [m.end() for m in _SENTENCE_END.finditer(text, line_start, start)]
    begin = previous[-1] if previous else line_start
    clause_match = _CLAUSE.match(text, line_start, line_end)
    if clause_match is not None and begin <= clause_match.end():
        begin = clause_match.end()
    stop = _SENTENCE_END.search(text, end, line_end)
    sentence = " ".join(text[begin:stop.end() if stop else line_end].split())
    return sentence, clause_match.group(1) if clause_match else None


def extract_payment_term(
    layout: MarkdownLayout,
    chunks: Sequence[Chunk],
    *,
    document_id: str,
    company_id: str,
    effective_date: date | None,
    source: str,
) -> tuple[PaymentTerm, ...]:
    """The payment term of one agreement version, or ``()`` when it states none.

    Raises:
        ParseError: the version states different terms, or a term but no effective date.
    """
    # every phrasing's matches, in text order (one sentence may match two phrasings: the same term)
    found = sorted((m for pattern in _TERMS for m in pattern.finditer(layout.text, layout.body_start)),
                   key=lambda m: m.start())
    if not found:
        return ()
    days = sorted({int(m.group("days")) for m in found})
    if len(days) > 1:
        raise ParseError(f"{source}: the agreement states different payment terms ({', '.join(map(str, days))} "
                         "days); which one holds is not decided here")
    if effective_date is None:
        raise ParseError(f"{source}: the agreement states a payment term but no effective_date to hold from")
    first = found[0]
    sentence, clause = _sentence(layout.text, first.start(), first.end())
    chunk = chunk_at(chunks, first.start())
    page = chunk.page if chunk else next((b.page for b in layout.blocks if b.start <= first.start() < b.end), None)
    try:
        term = PaymentTerm.model_validate({
            "agreement_id": document_id,
            "company_id": company_id,
            "effective_date": effective_date,
            "term_days": days[0],
            "clause": clause,
            "sentence": sentence,
            "page_number": page,
            "chunk_id": chunk.chunk_id if chunk else None,
            "extraction_version": PAYMENT_TERMS_EXTRACTION,
        })
    except ValidationError as exc:
        detail = exc.errors()[0]
        raise ParseError(f"{source}: payment term: {str(detail['msg']).removeprefix('Value error, ')}") from None
    return (term,)


__all__ = ["PAYMENT_TERMS_EXTRACTION", "extract_payment_term"]
