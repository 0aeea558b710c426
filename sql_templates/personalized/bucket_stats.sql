{#
  Per sensitive attribute: buckets, smallest and largest bucket, generalized cells (published
  label other than the original), cells repeating a root beyond `threshold` in their bucket,
  and (numeric) cells repeating a raw value already in their bucket.
#}
WITH per_bucket AS (
  SELECT attr, bucket, COUNT(*) AS size,
    SUM(CASE WHEN node <> orig THEN 1 ELSE 0 END) AS generalized,
    COUNT(raw) - COUNT(DISTINCT raw) AS raw_repeats
  FROM {{ cells | qname }}
  GROUP BY attr, bucket
),
roots AS (
  SELECT c.attr, SUM(n - {{ threshold | lit }}) AS root_repeats
  FROM (
    SELECT c.attr, c.bucket, c.node, COUNT(*) AS n
    FROM {{ cells | qname }} AS c
    JOIN {{ labels | qname }} AS lab ON lab.attr = c.attr AND lab.node = c.node
    WHERE lab.parent IS NULL AND lab.depth = 0 AND NOT lab.is_leaf
    GROUP BY c.attr, c.bucket, c.node
    HAVING COUNT(*) > {{ threshold | lit }}
  ) AS c
  GROUP BY c.attr
)
SELECT p.attr, COUNT(*) AS buckets, MIN(p.size) AS min_size, MAX(p.size) AS max_size,
  SUM(p.generalized) AS generalized, COALESCE(MAX(r.root_repeats), 0) AS root_repeats,
  SUM(p.raw_repeats) AS raw_repeats
FROM per_bucket AS p
LEFT JOIN roots AS r ON r.attr = p.attr
GROUP BY p.attr
ORDER BY p.attr
