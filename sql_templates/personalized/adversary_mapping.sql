{# Per sensitive attribute: the largest confidence of an adversary who knows a target's QID
   group and the published group-bucket counts only (random worlds: a bucket's cells are
   equally likely to be any of its rows'): max over groups and leaves of
   sum_B c(G, B) / |G| * cover_B(v) / |B|. #}
{% from "personalized/_covered.sql" import covered %}
WITH {{ covered(cells, None, labels, False) }},
group_buckets AS (
  SELECT c.attr, m.group_id, c.bucket, COUNT(*) AS n
  FROM {{ cells | qname }} AS c
  JOIN {{ members | qname }} AS m ON m.rid = c.rid
  GROUP BY c.attr, m.group_id, c.bucket
),
group_sizes AS (
  SELECT group_id, COUNT(*) AS size FROM {{ members | qname }} GROUP BY group_id
),
posterior AS (
  SELECT gb.attr, gb.group_id, cov.leaf,
    SUM(CAST(gb.n AS DOUBLE) * CAST(cov.n AS DOUBLE) / CAST(s.size AS DOUBLE)) / CAST(MAX(g.size) AS DOUBLE) AS p
  FROM group_buckets AS gb
  JOIN covered AS cov ON cov.attr = gb.attr AND cov.unit = gb.bucket
  JOIN unit_sizes AS s ON s.attr = gb.attr AND s.unit = gb.bucket
  JOIN group_sizes AS g ON g.group_id = gb.group_id
  GROUP BY gb.attr, gb.group_id, cov.leaf
)
SELECT attr, MAX(p) AS confidence
FROM posterior
GROUP BY attr
ORDER BY attr
