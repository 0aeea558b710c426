{# A kept table's rows replaced by ``source``'s (same columns), inside the publish transaction. #}
DELETE FROM {{ target | qname }};
INSERT INTO {{ target | qname }} SELECT * FROM {{ source | qname }}
