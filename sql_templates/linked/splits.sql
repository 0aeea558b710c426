{# For one published column P of the source: per quasi-identifier, the distinct values of the
   quasi-identifier, and the values of P whose rows hold more than one of them (none: P
   functionally determines the quasi-identifier). #}
{% from "linked/_determines.sql" import determines %}
WITH {{ determines(source, column, qids) }}
SELECT
{% for q in qids %}
  (SELECT COUNT(DISTINCT {{ q | ident }}) FROM {{ source | qname }} AS t) AS {{ ('distinct' ~ loop.index0) | ident }},
  SUM(CASE WHEN {{ ('n' ~ loop.index0) | ident }} > 1 THEN 1 ELSE 0 END) AS {{ ('split' ~ loop.index0) | ident }}{{ "," if not loop.last }}
{% endfor %}
FROM determines
