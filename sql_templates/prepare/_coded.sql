{# Quasi-identifiers as the working tables hold them: numeric ones as their value, categorical
   ones as the value's leaf rank in its hierarchy (joined by text). #}
{% macro coded_qids(dims) -%}
{% for d in dims %}
{% if d.is_numeric %}
  , src.{{ d.column | ident }} AS {{ d.code | ident }}
{% else %}
  , {{ ('l' ~ d.index) | ident }}.leaf_rank AS {{ d.code | ident }}
{% endif %}
{% endfor %}
{%- endmacro %}
{% macro leaf_joins(dims, leaves) -%}
{% for d in dims if not d.is_numeric %}
JOIN {{ leaves[d.index] | qname }} AS {{ ('l' ~ d.index) | ident }}
  ON {{ ('l' ~ d.index) | ident }}.value = CAST(src.{{ d.column | ident }} AS VARCHAR)
{% endfor %}
{%- endmacro %}
