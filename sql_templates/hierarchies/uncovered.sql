{#
  Coverage of a column by a hierarchy's leaves: the rows, and the distinct values, whose text is
  not a leaf. NULL is never a leaf, so NULL rows count, and NULL counts as one distinct value.
#}
SELECT
  COUNT(*) AS uncovered_rows,
  COUNT(DISTINCT src.value) + CASE WHEN COUNT(*) > COUNT(src.value) THEN 1 ELSE 0 END
    AS uncovered_values
FROM (
  SELECT CAST({{ column | ident }} AS VARCHAR) AS value
  FROM {{ source | qname }} AS s
) AS src
WHERE NOT EXISTS (
  SELECT 1 FROM {{ leaves | qname }} AS leaf WHERE leaf.value = src.value
)
