{# An order-independent checksum of a relation's rows, to tell whether it changed (compared on
   the same engine only: each engine hashes its own way). #}
SELECT COUNT(*) AS n, COALESCE(SUM(HASH({% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}) % 1000000007), 0) AS checksum
FROM {{ relation | qname }} AS r
