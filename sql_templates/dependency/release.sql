{# A published relation of clustered rows: each quasi-identifier generalized to its cluster's
   tight generalization (numeric "[lo, hi]", or the value when lo = hi; categorical the lowest
   common ancestor's label), passthrough columns unchanged, suppressed rows (pid -1 or a
   suppressed part) left out. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for q in qis %}
{% set lo = 'p.' ~ (('lo' ~ q.index) | ident) %}
{% set hi = 'p.' ~ (('hi' ~ q.index) | ident) %}
{% if q.is_numeric %}
  CASE WHEN {{ lo }} = {{ hi }} THEN CAST({{ lo }} AS VARCHAR)
       ELSE '[' || CAST({{ lo }} AS VARCHAR) || ', ' || CAST({{ hi }} AS VARCHAR) || ']' END
    AS {{ q.column | ident }},
{% else %}
  {{ ('h' ~ q.index) | ident }}.label AS {{ q.column | ident }},
{% endif %}
{% endfor %}
{% for c in passthrough %}
  a.{{ c | ident }} AS {{ c | ident }},
{% endfor %}
  p.pid AS {{ '__anonsql_pid' | ident }}
FROM {{ assigned | qname }} AS a
JOIN {{ parts | qname }} AS p ON p.pid = a.{{ '__anonsql_pid' | ident }} AND NOT p.suppressed
{% for q in qis if not q.is_numeric %}
JOIN {{ q.nodes | qname }} AS {{ ('h' ~ q.index) | ident }}
  ON {{ ('h' ~ q.index) | ident }}.node_id = p.{{ ('node' ~ q.index) | ident }}
{% endfor %}
WHERE a.{{ '__anonsql_pid' | ident }} >= 0
