INSERT INTO {{ done | qname }} SELECT * FROM {{ work | qname }}
