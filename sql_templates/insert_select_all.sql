{# Append every row of a relation with the same columns. #}
INSERT INTO {{ target | qname }}
SELECT * FROM {{ source | qname }}
