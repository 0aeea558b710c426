{#
  certified: one row per problem with an anonsql release (zero rows = fine), what
  `anonsql status` / `anonsql check-output` gate on:
  * no certificate beside the release, or a certificate that is not verified;
  * stale: the source changed since the release was certified (the checksum its last version
    recorded in the private <private_schema>.<release>__versions, never analyst-readable,
    against the checksum of the source now, by the same SQL as `anonsql status`:
    release_checksum, generated from sql_templates/status/checksum*.sql);
  * the tested relation no longer holds the rows the certificate counted (published_rows).
  A versioned release that is stale keeps serving its certified version; the test says that
  anonsql has changes to certify. The release is the tested relation when a certificate stands beside it (a release declared as
  a dbt source), else <schema>_anonsql.<name> (where anonsql.dbt.model publishes a model's
  release), else the release named by the argument `release` ("schema.name"). The source is read
  through the release's private view <private_schema>.<release>__source, so the test runs as a
  user who may read the private schema (the one who runs anonsql), not as an analyst.
#}
{#- column_name: declared under a column, the test still reads the whole release -#}
{% test certified(model, release=none, column_name=none) %}
{#- `dbt build --empty` reads every relation empty: nothing to certify or attack -#}
{%- if flags.EMPTY -%}
SELECT 'empty build' AS problem WHERE 1 = 0
{%- else -%}
{{ anonsql_dbt.explain('certified', model, anonsql_dbt.certificate_problems(model, release)) }}
{%- endif %}
{% endtest %}

{% macro certificate_problems(model, release=none) -%}
  {{ return(adapter.dispatch('certificate_problems', 'anonsql_dbt')(model, release)) }}
{%- endmacro %}

{% macro find_certificate(model, release=none) -%}
  {%- if release is not none -%}
    {%- set parts = (release | string).split('.') -%}
    {%- if parts | length != 2 -%}
      {{ exceptions.raise_compiler_error("anonsql_dbt.certified: release must be schema.name, got " ~ release) }}
    {%- endif -%}
    {%- set candidates = [(parts[0], parts[1])] -%}
  {%- else -%}
    {%- set candidates = [(model.schema, model.identifier),
                          (anonsql_dbt.default_release_schema(model.schema), model.identifier)] -%}
  {%- endif -%}
  {%- for schema, identifier in candidates -%}
    {%- set found = adapter.get_relation(database=model.database, schema=schema,
          identifier=anonsql_dbt.companion_identifier(identifier, 'certificate')) -%}
    {%- if found is not none -%}
      {{ return(found) }}
    {%- endif -%}
  {%- endfor -%}
  {{ return(none) }}
{%- endmacro %}

{% macro certified_release_identifier(certificate) -%}
  {#- The release's name, from its certificate's (<release>__certificate). -#}
  {{ return(certificate.identifier[:-(anonsql_dbt.companion_identifier('', 'certificate') | length)]) }}
{%- endmacro %}

{% macro certified_private_relation(certificate, kind, must_exist=true) -%}
  {#- A private companion of the release (its source view, its versions), named from the
      certificate; with must_exist, none when the catalog does not list it. -#}
  {%- set rows = run_query('SELECT private_schema FROM ' ~ certificate) -%}
  {%- if rows | length == 0 or rows.columns[0].values()[0] is none -%}
    {%- set private = certificate.schema ~ '_private' -%}
  {%- else -%}
    {%- set private = rows.columns[0].values()[0] | string -%}
  {%- endif -%}
  {%- set identifier = anonsql_dbt.companion_identifier(anonsql_dbt.certified_release_identifier(certificate), kind) -%}
  {%- if must_exist -%}
    {{ return(adapter.get_relation(database=certificate.database, schema=private, identifier=identifier)) }}
  {%- endif -%}
  {{ return(api.Relation.create(database=certificate.database, schema=private, identifier=identifier)) }}
{%- endmacro %}

{% macro default__certificate_problems(model, release=none) -%}
{%- if not execute -%}
SELECT 'parsing' AS problem WHERE 1 = 0
{%- else -%}
{#- the checksum's SQL is tested on these adapters only -#}
{{- anonsql_dbt.require_tested_adapter(tested=['duckdb', 'postgres'], what='certified test') -}}
{%- set certificate = anonsql_dbt.find_certificate(model, release) -%}
{%- if certificate is none -%}
SELECT {{ anonsql_dbt.lit('no anonsql certificate found for ' ~ model ~ (' (release ' ~ release ~ ')' if release else '')) }} AS problem
{%- else -%}
{%- set source = anonsql_dbt.certified_private_relation(certificate, 'source') -%}
{#- written with the certificate by every publish, so not looked up: adapter.get_relation did
    not find it on dbt-postgres 1.11 while it found the source view beside it -#}
{%- set versions = anonsql_dbt.certified_private_relation(certificate, 'versions', must_exist=false) -%}
SELECT 'the certificate has no row' AS problem
WHERE (SELECT COUNT(*) FROM {{ certificate }}) = 0
UNION ALL
SELECT 'the certificate is not verified' AS problem
FROM {{ certificate }} WHERE verified IS NOT TRUE
UNION ALL
SELECT 'stale: the relation no longer holds the rows its certificate counted' AS problem
FROM {{ certificate }} WHERE published_rows <> (SELECT COUNT(*) FROM {{ model }})
UNION ALL
{%- if source is none %}
SELECT 'cannot tell whether the release is stale: its private source view is missing (re-run anonsql)' AS problem
{%- else %}
{%- set columns = adapter.get_columns_in_relation(source) | map(attribute='name') | list %}
SELECT 'stale: the source changed since the release was certified (re-run anonsql)' AS problem
FROM (SELECT v.source_checksum FROM {{ versions }} AS v ORDER BY v.version DESC LIMIT 1) AS c
WHERE c.source_checksum IS NULL OR c.source_checksum <> (
  SELECT CAST(n AS VARCHAR) || ':' || CAST(checksum AS VARCHAR)
  FROM ({{ anonsql_dbt.release_checksum(source, columns) }}) AS current_source
)
{%- endif %}
{%- endif -%}
{%- endif -%}
{%- endmacro %}
