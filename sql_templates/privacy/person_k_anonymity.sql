{% from "privacy/_persons.sql" import members %}
{% from "privacy/_classes.sql" import class_keys, class_columns %}
WITH {{ members(relation, qids, person) }}
SELECT {{ class_columns(qids) }}, COUNT(*) AS class_persons
FROM members
GROUP BY {{ class_keys(qids) }}
HAVING COUNT(*) < {{ k | lit }}
