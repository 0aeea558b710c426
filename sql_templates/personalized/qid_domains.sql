{# Every quasi-identifier's distinct values (text) with their position in value order. #}
{% for q in qids %}
SELECT {{ loop.index0 | lit }} AS attr,
  CAST(DENSE_RANK() OVER (ORDER BY {{ ('q' ~ loop.index0) | ident }}) - 1 AS BIGINT) AS pos,
  CAST({{ ('q' ~ loop.index0) | ident }} AS VARCHAR) AS value
FROM (SELECT DISTINCT {{ ('q' ~ loop.index0) | ident }} FROM {{ rows | qname }}) AS {{ ('d' ~ loop.index0) | ident }}
{{ "UNION ALL" if not loop.last }}
{% endfor %}
