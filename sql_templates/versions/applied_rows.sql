SELECT COUNT(*) FROM {{ deleted | qname }} AS d
WHERE d.class_id IN (SELECT a.class_id FROM {{ applied | qname }} AS a)
