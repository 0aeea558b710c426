{# Persons whose rows are published under more than one quasi-identifier vector. #}
{% from "privacy/_persons.sql" import members %}
WITH {{ members(relation, qids, person) }}
SELECT person, COUNT(*) AS qid_vectors
FROM members
GROUP BY person
HAVING COUNT(*) > 1
