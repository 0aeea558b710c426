{#
  One row per published tuple (a consenting row), in a keyed shuffled order (the row key and the
  source order are never published): its QID group, its quasi-identifiers generalized to the
  group's smallest covering generalization (when `generalized` is given: the spine's table of
  each group's published values) and, in paper_compat (`cells`), its published sensitive cells:
  the label (a value, a taxonomy ancestor or a fuzzy term) and, numeric, the weight.
#}
{% from "personalized/_macros.sql" import mix %}
CREATE TABLE {{ target | qname }} AS
SELECT m.group_id
{% if generalized is not none %}
{% for name, column in generalized.columns %}
  , g.{{ column | ident }} AS {{ name | ident }}
{% endfor %}
{% endif %}
{% for c in cells %}
  , {{ ('lab' ~ c.attr) | ident }}.label AS {{ c.column | ident }}
{% if c.numeric %}
  , {{ ('s' ~ c.attr) | ident }}.pweight AS {{ (c.column ~ '_weight') | ident }}
{% endif %}
{% endfor %}
FROM {{ members | qname }} AS m
{% if generalized is not none %}
JOIN {{ generalized.table | qname }} AS g ON g.pid = m.group_id
{% endif %}
{% for c in cells %}
{% set s = ('s' ~ c.attr) | ident %}
{% set lab = ('lab' ~ c.attr) | ident %}
JOIN {{ slots | qname }} AS {{ s }} ON {{ s }}.rid = m.rid AND {{ s }}.attr = {{ c.attr | lit }}
JOIN {{ labels | qname }} AS {{ lab }} ON {{ lab }}.attr = {{ s }}.attr AND {{ lab }}.node = {{ s }}.node
{% endfor %}
ORDER BY m.group_id, {{ mix('m.rid', mixer) }}, m.rid
