"""Relationship asks with no measure, read by their shape: whom one may buy from, who sells a group.

A question that names no figure may still be complete: it asks for a party. Its shape says which relationship:

* the party asked as the source of a permitted purchase: a wh-word that asks for a party ("who", "which
  suppliers", "what vendors"), a word of permission or ability ("can", "may", "allowed", "permitted", "cleared",
  "able to") and a buying verb with its preposition left at the end ("buy from", "order from", "source with").
  "who are we (Ypsilon) allowed to buy from right now", "which vendors can Company A order from at the moment":
  the approved vendors of the company (the approval table), never passages about buying. Without the permission
  word ("which suppliers did we buy from in Q1") it is the purchase listing, left as typed; a "what" that asks
  for goods ("what can we buy from Zeta") is the catalogue, left as typed.
* the seller of a group with a hedge between "who" and the verb ("who even sells cables", "who actually
  supplies crates"): the hedge carries nothing, so the catalogue reader sees "who sells ...".

The words of the shape (wh-word, auxiliaries, permission, the verb and its preposition) are replaced by "approved
suppliers"; every other word (the company in brackets, the period, "right now") stays for the reader.
"""

from __future__ import annotations

import re

_PARTY = (r"(?:suppliers?|vendors?|sellers?|sources?|firms|companies|partners|merchants|providers?|"
          r"distributors?|people|anyone|anybody|whom)")
#: A wh-word asking for a party: "who", "whom", "which (of our) suppliers", "what vendors".
_WH_PARTY = rf"(?:who|whom|(?:which|what)\s+(?:(?:of\s+)?(?:our|the|my)\s+)?{_PARTY})"
#: Permission or ability: the purchase asked about is one allowed, not one made.
_PERMISSION = (r"(?:can|could|may|might|allowed|permitted|authori[sz]ed|cleared|approved|able|ok|okay|free|"
               r"entitled)")
_BUY = r"(?:buy|order|purchase|source|procure|shop|get\s+(?:stuff|things|goods))"
_PERMITTED_SOURCE = re.compile(
    rf"\b(?P<wh>{_WH_PARTY})\b(?P<mid>[^?.!;]{{0,80}}?\b{_PERMISSION}\b[^?.!;]{{0,40}}?)\s+"
    rf"{_BUY}\s+(?:(?:stuff|things|goods|anything|items|products)\s+)?(?:from|with|at)\b"
    # the preposition stranded: no name or noun phrase of its own after it ("buy from Zeta" asks the catalogue)
    r"(?!\s+(?:the\s+)?[A-Z][\w-]*\s+(?:[A-Z]|AG|GmbH|Ltd|Inc)\b)", re.I)
#: A negation inside the shape ("no longer allowed to buy from", "can Company A not order from"): the ask is the
#: vendors NOT permitted, which no reader answers from the approval table; the shape is left as typed (its old
#: route), never rewritten into the approved list (the meaning inverted).
_NEGATION = re.compile(r"(?:\b(?:not|no|never|cannot|anymore|any\s+more|nicht|kein\w*|ne|pas|niet|nie|inte|ikke|"
                       r"non|nope)\b|n['’]t\b)", re.I)
#: Auxiliaries, pronouns and permission words inside the shape: no constraint of their own.
_SHAPE_WORDS = re.compile(rf"\b(?:are|is|am|be|were|was|do|does|did|we|i|us|they|you|one|our|still|even|actually|"
                          rf"really|currently|to|{_PERMISSION})\b", re.I)
#: A hedge between "who" and the verb of selling: no constraint ("who even sells", "who actually supplies").
_HEDGED_SELLER = re.compile(r"\b(?P<who>who|which\s+suppliers?|which\s+vendors?)\s+(?:even|actually|really|"
                            r"exactly|currently|still|in\s+fact)\s+(?=(?:sells?|supplies|carries|stocks|"
                            r"offers|provides|makes|has|delivers)\b)", re.I)


def read_relation_shape(text: str) -> str | None:
    """``text`` with a measureless relationship ask written as the reader knows it, or ``None`` (no such shape).

    >>> read_relation_shape("hello, who are we (Ypsilon) allowed to buy from right now?")
    'hello, approved suppliers (Ypsilon) right now?'
    >>> read_relation_shape("which vendors can Company A order from at the moment")
    'approved suppliers Company A at the moment'
    >>> read_relation_shape("which suppliers did we buy from in Q1") is None
    True
    >>> read_relation_shape("who are we (Company A) no longer allowed to buy from") is None
    True
    >>> read_relation_shape("who else sells cables?") is None
    True
    >>> read_relation_shape("who even sells cables & plugs?")
    'who sells cables & plugs?'
    """
    found = _PERMITTED_SOURCE.search(text)
    # (the shape's sentence: "... allowed to buy from anymore" negates after the preposition)
    end = re.compile(r"[?.!;]|$").search(text, found.end()).start() if found is not None else 0
    if found is not None and _NEGATION.search(text, found.start(), end) is not None:
        return None  # "no longer allowed to buy from": the negation no reader applies keeps the old route
    if found is not None:
        kept = _SHAPE_WORDS.sub(" ", found.group("mid"))
        said = f"approved suppliers {kept}"
        out = text[:found.start()] + said + text[found.end():]
        return re.sub(r"\s{2,}", " ", re.sub(r"\s+([?!.,)])", r"\1", out)).strip()
    hedged = _HEDGED_SELLER.search(text)
    if hedged is not None:
        return f"{text[:hedged.start()]}{hedged.group('who')} {text[hedged.end():]}"
    return None


__all__ = ["read_relation_shape"]
