{# δ between pairs of hierarchy nodes of one column (Gorla 2019, Eq. 3.2): |NE(a) - NE(b)| when
   one covers the other, else 1. ``pairs`` is a list of (position, label a, label b). #}
{% from "dependency/_fd.sql" import leaf_counts, totals, node_entropy %}
WITH counts AS (
  {{ leaf_counts(source, column, leaves | qname) }}
),
tot AS (
  {{ totals('counts') }}
),
ent AS (
  {{ node_entropy(nodes | qname, 'counts', 'tot') }}
),
pairs (pos, a, b) AS (
  VALUES {% for pos, a, b in pairs %}({{ pos | lit }}, {{ a | lit }}, {{ b | lit }}){{ ", " if not loop.last }}{% endfor %}

)
SELECT pairs.pos,
  CASE WHEN (x.first_leaf <= y.first_leaf AND y.last_leaf <= x.last_leaf)
         OR (y.first_leaf <= x.first_leaf AND x.last_leaf <= y.last_leaf)
       THEN ABS(x.ne - y.ne) ELSE 1 END AS delta
FROM pairs
JOIN ent AS x ON x.label = pairs.a
JOIN ent AS y ON y.label = pairs.b
ORDER BY pairs.pos
