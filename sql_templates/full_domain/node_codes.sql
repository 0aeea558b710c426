{# The frequency table's path codes and row counts, read once when nodes are evaluated in memory
   (a small table: see anonsql.algorithms.full_domain.memory). #}
SELECT
{% for column in columns %}
  CAST({{ column | ident }} AS BIGINT) AS {{ column | ident }},
{% endfor %}
  CAST(n AS BIGINT) AS n
FROM {{ freq | qname }}
