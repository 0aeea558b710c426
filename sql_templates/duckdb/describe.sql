DESCRIBE {{ relation | qname }}
