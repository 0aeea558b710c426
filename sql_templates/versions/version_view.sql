{# What analysts query (``materialize: view``): the published columns of every row of the
   version's private table, nothing filtered. #}
CREATE VIEW {{ target | qname }} AS
SELECT {% for c in columns %}r.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
FROM {{ rows | qname }} AS r
