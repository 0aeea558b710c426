SELECT
  pid,
  COUNT(*) AS n
{% for d in dims %}
  , MIN({{ d.code | ident }}) AS {{ ('min' ~ d.index) | ident }}
  , MAX({{ d.code | ident }}) AS {{ ('max' ~ d.index) | ident }}
{% if d.is_numeric %}
  , PERCENTILE_DISC(0.5) WITHIN GROUP (ORDER BY {{ d.code | ident }}) AS {{ ('med' ~ d.index) | ident }}
{% endif %}
{% endfor %}
FROM {{ work | qname }}
WHERE pid >= {{ window[0] | lit }} AND pid < {{ window[1] | lit }}
GROUP BY pid
ORDER BY pid
