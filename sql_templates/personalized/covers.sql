{# Every (label node, leaf it covers) pair of every attribute, with the leaf's share of the
   label (1 / leaves below the label): covering as an equi-join for the checks and metrics. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT lab.attr, lab.node, leaf.first_leaf AS leaf, CAST(1 AS DOUBLE) / lab.leaf_count AS share
FROM {{ labels | qname }} AS lab
JOIN {{ labels | qname }} AS leaf
  ON leaf.attr = lab.attr AND leaf.is_leaf
  AND leaf.first_leaf BETWEEN lab.first_leaf AND lab.last_leaf
