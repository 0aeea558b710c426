DROP {{ kind }} IF EXISTS {{ relation | qname }}
