{# Every row in cluster-key order (ties by rid) with the label codes (leaf ranks or terms) of
   the given sensitive attributes: the compact per-row input of the safe grouping. #}
{% from "personalized/_macros.sql" import key_part %}
SELECT rid{% for s in sensitive %}, {{ ('r' ~ s.attr) | ident }}{% endfor %}

FROM {{ rows | qname }}
ORDER BY {% for p in key %}{{ key_part(p) }} ASC NULLS LAST, {% endfor %}rid
