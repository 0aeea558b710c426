{# Dependency loss of a release (Gorla 2019, Def. 8): for each group of FDs sharing X ∪ Y, the
   instances (distinct projections of the source on X ∪ Y) and Σ_p min_{t'} d(p, t') over the
   distinct projections t' of the published relation, d being the mean over X ∪ Y of
   δ(p[A], t'[A]) (Eq. 4.3): NE of the published value when it covers p[A] (categorical: a node
   whose leaf range holds p's leaf rank; numeric: "[lo, hi]" or a plain value holding p), else
   1; kept (not generalized) attributes 0 when equal, else 1; attributes missing from the
   release 1. An instance with no published tuple at all (everything suppressed) costs 1.
   Cost: |Γ_g| x |distinct projections of the release| per group. #}
{% from "dependency/_fd.sql" import aliased, dbl, nlogn, leaf_counts, totals, node_entropy %}
{% macro txt(expression) -%}CAST({{ expression }} AS VARCHAR){%- endmacro %}
{% macro low(t) -%}
CASE WHEN {{ t }} LIKE '[%' THEN CAST(SPLIT_PART(SUBSTRING({{ t }}, 2, LENGTH({{ t }}) - 2), ', ', 1) AS DOUBLE) ELSE CAST({{ t }} AS DOUBLE) END
{%- endmacro %}
{% macro high(t) -%}
CASE WHEN {{ t }} LIKE '[%' THEN CAST(SPLIT_PART(SUBSTRING({{ t }}, 2, LENGTH({{ t }}) - 2), ', ', 2) AS DOUBLE) ELSE CAST({{ t }} AS DOUBLE) END
{%- endmacro %}
WITH
{% for a in categorical %}
{% if a.companion %}
{# a release's hierarchy_nodes companion: leaves are its one-leaf nodes' labels #}
{% set leaves_rel = ('lv' ~ a.key) | ident %}
{% set nodes_rel = ('nd' ~ a.key) | ident %}
{{ leaves_rel }} AS (
  SELECT hn.label AS value, MIN(hn.first_leaf) AS leaf_rank
  FROM {{ a.companion | qname }} AS hn
  WHERE hn.attribute = {{ a.column | lit }} AND hn.first_leaf = hn.last_leaf
  GROUP BY hn.label
),
{{ nodes_rel }} AS (
  SELECT ROW_NUMBER() OVER (ORDER BY hn.first_leaf, hn.last_leaf, hn.depth, hn.label) AS node_id,
    hn.label, hn.first_leaf, hn.last_leaf
  FROM {{ a.companion | qname }} AS hn
  WHERE hn.attribute = {{ a.column | lit }}
),
{% else %}
{% set leaves_rel = a.leaves | qname %}
{% set nodes_rel = a.nodes | qname %}
{% endif %}
{{ ('cnt' ~ a.key) | ident }} AS (
  {{ leaf_counts(source, a.column, leaves_rel) }}
),
{{ ('tot' ~ a.key) | ident }} AS (
  {{ totals(('cnt' ~ a.key) | ident) }}
),
{{ ('ent' ~ a.key) | ident }} AS (
  {{ node_entropy(nodes_rel, ('cnt' ~ a.key) | ident, ('tot' ~ a.key) | ident) }}
),
{% endfor %}
{% for a in numeric %}
{{ ('cnt' ~ a.key) | ident }} AS (
  SELECT {{ dbl('s.' ~ (a.column | ident)) }} AS v, COUNT(*) AS n
  FROM {{ source | qname }} AS s
  WHERE s.{{ a.column | ident }} IS NOT NULL
  GROUP BY {{ dbl('s.' ~ (a.column | ident)) }}
),
{{ ('tot' ~ a.key) | ident }} AS (
  {{ totals(('cnt' ~ a.key) | ident) }}
),
{% endfor %}
{% for g in groups %}
{% set gi = loop.index0 %}
{{ ('p' ~ gi) | ident }} AS (
  SELECT ROW_NUMBER() OVER () AS pid, i.*
  FROM (SELECT DISTINCT {{ aliased(g.columns, 'a') }} FROM {{ source | qname }}) AS i
),
{{ ('pk' ~ gi) | ident }} AS (
  SELECT p.pid
{% for at in g.attributes %}
{% set col = ('a' ~ at.j) | ident %}
{% if at.kind == 'categorical' %}
    , {{ ('lf' ~ at.j) | ident }}.leaf_rank AS {{ ('k' ~ at.j) | ident }}
{% elif at.kind == 'numeric' %}
    , {{ dbl('p.' ~ col) }} AS {{ ('k' ~ at.j) | ident }}
{% else %}
    , p.{{ col }} AS {{ ('k' ~ at.j) | ident }}
{% endif %}
{% endfor %}
  FROM {{ ('p' ~ gi) | ident }} AS p
{% for at in g.attributes if at.kind == 'categorical' %}
  LEFT JOIN {% if at.companion %}{{ ('lv' ~ at.key) | ident }}{% else %}{{ at.leaves | qname }}{% endif %} AS {{ ('lf' ~ at.j) | ident }}
    ON {{ ('lf' ~ at.j) | ident }}.value = {{ txt('p.' ~ (('a' ~ at.j) | ident)) }}
{% endfor %}
),
{% if g.present %}
{{ ('r' ~ gi) | ident }} AS (
  SELECT DISTINCT {% for at in g.attributes if at.kind != 'dropped' %}{{ at.column | ident }} AS {{ ('b' ~ at.j) | ident }}{{ ", " if not loop.last }}{% endfor %}

  FROM {{ published | qname }}
),
{% for at in g.attributes if at.kind == 'numeric' %}
{{ ('iv' ~ gi ~ '_' ~ at.j) | ident }} AS (
  SELECT t.txt, t.lo, t.hi,
    CASE WHEN tt.h > 0
         THEN LEAST(GREATEST(({{ nlogn('COALESCE(SUM(c.n), 0)') }} - COALESCE(SUM({{ nlogn('c.n') }}), 0)) / tt.total / tt.h, 0), 1)
         ELSE 0 END AS ne
  FROM (
    SELECT DISTINCT x.txt, {{ low('x.txt') }} AS lo, {{ high('x.txt') }} AS hi
    FROM (SELECT DISTINCT {{ txt('r.' ~ (('b' ~ at.j) | ident)) }} AS txt FROM {{ ('r' ~ gi) | ident }} AS r) AS x
    WHERE x.txt IS NOT NULL
  ) AS t
  LEFT JOIN {{ ('cnt' ~ at.key) | ident }} AS c ON c.v BETWEEN t.lo AND t.hi
  CROSS JOIN {{ ('tot' ~ at.key) | ident }} AS tt
  GROUP BY t.txt, t.lo, t.hi, tt.total, tt.h
),
{% endfor %}
{{ ('rk' ~ gi) | ident }} AS (
  SELECT 1 AS one
{% for at in g.attributes %}
{% set b = 'r.' ~ (('b' ~ at.j) | ident) %}
{% if at.kind == 'categorical' %}
    , {{ ('e' ~ at.j) | ident }}.first_leaf AS {{ ('f' ~ at.j) | ident }}
    , {{ ('e' ~ at.j) | ident }}.last_leaf AS {{ ('l' ~ at.j) | ident }}
    , {{ ('e' ~ at.j) | ident }}.ne AS {{ ('ne' ~ at.j) | ident }}
{% elif at.kind == 'numeric' %}
    , {{ ('e' ~ at.j) | ident }}.lo AS {{ ('f' ~ at.j) | ident }}
    , {{ ('e' ~ at.j) | ident }}.hi AS {{ ('l' ~ at.j) | ident }}
    , {{ ('e' ~ at.j) | ident }}.ne AS {{ ('ne' ~ at.j) | ident }}
{% elif at.kind == 'kept' %}
    , {{ b }} AS {{ ('v' ~ at.j) | ident }}
{% endif %}
{% endfor %}
  FROM {{ ('r' ~ gi) | ident }} AS r
{% for at in g.attributes %}
{% if at.kind == 'categorical' %}
  LEFT JOIN {{ ('ent' ~ at.key) | ident }} AS {{ ('e' ~ at.j) | ident }}
    ON {{ ('e' ~ at.j) | ident }}.label = {{ txt('r.' ~ (('b' ~ at.j) | ident)) }}
{% elif at.kind == 'numeric' %}
  LEFT JOIN {{ ('iv' ~ gi ~ '_' ~ at.j) | ident }} AS {{ ('e' ~ at.j) | ident }}
    ON {{ ('e' ~ at.j) | ident }}.txt = {{ txt('r.' ~ (('b' ~ at.j) | ident)) }}
{% endif %}
{% endfor %}
),
{{ ('d' ~ gi) | ident }} AS (
  SELECT pk.pid, MIN((
{% for at in g.attributes %}
{% set k = 'pk.' ~ (('k' ~ at.j) | ident) %}
{% if at.kind in ('categorical', 'numeric') %}
    CASE WHEN {{ k }} BETWEEN rk.{{ ('f' ~ at.j) | ident }} AND rk.{{ ('l' ~ at.j) | ident }} THEN rk.{{ ('ne' ~ at.j) | ident }} ELSE 1 END
{% elif at.kind == 'kept' %}
    CASE WHEN {{ k }} IS NOT DISTINCT FROM rk.{{ ('v' ~ at.j) | ident }} THEN 0 ELSE 1 END
{% else %}
    1
{% endif %}
    {{ "+" if not loop.last }}
{% endfor %}
  ) / {{ dbl(g.attributes | length) }}) AS d
  FROM {{ ('pk' ~ gi) | ident }} AS pk
  CROSS JOIN {{ ('rk' ~ gi) | ident }} AS rk
  GROUP BY pk.pid
),
{% endif %}
{% endfor %}
done AS (SELECT 1 AS one)
SELECT grp, instances, loss FROM (
{% for g in groups %}
{% set gi = loop.index0 %}
{% if not loop.first %}
UNION ALL
{% endif %}
  SELECT {{ gi | lit }} AS grp, COUNT(*) AS instances,
{% if g.present %}
    COALESCE(SUM(COALESCE(d.d, 1)), 0) AS loss
  FROM {{ ('pk' ~ gi) | ident }} AS pk
  LEFT JOIN {{ ('d' ~ gi) | ident }} AS d ON d.pid = pk.pid
{% else %}
    {{ dbl('COUNT(*)') }} AS loss
  FROM {{ ('pk' ~ gi) | ident }} AS pk
{% endif %}
{% endfor %}
) AS losses
ORDER BY grp
