{# Violations of k on a published release: QID groups of its tuples holding fewer than k. #}
SELECT group_id, COUNT(*) AS group_size
FROM {{ tuples | qname }}
GROUP BY group_id
HAVING COUNT(*) < {{ k | lit }}
