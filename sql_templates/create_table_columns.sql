CREATE TABLE {{ target | qname }} (
{% for c in columns %}
  {{ c.name | ident }} {{ c.type }}{{ "," if not loop.last }}
{% endfor %}
)
