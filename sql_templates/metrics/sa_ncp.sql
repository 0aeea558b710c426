SELECT SUM(items * ncp) AS penalty, SUM(items) AS items FROM {{ fingerprints | qname }}
