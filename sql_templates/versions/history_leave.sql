{# The pending deletions of the classes whose batch is applied leave at ``version``. #}
UPDATE {{ history | qname }} SET state = 'left', until = {{ version | lit }}
WHERE state = 'published' AND class_id IN (SELECT a.class_id FROM {{ applied | qname }} AS a)
  AND EXISTS (
    SELECT 1 FROM {{ deleted | qname }} AS d
    WHERE d.{{ key_hash | ident }} = {{ history | qname }}.{{ key_hash | ident }}
      AND d.{{ key_ord | ident }} = {{ history | qname }}.{{ key_ord | ident }}
  )
