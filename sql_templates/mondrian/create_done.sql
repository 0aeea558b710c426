CREATE TABLE {{ done | qname }} AS SELECT * FROM {{ work | qname }} WHERE FALSE
