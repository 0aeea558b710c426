SELECT COALESCE(MAX(h.class_id), 0) FROM {{ history | qname }} AS h
