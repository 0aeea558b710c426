{# The labels of a validated hierarchy table as text, leaf first, root last. #}
{% from "hierarchies/_levels.sql" import text %}
SELECT
{% for column in columns %}
  {{ text(column) }} AS {{ ("level" ~ loop.index0) | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ relation | qname }}
