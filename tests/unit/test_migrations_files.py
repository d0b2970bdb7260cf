"""Migration files are well formed and tenant tables get isolation in the file that creates them."""

from __future__ import annotations

import re

from procura.db.migrate import discover


def test_migrations_are_numbered_uniquely_and_in_order() -> None:
    migrations = discover()
    versions = [m.version for m in migrations]
    assert versions == sorted(set(versions))
    assert versions[0] == 1 and migrations[0].run_as_admin


def test_every_created_tenant_table_gets_isolation_in_the_same_migration() -> None:
    for migration in discover():
        created = re.findall(r"create table (?:if not exists )?([a-z_]+\.[a-z_]+) \((.*?)\n\);", migration.sql, re.S)
        for table, body in created:
            if re.search(r"^\s*tenant_id\s", body, re.M):
                assert f"app.apply_tenant_isolation('{table}')" in migration.sql, (migration.name, table)
