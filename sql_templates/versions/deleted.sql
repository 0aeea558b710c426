{# Published rows whose source row is gone: each class's pending deletions. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT h.*
FROM {{ rows | qname }} AS h
WHERE NOT EXISTS (
  SELECT 1 FROM {{ keyed | qname }} AS k
  WHERE h.{{ key_hash | ident }} = k.{{ key_hash | ident }}
    AND h.{{ key_ord | ident }} = k.{{ key_ord | ident }}
)
