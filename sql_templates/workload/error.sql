{# The error of one workload query (anonsql/metrics/workload.py documents the estimator):
     SELECT <groups>, COUNT(*) | SUM(col) | AVG(col) FROM release WHERE <conditions> GROUP BY <groups>
   answered exactly on the source (`truth`) and estimated on the release (`est`), compared per
   group. One row: the groups compared, the sum of their relative errors, the sum of absolute
   errors and the sum of absolute true values.
   `dims`: the quasi-identifiers the query names (conditions or GROUP BY), each spread over its
   points: the integers of a published "[lo, hi]" (kind 'integer'), the distinct source values in
   it (kind 'real'), the hierarchy leaves under a published node (kind 'categorical', a leaf
   being its rank). A dim's spread `s<i>` maps each published value (`key`) to the cells it
   reaches (its points that pass the query's conditions on it; one cell 0 unless grouped) with
   the fraction `f` of the value's points in each. `others`: conditions on the other columns,
   applied exactly on both sides. `groups`: per GROUP BY column, the dim it is (`dim`) or none.
   Every group key is a DOUBLE (a dim's point) or a VARCHAR (another column); `z` is a constant
   key so that a query without GROUP BY compares one group. #}
{% macro bound(text, part) %}CASE WHEN {{ text }} LIKE '[%' THEN CAST(SPLIT_PART(SUBSTRING({{ text }}, 2, LENGTH({{ text }}) - 2), ', ', {{ part }}) AS DOUBLE) ELSE CAST({{ text }} AS DOUBLE) END{% endmacro %}
{% macro col(prefix, i) %}{{ (prefix ~ i) | ident }}{% endmacro %}
{% macro values(vs) %}{% for v in vs %}{{ v | lit }}{{ ", " if not loop.last }}{% endfor %}{% endmacro %}
{% macro test(expr, c) %}{% if c.op == 'between' %}{{ expr }} BETWEEN {{ c.values[0] | lit }} AND {{ c.values[1] | lit }}{% elif c.op == 'in' %}{{ expr }} IN ({{ values(c.values) }}){% else %}{{ expr }} {{ c.op }} {{ c.values[0] | lit }}{% endif %}{% endmacro %}
{% macro leaves(d) %}(SELECT label, MIN(first_leaf) AS rank FROM {{ nodes | qname }} WHERE attribute = {{ d.column | lit }} AND leaf_count = 1 GROUP BY label){% endmacro %}
{% macro measured(prefix) %}{% if aggregate == 'count' %}COUNT(*) AS c, CAST(0 AS DOUBLE) AS s{% else %}COUNT({{ prefix }}.{{ column | ident }}) AS c, CAST(COALESCE(SUM(CAST({{ prefix }}.{{ column | ident }} AS DOUBLE)), 0) AS DOUBLE) AS s{% endif %}{% endmacro %}
{% macro group_by(count) %}{% if count %}GROUP BY {% for i in range(count) %}{{ i + 2 }}{{ ", " if not loop.last }}{% endfor %}{% endif %}{% endmacro %}
{% macro keys() %}z{% for g in groups %}, {{ col('g', loop.index0) }}{% endfor %}{% endmacro %}
{% macro same(a, b) %}{{ a }}.z = {{ b }}.z{% for g in groups %} AND {{ a }}.{{ col('g', loop.index0) }} IS NOT DISTINCT FROM {{ b }}.{{ col('g', loop.index0) }}{% endfor %}{% endmacro %}
WITH truth AS (
  SELECT
    0 AS z
{% for g in groups %}
{% if g.dim is none %}
    , CAST(t.{{ g.column | ident }} AS VARCHAR) AS {{ col('g', loop.index0) }}
{% elif dims[g.dim].kind == 'categorical' %}
    , CAST({{ col('l', g.dim) }}.rank AS DOUBLE) AS {{ col('g', loop.index0) }}
{% else %}
    , CAST(t.{{ g.column | ident }} AS DOUBLE) AS {{ col('g', loop.index0) }}
{% endif %}
{% endfor %}
    , {{ measured('t') }}
  FROM {{ source | qname }} AS t
{% for d in dims %}
{% if d.kind == 'categorical' and d.grouped %}
  LEFT JOIN {{ leaves(d) }} AS {{ col('l', loop.index0) }}
    ON {{ col('l', loop.index0) }}.label = CAST(t.{{ d.column | ident }} AS VARCHAR)
{% endif %}
{% endfor %}
  WHERE TRUE
{% for d in dims %}
{% for c in d.conditions %}
{% if d.kind == 'categorical' %}
    AND {{ test('CAST(t.' ~ (d.column | ident) ~ ' AS VARCHAR)', c) }}
{% else %}
    AND {{ test('CAST(t.' ~ (d.column | ident) ~ ' AS DOUBLE)', c) }}
{% endif %}
{% endfor %}
{% endfor %}
{% for c in others %}
    AND {{ test('t.' ~ (c.column | ident), c) }}
{% endfor %}
  {{ group_by(groups | length) }}
), rel AS (
  SELECT
    0 AS z
{% for d in dims %}
    , CAST(r.{{ d.column | ident }} AS VARCHAR) AS {{ col('k', loop.index0) }}
{% endfor %}
{% for g in groups %}
{% if g.dim is none %}
    , CAST(r.{{ g.column | ident }} AS VARCHAR) AS {{ col('g', loop.index0) }}
{% endif %}
{% endfor %}
    , {{ measured('r') }}
  FROM {{ relation | qname }} AS r
  WHERE TRUE
{% for c in others %}
    AND {{ test('r.' ~ (c.column | ident), c) }}
{% endfor %}
  {{ group_by(dims | length + (groups | rejectattr('dim', 'number') | list | length)) }}
{% for d in dims %}
{% set i = loop.index0 %}
), {{ col('e', i) }} AS (
{% if d.kind == 'categorical' %}
  SELECT n.label AS key, n.first_leaf AS lo, n.last_leaf AS hi
  FROM {{ nodes | qname }} AS n
  WHERE n.attribute = {{ d.column | lit }}
    AND n.label IN (SELECT {{ col('k', i) }} FROM rel)
{% else %}
  SELECT key, {{ bound('key', 1) }} AS lo, {{ bound('key', 2) }} AS hi
  FROM (SELECT DISTINCT {{ col('k', i) }} AS key FROM rel) AS u
{% endif %}
), {{ col('s', i) }} AS (
{% if d.kind == 'integer' and not d.grouped %}
  SELECT key, CAST(0 AS DOUBLE) AS cell, f
  FROM (
    SELECT key,
{% if d.points is not none %}
      CAST(0{% for v in d.points %} + CASE WHEN lo <= {{ v | lit }} AND {{ v | lit }} <= hi THEN 1 ELSE 0 END{% endfor %} AS DOUBLE)
{% else %}
      CAST(GREATEST({% if d.high is none %}hi{% else %}LEAST(hi, {{ d.high | lit }}){% endif %} - {% if d.low is none %}lo{% else %}GREATEST(lo, {{ d.low | lit }}){% endif %} + 1, 0) AS DOUBLE)
{% endif %}
        / (hi - lo + 1) AS f
    FROM {{ col('e', i) }}
  ) AS x
  WHERE f > 0
{% elif d.kind == 'integer' %}
  SELECT e.key, p.v AS cell, 1 / (e.hi - e.lo + 1) AS f
  FROM {{ col('e', i) }} AS e
{% if d.points is not none %}
  JOIN (SELECT CAST(v AS DOUBLE) AS v FROM (VALUES {% for v in d.points %}({{ v | lit }}){{ ", " if not loop.last }}{% endfor %}{% if not d.points %}(NULL){% endif %}) AS q(v)) AS p
{% else %}
{% set e = col('e', i) %}
  JOIN (
    SELECT CAST(v AS DOUBLE) AS v
    FROM generate_series(
      CAST({% if d.low is not none %}GREATEST({{ d.low | lit }}, (SELECT MIN(lo) FROM {{ e }})){% else %}(SELECT MIN(lo) FROM {{ e }}){% endif %} AS BIGINT),
      CAST({% if d.high is not none %}LEAST({{ d.high | lit }}, (SELECT MAX(hi) FROM {{ e }})){% else %}(SELECT MAX(hi) FROM {{ e }}){% endif %} AS BIGINT)
    ) AS q(v)
  ) AS p
{% endif %}
    ON p.v BETWEEN e.lo AND e.hi
{% else %}
  SELECT key, cell, CAST(SUM(hit) AS DOUBLE) / MAX(m) AS f
  FROM (
    SELECT e.key,
      {% if d.grouped %}CAST(p.v AS DOUBLE){% else %}CAST(0 AS DOUBLE){% endif %} AS cell,
      CASE WHEN TRUE{% for c in d.conditions %}{% if d.kind == 'categorical' %} AND p.v IN (SELECT rank FROM {{ leaves(d) }} AS w WHERE {{ test('w.label', c) }}){% else %} AND {{ test('p.v', c) }}{% endif %}{% endfor %} THEN 1 ELSE 0 END AS hit,
      COUNT(*) OVER (PARTITION BY e.key) AS m
    FROM {{ col('e', i) }} AS e
{% if d.kind == 'categorical' %}
    JOIN (SELECT DISTINCT rank AS v FROM {{ leaves(d) }} AS w) AS p
{% else %}
    JOIN (SELECT DISTINCT CAST({{ d.column | ident }} AS DOUBLE) AS v FROM {{ source | qname }} AS x) AS p
{% endif %}
      ON p.v BETWEEN e.lo AND e.hi
  ) AS x
  WHERE hit = 1
  GROUP BY key, cell
{% endif %}
{% endfor %}
), est AS (
  SELECT
    0 AS z
{% for g in groups %}
{% if g.dim is none %}
    , r.{{ col('g', loop.index0) }}
{% else %}
    , {{ col('s', g.dim) }}.cell AS {{ col('g', loop.index0) }}
{% endif %}
{% endfor %}
    , SUM(r.c{% for d in dims %} * {{ col('s', loop.index0) }}.f{% endfor %}) AS c
    , SUM(r.s{% for d in dims %} * {{ col('s', loop.index0) }}.f{% endfor %}) AS s
  FROM rel AS r
{% for d in dims %}
  JOIN {{ col('s', loop.index0) }} ON {{ col('s', loop.index0) }}.key = r.{{ col('k', loop.index0) }}
{% endfor %}
  {{ group_by(groups | length) }}
), compared AS (
  SELECT
{% if aggregate == 'count' %}
    CAST(COALESCE(t.c, 0) AS DOUBLE) AS tv, CAST(COALESCE(e.c, 0) AS DOUBLE) AS ev
{% elif aggregate == 'sum' %}
    COALESCE(t.s, 0) AS tv, COALESCE(e.s, 0) AS ev
{% else %}
    t.s / t.c AS tv, CASE WHEN e.c > 0 THEN e.s / e.c ELSE 0 END AS ev
{% endif %}
  FROM (SELECT {{ keys() }} FROM truth{% if aggregate != 'avg' %} UNION SELECT {{ keys() }} FROM est{% endif %}) AS k
  LEFT JOIN truth AS t ON {{ same('t', 'k') }}
  LEFT JOIN est AS e ON {{ same('e', 'k') }}
  WHERE {% if aggregate == 'avg' %}t.c > 0{% else %}TRUE{% endif %}
)
SELECT
  COUNT(*) AS groups,
  SUM(ABS(ev - tv) / GREATEST(ABS(tv), {{ floor | lit }})) AS relative,
  SUM(ABS(ev - tv)) AS absolute,
  SUM(ABS(tv)) AS truth
FROM compared
