{# The rows of the classes a later version changes (versions/_touched.sql): every row of
   ``relation`` in a class that gained or lost rows. The publish gate checks the models, which a
   versioned release decides per class (anonsql.versions.delta.versionable_model), on these rows
   alone: every other class holds exactly the rows that the previous version, under the same
   spec, was verified with. A model the grouping of these classes serves reads that instead
   (versions/touched_groups), so this view is read only by the others. #}
{% from "versions/_keyed.sql" import row_hash %}
{% from "versions/_touched.sql" import changed_classes %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
SELECT r.*
FROM {{ relation | qname }} AS r
WHERE {{ row_hash('r.', qids) }} IN (
  {{ changed_classes(rows, left, qids, version) }}
)
