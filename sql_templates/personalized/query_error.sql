{#
  Count queries over several sensitive attributes (digest 002 task 4): query q selects the rows
  whose quasi-identifier qattr takes one of q's predicate values and whose sensitive attributes
  a<j> hold the leaves (or terms) v<j>, j < d. Per query: the actual count (working rows) and
  the count estimated from what the profile publishes: the QID multisets give each group's
  share of matching rows; a generalized label spreads uniformly over the leaves below it; with
  the tuple-level mapping a group's rows keep their cells' joint labels, with the group-bucket
  mapping each attribute's labels are the group's bucket mixture, independent across attributes.
#}
WITH sized_members AS (
  SELECT rid, group_id, COUNT(*) OVER (PARTITION BY group_id) AS size FROM {{ members | qname }}
),
matching AS (
  SELECT q.query, m.group_id, m.size, COUNT(*) AS n
  FROM {{ queries | qname }} AS q
  JOIN {{ predicates | qname }} AS p ON p.query = q.query
  JOIN {{ row_values | qname }} AS v ON v.attr = q.qattr AND v.value = p.value
  JOIN sized_members AS m ON m.rid = v.rid
  GROUP BY q.query, m.group_id, m.size
),
actual AS (
  SELECT q.query, COUNT(*) AS n
  FROM {{ queries | qname }} AS q
  JOIN {{ predicates | qname }} AS p ON p.query = q.query
  JOIN {{ row_values | qname }} AS v ON v.attr = q.qattr AND v.value = p.value
{% for j in range(d) %}
  JOIN {{ cells | qname }} AS {{ ('c' ~ j) | ident }}
    ON {{ ('c' ~ j) | ident }}.rid = v.rid AND {{ ('c' ~ j) | ident }}.attr = q.{{ ('a' ~ j) | ident }}
    AND {{ ('c' ~ j) | ident }}.leaf = q.{{ ('v' ~ j) | ident }}
{% endfor %}
  GROUP BY q.query
),
{% if mapping == 'tuple' %}
joint AS (
  SELECT q.query, m.group_id, SUM({% for j in range(d) %}{{ ('l' ~ j) | ident }}.p{{ " * " if not loop.last }}{% endfor %}) AS n
  FROM {{ queries | qname }} AS q
{% for j in range(d) %}
  JOIN {{ cell_leaves | qname }} AS {{ ('l' ~ j) | ident }}
    ON {{ ('l' ~ j) | ident }}.attr = q.{{ ('a' ~ j) | ident }} AND {{ ('l' ~ j) | ident }}.leaf = q.{{ ('v' ~ j) | ident }}
{% if not loop.first %}
    AND {{ ('l' ~ j) | ident }}.rid = {{ 'l0' | ident }}.rid
{% endif %}
{% endfor %}
  JOIN {{ members | qname }} AS m ON m.rid = {{ 'l0' | ident }}.rid
  GROUP BY q.query, m.group_id
),
estimate AS (
  SELECT mt.query, SUM(CAST(mt.n AS DOUBLE) / CAST(mt.size AS DOUBLE) * j.n) AS n
  FROM matching AS mt
  JOIN joint AS j ON j.query = mt.query AND j.group_id = mt.group_id
  GROUP BY mt.query
)
{% else %}
bucket_mass AS (
  SELECT attr, bucket, leaf, SUM(p) AS mass FROM {{ cell_leaves | qname }} GROUP BY attr, bucket, leaf
),
bucket_sizes AS (
  SELECT attr, bucket, COUNT(*) AS size FROM {{ cells | qname }} GROUP BY attr, bucket
),
group_buckets AS (
  SELECT c.attr, m.group_id, c.bucket, COUNT(*) AS n
  FROM {{ cells | qname }} AS c
  JOIN {{ members | qname }} AS m ON m.rid = c.rid
  GROUP BY c.attr, m.group_id, c.bucket
),
group_leaves AS (
  SELECT gb.attr, gb.group_id, bm.leaf, SUM(CAST(gb.n AS DOUBLE) * bm.mass / CAST(bs.size AS DOUBLE)) AS expected
  FROM group_buckets AS gb
  JOIN bucket_mass AS bm ON bm.attr = gb.attr AND bm.bucket = gb.bucket
  JOIN bucket_sizes AS bs ON bs.attr = gb.attr AND bs.bucket = gb.bucket
  GROUP BY gb.attr, gb.group_id, bm.leaf
),
estimate AS (
  SELECT q.query, SUM(CAST(mt.n AS DOUBLE){% for j in range(d) %} * {{ ('e' ~ j) | ident }}.expected / CAST(mt.size AS DOUBLE){% endfor %}) AS n
  FROM {{ queries | qname }} AS q
  JOIN matching AS mt ON mt.query = q.query
{% for j in range(d) %}
  JOIN group_leaves AS {{ ('e' ~ j) | ident }}
    ON {{ ('e' ~ j) | ident }}.group_id = mt.group_id AND {{ ('e' ~ j) | ident }}.attr = q.{{ ('a' ~ j) | ident }}
    AND {{ ('e' ~ j) | ident }}.leaf = q.{{ ('v' ~ j) | ident }}
{% endfor %}
  GROUP BY q.query
)
{% endif %}
SELECT q.query, COALESCE(a.n, 0) AS actual, COALESCE(e.n, CAST(0 AS DOUBLE)) AS estimate
FROM {{ queries | qname }} AS q
LEFT JOIN actual AS a ON a.query = q.query
LEFT JOIN estimate AS e ON e.query = q.query
ORDER BY q.query
