SELECT * FROM {{ relation | qname }}
