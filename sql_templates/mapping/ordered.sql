{# The distinct vectors in 1D key order: ``pos`` 0, 1, ... by key, ties by the coded vector
   (the same order on every engine). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  ROW_NUMBER() OVER (ORDER BY k.{{ key_column | ident }}{% for d in dims %}, v.{{ d.code | ident }}{% endfor %}) - 1 AS pos,
  v.vid,
  v.n
{% for d in dims %}
  , v.{{ d.code | ident }}
{% endfor %}
FROM {{ vectors | qname }} AS v
JOIN {{ keys | qname }} AS k ON k.vid = v.vid
