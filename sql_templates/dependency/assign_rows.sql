{# Every source row with its cluster pid: rows are encoded exactly as in dependency/records,
   numbered within their signature by the order_by columns, and matched to the decision table's
   ordinal ranges. Source columns travel under internal names (s0, s1, ...) and get their own
   names back at the end, so no user name can collide with a name of the query. #}
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
    SELECT
{% for c in columns %}
      src.{{ c | ident }} AS {{ ('s' ~ loop.index0) | ident }},
{% endfor %}
{% for q in qis %}
{% if q.is_numeric %}
      CAST(src.{{ q.column | ident }} AS DOUBLE) AS {{ q.code | ident }},
{% else %}
      {{ ('l' ~ q.code) | ident }}.leaf_rank AS {{ q.code | ident }},
{% endif %}
{% endfor %}
{% for code, name in kept %}
      CAST(DENSE_RANK() OVER (ORDER BY src.{{ name | ident }} ASC NULLS LAST) - 1 AS BIGINT) AS {{ code | ident }},
{% endfor %}
      1 AS one
    FROM {{ source | qname }} AS src
{% for q in qis if not q.is_numeric %}
    JOIN {{ q.leaves | qname }} AS {{ ('l' ~ q.code) | ident }}
      ON {{ ('l' ~ q.code) | ident }}.value = CAST(src.{{ q.column | ident }} AS VARCHAR)
{% endfor %}
  ) AS coded
) AS x
JOIN {{ decisions | qname }} AS d
  ON {% for q in qis %}d.{{ q.code | ident }} = x.{{ q.code | ident }} AND {% endfor %}{% for code, name in kept %}d.{{ code | ident }} = x.{{ code | ident }} AND {% endfor %}x.ordinal BETWEEN d.{{ 'first' | ident }} AND d.{{ 'last' | ident }}
