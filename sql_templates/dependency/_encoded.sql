{# The encoded columns of a relation's rows, shared by dependency/records (grouped into distinct
   records) and dependency/assign_rows (every row matched to its cluster), so both encode alike:
   per quasi-identifier its leaf rank (categorical, joined by text) or its value (numeric, as
   DOUBLE); per kept FD attribute a dense rank of its values (NULL last). Rows whose categorical
   value is not a leaf drop out of the join. `carried` are source columns to keep under internal
   names (s0, s1, ...), so no user name can collide with a name of the query. #}
{% macro encoded_rows(relation, carried=()) -%}
  SELECT
{% for c in carried %}
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
  FROM {{ relation | qname }} AS src
{% for q in qis if not q.is_numeric %}
  JOIN {{ q.leaves | qname }} AS {{ ('l' ~ q.code) | ident }}
    ON {{ ('l' ~ q.code) | ident }}.value = CAST(src.{{ q.column | ident }} AS VARCHAR)
{% endfor %}
{%- endmacro %}
