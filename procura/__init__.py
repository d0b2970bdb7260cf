"""Procura: procurement and finance knowledge, answered by the representation that can answer reliably."""

__version__ = "0.1.0"
