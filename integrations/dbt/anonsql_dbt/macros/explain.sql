{#
  dbt's message for a failing test is its count ("Got 1 result, configured to fail if != 0"),
  and the reasons are the rows it returns, visible only with --store-failures. The `certified`
  and `attacks` tests therefore also run their own query when they execute and log each
  problem on dbt's output, one line each: "anonsql_dbt.certified main.patients_anon: stale: the
  source changed since the release was certified (re-run anonsql)". The query runs twice (here
  and as the test); `vars: {anonsql_dbt_explain: false}` turns the lines off.
#}
{% macro explain(test, model, sql) -%}
  {%- if execute and var('anonsql_dbt_explain', true) -%}
    {%- for row in run_query(sql).rows -%}
      {{ log('anonsql_dbt.' ~ test ~ ' ' ~ model ~ ': ' ~ row[0], info=true) }}
    {%- endfor -%}
  {%- endif -%}
  {{ return(sql) }}
{%- endmacro %}
