"""One product left out of a governed spend figure (``exclude_product_codes``), named by its code, its catalogue
name, its model code or a description in other words, the cue before or after it; no database.

The slot grammar is that of :mod:`evaluation.probes_exclusions` (class ``product_excl``): the product, the cue, the
company, the period and an optional group over it vary; the plan must carry the product as the not-in filter and
the group (when named) as the figure's scope, never the product as a filter nor a group inside its description.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluation.probes_exclusions import _ABOVE, POST_CUES, PRE_CUES, PRODUCTS
from router.routing import RouterInputs, route
from tests.unit.test_router_analysis import METRICS
from tests.unit.test_router_compound import AS_OF, CTX, GAZETTEER

INPUTS = RouterInputs(ctx=CTX, as_of=AS_OF, gazetteer=GAZETTEER, metrics=METRICS)
SUITE = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))
GROUP_WORDS = {"PG-SENS": "sensors", "PG-MON": "monitoring products", "PG-CTRL": "control equipment",
               "PG-MRO": "MRO"}
FRAMES = ("{c} spend {p} {ex}", "{c} {g} spend {p} {ex}", "How much did {c} spend on {g} {p}, {ex}?",
          "What did {c} spend {p} {ex}?")
PERIODS = (("in Q1 2026", "2026-01-01", "2026-04-01"), ("in FY2025", "2025-01-01", "2026-01-01"),
           ("in H2 2025", "2025-07-01", "2026-01-01"))


@SUITE
@given(st.sampled_from(sorted(PRODUCTS)), st.data(), st.sampled_from(FRAMES), st.sampled_from(PERIODS),
       st.sampled_from((("Company A", "COMP-A"), ("Company B", "COMP-B"))), st.booleans())
def test_a_product_left_out_is_the_exclude_product_codes_filter(code, data, frame, period, company, before) -> None:  # type: ignore[no-untyped-def]
    group, spellings = PRODUCTS[code]
    x = data.draw(st.sampled_from(spellings))
    ex = f"{data.draw(st.sampled_from(PRE_CUES))} {x}" if before else data.draw(st.sampled_from(POST_CUES)).format(x=x)
    question = frame.format(c=company[0], p=period[0], g=GROUP_WORDS[_ABOVE[group]], ex=ex)
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    params = step.arguments["parameters"]
    assert params["exclude_product_codes"] == [code], (question, params)
    assert "product_codes" not in params and "exclude_product_group_ids" not in params, (question, params)
    assert (params["company_id"], params["start_date"], params["end_date"]) == (company[1], *period[1:]), question
    if "{g}" in frame:
        assert _ABOVE[group] in json.dumps(params["product_group_ids"]), (question, params)
    else:
        assert "product_group_ids" not in params, (question, params)


def test_a_group_named_alone_after_the_cue_stays_a_group_exclusion() -> None:
    """"excluding PLC modules" fits one catalogue name too ("PLC I/O module 16DI"): a group's name said alone is the
    group."""
    for question in ("Company A spend in Q1 2026 excluding PLC modules", "Company A spend in Q1 2026, PLC modules "
                     "excluded"):
        result = route(question, INPUTS)
        params = next(s for s in result.execution_plan if s.tool == "metrics.query").arguments["parameters"]
        assert params.get("exclude_product_group_ids") == ["PG-PLC"] and "exclude_product_codes" not in params, params


COMPANIES = (("Company A", "COMP-A"), ("Company B", "COMP-B"))
BARE = ("{c} {p}, {ex}", "{c} {p}: everything {ex}", "{c} monitoring products {p}, {ex}")


@settings(SUITE, max_examples=20)
@given(st.sampled_from(BARE), st.sampled_from(PERIODS), st.sampled_from(COMPANIES),
       st.sampled_from((("Supplier Beta", "exclude_supplier_ids", ["SUP-18"]),
                        ("control equipment", "exclude_product_group_ids", ["PG-CAB", "PG-CAB-ACC", "PG-CMOD",
                                                                           "PG-CTRL", "PG-PLC"]),
                        ("the PT100 temperature probe", "exclude_product_codes", ["PRD-491"]))),
       st.sampled_from(("excluding {x}", "{x} excluded", "except {x}", "not counting {x}", "leave {x} out")))
def test_something_left_out_without_a_measure_word_is_the_spend(frame, period, company, left, cue) -> None:  # type: ignore[no-untyped-def]
    """Leaving something out is defined for an amount only: a company, a period and an exclusion with no measure
    word ("Company B monitoring products Jan-Apr 2026, Supplier Beta excluded") is the spend without it."""
    words, key, ids = left
    question = frame.format(c=company[0], p=period[0], ex=cue.format(x=words))
    result = route(question, INPUTS)
    assert not result.requires_clarification, (question, result.clarification_question)
    step = next(s for s in result.execution_plan if s.tool == "metrics.query")
    params = step.arguments["parameters"]
    assert step.arguments["metric"] == "finance.company_spend" and sorted(params[key]) == ids, (question, params)
    assert (params["company_id"], params["start_date"], params["end_date"]) == (company[1], *period[1:]), question
