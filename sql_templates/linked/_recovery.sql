{# The recovery query's pieces (linked/recovery.sql): the published columns as the keys `s0`,
   `s1`... of a row, a value as text, and an interval's bound. #}
{% macro key(prefix, columns) %}{% for c in columns %}{{ prefix }}{{ c | ident }} AS {{ ('s' ~ loop.index0) | ident }}, {% endfor %}{% endmacro %}
{% macro keys(columns) %}{% for c in columns %}{{ ('s' ~ loop.index0) | ident }}, {% endfor %}{% endmacro %}
{% macro text(expr) %}CAST({{ expr }} AS VARCHAR){% endmacro %}
{% macro bound(expr, part) %}CAST(SPLIT_PART(SUBSTRING({{ text(expr) }}, 2, LENGTH({{ text(expr) }}) - 2), ', ', {{ part }}) AS DOUBLE){% endmacro %}
{# The count both recovery templates end with: read at each range's ends, the source values
   seen inside it; a published range with exactly one is a recovered row. #}
{% macro recovered(columns) %}counted AS (
  SELECT q, {{ keys(columns) }}kind, rlo, rhi, n,
    SUM(CASE WHEN kind = 1 THEN 1 ELSE 0 END) OVER (
      PARTITION BY q{% for c in columns %}, {{ ('s' ~ loop.index0) | ident }}{% endfor %}

      ORDER BY pos, kind
      ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
    ) AS seen
  FROM events
),
candidates AS (
  SELECT q, MAX(n) AS n,
    MAX(CASE WHEN kind = 2 THEN seen END) - MAX(CASE WHEN kind = 0 THEN seen END) AS found
  FROM counted
  WHERE kind <> 1
  GROUP BY q, {{ keys(columns) }}rlo, rhi
)
SELECT q, CAST(SUM(CASE WHEN found = 1 THEN n ELSE 0 END) AS BIGINT) AS recovered
FROM candidates
GROUP BY q
{% endmacro %}
