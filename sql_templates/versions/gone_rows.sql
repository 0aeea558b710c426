{# Published rows whose row hash the source no longer has (versions/changes): the pending
   deletions, every column of the version's rows. #}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT h.*
FROM {{ rows | qname }} AS h
WHERE h.{{ key_hash | ident }} IN (
  SELECT c.__anonsql_gone_hash FROM {{ changes | qname }} AS c
  WHERE c.__anonsql_gone_hash IS NOT NULL
)
