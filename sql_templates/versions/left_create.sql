{# The rows that left the release (their deletion batch applied): the version's rows' columns
   and the version they left in (``until``). Empty for a new history. #}
CREATE TABLE {{ target | qname }} AS
SELECT r.*, CAST(NULL AS INTEGER) AS __anonsql_until
FROM {{ rows | qname }} AS r
WHERE 1 = 0
