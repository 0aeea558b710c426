{# The rows of the classes a later version changes (versions/_touched.sql): every row of
   ``relation`` in a class that gained or lost rows. The publish gate checks the models, which a
   versioned release decides per class (anonsql.versions.delta.versionable_model), on these rows
   alone: every other class holds exactly the rows that the previous version, under the same
   spec, was verified with. With ``grouped``, ``relation`` is the version's kept grouping
   (versions/groups_next), and the changed classes' groups are written as a table, which the
   models a grouping can answer read instead of the rows (a view, then read only by the
   others): at 1e7 rows a day's new classes shared their published values with classes holding
   1.85 million rows, which each check grouped again (0.16-0.19 s a model, and 0.5 s hashing
   every row to find them); the grouping has a row per group. #}
{% from "versions/_keyed.sql" import row_hash %}
{% from "versions/_touched.sql" import changed_classes %}
{% if grouped %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
{% else %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
{% endif %}
SELECT r.*
FROM {{ relation | qname }} AS r
WHERE {{ row_hash('r.', qids) }} IN (
  {{ changed_classes(rows, left, qids, version) }}
)
