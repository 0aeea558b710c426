{# The source's rows counted per distinct combination of ``columns`` (anonsql.sql.CountedRows):
   read instead of the source by the weighted working rows (prepare/create_rows) and the
   recovery measure (linked/recovery), where the engine groups the source once
   (Engine.counts_source_once). #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT {% for c in columns %}s.{{ c | ident }}, {% endfor %}COUNT(*) AS {{ count | ident }}
FROM {{ source | qname }} AS s
GROUP BY {% for c in columns %}s.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
