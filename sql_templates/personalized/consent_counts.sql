{# Rows of the source, and rows whose consent column holds a value meaning consent (NULL never does). #}
SELECT
  COUNT(*) AS source_rows,
  COALESCE(SUM(CASE WHEN src.{{ consent | ident }} IN ({% for v in consent_values %}{{ v | lit }}{{ ", " if not loop.last }}{% endfor %}) THEN 1 ELSE 0 END), 0) AS consenting_rows
FROM {{ source | qname }} AS src
