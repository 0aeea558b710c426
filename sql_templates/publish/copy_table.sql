CREATE TABLE {{ target | qname }} AS SELECT * FROM {{ source | qname }}
