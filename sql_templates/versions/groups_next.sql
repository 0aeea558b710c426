{# A later version's grouping of its rows (publish/refined's columns, ``__anonsql_rows`` rows
   per group), from the previous version's (``groups``) and what changed: the rows placed at
   ``version`` added, the rows that left at ``version`` taken away. Grouping the whole
   version again cost about a second at 1e7 rows; this reads the groups and the changed rows. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT {% for c in columns %}d.{{ c | ident }}, {% endfor %}CAST(SUM(d.n) AS BIGINT) AS {{ '__anonsql_rows' | ident }}
FROM (
  SELECT {% for c in columns %}g.{{ c | ident }}, {% endfor %}g.{{ '__anonsql_rows' | ident }} AS n
  FROM {{ groups | qname }} AS g
  UNION ALL
  SELECT {% for c in columns %}r.{{ c | ident }}, {% endfor %}COUNT(*) AS n
  FROM {{ rows | qname }} AS r
  WHERE r.__anonsql_since = {{ version | lit }}
  GROUP BY {% for c in columns %}r.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

  UNION ALL
  SELECT {% for c in columns %}l.{{ c | ident }}, {% endfor %}-COUNT(*) AS n
  FROM {{ left | qname }} AS l
  WHERE l.__anonsql_until = {{ version | lit }}
  GROUP BY {% for c in columns %}l.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

) AS d
GROUP BY {% for c in columns %}d.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}

HAVING SUM(d.n) > 0
