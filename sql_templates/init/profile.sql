{# Every column of a table profiled in one scan: distinct values, NULLs, text lengths and how
   many values are digits only (zip-like codes), for `anonsql init`. #}
SELECT
  COUNT(*) AS "rows"
{% for c in columns %}
  , COUNT(DISTINCT {{ c | ident }}) AS {{ ('distinct' ~ loop.index0) | ident }}
  , COUNT(*) - COUNT({{ c | ident }}) AS {{ ('nulls' ~ loop.index0) | ident }}
  , MIN(LENGTH(CAST({{ c | ident }} AS VARCHAR))) AS {{ ('shortest' ~ loop.index0) | ident }}
  , MAX(LENGTH(CAST({{ c | ident }} AS VARCHAR))) AS {{ ('longest' ~ loop.index0) | ident }}
  , SUM(CASE WHEN REGEXP_MATCHES(CAST({{ c | ident }} AS VARCHAR), {{ digits | lit }}) THEN 1 ELSE 0 END)
    AS {{ ('digits' ~ loop.index0) | ident }}
{% endfor %}
FROM {{ relation | qname }}
