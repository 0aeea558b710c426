{# (k, l)-diversity: fingerprint buckets below k persons, and classes that are not 1:M
   l-diverse, one row per violation. #}
{% from "privacy/_persons.sql" import members_and_fingerprints, fingerprint_classes, fingerprint_buckets %}
WITH {{ members_and_fingerprints(relation, qids, person, column) }},
{{ fingerprint_classes(qids) }},
{{ fingerprint_buckets() }}
SELECT 'fingerprint bucket' AS violation, persons
FROM buckets
WHERE persons < {{ k | lit }}
UNION ALL
SELECT 'class' AS violation, class_persons AS persons
FROM fingerprint_classes
WHERE top_persons * {{ l | lit }} > class_persons
