"""Deterministic demo corpus: ERP exports, agreements, manuals and catalog data for three tenants.

The file format is the contract in docs/corpus.md; :func:`generate` writes it, and
:mod:`procura.demo.ground_truth` computes the expected answers from the written files.
"""

from __future__ import annotations

from procura.demo.generator import GENERATOR_VERSION, CorpusSummary, DemoCorpusError, generate

__all__ = ["GENERATOR_VERSION", "CorpusSummary", "DemoCorpusError", "generate"]
