{# How many labels each coded column has. #}
SELECT l.__anonsql_column, COUNT(*) FROM {{ labels | qname }} AS l GROUP BY l.__anonsql_column
