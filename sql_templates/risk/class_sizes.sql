{# The class-size distribution: per class size, the classes of that size; from the relation's
   class table (QID columns + class_size, built from the same relation) when `classes` is given;
   `counted`: the relation's column of row multiplicities, when its rows are grouped;
   `classes_are_rows`: each row of the relation is a class of its own (risk/_classes.sql). #}
{% from "risk/_classes.sql" import class_rows %}
{% if classes %}
SELECT class_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM {{ classes | qname }} AS c
GROUP BY class_size
ORDER BY class_size
{% else %}
WITH {{ class_rows(relation, qids, counted, classes_are_rows) }}
SELECT n AS class_size, CAST(COUNT(*) AS BIGINT) AS classes
FROM class_rows
GROUP BY n
ORDER BY n
{% endif %}
