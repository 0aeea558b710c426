{# The largest class id the release ever gave: new classes are numbered after it. #}
SELECT COALESCE(MAX(c), 0) FROM (
  SELECT MAX(r.__anonsql_class_id) AS c FROM {{ rows | qname }} AS r
  UNION ALL
  SELECT MAX(l.__anonsql_class_id) AS c FROM {{ left | qname }} AS l
) AS m
