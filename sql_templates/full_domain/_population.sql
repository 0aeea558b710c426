{# The join from a grouped population row (r.v<i>) to its leaf (a hierarchy's leaves table, or a
   numeric column's ladder values) and on to its path code (the level table). #}
{% macro leaf_joins(dims, kind) -%}
{% for d in dims %}
{% set x = ('x' ~ d.index) | ident %}
{% set c = ('c' ~ d.index) | ident %}
{{ kind }} JOIN {{ d.leaves | qname }} AS {{ x }}
  ON {% if d.hierarchy %}{{ x }}.{{ 'value' | ident }}{% else %}CAST({{ x }}.{{ 'value' | ident }} AS DOUBLE){% endif %} = r.{{ ('v' ~ d.index) | ident }}
{{ kind }} JOIN {{ d.codes | qname }} AS {{ c }}
  ON {{ c }}.leaf = {{ x }}.{{ d.leaf | ident }}
{% endfor %}
{%- endmacro %}
