"""Postgres provisioning, migrations and tenant-scoped sessions."""
