-- procura: run-as admin
-- cypher() as procura_app needs USAGE on ag_catalog and on the tenant's graph schema, not SELECT on AGE's
-- catalog tables; with SELECT, any serving session could list every tenant's graph name (ag_graph).
revoke select on all tables in schema ag_catalog from procura_app;
