SELECT safb, COUNT(*) AS persons FROM {{ person_buckets | qname }} GROUP BY safb ORDER BY safb
