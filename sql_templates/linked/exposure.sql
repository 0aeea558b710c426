{# What one published column P adds to a release: the rows in classes (published
   quasi-identifiers + P) smaller than k, and per quasi-identifier the rows published
   generalized whose value of P gives the original value away: at least `confidence` of the
   source rows holding that value of P share one value of the quasi-identifier.
   The release is grouped by (quasi-identifiers, P), or `refined` (the release grouped by its
   quasi-identifiers and several such columns, `__anonsql_rows` rows each) is summed to that grouping; every
   figure is a sum over those groups, weighted by their rows.
   The per-value shares are one MATERIALIZED row per value of P, joined once: joined on
   IS NOT DISTINCT FROM, which PostgreSQL estimates at one row, they were otherwise aggregated
   from the source again for every group (more than 5 minutes at 1e6 rows), and with one join
   per quasi-identifier the estimate fell to one row and the hierarchy lookups nested-looped
   over every group (3.5 s of PostgreSQL's 1e6 run). #}
WITH
given AS MATERIALIZED (
  SELECT p
{% for q in qids %}
    , MAX(CASE WHEN q = {{ loop.index0 | lit }} THEN share END) AS {{ ('share' ~ q.index) | ident }}
{% endfor %}
  FROM (
{% for q in qids %}
    SELECT {{ loop.index0 | lit }} AS q, p, CAST(MAX(c) AS DOUBLE) / SUM(c) AS share
    FROM (
      SELECT {{ column | ident }} AS p, {{ q.column | ident }} AS v, COUNT(*) AS c
      FROM {{ source | qname }} AS s
      GROUP BY {{ column | ident }}, {{ q.column | ident }}
    ) AS pairs
    GROUP BY p
{% if not loop.last %}
    UNION ALL
{% endif %}
{% endfor %}
  ) AS shares
  GROUP BY p
),
refined AS (
{% if refined %}
  SELECT {% for q in qids %}r.{{ q.column | ident }}, {% endfor %}r.{{ column | ident }}, CAST(SUM(r.{{ '__anonsql_rows' | ident }}) AS BIGINT) AS {{ '__anonsql_rows' | ident }}
  FROM {{ refined | qname }} AS r
{% else %}
  SELECT {% for q in qids %}r.{{ q.column | ident }}, {% endfor %}r.{{ column | ident }}, COUNT(*) AS {{ '__anonsql_rows' | ident }}
  FROM {{ release | qname }} AS r
{% endif %}
  GROUP BY {% for q in qids %}r.{{ q.column | ident }}, {% endfor %}r.{{ column | ident }}
)
SELECT
  COALESCE(SUM(CASE WHEN r.{{ '__anonsql_rows' | ident }} < {{ k | lit }} THEN r.{{ '__anonsql_rows' | ident }} ELSE 0 END), 0) AS small_rows
{% for q in qids %}
  , SUM(CASE WHEN g.{{ ('share' ~ q.index) | ident }} >= {{ confidence | lit }} AND {% if q.numeric %}CAST(r.{{ q.column | ident }} AS VARCHAR) LIKE '[%'{% else %}{{ ('h' ~ q.index) | ident }}.leaf_count > 1{% endif %} THEN r.{{ '__anonsql_rows' | ident }} ELSE 0 END) AS {{ ('revealed' ~ q.index) | ident }}
{% endfor %}
FROM refined AS r
JOIN given AS g ON g.p IS NOT DISTINCT FROM r.{{ column | ident }}
{% for q in qids if not q.numeric %}
LEFT JOIN {{ nodes | qname }} AS {{ ('h' ~ q.index) | ident }}
  ON {{ ('h' ~ q.index) | ident }}.attribute = {{ q.column | lit }}
  AND {{ ('h' ~ q.index) | ident }}.label = CAST(r.{{ q.column | ident }} AS VARCHAR)
{% endfor %}
