{# pid -> published value of every quasi-identifier: numeric intervals "[lo, hi]" (both ends
   inclusive; the plain value when lo = hi), categorical hierarchy labels. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  p.pid,
  p.suppressed
{% for d in dims %}
{% set lo = 'p.' ~ (('lo' ~ d.index) | ident) %}
{% set hi = 'p.' ~ (('hi' ~ d.index) | ident) %}
{% if d.is_numeric %}
  , CASE WHEN {{ lo }} = {{ hi }} THEN CAST({{ lo }} AS VARCHAR)
         ELSE '[' || CAST({{ lo }} AS VARCHAR) || ', ' || CAST({{ hi }} AS VARCHAR) || ']' END
    AS {{ ('g' ~ d.index) | ident }}
{% else %}
  , {{ ('h' ~ d.index) | ident }}.label AS {{ ('g' ~ d.index) | ident }}
{% endif %}
{% endfor %}
FROM {{ parts | qname }} AS p
{% for d in dims if not d.is_numeric %}
JOIN {{ nodes[d.index] | qname }} AS {{ ('h' ~ d.index) | ident }}
  ON {{ ('h' ~ d.index) | ident }}.node_id = p.{{ ('node' ~ d.index) | ident }}
{% endfor %}
