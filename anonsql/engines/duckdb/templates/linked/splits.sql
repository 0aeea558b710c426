{# linked/splits.sql for DuckDB: the shared template's counts (read it there), screened by
   hash (linked/_splits.sql): MIN and MAX of text compare strings row by row, of hashes
   integers (1e7 rows, 8 quasi-identifiers, P of two values: 0.38 s against 0.13 s). #}
{% from "linked/_splits.sql" import screened_splits_query with context %}
{{ screened_splits_query('HASH') }}
