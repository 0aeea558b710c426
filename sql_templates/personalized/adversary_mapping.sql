{# Per sensitive attribute: the largest confidence of an adversary who knows a target's QID
   group and the published group-bucket counts only (random worlds: a bucket's cells are
   equally likely to be any of its rows'): max over groups and leaves of
   sum_B c(G, B) / |G| * cover_B(v) / |B|. #}
{% from "personalized/_covered.sql" import covered %}
WITH {{ covered(cells, cell_leaves, None, False) }},
bucket_shares AS (
  SELECT cov.attr, cov.unit AS bucket, cov.leaf, CAST(cov.n AS DOUBLE) / CAST(s.size AS DOUBLE) AS p
  FROM covered AS cov
  JOIN unit_sizes AS s ON s.attr = cov.attr AND s.unit = cov.unit
),
group_buckets AS (
  SELECT attr, group_id, bucket, n, SUM(n) OVER (PARTITION BY attr, group_id) AS group_size
  FROM (
    SELECT c.attr, m.group_id, c.bucket, COUNT(*) AS n
    FROM {{ cells | qname }} AS c
    JOIN {{ members | qname }} AS m ON m.rid = c.rid
    GROUP BY c.attr, m.group_id, c.bucket
  ) AS counted
),
posterior AS (
  SELECT gb.attr, gb.group_id, bs.leaf,
    SUM(CAST(gb.n AS DOUBLE) / CAST(gb.group_size AS DOUBLE) * bs.p) AS p
  FROM group_buckets AS gb
  JOIN bucket_shares AS bs ON bs.attr = gb.attr AND bs.bucket = gb.bucket
  GROUP BY gb.attr, gb.group_id, bs.leaf
)
SELECT attr, MAX(p) AS confidence
FROM posterior
GROUP BY attr
ORDER BY attr
