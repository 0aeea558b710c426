{# The first vector in quasi-identifier order: where farthest-first initialization starts. #}
SELECT v.vid{% for d in dims %}, v.{{ ('u' ~ d.index) | ident }}{% endfor %}

FROM {{ vectors | qname }} AS v
ORDER BY v.vid
LIMIT 1
