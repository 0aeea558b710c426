{#
  Information loss of a published relation (Wang et al. 2019, Eqs. 11-14): per record, the sum
  over quasi-identifiers of (hi - lo) / (U - L) for a numeric "[lo, hi]" and (|V| - 1) / (|X| - 1)
  for a categorical set, 1 for a suppressed "*". numeric/categorical: lists of {name, span} and
  {name, size}. Returns the records and their summed loss.
#}
{% from "identity_reserved/_text.sql" import interval_low, interval_high, set_size %}
SELECT
  COUNT(*) AS records,
  COALESCE(SUM(0
{% for q in numeric %}
    + CASE WHEN {{ q.name | ident }} = '*' THEN 1.0
      {% if q.span > 0 %}ELSE ({{ interval_high(q.name | ident) }} - {{ interval_low(q.name | ident) }}) / CAST({{ q.span | lit }} AS DOUBLE){% else %}ELSE 0.0{% endif %} END
{% endfor %}
{% for c in categorical %}
    + CASE WHEN {{ c.name | ident }} = '*' THEN 1.0
      {% if c.size > 1 %}ELSE CAST({{ set_size(c.name | ident) }} - 1 AS DOUBLE) / CAST({{ (c.size - 1) | lit }} AS DOUBLE){% else %}ELSE 0.0{% endif %} END
{% endfor %}
  ), 0.0) AS loss
FROM {{ relation | qname }} AS r
