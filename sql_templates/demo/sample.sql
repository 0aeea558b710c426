SELECT * FROM {{ relation | qname }} LIMIT {{ limit | lit }}
