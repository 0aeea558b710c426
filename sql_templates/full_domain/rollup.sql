{# A lattice node's classes materialized, to evaluate its generalizations from fewer rows (a
   roll-up, as ARX rolls up a predecessor's classes): per quasi-identifier the node-id columns of
   the node's level and every level above (``columns``), the sensitive codes, and the rows n. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for c in columns %}
  {{ c | ident }},
{% endfor %}
  CAST(SUM(n) AS BIGINT) AS n
FROM {{ source | qname }}
GROUP BY {% for c in columns %}{{ c | ident }}{{ ', ' if not loop.last }}{% endfor %}

