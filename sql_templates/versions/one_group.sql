{# ``relation`` as one group (column ``class_id``), to check a set of rows as one class. #}
CREATE VIEW {{ target | qname }} AS SELECT 0 AS __anonsql_class_id, r.* FROM {{ relation | qname }} AS r
