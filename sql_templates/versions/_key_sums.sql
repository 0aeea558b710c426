{# The key sums of versions/key_sums.sql (read it there), of the rows ``where`` keeps (SQL
   text on the key ``k.h``; none: every row). #}
{% from "versions/_keyed.sql" import row_hash %}
{% macro key_sums(relation, columns, key_hash, distinct, where=none) -%}
SELECT COUNT(*) AS n,
  COALESCE(SUM(k.h % 1000000007), 0) AS first_sum,
  COALESCE(SUM(k.h % 998244353), 0) AS second_sum{% if distinct %},
  COUNT(DISTINCT k.h) AS distinct_keys{% endif %}

FROM (
{% if columns %}
  SELECT {{ row_hash('s.', columns) }} AS h FROM {{ relation | qname }} AS s
{% else %}
  SELECT r.{{ key_hash | ident }} AS h FROM {{ relation | qname }} AS r
{% endif %}
) AS k
{% if where %}
WHERE {{ where }}
{% endif %}
{%- endmacro %}
