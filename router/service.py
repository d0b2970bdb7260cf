"""``ask``: route -> plan -> execute -> compose -> validate -> trace, for one authenticated principal.

The one code path behind ``POST /v1/ask``, ``procura ask`` and the MCP ``ask`` tool. The caller passes an
idle ``procura_app`` connection and the :class:`AuthContext` its authentication produced; the question text can
change neither.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import psycopg
from pydantic import BaseModel, ConfigDict

from procura.db.session import AuthContext
from retrieval import documents
from router.answer import Answer, PolicyCheck, Synthesizer, compose, validate_answer
from router.ap_fields import split_fields, with_unknown_fields
from router.approval_boundaries import (
    ApprovalRow,
    ApprovalWindow,
    Named,
    approval_clauses,
    read_approval_window,
    with_window_note,
)
from router.approval_synonyms import read_approval_contrast, read_approval_fields
from router.breakdown_words import company_spellings, read_breakdown_words
from router.catalog_relations import split_group_list
from router.claim_check import read_claim, with_verdict
from router.classifier import IntentClassifier, load_or_train
from router.company_compare import (
    COMPARISON_CUE,
    CompanyAsk,
    check_compared,
    company_mentions,
    implied_base,
    implied_note,
    ranked,
)
from router.company_compare import detect as detect_comparison
from router.company_compare import difference as difference_answer
from router.company_probe import (
    Probed,
    asks_only_company,
    decide,
    decision_note,
    first_person,
    matched_lines,
    one_company,
    several_note,
)
from router.company_set import company_nouns
from router.compound import merge_answers, split_asks, with_other_reading
from router.context_noise import set_aside_context, with_context_note
from router.contract import RoutingResult, clean_question
from router.default_measure import with_assumed_measure
from router.derived import DerivedAsk, detect
from router.derived_answer import check_derived, derive
from router.elliptic import ranked_by_spend
from router.entities import Gazetteer, load_gazetteer
from router.errors import ToolFailedError, ToolTimeoutError
from router.executor import Executor, KnownEntities, RunResult
from router.foreign_words import amount_read_as_both, read_foreign_words
from router.german import read_german
from router.like_patterns import read_likes
from router.list_totals import list_total_parts, with_currency_total, with_list_reading
from router.manual_asks import manual_ask, manual_note, manual_question, manuals_of, unknown_product
from router.missing_documents import set_aside_note, sole_not_found
from router.name_slots import company_spans, company_units
from router.names import PgTrigramResolver
from router.net_change import net_period_change
from router.notation import read_notation
from router.periods import HISTORY_START
from router.preamble import strip_preamble
from router.question_encoder import NumpyMiniLM
from router.ranking_words import read_ranking_words, with_reading_note
from router.reader import asks_personal_data, name_spellings, read
from router.reading import CatalogMetric, catalog_metrics
from router.romance import read_romance
from router.routing import RouterInputs, route, spoken_question
from router.rules import quoted_spans
from router.spreadsheet_formulas import formula_not_answered, formulas, unread_formula
from router.stated_limits import limit_note, read_stated_limits
from router.structured_notation import unread_aggregates
from router.tools import TOOLS, ApprovedVendorsToolRequest, ToolEnv, _metric, find_approved_vendors
from router.traces import TraceRecorder, TraceStore
from router.unapplied_limits import split_limits, with_unapplied_limits
from router.unread_words import with_unread_words
from semantic.errors import ScopeError

log = logging.getLogger(__name__)

Interface = Literal["api", "cli", "mcp", "test"]


class AskResult(BaseModel):
    """The response of ``ask``: the answer, the routing decision (with its plan) and the trace id."""

    model_config = ConfigDict(frozen=True)

    trace_id: str
    answer: Answer
    routing: RoutingResult
    steps: list[dict[str, Any]]
    #: The invoice lines a reading for one company matched (router/company_probe.py); ``None`` elsewhere.
    matched_lines: int | None = None


@dataclass
class AskService:
    """Everything ``ask`` needs, created once per process (the classifier and embedder load once)."""

    env: ToolEnv
    classifier: IntentClassifier | None
    store: TraceStore
    executor: Executor
    synthesizer: Synthesizer | None = None
    #: Catalog metrics without a workflow of their own, askable by their label or synonyms.
    catalog: tuple[CatalogMetric, ...] = ()
    #: Every catalog metric (its allow-lists bound the breakdowns a question may ask for).
    metrics: tuple[CatalogMetric, ...] = ()

    @classmethod
    def create(
        cls,
        metric_service: Any,
        *,
        home: Path,
        embedder: Any | None = None,
        use_classifier: bool = True,
        synthesizer: Synthesizer | None = None,
        timeouts_ms: dict[str, int] | None = None,
    ) -> AskService:
        """Wire the service: MiniLM classifier features (numpy) and embedder (vector search), retrieval, traces.

        Args:
            metric_service: the :class:`semantic.service.MetricService` of the process.
            home: ``PROCURA_HOME``; the classifier cache lives in ``home/router``.
            embedder: default the process-wide MiniLM embedder (loaded lazily) for search, and the same model
                in numpy for the classifier; a given embedder serves both.
            use_classifier: train/load the intent classifier (rules only when False).
            synthesizer: optional LLM synthesis (off by default).
            timeouts_ms: per-tool timeout overrides.
        """
        from router.evidence import retrieval_search

        features: Any = embedder
        if embedder is None:
            # Loaded on first use: a question the rules route to a metric never needs the model (cold CLI start).
            embedder = LazyEmbedder()
            # The classifier's features: the same MiniLM on the same weights, evaluated in numpy, so routing
            # never loads torch (vector search still does, when a plan searches).
            features = NumpyMiniLM(cache_dir=home / "router")
        classifier = load_or_train(features, home / "router") if use_classifier else None
        env = ToolEnv(metric_service=metric_service, embedder=embedder, search=retrieval_search)
        store = TraceStore()
        return cls(env=env, classifier=classifier, store=store,
                   executor=Executor(env, store, timeouts_ms=timeouts_ms), synthesizer=synthesizer,
                   catalog=catalog_metrics(metric_service.registry, exclude=frozenset(TOOLS)),
                   metrics=catalog_metrics(metric_service.registry))

    def ask(
        self,
        conn: psycopg.Connection,
        ctx: AuthContext,
        question: str,
        *,
        as_of: dt.date | None = None,
        interface: Interface = "api",
        _part: bool = False,
        _base: bool = False,
        _worded: bool = False,
        _company: str | None = None,
        _windowed: bool = False,
    ) -> AskResult:
        """Answer ``question`` for ``ctx`` (route, plan, execute, validate) and store the trace.

        A question with several asks ("spend with Gamma in Q1 and its invoice count") is answered part by part
        (:func:`router.compound.split_asks`), each part traced on its own, and merged into one answer.

        Raises:
            QuestionError: empty or oversized question.
            ScopeError: the plan needs a scope the principal lacks (nothing ran; the trace records the refusal).
        """
        started = time.perf_counter()
        as_of = as_of or dt.date.today()
        gazetteer = load_gazetteer(conn, ctx)
        if not _part and not _base and isinstance(question, str):
            # greetings, signatures, ticket and meeting references around the ask: set aside, named back
            # (router/context_noise.py); the ask is answered as if typed alone
            context = set_aside_context(question, (n for _, _, n in name_spellings(gazetteer)))
            if context.aside and context.text != question:
                done = self.ask(conn, ctx, context.text, as_of=as_of, interface=interface)
                return done.model_copy(update={"answer": done.answer.model_copy(update={
                    "text": with_context_note(done.answer.text, context.aside)})})
            # "the deck says EUR 1.2m for Beta in Q1, correct?": the quoted figure is the claim to check, never a
            # filter; the ask left is answered and the claim compared with its figure (router/claim_check.py)
            claim = read_claim(question)
            if claim is not None and claim.text != question:
                done = self.ask(conn, ctx, claim.text, as_of=as_of, interface=interface)
                return done.model_copy(update={"answer": done.answer.model_copy(update={
                    "text": with_verdict(done.answer.text, claim, done.answer.status, done.answer.result or {})})})
        # a voice transcript's numbers and names written as typed, for every reader below (router/spoken.py)
        plain = strip_preamble(clean_question(question))
        # "8'000.00", "last 60d", "11/2025", "CompanyC": shorthand notations written out (router/notation.py)
        plain = read_notation(plain, (n for _, _, n in name_spellings(gazetteer)), gazetteer, as_of=as_of) or plain
        said = spoken_question(plain, gazetteer)
        # French / Spanish finance words read in English before any reader splits or detects (router/romance.py)
        # "by pg", "per suplier", "por divisa": grouping words as the reader knows them (router/breakdown_words.py)
        said = read_breakdown_words(said or plain, company_spellings(gazetteer)) or said
        # "fatture", "leverancier", "without BTW", "money to Orbis", "kantoorartikelen": the concepts of a figure in
        # any writer's words, foreign group names as the tenant's groups (router/foreign_words.py)
        foreign = read_foreign_words(said or plain, gazetteer)
        said = foreign.text if foreign is not None else said
        said = read_romance(said or plain, keep=(n for _, _, n in name_spellings(gazetteer))) or said
        # "where supplier_name like 'north%'": the pattern resolved over the tenant's suppliers and aliases, one
        # supplier written as its name; several or none asked about (router/like_patterns.py)
        liked = read_likes(said or plain, gazetteer)
        if liked is not None and liked.problem is not None:
            return self._asked_back(conn, ctx, question, liked.problem, as_of, interface)
        # "sum(freight_cost)", "median(gross)": an aggregate call no governed figure computes is asked back, naming
        # it (router/structured_notation.py), never answered as another figure
        # ("=VLOOKUP(...)", "=SUM(Freight)": a spreadsheet formula not read, router/spreadsheet_formulas.py)
        unread = unread_aggregates(said or plain) or unread_formula(said or plain)
        if unread is not None:
            return self._asked_back(conn, ctx, question, unread, as_of, interface)
        if liked is not None and liked.text != (said or plain):
            return self.ask(conn, ctx, liked.text, as_of=as_of, interface=interface, _part=_part, _base=_base,
                            _company=_company)
        # "invoices from Beta after their approval lapsed (valid to D)": the approval's window as the period of the
        # invoices asked, from the approval table (router/approval_boundaries.py)
        # ("WHERE vendor_approved = true": the approval column as the approved vendors the data holds)
        fields = None if _part or _base or _worded or _windowed else read_approval_fields(said or plain)
        if fields is not None:
            done = self.ask(conn, ctx, fields, as_of=as_of, interface=interface, _windowed=True)
            return done.model_copy(update={"answer": done.answer.model_copy(update={
                "text": with_window_note(done.answer.text, f"the approval column read as {fields!r}")})})
        # (a part of a compound question too: "..., and the spend with Helix since its approval ended")
        window = None if _base or _worded or _windowed else self._approval_window(
            conn, ctx, gazetteer, said or plain, as_of)
        if window is not None:
            done = self.ask(conn, ctx, window.text, as_of=as_of, interface=interface, _part=_part, _windowed=True)
            return done.model_copy(update={"answer": done.answer.model_copy(update={
                "text": with_window_note(done.answer.text, window.note)})})
        # "do we have the datasheet of <product>?": the product's manual looked up as a document, found or not
        # found, never other documents' passages (router/manual_asks.py)
        manual = None if _base or _worded else self._manual(conn, ctx, question, said or plain, gazetteer, as_of,
                                                              interface)
        if manual is not None:
            return manual
        # "invoices above the EUR 25,000 dual-signature threshold": the amount stated is the bound, where it comes
        # from is context (router/stated_limits.py)
        limited = None if _base or _worded else read_stated_limits(said or plain)
        if limited is not None:
            done = self.ask(conn, ctx, limited.text, as_of=as_of, interface=interface, _part=_part, _worded=True)
            return done.model_copy(update={"answer": done.answer.model_copy(update={
                "text": limit_note(done.answer.text or "", limited.descriptions)})})
        # rankings, shares and differences as typed ("top 3 sups", "xenon minus ypsilon", "pct of total"): asked in
        # the phrasing their readers know, the reading stated (router/ranking_words.py)
        worded = None if _part or _base or _worded else read_ranking_words(said or plain)
        # "approved vs non-approved spend": the two asks written apart, each answered (router/approval_synonyms.py)
        worded = worded or (None if _part or _base or _worded else read_approval_contrast(said or plain))
        # "approved suppliers (office + shipping)": one list per group no one group holds (catalog_relations.py)
        worded = worded or (None if _part or _base or _worded else split_group_list(said or plain, gazetteer))
        if worded is not None:
            done = self.ask(conn, ctx, worded, as_of=as_of, interface=interface, _worded=True)
            return done.model_copy(update={"answer": done.answer.model_copy(update={
                "text": with_reading_note(done.answer.text, worded)})})
        # "... and the payment run date", "where po_number like 'PO-77%'": an AP field or a column the data does not
        # record is named as not understood and the rest of the question answered, marked partial
        # (router/ap_fields.py), never the rest presented as complete
        unasked = split_fields(said or plain)
        if unasked is not None:
            rest = self.ask(conn, ctx, unasked.rest, as_of=as_of, interface=interface, _part=_part, _base=_base,
                            _company=_company)
            return rest.model_copy(update={"answer": with_unknown_fields(rest.answer, unasked.fields)})
        # "... for the Bavaria region", "department Maintenance only": a limit the data cannot apply is named as not
        # understood and the figure without it answered, marked partial (router/unapplied_limits.py)
        # (a request for bank or contact data is refused as a whole by the router, never answered in part)
        known = [*(n for _, _, n in name_spellings(gazetteer)), *(p.product_name for p in gazetteer.products)]
        # ("alpenland site", "Company C plant": a company's unit is the company, router/name_slots.py)
        units = company_units(said or plain, company_spans(said or plain, gazetteer))
        unapplied = None if asks_personal_data(said or plain) else split_limits(said or plain, known, units)
        if unapplied is not None:
            rest = self.ask(conn, ctx, unapplied.rest, as_of=as_of, interface=interface, _part=_part, _base=_base,
                            _company=_company)
            return rest.model_copy(update={"answer": with_unapplied_limits(rest.answer, unapplied.limits)})
        # a derived measure (run-rate projection, average invoice value, concentration) of a base figure
        found = None if _base else detect(said or plain, as_of)
        if found is not None and _part:
            return self._derived(conn, ctx, question, found, as_of, interface)
        kept = tuple(syn for syn, _ in gazetteer.group_synonyms)  # the catalogue's German names stay as written

        def read_part(text: str) -> Any:
            return read(read_german(text, keep=kept) or text, gazetteer, as_of, self.catalog,
                        PgTrigramResolver(conn, ctx))

        # a ranking of the tenant's companies, or how much more one side spent than another (router/company_compare.py)
        compared = None if _base or found is not None else self._comparison(said or question, read_part)
        if compared is not None and _part:
            return self._compared(conn, ctx, question, compared, as_of, interface)
        if not _part:
            # "X invoices - list & total", "how many drafts / posted / paid": one document scope, every ask over
            # all of it (router/list_totals.py); other compound questions are split by the generic splitter
            names = tuple(n for kind, _, n in name_spellings(gazetteer) if kind in ("company", "supplier"))
            parts = list_total_parts(said or plain, names) or split_asks(said or plain, read_part)
            if len(parts) == 1 and parts[0].question != parts[0].asked:
                done = self.ask(conn, ctx, parts[0].question, as_of=as_of, interface=interface, _part=True)
                return done.model_copy(update={"answer": done.answer.model_copy(update={
                    "text": with_list_reading(done.answer.text, parts[0].question)})})
            # "rank A and B by spend": the named companies are the ranked rows, never asks of their own (a split
            # into more parts than companies asks something else beside the ranking: answered part by part)
            if compared is not None and (not parts or (
                    compared.kind == "company_ranking" and 1 < len(compared.named) >= len(parts)
                    and re.match(r"(?:rank|order|sort)\b", compared.words, re.I) is not None)):
                return self._compared(conn, ctx, question, compared, as_of, interface)
            # "at the Q1 pace, what would X be for a half-year" is one ask (its clauses are not asks of their own:
            # without the measure's words it is one question); "average invoice value, and how many invoices" is
            # two, the measure in its part
            # ("Company B: how concentrated is spend? % of the top 2": the frame's clauses are the concentration's)
            if found is not None and (not parts or (found.kind in ("projection", "concentration")
                                                    and not split_asks(found.base, read_part))):
                return self._derived(conn, ctx, question, found, as_of, interface)
            if parts:
                asked = [(p, self.ask(conn, ctx, p.question, as_of=as_of, interface=interface, _part=True))
                         for p in parts]
                # a part that took its period from a later part: also answered without it (router/compound.py)
                others = {i: self.ask(conn, ctx, p.without_period, as_of=as_of, interface=interface, _part=True)
                          for i, (p, _) in enumerate(asked) if p.without_period}
                # a document named and missing: its not-found is the whole answer, a remark beside it asks
                # nothing (router/missing_documents.py)
                sole = sole_not_found([(r.answer.status, r.routing.clarification_reasons) for _, r in asked])
                if sole is not None:
                    alone = asked[sole][1]
                    return alone.model_copy(update={"answer": alone.answer.model_copy(update={
                        "text": set_aside_note(alone.answer.text or "",
                                               [p.asked for i, (p, _) in enumerate(asked) if i != sole])})})
                first = asked[0][1]
                routing = first.routing.model_copy(update={
                    "question": question, "rule_hits": (*first.routing.rule_hits, f"compound:parts:{len(parts)}")})
                merged = [(p, with_other_reading(p, r.answer, others[i].answer if i in others else None))
                          for i, (p, r) in enumerate(asked)]
                answer = with_currency_total(merge_answers(merged), merged)
                both = amount_read_as_both(foreign)
                if both is not None:
                    # "the amount of invoices": their number and their value both answered, the reading named
                    answer = answer.model_copy(update={"text": f"{both} {answer.text or ''}".strip()})
                return AskResult(trace_id=first.trace_id, answer=answer,
                                 routing=routing, steps=[s for _, r in asked for s in r.steps])
        # a reading for one company of the tenant (router/company_probe.py): that company is the only one it knows
        routed_with = gazetteer if _company is None else one_company(gazetteer, _company)
        routing = route(question, RouterInputs(ctx=ctx, as_of=as_of, gazetteer=routed_with, classifier=self.classifier,
                                               catalog=self.catalog, metrics=self.metrics,
                                               resolver=PgTrigramResolver(conn, ctx)))
        if (_company is None and len(gazetteer.companies) > 1 and routing.requires_clarification
                and asks_only_company(routing.clarification_reasons)):
            # "which company?" is asked only where the answer depends on it (router/company_probe.py)
            sole = self._by_company(conn, ctx, question, gazetteer, as_of, interface)
            if isinstance(sole, AskResult):
                return sole
            if sole:
                # asked back, saying which companies have data for it (the answer differs between them)
                routing = routing.model_copy(update={
                    "clarification_question": f"{routing.clarification_question} {sole}"})
        if routing.workflow == "document_answer" and formulas(question):
            # a spreadsheet formula is an ask for a figure, never a passage search: its reading did not reach one
            return self._asked_back(conn, ctx, question, formula_not_answered(question), as_of, interface)
        # Document ids named in the question: found / not found / duplicate, searches scoped to them and dated.
        valid_at = evidence_date(routing, as_of)
        lookup = documents.lookup_question(conn, ctx, said or question, valid_at=valid_at)
        routing = routing.model_copy(update={"execution_plan": documents.scope_plan(routing.execution_plan,
                                                                                     lookup, valid_at)})
        recorder = TraceRecorder()
        _record_routing(recorder, routing)
        self.store.start(conn, ctx, recorder, interface=interface, question=routing.question, as_of=as_of,
                         routing=routing.model_dump(mode="json", by_alias=True))
        run: RunResult | None = None
        missing = _missing_scopes(ctx, routing)
        if missing:
            # Design note: every planned step is checked against the authenticated context before anything runs
            # (never per step); a plan that needs a scope the key lacks is refused as a whole (HTTP 403), so a
            # partial answer never hides that the principal may not see the figure it asked for.
            recorder.add("policy_check", {"check": "plan_scopes", "missing": missing, "passed": False})
            refusal = Answer(status="failed", text=f"Forbidden: the plan needs scope(s) {', '.join(missing)}.",
                             result={"status": "forbidden", "missing_scopes": missing}, inputs={}, sources=())
            recorder.add("answer", {"status": "forbidden", "text": refusal.text})
            self.store.finish(conn, ctx, recorder, status="failed", workflow=routing.workflow,
                              answer=refusal.model_dump(mode="json"),
                              duration_ms=(time.perf_counter() - started) * 1000)
            raise ScopeError(f"ask ({routing.workflow})", missing[0])
        if not routing.requires_clarification and routing.execution_plan and not lookup.all_missing:
            run = self.executor.execute(conn, ctx, routing.execution_plan, recorder, _known(gazetteer))
        answer = compose(routing, run)
        answer = answer.model_copy(update=documents.answer_update(answer.status, answer.text, lookup))
        if valid_at != as_of and answer.evidence and not lookup.documents:
            # Named documents already say which version was in force; passages found by search say it here.
            answer = answer.model_copy(update={"text": f"{answer.text} Passages are quoted from the document "
                                                       f"versions in force on {valid_at.isoformat()}."})
        answer = self._validated(conn, ctx, routing, run, answer, recorder)
        # a content word no reader took: named, the figure marked partial (router/unread_words.py)
        answer = with_unread_words(answer, routing.unread)
        # a word read as the default figure: the reading said, the figure marked partial (router/default_measure.py)
        answer = with_assumed_measure(answer, routing.assumed_measure, routing.assumed_figure)
        for citation in answer.citations:
            recorder.add("citation", citation.model_dump(mode="json"))
        recorder.add("answer", {"status": answer.status, "text": answer.text})
        duration_ms = (time.perf_counter() - started) * 1000
        self.store.finish(conn, ctx, recorder, status=answer.status, workflow=routing.workflow,
                          answer=answer.model_dump(mode="json"), duration_ms=duration_ms)
        steps = [
            {"step_id": o.step_id, "tool": o.tool, "status": o.status, "attempts": o.attempts, "error": o.error}
            for o in (run.outcomes.values() if run is not None else ())
        ]
        return AskResult(trace_id=str(recorder.trace_id), answer=answer, routing=routing, steps=steps,
                         matched_lines=matched_lines(run) if _company is not None else None)

    def _approval_window(self, conn: psycopg.Connection, ctx: AuthContext, gazetteer: Gazetteer, text: str,
                         as_of: dt.date) -> ApprovalWindow | None:
        """The question with its approval clause read as the period, the supplier's rows read from the approval
        table in the agreement versions in force on ``as_of`` (router/approval_boundaries.py)."""
        if not approval_clauses(text, as_of):
            return None

        def named(t: str) -> Named:
            r = read(t, gazetteer, as_of, self.catalog)
            c = r.cues
            counted = c.spend or c.invoice_count or c.threshold_words
            return Named(r.entities.company_id, tuple(r.entities.supplier_ids), c.invoices, counted)

        def rows(company: str, supplier: str) -> tuple[ApprovalRow, ...]:
            request = ApprovedVendorsToolRequest(company_id=company, start_date=HISTORY_START,
                                                 end_date=dt.date(2100, 1, 1), supplier_ids=(supplier,), as_of=as_of)
            try:
                found = find_approved_vendors(conn, ctx, request, self.env, 10_000)
            except (ToolTimeoutError, ToolFailedError):  # no table read: the question's own date is used, and said
                return ()
            return tuple(ApprovalRow(a.supplier_id, a.valid_from, a.valid_to, a.agreement_id)
                         for a in found.approvals)

        return read_approval_window(text, as_of, named, rows)

    def _by_company(self, conn: psycopg.Connection, ctx: AuthContext, question: str, gazetteer: Gazetteer,
                    as_of: dt.date, interface: Interface) -> AskResult | str:
        """The question read for each company (each its own traced ask): the answer of the one company with data,
        or of none, with the company said; where the answer depends on the company (asked back), what the
        clarification adds (which companies have data), or "" when that is not known."""
        asked = {c.company_id: self.ask(conn, ctx, question, as_of=as_of, interface=interface, _part=True,
                                        _base=True, _company=c.company_id) for c in gazetteer.companies}
        probed = [Probed(company_id, r.matched_lines) for company_id, r in asked.items()]
        decision = decide(probed, personal=first_person(question))
        if decision is None:
            return several_note(probed, gazetteer.companies)
        chosen = asked[decision.company_id or gazetteer.companies[0].company_id]
        note = decision_note(decision, gazetteer.companies)
        routing = chosen.routing.model_copy(update={"rule_hits": (
            *chosen.routing.rule_hits, f"company_probe:{decision.company_id or 'none'}")})
        return chosen.model_copy(update={"answer": chosen.answer.model_copy(update={
            "text": f"{chosen.answer.text} {note}"}), "routing": routing, "matched_lines": None})

    @staticmethod
    def _comparison(question: str, read_part: Any) -> CompanyAsk | None:
        """The comparison across companies (or two sides) the question asks, read on the question as read."""
        text = strip_preamble(clean_question(question))
        # "which co spent most", "rank the 3 cos h2 25": the company noun written out, a ranking of the companies
        # with no measure ranked by spend (router/company_set.py, router/elliptic.py)
        text = company_nouns(text).text
        text = ranked_by_spend(text) or text
        if not COMPARISON_CUE.search(text):
            return None  # (no reading for the common question without a comparison word)
        reading = read_part(text)
        mentions = reading.mentions
        companies = company_mentions(reading.text, mentions.companies, reading.identifiers.company_ids)
        return (detect_comparison(reading.text, companies,
                                  (*mentions.suppliers, *mentions.product_groups, *mentions.products))
                or implied_base(reading.text, reading.period.time_range is not None or reading.period.ambiguous)
                or net_period_change(reading))  # a change of net spend: two governed net figures

    def _compared(self, conn: psycopg.Connection, ctx: AuthContext, question: str, compared: CompanyAsk,
                  as_of: dt.date, interface: Interface) -> AskResult:
        """A comparison across companies or sides: its base questions answered the ordinary way (each traced),
        then the ranking or the difference composed from their governed figures."""
        if compared.refused:
            # a refused comparison is a clarification: no base question is run (none would be used, and running
            # the question in full could trace a reading that is not answered, or raise for a scope it never needs);
            # the routing is the reading only, stopped at the clarification
            text = f"I need a clarification before answering: {compared.refused}"
            answer = Answer(status="clarification", text=text, result={},
                            inputs={"compared": {"kind": compared.kind, "words": compared.words}}, sources=(),
                            clarification_question=text)
            read_only = route(question, RouterInputs(ctx=ctx, as_of=as_of, gazetteer=load_gazetteer(conn, ctx),
                                                     classifier=self.classifier, catalog=self.catalog,
                                                     metrics=self.metrics, resolver=PgTrigramResolver(conn, ctx)))
            routing = read_only.model_copy(update={
                "requires_clarification": True, "clarification_question": text, "execution_plan": (),
                "workflow": "clarification", "rule_hits": (*read_only.rule_hits, f"compared:{compared.kind}")})
            bases: list[AskResult] = []
            checks: tuple[PolicyCheck, ...] = ()
        else:
            bases = [self.ask(conn, ctx, q, as_of=as_of, interface=interface, _part=True, _base=True)
                     for q in compared.bases or (question,)]
            answer, checks, routing = self._composed(conn, ctx, question, compared, bases)
        # The composition has its own trace: the base traces it rests on, its checks and the answer.
        recorder = TraceRecorder()
        recorder.add("plan", {"compared": compared.kind, "words": compared.words, "base_questions": list(
            compared.bases), "base_trace_ids": [r.trace_id for r in bases], "refused": compared.refused})
        for check in checks:
            recorder.add("validation", check.model_dump())
        recorder.add("answer", {"status": answer.status, "text": answer.text})
        self.store.start(conn, ctx, recorder, interface=interface, question=question, as_of=as_of,
                         routing=routing.model_dump(mode="json", by_alias=True))
        self.store.finish(conn, ctx, recorder, status=answer.status, workflow=routing.workflow,
                          answer=answer.model_dump(mode="json"), duration_ms=0.0)
        return AskResult(trace_id=str(recorder.trace_id), answer=answer, routing=routing,
                         steps=[s for r in bases for s in r.steps])

    def _manual(self, conn: psycopg.Connection, ctx: AuthContext, question: str, text: str, gazetteer: Gazetteer,
                as_of: dt.date, interface: Interface) -> AskResult | None:
        """A product's manual asked for: the lookup of its manuals (found / not found), the reading stated; a
        product the catalogue does not name is asked back; None when ``text`` asks no manual by its product."""
        asked = manual_ask(text)
        if asked is None or documents.document_ids_in_text(text) or documents.spelled_document_ids(text):
            return None
        codes = read(text, gazetteer, as_of, self.catalog, PgTrigramResolver(conn, ctx)).entities.product_codes
        if not codes:
            if not asked.product_text:
                return None
            return self._asked_back(conn, ctx, question, unknown_product(asked.product_text), as_of, interface)
        done = self.ask(conn, ctx, manual_question(manuals_of(conn, ctx, codes)), as_of=as_of, interface=interface,
                        _worded=True)
        names = {p.product_code: p.product_name for p in gazetteer.products}
        return done.model_copy(update={"answer": done.answer.model_copy(update={
            "text": manual_note(done.answer.text or "", [(c, names.get(c, "")) for c in codes])})})

    def _asked_back(self, conn: psycopg.Connection, ctx: AuthContext, question: str, problem: str,
                    as_of: dt.date, interface: Interface) -> AskResult:
        """A clarification found before the reading (nothing is computed): the routing is the reading only,
        stopped at the clarification, and traced."""
        text = f"I need a clarification before answering: {problem}"
        answer = Answer(status="clarification", text=text, result={}, inputs={}, sources=(),
                        clarification_question=text)
        read_only = route(question, RouterInputs(ctx=ctx, as_of=as_of, gazetteer=load_gazetteer(conn, ctx),
                                                 classifier=self.classifier, catalog=self.catalog,
                                                 metrics=self.metrics, resolver=PgTrigramResolver(conn, ctx)))
        routing = read_only.model_copy(update={
            "requires_clarification": True, "clarification_question": text, "execution_plan": (),
            "workflow": "clarification"})
        recorder = TraceRecorder()
        recorder.add("answer", {"status": answer.status, "text": answer.text})
        self.store.start(conn, ctx, recorder, interface=interface, question=question, as_of=as_of,
                         routing=routing.model_dump(mode="json", by_alias=True))
        self.store.finish(conn, ctx, recorder, status=answer.status, workflow=routing.workflow,
                          answer=answer.model_dump(mode="json"), duration_ms=0.0)
        return AskResult(trace_id=str(recorder.trace_id), answer=answer, routing=routing, steps=[])

    def _composed(self, conn: psycopg.Connection, ctx: AuthContext, question: str, compared: CompanyAsk,
                  bases: list[AskResult]) -> tuple[Answer, tuple[PolicyCheck, ...], RoutingResult]:
        """The ranking or difference composed from the answered base questions, checked."""
        first = bases[0]
        if compared.kind == "implied_base":
            answer = implied_note(compared, first.answer)
        elif compared.kind == "company_ranking":
            answer = ranked(compared, first.answer, load_gazetteer(conn, ctx).companies)
        else:
            answer = difference_answer(compared, first.answer, bases[1].answer)
        checks = check_compared(answer) if answer.status == "answered" else ()
        if not all(c.passed for c in checks):
            answer = Answer(status="validation_failed", text="The answer was withheld because it failed validation: "
                            + "; ".join(f"{c.check} ({c.detail})" for c in checks if not c.passed), result={},
                            inputs=answer.inputs, sources=(), checks=checks)
        elif checks:
            answer = answer.model_copy(update={"checks": (*answer.checks, *checks)})
        routing = first.routing.model_copy(update={
            "question": question, "rule_hits": (*first.routing.rule_hits, f"compared:{compared.kind}")})
        return answer, tuple(checks), routing

    def _derived(self, conn: psycopg.Connection, ctx: AuthContext, question: str, found: DerivedAsk,
                 as_of: dt.date, interface: Interface) -> AskResult:
        """A derived measure (router/derived.py): the base question answered, then the measure's governed metric
        called directly with the base answer's parameters (router/derived_answer.py)."""
        started = time.perf_counter()
        # a refused measure (compared with, or a share of a count) is a clarification: no base figure is computed
        base = self.ask(conn, ctx, found.base or question, as_of=as_of, interface=interface, _part=True,
                        _base=True)
        routing = base.routing.model_copy(update={
            "question": question, "rule_hits": (*base.routing.rule_hits, f"derived:{found.kind}")})
        # The derivation has its own trace: the base trace it rests on, each governed call and the answer.
        recorder = TraceRecorder()
        recorder.add("plan", {"derived": found.kind, "words": found.words, "base_question": found.base,
                              "base_trace_id": base.trace_id, "refused": found.refused})
        self.store.start(conn, ctx, recorder, interface=interface, question=question, as_of=as_of,
                         routing=routing.model_dump(mode="json", by_alias=True))
        steps: list[dict[str, Any]] = []

        def call(metric: str, params: dict[str, Any]) -> Any:
            step_id = f"derived_{len(steps) + 1}"
            scope = TOOLS["metrics.query"].scope if "metrics.query" in TOOLS else None
            if scope is not None and not ctx.has_scope(scope):
                recorder.add("policy_check", {"check": "plan_scopes", "missing": [scope], "passed": False}, step_id)
                raise ScopeError(f"ask (derived {found.kind})", scope)
            try:
                r = _metric(conn, ctx, self.env, 10_000, metric, params)
            except Exception as exc:
                recorder.add("tool_call", {"tool": metric, "arguments": params, "status": "failed",
                                           "error": type(exc).__name__}, step_id)
                steps.append({"step_id": step_id, "tool": metric, "status": "failed", "attempts": 1,
                              "error": type(exc).__name__})
                if isinstance(exc.__cause__, ScopeError):
                    # the metric's own scope is missing: a refusal (HTTP 403), not a failed derivation
                    recorder.add("policy_check", {"check": "metric_scope", "metric": metric, "passed": False},
                                 step_id)
                    raise exc.__cause__ from None
                raise
            recorder.add("tool_call", {"tool": metric, "arguments": params, "status": r.status, "values": r.values,
                                       "matched_line_count": r.matched_line_count}, step_id)
            steps.append({"step_id": step_id, "tool": metric, "status": "ok", "attempts": 1, "error": None})
            return r

        try:
            plan = [step.model_dump(mode="json") for step in base.routing.execution_plan]
            answer = derive(base.answer, found, as_of, call, plan)
        except ScopeError as exc:
            recorder.add("answer", {"status": "forbidden", "text": str(exc)})
            self.store.finish(conn, ctx, recorder, status="failed", workflow=routing.workflow,
                              answer={"status": "failed", "result": {"status": "forbidden"}},
                              duration_ms=(time.perf_counter() - started) * 1000)
            raise
        except Exception as exc:  # a failed derivation is said; no base figure is presented as the measure
            log.warning("derived measure failed: %s", exc)
            answer = Answer(status="failed", text=f"The {found.kind.replace('_', ' ')} could not be computed: a "
                            "governed call failed (see the trace).", result={}, inputs=base.answer.inputs,
                            sources=())
        if answer.status == "answered":
            checks = check_derived(answer)
            for check in checks:
                recorder.add("validation", check.model_dump())
            if not all(c.passed for c in checks):
                answer = Answer(status="validation_failed", text="The answer was withheld because it failed "
                                "validation: " + "; ".join(f"{c.check} ({c.detail})" for c in checks if not c.passed),
                                result={}, inputs=answer.inputs, sources=(), checks=checks)
            else:
                answer = answer.model_copy(update={"checks": (*answer.checks, *checks)})
        recorder.add("answer", {"status": answer.status, "text": answer.text})
        self.store.finish(conn, ctx, recorder, status=answer.status, workflow=routing.workflow,
                          answer=answer.model_dump(mode="json"), duration_ms=(time.perf_counter() - started) * 1000)
        return AskResult(trace_id=str(recorder.trace_id), answer=answer, routing=routing, steps=[*base.steps, *steps])

    def _validated(
        self, conn: psycopg.Connection, ctx: AuthContext, routing: RoutingResult, run: RunResult | None,
        answer: Answer, recorder: TraceRecorder,
    ) -> Answer:
        if answer.status in ("clarification", "unsupported"):
            return answer
        checks = validate_answer(conn, ctx, routing, run, answer)
        for check in checks:
            recorder.add("validation", check.model_dump())
        if not all(c.passed for c in checks):
            failed = [c for c in checks if not c.passed]
            return Answer(
                status="validation_failed",
                text="The answer was withheld because it failed validation: "
                + "; ".join(f"{c.check} ({c.detail})" for c in failed),
                result={}, inputs=answer.inputs, sources=(), checks=checks,
            )
        answer = answer.model_copy(update={"checks": checks})
        if self.synthesizer is not None:
            structured = {"result": answer.result, "inputs": answer.inputs, "sources": list(answer.sources)}
            try:
                text = self.synthesizer.synthesize(routing.question, structured, answer.evidence)
            except Exception as exc:  # a plug-in failure must not lose the validated template
                log.warning("synthesis failed: %s", exc)
                recorder.add("validation", {"check": "synthesis", "passed": False, "detail": str(exc)})
                return answer
            synth_checks = validate_answer(conn, ctx, routing, run, answer, text=text)
            passed = all(c.passed for c in synth_checks)
            recorder.add("validation", {"check": "synthesis", "passed": passed,
                                        "detail": [c.model_dump() for c in synth_checks]})
            if passed:
                return answer.model_copy(update={"text": text, "synthesized": True})
        return answer


def evidence_date(routing: RoutingResult, as_of: dt.date) -> dt.date:
    """The date documents are quoted as of: the date the question names, else ``as_of``.

    An amendment is evidence only from its effective date, so "the warranty on 1 March 2026" is read in the
    version in force that day, not in a later one in force on ``as_of``. A question that only asks about documents
    is read as of the last day of the period it names ("in Q1 2026" -> 2026-03-31; a period still running, as far
    as it has run). When the plan also computes a figure, the period is the figure's, and only a single day ("as
    of 2026-03-01") dates the documents too.
    """
    period = routing.constraints.time_range
    if period is None or not _dates_documents(period.source_text, routing.question):
        return as_of
    last_day = period.end - dt.timedelta(days=1)
    if period.start <= as_of < last_day:
        last_day = as_of  # a period still running ("in 2026") is read as far as it has run
    documents_only = all(step.tool.startswith(("documents.", "validation.")) for step in routing.execution_plan)
    if documents_only or last_day == period.start:
        return last_day
    return as_of


def _dates_documents(source_text: str, question: str) -> bool:
    """Whether the words a period was read from may date the documents quoted: not a year standing alone, and
    not words inside a quoted phrase, which is searched for ("Incoterms 2020"), not read."""
    if not source_text or re.fullmatch(r"\d{4}", source_text.strip()):
        return False
    return not any(source_text in question[start:end] for start, end in quoted_spans(question))


def _missing_scopes(ctx: AuthContext, routing: RoutingResult) -> list[str]:
    """Scopes the plan's tools need that the principal lacks (empty when the plan is fully authorized)."""
    from router.tools import TOOLS

    needed = {TOOLS[step.tool].scope for step in routing.execution_plan if step.tool in TOOLS}
    return sorted(scope for scope in needed if not ctx.has_scope(scope))


class LazyEmbedder:
    """The process-wide MiniLM embedder, loaded (torch, sentence-transformers, weights) on first use only."""

    def __init__(self) -> None:
        self._loaded: Any = None

    def _get(self) -> Any:
        if self._loaded is None:
            from ingest.embedder import get_default_embedder

            self._loaded = get_default_embedder()
        return self._loaded

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)


def _known(gazetteer: Gazetteer) -> KnownEntities:
    return KnownEntities(
        company_ids=frozenset(c.company_id for c in gazetteer.companies),
        supplier_ids=frozenset(gazetteer.supplier_names),
    )


def _record_routing(recorder: TraceRecorder, routing: RoutingResult) -> None:
    for intent in routing.intents:
        recorder.add("intent", intent.model_dump())
    recorder.add("clarification", {
        "requires_clarification": routing.requires_clarification,
        "question": routing.clarification_question,
        "reasons": list(routing.clarification_reasons),
        "overall_confidence": routing.confidence,
        "rule_hits": list(routing.rule_hits),
    })
    recorder.add("entity", routing.entities.model_dump(mode="json"))
    recorder.add("constraint", routing.constraints.model_dump(mode="json"))
    recorder.add("authorization", routing.authorization_context.model_dump())
    for step in routing.execution_plan:
        recorder.add("plan", step.model_dump(mode="json", by_alias=True), step.step_id)


__all__ = ["AskResult", "AskService", "PolicyCheck"]
