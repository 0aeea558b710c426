{#
  run-operation macros on a published release ("schema.name"), for the user who runs anonsql
  (they read the private schema, as the `certified` and `attacks` tests do):

    dbt run-operation anonsql_dbt.status --args "{release: analytics_anonsql.patients_anon}"
    dbt run-operation anonsql_dbt.check --args "{release: analytics_anonsql.patients_anon}"

  status logs the certificate's findings (the line of the model's log) and the problems of the
  `certified` test (not verified, stale, rows changed); check also re-runs the `attacks` test.
  A problem fails the operation (dbt exits 1), so a job can gate on it.
#}
{% macro status(release) -%}
  {{ anonsql_dbt.release_operation(release, 'status', attacks=false) }}
{%- endmacro %}

{% macro check(release) -%}
  {{ anonsql_dbt.release_operation(release, 'check', attacks=true) }}
{%- endmacro %}

{% macro release_operation(release, what, attacks) -%}
  {%- set parts = (release | string).split('.') -%}
  {%- if parts | length != 2 -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt." ~ what ~ ": release must be schema.name, got " ~ release ~ ". Fix: --args \"{release: <schema>.<name>}\"") }}
  {%- endif -%}
  {%- set relation = adapter.get_relation(database=target.database, schema=parts[0], identifier=parts[1]) -%}
  {%- if relation is none -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt." ~ what ~ ": no relation " ~ release ~ " in " ~ target.database ~ ". Fix: name a release anonsql published (schema.name)") }}
  {%- endif -%}
  {%- set certificate = anonsql_dbt.find_certificate(relation) -%}
  {%- if certificate is not none -%}
    {%- do log(release ~ ': ' ~ anonsql_dbt.findings(certificate), info=true) -%}
  {%- endif -%}
  {%- set problems = run_query(anonsql_dbt.certificate_problems(relation)).columns[0].values() | list -%}
  {%- if attacks -%}
    {%- set problems = problems + (run_query(anonsql_dbt.attack_problems(relation)).columns[0].values() | list) -%}
  {%- endif -%}
  {%- for problem in problems -%}
    {%- do log(release ~ ': problem: ' ~ problem, info=true) -%}
  {%- endfor -%}
  {%- if problems | length > 0 -%}
    {{ exceptions.raise_compiler_error("anonsql_dbt." ~ what ~ ": " ~ problems | length ~ " problem(s) with " ~ release ~ " (logged above)") }}
  {%- endif -%}
  {%- do log(release ~ ': no problem found by anonsql_dbt.' ~ what, info=true) -%}
{%- endmacro %}
