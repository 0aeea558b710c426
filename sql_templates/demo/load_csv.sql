CREATE TABLE {{ target | qname }} AS
SELECT * FROM read_csv({{ path | lit }}, delim = ';', header = true)
