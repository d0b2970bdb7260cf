"""One router per resource: ``health`` (liveness, readiness), ``metrics`` (catalog and queries), ``audit``."""
