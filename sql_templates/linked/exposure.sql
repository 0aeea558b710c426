{# What one published column P adds to a release: the rows in classes (published
   quasi-identifiers + P) smaller than k, and per quasi-identifier the rows published
   generalized whose value of P gives the original value away: at least `confidence` of the
   source rows holding that value of P share one value of the quasi-identifier. #}
WITH
{% for q in qids %}
{{ ('given' ~ q.index) | ident }} AS (
  SELECT p, CAST(MAX(c) AS DOUBLE) / SUM(c) AS share
  FROM (
    SELECT {{ column | ident }} AS p, {{ q.column | ident }} AS q, COUNT(*) AS c
    FROM {{ source | qname }} AS s
    GROUP BY {{ column | ident }}, {{ q.column | ident }}
  ) AS pairs
  GROUP BY p
),
{% endfor %}
refined AS (
  SELECT COUNT(*) AS n
  FROM {{ release | qname }} AS r
  GROUP BY {% for q in qids %}r.{{ q.column | ident }}, {% endfor %}r.{{ column | ident }}
)
SELECT
  (SELECT COALESCE(SUM(n), 0) FROM refined WHERE n < {{ k | lit }}) AS small_rows
{% for q in qids %}
  , SUM(CASE WHEN {{ ('g' ~ q.index) | ident }}.share >= {{ confidence | lit }} AND {% if q.numeric %}CAST(r.{{ q.column | ident }} AS VARCHAR) LIKE '[%'{% else %}{{ ('h' ~ q.index) | ident }}.leaf_count > 1{% endif %} THEN 1 ELSE 0 END) AS {{ ('revealed' ~ q.index) | ident }}
{% endfor %}
FROM {{ release | qname }} AS r
{% for q in qids %}
JOIN {{ ('given' ~ q.index) | ident }} AS {{ ('g' ~ q.index) | ident }}
  ON {{ ('g' ~ q.index) | ident }}.p IS NOT DISTINCT FROM r.{{ column | ident }}
{% endfor %}
{% for q in qids if not q.numeric %}
LEFT JOIN {{ nodes | qname }} AS {{ ('h' ~ q.index) | ident }}
  ON {{ ('h' ~ q.index) | ident }}.attribute = {{ q.column | lit }}
  AND {{ ('h' ~ q.index) | ident }}.label = CAST(r.{{ q.column | ident }} AS VARCHAR)
{% endfor %}
