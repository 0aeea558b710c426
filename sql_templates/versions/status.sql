{# Of the source now: rows new since the last version, rows held back by it, and published rows
   whose source row is gone (pending deletions). #}
{% from "versions/_keyed.sql" import keyed as keyed_rows %}
WITH keyed AS (
  {{ keyed_rows(source, columns, key_hash, key_ord) }}
)
SELECT
  (SELECT COUNT(*) FROM keyed AS k WHERE NOT EXISTS (
     SELECT 1 FROM {{ rows | qname }} AS h
       WHERE h.{{ key_hash | ident }} = k.{{ key_hash | ident }} AND h.{{ key_ord | ident }} = k.{{ key_ord | ident }})
   AND NOT EXISTS (
     SELECT 1 FROM {{ held | qname }} AS x
       WHERE x.{{ key_hash | ident }} = k.{{ key_hash | ident }} AND x.{{ key_ord | ident }} = k.{{ key_ord | ident }})
  ) AS new_rows,
  (SELECT COUNT(*) FROM keyed AS k WHERE EXISTS (
     SELECT 1 FROM {{ held | qname }} AS x
       WHERE x.{{ key_hash | ident }} = k.{{ key_hash | ident }} AND x.{{ key_ord | ident }} = k.{{ key_ord | ident }})
  ) AS held_rows,
  (SELECT COUNT(*) FROM {{ rows | qname }} AS h WHERE NOT EXISTS (
     SELECT 1 FROM keyed AS k
       WHERE h.{{ key_hash | ident }} = k.{{ key_hash | ident }} AND h.{{ key_ord | ident }} = k.{{ key_ord | ident }})
  ) AS pending_deletions
