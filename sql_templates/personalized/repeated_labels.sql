{# Labels other than a root held by more than `threshold` cells of one bucket. #}
SELECT COUNT(*) AS repeated
FROM (
  SELECT c.attr, c.bucket, c.node
  FROM {{ cells | qname }} AS c
  JOIN {{ labels | qname }} AS lab ON lab.attr = c.attr AND lab.node = c.node
  WHERE lab.parent IS NOT NULL
  GROUP BY c.attr, c.bucket, c.node
  HAVING COUNT(*) > {{ threshold | lit }}
) AS repeated
