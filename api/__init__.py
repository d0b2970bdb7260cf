"""Procura's HTTP API (FastAPI): the metric catalog and queries over the semantic layer, API-key auth, audit.

Create the app with :func:`api.main.create_app`; ``procura serve`` runs it with uvicorn.
"""
