{# Published rows whose row hash the source no longer has: the pending deletions without the
   keyed copy of the source (see versions/new_rows). #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT h.*
FROM {{ rows | qname }} AS h
WHERE NOT EXISTS (
  SELECT 1 FROM (
    SELECT {{ row_hash('s.', columns) }} AS k FROM {{ source | qname }} AS s
  ) AS k
  WHERE k.k = h.{{ key_hash | ident }}
)
