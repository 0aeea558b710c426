{# The working table of an identity-reserved clustering: each person's class (pid), coded
   quasi-identifiers and number. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
  a.pid
{% for d in dims %}
  , p.{{ d.code | ident }}
{% endfor %}
  , p.person
FROM {{ persons | qname }} AS p
JOIN {{ assignment | qname }} AS a ON a.person = p.person
