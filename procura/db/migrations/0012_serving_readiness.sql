-- procura: run-as admin
-- The API's readiness probe (GET /readyz) compares the applied migrations with the files it was built with.
-- procura_meta belongs to the superuser that runs migrations, so the serving role gets read access to exactly
-- that table and nothing else in the schema.
grant usage on schema procura_meta to procura_app;
grant select on procura_meta.schema_migrations to procura_app;
