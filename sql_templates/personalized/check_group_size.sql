{# Violations of k: QID groups of fewer than k rows. #}
SELECT group_id, COUNT(*) AS group_size
FROM {{ members | qname }}
GROUP BY group_id
HAVING COUNT(*) < {{ k | lit }}
