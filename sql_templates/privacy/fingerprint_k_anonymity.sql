{# SA-fingerprint buckets (persons sharing one fingerprint) with fewer than k persons. #}
{% from "privacy/_persons.sql" import members_and_fingerprints, fingerprint_buckets %}
WITH {{ members_and_fingerprints(relation, qids, person, column) }},
{{ fingerprint_buckets() }}
SELECT fp AS fingerprint, persons
FROM buckets
WHERE persons < {{ k | lit }}
