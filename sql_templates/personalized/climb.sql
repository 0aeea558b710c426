{#
  One round of duplicate repair (paper §3.1 step 8(c)(ii), digest T9): in every bucket, of the
  cells sharing a label the first `threshold` (in order of arrival, then the keyed draw) keep
  it and the others move to the label's parent; a root stays. Cells that reached their label in
  an earlier round come first, so a kept cell is never displaced and a cell moves in consecutive
  rounds only: the rounds are at most the taxonomy's height. Repeated until no label but a root
  repeats, so a third copy ends two levels up when its parent is taken.
#}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  c.attr, c.rid, c.bucket, c.pos, c.draw, c.orig, c.leaf, c.raw, c.weight, c.pweight,
  CASE WHEN c.copy_no > {{ threshold | lit }} AND lab.parent IS NOT NULL THEN lab.parent ELSE c.node END AS node,
  CASE WHEN c.copy_no > {{ threshold | lit }} AND lab.parent IS NOT NULL THEN {{ (round + 1) | lit }} ELSE c.since END AS since
FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY attr, bucket, node ORDER BY since, draw, rid) AS copy_no
  FROM {{ cells | qname }}
) AS c
JOIN {{ labels | qname }} AS lab ON lab.attr = c.attr AND lab.node = c.node
