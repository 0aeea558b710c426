CREATE {{ working_table }}TABLE {{ done | qname }} AS SELECT * FROM {{ work | qname }} WHERE FALSE
