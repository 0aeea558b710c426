{% from "privacy/_classes.sql" import qid_list, row_count %}
SELECT {{ qid_list(qids) }}, {{ row_count(weight | default(none)) }} AS class_size
FROM {{ relation | qname }}
GROUP BY {{ qid_list(qids) }}
HAVING {{ row_count(weight | default(none)) }} < {{ k | lit }}
