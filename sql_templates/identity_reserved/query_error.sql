{#
  Count queries (Wang et al. 2019, Eq. 19): for each query of the workload (query, sa, and per
  quasi-identifier lo<i>/hi<i> for a numeric range or v<i> for a categorical value, NULL when
  the query does not constrain it), prec = individuals of the source matching every predicate,
  est = Σ over published classes of Π fraction of the class's value matching the predicate
  (numeric: integer overlap |[a,b] ∩ [lo,hi]| / (hi - lo + 1); categorical: 1/|V| if the value
  is in the set) x the class's individuals holding the sensitive value.
#}
{% from "identity_reserved/_text.sql" import interval_low, interval_high, set_size, set_contains %}
WITH prec AS (
  SELECT w.query, COUNT(DISTINCT s.{{ person | ident }}) AS prec
  FROM {{ workload | qname }} AS w
  JOIN {{ source | qname }} AS s ON s.{{ sensitive | ident }} = w.sa
  WHERE TRUE
{% for q in numeric %}
    AND (w.{{ ('lo' ~ loop.index0) | ident }} IS NULL OR (s.{{ q | ident }} >= w.{{ ('lo' ~ loop.index0) | ident }} AND s.{{ q | ident }} <= w.{{ ('hi' ~ loop.index0) | ident }}))
{% endfor %}
{% for c in categorical %}
    AND (w.{{ ('v' ~ loop.index0) | ident }} IS NULL OR CAST(s.{{ c | ident }} AS VARCHAR) = w.{{ ('v' ~ loop.index0) | ident }})
{% endfor %}
  GROUP BY w.query
),
published_classes AS (
  SELECT {% for q in numeric + categorical %}{{ q | ident }} AS {{ ('g' ~ loop.index0) | ident }}, {% endfor %}{{ sensitive | ident }} AS sa,
    COUNT(DISTINCT {{ person | ident }}) AS num
  FROM {{ published | qname }} AS p
  GROUP BY {% for q in numeric + categorical %}{{ q | ident }}, {% endfor %}{{ sensitive | ident }}
),
est AS (
  SELECT w.query, SUM(CAST(c.num AS DOUBLE)
{% for q in numeric %}
{% set g = ('c.' ~ (('g' ~ loop.index0) | ident)) %}
{% set lo = ('w.' ~ (('lo' ~ loop.index0) | ident)) %}
{% set hi = ('w.' ~ (('hi' ~ loop.index0) | ident)) %}
    * CASE WHEN {{ lo }} IS NULL THEN 1.0
      ELSE GREATEST(0.0, LEAST({{ hi }}, {{ interval_high(g) }}) - GREATEST({{ lo }}, {{ interval_low(g) }}) + 1.0)
        / ({{ interval_high(g) }} - {{ interval_low(g) }} + 1.0) END
{% endfor %}
{% for q in categorical %}
{% set g = ('c.' ~ (('g' ~ (loop.index0 + numeric | length)) | ident)) %}
{% set v = ('w.' ~ (('v' ~ loop.index0) | ident)) %}
    * CASE WHEN {{ v }} IS NULL THEN 1.0
      WHEN {{ set_contains(g, v) }} THEN 1.0 / CAST({{ set_size(g) }} AS DOUBLE) ELSE 0.0 END
{% endfor %}
  ) AS est
  FROM {{ workload | qname }} AS w
  JOIN published_classes AS c ON c.sa = w.sa
  GROUP BY w.query
)
SELECT w.query, COALESCE(p.prec, 0) AS prec, COALESCE(e.est, 0.0) AS est
FROM {{ workload | qname }} AS w
LEFT JOIN prec AS p ON p.query = w.query
LEFT JOIN est AS e ON e.query = w.query
ORDER BY w.query
