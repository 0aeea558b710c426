{# Individuals, records and the most records of one individual, over the whole table. #}
SELECT COUNT(*) AS persons, CAST(SUM(records) AS BIGINT) AS records, MAX(records) AS max_records
FROM {{ rows | qname }}
