SELECT COUNT(*) FROM {{ deleted | qname }} AS d
WHERE d.__anonsql_class_id IN (SELECT a.__anonsql_class_id FROM {{ applied | qname }} AS a)
