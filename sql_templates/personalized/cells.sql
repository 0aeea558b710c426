{#
  Per-attribute bucketization (digest 002 §3.2 phases 4 and 6): every sensitive attribute's
  cells ordered by (primary key frequency desc, primary key, secondary key frequency desc,
  secondary key, keyed draw) and dealt round-robin into the attribute's m buckets, so a value
  held f <= m times lands in f different buckets. Columns: attr, rid, bucket (1..m), pos (the
  dealing order), draw, orig (the original label node), leaf (its leaf rank or term), raw and
  weight (numeric), pweight (the published weight), node (the published label node) and since (the climbing
  round in which the cell reached it).
#}
{% from "personalized/_macros.sql" import mix %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{% for s in sensitive %}
SELECT
  CAST({{ s.attr | lit }} AS INTEGER) AS attr,
  rid,
  CAST(pos % {{ s.buckets | lit }} + 1 AS BIGINT) AS bucket,
  pos,
  draw,
  orig,
  leaf,
  raw,
  weight,
{% if s.kind == 'numeric' and s.step is not none %}
  CAST(FLOOR(weight / {{ s.step | lit }} + 0.5) * {{ s.step | lit }} AS DECIMAL(10, 6)) AS pweight,
{% elif s.kind == 'numeric' %}
  CAST(weight AS DECIMAL(10, 6)) AS pweight,
{% else %}
  CAST(NULL AS DECIMAL(10, 6)) AS pweight,
{% endif %}
  orig AS node,
  CAST(0 AS INTEGER) AS since
FROM (
  SELECT
    rid, draw, orig, leaf, raw, weight,
    CAST(ROW_NUMBER() OVER (
      ORDER BY f1 DESC, k1{% if s.secondary %}, f2 DESC, k2{% endif %}, draw, rid
    ) - 1 AS BIGINT) AS pos
  FROM (
    SELECT
      rid,
      {{ mix('rid * 64 + ' ~ s.attr, mixer) }} AS draw,
      {{ ('s' ~ s.attr) | ident }} AS orig,
      {{ ('r' ~ s.attr) | ident }} AS leaf,
{% if s.kind == 'numeric' %}
      {{ ('x' ~ s.attr) | ident }} AS raw,
      {{ ('w' ~ s.attr) | ident }} AS weight,
{% else %}
      CAST(NULL AS DOUBLE) AS raw,
      CAST(NULL AS DOUBLE) AS weight,
{% endif %}
      {{ s.primary | ident }} AS k1,
      COUNT(*) OVER (PARTITION BY {{ s.primary | ident }}) AS f1
{% if s.secondary %}
      , {{ s.secondary | ident }} AS k2
      , COUNT(*) OVER (PARTITION BY {{ s.primary | ident }}, {{ s.secondary | ident }}) AS f2
{% endif %}
    FROM {{ rows | qname }}
  ) AS {{ ('keyed' ~ s.attr) | ident }}
) AS {{ ('dealt' ~ s.attr) | ident }}
{{ "UNION ALL" if not loop.last }}
{% endfor %}
