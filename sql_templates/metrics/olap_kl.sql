{# KL(actual || estimate) of the OLAP count queries
     SELECT <combo>, COUNT(*) FROM data WHERE <sa> = v GROUP BY <combo>
   for a batch of attribute combinations (lists of positions in `dims`) and every v of sa_values
   at once (Ghinita et al., VLDB 2007). One row per (combination, v): its position in `combos`,
   the value (text), its source rows, the actual cube's non-empty cells, KL, cells the estimate
   leaves empty and classes whose published value is not a node of the hierarchy (both must be 0).
   Cells: a numeric dim -> its bin (bin j holds values below uppers[j], the last one the rest);
   a categorical dim -> the value's leaf rank. The estimate spreads each published class's rows
   over its extent discrete-uniformly: the integers of "[lo, hi]" (kind 'integer'), the distinct
   source values in it (kind 'real'), the leaves under the node (kind 'categorical'). Rows the
   release suppressed form one more class per value, spread over the whole domain.
   The source and the release are read once per batch: `actual` (binned source rows) and `classes`
   (published classes keyed by their text per attribute; numeric keys parse to [lo, hi]) cover
   every dim, and each combination aggregates them. Every class is expanded to the cells of its
   extent by joins on its keys alone; the cells of the actual cube then pick up their estimate.
   Those joins are LEFT joins: a key always matches (else `unmatched` > 0 and the caller fails),
   and PostgreSQL, which cannot estimate joins of CTEs, then never expects fewer rows than
   classes (inner joins made it plan nested loops over 10^8 pairs on Adult). #}
{% macro bin_of(expr, d) %}{% if d.uppers %}CASE{% for u in d.uppers %} WHEN {{ expr }} < {{ u | lit }} THEN {{ loop.index0 }}{% endfor %} ELSE {{ d.uppers | length }} END{% else %}0{% endif %}{% endmacro %}
{% macro bound(text, part) %}CASE WHEN {{ text }} LIKE '[%' THEN CAST(SPLIT_PART(SUBSTRING({{ text }}, 2, LENGTH({{ text }}) - 2), ', ', {{ part }}) AS DOUBLE) ELSE CAST({{ text }} AS DOUBLE) END{% endmacro %}
{% macro col(prefix, i) %}{{ (prefix ~ i) | ident }}{% endmacro %}
{% macro ordinals(count) %}{% for i in range(count) %}{{ i + 1 }}{{ ", " if not loop.last }}{% endfor %}{% endmacro %}
{% set values %}{% for v in sa_values %}{{ v | lit }}{{ ", " if not loop.last }}{% endfor %}{% endset %}
WITH actual AS (
  SELECT
    CAST(s.{{ sa | ident }} AS VARCHAR) AS sa
{% for d in dims %}
{% if d.kind == 'categorical' %}
    , {{ col('l', loop.index0) }}.first_leaf AS {{ col('c', loop.index0) }}
{% elif d.kind == 'integer' %}
    , {{ bin_of('s.' ~ (d.column | ident), d) }} AS {{ col('c', loop.index0) }}
{% else %}
    , {{ bin_of('CAST(s.' ~ (d.column | ident) ~ ' AS DOUBLE)', d) }} AS {{ col('c', loop.index0) }}
{% endif %}
{% endfor %}
    , COUNT(*) AS n
  FROM {{ source | qname }} AS s
{% for d in dims %}
{% if d.kind == 'categorical' %}
{% set l = col('l', loop.index0) %}
  LEFT JOIN {{ nodes | qname }} AS {{ l }}
    ON {{ l }}.attribute = {{ d.column | lit }}
    AND {{ l }}.label = CAST(s.{{ d.column | ident }} AS VARCHAR)
    AND {{ l }}.leaf_count = 1
{% endif %}
{% endfor %}
  WHERE CAST(s.{{ sa | ident }} AS VARCHAR) IN ({{ values }})
  GROUP BY {{ ordinals(dims | length + 1) }}
), published AS (
  SELECT
    CAST(r.{{ sa | ident }} AS VARCHAR) AS sa
{% for d in dims %}
    , CAST(r.{{ d.column | ident }} AS VARCHAR) AS {{ col('k', loop.index0) }}
{% endfor %}
    , COUNT(*) AS n
  FROM {{ relation | qname }} AS r
  WHERE CAST(r.{{ sa | ident }} AS VARCHAR) IN ({{ values }})
  GROUP BY {{ ordinals(dims | length + 1) }}
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
{% set k = col('k', loop.index0) %}
), {{ col('s', loop.index0) }} AS (
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
), unmatched AS (
  SELECT COUNT(*) AS classes
  FROM classes AS k
  WHERE {% for d in dims %}k.{{ col('k', loop.index0) }} NOT IN (SELECT key FROM {{ col('s', loop.index0) }}){{ " OR " if not loop.last }}{% endfor %}

{% for combo in combos %}
{% set q = loop.index0 %}
), {{ col('actual', q) }} AS (
  SELECT sa{% for i in combo %}, {{ col('c', i) }}{% endfor %}, SUM(n) AS n
  FROM actual
  GROUP BY {{ ordinals(combo | length + 1) }}
), {{ col('classes', q) }} AS (
  SELECT sa{% for i in combo %}, {{ col('k', i) }}{% endfor %}, SUM(n) AS n
  FROM classes
  GROUP BY {{ ordinals(combo | length + 1) }}
), {{ col('estimate', q) }} AS (
  SELECT
    k.sa
{% for i in combo %}
    , {{ col('s', i) }}.cell AS {{ col('c', i) }}
{% endfor %}
    , SUM(k.n{% for i in combo %} * {{ col('s', i) }}.f{% endfor %}) AS e
  FROM {{ col('classes', q) }} AS k
{% for i in combo %}
  LEFT JOIN {{ col('s', i) }} ON {{ col('s', i) }}.key = k.{{ col('k', i) }}
{% endfor %}
  GROUP BY {{ ordinals(combo | length + 1) }}
), {{ col('mass', q) }} AS (
  SELECT sa, SUM(e) AS e FROM {{ col('estimate', q) }} GROUP BY sa
), {{ col('kl', q) }} AS (
  SELECT
    {{ q | lit }} AS query,
    a.sa AS sa_value,
    SUM(a.n) AS source_rows,
    COUNT(*) AS cells,
    CASE WHEN MAX(m.e) > 0 THEN
      SUM(CASE WHEN x.e > 0 THEN a.n * LN(CAST(a.n AS DOUBLE) / x.e) ELSE 0 END) / SUM(a.n)
      + LN(MAX(m.e) / SUM(a.n))
    END AS kl,
    SUM(CASE WHEN x.e > 0 THEN 0 ELSE 1 END) AS uncovered
  FROM {{ col('actual', q) }} AS a
  LEFT JOIN {{ col('estimate', q) }} AS x
    ON x.sa = a.sa{% for i in combo %} AND x.{{ col('c', i) }} = a.{{ col('c', i) }}{% endfor %}

  LEFT JOIN {{ col('mass', q) }} AS m ON m.sa = a.sa
  GROUP BY a.sa
{% endfor %}
)
SELECT r.query, r.sa_value, r.source_rows, r.cells, r.kl, r.uncovered, u.classes AS unmatched
FROM (
{% for combo in combos %}
  SELECT * FROM {{ col('kl', loop.index0) }}{{ " UNION ALL" if not loop.last }}
{% endfor %}
) AS r
CROSS JOIN unmatched AS u
