"""Review 38: "approved by <company>" and "ordered by <sort key>" are no unknown buyer/approver dimension.

"Which vendors are approved by Kestrel Lebensmittel right now?" asks the approval table of a company, and "List the
invoices ... ordered by Date" a sort; both were refused as a limit to a buyer the data does not record. A person
after a role noun ("buyer Jana Wolff", "approver M. Keller", "requested by Ines Roth") is still named back. Seeded:
the company / person names, the sort keys and the phrasing vary.
"""

from __future__ import annotations

import random

import pytest

from router.dimensions import unknown_dimensions

_COMPANIES = ("Kestrel Lebensmittel", "Orbis Packaging", "Nordwind Logistik", "Company Beta", "Helios Foods",
              "Alpen Bau")
_KEYS = ("Date", "date", "Amount", "amount", "Value", "value", "Supplier", "supplier", "Invoice Date", "Total",
         "Vendor", "Spend")
_PEOPLE = ("Jana Wolff", "M. Keller", "Ines Roth", "Paul Berger", "Lena Maria Vogt")
_ROLES = ("buyer", "approver", "requester", "requested by", "purchaser", "buyer name")


@pytest.mark.parametrize("seed", range(60))
def test_company_approval_and_sort_keys_are_no_dimension(seed: int) -> None:
    rng = random.Random(3810 + seed)
    company = rng.choice(_COMPANIES)
    asks = (f"Which vendors are approved by {company} {rng.choice(('right now', 'today', 'on 2026-09-30', ''))}?",
            f"List the suppliers approved by {company} as of {rng.choice(('2026-09-30', 'today'))}",
            f"List the invoices of {company} in Q{rng.randint(1, 4)} 2026 ordered by {rng.choice(_KEYS)}",
            f"Spend of {company} by supplier in 2026, ordered by {rng.choice(_KEYS)} descending")
    text = rng.choice(asks)
    assert unknown_dimensions(text) == (), text


@pytest.mark.parametrize("seed", range(30))
def test_a_person_in_a_role_is_still_named_back(seed: int) -> None:
    rng = random.Random(3840 + seed)
    role, person = rng.choice(_ROLES), rng.choice(_PEOPLE)
    text = f"Total spend of {rng.choice(_COMPANIES)} in 2026 for {role} {person}"
    found = unknown_dimensions(text)
    assert [(d.label, d.value) for d in found] == [("buyer, requester or approver", person)], (text, found)
