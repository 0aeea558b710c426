{# The version's grouping (versions/groups_next) of the classes it changes
   (versions/_touched.sql): what the gate's weighted checks read in place of those classes' rows
   (versions/touched). At 1e7 rows a day's new classes shared their published values with
   classes holding 1.85 million rows, which each check grouped again (0.16-0.19 s a model, and
   0.5 s hashing every row to find them); the grouping has a row per group. #}
{% from "versions/_keyed.sql" import row_hash %}
{% from "versions/_touched.sql" import changed_classes %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT g.*
FROM {{ groups | qname }} AS g
WHERE {{ row_hash('g.', qids) }} IN (
  {{ changed_classes(rows, left, qids, version) }}
)
