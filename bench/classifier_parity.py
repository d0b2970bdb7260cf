"""Parity: the intent classifier on numpy MiniLM features versus the same classifier on torch features.

``procura ask`` routes with the classifier's features computed by :class:`router.question_encoder.NumpyMiniLM`
(no torch); before, they came from the sentence-transformers model. Both read the same weights, so they must give
the same routing. This compares, over the labeled set (``router/data/labeled_queries.yml``) and every question of
``eval/golden.yml``:

* the embeddings (largest absolute difference of any component);
* the classifier's per-intent probabilities (largest difference) and the selected intents (classifier alone,
  p >= 0.5: agreement with the torch-featured classifier, i.e. its "accuracy" against the current classifier);
* on the golden questions, the whole routing result as ``AskService`` routes it (intents with their rounded
  confidences, entities, constraints, clarification, plan) with the tenant's gazetteer from the configured
  database (the demo database after ``procura demo run``): before, the torch features and the registry validated
  in process; after, the numpy features and the registry from its cache (``PROCURA_HOME/semantic``), as the CLI.

    python -m bench.classifier_parity [--json F]

Exit status 1 when any selected intent or any golden routing differs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None)
    options = parser.parse_args(argv)

    import numpy as np
    import psycopg

    from evaluation.golden import load_golden
    from ingest.embedder import get_default_embedder
    from procura.db.session import AuthContext
    from procura.settings import get_settings
    from router.classifier import frame, load_labeled_set, load_or_train
    from router.entities import load_gazetteer
    from router.names import PgTrigramResolver
    from router.question_encoder import NumpyMiniLM
    from router.reading import catalog_metrics
    from router.routing import INTENT_THRESHOLD, RouterInputs, route
    from router.tools import TOOLS
    from semantic.loader import load_registry
    from semantic.schema import discover

    settings = get_settings()
    home = settings.home / "router"
    torch_embedder = get_default_embedder()
    numpy_embedder = NumpyMiniLM(cache_dir=home)
    if torch_embedder.config != numpy_embedder.config:
        raise SystemExit(f"configs differ: {torch_embedder.config} vs {numpy_embedder.config}")
    before = load_or_train(torch_embedder, home)
    after = load_or_train(numpy_embedder, home)

    labeled = [q.text for q in load_labeled_set()]
    golden = load_golden().cases
    texts = list(dict.fromkeys([*labeled, *(c.question for c in golden)]))
    framed = [frame(t) for t in texts]
    vec_torch = np.asarray(torch_embedder.embed_documents(framed), dtype=np.float64)
    vec_numpy = np.asarray(numpy_embedder.embed_documents(framed), dtype=np.float64)
    report: dict[str, Any] = {"questions": len(texts), "labeled": len(labeled), "golden": len(golden),
                              "embedding_max_abs_diff": float(np.abs(vec_torch - vec_numpy).max())}
    prob_diff = 0.0
    selected_same = 0
    differing: list[str] = []
    for text in texts:
        p_before, p_after = before.predict(text), after.predict(text)
        prob_diff = max(prob_diff, *(abs(p_before[i] - p_after[i]) for i in p_before))
        if {i for i, p in p_before.items() if p >= INTENT_THRESHOLD} == {
                i for i, p in p_after.items() if p >= INTENT_THRESHOLD}:
            selected_same += 1
        else:
            differing.append(text)
    report |= {"probability_max_abs_diff": prob_diff, "selected_intents_agree": selected_same,
               "selected_intents_differ": differing}

    # Before: the registry validated in process; after: as the CLI loads it, from the validated registry cache
    # (filled here first if it is empty).
    fresh = load_registry(discover())
    load_registry(discover(), cache_dir=settings.home / "semantic")
    cached = load_registry(discover(), cache_dir=settings.home / "semantic")
    inputs_of = {
        id(before): (catalog_metrics(fresh, exclude=frozenset(TOOLS)), catalog_metrics(fresh)),
        id(after): (catalog_metrics(cached, exclude=frozenset(TOOLS)), catalog_metrics(cached)),
    }
    same = 0
    routing_differs: list[str] = []
    gazetteers: dict[str, Any] = {}
    with psycopg.connect(settings.app_url, autocommit=True) as conn:
        for case in golden:
            ctx = AuthContext(case.tenant_id, f"parity-{case.tenant_id}", frozenset(case.principal_scopes))
            if case.tenant_id not in gazetteers:
                gazetteers[case.tenant_id] = load_gazetteer(conn, ctx)
            results = []
            for classifier in (before, after):
                catalog, metrics = inputs_of[id(classifier)]
                inputs = RouterInputs(ctx=ctx, as_of=case.as_of, gazetteer=gazetteers[case.tenant_id],
                                      classifier=classifier, catalog=catalog, metrics=metrics,
                                      resolver=PgTrigramResolver(conn, ctx))
                results.append(route(case.question, inputs).model_dump(mode="json", by_alias=True))
            if results[0] == results[1]:
                same += 1
            else:
                routing_differs.append(case.id)
    report |= {"golden_routing_identical": same, "golden_routing_differs": routing_differs}
    print(json.dumps(report, indent=2))
    if options.json:
        options.json.write_text(json.dumps(report, indent=2))
    return 0 if not differing and not routing_differs else 1


if __name__ == "__main__":
    sys.exit(main())
