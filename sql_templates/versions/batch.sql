{# The rows to place in new classes: the source's rows no class of the history publishes now
   (inserted since the last version, or held back). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT k.*
FROM {{ keyed | qname }} AS k
WHERE NOT EXISTS (
  SELECT 1 FROM {{ rows | qname }} AS h
  WHERE h.{{ key_hash | ident }} = k.{{ key_hash | ident }}
    AND h.{{ key_ord | ident }} = k.{{ key_ord | ident }}
)
