{# Per functional dependency X -> Y (numbered by position): the X-groups with more than one Y
   value, the rows of those groups, and the fewest rows to delete for the FD to hold. NULL is one
   value of its own, as in GROUP BY. Counts only: no value leaves the engine. #}
{% from "dependency/_fd.sql" import aliased, aliases %}
SELECT fd, violating_groups, violating_rows, excess_rows FROM (
{% for fd in fds %}
{% if not loop.first %}
UNION ALL
{% endif %}
SELECT
  {{ loop.index0 | lit }} AS fd,
  COUNT(*) AS violating_groups,
  COALESCE(SUM(v.n), 0) AS violating_rows,
  COALESCE(SUM(v.n - v.top), 0) AS excess_rows
FROM (
  SELECT {{ aliases(fd.lhs, 'x', 'g.') }}, SUM(g.n) AS n, MAX(g.n) AS top
  FROM (
    SELECT {{ aliased(fd.lhs, 'x') }}, {{ aliased(fd.rhs, 'y') }}, COUNT(*) AS n
    FROM {{ relation | qname }} AS r
    GROUP BY {{ fd.lhs | map('ident') | join(', ') }}, {{ fd.rhs | map('ident') | join(', ') }}
  ) AS g
  GROUP BY {{ aliases(fd.lhs, 'x', 'g.') }}
  HAVING COUNT(*) > 1
) AS v
{% endfor %}
) AS checks
ORDER BY fd
