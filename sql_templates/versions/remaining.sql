{# The rows a class with pending deletions keeps once they are applied. #}
CREATE TABLE {{ target | qname }} AS
SELECT h.*
FROM {{ history | qname }} AS h
WHERE h.state = 'published'
  AND h.class_id IN (SELECT d.class_id FROM {{ deleted | qname }} AS d)
  AND NOT EXISTS (
    SELECT 1 FROM {{ deleted | qname }} AS d
    WHERE h.{{ key_hash | ident }} = d.{{ key_hash | ident }}
      AND h.{{ key_ord | ident }} = d.{{ key_ord | ident }}
  )
