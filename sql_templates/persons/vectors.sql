{# Each person's distinct (coded) quasi-identifier vectors with their row counts. #}
{% from "prepare/_coded.sql" import coded_qids, leaf_joins %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT person_id{% for d in dims %}, {{ d.code | ident }}{% endfor %}, COUNT(*) AS n
FROM (
  SELECT
    src.{{ person | ident }} AS person_id
{{ coded_qids(dims) }}
  FROM {{ source | qname }} AS src
{{ leaf_joins(dims, leaves) }}
) AS coded
GROUP BY person_id{% for d in dims %}, {{ d.code | ident }}{% endfor %}
