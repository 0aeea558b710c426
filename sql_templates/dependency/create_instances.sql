{# Γ: the distinct projections on X ∪ Y of every group of FDs sharing X ∪ Y, tagged with the
   group's first FD; attributes outside a group's X ∪ Y are NULL (typed as the column, through a
   CASE that never matches, so that the branches' types agree on every engine). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{% for g in groups %}
{% if not loop.first %}
UNION ALL
{% endif %}
SELECT DISTINCT
  {{ g.fd | lit }} AS fd
{% for c in columns %}
  , {% if c in g.attributes %}{{ c | ident }}{% else %}CASE WHEN 1 = 0 THEN {{ c | ident }} END{% endif %} AS {{ c | ident }}
{% endfor %}
FROM {{ relation | qname }} AS r
{% endfor %}
