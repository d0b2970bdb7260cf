-- procura: run-as admin
-- pg_trgm for the question reader's name resolution (router/names.py): trigram similarity of a span of the
-- question against the tenant's company, supplier, alias and product-group names, as procura_app under RLS.
--
-- Design note: no index. The name tables are small marts that dbt rebuilds (an index created here would be
-- dropped with the table on the next build), and scoring every spelling of one tenant word by word is cheaper
-- than an index probe would save. The extension lives in public; callers name public.similarity explicitly.
create extension if not exists pg_trgm with schema public;
