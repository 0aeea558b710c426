{# An empty table with the columns of ``source``. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS SELECT * FROM {{ source | qname }} AS s WHERE 1 = 0
