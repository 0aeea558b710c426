{# Per quasi-identifier, the population rows whose value (NULL included) is not a leaf the
   sample's coding knows; and the population's rows and persons. Counts only, no values. #}
{% from "full_domain/_population.sql" import leaf_joins %}
SELECT
{% for d in dims %}
  CAST(SUM(CASE WHEN {{ ('c' ~ d.index) | ident }}.leaf IS NULL THEN r.records ELSE 0 END) AS BIGINT) AS {{ ('u' ~ d.index) | ident }},
{% endfor %}
  CAST(SUM(r.records) AS BIGINT) AS records,
  CAST(SUM(r.persons) AS DOUBLE) AS persons
FROM {{ raw | qname }} AS r
{{ leaf_joins(dims, 'LEFT') }}
