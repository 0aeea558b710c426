{# The narrow working table: partition id, coded quasi-identifiers, coded sensitive values. #}
CREATE {{ working_table }}TABLE {{ rows | qname }} AS
SELECT
  CAST(0 AS BIGINT) AS pid
{% for d in dims %}
{% if d.is_numeric %}
  , src.{{ d.column | ident }} AS {{ d.code | ident }}
{% else %}
  , {{ ('l' ~ d.index) | ident }}.leaf_rank AS {{ d.code | ident }}
{% endif %}
{% endfor %}
{% for s in sensitive %}
  , CAST(DENSE_RANK() OVER (ORDER BY src.{{ s.column | ident }} ASC NULLS LAST) - 1 AS INTEGER) AS {{ s.code | ident }}
{% endfor %}
FROM {{ source | qname }} AS src
{% for d in dims if not d.is_numeric %}
JOIN {{ leaves[d.index] | qname }} AS {{ ('l' ~ d.index) | ident }}
  ON {{ ('l' ~ d.index) | ident }}.value = CAST(src.{{ d.column | ident }} AS VARCHAR)
{% endfor %}
