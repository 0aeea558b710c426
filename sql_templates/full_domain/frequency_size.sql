{# The frequency table's distinct vectors and source rows. #}
SELECT COUNT(*) AS vectors, CAST(SUM(f.n) AS BIGINT) AS source_rows
FROM {{ freq | qname }} AS f
