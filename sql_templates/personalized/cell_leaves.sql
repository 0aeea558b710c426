{# Every cell with each leaf its published label may stand for and the leaf's share of the label
   (a generalized label spread uniformly over the leaves below it). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT c.attr, c.rid, c.bucket, cv.leaf, cv.share AS p
FROM {{ cells | qname }} AS c
JOIN {{ covers | qname }} AS cv ON cv.attr = c.attr AND cv.node = c.node
