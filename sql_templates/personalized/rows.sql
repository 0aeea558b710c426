{#
  The consenting rows, vertically split (digest 002 §3.2 phases 0-1): rid (a row key numbered in
  the order of every used column, never published), q<i> the quasi-identifiers, and per
  sensitive attribute a: s<a> its label (the taxonomy leaf node of a categorical value, NULL
  when the value is not a leaf; the fuzzy term of a numeric value), r<a> its leaf rank (the term
  for numeric ones), x<a> and w<a> the numeric value and its term weight.
#}
{% from "personalized/_macros.sql" import consented, fuzzy_term, fuzzy_weight %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  CAST(ROW_NUMBER() OVER (ORDER BY {% for c in order_columns %}src.{{ c | ident }} ASC NULLS LAST{{ ", " if not loop.last }}{% endfor %}) AS BIGINT) AS rid
{% for q in qids %}
  , src.{{ q | ident }} AS {{ ('q' ~ loop.index0) | ident }}
{% endfor %}
{% for s in sensitive %}
{% if s.kind == 'categorical' %}
  , CAST({{ ('l' ~ s.attr) | ident }}.node AS INTEGER) AS {{ ('s' ~ s.attr) | ident }}
  , CAST({{ ('l' ~ s.attr) | ident }}.first_leaf AS INTEGER) AS {{ ('r' ~ s.attr) | ident }}
{% else %}
{% set x = 'CAST(src.' ~ (s.column | ident) ~ ' AS DOUBLE)' %}
  , CAST({{ fuzzy_term(x, s.fuzzy) }} AS INTEGER) AS {{ ('s' ~ s.attr) | ident }}
  , CAST({{ fuzzy_term(x, s.fuzzy) }} AS INTEGER) AS {{ ('r' ~ s.attr) | ident }}
  , {{ x }} AS {{ ('x' ~ s.attr) | ident }}
  , CAST({{ fuzzy_weight(x, s.fuzzy) }} AS DOUBLE) AS {{ ('w' ~ s.attr) | ident }}
{% endif %}
{% endfor %}
FROM {{ source | qname }} AS src
{% for s in sensitive if s.kind == 'categorical' %}
LEFT JOIN {{ labels | qname }} AS {{ ('l' ~ s.attr) | ident }}
  ON {{ ('l' ~ s.attr) | ident }}.attr = {{ s.attr | lit }}
  AND {{ ('l' ~ s.attr) | ident }}.is_leaf
  AND {{ ('l' ~ s.attr) | ident }}.label = CAST(src.{{ s.column | ident }} AS VARCHAR)
{% endfor %}
{% if consent is not none %}
WHERE {{ consented('src', consent, consent_values) }}
{% endif %}
