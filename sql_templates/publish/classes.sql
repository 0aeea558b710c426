{# Equivalence-class statistics of a published relation; with `refined`, `relation` is that
   relation already grouped more finely (publish/refined.sql, `__anonsql_rows` rows per group) and is summed. #}
CREATE TABLE {{ target | qname }} AS
SELECT
{% for q in qids %}
  {{ q | ident }},
{% endfor %}
{% if refined %}
  CAST(SUM({{ '__anonsql_rows' | ident }}) AS BIGINT) AS class_size
{% else %}
  COUNT(*) AS class_size
{% endif %}
{% for s in sensitive %}
  , COUNT(DISTINCT {{ s | ident }}) AS {{ ('distinct ' ~ s) | ident }}
{% endfor %}
FROM {{ relation | qname }}
GROUP BY {% for q in qids %}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
