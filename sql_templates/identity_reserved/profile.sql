{# Individuals of a relation of records, and rows without a person id or with a NULL quasi-identifier. #}
SELECT
  COUNT(DISTINCT {{ person | ident }}) AS persons,
  COALESCE(SUM(CASE WHEN {{ person | ident }} IS NULL THEN 1 ELSE 0 END), 0) AS null_persons,
  COALESCE(SUM(CASE WHEN {% for q in numeric + categorical %}{{ q | ident }} IS NULL OR {% endfor %}FALSE THEN 1 ELSE 0 END), 0) AS null_qids
FROM {{ relation | qname }} AS r
