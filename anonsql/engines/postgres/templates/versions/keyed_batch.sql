{# A new history's batch on PostgreSQL: a view of the source with its row keys, every ordinal 1.
   Its key sums are read of the history's rows once placed (versions/placed_keys.sql), and
   only when some hash repeats is the batch made a keyed copy numbered by a window
   (versions/number_repeats.sql, Engine.numbers_repeats_after_sums). The working rows
   read the view as the source itself (PostgreSQL never computes a view's column no one reads);
   the history computes the hash again inside its parallel join. A keyed copy of 1e7 rows took
   11.0 s, and numbering every row by a window sorted every row with every column (1.78 s
   against 0.91 s for the copy at 1e6); a table of every row's hash for the sums to read, 11.4 s
   and 4.0 s for the sums; the sums of the source's hashes, 13.9 s. #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ scratch }}VIEW {{ target | qname }} AS
SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}, CAST(1 AS BIGINT) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
