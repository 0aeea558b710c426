{# Classes where one fingerprint holds more than 1/l of the persons (1:M l-diversity). #}
{% from "privacy/_persons.sql" import members_and_fingerprints, fingerprint_classes %}
{% from "privacy/_classes.sql" import class_columns %}
WITH {{ members_and_fingerprints(relation, qids, person, column) }},
{{ fingerprint_classes(qids) }}
SELECT {{ class_columns(qids) }}, class_persons, top_persons, fingerprints
FROM fingerprint_classes
WHERE top_persons * {{ l | lit }} > class_persons
