{# The partitions of a batch that forms no class: none (the columns the stage step reads). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT CAST(NULL AS BIGINT) AS pid, CAST(NULL AS BOOLEAN) AS suppressed
{% for d in dims %}
{% if d.is_numeric %}
  , CAST(NULL AS DOUBLE) AS {{ ('lo' ~ d.index) | ident }}, CAST(NULL AS DOUBLE) AS {{ ('hi' ~ d.index) | ident }}
{% else %}
  , CAST(NULL AS BIGINT) AS {{ ('node' ~ d.index) | ident }}
{% endif %}
{% endfor %}
WHERE 1 = 0
