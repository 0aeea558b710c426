{# The labels of ``generalized`` (one row per partition: its published values ``g<index>``)
   that the dictionary does not have yet, for each coded column, numbered after the column's
   last code. Only placed partitions count: a suppressed partition's labels are never
   published, so they never reach a view's definition. #}
INSERT INTO {{ labels | qname }} (__anonsql_column, __anonsql_code, __anonsql_label)
{% for d in dims %}
{% set g = ('g' ~ d.index) | ident %}
SELECT {{ d.column | lit }}, CAST(n.last + ROW_NUMBER() OVER (ORDER BY x.label) AS INTEGER), x.label
FROM (
  SELECT DISTINCT p.{{ g }} AS label FROM {{ generalized | qname }} AS p
  WHERE NOT p.suppressed AND p.{{ g }} IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM {{ labels | qname }} AS l
    WHERE l.__anonsql_column = {{ d.column | lit }} AND l.__anonsql_label = p.{{ g }}
  )
) AS x
CROSS JOIN (
  SELECT COALESCE(MAX(l.__anonsql_code), 0) AS last FROM {{ labels | qname }} AS l
  WHERE l.__anonsql_column = {{ d.column | lit }}
) AS n
{{ "UNION ALL" if not loop.last }}
{% endfor %}
