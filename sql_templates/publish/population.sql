{# A release's generalized population (full-domain k-map): per class the published values of its
   quasi-identifiers, as the release shows them, and the persons of the population table the
   release's recoding puts in it. k-map's violation query matches a release against it. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT
{% for d in dims %}
  g.{{ ('g' ~ d.index) | ident }} AS {{ d.column | ident }},
{% endfor %}
  c.n AS {{ count | ident }}
FROM {{ classes | qname }} AS c
JOIN {{ generalized | qname }} AS g ON g.pid = c.pid
