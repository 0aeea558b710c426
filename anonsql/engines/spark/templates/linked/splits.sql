{# linked/splits.sql for Spark: the shared template's counts (read it there). Spark has no hash
   aggregate for MIN and MAX of text (their buffers are not fixed-width): grouping by P it sorts
   every row of the source (1e7 rows: about 15 s of a run on local[2]). With `screen`, each
   value is compared by its 64-bit hash instead (a fixed-width buffer, so a hash aggregate):
   different hashes prove different values, so a quasi-identifier found several-valued, or a
   value of P found to split it, is so; where the screen finds one single-valued or not split
   (equal hashes: equal values, or a collision), it says so with `screened` = 1 and the caller
   asks again with `screen` false, for the exact counts. NULLs hash to NULL, which MIN and MAX
   ignore, as they ignore NULL values. #}
{% from "linked/_splits.sql" import splits_query with context %}
{% macro value(q) %}{% if screen and not q.boolean %}CASE WHEN {{ q.column | ident }} IS NULL THEN NULL ELSE XXHASH64({{ q.column | ident }}) END{% else %}{{ q.column | ident }}{% endif %}{% endmacro %}
{{ splits_query(value, 1 if screen else 0) }}
