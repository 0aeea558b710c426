{# The distinct values of one column (benchmarks: building a flat hierarchy over them). #}
SELECT DISTINCT {{ column | ident }} FROM {{ relation | qname }} AS r
