{# Per value of a published column P: how many distinct values of each quasi-identifier its
   rows hold (1: the value of P gives the quasi-identifier away). #}
{% macro determines(source, column, qids) -%}
determines AS (
  SELECT {{ column | ident }} AS p{% for q in qids %}, COUNT(DISTINCT {{ q | ident }}) AS {{ ('n' ~ loop.index0) | ident }}{% endfor %}

  FROM {{ source | qname }} AS s
  GROUP BY {{ column | ident }}
)
{%- endmacro %}
