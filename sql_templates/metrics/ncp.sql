{# Per quasi-identifier: summed penalty over published rows, and rows whose label is not a
   node of the hierarchy. Numeric values are "[lo, hi]" text or a plain value; a categorical
   value is a hierarchy label, or a set of leaves "{a, b}" (identity-reserved set
   generalization: its leaves / the hierarchy's leaves, 0 for one leaf).
   With `classes` (the relation's class table: QID columns + class_size) each class counts
   for its class_size rows: the same sums over far fewer rows. #}
{% set w = 'r.class_size' if classes else '1' %}
SELECT
  {% if classes %}COALESCE(SUM(r.class_size), 0){% else %}COUNT(*){% endif %} AS published
{% for i, q in qids %}
{% set v = 'CAST(r.' ~ (q.column | ident) ~ ' AS VARCHAR)' %}
{% if q.kind == 'numeric' %}
  , SUM(CASE WHEN {{ v }} LIKE '[%' AND {{ q.span | lit }} > 0
         THEN {{ w }} * (CAST(SPLIT_PART(SUBSTRING({{ v }}, 2, LENGTH({{ v }}) - 2), ', ', 2) AS DOUBLE)
             - CAST(SPLIT_PART(SUBSTRING({{ v }}, 2, LENGTH({{ v }}) - 2), ', ', 1) AS DOUBLE)) / {{ q.span | lit }}
         ELSE 0 END) AS {{ ('penalty' ~ i) | ident }}
  , 0 AS {{ ('unmatched' ~ i) | ident }}
{% else %}
{% set is_set = 'SUBSTRING(' ~ v ~ ', 1, 1) = ' ~ ('{' | lit) %}
{% set set_size = '(LENGTH(' ~ v ~ ') - LENGTH(REPLACE(' ~ v ~ ', ' ~ (',' | lit) ~ ', ' ~ ('' | lit) ~ ')) + 1)' %}
  , SUM(CASE WHEN {{ ('h' ~ i) | ident }}.label IS NOT NULL THEN {{ w }} * {{ ('h' ~ i) | ident }}.ncp
         WHEN {{ is_set }} AND {{ set_size }} > 1 THEN {{ w }} * CAST({{ set_size }} AS DOUBLE) / {{ (q.leaf_count or 1) | lit }}
         ELSE 0 END) AS {{ ('penalty' ~ i) | ident }}
  , SUM(CASE WHEN {{ ('h' ~ i) | ident }}.label IS NULL AND NOT {{ is_set }} THEN {{ w }} ELSE 0 END) AS {{ ('unmatched' ~ i) | ident }}
{% endif %}
{% endfor %}
FROM {{ (classes or relation) | qname }} AS r
{% for i, q in qids if q.kind != 'numeric' %}
LEFT JOIN {{ nodes | qname }} AS {{ ('h' ~ i) | ident }}
  ON {{ ('h' ~ i) | ident }}.attribute = {{ q.column | lit }}
  AND {{ ('h' ~ i) | ident }}.label = CAST(r.{{ q.column | ident }} AS VARCHAR)
{% endfor %}
