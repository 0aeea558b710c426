{#
  The published QID groups (paper Definition "deterministic generalization", Table 8, one row
  per group): group_id, group_size and per quasi-identifier the multiset "v1:c1,v2:c2,..." of
  its values in the group, in ascending value order (numbers numerically).
#}
CREATE TABLE {{ target | qname }} AS
SELECT s.group_id, s.group_size
{% for q in qids %}
  , {{ ('m' ~ loop.index0) | ident }}.multiset AS {{ q | ident }}
{% endfor %}
FROM (
  SELECT group_id, COUNT(*) AS group_size FROM {{ members | qname }} GROUP BY group_id
) AS s
{% for q in qids %}
{% set alias = 'm' ~ loop.index0 %}
JOIN (
  SELECT group_id, STRING_AGG(CAST(v AS VARCHAR) || ':' || CAST(n AS VARCHAR), ',' ORDER BY v) AS multiset
  FROM (
    SELECT m.group_id, r.{{ ('q' ~ loop.index0) | ident }} AS v, COUNT(*) AS n
    FROM {{ rows | qname }} AS r
    JOIN {{ members | qname }} AS m ON m.rid = r.rid
    GROUP BY m.group_id, r.{{ ('q' ~ loop.index0) | ident }}
  ) AS {{ ('c' ~ loop.index0) | ident }}
  GROUP BY group_id
) AS {{ alias | ident }} ON {{ alias | ident }}.group_id = s.group_id
{% endfor %}
