{# The rows of the classes a later version changes, as analysts group them (by the published
   quasi-identifiers ``qids``): every row of ``relation`` whose published values hash as those
   of a row placed at ``version`` (a class that gained rows) or that left at ``version`` (one
   that lost rows); NULL-safe on every engine, a collision adds a class to check, never takes one
   away. The publish gate checks the models, which a versioned release decides per class
   (anonsql.versions.delta.versionable_model), on these rows alone: every other class holds
   exactly the rows that the previous version, under the same spec, was verified with. With
   ``grouped``, ``relation`` is the version's kept grouping (versions/groups_next), and the
   changed classes' groups are written as a table, which the models a grouping can answer read
   instead of the rows (a view, then read only by the others): at 1e7 rows a day's new classes
   shared their published values with classes holding 1.85 million rows, which each check
   grouped again (0.16-0.19 s a model, and 0.5 s hashing every row to find them). #}
{% from "versions/_keyed.sql" import row_hash %}
{% if grouped %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{% else %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
{% endif %}
SELECT r.*
FROM {{ relation | qname }} AS r
WHERE {{ row_hash('r.', qids) }} IN (
  SELECT {{ row_hash('t.', qids) }} FROM {{ rows | qname }} AS t
  WHERE t.__anonsql_since = {{ version | lit }}
  UNION ALL
  SELECT {{ row_hash('l.', qids) }} FROM {{ left | qname }} AS l
  WHERE l.__anonsql_until = {{ version | lit }}
)
