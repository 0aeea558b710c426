{% from "risk/_classes.sql" import matched_classes %}
WITH {{ matched_classes(relation, qids, population, count) }}
SELECT class_size, population_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM matched
WHERE class_size > 0
GROUP BY class_size, population_size
ORDER BY class_size, population_size
