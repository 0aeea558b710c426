SELECT CAST({% if count %}SUM({{ count | ident }}){% else %}COUNT(*){% endif %} AS DOUBLE) AS persons
FROM {{ population | qname }}
