{% from "risk/_classes.sql" import class_rows %}
WITH {{ class_rows(relation, qids) }}
SELECT n AS class_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY n
ORDER BY n
