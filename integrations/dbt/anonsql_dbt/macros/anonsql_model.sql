{#
  Anonymized models on every adapter, built by `anonsql dbt build` (docs/dbt.md):

    -- models/patients_anon.sql, config in YAML: materialized: anonsql, anonsql: {spec}
    {{ anonsql_dbt.release(ref('patients')) }}

  The ref() (or source()) is the model's parent in dbt's graph and the relation anonsql
  anonymizes: `anonsql dbt build` publishes the release from it (certified versions, the normal
  path) before dbt builds the model, and the `anonsql` materialization builds the model from
  that release, never from anything else. The release is <model schema>_anonsql.<model> unless the
  spec's output names a schema or a name (as anonsql.dbt.model and the `certified` test).
  The model is a table holding the rows of the release's current certified version (as the
  dbt-duckdb Python model's), replaced at each build.
#}
{% macro release(parent) -%}
{#- `parent` is there for dbt's graph (the ref()/source() call registers the edge), and read
    only by an --empty build of a model without a release yet (dbt renders it as a subquery
    of no rows): then the spec's published columns, quasi-identifiers as text, as anonsql
    publishes them -#}
{%- set relation = anonsql_dbt.release_relation() -%}
{%- if anonsql_dbt.empty_build() and execute and parent is not none
      and anonsql_dbt.release_certificate(relation) is none -%}
{%- set published = [] -%}
{%- set declared = (config.get('anonsql') or {}).get('columns') or {} -%}
{#- in the source's order, as anonsql publishes them (the relation itself, not dbt's empty subquery) -#}
{%- set table = api.Relation.create(database=parent.database, schema=parent.schema, identifier=parent.identifier) -%}
{%- for name in adapter.get_columns_in_relation(table) | map(attribute='name') if name in declared -%}
  {%- set column = declared[name] -%}
  {%- set role = column.get('role') if column is mapping else none -%}
  {%- if role == 'quasi_identifier' -%}
    {%- do published.append('CAST(' ~ anonsql_dbt.ident(name) ~ ' AS ' ~ dbt.type_string() ~ ') AS ' ~ anonsql_dbt.ident(name)) -%}
  {%- elif role != 'identifier' -%}
    {%- do published.append(anonsql_dbt.ident(name)) -%}
  {%- endif -%}
{%- endfor -%}
{{ anonsql_dbt.release_marker() }} SELECT {{ published | join(', ') if published else '*' }} FROM {{ parent }} WHERE 1 = 0
{%- else -%}
{{ anonsql_dbt.release_marker() }} SELECT * FROM {{ relation }}
{%- if anonsql_dbt.empty_build() %} WHERE 1 = 0{% endif %}
{%- endif -%}
{%- endmacro %}

{% macro release_certificate(release) -%}
  {{ return(adapter.get_relation(database=release.database, schema=release.schema,
        identifier=anonsql_dbt.companion_identifier(release.identifier, 'certificate'))) }}
{%- endmacro %}

{% macro release_marker() -%}
  {{ return('/* anonsql_dbt.release */') }}
{%- endmacro %}

{#- The release of the model being built: the spec's output, else <schema>_anonsql.<model>. -#}
{% macro release_relation() -%}
  {%- set spec = config.get('anonsql') or {} -%}
  {%- set output = spec.get('output') or {} -%}
  {%- set schema = output.get('schema') or anonsql_dbt.default_release_schema(this.schema) -%}
  {%- set name = output.get('name') or this.identifier -%}
  {{ return(api.Relation.create(database=this.database, schema=schema, identifier=name)) }}
{%- endmacro %}

{#- dbt build --empty: refs and sources read no rows, and anonsql publishes nothing. -#}
{% macro empty_build() -%}
  {{ return(flags.EMPTY is sameas true) }}
{%- endmacro %}

{#- What the release's certificate says, as one line: the verdict and the models, NCP,
    suppression and the pass-through columns whose exposure the spec acknowledged. -#}
{% macro findings(certificate) -%}
  {%- set table = run_query('SELECT * FROM ' ~ certificate) -%}
  {%- if table.rows | length == 0 -%}
    {{ return('anonsql: the certificate has no row') }}
  {%- endif -%}
  {%- set c = table.rows[0] -%}
  {%- set fields = table.column_names -%}
  {%- set models = [] -%}
  {%- for m in fromjson(c['models']) or [] -%}
    {%- for name, parameters in m.items() -%}
      {%- set shown = [] -%}
      {%- for key, value in (parameters or {}).items() | sort -%}
        {%- do shown.append(key ~ '=' ~ value) -%}
      {%- endfor -%}
      {%- do models.append(name ~ '(' ~ shown | join(', ') ~ ')') -%}
    {%- endfor -%}
  {%- endfor -%}
  {%- set linked = fromjson(c['linked_columns']) if 'linked_columns' in fields and c['linked_columns'] else {} -%}
  {%- set acknowledged = (linked.get('acknowledged') or {}).keys() | list | sort if linked is mapping else [] -%}
  {%- set verdict = 'verified' if c['verified'] else 'NOT VERIFIED' -%}
  {%- set parts = [verdict ~ ' ' ~ models | join(', '),
                   'NCP ' ~ '%.2f' | format(c['ncp_percent'] | float) ~ ' %',
                   'suppressed ' ~ c['suppressed_rows'] ~ ' of ' ~ c['source_rows'] ~ ' rows',
                   'exposure acknowledged: ' ~ (acknowledged | join(', ') if acknowledged else 'none')] -%}
  {{ return('anonsql: ' ~ parts | join('; ')) }}
{%- endmacro %}

{% materialization anonsql, default %}
  {%- set target_relation = this.incorporate(type='table') -%}
  {%- if anonsql_dbt.release_marker() not in sql -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt: the model " ~ this.identifier ~ " is materialized as anonsql but its SQL is not anonsql_dbt.release(...). Fix: write the model as {{ anonsql_dbt.release(ref('<the table to anonymize>')) }}") }}
  {%- endif -%}
  {%- set release = anonsql_dbt.release_relation() -%}
  {%- set certificate = anonsql_dbt.release_certificate(release) -%}
  {%- set empty = anonsql_dbt.empty_build() -%}
  {%- if certificate is none and not empty -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt: no release of " ~ this.identifier ~ " at " ~ release ~ ": anonsql publishes it before dbt builds the model. Fix: build with `anonsql dbt build` (it publishes every anonsql model, then runs dbt build)") }}
  {%- endif -%}
  {#- a table holding the rows of the release's current certified version, swapped in as dbt's
      table materialization does: a view on the release would block anonsql's next publish
      on PostgreSQL (its release view could not be replaced under a dependent view) -#}
  {%- set existing = load_cached_relation(this) -%}
  {%- set intermediate = make_intermediate_relation(target_relation) -%}
  {%- set backup = make_backup_relation(target_relation, existing.type if existing is not none else 'table') -%}
  {{ drop_relation_if_exists(load_cached_relation(intermediate)) }}
  {{ drop_relation_if_exists(load_cached_relation(backup)) }}
  {{ run_hooks(pre_hooks, inside_transaction=False) }}
  {{ run_hooks(pre_hooks, inside_transaction=True) }}
  {% call statement('main') -%}
    {#- the release, never the model's own SQL; but for an --empty build without a release,
        the compiled SQL: no rows, the spec's published columns -#}
    {{ get_create_table_as_sql(False, intermediate, sql if certificate is none else anonsql_dbt.release(none)) }}
  {%- endcall %}
  {%- if existing is not none -%}
    {{ adapter.rename_relation(existing, backup) }}
  {%- endif -%}
  {{ adapter.rename_relation(intermediate, target_relation) }}
  {{ run_hooks(post_hooks, inside_transaction=True) }}
  {{ adapter.commit() }}
  {{ drop_relation_if_exists(backup) }}
  {{ run_hooks(post_hooks, inside_transaction=False) }}
  {%- if empty and certificate is none -%}
    {%- do store_raw_result('main', message='anonsql: --empty and no release at ' ~ release ~ ' yet: nothing published; built empty with the spec\'s published columns', code='anonsql', rows_affected=0) -%}
  {%- elif empty -%}
    {%- do store_raw_result('main', message='anonsql: --empty: nothing published; an empty table like ' ~ release, code='anonsql', rows_affected=0) -%}
  {%- else -%}
    {%- set counted = run_query('SELECT published_rows FROM ' ~ certificate) -%}
    {%- set rows = counted.columns[0].values()[0] | int if counted.rows | length > 0 else 0 -%}
    {%- do store_raw_result('main', message=anonsql_dbt.findings(certificate), code='anonsql', rows_affected=rows) -%}
  {%- endif -%}
  {{ return({'relations': [target_relation]}) }}
{% endmaterialization %}
