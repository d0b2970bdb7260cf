"""Golden cases of the exact family."""

from __future__ import annotations

from evaluation.golden_cases.common import CaseList, _other_tenant_product_names, _pii_of
from evaluation.golden_cases.corpus import SEED_TENANT


def exact_lookup_cases(cases: CaseList) -> None:
    t = cases.corpus.tenants[SEED_TENANT]
    templates = ("What is {code}?", "Look up product {code}.", "Show the catalog entry for {code}.",
                 "Which product has the code {code}?")
    for i, code in enumerate(sorted(t.products)[:12]):
        product = t.products[code]
        cases.add(
            f"exact-product-{code.lower()}", "exact_lookup", templates[i % len(templates)].format(code=code),
            intents=["exact_lookup"], entities={"product_codes": [code]}, max_steps=1,
            answer={"kind": "lookup", "ids": [code], "must_contain": [product["product_name"]]},
            sources=[{"document_id": "products"}],
            must_not=_other_tenant_product_names(cases.corpus, SEED_TENANT, code),
        )
    # invoices: the seed invoice, the replicated duplicate, the updated (draft -> posted) one, a credit note,
    # invoice-level tax, and shared invoice numbers that exist in other tenants with other data
    wanted = ["invoice-2026-0148", "invoice-2026-0150", "invoice-2026-0161", "credit-note-2026-0007",
              "invoice-2026-0163", "invoice-2026-0211", "invoice-2026-0505", "invoice-2026-0512"]
    inv_templates = ("Show invoice {number}.", "What is the status of invoice {number}?",
                     "Open {number}.", "When was {number} issued and what is its status?")
    for i, document_id in enumerate(wanted):
        invoice = t.invoices[document_id]
        number = invoice["invoice_number"]
        cases.add(
            f"exact-invoice-{number.lower()}", "exact_lookup",
            inv_templates[i % len(inv_templates)].format(number=number),
            intents=["exact_lookup"], entities={"invoice_numbers": [number]}, max_steps=1,
            answer={"kind": "lookup", "ids": [number], "must_contain": [invoice["status"], invoice["invoice_date"]]},
            sources=[{"document_id": document_id}],
            notes={"invoice-2026-0161": "updated under updates/: the served version is posted, not draft",
                   "invoice-2026-0150": "a replicated copy exists (invoice-2026-0150-erp-replica); cite the original"}
            .get(document_id),
        )
    for document_id, doc in sorted(t.markdown.items()):
        if doc.document_type != "agreement":
            continue
        cases.add(
            f"exact-contract-{document_id}", "exact_lookup", f"Open {document_id}.",
            intents=["exact_lookup"], entities={"contract_ids": [document_id]}, max_steps=1,
            answer={"kind": "lookup", "ids": [document_id], "must_contain": [doc.title]},
            sources=[{"document_id": document_id}],
        )
    for supplier_id in ("SUP-18", "SUP-27", "SUP-31", "SUP-44"):
        name = t.suppliers[supplier_id]["supplier_name"]
        cases.add(
            f"exact-supplier-{supplier_id.lower()}", "exact_lookup", f"Who is supplier {supplier_id}?",
            intents=["exact_lookup"], entities={"supplier_ids": [supplier_id]}, max_steps=1,
            answer={"kind": "lookup", "ids": [supplier_id], "must_contain": [name]},
            sources=[{"document_id": "suppliers"}],
            must_not=_pii_of(t, supplier_id),
        )
    for company_id in ("COMP-B", "COMP-C"):
        cases.add(
            f"exact-company-{company_id.lower()}", "exact_lookup", f"Which company is {company_id}?",
            intents=["exact_lookup"], entities={"company_ids": [company_id]}, max_steps=1,
            answer={"kind": "lookup", "ids": [company_id], "must_contain": [t.companies[company_id]]},
            sources=[{"document_id": "companies"}],
        )
