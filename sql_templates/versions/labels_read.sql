{# The dictionary, in the order the decoding lists index it. #}
SELECT l.__anonsql_column, l.__anonsql_code, l.__anonsql_label FROM {{ labels | qname }} AS l
ORDER BY l.__anonsql_column, l.__anonsql_code
