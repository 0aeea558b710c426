{# A column of the version's rows as analysts read it: a coded column (``decode``: column ->
   its labels, code 1 first) is its label, looked up in a constant list (no join: a query on
   the view costs about what it costs on a table of the labels); any other column is itself. #}
{% macro decoded(alias, column, decode) -%}
{% if column in decode -%}
([{% for label in decode[column] %}{{ label | lit }}{{ ", " if not loop.last }}{% endfor %}])[{{ alias }}.{{ column | ident }}]
{%- else -%}
{{ alias }}.{{ column | ident }}
{%- endif %}
{%- endmacro %}
