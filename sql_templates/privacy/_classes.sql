{# Shared macros of the privacy violation queries. #}
{% macro qid_list(qids, prefix='') -%}
{% for q in qids %}{{ prefix }}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
{%- endmacro %}
{% macro class_join(qids, left, right) -%}
{% for q in qids %}{{ left }}.{{ q | ident }} IS NOT DISTINCT FROM {{ right }}.{{ q | ident }}{{ " AND " if not loop.last }}{% endfor %}
{%- endmacro %}
