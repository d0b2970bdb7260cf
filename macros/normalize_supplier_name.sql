{#- The supplier-name normalization of docs/corpus.md: casefold, punctuation to spaces, collapse whitespace, then
    drop trailing legal-form tokens (var supplier_legal_forms) but never the first token ("AG" alone stays
    "ag"); NULL for a name of punctuation only. Both sides of the alias lookup go through this
    macro, so resolution does not depend on how the alias's own normalized form was computed upstream.
    Its Python twin is ingest.normalize.normalize_supplier_name (ingestion and the landing expectations use it);
    tests/integration/test_expectations_landing.py keeps the two in agreement. -#}
{% macro normalize_supplier_name(name) -%}
    {%- set legal_forms = var('supplier_legal_forms') | join('|') -%}
    nullif(
        trim(regexp_replace(
            trim(regexp_replace(
                regexp_replace(lower({{ name }}), '[^[:alnum:]]+', ' ', 'g'),
                '\s+', ' ', 'g'
            )),
            '( ({{ legal_forms }}))+$', '', 'g'
        )),
        ''
    )
{%- endmacro %}
