{# The population table grouped by its quasi-identifier values as the sample's are matched: a
   column with a hierarchy as text (its leaves are text), a numeric one as a double (matched to
   the ladder's values as doubles, whatever the two tables' numeric types). ``persons``
   sums the count column (1 per row without one), ``records`` counts the table's rows. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for d in dims %}
{% if d.hierarchy %}
  CAST(x.{{ ('v' ~ d.index) | ident }} AS VARCHAR) AS {{ ('v' ~ d.index) | ident }},
{% else %}
  CAST(x.{{ ('v' ~ d.index) | ident }} AS DOUBLE) AS {{ ('v' ~ d.index) | ident }},
{% endif %}
{% endfor %}
  x.persons,
  x.records
FROM (
  SELECT
{% for d in dims %}
    p.{{ d.column | ident }} AS {{ ('v' ~ d.index) | ident }},
{% endfor %}
    CAST(SUM({% if count %}p.{{ count | ident }}{% else %}1{% endif %}) AS DOUBLE) AS persons,
    CAST(COUNT(*) AS BIGINT) AS records
  FROM {{ population | qname }} AS p
  GROUP BY {% for d in dims %}p.{{ d.column | ident }}{{ ", " if not loop.last }}{% endfor %}

) AS x
