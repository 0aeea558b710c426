{% from "mondrian/_bins.sql" import numeric_bin %}
{# Move the rows of the window's partitions that did not split to the finished table, then
   rebuild the working table: new partition ids for the rows of partitions that split, the
   rows of partitions outside the window unchanged. #}
{% set in_window = "w.pid >= " ~ (window[0] | lit) ~ " AND w.pid < " ~ (window[1] | lit) %}
INSERT INTO {{ done | qname }}
SELECT w.* FROM {{ work | qname }} AS w
WHERE {{ in_window }} AND NOT EXISTS (SELECT 1 FROM {{ split | qname }} AS s WHERE s.pid = w.pid);

CREATE {{ working_table }}TABLE {{ work_next | qname }} AS
SELECT d.new_pid AS pid{% for c in payload %}, w.{{ c | ident }}{% endfor %}

{# The split dimension's leaf is computed before the ancestor join, so the join is a hash join
   on (dim, depth, leaf): with the CASE in the join condition DuckDB may join the ancestors of
   every leaf at that depth first and filter afterwards (seconds per round on a 24k-leaf
   hierarchy). #}
FROM (
  SELECT w.*, s.dim AS split_dim, s.depth AS split_depth
{% if categorical %}
    , CASE s.dim {% for d in categorical %}WHEN {{ d.index | lit }} THEN w.{{ d.code | ident }} {% endfor %}END AS split_leaf
{% endif %}
  FROM {{ work | qname }} AS w
  JOIN {{ split | qname }} AS s ON s.pid = w.pid
) AS w
JOIN {{ pstate | qname }} AS p ON p.pid = w.pid
{% if categorical %}
LEFT JOIN {{ ancestors | qname }} AS a
  ON a.dim = w.split_dim AND a.depth = w.split_depth + 1 AND a.leaf_rank = w.split_leaf
{% endif %}
{% set numeric = dims | selectattr("is_numeric") | list %}
JOIN {{ decisions | qname }} AS d
  ON d.pid = w.pid
{% if numeric %}
  AND d.bin = CASE w.split_dim
{% for d in numeric %}
    WHEN {{ d.index | lit }} THEN {{ numeric_bin(d) }}
{% endfor %}
{% if categorical %}
    ELSE a.node_id
{% endif %}
  END
{% else %}
  AND d.bin = a.node_id
{% endif %}
UNION ALL
SELECT w.pid{% for c in payload %}, w.{{ c | ident }}{% endfor %}

FROM {{ work | qname }} AS w
WHERE NOT ({{ in_window }});

DROP TABLE {{ work | qname }};

ALTER TABLE {{ work_next | qname }} RENAME TO {{ work.name | ident }}
