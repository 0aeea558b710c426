{# k-map in Mondrian: the population table grouped by its quasi-identifiers coded as the working
   rows code the sample's (numeric ones as doubles, categorical ones as their leaf rank, NULL
   where the value is NULL or outside the hierarchy), with its persons (the count column summed,
   1 per row without one) and rows. #}
SELECT
{% for d in dims %}
  x.{{ d.code | ident }},
{% endfor %}
  CAST(SUM(x.persons) AS DOUBLE) AS persons,
  CAST(COUNT(*) AS BIGINT) AS records
FROM (
  SELECT
{% for d in dims %}
{% if d.is_numeric %}
    CAST(p.{{ d.column | ident }} AS DOUBLE) AS {{ d.code | ident }},
{% else %}
    {{ ('l' ~ d.index) | ident }}.leaf_rank AS {{ d.code | ident }},
{% endif %}
{% endfor %}
    {% if count %}p.{{ count | ident }}{% else %}1{% endif %} AS persons
  FROM {{ population | qname }} AS p
{% for d in dims if not d.is_numeric %}
  LEFT JOIN {{ leaves[d.index] | qname }} AS {{ ('l' ~ d.index) | ident }}
    ON {{ ('l' ~ d.index) | ident }}.value = CAST(p.{{ d.column | ident }} AS VARCHAR)
{% endfor %}
) AS x
GROUP BY {% for d in dims %}x.{{ d.code | ident }}{{ ", " if not loop.last }}{% endfor %}
