{# Shared macros of personalized publishing (digest 002). #}
{#
  The term of a numeric value x (a SQL expression) under fuzzy terms f (anonsql.algorithms.personalized.fuzzy.FuzzySql):
  the first term whose threshold x does not pass, the last term otherwise.
#}
{% macro fuzzy_term(x, f) -%}
CASE
{% for t in f.thresholds %}
  WHEN {{ x }} {{ '<' if (loop.first and f.first_strict) else '<=' }} {{ t | lit }} THEN {{ loop.index0 | lit }}
{% endfor %}
  ELSE {{ (f.count - 1) | lit }}
END
{%- endmacro %}
{#
  The weight of x in its term: under the triangular rule the larger of the two memberships of
  the segment between neighbouring centers (1 outside the centers); under the paper's interval
  rule linear over the term's interval, falling (rising for the last term); clamped to [0, 1].
#}
{% macro fuzzy_weight(x, f) -%}
{% if f.rule == 'triangular' %}
CASE
  WHEN {{ x }} <= {{ f.segments[0][0] | lit }} THEN CAST(1 AS DOUBLE)
{% for lo, hi in f.segments %}
  WHEN {{ x }} <= {{ hi | lit }} THEN GREATEST(({{ hi | lit }} - {{ x }}) / {{ (hi - lo) | lit }}, ({{ x }} - {{ lo | lit }}) / {{ (hi - lo) | lit }})
{% endfor %}
  ELSE CAST(1 AS DOUBLE)
END
{% else %}
GREATEST(CAST(0 AS DOUBLE), LEAST(CAST(1 AS DOUBLE), CASE {{ fuzzy_term(x, f) }}
{% for start, stop, rising in f.weights %}
  WHEN {{ loop.index0 | lit }} THEN {% if rising %}({{ x }} - {{ start | lit }}){% else %}({{ stop | lit }} - {{ x }}){% endif %} / {{ (stop - start) | lit }}
{% endfor %}
END))
{% endif %}
{%- endmacro %}
{#
  A keyed pseudo-random BIGINT in [0, 2^31 - 1) from a non-negative BIGINT expression, the same
  on every engine (integer arithmetic only; every product stays below 2^63). m holds the key
  (anonsql.algorithms.personalized.mixing.Mixer). Used as a sort key for tie-breaks and shuffles.
#}
{% macro mix(expr, m) -%}
{% set y %}(((({{ expr }}) % 2147483647) * {{ m.a1 | lit }} + {{ m.b1 | lit }}) % 2147483647){% endset %}
(((({{ y }} * {{ y }} + {{ m.b2 | lit }}) % 2147483647) * {{ m.a2 | lit }} + {{ m.b3 | lit }}) % 2147483647)
{%- endmacro %}
{# The attribute name of attribute number `expr` (names: the sensitive or QID column names). #}
{% macro attribute_name(expr, names) -%}
CASE {{ expr }}{% for name in names %} WHEN {{ loop.index0 | lit }} THEN {{ name | lit }}{% endfor %} END
{%- endmacro %}
{# A per-attribute integer (e.g. l or bucket_k) of attribute number `expr`. #}
{% macro per_attribute(expr, values) -%}
CASE {{ expr }}{% for v in values %} WHEN {{ loop.index0 | lit }} THEN {{ v | lit }}{% endfor %} END
{%- endmacro %}
{# One part of the cluster key: a QID, or a prefix of its text (digest T3). #}
{% macro key_part(p) -%}
{% if p.prefix is not none %}SUBSTRING(CAST({{ p.column | ident }} AS VARCHAR), 1, {{ p.prefix | lit }}){% else %}{{ p.column | ident }}{% endif %}
{%- endmacro %}
{# Whether the row aliased `alias` consents: its consent column holds one of the values meaning
   consent (NULL never does). #}
{% macro consented(alias, consent, values) -%}
{{ alias }}.{{ consent | ident }} IN ({% for v in values %}{{ v | lit }}{{ ", " if not loop.last }}{% endfor %})
{%- endmacro %}
