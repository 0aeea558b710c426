{# Per used column of the consenting rows: rows without a usable value (a NULL quasi-identifier;
   a sensitive value that is NULL or, categorical, not a leaf of its taxonomy). #}
SELECT
  COUNT(*) AS rows_total
{% for q in qids %}
  , SUM(CASE WHEN {{ ('q' ~ loop.index0) | ident }} IS NULL THEN 1 ELSE 0 END) AS {{ ('mq' ~ loop.index0) | ident }}
{% endfor %}
{% for s in sensitive %}
  , SUM(CASE WHEN {{ ('s' ~ s.attr) | ident }} IS NULL OR {{ ('r' ~ s.attr) | ident }} IS NULL{% if s.kind == 'numeric' %} OR {{ ('x' ~ s.attr) | ident }} IS NULL{% endif %} THEN 1 ELSE 0 END) AS {{ ('ms' ~ s.attr) | ident }}
{% endfor %}
FROM {{ rows | qname }}
