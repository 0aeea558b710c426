SELECT COUNT(*) FROM {{ relation | qname }}
