{# Farthest-first initialization: the vector farthest from every chosen center (ties to the
   lowest vector id). #}
SELECT v.vid{% for d in dims %}, v.{{ ('u' ~ d.index) | ident }}{% endfor %}

FROM {{ vectors | qname }} AS v
CROSS JOIN {{ centers | qname }} AS c
GROUP BY v.vid{% for d in dims %}, v.{{ ('u' ~ d.index) | ident }}{% endfor %}

ORDER BY MIN({% for d in dims %}(v.{{ ('u' ~ d.index) | ident }} - c.{{ ('c' ~ d.index) | ident }}) * (v.{{ ('u' ~ d.index) | ident }} - c.{{ ('c' ~ d.index) | ident }}){{ " + " if not loop.last }}{% endfor %}) DESC, v.vid
LIMIT 1
