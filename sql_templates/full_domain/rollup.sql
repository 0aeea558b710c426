{# A lattice node's classes materialized in a temporary table, to compute its generalizations
   from fewer rows (ARX rolls up a predecessor's classes the same way): g<i> = the level code of
   each quasi-identifier, the sensitive codes, and the rows n. #}
{% from "full_domain/_node.sql" import group_expr, group_list %}
CREATE TEMPORARY TABLE {{ target | qname }} AS
SELECT
{% for g in groups %}
  {{ group_expr(g) }} AS {{ ('g' ~ loop.index0) | ident }},
{% endfor %}
{% for s in sensitive %}
  r.{{ s | ident }},
{% endfor %}
  CAST(SUM(r.n) AS BIGINT) AS n
FROM {{ source | qname }} AS r
GROUP BY {{ group_list(groups) }}{% for s in sensitive %}, r.{{ s | ident }}{% endfor %}

