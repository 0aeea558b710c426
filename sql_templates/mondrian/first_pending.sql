SELECT MIN(pid) FROM {{ work | qname }}
