SELECT v.version, v.source_checksum, v.spec_sha256, v.published_rows
FROM {{ versions | qname }} AS v
ORDER BY v.version DESC
LIMIT 1
