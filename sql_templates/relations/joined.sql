{# A source table with tables joined to it, as a derived table (the caller gives the alias). #}
(SELECT
{% for c in relation.columns %}
  {{ ('t' ~ c.table) | ident }}.{{ c.name | ident }} AS {{ c.name | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM {{ relation.base | qname }} AS {{ 't0' | ident }}
{% for j in relation.joins %}
{% set alias = ('t' ~ loop.index) | ident %}
JOIN {{ j.table | qname }} AS {{ alias }}
  ON {% for k in j.keys %}{{ ('t' ~ k.left_table) | ident }}.{{ k.column | ident }} = {{ alias }}.{{ k.column | ident }}{{ " AND " if not loop.last }}{% endfor %}

{% endfor %}
)
