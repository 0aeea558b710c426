INSERT INTO {{ parts | qname }} SELECT * FROM {{ chunk | qname }}
