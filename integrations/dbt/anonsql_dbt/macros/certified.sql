{#
  certified: one row per problem with an anonsql release (zero rows = fine):
  * no certificate beside the release, or a certificate that is not verified;
  * stale: the release no longer holds the rows its certificate counted (published_rows), or
    the source no longer holds the rows the release was made from (source_rows; checked for a
    single-table source).
  The release is the tested relation when a certificate stands beside it (a release declared as
  a dbt source), else <schema>_anonsql.<name> (where anonsql.dbt.model publishes a model's
  release), else the release named by the argument `release` ("schema.name").

  TODO(anonsql issue 11): once `anonsql status` lands, take its staleness and withheld-rows SQL
  instead of the row counts below.
#}
{% test certified(model, release=none) %}
{{ anonsql_dbt.certificate_problems(model, release) }}
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

{% macro certified_source(model, certificate) -%}
  {#- The single table a release was made from, from its certificate (none for a join). -#}
  {%- set rows = run_query('SELECT source FROM ' ~ certificate) -%}
  {%- if rows | length == 0 -%}{{ return(none) }}{%- endif -%}
  {%- set source = rows.columns[0].values()[0] | string -%}
  {%- set parts = source.split('.') -%}
  {%- if ' ' in source or parts | length != 2 -%}{{ return(none) }}{%- endif -%}
  {{ return(adapter.get_relation(database=model.database, schema=parts[0], identifier=parts[1])) }}
{%- endmacro %}

{% macro default__certificate_problems(model, release=none) -%}
{%- if not execute -%}
SELECT 'parsing' AS problem WHERE 1 = 0
{%- else -%}
{%- set certificate = anonsql_dbt.find_certificate(model, release) -%}
{%- if certificate is none -%}
SELECT {{ anonsql_dbt.lit('no anonsql certificate found for ' ~ model ~ (' (release ' ~ release ~ ')' if release else '')) }} AS problem
{%- else -%}
{%- set source = anonsql_dbt.certified_source(model, certificate) -%}
SELECT 'the certificate has no row' AS problem
WHERE (SELECT COUNT(*) FROM {{ certificate }}) = 0
UNION ALL
SELECT 'the certificate is not verified' AS problem
FROM {{ certificate }} WHERE verified IS NOT TRUE
UNION ALL
SELECT 'stale: the relation no longer holds the rows its certificate counted' AS problem
FROM {{ certificate }} WHERE published_rows <> (SELECT COUNT(*) FROM {{ model }})
{%- if source is not none %}
UNION ALL
SELECT 'stale: the source no longer holds the rows the release was made from' AS problem
FROM {{ certificate }} WHERE source_rows <> (SELECT COUNT(*) FROM {{ source }})
{%- endif %}
{%- endif -%}
{%- endif -%}
{%- endmacro %}
