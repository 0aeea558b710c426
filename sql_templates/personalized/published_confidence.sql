{#
  Violations of the safe profile's declared bound on a published release, from its published
  relations only: per attribute, QID group and leaf value (or term), the confidence of an
  adversary who knows a target's group, reads the group-bucket counts and the buckets (random
  worlds: a bucket's cells are equally likely to be any of its rows'; a label stands for every
  leaf of the taxonomy under it),
      sum over buckets B of  c(G, B) / |G|  *  cover_B(v) / |B|,
  above the attribute's bound (`bounds`: attribute name -> 1/l; attributes bound by 1 are left
  out). One row per violating (attribute, group, leaf).
#}
WITH bucket_sizes AS (
  SELECT attribute, bucket, COUNT(*) AS size
  FROM {{ buckets | qname }}
  GROUP BY attribute, bucket
),
cover AS (
  SELECT b.attribute, b.bucket, t.leaf, COUNT(*) AS n
  FROM {{ buckets | qname }} AS b
  JOIN {{ taxonomy | qname }} AS t ON t.attribute = b.attribute AND t.label = b.label
  GROUP BY b.attribute, b.bucket, t.leaf
),
group_sizes AS (
  SELECT attribute, group_id, SUM(frequency) AS size
  FROM {{ group_buckets | qname }}
  GROUP BY attribute, group_id
),
posterior AS (
  SELECT gb.attribute, gb.group_id, c.leaf,
    SUM(CAST(gb.frequency AS DOUBLE) / CAST(gs.size AS DOUBLE)
        * CAST(c.n AS DOUBLE) / CAST(bs.size AS DOUBLE)) AS confidence
  FROM {{ group_buckets | qname }} AS gb
  JOIN group_sizes AS gs ON gs.attribute = gb.attribute AND gs.group_id = gb.group_id
  JOIN bucket_sizes AS bs ON bs.attribute = gb.attribute AND bs.bucket = gb.bucket
  JOIN cover AS c ON c.attribute = gb.attribute AND c.bucket = gb.bucket
  WHERE gb.attribute IN ({% for name, bound in bounds %}{{ name | lit }}{{ ", " if not loop.last }}{% endfor %})
  GROUP BY gb.attribute, gb.group_id, c.leaf
)
SELECT attribute, group_id, leaf, confidence
FROM posterior
WHERE confidence > CASE attribute{% for name, bound in bounds %} WHEN {{ name | lit }} THEN {{ bound | lit }}{% endfor %} END + {{ epsilon | lit }}
