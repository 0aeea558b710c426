{# prepare/create_rows.sql for PostgreSQL: the shared template's working table and codes (read
   it there), with each rank table joined by plain equality, which PostgreSQL hashes (it cannot
   hash IS NOT DISTINCT FROM, and would compare every row with every distinct value). A NULL
   value matches no rank row; its code is the highest, since NULL ranks last.

   Weighted (``weight``): the source's rows are counted per distinct combination of the columns
   the codes are made of first, and only those combinations are joined to the leaf and rank
   tables and grouped again by their codes (two values of one text share a leaf), unless
   ``distinct_leaves`` (every categorical column is text: anonsql.prepare.prepare.leaves_distinct)
   says distinct combinations have distinct codes. ``counted``: ``source`` is the source's
   counted rows (anonsql.sql.CountedRows), ``counted`` their count column, summed. At 1e7 rows
   PostgreSQL probed each of six leaf tables with every source row (about 6 s of the statement's 18 s, in three processes);
   the combinations are ~9 % of the rows. Grouping them again sorted them (2-3.5 s of 15 s). #}
{% from "prepare/_coded.sql" import coded_qids, coded_columns, leaf_joins %}
{% set raw = ((dims | map(attribute='column') | list) + (sensitive | map(attribute='column') | list)) | unique(case_sensitive=true) | list %}
{% set counted = counted | default(none) %}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
{% for s in sensitive %}
{{ "WITH" if loop.first }} {{ ('ranks' ~ loop.index0) | ident }} AS (
  SELECT d.value, CAST(DENSE_RANK() OVER (ORDER BY d.value ASC NULLS LAST) - 1 AS INTEGER) AS code
  FROM (SELECT DISTINCT {{ s.column | ident }} AS value FROM {{ source | qname }}) AS d
){{ "," if not loop.last }}
{% endfor %}
{% set regroup = weight and not (distinct_leaves | default(false)) %}
{% if regroup %}
SELECT {{ coded_columns(dims, sensitive) }}, CAST(SUM(coded.__anonsql_n) AS BIGINT) AS {{ weight | ident }}
FROM (
{% endif %}
SELECT
  CAST(0 AS BIGINT) AS pid
{{ coded_qids(dims) }}
{% for s in sensitive %}
  , COALESCE({{ ('r' ~ loop.index0) | ident }}.code, (SELECT MAX(code) FROM {{ ('ranks' ~ loop.index0) | ident }})) AS {{ s.code | ident }}
{% endfor %}
{% if weight %}
  , {% if regroup %}src.__anonsql_n{% else %}CAST(src.__anonsql_n AS BIGINT) AS {{ weight | ident }}{% endif %}

FROM (
  SELECT {% for c in raw %}s.{{ c | ident }}, {% endfor %}{% if counted %}SUM(s.{{ counted | ident }}){% else %}COUNT(*){% endif %} AS __anonsql_n
  FROM {{ source | qname }} AS s
  GROUP BY {% for c in raw %}s.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
) AS src
{% else %}
FROM {{ source | qname }} AS src
{% endif %}
{{ leaf_joins(dims, leaves) }}
{% for s in sensitive %}
LEFT JOIN {{ ('ranks' ~ loop.index0) | ident }} AS {{ ('r' ~ loop.index0) | ident }}
  ON {{ ('r' ~ loop.index0) | ident }}.value = src.{{ s.column | ident }}
{% endfor %}
{% if regroup %}
) AS coded
GROUP BY {{ coded_columns(dims, sensitive) }}
{% endif %}
