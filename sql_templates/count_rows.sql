SELECT COUNT(*) FROM {{ relation | qname }} AS r
