{# Source rows now, those whose quasi-identifier vector the release's recoding map covers, and
   those it covers as suppressed. #}
SELECT
  COUNT(*) AS source_rows,
  COUNT(m.{{ '__anonsql_pid' | ident }}) AS covered_rows,
  SUM(CASE WHEN m.{{ '__anonsql_suppressed' | ident }} THEN 1 ELSE 0 END) AS suppressed_rows
FROM {{ source | qname }} AS s
LEFT JOIN {{ recoding | qname }} AS m
  ON {% for q in qids %}{% if q.numeric %}m.{{ q.column | ident }} = s.{{ q.column | ident }}{% else %}m.{{ q.column | ident }} = CAST(s.{{ q.column | ident }} AS VARCHAR){% endif %}{{ " AND " if not loop.last }}{% endfor %}
