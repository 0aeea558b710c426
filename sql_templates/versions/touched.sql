{# The rows of the classes a later version changes, as analysts group them (by the published
   quasi-identifiers ``qids``): every row of ``relation`` in a class that gained rows (placed at
   ``version``) or lost rows (left at ``version``). The publish gate checks the models, which a
   versioned release decides per class (anonsql.versions.delta.versionable_model), on these rows
   alone: every other class holds exactly the rows that the previous version, under the same
   spec, was verified with. Classes are matched by a hash of their published values (NULL-safe
   on every engine; a collision adds a class to check, never takes one away). #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
SELECT r.*
FROM {{ relation | qname }} AS r
WHERE {{ row_hash('r.', qids) }} IN (
  SELECT {{ row_hash('t.', qids) }} FROM {{ rows | qname }} AS t
  WHERE t.__anonsql_since = {{ version | lit }}
  UNION ALL
  SELECT {{ row_hash('l.', qids) }} FROM {{ left | qname }} AS l
  WHERE l.__anonsql_until = {{ version | lit }}
)
