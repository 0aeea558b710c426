{# Each person's SA fingerprint as rows: the distinct leaf ranks of their sensitive items, each
   with the node of the current generalization covering it (the hierarchy's root at first). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT DISTINCT
  p.person,
  l.leaf_rank AS leaf,
  CAST({{ root | lit }} AS INTEGER) AS node
FROM {{ source | qname }} AS src
JOIN {{ persons | qname }} AS p ON p.person_id = src.{{ person | ident }}
JOIN {{ leaves | qname }} AS l ON l.value = CAST(src.{{ column | ident }} AS VARCHAR)
