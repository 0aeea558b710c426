{# Rows and an order-independent sum of the row keys' hashes (private: it fingerprints the
   source). #}
SELECT COUNT(*) AS n, COALESCE(SUM(k.{{ key_hash | ident }} % 1000000007), 0) AS checksum
FROM {{ keyed | qname }} AS k
