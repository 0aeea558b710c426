{# What analysts query of a live release on PostgreSQL: the fence function's rows. #}
CREATE VIEW {{ target | qname }} AS SELECT * FROM {{ function | qname }}()
