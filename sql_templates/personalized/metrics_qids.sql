{#
  Per quasi-identifier: the summed NCP of the published multisets, read as the smallest
  generalization covering them (numeric: the group's range over the column's range;
  categorical: the group's distinct values over the column's distinct values, 0 for one value).
#}
{% for q in qids %}
{% set col = 'q' ~ q.index %}
SELECT {{ q.index | lit }} AS attr,
  SUM(g.n * CASE
{% if q.numeric %}
    WHEN t.hi > t.lo THEN CAST(g.hi - g.lo AS DOUBLE) / CAST(t.hi - t.lo AS DOUBLE)
{% else %}
    WHEN g.d > 1 THEN CAST(g.d AS DOUBLE) / CAST(t.d AS DOUBLE)
{% endif %}
    ELSE CAST(0 AS DOUBLE) END) AS ncp
FROM (
  SELECT m.group_id, COUNT(*) AS n, MIN(r.{{ col | ident }}) AS lo, MAX(r.{{ col | ident }}) AS hi,
    COUNT(DISTINCT r.{{ col | ident }}) AS d
  FROM {{ rows | qname }} AS r
  JOIN {{ members | qname }} AS m ON m.rid = r.rid
  GROUP BY m.group_id
) AS g
CROSS JOIN (
  SELECT MIN({{ col | ident }}) AS lo, MAX({{ col | ident }}) AS hi, COUNT(DISTINCT {{ col | ident }}) AS d
  FROM {{ rows | qname }}
) AS t
{{ "UNION ALL" if not loop.last }}
{% endfor %}
