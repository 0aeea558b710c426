{% from "risk/_classes.sql" import matched_classes %}
{% from "privacy/_classes.sql" import class_columns %}
WITH {{ matched_classes(relation, qids, population, count) }}
SELECT {{ class_columns(qids) }}, class_size, population_size
FROM matched
WHERE class_size > 0 AND population_size < {{ k | lit }}
