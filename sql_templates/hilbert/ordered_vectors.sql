SELECT v.vid, v.n{% for d in dims %}, v.{{ d.code | ident }}{% endfor %}

FROM {{ vectors | qname }} AS v
JOIN {{ keys | qname }} AS k ON k.vid = v.vid
ORDER BY k.hilbert_key{% for d in dims %}, v.{{ d.code | ident }}{% endfor %}
