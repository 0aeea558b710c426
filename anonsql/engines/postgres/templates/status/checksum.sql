{# An order-independent checksum of a relation's rows (PostgreSQL's own row hash). #}
SELECT COUNT(*) AS n, COALESCE(SUM(MOD(HASHTEXTEXTENDED(CAST(ROW({% for c in columns %}r.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) AS TEXT), 0), 1000000007)), 0) AS checksum
FROM {{ relation | qname }} AS r
