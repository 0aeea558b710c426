{# KL(actual || estimate) of the OLAP count queries
     SELECT <dims>, COUNT(*) FROM data WHERE <sa> = v GROUP BY <dims>
   for every v of sa_values at once (Ghinita et al., VLDB 2007). One row per v: the value (text),
   its source rows, the actual cube's non-empty cells, KL, cells the estimate leaves empty and
   classes whose published value is not a node of the hierarchy (both must be 0).
   Cells: a numeric dim -> its bin (bin j holds values below uppers[j], the last one the rest);
   a categorical dim -> the value's leaf rank. The estimate spreads each published class's rows
   over its extent discrete-uniformly: the integers of "[lo, hi]" (kind 'integer'), the distinct
   source values in it (kind 'real'), the leaves under the node (kind 'categorical'). Rows the
   release suppressed form one more class per value, spread over the whole domain.
   Classes are keyed by their published text per attribute (numeric keys parse to [lo, hi]); every
   class is expanded to the cells of its extent by joins on those keys alone, then the cells of
   the actual cube pick up their estimate. #}
{% macro bin_of(expr, d) %}{% if d.uppers %}CASE{% for u in d.uppers %} WHEN {{ expr }} < {{ u | lit }} THEN {{ loop.index0 }}{% endfor %} ELSE {{ d.uppers | length }} END{% else %}0{% endif %}{% endmacro %}
{% macro bound(text, part) %}CASE WHEN {{ text }} LIKE '[%' THEN CAST(SPLIT_PART(SUBSTRING({{ text }}, 2, LENGTH({{ text }}) - 2), ', ', {{ part }}) AS DOUBLE) ELSE CAST({{ text }} AS DOUBLE) END{% endmacro %}
{% set values %}{% for v in sa_values %}{{ v | lit }}{{ ", " if not loop.last }}{% endfor %}{% endset %}
WITH actual AS (
  SELECT
    CAST(s.{{ sa | ident }} AS VARCHAR) AS sa
{% for d in dims %}
{% set c = ('c' ~ loop.index0) | ident %}
{% if d.kind == 'categorical' %}
    , {{ ('l' ~ loop.index0) | ident }}.first_leaf AS {{ c }}
{% elif d.kind == 'integer' %}
    , {{ bin_of('s.' ~ (d.column | ident), d) }} AS {{ c }}
{% else %}
    , {{ bin_of('CAST(s.' ~ (d.column | ident) ~ ' AS DOUBLE)', d) }} AS {{ c }}
{% endif %}
{% endfor %}
    , COUNT(*) AS n
  FROM {{ source | qname }} AS s
{% for d in dims %}
{% if d.kind == 'categorical' %}
{% set l = ('l' ~ loop.index0) | ident %}
  LEFT JOIN {{ nodes | qname }} AS {{ l }}
    ON {{ l }}.attribute = {{ d.column | lit }}
    AND {{ l }}.label = CAST(s.{{ d.column | ident }} AS VARCHAR)
    AND {{ l }}.leaf_count = 1
{% endif %}
{% endfor %}
  WHERE CAST(s.{{ sa | ident }} AS VARCHAR) IN ({{ values }})
  GROUP BY {% for i in range(dims | length + 1) %}{{ i + 1 }}{{ ", " if not loop.last }}{% endfor %}

), published AS (
  SELECT
    CAST(r.{{ sa | ident }} AS VARCHAR) AS sa
{% for d in dims %}
    , CAST(r.{{ d.column | ident }} AS VARCHAR) AS {{ ('k' ~ loop.index0) | ident }}
{% endfor %}
    , COUNT(*) AS n
  FROM {{ relation | qname }} AS r
  WHERE CAST(r.{{ sa | ident }} AS VARCHAR) IN ({{ values }})
  GROUP BY {% for i in range(dims | length + 1) %}{{ i + 1 }}{{ ", " if not loop.last }}{% endfor %}

), classes AS (
  SELECT * FROM published
  UNION ALL
  SELECT
    t.sa
{% for d in dims %}
{% if d.kind == 'categorical' %}
    , (SELECT MIN(label) FROM {{ nodes | qname }}
       WHERE attribute = {{ d.column | lit }} AND depth = 0)
{% else %}
    , {{ d.domain_key | lit }}
{% endif %}
{% endfor %}
    , CAST(t.n - COALESCE(p.n, 0) AS BIGINT)
  FROM (SELECT sa, SUM(n) AS n FROM actual GROUP BY sa) AS t
  LEFT JOIN (SELECT sa, SUM(n) AS n FROM published GROUP BY sa) AS p ON p.sa = t.sa
  WHERE t.n > COALESCE(p.n, 0)
{% for d in dims %}
{% set i = loop.index0 %}
{% set k = ('k' ~ i) | ident %}
), {{ ('s' ~ i) | ident }} AS (
{% if d.kind == 'categorical' %}
  SELECT n.label AS key, l.first_leaf AS cell, CAST(1 AS DOUBLE) / n.leaf_count AS f
  FROM {{ nodes | qname }} AS n
  JOIN (
    SELECT DISTINCT first_leaf FROM {{ nodes | qname }}
    WHERE attribute = {{ d.column | lit }} AND leaf_count = 1
  ) AS l ON l.first_leaf BETWEEN n.first_leaf AND n.last_leaf
  WHERE n.attribute = {{ d.column | lit }}
    AND n.label IN (SELECT {{ k }} FROM classes)
{% elif d.kind == 'integer' %}
  SELECT e.key, b.bin AS cell,
    (LEAST(e.hi, b.b_hi - 1) - GREATEST(e.lo, b.b_lo) + 1) / (e.hi - e.lo + 1) AS f
  FROM (
    SELECT key, {{ bound('key', 1) }} AS lo, {{ bound('key', 2) }} AS hi
    FROM (SELECT DISTINCT {{ k }} AS key FROM classes) AS u
  ) AS e
  JOIN (VALUES {% for b in d.bins %}({{ b[0] | lit }}, {{ b[1] | lit }}, {{ b[2] | lit }}){{ ", " if not loop.last }}{% endfor %}) AS b(bin, b_lo, b_hi)
    ON b.b_lo < b.b_hi AND b.b_lo <= e.hi AND b.b_hi > e.lo
{% else %}
  SELECT key, cell, CAST(m AS DOUBLE) / SUM(m) OVER (PARTITION BY key) AS f
  FROM (
    SELECT e.key, {{ bin_of('x.v', d) }} AS cell, COUNT(*) AS m
    FROM (
      SELECT key, {{ bound('key', 1) }} AS lo, {{ bound('key', 2) }} AS hi
      FROM (SELECT DISTINCT {{ k }} AS key FROM classes) AS u
    ) AS e
    JOIN (
      SELECT DISTINCT CAST({{ d.column | ident }} AS DOUBLE) AS v FROM {{ source | qname }}
    ) AS x ON x.v BETWEEN e.lo AND e.hi
    GROUP BY 1, 2
  ) AS g
{% endif %}
{% endfor %}
), estimate AS (
  SELECT
    k.sa
{% for d in dims %}
    , {{ ('s' ~ loop.index0) | ident }}.cell AS {{ ('c' ~ loop.index0) | ident }}
{% endfor %}
    , SUM(k.n{% for d in dims %} * {{ ('s' ~ loop.index0) | ident }}.f{% endfor %}) AS e
  FROM classes AS k
{% for d in dims %}
{% set s = ('s' ~ loop.index0) | ident %}
  JOIN {{ s }} ON {{ s }}.key = k.{{ ('k' ~ loop.index0) | ident }}
{% endfor %}
  GROUP BY {% for i in range(dims | length + 1) %}{{ i + 1 }}{{ ", " if not loop.last }}{% endfor %}

), mass AS (
  SELECT sa, SUM(e) AS e FROM estimate GROUP BY sa
), unmatched AS (
  SELECT COUNT(*) AS classes
  FROM classes AS k
  WHERE {% for d in dims %}k.{{ ('k' ~ loop.index0) | ident }} NOT IN (SELECT key FROM {{ ('s' ~ loop.index0) | ident }}){{ " OR " if not loop.last }}{% endfor %}

)
SELECT
  a.sa AS sa_value,
  SUM(a.n) AS source_rows,
  COUNT(*) AS cells,
  CASE WHEN MAX(m.e) > 0 THEN
    SUM(CASE WHEN x.e > 0 THEN a.n * LN(CAST(a.n AS DOUBLE) / x.e) ELSE 0 END) / SUM(a.n)
    + LN(MAX(m.e) / SUM(a.n))
  END AS kl,
  SUM(CASE WHEN x.e > 0 THEN 0 ELSE 1 END) AS uncovered,
  MAX(u.classes) AS unmatched
FROM actual AS a
LEFT JOIN estimate AS x
  ON x.sa = a.sa{% for d in dims %} AND x.{{ ('c' ~ loop.index0) | ident }} = a.{{ ('c' ~ loop.index0) | ident }}{% endfor %}

LEFT JOIN mass AS m ON m.sa = a.sa
CROSS JOIN unmatched AS u
GROUP BY a.sa
