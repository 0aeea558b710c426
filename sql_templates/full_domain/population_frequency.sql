{# The population's frequency table: per distinct coded vector the path code q<i> of every
   quasi-identifier (the sample's codes, so a node's roll-up is the same shift) and its persons n. #}
{% from "full_domain/_population.sql" import leaf_joins %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for d in dims %}
  {{ ('c' ~ d.index) | ident }}.code AS {{ ('q' ~ d.index) | ident }},
{% endfor %}
  CAST(SUM(r.persons) AS DOUBLE) AS n
FROM {{ raw | qname }} AS r
{{ leaf_joins(dims, '') }}
GROUP BY {% for d in dims %}{{ ('c' ~ d.index) | ident }}.code{{ ", " if not loop.last }}{% endfor %}
