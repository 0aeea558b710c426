{# The rows of a released relation grouped by its quasi-identifiers and the columns whose
   exposure is measured: the class table and every column's exposure are sums over it, so the
   relation analysts read is grouped once. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT {% for c in columns %}{{ c | ident }}, {% endfor %}CAST(COUNT(*) AS BIGINT) AS {{ '__anonsql_rows' | ident }}
FROM {{ relation | qname }} AS r
GROUP BY {% for c in columns %}{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
