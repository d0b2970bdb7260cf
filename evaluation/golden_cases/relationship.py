"""Golden cases of the relationship family."""

from __future__ import annotations

import datetime as dt

from evaluation.golden_cases.common import CaseList, Period
from evaluation.golden_cases.corpus import SEED_TENANT


def relationship_cases(cases: CaseList) -> None:
    corpus = cases.corpus
    t = corpus.tenants[SEED_TENANT]
    approvals = [a for a in corpus.truth["approvals"] if a["tenant_id"] == SEED_TENANT]
    for company_id in sorted(t.companies):
        company = t.companies[company_id]
        for q in range(1, 5):
            period = Period.quarter(2026, q)
            name = f"approved_vendors_tenant_42_{company_id.lower().replace('-', '_')}_2026q{q}"
            question = corpus.question(name)
            with_ids = q % 2 == 0
            text = question["question"] if with_ids else (
                f"Which suppliers were approved vendors of {company} in {period.q_year()}?")
            used = question["expected"]["approvals"]
            cases.add(
                f"rel-approved-{company_id.lower()}-2026q{q}", "relationship", text,
                intents=["exact_lookup", "relationship"] if with_ids else ["relationship"],
                entities={"company_ids": [company_id]}, constraints={"time_range": period.as_dict()},
                tools=["graph.find_approved_vendors"],
                answer={"kind": "id_set", "ids": question["expected"]["supplier_ids"],
                        "ground_truth": {"question": name, "field": "expected.supplier_ids"}},
                sources=[{"document_id": d, "page": pg}
                         for d, pg in sorted({(a["agreement_id"], a["page"]) for a in used})],
            )
    as_of = corpus.as_of
    today = Period(as_of, as_of + dt.timedelta(days=1))
    for company_id in ("COMP-A", "COMP-B"):
        current = sorted({
            a["supplier_id"] for a in approvals
            if a["company_id"] == company_id and a["valid_from"] <= as_of.isoformat()
            and (a["valid_to"] is None or a["valid_to"] > as_of.isoformat())
        })
        cases.add(
            f"rel-approved-{company_id.lower()}-today", "relationship",
            f"Which suppliers are currently approved vendors of {t.companies[company_id]}?",
            intents=["relationship"], entities={"company_ids": [company_id]},
            constraints={"time_range": today.as_dict()}, tools=["graph.find_approved_vendors"],
            answer={"kind": "id_set", "ids": current},
            notes="'currently' = the as_of day; computed from ground_truth.json approvals",
        )
    for supplier_id in ("SUP-18", "SUP-27", "SUP-31", "SUP-44", "SUP-52"):
        name = t.suppliers[supplier_id]["supplier_name"]
        cases.add(
            f"rel-products-of-{supplier_id.lower()}", "relationship", f"Which products does {name} supply?",
            intents=["relationship"], entities={"supplier_ids": [supplier_id]},
            tools=["catalog.find_products|graph.*"],
            answer={"kind": "id_set", "ids": t.products_of_supplier(supplier_id)},
        )
    for group_name in ("Monitoring Products", "Sensors", "Pressure Sensors", "Control Equipment",
                       "Maintenance, Repair and Operations"):
        group_id = t.group_id(group_name)
        cases.add(
            f"rel-products-in-{group_id.lower()}", "relationship",
            f"Which products belong to the {group_name} product group, including its subgroups?",
            intents=["relationship"], entities={"product_group": group_id},
            tools=["catalog.find_products|graph.*"],
            answer={"kind": "id_set", "ids": t.products_in_group(group_id)},
        )
    for group_name in ("Pressure Sensors", "Monitoring Controllers", "Calibration Equipment"):
        group_id = t.group_id(group_name)
        suppliers = sorted({t.products[c]["supplier_id"] for c in t.products_in_group(group_id)})
        cases.add(
            f"rel-suppliers-of-{group_id.lower()}", "relationship", f"Which suppliers provide {group_name.lower()}?",
            intents=["relationship"], entities={"product_group": group_id},
            tools=["catalog.find_products|graph.*"], answer={"kind": "id_set", "ids": suppliers},
        )
    for supplier_id in ("SUP-18", "SUP-27", "SUP-31"):
        rows = [a for a in approvals if a["company_id"] == "COMP-A" and a["supplier_id"] == supplier_id]
        supplier = t.suppliers[supplier_id]["supplier_name"]
        cases.add(
            f"rel-agreement-approving-{supplier_id.lower()}", "relationship",
            f"Which agreement approves {supplier} as a vendor of Company A?",
            intents=["relationship"], entities={"company_ids": ["COMP-A"], "supplier_ids": [supplier_id]},
            tools=["graph.*"],
            answer={"kind": "id_set", "ids": sorted({a["agreement_id"] for a in rows})},
            sources=[{"document_id": a["agreement_id"], "page": a["page"]} for a in rows[:1]],
        )
