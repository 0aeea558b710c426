{# A new history's batch on PostgreSQL: a copy of the source with its row keys, every ordinal
   1; the rows whose hash repeats are numbered afterwards, and only when the key sums found
   some (versions/number_repeats.sql, Engine.numbers_repeats_after_sums). Numbering every row
   by a window sorted every row with every column: at 1e6 rows 1.78 s against 0.91 s for the
   copy and 0.23 s for the distinct count. A view would hash every row again for each reader
   (sql_templates/versions/keyed_batch.sql is DuckDB's view). #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ working_table }}TABLE {{ target | qname }} AS
SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}, CAST(1 AS BIGINT) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
