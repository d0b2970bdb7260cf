"""The router, planner, executor and validated answers behind ``/v1/ask``, ``procura ask`` and MCP.

Public API (modules load lazily; importing ``router`` is cheap):

* :func:`router.routing.route` -> :class:`router.contract.RoutingResult` (intents with calibrated confidences,
  entities, constraints, clarification, authorization context, execution plan).
* :class:`router.service.AskService` -> ``ask(conn, ctx, question, as_of=...)``: route, plan, execute, validate,
  trace; returns :class:`router.service.AskResult`.
* :class:`router.executor.Executor`: bounded, typed execution of a plan; :mod:`router.tools`: the tools.
* :class:`router.traces.TraceStore`: ``app.traces`` / ``app.trace_steps`` / ``app.runs``.
* :mod:`router.cli` (``ask``, ``mcp``), :mod:`router.mcp_server`; the HTTP routes are in :mod:`api.routes.ask`.
* :mod:`router.errors`: the flat error family.
"""
