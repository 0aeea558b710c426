{# A lattice node's grouping: per quasi-identifier the source's code column shifted right to
   the node's level (no shift when the source is already at that level). #}
{% macro group_expr(g) -%}
{% if g.shift %}(r.{{ g.column | ident }} >> {{ g.shift | lit }}){% else %}r.{{ g.column | ident }}{% endif %}
{%- endmacro %}
{% macro group_list(groups) -%}
{% for g in groups %}{{ group_expr(g) }}{{ ', ' if not loop.last }}{% endfor %}
{%- endmacro %}
