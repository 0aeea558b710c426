{# Per sensitive attribute and original leaf (or term): rows. #}
SELECT attr, leaf, COUNT(*) AS n
FROM {{ cells | qname }}
GROUP BY attr, leaf
ORDER BY attr, leaf
