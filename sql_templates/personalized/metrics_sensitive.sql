{#
  Per sensitive attribute (digest 002 §4): cells; transformed cells (categorical: published
  with an ancestor; numeric: published weight below 1); summed utility gain (categorical: eq. 4
  read with depths, 1 for an unchanged leaf, depth / (levels - 1) for an ancestor; numeric: the
  published weight); summed privacy gain (categorical: eq. 3, descendants / (nodes - 1);
  numeric: 1 - weight); summed NCP (categorical: leaves under the label over all leaves, 0 for
  a leaf).
#}
SELECT
  c.attr,
  COUNT(*) AS cells,
  SUM(CASE WHEN c.raw IS NULL THEN (CASE WHEN c.node <> c.orig THEN 1 ELSE 0 END)
           ELSE (CASE WHEN c.pweight < 1 THEN 1 ELSE 0 END) END) AS transformed,
  SUM(CASE WHEN c.raw IS NOT NULL THEN CAST(c.pweight AS DOUBLE)
           WHEN c.node = c.orig THEN CAST(1 AS DOUBLE)
           ELSE CAST(lab.depth AS DOUBLE) / NULLIF(lab.levels - 1, 0) END) AS utility,
  SUM(CASE WHEN c.raw IS NOT NULL THEN 1 - CAST(c.pweight AS DOUBLE)
           ELSE CAST(lab.descendants AS DOUBLE) / NULLIF(lab.total_nodes - 1, 0) END) AS privacy,
  SUM(CASE WHEN c.raw IS NOT NULL THEN NULL
           WHEN lab.leaf_count <= 1 THEN CAST(0 AS DOUBLE)
           ELSE CAST(lab.leaf_count AS DOUBLE) / t.leaves END) AS ncp
FROM {{ cells | qname }} AS c
JOIN {{ labels | qname }} AS lab ON lab.attr = c.attr AND lab.node = c.node
JOIN (
  SELECT attr, CAST(MAX(leaf_count) AS DOUBLE) AS leaves FROM {{ labels | qname }} GROUP BY attr
) AS t ON t.attr = c.attr
GROUP BY c.attr
ORDER BY c.attr
