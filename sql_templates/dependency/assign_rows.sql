{# Every source row with its cluster pid: rows are encoded by dependency/_encoded, as in dependency/records,
   numbered within their signature by the order_by columns, and matched to the decision table's
   ordinal ranges. Source columns travel under internal names (s0, s1, ...) and get their own
   names back at the end, so no user name can collide with a name of the query. #}
{% from "dependency/_encoded.sql" import encoded_rows with context %}
{% macro codes(prefix) -%}
{% for q in qis %}{{ prefix }}{{ q.code | ident }}{{ ", " if not loop.last or kept }}{% endfor %}{% for code, name in kept %}{{ prefix }}{{ code | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT d.pid AS {{ '__anonsql_pid' | ident }}{% for c in columns %}, x.{{ ('s' ~ loop.index0) | ident }} AS {{ c | ident }}{% endfor %}

FROM (
  SELECT coded.*,
    ROW_NUMBER() OVER (
      PARTITION BY {{ codes('coded.') }}
      ORDER BY {% for c in order_by %}coded.{{ ('s' ~ columns.index(c)) | ident }}{{ ", " if not loop.last }}{% endfor %}
    ) AS ordinal
  FROM (
{{ encoded_rows(source, columns) }}
  ) AS coded
) AS x
JOIN {{ decisions | qname }} AS d
  ON {% for q in qis %}d.{{ q.code | ident }} = x.{{ q.code | ident }} AND {% endfor %}{% for code, name in kept %}d.{{ code | ident }} = x.{{ code | ident }} AND {% endfor %}x.ordinal BETWEEN d.{{ 'first' | ident }} AND d.{{ 'last' | ident }}
