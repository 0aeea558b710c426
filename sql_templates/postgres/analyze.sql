ANALYZE {{ relation | qname }}
