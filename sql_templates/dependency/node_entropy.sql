{# Per hierarchy node of one categorical column: its leaf range, entropy penalty E (nats) and
   normalized penalty NE, from the column's values in the source (Gorla 2019, Eq. 3.1). #}
{% from "dependency/_fd.sql" import leaf_counts, totals, node_entropy %}
WITH counts AS (
  {{ leaf_counts(source, column, leaves | qname) }}
),
tot AS (
  {{ totals('counts') }}
)
SELECT * FROM (
  {{ node_entropy(nodes | qname, 'counts', 'tot') }}
) AS e
ORDER BY node_id
