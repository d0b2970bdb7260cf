"""Agreement-scoped asks: an approval's end without its supplier, thresholds named by an agreement, clauses."""

from __future__ import annotations

import pytest

from router.approval_validity import approval_unnamed


@pytest.mark.parametrize("text", [
    "When does the approval expire?",
    "until when does this approval run?",
    "what is the expiry date of the vendor approval?",
    "When will their authorisation lapse?",
    "Wann endet die Freigabe? valid until?",
])
def test_one_approval_without_supplier_is_asked_back(text: str) -> None:
    assert approval_unnamed(text, ())


@pytest.mark.parametrize("text,suppliers", [
    ("When does the approval expire?", ("SUP-07",)),           # a supplier is named
    ("until when do the approvals of Company B run?", ()),      # the list of approvals, each with its end
    ("When does the agreement expire?", ()),                    # no approval asked
    ("How many approvals does Company A have?", ()),
])
def test_not_an_unnamed_approval(text: str, suppliers: tuple[str, ...]) -> None:
    assert not approval_unnamed(text, suppliers)
