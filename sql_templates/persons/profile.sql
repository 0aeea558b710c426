{# Person-level facts of the source: persons, rows without a person, rows without a sensitive
   item, distinct items. #}
SELECT
  COUNT(DISTINCT {{ person | ident }}) AS persons,
  COUNT(*) - COUNT({{ person | ident }}) AS null_persons,
  COUNT(*) - COUNT({{ column | ident }}) AS null_items,
  COUNT(DISTINCT {{ column | ident }}) AS items
FROM {{ source | qname }} AS src
