{# The rows whose deletion batch applies at this version leave the version's rows. #}
DELETE FROM {{ rows | qname }}
WHERE EXISTS (
  SELECT 1 FROM {{ deleted | qname }} AS d
  JOIN {{ applied | qname }} AS a ON a.__anonsql_class_id = d.__anonsql_class_id
  WHERE d.{{ key_hash | ident }} = {{ rows | qname }}.{{ key_hash | ident }}
    AND d.{{ key_ord | ident }} = {{ rows | qname }}.{{ key_ord | ident }}
)
