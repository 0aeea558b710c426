{# (vector, sensitive value) items in key order with their row counts: the records of the
   l-diversity heuristic's queues, one row per item rather than per row. #}
SELECT o.pos, o.vid, r.{{ sensitive | ident }} AS value, COUNT(*) AS n
FROM {{ ordered | qname }} AS o
JOIN {{ rows | qname }} AS r
  ON {% for d in dims %}r.{{ d.code | ident }} = o.{{ d.code | ident }}{{ " AND " if not loop.last }}{% endfor %}

GROUP BY o.pos, o.vid, r.{{ sensitive | ident }}
ORDER BY o.pos, value
