{# linked/splits.sql for Spark: the shared template's counts (read it there), screened by
   hash (linked/_splits.sql). Spark has no hash aggregate for MIN and MAX of text (their buffers
   are not fixed-width): grouping by P it sorts every row of the source (1e7 rows: about 15 s of
   a run on local[2]); a 64-bit hash has a fixed-width buffer, so a hash aggregate. #}
{% from "linked/_splits.sql" import screened_splits_query with context %}
{{ screened_splits_query('XXHASH64') }}
