{# The pending deletions of the classes whose batch is applied leave at ``version``. #}
UPDATE {{ history | qname }} SET __anonsql_state = 'left', __anonsql_until = {{ version | lit }}
WHERE __anonsql_state = 'published' AND __anonsql_class_id IN (SELECT a.__anonsql_class_id FROM {{ applied | qname }} AS a)
  AND EXISTS (
    SELECT 1 FROM {{ deleted | qname }} AS d
    WHERE d.{{ key_hash | ident }} = {{ history | qname }}.{{ key_hash | ident }}
      AND d.{{ key_ord | ident }} = {{ history | qname }}.{{ key_ord | ident }}
  )
