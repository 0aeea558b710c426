SELECT COALESCE(MAX(h.__anonsql_class_id), 0) FROM {{ history | qname }} AS h
