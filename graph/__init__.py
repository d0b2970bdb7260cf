"""The knowledge graph of Procura: a controlled schema in Apache AGE, one graph per tenant.

Modules:

* :mod:`graph.schema` — entity types, canonical relationships, pydantic validation of extraction output;
* :mod:`graph.extract` — the deterministic extractor (landing rows of a document version -> candidates);
* :mod:`graph.resolution` — entity resolution (normalization rules + alias table) and its accuracy;
* :mod:`graph.age` — graph names from the authenticated tenant, provisioning, grants, the ``cypher()`` wrapper;
* :mod:`graph.sync` — keeps a tenant's graph equal to its served document versions (idempotent);
* :mod:`graph.writer` — the ``RepresentationWriter`` the ingestion pipeline calls (``graph.ingest``);
* :mod:`graph.tools` — typed, bounded traversal tools for the serving role;
* :mod:`graph.review` — the review queue of rejected candidates.

Design decisions and measurements: ``graph/README.md``.
"""
