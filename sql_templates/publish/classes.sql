{# Equivalence-class statistics of a published relation. #}
CREATE TABLE {{ target | qname }} AS
SELECT
{% for q in qids %}
  {{ q | ident }},
{% endfor %}
  COUNT(*) AS class_size
{% for s in sensitive %}
  , COUNT(DISTINCT {{ s | ident }}) AS {{ ('distinct ' ~ s) | ident }}
{% endfor %}
FROM {{ relation | qname }}
GROUP BY {% for q in qids %}{{ q | ident }}{{ ", " if not loop.last }}{% endfor %}
