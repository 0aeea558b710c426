{# Back from the weighted table (compress.sql) to one row per source row: each row takes the
   final partition of its (QID vector, sensitive codes). The codes are never NULL (NULL QIDs are
   refused; sensitive codes are ranks), so an equi-join matches every row exactly once. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT v.pid{% for c in payload %}, r.{{ c | ident }}{% endfor %}

FROM {{ rows | qname }} AS r
JOIN {{ vectors | qname }} AS v
  ON {% for c in payload %}v.{{ c | ident }} = r.{{ c | ident }}{{ " AND " if not loop.last }}{% endfor %}
