{% from "privacy/_classes.sql" import qid_list %}
SELECT {{ qid_list(qids) }}, COUNT(*) AS class_size
FROM {{ relation | qname }}
GROUP BY {{ qid_list(qids) }}
HAVING COUNT(*) < {{ k | lit }}
