{# A new history's batch: every source row with its row key (versions/_keyed.sql), as a view
   over the source rather than a copy of it. The hashes that repeat are found once, into a
   small table; the rest is recomputed by each of the batch's readers (its key sums, the
   algorithm's working rows, the history, written once from it). At 1e8 rows on DuckDB the
   copy took 31 s; the history's own join reads the source in about the time it read the copy.
   Only the history reads the ordinals: the window orders by every column, so that two rows
   whose hashes collide get the same ordinals on every read. ``scratch``: the prefix of the
   engine's run views (DuckDB's are temporary: Engine.scratch_view). #}
{% from "versions/_keyed.sql" import row_hash %}
CREATE {{ working_table }}TABLE {{ repeated | qname }} AS
SELECT r.h FROM (SELECT {{ row_hash('s.', columns) }} AS h FROM {{ source | qname }} AS s) AS r
GROUP BY r.h HAVING COUNT(*) > 1;
CREATE {{ scratch }}VIEW {{ target | qname }} AS
SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }}, CAST(1 AS BIGINT) AS {{ key_ord | ident }}
FROM {{ source | qname }} AS s
WHERE {{ row_hash('s.', columns) }} NOT IN (SELECT p.h FROM {{ repeated | qname }} AS p)
UNION ALL
SELECT x.*, ROW_NUMBER() OVER (
  PARTITION BY x.{{ key_hash | ident }}
  ORDER BY {% for c in columns %}x.{{ c | ident }}{{ ", " if not loop.last }}{% endfor %}
) AS {{ key_ord | ident }}
FROM (
  SELECT s.*, {{ row_hash('s.', columns) }} AS {{ key_hash | ident }} FROM {{ source | qname }} AS s
) AS x
WHERE x.{{ key_hash | ident }} IN (SELECT p.h FROM {{ repeated | qname }} AS p)
